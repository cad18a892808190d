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
use std::sync::Arc;

use super::c11;
use super::candidates::{final_values, for_each_candidate};
use super::cat::{CatModel, Machine, Verdict};
use super::execution::{AxError, EventId, Execution, Rejection};
use super::hardware;
use super::paths::{thread_paths, value_domains};
use super::relation::Relation;
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

/// What judges candidate executions: a hand-written model, or a cat
/// model compiled by the front end. A cat model plugs in where a
/// hand-written model's consistency check does.
#[derive(Clone, Debug)]
pub enum Judge {
    Model(AxModel),
    Cat(Arc<CatModel>),
}

impl Judge {
    /// The compilation target of the program it judges.
    fn target(&self) -> Option<Target> {
        match self {
            Judge::Model(AxModel::Sc) => Some(Target::Sc),
            Judge::Model(AxModel::Tso) => Some(Target::Tso),
            Judge::Model(AxModel::Pso | AxModel::Pslo) => Some(Target::Pso),
            Judge::Model(_) => None,
            Judge::Cat(m) => m.arch.target(),
        }
    }

    /// The name its table carries: `ax.tso`, or `cat:` and the cat
    /// model's name.
    pub fn label(&self) -> String {
        match self {
            Judge::Model(m) => format!("ax.{}", m.name()),
            Judge::Cat(m) => format!("cat:{}", m.name),
        }
    }
}

/// What a judge says of a consistent execution besides accepting it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Judged {
    /// Its data races: found by the C11 models, or the pairs of accesses
    /// to one location from two threads in a cat model's fired flags.
    pub races: Vec<Race>,
    /// A C11 model found a race, or a cat model's flag fired: the
    /// execution's outcome is reported as racy (undefined).
    pub flagged: bool,
    /// The names of the cat flags that fired.
    pub flags: Vec<String>,
    /// The relations the cat model `show`s, when asked for.
    pub shown: Vec<(String, Relation)>,
}

/// The program a model's axioms judge: unrolled, and for the hardware
/// models compiled with the mapping. Event instructions refer to it.
pub fn prepare(program: &Program, model: AxModel, opts: &AxOptions) -> Result<Program, AxError> {
    prepare_judge(program, &Judge::Model(model), opts)
}

/// [`prepare`] for any judge: a cat model's program is compiled for the
/// architecture its title names.
pub fn prepare_judge(
    program: &Program,
    judge: &Judge,
    opts: &AxOptions,
) -> Result<Program, AxError> {
    let unrolled = match (program.has_loops(), opts.unroll) {
        (false, _) => program.clone(),
        (true, None) => return Err(AxError::HasLoops),
        (true, Some(k)) => unroll(program, k),
    };
    match judge.target() {
        Some(target) => Ok(compile(&unrolled, target, opts.mapping)),
        None => Ok(unrolled),
    }
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
    let mut summaries =
        visit_consistent_many(program, &[model], opts, &mut |_, ex, end, races| {
            visit(ex, end, races)
        })?;
    Ok(summaries.remove(0))
}

/// The program every judge of a group judges: judges whose [`prepare`]d
/// programs are equal share one candidate enumeration.
fn target_group(judge: &Judge) -> u8 {
    match judge.target() {
        Some(Target::Sc) => 0,
        Some(Target::Tso) => 1,
        Some(Target::Pso) => 2,
        None => 3,
    }
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
    let judges: Vec<Judge> = models.iter().map(|&m| Judge::Model(m)).collect();
    visit_judged(program, &judges, opts, false, &mut |j, ex, end, judged| {
        visit(j, ex, end, &judged.races)
    })
}

/// What [`visit_judged`] calls: the judge's index, the execution, how it
/// ends, what the judge said of it.
pub type VisitJudged<'f> = dyn FnMut(usize, &Execution, &ExecutionEnd, &Judged) + 'f;

