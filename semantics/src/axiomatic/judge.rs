//! Judges of candidate executions: the hand-written models, and models in
//! herd7's cat language compiled by the front end ([`super::cat`]).
//!
//! A hand-written model goes through the engine's loop
//! ([`super::consistent`]): free reads left to `rf`, observer reads split
//! off the C11 models' cores. A cat model may read any relation of an
//! execution, so neither split is sound for it: it judges whole
//! candidates, every read's value enumerated by the thread paths
//! ([`FreeReads::Branch`]) and no observers, as [`run_axiomatic_whole`]
//! does for the hand-written models. Both loops poll the run's
//! [`AxOptions::budget`] every [`super::run::BUDGET_POLL`] candidates, so
//! Ctrl-C, `--timeout` and `--max-memory` stop a cat run too.
//!
//! [`run_axiomatic_whole`]: super::run::run_axiomatic_whole

use std::collections::BTreeMap;
use std::sync::Arc;

use super::axioms::c11;
use super::axioms::hardware;
use super::candidates::{for_each_candidate, CoSource};
use super::cat::{Accepted, CatModel, CheckKind, Machine, Verdict};
use super::consistent::{outcome_values, Split};
use super::execution::{AxError, Execution};
use super::paths::{thread_paths, value_domains, FreeReads};
use super::relation::Relation;
use super::run::{
    model_target, prepare_for, table, tabulate, visit_consistent_many, AxOptions, AxSummary,
    ExecutionEnd, RowAcc, TableAcc,
};
use crate::csem::paths::{c_thread_paths, c_value_domains};
use crate::ir::{AxModel, Observable, Program, Value};
use crate::mapping::Target;
use crate::model::Race;
use crate::outcome::{satisfies, BoundHit, OutcomeTable, Stats};

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
            Judge::Model(m) => model_target(*m),
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
    /// A C11 model found a race, or a cat model's `undefined_unless` check
    /// failed: herd7 calls the execution undefined (`Undef`), where a
    /// fired `flag` only names itself.
    pub undefined: bool,
    /// The names of the cat model's `flag` checks that fired (herd7's
    /// `Flag` lines).
    pub flags: Vec<String>,
    /// The relations the cat model `show`s, when asked for.
    pub shown: Vec<(String, Relation)>,
    /// How many executions the candidate stands for: 1, or for a cat
    /// model, its passing choices of counted `with`s (herd7 counts each
    /// coherence order a model generates).
    pub count: u64,
}

/// The program a judge judges: unrolled, and compiled for the
/// architecture its model (or a cat model's title) names.
pub fn prepare_judge(
    program: &Program,
    judge: &Judge,
    opts: &AxOptions,
) -> Result<Program, AxError> {
    prepare_for(program, judge.target(), opts)
}

/// What [`visit_judged`] calls: the judge's index, the execution, how it
/// ends, what the judge said of it.
pub type VisitJudged<'f> = dyn FnMut(usize, &Execution, &ExecutionEnd, &Judged) + 'f;

/// [`super::visit_consistent_many`] for any judges, hand-written or cat.
/// With `shows`, each accepted execution comes with the relations its cat
/// model shows. A cat model whose `with` search reaches its budget
/// (`max_candidates` choices for one execution) leaves that execution
/// undecided, reported as [`BoundHit::MaxCandidates`]. Each judge sees its
/// executions in a deterministic order (the hand-written models' first).
pub fn visit_judged(
    program: &Program,
    judges: &[Judge],
    opts: &AxOptions,
    shows: bool,
    visit: &mut VisitJudged<'_>,
) -> Result<Vec<AxSummary>, AxError> {
    let (models, cats) = split_judges(judges);
    let mut summaries: Vec<Option<AxSummary>> = vec![None; judges.len()];
    if !models.is_empty() {
        let ms: Vec<AxModel> = models.iter().map(|&(_, m)| m).collect();
        let found = visit_consistent_many(program, &ms, opts, &mut |k, ex, end, races| {
            let judged = Judged {
                races: races.to_vec(),
                flagged: !races.is_empty(),
                undefined: !races.is_empty(),
                count: 1,
                ..Judged::default()
            };
            visit(models[k].0, ex, end, &judged);
        })?;
        for (&(j, _), s) in models.iter().zip(found) {
            summaries[j] = Some(s);
        }
    }
    for (j, s) in for_each_cat_execution(program, &cats, opts, shows, visit)? {
        summaries[j] = Some(s);
    }
    Ok(summaries
        .into_iter()
        .map(|s| s.expect("every judge visited"))
        .collect())
}

