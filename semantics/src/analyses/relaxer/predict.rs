//! Phase I of RELAXER (Sec. 4.1): predicting potential happens-before
//! cycles from sequentially consistent executions.
//!
//! Two events are a *potential data race* when they come from different
//! threads, access one location, and at least one is a store. A
//! `->hb`-chain (Definition 2) is `e1, e1', ..., en, en'` with `ej ->p ej'`
//! (same thread, `ej` before `ej'`), the
//! pairs from pairwise different threads, and `ej'` racing with `ej+1`; it
//! is a *potential `->hb`-cycle* (Definition 3) when moreover `en'` races
//! with `e1`. Algorithm 1 grows chains pair by pair and does not extend a
//! chain that is already a cycle, so a reported cycle has no shorter prefix
//! that is one (it is not decomposable); each cycle of `2k` events is found
//! in `k` rotations, of which one is kept.
//!
//! Definition 2 writes `ej ->p ej'` with `i(e) <= i(e')`, which would let
//! `ej` and `ej'` be one event; then `(1, 1, 5, 5)` would be a cycle of
//! Fig. 2, but Sec. 3.1 lists exactly `(1, 3, 4, 5)` and `(2, 3, 4, 7)`. The
//! worked example is followed: the two events of a pair are distinct (they
//! may share a label, as two iterations of one statement, like the
//! `(3, 5, 10, 10)` of Sec. 5.4).
//!
//! Everything a chain needs of an event but its place in program order is
//! static: its thread, label, location and access (locations are static in
//! the IR). So Algorithm 1 on one trace is computed on *statements*
//! `(thread, label, location, access)`: the trace contributes the pairs of
//! statements `(s, s')` of one thread with an instance of `s` not after an
//! instance of `s'`, and races are decided on statements. The cycles of
//! each execution are computed separately (a chain's events must come from
//! one trace, as in the paper) and their union is returned, sorted.
//!
//! Executions are SC runs of the operational sampler (`Uniform`, seeded)
//! on [`crate::models::hw::Sc`]: the paper's random schedules.
//! [`super::exhaustive`] takes the union over every SC execution instead.

use std::collections::BTreeSet;

use rayon::prelude::*;

use crate::ir::{LocId, Program, ThreadId};
use crate::mapping::Mapping;
use crate::models::hw::Sc;
use crate::operational::{program_for, replay, SampleOptions, Strategy};
use crate::outcome::Trace;

use super::lift::{lift, Access, LiftedEvent};

/// A static memory access: what a cycle element names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Statement {
    pub thread: ThreadId,
    /// RELAXER's label `l(e)`: the source line.
    pub line: u32,
    pub loc: LocId,
    pub access: Access,
}

impl Statement {
    fn of(e: &LiftedEvent) -> Statement {
        Statement {
            thread: e.thread,
            line: e.line,
            loc: e.loc,
            access: e.access,
        }
    }
}

/// A potential `->hb`-cycle `l1, ..., l2k`: `elements[2j] ->p
/// elements[2j+1]`, `elements[2j+1]` racing with `elements[2j+2]` (mod
/// 2k). Rotated by pairs to its least form.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PredictedCycle {
    pub elements: Vec<Statement>,
}

impl PredictedCycle {
    /// The labels `l1, ..., l2k`.
    pub fn labels(&self) -> Vec<u32> {
        self.elements.iter().map(|s| s.line).collect()
    }

    /// The labels as RELAXER prints them: `(1, 2, 11, 12)`.
    pub fn describe(&self) -> String {
        let labels: Vec<String> = self.labels().iter().map(u32::to_string).collect();
        format!("({})", labels.join(", "))
    }
}

/// Options of Phase I.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PredictOptions {
    /// The cycle length `2k` (default 4: two threads, two locations).
    pub length: usize,
    /// SC executions sampled (default 100).
    pub runs: u64,
    pub seed: u64,
    /// The mapping the SC model compiles with.
    pub mapping: Mapping,
}

impl Default for PredictOptions {
    fn default() -> Self {
        PredictOptions {
            length: 4,
            runs: 100,
            seed: 0,
            mapping: Mapping::Standard,
        }
    }
}

/// Potential data race (Sec. 3.1) between two statements.
pub fn potential_race(a: &Statement, b: &Statement) -> bool {
    a.thread != b.thread
        && a.loc == b.loc
        && (a.access == Access::Store || b.access == Access::Store)
}

