//! Partial store load order: RELAXER Fig. 6 (book: model-pslo.md, Rules (RELAXER Fig. 6)).
//!
//! PSO (Fig. 5, [`super::pso`]) plus a per-thread, per-location **store
//! history** `S[p][a]`: the values `p` may still read from `a`, oldest
//! first. Intuitively a load that reads an older value of the history has
//! been reordered back to just after that value was committed.
//! - `storePSLO`: as PSO.
//! - `storecPSLO(p,a)`: the oldest `v` of `B[p][a]` reaches memory;
//!   `S[p][a] = [v]` (no later load of `p` may read an earlier value); `v`
//!   is appended to every other thread's `S[q][a]`.
//! - `loadPSLO(p,a)`: the newest value of `B[p][a]` if any; otherwise one
//!   successor per position `i` of `S[p][a]`, oldest first, returning that
//!   value and dropping the entries before it.
//! - `CASPSLO` and every RMW on `a`: enabled only when `B[p][a]` is empty;
//!   atomic on `m[a]`; then `S[p][a] = [m[a]]` and `m[a]` is appended to
//!   every other history of `a`.
//! - `membarssPSLO`: every `B[p][*]` empty. `membarllPSLO`: `S[p][a] =
//!   [m[a]]` for every `a`. `membarslPSLO` and `full`: both. `ls`: nothing.
//! - fork: a full barrier for the parent; the child's histories start as
//!   `[m[a]]`. join: a full barrier. thread end: buffers empty.
//!
//! Conservative like PSO (the `ss` barrier drains every buffer), and the
//! histories are RELAXER's approximation of load reordering: every
//! behaviour is allowed by `ax.pslo`.
//!
//! Invariant: the newest value of every live history `S[q][a]` is `m[a]`
//! (commits and RMWs append `m[a]`, loads drop only older entries, resets
//! set `[m[a]]`). So the last position of a history is "read memory".
//!
//! Deviations from Fig. 6, all of them state canonicalisations that keep
//! the same executions:
//! 1. Two adjacent equal values of a history are merged (book: model-pslo.md, Rules (RELAXER Fig. 6)):
//!    reading either gives the same value and leaves equivalent histories,
//!    and merging keeps spin loops finite.
//! 2. A history is empty while its thread is not running: forked threads
//!    before their fork, and every thread after its end (treating thread
//!    end as a full barrier would set `[m[a]]`; a finished thread never
//!    loads again, so its histories cannot matter). Commits append
//!    only to non-empty histories. Without this, the histories of finished
//!    threads would keep growing and split equivalent states.
//! 3. Likewise a history `S[p][a]` is emptied as soon as `p` can no longer
//!    load `a` (no `load` of `a` is reachable from `p`'s next instruction:
//!    [`MemoryModel::forget`], computed by `operational::liveness`). Only
//!    loads read histories; RMWs read memory. A thread that stores to `x`
//!    and loads only `y` thus keeps no history of `x`, which cut the states
//!    of the larger random programs of the differential test by up to 20x.
//!
//! State layout ([`Segs`]), `T` threads, `L` locations: segment 0 is `m`;
//! segment `1 + p * L + a` is `B[p][a]` (as in PSO); segment
//! `1 + T * L + p * L + a` is `S[p][a]`, oldest first.
//!
//! # Dependence ([`crate::dependence`])
//!
//! The cell `M(a)` is `m[a]` together with every thread's history
//! `S[q][a]`, since publishing a value of `a` appends it to all of them.
//! Rule by rule:
//! - `storePSLO` touches no cell (as under PSO).
//! - `loadPSLO(p,a)` reads `S[p][a]` and drops its older entries, so it
//!   reads `M(a)` (with `B[p][a]` non-empty it reads the buffer, but `p`'s
//!   own commits may drain it first). `S[p][a]` changes otherwise only by
//!   `p`'s own steps and
//!   by the publications of `a` (commits and RMWs of `a` by any thread),
//!   which write `M(a)`; no other thread reads it.
//! - `storecPSLO(p,a)` (agent: the buffer `B[p][a]`) and `CASPSLO` and
//!   the RMWs of `a` write `M(a)`.
//! - the history resets (`ll`, `sl`, `full` barriers, fork and join, which
//!   are full barriers; fork also starts the child's histories) read `m`
//!   at every location: they read every cell. They write `p`'s own (or the
//!   child's) histories, which only publications touch, and those write.
//! - `ss`, `ls` and thread end touch no cell: a drain only waits for `p`'s
//!   own buffers, and the end empties `p`'s histories, to which later
//!   publications append nothing (deviation 2), so that end and a
//!   publication reach the same state in either order. The forgetting of
//!   dead histories (deviation 3), part of `p`'s steps, commutes with
//!   publications for the same reason.
//! - later: a store will publish its value through its commit (writes
//!   `M(a)`).
//!
//! A thread's steps and its own buffers' commits commute as under PSO, and
//! also through the histories: a commit of `B[p][a]` sets `S[p][a] = [v]`,
//! which a reset of `p`'s histories before it would have set to `[m[a]]`
//! and the commit then to `[v]`, and after it sets to `[m[a]] = [v]`.

