//! The exploration tree of maximal causality reduction, with the
//! optimality fix (book: mcr.md).
//!
//! A node is a region ([`Region`]) and an execution in it (its trace,
//! found by replaying a seed and continuing freely, [`super::world`]). Its
//! children change one read: for each read `d` of the trace the region
//! does not fix, in the order the reads happened, and each value `v ≠ τ(d)`
//! written to `d`'s location somewhere in the trace, if the seed search
//! ([`super::seed`]) finds a seed in which `d` returns `v` while the reads
//! before `d` in its thread return what they returned, the child's region
//! is
//!
//! ```text
//! parent's region  ∧  reads of d's thread before d as in τ  ∧  d = v
//!                  ∧  ¬(earlier sibling's read = its value), for every
//!                     sibling explored before it.
//! ```
//!
//! The last line is the fix for MCR Sec. 4.6. Without it two siblings can
//! both reach an execution in which both their reads have their new
//! values (Fig. 3(a) under TSO: the seeds `e3-e2` and `e4` both lead to
//! `a=1, b=0`); with it that execution belongs to the first sibling only.
//!
//! Why every execution is explored exactly once. Regions of siblings are
//! disjoint (a later sibling forbids what an earlier one requires), a
//! child's region excludes its parent's trace (`d` reads something else),
//! and regions nest, so no two nodes explore the same values. Take an
//! execution `E` of a node's region other than the node's trace `τ`, and
//! the first read `d` (in an order of `E`'s memory events) that returns
//! something else than in `τ`: everything before `d` in `E` are events of
//! `τ` with `τ`'s values (a thread that has read what it read in `τ` does
//! what it did in `τ`), so the write `d` reads in `E` is one of `τ`'s, and
//! `E` up to `d` is a seed the seed search finds. So the child for
//! `(d, E(d))` exists, and `E` lies in its region or in the region of an
//! earlier sibling whose read it shares; the region's own search
//! ([`super::world::World::search`]) is exact, so by induction on the
//! number of reads a region fixes (which grows at every level) each
//! region's subtree explores exactly its executions.
//!
//! Failures. A thread that fails stops alone (module docs of
//! [`super::world`]); an execution of the tree can so hold several
//! failures. A failure is reported when the seed search finds an order of
//! the trace's events in which it happens with no other thread stopped
//! before: the relaxlab execution that ends with it, which is its witness.

use std::collections::BTreeMap;

use crate::budget::Budget;
use crate::ir::{Program, Value};
use crate::model::MemoryModel;
use crate::outcome::{BoundHit, Failure, FailureKind, OutcomeRow, OutcomeTable, Stats};

use super::super::interp::{Ended, Scratch};
use super::region::{Cube, Guide, Region};
use super::seed::{discarded, Goal, SeedSearch, SeedStats, Wanted};
use super::trace::Execution;
use super::world::{Choice, Mv, SearchStats, Searched, World};

/// Options of the stateless explorer.
#[derive(Clone, Debug)]
pub struct McrOptions {
    /// Stop after this many executions ([`BoundHit::MaxExecutions`]).
    pub max_executions: u64,
    /// Interruption, time and memory bounds, polled between executions and
    /// within searches.
    pub budget: Budget,
    /// Keep every explored execution's read values and count the distinct
    /// ones ([`McrStats::distinct`]): a check of the optimality claim, whose
    /// memory grows with the executions.
    pub check_distinct: bool,
}

impl Default for McrOptions {
    fn default() -> Self {
        McrOptions {
            max_executions: 10_000_000,
            budget: Budget::default(),
            check_distinct: false,
        }
    }
}

