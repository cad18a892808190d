//! Graphviz rendering of an execution (`--dot FILE`, the playground):
//! events in one column per thread (a `subgraph cluster` each), the init
//! writes above them, and the edges herd7 draws: `po` (immediate edges
//! only), `rf`, `co` (immediate edges only), `fr` (to the immediate `co`
//! successor only, as herd7 does), `rmw`, `asw` from forks and to joins,
//! and `sc` when known.
//!
//! The layout is fixed, as in herd7's `-show` pictures, so that a graph
//! reads the same whatever its edges: the init writes in a row on top
//! (unboxed, as herd7 draws them, each above the events it relates to),
//! then the threads left to right in program order (`P0` first), each
//! event at the height of its position in `po` (or below the fork that
//! starts its thread and above the join that waits for it), so that the
//! n-th events of all threads are side by side. Only `po`, `asw` and the
//! invisible edges of this grid place events; `rf`, `co`, `fr` and the
//! rest are drawn over it (`constraint=false`). Every label, edge labels
//! included, is set in Courier, whose widths Graphviz knows without the
//! font (Viz.js in the playground measures text with built-in metrics,
//! and knows Courier's), and each edge label has its edge's colour.
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
    // herd C events show their annotations where C11 events show their
    // order.
    let annot = match &program.c {
        Some(c) if ev.tags != 0 => c.tag_names(ev.tags).collect::<Vec<_>>().join(","),
        Some(_) => String::new(),
        None => ev.mode.name().to_string(),
    };
    let value = |v| program.value_text(v);
    let body = match ev.kind {
        EventKind::Read { loc, value: v, .. } => {
            format!("R[{annot}] {}={}", loc_name(program, loc), value(v))
        }
        EventKind::Write { loc, value: v, .. } if ev.thread.is_none() => {
            format!("W[init] {}={}", loc_name(program, loc), value(v))
        }
        EventKind::Write { loc, value: v, .. } => {
            format!("W[{annot}] {}={}", loc_name(program, loc), value(v))
        }
        EventKind::Fence(FenceKind::Hw(k)) => format!("F[{}]", hw_name(k)),
        EventKind::Fence(FenceKind::C11(_)) => format!("F[{}]", ev.mode.name()),
        EventKind::Fork { child } => format!("fork {}", thread_name(program, child.index())),
        EventKind::Join { child } => format!("join {}", thread_name(program, child.index())),
        EventKind::TaggedFence => format!("F[{annot}]"),
        EventKind::Lock { loc, op } => format!("{}({})", lock_name(op), loc_name(program, loc)),
        EventKind::Srcu { loc, value: v } => match v {
            Some(v) => format!("SRCU[{annot}]({},{})", loc_name(program, loc), value(v)),
            None => format!("SRCU[{annot}]({})", loc_name(program, loc)),
        },
    };
    format!("{tag}: {body}")
}

/// herd's names of the lock events.
fn lock_name(op: crate::axiomatic::LockOp) -> &'static str {
    use crate::axiomatic::LockOp;
    match op {
        LockOp::Read => "LKR",
        LockOp::Write => "LKW",
        LockOp::Unlock => "UL",
        LockOp::Fail => "LF",
        LockOp::ReadLocked => "RL",
        LockOp::ReadUnlocked => "RU",
    }
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

