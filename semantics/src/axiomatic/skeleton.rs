//! Skeletons: one path per thread, as events (book: axiomatic.md, Candidate executions).
//!
//! A *skeleton* is one choice of a path per thread (see [`super::paths`]):
//! its events (init writes first, then each thread's in program order),
//! `po`, `asw` and `rmw`. [`super::candidates`] adds `rf` and `co`. The
//! choices of paths are searched thread by thread ([`Chooser`]), pruned by
//! the values the paths read, in a deterministic order.

use super::execution::{AccessKind, AxError, Event, EventKind, Execution, Mode, PathDeps};
use super::paths::{fence_mode, PathEnd, PathOp, Paths, ThreadPath};
use super::relation::{members, single, EventSet, Relation, MAX_EVENTS};
use crate::ir::{LocId, Program, RegId, ThreadId, ThreadKind, Value};
use crate::outcome::FailureKind;

/// A skeleton and what its threads ended with.
///
/// Invariant: `free` holds reads only, each with value 0 in `exec` (the
/// value comes with `rf`); every event of `free_regs` is in `free`.
#[derive(Clone, Debug)]
pub(crate) struct Skeleton {
    /// `rf` and `co` empty.
    pub exec: Execution,
    /// Final registers per thread; `None` for a thread never started. A
    /// register of `free_regs` holds 0 here.
    pub regs: Vec<Option<Vec<Value>>>,
    /// The ways threads of this skeleton failed (a thread failing ends it).
    pub failures: Vec<FailureKind>,
    /// The free reads ([`super::free_reads`]): their value is their
    /// source's.
    pub free: EventSet,
    /// The final registers that hold a free read's value: thread,
    /// register, read event.
    pub free_regs: Vec<(usize, RegId, usize)>,
}

/// What to do with a complete choice of paths (one per thread, `None` for
/// a thread never started); false stops the enumeration.
pub(crate) type OnChoice<'f, 'a> =
    dyn FnMut(&[Option<&'a ThreadPath>]) -> Result<bool, AxError> + 'f;

/// The search over combinations of one path per started thread (a forked
/// thread starts iff its parent's path contains its fork), thread by
/// thread, pruned by the value check: every value read by the chosen
/// paths must be an initial value, written by a chosen path, or possibly
/// written by a thread not chosen yet. When the last thread is chosen the
/// check is exact, so every complete choice can give its reads their
/// values; a prefix is dropped as soon as no later thread can supply a
/// value it reads. The order of the complete choices is that of the
/// unpruned product, so enumeration stays deterministic.
pub(crate) struct Chooser<'a> {
    program: &'a Program,
    paths: &'a Paths,
    /// `supply[t]`: every (location, value) some path of a thread `t..`
    /// writes, sorted; `supply[threads]` is empty.
    supply: Vec<Vec<(LocId, Value)>>,
    chosen: Vec<Option<&'a ThreadPath>>,
    /// The writes of the chosen paths.
    provided: Vec<(LocId, Value)>,
    /// Nodes visited (paths tried at some depth), against `limit`.
    pub(crate) nodes: u64,
    limit: u64,
    pub(crate) truncated: bool,
}

/// The writes of a path, as (location, value).
fn path_writes(path: &ThreadPath) -> impl Iterator<Item = (LocId, Value)> + '_ {
    path.steps.iter().filter_map(|step| match step.op {
        PathOp::Write { loc, value, .. } => Some((loc, value)),
        PathOp::Update { loc, wrote, .. } => Some((loc, wrote)),
        _ => None,
    })
}

/// The reads of a path whose value the path fixed, as (location, value):
/// a free read takes any value its source has.
fn path_reads(path: &ThreadPath) -> impl Iterator<Item = (LocId, Value)> + '_ {
    path.steps.iter().filter_map(|step| match step.op {
        PathOp::Read {
            loc,
            value,
            free: false,
            ..
        } => Some((loc, value)),
        PathOp::Update { loc, read, .. } => Some((loc, read)),
        _ => None,
    })
}

impl<'a> Chooser<'a> {
    pub(crate) fn new(program: &'a Program, paths: &'a Paths, limit: u64) -> Self {
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

    pub(crate) fn choose(&mut self, f: &mut OnChoice<'_, 'a>) -> Result<bool, AxError> {
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
            tags: 0,
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
pub(crate) fn build_skeleton(
    program: &Program,
    choice: &[Option<&ThreadPath>],
) -> Result<Skeleton, AxError> {
    let mut events = init_events(program);
    let inits = events.len();
    // Per thread, the range of its events.
    let mut ranges: Vec<Option<(usize, usize)>> = Vec::with_capacity(choice.len());
    let mut rmw_pairs = Vec::new();
    let mut failures = Vec::new();
    let mut free: EventSet = 0;
    let mut free_regs = Vec::new();
    let mut herd_runs: Vec<(usize, &crate::csem::paths::CPath)> = Vec::new();
    for (t, path) in choice.iter().enumerate() {
        let Some(path) = path else {
            ranges.push(None);
            continue;
        };
        let thread = Some(ThreadId::new(t));
        let start = events.len();
        if let Some(herd) = &path.herd {
            // A herd C run brings its own events and relations.
            for ev in &herd.events {
                events.push(Event { thread, ..*ev });
            }
            for &(r, w) in &herd.rmw {
                rmw_pairs.push((start + r, start + w));
            }
            herd_runs.push((start, herd.as_ref()));
            if let PathEnd::Failed(kind) = &path.end {
                failures.push(kind.clone());
            }
            ranges.push(Some((start, events.len())));
            continue;
        }
        // The event index of each step (an RMW's is its read's).
        let mut step_event = Vec::with_capacity(path.steps.len());
        for step in &path.steps {
            step_event.push(events.len());
            let ev = |kind, mode| Event {
                thread,
                instr: Some(step.instr),
                line: step.line,
                kind,
                mode,
                tags: 0,
            };
            match step.op {
                PathOp::Read {
                    loc,
                    value,
                    mode,
                    access,
                    free: is_free,
                } => {
                    if is_free && events.len() < MAX_EVENTS {
                        free |= single(events.len());
                    }
                    events.push(ev(EventKind::Read { loc, value, access }, mode))
                }
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
        for &(reg, s) in &path.free_regs {
            free_regs.push((t, reg, step_event[s]));
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
    // A herd C run's program order is its own (unsequenced operands stay
    // unordered); the other threads' is the order of their events.
    let herd_starts: Vec<usize> = herd_runs.iter().map(|&(s, _)| s).collect();
    let plain_ranges: Vec<Option<(usize, usize)>> = ranges
        .iter()
        .map(|r| r.filter(|(s, _)| !herd_starts.contains(s)))
        .collect();
    let mut po = program_order(n, &plain_ranges);
    let mut deps = (!herd_runs.is_empty()).then(|| PathDeps {
        addr: Relation::new(n),
        data: Relation::new(n),
        ctrl: Relation::new(n),
    });
    for &(start, herd) in &herd_runs {
        let shift = |rows: &[u128], into: &mut Relation| {
            for (a, row) in rows.iter().enumerate() {
                for b in members(*row) {
                    into.add_idx(start + a, start + b);
                }
            }
        };
        shift(&herd.po, &mut po);
        if let Some(d) = deps.as_mut() {
            shift(&herd.addr, &mut d.addr);
            shift(&herd.data, &mut d.data);
            shift(&herd.ctrl, &mut d.ctrl);
        }
    }
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
            deps: deps.map(Box::new),
            fw: None,
            updates: 0,
        },
        regs,
        failures,
        free,
        free_regs,
    })
}
