//! Partial store order: RELAXER Fig. 5 (book: model-pso.md, Rules (RELAXER Fig. 5)).
//!
//! Memory `m` plus one FIFO store buffer `B[p][a]` of values per thread and
//! location.
//! - `storePSO(p,a,v)`: append `v` to `B[p][a]`.
//! - `loadPSO(p,a)`: the newest value of `B[p][a]` if any, else `m[a]`
//!   (Fig. 5's code says `getLast`, its prose "oldest": the code is right).
//! - `storecPSO(p,a)` (internal, when `B[p][a]` is non-empty): its oldest
//!   value reaches memory.
//! - `CASPSO` and every RMW on `a`: enabled only when `B[p][a]` is empty;
//!   stores to other locations may stay buffered across it (SPARC PSO).
//! - `membarssPSO`, `membarslPSO` and `full`: enabled only when every
//!   `B[p][*]` is empty; `ll`, `ls` do nothing.
//! - fork, join and thread end: full barriers, all of `p`'s buffers empty.
//!
//! Conservative (sound, not complete): RELAXER's `ss` waits for every
//! earlier store to reach memory, so it also orders an earlier store before
//! a later load, which a real `ss` barrier would not. Every behaviour of
//! this model is a PSO behaviour; a few PSO behaviours with an `ss` between
//! a store and a later access are missing (book: axiomatic.md, Hardware models).
//!
//! State layout ([`Segs`]): segment 0 is `m`; segment `1 + p * L + a` is
//! `B[p][a]`, oldest first (`L` locations).
//!
//! # Dependence ([`crate::dependence`])
//!
//! As under TSO ([`super::tso`]), with one agent per non-empty buffer
//! `B[p][a]`: the cells are `M(a) = m[a]`; `storePSO` touches no cell;
//! `loadPSO(p,a)` reads `M(a)` (even when it would read `B[p][a]`, which
//! `p`'s own commits may drain first); `storecPSO(p,a)` writes `M(a)`, now and for
//! every entry it may still commit; `CASPSO` and the RMWs read and write
//! `M(a)`; barriers, fork, join and end touch no cell; a store, later,
//! writes `M(a)` through its commit. A thread's steps commute with its own
//! buffers' commits for the reasons given for TSO (MCR Sec. 4.3), per
//! buffer: while `B[p][a]` is non-empty, `p` may store to `a` (the other
//! end of the FIFO), load `a` (the newest entry, or the value the commit of
//! the last one writes), RMW another location `b` (an independent cell)
//! and take the barriers that do not drain; RMWs of `a` and draining
//! barriers wait for the commit.

use crate::dependence::{Footprint, InternalAgent};
use crate::ir::{LocId, Program, ThreadId, Value};
use crate::model::{Event, EventKind, MemOp, MemoryModel, Site, Step};
use crate::registry::OpModel;

use super::common::{pso_barrier, rmw_write, step, update_event, FULL};
use super::flat::Segs;

/// The PSO model.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pso;

impl MemoryModel for Pso {
    type State = Segs;
    type Consing = ();

    fn model(&self) -> OpModel {
        OpModel::Pso
    }

    /// A load or a barrier returns its state's own handle ([`Segs`]).
    fn same_state(a: &Segs, b: &Segs) -> bool {
        a.ptr_eq(b)
    }

    fn initial(&self, program: &Program) -> Segs {
        let mem: Vec<Value> = program.locations.iter().map(|l| l.init).collect();
        let buffers = program.threads.len() * mem.len();
        let segs: Vec<&[Value]> = std::iter::once(&mem[..])
            .chain(std::iter::repeat_n(&[][..], buffers))
            .collect();
        Segs::from_segments(segs.into_iter())
    }

    fn perform(&self, s: &Segs, site: Site, op: MemOp, out: &mut Vec<Step<Segs>>) {
        let p = site.thread;
        let drain_ok = |drain: bool| !drain || buffers_empty(s, p);
        match op {
            MemOp::Load { loc, .. } => out.push(load_pso(s, p, loc)),
            MemOp::Store { loc, val, .. } => out.push(store_pso(s, p, loc, val)),
            MemOp::Rmw { loc, .. } | MemOp::Cas { loc, .. } => {
                if s.seg(buf(s, p, loc)).is_empty() {
                    out.push(cas_pso(s, loc, &op));
                }
            }
            MemOp::Fence { kind } => {
                if drain_ok(pso_barrier(kind).drain) {
                    out.push(step(None, s.clone(), EventKind::Sync));
                }
            }
            MemOp::Fork { .. } | MemOp::Join { .. } | MemOp::End => {
                if drain_ok(FULL.drain) {
                    out.push(step(None, s.clone(), EventKind::Sync));
                }
            }
        }
    }

    fn internal(&self, s: &Segs, out: &mut Vec<(Segs, Event)>) {
        let nloc = s.seg(0).len();
        for i in 1..s.len() {
            if !s.seg(i).is_empty() {
                let (p, a) = ((i - 1) / nloc, (i - 1) % nloc);
                out.push(storec_pso(s, ThreadId::new(p), LocId::new(a)));
            }
        }
    }

