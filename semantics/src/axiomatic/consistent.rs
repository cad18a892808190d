//! The engine's loop: enumerate the candidates of a group of models once,
//! judge each core against each model of the group, and hand out every
//! consistent execution, its observers' sources chosen
//! ([`super::observers`]), without building it unless asked.
//!
//! The model dispatch is [`super::run::check_with_order`], called on each
//! core; a model's opt-in to observer reads is [`observer_reads`] and the
//! bound it puts on their sources [`observer_bound`]. A model without the
//! opt-in sees whole candidates, each checked on its own.

use super::axioms::c11;
use super::axioms::hardware;
use super::candidates::{final_values, for_each_candidate, set_read_value, Candidate, CoSource};
use super::execution::{AxError, EventId, Execution};
use super::observers::{Extensions, ScMarks, SequenceCache};
use super::outcome_ids::{OutcomeIds, NO_TUPLE};
use super::paths::{thread_paths, value_domains, FreeReads};
use super::relation::{EventSet, Relation};
use super::run::{check_with_order, prepare, AxOptions, AxSummary};
use super::skeleton::Skeleton;
use crate::ir::{AxModel, Observable, Program, Value};
use crate::model::Race;
use crate::outcome::{satisfies, BoundHit, FailureKind, Stats};

/// Models whose `prepare`d programs are equal (the same compilation
/// target) and that split observer reads alike share one candidate
/// enumeration (a model that splits none would keep its group's from
/// splitting theirs).
fn same_program(a: AxModel, b: AxModel) -> bool {
    let (a, b) = (a.row(), b.row());
    a.target == b.target && a.observers.is_some() == b.observers.is_some()
}

/// The observer reads of a skeleton that every model of `group` leaves to
/// coherence alone ([`super::observers`]); a model that does not opt in
/// (its row has no `observers`) has none.
fn observer_reads(group: &[AxModel], skeleton: &Skeleton) -> EventSet {
    if group.iter().all(|m| m.row().observers.is_some()) {
        c11::observer_reads(&skeleton.exec, skeleton.free)
    } else {
        0
    }
}

/// The relation whose predecessors bound an observer read's source under
/// `model`: coherence, `irreflexive(hb; eco?)`, with the model's `hb`.
fn observer_bound(model: AxModel, ex: &Execution) -> Relation {
    match model.row().observers {
        Some(hb) => hb(ex),
        None => unreachable!("relaxlab internal error: observers under a model without them"),
    }
}

/// How far the enumeration splits candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Split {
    /// Free reads left to `rf`, observer reads split off where every model
    /// of the group opts in: the engine.
    Observers,
    /// Every read's value enumerated by the paths and every candidate
    /// checked whole: the reference the engine is tested against.
    Whole,
}

/// How a consistent execution ends.
#[derive(Clone, Copy, Debug)]
pub(crate) enum End<'a> {
    /// Its outcome, by id in [`Found::outcomes`].
    Outcome(u32),
    Failed(&'a [FailureKind]),
}

/// A consistent execution as [`for_each_consistent`] finds it: a core the
/// model accepts and the sources of its observers.
pub(crate) struct Found<'a> {
    pub cand: &'a Candidate<'a>,
    /// Per observer group, the `co` positions of the sources.
    pub choice: &'a [&'a [usize]],
    pub end: End<'a>,
    /// The outcomes seen so far, [`End::Outcome`]'s among them.
    pub outcomes: &'a OutcomeIds,
    pub races: &'a [Race],
    /// The SC order found (the C11 models but RC11).
    pub sc: &'a Option<Vec<EventId>>,
    /// The first execution of this core for this model (those of one core
    /// share `races` and `sc`).
    pub first: bool,
}

impl Found<'_> {
    /// Writes the execution into `ex` (overwritten whole).
    pub(crate) fn build(&self, ex: &mut Execution) {
        let core = self.cand.exec;
        ex.clone_from(core);
        for (g, seq) in self.cand.observers.iter().zip(self.choice) {
            for (&r, &p) in g.reads.iter().zip(seq.iter()) {
                let w = g.writes[p];
                ex.rf.add_idx(w, r);
                let value = core.events[w].value().unwrap_or(0);
                set_read_value(&mut ex.events[r], value);
            }
        }
        ex.sc.clone_from(self.sc);
    }
}

/// The outcome columns of one core: its values with observers' registers
/// at 0, and per observer group the columns its reads' values go to.
struct Columns {
    base: Vec<Value>,
    /// Per group, (column, read index in the group).
    per_group: Vec<Vec<(usize, usize)>>,
}

