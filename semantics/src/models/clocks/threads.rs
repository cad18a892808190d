//! The thread-level rules both C11 models share (`c11r` and `c11t`):
//! release increments, the SC clocks of TSAN11 Fig. 13, the acquire and
//! release parts of fences (Fig. 6), fork, join and thread end. They touch
//! only the per-thread clocks and `S_F`, `S_W`; each model's state gives
//! access to those through [`ThreadClockState`], and adds what it keeps
//! per location (`c11r`'s store lists, `c11t`'s mo-graphs).

use super::vclock::{Epoch, VClock};
use crate::ir::{C11Fence, Program, ReadOrd, ThreadId, ThreadKind, WriteOrd};
use crate::shared_vec::SharedVec;

/// Where a thread is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Status {
    /// A forked thread whose `fork` has not run yet.
    NotStarted,
    Running,
    Finished,
}

/// The per-thread clocks (TSAN11 Fig. 6 state and Fig. 10 `ThrState`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ThreadClocks {
    pub(crate) status: Status,
    /// `C_t`: what happens before the thread's next event.
    pub(crate) c: VClock,
    /// `F^rel_t`: `C_t` at the thread's last release fence (Fig. 6).
    pub(crate) frel: VClock,
    /// `F^acq_t`: what the thread's relaxed loads read, to be acquired by
    /// its next acquire fence (Fig. 6).
    pub(crate) facq: VClock,
    /// `S_F,t`: SC fences sc-before this thread's last SC fence (Fig. 13).
    pub(crate) sf: VClock,
    /// `S_W,t`: SC writes sc-before this thread's last SC fence (Fig. 13).
    pub(crate) sw: VClock,
    /// `S_R,t`: SC fences sc-before this thread's last SC load (Fig. 13).
    pub(crate) sr: VClock,
}

impl ThreadClocks {
    /// Every thread's clocks after the init writes: top-level threads
    /// running with `C_t = inc_t(⊥)`, forked threads not started (shared
    /// by `c11r` and `c11t`).
    pub(crate) fn initial(program: &Program) -> SharedVec<ThreadClocks> {
        program
            .threads
            .iter()
            .enumerate()
            .map(|(i, th)| {
                let t = ThreadId::new(i);
                let (status, c) = match th.kind {
                    ThreadKind::TopLevel => (Status::Running, VClock::unit(t)),
                    ThreadKind::Forked { .. } => (Status::NotStarted, VClock::bottom()),
                };
                ThreadClocks {
                    status,
                    c,
                    frel: VClock::bottom(),
                    facq: VClock::bottom(),
                    sf: VClock::bottom(),
                    sw: VClock::bottom(),
                    sr: VClock::bottom(),
                }
            })
            .collect()
    }

    /// The thread's current epoch `C_t(t)`.
    pub(crate) fn epoch(&self, t: ThreadId) -> Epoch {
        self.c.get(t)
    }
}

/// A memory state holding the per-thread clocks and the SC clocks.
///
/// The per-thread clocks are a [`SharedVec`]: a step changes one thread's
/// clocks, so a successor shares the others with its parent (a clone copies
/// pointers, not six clocks per thread), and comparing two states that
/// share a thread's clocks compares pointers (`Arc`'s equality of `Eq`
/// values), not clocks.
pub(crate) trait ThreadClockState {
    fn threads(&self) -> &SharedVec<ThreadClocks>;
    /// The per-thread clocks, `S_F` and `S_W`.
    fn clocks_mut(&mut self) -> (&mut SharedVec<ThreadClocks>, &mut VClock, &mut VClock);

    fn thread(&self, t: ThreadId) -> &ThreadClocks {
        &self.threads()[t.index()]
    }

    fn thread_mut(&mut self, t: ThreadId) -> &mut ThreadClocks {
        &mut self.clocks_mut().0[t.index()]
    }

    /// Is some thread still running?
    fn any_running(&self) -> bool {
        self.threads().iter().any(|t| t.status == Status::Running)
    }
}

/// The increment after a release operation (TSAN11 Fig. 6): `C_t(t) += 1`.
pub(crate) fn release_increment(s: &mut impl ThreadClockState, t: ThreadId) {
    s.thread_mut(t).c.inc(t);
}

/// The clock part of a load (TSAN11 Fig. 6 ACQUIRE LOAD / RELAXED LOAD):
/// `C_t ∪= clock` when it acquires, `F^acq_t ∪= clock` otherwise. The
/// thread's clocks are copied only when the join changes them: a relaxed
/// load of a store whose release clock is `⊥` leaves them shared with the
/// parent state.
pub(crate) fn join_clock(
    s: &mut impl ThreadClockState,
    t: ThreadId,
    clock: &VClock,
    acquire: bool,
) {
    let th = s.thread(t);
    let into = if acquire { &th.c } else { &th.facq };
    if clock.le(into) {
        return;
    }
    let th = s.thread_mut(t);
    if acquire {
        th.c.join(clock);
    } else {
        th.facq.join(clock);
    }
}

