//! The glue between the rules and the [`MemoryModel`] seam: [`C11t`].

use super::races::{na_read, na_write};
use super::rules::{atomic_fence, atomic_load, atomic_rmw, atomic_store, finish, fork, join};
use super::state::{C11tConsing, C11tState, Loc};
use crate::dependence::{Footprint, InternalAgent};
use crate::ir::{C11Fence, FenceKind, LocId, Program, ReadOrd, RmwOrd, ThreadId, Value, WriteOrd};
use crate::model::{Event, EventKind, MemOp, MemoryModel, Site, Step};
use crate::models::clocks::threads::Strength;
use crate::models::clocks::threads::ThreadClockState;
use crate::registry::OpModel;

/// The operational model `c11t`: C11 with C++20 release sequences and
/// `acyclic(hb ∪ sc ∪ rf)`, the modification order kept as a constraint
/// graph (C11TESTER Secs. 2.2, 4, 6; book: axiomatic.md, C11 models `ax.c11t`). See the
/// `c11t` module docs for the theory and the deviations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct C11t;

fn is_atomic(state: &C11tState, loc: LocId) -> bool {
    matches!(state.locs.get(loc.index()), Some(Loc::Atomic(_)))
}

fn step(value: Option<Value>, state: C11tState, kind: EventKind) -> Step<C11tState> {
    Step {
        value,
        state,
        event: Event::new(kind),
    }
}

fn rmw_strengths(ord: RmwOrd) -> (Strength, Strength) {
    (
        Strength::of_read(ord.read_part()),
        Strength::of_write(ord.write_part()),
    )
}

/// An RMW or CAS on a non-atomic location cannot happen (an RMW makes its
/// location atomic); if one arrives it is done as a racy read and write.
fn na_update(
    state: &C11tState,
    site: Site,
    loc: LocId,
    f: impl Fn(Value) -> Option<Value>,
) -> Step<C11tState> {
    debug_assert!(
        false,
        "relaxlab internal error: RMW or CAS on a non-atomic location"
    );
    let mut next = state.clone();
    let (old, mut races) = na_read(&mut next, site, loc);
    let wrote = f(old);
    if let Some(v) = wrote {
        races.extend(na_write(&mut next, site, loc, v));
    }
    let mut s = step(
        Some(old),
        next,
        EventKind::Update {
            loc,
            read: old,
            wrote,
            older: 0,
        },
    );
    s.event.races = races;
    s
}

