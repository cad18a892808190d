//! Turning the paths on the command line into litmus files: directories
//! expand to their `*.litmus` files, `-` is standard input, and a file
//! must be a regular file of at most [`MAX_BYTES`], and UTF-8 text whose
//! lines end in a line feed.

use std::collections::{HashSet, VecDeque};
use std::io::Read;
use std::path::{Path, PathBuf};

use miette::{NamedSource, SourceSpan};

/// The path that stands for standard input.
pub const STDIN: &str = "-";

/// How standard input is named in messages.
pub const STDIN_NAME: &str = "<stdin>";

/// A litmus file read from disk.
#[derive(Debug)]
pub struct SourceFile {
    /// The path as the user should see it.
    pub path: String,
    pub text: String,
}

/// A path that could not be read (the OS's reason follows as the cause).
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("cannot read {path}")]
#[diagnostic(code(relaxlab::io), help("check that the path exists and is readable"))]
pub struct ReadError {
    pub path: String,
    #[source]
    pub source: std::io::Error,
}

/// A file that could not be written (`fmt --write`).
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("cannot write {path}")]
#[diagnostic(code(relaxlab::io::write), help("check that the file is writable"))]
pub struct WriteError {
    pub path: String,
    #[source]
    pub source: std::io::Error,
}

/// A file that is not UTF-8, and where.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{path} is not UTF-8 text: byte {offset} (line {line}, column {column}) is {byte:#04x}")]
#[diagnostic(
    code(relaxlab::encoding),
    help("litmus files are UTF-8: convert the file, for example with `iconv -t UTF-8`")
)]
pub struct NotUtf8 {
    pub path: String,
    pub offset: usize,
    pub line: usize,
    pub column: usize,
    pub byte: u8,
    #[source_code]
    pub src: NamedSource<String>,
    #[label("not UTF-8")]
    pub at: SourceSpan,
}

/// A file whose lines end in a carriage return alone (classic Mac OS), and
/// where the first such line ends. The lexers end a line, and so a `//`
/// comment, at a line feed only: read as it is, such a file is one line,
/// and its first comment runs to its end.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{path} ends its lines with a carriage return alone (classic Mac OS line endings)")]
#[diagnostic(
    code(relaxlab::encoding::cr_line_ends),
    help("relaxlab ends a line at a line feed (LF, or CR LF): with CR alone, a `//` comment runs on to the end of the file. Convert the line endings, for example with `tr '\\r' '\\n' < OLD > NEW`")
)]
pub struct CrLineEnds {
    pub path: String,
    /// The text with each carriage return that ends a line shown as a
    /// line feed, as the file's author sees it.
    #[source_code]
    pub src: NamedSource<String>,
    #[label("a carriage return (CR) without a line feed after it")]
    pub at: SourceSpan,
}

/// The offset of the first carriage return not followed by a line feed.
fn lone_carriage_return(text: &str) -> Option<usize> {
    text.match_indices('\r')
        .map(|(i, _)| i)
        .find(|&i| text.as_bytes().get(i + 1) != Some(&b'\n'))
}

/// Why a path on the command line gives no test to read.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum InputError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Read(#[from] ReadError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    NotUtf8(Box<NotUtf8>),
    #[error(transparent)]
    #[diagnostic(transparent)]
    CrLineEnds(Box<CrLineEnds>),
    #[error("no litmus files in {0}")]
    #[diagnostic(
        code(relaxlab::no_files),
        help("a directory stands for the files named `*.litmus` under it")
    )]
    NoLitmusFiles(String),
    #[error("standard input (`-`) is named twice")]
    #[diagnostic(
        code(relaxlab::stdin_twice),
        help("a test can be read from standard input once")
    )]
    StdinTwice,
    #[error("{path} is not a regular file: it is {kind}")]
    #[diagnostic(code(relaxlab::io::not_a_file))]
    NotAFile {
        path: String,
        kind: &'static str,
        #[help]
        help: String,
    },
    #[error("{path} holds more than {} MiB", MAX_BYTES >> 20)]
    #[diagnostic(
        code(relaxlab::io::too_large),
        help("relaxlab reads at most {} MiB from a file or from standard input, far more than a litmus test or a cat model takes: is this the input you meant?", MAX_BYTES >> 20)
    )]
    TooLarge { path: String },
}

