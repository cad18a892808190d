//! Phase II of RELAXER (Sec. 4.3, Figs. 7-9): for each predicted cycle,
//! seeded executions biased towards creating it.
//!
//! With the cycle `l1, ..., ln`, `co` holds the odd-numbered labels
//! (`l1, l3, ...`: the first of each program-order pair, to be delayed so
//! that the other thread's racing statement goes first) and `ce` the even
//! ones (to be hurried). The runs are scheduled by the sampler's delay
//! scheduler ([`crate::operational::Delay`], whose module docs state the
//! figures' rules) biased towards the cycle: a store is delayed, and a
//! thread paused before a load, only when its statement is in `co`, and a
//! load reads its earliest value only when in `ce`; each decision is gated
//! by a coin of probability `P = 0.5`, and time is logical, one unit per
//! move.
//!
//! Each trial is one such run, recorded as a trace and checked with
//! [`super::created`]; a trial is *buggy* when it created the cycle and
//! ended in a failed assertion (after the cycle, since a failure ends the
//! run). The report has RELAXER's Table 1 columns.

use std::collections::BTreeSet;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rayon::prelude::*;

use crate::ir::{Program, ThreadId};
use crate::mapping::Mapping;
use crate::model::MemoryModel;
use crate::operational::{
    program_for, Bias, Delay, Ended, Group, Interp, MoveInfo, Pick, Random, Runner, Scheduler,
    Status,
};
use crate::outcome::{FailureKind, Trace};
use crate::registry::Buffering;

use super::created::creates;
use super::lift::lift;
use super::predict::PredictedCycle;

pub use crate::operational::{DELAY_L, DELAY_S};
/// Moves one trial may take before it is cut.
pub const MAX_STEPS: u64 = 10_000;

/// Options of Phase II.
#[derive(Clone, Debug)]
pub struct ConfirmOptions {
    /// Trials per cycle (RELAXER ran 30).
    pub trials: u64,
    pub seed: u64,
    pub mapping: Mapping,
    /// Set by the caller (a SIGINT handler) to stop: the trials not yet
    /// started are skipped and the report says it was
    /// [interrupted](ConfirmReport::interrupted).
    pub interrupt: Option<Arc<AtomicBool>>,
}

impl Default for ConfirmOptions {
    fn default() -> Self {
        ConfirmOptions {
            trials: 30,
            seed: 0,
            mapping: Mapping::Standard,
            interrupt: None,
        }
    }
}

/// Phase II's result for one cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CycleReport {
    pub cycle: PredictedCycle,
    /// Trials that created the cycle.
    pub created: u64,
    /// Trials that created the cycle and failed an assertion.
    pub buggy: u64,
    /// The first trial that created the cycle (a witness), if any.
    pub witness: Option<Trace>,
}

/// Phase II's result for one model: Table 1's columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfirmReport {
    pub model: String,
    pub trials: u64,
    pub cycles: Vec<CycleReport>,
    /// [`ConfirmOptions::interrupt`] was set during the trials: some were
    /// skipped, and the counts are not those of `trials` runs per cycle.
    pub interrupted: bool,
}

impl ConfirmReport {
    /// Cycles predicted.
    pub fn predicted(&self) -> usize {
        self.cycles.len()
    }
    /// Cycles created in at least one trial.
    pub fn confirmed(&self) -> usize {
        self.cycles.iter().filter(|c| c.created > 0).count()
    }
    /// Confirmed cycles with a buggy trial.
    pub fn bugs(&self) -> usize {
        self.cycles.iter().filter(|c| c.buggy > 0).count()
    }
    /// The average, over confirmed cycles, of created / trials (`None`
    /// when no cycle was confirmed: Table 1's "-").
    pub fn probability(&self) -> Option<f64> {
        let confirmed: Vec<&CycleReport> = self.cycles.iter().filter(|c| c.created > 0).collect();
        if confirmed.is_empty() || self.trials == 0 {
            return None;
        }
        let sum: f64 = confirmed
            .iter()
            .map(|c| c.created as f64 / self.trials as f64)
            .sum();
        Some(sum / confirmed.len() as f64)
    }
}

/// SplitMix64: trial `i` of cycle `c` draws from `(seed, c, i)` alone.
#[derive(Debug)]
struct Coins(u64);

