//! Total store order: RELAXER Fig. 4 (book: model-tso.md, Rules (RELAXER Fig. 4; MCR Sec. 3.1)).
//!
//! Memory `m` plus one FIFO store buffer `B[p]` of `(location, value)` per
//! thread.
//! - `storeTSO(p,a,v)`: append `(a,v)` to `B[p]`.
//! - `loadTSO(p,a)`: the newest `(a,v)` in `B[p]` if any, else `m[a]`.
//! - `storecTSO(p)` (internal, when `B[p]` is non-empty): the oldest entry
//!   of `B[p]` reaches memory.
//! - `CASTSO` and every RMW: enabled only when `B[p]` is empty (Fig. 4 runs
//!   `membarslTSO` first; being not enabled until the internal commits have
//!   drained the buffer is the same set of executions), atomic on `m`.
//! - `membarslTSO`, and `full`: enabled only when `B[p]` is empty; `ss`,
//!   `ll`, `ls` do nothing (TSO keeps those orders already).
//! - fork, join and thread end: full barriers (book: models.md, The shared frame), so enabled
//!   only when `B[p]` is empty.
//!
//! Exact for x86-TSO / SPARC TSO on the fragment: it agrees with `ax.tso`.
//!
//! State layout ([`Segs`]): segment 0 is `m`, segment `1 + p` is `B[p]` as
//! flattened `(loc, value)` pairs, oldest first.
//!
//! # Dependence ([`crate::dependence`])
//!
//! The cells are `M(a) = m[a]`; a buffer `B[p]` is no cell: only `p` and
//! its own commits touch it. Rule by rule:
//! - `storeTSO(p,a,v)` appends to `B[p]`: no cell. Its later effect on
//!   memory is the commit, an internal step with a footprint of its own.
//! - `loadTSO(p,a)` reads `M(a)`. (When `B[p]` holds a store to `a` the
//!   load reads no cell, but `p`'s own commits may drain those stores
//!   before the load runs, after which it reads `m[a]`: a footprint must
//!   hold in every state the other agents can lead to, so it is `M(a)`.)
//! - `storecTSO(p)`, the agent "buffer of `p`", writes `M(a)` for the `a`
//!   of the oldest entry; everything it may still do is a commit of some
//!   entry now in `B[p]` (writes `M(b)` for every `b` in `B[p]`).
//! - `CASTSO` and every RMW read and write `M(a)`.
//! - barriers, fork, join and end touch no cell: they are enabled or not
//!   by `B[p]` alone and change nothing shared.
//! - later (the future of a thread that has not moved yet): a store will
//!   write `M(a)` through its commit.
//!
//! Commutation of steps with disjoint footprints: steps of different
//! threads read and write `m` only at the cells declared, and each reads
//! only its own buffer. A thread's steps and the commits of its own buffer
//! commute (MCR Sec. 3 and Sec. 4.3: a buffered write and the flush of an
//! older one act on the two ends of the FIFO): while `B[p]` is non-empty
//! the only steps of `p` enabled are loads, stores and the barriers that
//! need no drain; a store appends at the tail while the commit removes the
//! head; a load of `a` returns the newest buffered store to `a`, which the
//! commit of the head leaves in place, or, if the head was the only one, the
//! value that commit writes to `m[a]`; and the commit stays enabled and
//! commits the same entry whatever `p` does meanwhile.

use crate::dependence::{Footprint, InternalAgent};
use crate::ir::{LocId, Program, ThreadId, Value};
use crate::model::{Event, EventKind, MemOp, MemoryModel, Site, Step};
use crate::registry::OpModel;

use super::common::{rmw_write, step, tso_barrier, update_event};
use super::flat::Segs;

/// The TSO model.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tso;

impl MemoryModel for Tso {
    type State = Segs;
    type Consing = ();

    fn model(&self) -> OpModel {
        OpModel::Tso
    }

    /// A load or a barrier returns its state's own handle ([`Segs`]).
    fn same_state(a: &Segs, b: &Segs) -> bool {
        a.ptr_eq(b)
    }

    fn initial(&self, program: &Program) -> Segs {
        let mem: Vec<Value> = program.locations.iter().map(|l| l.init).collect();
        let segs = std::iter::once(&mem[..]).chain(program.threads.iter().map(|_| &[][..]));
        Segs::from_segments(segs.collect::<Vec<_>>().into_iter())
    }