    fn settled(&self, s: &Segs) -> bool {
        (1..s.len()).all(|i| s.seg(i).is_empty())
    }

    fn final_value(&self, s: &Segs, loc: LocId) -> Value {
        s.seg(0)[loc.index()]
    }

    const DECLARES_DEPENDENCE: bool = true;

    /// Module docs, "Dependence".
    fn footprint(&self, _s: &Segs, _p: ThreadId, op: &MemOp) -> Footprint {
        buffered_store_footprint(op).unwrap_or_else(|| self.future_footprint(op))
    }

    /// Module docs, "Dependence".
    fn future_footprint(&self, op: &MemOp) -> Footprint {
        Footprint::of_access(op)
    }

    fn internal_agents(&self, s: &Segs, out: &mut Vec<InternalAgent>) {
        buffer_agents(s, 1..s.len(), out);
    }
}

/// A store touches only its thread's own buffer (PSO and PSLO): no cell.
pub(super) fn buffered_store_footprint(op: &MemOp) -> Option<Footprint> {
    matches!(op, MemOp::Store { .. }).then_some(Footprint::NONE)
}

/// One agent per non-empty buffer segment of `segs` (PSO and PSLO), in the
/// order their `internal` lists the commits: a commit of `B[p][a]` writes
/// `M(a)`, and so does every later one.
pub(super) fn buffer_agents(s: &Segs, segs: std::ops::Range<usize>, out: &mut Vec<InternalAgent>) {
    let nloc = s.seg(0).len();
    for i in segs {
        if !s.seg(i).is_empty() {
            let (p, a) = ((i - 1) / nloc, (i - 1) % nloc);
            let w = Footprint::write(LocId::new(a));
            out.push(InternalAgent {
                owner: Some(ThreadId::new(p)),
                now: w,
                later: w,
            });
        }
    }
}

/// The segment of `B[p][a]`.
pub(super) fn buf(s: &Segs, p: ThreadId, a: LocId) -> usize {
    1 + p.index() * s.seg(0).len() + a.index()
}

/// Are all of `p`'s buffers empty?
pub(super) fn buffers_empty(s: &Segs, p: ThreadId) -> bool {
    let nloc = s.seg(0).len();
    (0..nloc).all(|a| s.seg(buf(s, p, LocId::new(a))).is_empty())
}

/// `storePSO(p,a,v)`, RELAXER Fig. 5: `Ba[p][a].addLast(v)`.
pub(super) fn store_pso(s: &Segs, p: ThreadId, loc: LocId, value: Value) -> Step<Segs> {
    let next = s.edit(&mut [(
        buf(s, p, loc),
        &mut |old: &[Value], out: &mut Vec<Value>| {
            out.extend_from_slice(old);
            out.push(value);
        },
    )]);
    step(
        None,
        next,
        EventKind::Write {
            loc,
            value,
            newer: 0,
        },
    )
}

/// `loadPSO(p,a)`, RELAXER Fig. 5: `Ba[p][a].getLast()` if non-empty, else
/// `m[a]`.
fn load_pso(s: &Segs, p: ThreadId, loc: LocId) -> Step<Segs> {
    let value = match s.seg(buf(s, p, loc)).last() {
        Some(v) => *v,
        None => s.seg(0)[loc.index()],
    };
    step(
        Some(value),
        s.clone(),
        EventKind::Read {
            loc,
            value,
            older: 0,
        },
    )
}

/// `storecPSO(p,a)`, RELAXER Fig. 5: `m[a] = Ba[p][a].removeFirst()`.
fn storec_pso(s: &Segs, p: ThreadId, loc: LocId) -> (Segs, Event) {
    let b = buf(s, p, loc);
    let v = s.seg(b)[0];
    let next = s.edit(&mut [
        (0, &mut |m: &[Value], out: &mut Vec<Value>| {
            out.extend_from_slice(m);
            out[loc.index()] = v;
        }),
        (b, &mut |old: &[Value], out: &mut Vec<Value>| {
            out.extend_from_slice(&old[1..])
        }),
    ]);
    let kind = EventKind::Commit {
        thread: p,
        loc,
        value: v,
    };
    (next, Event::new(kind))
}

/// `CASPSO(p,a,oldv,newv)`, RELAXER Fig. 5, and every RMW: atomic on
/// `m[a]` (the caller has checked that `B[p][a]` is empty).
fn cas_pso(s: &Segs, loc: LocId, op: &MemOp) -> Step<Segs> {
    let old = s.seg(0)[loc.index()];
    let wrote = rmw_write(op, old);
    let next = match wrote {
        // Segment 0 starts the data, so `out[a]` is `m[a]`.
        Some(v) => s.edit(&mut [(0, &mut |m: &[Value], out: &mut Vec<Value>| {
            out.extend_from_slice(m);
            out[loc.index()] = v;
        })]),
        None => s.clone(),
    };
    step(Some(old), next, update_event(loc, old, wrote))
}
