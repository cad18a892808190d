//! The transition rules of `c11t`, one function per rule: the prior sets
//! of C11TESTER Sec. 4.3 (ReadPriorSet, WritePriorSet) extended with the
//! SC rules of C11 (book: axiomatic.md, C11 models), the clock rules of Sec. 6 (C++20 release
//! sequences), and the fence, fork, join and end rules of `c11r`.
//!
//! The functions that mutate take a state the caller has cloned. Each
//! operation applies, in this order: the SC clock helper of TSAN11 Fig. 13,
//! the prior-set check, the mo-graph update, the clock rule, the release
//! increment.

use super::graph::NodeId;
use super::state::{AtomicLoc, C11tState, Loc, ScWrite, Store};
use crate::ir::{C11Fence, LocId, ReadOrd, ThreadId, Value, WriteOrd};
use crate::models::clocks::store::LoadElem;
use crate::models::clocks::threads::{
    fence_acquire_release, release_increment, sc_atomic_fence, sc_atomic_load, sc_atomic_store,
    ThreadClockState,
};
pub(crate) use crate::models::clocks::threads::{finish, fork, join};
use crate::models::clocks::threads::{Strength, ThreadClocks};
use crate::models::clocks::vclock::VClock;

pub(crate) fn atomic(s: &C11tState, loc: LocId) -> &AtomicLoc {
    match s.locs.get(loc.index()) {
        Some(Loc::Atomic(a)) => a,
        _ => unreachable!("relaxlab internal error: atomic rule on a non-atomic location"),
    }
}

fn atomic_mut(s: &mut C11tState, loc: LocId) -> &mut AtomicLoc {
    match s.locs.get_mut(loc.index()) {
        Some(Loc::Atomic(a)) => a,
        _ => unreachable!("relaxlab internal error: atomic rule on a non-atomic location"),
    }
}

/// Is some load recorded on `n` happening before an event with clock `c`?
fn read_before(n: &Store, c: &VClock) -> bool {
    n.loads.iter().any(|ld| c.covers(ld.thread, ld.epoch))
}

/// The constraints shared by both prior sets: store `n` must be
/// `mo`-before an access by a thread with clocks `th` when `n` happens
/// before it (CoWR, CoWW), a load that read `n` happens before it (CoRR,
/// CoRW), `n sb X, X sc Y, Y sb` the access with `X`, `Y` SC fences
/// (§29.3p6, p7; TSAN11 (7)), or `n` is SC and `n sc Y, Y sb` the access
/// (§29.3p5, p7; TSAN11 (6)).
fn ordered_before(n: &Store, th: &ThreadClocks) -> bool {
    n.happens_before(&th.c)
        || read_before(n, &th.c)
        || n.happens_before(&th.sf)
        || (n.sc == ScWrite::Yes && n.happens_before(&th.sw))
}

/// ReadPriorSet (C11TESTER Sec. 4.3), as the constraints of C11 (book: axiomatic.md, C11 models):
/// the stores that must be `mo`-before-or-equal the store a load by a
/// thread with clocks `th` reads. `sc_load`: the load is SC (its `S_R,t`
/// already joined).
pub(crate) fn read_prior_set(loc: &AtomicLoc, th: &ThreadClocks, sc_load: bool) -> Vec<NodeId> {
    (0..loc.stores.len() as NodeId)
        .filter(|&i| {
            let n = loc.store(i);
            ordered_before(n, th)
                // §29.3p4 (TSAN11 (5)): n sb X, X sc r, r SC.
                || (sc_load && n.happens_before(&th.sr))
        })
        .collect()
}

/// WritePriorSet (C11TESTER Sec. 4.3), as the constraints of C11 (book: axiomatic.md, C11 models): the stores that must be `mo`-before a store by a thread with
/// clocks `th`, given the global `S_F`. `sc_store`: the store is SC.
pub(crate) fn write_prior_set(
    loc: &AtomicLoc,
    th: &ThreadClocks,
    global_sf: &VClock,
    sc_store: bool,
) -> Vec<NodeId> {
    (0..loc.stores.len() as NodeId)
        .filter(|&i| {
            let n = loc.store(i);
            ordered_before(n, th)
                // §29.3p7: n sb X, X sc b, b SC.
                || (sc_store && n.happens_before(global_sf))
                // sc contains co between SC writes; sc = execution order.
                || (sc_store && n.sc == ScWrite::Yes)
        })
        .collect()
}

