//! The memory state of the restricted C11 model (TSAN11 Fig. 10, with the
//! vector clocks of Fig. 6 and the race shadow of Sec. 2.2, both in
//! [`crate::models::clocks`]).
//!
//! Everything is a `Vec`, a `SharedVec` or a [`VClock`], so `Eq` and
//! `Hash` are deterministic; nothing is a hash map.

use crate::shared_vec::{HashCons, SharedVec};
use smallvec::SmallVec;

use crate::ir::{Atomicity, Program, ThreadId};
pub(crate) use crate::models::clocks::shadow::NaLoc;
pub(crate) use crate::models::clocks::store::{LoadElem, ScWrite, StoreElem};
pub(crate) use crate::models::clocks::threads::{Status, ThreadClockState, ThreadClocks};
use crate::models::clocks::vclock::VClock;

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
