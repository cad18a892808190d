//! Candidate executions of a loop-free program (book: axiomatic.md, Candidate executions).
//!
//! A *candidate* is a skeleton ([`super::skeleton`]) with an `rf` (for each
//! read, a write of the same location and value; any value for a free
//! read, which takes its source's) and a `co` (for each location, an order
//! of its writes, init first). Candidates are enumerated lazily, skeleton
//! by skeleton, then as the product over locations of each location's
//! choices, the last location varying fastest, so the order is
//! deterministic.
//!
//! Every model requires uniproc (SC per location, `acyclic(po-loc | com)`:
//! an axiom of the hardware models, a consequence of coherence with
//! `po ⊆ hb` for the C11 ones), so the enumeration applies it instead of
//! building candidates every model would reject: per location it keeps the
//! `rf`/`co` choices that pass uniproc there, and takes the product over
//! locations. Within a location it never lets a read read from a write
//! later in its own thread (CoRW; for an RMW, from its own write) nor
//! orders one thread's writes against program order (CoWW).
//!
//! A model may name *observer reads* ([`super::observers`]): reads whose
//! source only its coherence axiom constrains, location by location. Their
//! `rf` is then left out of the candidate: the enumeration hands out the
//! candidate without it (a *core*), with the observers' groups and the
//! number of uniproc candidates the core stands for, and the caller
//! enumerates or counts the observers' sources itself. Without observers a
//! core is a whole candidate.

use super::execution::{AxError, Event, EventId, EventKind, Execution};
use super::observers::{location_groups, Group};
use super::paths::Paths;
use super::relation::{single, EventSet, Relation};
use super::run::BUDGET_POLL;
pub(crate) use super::skeleton::{additional_synchronisation, init_events, program_order};
use super::skeleton::{build_skeleton, Chooser, Skeleton};
use crate::budget::Budget;
use crate::ir::{Program, Value};
use crate::outcome::BoundHit;

/// Counters of an enumeration.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Enumerated {
    /// Candidates passing uniproc, observers' choices included.
    pub candidates: u64,
    /// Combinations of thread paths examined.
    pub combinations: u64,
    /// The candidate bound was reached.
    pub truncated: bool,
    /// The budget ran out (Ctrl-C, time, memory): the enumeration stopped
    /// between two cores.
    pub stopped: Option<BoundHit>,
}

/// How many nodes of the search over path combinations may be visited
/// per allowed candidate: most are pruned at once by the value check, so
/// they are cheaper.
const COMBINATIONS_PER_CANDIDATE: u64 = 4;

/// A core candidate as the enumeration hands it out.
#[derive(Debug)]
pub(crate) struct Candidate<'a> {
    /// `rf` and `co` of every read but the observers; free reads carry
    /// their source's value; observers have no `rf` and value 0.
    pub exec: &'a Execution,
    /// Final registers per thread, free reads' values filled in; a
    /// register holding an observer's value holds 0.
    pub regs: &'a [Option<Vec<Value>>],
    pub skeleton: &'a Skeleton,
    /// The observer reads, grouped by thread and location.
    pub observers: &'a [&'a Group],
    /// The candidate bound cuts this core's extensions after this many,
    /// in their enumeration order ([`super::observers::Extensions`]).
    pub limit: Option<u64>,
}

/// Which reads of a skeleton are observers (an empty set: none).
pub(crate) type ObserverPolicy<'f> = dyn Fn(&Skeleton) -> EventSet + 'f;

/// Who orders the writes of each location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CoSource {
    /// The candidates carry their `co`.
    Engine,
    /// The model chooses `co` (herd7's models, `with co from ...`): the
    /// candidates carry `rf` and, for each location whose final value the
    /// test observes (`observed[l]`), its final write (herd's `FW`), each
    /// distinct pair once; `co` is empty.
    Model { observed: Vec<bool> },
}

