//! The transition rules of the restricted C11 model, one function per rule
//! of TSAN11 Figs. 6, 11, 12 and 13, as corrected in the book (book: model-c11r.md, Three corrections to the figures)
//! (see the deviations listed in the `c11r` module docs).
//!
//! The functions mutate a state the caller has already cloned. Each
//! operation applies, in this order: the SC helper of Fig. 13, the
//! vector-clock rule of Fig. 6, the buffer rule of Fig. 11, then the
//! release increment ("a thread increments its own entry after every
//! release operation").

use super::state::{AtomicLoc, C11State, LoadElem, Loc, ScWrite, StoreElem, ThreadClocks};
use crate::ir::{C11Fence, LocId, ReadOrd, ThreadId, Value, WriteOrd};
pub(crate) use crate::models::clocks::threads::Strength;
use crate::models::clocks::threads::{
    fence_acquire_release, finish, release_increment, sc_atomic_fence, sc_atomic_load,
    sc_atomic_store, ThreadClockState,
};
pub(crate) use crate::models::clocks::threads::{fork, join};
use crate::models::clocks::vclock::VClock;
use smallvec::SmallVec;

/// Which memory the clocks run over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Memory {
    /// `c11r`: loads choose among the reads-from set of Fig. 12.
    Weak,
    /// `ScRaces`: every load reads the newest store (SC memory); only the
    /// happens-before clocks are kept.
    Sc,
}

fn atomic_mut(s: &mut C11State, loc: LocId) -> &mut AtomicLoc {
    match s.locs.get_mut(loc.index()) {
        Some(Loc::Atomic(a)) => a,
        _ => unreachable!("relaxlab internal error: atomic rule on a non-atomic location"),
    }
}

pub(crate) fn atomic(s: &C11State, loc: LocId) -> &AtomicLoc {
    match s.locs.get(loc.index()) {
        Some(Loc::Atomic(a)) => a,
        _ => unreachable!("relaxlab internal error: atomic rule on a non-atomic location"),
    }
}

/// ReadsFromSet, TSAN11 Fig. 12, corrected: the indices (into `SE_a`,
/// newest first) of the elements a load by a thread with clocks `th` may
/// read. `sc_load` says whether the load is SC.
///
/// Walks from the newest element backwards, adding each element, and stops
/// after an element that happens before the load (CoWR), that a load
/// happening before this one read (CoRR), that is covered by the thread's
/// SC clocks (TSAN11 Sec. 4.5 cases (5)-(7)). For an SC load, case (8) /
/// C11 §29.3p3 excludes older SC writes than the newest one `A` and the
/// non-SC writes that happen before `A` (deviation 1 of the module docs).
pub(crate) fn reads_from_set(
    loc: &AtomicLoc,
    th: &ThreadClocks,
    sc_load: bool,
) -> SmallVec<[usize; 4]> {
    let n = loc.stores.len();
    let last_sc = if sc_load {
        (0..n)
            .rev()
            .find(|&i| loc.stores[i].sc == ScWrite::Yes)
            .map(|i| (i, loc.stores[i].sc_view.clone().unwrap_or_default()))
    } else {
        None
    };
    let mut set = SmallVec::new();
    for i in (0..n).rev() {
        let e = &loc.stores[i];
        let hidden_by_sc = match &last_sc {
            // (8) SC reads: an older SC write than A, or a write that
            // happens before A, may not be read.
            Some((a, view)) if i < *a => e.sc == ScWrite::Yes || e.happens_before(view),
            _ => false,
        };
        if !hidden_by_sc {
            set.push(i);
        }
        if rf_stops_at(e, th, sc_load) {
            break;
        }
    }
    debug_assert!(
        set.first() == Some(&(n - 1)),
        "relaxlab internal error: the newest store is not in the reads-from set"
    );
    set
}

/// The stop conditions of Fig. 12: nothing older than `e` may be read.
fn rf_stops_at(e: &StoreElem, th: &ThreadClocks, sc_load: bool) -> bool {
    // CoWR: e happens before the load.
    e.happens_before(&th.c)
        // CoRR: a load that read e happens before this load.
        || e.loads.iter().any(|ld| th.c.covers(ld.thread, ld.epoch))
        // (7) W sb F_sc sc F_sc sb R.
        || e.happens_before(&th.sf)
        // (6) W_sc sc F_sc sb R.
        || (e.sc == ScWrite::Yes && e.happens_before(&th.sw))
        // (5) W sb F_sc sc R_sc.
        || (sc_load && e.happens_before(&th.sr))
}

/// ACQUIRE LOAD / RELAXED LOAD, TSAN11 Fig. 6, with the element's own
/// release clock `S.clock` instead of `L_a` (book: model-c11r.md, Rules): an
/// acquire load joins it into `C_t`, a relaxed one into `F^acq_t`.
///
/// A join that changes nothing leaves the thread's clocks shared with the
/// parent state (a relaxed load of a store with an empty release clock).
pub(crate) fn load_clock_rule(s: &mut C11State, t: ThreadId, clock: &VClock, acquire: bool) {
    crate::models::clocks::threads::join_clock(s, t, clock, acquire);
}