/// SC reads, C11 §29.3p3 with `sc` = execution order (book: axiomatic.md, C11 models): with
/// A the newest SC store of the location, an SC load may read an SC store
/// only if it is A, and a non-SC store only if it does not happen before A.
pub(crate) fn sc_read_allows(loc: &AtomicLoc, w: NodeId) -> bool {
    let Some(a) = loc.last_sc() else {
        return true;
    };
    let n = loc.store(w);
    match n.sc {
        ScWrite::Yes => w == a,
        ScWrite::No => {
            let view = loc.store(a).sc_view.clone().unwrap_or_default();
            !n.happens_before(&view)
        }
    }
}

/// ACQUIRE LOAD / RELAXED LOAD, C11TESTER Sec. 6: an acquire load joins
/// the store's release clock `RF_s` into `C_t`, a relaxed one into
/// `F^acq_t`.
/// A join that changes nothing leaves the thread's clocks shared.
fn load_clock_rule(s: &mut C11tState, t: ThreadId, clock: &VClock, acquire: bool) {
    crate::models::clocks::threads::join_clock(s, t, clock, acquire);
}

/// Records the load `(t, C_t(t))` on the store it read, for later CoRR and
/// CoRW constraints. Skipped when the store happens before the loader
/// after the load (CoWR/CoWW on the store itself then give the same
/// constraints); per thread only the smallest epoch is kept (the test is
/// "some recorded load happens before").
fn record_load(s: &mut C11tState, t: ThreadId, loc: LocId, w: NodeId) {
    let th = s.thread(t);
    let (epoch, c) = (th.epoch(t), th.c.clone());
    let n = &mut atomic_mut(s, loc).stores[w as usize];
    if n.happens_before(&c) {
        return;
    }
    if let Err(i) = n.loads.binary_search_by_key(&t, |ld| ld.thread) {
        n.loads.insert(i, LoadElem { thread: t, epoch });
    }
}

/// The candidates a read by `t` may take: every store `w` that passes the
/// prior-set check and, for an SC read, §29.3p3; oldest first. Returns the
/// state with the SC load helper applied and the prior set.
fn read_candidates(
    s: &C11tState,
    t: ThreadId,
    loc: LocId,
    read: Strength,
) -> (C11tState, Vec<NodeId>, Vec<NodeId>) {
    let mut base = s.clone();
    if read.sc {
        sc_atomic_load(&mut base, t);
    }
    let a = atomic(&base, loc);
    let prior = read_prior_set(a, base.thread(t), read.sc);
    let candidates = (0..a.stores.len() as NodeId)
        .filter(|&w| a.graph.admits(&prior, w) && (!read.sc || sc_read_allows(a, w)))
        .collect();
    (base, prior, candidates)
}

/// How many stores of the location were performed after `w`.
fn older(a: &AtomicLoc, w: NodeId) -> u32 {
    (a.stores.len() as u32).saturating_sub(w + 1)
}

/// ATOMIC LOAD (C11TESTER Sec. 3-4, Sec. 6): one successor per store the
/// load may read (oldest first), each with the value and how many stores
/// are newer in performance order. Reading `w` adds the edges `p → w` of
/// the prior set.
pub(crate) fn atomic_load(
    s: &C11tState,
    t: ThreadId,
    loc: LocId,
    ord: ReadOrd,
) -> Vec<(Value, u32, C11tState)> {
    let k = Strength::of_read(ord);
    let (base, prior, candidates) = read_candidates(s, t, loc, k);
    candidates
        .into_iter()
        .map(|w| {
            let mut next = base.clone();
            let a = atomic_mut(&mut next, loc);
            let (value, clock, old) = (a.store(w).value, a.store(w).clock.clone(), older(a, w));
            a.graph.add_edges_to(&prior, w);
            load_clock_rule(&mut next, t, &clock, k.acquire);
            record_load(&mut next, t, loc, w);
            (value, old, next)
        })
        .collect()
}

/// Appends the data of a new node (it must be the graph's newest). An SC
/// store takes over the `sc_view` of §29.3p3 from the previous newest SC
/// store.
fn push_store(a: &mut AtomicLoc, store: Store) {
    if store.sc == ScWrite::Yes {
        if let Some(prev) = a.last_sc() {
            a.stores[prev as usize].sc_view = None;
        }
    }
    a.stores.push(store);
    debug_assert!(
        a.stores.len() == a.graph.len(),
        "relaxlab internal error: mo-graph and store data out of step"
    );
}

