//! The axiomatic engine's entry points: prepare the program (unroll, and
//! compile for the hardware models), enumerate candidates, keep the
//! consistent ones, and summarise them as an [`OutcomeTable`] with herd7's
//! counts (one per consistent execution, i.e. per distinct `(rf, co)`; for
//! the C11 models an execution counts once however many SC orders make it
//! consistent).
//!
//! `Stats::states` counts the candidates enumerated: those that pass
//! uniproc location by location (see `candidates`), which every model
//! requires; `Stats::transitions` the consistent ones. Bounds:
//! [`BoundHit::MaxCandidates`] when `max_candidates` candidates (or four
//! times as many nodes of the search over combinations of thread paths, or
//! that many paths of one thread) were reached; [`BoundHit::Unroll`] when some thread path was cut
//! by an `assume` the unrolling added. The latter is conservative: the cut
//! path may have needed values no consistent execution provides.

use std::collections::BTreeMap;

use super::consistent::{for_each_consistent, End, Split};
use super::execution::{AxError, EventId, Execution, Rejection};
use super::relation::Relation;
use super::unroll::unroll;
use crate::budget::Budget;
use crate::ir::{AxModel, Observable, Program, Value};
use crate::mapping::{compile, Mapping, Target};
use crate::model::Race;
use crate::outcome::{BoundHit, Failure, FailureKind, OutcomeRow, OutcomeTable, Stats};

/// Options of an axiomatic run.
#[derive(Clone, Debug)]
pub struct AxOptions {
    /// Unroll loops this many times (`--unroll K`); `None` refuses programs
    /// with loops.
    pub unroll: Option<u32>,
    /// Stop after this many candidate executions (and cap the paths of each
    /// thread at it), reporting [`BoundHit::MaxCandidates`].
    pub max_candidates: u64,
    /// The compilation mapping for the hardware models (book: mapping.md).
    pub mapping: Mapping,
    /// Ctrl-C, `--timeout` and `--max-memory`: polled every
    /// [`BUDGET_POLL`] candidates; once exhausted the run stops with what
    /// it found, reporting the bound.
    pub budget: Budget,
}

/// How many candidates (observers' choices included) the engine judges
/// between two polls of [`AxOptions::budget`]: a few milliseconds of work
/// at most.
pub const BUDGET_POLL: u64 = 1024;

impl Default for AxOptions {
    /// No unrolling, a million candidates (a few seconds at worst), the
    /// standard mapping.
    fn default() -> Self {
        AxOptions {
            unroll: None,
            max_candidates: 1_000_000,
            mapping: Mapping::Standard,
            budget: Budget::default(),
        }
    }
}

/// How a consistent execution ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExecutionEnd {
    /// The final values of [`Program::observed`].
    Outcome(Vec<Value>),
    /// Threads failed (assert, division by zero, bad handle, deadlock).
    Failed(Vec<FailureKind>),
}

/// What a whole enumeration did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AxSummary {
    pub stats: Stats,
    pub bounds: Vec<BoundHit>,
}

/// The program a model's axioms judge: unrolled, and for the hardware
/// models compiled with the mapping. Event instructions refer to it.
pub fn prepare(program: &Program, model: AxModel, opts: &AxOptions) -> Result<Program, AxError> {
    prepare_for(program, model_target(model), opts)
}

/// The compilation target of the program `model` judges (`None`: the
/// program as written, for the C11 models).
pub(crate) fn model_target(model: AxModel) -> Option<Target> {
    model.row().target.hardware()
}

/// The program unrolled as `opts` says, and compiled for `target`.
pub(crate) fn prepare_for(
    program: &Program,
    target: Option<Target>,
    opts: &AxOptions,
) -> Result<Program, AxError> {
    // A herd C program runs in herd's C semantics, under C models only.
    if program.c.is_some() && target.is_some() {
        return Err(AxError::HerdSemantics);
    }
    let unrolled = match (program.first_loop(), opts.unroll) {
        (None, _) => program.clone(),
        (Some((thread, at)), None) => return Err(AxError::HasLoops { thread, at }),
        (Some(_), Some(k)) => unroll(program, k),
    };
    Ok(match target {
        Some(target) => compile(&unrolled, target, opts.mapping),
        None => unrolled,
    })
}

/// Does `model` accept the execution? For the C11 models an execution
/// without `sc` is accepted when some SC order makes it consistent; with
/// `sc` given, that order is checked.
pub fn check(model: AxModel, ex: &Execution) -> Result<(), Rejection> {
    check_with_order(model, ex).map(|_| ())
}

/// What a model says of an execution it accepts.
#[derive(Debug)]
pub(crate) struct Accepted {
    /// The SC order found (the C11 models but RC11).
    pub sc: Option<Vec<EventId>>,
    /// The model's happens-before, for the models that have one (the C11
    /// models): it bounds observer reads' sources
    /// ([`super::observers`]) and decides races.
    pub hb: Option<Relation>,
}

