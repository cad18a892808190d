//! What every engine returns: an outcome table with witnesses, the failed
//! executions, statistics and the bounds that cut the result short.
//!
//! Operational explorers (exhaustive and sampled) and the axiomatic engine
//! all produce an [`OutcomeTable`]; the CLI only renders it. Rows are sorted
//! by their values so output is deterministic.

use serde::Serialize;

use crate::ir::{InstrId, Program, Prop, Quantifier, ThreadId, Value, Verdict};
use crate::model::{EventKind, Race};

/// One step of a witness trace.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct TraceStep {
    /// The thread that moved; for a buffer commit, the thread whose buffer
    /// it was.
    pub thread: ThreadId,
    /// The instruction executed; `None` for internal steps (commits).
    pub instr: Option<InstrId>,
    /// What the step did to memory; `None` for local steps.
    pub event: Option<EventKind>,
}

/// A witness: the steps from the initial state, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Trace {
    pub steps: Vec<TraceStep>,
}

/// Why an execution failed.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum FailureKind {
    /// `assert` at this instruction was false.
    Assert { thread: ThreadId, instr: InstrId },
    /// A division or remainder by zero at this instruction.
    DivisionByZero { thread: ThreadId, instr: InstrId },
    /// `join` of a register that holds no thread handle.
    BadHandle { thread: ThreadId, instr: InstrId },
    /// No transition enabled, and the state is not final.
    Deadlock,
    /// The thread's local code (no memory access) loops forever from this
    /// instruction: its local state repeated, or it ran more local steps in
    /// a row than the interpreter's bound. The execution never ends and has
    /// no outcome; it is reported so the spin is not lost silently.
    Divergence { thread: ThreadId, instr: InstrId },
    /// A herd C statement (at a source line) wrote through a value that is
    /// not a location's address, or computed with an address other than
    /// comparing it: herd7 refuses such a test.
    BadPointer { thread: ThreadId, line: u32 },
    /// A herd C statement (at a source line) divided by zero.
    DivisionByZeroAt { thread: ThreadId, line: u32 },
}

/// A distinct way an execution can fail, with its shortest witness.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Failure {
    pub kind: FailureKind,
    /// How many runs (sampled) or candidate executions (axiomatic) failed
    /// this way; 1 for exhaustive exploration, which counts distinct kinds.
    pub count: u64,
    pub witness: Option<Trace>,
}

/// One row of an outcome table.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct OutcomeRow {
    /// The final values of [`Program::observed`], in that order.
    pub values: Vec<Value>,
    /// Does the final condition's proposition hold here? `None` without a
    /// condition.
    pub satisfies: Option<bool>,
    /// Sampled runs: how many runs ended here. Axiomatic: how many
    /// consistent executions give this outcome. Exhaustive: 1.
    pub count: u64,
    /// Every execution reaching this outcome has a data race (C11 models,
    /// and SC with race detection).
    pub racy: bool,
    /// Every execution reaching this outcome violates SC (RELAXER Def. 1).
    pub non_sc: bool,
    /// A shortest witness (exhaustive), the first run (sampled), or none.
    pub witness: Option<Trace>,
}

/// A bound that cut a result short.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum BoundHit {
    /// Exhaustive exploration stored this many states and stopped.
    MaxStates(u64),
    /// Exhaustive exploration reached executions this many steps long and
    /// went no deeper: only a loop whose states never repeat (one that
    /// keeps growing a counter) gets that deep.
    MaxDepth(u64),
    /// The axiomatic engine enumerated this many candidates and stopped.
    MaxCandidates(u64),
    /// The stateless explorer (`--search mcr`) explored this many
    /// executions and stopped.
    MaxExecutions(u64),
    /// Loops were unrolled this many times; executions needing more were
    /// discarded by the `assume` the unrolling adds.
    Unroll(u32),
    /// Sampling: `runs` runs reached the per-run step bound `bound` and were
    /// cut short without an outcome.
    MaxSteps { bound: u64, runs: u64 },
    /// The user interrupted the search (Ctrl-C); [`Stats`] says how far it
    /// got.
    Interrupted,
    /// A `let rec` of a cat model whose equations are not monotone never
    /// settled on this many candidate executions, which are left
    /// undecided (herd7 does not end on them).
    Unsettled(u64),
    /// The search ran past its time limit of `millis` milliseconds.
    Timeout { millis: u64 },
    /// The process used more than `bytes` bytes of memory above
    /// `baseline` (0: more than `bytes` in all).
    MaxMemory { bytes: u64, baseline: u64 },
}

