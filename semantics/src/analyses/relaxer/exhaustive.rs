//! Phase I of RELAXER (Sec. 4.1, Definitions 2-3, Algorithm 1) over
//! *every* SC execution, not a sample: `relaxlab predict --exhaustive`.
//!
//! [`predict`](mod@super::predict) computes, per trace, the set of statement pairs
//! `(s, s')` of one thread with an instance of `s` strictly before an
//! instance of `s'` (its *pair set*), runs Algorithm 1 on it, and unions
//! the cycles over the sampled traces. Here the union ranges over all SC
//! executions, by three observations:
//!
//! 1. *The pair set is a function of the path, built step by step.* Per
//!    thread, keep the statements `seen` so far and, per statement `s`,
//!    the row of statements seen before some instance of `s`. An access of
//!    `s` does `row[s] |= seen; seen |= {s}`. So the pair set of a trace
//!    prefix is the pair component of the state the prefix reaches in the
//!    product of the SC state graph with this bookkeeping (the `Collecting` wrapper).
//!    The product is finite wherever the SC graph is: the bookkeeping only
//!    grows and is bounded by `n^2` bits for `n` statements, so a spin
//!    loop saturates it after two iterations and its states repeat.
//! 2. *Algorithm 1 is monotone in the pair set.* A reported cycle is a
//!    chain of `k` pairs of the set with pairwise different threads,
//!    racing links, a closing race, and no prefix of two or more pairs
//!    that already closes; all of these are properties of the chain, not
//!    of the set, so a larger set reports a superset of cycles.
//! 3. *Pair sets only grow along a run.* So the cycles of an execution are
//!    those of its last state, every prefix's cycles are among them, and
//!    the union over all executions (finite ones, including failed,
//!    discarded and deadlocked ones, and the finite prefixes a sampled run
//!    cut at its step bound keeps) is the union over the reachable product
//!    states of the cycles of their pair sets, which by (2) is the union
//!    over the maximal pair sets only.
//!
//! The product is explored with the exhaustive explorer
//! ([`crate::operational::explore`], breadth-first, exact deduplication),
//! the bookkeeping riding in the memory state of a model wrapper, as
//! [`super::feasible`] does for Phase II's ground truth. The wrapper
//! records every pair set a step produces that differs from its parent's;
//! all of them are reachable. Afterwards the maximal ones are kept and
//! Algorithm 1 runs on each. The `max_states` bound may cut the search:
//! the result is then a subset, flagged incomplete. The explorer expands
//! fixed chunks in a fixed order, so even a cut result does not depend on
//! the number of worker threads.
//!
//! Since every sampled SC run follows a path of the same state graph (the
//! interpreter and the SC model are shared), the exhaustive prediction
//! contains the sampled one for every seed.

use std::collections::BTreeSet;
use std::sync::Mutex;

use rayon::prelude::*;

use crate::ir::{Instr, LocId, Program, ThreadId};
use crate::model::{Event, EventKind, MemOp, MemoryModel, Site, Step};
use crate::models::hw::Sc;
use crate::operational::{explore, program_for, ExploreOptions};
use crate::registry::OpModel;

use super::lift::Access;
use super::predict::{cycles_of, PredictedCycle, Statement};

/// The result of [`predict_exhaustive`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExhaustivePrediction {
    /// The union of the potential cycles of every SC execution, sorted,
    /// each in least rotation (as [`predict`](fn@super::predict) returns them).
    pub cycles: Vec<PredictedCycle>,
    /// No bound cut the search: `cycles` is exactly the union.
    pub complete: bool,
    /// States of the product stored by the explorer.
    pub states: u64,
    /// Maximal pair sets found (distinct per-execution contributions).
    pub pair_sets: usize,
}

/// The statements of the program, numbered per thread, and where each
/// thread's bookkeeping lives in the flat bit vector.
#[derive(Debug)]
struct Layout {
    /// Per thread: its possible statements, sorted (the index is the bit).
    statements: Vec<Vec<Statement>>,
    /// Per thread: the line of each instruction.
    lines: Vec<Vec<u32>>,
    /// Per thread: first word of its block, and words per bit row.
    blocks: Vec<(usize, usize)>,
    /// Total words.
    words: usize,
}