/// A new store's data for thread `t` with release clock `clock`.
fn new_store(s: &C11tState, t: ThreadId, value: Value, sc: bool, clock: VClock) -> Store {
    let th = s.thread(t);
    Store {
        writer: t,
        epoch: th.epoch(t),
        value,
        sc: if sc { ScWrite::Yes } else { ScWrite::No },
        sc_view: sc.then(|| th.c.clone()),
        clock,
        loads: smallvec::SmallVec::new(),
    }
}

/// ATOMIC STORE (C11TESTER Sec. 4.3 "Atomic Store"; Sec. 6 RELEASE STORE /
/// RELAXED STORE): a new node after every store of the write prior set;
/// its release clock is `C_t` (release) or `F^rel_t` (relaxed: C++20 release
/// sequences do not continue through the releasing thread's later relaxed
/// stores).
pub(crate) fn atomic_store(
    s: &mut C11tState,
    t: ThreadId,
    loc: LocId,
    value: Value,
    ord: WriteOrd,
) {
    let k = Strength::of_write(ord);
    if k.sc {
        sc_atomic_store(s, t);
    }
    let th = s.thread(t);
    let clock = if k.release {
        th.c.clone()
    } else {
        th.frel.clone()
    };
    let prior = write_prior_set(atomic(s, loc), th, &s.sf, k.sc);
    let store = new_store(s, t, value, k.sc, clock);
    let a = atomic_mut(s, loc);
    a.graph.add_store(t, &prior);
    push_store(a, store);
    if k.release {
        release_increment(s, t);
    }
}

/// ATOMIC RMW (C11TESTER Sec. 4.3 "Atomic RMWs"; Sec. 6 RELEASE RMW /
/// RELAXED RMW): one successor per store `w` the RMW may read: `w` has no
/// RMW successor yet (atomicity), passes the read prior-set check (and
/// §29.3p3 for an SC read), and, after the read's acquire, the write
/// prior set may precede the RMW, i.e. be `mo`-before-or-equal `w`. The
/// RMW's node immediately follows `w` (AddRMWEdge); its release clock is
/// `C_t` (release) or `F^rel_t` (relaxed), joined with `RF_w`. `accept`
/// filters by the value read (a CAS); `f` computes the value written.
/// Oldest `w` first; each result is (value read, stores newer than `w`,
/// state).
pub(crate) fn atomic_rmw(
    s: &C11tState,
    t: ThreadId,
    loc: LocId,
    read: Strength,
    write: Strength,
    accept: impl Fn(Value) -> bool,
    f: impl Fn(Value) -> Value,
) -> Vec<(Value, u32, C11tState)> {
    let (base, read_prior, candidates) = read_candidates(s, t, loc, read);
    let mut out = Vec::new();
    for w in candidates {
        let a = atomic(&base, loc);
        let wn = a.store(w);
        if a.graph.node(w).rmw_next.is_some() || !accept(wn.value) {
            continue;
        }
        let (old, rclock, newer) = (wn.value, wn.clock.clone(), older(a, w));
        let mut next = base.clone();
        load_clock_rule(&mut next, t, &rclock, read.acquire);
        if write.sc {
            sc_atomic_store(&mut next, t);
        }
        let th = next.thread(t);
        let mut prior = write_prior_set(atomic(&next, loc), th, &next.sf, write.sc);
        if !atomic(&next, loc).graph.admits(&prior, w) {
            continue;
        }
        prior.extend(read_prior.iter().copied());
        prior.sort_unstable();
        prior.dedup();
        let mut clock = if write.release {
            th.c.clone()
        } else {
            th.frel.clone()
        };
        clock.join(&rclock);
        let store = new_store(&next, t, f(old), write.sc, clock);
        let a = atomic_mut(&mut next, loc);
        a.graph.add_rmw(t, w, &prior);
        push_store(a, store);
        if write.release {
            release_increment(&mut next, t);
        }
        out.push((old, newer, next));
    }
    out
}

/// ATOMIC FENCE, TSAN11 Figs. 6 and 13, in the order of c11r's Fence rule (book: model-c11r.md, Rules): the SC part, the acquire part (`C_t ∪= F^acq_t`), the
/// release part (`F^rel_t := C_t`), then the increment.
pub(crate) fn atomic_fence(s: &mut C11tState, t: ThreadId, kind: C11Fence) {
    if Strength::of_fence(kind).sc {
        sc_atomic_fence(s, t);
    }
    fence_acquire_release(s, t, kind);
}