/// Calls `visit` on every core candidate; at most `max` candidates,
/// observers' choices counted. `budget` is polled every [`BUDGET_POLL`]
/// candidates, between cores; once it runs out the enumeration stops and
/// says why ([`Enumerated::stopped`]).
pub(crate) fn for_each_candidate(
    program: &Program,
    paths: &Paths,
    max: u64,
    budget: &Budget,
    observers: &ObserverPolicy<'_>,
    co: &CoSource,
    visit: &mut dyn FnMut(&Candidate<'_>),
) -> Result<Enumerated, AxError> {
    let mut counters = Enumerated::default();
    let mut poll = Poll { budget, next: 0 };
    let mut chooser = Chooser::new(
        program,
        paths,
        max.saturating_mul(COMBINATIONS_PER_CANDIDATE),
    );
    chooser.choose(&mut |choice| {
        let skeleton = build_skeleton(program, choice)?;
        let obs = observers(&skeleton);
        enumerate_rf_co(&skeleton, obs, max, co, &mut poll, &mut counters, visit);
        Ok(!counters.truncated && counters.stopped.is_none())
    })?;
    counters.combinations = chooser.nodes;
    counters.truncated |= chooser.truncated;
    Ok(counters)
}

/// What to do with a complete choice of `rf` sources, `(write, read)`;
/// false stops the enumeration.
type OnSources<'f> = dyn FnMut(&[(usize, usize)]) -> bool + 'f;

/// The `rf` and `co` edges of one location in one candidate, and the
/// observer reads' groups there.
struct LocChoice {
    rf: Vec<(usize, usize)>,
    co: Vec<(usize, usize)>,
    /// The last write in `co`.
    last: Option<usize>,
    groups: Vec<Group>,
    /// The product of the groups' uniproc choices.
    extensions: u64,
}

/// Every core `rf` and `co` of a skeleton: per location, the choices that
/// pass uniproc on that location, then their product.
#[allow(clippy::too_many_arguments)]
fn enumerate_rf_co(
    skeleton: &Skeleton,
    observers: EventSet,
    max: u64,
    co: &CoSource,
    poll: &mut Poll<'_>,
    counters: &mut Enumerated,
    visit: &mut dyn FnMut(&Candidate<'_>),
) {
    let ex = &skeleton.exec;
    let mut locs: Vec<_> = ex.events.iter().filter_map(Event::loc).collect();
    locs.sort();
    locs.dedup();
    let mut per_loc: Vec<Vec<LocChoice>> = Vec::with_capacity(locs.len());
    for loc in locs {
        let events: Vec<usize> = (0..ex.len())
            .filter(|&e| ex.events[e].loc() == Some(loc))
            .collect();
        match location_choices(ex, &events, skeleton.free, observers, max) {
            Some(choices) if !choices.is_empty() => per_loc.push(match co {
                CoSource::Engine => choices,
                CoSource::Model { observed } => {
                    model_co_choices(choices, observed.get(loc.index()) == Some(&true))
                }
            }),
            Some(_) => return,
            None => {
                counters.truncated = true;
                return;
            }
        }
    }
    // One execution and one register file, rewritten for each candidate.
    let mut exec = ex.clone();
    let mut regs = skeleton.regs.clone();
    let mut idx = vec![0usize; per_loc.len()];
    loop {
        if counters.candidates >= max {
            counters.truncated = true;
            return;
        }
        if let Some(hit) = poll.exhausted(counters.candidates) {
            counters.stopped = Some(hit);
            return;
        }
        exec.rf.clear();
        exec.co.clear();
        let model_co = matches!(co, CoSource::Model { .. });
        let mut fw: EventSet = 0;
        let mut groups: Vec<&Group> = Vec::new();
        let mut extensions: u64 = 1;
        for (l, choices) in per_loc.iter().enumerate() {
            let choice = &choices[idx[l]];
            for &(w, r) in &choice.rf {
                exec.rf.add_idx(w, r);
                if skeleton.free & single(r) != 0 {
                    let value = exec.events[w].value().unwrap_or(0);
                    set_read_value(&mut exec.events[r], value);
                }
            }
            if model_co {
                if let Some(w) = choice.last {
                    fw |= single(w);
                }
            } else {
                for &(a, b) in &choice.co {
                    exec.co.add_idx(a, b);
                }
            }
            groups.extend(choice.groups.iter());
            extensions = extensions.saturating_mul(choice.extensions);
        }
        exec.fw = model_co.then_some(fw);
        for &(t, reg, e) in &skeleton.free_regs {
            if let Some(rs) = regs[t].as_mut() {
                rs[reg.index()] = exec.events[e].value().unwrap_or(0);
            }
        }
        // The bound may cut inside this core's extensions.
        let room = max - counters.candidates;
        let limit = (extensions > room).then_some(room);
        counters.candidates += extensions.min(room);
        counters.truncated |= limit.is_some();
        visit(&Candidate {
            exec: &exec,
            regs: &regs,
            skeleton,
            observers: &groups,
            limit,
        });
        if limit.is_some() || !step(&mut idx, |l| per_loc[l].len()) {
            return;
        }
    }
}

/// The budget, polled once [`BUDGET_POLL`] more candidates are counted.
struct Poll<'b> {
    budget: &'b Budget,
    /// The candidate count at which to poll next.
    next: u64,
}

impl Poll<'_> {
    /// The bound that ran out, if it is time to look and one has.
    fn exhausted(&mut self, candidates: u64) -> Option<BoundHit> {
        if candidates < self.next {
            return None;
        }
        self.next = candidates.saturating_add(BUDGET_POLL);
        self.budget.report(candidates);
        self.budget.exhausted()
    }
}