/// The statement pairs `(s, s')` of one thread in program order in a
/// lifted trace: an instance of `s` strictly before an instance of `s'`
/// (two instances when `s = s'`).
fn po_pairs(events: &[LiftedEvent]) -> BTreeSet<(Statement, Statement)> {
    let mut seen: BTreeSet<Statement> = BTreeSet::new();
    let mut pairs = BTreeSet::new();
    let mut by_thread: Vec<&LiftedEvent> = events.iter().collect();
    by_thread.sort_by_key(|e| (e.thread, e.index));
    let mut current: Option<ThreadId> = None;
    for e in by_thread {
        if current != Some(e.thread) {
            seen.clear();
            current = Some(e.thread);
        }
        let s = Statement::of(e);
        for &p in &seen {
            pairs.insert((p, s));
        }
        seen.insert(s);
    }
    pairs
}

/// Algorithm 1 on one trace's program-order pairs: the potential cycles of
/// exactly `length` events, in least rotation.
pub(crate) fn cycles_of(
    pairs: &BTreeSet<(Statement, Statement)>,
    length: usize,
) -> BTreeSet<PredictedCycle> {
    let mut found = BTreeSet::new();
    if length < 4 || length & 1 == 1 {
        return found;
    }
    let pairs: Vec<(Statement, Statement)> = pairs.iter().copied().collect();
    let mut chain: Vec<(Statement, Statement)> = Vec::new();
    for &p in &pairs {
        chain.push(p);
        extend(&pairs, &mut chain, length / 2, &mut found);
        chain.pop();
    }
    found
}

/// Grows `chain` pair by pair (Algorithm 1's loop), reporting the cycles
/// of `k` pairs; a chain that is already a cycle is not extended.
fn extend(
    pairs: &[(Statement, Statement)],
    chain: &mut Vec<(Statement, Statement)>,
    k: usize,
    found: &mut BTreeSet<PredictedCycle>,
) {
    let (Some(first), Some(last)) = (chain.first().copied(), chain.last().copied()) else {
        return;
    };
    let closes = potential_race(&last.1, &first.0);
    if chain.len() == k {
        if closes {
            found.insert(canonical(chain));
        }
        return;
    }
    if chain.len() >= 2 && closes {
        return;
    }
    for &p in pairs {
        if potential_race(&last.1, &p.0) && chain.iter().all(|c| c.0.thread != p.0.thread) {
            chain.push(p);
            extend(pairs, chain, k, found);
            chain.pop();
        }
    }
}

/// The least rotation of a cycle by whole pairs (RELAXER removes the `k`
/// rotations Algorithm 1 reports).
fn canonical(chain: &[(Statement, Statement)]) -> PredictedCycle {
    let k = chain.len();
    (0..k)
        .map(|r| PredictedCycle {
            elements: (0..k)
                .flat_map(|i| [chain[(i + r) % k].0, chain[(i + r) % k].1])
                .collect(),
        })
        .min()
        .unwrap_or(PredictedCycle { elements: vec![] })
}

/// The potential cycles of one SC trace of `program` (the program the SC
/// model ran: see [`program_for`]).
pub fn predict_from_trace(
    program: &Program,
    trace: &Trace,
    length: usize,
) -> BTreeSet<PredictedCycle> {
    cycles_of(&po_pairs(&lift(program, trace, false)), length)
}

/// Phase I: the potential `->hb`-cycles of `opts.length` events over
/// `opts.runs` seeded SC executions, sorted.
pub fn predict(program: &Program, opts: &PredictOptions) -> Vec<PredictedCycle> {
    let sample = SampleOptions {
        runs: opts.runs,
        seed: opts.seed,
        strategy: Strategy::Uniform,
        mapping: opts.mapping,
        ..SampleOptions::default()
    };
    let compiled = program_for(program, &Sc, opts.mapping);
    // A union, so the result does not depend on how runs are split over
    // threads; memory does not grow with the number of runs.
    let all: BTreeSet<PredictedCycle> = (0..opts.runs)
        .into_par_iter()
        .map(|i| match replay(program, &Sc, &sample, i) {
            Some((trace, _)) => predict_from_trace(&compiled, &trace, opts.length),
            None => BTreeSet::new(),
        })
        .reduce(BTreeSet::new, |mut a, mut b| {
            if a.len() < b.len() {
                std::mem::swap(&mut a, &mut b);
            }
            a.append(&mut b);
            a
        });
    all.into_iter().collect()
}
