//! Turning the paths on the command line into litmus files.

use std::path::{Path, PathBuf};

/// A litmus file read from disk.
#[derive(Debug)]
pub struct SourceFile {
    /// The path as the user should see it.
    pub path: String,
    pub text: String,
}

/// A path that could not be read.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("cannot read {path}: {source}")]
#[diagnostic(code(relaxlab::io), help("check that the path exists and is readable"))]
pub struct ReadError {
    pub path: String,
    #[source]
    pub source: std::io::Error,
}

/// Expands directories into their `*.litmus` files (recursively, sorted by
/// path so output order never depends on the file system), keeping files
/// given explicitly in the order given.
pub fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, ReadError> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            walk(path, &mut found)?;
            found.sort();
            out.extend(found);
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), ReadError> {
    let err = |source| ReadError {
        path: dir.display().to_string(),
        source,
    };
    for entry in std::fs::read_dir(dir).map_err(err)? {
        let path = entry.map_err(err)?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "litmus") {
            out.push(path);
        }
    }
    Ok(())
}

/// Reads one file.
pub fn read(path: &Path) -> Result<SourceFile, ReadError> {
    let shown = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(SourceFile { path: shown, text }),
        Err(source) => Err(ReadError {
            path: shown,
            source,
        }),
    }
}
