//! The seam between the thread interpreter and memory (README.md,
//! Architecture, invariant 2).
//!
//! The interpreter runs a thread's local instructions itself and hands each
//! memory instruction to a [`MemoryModel`] as a [`MemOp`] with its operands
//! already evaluated. The model answers with every result the operation may
//! have ([`Step`]s, in a deterministic order); an empty answer means the
//! operation is not enabled in this state (a TSO fence with a non-empty
//! buffer). Internal steps of the model (buffer commits) are asked for
//! separately. The model knows nothing of the program's syntax; the
//! interpreter knows nothing of buffers or clocks (invariant 2).
//!
//! Successor order: every method appends its results in an order that
//! depends only on the state and the arguments (never on a hash map's
//! iteration order), so exploration is deterministic.

use std::fmt::Debug;
use std::hash::Hash;

use serde::Serialize;

use crate::dependence::{Footprint, InternalAgent};
use crate::ir::{
    FenceKind, InstrId, LocId, Program, ReadOrd, RmwOp, RmwOrd, ThreadId, Value, WriteOrd,
};
use crate::registry::OpModel;

/// A memory operation with its operands evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemOp {
    Load {
        loc: LocId,
        ord: ReadOrd,
    },
    Store {
        loc: LocId,
        val: Value,
        ord: WriteOrd,
    },
    Rmw {
        loc: LocId,
        op: RmwOp,
        operand: Value,
        ord: RmwOrd,
    },
    Cas {
        loc: LocId,
        expected: Value,
        desired: Value,
        ord: RmwOrd,
        fail: ReadOrd,
        /// May fail when it reads `expected` ([`crate::ir::Instr::Cas`]).
        weak: bool,
    },
    Fence {
        kind: FenceKind,
    },
    /// The thread starts `child`.
    Fork {
        child: ThreadId,
    },
    /// The thread waits for `child`, which the interpreter has seen finish.
    Join {
        child: ThreadId,
    },
    /// The thread finishes.
    End,
}

impl MemOp {
    /// What an `Rmw` or `Cas` operation writes when it read `old`: the
    /// RMW's result, the CAS's desired value when `old` equals the expected
    /// one, and `None` for a failed CAS (which writes nothing) or any other
    /// operation.
    pub fn rmw_write(&self, old: Value) -> Option<Value> {
        match *self {
            MemOp::Rmw { op, operand, .. } => Some(op.apply(old, operand)),
            MemOp::Cas {
                expected, desired, ..
            } => (old == expected).then_some(desired),
            _ => None,
        }
    }

    /// Can the operation read `old` and write nothing: a CAS reading a
    /// value other than the expected one, or a weak CAS reading any value
    /// (a spurious failure).
    pub fn may_fail(&self, old: Value) -> bool {
        match *self {
            MemOp::Cas { weak: true, .. } => true,
            MemOp::Cas { .. } => self.rmw_write(old).is_none(),
            _ => false,
        }
    }
}

/// Which instruction of which thread performs an operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Site {
    pub thread: ThreadId,
    pub instr: InstrId,
}

/// What a step did to memory: the raw material of traces, race reports,
/// SC-violation checks and the lift of a trace to an axiomatic execution.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum EventKind {
    /// A load read `value`. `older` says which store it read, for the lift
    /// of a trace to an execution: the field's rule below.
    Read {
        loc: LocId,
        value: Value,
        /// How many stores the read skipped: under the C11 models (`c11r`,
        /// `c11t`), the number of stores to `loc` performed after the one
        /// read; under PSLO, the number of entries of the thread's store
        /// history newer than the one read; 0 under SC, TSO and PSO, which
        /// read their own newest buffered store or memory.
        older: u32,
    },
    /// A store was performed (into a buffer or into memory, as the model
    /// does it) with `value`. `newer` says where it went in the
    /// modification order, for the lift: before that many stores to `loc`
    /// already there (0: after every one, as every model but `ra` places
    /// its stores).
    Write {
        loc: LocId,
        value: Value,
        newer: u32,
    },
    /// An RMW or CAS read `read`; `wrote` is what it wrote (`None`: a
    /// failed CAS, which writes nothing). `older` as for
    /// [`EventKind::Read`] (only a failed CAS may read an older store).
    Update {
        loc: LocId,
        read: Value,
        wrote: Option<Value>,
        older: u32,
    },
    /// A fence, fork, join or thread end took effect.
    Sync,
    /// An internal step: the oldest buffered store of `thread` to `loc`
    /// reached memory.
    Commit {
        thread: ThreadId,
        loc: LocId,
        value: Value,
    },
    /// An internal step of a model that keeps the modification order as a
    /// partial order (`c11t`): once every thread has finished, the
    /// modification order of `loc` is fixed to end with a store of `value`
    /// (one step per store that can still be last).
    Settle { loc: LocId, value: Value },
}

/// A data race found by a model that tracks happens-before: the current
/// access and the earlier one it is not ordered with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Race {
    pub loc: LocId,
    /// The earlier access.
    pub earlier: Site,
    /// The access that found the race.
    pub later: Site,
}

impl Race {
    /// The same race with its two sites in a fixed order (the smaller
    /// first), so that a pair found in either order is one race.
    pub fn unordered(self) -> Race {
        if self.earlier <= self.later {
            self
        } else {
            Race {
                loc: self.loc,
                earlier: self.later,
                later: self.earlier,
            }
        }
    }
}