/// ATOMIC LOAD IMPL, TSAN11 Fig. 11: record the load `(t, C_t(t))` on the
/// element it read, for later CoRR checks.
///
/// Normalisation (sound, module docs): the record is skipped when the
/// element happens before the loader after the load (a read of one's own or
/// an acquired store): every thread that will see this load then also sees
/// the element itself, whose CoWR check stops the walk at the same place.
/// Per thread only the smallest epoch is kept: the CoRR test is "some
/// recorded load happens before", and the smallest epoch is the easiest
/// one to happen before.
///
/// The location and the element are copied (unshared) only when a record
/// is added, so a load that records nothing leaves them shared with the
/// parent state.
pub(crate) fn record_load(s: &mut C11State, t: ThreadId, loc: LocId, index: usize) {
    let th = s.thread(t);
    let Some(e) = atomic(s, loc).stores.get(index) else {
        debug_assert!(
            false,
            "relaxlab internal error: load from a missing store element"
        );
        return;
    };
    if e.happens_before(&th.c) {
        return;
    }
    // Otherwise an earlier load of t, with a smaller or equal epoch, is
    // already recorded.
    if let Err(i) = e.loads.binary_search_by_key(&t, |ld| ld.thread) {
        let epoch = th.epoch(t);
        if let Some(e) = atomic_mut(s, loc).stores.get_mut(index) {
            e.loads.insert(i, LoadElem { thread: t, epoch });
        }
    }
}

/// RELEASE STORE / RELAXED STORE, TSAN11 Fig. 6. Release: `L_a := C_t`,
/// `V_a := {t ↦ C_t}`. Relaxed: `L_a := V_a(t) ∪ F^rel_t`, `V_a := {t ↦
/// V_a(t)}`, which is how another thread's store blocks a release
/// sequence.
pub(crate) fn store_clock_rule(s: &mut C11State, t: ThreadId, loc: LocId, release: bool) {
    let th = s.thread(t);
    let (c, frel) = (th.c.clone(), th.frel.clone());
    let a = atomic_mut(s, loc);
    if release {
        a.release = c.clone();
        a.per_thread.clear();
        a.set_v(t, c);
    } else {
        let mut l = a.v(t);
        let v = l.clone();
        l.join(&frel);
        a.release = l;
        a.per_thread.clear();
        a.set_v(t, v);
    }
}

/// RELEASE RMW / RELAXED RMW, TSAN11 Fig. 6. Release: `L_a ∪= C_t`,
/// `V_a(t) := C_t`. Relaxed: `L_a ∪= F^rel_t`. An RMW continues every
/// release sequence it extends.
pub(crate) fn rmw_clock_rule(s: &mut C11State, t: ThreadId, loc: LocId, release: bool) {
    let th = s.thread(t);
    let (c, frel) = (th.c.clone(), th.frel.clone());
    let a = atomic_mut(s, loc);
    if release {
        a.release.join(&c);
        a.set_v(t, c);
    } else {
        a.release.join(&frel);
    }
}

/// ATOMIC STORE IMPL, TSAN11 Fig. 11: append the store element `(t,
/// C_t(t), v, sc, L_a, ∅)` to `SE_a`. An SC write also records the
/// writer's clock (which elements happen before it) for C11 §29.3p3, and
/// the previous SC write's record is dropped (only the newest is used).
pub(crate) fn append_store(s: &mut C11State, t: ThreadId, loc: LocId, value: Value, sc: bool) {
    let th = s.thread(t);
    let (epoch, c) = (th.epoch(t), th.c.clone());
    let a = atomic_mut(s, loc);
    let sc_view = if sc {
        let previous = (0..a.stores.len())
            .rev()
            .find(|&i| a.stores[i].sc == ScWrite::Yes);
        if let Some(e) = previous.and_then(|i| a.stores.get_mut(i)) {
            e.sc_view = None;
        }
        Some(c)
    } else {
        None
    };
    let clock = a.release.clone();
    a.stores.push_back(StoreElem {
        writer: t,
        epoch,
        value,
        sc: if sc { ScWrite::Yes } else { ScWrite::No },
        sc_view,
        clock,
        loads: smallvec::SmallVec::new(),
    });
}

/// ATOMIC STORE, TSAN11 Fig. 11: SC helper, clock rule, append, release
/// increment.
pub(crate) fn atomic_store(s: &mut C11State, t: ThreadId, loc: LocId, value: Value, ord: WriteOrd) {
    let k = Strength::of_write(ord);
    if k.sc {
        sc_atomic_store(s, t);
    }
    store_clock_rule(s, t, loc, k.release);
    append_store(s, t, loc, value, k.sc);
    if k.release {
        release_increment(s, t);
    }
}

/// The results of a load: value read, how many elements are newer than
/// the one read, successor state. Inline for two: most loads have one or
/// two choices, and a load allocates no list for them.
pub(crate) type Loaded = SmallVec<[(Value, u32, C11State); 2]>;