/// Sets the value a read event read.
pub(crate) fn set_read_value(event: &mut Event, v: Value) {
    if let EventKind::Read { value, .. } = &mut event.kind {
        *value = v;
    }
}

/// The `rf`/`co` choices of one location (its events `events`) that
/// satisfy uniproc there, `acyclic(po-loc | rf | co | fr)`: every model
/// requires it (the hardware models as an axiom, the C11 models through
/// coherence with `po ⊆ hb`). `None` when there are more than `max`.
/// The reads in `observers` get no source here: each choice carries their
/// groups instead.
///
/// With `co` a total order of the location's writes, uniproc is the five
/// coherence patterns (Alglave et al., "Herding cats", Sec. 4.3): CoWW
/// (`co` follows `po`, built into the orders), and for each read its source
/// `s` must not be `co`-after a write `po`-after the read (CoRW), nor
/// `co`-before a write `po`-before it (CoWR), and the sources of two reads
/// in `po` must not go backwards in `co` (CoRR). For each `co` order the
/// reads' sources are chosen in program order under those bounds. Debug
/// builds check every choice against the acyclicity itself.
fn location_choices(
    ex: &Execution,
    events: &[usize],
    free: EventSet,
    observers: EventSet,
    max: u64,
) -> Option<Vec<LocChoice>> {
    let writes: Vec<usize> = events
        .iter()
        .copied()
        .filter(|&w| ex.events[w].is_write())
        .collect();
    let reads: Vec<usize> = events
        .iter()
        .copied()
        .filter(|&r| ex.events[r].is_read() && observers & single(r) == 0)
        .collect();
    let observed: Vec<usize> = events
        .iter()
        .copied()
        .filter(|&r| ex.events[r].is_read() && observers & single(r) != 0)
        .collect();
    // The init write (thread None) comes first in `writes`.
    let (init, rest) = match writes.split_first() {
        Some((i, rest)) if ex.events[*i].thread.is_none() => (Some(*i), rest.to_vec()),
        _ => (None, writes.clone()),
    };
    let mut perms = Vec::new();
    permutations(
        &rest,
        &mut Vec::new(),
        &mut vec![false; rest.len()],
        &ex.po,
        &mut perms,
    );
    let mut out = Vec::new();
    let mut pos = vec![usize::MAX; ex.len()];
    for perm in perms {
        let order: Vec<usize> = init.into_iter().chain(perm).collect();
        for (i, &w) in order.iter().enumerate() {
            pos[w] = i;
        }
        let mut co_pairs = Vec::new();
        for (i, &a) in order.iter().enumerate() {
            for &b in &order[i + 1..] {
                co_pairs.push((a, b));
            }
        }
        // Per read: the sources its value and CoRW/CoWR allow.
        let mut allowed: Vec<Vec<usize>> = Vec::with_capacity(reads.len());
        for &r in &reads {
            let value = ex.events[r].value();
            let any_value = free & single(r) != 0;
            let hi = writes
                .iter()
                .filter(|&&w| ex.po.has(r, w))
                .map(|&w| pos[w])
                .min()
                .unwrap_or(usize::MAX);
            let lo = writes
                .iter()
                .filter(|&&w| ex.po.has(w, r))
                .map(|&w| pos[w])
                .max()
                .unwrap_or(0);
            allowed.push(
                order
                    .iter()
                    .copied()
                    .filter(|&s| {
                        (any_value || ex.events[s].value() == value) && pos[s] >= lo && pos[s] < hi
                    })
                    .collect(),
            );
        }
        let mut chosen = Vec::with_capacity(reads.len());
        let fits = choose_sources(ex, &reads, &allowed, &pos, &mut chosen, &mut |rf| {
            debug_assert!(
                uniproc_holds(ex, events, rf, &co_pairs),
                "relaxlab internal error: coherence patterns admitted a uniproc cycle"
            );
            let groups = location_groups(ex, &order, &pos, &observed, rf);
            let extensions = groups
                .iter()
                .fold(1u64, |acc, g| acc.saturating_mul(g.uniproc_choices()));
            out.push(LocChoice {
                rf: rf.to_vec(),
                co: co_pairs.clone(),
                last: order.last().copied(),
                groups,
                extensions,
            });
            out.len() as u64 <= max
        });
        if !fits {
            return None;
        }
    }
    Some(out)
}