use crate::dependence::{Footprint, InternalAgent};
use crate::ir::{LocId, Program, ThreadId, ThreadKind, Value};
use crate::model::{Event, EventKind, MemOp, MemoryModel, Site, Step};
use crate::registry::OpModel;

use super::common::{pso_barrier, rmw_write, step, update_event, Barrier, FULL};
use super::flat::Segs;
use super::pso::{buf, buffer_agents, buffered_store_footprint, buffers_empty, store_pso};

/// The PSLO model.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pslo;

impl MemoryModel for Pslo {
    type State = Segs;
    type Consing = ();

    fn model(&self) -> OpModel {
        OpModel::Pslo
    }

    /// A load or a barrier returns its state's own handle ([`Segs`]).
    fn same_state(a: &Segs, b: &Segs) -> bool {
        a.ptr_eq(b)
    }

    fn initial(&self, program: &Program) -> Segs {
        let mem: Vec<Value> = program.locations.iter().map(|l| l.init).collect();
        let nloc = mem.len();
        let mut segs: Vec<&[Value]> = vec![&mem[..]];
        segs.extend(std::iter::repeat_n(&[][..], program.threads.len() * nloc));
        let init: Vec<[Value; 1]> = mem.iter().map(|v| [*v]).collect();
        for t in &program.threads {
            for v in &init {
                // Top-level threads start with `S[p][a] = [init(a)]`;
                // forked threads get theirs at the fork (deviation 2).
                segs.push(match t.kind {
                    ThreadKind::TopLevel => &v[..],
                    ThreadKind::Forked { .. } => &[],
                });
            }
        }
        Segs::from_segments(segs.into_iter())
    }

    fn perform(&self, s: &Segs, site: Site, op: MemOp, out: &mut Vec<Step<Segs>>) {
        let p = site.thread;
        match op {
            MemOp::Load { loc, .. } => load_pslo(s, p, loc, out),
            MemOp::Store { loc, val, .. } => out.push(store_pso(s, p, loc, val)),
            MemOp::Rmw { loc, .. } | MemOp::Cas { loc, .. } => {
                if s.seg(buf(s, p, loc)).is_empty() {
                    out.push(cas_pslo(s, p, loc, &op));
                }
            }
            MemOp::Fence { kind } => {
                if let Some(next) = membar_pslo(s, p, pso_barrier(kind)) {
                    out.push(step(None, next, EventKind::Sync));
                }
            }
            MemOp::Fork { child } => {
                if let Some(next) = membar_pslo(s, p, FULL) {
                    out.push(step(None, reset_histories(&next, child), EventKind::Sync));
                }
            }
            MemOp::Join { .. } => {
                if let Some(next) = membar_pslo(s, p, FULL) {
                    out.push(step(None, next, EventKind::Sync));
                }
            }
            MemOp::End => {
                if buffers_empty(s, p) {
                    out.push(step(None, clear_histories(s, p), EventKind::Sync));
                }
            }
        }
    }

