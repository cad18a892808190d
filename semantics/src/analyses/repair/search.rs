//! The search for minimum repairs: an implicit hitting-set loop over
//! exhaustive runs.
//!
//! Let `works(R)` say that the program with the changes `R` meets the goal
//! under the model, decided by an exhaustive run. Adding a fence or
//! strengthening an order only removes behaviours (an execution of the
//! stronger program is one of the weaker program that also respects the
//! new constraint: a TSO/PSO barrier only waits, a PSLO `ll` only drops
//! history entries a later load could skip anyway, a C11 order or fence
//! only adds `sw`, `hb` and `sc` constraints), so `works` is monotone, and
//! a stronger option at a site is never worse than a weaker one. The
//! search decides first which sites to use, each with its strongest option:
//!
//! 1. Run the program: nothing bad, nothing to repair. Run it with the
//!    strongest option at every site: still bad, no repair exists among
//!    these sites (and when SC itself is bad, none exists at all, since
//!    every SC execution remains).
//! 2. Keep a list of *clauses*, sets of sites every working repair must
//!    meet. Take a minimum hitting set `H` of them ([`super::hitting`]). If
//!    `works(H)`, `H` is a minimum repair: every working repair meets every
//!    clause, so none is smaller. Otherwise grow `H` to a maximal set `S`
//!    that still fails and add the clause `all \ S` (any repair inside `S`
//!    fails, by monotonicity). Repeat. This is the implicit hitting-set
//!    scheme of MaxSAT solvers (Davies and Bacchus 2011) applied to fence
//!    placement; the clauses are the proof that nothing smaller works.
//! 3. Growth is guided by the happens-before cycle of a bad execution of
//!    `H` (Shasha and Snir's critical cycles; RELAXER Def. 1): first try to
//!    add every site *off* the cycle's delays at once, so that the clause is
//!    the cycle's delays, the classical fence-placement constraint, now
//!    checked; then add the remaining sites in halves (QuickXplain style),
//!    keeping those that leave the program failing.
//! 4. Every other hitting set of the minimum size is then tried the same
//!    way, in a deterministic order, to list every minimum repair (up to
//!    `max_solutions`).
//! 5. For each minimum set of sites, the cheapest options
//!    ([`super::site::Change::cost`]) that still work: assignments are tried
//!    in increasing total cost, skipping those weaker than one already
//!    failed; every assignment of the cheapest working cost is kept.
//!
//! Results of runs are cached by placement. A bad behaviour found before a
//! bound is still bad. A run that hits a bound (`--max-states`, the
//! axiomatic candidate bound) and found nothing bad decides nothing: such
//! a placement is *undecided*. Growth never adds it; a hitting set that is
//! undecided is excluded by an *assumed* clause (its complement), so the
//! search goes on to other placements; a cheaper option assignment that is
//! undecided is not listed. The result then says so: the minimum found is
//! proven only down to the bound the proven clauses give
//! ([`Repair::lower_bound`]), and a repair among the undecided placements
//! may have been missed. (Under `c11r` and `c11t` a release operation in a
//! spin loop bumps a clock every iteration, so a fence or a release order
//! placed there can make the state space infinite.) Unrolling bounds every
//! run of a looping program alike and is reported as a bound of the
//! verification ([`Repair::unrolled`]); the budget (Ctrl-C, time, memory)
//! stops the search.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::budget::Budget;
use crate::ir::{InstrId, Program, ThreadId};
use crate::outcome::{BoundHit, OutcomeTable};

use super::apply::{apply, Placement};
use super::goal::{Behaviour, Goal, GoalError, Judge};
use super::hitting::{hitting_sets, minimum_hitting_set, SiteSet};
use super::oracle::{CycleStatement, Oracle};
use super::site::{candidate_sites, Site, SiteKind};
use crate::registry::Repairs;