/// Runs `program` under a cat model.
pub fn run_cat(
    program: &Program,
    model: &Arc<CatModel>,
    opts: &AxOptions,
) -> Result<OutcomeTable, AxError> {
    Ok(run_judges(program, &[Judge::Cat(model.clone())], opts)?.remove(0))
}

/// [`super::run_axiomatic_many`] for any judges: one table per judge. The
/// hand-written models are tabulated by the engine's loop, the cat models
/// on whole candidates.
pub fn run_judges(
    program: &Program,
    judges: &[Judge],
    opts: &AxOptions,
) -> Result<Vec<OutcomeTable>, AxError> {
    let (models, cats) = split_judges(judges);
    let mut tables: Vec<Option<OutcomeTable>> = vec![None; judges.len()];
    if !models.is_empty() {
        let ms: Vec<AxModel> = models.iter().map(|&(_, m)| m).collect();
        let found = tabulate(program, &ms, opts, Split::Observers)?;
        for (&(j, _), t) in models.iter().zip(found) {
            tables[j] = Some(t);
        }
    }
    if !cats.is_empty() {
        let mut accs: Vec<(BTreeMap<Vec<Value>, RowAcc>, TableAcc)> = judges
            .iter()
            .map(|_| {
                let acc = TableAcc {
                    undefined_by_cat: Some(false),
                    ..TableAcc::default()
                };
                (BTreeMap::new(), acc)
            })
            .collect();
        let summaries =
            for_each_cat_execution(program, &cats, opts, false, &mut |j, ex, end, judged| {
                let (rows, acc) = &mut accs[j];
                acc.races.extend_from_slice(&judged.races);
                acc.flags.extend(judged.flags.iter().cloned());
                if judged.undefined {
                    acc.undefined_by_cat = Some(true);
                }
                match end {
                    ExecutionEnd::Outcome(values) => {
                        let row = rows.entry(values.clone()).or_insert(RowAcc {
                            count: 0,
                            all_racy: true,
                            all_non_sc: true,
                        });
                        row.count += judged.count;
                        row.all_racy &= judged.flagged;
                        // Once one execution of the row is SC, the others
                        // need no check.
                        if row.all_non_sc && hardware::check_sc(ex).is_ok() {
                            row.all_non_sc = false;
                        }
                    }
                    ExecutionEnd::Failed(kinds) => {
                        for kind in kinds {
                            *acc.failures.entry(kind.clone()).or_insert(0) += 1;
                        }
                    }
                }
            })?;
        for (j, summary) in summaries {
            let (rows, mut acc) = std::mem::take(&mut accs[j]);
            acc.rows = rows.into_iter().map(Some).collect();
            tables[j] = Some(table(program, judges[j].label(), acc, summary));
        }
    }
    Ok(tables
        .into_iter()
        .map(|t| t.expect("every judge tabulated"))
        .collect())
}

/// The hand-written models and the cat models of `judges`, each with its
/// index.
type ByKind = (Vec<(usize, AxModel)>, Vec<(usize, Arc<CatModel>)>);

fn split_judges(judges: &[Judge]) -> ByKind {
    let mut models = Vec::new();
    let mut cats = Vec::new();
    for (j, judge) in judges.iter().enumerate() {
        match judge {
            Judge::Model(m) => models.push((j, *m)),
            Judge::Cat(c) => cats.push((j, c.clone())),
        }
    }
    (models, cats)
}

