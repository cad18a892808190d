//! The glue between the rules and the [`MemoryModel`] seam: [`C11r`] (the
//! restricted C11 model) and [`ScRaces`] (SC memory with C11
//! happens-before race detection).

use super::prune::prune_after;
use super::races::{na_read, na_write};
use super::rules::{
    atomic, atomic_fence, atomic_load, atomic_rmw, atomic_store, cas_failures, end, fork, join,
    Memory, Strength,
};
use super::state::{C11Consing, C11State, Loc};
use crate::dependence::Footprint;
use crate::ir::{C11Fence, FenceKind, LocId, Program, ReadOrd, RmwOrd, ThreadId, Value, WriteOrd};
use crate::model::{Event, EventKind, MemOp, MemoryModel, Site, Step};
use crate::registry::OpModel;

/// The restricted C11 model `c11r` (book: model-c11r.md, Rules; TSAN11 Figs. 6,
/// 10-13). See the `c11r` module docs for the theory and the deviations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct C11r {
    /// Drop store elements that no thread can read any more (sound; see
    /// `c11r::prune`). On by default; off only to check that it changes
    /// no outcome.
    pub prune: bool,
}

impl Default for C11r {
    fn default() -> Self {
        C11r { prune: true }
    }
}

/// SC memory with C11 data-race detection: JRF's question "is the program
/// data-race free in all SC executions?" (`relaxlab races --model sc`).
///
/// Memory is SC: one value per location (each atomic location keeps only
/// its newest store element), every access takes effect at once in one
/// total order (the interleaving). Happens-before is C11's `hb` restricted
/// to that execution, computed with the same vector clocks as [`C11r`]:
///
/// - program order and `asw` (fork: the child starts after everything its
///   parent did; join: the parent continues after everything the child
///   did);
/// - `sw` of C11 §29.8 (book: axiomatic.md, C11 models) by the orders as written: a
///   release (rel, acq_rel, sc) store or RMW and an acquire (acq, acq_rel,
///   sc) load or RMW reading from its release sequence (blocked by another
///   thread's plain store, continued by RMWs); release fences before a
///   relaxed store and acquire fences after a relaxed load (TSAN11 Fig. 6);
/// - relaxed accesses do not synchronise; SC accesses and SC fences
///   synchronise exactly like their release/acquire parts. The SC order
///   itself adds no `hb` edges (it does not in C11 either), so no SC
///   clocks are kept.
///
/// A race is two conflicting non-atomic accesses not ordered by that `hb`
/// (TSAN11 Sec. 2.2 checks). Hardware barriers are no-ops (as under SC)
/// and do not synchronise. Run it on the program as written, not on the
/// output of the compilation mapping (which removes C11 fences under SC).
/// A location both atomic and non-atomic (`Mixed`, rejected under the C11
/// models) is treated as atomic and gets no race checks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ScRaces;

