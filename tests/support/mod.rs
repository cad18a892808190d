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