/// Options of a repair.
#[derive(Clone, Debug)]
pub struct RepairOptions {
    pub goal: Goal,
    /// Consider at most this many sites (`--max-candidates`): those on the
    /// first bad execution's cycle first, then the others in program order.
    /// Minimality is then proven only among the sites considered.
    pub max_sites: usize,
    /// List at most this many minimum repairs.
    pub max_solutions: usize,
    /// Bound every run after the first (the program as written, explored
    /// with the oracle's own bound) to this many times the states that run
    /// stored, at least [`MIN_RELATIVE_STATES`]: a placement that makes the
    /// state space infinite is given up on at a cost in proportion to the
    /// program, and left undecided. `None`: the oracle's bound throughout.
    pub state_factor: Option<u64>,
    /// Give up once this many placements are undecided.
    pub max_undecided: usize,
    /// Stop between runs when it runs out (each run also polls it).
    pub budget: Budget,
}

/// The least state bound [`RepairOptions::state_factor`] gives a run.
pub const MIN_RELATIVE_STATES: u64 = 20_000;

impl Default for RepairOptions {
    fn default() -> Self {
        RepairOptions {
            goal: Goal::Condition,
            max_sites: 200,
            max_solutions: 32,
            state_factor: Some(64),
            max_undecided: 16,
            budget: Budget::default(),
        }
    }
}

/// Option assignments tried per minimum set of sites, at most.
pub const MAX_KIND_ASSIGNMENTS: usize = 4096;

/// One exhaustive run of a (possibly repaired) program.
#[derive(Clone, Debug)]
pub struct Trial {
    /// The program the model ran; the table's instruction ids number it.
    pub ran: Program,
    pub table: OutcomeTable,
    /// What must go, in the order [`Judge::bad_behaviours`] gives.
    pub bad: Vec<Behaviour>,
}

/// What a run says about a placement.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Verdict {
    Works,
    Fails,
    Unknown(Vec<BoundHit>),
}

impl Trial {
    /// Unrolling (`--unroll`, axiomatic models) bounds every run of a
    /// program with loops alike: within it a run decides, and the repair
    /// says that its verification holds up to the bound
    /// ([`Repair::unrolled`]). Any other bound leaves a run that found
    /// nothing bad undecided.
    fn verdict(&self) -> Verdict {
        let open: Vec<BoundHit> = self
            .table
            .bounds
            .iter()
            .copied()
            .filter(|b| !matches!(b, BoundHit::Unroll(_)))
            .collect();
        if !self.bad.is_empty() {
            Verdict::Fails
        } else if open.is_empty() {
            Verdict::Works
        } else {
            Verdict::Unknown(open)
        }
    }

    /// The unrolling bound this run was cut by, if any.
    pub fn unrolled(&self) -> Option<u32> {
        self.table.bounds.iter().find_map(|b| match b {
            BoundHit::Unroll(k) => Some(*k),
            _ => None,
        })
    }
}

/// How a repair ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Status {
    /// The goal already holds.
    NothingToRepair,
    /// Minimum repairs were found.
    Repaired,
    /// Even the strongest option at every site leaves a bad behaviour;
    /// `sc_fails`: SC itself has one, so no placement can remove it.
    Unrepairable { sc_fails: bool },
    /// A run hit a bound before the search could conclude.
    Stopped(Vec<BoundHit>),
}

/// A minimum repair, verified.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The changes, by index into [`Repair::sites`], ascending.
    pub placement: Placement,
    /// The sum of the changes' costs.
    pub cost: u32,
    /// The repaired program.
    pub program: Program,
    /// Its run under the model: meets the goal, complete.
    pub trial: Trial,
}