/// ATOMIC LOAD, TSAN11 Fig. 11: the successor states of a load, one per
/// element of the reads-from set (oldest first), each with the value read
/// and how many elements are newer than the one read.
pub(crate) fn atomic_load(
    s: &C11State,
    memory: Memory,
    t: ThreadId,
    loc: LocId,
    ord: ReadOrd,
) -> Loaded {
    let k = Strength::of_read(ord);
    let mut base = s.clone();
    if k.sc && memory == Memory::Weak {
        sc_atomic_load(&mut base, t);
    }
    let choices = match memory {
        Memory::Weak => reads_from_set(atomic(&base, loc), base.thread(t), k.sc),
        Memory::Sc => smallvec::smallvec![atomic(&base, loc).stores.len() - 1],
    };
    // Oldest first: the sampler's `Old` strategy (tsan11 Sec. 7.1) takes
    // result 0 as the oldest store.
    let newest = atomic(&base, loc).stores.len() - 1;
    let load = |mut next: C11State, i: usize| {
        let value = load_from(&mut next, memory, t, loc, i, k.acquire);
        (value, (newest - i) as u32, next)
    };
    let mut out = Loaded::new();
    let Some((&oldest, newer)) = choices.split_first() else {
        return out;
    };
    for &i in newer.iter().rev() {
        out.push(load(base.clone(), i));
    }
    // The last successor takes `base` itself.
    out.push(load(base, oldest));
    out
}

/// The load part shared by loads, RMWs and CAS: the acquire rule, then the
/// load record. Returns the value read.
fn load_from(
    s: &mut C11State,
    memory: Memory,
    t: ThreadId,
    loc: LocId,
    index: usize,
    acquire: bool,
) -> Value {
    let e = &atomic(s, loc).stores[index];
    let (value, clock) = (e.value, e.clock.clone());
    load_clock_rule(s, t, &clock, acquire);
    if memory == Memory::Weak {
        record_load(s, t, loc, index);
    }
    value
}

/// ATOMIC RMW, TSAN11 Fig. 11: read the **last** element of `SE_a`
/// (atomicity) as a load of the RMW's read order, then write `f(old)` as a
/// store of its write order with the RMW clock rule. Returns the value
/// read. The SC helpers of both halves apply to an SC RMW.
pub(crate) fn atomic_rmw(
    s: &mut C11State,
    memory: Memory,
    t: ThreadId,
    loc: LocId,
    read: Strength,
    write: Strength,
    f: impl FnOnce(Value) -> Value,
) -> Value {
    if read.sc && memory == Memory::Weak {
        sc_atomic_load(s, t);
    }
    let last = atomic(s, loc).stores.len() - 1;
    // The RMW's own load record is never needed: its store element, of the
    // same epoch and newer, stops any walk that the record would stop.
    let e = &atomic(s, loc).stores[last];
    let (old, clock) = (e.value, e.clock.clone());
    load_clock_rule(s, t, &clock, read.acquire);
    if write.sc {
        sc_atomic_store(s, t);
    }
    rmw_clock_rule(s, t, loc, write.release);
    append_store(s, t, loc, f(old), write.sc);
    if write.release {
        release_increment(s, t);
    }
    old
}

/// A failed CAS (ATOMIC RMW; book: model-c11r.md, Rules): a load with the failure
/// order from any element of the reads-from set whose value differs from
/// `expected` (the newest one included when it differs), oldest first; a
/// weak CAS may also fail reading `expected` (C11 §29.6.5p25).
pub(crate) fn cas_failures(
    s: &C11State,
    memory: Memory,
    t: ThreadId,
    loc: LocId,
    expected: Value,
    fail: ReadOrd,
    weak: bool,
) -> Loaded {
    atomic_load(s, memory, t, loc, fail)
        .into_iter()
        .filter(|(v, _, _)| weak || *v != expected)
        .collect()
}

/// ATOMIC FENCE, TSAN11 Figs. 6 and 13, in the order of c11r's Fence rule (book: model-c11r.md, Rules): the SC part, the acquire part (`C_t ∪= F^acq_t`), the release part
/// (`F^rel_t := C_t`), then the increment, so an acq_rel fence releases what
/// it has just acquired.
pub(crate) fn atomic_fence(s: &mut C11State, memory: Memory, t: ThreadId, kind: C11Fence) {
    if Strength::of_fence(kind).sc && memory == Memory::Weak {
        sc_atomic_fence(s, t);
    }
    fence_acquire_release(s, t, kind);
}

/// Thread end: the thread finishes ([`finish`]). Its release-sequence
/// clocks `V_a(t)` can never be read again (only a running thread's own
/// operations read them), so they are dropped for deduplication too.
pub(crate) fn end(s: &mut C11State, t: ThreadId) {
    finish(s, t);
    for i in 0..s.locs.len() {
        let has = matches!(&s.locs[i], Loc::Atomic(a) if a.per_thread.iter().any(|(u, _)| *u == t));
        if has {
            if let Some(Loc::Atomic(a)) = s.locs.get_mut(i) {
                a.per_thread.retain(|(u, _)| *u != t);
            }
        }
    }
}
