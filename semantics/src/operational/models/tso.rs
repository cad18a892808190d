//! Total store order: RELAXER Fig. 4 (MODELS.md 2.2; MCR Sec. 3.1).
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
//! - fork, join and thread end: full barriers (MODELS.md 1), so enabled
//!   only when `B[p]` is empty.
//!
//! Exact for x86-TSO / SPARC TSO on the fragment: it agrees with `ax.tso`.
//!
//! State layout ([`Segs`]): segment 0 is `m`, segment `1 + p` is `B[p]` as
//! flattened `(loc, value)` pairs, oldest first.

use crate::ir::{LocId, Program, ThreadId, Value};
use crate::mapping::Target;
use crate::model::{Event, EventKind, MemOp, MemoryModel, Site, Step};

use super::super::flat::Segs;
use super::common::{rmw_write, step, tso_barrier, update_event};

/// The TSO model.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tso;

impl MemoryModel for Tso {
    type State = Segs;

    fn name(&self) -> &'static str {
        "tso"
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
            // Full barriers (MODELS.md 1): the buffer must be empty.
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

    fn target(&self) -> Option<Target> {
        Some(Target::Tso)
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
    step(None, next, EventKind::Write { loc, value })
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
