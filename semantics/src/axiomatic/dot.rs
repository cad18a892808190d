//! Graphviz rendering of an execution (`--dot FILE`): events in one column
//! per thread (a `subgraph cluster` each, the init writes in their own),
//! and the edges herd7 draws: `po` (immediate edges only), `rf`, `co`
//! (immediate edges only), `fr` (to the immediate `co` successor only, as
//! herd7 does), `rmw`, `asw` from forks and to joins, and `sc` when known.

use std::fmt::Write;

use super::execution::{EventKind, Execution};
use super::relation::Relation;
use crate::ir::{FenceKind, Program};
use crate::mapping::hw_name;

/// The immediate edges of a transitive relation: `R \ (R; R)`.
fn immediate(r: &Relation) -> Relation {
    r.minus(&r.seq(r))
}

/// The name of a location, or its index if the program lacks it.
fn loc_name(program: &Program, l: crate::ir::LocId) -> String {
    program
        .locations
        .get(l.index())
        .map_or_else(|| format!("loc{}", l.0), |loc| loc.name.clone())
}

/// The label of one event: `a: W[rlx] x=1`.
fn label(program: &Program, ex: &Execution, e: usize) -> String {
    let ev = &ex.events[e];
    let tag = event_letter(e);
    let body = match ev.kind {
        EventKind::Read { loc, value, .. } => {
            format!("R[{}] {}={}", ev.mode.name(), loc_name(program, loc), value)
        }
        EventKind::Write { loc, value, .. } if ev.thread.is_none() => {
            format!("W[init] {}={}", loc_name(program, loc), value)
        }
        EventKind::Write { loc, value, .. } => {
            format!("W[{}] {}={}", ev.mode.name(), loc_name(program, loc), value)
        }
        EventKind::Fence(FenceKind::Hw(k)) => format!("F[{}]", hw_name(k)),
        EventKind::Fence(FenceKind::C11(_)) => format!("F[{}]", ev.mode.name()),
        EventKind::Fork { child } => format!("fork {}", thread_name(program, child.index())),
        EventKind::Join { child } => format!("join {}", thread_name(program, child.index())),
    };
    format!("{tag}: {body}")
}

fn thread_name(program: &Program, t: usize) -> String {
    program
        .threads
        .get(t)
        .map_or_else(|| format!("T{t}"), |th| th.name.clone())
}

/// herd7-style event names: a, b, ..., z, then e26, e27, ...
fn event_letter(e: usize) -> String {
    if e < 26 {
        char::from(b'a' + e as u8).to_string()
    } else {
        format!("e{e}")
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Renders `ex` as a Graphviz digraph. `program` only supplies names
/// (threads and locations), so the original or the prepared program will do.
pub fn to_dot(program: &Program, ex: &Execution) -> String {
    to_dot_showing(program, ex, &[])
}

/// [`to_dot`], also drawing each relation of `shown` (a cat model's
/// `show`), every pair an edge labelled with the relation's name.
pub fn to_dot_showing(program: &Program, ex: &Execution, shown: &[(String, Relation)]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph \"{}\" {{", escape(&program.name));
    let _ = writeln!(
        out,
        "  rankdir=TB; node [shape=box, fontname=\"monospace\"];"
    );
    let mut threads: Vec<Option<usize>> = ex
        .events
        .iter()
        .map(|e| e.thread.map(|t| t.index()))
        .collect();
    threads.sort();
    threads.dedup();
    for t in threads {
        let (id, name) = match t {
            None => ("init".to_string(), "init".to_string()),
            Some(t) => (format!("t{t}"), thread_name(program, t)),
        };
        let _ = writeln!(out, "  subgraph cluster_{id} {{");
        let _ = writeln!(out, "    label=\"{}\";", escape(&name));
        for (e, ev) in ex.events.iter().enumerate() {
            if ev.thread.map(|t| t.index()) == t {
                let _ = writeln!(
                    out,
                    "    e{e} [label=\"{}\"];",
                    escape(&label(program, ex, e))
                );
            }
        }
        let _ = writeln!(out, "  }}");
    }
    let mut edge = |r: &Relation, name: &str, style: &str| {
        for (a, b) in r.pairs() {
            let _ = writeln!(out, "  e{} -> e{} [label=\"{name}\", {style}];", a.0, b.0);
        }
    };
    let co_imm = immediate(&ex.co);
    edge(&immediate(&ex.po), "po", "color=black");
    edge(&ex.rf, "rf", "color=red, constraint=false");
    edge(&co_imm, "co", "color=blue, constraint=false");
    edge(
        &ex.rf.inverse().seq(&co_imm),
        "fr",
        "color=orange, constraint=false",
    );
    edge(&ex.rmw, "rmw", "color=purple, style=bold");
    let from_threads = Relation::from_fn(ex.len(), |a, _| ex.events[a].thread.is_some());
    edge(
        &ex.asw.inter(&from_threads),
        "asw",
        "color=gray, style=dashed",
    );
    if let Some(sc) = &ex.sc {
        let mut sc_rel = Relation::new(ex.len());
        for pair in sc.windows(2) {
            if pair[0] != pair[1] {
                sc_rel.add(pair[0], pair[1]);
            }
        }
        edge(&sc_rel, "sc", "color=green, style=dotted, constraint=false");
    }
    for (name, r) in shown {
        edge(r, name, "color=darkgreen, style=dashed, constraint=false");
    }
    out.push_str("}\n");
    out
}
