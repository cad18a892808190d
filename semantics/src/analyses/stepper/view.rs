//! What the stepper shows of one state of a walk.

use serde::Serialize;

use crate::ir::{InstrId, ThreadId, Value};
use crate::model::Race;
use crate::outcome::FailureKind;
use crate::picture::MemoryPicture;

/// Where a thread stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ThreadState {
    /// Running, about to execute this instruction (a memory access, fence,
    /// fork, join or end: local instructions run eagerly after each move).
    Running { next: InstrId },
    /// A forked thread whose fork has not happened.
    NotStarted,
    /// It executed `end`.
    Finished,
}

/// One thread of the state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ThreadView {
    pub thread: ThreadId,
    pub state: ThreadState,
    /// Each register's name and value, in declaration order.
    pub registers: Vec<(String, Value)>,
}

/// How an execution ended early.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum RunEnd {
    /// An `assert` failed, a division by zero, a bad join handle, or local
    /// code that loops forever.
    Failed(FailureKind),
    /// An `assume` was false: the execution does not count.
    Discarded,
}

/// Where the walk's execution stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum RunStatus {
    /// Moves are enabled.
    Running,
    /// Every thread finished and memory is settled: the outcome (the
    /// program's observables in order) and whether it satisfies the
    /// condition.
    Final {
        values: Vec<Value>,
        satisfies: Option<bool>,
    },
    /// A final state that herd's `filter` rejects: no outcome.
    Filtered,
    /// The last move ended the execution.
    Ended(RunEnd),
    /// No move is enabled and the state is not final (a deadlock, which
    /// the explorers report as a failure).
    Deadlock,
}

/// One enabled move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveView {
    /// The move's index in successor order: what to take.
    pub choice: u32,
    /// The thread that moves (for a commit, the thread whose buffer).
    pub thread: ThreadId,
    /// An internal step of the model (a buffer commit, a settle step).
    pub internal: bool,
    /// The instruction it executes; `None` for internal steps.
    pub instr: Option<InstrId>,
    /// Its witness lines: the move itself (the label), then the local
    /// instructions it runs eagerly.
    pub lines: Vec<String>,
    /// How the move ends the execution, if it does.
    pub ends: Option<RunEnd>,
}

/// The state after the first `position` choices of a walk.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StepView {
    /// Witness lines of the local steps every thread runs before the
    /// first move.
    pub initial: Vec<String>,
    /// The witness lines of each choice of the walk, all of them: those
    /// from `position` on are the moves that "forward" takes again.
    pub history: Vec<Vec<String>>,
    /// How many choices the state shown has taken.
    pub position: usize,
    /// The threads, by id; empty when the execution ended before its
    /// first move.
    pub threads: Vec<ThreadView>,
    pub memory: MemoryPicture,
    /// The enabled moves, in successor order; empty unless running.
    pub moves: Vec<MoveView>,
    pub status: RunStatus,
    /// The data races found so far (C11 models), in the order found.
    pub races: Vec<Race>,
}