/// The result of a repair.
#[derive(Clone, Debug)]
pub struct Repair {
    pub family: Repairs,
    pub goal: Goal,
    /// The sites considered, in program order.
    pub sites: Vec<Site>,
    /// How many sites the program has; more than `sites.len()` when
    /// `max_sites` cut the list, and minimality then holds only among the
    /// sites considered.
    pub sites_found: usize,
    /// The run of the program as written.
    pub original: Trial,
    /// SC's run of the program.
    pub sc: Trial,
    /// The run with the strongest option at every site, when made.
    pub strongest: Option<Trial>,
    pub status: Status,
    /// The number of changes of a minimum repair.
    pub minimum: Option<usize>,
    /// Minimum repairs: fewest changes, then cheapest options; sorted by
    /// cost, then placement.
    pub solutions: Vec<Solution>,
    /// More minimum repairs exist than were listed (`max_solutions`).
    pub more_solutions: bool,
    /// Some set of sites had more option assignments than
    /// [`MAX_KIND_ASSIGNMENTS`]: its options are the strongest, not the
    /// cheapest.
    pub strength_bounded: bool,
    /// Clauses learnt: the proof that no smaller repair works. Clauses
    /// assumed for undecided placements are not among them.
    pub clauses: Vec<Vec<usize>>,
    /// No repair with fewer changes than this works (the minimum hitting
    /// set of the clauses learnt from failing runs); equal to `minimum`
    /// unless runs were undecided.
    pub lower_bound: usize,
    /// Placements (strongest options, or a minimum set's cheaper options)
    /// whose runs hit a bound (`--max-states`, ...) before deciding, with
    /// the bounds: they were treated as failing, so a repair among them
    /// may have been missed.
    pub undecided: Vec<(Placement, Vec<BoundHit>)>,
    /// Exhaustive runs made (the cache spares repeats).
    pub runs: u64,
    /// Some run was cut by unrolling loops this many times: repairs are
    /// verified for executions within the bound only (a failing run is
    /// still a failure, so minimality stands).
    pub unrolled: Option<u32>,
}

impl Repair {
    /// Did a bound cut the search (sites, listing, strength, a run)?
    pub fn bounded(&self) -> bool {
        self.sites_found > self.sites.len()
            || self.unrolled.is_some()
            || !self.undecided.is_empty()
            || self.more_solutions
            || self.strength_bounded
            || matches!(self.status, Status::Stopped(_))
    }
}

/// Why a repair cannot start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RepairError {
    Goal(GoalError),
    /// The axiomatic engine refused the program.
    Axiomatic(crate::axiomatic::AxError),
}

impl std::fmt::Display for RepairError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RepairError::Goal(e) => e.fmt(f),
            RepairError::Axiomatic(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RepairError {}

impl From<crate::axiomatic::AxError> for RepairError {
    fn from(e: crate::axiomatic::AxError) -> Self {
        RepairError::Axiomatic(e)
    }
}

/// The search's state.
struct Search<'a> {
    program: &'a Program,
    family: Repairs,
    sites: Vec<Site>,
    oracle: &'a mut dyn Oracle,
    judge: Judge,
    budget: Budget,
    cache: BTreeMap<Placement, Trial>,
    clauses: Vec<Vec<usize>>,
    /// Per clause: learnt from a failing run (else assumed, see
    /// [`Search::assume_fails`]).
    proven: Vec<bool>,
    /// Placements whose runs hit a bound before deciding.
    undecided: Vec<(Placement, Vec<BoundHit>)>,
    runs: u64,
    unrolled: Option<u32>,
    max_undecided: usize,
    /// Source memory instructions by (thread, span), for cycles.
    by_span: BTreeMap<(ThreadId, u32, u32), InstrId>,
}

/// Why the search stopped before concluding.
enum Halt {
    /// A bound was hit.
    Bound(Vec<BoundHit>),
    Error(RepairError),
}

impl From<RepairError> for Halt {
    fn from(e: RepairError) -> Self {
        Halt::Error(e)
    }
}

impl From<crate::axiomatic::AxError> for Halt {
    fn from(e: crate::axiomatic::AxError) -> Self {
        Halt::Error(e.into())
    }
}

type Step<T> = Result<T, Halt>;

/// The minimum number of sites, the minimum sets of sites that work, and
/// whether more exist than were listed.
type MinimumSets = (usize, Vec<Vec<usize>>, bool);

