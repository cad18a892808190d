//! The memory state of the restricted C11 model (TSAN11 Fig. 10, with the
//! vector clocks of Fig. 6 and the race shadow of Sec. 2.2).
//!
//! Everything is a `Vec`, a `SharedVec` or a [`VClock`], so `Eq` and
//! `Hash` are deterministic; nothing is a hash map.

use crate::models::clocks::threads::ThreadClockState;
use crate::shared_vec::{HashCons, SharedVec};
use smallvec::SmallVec;

use crate::ir::{Atomicity, Program, ThreadId, ThreadKind, Value};
use crate::model::Site;
use crate::models::clocks::vclock::{Epoch, VClock};

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

/// Whether a store element was written by an SC store (or SC RMW).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ScWrite {
    No,
    Yes,
}

/// A recorded load on a store element (TSAN11 Fig. 10 `LoadElem`): thread
/// and its epoch at the time of the load. Only the CoRR check reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct LoadElem {
    pub(crate) thread: ThreadId,
    pub(crate) epoch: Epoch,
}

/// A store element (TSAN11 Fig. 10 `StoreElem`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct StoreElem {
    /// The writing thread `t`.
    pub(crate) writer: ThreadId,
    /// `c = C_t(t)` at the store (before the release increment).
    pub(crate) epoch: Epoch,
    pub(crate) value: Value,
    /// Was this an SC write? (The paper's `sc` flag also marks elements
    /// that happen before an SC store; we keep that information in
    /// [`StoreElem::sc_view`] instead; see the module docs of `c11`,
    /// deviation 1.)
    pub(crate) sc: ScWrite,
    /// For the newest SC write of the location only: the writer's `C_t` at
    /// the store, i.e. which elements happen before it (C11 §29.3p3).
    /// `None` for every other element (normalised away: only the newest SC
    /// write is "A" for a future SC read).
    pub(crate) sc_view: Option<VClock>,
    /// The element's release clock: `L_a` right after this store's clock
    /// update. A load reading this element acquires it.
    pub(crate) clock: VClock,
    /// Loads that read this element, at most one (the smallest epoch) per
    /// thread, sorted by thread. Invariant: sorted, one per thread.
    /// Inline up to two, in the space of a `Vec`: copying an element to
    /// record a load allocates no second block.
    pub(crate) loads: SmallVec<[LoadElem; 2]>,
}

impl StoreElem {
    /// Does this element happen before an event whose clock is `c`?
    pub(crate) fn happens_before(&self, c: &VClock) -> bool {
        c.covers(self.writer, self.epoch)
    }
}

/// An atomic location: `L_a`, `V_a` and the store list `SE_a`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct AtomicLoc {
    /// `L_a`: the release clock a load of the newest store acquires.
    pub(crate) release: VClock,
    /// `V_a(t)`: the clock of the release sequence headed by `t`'s last
    /// release store or RMW (Fig. 6 RELEASE STORE / RELEASE RMW), sorted by
    /// thread; absent threads have `⊥`. Inline for one thread, the case
    /// after every store (`V_a := {t ↦ ...}`).
    pub(crate) per_thread: SmallVec<[(ThreadId, VClock); 1]>,
    /// `SE_a` in modification order, oldest first. Invariant: non-empty.
    pub(crate) stores: SharedVec<StoreElem>,
}

impl AtomicLoc {
    /// `V_a(t)`.
    pub(crate) fn v(&self, t: ThreadId) -> VClock {
        self.per_thread
            .iter()
            .find(|(u, _)| *u == t)
            .map(|(_, c)| c.clone())
            .unwrap_or_default()
    }

    /// `V_a := V_a[t := c]`.
    pub(crate) fn set_v(&mut self, t: ThreadId, c: VClock) {
        match self.per_thread.binary_search_by_key(&t, |(u, _)| *u) {
            Ok(i) => self.per_thread[i].1 = c,
            Err(i) => self.per_thread.insert(i, (t, c)),
        }
        if self.per_thread.iter().any(|(_, c)| *c == VClock::bottom()) {
            self.per_thread.retain(|(_, c)| *c != VClock::bottom());
        }
    }