fn perform_op(state: &C11tState, site: Site, op: MemOp, out: &mut Vec<Step<C11tState>>) {
    let t = site.thread;
    match op {
        MemOp::Load { loc, ord } if is_atomic(state, loc) => {
            let ord = if ord == ReadOrd::Na {
                ReadOrd::Rlx
            } else {
                ord
            };
            for (value, older, next) in atomic_load(state, t, loc, ord) {
                out.push(step(
                    Some(value),
                    next,
                    EventKind::Read { loc, value, older },
                ));
            }
        }
        MemOp::Load { loc, .. } => {
            let mut next = state.clone();
            let (value, races) = na_read(&mut next, site, loc);
            let mut s = step(
                Some(value),
                next,
                EventKind::Read {
                    loc,
                    value,
                    older: 0,
                },
            );
            s.event.races = races;
            out.push(s);
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
            if !is_atomic(state, loc) {
                out.push(na_update(state, site, loc, |old| {
                    Some(op.apply(old, operand))
                }));
                return;
            }
            let (r, w) = rmw_strengths(ord);
            let f = |old| op.apply(old, operand);
            for (old, older, next) in atomic_rmw(state, t, loc, r, w, |_| true, f) {
                let kind = EventKind::Update {
                    loc,
                    read: old,
                    wrote: Some(f(old)),
                    older,
                };
                out.push(step(Some(old), next, kind));
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
            if !is_atomic(state, loc) {
                out.push(na_update(state, site, loc, |old| {
                    (old == expected).then_some(desired)
                }));
                return;
            }
            // Failures first (a load with the failure order of a store
            // whose value differs, or of any store for a weak CAS), then
            // successes, each oldest first.
            for (old, older, next) in atomic_load(state, t, loc, fail) {
                if weak || old != expected {
                    let kind = EventKind::Update {
                        loc,
                        read: old,
                        wrote: None,
                        older,
                    };
                    out.push(step(Some(old), next, kind));
                }
            }
            let (r, w) = rmw_strengths(ord);
            let succ = atomic_rmw(state, t, loc, r, w, |v| v == expected, |_| desired);
            for (old, older, next) in succ {
                let kind = EventKind::Update {
                    loc,
                    read: old,
                    wrote: Some(desired),
                    older,
                };
                out.push(step(Some(old), next, kind));
            }
        }
        MemOp::Fence { kind } => {
            let mut next = state.clone();
            match kind {
                FenceKind::C11(k) => atomic_fence(&mut next, t, k),
                // The front end rejects hardware barriers under the C11
                // models; if one arrives it is a no-op.
                FenceKind::Hw(_) => debug_assert!(
                    false,
                    "relaxlab internal error: hardware barrier under c11t"
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
            finish(&mut next, t);
            out.push(step(None, next, EventKind::Sync));
        }
    }
}

/// The footprint of `op` (module docs, "Dependence"); `atomic_load`: is
/// a load's location atomic (unknown, so assumed, for a future step).
fn footprint_of(op: &MemOp, atomic_load: bool) -> Footprint {
    let sc_read = |sc: bool| if sc { Footprint::READS_SF } else { 0 };
    let sc_write = |sc: bool| {
        if sc {
            Footprint::WRITES_SW | Footprint::READS_SF
        } else {
            0
        }
    };
    match *op {
        MemOp::Load { loc, ord } => {
            let cell = if atomic_load {
                Footprint::write(loc)
            } else {
                Footprint::read(loc)
            };
            cell.with_clocks(sc_read(ord == ReadOrd::Sc))
        }
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
        } => Footprint::NONE
            .with_clocks(Footprint::READS_SF | Footprint::WRITES_SF | Footprint::READS_SW),
        MemOp::Fence { .. } | MemOp::Fork { .. } | MemOp::Join { .. } | MemOp::End => {
            Footprint::NONE
        }
    }
}

/// The location the settling steps of `state` settle, if any.
fn settling(state: &C11tState) -> Option<usize> {
    if state.any_running() {
        return None;
    }
    (0..state.locs.len()).find(|&i| matches!(&state.locs[i], Loc::Atomic(a) if !a.settled))
}

/// SETTLE (module docs, "Final values"): with no thread running, for the
/// lowest atomic location not settled yet, one step per sink `s` of its
/// mo-graph fixing `s` as the last store and naming its value. A location
/// with a single sink gets its one step too, so that every trace says
/// which store each location ends with (the lift of a trace to an
/// execution builds `co` from that).
fn settle_steps(state: &C11tState, out: &mut Vec<(C11tState, Event)>) {
    let Some(i) = settling(state) else {
        return;
    };
    let sinks = match &state.locs[i] {
        Loc::Atomic(a) => a.graph.sinks(),
        Loc::NonAtomic(_) => return,
    };
    let loc = LocId::new(i);
    for &s in &sinks {
        let mut next = state.clone();
        let value = match next.locs.get_mut(i) {
            Some(Loc::Atomic(a)) => {
                if sinks.len() > 1 {
                    a.graph.settle(s);
                }
                a.settled = true;
                a.store(s).value
            }
            _ => continue,
        };
        out.push((next, Event::new(EventKind::Settle { loc, value })));
    }
}

impl MemoryModel for C11t {
    type State = C11tState;
    type Consing = C11tConsing;

    fn hash_cons(&self, state: &mut C11tState, tables: &C11tConsing) {
        state.hash_cons(tables);
    }

    fn model(&self) -> OpModel {
        OpModel::C11t
    }

    fn initial(&self, program: &Program) -> C11tState {
        C11tState::initial(program)
    }

    /// Successor order: a load's results go from the oldest store it may
    /// read to the newest (performance order); a CAS lists its failures,
    /// then its successes, each oldest first; an RMW its choices oldest
    /// first.
    fn perform(&self, state: &C11tState, site: Site, op: MemOp, out: &mut Vec<Step<C11tState>>) {
        perform_op(state, site, op, out);
    }

    /// The settling steps, in the order of the sinks' node ids.
    fn internal(&self, state: &C11tState, out: &mut Vec<(C11tState, Event)>) {
        settle_steps(state, out);
    }

    fn settled(&self, state: &C11tState) -> bool {
        state.locs.iter().all(|l| match l {
            Loc::Atomic(a) => a.settled,
            Loc::NonAtomic(_) => true,
        })
    }

    /// The value of the unique sink (the `mo`-last store), or the
    /// non-atomic value.
    fn final_value(&self, state: &C11tState, loc: LocId) -> Value {
        match state.locs.get(loc.index()) {
            Some(Loc::Atomic(a)) => match a.graph.sinks().as_slice() {
                [s] => a.store(*s).value,
                _ => {
                    debug_assert!(
                        false,
                        "relaxlab internal error: final value of an unsettled location"
                    );
                    0
                }
            },
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
    const DECLARES_DEPENDENCE: bool = true;

    fn footprint(&self, state: &C11tState, _thread: ThreadId, op: &MemOp) -> Footprint {
        let atomic_load = match *op {
            MemOp::Load { loc, .. } => is_atomic(state, loc),
            _ => true,
        };
        footprint_of(op, atomic_load)
    }

    fn future_footprint(&self, op: &MemOp) -> Footprint {
        footprint_of(op, true)
    }

    /// One agent per settling step, of no thread, writing the location it
    /// settles.
    fn internal_agents(&self, state: &C11tState, out: &mut Vec<InternalAgent>) {
        let Some(i) = settling(state) else {
            return;
        };
        if let Loc::Atomic(a) = &state.locs[i] {
            let w = Footprint::write(LocId::new(i));
            for _ in a.graph.sinks() {
                out.push(InternalAgent {
                    owner: None,
                    now: w,
                    later: w,
                });
            }
        }
    }
}