/// Enumerates the whole candidates of each group of `cats` judging the
/// same prepared program once, judges each against each cat model of the
/// group, and calls `visit` on every consistent execution whose outcome the
/// program's `filter` keeps (or that fails), with the judge's index.
/// Returns each cat model's index and summary.
fn for_each_cat_execution(
    program: &Program,
    cats: &[(usize, Arc<CatModel>)],
    opts: &AxOptions,
    shows: bool,
    visit: &mut VisitJudged<'_>,
) -> Result<Vec<(usize, AxSummary)>, AxError> {
    let max = opts.max_candidates.max(1);
    let mut machines: Vec<Machine> = cats.iter().map(|(_, m)| Machine::new(m, max)).collect();
    let mut done = vec![false; cats.len()];
    let mut summaries = Vec::with_capacity(cats.len());
    for i in 0..cats.len() {
        if done[i] {
            continue;
        }
        // Models judging the same candidates: the same compilation target,
        // and `co` chosen by the engine or by the model alike.
        let key = |k: usize| (cats[k].1.arch.target(), cats[k].1.chooses_co);
        let target = cats[i].1.arch.target();
        let group: Vec<usize> = (i..cats.len())
            .filter(|&k| !done[k] && key(k) == key(i))
            .collect();
        for &k in &group {
            done[k] = true;
        }
        let prepared = prepare_for(program, target, opts)?;
        let paths = match &prepared.c {
            Some(c) => {
                let domains = c_value_domains(&prepared, c, max);
                c_thread_paths(&prepared, c, &domains, max)?
            }
            None => {
                let domains = value_domains(&prepared, max);
                thread_paths(&prepared, &domains, max, FreeReads::Branch)
            }
        };
        let co = if cats[i].1.chooses_co {
            CoSource::Model {
                observed: observed_locations(&prepared),
            }
        } else {
            CoSource::Engine
        };
        let mut consistent = vec![0u64; group.len()];
        let mut undecided = vec![false; group.len()];
        let mut unsettled = vec![0u64; group.len()];
        let counters = for_each_candidate(
            &prepared,
            &paths,
            max,
            &opts.budget,
            &|_| 0,
            &co,
            &mut |cand| {
                let ex = cand.exec;
                // How the candidate ends does not depend on the model.
                let mut end: Option<Option<ExecutionEnd>> = None;
                for (g, &k) in group.iter().enumerate() {
                    let machine = &mut machines[k];
                    let mut judged = match machine.judge(&prepared, ex) {
                        Verdict::Accepted(acc) => cat_judged(ex, acc),
                        Verdict::Rejected(_) => continue,
                        Verdict::Undetermined => {
                            undecided[g] = true;
                            continue;
                        }
                        Verdict::Unsettled => {
                            unsettled[g] += 1;
                            continue;
                        }
                    };
                    let end = end.get_or_insert_with(|| {
                        execution_end(&prepared, ex, cand.regs, &cand.skeleton.failures)
                    });
                    let Some(end) = end else {
                        continue;
                    };
                    consistent[g] += judged.count;
                    if shows {
                        judged.shown = machine.shown(ex);
                    }
                    visit(cats[k].0, ex, end, &judged);
                }
            },
        )?;
        for (g, &k) in group.iter().enumerate() {
            let mut bounds = Vec::new();
            bounds.extend(counters.stopped);
            if counters.truncated || paths.truncated || undecided[g] {
                bounds.push(BoundHit::MaxCandidates(counters.candidates));
            }
            if unsettled[g] > 0 {
                bounds.push(BoundHit::Unsettled(unsettled[g]));
            }
            if let (true, Some(u)) = (paths.unroll_cut, opts.unroll) {
                bounds.push(BoundHit::Unroll(u));
            }
            summaries.push((
                cats[k].0,
                AxSummary {
                    stats: Stats {
                        states: counters.candidates,
                        transitions: consistent[g],
                    },
                    bounds,
                },
            ));
        }
    }
    Ok(summaries)
}

/// How a whole candidate ends: its failures, or its outcome when the
/// program's `filter` keeps it (`None` when it does not).
fn execution_end(
    prepared: &Program,
    ex: &Execution,
    regs: &[Option<Vec<Value>>],
    failures: &[crate::outcome::FailureKind],
) -> Option<ExecutionEnd> {
    if !failures.is_empty() {
        return Some(ExecutionEnd::Failed(failures.to_vec()));
    }
    let values = outcome_values(prepared, ex, regs);
    let kept = match &prepared.filter {
        Some(filter) => satisfies(prepared, filter, &values),
        None => true,
    };
    kept.then_some(ExecutionEnd::Outcome(values))
}

/// The locations whose final value the test observes (its condition,
/// `locations` and filter): herd7 chooses a final write for these only.
fn observed_locations(program: &Program) -> Vec<bool> {
    let mut out = vec![false; program.locations.len()];
    let mut obs = program.observed.clone();
    if let Some(f) = &program.filter {
        f.observables(&mut obs);
    }
    for o in obs {
        if let Observable::Loc(l) = o {
            out[l.index()] = true;
        }
    }
    out
}

/// What a cat model's fired flags say: the pairs that are two accesses to
/// one location from different threads are races.
fn cat_judged(ex: &Execution, acc: Accepted) -> Judged {
    let Accepted {
        count,
        flagged,
        fired,
    } = acc;
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
        count,
        // Racy when every execution the candidate stands for fired.
        flagged: count > 0 && flagged == count,
        undefined: fired.iter().any(|f| f.kind == CheckKind::UndefinedUnless),
        flags: fired
            .into_iter()
            .filter(|f| f.kind == CheckKind::Flag)
            .map(|f| f.name)
            .collect(),
        shown: Vec::new(),
    }
}