    /// The newest element (mo-maximal).
    pub(crate) fn newest(&self) -> &StoreElem {
        self.stores
            .back()
            .expect("relaxlab internal error: empty store list")
    }
}

/// A non-atomic access remembered by the race shadow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Access {
    pub(crate) epoch: Epoch,
    /// The instruction; `None` for the init write.
    pub(crate) site: Option<Site>,
}

/// A non-atomic location: its value and race shadow (FastTrack, TSAN11
/// Sec. 2.2).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct NaLoc {
    pub(crate) value: Value,
    /// `W_x`: the last write (epoch 0 for the init write).
    pub(crate) last_write: Access,
    /// The writer of `last_write`.
    pub(crate) writer: ThreadId,
    /// `R_x`: the last read of each thread, sorted by thread.
    pub(crate) reads: Vec<(ThreadId, Access)>,
}

impl NaLoc {
    /// The location after its init write (epoch 0, no reads).
    pub(crate) fn initial(value: Value) -> Self {
        NaLoc {
            value,
            last_write: Access {
                epoch: 0,
                site: None,
            },
            writer: ThreadId(0),
            reads: Vec::new(),
        }
    }
}

/// One shared location.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Loc {
    Atomic(AtomicLoc),
    NonAtomic(NaLoc),
}

/// The memory state of [`super::C11r`] and [`super::ScRaces`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct C11State {
    pub(crate) threads: SharedVec<ThreadClocks>,
    /// `S_F`: each thread's epoch at its last SC fence.
    pub(crate) sf: VClock,
    /// `S_W`: each thread's epoch at its last SC write.
    pub(crate) sw: VClock,
    pub(crate) locs: SharedVec<Loc>,
}

impl C11State {
    /// The state after the init writes: each top-level thread running with
    /// `C_t = inc_t(⊥)`, forked threads not started, every atomic location
    /// holding one init element of epoch 0 (which happens before every
    /// event, as TSAN11 Sec. 2.2 notes for `W_max`).
    pub(crate) fn initial(program: &Program) -> Self {
        let threads = ThreadClocks::initial(program);
        let locs = program
            .locations
            .iter()
            .map(|l| match l.atomicity {
                // A mixed location is an error under the C11 models (the
                // front end rejects it); `ScRaces` may still see one and
                // then treats every access to it as atomic.
                Atomicity::Atomic | Atomicity::Mixed => Loc::Atomic(AtomicLoc {
                    release: VClock::bottom(),
                    per_thread: SmallVec::new(),
                    stores: SharedVec::unit(StoreElem {
                        writer: ThreadId(0),
                        epoch: 0,
                        value: l.init,
                        sc: ScWrite::No,
                        sc_view: None,
                        clock: VClock::bottom(),
                        loads: SmallVec::new(),
                    }),
                }),
                Atomicity::NonAtomic => Loc::NonAtomic(NaLoc::initial(l.init)),
            })
            .collect();
        C11State {
            threads,
            sf: VClock::bottom(),
            sw: VClock::bottom(),
            locs,
        }
    }
}

/// The hash-consing tables of [`C11State`] (`crate::shared_vec`): one per
/// kind of shared element.
#[derive(Debug, Default)]
pub struct C11Consing {
    threads: HashCons<ThreadClocks>,
    locs: HashCons<Loc>,
    stores: HashCons<StoreElem>,
}

impl C11State {
    /// Hash-conses the thread clocks, locations and store elements a step
    /// changed ([`crate::model::MemoryModel::hash_cons`]).
    pub(crate) fn hash_cons(&mut self, tables: &C11Consing) {
        self.threads.hash_cons(&tables.threads, |_| {});
        self.locs.hash_cons(&tables.locs, |loc| {
            if let Loc::Atomic(a) = loc {
                a.stores.hash_cons(&tables.stores, |_| {});
            }
        });
    }
}

impl ThreadClockState for C11State {
    fn threads(&self) -> &SharedVec<ThreadClocks> {
        &self.threads
    }

    fn clocks_mut(&mut self) -> (&mut SharedVec<ThreadClocks>, &mut VClock, &mut VClock) {
        (&mut self.threads, &mut self.sf, &mut self.sw)
    }
}