/// A location's choices when the model chooses `co`: each distinct `rf`
/// with, when the location is observed, each distinct final write (the
/// last of some coherent order), in the order first met. Only choices
/// that some coherence order makes uniproc reach here, so a choice every
/// model would reject is still left out.
fn model_co_choices(choices: Vec<LocChoice>, observed: bool) -> Vec<LocChoice> {
    let mut out: Vec<LocChoice> = Vec::new();
    for mut c in choices {
        c.rf.sort_unstable();
        if !observed {
            c.last = None;
        }
        if out.iter().any(|o| o.rf == c.rf && o.last == c.last) {
            continue;
        }
        c.co.clear();
        out.push(c);
    }
    out
}

/// Chooses a source for each read in turn (CoRR: within a thread, sources
/// of later reads are not `co`-before those of earlier ones); calls `f`
/// with each complete choice. False when `f` asks to stop.
fn choose_sources(
    ex: &Execution,
    reads: &[usize],
    allowed: &[Vec<usize>],
    pos: &[usize],
    chosen: &mut Vec<(usize, usize)>,
    f: &mut OnSources<'_>,
) -> bool {
    let i = chosen.len();
    if i == reads.len() {
        return f(chosen);
    }
    let r = reads[i];
    // CoRR: the latest source among this thread's earlier reads.
    let floor = chosen
        .iter()
        .filter(|&&(_, r0)| ex.po.has(r0, r))
        .map(|&(s, _)| pos[s])
        .max()
        .unwrap_or(0);
    for &s in &allowed[i] {
        if pos[s] < floor {
            continue;
        }
        chosen.push((s, r));
        let go_on = choose_sources(ex, reads, allowed, pos, chosen, f);
        chosen.pop();
        if !go_on {
            return false;
        }
    }
    true
}

/// `acyclic(po-loc | rf | co | fr)` on one location, computed directly
/// (the reads without a source in `rf_pairs` take no part).
fn uniproc_holds(
    ex: &Execution,
    events: &[usize],
    rf_pairs: &[(usize, usize)],
    co_pairs: &[(usize, usize)],
) -> bool {
    let n = ex.len();
    let sourced = rf_pairs.iter().fold(0u128, |acc, &(_, r)| acc | single(r));
    let set = events
        .iter()
        .filter(|&&e| ex.events[e].is_write() || sourced & single(e) != 0)
        .fold(0u128, |acc, &e| acc | single(e));
    let mut rf = Relation::new(n);
    let mut co = Relation::new(n);
    for &(w, r) in rf_pairs {
        rf.add_idx(w, r);
    }
    for &(a, b) in co_pairs {
        co.add_idx(a, b);
    }
    let fr = rf.inverse().seq(&co);
    ex.po
        .restrict(set, set)
        .union(&rf)
        .union(&co)
        .union(&fr)
        .acyclic()
        .is_ok()
}

/// Advances a mixed-radix counter (last digit fastest); false when it
/// wraps around to all zeros.
pub(crate) fn step(digits: &mut [usize], radix: impl Fn(usize) -> usize) -> bool {
    for i in (0..digits.len()).rev() {
        digits[i] += 1;
        if digits[i] < radix(i) {
            return true;
        }
        digits[i] = 0;
    }
    false
}

/// Every order of `items` that keeps same-thread writes in program order
/// (CoWW), in lexicographic order of positions.
fn permutations(
    items: &[usize],
    prefix: &mut Vec<usize>,
    used: &mut Vec<bool>,
    po: &Relation,
    out: &mut Vec<Vec<usize>>,
) {
    if prefix.len() == items.len() {
        out.push(prefix.clone());
        return;
    }
    for i in 0..items.len() {
        if used[i] {
            continue;
        }
        // CoWW: a write may come next only if no unused write precedes it
        // in program order.
        let blocked = (0..items.len()).any(|j| !used[j] && j != i && po.has(items[j], items[i]));
        if blocked {
            continue;
        }
        used[i] = true;
        prefix.push(items[i]);
        permutations(items, prefix, used, po, out);
        prefix.pop();
        used[i] = false;
    }
}

/// The final value of each location in a candidate: its `co`-last write.
pub(crate) fn final_values(exec: &Execution, locations: usize) -> Vec<Value> {
    let mut out = vec![0; locations];
    for (w, ev) in exec.events.iter().enumerate() {
        if let EventKind::Write { loc, value, .. } = ev.kind {
            let last = match exec.fw {
                Some(fw) => fw & single(w) != 0,
                None => exec.co.row(w) == 0,
            };
            if last && loc.index() < locations {
                out[loc.index()] = value;
            }
        }
    }
    out
}

/// The event ids of a list of indices.
pub(crate) fn ids(v: &[usize]) -> Vec<EventId> {
    v.iter().map(|&e| EventId::new(e)).collect()
}
