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
//! Results of runs are cached by placement. A run that hits a bound (max
//! states, unrolling, candidates, the budget) and found nothing bad proves
//! nothing: the search stops there and says which bound it hit. A bad
//! behaviour found before a bound is still bad.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::budget::Budget;
use crate::ir::{InstrId, Program, ThreadId};
use crate::outcome::{BoundHit, OutcomeTable};

use super::apply::{apply, Placement};
use super::goal::{Behaviour, Goal, GoalError, Judge};
use super::hitting::{hitting_sets, minimum_hitting_set, SiteSet};
use super::oracle::{CycleStatement, Oracle};
use super::site::{candidate_sites, Family, Site, SiteKind};

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
    /// Stop between runs when it runs out (each run also polls it).
    pub budget: Budget,
}

impl Default for RepairOptions {
    fn default() -> Self {
        RepairOptions {
            goal: Goal::Condition,
            max_sites: 200,
            max_solutions: 32,
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
    fn verdict(&self) -> Verdict {
        if !self.bad.is_empty() {
            Verdict::Fails
        } else if self.table.complete() {
            Verdict::Works
        } else {
            Verdict::Unknown(self.table.bounds.clone())
        }
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
    pub family: Family,
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
    /// Clauses learnt: the proof that no smaller repair works.
    pub clauses: Vec<Vec<usize>>,
    /// Exhaustive runs made (the cache spares repeats).
    pub runs: u64,
}

impl Repair {
    /// Did a bound cut the search (sites, listing, strength, a run)?
    pub fn bounded(&self) -> bool {
        self.sites_found > self.sites.len()
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
    family: Family,
    sites: Vec<Site>,
    oracle: &'a mut dyn Oracle,
    judge: Judge,
    budget: Budget,
    cache: BTreeMap<Placement, Trial>,
    clauses: Vec<Vec<usize>>,
    runs: u64,
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
            self.cache.insert(placement.clone(), trial);
        }
        Ok(&self.cache[placement])
    }

    /// The verdict on a placement; a bound that leaves it unknown stops the
    /// search.
    fn works(&mut self, placement: &Placement) -> Step<bool> {
        match self.trial(placement)?.verdict() {
            Verdict::Works => Ok(true),
            Verdict::Fails => Ok(false),
            Verdict::Unknown(bounds) => Err(Halt::Bound(bounds)),
        }
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
        let clause = s.complement(n).elements();
        debug_assert!(
            !clause.is_empty(),
            "relaxlab internal error: every site at its strongest fails"
        );
        self.clauses.push(clause);
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
    /// `max`), and whether more exist (steps 2 and 4).
    fn minimum_sets(&mut self, max: usize) -> Step<(usize, Vec<Vec<usize>>, bool)> {
        let first = loop {
            let h = minimum_hitting_set(&self.clauses, self.n()).expect(
                "relaxlab internal error: the strongest placement works, so clauses have hitting sets",
            );
            if self.works(&self.strongest(&h))? {
                break h;
            }
            self.learn(&h)?;
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
                return Ok((k, found, false));
            };
            if found.len() >= max {
                return Ok((k, found, true));
            }
            if self.works(&self.strongest(&h))? {
                found.push(h);
            } else {
                self.learn(&h)?;
            }
        }
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
            if self.works(&p)? {
                best = Some(cost);
                out.push((p, cost));
            } else {
                failed.push(p);
            }
        }
        Ok((out, false))
    }
}

/// Finds the minimum repairs of `program` under the oracle's model (see
/// the module docs).
pub fn repair(
    program: &Program,
    family: Family,
    oracle: &mut dyn Oracle,
    opts: &RepairOptions,
) -> Result<Repair, RepairError> {
    let (sc_ran, sc_table) = oracle.explore_sc(program)?;
    let judge = Judge::new(
        opts.goal,
        program,
        family == Family::C11,
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
        runs: 1,
        by_span,
    };
    let original = match search.run(program) {
        Ok(t) => t,
        Err(Halt::Error(e)) => return Err(e),
        Err(Halt::Bound(_)) => unreachable!("relaxlab internal error: a run is no bound"),
    };
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
        runs: 0,
    };
    let status = match search_repairs(&mut search, &mut result, opts) {
        Ok(status) => status,
        Err(Halt::Bound(bounds)) => Status::Stopped(bounds),
        Err(Halt::Error(e)) => return Err(e),
    };
    result.status = status;
    result.sites = search.sites;
    result.clauses = search.clauses;
    result.runs = search.runs;
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
        Verdict::Unknown(bounds) => return Ok(Status::Stopped(bounds)),
        Verdict::Works => {}
    }
    // Steps 2-4.
    let (k, sets, more) = search.minimum_sets(opts.max_solutions)?;
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
