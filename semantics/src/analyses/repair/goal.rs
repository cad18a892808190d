//! What a repair must achieve, judged on an exhaustive run.
//!
//! - [`Goal::Condition`]: the final condition never fails its quantifier
//!   (`exists P` and `~exists P`: no outcome satisfies P; `forall P`: every
//!   outcome satisfies P), and no execution fails (a failed `assert`, a
//!   division by zero, a bad `join`, a deadlock, a local spin that never
//!   ends).
//! - [`Goal::Sc`]: every outcome and every failure the model reaches, SC
//!   reaches too (RELAXER Def. 1 lifted to outcomes, as
//!   [`crate::analyses::relaxer::mark_non_sc`] argues): no behaviour remains that only
//!   a non-SC execution gives.
//!
//! Under the C11 models a data race is a bad behaviour for both goals: a
//! racy program's behaviour is undefined (C11 §1.10p21), so no condition
//! holds of it, and DRF-SC is what makes a race-free program with `sc`
//! atomics sequentially consistent.
//!
//! Failures are compared across programs by their source statement (thread
//! and span), since instruction numbers change when fences are inserted.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::ir::{Program, Prop, Quantifier, ThreadId, Value};
use crate::model::Race;
use crate::outcome::{satisfies, FailureKind, OutcomeTable};

/// What a repair must achieve (`--goal`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Goal {
    /// The condition holds as its quantifier asks, and nothing fails.
    Condition,
    /// No behaviour SC does not have.
    Sc,
}

/// A behaviour a repair must remove.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Behaviour {
    /// An outcome: the final values of [`Program::observed`].
    Outcome(Vec<Value>),
    /// A way to fail; instruction ids refer to the program the model ran.
    Failure(FailureKind),
    /// A data race (C11 models); sites refer to the program the model ran.
    Race(Race),
}

/// A failure named by its source statement, comparable across programs.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct FailureKey {
    kind: u8,
    /// Thread and span (start, end) of the statement.
    at: Option<(ThreadId, u32, u32)>,
}

fn failure_key(ran: &Program, kind: &FailureKind) -> FailureKey {
    let at = |tag: u8, t: ThreadId, i: crate::ir::InstrId| FailureKey {
        kind: tag,
        at: ran
            .threads
            .get(t.index())
            .and_then(|th| th.code.get(i.index()))
            .map(|ins| (t, ins.span.start, ins.span.end)),
    };
    match *kind {
        FailureKind::Assert { thread, instr } => at(0, thread, instr),
        FailureKind::DivisionByZero { thread, instr } => at(1, thread, instr),
        FailureKind::BadHandle { thread, instr } => at(2, thread, instr),
        FailureKind::Deadlock => FailureKey { kind: 3, at: None },
        FailureKind::Divergence { thread, instr } => at(4, thread, instr),
        // herd C failures (no relaxlab instruction to repair).
        FailureKind::BadPointer { .. } => FailureKey { kind: 5, at: None },
        FailureKind::DivisionByZeroAt { .. } => FailureKey { kind: 6, at: None },
    }
}

/// Why a goal cannot be judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoalError {
    /// `Goal::Condition` on a test without a final condition.
    NoCondition,
}

impl std::fmt::Display for GoalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GoalError::NoCondition => f.write_str("the test has no final condition to make hold"),
        }
    }
}

impl std::error::Error for GoalError {}

/// Judges runs against a goal.
#[derive(Clone, Debug)]
pub struct Judge {
    goal: Goal,
    condition: Option<(Quantifier, Prop)>,
    races_are_bad: bool,
    sc_outcomes: BTreeSet<Vec<Value>>,
    sc_failures: BTreeSet<FailureKey>,
}

impl Judge {
    /// A judge for `goal` on `program`; `sc_ran` and `sc` are SC's run of
    /// the program (the reference of [`Goal::Sc`]); `races_are_bad` for the
    /// C11 models.
    pub fn new(
        goal: Goal,
        program: &Program,
        races_are_bad: bool,
        sc_ran: &Program,
        sc: &OutcomeTable,
    ) -> Result<Judge, GoalError> {
        let condition = match (&program.condition, goal) {
            (Some(c), _) => Some((c.quantifier, c.prop.clone())),
            (None, Goal::Condition) => return Err(GoalError::NoCondition),
            (None, Goal::Sc) => None,
        };
        Ok(Judge {
            goal,
            condition,
            races_are_bad,
            sc_outcomes: sc.rows.iter().map(|r| r.values.clone()).collect(),
            sc_failures: sc
                .failures
                .iter()
                .map(|f| failure_key(sc_ran, &f.kind))
                .collect(),
        })
    }

    pub fn goal(&self) -> Goal {
        self.goal
    }

    /// Must the outcome `values` of `ran` go?
    pub fn bad_outcome(&self, ran: &Program, values: &[Value]) -> bool {
        match self.goal {
            Goal::Condition => match &self.condition {
                Some((q, prop)) => {
                    let holds = satisfies(ran, prop, values);
                    match q {
                        Quantifier::Exists | Quantifier::NotExists => holds,
                        Quantifier::Forall => !holds,
                    }
                }
                None => false,
            },
            Goal::Sc => !self.sc_outcomes.contains(values),
        }
    }

    /// Must this way of failing go?
    pub fn bad_failure(&self, ran: &Program, kind: &FailureKind) -> bool {
        match self.goal {
            Goal::Condition => true,
            Goal::Sc => !self.sc_failures.contains(&failure_key(ran, kind)),
        }
    }

    /// Must these races go?
    pub fn bad_races(&self, races: &[Race]) -> bool {
        self.races_are_bad && !races.is_empty()
    }

    /// Every behaviour of a run that must go: outcomes in table order,
    /// then failures, then races.
    pub fn bad_behaviours(&self, ran: &Program, table: &OutcomeTable) -> Vec<Behaviour> {
        let mut out: Vec<Behaviour> = table
            .rows
            .iter()
            .filter(|r| self.bad_outcome(ran, &r.values))
            .map(|r| Behaviour::Outcome(r.values.clone()))
            .collect();
        out.extend(
            table
                .failures
                .iter()
                .filter(|f| self.bad_failure(ran, &f.kind))
                .map(|f| Behaviour::Failure(f.kind.clone())),
        );
        if self.races_are_bad {
            out.extend(table.races.iter().map(|r| Behaviour::Race(*r)));
        }
        out
    }
}