/// The most bytes relaxlab reads from one file, or from standard input
/// (256 MiB). The largest test of the library is a few hundred KB, and a
/// generated one of many megabytes still fits; the bound is there so that
/// a wrong file or a stream without end is refused rather than read until
/// memory runs out.
pub const MAX_BYTES: u64 = 256 << 20;

/// Why a file could not be read, before a diagnostic names it.
#[derive(Debug)]
pub enum Unreadable {
    /// The system's reason.
    Io(std::io::Error),
    /// Not a regular file: what it is instead ("a named pipe (FIFO)").
    NotAFile(&'static str),
    /// More than [`MAX_BYTES`].
    TooLarge,
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unreadable::Io(e) => write!(f, "{e}"),
            Unreadable::NotAFile(kind) => write!(f, "it is {kind}, not a regular file"),
            Unreadable::TooLarge => write!(
                f,
                "it holds more than {} MiB, the most relaxlab reads from a file",
                MAX_BYTES >> 20
            ),
        }
    }
}

impl From<Unreadable> for std::io::Error {
    fn from(u: Unreadable) -> std::io::Error {
        match u {
            Unreadable::Io(e) => e,
            other => std::io::Error::other(other.to_string()),
        }
    }
}

impl Unreadable {
    /// The diagnostic for the file `shown`.
    fn at(self, shown: String) -> InputError {
        match self {
            Unreadable::Io(source) => ReadError {
                path: shown,
                source,
            }
            .into(),
            Unreadable::NotAFile(kind) => {
                let help = if kind == DIRECTORY {
                    "this command reads one file: name a litmus file in the directory".to_string()
                } else {
                    format!(
                        "relaxlab reads regular files, the `*.litmus` files under a directory, and standard input: to read {kind}, name `-` instead and redirect standard input from it (`- < {shown}`)"
                    )
                };
                InputError::NotAFile {
                    path: shown,
                    kind,
                    help,
                }
            }
            Unreadable::TooLarge => InputError::TooLarge { path: shown },
        }
    }
}

/// How a diagnostic names a directory that is not a file.
const DIRECTORY: &str = "a directory";

/// What a file that is not a regular file is.
fn kind(file_type: std::fs::FileType) -> &'static str {
    if file_type.is_dir() {
        return DIRECTORY;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    "a special file"
}

/// The bytes of the regular file at `path` (a symbolic link to one is
/// followed), at most [`MAX_BYTES`] of them. Anything else is refused
/// before it is opened: opening a named pipe blocks until something writes
/// to it, and a device such as `/dev/zero` never ends.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, Unreadable> {
    let meta = std::fs::metadata(path).map_err(Unreadable::Io)?;
    if !meta.is_file() {
        return Err(Unreadable::NotAFile(kind(meta.file_type())));
    }
    if meta.len() > MAX_BYTES {
        return Err(Unreadable::TooLarge);
    }
    let file = std::fs::File::open(path).map_err(Unreadable::Io)?;
    // The length can be wrong (files of /proc say 0) or grow: the read
    // itself stops past the bound. As a first guess it saves the reads of
    // a buffer grown from 32 bytes (seven for a 2 KB test).
    read_at_most(file, meta.len())
}

/// Everything `reader` gives, unless that is more than [`MAX_BYTES`];
/// `expected` bytes, probably.
fn read_at_most(reader: impl Read, expected: u64) -> Result<Vec<u8>, Unreadable> {
    // One byte more than expected: the read that finds the end needs room.
    let mut bytes = Vec::with_capacity(expected.min(MAX_BYTES) as usize + 1);
    reader
        .take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(Unreadable::Io)?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(Unreadable::TooLarge);
    }
    Ok(bytes)
}