/// [`check`], also returning what the model found: the model's axioms,
/// as its registry row holds them.
pub(crate) fn check_with_order(model: AxModel, ex: &Execution) -> Result<Accepted, Rejection> {
    (model.row().axioms)(ex)
}

/// Calls `visit` on every consistent execution of `program` under `model`
/// (the execution with its SC order filled in, how it ends, and its data
/// races for the C11 models), in a deterministic order.
pub fn visit_consistent(
    program: &Program,
    model: AxModel,
    opts: &AxOptions,
    visit: &mut dyn FnMut(&Execution, &ExecutionEnd, &[Race]),
) -> Result<AxSummary, AxError> {
    let mut summaries =
        visit_consistent_many(program, &[model], opts, &mut |_, ex, end, races| {
            visit(ex, end, races)
        })?;
    Ok(summaries.remove(0))
}

/// What [`visit_consistent_many`] calls: the model's index in `models`,
/// the execution, how it ends, its races.
pub type VisitMany<'f> = dyn FnMut(usize, &Execution, &ExecutionEnd, &[Race]) + 'f;

/// [`visit_consistent`] for several models at once: the candidates of
/// each group of models judging the same prepared program (the four C11
/// models; `ax.pso` and `ax.pslo`) are enumerated once and checked against
/// every model of the group. `visit` gets the model's index in `models`;
/// each model sees its executions in the order [`visit_consistent`] gives,
/// and gets the summary it would give.
pub fn visit_consistent_many(
    program: &Program,
    models: &[AxModel],
    opts: &AxOptions,
    visit: &mut VisitMany<'_>,
) -> Result<Vec<AxSummary>, AxError> {
    let mut ex = None::<Execution>;
    let mut values = Vec::new();
    for_each_consistent(
        program,
        models,
        opts,
        Split::Observers,
        &mut |j, found, _| {
            let ex = ex.get_or_insert_with(|| found.cand.exec.clone());
            found.build(ex);
            let end = match found.end {
                End::Outcome(id) => {
                    found.outcomes.values(id, &mut values);
                    ExecutionEnd::Outcome(values.clone())
                }
                End::Failed(kinds) => ExecutionEnd::Failed(kinds.to_vec()),
            };
            visit(j, ex, &end, found.races);
        },
    )
}

/// Every consistent execution that ends with an outcome, with it.
pub fn consistent_executions(
    program: &Program,
    model: AxModel,
    opts: &AxOptions,
) -> Result<Vec<(Execution, Vec<Value>)>, AxError> {
    let mut out = Vec::new();
    visit_consistent(program, model, opts, &mut |ex, end, _| {
        if let ExecutionEnd::Outcome(values) = end {
            out.push((ex.clone(), values.clone()));
        }
    })?;
    Ok(out)
}

/// An outcome row being accumulated.
pub(crate) struct RowAcc {
    pub count: u64,
    pub all_racy: bool,
    pub all_non_sc: bool,
}

/// Runs `program` under the axiomatic `model` (see the module docs).
pub fn run_axiomatic(
    program: &Program,
    model: AxModel,
    opts: &AxOptions,
) -> Result<OutcomeTable, AxError> {
    Ok(run_axiomatic_many(program, &[model], opts)?.remove(0))
}

/// What one model's table accumulates: rows by outcome id (ids may
/// repeat an outcome, see `outcome_ids`), merged by value at the end.
#[derive(Default)]
pub(crate) struct TableAcc {
    pub rows: Vec<Option<(Vec<Value>, RowAcc)>>,
    pub failures: BTreeMap<FailureKind, u64>,
    pub races: Vec<Race>,
    /// The cat `flag` checks that fired on some execution.
    pub flags: std::collections::BTreeSet<String>,
    /// Under a cat model, did some execution fail an `undefined_unless`
    /// check ([`OutcomeTable::undefined_by_cat`])?
    pub undefined_by_cat: Option<bool>,
}

/// [`run_axiomatic`] for several models, sharing candidate enumeration
/// where their prepared programs agree ([`visit_consistent_many`]): one
/// table per model, each equal to the one [`run_axiomatic`] gives.
/// Executions are counted without being built.
pub fn run_axiomatic_many(
    program: &Program,
    models: &[AxModel],
    opts: &AxOptions,
) -> Result<Vec<OutcomeTable>, AxError> {
    tabulate(program, models, opts, Split::Observers)
}

/// [`run_axiomatic`] without the engine's splitting of candidates: every
/// read's value enumerated by the thread paths, every candidate built and
/// checked whole. The tests compare the engine against it; it gives the
/// same table, more slowly.
#[doc(hidden)]
pub fn run_axiomatic_whole(
    program: &Program,
    model: AxModel,
    opts: &AxOptions,
) -> Result<OutcomeTable, AxError> {
    Ok(tabulate(program, &[model], opts, Split::Whole)?.remove(0))
}