impl Search<'_> {
    fn n(&self) -> usize {
        self.sites.len()
    }

    fn strongest(&self, set: &[usize]) -> Placement {
        set.iter()
            .map(|&s| (s, self.sites[s].strongest()))
            .collect()
    }

    fn run(&mut self, program: &Program) -> Step<Trial> {
        self.runs += 1;
        let (ran, table) = self.oracle.explore(program)?;
        let bad = self.judge.bad_behaviours(&ran, &table);
        Ok(Trial { ran, table, bad })
    }

    /// The run of a placement, from the cache or a new run.
    fn trial(&mut self, placement: &Placement) -> Step<&Trial> {
        if !self.cache.contains_key(placement) {
            if let Some(hit) = self.budget.exhausted() {
                return Err(Halt::Bound(vec![hit]));
            }
            let program = apply(self.program, &self.sites, placement);
            let trial = self.run(&program)?;
            self.unrolled = self.unrolled.or(trial.unrolled());
            self.cache.insert(placement.clone(), trial);
        }
        Ok(&self.cache[placement])
    }

    /// The verdict on a placement.
    fn verdict(&mut self, placement: &Placement) -> Step<Verdict> {
        Ok(self.trial(placement)?.verdict())
    }

    /// Records a placement a bound left undecided; stops the search once
    /// there are too many.
    fn undecided(&mut self, placement: &Placement, bounds: Vec<BoundHit>) -> Step<()> {
        if !self.undecided.iter().any(|(p, _)| p == placement) {
            self.undecided.push((placement.clone(), bounds.clone()));
        }
        if self.undecided.len() > self.max_undecided {
            return Err(Halt::Bound(bounds));
        }
        Ok(())
    }

    /// Excludes the undecided set `h` and its subsets from the search by
    /// the clause `all \ h`, which no run has proven: the minimum found is
    /// then proven only if the proven clauses alone force it.
    fn assume_fails(&mut self, h: &[usize], bounds: Vec<BoundHit>) -> Step<()> {
        let placement = self.strongest(h);
        self.undecided(&placement, bounds)?;
        let set = SiteSet::from_slice(self.n(), h);
        self.clauses.push(set.complement(self.n()).elements());
        self.proven.push(false);
        Ok(())
    }

    /// Does the set (strongest options) fail for certain? A bound leaves
    /// it unknown, which growth treats as "may work".
    fn fails(&mut self, set: &SiteSet) -> Step<bool> {
        let p = self.strongest(&set.elements());
        Ok(self.trial(&p)?.verdict() == Verdict::Fails)
    }

    /// The sites a cycle's delays and accesses lie on (module docs, 3).
    fn cycle_sites(&self, cycle: &[CycleStatement]) -> SiteSet {
        let at: Vec<(ThreadId, usize)> = cycle
            .iter()
            .filter_map(|(t, span)| {
                self.by_span
                    .get(&(*t, span.start, span.end))
                    .map(|i| (*t, i.index()))
            })
            .collect();
        let mut out = SiteSet::new(self.n());
        for (k, &(t, i)) in at.iter().enumerate() {
            let (t2, j) = at[(k + 1) % at.len()];
            for (s, site) in self.sites.iter().enumerate() {
                if site.thread != t {
                    continue;
                }
                match site.kind {
                    SiteKind::Order(x) if x.index() == i => out.insert(s),
                    SiteKind::Fence(_) if t2 == t && at.len() > 1 => {
                        let p = site.point.map_or(0, |p| p.at.index());
                        let between = if i < j {
                            i < p && p <= j
                        } else {
                            p > i || p <= j
                        };
                        if between {
                            out.insert(s);
                        }
                    }
                    _ => {}
                }
            }
        }
        out
    }

    /// The sites of the cycle of a bad execution of the failing set `set`.
    fn cycle_of(&mut self, set: &[usize]) -> Step<Option<SiteSet>> {
        let placement = self.strongest(set);
        let program = apply(self.program, &self.sites, &placement);
        let trial = self.trial(&placement)?.clone();
        let cycle = self
            .oracle
            .violation(&program, &trial.ran, &trial.table, &self.judge);
        Ok(cycle.map(|c| self.cycle_sites(&c)))
    }

    /// Grows the failing set `h` to a maximal failing set `S` and learns
    /// the clause `all \ S`.
    fn learn(&mut self, h: &[usize]) -> Step<()> {
        let n = self.n();
        let mut s = SiteSet::from_slice(n, h);
        if let Some(d) = self.cycle_of(h)? {
            let mut t = d.complement(n);
            t.union_with(&s);
            if t != s && self.fails(&t)? {
                s = t;
            }
        }
        let rest = s.complement(n).elements();
        self.grow(&mut s, &rest)?;
        self.clauses.push(s.complement(n).elements());
        self.proven.push(true);
        Ok(())
    }

    /// Adds to `s` the sites of `chunk` that keep it failing, halving
    /// chunks that do not.
    fn grow(&mut self, s: &mut SiteSet, chunk: &[usize]) -> Step<()> {
        if chunk.is_empty() {
            return Ok(());
        }
        let mut t = s.clone();
        for &e in chunk {
            t.insert(e);
        }
        if self.fails(&t)? {
            *s = t;
            return Ok(());
        }
        if chunk.len() == 1 {
            return Ok(());
        }
        let (left, right) = chunk.split_at(chunk.len() / 2);
        self.grow(s, left)?;
        self.grow(s, right)
    }

    /// The minimum number of sites, the minimum sets that work (up to
    /// `max`), and whether more exist (steps 2 and 4); `None` when no set
    /// of sites is left to try (every one failed or was undecided).
    fn minimum_sets(&mut self, max: usize) -> Step<Option<MinimumSets>> {
        let first = loop {
            let Some(h) = minimum_hitting_set(&self.clauses, self.n()) else {
                return Ok(None);
            };
            match self.verdict(&self.strongest(&h))? {
                Verdict::Works => break h,
                Verdict::Fails => self.learn(&h)?,
                Verdict::Unknown(bounds) => self.assume_fails(&h, bounds)?,
            }
        };
        let k = first.len();
        let mut found = vec![first];
        loop {
            let mut next = None;
            hitting_sets(&self.clauses, k, &mut |s| {
                if found.iter().any(|f| f == s) {
                    return true;
                }
                next = Some(s.to_vec());
                false
            });
            let Some(h) = next else {
                return Ok(Some((k, found, false)));
            };
            if found.len() >= max {
                return Ok(Some((k, found, true)));
            }
            match self.verdict(&self.strongest(&h))? {
                Verdict::Works => found.push(h),
                Verdict::Fails => self.learn(&h)?,
                Verdict::Unknown(bounds) => self.assume_fails(&h, bounds)?,
            }
        }
    }

    /// The size of a minimum hitting set of the proven clauses: no repair
    /// with fewer changes works.
    fn proven_lower_bound(&self) -> usize {
        let proven: Vec<Vec<usize>> = self
            .clauses
            .iter()
            .zip(&self.proven)
            .filter(|(_, p)| **p)
            .map(|(c, _)| c.clone())
            .collect();
        minimum_hitting_set(&proven, self.n()).map_or(0, |h| h.len())
    }

    /// Every option assignment of a set of sites, with its cost, cheapest
    /// first (ties by placement); `None` beyond [`MAX_KIND_ASSIGNMENTS`].
    fn assignments(&self, set: &[usize]) -> Option<Vec<(u32, Placement)>> {
        let total = set
            .iter()
            .map(|&s| self.sites[s].options.len())
            .try_fold(1usize, |acc, m| acc.checked_mul(m))?;
        if total > MAX_KIND_ASSIGNMENTS {
            return None;
        }
        let mut all: Vec<(u32, Placement)> = Vec::with_capacity(total);
        let mut idx = vec![0usize; set.len()];
        loop {
            let p: Placement = set
                .iter()
                .zip(&idx)
                .map(|(&s, &i)| (s, self.sites[s].options[i]))
                .collect();
            all.push((p.iter().map(|(_, c)| c.cost()).sum(), p));
            // Mixed-radix increment; done when every digit wrapped.
            let mut d = 0;
            while d < idx.len() {
                idx[d] += 1;
                if idx[d] < self.sites[set[d]].options.len() {
                    break;
                }
                idx[d] = 0;
                d += 1;
            }
            if d == idx.len() {
                break;
            }
        }
        all.sort();
        Some(all)
    }

    /// The cheapest working option assignments of a set of sites (step 5),
    /// and whether there were too many to try.
    fn cheapest(&mut self, set: &[usize]) -> Step<(Vec<(Placement, u32)>, bool)> {
        let Some(all) = self.assignments(set) else {
            let top = self.strongest(set);
            let cost = top.iter().map(|(_, c)| c.cost()).sum();
            return Ok((vec![(top, cost)], true));
        };
        let mut failed: Vec<Placement> = Vec::new();
        let mut best: Option<u32> = None;
        let mut out = Vec::new();
        for (cost, p) in all {
            if best.is_some_and(|b| cost > b) {
                break;
            }
            // Weaker than an assignment that failed: fails too.
            let dominated = failed.iter().any(|f| {
                f.iter()
                    .zip(&p)
                    .all(|((_, a), (_, b))| a.at_least(*b, self.family))
            });
            if dominated {
                continue;
            }
            match self.verdict(&p)? {
                Verdict::Works => {
                    best = Some(cost);
                    out.push((p, cost));
                }
                Verdict::Fails => failed.push(p),
                // Not known to work: not listed, and the strength of this
                // set is then minimal only among the assignments decided.
                Verdict::Unknown(bounds) => self.undecided(&p, bounds)?,
            }
        }
        Ok((out, false))
    }
}