/// What the stateless explorer counts beside the table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct McrStats {
    /// Executions explored: each reads a combination of values no other
    /// one reads.
    pub executions: u64,
    /// Of those, executions in which every thread finished.
    pub complete: u64,
    /// Executions in which some thread failed.
    pub failed: u64,
    /// Executions in which some thread was discarded (an `assume`, loop
    /// unrolling) and none failed.
    pub discarded: u64,
    /// Complete executions the `filter` rejected.
    pub filtered: u64,
    /// Executions ending with a thread that waits forever and no failure.
    pub deadlocked: u64,
    /// The number of the first execution (counting from 1) that exposed a
    /// failure, if any.
    pub first_failure: Option<u64>,
    /// Children tried: a read of an execution and a value written to its
    /// location that it did not return, with a seed (an order of the
    /// execution's events in which it returns that value)...
    pub seeds: u64,
    /// ...and the candidates without a seed.
    pub unsat: u64,
    /// States the seed searches visited (one search per execution, plus
    /// one per failure checked).
    pub seed_states: u64,
    /// Continuations that had to turn back from a read the region forbids.
    pub blocked: u64,
    /// Seeds whose continuation found no execution in the region, so that
    /// the region was searched from the start.
    pub restarts: u64,
    /// Regions with a seed but no execution.
    pub empty: u64,
    /// Moves taken by replays and searches.
    pub moves: u64,
    /// With [`McrOptions::check_distinct`]: how many distinct combinations
    /// of read values the executions read (equal to `executions` when no two
    /// read the same values).
    pub distinct: Option<u64>,
}

/// A table and the explorer's counters.
#[derive(Clone, Debug)]
pub struct McrReport {
    pub table: OutcomeTable,
    pub stats: McrStats,
}

struct Explorer<'w, 'p, M: MemoryModel> {
    world: &'w World<'p, M>,
    opts: &'w McrOptions,
    /// Told the number of executions explored after each one.
    progress: &'w dyn Fn(u64),
    stats: McrStats,
    search: SearchStats,
    seeds: SeedStats,
    /// Outcome values: whether the condition holds, how many executions,
    /// the moves of the first.
    rows: BTreeMap<Vec<Value>, (Option<bool>, u64, Vec<Mv>)>,
    /// Failures: the moves of the relaxlab execution that ends with it.
    failures: BTreeMap<FailureKind, Vec<Mv>>,
    unroll: Option<u32>,
    unroll_cut: bool,
    stopped: Option<BoundHit>,
    /// With `check_distinct`: the read values of every execution.
    seen: Option<std::collections::HashSet<Vec<Vec<Value>>>>,
}

/// Explores `program` (compiled and loop-free, see [`super::program_for`])
/// under `model`, one execution per combination of values its reads can
/// return.
pub(crate) fn explore_program<M: MemoryModel>(
    program: &Program,
    model: &M,
    buffers: bool,
    unroll: Option<u32>,
    opts: &McrOptions,
    progress: &dyn Fn(u64),
) -> McrReport {
    let world = World::new(program, model, buffers);
    let mut ex = Explorer {
        world: &world,
        opts,
        progress,
        stats: McrStats::default(),
        search: SearchStats::default(),
        seeds: SeedStats::default(),
        rows: BTreeMap::new(),
        failures: BTreeMap::new(),
        unroll,
        unroll_cut: false,
        stopped: None,
        seen: opts.check_distinct.then(Default::default),
    };
    let everything = Region::everything(world.threads);
    let mut sc = Scratch::new(false);
    match world.start(&Guide::new(&everything), &mut sc) {
        // A top-level thread ends in its first local steps: every
        // execution ends there, as in the other explorers.
        Err(e) => {
            ex.stats.executions = 1;
            match e {
                Ended::Failed(kind) => {
                    ex.stats.failed = 1;
                    ex.stats.first_failure = Some(1);
                    ex.failures.insert(kind, Vec::new());
                }
                Ended::Discarded => ex.stats.discarded = 1,
            }
        }
        Ok(_) => ex.node(&everything, None),
    }
    ex.finish(program)
}

