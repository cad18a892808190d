//! The memory state of `c11t`: the thread clocks of `c11r` (TSAN11 Fig. 6
//! and 13, in [`crate::models::clocks`]), and per atomic location its stores as
//! mo-graph nodes (C11TESTER Sec. 4.1) with what each store carries for the
//! operational rules of Sec. 6.
//!
//! Everything is a `Vec`, a `SharedVec` or a [`VClock`], so `Eq` and
//! `Hash` are deterministic; nothing is a hash map.

use crate::models::clocks::threads::ThreadClockState;
use crate::shared_vec::{HashCons, SharedVec};
use smallvec::{smallvec, SmallVec};

use super::graph::{MoGraph, NodeId};
use crate::ir::{Atomicity, Program, ThreadId};
use crate::models::clocks::shadow::NaLoc;
use crate::models::clocks::threads::ThreadClocks;
use crate::models::clocks::vclock::VClock;

/// What a store carries besides its place in the mo-graph, indexed like
/// the graph's nodes (performance order): `c11r`'s store element. Its
/// `clock` is here the store's release clock `RF_s` (C11TESTER Sec. 6,
/// C++20 release sequences), what an acquire reading it synchronises with.
pub(crate) use crate::models::clocks::store::{ScWrite, StoreElem as Store};

/// An atomic location: its mo-graph and the data of each node.
///
/// Invariant: `stores.len() == graph.len()`; node `i` of the graph is
/// `stores[i]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct AtomicLoc {
    /// The `mo` constraints between the stores.
    pub(crate) graph: MoGraph,
    /// What each store carries, in performance order (inline up to four,
    /// as the graph's nodes).
    pub(crate) stores: SmallVec<[Store; 4]>,
    /// A settle step has fixed the `mo`-last store and named its value
    /// (module docs of `c11t`, "Final values").
    pub(crate) settled: bool,
}

impl AtomicLoc {
    pub(crate) fn store(&self, n: NodeId) -> &Store {
        &self.stores[n as usize]
    }

    /// The newest SC store in performance order (= `sc` order), if any.
    pub(crate) fn last_sc(&self) -> Option<NodeId> {
        (0..self.stores.len())
            .rev()
            .find(|&i| self.stores[i].sc == ScWrite::Yes)
            .map(|i| i as NodeId)
    }
}

/// One shared location.
///
/// The atomic variant is large (its nodes and stores are inline); a
/// location lives in its own node of a [`SharedVec`], so boxing it would
/// only add the allocation per copy that the inline layout avoids.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Loc {
    Atomic(AtomicLoc),
    NonAtomic(NaLoc),
}

/// The memory state of [`super::C11t`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct C11tState {
    /// Per thread: status, `C_t`, `F^rel_t`, `F^acq_t`, `S_F,t`, `S_W,t`,
    /// `S_R,t` (as `c11r`).
    pub(crate) threads: SharedVec<ThreadClocks>,
    /// `S_F`: each thread's epoch at its last SC fence (TSAN11 Fig. 13).
    pub(crate) sf: VClock,
    /// `S_W`: each thread's epoch at its last SC write (TSAN11 Fig. 13).
    pub(crate) sw: VClock,
    /// Every location, indexed by [`crate::ir::LocId`].
    pub(crate) locs: SharedVec<Loc>,
}

impl C11tState {
    /// The state after the init writes: top-level threads running with
    /// `C_t = inc_t(⊥)`, forked threads not started, every atomic location
    /// holding the init node of epoch 0.
    pub(crate) fn initial(program: &Program) -> Self {
        let threads = ThreadClocks::initial(program);
        let locs = program
            .locations
            .iter()
            .map(|l| match l.atomicity {
                // Mixed locations are rejected by the front end under the
                // C11 models; if one arrives it is treated as atomic.
                Atomicity::Atomic | Atomicity::Mixed => Loc::Atomic(AtomicLoc {
                    settled: false,
                    graph: MoGraph::new(),
                    stores: smallvec![Store {
                        writer: ThreadId(0),
                        epoch: 0,
                        value: l.init,
                        sc: ScWrite::No,
                        sc_view: None,
                        clock: VClock::bottom(),
                        loads: smallvec::SmallVec::new(),
                    }],
                }),
                Atomicity::NonAtomic => Loc::NonAtomic(NaLoc::initial(l.init)),
            })
            .collect();
        C11tState {
            threads,
            sf: VClock::bottom(),
            sw: VClock::bottom(),
            locs,
        }
    }
}

/// The hash-consing tables of [`C11tState`] (`crate::shared_vec`).
#[derive(Debug, Default)]
pub struct C11tConsing {
    threads: HashCons<ThreadClocks>,
    locs: HashCons<Loc>,
}

impl C11tState {
    /// Hash-conses the thread clocks and locations a step changed
    /// ([`crate::model::MemoryModel::hash_cons`]).
    pub(crate) fn hash_cons(&mut self, tables: &C11tConsing) {
        self.threads.hash_cons(&tables.threads, |_| {});
        self.locs.hash_cons(&tables.locs, |_| {});
    }
}

impl ThreadClockState for C11tState {
    fn threads(&self) -> &SharedVec<ThreadClocks> {
        &self.threads
    }

    fn clocks_mut(&mut self) -> (&mut SharedVec<ThreadClocks>, &mut VClock, &mut VClock) {
        (&mut self.threads, &mut self.sf, &mut self.sw)
    }
}
