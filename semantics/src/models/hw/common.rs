//! Pieces the hardware models share: results of operations that only read
//! or write one value, and the classification of barriers.

use crate::ir::{C11Fence, FenceKind, HwFence, LocId, Value};
use crate::model::{Event, EventKind, Step};

/// What a barrier asks of a hardware model: drain the thread's store
/// buffers (`ss`, `sl`, `full` under PSO/PSLO; `sl`, `full` under TSO) and
/// reset its load histories (`ll`, `sl`, `full` under PSLO).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Barrier {
    /// Every buffered store of the thread must have reached memory.
    pub drain: bool,
    /// Every load history of the thread restarts from memory (PSLO).
    pub reset: bool,
}

/// The full barrier that `fork`, `join` and thread end act as (book: models.md, The shared frame).
pub(crate) const FULL: Barrier = Barrier {
    drain: true,
    reset: true,
};

/// RELAXER's barriers as PSO and PSLO implement them (Figs. 5 and 6): `ss`
/// drains (conservatively; book: model-pso.md, Rules (RELAXER Fig. 5)), `ll` resets histories, `sl`
/// and `full` do both, `ls` nothing. A C11 fence never reaches a hardware
/// model (the mapping replaces it); if one does, it is read as the barriers
/// the standard mapping would give it.
pub(crate) fn pso_barrier(kind: FenceKind) -> Barrier {
    let (drain, reset) = match kind {
        FenceKind::Hw(HwFence::SS) | FenceKind::C11(C11Fence::Rel) => (true, false),
        FenceKind::Hw(HwFence::LL) | FenceKind::C11(C11Fence::Acq) => (false, true),
        FenceKind::Hw(HwFence::LS) => (false, false),
        FenceKind::Hw(HwFence::SL | HwFence::Full)
        | FenceKind::C11(C11Fence::AcqRel | C11Fence::Sc) => (true, true),
    };
    Barrier { drain, reset }
}

/// RELAXER's barriers under TSO (Fig. 4): only `sl` and `full` need the
/// buffer empty; TSO keeps the other orders already.
pub(crate) fn tso_barrier(kind: FenceKind) -> Barrier {
    let drain = matches!(
        kind,
        FenceKind::Hw(HwFence::SL | HwFence::Full) | FenceKind::C11(C11Fence::Sc)
    );
    Barrier {
        drain,
        reset: false,
    }
}

/// A step that returns `value` (if any) and reports `kind`.
pub(crate) fn step<S>(value: Option<Value>, state: S, kind: EventKind) -> Step<S> {
    Step {
        value,
        state,
        event: Event::new(kind),
    }
}

/// The result of a read-modify-write that read `old` from `loc`: what it
/// writes (`None`: a failed CAS) and the event.
pub(crate) fn update_event(loc: LocId, old: Value, wrote: Option<Value>) -> EventKind {
    EventKind::Update {
        loc,
        read: old,
        wrote,
        older: 0,
    }
}

/// What an `Rmw` or `Cas` operation writes when it read `old`: the RMW's
/// result, the CAS's desired value when `old` equals the expected one, and
/// `None` for a failed CAS (which writes nothing) or any other operation.
pub(crate) fn rmw_write(op: &crate::model::MemOp, old: Value) -> Option<Value> {
    op.rmw_write(old)
}