/// Expands directories into their `*.litmus` files (recursively, sorted by
/// path so output order never depends on the file system), keeping files
/// given explicitly in the order given. A directory without litmus files
/// is an error: a person who names one expects tests to run.
///
/// Each file is listed once: one reached again (named twice, named and
/// inside a directory named, or through a symbolic link) keeps the place
/// and the path where it was first reached. Symbolic links to directories
/// are followed, each directory is walked once ([`walk`]), so a link back
/// up the tree (`sub/up -> ..`) ends the walk there instead of looping.
pub fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, InputError> {
    let mut out = Vec::new();
    let mut listed = HashSet::new();
    for path in paths {
        if path.as_os_str() == STDIN {
            if out.iter().any(|p: &PathBuf| p.as_os_str() == STDIN) {
                return Err(InputError::StdinTwice);
            }
            out.push(path.clone());
            continue;
        }
        // One look at the file for both questions (a batch names hundreds).
        let meta = std::fs::metadata(path).ok();
        if meta.as_ref().is_some_and(std::fs::Metadata::is_dir) {
            let mut found = Vec::new();
            walk(path, &mut found)?;
            if found.is_empty() {
                return Err(InputError::NoLitmusFiles(path.display().to_string()));
            }
            found.sort();
            out.extend(found.into_iter().filter(|f| listed.insert(Identity::of(f))));
        } else if listed.insert(Identity::with(path, meta.as_ref())) {
            out.push(path.clone());
        }
    }
    Ok(out)
}

/// What makes two paths the same file or directory: its device and inode
/// where the system has them, its canonical path elsewhere, and the path
/// as written when it cannot be examined (it does not exist: reading it
/// reports that).
#[derive(Debug, PartialEq, Eq, Hash)]
enum Identity {
    Inode(u64, u64),
    Path(PathBuf),
}

impl Identity {
    fn of(path: &Path) -> Identity {
        Identity::with(path, std::fs::metadata(path).ok().as_ref())
    }

    /// The identity of `path`, whose metadata (symbolic links followed)
    /// is `meta`, if it could be read.
    fn with(path: &Path, meta: Option<&std::fs::Metadata>) -> Identity {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            if let Some(meta) = meta {
                return Identity::Inode(meta.dev(), meta.ino());
            }
        }
        #[cfg(not(unix))]
        let _ = meta;
        Identity::Path(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
    }
}

/// Collects the `*.litmus` files under `root`. The real subdirectories are
/// walked first, then the directories symbolic links lead to, in rounds (a
/// link found behind a link waits for the next round), and a directory
/// already walked is skipped: each directory is walked once, a loop of
/// links ends, and a directory that is both in the tree and behind a link
/// is found at its path in the tree. Entries are taken in name order, so
/// which path reaches a directory first never depends on the file system.
fn walk(root: &Path, out: &mut Vec<PathBuf>) -> Result<(), ReadError> {
    let mut walked = HashSet::new();
    let mut linked = VecDeque::from([root.to_path_buf()]);
    while let Some(top) = linked.pop_front() {
        if walked.insert(Identity::of(&top)) {
            let mut next = Vec::new();
            tree(&top, &mut walked, &mut next, out)?;
            linked.extend(next);
        }
    }
    Ok(())
}

/// The real subdirectories of `dir`, depth first in name order: their
/// litmus files go to `out`, the symbolic links to directories they hold
/// to `linked`.
fn tree(
    dir: &Path,
    walked: &mut HashSet<Identity>,
    linked: &mut Vec<PathBuf>,
    out: &mut Vec<PathBuf>,
) -> Result<(), ReadError> {
    let err = |source| ReadError {
        path: dir.display().to_string(),
        source,
    };
    let mut entries = std::fs::read_dir(dir)
        .map_err(err)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(err)?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let path = entry.path();
        // The entry itself: a symbolic link is not followed here.
        let kind = entry.file_type().map_err(err)?;
        if kind.is_dir() {
            if walked.insert(Identity::of(&path)) {
                tree(&path, walked, linked, out)?;
            }
        } else if kind.is_symlink() && path.is_dir() {
            linked.push(path);
        } else if path.extension().is_some_and(|e| e == "litmus") {
            out.push(path);
        }
    }
    Ok(())
}

/// Reads one file (`-`: standard input): a regular file, or standard
/// input, of at most [`MAX_BYTES`].
pub fn read(path: &Path) -> Result<SourceFile, InputError> {
    let (shown, bytes) = if path.as_os_str() == STDIN {
        (
            STDIN_NAME.to_string(),
            read_at_most(std::io::stdin().lock(), 0),
        )
    } else {
        (path.display().to_string(), read_bytes(path))
    };
    match bytes {
        Ok(bytes) => text(shown, bytes),
        Err(e) => Err(e.at(shown)),
    }
}