impl Layout {
    /// Every statement an instruction of `program` may perform: loads are
    /// loads, stores stores; an RMW or CAS is a store when it writes and a
    /// load when it does not (a failed CAS), so both are listed.
    fn of(program: &Program) -> Layout {
        let mut statements = Vec::new();
        let mut lines = Vec::new();
        let mut blocks = Vec::new();
        let mut words = 0;
        for (t, code) in program.threads.iter().enumerate() {
            let thread = ThreadId::new(t);
            let mut set = BTreeSet::new();
            for ins in &code.code {
                let accesses: &[Access] = match ins.instr {
                    Instr::Load { .. } => &[Access::Load],
                    Instr::Store { .. } => &[Access::Store],
                    Instr::Rmw { .. } | Instr::Cas { .. } => &[Access::Load, Access::Store],
                    _ => &[],
                };
                if let Some(loc) = ins.instr.location() {
                    for &access in accesses {
                        set.insert(Statement {
                            thread,
                            line: ins.line,
                            loc,
                            access,
                        });
                    }
                }
            }
            let n = set.len();
            let per_row = n.div_ceil(64);
            blocks.push((words, per_row));
            words += (n + 1) * per_row;
            statements.push(set.into_iter().collect());
            lines.push(code.code.iter().map(|i| i.line).collect());
        }
        Layout {
            statements,
            lines,
            blocks,
            words,
        }
    }

    /// The thread's statement number of an access, if the program has it.
    fn index(&self, site: Site, loc: LocId, access: Access) -> Option<usize> {
        let t = site.thread.index();
        let line = *self.lines.get(t)?.get(site.instr.index())?;
        let s = Statement {
            thread: site.thread,
            line,
            loc,
            access,
        };
        self.statements.get(t)?.binary_search(&s).ok()
    }

    /// `row[s] |= seen; seen |= {s}` for statement `s` of thread `t`:
    /// the bookkeeping of one access. Returns whether anything changed.
    fn record_access(&self, bits: &mut [u64], t: usize, s: usize) -> bool {
        let (base, per_row) = self.blocks[t];
        let row = base + (1 + s) * per_row;
        let mut changed = false;
        for w in 0..per_row {
            let seen = bits[base + w];
            let old = bits[row + w];
            bits[row + w] = old | seen;
            changed |= bits[row + w] != old;
        }
        let (word, bit) = (base + s / 64, 1u64 << (s % 64));
        changed |= bits[word] & bit == 0;
        bits[word] |= bit;
        changed
    }

    /// The pair set the bits describe: `(p, s)` for every `p` in `row[s]`.
    fn pairs(&self, bits: &[u64]) -> BTreeSet<(Statement, Statement)> {
        let mut out = BTreeSet::new();
        for (t, stmts) in self.statements.iter().enumerate() {
            let (base, per_row) = self.blocks[t];
            for (s, &later) in stmts.iter().enumerate() {
                let row = base + (1 + s) * per_row;
                for (p, &earlier) in stmts.iter().enumerate() {
                    if bits[row + p / 64] >> (p % 64) & 1 == 1 {
                        out.insert((earlier, later));
                    }
                }
            }
        }
        out
    }
}

/// The access an event of an SC step is, if it is one (as
/// [`super::lift`] reads SC traces: a write, a read, an RMW that wrote is
/// a store, a failed CAS a load).
fn access_of(kind: &EventKind) -> Option<(LocId, Access)> {
    match kind {
        EventKind::Read { loc, .. }
        | EventKind::Update {
            loc, wrote: None, ..
        } => Some((*loc, Access::Load)),
        EventKind::Write { loc, .. } | EventKind::Update { loc, .. } => Some((*loc, Access::Store)),
        _ => None,
    }
}

/// The product state: the inner model's state and the pair bookkeeping.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PairState<S> {
    inner: S,
    bits: Box<[u64]>,
}

/// A memory model that runs `inner` and keeps each thread's pair
/// bookkeeping in its state, recording every pair set that grows.
#[derive(Debug)]
pub(crate) struct Collecting<'a, M> {
    inner: &'a M,
    layout: Layout,
    found: Mutex<BTreeSet<Box<[u64]>>>,
}

impl<M: MemoryModel> Collecting<'_, M> {
    /// The bookkeeping after a step of `site` with `event`, and whether it
    /// grew.
    fn after(&self, bits: &[u64], site: Site, event: &Event) -> Option<Box<[u64]>> {
        let (loc, access) = access_of(&event.kind)?;
        let s = self.layout.index(site, loc, access)?;
        let mut next: Box<[u64]> = bits.into();
        if self.layout.record_access(&mut next, site.thread.index(), s) {
            Some(next)
        } else {
            None
        }
    }

    fn record(&self, bits: &[u64]) {
        // A poisoned lock means another worker panicked: keep collecting.
        let mut found = self.found.lock().unwrap_or_else(|e| e.into_inner());
        if !found.contains(bits) {
            found.insert(bits.into());
        }
    }
}