    fn internal(&self, s: &Segs, out: &mut Vec<(Segs, Event)>) {
        let nloc = s.seg(0).len();
        for i in 1..first_history(s) {
            if !s.seg(i).is_empty() {
                let (p, a) = ((i - 1) / nloc, (i - 1) % nloc);
                out.push(storec_pslo(s, ThreadId::new(p), LocId::new(a)));
            }
        }
    }

    fn settled(&self, s: &Segs) -> bool {
        (1..first_history(s)).all(|i| s.seg(i).is_empty())
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
        match *op {
            MemOp::Fence { kind } if pso_barrier(kind).reset => Footprint::READ_ALL,
            MemOp::Fork { .. } | MemOp::Join { .. } => Footprint::READ_ALL,
            _ => Footprint::of_access(op),
        }
    }

    fn internal_agents(&self, s: &Segs, out: &mut Vec<InternalAgent>) {
        buffer_agents(s, 1..first_history(s), out);
    }

    const FORGETS: bool = true;

    /// Empties the histories of the locations `p` will never load again
    /// (deviation 3).
    fn forget(&self, s: &Segs, p: ThreadId, may_load: &[bool]) -> Option<Segs> {
        let lo = hist(s, p, LocId(0));
        let dead = |i: usize| !may_load[i - lo] && !s.seg(i).is_empty();
        if !(lo..lo + may_load.len()).any(dead) {
            return None;
        }
        Some(s.rebuild(|i, old, out| {
            if !(lo..lo + may_load.len()).contains(&i) || may_load[i - lo] {
                out.extend_from_slice(old);
            }
        }))
    }
}

/// The first history segment: `1 + T * L`.
fn first_history(s: &Segs) -> usize {
    1 + (s.len() - 1) / 2
}

/// The segment of `S[p][a]`.
pub(super) fn hist(s: &Segs, p: ThreadId, a: LocId) -> usize {
    first_history(s) + p.index() * s.seg(0).len() + a.index()
}

/// Which thread and location a history segment belongs to.
fn hist_owner(s: &Segs, seg: usize) -> (usize, usize) {
    let nloc = s.seg(0).len();
    let i = seg - first_history(s);
    (i / nloc, i % nloc)
}

/// Appends `v` to a live history, merging it with an equal newest value
/// (deviation 1).
fn append_merged(old: &[Value], v: Value, out: &mut Vec<Value>) {
    out.extend_from_slice(old);
    if !old.is_empty() && old.last() != Some(&v) {
        out.push(v);
    }
}

/// After `p` made `v` the value of `a` in memory: `m[a] = v`, `S[p][a] =
/// [v]` if it is live, `v` appended to every other live `S[q][a]`. `drop_oldest_of`
/// names the buffer a commit takes `v` from.
fn publish(s: &Segs, p: ThreadId, a: LocId, v: Value, drop_oldest_of: Option<usize>) -> Segs {
    let first = first_history(s);
    s.rebuild(|i, old, out| {
        if i == 0 {
            // Segment 0 starts the data, so `out[a]` is `m[a]`.
            out.extend_from_slice(old);
            out[a.index()] = v;
        } else if Some(i) == drop_oldest_of {
            out.extend_from_slice(&old[1..]);
        } else if i >= first {
            let (q, b) = hist_owner(s, i);
            if b != a.index() {
                out.extend_from_slice(old);
            } else if q == p.index() {
                // A dead history stays empty (deviation 3).
                if !old.is_empty() {
                    out.push(v);
                }
            } else {
                append_merged(old, v, out);
            }
        } else {
            out.extend_from_slice(old);
        }
    })
}