impl<M: MemoryModel> Explorer<'_, '_, M> {
    /// Explores the region `region`, starting from `seed` (module docs).
    fn node(&mut self, region: &Region, seed: Option<&[Choice]>) {
        if self.stopped.is_some() {
            return;
        }
        if self.stats.executions >= self.opts.max_executions {
            self.stopped = Some(BoundHit::MaxExecutions(self.stats.executions));
            return;
        }
        if let Some(hit) = self.opts.budget.exhausted() {
            self.stopped = Some(hit);
            return;
        }
        let guide = Guide::new(region);
        let Some(exec) = self.witness(&guide, seed) else {
            return;
        };
        self.stats.executions += 1;
        (self.progress)(self.stats.executions);
        self.record(&exec);
        if self.stopped.is_some() {
            return;
        }
        let search = SeedSearch::new(self.world, &exec);
        let n = self.world.threads;
        let mut wanted = Wanted {
            last: vec![None; n],
            ..Wanted::default()
        };
        for read in &exec.reads {
            if region.fixes(read.thread, read.position) {
                continue;
            }
            let past = &exec.values[read.thread][..read.position];
            for &v in &exec.written[read.loc.index()] {
                if v != read.value && !region.forbids(read.thread, past, v) {
                    wanted.candidates.insert((read.thread, read.op, v));
                    if read.thread == n {
                        wanted.observer = Some(read.position);
                    } else {
                        wanted.last[read.thread] = Some(read.op);
                    }
                }
            }
        }
        let seeds = match search.all_values(&wanted, &self.opts.budget, &mut self.seeds) {
            Ok(seeds) => seeds,
            Err(hit) => {
                self.stopped = Some(hit);
                return;
            }
        };
        let mut siblings: Vec<Cube> = Vec::new();
        for read in &exec.reads {
            if region.fixes(read.thread, read.position) {
                continue;
            }
            let past = &exec.values[read.thread][..read.position];
            for &v in &exec.written[read.loc.index()] {
                if v == read.value || region.forbids(read.thread, past, v) {
                    continue;
                }
                let Some(seed) = seeds.get(&(read.thread, read.op, v)) else {
                    self.seeds.unsat += 1;
                    continue;
                };
                self.seeds.found += 1;
                let mut child = region.clone();
                child.must[read.thread] = past.to_vec();
                child.must[read.thread].push(v);
                child.cubes.extend(siblings.iter().cloned());
                self.node(&child, Some(seed));
                if self.stopped.is_some() {
                    return;
                }
                siblings.push(Cube {
                    thread: read.thread,
                    past: past.to_vec(),
                    value: v,
                });
            }
        }
    }

    /// An execution in the region of `guide`: the seed replayed and
    /// continued, or (when that finds none) a search from the start.
    fn witness(&mut self, guide: &Guide, seed: Option<&[Choice]>) -> Option<Execution<M::State>> {
        let world = self.world;
        let budget = &self.opts.budget;
        if let Some(seed) = seed {
            if let Some((s, path)) = world.replay(seed, guide, &mut self.search) {
                let before = self.search.backtracks;
                match world.search(s, path, guide, budget, &mut self.search) {
                    Searched::Found(path, end) => {
                        if self.search.backtracks > before {
                            self.stats.blocked += 1;
                        }
                        return Some(Execution::new(world, path, end));
                    }
                    Searched::Stopped(hit) => {
                        self.stopped = Some(hit);
                        return None;
                    }
                    Searched::None => {}
                }
            }
            self.stats.restarts += 1;
        }
        let mut sc = Scratch::new(false);
        let start = world.start(guide, &mut sc).ok()?;
        match world.search(start, Vec::new(), guide, budget, &mut self.search) {
            Searched::Found(path, end) => Some(Execution::new(world, path, end)),
            Searched::Stopped(hit) => {
                self.stopped = Some(hit);
                None
            }
            Searched::None => {
                self.stats.empty += 1;
                None
            }
        }
    }

