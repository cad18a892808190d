//! Sampled exploration: `runs` random executions
//! (`--sample N --seed S`; book: sampling.md).
//!
//! Run `i` draws its random numbers from a generator seeded by `(seed, i)`
//! alone ([`super::rng::Rng::for_run`]), so it can be replayed by itself
//! ([`replay`]) and the table does not depend on how runs are spread over
//! worker threads: runs are computed in parallel and aggregated in index
//! order. A run follows one path of the same state graph the exhaustive
//! explorer walks (the interpreter and models are shared), choosing its
//! moves by a [`Strategy`] (see [`super::schedulers`]), and ends in a final
//! state, a failure, a discard (`assume`, `filter`), a deadlock, or at the
//! per-run step bound (reported as [`BoundHit::MaxSteps`]).
//!
//! Runs are computed in chunks of [`RUN_CHUNK`]; the options' [`Budget`]
//! (interruption, time, memory) is polled after each, and within each run
//! every [`POLL_EVERY`] moves computed, and stops the session with the runs done so
//! far, reported as a bound: runs `0..n` for the first `n` that the budget
//! did not stop, so a session stopped early counts a prefix of its runs.
//!
//! The table's rows count the runs ending in each outcome; each row and
//! failure carries the trace of the first run (lowest index) that reached
//! it, rebuilt by replaying that run.

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::budget::Budget;
use crate::ir::{Program, ThreadId, Value};
use crate::mapping::Mapping;
use crate::model::{MemoryModel, Race};
use crate::outcome::{BoundHit, Failure, FailureKind, OutcomeRow, OutcomeTable, Stats, Trace};

use super::exhaustive::program_for;
use super::interp::Group;
use super::interp::{Ended, Interp};
use super::rng::Rng;
use super::runner::{MoveInfo, Runner, Status};
use super::schedulers::{Pick, Strategy};

/// Options of sampled exploration.
#[derive(Clone, Debug)]
pub struct SampleOptions {
    /// How many runs (default 1,000).
    pub runs: u64,
    /// The session's seed; run `i` is seeded by `(seed, i)`.
    pub seed: u64,
    pub strategy: Strategy,
    /// Moves one run may take before it is cut (default 10,000: litmus
    /// tests finish in tens of moves; a run this long is spinning).
    pub max_steps: u64,
    /// The compilation mapping hardware models apply (book: mapping.md).
    pub mapping: Mapping,
    /// Interruption, time and memory bounds, polled after every chunk of
    /// [`RUN_CHUNK`] runs.
    pub budget: Budget,
}

impl Default for SampleOptions {
    fn default() -> Self {
        SampleOptions {
            runs: 1_000,
            seed: 0,
            strategy: Strategy::Uniform,
            max_steps: 10_000,
            mapping: Mapping::Standard,
            budget: Budget::default(),
        }
    }
}

/// Runs computed in parallel before their results are folded into the
/// table, in index order. Fixed, so the table does not depend on the
/// number of worker threads; it also bounds the memory a session takes,
/// whatever its number of runs.
const RUN_CHUNK: u64 = 1 << 12;

/// How one run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
enum RunEnd {
    Final {
        values: Vec<Value>,
        satisfies: Option<bool>,
        racy: bool,
    },
    Failed(FailureKind),
    Discarded,
    StepBound,
    /// The budget ran out during the run: it is not counted.
    Stopped(BoundHit),
}

/// One run's result.
#[derive(Debug)]
struct RunResult {
    end: RunEnd,
    steps: u64,
    races: Vec<Race>,
}

/// The first run (lowest index) that reached each row and each failure of
/// a sampled table, aligned with its `rows` and `failures`: the run whose
/// trace is the witness, and the index `replay` takes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FirstRuns {
    pub rows: Vec<u64>,
    pub failures: Vec<u64>,
}

/// Runs `program` `opts.runs` times under `model` and counts the outcomes.
pub fn sample<M: MemoryModel>(program: &Program, model: &M, opts: &SampleOptions) -> OutcomeTable {
    sample_with_first_runs(program, model, opts).0
}