    fn perform(&self, s: &Segs, site: Site, op: MemOp, out: &mut Vec<Step<Segs>>) {
        let p = site.thread;
        match op {
            MemOp::Load { loc, .. } => out.push(load_tso(s, p, loc)),
            MemOp::Store { loc, val, .. } => out.push(store_tso(s, p, loc, val)),
            MemOp::Rmw { loc, .. } | MemOp::Cas { loc, .. } => {
                if buffer(s, p).is_empty() {
                    out.push(cas_tso(s, loc, &op));
                }
            }
            MemOp::Fence { kind } => {
                if !tso_barrier(kind).drain || buffer(s, p).is_empty() {
                    out.push(step(None, s.clone(), EventKind::Sync));
                }
            }
            // Full barriers (book: models.md, The shared frame): the buffer must be empty.
            MemOp::Fork { .. } | MemOp::Join { .. } | MemOp::End => {
                if buffer(s, p).is_empty() {
                    out.push(step(None, s.clone(), EventKind::Sync));
                }
            }
        }
    }

    fn internal(&self, s: &Segs, out: &mut Vec<(Segs, Event)>) {
        for p in 0..s.len() - 1 {
            if !buffer(s, ThreadId::new(p)).is_empty() {
                out.push(storec_tso(s, ThreadId::new(p)));
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
        match *op {
            MemOp::Store { .. } => Footprint::NONE,
            _ => self.future_footprint(op),
        }
    }

    /// Module docs, "Dependence".
    fn future_footprint(&self, op: &MemOp) -> Footprint {
        Footprint::of_access(op)
    }

    /// One agent per non-empty buffer, as [`MemoryModel::internal`] lists
    /// the commits.
    fn internal_agents(&self, s: &Segs, out: &mut Vec<InternalAgent>) {
        for p in 0..s.len() - 1 {
            let b = buffer(s, ThreadId::new(p));
            if let Some(head) = b.first() {
                let mut later = Footprint::NONE;
                for e in b.chunks_exact(2) {
                    later = later.union(Footprint::write(LocId(e[0] as u32)));
                }
                out.push(InternalAgent {
                    owner: Some(ThreadId::new(p)),
                    now: Footprint::write(LocId(*head as u32)),
                    later,
                });
            }
        }
    }
}

/// `B[p]` as flattened `(loc, value)` pairs.
fn buffer(s: &Segs, p: ThreadId) -> &[Value] {
    s.seg(1 + p.index())
}

/// `storeTSO(p,a,v)`, RELAXER Fig. 4: `B[p].addLast((a,v))`.
fn store_tso(s: &Segs, p: ThreadId, loc: LocId, value: Value) -> Step<Segs> {
    let next = s.edit(
        &mut [(1 + p.index(), &mut |old: &[Value], out: &mut Vec<Value>| {
            out.extend_from_slice(old);
            out.extend_from_slice(&[loc.0 as Value, value]);
        })],
    );
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

/// `loadTSO(p,a)`, RELAXER Fig. 4: the last `(a,v)` of `B[p]`, else `m[a]`.
fn load_tso(s: &Segs, p: ThreadId, loc: LocId) -> Step<Segs> {
    let buffered = buffer(s, p)
        .chunks_exact(2)
        .rev()
        .find(|e| e[0] == loc.0 as Value)
        .map(|e| e[1]);
    let value = buffered.unwrap_or(s.seg(0)[loc.index()]);
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

/// `storecTSO(p)`, RELAXER Fig. 4: `(a,v) = B[p].removeFirst(); m[a] = v`.
fn storec_tso(s: &Segs, p: ThreadId) -> (Segs, Event) {
    let b = buffer(s, p);
    let (a, v) = (b[0], b[1]);
    let next = s.rebuild(|i, old, out| {
        if i == 0 {
            // Segment 0 starts the data, so `out[a]` is `m[a]`.
            out.extend_from_slice(old);
            out[a as usize] = v;
        } else if i == 1 + p.index() {
            out.extend_from_slice(&old[2..]);
        } else {
            out.extend_from_slice(old);
        }
    });
    let kind = EventKind::Commit {
        thread: p,
        loc: LocId(a as u32),
        value: v,
    };
    (next, Event::new(kind))
}

/// `CASTSO(p,a,oldv,newv)`, RELAXER Fig. 4, and every RMW: atomic on `m`
/// (the caller has checked that `B[p]` is empty).
fn cas_tso(s: &Segs, loc: LocId, op: &MemOp) -> Step<Segs> {
    let old = s.seg(0)[loc.index()];
    let wrote = rmw_write(op, old);
    let next = match wrote {
        Some(v) => s.edit(&mut [(0, &mut |m: &[Value], out: &mut Vec<Value>| {
            out.extend_from_slice(m);
            out[loc.index()] = v;
        })]),
        None => s.clone(),
    };
    step(Some(old), next, update_event(loc, old, wrote))
}
