//! Candidate executions of a loop-free program (MODELS.md 4).
//!
//! A *skeleton* is one choice of a path per thread (see [`super::paths`]):
//! its events (init writes first, then each thread's in program order),
//! `po`, `asw` and `rmw`. A *candidate* adds an `rf` (for each read, a write
//! of the same location and value) and a `co` (for each location, an order
//! of its writes, init first). Candidates are enumerated lazily, skeleton by
//! skeleton, `rf` choices then `co` orders varying fastest last, so the
//! order is deterministic.
//!
//! Every model requires uniproc (SC per location, `acyclic(po-loc | com)`:
//! an axiom of the hardware models, a consequence of coherence with
//! `po ⊆ hb` for the C11 ones), so the enumeration applies it instead of
//! building candidates every model would reject: per location it keeps the
//! `rf`/`co` choices that pass uniproc there, and takes the product over
//! locations. Within a location it never lets a read read from a write
//! later in its own thread (CoRW; for an RMW, from its own write) nor
//! orders one thread's writes against program order (CoWW).

use super::execution::{AccessKind, AxError, Event, EventId, EventKind, Execution, Mode};
use super::paths::{fence_mode, PathEnd, PathOp, Paths, ThreadPath};
use super::relation::{Relation, MAX_EVENTS};
use crate::ir::{LocId, Program, ThreadId, ThreadKind, Value};
use crate::outcome::FailureKind;

/// A skeleton and what its threads ended with.
#[derive(Clone, Debug)]
pub(crate) struct Skeleton {
    /// `rf` and `co` empty.
    pub exec: Execution,
    /// Final registers per thread; `None` for a thread never started.
    pub regs: Vec<Option<Vec<Value>>>,
    /// The ways threads of this skeleton failed (a thread failing ends it).
    pub failures: Vec<FailureKind>,
}

/// Counters of an enumeration.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Enumerated {
    pub candidates: u64,
    /// Combinations of thread paths examined.
    pub combinations: u64,
    /// The candidate bound was reached.
    pub truncated: bool,
}

/// How many nodes of the search over path combinations may be visited
/// per allowed candidate: most are pruned at once by the value check, so
/// they are cheaper.
const COMBINATIONS_PER_CANDIDATE: u64 = 4;

/// Calls `visit` on every candidate, at most `max` of them.
pub(crate) fn for_each_candidate(
    program: &Program,
    paths: &Paths,
    max: u64,
    visit: &mut dyn FnMut(&Execution, &Skeleton),
) -> Result<Enumerated, AxError> {
    let mut counters = Enumerated::default();
    let mut chooser = Chooser::new(
        program,
        paths,
        max.saturating_mul(COMBINATIONS_PER_CANDIDATE),
    );
    chooser.choose(&mut |choice| {
        let skeleton = build_skeleton(program, choice)?;
        enumerate_rf_co(&skeleton, max, &mut counters, visit);
        Ok(!counters.truncated)
    })?;
    counters.combinations = chooser.nodes;
    counters.truncated |= chooser.truncated;
    Ok(counters)
}

/// What to do with a complete choice of paths (one per thread, `None` for
/// a thread never started); false stops the enumeration.
type OnChoice<'f, 'a> = dyn FnMut(&[Option<&'a ThreadPath>]) -> Result<bool, AxError> + 'f;

/// What to do with a complete choice of `rf` sources, `(write, read)`;
/// false stops the enumeration.
type OnSources<'f> = dyn FnMut(&[(usize, usize)]) -> bool + 'f;

/// The search over combinations of one path per started thread (a forked
/// thread starts iff its parent's path contains its fork), thread by
/// thread, pruned by the value check: every value read by the chosen
/// paths must be an initial value, written by a chosen path, or possibly
/// written by a thread not chosen yet. When the last thread is chosen the
/// check is exact, so every complete choice can give its reads their
/// values; a prefix is dropped as soon as no later thread can supply a
/// value it reads. The order of the complete choices is that of the
/// unpruned product, so enumeration stays deterministic.
struct Chooser<'a> {
    program: &'a Program,
    paths: &'a Paths,
    /// `supply[t]`: every (location, value) some path of a thread `t..`
    /// writes, sorted; `supply[threads]` is empty.
    supply: Vec<Vec<(LocId, Value)>>,
    chosen: Vec<Option<&'a ThreadPath>>,
    /// The writes of the chosen paths.
    provided: Vec<(LocId, Value)>,
    /// Nodes visited (paths tried at some depth), against `limit`.
    nodes: u64,
    limit: u64,
    truncated: bool,
}

/// The writes of a path, as (location, value).
fn path_writes(path: &ThreadPath) -> impl Iterator<Item = (LocId, Value)> + '_ {
    path.steps.iter().filter_map(|step| match step.op {
        PathOp::Write { loc, value, .. } => Some((loc, value)),
        PathOp::Update { loc, wrote, .. } => Some((loc, wrote)),
        _ => None,
    })
}