    /// Adds an execution to the table and the counters.
    fn record(&mut self, exec: &Execution<M::State>) {
        let world = self.world;
        let index = self.stats.executions;
        if let Some(seen) = &mut self.seen {
            seen.insert(exec.values.clone());
        }
        if exec.finished {
            self.stats.complete += 1;
            let comps = &exec.end.comps;
            let comp = |t: usize| &comps[t][..];
            match world.interp.outcome(&comp, &exec.end.mem) {
                Some(values) => {
                    let satisfies = world.interp.satisfies(&comp, &exec.end.mem);
                    let row = self
                        .rows
                        .entry(values)
                        .or_insert_with(|| (satisfies, 0, exec.moves()));
                    row.1 += 1;
                }
                None => self.stats.filtered += 1,
            }
            return;
        }
        if exec.stops.is_empty() {
            self.stats.deadlocked += 1;
            self.failures
                .entry(FailureKind::Deadlock)
                .or_insert_with(|| exec.moves());
            self.stats.first_failure.get_or_insert(index);
            return;
        }
        let mut failed = false;
        let search = SeedSearch::new(world, exec);
        for (i, stop) in exec.stops.iter().enumerate() {
            match &stop.ended {
                Ended::Discarded => {
                    if self.unroll.is_some() && world.unroll_assume(stop.thread, stop.at) {
                        self.unroll_cut = true;
                    }
                }
                Ended::Failed(kind) => {
                    failed = true;
                    if self.failures.contains_key(kind) {
                        continue;
                    }
                    let Some(caps) = search.caps_for_stop(i) else {
                        continue;
                    };
                    let goal = search.stop_goal(i);
                    let found = search.search(goal, &caps, &self.opts.budget, &mut self.seeds);
                    match found {
                        Err(hit) => {
                            self.stopped = Some(hit);
                            return;
                        }
                        Ok(None) => {}
                        Ok(Some(seed)) => {
                            let Goal::Reach { thread, ops } = goal else {
                                unreachable!("a stop's goal is a Reach")
                            };
                            let one_more = stop.cause.is_none();
                            let t = crate::ir::ThreadId::new(thread);
                            if let Some(path) = world.replay_to(&seed, t, ops, one_more) {
                                let moves = first_stop(&path);
                                self.failures.insert(kind.clone(), moves);
                                self.stats.first_failure.get_or_insert(index);
                            }
                        }
                    }
                }
            }
        }
        if failed {
            self.stats.failed += 1;
        } else if exec.stops.iter().any(|s| discarded(&s.ended)) {
            self.stats.discarded += 1;
        }
    }

    fn finish(mut self, program: &Program) -> McrReport {
        let world = self.world;
        self.stats.seeds = self.seeds.found;
        self.stats.unsat = self.seeds.unsat;
        self.stats.seed_states = self.seeds.states;
        self.stats.moves = self.search.moves;
        self.stats.distinct = self.seen.as_ref().map(|s| s.len() as u64);
        let rows = std::mem::take(&mut self.rows)
            .into_iter()
            .map(|(values, (satisfies, count, moves))| OutcomeRow {
                values,
                satisfies,
                count,
                racy: false,
                non_sc: false,
                witness: Some(world.trace(&moves)),
            })
            .collect();
        let failures = std::mem::take(&mut self.failures)
            .into_iter()
            .map(|(kind, moves)| Failure {
                kind,
                count: 1,
                witness: Some(world.trace(&moves)),
            })
            .collect();
        let mut bounds = Vec::new();
        if let (true, Some(k)) = (self.unroll_cut, self.unroll) {
            bounds.push(BoundHit::Unroll(k));
        }
        bounds.extend(self.stopped);
        McrReport {
            table: OutcomeTable {
                model: world.model.name().to_string(),
                has_condition: program.condition.is_some(),
                rows,
                failures,
                races: Vec::new(),
                race_witnesses: Vec::new(),
                flags: Vec::new(),
                undefined_by_cat: None,
                stats: Stats {
                    states: self.stats.executions,
                    transitions: self.stats.moves,
                },
                bounds,
            },
            stats: self.stats,
        }
    }
}

/// The moves of `path` up to and including the first that stops a thread
/// (a relaxlab execution ends at its first failure or discard).
fn first_stop(path: &[super::world::StepRec]) -> Vec<Mv> {
    let mut out = Vec::new();
    for r in path {
        out.push(r.mv);
        if r.end.is_some() || r.child_end.is_some() {
            break;
        }
    }
    out
}