/// Finds the minimum repairs of `program` under the oracle's model (see
/// the module docs).
pub fn repair(
    program: &Program,
    family: Repairs,
    oracle: &mut dyn Oracle,
    opts: &RepairOptions,
) -> Result<Repair, RepairError> {
    let (sc_ran, sc_table) = oracle.explore_sc(program)?;
    let judge = Judge::new(
        opts.goal,
        program,
        family == Repairs::C11,
        &sc_ran,
        &sc_table,
    )
    .map_err(RepairError::Goal)?;
    let sc_bad = judge.bad_behaviours(&sc_ran, &sc_table);
    let sc = Trial {
        ran: sc_ran,
        table: sc_table,
        bad: sc_bad,
    };
    let by_span = program
        .threads
        .iter()
        .enumerate()
        .flat_map(|(t, th)| {
            th.code.iter().enumerate().filter_map(move |(i, ins)| {
                ins.instr.location().map(|_| {
                    (
                        (ThreadId::new(t), ins.span.start, ins.span.end),
                        InstrId::new(i),
                    )
                })
            })
        })
        .collect();
    let mut search = Search {
        program,
        family,
        sites: candidate_sites(program, family),
        oracle,
        judge,
        budget: opts.budget.clone(),
        cache: BTreeMap::new(),
        clauses: Vec::new(),
        proven: Vec::new(),
        undecided: Vec::new(),
        runs: 1,
        unrolled: None,
        max_undecided: opts.max_undecided,
        by_span,
    };
    let original = match search.run(program) {
        Ok(t) => t,
        Err(Halt::Error(e)) => return Err(e),
        Err(Halt::Bound(_)) => unreachable!("relaxlab internal error: a run is no bound"),
    };
    if let Some(factor) = opts.state_factor {
        let states = original.table.stats.states.saturating_mul(factor);
        search.oracle.bound_states(states.max(MIN_RELATIVE_STATES));
    }
    let mut result = Repair {
        family,
        goal: opts.goal,
        sites: Vec::new(),
        sites_found: search.sites.len(),
        original,
        sc,
        strongest: None,
        status: Status::NothingToRepair,
        minimum: None,
        solutions: Vec::new(),
        more_solutions: false,
        strength_bounded: false,
        clauses: Vec::new(),
        lower_bound: 0,
        undecided: Vec::new(),
        runs: 0,
        unrolled: None,
    };
    let status = match search_repairs(&mut search, &mut result, opts) {
        Ok(status) => status,
        Err(Halt::Bound(bounds)) => Status::Stopped(bounds),
        Err(Halt::Error(e)) => return Err(e),
    };
    result.status = status;
    result.lower_bound = search.proven_lower_bound();
    result.undecided = std::mem::take(&mut search.undecided);
    result.clauses = search
        .clauses
        .iter()
        .zip(&search.proven)
        .filter(|(_, p)| **p)
        .map(|(c, _)| c.clone())
        .collect();
    result.sites = search.sites;
    result.runs = search.runs;
    result.unrolled = search.unrolled.or(result.original.unrolled());
    Ok(result)
}