/// [`visit_consistent_many`] for any judges, hand-written or cat. With
/// `shows`, each accepted execution comes with the relations its cat
/// model shows. A cat model whose `with` search reaches its budget
/// (`max_candidates` choices for one execution) leaves that execution
/// undecided, reported as [`BoundHit::MaxCandidates`].
pub fn visit_judged(
    program: &Program,
    judges: &[Judge],
    opts: &AxOptions,
    shows: bool,
    visit: &mut VisitJudged<'_>,
) -> Result<Vec<AxSummary>, AxError> {
    let mut summaries: Vec<Option<AxSummary>> = vec![None; judges.len()];
    let max = opts.max_candidates.max(1);
    let mut machines: Vec<Option<Machine>> = judges
        .iter()
        .map(|j| match j {
            Judge::Cat(m) => Some(Machine::new(m, max)),
            Judge::Model(_) => None,
        })
        .collect();
    for i in 0..judges.len() {
        if summaries[i].is_some() {
            continue;
        }
        let group: Vec<usize> = (i..judges.len())
            .filter(|&j| {
                target_group(&judges[j]) == target_group(&judges[i]) && summaries[j].is_none()
            })
            .collect();
        let prepared = prepare_judge(program, &judges[i], opts)?;
        let domains = value_domains(&prepared, max);
        let paths = thread_paths(&prepared, &domains, max);
        let mut consistent = vec![0u64; group.len()];
        let mut undecided = vec![false; group.len()];
        let counters = for_each_candidate(&prepared, &paths, max, &mut |ex, skeleton| {
            // How the candidate ends does not depend on the model.
            let mut end: Option<Option<ExecutionEnd>> = None;
            for (k, &j) in group.iter().enumerate() {
                let (sc, mut judged) = match (&judges[j], &mut machines[j]) {
                    (Judge::Model(model), _) => {
                        let Ok(sc) = check_with_order(*model, ex) else {
                            continue;
                        };
                        (sc, None)
                    }
                    (Judge::Cat(_), Some(machine)) => match machine.judge(&prepared, ex) {
                        Verdict::Accepted(fired) => (None, Some(cat_judged(ex, fired))),
                        Verdict::Rejected(_) => continue,
                        Verdict::Undetermined => {
                            undecided[k] = true;
                            continue;
                        }
                    },
                    (Judge::Cat(_), None) => continue,
                };
                let end = end.get_or_insert_with(|| execution_end(&prepared, ex, skeleton));
                let Some(end) = end else {
                    continue;
                };
                consistent[k] += 1;
                let judged = match (&judges[j], judged.take()) {
                    (Judge::Model(model), _) => {
                        let races = if model.is_c11() {
                            c11::races(ex, *model)
                        } else {
                            Vec::new()
                        };
                        Judged {
                            flagged: !races.is_empty(),
                            races,
                            ..Judged::default()
                        }
                    }
                    (Judge::Cat(_), Some(mut judged)) => {
                        if let (true, Some(machine)) = (shows, &mut machines[j]) {
                            judged.shown = machine.shown(ex);
                        }
                        judged
                    }
                    (Judge::Cat(_), None) => Judged::default(),
                };
                if sc.is_some() {
                    let mut ex = ex.clone();
                    ex.sc = sc;
                    visit(j, &ex, end, &judged);
                } else {
                    visit(j, ex, end, &judged);
                }
            }
        })?;
        for (k, &j) in group.iter().enumerate() {
            let mut bounds = Vec::new();
            if counters.truncated || paths.truncated || undecided[k] {
                bounds.push(BoundHit::MaxCandidates(counters.candidates));
            }
            if let (true, Some(u)) = (paths.unroll_cut, opts.unroll) {
                bounds.push(BoundHit::Unroll(u));
            }
            summaries[j] = Some(AxSummary {
                stats: Stats {
                    states: counters.candidates,
                    transitions: consistent[k],
                },
                bounds,
            });
        }
    }
    Ok(summaries
        .into_iter()
        .map(|s| s.expect("every model visited"))
        .collect())
}

/// What a cat model's fired flags say: the pairs that are two accesses to
/// one location from different threads are races.
fn cat_judged(ex: &Execution, fired: Vec<super::cat::Fired>) -> Judged {
    let mut races = Vec::new();
    for f in &fired {
        for &(a, b) in &f.pairs {
            let (ea, eb) = (&ex.events[a.index()], &ex.events[b.index()]);
            let two_threads = ea.thread.is_some() && eb.thread.is_some() && ea.thread != eb.thread;
            if two_threads && ea.loc().is_some() && ea.loc() == eb.loc() {
                races.extend(c11::race_of(ea, eb));
            }
        }
    }
    races.sort();
    races.dedup();
    Judged {
        races,
        flagged: !fired.is_empty(),
        flags: fired.into_iter().map(|f| f.name).collect(),
        shown: Vec::new(),
    }
}

