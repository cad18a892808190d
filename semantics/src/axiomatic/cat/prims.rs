//! The primitives of a candidate execution, as the cat evaluator sees
//! them (herd7 manual, "Pre-defined identifiers"): event sets and
//! relations read off an [`Execution`]. See [`SetPrim`] and [`RelPrim`]
//! for what each holds.

use super::deps::Deps;
use super::model::{RelPrim, SetPrim};
use super::rows::{bit, full};
use crate::axiomatic::execution::{AccessKind, Event, EventKind, Execution, LockOp, Mode};
use crate::ir::{FenceKind, HwFence};

fn set_of(ex: &Execution, f: impl Fn(&Event) -> bool) -> u128 {
    ex.events
        .iter()
        .enumerate()
        .filter(|(_, e)| f(e))
        .fold(0, |acc, (i, _)| acc | bit(i))
}

/// The value of a primitive set. `tag_bits[i]` is the program's tag bit
/// of the model's annotation `i` (0 when the program has none).
pub(crate) fn set(ex: &Execution, p: SetPrim, tag_bits: &[u64]) -> u128 {
    match p {
        SetPrim::All => full(ex.len()),
        SetPrim::Reads => set_of(ex, Event::is_read),
        SetPrim::Writes => set_of(ex, Event::is_write) | ex.updates,
        SetPrim::Memory => set_of(ex, |e| e.loc().is_some()),
        SetPrim::Fences => set_of(ex, |e| {
            matches!(e.kind, EventKind::Fence(_) | EventKind::TaggedFence)
        }),
        SetPrim::Init => set_of(ex, |e| e.thread.is_none()),
        // The engine's choice when the model chooses `co`; else the last
        // writes of the candidate's `co`.
        SetPrim::Final => match ex.fw {
            Some(fw) => fw,
            None => {
                let writes = set_of(ex, Event::is_write) | ex.updates;
                super::rows::members(writes)
                    .filter(|&w| ex.co.row(w) == 0)
                    .fold(0, |acc, w| acc | bit(w))
            }
        },
        SetPrim::Branches => 0,
        // herd7's RMW: the events of read-modify-writes (one event each
        // in the view of `one_event`), a failed one's read included
        // (relaxlab's CAS has none: its failed read is not in RMW, as
        // herd's C11 failed CAS read is not).
        SetPrim::Rmw => {
            ex.updates
                | ex.rmw
                    .pairs()
                    .fold(0, |acc, (r, w)| acc | bit(r.index()) | bit(w.index()))
                | set_of(ex, |e| {
                    matches!(
                        e.kind,
                        EventKind::Read {
                            access: AccessKind::FailedUpdate,
                            ..
                        }
                    )
                })
        }
        SetPrim::Tag(i) => {
            let b = tag_bits.get(i as usize).copied().unwrap_or(0);
            if b == 0 {
                0
            } else {
                set_of(ex, |e| e.tags & b != 0)
            }
        }
        SetPrim::Lock(op) => set_of(
            ex,
            |e| matches!(e.kind, EventKind::Lock { op: o, .. } if o == op),
        ),
        SetPrim::LockAny => set_of(ex, |e| {
            matches!(
                e.kind,
                EventKind::Lock {
                    op: LockOp::Read | LockOp::Write,
                    ..
                }
            )
        }),
        SetPrim::Annotated => set_of(ex, |e| {
            e.tags != 0
                && matches!(
                    e.kind,
                    EventKind::Read { .. }
                        | EventKind::Write { .. }
                        | EventKind::TaggedFence
                        | EventKind::Srcu { .. }
                )
        }),
        SetPrim::Locked => set_of(ex, Event::is_locked),
        SetPrim::Fork => set_of(ex, |e| matches!(e.kind, EventKind::Fork { .. })),
        SetPrim::Join => set_of(ex, |e| matches!(e.kind, EventKind::Join { .. })),
        SetPrim::Mode(Mode::Na) => set_of(ex, |e| e.loc().is_some() && e.mode == Mode::Na),
        SetPrim::Mode(m) => set_of(ex, |e| e.mode == m),
        SetPrim::Atomic => set_of(ex, |e| e.loc().is_some() && e.mode != Mode::Na),
        SetPrim::HwFence(k) => set_of(ex, |e| match e.kind {
            EventKind::Fence(FenceKind::Hw(f)) => f == k,
            EventKind::Fork { .. } | EventKind::Join { .. } => k == HwFence::Full,
            _ => false,
        }),
    }
}

/// Writes the rows of a primitive relation into `dst` (`ex.len()` rows).
/// `deps` is computed by the caller when the model needs it.
pub(crate) fn relation(ex: &Execution, p: RelPrim, deps: Option<&Deps>, dst: &mut [u128]) {
    let n = ex.len();
    let copy = |dst: &mut [u128], r: &crate::axiomatic::relation::Relation| {
        for (i, d) in dst.iter_mut().enumerate() {
            *d = r.row(i);
        }
    };
    match p {
        RelPrim::Po => copy(dst, &ex.po),
        RelPrim::Asw => copy(dst, &ex.asw),
        RelPrim::Rf => copy(dst, &ex.rf),
        RelPrim::Co => copy(dst, &ex.co),
        RelPrim::Rmw => copy(dst, &ex.rmw),
        // herd7's `loc` relates every event with a location: accesses,
        // lock and SRCU events.
        RelPrim::Loc => {
            for (a, d) in dst.iter_mut().enumerate() {
                *d = match ex.events[a].location() {
                    Some(l) => set_of(ex, |e| e.location() == Some(l)),
                    None => 0,
                };
            }
        }
        RelPrim::Ext | RelPrim::Int => {
            let ext = p == RelPrim::Ext;
            for (a, d) in dst.iter_mut().enumerate() {
                let t = ex.events[a].thread;
                let same = set_of(ex, |e| e.thread == t);
                *d = if ext { full(n) & !same } else { same };
            }
        }
        RelPrim::Id => {
            for (a, d) in dst.iter_mut().enumerate() {
                *d = bit(a);
            }
        }
        RelPrim::Addr | RelPrim::Data | RelPrim::Ctrl if ex.deps.is_some() => {
            let d = ex.deps.as_deref().expect("checked");
            let r = match p {
                RelPrim::Addr => &d.addr,
                RelPrim::Data => &d.data,
                _ => &d.ctrl,
            };
            copy(dst, r);
        }
        RelPrim::Addr => dst.fill(0),
        RelPrim::Data | RelPrim::Ctrl => match deps {
            Some(deps) => dst.copy_from_slice(if p == RelPrim::Data {
                &deps.data
            } else {
                &deps.ctrl
            }),
            None => dst.fill(0),
        },
    }
}
