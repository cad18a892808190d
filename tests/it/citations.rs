//! Citations point into the repository (book: reference.md, Citations).
//!
//! Every text file of the repository (outside `target/`, `.git/`, the
//! built book and vendored code) is read, and:
//! - every `book: CHAPTER.md` names a chapter of `book/src/`, and every
//!   `book: CHAPTER.md, Section` one of that chapter's headings (compared
//!   through mdBook's anchors, as the book's own links are);
//! - every repository path a text names (`semantics/src/mapping.rs`,
//!   `tests/it/cat.rs`, `litmus/classic/SB.litmus`) exists, at the root or
//!   in a crate (`src/lexer.rs` in `grammar/`), and every file name a
//!   text gives without a folder (`mapping.md`, `c11_random.rs`) is the
//!   name of one of its files;
//! - no text names the design documents the project started from, which
//!   are not in the repository.

use std::path::{Path, PathBuf};

use crate::book::heading_ids;
use crate::support;

/// Every text file the project writes, relative to the root, sorted.
fn text_files() -> Vec<(String, String)> {
    let root = support::root();
    let mut out = Vec::new();
    walk(&root, &mut out);
    out.sort();
    out
}

fn walk(dir: &Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let rel = support::relative(&path);
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == ".git" {
            continue;
        }
        if path.is_dir() {
            let generated = name.starts_with("target")
                || rel == "book/book"
                || rel == "src/serve/assets/vendor";
            if !generated {
                walk(&path, out);
            }
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            out.push((rel, text));
        }
    }
}

/// A citation as read from a text: the chapter, and the section if any.
type Citation = (String, Option<String>);

/// Each `book: ...` citation of `text`, and each malformed one (a chapter
/// given by its title in quotes, or a section cut by a line break), which
/// the reader could not follow, as it appears.
fn citations(text: &str) -> (Vec<Citation>, Vec<String>) {
    let mut out = Vec::new();
    let mut malformed = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("book:") {
        rest = &rest[i + "book:".len()..];
        let line = rest.lines().next().unwrap_or("");
        if line.trim().is_empty() || line.starts_with(" \"") {
            malformed.push(format!("book:{line}"));
            continue;
        }
        let Some(after_space) = rest.strip_prefix(' ') else {
            continue;
        };
        let chapter: String = after_space
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_' || *c == '.')
            .collect();
        let chapter = chapter.trim_end_matches('.').to_string();
        // A chapter named without its `.md` is malformed;
        // `book: {subset}` in a message is no citation.
        if !chapter.ends_with(".md") {
            let short =
                !chapter.is_empty() && chapter.chars().all(|c| c.is_ascii_lowercase() || c == '-');
            if short && after_space[chapter.len()..].starts_with([')', ',', ';']) {
                malformed.push(format!("book: {chapter}"));
            }
            continue;
        }
        if chapter == "CHAPTER.md" {
            continue;
        }
        let after = &after_space[chapter.len()..];
        if after.starts_with(",\n") || after.starts_with(", \n") {
            malformed.push(format!("book: {chapter},"));
            continue;
        }
        let section = after.strip_prefix(", ").map(section_text);
        out.push((chapter, section));
    }
    (out, malformed)
}

/// The section of a citation: up to the end of the line, a quote or
/// backquote, a `;` or an unbalanced `)`, without a final full stop.
fn section_text(text: &str) -> String {
    let mut depth = 0usize;
    let mut end = text.len();
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => {
                end = i;
                break;
            }
            ')' => depth -= 1,
            ';' if depth == 0 => {
                end = i;
                break;
            }
            '\n' | '"' | '`' | ']' | '*' => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    text[..end].trim().trim_end_matches('.').trim().to_string()
}

/// The anchor mdBook gives a heading with this text.
fn anchor(section: &str) -> String {
    heading_ids(&format!("# {section}"))
        .pop()
        .unwrap_or_default()
}

#[test]
fn every_book_citation_names_a_chapter_and_one_of_its_headings() {
    let book = support::root().join("book/src");
    let mut checked = 0;
    let mut broken = Vec::new();
    for (file, text) in text_files() {
        let (found, malformed) = citations(&text);
        for m in malformed {
            broken.push(format!(
                "{file}: {m} (not `book: CHAPTER.md, Section` on one line)"
            ));
        }
        for (chapter, section) in found {
            let path = book.join(&chapter);
            let Ok(body) = std::fs::read_to_string(&path) else {
                broken.push(format!("{file}: book: {chapter} (no such chapter)"));
                continue;
            };
            if let Some(section) = section {
                if !heading_ids(&body).contains(&anchor(&section)) {
                    broken.push(format!(
                        "{file}: book: {chapter}, {section} (no such heading)"
                    ));
                }
            }
            checked += 1;
        }
    }
    assert!(
        broken.is_empty(),
        "citations that lead nowhere: {broken:#?}"
    );
    assert!(checked >= 100, "only {checked} citations found");
}

/// The design documents' names, put together here so that this file does
/// not name them itself.
fn design_documents() -> Vec<String> {
    let mut names: Vec<String> = ["MODELS", "LANGUAGE", "ARCHITECTURE", "STYLE"]
        .iter()
        .map(|n| format!("{n}.md"))
        .collect();
    names.push(["shared", "design"].join("/"));
    names.push(["shared", "seeds"].join("/"));
    names
}

