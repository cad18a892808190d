//! The exhaustive runs a repair is checked by, and the SC-violation cycles
//! that guide its search.
//!
//! An [`Oracle`] runs a program exhaustively under the repair's model:
//! operational exploration ([`Operational`], breadth-first over every
//! state) or the axiomatic engine ([`Axiomatic`], every candidate
//! execution). Nothing a repair prints is judged otherwise.
//!
//! For guidance it also names the happens-before cycle of one bad
//! execution (RELAXER Def. 1: a non-SC execution has a cycle in `po ∪
//! com`): the operational witness trace of the first bad behaviour lifted
//! to an execution ([`crate::axiomatic::lift`]), or the first bad
//! consistent execution of the axiomatic engine, checked against `ax.sc`,
//! whose rejection is such a cycle. The cycle's program-order edges are
//! Shasha and Snir's *delays*: a repair must enforce some of them. The
//! search only uses the cycle to choose what to try first; every
//! conclusion it draws comes from exhaustive runs.

use crate::axiomatic::{self, AxError, AxOptions, Execution, ExecutionEnd};
use crate::ir::{AxModel, OpModel, Program, Span, ThreadId};
use crate::models::ScAsWritten;
use crate::operational::{self, ExploreOptions};
use crate::outcome::{OutcomeTable, Trace};

use super::goal::Judge;

/// A statement of a cycle: its thread and its source span.
pub type CycleStatement = (ThreadId, Span);

/// Runs programs exhaustively under one model (and under SC).
pub trait Oracle {
    /// The model's name as `expect` spells it (`tso`, `ax.rc11`).
    fn model(&self) -> String;
    /// Runs `program` under the model: the program it ran (compiled,
    /// unrolled; the table's instruction ids number it) and the table.
    fn explore(&mut self, program: &Program) -> Result<(Program, OutcomeTable), AxError>;
    /// Bounds the states of later runs (an operational oracle; the
    /// axiomatic engine keeps its candidate bound).
    fn bound_states(&mut self, max_states: u64);
    /// Runs `program` under SC over the program the model runs (a weak
    /// CAS stays weak for a C11 model), with the same bounds.
    fn explore_sc(&mut self, program: &Program) -> Result<(Program, OutcomeTable), AxError>;
    /// The happens-before cycle of a bad execution of `program` (whose run
    /// gave `ran` and `table`), as statements in cycle order; `None` when
    /// none is found (a race in an SC execution, a lift that fails).
    fn violation(
        &mut self,
        program: &Program,
        ran: &Program,
        table: &OutcomeTable,
        judge: &Judge,
    ) -> Option<Vec<CycleStatement>>;
}

/// The statements of the `ax.sc` rejection of `ex`, events of `ran`.
fn sc_cycle(ran: &Program, ex: &Execution) -> Option<Vec<CycleStatement>> {
    let rejection = axiomatic::check(AxModel::Sc, ex).err()?;
    let out: Vec<CycleStatement> = rejection
        .cycle
        .iter()
        .filter_map(|e| {
            let ev = ex.events.get(e.index())?;
            let (t, i) = (ev.thread?, ev.instr?);
            Some((t, ran.threads.get(t.index())?.code.get(i.index())?.span))
        })
        .collect();
    (!out.is_empty()).then_some(out)
}

/// An operational model explored exhaustively.
#[derive(Debug)]
pub struct Operational {
    pub op: OpModel,
    pub opts: ExploreOptions,
}

impl Operational {
    pub fn new(op: OpModel, opts: ExploreOptions) -> Self {
        Operational { op, opts }
    }

    /// The witness of the first bad behaviour that has one.
    fn bad_witness<'t>(ran: &Program, table: &'t OutcomeTable, judge: &Judge) -> Option<&'t Trace> {
        let rows = table
            .rows
            .iter()
            .filter(|r| judge.bad_outcome(ran, &r.values))
            .filter_map(|r| r.witness.as_ref());
        let failures = table
            .failures
            .iter()
            .filter(|f| judge.bad_failure(ran, &f.kind))
            .filter_map(|f| f.witness.as_ref());
        let races = if judge.bad_races(&table.races) {
            table.race_witnesses.iter().collect()
        } else {
            Vec::new()
        };
        rows.chain(failures).chain(races).next()
    }
}