/// `storecPSLO(p,a)`, RELAXER Fig. 6.
fn storec_pslo(s: &Segs, p: ThreadId, loc: LocId) -> (Segs, Event) {
    let b = buf(s, p, loc);
    let v = s.seg(b)[0];
    let next = publish(s, p, loc, v, Some(b));
    let kind = EventKind::Commit {
        thread: p,
        loc,
        value: v,
    };
    (next, Event::new(kind))
}

/// `loadPSLO(p,a)`, RELAXER Fig. 6: the newest buffered value, or one
/// result per position of the history, oldest first.
fn load_pslo(s: &Segs, p: ThreadId, loc: LocId, out: &mut Vec<Step<Segs>>) {
    if let Some(&value) = s.seg(buf(s, p, loc)).last() {
        out.push(step(
            Some(value),
            s.clone(),
            EventKind::Read {
                loc,
                value,
                older: 0,
            },
        ));
        return;
    }
    let h = hist(s, p, loc);
    let history = s.seg(h);
    if history.is_empty() {
        // Not reachable: a running thread's histories are live. Read memory.
        debug_assert!(
            false,
            "relaxlab internal error: load with an empty PSLO history"
        );
        let value = s.seg(0)[loc.index()];
        out.push(step(
            Some(value),
            s.clone(),
            EventKind::Read {
                loc,
                value,
                older: 0,
            },
        ));
        return;
    }
    for i in 0..history.len() {
        let value = history[i];
        let next = if i == 0 {
            s.clone()
        } else {
            s.edit(&mut [(h, &mut |old: &[Value], o: &mut Vec<Value>| {
                o.extend_from_slice(&old[i..])
            })])
        };
        let older = (history.len() - 1 - i) as u32;
        out.push(step(
            Some(value),
            next,
            EventKind::Read { loc, value, older },
        ));
    }
}

/// `CASPSLO(p,a,oldv,newv)`, RELAXER Fig. 6, and every RMW (the caller has
/// checked that `B[p][a]` is empty). A failed CAS also resets `S[p][a]`;
/// what it appends to the others equals their newest value (the
/// invariant), so merging drops it.
fn cas_pslo(s: &Segs, p: ThreadId, loc: LocId, op: &MemOp) -> Step<Segs> {
    let old = s.seg(0)[loc.index()];
    let wrote = rmw_write(op, old);
    let next = publish(s, p, loc, wrote.unwrap_or(old), None);
    step(Some(old), next, update_event(loc, old, wrote))
}

/// `membarssPSLO`, `membarllPSLO`, `membarslPSLO`, RELAXER Fig. 6: `None`
/// when the barrier must drain and a buffer of `p` is non-empty; otherwise
/// the state after the history reset it asks for.
fn membar_pslo(s: &Segs, p: ThreadId, barrier: Barrier) -> Option<Segs> {
    if barrier.drain && !buffers_empty(s, p) {
        return None;
    }
    Some(if barrier.reset {
        reset_histories(s, p)
    } else {
        s.clone()
    })
}

/// `S[p][a] = [m[a]]` for every `a` (`membarllPSLO`; also a forked
/// child's start).
fn reset_histories(s: &Segs, p: ThreadId) -> Segs {
    let nloc = s.seg(0).len();
    let lo = hist(s, p, LocId(0));
    let m: Vec<Value> = s.seg(0).to_vec();
    s.rebuild(|i, old, out| {
        if (lo..lo + nloc).contains(&i) {
            out.push(m[i - lo]);
        } else {
            out.extend_from_slice(old);
        }
    })
}

/// Thread end: every `S[p][a]` emptied (deviation 2).
fn clear_histories(s: &Segs, p: ThreadId) -> Segs {
    let nloc = s.seg(0).len();
    let lo = hist(s, p, LocId(0));
    s.rebuild(|i, old, out| {
        if !(lo..lo + nloc).contains(&i) {
            out.extend_from_slice(old);
        }
    })
}