#[test]
fn no_text_names_a_design_document_outside_the_repository() {
    let names = design_documents();
    let mut found = Vec::new();
    for (file, text) in text_files() {
        for name in &names {
            if text.contains(name.as_str()) {
                found.push(format!("{file}: {name}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "texts naming files outside the repository: {found:#?}"
    );
}

/// The top folders of the repository a path in a text may start with.
const TOP: [&str; 8] = [
    ".ci/",
    "src/",
    "tests/",
    "grammar/",
    "semantics/",
    "book/",
    "litmus/",
    "cat/",
];

/// What a file named in a text may end with.
const EXTENSIONS: [&str; 11] = [
    ".rs", ".md", ".litmus", ".cat", ".snap", ".toml", ".txt", ".lalrpop", ".js", ".html", ".css",
];

/// The repository paths `text` names: words of path characters that start
/// with a top folder and end with a known extension. Templates
/// (`cat/NAME.cat`, `tests/golden/{name}.snap`) are left out.
fn paths(text: &str) -> Vec<String> {
    let word = |c: char| c.is_ascii_alphanumeric() || "_./+-".contains(c);
    let mut out = Vec::new();
    for w in text.split(|c: char| !word(c)) {
        let w = w.trim_end_matches('.');
        if !TOP.iter().any(|t| w.starts_with(t)) || !EXTENSIONS.iter().any(|e| w.ends_with(e)) {
            continue;
        }
        let stem = Path::new(w)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        // Placeholders of examples and messages.
        if ["NAME", "M", "x", "FILE"].contains(&stem.as_str()) {
            continue;
        }
        out.push(w.to_string());
    }
    out
}

#[test]
fn every_path_a_text_names_exists() {
    let root = support::root();
    let mut checked = 0;
    let mut missing = Vec::new();
    for (file, text) in text_files() {
        for path in paths(&text) {
            let candidates: [PathBuf; 3] = [
                root.join(&path),
                root.join("grammar").join(&path),
                root.join("semantics").join(&path),
            ];
            if !candidates.iter().any(|p| p.exists()) {
                missing.push(format!("{file}: {path}"));
            }
            checked += 1;
        }
    }
    assert!(
        missing.is_empty(),
        "paths that are not in the repository: {missing:#?}"
    );
    assert!(checked >= 100, "only {checked} paths found");
}

/// The file names `text` gives without a folder (`mapping.md`,
/// `c11_random.rs`): words of path characters with no `/` that end with
/// `.md` or `.rs`. Templates (`CHAPTER.md`, `NAME.md`) are left out.
fn bare_names(text: &str) -> Vec<String> {
    let word = |c: char| c.is_ascii_alphanumeric() || "_./+-".contains(c);
    text.split(|c: char| !word(c))
        .map(|w| w.trim_end_matches('.'))
        .filter(|w| !w.contains('/') && (w.ends_with(".md") || w.ends_with(".rs")))
        .filter(|w| w.len() > 3 && !["CHAPTER.md", "NAME.md", "NAME.rs"].contains(w))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_file_name_a_text_gives_is_a_file_of_the_repository() {
    let files = text_files();
    let names: std::collections::BTreeSet<String> = files
        .iter()
        .filter_map(|(path, _)| path.rsplit('/').next().map(str::to_string))
        .collect();
    let mut checked = 0;
    let mut missing = Vec::new();
    for (file, text) in &files {
        for name in bare_names(text) {
            if !names.contains(&name) {
                missing.push(format!("{file}: {name}"));
            }
            checked += 1;
        }
    }
    assert!(
        missing.is_empty(),
        "files that are not in the repository: {missing:#?}"
    );
    assert!(checked >= 100, "only {checked} file names found");
}

#[test]
fn citations_and_sections_are_read_as_documented() {
    let text = "(book: mapping.md, The table (--mapping standard, the default)); \
                book: model-tso.md. `book: axiomatic.md, C11 models` (* book: cat.md, Includes *)";
    assert_eq!(
        citations(text).0,
        vec![
            (
                "mapping.md".to_string(),
                Some("The table (--mapping standard, the default)".to_string())
            ),
            ("model-tso.md".to_string(), None),
            ("axiomatic.md".to_string(), Some("C11 models".to_string())),
            ("cat.md".to_string(), Some("Includes".to_string())),
        ]
    );
    // A chapter without `.md`, put together so that this file has none.
    let short = format!("(book: {})", "mapping");
    let (found, malformed) = citations(&format!(
        "(book: \"herd7 compatibility\", \"Jumps\") and (book: herd.md,\n// Jumps); \
         book: CHAPTER.md is a template, book: {{subset}} a message, {short}"
    ));
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(
        malformed,
        vec![
            "book: \"herd7 compatibility\", \"Jumps\") and (book: herd.md,",
            "book: herd.md,",
            "book: mapping"
        ]
    );
    assert_eq!(
        anchor("The table (`--mapping standard`, the default)"),
        "the-table---mapping-standard-the-default"
    );
    assert_eq!(
        bare_names("as lib.rs says (book: cat.md); not src/lib.rs, nor CHAPTER.md"),
        vec!["lib.rs", "cat.md"]
    );
    assert_eq!(
        paths("see `semantics/src/mapping.rs`, cat/NAME.cat and (tests/it/cat.rs)."),
        vec!["semantics/src/mapping.rs", "tests/it/cat.rs"]
    );
}