/// Every result of `op` by `site` in `state` under `memory`.
pub(super) fn perform_op(
    memory: Memory,
    prune_on: bool,
    state: &C11State,
    site: Site,
    op: MemOp,
    out: &mut Vec<Step<C11State>>,
) {
    let t = site.thread;
    let start = out.len();
    match op {
        MemOp::Load { loc, ord } => {
            if is_atomic(state, loc) {
                let ord = if ord == ReadOrd::Na {
                    ReadOrd::Rlx
                } else {
                    ord
                };
                for (value, older, next) in atomic_load(state, memory, t, loc, ord) {
                    let kind = EventKind::Read { loc, value, older };
                    out.push(step(Some(value), next, kind));
                }
            } else {
                debug_assert!(
                    ord == ReadOrd::Na,
                    "relaxlab internal error: atomic load of a non-atomic location"
                );
                let mut next = state.clone();
                let (value, races) = na_read(&mut next, site, loc);
                let mut ev = Event::new(EventKind::Read {
                    loc,
                    value,
                    older: 0,
                });
                ev.races = races;
                out.push(Step {
                    value: Some(value),
                    state: next,
                    event: ev,
                });
            }
        }
        MemOp::Store { loc, val, ord } => {
            let mut next = state.clone();
            let mut ev = Event::new(EventKind::Write {
                loc,
                value: val,
                newer: 0,
            });
            if is_atomic(state, loc) {
                let ord = if ord == WriteOrd::Na {
                    WriteOrd::Rlx
                } else {
                    ord
                };
                atomic_store(&mut next, t, loc, val, ord);
            } else {
                debug_assert!(
                    ord == WriteOrd::Na,
                    "relaxlab internal error: atomic store to a non-atomic location"
                );
                ev.races = na_write(&mut next, site, loc, val);
            }
            out.push(Step {
                value: None,
                state: next,
                event: ev,
            });
        }
        MemOp::Rmw {
            loc,
            op,
            operand,
            ord,
        } => {
            let mut next = state.clone();
            if is_atomic(state, loc) {
                let (r, w) = rmw_strengths(ord);
                let old = atomic_rmw(&mut next, memory, t, loc, r, w, |old| {
                    op.apply(old, operand)
                });
                out.push(update(old, Some(op.apply(old, operand)), next, loc));
            } else {
                // Cannot happen: an RMW makes its location atomic.
                debug_assert!(
                    false,
                    "relaxlab internal error: RMW on a non-atomic location"
                );
                let (old, mut races) = na_read(&mut next, site, loc);
                races.extend(na_write(&mut next, site, loc, op.apply(old, operand)));
                let mut step = update(old, Some(op.apply(old, operand)), next, loc);
                step.event.races = races;
                out.push(step);
            }
        }
        MemOp::Cas {
            loc,
            expected,
            desired,
            ord,
            fail,
            weak,
        } => {
            if is_atomic(state, loc) {
                // Failures oldest first, then the success (which reads the
                // newest element, so it comes last in mo order).
                for (value, older, next) in
                    cas_failures(state, memory, t, loc, expected, fail, weak)
                {
                    let mut step = update(value, None, next, loc);
                    if let EventKind::Update { older: o, .. } = &mut step.event.kind {
                        *o = older;
                    }
                    out.push(step);
                }
                if atomic(state, loc).newest().value == expected {
                    let mut next = state.clone();
                    let (r, w) = rmw_strengths(ord);
                    let old = atomic_rmw(&mut next, memory, t, loc, r, w, |_| desired);
                    out.push(update(old, Some(desired), next, loc));
                }
            } else {
                debug_assert!(
                    false,
                    "relaxlab internal error: CAS on a non-atomic location"
                );
                let mut next = state.clone();
                let (old, mut races) = na_read(&mut next, site, loc);
                let wrote = (old == expected).then_some(desired);
                if let Some(v) = wrote {
                    races.extend(na_write(&mut next, site, loc, v));
                }
                let mut step = update(old, wrote, next, loc);
                step.event.races = races;
                out.push(step);
            }
        }
        MemOp::Fence { kind } => {
            let mut next = state.clone();
            match kind {
                FenceKind::C11(k) => atomic_fence(&mut next, memory, t, k),
                // The front end rejects hardware barriers under the C11
                // models; under SC memory they are no-ops.
                FenceKind::Hw(_) => debug_assert!(
                    memory == Memory::Sc,
                    "relaxlab internal error: hardware barrier under c11r"
                ),
            }
            out.push(step(None, next, EventKind::Sync));
        }
        MemOp::Fork { child } => {
            let mut next = state.clone();
            fork(&mut next, t, child);
            out.push(step(None, next, EventKind::Sync));
        }
        MemOp::Join { child } => {
            let mut next = state.clone();
            join(&mut next, t, child);
            out.push(step(None, next, EventKind::Sync));
        }
        MemOp::End => {
            let mut next = state.clone();
            end(&mut next, t);
            out.push(step(None, next, EventKind::Sync));
        }
    }
    if prune_on || memory == Memory::Sc {
        for s in &mut out[start..] {
            prune_after(&mut s.state, state, memory);
        }
    }
}

/// The footprint of `op` under `memory` (module docs of `c11r`,
/// "Dependence"); the same now and later.
fn footprint_of(memory: Memory, op: &MemOp) -> Footprint {
    let weak = memory == Memory::Weak;
    let sc_read = |sc: bool| {
        if weak && sc {
            Footprint::READS_SF
        } else {
            0
        }
    };
    let sc_write = |sc: bool| {
        if weak && sc {
            Footprint::WRITES_SW
        } else {
            0
        }
    };
    match *op {
        MemOp::Load { loc, ord } => Footprint::read(loc).with_clocks(sc_read(ord == ReadOrd::Sc)),
        MemOp::Store { loc, ord, .. } => {
            Footprint::write(loc).with_clocks(sc_write(ord == WriteOrd::Sc))
        }
        MemOp::Rmw { loc, ord, .. } => Footprint::write(loc).with_clocks(
            sc_read(ord.read_part() == ReadOrd::Sc) | sc_write(ord.write_part() == WriteOrd::Sc),
        ),
        MemOp::Cas { loc, ord, fail, .. } => Footprint::write(loc).with_clocks(
            sc_read(ord.read_part() == ReadOrd::Sc || fail == ReadOrd::Sc)
                | sc_write(ord.write_part() == WriteOrd::Sc),
        ),
        MemOp::Fence {
            kind: FenceKind::C11(C11Fence::Sc),
        } if weak => Footprint::NONE
            .with_clocks(Footprint::READS_SF | Footprint::WRITES_SF | Footprint::READS_SW),
        MemOp::Fence { .. } | MemOp::Fork { .. } | MemOp::Join { .. } | MemOp::End => {
            Footprint::NONE
        }
    }
}

