//! Execution graphs as Graphviz DOT (`run --dot`, `compare --dot`, the
//! playground), each named after its test,
//! model and outcome (`digraph "SB under tso: P0:r0=0 P1:r0=0"`, with the
//! same text as the drawing's title), so that a file of many graphs can be
//! told apart; and where they go.
//!
//! The file is created before anything runs, so a path that cannot be
//! written is reported first, by name. With `-`, table and herd formats
//! print the graphs after the tables; JSON puts them inside each run's
//! object, so that standard output stays one JSON document.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use relaxlab_semantics::axiomatic::{self, ExecutionEnd};
use relaxlab_semantics::ir::{OpModel, Program, Value};
use relaxlab_semantics::outcome::{OutcomeRow, OutcomeTable};

use crate::engine::{self, Settings};
use crate::model::{Engine, Model};
use crate::render::json;

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
    /// command prints itself). A file of several graphs is one `dot`
    /// renders one by one, but `dot -Tsvg FILE` writes them into one
    /// stream of several `<svg>` documents, which no viewer reads: `err`
    /// is told the command that writes one SVG file per graph.
    pub fn write_file(&mut self, graphs: &[String], err: &mut dyn Write) -> Result<(), DotError> {
        for (i, graph) in graphs.iter().enumerate() {
            self.append(graph, i == 0)?;
        }
        let drawn = graphs.iter().filter(|g| g.contains("digraph ")).count();
        self.finish(drawn, err)
    }

    /// Writes one graph to the file (a no-op for standard output), after
    /// a line break unless it is the `first`: [`Sink::write_file`] one
    /// graph at a time, for output that streams.
    pub fn append(&mut self, graph: &str, first: bool) -> Result<(), DotError> {
        let Sink::File(path, file) = self else {
            return Ok(());
        };
        let sep: &[u8] = if first { b"" } else { b"\n" };
        file.write_all(sep)
            .and_then(|()| file.write_all(graph.as_bytes()))
            .map_err(|source| DotError {
                path: path.clone(),
                source,
            })
    }

    /// After the last graph: flushes the file, and when it holds more
    /// than one drawing (`drawn`), tells `err` how to draw each.
    pub fn finish(&mut self, drawn: usize, err: &mut dyn Write) -> Result<(), DotError> {
        let Sink::File(path, file) = self else {
            return Ok(());
        };
        file.flush().map_err(|source| DotError {
            path: path.clone(),
            source,
        })?;
        if drawn > 1 {
            let name = path.display();
            let _ = writeln!(
                err,
                "relaxlab: wrote {drawn} graphs to {name}; `dot -Tsvg -O {name}` draws each in \
                 its own file ({name}.svg, {name}.2.svg, ...)"
            );
        }
        Ok(())
    }
}

/// One graph per outcome of `table`, the table of `model` on `program`
/// (which the model ran as `ran`), keyed by the outcome and named by
/// [`graph_title`]: for an operational model the row's witness lifted to
/// an execution ([`lifted`]), for an axiomatic or cat model a consistent
/// execution with the relations a cat model `show`s.
pub fn per_outcome(
    model: Model<'_>,
    program: &Program,
    ran: &Program,
    table: &OutcomeTable,
    settings: &Settings,
) -> BTreeMap<Vec<Value>, json::Graph> {
    match model.engine() {
        Engine::Operational(m) => table
            .rows
            .iter()
            .filter_map(|row| {
                let dot = lifted(ran, m, row)?;
                let name = graph_title(ran, m.name(), &row.values);
                Some((row.values.clone(), json::Graph { name, dot }))
            })
            .collect(),
        Engine::Axiomatic(judge) => {
            let name = model.name();
            let mut seen = BTreeMap::new();
            let _ = axiomatic::visit_judged(
                program,
                &[judge],
                &engine::ax_options(settings),
                true,
                &mut |_, ex, end, judged| {
                    if let ExecutionEnd::Outcome(values) = end {
                        seen.entry(values.clone()).or_insert_with(|| {
                            let title = graph_title(ran, &name, values);
                            json::Graph {
                                dot: titled(
                                    &axiomatic::to_dot_showing(ran, ex, &judged.shown),
                                    &title,
                                ),
                                name: title,
                            }
                        });
                    }
                },
            );
            seen
        }
    }
}

/// The witness of `row` of the operational `model`, lifted to an
/// execution (TSAN11 Sec. 6.1), as a DOT digraph; `ran` is the program the
/// model ran. `None` when the row has no witness. A witness the twin
/// axiomatic model rejects (a racy `c11r` outcome, which C11 leaves
/// undefined; anything else would be a bug, as every operational model
/// lies within its twin) is drawn all the same, after a comment naming
/// the axiom; one that cannot be lifted (too many events) is a comment
/// saying why.
pub fn lifted(ran: &Program, model: OpModel, row: &OutcomeRow) -> Option<String> {
    let witness = row.witness.as_ref()?;
    let outcome = outcome_text(ran, &row.values);
    let title = graph_title(ran, model.name(), &row.values);
    Some(match axiomatic::lift(ran, model, witness) {
        // Not expected (every c11t trace names each location's last store,
        // and the lift keeps it): said, never drawn as this outcome's
        // graph.
        Ok(l) if l.outcome.as_ref() != Some(&row.values) => format!(
            "// {} witness of [{outcome}]: not drawn: the lifted execution ends with other final values\n",
            model.name()
        ),
        Ok(l) => match &l.verdict {
            Ok(()) => titled(&axiomatic::to_dot(ran, &l.execution), &title),
            Err(r) => format!(
                "// {} witness of [{outcome}]: ax.{} rejects it: {r}\n{}",
                model.name(),
                axiomatic::twin(model).name(),
                titled(&axiomatic::to_dot(ran, &l.execution), &title)
            ),
        },
        Err(e) => format!(
            "// {} witness of [{outcome}]: not drawn: {e}\n",
            model.name()
        ),
    })
}

/// The title of the graph of `outcome` under `model`: `SB under tso:
/// P0:r0=0 P1:r0=0`.
pub fn graph_title(program: &Program, model: &str, outcome: &[Value]) -> String {
    let values = outcome_text(program, outcome);
    if values.is_empty() {
        format!("{} under {model}: (nothing observed)", program.name)
    } else {
        format!("{} under {model}: {values}", program.name)
    }
}

/// `a=0 b=1`: an outcome with the observables' names.
pub fn outcome_text(program: &Program, values: &[Value]) -> String {
    program
        .observed
        .iter()
        .zip(values)
        .map(|(o, v)| format!("{}={v}", program.observable_name(*o)))
        .collect::<Vec<_>>()
        .join(" ")
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