/// Counters of a run. Timing is kept out: it is not deterministic, and the
/// CLI measures it itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Stats {
    /// Distinct states stored (exhaustive), runs (sampled), candidate
    /// executions (axiomatic).
    pub states: u64,
    /// Transitions taken (exhaustive), steps (sampled), consistent
    /// executions (axiomatic).
    pub transitions: u64,
}

/// The result of running one program under one model.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct OutcomeTable {
    /// The model, as `expect` spells it (`tso`, `ax.rc11`).
    pub model: String,
    /// Does the program have a final condition? Without one there is no
    /// verdict, even when no execution ended (no rows).
    pub has_condition: bool,
    /// Rows sorted by `values`.
    pub rows: Vec<OutcomeRow>,
    /// Sorted by kind.
    pub failures: Vec<Failure>,
    /// Data races found, each distinct pair of instructions once (the
    /// smaller site as `earlier`), sorted.
    pub races: Vec<Race>,
    /// A shortest witness of each race, aligned with `races`, where the
    /// engine has one (exhaustive exploration); empty otherwise.
    pub race_witnesses: Vec<Trace>,
    /// The names of a cat model's `flag` checks that held on some
    /// consistent execution, sorted (herd7's `Flag` lines); empty for every
    /// other engine.
    pub flags: Vec<String>,
    /// Is some consistent execution undefined, when a cat model decides
    /// it: one failed an `undefined_unless` check (herd7's `Undef`).
    /// `None` for every other engine, whose undefined executions are the
    /// racy ones ([`Self::undefined`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undefined_by_cat: Option<bool>,
    pub stats: Stats,
    /// Every bound that was hit; empty when the result is complete.
    pub bounds: Vec<BoundHit>,
}

impl OutcomeTable {
    /// How often the condition's proposition holds over the outcomes;
    /// `None` without a condition.
    pub fn verdict(&self) -> Option<Verdict> {
        if !self.has_condition {
            return None;
        }
        let mut pos = 0;
        let mut neg = 0;
        for row in &self.rows {
            match row.satisfies? {
                true => pos += 1,
                false => neg += 1,
            }
        }
        Some(Verdict::from_counts(pos, neg))
    }

    /// Has the program an undefined execution (herd7 then validates the
    /// test as `Undef`)? Under a cat model, when one failed an
    /// `undefined_unless` check; under every other model, when one has a
    /// data race.
    pub fn undefined(&self) -> bool {
        self.undefined_by_cat
            .unwrap_or_else(|| !self.races.is_empty() || self.rows.iter().any(|r| r.racy))
    }

    /// Does some execution fail?
    pub fn fails(&self) -> bool {
        !self.failures.is_empty()
    }

    /// Is the result complete (no bound hit)?
    pub fn complete(&self) -> bool {
        self.bounds.is_empty()
    }

    /// herd7's validation of the test: `exists P` is Ok when P holds in
    /// some outcome, `~exists P` when it holds in none, `forall P` when it
    /// holds in all.
    pub fn condition_ok(&self, quantifier: Quantifier) -> Option<bool> {
        let v = self.verdict()?;
        Some(match quantifier {
            Quantifier::Exists => v != Verdict::Never,
            Quantifier::NotExists => v == Verdict::Never,
            Quantifier::Forall => v == Verdict::Always || self.rows.is_empty(),
        })
    }
}

/// Evaluates `prop` over an outcome's values (aligned with
/// `program.observed`). Observables missing from `observed` never occur:
/// the front end puts every observable of the condition there.
pub fn satisfies(program: &Program, prop: &Prop, values: &[Value]) -> bool {
    prop.eval(&|o| {
        let i = program
            .observed
            .iter()
            .position(|x| *x == o)
            .expect("relaxlab internal error: condition observable not observed");
        values[i]
    })
}
