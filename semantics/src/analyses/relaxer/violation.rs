//! SC violations (RELAXER Sec. 2.2, Definition 1): a trace is sequentially
//! consistent iff `->hb = ->p ∪ ->c` is acyclic on its events.
//!
//! [`sc_violation`] lifts a trace ([`super::lift`]), builds program order
//! (same thread, earlier instruction index) and conflict order (different
//! threads, same location, one a store, ordered by commit index) and
//! returns a shortest cycle, if any. The search is a breadth-first search
//! from every event, cubic in the number of events: meant for the traces
//! of litmus tests (tens of events), after a quadratic acyclicity check
//! that answers the common SC case alone.
//!
//! [`mark_non_sc`] marks outcome rows instead of traces: a row is non-SC iff
//! its outcome is not among the outcomes of the SC model on the same
//! program. Justification: if an execution's `->p ∪ ->c` is acyclic, a
//! topological order of its events is an interleaving in which every load
//! reads the latest store before it (conflict order fixes, for each load,
//! which stores of its location come before it and which after), so SC has
//! an execution with the same loads' values, hence the same registers and
//! the same final memory (the last store of each location in conflict
//! order): the same outcome. Conversely an outcome SC cannot produce has no
//! execution that is SC, so every execution giving it has a cycle. Hence
//! "every execution reaching this outcome violates SC" (the meaning of
//! `OutcomeRow::non_sc`) is exactly "the outcome is not an SC outcome". The
//! SC table must be exhaustive (or the row may be SC by an execution the
//! SC run missed); pass the SC model's table of the same compiled program.

use std::collections::VecDeque;

use crate::ir::{InstrId, Program, ThreadId};
use crate::outcome::{OutcomeTable, Trace};

use super::lift::{buffered_trace, conflict, lift, LiftedEvent};

/// The relation an edge of a cycle belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EdgeKind {
    /// Program order `->p`.
    Po,
    /// Conflict order `->c`.
    Conflict,
}

/// One event of a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CycleEvent {
    pub thread: ThreadId,
    pub instr: InstrId,
    /// The statement label (`Instruction::line`).
    pub line: u32,
}

/// A happens-before cycle: `events[i] -edges[i]-> events[(i+1) % n]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cycle {
    pub events: Vec<CycleEvent>,
    pub edges: Vec<EdgeKind>,
}

/// The happens-before successors of event `i`: later events of its thread
/// (`->p`), and events it conflicts before (`->c`).
fn successors(events: &[LiftedEvent], i: usize, out: &mut Vec<(usize, EdgeKind)>) {
    out.clear();
    let e = &events[i];
    for (j, f) in events.iter().enumerate() {
        if f.thread == e.thread && f.index > e.index {
            out.push((j, EdgeKind::Po));
        } else if conflict(e, f) {
            out.push((j, EdgeKind::Conflict));
        }
    }
}

/// A shortest cycle through event `start`, by breadth-first search.
fn shortest_cycle_from(events: &[LiftedEvent], start: usize) -> Option<Vec<(usize, EdgeKind)>> {
    let n = events.len();
    let mut parent: Vec<Option<(usize, EdgeKind)>> = vec![None; n];
    let mut seen = vec![false; n];
    let mut queue = VecDeque::from([start]);
    let mut succ = Vec::new();
    seen[start] = true;
    while let Some(i) = queue.pop_front() {
        successors(events, i, &mut succ);
        for &(j, kind) in &succ {
            if j == start {
                // Rebuild start -> ... -> i -> start.
                let mut path = vec![(i, kind)];
                let mut k = i;
                while let Some((p, pk)) = parent[k] {
                    path.push((p, pk));
                    k = p;
                }
                path.reverse();
                return Some(path);
            }
            if !seen[j] {
                seen[j] = true;
                parent[j] = Some((i, kind));
                queue.push_back(j);
            }
        }
    }
    None
}

/// Is `->p ∪ ->c` acyclic? (Kahn's algorithm.)
fn acyclic(events: &[LiftedEvent]) -> bool {
    let n = events.len();
    let mut indegree = vec![0usize; n];
    let mut succ = Vec::new();
    for i in 0..n {
        successors(events, i, &mut succ);
        for &(j, _) in &succ {
            indegree[j] += 1;
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&i| indegree[i] == 0).collect();
    let mut done = 0;
    while let Some(i) = ready.pop() {
        done += 1;
        successors(events, i, &mut succ);
        for &(j, _) in &succ {
            indegree[j] -= 1;
            if indegree[j] == 0 {
                ready.push(j);
            }
        }
    }
    done == n
}

/// The SC violation of a trace (Definition 1): a shortest cycle of
/// `->p ∪ ->c`, starting at its earliest event, or `None` when the trace is
/// sequentially consistent. Whether stores reach memory at their commit is
/// read off the trace ([`buffered_trace`]).
pub fn sc_violation(program: &Program, trace: &Trace) -> Option<Cycle> {
    sc_violation_with(program, trace, buffered_trace(trace))
}

/// [`sc_violation`] with the model's buffering stated.
pub fn sc_violation_with(program: &Program, trace: &Trace, buffered: bool) -> Option<Cycle> {
    let events = lift(program, trace, buffered);
    if acyclic(&events) {
        return None;
    }
    let mut best: Option<Vec<(usize, EdgeKind)>> = None;
    for start in 0..events.len() {
        if let Some(c) = shortest_cycle_from(&events, start) {
            if best.as_ref().is_none_or(|b| c.len() < b.len()) {
                best = Some(c);
            }
            if best.as_ref().is_some_and(|b| b.len() == 2) {
                break;
            }
        }
    }
    best.map(|path| Cycle {
        events: path
            .iter()
            .map(|&(i, _)| CycleEvent {
                thread: events[i].thread,
                instr: events[i].instr,
                line: events[i].line,
            })
            .collect(),
        edges: path.iter().map(|&(_, k)| k).collect(),
    })
}

/// One event as `P0:x = 1` (thread name, statement text).
pub fn describe_event(program: &Program, e: &CycleEvent) -> String {
    match program.threads.get(e.thread.index()) {
        Some(t) => match t.code.get(e.instr.index()) {
            Some(i) => format!("{}:{}", t.name, i.text),
            None => format!("{}:#{}", t.name, e.instr.index()),
        },
        None => format!("T{}:#{}", e.thread.index(), e.instr.index()),
    }
}

/// A cycle as `P0:x = 1 ->po P0:r0 = y ->c P1:y = 1 ->po P1:r0 = x ->c P0:x = 1`.
pub fn describe_cycle(program: &Program, cycle: &Cycle) -> String {
    let mut out = String::new();
    for (e, k) in cycle.events.iter().zip(&cycle.edges) {
        out.push_str(&describe_event(program, e));
        out.push_str(match k {
            EdgeKind::Po => " ->po ",
            EdgeKind::Conflict => " ->c ",
        });
    }
    if let Some(first) = cycle.events.first() {
        out.push_str(&describe_event(program, first));
    }
    out
}

/// Marks `table`'s rows `non_sc` when their outcome is not among
/// `sc_table`'s (see the module docs for why this is Definition 1 lifted
/// to outcomes). Leaves the marks alone when `sc_table` is incomplete.
pub fn mark_non_sc(table: &mut OutcomeTable, sc_table: &OutcomeTable) {
    if !sc_table.complete() {
        return;
    }
    for row in &mut table.rows {
        row.non_sc = sc_table
            .rows
            .binary_search_by(|r| r.values.cmp(&row.values))
            .is_err();
    }
}