/// The row of each event in the drawing: 0 for the init writes, then the
/// longest path of `po` and thread-to-thread `asw` edges leading to it,
/// from 1 for a thread's first event.
fn rows(ex: &Execution) -> Vec<usize> {
    let mut row: Vec<usize> = ex
        .events
        .iter()
        .map(|e| e.thread.map_or(0, |_| 1))
        .collect();
    let mut edges: Vec<(usize, usize)> = immediate(&ex.po)
        .pairs()
        .chain(ex.asw.pairs())
        .map(|(a, b)| (a.0 as usize, b.0 as usize))
        .filter(|&(a, b)| ex.events[a].thread.is_some() && ex.events[b].thread.is_some())
        .collect();
    edges.sort_unstable();
    // po ∪ asw is acyclic: a longest path has fewer edges than events, so
    // this many rounds reach the fixed point.
    for _ in 0..ex.len() {
        let mut changed = false;
        for &(a, b) in &edges {
            if row[b] < row[a] + 1 {
                row[b] = row[a] + 1;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    row
}

/// [`to_dot`], also drawing each relation of `shown` (a cat model's
/// `show`), every pair an edge labelled with the relation's name.
pub fn to_dot_showing(program: &Program, ex: &Execution, shown: &[(String, Relation)]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph \"{}\" {{", escape(&program.name));
    let _ = writeln!(
        out,
        "  rankdir=TB; newrank=true; forcelabels=true; nodesep=0.4; ranksep=0.45; fontname=\"Courier\"; fontsize=14;"
    );
    let _ = writeln!(
        out,
        "  node [shape=box, fontname=\"Courier\", fontsize=12]; edge [fontname=\"Courier\", fontsize=12];"
    );
    let mut threads: Vec<Option<usize>> = ex
        .events
        .iter()
        .map(|e| e.thread.map(|t| t.index()))
        .collect();
    threads.sort();
    threads.dedup();
    for &t in &threads {
        // The init writes are not boxed (as herd7 draws them): dot then
        // places each one above the events it is related to.
        let indent = match t {
            None => "  ",
            Some(t) => {
                let _ = writeln!(out, "  subgraph cluster_t{t} {{");
                let _ = writeln!(out, "    label=\"{}\";", escape(&thread_name(program, t)));
                "    "
            }
        };
        for (e, ev) in ex.events.iter().enumerate() {
            if ev.thread.map(|t| t.index()) == t {
                let _ = writeln!(
                    out,
                    "{indent}e{e} [label=\"{}\"];",
                    escape(&label(program, ex, e))
                );
            }
        }
        if t.is_some() {
            let _ = writeln!(out, "  }}");
        }
    }
    let row = rows(ex);
    // Left of another event of its row: a column further left, or, among
    // the init writes, an earlier one.
    let column = |e: usize| (ex.events[e].thread.map_or(0, |t| t.index() + 1), e);
    let mut edge = |r: &Relation, name: &str, style: &str| {
        for (a, b) in r.pairs() {
            let (a, b) = (a.0 as usize, b.0 as usize);
            // An edge within a row orders its ends left to right in dot's
            // layout: one drawn from right to left is written the other
            // way round with its arrow at its tail, so that it cannot
            // swap the columns.
            // Its label is an external one, placed once the layout is
            // done: Graphviz 2.42 and 2.43 (Debian 12, Ubuntu 24.04) abort on
            // a file of several graphs with labelled edges within a row of
            // clusters.
            if row[a] == row[b] && column(a) > column(b) {
                let _ = writeln!(
                    out,
                    "  e{b} -> e{a} [xlabel=\"{name}\", dir=back, {style}];"
                );
            } else if row[a] == row[b] {
                let _ = writeln!(out, "  e{a} -> e{b} [xlabel=\"{name}\", {style}];");
            } else {
                let _ = writeln!(out, "  e{a} -> e{b} [label=\"{name}\", {style}];");
            }
        }
    };
    let co_imm = immediate(&ex.co);
    edge(&immediate(&ex.po), "po", "color=black, fontcolor=black");
    edge(&ex.rf, "rf", "color=red, fontcolor=red, constraint=false");
    edge(
        &co_imm,
        "co",
        "color=blue, fontcolor=blue, constraint=false",
    );
    edge(
        &ex.rf.inverse().seq(&co_imm),
        "fr",
        "color=darkorange, fontcolor=darkorange, constraint=false",
    );
    edge(&ex.rmw, "rmw", "color=purple, fontcolor=purple, style=bold");
    let from_threads = Relation::from_fn(ex.len(), |a, _| ex.events[a].thread.is_some());
    edge(
        &ex.asw.inter(&from_threads),
        "asw",
        "color=gray40, fontcolor=gray40, style=dashed",
    );
    if let Some(sc) = &ex.sc {
        let mut sc_rel = Relation::new(ex.len());
        for pair in sc.windows(2) {
            if pair[0] != pair[1] {
                sc_rel.add(pair[0], pair[1]);
            }
        }
        edge(
            &sc_rel,
            "sc",
            "color=darkgreen, fontcolor=darkgreen, style=dotted, constraint=false",
        );
    }
    for (name, r) in shown {
        edge(
            r,
            name,
            "color=teal, fontcolor=teal, style=dashed, constraint=false",
        );
    }
    grid(&mut out, ex, &threads, &row);
    out.push_str("}\n");
    out
}

/// The invisible scaffolding of the layout (module docs). The events of
/// each row sit side by side (`rank=same`), the init writes in a row of
/// their own. dot places clusters to cross
/// few edges, and keeps no order of nodes of different clusters, so each
/// thread hangs from an invisible anchor outside every cluster: the
/// anchors sit in a row between the init writes and the threads, are
/// ordered left to right by invisible edges (which dot keeps among nodes
/// outside clusters), and tie their threads below them with heavy
/// invisible edges, which dot will not cross to reorder the columns.
fn grid(out: &mut String, ex: &Execution, threads: &[Option<usize>], row: &[usize]) {
    let _ = writeln!(
        out,
        "  // the layout: rows, and threads left to right (invisible)"
    );
    let height = row.iter().copied().max().unwrap_or(0);
    for r in 0..=height {
        let members: Vec<String> = (0..ex.len())
            .filter(|&e| row[e] == r)
            .map(|e| format!("e{e}"))
            .collect();
        if members.len() > 1 {
            let _ = writeln!(out, "  {{ rank=same; {}; }}", members.join("; "));
        }
    }
    let of = |t: Option<usize>| -> Vec<usize> {
        (0..ex.len())
            .filter(|&e| ex.events[e].thread.map(|t| t.index()) == t)
            .collect()
    };
    let inits = of(None);
    let columns: Vec<(usize, Vec<usize>)> = threads
        .iter()
        .flatten()
        .map(|&t| (t, of(Some(t))))
        .filter(|(_, events)| !events.is_empty())
        .collect();
    if columns.is_empty() {
        return;
    }
    let anchors: Vec<String> = columns.iter().map(|(t, _)| format!("a{t}")).collect();
    for anchor in &anchors {
        let _ = writeln!(out, "  {anchor} [style=invis, shape=point, width=0];");
    }
    if anchors.len() > 1 {
        let _ = writeln!(out, "  {{ rank=same; {}; }}", anchors.join("; "));
        let _ = writeln!(out, "  {} [style=invis];", anchors.join(" -> "));
    }
    if let Some(&init) = inits.first() {
        let _ = writeln!(out, "  e{init} -> {} [style=invis];", anchors[0]);
    }
    for (anchor, (_, events)) in anchors.iter().zip(&columns) {
        let first = events
            .iter()
            .min_by_key(|&&e| row[e])
            .copied()
            .unwrap_or(events[0]);
        let _ = writeln!(out, "  {anchor} -> e{first} [style=invis, weight=1000];");
    }
}
