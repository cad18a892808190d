//! Candidate executions (book: axiomatic.md, Candidate executions): events and the relations between
//! them.
//!
//! An [`Execution`] is what both sides of relaxlab can produce: the
//! axiomatic engine builds them from the program (candidates), and an
//! operational trace can be lifted to one (TSAN11 Sec. 6.1: every event
//! carries its thread, instruction, location, value and order; `rf` and `co`
//! are plain relations, `sc` a sequence). Nothing here depends on how the
//! execution was obtained, so [`super::check`] can judge either.

use std::fmt;

use serde::Serialize;

use super::relation::{single, EventSet, Relation};
use crate::ir::{C11Fence, FenceKind, HwFence, InstrId, LocId, ThreadId, Value};

/// An event: an index into [`Execution::events`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct EventId(pub u32);

impl EventId {
    /// The id as an index into [`Execution::events`].
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// The id of the event at `index`.
    #[inline]
    pub fn new(index: usize) -> EventId {
        EventId(u32::try_from(index).expect("relaxlab internal error: event id overflow"))
    }
}

/// The C11 order of an event. A read carries a read order, a write a write
/// order; the halves of an RMW carry [`crate::ir::RmwOrd::read_part`] and
/// [`crate::ir::RmwOrd::write_part`] of its order; a failed CAS carries its
/// failure order; init writes are `Na`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Mode {
    Na,
    Rlx,
    Acq,
    Rel,
    AcqRel,
    Sc,
}

impl Mode {
    pub fn is_acquire(self) -> bool {
        matches!(self, Mode::Acq | Mode::AcqRel | Mode::Sc)
    }
    pub fn is_release(self) -> bool {
        matches!(self, Mode::Rel | Mode::AcqRel | Mode::Sc)
    }
    pub fn name(self) -> &'static str {
        match self {
            Mode::Na => "na",
            Mode::Rlx => "rlx",
            Mode::Acq => "acq",
            Mode::Rel => "rel",
            Mode::AcqRel => "acq_rel",
            Mode::Sc => "sc",
        }
    }
}

/// Which instruction an access comes from, as the hardware models need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum AccessKind {
    /// A load or a store.
    Plain,
    /// A half of a successful RMW or CAS.
    Update,
    /// The read of a CAS that failed (still a locked instruction on x86).
    FailedCas,
    /// The read of a Linux-kernel read-modify-write that failed
    /// (`cmpxchg`, `atomic_add_unless`): herd7's C semantics marks it
    /// atomic, so it is in herd's `RMW` set though no write follows it.
    FailedUpdate,
}

/// The lock events of herd7's Linux-kernel semantics (its `CAction.Lock`,
/// `Unlock`, `TryLock` and `ReadLock`): events on a spinlock's location
/// that are neither reads nor writes of memory; the model (`lock.cat`)
/// gives them their `rf` and `co`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum LockOp {
    /// `LKR`: the read half of `spin_lock` or of a successful `spin_trylock`.
    Read,
    /// `LKW`: its write half.
    Write,
    /// `UL`: `spin_unlock`.
    Unlock,
    /// `LF`: a failed `spin_trylock`.
    Fail,
    /// `RL`: a `spin_is_locked` that returned true.
    ReadLocked,
    /// `RU`: a `spin_is_locked` that returned false.
    ReadUnlocked,
}

/// What an event does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum EventKind {
    /// A read of `value` from `loc`.
    Read {
        loc: LocId,
        value: Value,
        access: AccessKind,
    },
    /// A write of `value` to `loc` (init writes included).
    Write {
        loc: LocId,
        value: Value,
        access: AccessKind,
    },
    Fence(FenceKind),
    /// The thread started `child`.
    Fork {
        child: ThreadId,
    },
    /// The thread waited for `child` to finish.
    Join {
        child: ThreadId,
    },
    /// A fence of herd7's annotated C primitives (`__fence{mb}`): what it
    /// orders is said by its tags ([`Event::tags`]) alone.
    TaggedFence,
    /// A lock event on the spinlock at `loc` ([`LockOp`]).
    Lock {
        loc: LocId,
        op: LockOp,
    },
    /// herd7's SRCU event that is not an access (`synchronize_srcu`,
    /// `__srcu{...}(s)`): on the srcu_struct at `loc`, annotated by its
    /// tags, with the value it carries (none for a grace period).
    Srcu {
        loc: LocId,
        value: Option<Value>,
    },
}

