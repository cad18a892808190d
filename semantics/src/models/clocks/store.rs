//! A store as both C11 models keep it (TSAN11 Fig. 10 `StoreElem`): its
//! writer and epoch, value, SC flag, release clock and the loads that read
//! it. `c11r` keeps a location's elements in modification order; `c11t`
//! keeps them as the nodes of its mo-graph.

use smallvec::SmallVec;

use super::vclock::{Epoch, VClock};
use crate::ir::{ThreadId, Value};

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
    /// [`StoreElem::sc_view`] instead; see the module docs of `c11r`,
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