impl Coins {
    fn new(seed: u64, cycle: u64, trial: u64) -> Coins {
        let mut c = Coins(
            seed ^ cycle.wrapping_mul(0xA24B_AED4_963E_E407)
                ^ trial.wrapping_mul(0x9FB2_1C65_1E98_DF25),
        );
        c.next();
        c
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl Random for Coins {
    /// `rand() < P` with P = 0.5.
    fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// How a trial ended.
#[derive(Debug, PartialEq, Eq)]
struct Trial {
    trace: Trace,
    assert_failed: bool,
}

/// One biased run.
fn trial<M: MemoryModel>(
    program: &Program,
    model: &M,
    sched: &mut Delay<'_>,
    coins: &mut Coins,
) -> Trial {
    let mut trace = Trace::default();
    let mut rec = Some(&mut trace);
    let mut runner = match Runner::start(Interp::new(program, model), &mut rec) {
        Ok(r) => r,
        Err(e) => {
            return Trial {
                assert_failed: matches!(e, Ended::Failed(FailureKind::Assert { .. })),
                trace,
            }
        }
    };
    let mut moves: Vec<MoveInfo> = Vec::new();
    let (mut steps, mut waits) = (0u64, 0u64);
    let mut assert_failed = false;
    while !runner.is_final() && steps < MAX_STEPS && waits < MAX_STEPS {
        runner.moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let has_move = |t: usize| {
            moves
                .iter()
                .any(|m| m.group == Group::Thread(ThreadId::new(t)))
        };
        let blocked = |t: usize| runner.running(t) && !has_move(t);
        let choice = match sched.pick(&moves, &blocked, coins) {
            Pick::Move(k) => k,
            Pick::Wait => {
                waits += 1;
                continue;
            }
        };
        sched.taken(&moves[choice], coins);
        steps += 1;
        match runner.take(choice, &mut rec) {
            Some(Status::Running) => {}
            Some(Status::Ended(e)) => {
                assert_failed = matches!(e, Ended::Failed(FailureKind::Assert { .. }));
                break;
            }
            None => break,
        }
    }
    Trial {
        trace,
        assert_failed,
    }
}

/// Phase II with RELAXER's defaults but for trials and seed.
pub fn confirm<M: MemoryModel>(
    program: &Program,
    model: &M,
    cycles: &[PredictedCycle],
    trials: u64,
    seed: u64,
) -> ConfirmReport {
    confirm_with(
        program,
        model,
        cycles,
        &ConfirmOptions {
            trials,
            seed,
            ..ConfirmOptions::default()
        },
    )
}

/// Phase II's counts over some trials of one cycle, and the lowest-numbered
/// trial that created it.
#[derive(Debug, Default)]
struct Tally {
    created: u64,
    buggy: u64,
    first: Option<(u64, Trace)>,
}

impl Tally {
    fn merge(a: Tally, b: Tally) -> Tally {
        let first = match (a.first, b.first) {
            (Some(x), Some(y)) => Some(if x.0 <= y.0 { x } else { y }),
            (x, y) => x.or(y),
        };
        Tally {
            created: a.created + b.created,
            buggy: a.buggy + b.buggy,
            first,
        }
    }
}

/// Phase II: `opts.trials` biased runs per cycle under `model`.
pub fn confirm_with<M: MemoryModel>(
    program: &Program,
    model: &M,
    cycles: &[PredictedCycle],
    opts: &ConfirmOptions,
) -> ConfirmReport {
    let compiled = program_for(program, model, opts.mapping);
    let lines: Vec<Vec<u32>> = compiled
        .threads
        .iter()
        .map(|t| t.code.iter().map(|i| i.line).collect())
        .collect();
    let buffering = model.model().row().buffering;
    let buffered = buffering != Buffering::None;
    let stopped = || {
        opts.interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    };
    let reports = cycles
        .iter()
        .enumerate()
        .map(|(c, cycle)| {
            let label = |j: usize| (cycle.elements[j].thread, cycle.elements[j].line);
            let co: BTreeSet<(ThreadId, u32)> =
                (0..cycle.elements.len()).step_by(2).map(label).collect();
            let ce: BTreeSet<(ThreadId, u32)> =
                (1..cycle.elements.len()).step_by(2).map(label).collect();
            // Counts and the lowest-numbered creating trial, folded so that
            // memory does not grow with the number of trials and the
            // witness does not depend on how trials are split over threads.
            let tally = (0..opts.trials)
                .into_par_iter()
                .map(|i| {
                    if stopped() {
                        return Tally::default();
                    }
                    let mut coins = Coins::new(opts.seed, c as u64, i);
                    let bias = Bias {
                        co: &co,
                        ce: &ce,
                        lines: &lines,
                    };
                    let mut sched = Delay::biased(buffering, bias, compiled.threads.len());
                    let t = trial(&compiled, model, &mut sched, &mut coins);
                    let created = creates(&lift(&compiled, &t.trace, buffered), cycle);
                    Tally {
                        created: u64::from(created),
                        buggy: u64::from(created && t.assert_failed),
                        first: created.then_some((i, t.trace)),
                    }
                })
                .reduce(Tally::default, Tally::merge);
            CycleReport {
                cycle: cycle.clone(),
                created: tally.created,
                buggy: tally.buggy,
                witness: tally.first.map(|(_, trace)| trace),
            }
        })
        .collect();
    ConfirmReport {
        model: model.name().to_string(),
        trials: opts.trials,
        cycles: reports,
        interrupted: stopped(),
    }
}