/// One event of an execution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Event {
    /// `None` for the init writes.
    pub thread: Option<ThreadId>,
    /// The instruction (of the program the engine ran: after unrolling and,
    /// for the hardware models, the compilation mapping); `None` for init.
    pub instr: Option<InstrId>,
    /// The source line, kept through every pass, for labels.
    pub line: u32,
    pub kind: EventKind,
    pub mode: Mode,
    /// herd7's annotations of the event (`once`, `release`, `mb`, ...): a
    /// bit per entry of the program's tag table (`Program::tags`); cat
    /// models see one event set per annotation their bell file declares.
    pub tags: u64,
}

impl Event {
    /// The memory location the event reads or writes (lock and SRCU
    /// events have a location but access no memory: see
    /// [`Event::location`]).
    pub fn loc(&self) -> Option<LocId> {
        match self.kind {
            EventKind::Read { loc, .. } | EventKind::Write { loc, .. } => Some(loc),
            _ => None,
        }
    }
    /// The location the event concerns: a memory access's, a lock
    /// event's or an SRCU event's (herd7's `loc` relates them all).
    pub fn location(&self) -> Option<LocId> {
        match self.kind {
            EventKind::Read { loc, .. }
            | EventKind::Write { loc, .. }
            | EventKind::Lock { loc, .. }
            | EventKind::Srcu { loc, .. } => Some(loc),
            _ => None,
        }
    }
    pub fn value(&self) -> Option<Value> {
        match self.kind {
            EventKind::Read { value, .. } | EventKind::Write { value, .. } => Some(value),
            EventKind::Srcu { value, .. } => value,
            _ => None,
        }
    }
    pub fn is_read(&self) -> bool {
        matches!(self.kind, EventKind::Read { .. })
    }
    pub fn is_write(&self) -> bool {
        matches!(self.kind, EventKind::Write { .. })
    }
    /// Does the event belong to an RMW or a CAS, successful or not?
    pub fn is_locked(&self) -> bool {
        matches!(
            self.kind,
            EventKind::Read { access, .. } | EventKind::Write { access, .. }
                if access != AccessKind::Plain
        )
    }
}

/// The dependencies of an execution fixed by its threads' paths (herd7's
/// C semantics computes them from register data flow: see
/// `crate::csem`): `addr`, `data` and `ctrl` between its events.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PathDeps {
    pub addr: Relation,
    pub data: Relation,
    pub ctrl: Relation,
}

/// A candidate execution.
///
/// Invariant: every relation is over `events.len() <= MAX_EVENTS` events;
/// `po` is a strict order within each thread (transitive); `asw` holds the
/// init-to-thread, fork and join edges; `rf` relates a write to each read
/// (same location and value); `co` is a strict total order (transitive) of
/// each location's writes, init first; `rmw` relates the read of each
/// successful RMW or CAS to its write; `sc`, when present, is a total order
/// of the SC events in which the two halves of an RMW are adjacent.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Execution {
    pub events: Vec<Event>,
    pub po: Relation,
    pub asw: Relation,
    pub rf: Relation,
    pub co: Relation,
    pub rmw: Relation,
    pub sc: Option<Vec<EventId>>,
    /// The dependencies, when the threads' semantics computed them (herd
    /// C programs); otherwise a cat model recovers `data` and `ctrl` by
    /// replaying the program.
    pub deps: Option<Box<PathDeps>>,
    /// The final write of each location the test observes, when `co` is
    /// left to the model (a cat model that chooses it with `with co from
    /// ...`): herd7's `FW`, chosen with `rf`; `None` when `co` is the
    /// candidate's, whose last writes are the final ones.
    pub fw: Option<EventSet>,
    /// The reads that also write: herd7's one-event read-modify-writes,
    /// in the view of an execution a C cat model that never reads `rmw`
    /// judges (book: cat.md, One event per read-modify-write). Empty in
    /// every execution the engines build.
    pub updates: EventSet,
}

impl Execution {
    pub fn len(&self) -> usize {
        self.events.len()
    }
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The events satisfying `f`, as a set.
    pub(crate) fn set(&self, f: impl Fn(&Event) -> bool) -> EventSet {
        self.events
            .iter()
            .enumerate()
            .filter(|(_, e)| f(e))
            .fold(0, |acc, (i, _)| acc | single(i))
    }

    pub(crate) fn reads(&self) -> EventSet {
        self.set(Event::is_read)
    }
    pub(crate) fn writes(&self) -> EventSet {
        self.set(Event::is_write)
    }
    pub(crate) fn accesses(&self) -> EventSet {
        self.set(|e| e.loc().is_some())
    }