/// The report of one step.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Event {
    pub kind: EventKind,
    /// Data races this step found (empty for models that track none).
    pub races: Vec<Race>,
}

impl Event {
    pub fn new(kind: EventKind) -> Self {
        Event {
            kind,
            races: Vec::new(),
        }
    }
}

/// One result of an operation.
#[derive(Clone, Debug)]
pub struct Step<S> {
    /// The value the operation returns to the thread's destination
    /// register (loads, RMWs, CAS), `None` for the others.
    pub value: Option<Value>,
    pub state: S,
    pub event: Event,
}

/// A memory model, operational side.
pub trait MemoryModel: Send + Sync {
    /// Memory-side state: buffers, histories, clocks. Cheap to clone
    /// (persistent collections where it pays); `Hash`/`Eq` deterministic.
    type State: Clone + Eq + Hash + Debug + Send + Sync;

    /// The model's row in the registry ([`crate::registry`]): its name,
    /// target, buffering and every other fact the explorers, schedulers
    /// and analyses ask about.
    fn model(&self) -> OpModel;

    /// The model's name, as the CLI spells it.
    fn name(&self) -> &'static str {
        self.model().name()
    }

    /// Is `a` known to be `b` without comparing them, as two handles on
    /// one shared allocation are (a step that leaves memory alone returns
    /// its state so)? The exhaustive explorer then names a successor's
    /// memory by its parent's id without hashing it. Never `true` for
    /// unequal states; `false` (the default) when unknown.
    fn same_state(_a: &Self::State, _b: &Self::State) -> bool {
        false
    }

    /// Tables the exhaustive explorer keeps for the whole search and hands
    /// to [`MemoryModel::hash_cons`]; `()` for a model without them.
    type Consing: Default + Debug + Send + Sync;

    /// Makes the parts of `state` a step changed share the equal parts of
    /// states met before (hash-consing, `crate::shared_vec`), so that the
    /// explorer compares states with stored ones by pointer and stores
    /// each part once. Never changes what `state` is equal to. The
    /// explorer calls it on every state it is about to store; the default
    /// does nothing.
    fn hash_cons(&self, _state: &mut Self::State, _tables: &Self::Consing) {}

    /// The state after the init writes, before any thread runs.
    fn initial(&self, program: &Program) -> Self::State;

    /// Appends every result `op`, performed by instruction `site`, may have
    /// in `state`, in a deterministic order. Appending nothing means the
    /// operation is not enabled now.
    fn perform(&self, state: &Self::State, site: Site, op: MemOp, out: &mut Vec<Step<Self::State>>);

    /// Appends every internal step enabled in `state` (buffer commits), in
    /// a deterministic order.
    fn internal(&self, state: &Self::State, out: &mut Vec<(Self::State, Event)>);

    /// Is memory settled (nothing pending), so that a state whose threads
    /// have all finished is final?
    fn settled(&self, state: &Self::State) -> bool;

    /// The final value of `loc` in a settled state.
    fn final_value(&self, state: &Self::State, loc: LocId) -> Value;

    /// The hardware family whose compilation mapping (book: mapping.md) the
    /// explorers apply before running a program under this model; `None`
    /// for models that take C11 orders at face value. The registry row's
    /// target by default.
    fn target(&self) -> Option<crate::mapping::Target> {
        self.model().row().target.hardware()
    }

    /// Does the model keep per-thread state about locations that
    /// [`MemoryModel::forget`] may drop? Only then does the interpreter
    /// compute which locations each thread may still load.
    const FORGETS: bool = false;

    /// Drops what `thread` can no longer observe: `may_load[a]` is false
    /// for every location `a` the thread will never load again (from its
    /// next instruction on). `None` when nothing changes. A
    /// canonicalisation: it must not change any future behaviour, only
    /// merge states that differ in unobservable parts (PSLO's histories).
    fn forget(
        &self,
        _state: &Self::State,
        _thread: ThreadId,
        _may_load: &[bool],
    ) -> Option<Self::State> {
        None
    }

    /// Does the model declare its dependence relation ([`crate::dependence`]),
    /// so that the explorer may reduce? Only then are the three methods
    /// below called. A model that adds state of its own on top of another
    /// (RELAXER's bookkeeping wrappers) keeps `false`: its steps no longer
    /// commute as the inner model's do.
    const DECLARES_DEPENDENCE: bool = false;

    /// The footprint of `op` performed now by `thread` in `state`: the
    /// cells every result of it reads and writes ([`crate::dependence`]).
    /// It must also hold in every state the other agents can lead to from
    /// `state` while `thread` does not move (its own store buffers
    /// included): the reduction compares it with what they may do.
    fn footprint(&self, _state: &Self::State, _thread: ThreadId, _op: &MemOp) -> Footprint {
        Footprint::ALL
    }

    /// What `op` may touch when some thread performs it at a later time, in
    /// any state, together with what it sets in motion (a buffered store:
    /// its commit). Values and the child of a `join` are placeholders here:
    /// the footprint must not depend on them.
    fn future_footprint(&self, _op: &MemOp) -> Footprint {
        Footprint::ALL
    }

    /// Appends one [`InternalAgent`] per internal step enabled in `state`,
    /// in the order [`MemoryModel::internal`] lists the steps.
    fn internal_agents(&self, _state: &Self::State, _out: &mut Vec<InternalAgent>) {}
}