impl Columns {
    fn new(prepared: &Program, cand: &Candidate<'_>) -> Columns {
        let base = outcome_values(prepared, cand.exec, cand.regs);
        let mut per_group = vec![Vec::new(); cand.observers.len()];
        for (col, o) in prepared.observed.iter().enumerate() {
            let Observable::Reg(t, r) = *o else { continue };
            let holder = cand
                .skeleton
                .free_regs
                .iter()
                .find(|&&(t2, r2, _)| t2 == t.index() && r2 == r);
            let Some(&(_, _, e)) = holder else { continue };
            for (gi, g) in cand.observers.iter().enumerate() {
                if let Some(i) = g.reads.iter().position(|&x| x == e) {
                    per_group[gi].push((col, i));
                }
            }
        }
        Columns { base, per_group }
    }

    /// Writes group `g`'s columns for its sources `seq` into `out`.
    fn fill_group(&self, cand: &Candidate<'_>, g: usize, seq: &[usize], out: &mut [Value]) {
        for &(col, i) in &self.per_group[g] {
            let w = cand.observers[g].writes[seq[i]];
            out[col] = cand.exec.events[w].value().unwrap_or(0);
        }
    }
}

/// The final values of the observed registers and locations.
pub(crate) fn outcome_values(
    program: &Program,
    ex: &Execution,
    regs: &[Option<Vec<Value>>],
) -> Vec<Value> {
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

/// The SC marks of the current core, computed when first asked for.
pub(crate) struct LazyMarks<'c, 'a> {
    cand: &'c Candidate<'a>,
    marks: Option<Option<ScMarks>>,
    /// An execution to build into when the marks cannot decide.
    scratch: Option<Execution>,
}

impl LazyMarks<'_, '_> {
    /// Is the execution `found` SC (`acyclic(po | com)` and atomicity,
    /// what `ax.sc` checks)?
    pub(crate) fn is_sc(&mut self, found: &Found<'_>) -> bool {
        let cand = self.cand;
        match self.marks.get_or_insert_with(|| ScMarks::new(cand)) {
            Some(marks) => marks.is_sc(found.choice),
            None => {
                let ex = self.scratch.get_or_insert_with(|| cand.exec.clone());
                found.build(ex);
                hardware::check_sc(ex).is_ok()
            }
        }
    }
}

/// What the loop keeps across candidates.
#[derive(Default)]
struct Outcomes {
    ids: OutcomeIds,
    /// Per outcome id: whether the program's `filter` keeps it (unknown
    /// until first needed).
    kept: Vec<Option<bool>>,
    buf: Vec<Value>,
}

impl Outcomes {
    /// Does the program's filter keep outcome `id`?
    fn keeps(&mut self, prepared: &Program, id: u32) -> bool {
        let Some(filter) = &prepared.filter else {
            return true;
        };
        let i = id as usize;
        if self.kept.len() <= i {
            self.kept.resize(i + 1, None);
        }
        if let Some(k) = self.kept[i] {
            return k;
        }
        self.ids.values(id, &mut self.buf);
        let k = satisfies(prepared, filter, &self.buf);
        self.kept[i] = Some(k);
        k
    }
}

/// Enumerates the candidates of each group of `models` once, checks each
/// core against each model of the group, and calls `f` on every consistent
/// execution whose outcome the program's `filter` keeps (or that fails),
/// in enumeration order, with the model's index and the core's SC marks.
/// Returns each model's summary: the candidates enumerated (observers'
/// uniproc choices included) and the executions `f` was called on.
/// Generic in `f`: it runs once per execution.
pub(crate) fn for_each_consistent<F>(
    program: &Program,
    models: &[AxModel],
    opts: &AxOptions,
    split: Split,
    f: &mut F,
) -> Result<Vec<AxSummary>, AxError>
where
    F: FnMut(usize, &Found<'_>, &mut LazyMarks<'_, '_>),
{
    // The hand-written models judge relaxlab's instructions.
    if program.c.is_some() {
        return Err(AxError::HerdSemantics);
    }
    let mut summaries: Vec<Option<AxSummary>> = vec![None; models.len()];
    let mut outcomes = Outcomes::default();
    let mut sequences = SequenceCache::default();
    let mut prefix = Vec::new();
    let mut group_values = Vec::new();
    for (i, &first) in models.iter().enumerate() {
        if summaries[i].is_some() {
            continue;
        }
        let group: Vec<usize> = (i..models.len())
            .filter(|&j| same_program(models[j], first) && summaries[j].is_none())
            .collect();
        let group_models: Vec<AxModel> = group.iter().map(|&j| models[j]).collect();
        let prepared = prepare(program, first, opts)?;
        let max = opts.max_candidates.max(1);
        let domains = value_domains(&prepared, max);
        let free_reads = match split {
            Split::Observers => FreeReads::ToRf,
            Split::Whole => FreeReads::Branch,
        };
        let paths = thread_paths(&prepared, &domains, max, free_reads);
        let mut consistent = vec![0u64; group.len()];
        let policy = |s: &Skeleton| match split {
            Split::Observers => observer_reads(&group_models, s),
            Split::Whole => 0,
        };
        let counters = for_each_candidate(
            &prepared,
            &paths,
            max,
            &opts.budget,
            &policy,
            &CoSource::Engine,
            &mut |cand| {
                let mut columns: Option<Columns> = None;
                let mut marks = LazyMarks {
                    cand,
                    marks: None,
                    scratch: None,
                };
                for (k, &j) in group.iter().enumerate() {
                    let model = models[j];
                    let Ok(accepted) = check_with_order(model, cand.exec) else {
                        continue;
                    };
                    let sc = accepted.sc;
                    // The C11 models' happens-before: their races, and the
                    // bound on their observers' sources.
                    let races = match &accepted.hb {
                        Some(hb) if model.row().races => c11::races_under(cand.exec, hb),
                        _ => Vec::new(),
                    };
                    let failures = &cand.skeleton.failures;
                    let columns = columns.get_or_insert_with(|| Columns::new(&prepared, cand));
                    let mut first = true;
                    // Reports one execution, its outcome id given.
                    let mut report = |outcomes: &mut Outcomes, id: u32, choice: &[&[usize]]| {
                        let end = if failures.is_empty() {
                            if !outcomes.keeps(&prepared, id) {
                                return;
                            }
                            End::Outcome(id)
                        } else {
                            End::Failed(failures)
                        };
                        consistent[k] += 1;
                        let found = Found {
                            cand,
                            choice,
                            end,
                            outcomes: &outcomes.ids,
                            races: &races,
                            sc: &sc,
                            first,
                        };
                        first = false;
                        f(j, &found, &mut marks);
                    };
                    if cand.observers.is_empty() {
                        let p = outcomes.ids.prefix(&columns.base);
                        let id = outcomes.ids.outcome(p, NO_TUPLE);
                        report(&mut outcomes, id, &[]);
                        continue;
                    }
                    let owned;
                    let bound = match &accepted.hb {
                        Some(hb) => hb,
                        None => {
                            owned = observer_bound(model, cand.exec);
                            &owned
                        }
                    };
                    let ext = Extensions::new(cand, bound, &mut sequences);
                    // The last group varies fastest: its tuples are interned
                    // once per sequence, the prefix once per choice of the
                    // groups before it.
                    let last = cand.observers.len() - 1;
                    let last_columns: Vec<usize> =
                        columns.per_group[last].iter().map(|&(c, _)| c).collect();
                    let mut tuples: Vec<Option<u32>> = vec![None; ext.sequences_of(last)];
                    let mut prefix_id = 0;
                    let mut started = false;
                    ext.for_each(|choice| {
                        if !started || choice.changed < last {
                            started = true;
                            prefix.clone_from(&columns.base);
                            for g in 0..last {
                                columns.fill_group(cand, g, choice.seqs[g], &mut prefix);
                            }
                            prefix_id = outcomes.ids.prefix(&prefix);
                        }
                        let t = choice.idx[last];
                        let tuple = match tuples[t] {
                            Some(id) => id,
                            None if last_columns.is_empty() => NO_TUPLE,
                            None => {
                                group_values.clear();
                                group_values.resize(prepared.observed.len(), 0);
                                columns.fill_group(
                                    cand,
                                    last,
                                    choice.seqs[last],
                                    &mut group_values,
                                );
                                let vals: Vec<Value> =
                                    last_columns.iter().map(|&c| group_values[c]).collect();
                                let id = outcomes.ids.tuple(&last_columns, &vals);
                                tuples[t] = Some(id);
                                id
                            }
                        };
                        let id = outcomes.ids.outcome(prefix_id, tuple);
                        report(&mut outcomes, id, choice.seqs);
                    });
                }
            },
        )?;
        let mut bounds = Vec::new();
        bounds.extend(counters.stopped);
        if counters.truncated || paths.truncated {
            bounds.push(BoundHit::MaxCandidates(counters.candidates));
        }
        if let (true, Some(k)) = (paths.unroll_cut, opts.unroll) {
            bounds.push(BoundHit::Unroll(k));
        }
        for (k, &j) in group.iter().enumerate() {
            summaries[j] = Some(AxSummary {
                stats: Stats {
                    states: counters.candidates,
                    transitions: consistent[k],
                },
                bounds: bounds.clone(),
            });
        }
    }
    Ok(summaries
        .into_iter()
        .map(|s| s.expect("every model visited"))
        .collect())
}