fn is_atomic(state: &C11State, loc: LocId) -> bool {
    matches!(state.locs.get(loc.index()), Some(Loc::Atomic(_)))
}

fn rmw_strengths(ord: RmwOrd) -> (Strength, Strength) {
    (
        Strength::of_read(ord.read_part()),
        Strength::of_write(ord.write_part()),
    )
}

fn step(value: Option<Value>, state: C11State, kind: EventKind) -> Step<C11State> {
    Step {
        value,
        state,
        event: Event::new(kind),
    }
}

fn update(read: Value, wrote: Option<Value>, state: C11State, loc: LocId) -> Step<C11State> {
    let kind = EventKind::Update {
        loc,
        read,
        wrote,
        older: 0,
    };
    step(Some(read), state, kind)
}

/// The final value: the newest (mo-maximal) element, or the non-atomic
/// value.
fn final_value_of(state: &C11State, loc: LocId) -> Value {
    match state.locs.get(loc.index()) {
        Some(Loc::Atomic(a)) => a.newest().value,
        Some(Loc::NonAtomic(n)) => n.value,
        None => {
            debug_assert!(
                false,
                "relaxlab internal error: final value of a missing location"
            );
            0
        }
    }
}

impl MemoryModel for C11r {
    type State = C11State;
    type Consing = C11Consing;

    fn hash_cons(&self, state: &mut C11State, tables: &C11Consing) {
        state.hash_cons(tables);
    }

    fn model(&self) -> OpModel {
        OpModel::C11r
    }

    fn initial(&self, program: &Program) -> C11State {
        C11State::initial(program)
    }

    /// Successor order: a load's results follow the reads-from set from the
    /// oldest element to the newest (the sampler's `Old` strategy relies on
    /// it); a CAS lists its failures oldest first, then its success (if
    /// any), which reads the newest element.
    fn perform(&self, state: &C11State, site: Site, op: MemOp, out: &mut Vec<Step<C11State>>) {
        perform_op(Memory::Weak, self.prune, state, site, op, out);
    }

    /// `c11r` has no internal steps: a store is in `SE_a` at once.
    fn internal(&self, _state: &C11State, _out: &mut Vec<(C11State, crate::model::Event)>) {}

    fn settled(&self, _state: &C11State) -> bool {
        true
    }

    fn final_value(&self, state: &C11State, loc: LocId) -> Value {
        final_value_of(state, loc)
    }

    /// With pruning on or off: pruning is a congruence (module docs of
    /// `c11r`, "Dependence").
    const DECLARES_DEPENDENCE: bool = true;

    fn footprint(&self, _state: &C11State, _thread: ThreadId, op: &MemOp) -> Footprint {
        footprint_of(Memory::Weak, op)
    }

    fn future_footprint(&self, op: &MemOp) -> Footprint {
        footprint_of(Memory::Weak, op)
    }
}

impl MemoryModel for ScRaces {
    type State = C11State;
    type Consing = C11Consing;

    fn hash_cons(&self, state: &mut C11State, tables: &C11Consing) {
        state.hash_cons(tables);
    }

    /// Races are found under `sc` ([`crate::registry::Races::ScClocks`]).
    fn model(&self) -> OpModel {
        OpModel::Sc
    }

    /// The program as written: C11's fences and orders decide
    /// happens-before, where `sc` itself would compile them away.
    fn target(&self) -> Option<crate::mapping::Target> {
        None
    }

    fn initial(&self, program: &Program) -> C11State {
        C11State::initial(program)
    }

    /// Every operation has exactly one result (SC memory); a CAS succeeds
    /// iff the current value equals `expected`.
    fn perform(&self, state: &C11State, site: Site, op: MemOp, out: &mut Vec<Step<C11State>>) {
        perform_op(Memory::Sc, true, state, site, op, out);
    }

    fn internal(&self, _state: &C11State, _out: &mut Vec<(C11State, crate::model::Event)>) {}

    fn settled(&self, _state: &C11State) -> bool {
        true
    }

    fn final_value(&self, state: &C11State, loc: LocId) -> Value {
        final_value_of(state, loc)
    }

    const DECLARES_DEPENDENCE: bool = true;

    fn footprint(&self, _state: &C11State, _thread: ThreadId, op: &MemOp) -> Footprint {
        footprint_of(Memory::Sc, op)
    }

    fn future_footprint(&self, op: &MemOp) -> Footprint {
        footprint_of(Memory::Sc, op)
    }
}