/// Fails as [`read`] would when `path` is not a file that can be read
/// (it does not exist, is not a file or is too large), from its metadata
/// alone: a command that reads many files one by one as it prints checks
/// them all first, so that a missing file stops it before it prints
/// anything (a file that exists but does not open is reported when it is
/// read).
pub fn check_readable(path: &Path) -> Result<(), InputError> {
    if path.as_os_str() == STDIN {
        return Ok(());
    }
    let readable = std::fs::metadata(path)
        .map_err(Unreadable::Io)
        .and_then(|meta| {
            if !meta.is_file() {
                return Err(Unreadable::NotAFile(kind(meta.file_type())));
            }
            if meta.len() > MAX_BYTES {
                return Err(Unreadable::TooLarge);
            }
            Ok(())
        });
    readable.map_err(|e| e.at(path.display().to_string()))
}

/// The UTF-8 byte order mark some editors write at the start of a file.
const BOM: &str = "\u{feff}";

/// `text` without a leading byte order mark: it says nothing in UTF-8,
/// and every reader of litmus (relaxlab's, herd7's C and X86) and cat
/// files would see an unexpected invisible character. Spans are offsets
/// into the text returned, which is also the text diagnostics show.
pub fn without_bom(mut text: String) -> String {
    if text.starts_with(BOM) {
        text.drain(..BOM.len());
    }
    text
}

/// The text of a file (without a leading byte order mark), or where it
/// stops being UTF-8.
fn text(path: String, bytes: Vec<u8>) -> Result<SourceFile, InputError> {
    match String::from_utf8(bytes) {
        Ok(text) => {
            let text = without_bom(text);
            match lone_carriage_return(&text) {
                None => Ok(SourceFile { path, text }),
                Some(at) => {
                    // Shown with its lines as their author sees them, and
                    // the same offsets.
                    let lines: String = text
                        .char_indices()
                        .map(|(i, c)| match c {
                            '\r' if text.as_bytes().get(i + 1) != Some(&b'\n') => '\n',
                            c => c,
                        })
                        .collect();
                    let shown = relaxlab_grammar::printable(&lines).into_owned();
                    Err(InputError::CrLineEnds(Box::new(CrLineEnds {
                        src: NamedSource::new(&path, shown),
                        at: (at, 1).into(),
                        path,
                    })))
                }
            }
        }
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let before = &bytes[..offset];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let line_start = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            // Characters, as miette counts columns; the prefix is valid UTF-8.
            let column = String::from_utf8_lossy(&before[line_start..])
                .chars()
                .count()
                + 1;
            // The lossy text keeps every byte before the bad one in place,
            // and so does hiding its control characters (a file of random
            // bytes holds ESC, NUL and CR, which a terminal would obey).
            let lossy = String::from_utf8_lossy(&bytes);
            let shown = relaxlab_grammar::printable(&lossy).into_owned();
            let bad_len = shown[offset..].chars().next().map_or(0, char::len_utf8);
            Err(InputError::NotUtf8(Box::new(NotUtf8 {
                byte: bytes[offset],
                src: NamedSource::new(&path, shown),
                at: (offset, bad_len).into(),
                path,
                offset,
                line,
                column,
            })))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_byte_is_located() {
        let Err(InputError::NotUtf8(e)) = text("f".into(), b"ab\ncd\xe9f".to_vec()) else {
            panic!("accepted")
        };
        let NotUtf8 {
            offset,
            line,
            column,
            byte,
            ..
        } = *e;
        assert_eq!((offset, line, column, byte), (5, 2, 3, 0xe9));
    }

    #[test]
    fn a_leading_byte_order_mark_is_dropped() {
        let Ok(file) = text("f".into(), b"\xef\xbb\xbftest T\n".to_vec()) else {
            panic!("refused")
        };
        assert_eq!(file.text, "test T\n");
        assert_eq!(without_bom("a\u{feff}".into()), "a\u{feff}");
    }
}