/// The tables of [`run_axiomatic_many`], candidates split as `split` says.
pub(crate) fn tabulate(
    program: &Program,
    models: &[AxModel],
    opts: &AxOptions,
    split: Split,
) -> Result<Vec<OutcomeTable>, AxError> {
    let mut accs: Vec<TableAcc> = models.iter().map(|_| TableAcc::default()).collect();
    let summaries = for_each_consistent(program, models, opts, split, &mut |j, found, marks| {
        let acc = &mut accs[j];
        if found.first {
            acc.races.extend_from_slice(found.races);
        }
        match found.end {
            End::Outcome(id) => {
                let i = id as usize;
                if acc.rows.len() <= i {
                    acc.rows.resize_with(i + 1, || None);
                }
                let (_, row) = acc.rows[i].get_or_insert_with(|| {
                    let mut values = Vec::new();
                    found.outcomes.values(id, &mut values);
                    let row = RowAcc {
                        count: 0,
                        all_racy: true,
                        all_non_sc: true,
                    };
                    (values, row)
                });
                row.count += 1;
                row.all_racy &= !found.races.is_empty();
                // A row is non-SC when none of its executions is SC: once
                // one is, the others need no check.
                if row.all_non_sc && marks.is_sc(found) {
                    row.all_non_sc = false;
                }
            }
            End::Failed(kinds) => {
                for kind in kinds {
                    *acc.failures.entry(kind.clone()).or_insert(0) += 1;
                }
            }
        }
    })?;
    Ok(models
        .iter()
        .zip(accs)
        .zip(summaries)
        .map(|((model, acc), summary)| table(program, format!("ax.{}", model.name()), acc, summary))
        .collect())
}

/// One judge's [`OutcomeTable`], `model` its name.
pub(crate) fn table(
    program: &Program,
    model: String,
    acc: TableAcc,
    summary: AxSummary,
) -> OutcomeTable {
    let mut races = acc.races;
    races.sort();
    races.dedup();
    // Merge the rows of ids spelling the same outcome: counts add up, the
    // marks hold when they hold for every execution.
    let mut sorted: Vec<(Vec<Value>, RowAcc)> = acc.rows.into_iter().flatten().collect();
    let keys: Option<Vec<u128>> = sorted.iter().map(|(v, _)| packed(v)).collect();
    match keys {
        Some(keys) => {
            let mut order: Vec<(u128, usize)> = keys.into_iter().zip(0..).collect();
            order.sort_unstable();
            let mut slots: Vec<Option<(Vec<Value>, RowAcc)>> =
                sorted.into_iter().map(Some).collect();
            sorted = order
                .into_iter()
                .filter_map(|(_, i)| slots[i].take())
                .collect();
        }
        None => sorted.sort_unstable_by(|a, b| a.0.cmp(&b.0)),
    }
    let columns = ColumnIndex::new(program);
    let mut rows: Vec<OutcomeRow> = Vec::with_capacity(sorted.len());
    for (values, row) in sorted {
        if let Some(last) = rows.last_mut().filter(|r| r.values == values) {
            last.count += row.count;
            last.racy &= row.all_racy;
            last.non_sc &= row.all_non_sc;
            continue;
        }
        rows.push(OutcomeRow {
            satisfies: program
                .condition
                .as_ref()
                .map(|c| c.prop.eval(&|o| values[columns.of(o)])),
            values,
            count: row.count,
            racy: row.all_racy,
            non_sc: row.all_non_sc,
            witness: None,
        });
    }
    OutcomeTable {
        model,
        has_condition: program.condition.is_some(),
        rows,
        failures: acc
            .failures
            .into_iter()
            .map(|(kind, count)| Failure {
                kind,
                count,
                witness: None,
            })
            .collect(),
        races,
        race_witnesses: Vec::new(),
        flags: acc.flags.into_iter().collect(),
        undefined_by_cat: acc.undefined_by_cat,
        stats: summary.stats,
        bounds: summary.bounds,
    }
}

/// Outcome values as one number ordered as the values are, when there
/// are at most 8 of them, each in `0..2^16`.
fn packed(values: &[Value]) -> Option<u128> {
    if values.len() > 8 {
        return None;
    }
    let mut key = 0u128;
    for &v in values {
        let v = u16::try_from(v).ok()?;
        key = (key << 16) | u128::from(v);
    }
    Some(key)
}

/// The column of each observable in [`Program::observed`].
struct ColumnIndex {
    regs: Vec<Vec<usize>>,
    locs: Vec<usize>,
}

impl ColumnIndex {
    fn new(program: &Program) -> ColumnIndex {
        let mut index = ColumnIndex {
            regs: program
                .threads
                .iter()
                .map(|t| vec![usize::MAX; t.regs.len()])
                .collect(),
            locs: vec![usize::MAX; program.locations.len()],
        };
        for (col, o) in program.observed.iter().enumerate() {
            match *o {
                Observable::Reg(t, r) => index.regs[t.index()][r.index()] = col,
                Observable::Loc(l) => index.locs[l.index()] = col,
            }
        }
        index
    }

    /// The column of `o`, which the condition names, so it is observed.
    fn of(&self, o: Observable) -> usize {
        match o {
            Observable::Reg(t, r) => self.regs[t.index()][r.index()],
            Observable::Loc(l) => self.locs[l.index()],
        }
    }
}