impl Oracle for Operational {
    fn model(&self) -> String {
        self.op.name().to_string()
    }

    fn bound_states(&mut self, max_states: u64) {
        self.opts.max_states = self.opts.max_states.min(max_states);
    }

    fn explore(&mut self, program: &Program) -> Result<(Program, OutcomeTable), AxError> {
        let ran = operational::program_for_model(program, self.op, self.opts.mapping).into_owned();
        let table = operational::explore_model(program, self.op, &self.opts);
        Ok((ran, table))
    }

    fn explore_sc(&mut self, program: &Program) -> Result<(Program, OutcomeTable), AxError> {
        let ran = operational::program_for_sc_reference(program, self.op, self.opts.mapping);
        let table = operational::explore_sc_reference(program, self.op, &self.opts, &|_| {});
        Ok((ran, table))
    }

    fn violation(
        &mut self,
        _program: &Program,
        ran: &Program,
        table: &OutcomeTable,
        judge: &Judge,
    ) -> Option<Vec<CycleStatement>> {
        let witness = Self::bad_witness(ran, table, judge)?;
        let lifted = axiomatic::lift(ran, self.op, witness).ok()?;
        sc_cycle(ran, &lifted.execution)
    }
}

/// An axiomatic model: every candidate execution.
#[derive(Debug)]
pub struct Axiomatic {
    pub model: AxModel,
    pub opts: AxOptions,
}

impl Axiomatic {
    pub fn new(model: AxModel, opts: AxOptions) -> Self {
        Axiomatic { model, opts }
    }

    fn run(&self, model: AxModel, program: &Program) -> Result<(Program, OutcomeTable), AxError> {
        let ran = axiomatic::prepare(program, model, &self.opts)?;
        let table = axiomatic::run_axiomatic(program, model, &self.opts)?;
        Ok((ran, table))
    }
}

impl Oracle for Axiomatic {
    fn model(&self) -> String {
        format!("ax.{}", self.model.name())
    }

    fn bound_states(&mut self, _max_states: u64) {}

    fn explore(&mut self, program: &Program) -> Result<(Program, OutcomeTable), AxError> {
        self.run(self.model, program)
    }

    /// `ax.sc` for a hardware model. A C11 model judges the program as
    /// written, where a weak CAS may fail spuriously, which `ax.sc` (after
    /// the mapping's strong CAS) would not allow: its SC reference is the
    /// program as written (unrolled as the model runs it) explored under
    /// SC over the program as written, `ax.sc`'s operational twin
    /// ([`crate::registry::with_sc_reference`]).
    fn explore_sc(&mut self, program: &Program) -> Result<(Program, OutcomeTable), AxError> {
        if self.model.row().target.hardware().is_some() {
            return self.run(AxModel::Sc, program);
        }
        let ran = axiomatic::prepare(program, self.model, &self.opts)?;
        let opts = ExploreOptions {
            mapping: self.opts.mapping,
            budget: self.opts.budget.clone(),
            ..ExploreOptions::default()
        };
        let table = operational::explore(&ran, &ScAsWritten, &opts);
        Ok((ran, table))
    }

    fn violation(
        &mut self,
        program: &Program,
        ran: &Program,
        _table: &OutcomeTable,
        judge: &Judge,
    ) -> Option<Vec<CycleStatement>> {
        let mut found: Option<Vec<CycleStatement>> = None;
        let _ =
            axiomatic::visit_consistent(program, self.model, &self.opts, &mut |ex, end, races| {
                if found.is_some() {
                    return;
                }
                let bad = match end {
                    ExecutionEnd::Outcome(values) => judge.bad_outcome(ran, values),
                    ExecutionEnd::Failed(kinds) => kinds.iter().any(|k| judge.bad_failure(ran, k)),
                } || judge.bad_races(races);
                if bad {
                    found = sc_cycle(ran, ex);
                }
            });
        found
    }
}
