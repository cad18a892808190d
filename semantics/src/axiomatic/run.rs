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
//! times as many combinations of thread paths, or that many paths of one
//! thread) were reached; [`BoundHit::Unroll`] when some thread path was cut
//! by an `assume` the unrolling added. The latter is conservative: the cut
//! path may have needed values no consistent execution provides.

use std::collections::BTreeMap;

use super::c11;
use super::candidates::{final_values, for_each_candidate};
use super::execution::{AxError, EventId, Execution, Rejection};
use super::hardware;
use super::paths::{thread_paths, value_domains};
use super::unroll::unroll;
use crate::ir::{AxModel, Observable, Program, Value};
use crate::mapping::{compile, Mapping, Target};
use crate::model::Race;
use crate::outcome::{satisfies, BoundHit, Failure, FailureKind, OutcomeRow, OutcomeTable, Stats};

/// Options of an axiomatic run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AxOptions {
    /// Unroll loops this many times (`--unroll K`); `None` refuses programs
    /// with loops.
    pub unroll: Option<u32>,
    /// Stop after this many candidate executions (and cap the paths of each
    /// thread at it), reporting [`BoundHit::MaxCandidates`].
    pub max_candidates: u64,
    /// The compilation mapping for the hardware models (MODELS.md 2.5).
    pub mapping: Mapping,
}

impl Default for AxOptions {
    /// No unrolling, a million candidates (a few seconds at worst), the
    /// standard mapping.
    fn default() -> Self {
        AxOptions {
            unroll: None,
            max_candidates: 1_000_000,
            mapping: Mapping::Standard,
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
    let unrolled = match (program.has_loops(), opts.unroll) {
        (false, _) => program.clone(),
        (true, None) => return Err(AxError::HasLoops),
        (true, Some(k)) => unroll(program, k),
    };
    let target = match model {
        AxModel::Sc => Target::Sc,
        AxModel::Tso => Target::Tso,
        AxModel::Pso | AxModel::Pslo => Target::Pso,
        _ => return Ok(unrolled),
    };
    Ok(compile(&unrolled, target, opts.mapping))
}

/// Does `model` accept the execution? For the C11 models an execution
/// without `sc` is accepted when some SC order makes it consistent; with
/// `sc` given, that order is checked.
pub fn check(model: AxModel, ex: &Execution) -> Result<(), Rejection> {
    check_with_order(model, ex).map(|_| ())
}

/// [`check`], also returning the SC order found (C11 models but RC11).
fn check_with_order(model: AxModel, ex: &Execution) -> Result<Option<Vec<EventId>>, Rejection> {
    match model {
        AxModel::Sc => hardware::check_sc(ex).map(|()| None),
        AxModel::Tso => hardware::check_tso(ex).map(|()| None),
        AxModel::Pso => hardware::check_pso(ex).map(|()| None),
        AxModel::Pslo => hardware::check_pslo(ex).map(|()| None),
        AxModel::C11 | AxModel::Rc11 | AxModel::C11r | AxModel::C11t => c11::check_c11(model, ex),
    }
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
    let prepared = prepare(program, model, opts)?;
    let max = opts.max_candidates.max(1);
    let domains = value_domains(&prepared, max);
    let paths = thread_paths(&prepared, &domains, max);
    let mut consistent = 0u64;
    let counters = for_each_candidate(&prepared, &paths, max, &mut |ex, skeleton| {
        let Ok(sc) = check_with_order(model, ex) else {
            return;
        };
        let end = if skeleton.failures.is_empty() {
            let values = outcome_values(&prepared, ex, &skeleton.regs);
            let kept = match &prepared.filter {
                Some(filter) => satisfies(&prepared, filter, &values),
                None => true,
            };
            if !kept {
                return;
            }
            ExecutionEnd::Outcome(values)
        } else {
            ExecutionEnd::Failed(skeleton.failures.clone())
        };
        consistent += 1;
        let races = if model.is_c11() {
            c11::races(ex, model)
        } else {
            Vec::new()
        };
        if sc.is_some() {
            let mut ex = ex.clone();
            ex.sc = sc;
            visit(&ex, &end, &races);
        } else {
            visit(ex, &end, &races);
        }
    })?;
    let mut bounds = Vec::new();
    if counters.truncated || paths.truncated {
        bounds.push(BoundHit::MaxCandidates(counters.candidates));
    }
    if let (true, Some(k)) = (paths.unroll_cut, opts.unroll) {
        bounds.push(BoundHit::Unroll(k));
    }
    Ok(AxSummary {
        stats: Stats {
            states: counters.candidates,
            transitions: consistent,
        },
        bounds,
    })
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

/// The final values of the observed registers and locations.
fn outcome_values(program: &Program, ex: &Execution, regs: &[Option<Vec<Value>>]) -> Vec<Value> {
    let locs = final_values(ex, program.locations.len());
    program
        .observed
        .iter()
        .map(|o| match *o {
            Observable::Reg(t, r) => regs
                .get(t.index())
                .and_then(|r0| r0.as_ref())
                .and_then(|rs| rs.get(r.index()).copied())
                .unwrap_or(0),
            Observable::Loc(l) => locs.get(l.index()).copied().unwrap_or(0),
        })
        .collect()
}

/// An outcome row being accumulated.
#[derive(Default)]
struct RowAcc {
    count: u64,
    all_racy: bool,
    all_non_sc: bool,
}

/// Runs `program` under the axiomatic `model` (see the module docs).
pub fn run_axiomatic(
    program: &Program,
    model: AxModel,
    opts: &AxOptions,
) -> Result<OutcomeTable, AxError> {
    let mut rows: BTreeMap<Vec<Value>, RowAcc> = BTreeMap::new();
    let mut failures: BTreeMap<FailureKind, u64> = BTreeMap::new();
    let mut races: Vec<Race> = Vec::new();
    let summary = visit_consistent(program, model, opts, &mut |ex, end, found| {
        races.extend_from_slice(found);
        match end {
            ExecutionEnd::Outcome(values) => {
                let non_sc = hardware::check_sc(ex).is_err();
                let acc = rows.entry(values.clone()).or_insert(RowAcc {
                    count: 0,
                    all_racy: true,
                    all_non_sc: true,
                });
                acc.count += 1;
                acc.all_racy &= !found.is_empty();
                acc.all_non_sc &= non_sc;
            }
            ExecutionEnd::Failed(kinds) => {
                for kind in kinds {
                    *failures.entry(kind.clone()).or_insert(0) += 1;
                }
            }
        }
    })?;
    races.sort();
    races.dedup();
    let rows = rows
        .into_iter()
        .map(|(values, acc)| OutcomeRow {
            satisfies: program
                .condition
                .as_ref()
                .map(|c| satisfies(program, &c.prop, &values)),
            values,
            count: acc.count,
            racy: acc.all_racy,
            non_sc: acc.all_non_sc,
            witness: None,
        })
        .collect();
    Ok(OutcomeTable {
        model: format!("ax.{}", model.name()),
        rows,
        failures: failures
            .into_iter()
            .map(|(kind, count)| Failure {
                kind,
                count,
                witness: None,
            })
            .collect(),
        races,
        race_witnesses: Vec::new(),
        stats: summary.stats,
        bounds: summary.bounds,
    })
}
