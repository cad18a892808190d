//! `--dot`: execution graphs as Graphviz DOT, each named after its test,
//! model and outcome (`digraph "SB under tso: P0:r0=0 P1:r0=0"`, with the
//! same text as the drawing's title), so that a file of many graphs can be
//! told apart; and where they go.
//!
//! The file is created before anything runs, so a path that cannot be
//! written is reported first, by name. With `-`, table and herd formats
//! print the graphs after the tables; JSON puts them inside each run's
//! object, so that standard output stays one JSON document.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Renames the (first) digraph of `dot` to `title` and shows the title
/// above the drawing. Comment lines before the graph are kept.
pub fn titled(dot: &str, title: &str) -> String {
    let quoted = escape(title);
    let mut out = String::with_capacity(dot.len() + 2 * title.len() + 40);
    let mut renamed = false;
    for line in dot.lines() {
        if !renamed && line.starts_with("digraph ") && line.ends_with('{') {
            out.push_str(&format!(
                "digraph \"{quoted}\" {{\n  label=\"{quoted}\"; labelloc=t;\n"
            ));
            renamed = true;
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// `title` as a DOT string's contents.
fn escape(title: &str) -> String {
    title.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A DOT file that cannot be written.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("cannot write the DOT file {}", path.display())]
#[diagnostic(
    code(relaxlab::dot),
    help("check that the directory exists and is writable, or pass `--dot -` for standard output")
)]
pub struct DotError {
    path: PathBuf,
    #[source]
    source: std::io::Error,
}

/// Where `--dot` graphs go.
#[derive(Debug)]
pub enum Sink {
    /// `--dot -`: standard output.
    Stdout,
    /// `--dot FILE`, created (and truncated) when the command starts.
    File(PathBuf, std::fs::File),
}

impl Sink {
    /// Opens `--dot PATH`.
    pub fn open(path: &Path) -> Result<Sink, DotError> {
        if path.as_os_str() == "-" {
            return Ok(Sink::Stdout);
        }
        std::fs::File::create(path)
            .map(|file| Sink::File(path.to_path_buf(), file))
            .map_err(|source| DotError {
                path: path.to_path_buf(),
                source,
            })
    }

    /// Writes `graphs` to the file (a no-op for standard output, which the
    /// command prints itself).
    pub fn write_file(&mut self, graphs: &[String]) -> Result<(), DotError> {
        match self {
            Sink::Stdout => Ok(()),
            Sink::File(path, file) => file
                .write_all(graphs.join("\n").as_bytes())
                .and_then(|()| file.flush())
                .map_err(|source| DotError {
                    path: path.clone(),
                    source,
                }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_graph_is_renamed_and_titled_keeping_its_comments() {
        let dot = "// a comment\ndigraph \"SB\" {\n  e0 [label=\"x\"];\n}\n";
        assert_eq!(
            titled(dot, "SB under \"tso\""),
            "// a comment\ndigraph \"SB under \\\"tso\\\"\" {\n  label=\"SB under \\\"tso\\\"\"; labelloc=t;\n  e0 [label=\"x\"];\n}\n"
        );
    }
}