/// The reads of a path, as (location, value).
fn path_reads(path: &ThreadPath) -> impl Iterator<Item = (LocId, Value)> + '_ {
    path.steps.iter().filter_map(|step| match step.op {
        PathOp::Read { loc, value, .. } => Some((loc, value)),
        PathOp::Update { loc, read, .. } => Some((loc, read)),
        _ => None,
    })
}

impl<'a> Chooser<'a> {
    fn new(program: &'a Program, paths: &'a Paths, limit: u64) -> Self {
        let n = program.threads.len();
        let mut supply = vec![Vec::new(); n + 1];
        for t in (0..n).rev() {
            let mut here = supply[t + 1].clone();
            for path in &paths.threads[t] {
                here.extend(path_writes(path));
            }
            here.sort_unstable();
            here.dedup();
            supply[t] = here;
        }
        Chooser {
            program,
            paths,
            supply,
            chosen: Vec::with_capacity(n),
            provided: Vec::new(),
            nodes: 0,
            limit,
            truncated: false,
        }
    }

    fn choose(&mut self, f: &mut OnChoice<'_, 'a>) -> Result<bool, AxError> {
        let program = self.program;
        let t = self.chosen.len();
        if t == program.threads.len() {
            if started_threads_consistent(program, &self.chosen) {
                return f(&self.chosen);
            }
            return Ok(true);
        }
        let started = match program.threads[t].kind {
            ThreadKind::TopLevel => Some(true),
            ThreadKind::Forked { parent, .. } if parent.index() < t => {
                Some(self.chosen[parent.index()].is_some_and(|p| forks(p, ThreadId::new(t))))
            }
            // A parent numbered after its child: decided at the end.
            ThreadKind::Forked { .. } => None,
        };
        if started != Some(true) && !self.try_path(None, f)? {
            return Ok(false);
        }
        if started != Some(false) {
            let paths = self.paths;
            for path in &paths.threads[t] {
                if !self.try_path(Some(path), f)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// Chooses `path` for the next thread and searches on, unless the
    /// value check prunes it; false when the enumeration must stop.
    fn try_path(
        &mut self,
        path: Option<&'a ThreadPath>,
        f: &mut OnChoice<'_, 'a>,
    ) -> Result<bool, AxError> {
        // Visited nodes count against the bound too, so a program whose
        // paths multiply out cannot run unbounded without saying so.
        self.nodes += 1;
        if self.nodes > self.limit {
            self.truncated = true;
            return Ok(false);
        }
        let mark = self.provided.len();
        if let Some(p) = path {
            self.provided.extend(path_writes(p));
        }
        self.chosen.push(path);
        let go_on = if self.reads_suppliable() {
            self.choose(f)?
        } else {
            true
        };
        self.chosen.pop();
        self.provided.truncate(mark);
        Ok(go_on)
    }

    /// Can every read of the chosen paths get its value: initially, from a
    /// chosen path, or from a path of a thread not chosen yet?
    fn reads_suppliable(&self) -> bool {
        let later = &self.supply[self.chosen.len()];
        let locations = &self.program.locations;
        self.chosen.iter().flatten().all(|path| {
            path_reads(path).all(|(loc, value)| {
                locations[loc.index()].init == value
                    || self.provided.contains(&(loc, value))
                    || later.binary_search(&(loc, value)).is_ok()
            })
        })
    }
}

fn forks(path: &ThreadPath, child: ThreadId) -> bool {
    path.steps
        .iter()
        .any(|s| matches!(s.op, PathOp::Fork(c) if c == child))
}

fn started_threads_consistent(program: &Program, chosen: &[Option<&ThreadPath>]) -> bool {
    program
        .threads
        .iter()
        .enumerate()
        .all(|(t, code)| match code.kind {
            ThreadKind::TopLevel => chosen[t].is_some(),
            ThreadKind::Forked { parent, .. } => {
                let forked = chosen
                    .get(parent.index())
                    .copied()
                    .flatten()
                    .is_some_and(|p| forks(p, ThreadId::new(t)));
                forked == chosen[t].is_some()
            }
        })
}

/// The init writes, one per location, first among the events.
pub(crate) fn init_events(program: &Program) -> Vec<Event> {
    program
        .locations
        .iter()
        .enumerate()
        .map(|(l, loc)| Event {
            thread: None,
            instr: None,
            line: 0,
            kind: EventKind::Write {
                loc: LocId::new(l),
                value: loc.init,
                access: AccessKind::Plain,
            },
            mode: Mode::Na,
        })
        .collect()
}

/// `po` over `n` events: each thread's events (`ranges`, per thread, `None`
/// for a thread never started) in order.
pub(crate) fn program_order(n: usize, ranges: &[Option<(usize, usize)>]) -> Relation {
    let mut po = Relation::new(n);
    for &(start, end) in ranges.iter().flatten() {
        for a in start..end {
            for b in a + 1..end {
                po.add_idx(a, b);
            }
        }
    }
    po
}

/// `asw`: the init writes (the first `inits` events) before every thread
/// event, a fork before its child's first event, the child's last event
/// (or its fork, for a child without events) before its join. Also says
/// whether some join names a thread that never started.
pub(crate) fn additional_synchronisation(
    events: &[Event],
    inits: usize,
    ranges: &[Option<(usize, usize)>],
) -> (Relation, bool) {
    let n = events.len();
    let mut asw = Relation::new(n);
    let mut joins_unstarted = false;
    for init in 0..inits {
        for e in inits..n {
            asw.add_idx(init, e);
        }
    }
    for (e, event) in events.iter().enumerate() {
        match event.kind {
            EventKind::Fork { child } => {
                if let Some((s, end)) = ranges.get(child.index()).copied().flatten() {
                    if s < end {
                        asw.add_idx(e, s);
                    }
                }
            }
            EventKind::Join { child } => match ranges.get(child.index()).copied().flatten() {
                Some((s, end)) if s < end => asw.add_idx(end - 1, e),
                Some(_) => {
                    // An empty child: it finished right after its fork.
                    if let Some(fork) = events
                        .iter()
                        .position(|f| matches!(f.kind, EventKind::Fork { child: c } if c == child))
                    {
                        asw.add_idx(fork, e);
                    }
                }
                None => joins_unstarted = true,
            },
            _ => {}
        }
    }
    (asw, joins_unstarted)
}

/// Events, `po`, `asw` and `rmw` of one choice of paths.
fn build_skeleton(program: &Program, choice: &[Option<&ThreadPath>]) -> Result<Skeleton, AxError> {
    let mut events = init_events(program);
    let inits = events.len();
    // Per thread, the range of its events.
    let mut ranges: Vec<Option<(usize, usize)>> = Vec::with_capacity(choice.len());
    let mut rmw_pairs = Vec::new();
    let mut failures = Vec::new();
    for (t, path) in choice.iter().enumerate() {
        let Some(path) = path else {
            ranges.push(None);
            continue;
        };
        let thread = Some(ThreadId::new(t));
        let start = events.len();
        for step in &path.steps {
            let ev = |kind, mode| Event {
                thread,
                instr: Some(step.instr),
                line: step.line,
                kind,
                mode,
            };
            match step.op {
                PathOp::Read {
                    loc,
                    value,
                    mode,
                    access,
                } => events.push(ev(EventKind::Read { loc, value, access }, mode)),
                PathOp::Write { loc, value, mode } => events.push(ev(
                    EventKind::Write {
                        loc,
                        value,
                        access: AccessKind::Plain,
                    },
                    mode,
                )),
                PathOp::Update {
                    loc,
                    read,
                    wrote,
                    read_mode,
                    write_mode,
                } => {
                    rmw_pairs.push((events.len(), events.len() + 1));
                    events.push(ev(
                        EventKind::Read {
                            loc,
                            value: read,
                            access: AccessKind::Update,
                        },
                        read_mode,
                    ));
                    events.push(ev(
                        EventKind::Write {
                            loc,
                            value: wrote,
                            access: AccessKind::Update,
                        },
                        write_mode,
                    ));
                }
                PathOp::Fence(kind) => events.push(ev(EventKind::Fence(kind), fence_mode(kind))),
                PathOp::Fork(child) => events.push(ev(EventKind::Fork { child }, Mode::Na)),
                PathOp::Join(child) => events.push(ev(EventKind::Join { child }, Mode::Na)),
            }
        }
        if let PathEnd::Failed(kind) = &path.end {
            failures.push(kind.clone());
        }
        ranges.push(Some((start, events.len())));
    }
    let n = events.len();
    if n > MAX_EVENTS {
        return Err(AxError::TooManyEvents {
            events: n,
            max: MAX_EVENTS,
        });
    }
    let po = program_order(n, &ranges);
    let (asw, joins_unstarted) = additional_synchronisation(&events, inits, &ranges);
    if joins_unstarted {
        // Joining a thread that never started waits forever.
        failures.push(FailureKind::Deadlock);
    }
    let mut rmw = Relation::new(n);
    for (r, w) in rmw_pairs {
        rmw.add_idx(r, w);
    }
    // Threads joining each other in a circle wait forever.
    if po.union(&asw).acyclic().is_err() && !failures.contains(&FailureKind::Deadlock) {
        failures.push(FailureKind::Deadlock);
    }
    let regs = choice.iter().map(|p| p.map(|p| p.regs.clone())).collect();
    Ok(Skeleton {
        exec: Execution {
            events,
            po,
            rf: Relation::new(n),
            co: Relation::new(n),
            asw,
            rmw,
            sc: None,
        },
        regs,
        failures,
    })
}

/// The `rf` and `co` edges of one location in one candidate.
struct LocChoice {
    rf: Vec<(usize, usize)>,
    co: Vec<(usize, usize)>,
}

/// Every `rf` and `co` of a skeleton: per location, the choices that pass
/// uniproc on that location, then their product.
fn enumerate_rf_co(
    skeleton: &Skeleton,
    max: u64,
    counters: &mut Enumerated,
    visit: &mut dyn FnMut(&Execution, &Skeleton),
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
        match location_choices(ex, &events, max) {
            Some(choices) if !choices.is_empty() => per_loc.push(choices),
            Some(_) => return,
            None => {
                counters.truncated = true;
                return;
            }
        }
    }
    let mut idx = vec![0usize; per_loc.len()];
    loop {
        if counters.candidates >= max {
            counters.truncated = true;
            return;
        }
        counters.candidates += 1;
        let mut exec = ex.clone();
        for (l, choices) in per_loc.iter().enumerate() {
            let choice = &choices[idx[l]];
            for &(w, r) in &choice.rf {
                exec.rf.add_idx(w, r);
            }
            for &(a, b) in &choice.co {
                exec.co.add_idx(a, b);
            }
        }
        visit(&exec, skeleton);
        if !step(&mut idx, |l| per_loc[l].len()) {
            return;
        }
    }
}

/// The `rf`/`co` choices of one location (its events `events`) that
/// satisfy uniproc there, `acyclic(po-loc | rf | co | fr)`: every model
/// requires it (the hardware models as an axiom, the C11 models through
/// coherence with `po ⊆ hb`). `None` when there are more than `max`.
///
/// With `co` a total order of the location's writes, uniproc is the five
/// coherence patterns (Alglave et al., "Herding cats", Sec. 4.3): CoWW
/// (`co` follows `po`, built into the orders), and for each read its source
/// `s` must not be `co`-after a write `po`-after the read (CoRW), nor
/// `co`-before a write `po`-before it (CoWR), and the sources of two reads
/// in `po` must not go backwards in `co` (CoRR). For each `co` order the
/// reads' sources are chosen in program order under those bounds. Debug
/// builds check every choice against the acyclicity itself.
fn location_choices(ex: &Execution, events: &[usize], max: u64) -> Option<Vec<LocChoice>> {
    let writes: Vec<usize> = events
        .iter()
        .copied()
        .filter(|&w| ex.events[w].is_write())
        .collect();
    let reads: Vec<usize> = events
        .iter()
        .copied()
        .filter(|&r| ex.events[r].is_read())
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
                    .filter(|&s| ex.events[s].value() == value && pos[s] >= lo && pos[s] < hi)
                    .collect(),
            );
        }
        let mut chosen = Vec::with_capacity(reads.len());
        let fits = choose_sources(ex, &reads, &allowed, &pos, &mut chosen, &mut |rf| {
            debug_assert!(
                uniproc_holds(ex, events, rf, &co_pairs),
                "relaxlab internal error: coherence patterns admitted a uniproc cycle"
            );
            out.push(LocChoice {
                rf: rf.to_vec(),
                co: co_pairs.clone(),
            });
            out.len() as u64 <= max
        });
        if !fits {
            return None;
        }
    }
    Some(out)
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

/// `acyclic(po-loc | rf | co | fr)` on one location, computed directly.
fn uniproc_holds(
    ex: &Execution,
    events: &[usize],
    rf_pairs: &[(usize, usize)],
    co_pairs: &[(usize, usize)],
) -> bool {
    let n = ex.len();
    let set = events
        .iter()
        .fold(0u128, |acc, &e| acc | super::relation::single(e));
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
            if exec.co.row(w) == 0 && loc.index() < locations {
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
