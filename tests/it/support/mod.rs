//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `*.litmus` file under `dir` (relative to the root), sorted.
pub fn litmus_files(dir: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(&root().join(dir), &mut out);
    out.sort();
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "litmus") {
            out.push(path);
        }
    }
}

/// Runs the CLI in-process from the repository root; returns (exit code,
/// stdout, stderr).
pub fn relaxlab(args: &[&str]) -> (u8, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut full = vec!["relaxlab"];
    full.extend_from_slice(args);
    let exit = relaxlab::run_cli(
        full,
        &mut relaxlab::Io {
            out: &mut out,
            err: &mut err,
        },
    );
    (
        exit.code(),
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// A path relative to the root, with `/` separators.
pub fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// What the real binary did: its exit code (`None` when a signal ended
/// it), stdout and stderr.
#[derive(Debug)]
pub struct Ran {
    pub code: Option<i32>,
    pub out: String,
    pub err: String,
}

/// Runs the relaxlab binary as a person would, from `dir` (the repository
/// root when `None`), with `stdin` as its standard input.
pub fn binary_in(dir: Option<&Path>, args: &[&str], stdin: &[u8]) -> Ran {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_relaxlab"))
        .args(args)
        .current_dir(dir.map(Path::to_path_buf).unwrap_or_else(root))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the relaxlab binary starts");
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().expect("relaxlab ends");
    let _ = writer.join();
    Ran {
        code: output.status.code(),
        out: String::from_utf8_lossy(&output.stdout).into_owned(),
        err: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// [`binary_in`] from the repository root with empty standard input.
pub fn binary(args: &[&str]) -> Ran {
    binary_in(None, args, b"")
}

/// A fresh empty directory under the target directory, named after
/// `name`, for files a test writes. `RELAXLAB_TEST_SCRATCH` names another
/// parent: diagnostics that print a scratch path wrap where the path's
/// length puts them, and running the tests under parents of many lengths
/// shows which checks depend on it (see [`flat`]).
pub fn scratch(name: &str) -> PathBuf {
    let parent = std::env::var_os("RELAXLAB_TEST_SCRATCH")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")));
    let dir = parent.join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `text` with miette's line wrapping undone: its words joined by single
/// spaces, without the `│` that starts a continued line. A diagnostic's
/// message wraps at the terminal width (80 columns off a terminal), and
/// where it breaks depends on how long the paths it prints are, so checks
/// of a message that names a path look at it flattened.
pub fn flat(text: &str) -> String {
    text.split_whitespace()
        .filter(|w| *w != "│")
        .collect::<Vec<_>>()
        .join(" ")
}

/// [`binary_in`] with a time limit: `None` when relaxlab was still
/// running after `limit` (it is then killed). For inputs that used to make
/// relaxlab loop or block forever, so that such a test fails instead of
/// hanging.
pub fn binary_within(dir: Option<&Path>, args: &[&str], limit: std::time::Duration) -> Option<Ran> {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_relaxlab"))
        .args(args)
        .current_dir(dir.map(Path::to_path_buf).unwrap_or_else(root))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the relaxlab binary starts");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("relaxlab can be waited for") {
            break Some(status);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let (out, err) = (out.join().unwrap(), err.join().unwrap());
    status.map(|status| Ran {
        code: status.code(),
        out,
        err,
    })
}