/// Steps 1 to 5 of the module docs, filling `result`.
fn search_repairs(
    search: &mut Search<'_>,
    result: &mut Repair,
    opts: &RepairOptions,
) -> Step<Status> {
    match result.original.verdict() {
        Verdict::Works => return Ok(Status::NothingToRepair),
        Verdict::Unknown(bounds) => return Ok(Status::Stopped(bounds)),
        Verdict::Fails => {}
    }
    // The cut of --max-candidates: the sites of the first cycle first.
    if search.sites.len() > opts.max_sites {
        let original = &result.original;
        let first = search
            .oracle
            .violation(
                search.program,
                &original.ran,
                &original.table,
                &search.judge,
            )
            .map(|c| search.cycle_sites(&c));
        let n = search.sites.len();
        let on_cycle = first.unwrap_or_else(|| SiteSet::new(n));
        let mut keep: Vec<usize> = on_cycle.elements();
        keep.extend((0..n).filter(|i| !on_cycle.contains(*i)));
        keep.truncate(opts.max_sites);
        keep.sort_unstable();
        search.sites = keep.iter().map(|&i| search.sites[i].clone()).collect();
    }
    search.cache.insert(Vec::new(), result.original.clone());
    // Step 1: the strongest option everywhere.
    let everything: Vec<usize> = (0..search.n()).collect();
    let top = search.strongest(&everything);
    let strongest = search.trial(&top)?.clone();
    let verdict = strongest.verdict();
    result.strongest = Some(strongest);
    match verdict {
        Verdict::Fails => {
            return Ok(Status::Unrepairable {
                sc_fails: !result.sc.bad.is_empty(),
            })
        }
        // Undecided: the search goes on, and says it could not rule out
        // that no repair exists.
        Verdict::Unknown(bounds) => search.undecided(&top, bounds)?,
        Verdict::Works => {}
    }
    // Steps 2-4.
    let Some((k, sets, more)) = search.minimum_sets(opts.max_solutions)? else {
        let bounds = search
            .undecided
            .iter()
            .flat_map(|(_, b)| b.iter().copied())
            .fold(Vec::new(), |mut acc, b| {
                if !acc.contains(&b) {
                    acc.push(b);
                }
                acc
            });
        return Ok(Status::Stopped(bounds));
    };
    result.minimum = Some(k);
    result.more_solutions = more;
    // Step 5.
    let mut solutions = Vec::new();
    for set in &sets {
        let (cheapest, bounded) = search.cheapest(set)?;
        result.strength_bounded |= bounded;
        for (placement, cost) in cheapest {
            let trial = search.trial(&placement)?.clone();
            solutions.push(Solution {
                program: apply(search.program, &search.sites, &placement),
                placement,
                cost,
                trial,
            });
        }
    }
    solutions.sort_by(|a, b| (a.cost, &a.placement).cmp(&(b.cost, &b.placement)));
    if solutions.len() > opts.max_solutions {
        solutions.truncate(opts.max_solutions);
        result.more_solutions = true;
    }
    result.solutions = solutions;
    Ok(Status::Repaired)
}