    /// Hardware fences of a kind in `kinds`; fork and join count as `full`
    /// (they act as full barriers; book: models.md, The shared frame).
    pub(crate) fn hw_fences(&self, kinds: &[HwFence]) -> EventSet {
        self.set(|e| match e.kind {
            EventKind::Fence(FenceKind::Hw(k)) => kinds.contains(&k),
            EventKind::Fork { .. } | EventKind::Join { .. } => kinds.contains(&HwFence::Full),
            _ => false,
        })
    }

    /// C11 fences whose kind satisfies `f`.
    pub(crate) fn c11_fences(&self, f: impl Fn(C11Fence) -> bool) -> EventSet {
        self.set(|e| matches!(e.kind, EventKind::Fence(FenceKind::C11(k)) if f(k)))
    }

    /// Pairs of events on the same location.
    pub(crate) fn same_loc(&self) -> Relation {
        // Each event's row is the set of its location's events.
        let mut by_loc: Vec<EventSet> = Vec::new();
        for (e, ev) in self.events.iter().enumerate() {
            if let Some(l) = ev.loc() {
                if by_loc.len() <= l.index() {
                    by_loc.resize(l.index() + 1, 0);
                }
                by_loc[l.index()] |= single(e);
            }
        }
        Relation::from_rows(
            self.events
                .iter()
                .map(|ev| ev.loc().map_or(0, |l| by_loc[l.index()]))
                .collect(),
        )
    }

    /// Pairs of events of different threads (init counts as its own thread).
    pub(crate) fn ext(&self) -> Relation {
        // Each event's row is every event but those of its own thread.
        let all = Relation::all(self.len());
        let mut by_thread: Vec<EventSet> = Vec::new();
        let mut init: EventSet = 0;
        for (e, ev) in self.events.iter().enumerate() {
            match ev.thread {
                Some(t) => {
                    if by_thread.len() <= t.index() {
                        by_thread.resize(t.index() + 1, 0);
                    }
                    by_thread[t.index()] |= single(e);
                }
                None => init |= single(e),
            }
        }
        Relation::from_rows(
            self.events
                .iter()
                .map(|ev| match ev.thread {
                    Some(t) => all & !by_thread[t.index()],
                    None => all & !init,
                })
                .collect(),
        )
    }

    /// `fr = rf^-1 ; co`.
    pub(crate) fn fr(&self) -> Relation {
        self.rf.inverse().seq(&self.co)
    }

    /// `com = rf | co | fr`.
    pub(crate) fn com(&self) -> Relation {
        self.rf.union(&self.co).union(&self.fr())
    }

    /// `(po | asw)+`: program order with fork and join edges, as the
    /// hardware models see it.
    pub(crate) fn po_asw(&self) -> Relation {
        self.po.union(&self.asw).plus()
    }
}

/// Why a model rejects an execution: the axiom and the events that break it
/// (a cycle for acyclicity axioms, each event related to the next and the
/// last to the first; the offending events otherwise).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rejection {
    pub axiom: &'static str,
    pub cycle: Vec<EventId>,
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "axiom {} fails on events", self.axiom)?;
        for e in &self.cycle {
            write!(f, " {}", e.0)?;
        }
        Ok(())
    }
}

/// Why the axiomatic engine refuses a program.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AxError {
    /// The program has loops and no unrolling bound was given: `at` is the
    /// head of the first loop of `thread` (the instruction its backward
    /// jump goes to).
    HasLoops { thread: ThreadId, at: InstrId },
    /// An execution would have more events than a relation can hold.
    TooManyEvents { events: usize, max: usize },
    /// A program in herd's C semantics (`Program::c`) under a model that
    /// does not run it: a hand-written model, or a cat model of a hardware
    /// architecture.
    HerdSemantics,
}

impl fmt::Display for AxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AxError::HasLoops { .. } => f.write_str(
                "the axiomatic engine needs a loop-free program: this one has loops; \
                 pass --unroll K to unroll every loop K times",
            ),
            AxError::HerdSemantics => f.write_str(
                "this test is read in herd7's C semantics (kernel primitives, pointers, herd's \
                 annotations): only cat models of the C architecture run it",
            ),
            AxError::TooManyEvents { events, max } => write!(
                f,
                "an execution of this program has {events} events; the axiomatic engine \
                 handles at most {max}"
            ),
        }
    }
}

impl std::error::Error for AxError {}