/// How a candidate ends: its outcome, or its failures; `None` when the
/// program's `filter` drops the outcome.
fn execution_end(
    prepared: &Program,
    ex: &Execution,
    skeleton: &super::candidates::Skeleton,
) -> Option<ExecutionEnd> {
    if !skeleton.failures.is_empty() {
        return Some(ExecutionEnd::Failed(skeleton.failures.clone()));
    }
    let values = outcome_values(prepared, ex, &skeleton.regs);
    let kept = match &prepared.filter {
        Some(filter) => satisfies(prepared, filter, &values),
        None => true,
    };
    kept.then_some(ExecutionEnd::Outcome(values))
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
    Ok(run_axiomatic_many(program, &[model], opts)?.remove(0))
}

/// What one model's table accumulates.
#[derive(Default)]
struct TableAcc {
    rows: BTreeMap<Vec<Value>, RowAcc>,
    failures: BTreeMap<FailureKind, u64>,
    races: Vec<Race>,
}

/// [`run_axiomatic`] for several models, sharing candidate enumeration
/// where their prepared programs agree ([`visit_consistent_many`]): one
/// table per model, each equal to the one [`run_axiomatic`] gives.
pub fn run_axiomatic_many(
    program: &Program,
    models: &[AxModel],
    opts: &AxOptions,
) -> Result<Vec<OutcomeTable>, AxError> {
    let judges: Vec<Judge> = models.iter().map(|&m| Judge::Model(m)).collect();
    run_judges(program, &judges, opts)
}

/// Runs `program` under a cat model.
pub fn run_cat(
    program: &Program,
    model: &Arc<CatModel>,
    opts: &AxOptions,
) -> Result<OutcomeTable, AxError> {
    Ok(run_judges(program, &[Judge::Cat(model.clone())], opts)?.remove(0))
}

/// [`run_axiomatic_many`] for any judges: one table per judge.
pub fn run_judges(
    program: &Program,
    judges: &[Judge],
    opts: &AxOptions,
) -> Result<Vec<OutcomeTable>, AxError> {
    let mut accs: Vec<TableAcc> = judges.iter().map(|_| TableAcc::default()).collect();
    let summaries = visit_judged(program, judges, opts, false, &mut |j, ex, end, judged| {
        let acc = &mut accs[j];
        acc.races.extend_from_slice(&judged.races);
        match end {
            ExecutionEnd::Outcome(values) => {
                let non_sc = hardware::check_sc(ex).is_err();
                let row = acc.rows.entry(values.clone()).or_insert(RowAcc {
                    count: 0,
                    all_racy: true,
                    all_non_sc: true,
                });
                row.count += 1;
                row.all_racy &= judged.flagged;
                row.all_non_sc &= non_sc;
            }
            ExecutionEnd::Failed(kinds) => {
                for kind in kinds {
                    *acc.failures.entry(kind.clone()).or_insert(0) += 1;
                }
            }
        }
    })?;
    Ok(judges
        .iter()
        .zip(accs)
        .zip(summaries)
        .map(|((judge, acc), summary)| table(program, judge.label(), acc, summary))
        .collect())
}

/// One model's [`OutcomeTable`].
fn table(program: &Program, model: String, acc: TableAcc, summary: AxSummary) -> OutcomeTable {
    let mut races = acc.races;
    races.sort();
    races.dedup();
    let rows = acc
        .rows
        .into_iter()
        .map(|(values, row)| OutcomeRow {
            satisfies: program
                .condition
                .as_ref()
                .map(|c| satisfies(program, &c.prop, &values)),
            values,
            count: row.count,
            racy: row.all_racy,
            non_sc: row.all_non_sc,
            witness: None,
        })
        .collect();
    OutcomeTable {
        model,
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
        stats: summary.stats,
        bounds: summary.bounds,
    }
}