/// [`sample`], with the index of the run behind each witness.
pub fn sample_with_first_runs<M: MemoryModel>(
    program: &Program,
    model: &M,
    opts: &SampleOptions,
) -> (OutcomeTable, FirstRuns) {
    let program = program_for(program, model, opts.mapping);
    let shared = Interp::new(&program, model);
    let interp = || shared.clone();
    let mut rows: BTreeMap<Vec<Value>, (Option<bool>, u64, bool, u64)> = BTreeMap::new();
    let mut failures: BTreeMap<FailureKind, (u64, u64)> = BTreeMap::new();
    let mut races: BTreeMap<Race, ()> = BTreeMap::new();
    let (mut steps, mut cut) = (0u64, 0u64);
    let mut done = 0u64;
    let mut stopped = None;
    while done < opts.runs && stopped.is_none() {
        let end = done.saturating_add(RUN_CHUNK).min(opts.runs);
        let results: Vec<RunResult> = (done..end)
            .into_par_iter()
            .map(|i| run_one(interp(), opts, i, None, Some(&opts.budget)))
            .collect();
        // The runs before the first one the budget stopped, so that the
        // runs counted are always runs 0..done.
        let mut counted = end;
        for (i, r) in (done..end).zip(results) {
            if let RunEnd::Stopped(hit) = r.end {
                stopped = Some(hit);
                counted = i;
                break;
            }
            steps += r.steps;
            // A discarded run is no execution: its races are not reported.
            if !matches!(r.end, RunEnd::Discarded) {
                races.extend(r.races.into_iter().map(|x| (x.unordered(), ())));
            }
            match r.end {
                RunEnd::Final {
                    values,
                    satisfies,
                    racy,
                } => {
                    let e = rows.entry(values).or_insert((satisfies, 0, true, i));
                    e.1 += 1;
                    e.2 &= racy;
                }
                RunEnd::Failed(kind) => failures.entry(kind).or_insert((0, i)).0 += 1,
                RunEnd::Discarded => {}
                RunEnd::StepBound => cut += 1,
                // Handled above: the loop stops at the first such run.
                RunEnd::Stopped(_) => {}
            }
        }
        done = counted;
        if stopped.is_none() {
            stopped = opts.budget.exhausted();
        }
    }
    let witness = |i: u64| {
        let mut trace = Trace::default();
        run_one(interp(), opts, i, Some(&mut trace), None);
        trace
    };
    let first_runs = FirstRuns {
        rows: rows.values().map(|r| r.3).collect(),
        failures: failures.values().map(|f| f.1).collect(),
    };
    let table = OutcomeTable {
        model: model.name().to_string(),
        has_condition: program.condition.is_some(),
        rows: rows
            .into_iter()
            .map(|(values, (satisfies, count, racy, first))| OutcomeRow {
                values,
                satisfies,
                count,
                racy,
                non_sc: false,
                witness: Some(witness(first)),
            })
            .collect(),
        failures: failures
            .into_iter()
            .map(|(kind, (count, first))| Failure {
                kind,
                count,
                witness: Some(witness(first)),
            })
            .collect(),
        races: races.into_keys().collect(),
        race_witnesses: Vec::new(),
        flags: Vec::new(),
        undefined_by_cat: None,
        stats: Stats {
            states: done,
            transitions: steps,
        },
        bounds: (cut > 0)
            .then_some(BoundHit::MaxSteps {
                bound: opts.max_steps,
                runs: cut,
            })
            .into_iter()
            .chain(stopped)
            .collect(),
    };
    (table, first_runs)
}

/// The trace of run `index` of the session `opts` describes, and its
/// outcome when it ended in a final state the filter accepts. `None` when
/// `index` is not below `opts.runs`.
pub fn replay<M: MemoryModel>(
    program: &Program,
    model: &M,
    opts: &SampleOptions,
    index: u64,
) -> Option<(Trace, Option<Vec<Value>>)> {
    if index >= opts.runs {
        return None;
    }
    let program = program_for(program, model, opts.mapping);
    let mut trace = Trace::default();
    let r = run_one(
        Interp::new(&program, model),
        opts,
        index,
        Some(&mut trace),
        None,
    );
    let values = match r.end {
        RunEnd::Final { values, .. } => Some(values),
        _ => None,
    };
    Some((trace, values))
}

/// How many moves a run computes (the choices at each step, all of them)
/// between two polls of its budget.
const POLL_EVERY: u64 = 256;

/// Run `index`: from the initial state, moves chosen by the strategy until
/// the run ends, or until `budget` (polled every [`POLL_EVERY`] moves
/// computed) runs out: a run of a program with many threads can take
/// seconds, its every step computing a move per thread.
fn run_one<M: MemoryModel>(
    interp: Interp<'_, M>,
    opts: &SampleOptions,
    index: u64,
    trace: Option<&mut Trace>,
    budget: Option<&Budget>,
) -> RunResult {
    let mut rng = Rng::for_run(opts.seed, index);
    let buffering = interp.model.model().row().buffering;
    let mut scheduler = opts.strategy.scheduler(interp.program, buffering);
    let mut trace = trace;
    let mut runner = match Runner::start(interp, &mut trace) {
        Ok(r) => r,
        Err(e) => {
            return RunResult {
                end: ended(e),
                steps: 0,
                races: vec![],
            }
        }
    };
    let mut moves: Vec<MoveInfo> = Vec::new();
    let (mut steps, mut waits) = (0u64, 0u64);
    // Moves computed since the budget was last polled.
    let mut work = 0u64;
    let end = loop {
        if runner.is_final() {
            break match runner.outcome() {
                Some((values, satisfies)) => RunEnd::Final {
                    values,
                    satisfies,
                    racy: runner.racy,
                },
                None => RunEnd::Discarded,
            };
        }
        runner.moves(&mut moves);
        if moves.is_empty() {
            break RunEnd::Failed(FailureKind::Deadlock);
        }
        if steps >= opts.max_steps || waits >= opts.max_steps {
            break RunEnd::StepBound;
        }
        work += moves.len() as u64 + 1;
        if work >= POLL_EVERY {
            work = 0;
            if let Some(hit) = budget.and_then(Budget::exhausted) {
                break RunEnd::Stopped(hit);
            }
        }
        let has_move = |t: usize| {
            moves
                .iter()
                .any(|m| m.group == Group::Thread(ThreadId::new(t)))
        };
        let blocked = |t: usize| runner.running(t) && !has_move(t);
        let choice = match scheduler.pick(&moves, &blocked, &mut rng) {
            Pick::Move(k) => k,
            Pick::Wait => {
                waits += 1;
                continue;
            }
        };
        scheduler.taken(&moves[choice], &mut rng);
        steps += 1;
        match runner.take(choice, &mut trace) {
            Some(Status::Running) => {}
            Some(Status::Ended(e)) => break ended(e),
            None => break RunEnd::Failed(FailureKind::Deadlock),
        }
    };
    RunResult {
        end,
        steps,
        races: std::mem::take(&mut runner.races),
    }
}

fn ended(e: Ended) -> RunEnd {
    match e {
        Ended::Failed(kind) => RunEnd::Failed(kind),
        Ended::Discarded => RunEnd::Discarded,
    }
}