/// SC ATOMIC LOAD, TSAN11 Fig. 13: `S_R,t ∪= S_F` (no copy of the
/// thread's clocks when it changes nothing).
pub(crate) fn sc_atomic_load(s: &mut impl ThreadClockState, t: ThreadId) {
    let (threads, sf, _) = s.clocks_mut();
    if sf.le(&threads[t.index()].sr) {
        return;
    }
    threads[t.index()].sr.join(sf);
}

/// SC ATOMIC STORE, TSAN11 Fig. 13: `S_W[t] := C_t(t)`.
pub(crate) fn sc_atomic_store(s: &mut impl ThreadClockState, t: ThreadId) {
    let (threads, _, sw) = s.clocks_mut();
    sw.set(t, threads[t.index()].epoch(t));
}

/// SC ATOMIC FENCE, TSAN11 Fig. 13: `S_F[t] := C_t(t)`, then
/// `S_F,t ∪= S_F` and `S_W,t ∪= S_W`.
pub(crate) fn sc_atomic_fence(s: &mut impl ThreadClockState, t: ThreadId) {
    let (threads, sf, sw) = s.clocks_mut();
    let th = &mut threads[t.index()];
    sf.set(t, th.epoch(t));
    th.sf.join(sf);
    th.sw.join(sw);
}

/// The acquire and release parts of ATOMIC FENCE, TSAN11 Fig. 6, in the
/// order of c11r's Fence rule (book: model-c11r.md, Rules; the caller has done the SC part): the
/// acquire part (`C_t ∪= F^acq_t`), the release part (`F^rel_t := C_t`),
/// then the increment, so an acq_rel fence releases what it has just
/// acquired.
pub(crate) fn fence_acquire_release(s: &mut impl ThreadClockState, t: ThreadId, kind: C11Fence) {
    let k = Strength::of_fence(kind);
    if k.acquire && !s.thread(t).facq.le(&s.thread(t).c) {
        let th = s.thread_mut(t);
        let facq = th.facq.clone();
        th.c.join(&facq);
    }
    if k.release {
        let th = s.thread_mut(t);
        th.frel = th.c.clone();
        release_increment(s, t);
    }
}

/// FORK (TSAN11 Sec. 2.1 `asw`, Sec. 5.2): the child starts with the
/// parent's clock and its own entry incremented (1 on its first start);
/// the parent then increments its own entry. The child's fence and SC
/// clocks start at `⊥`: C11's fence and SC rules speak of `sb`, which
/// `asw` is not.
pub(crate) fn fork(s: &mut impl ThreadClockState, parent: ThreadId, child: ThreadId) {
    let pc = s.thread(parent).c.clone();
    let ch = s.thread_mut(child);
    ch.status = Status::Running;
    ch.c.join(&pc);
    ch.c.inc(child);
    debug_assert!(
        pc.le(&ch.c),
        "relaxlab internal error: a forked thread does not know its parent's past"
    );
    release_increment(s, parent);
}

/// JOIN (TSAN11 Sec. 2.1 `asw`): `C_parent ∪= C_child`.
pub(crate) fn join(s: &mut impl ThreadClockState, parent: ThreadId, child: ThreadId) {
    if s.thread(child).c.le(&s.thread(parent).c) {
        return;
    }
    let cc = s.thread(child).c.clone();
    s.thread_mut(parent).c.join(&cc);
}

/// Thread end, the thread's part: it finishes, and its fence and SC
/// clocks, which only its own operations read, are reset to `⊥` for
/// deduplication; `C_t` stays, a later `join` acquires it.
pub(crate) fn finish(s: &mut impl ThreadClockState, t: ThreadId) {
    let th = s.thread_mut(t);
    th.status = Status::Finished;
    th.frel = VClock::bottom();
    th.facq = VClock::bottom();
    th.sf = VClock::bottom();
    th.sw = VClock::bottom();
    th.sr = VClock::bottom();
}

/// Is an access's order acquire, release or SC? The three questions the
/// rules ask of every order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Strength {
    pub(crate) acquire: bool,
    pub(crate) release: bool,
    pub(crate) sc: bool,
}

impl Strength {
    pub(crate) fn of_read(ord: ReadOrd) -> Self {
        Strength {
            acquire: matches!(ord, ReadOrd::Acq | ReadOrd::Sc),
            release: false,
            sc: ord == ReadOrd::Sc,
        }
    }
    pub(crate) fn of_write(ord: WriteOrd) -> Self {
        Strength {
            acquire: false,
            release: matches!(ord, WriteOrd::Rel | WriteOrd::Sc),
            sc: ord == WriteOrd::Sc,
        }
    }
    pub(crate) fn of_fence(kind: C11Fence) -> Self {
        Strength {
            acquire: matches!(kind, C11Fence::Acq | C11Fence::AcqRel | C11Fence::Sc),
            release: matches!(kind, C11Fence::Rel | C11Fence::AcqRel | C11Fence::Sc),
            sc: kind == C11Fence::Sc,
        }
    }
}