impl<M: MemoryModel> MemoryModel for Collecting<'_, M> {
    type State = PairState<M::State>;
    type Consing = M::Consing;

    fn hash_cons(&self, state: &mut Self::State, tables: &M::Consing) {
        self.inner.hash_cons(&mut state.inner, tables);
    }

    fn model(&self) -> OpModel {
        self.inner.model()
    }

    fn target(&self) -> Option<crate::mapping::Target> {
        self.inner.target()
    }

    fn initial(&self, program: &Program) -> Self::State {
        PairState {
            inner: self.inner.initial(program),
            bits: vec![0; self.layout.words].into(),
        }
    }

    fn perform(
        &self,
        state: &Self::State,
        site: Site,
        op: MemOp,
        out: &mut Vec<Step<Self::State>>,
    ) {
        let mut inner = Vec::new();
        self.inner.perform(&state.inner, site, op, &mut inner);
        for step in inner {
            let bits = match self.after(&state.bits, site, &step.event) {
                Some(grown) => {
                    self.record(&grown);
                    grown
                }
                None => state.bits.clone(),
            };
            out.push(Step {
                value: step.value,
                state: PairState {
                    inner: step.state,
                    bits,
                },
                event: step.event,
            });
        }
    }

    fn internal(&self, state: &Self::State, out: &mut Vec<(Self::State, Event)>) {
        let mut inner = Vec::new();
        self.inner.internal(&state.inner, &mut inner);
        out.extend(inner.into_iter().map(|(s, e)| {
            (
                PairState {
                    inner: s,
                    bits: state.bits.clone(),
                },
                e,
            )
        }));
    }

    fn settled(&self, state: &Self::State) -> bool {
        self.inner.settled(&state.inner)
    }

    fn final_value(&self, state: &Self::State, loc: LocId) -> crate::ir::Value {
        self.inner.final_value(&state.inner, loc)
    }
}

/// Is every bit of `a` set in `b`?
fn subset(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & !y == 0)
}

/// The maximal sets under inclusion, in a fixed order (most bits first,
/// then by value).
fn maximal(sets: BTreeSet<Box<[u64]>>) -> Vec<Box<[u64]>> {
    let mut sets: Vec<Box<[u64]>> = sets.into_iter().collect();
    let ones = |s: &[u64]| s.iter().map(|w| w.count_ones()).sum::<u32>();
    sets.sort_by(|a, b| ones(b).cmp(&ones(a)).then_with(|| a.cmp(b)));
    let mut kept: Vec<Box<[u64]>> = Vec::new();
    for s in sets {
        if !kept.iter().any(|k| subset(&s, k)) {
            kept.push(s);
        }
    }
    kept
}

/// Phase I over every SC execution of `program`: the potential
/// `->hb`-cycles of `length` events (Algorithm 1 per execution, unioned).
/// `opts.max_states` bounds the search of the product (see the module
/// doc); `opts.mapping` compiles the program as the SC model does.
pub fn predict_exhaustive(
    program: &Program,
    length: usize,
    opts: &ExploreOptions,
) -> ExhaustivePrediction {
    let compiled = program_for(program, &Sc, opts.mapping);
    let collecting = Collecting {
        inner: &Sc,
        layout: Layout::of(&compiled),
        found: Mutex::new(BTreeSet::new()),
    };
    // The wrapper has no target: `explore` runs `compiled` as it is.
    let table = explore(&compiled, &collecting, opts);
    let found = collecting
        .found
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    let sets = maximal(found);
    let layout = &collecting.layout;
    let per_set: Vec<BTreeSet<PredictedCycle>> = sets
        .par_iter()
        .map(|bits| cycles_of(&layout.pairs(bits), length))
        .collect();
    let cycles: BTreeSet<PredictedCycle> = per_set.into_iter().flatten().collect();
    ExhaustivePrediction {
        cycles: cycles.into_iter().collect(),
        complete: table.complete(),
        states: table.stats.states,
        pair_sets: sets.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maximal_keeps_the_antichain() {
        let sets: BTreeSet<Box<[u64]>> = [
            vec![0b0011u64],
            vec![0b0001],
            vec![0b0111],
            vec![0b1000],
            vec![0b1100],
        ]
        .into_iter()
        .map(Vec::into_boxed_slice)
        .collect();
        let kept = maximal(sets);
        assert_eq!(
            kept,
            vec![vec![0b0111u64].into_boxed_slice(), vec![0b1100].into()]
        );
    }
}
