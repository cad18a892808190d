//! The seed search: MCR's constraint solving (Sec. 2.3, 4.1), done by a
//! breadth-first search over the partial executions of one explored trace
//! (book: mcr.md, Maximal causality).
//!
//! MCR asks an SMT solver for an order of the trace's events such that
//! - must-happen-before holds, relaxed per model (Sec. 4.1: TSO keeps
//!   read-read, read-write and write-write order and same-address order,
//!   PSO drops write-write order across addresses, synchronisation keeps
//!   all of its order);
//! - validity: every read the target depends on returns the value it
//!   returned in the trace;
//! - state: the target read returns a new value.
//!
//! It takes the shortest such order as the seed.
//!
//! The search here asks the same question of the same events, without an
//! encoding: it runs the trace's own operations (each thread's, in program
//! order, with their operands as the trace evaluated them) on the memory
//! model itself, where a load may only return the value it returned in the
//! trace (validity: beyond a read that returned something else, a thread's
//! operations are unknown), and stops when the target read returns the new
//! value (state). The model's buffers give exactly the orders Sec. 4.1
//! relaxes: a store waits in its buffer while later loads go to memory
//! (write-to-read), PSO's per-address buffers commit out of order
//! (write-to-write), fences and RMWs wait for the buffer to drain. One
//! difference from the paper's encoding, in the model's favour: a load of
//! an address whose store is still buffered reads that store (TSO and PSO
//! store forwarding), where Sec. 4.1's same-address rule would order the
//! store's commit first and so miss executions such as SB with a read of
//! each thread's own store. Breadth first, the first seed found is a
//! shortest one (fewest schedule choices), as the paper prefers. Stores are
//! put in their buffer as soon as their thread reaches them, which loses
//! no execution (module docs of [`super::world`]).
//!
//! The same search decides which failures an execution can end with first
//! ([`Goal::Reach`]): the failing thread must reach its failure while no
//! other thread has stopped.
//!
//! Cost: the states are a position per thread, the observer's position
//! and the memory state; each is visited once. The search is over the
//! events of one trace, so it is small for litmus tests: measured in
//! `relaxlab bench --search mcr` (book: mcr.md, Measurements).

use std::collections::{HashMap, HashSet};

use crate::budget::Budget;
use crate::ir::{ThreadId, ThreadKind, Value};
use crate::model::{EventKind, MemOp, MemoryModel, Step};
use crate::outcome::BoundHit;

use super::super::interp::Ended;
use super::trace::{op_loc, Execution};
use super::world::{Choice, World};

/// A state on a search path with its successors not tried yet (each: the
/// state, the moves to it, and what it reached).
type OnPath<S> = (Key<S>, Vec<(Key<S>, Vec<Moved>, Hit)>);
/// One level of a breadth of the all-values search: states and the moves
/// to them.
type Level<S> = Vec<(Key<S>, Vec<Moved>)>;
/// The seed found for each (thread, read, value).
pub(crate) type Seeds = HashMap<(usize, usize, Value), Vec<Choice>>;

/// What a seed must reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Goal {
    /// Operation `op` of `thread` (a read) returns `value`.
    Read {
        thread: usize,
        op: usize,
        value: Value,
    },
    /// The observer's read at `position` (a final value) returns `value`.
    Observe { position: usize, value: Value },
    /// `thread` has performed `ops` operations.
    Reach { thread: usize, ops: usize },
    /// No goal: every read returning another value than in the trace is
    /// reported as a hit ([`SeedSearch::all_values`]).
    Any,
}

/// What a node wants of [`SeedSearch::all_values`]: its candidates
/// `(thread, operation, value)` (observer: `(threads, position, value)`),
/// and per thread the last operation that is one of them (the observer's
/// last position), past which nothing is wanted.
#[derive(Clone, Debug, Default)]
pub(crate) struct Wanted {
    pub candidates: HashSet<(usize, usize, Value)>,
    pub last: Vec<Option<usize>>,
    pub observer: Option<usize>,
}

/// Counters of the seed searches, for the report.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SeedStats {
    /// Candidates (a read, a new value) with a seed.
    pub found: u64,
    /// Candidates without one.
    pub unsat: u64,
    /// States visited by all searches.
    pub states: u64,
}

/// What a move of the search reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Hit {
    No,
    Goal,
    /// A read `(thread, operation, value)` returning another value than in
    /// the trace ([`Goal::Any`]).
    Value(usize, usize, Value),
}

/// A move of the search, as the cut to the cone needs it.
#[derive(Clone, Copy, Debug)]
enum Moved {
    /// Operation `index` of `thread` (not a buffered store).
    Op { thread: usize, index: usize },
    /// Stores `from..from + count` of `thread` put into its buffer.
    Issue {
        thread: usize,
        from: usize,
        count: usize,
    },
    Commit {
        thread: usize,
        loc: crate::ir::LocId,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key<S> {
    pos: Box<[u32]>,
    obs: u32,
    mem: S,
}

/// The seed search over one execution.
pub(crate) struct SeedSearch<'a, 'p, M: MemoryModel> {
    world: &'a World<'p, M>,
    exec: &'a Execution<M::State>,
    /// Per thread: the thread whose fork starts it and that fork's index.
    fork_at: Vec<Option<(usize, usize)>>,
    /// Per thread: did it finish (its last operation is `end`)?
    finished: Vec<bool>,
}

impl<'a, 'p, M: MemoryModel> SeedSearch<'a, 'p, M> {
    pub(crate) fn new(world: &'a World<'p, M>, exec: &'a Execution<M::State>) -> Self {
        let n = world.threads;
        let mut fork_at = vec![None; n];
        for (t, ops) in exec.ops.iter().enumerate() {
            for (i, o) in ops.iter().enumerate() {
                if let MemOp::Fork { child } = o.op {
                    fork_at[child.index()] = Some((t, i));
                }
            }
        }
        for (c, th) in world.program.threads.iter().enumerate() {
            if let ThreadKind::Forked { .. } = th.kind {
                // A fork the trace never performed leaves the thread
                // unstarted: its operations list is empty.
                if fork_at[c].is_none() {
                    fork_at[c] = Some((usize::MAX, 0));
                }
            }
        }
        let finished = exec
            .ops
            .iter()
            .map(|ops| ops.last().is_some_and(|o| matches!(o.op, MemOp::End)))
            .collect();
        SeedSearch {
            world,
            exec,
            fork_at,
            finished,
        }
    }

    fn started(&self, pos: &[u32], t: usize) -> bool {
        match self.fork_at[t] {
            None => true,
            Some((usize::MAX, _)) => false,
            Some((p, i)) => pos[p] as usize > i,
        }
    }

    /// Puts the stores thread `t` has reached into its buffer.
    fn issue(
        &self,
        pos: &mut [u32],
        mem: &mut M::State,
        t: usize,
        caps: &[usize],
        steps: &mut Vec<Step<M::State>>,
    ) -> usize {
        if !self.world.buffers {
            return 0;
        }
        let from = pos[t];
        let ops = &self.exec.ops[t];
        while (pos[t] as usize) < caps[t] {
            let o = &ops[pos[t] as usize];
            if !matches!(o.op, MemOp::Store { .. }) {
                break;
            }
            steps.clear();
            self.world.model.perform(mem, o.site, o.op, steps);
            let Some(s) = steps.pop() else { break };
            *mem = s.state;
            pos[t] += 1;
        }
        (pos[t] - from) as usize
    }

    /// A seed reaching `goal` with thread `t` performing at most `caps[t]`
    /// operations, or `None` when there is none; `Err` when the budget ran
    /// out. The search is depth first (the target's thread first, then
    /// commits, then the other threads), with a table of the states it has
    /// left without reaching the goal; the order found is then cut down to
    /// the goal's causal cone ([`Self::cone`]).
    pub(crate) fn search(
        &self,
        goal: Goal,
        caps: &[usize],
        budget: &Budget,
        stats: &mut SeedStats,
    ) -> Result<Option<Vec<Choice>>, BoundHit> {
        let n = self.world.threads;
        let mut steps = Vec::new();
        let mut pos = vec![0u32; n].into_boxed_slice();
        let mut mem = self.world.model.initial(self.world.program);
        let mut path: Vec<Moved> = Vec::new();
        for t in 0..n {
            if self.started(&pos, t) {
                let issued = self.issue(&mut pos, &mut mem, t, caps, &mut steps);
                if issued > 0 {
                    path.push(Moved::Issue {
                        thread: t,
                        from: 0,
                        count: issued,
                    });
                }
            }
        }
        if let Goal::Reach { thread, ops } = goal {
            if pos[thread] as usize >= ops {
                return Ok(Some(Vec::new()));
            }
        }
        let first = match goal {
            Goal::Read { thread, .. } | Goal::Reach { thread, .. } => Some(thread),
            Goal::Observe { .. } | Goal::Any => None,
        };
        let root = Key { pos, obs: 0, mem };
        let mut failed: HashSet<Key<M::State>> = HashSet::new();
        // The current path's states, each with its successors not tried yet
        // (last first).
        let mut stack: Vec<OnPath<M::State>> = Vec::new();
        let mut moves_of: Vec<usize> = Vec::new();
        let mut work = 0u64;
        let expand = |key: &Key<M::State>, steps: &mut Vec<Step<M::State>>| {
            let mut out = self.successors(key, goal, caps, first, steps);
            out.reverse();
            out
        };
        let succ = expand(&root, &mut steps);
        stack.push((root, succ));
        while let Some((_, succ)) = stack.last_mut() {
            work += 1;
            if work.is_multiple_of(1024) {
                if let Some(hit) = budget.exhausted() {
                    stats.states += work;
                    return Err(hit);
                }
            }
            let Some((key, moved, hit)) = succ.pop() else {
                let (key, _) = stack.pop().expect("a state");
                failed.insert(key);
                if let Some(k) = moves_of.pop() {
                    path.truncate(k);
                }
                continue;
            };
            if failed.contains(&key) {
                continue;
            }
            moves_of.push(path.len());
            path.extend(moved);
            if hit == Hit::Goal {
                stats.states += work;
                return Ok(Some(self.cone(&path, goal)));
            }
            let succ = expand(&key, &mut steps);
            stack.push((key, succ));
        }
        stats.states += work;
        Ok(None)
    }

    /// Every value each read of the execution can return in a partial
    /// execution of its events where the reads before it (in its thread,
    /// and those its stores depend on) return what they returned in the
    /// trace: one depth-first search over all of them, recording a seed for
    /// each (read, value) the trace does not have, where the read's thread
    /// then stops. Keys: `(thread, operation, value)`, the observer's reads
    /// as `(threads, position, value)`. This answers every candidate of a
    /// node at the cost of one search (module docs).
    pub(crate) fn all_values(
        &self,
        wanted: &Wanted,
        budget: &Budget,
        stats: &mut SeedStats,
    ) -> Result<Seeds, BoundHit> {
        let n = self.world.threads;
        if wanted.candidates.is_empty() {
            return Ok(HashMap::new());
        }
        // A state from which no wanted read is ahead cannot lead to a hit.
        let useful = |key: &Key<M::State>| {
            (0..n).any(|t| wanted.last[t].is_some_and(|l| key.pos[t] as usize <= l))
                || wanted.observer.is_some_and(|o| (key.obs as usize) <= o)
        };
        let left = wanted.candidates.len();
        let caps: Vec<usize> = self.exec.ops.iter().map(Vec::len).collect();
        let mut steps = Vec::new();
        let mut pos = vec![0u32; n].into_boxed_slice();
        let mut mem = self.world.model.initial(self.world.program);
        let mut path: Vec<Moved> = Vec::new();
        for t in 0..n {
            if self.started(&pos, t) {
                let issued = self.issue(&mut pos, &mut mem, t, &caps, &mut steps);
                if issued > 0 {
                    path.push(Moved::Issue {
                        thread: t,
                        from: 0,
                        count: issued,
                    });
                }
            }
        }
        let mut found: HashMap<(usize, usize, Value), Vec<Choice>> = HashMap::new();
        let root = Key { pos, obs: 0, mem };
        let mut seen: HashSet<Key<M::State>> = HashSet::new();
        seen.insert(root.clone());
        let mut stack: Vec<Level<M::State>> = Vec::new();
        let mut marks: Vec<usize> = Vec::new();
        let mut work = 0u64;
        let expand = |key: &Key<M::State>,
                      path: &[Moved],
                      found: &mut HashMap<(usize, usize, Value), Vec<Choice>>,
                      steps: &mut Vec<Step<M::State>>| {
            let mut out = Vec::new();
            for (k, moved, hit) in self.successors(key, Goal::Any, &caps, None, steps) {
                match hit {
                    Hit::Value(t, p, v) => {
                        if !wanted.candidates.contains(&(t, p, v)) || found.contains_key(&(t, p, v))
                        {
                            continue;
                        }
                        found.entry((t, p, v)).or_insert_with(|| {
                            let mut full = path.to_vec();
                            full.extend(moved);
                            let goal = if t == n {
                                Goal::Observe {
                                    position: p,
                                    value: v,
                                }
                            } else {
                                Goal::Read {
                                    thread: t,
                                    op: p,
                                    value: v,
                                }
                            };
                            self.cone(&full, goal)
                        });
                    }
                    _ if useful(&k) => out.push((k, moved)),
                    _ => {}
                }
            }
            out.reverse();
            out
        };
        let succ = expand(&root, &path, &mut found, &mut steps);
        stack.push(succ);
        while let Some(succ) = stack.last_mut() {
            if found.len() >= left {
                break;
            }
            work += 1;
            if work.is_multiple_of(1024) {
                if let Some(hit) = budget.exhausted() {
                    stats.states += work;
                    return Err(hit);
                }
            }
            let Some((key, moved)) = succ.pop() else {
                stack.pop();
                if let Some(k) = marks.pop() {
                    path.truncate(k);
                }
                continue;
            };
            if !seen.insert(key.clone()) {
                continue;
            }
            marks.push(path.len());
            path.extend(moved);
            let succ = expand(&key, &path, &mut found, &mut steps);
            stack.push(succ);
        }
        stats.states += work;
        Ok(found)
    }

    /// The moves from `key`, in the order the search tries them: thread
    /// `first`'s operation, commits, the other threads' operations, the
    /// observer's read. Each with the moves it is made of and what it
    /// reaches: the goal, or (for [`Goal::Any`]) a read returning another
    /// value than in the trace, `(thread, operation, value)`. A read
    /// returning another value than in the trace and not the goal's is no
    /// move (validity).
    fn successors(
        &self,
        key: &Key<M::State>,
        goal: Goal,
        caps: &[usize],
        first: Option<usize>,
        steps: &mut Vec<Step<M::State>>,
    ) -> Vec<(Key<M::State>, Vec<Moved>, Hit)> {
        let n = self.world.threads;
        let model = self.world.model;
        let mut out = Vec::new();
        let mut commits = Vec::new();
        let mut internal = Vec::new();
        model.internal(&key.mem, &mut internal);
        for (m, e) in internal {
            if let EventKind::Commit { thread, loc, .. } = e.kind {
                commits.push((
                    Key {
                        pos: key.pos.clone(),
                        obs: key.obs,
                        mem: m,
                    },
                    vec![Moved::Commit {
                        thread: thread.index(),
                        loc,
                    }],
                    Hit::No,
                ));
            }
        }
        let order: Vec<usize> = first
            .into_iter()
            .chain((0..n).filter(|&t| Some(t) != first))
            .collect();
        for (i, &t) in order.iter().enumerate() {
            if i == usize::from(first.is_some()) {
                out.append(&mut commits);
            }
            let p = key.pos[t] as usize;
            if p >= caps[t] || !self.started(&key.pos, t) {
                continue;
            }
            let o = &self.exec.ops[t][p];
            if let MemOp::Join { child } = o.op {
                let c = child.index();
                if key.pos[c] as usize != self.exec.ops[c].len() || !self.finished[c] {
                    continue;
                }
            }
            steps.clear();
            model.perform(&key.mem, o.site, o.op, steps);
            let Some(s) = steps.pop() else { continue };
            let mut hit = Hit::No;
            if let Some(expected) = o.read {
                let got = match s.event.kind {
                    EventKind::Read { value, .. } => value,
                    EventKind::Update { read, .. } => read,
                    _ => expected,
                };
                match goal {
                    Goal::Read { thread, op, value } if thread == t && op == p => {
                        if got != value {
                            continue;
                        }
                        hit = Hit::Goal;
                    }
                    Goal::Any if got != expected => {
                        out.push((
                            key.clone(),
                            vec![Moved::Op {
                                thread: t,
                                index: p,
                            }],
                            Hit::Value(t, p, got),
                        ));
                        continue;
                    }
                    _ if got != expected => continue,
                    _ => {}
                }
            }
            let mut np = key.pos.clone();
            let mut nm = s.state;
            np[t] += 1;
            let mut moved = vec![Moved::Op {
                thread: t,
                index: p,
            }];
            let from = np[t] as usize;
            let issued = self.issue(&mut np, &mut nm, t, caps, steps);
            if issued > 0 {
                moved.push(Moved::Issue {
                    thread: t,
                    from,
                    count: issued,
                });
            }
            if let MemOp::Fork { child } = o.op {
                let c = child.index();
                let from = np[c] as usize;
                let issued = self.issue(&mut np, &mut nm, c, caps, steps);
                if issued > 0 {
                    moved.push(Moved::Issue {
                        thread: c,
                        from,
                        count: issued,
                    });
                }
            }
            if let Goal::Reach { thread, ops } = goal {
                if np[thread] as usize >= ops {
                    hit = Hit::Goal;
                }
            }
            out.push((
                Key {
                    pos: np,
                    obs: key.obs,
                    mem: nm,
                },
                moved,
                hit,
            ));
        }
        out.append(&mut commits);
        // The observer, once every thread has finished.
        let all_done =
            (0..n).all(|t| key.pos[t] as usize == self.exec.ops[t].len() && self.finished[t]);
        let obs = key.obs as usize;
        if all_done && model.settled(&key.mem) && obs < self.world.observed.len() {
            let got = model.final_value(&key.mem, self.world.observed[obs]);
            let expected = self.exec.values[n].get(obs).copied();
            let hit = match goal {
                Goal::Observe { position, value } if position == obs => {
                    (got == value).then_some(Hit::Goal)
                }
                Goal::Any if Some(got) != expected => Some(Hit::Value(n, obs, got)),
                _ => (Some(got) == expected).then_some(Hit::No),
            };
            if let Some(hit) = hit {
                out.push((
                    Key {
                        pos: key.pos.clone(),
                        obs: key.obs + 1,
                        mem: key.mem.clone(),
                    },
                    Vec::new(),
                    hit,
                ));
            }
        }
        out
    }

    /// The seed of `path` (which reaches `goal`): its moves cut down to the
    /// goal's causal cone, the smallest set of operations closed under
    /// program order and under "the store a read returned", with the
    /// commits of the stores kept that the path made before its last kept
    /// move. Every read of the cone returns what it returned along `path`
    /// (a store left out was never the last one to its address before a
    /// kept read), so the seed reaches the goal; it is a shortest one in the
    /// cases the paper draws (Fig. 3, Fig. 7) and short in general.
    fn cone(&self, path: &[Moved], goal: Goal) -> Vec<Choice> {
        let n = self.world.threads;
        let buffers = self.world.buffers;
        let ops = &self.exec.ops;
        // Walk the path once: the store each read returned (None: the
        // initial value), and the position of each operation's and
        // commit's move.
        let mut source: Vec<Vec<Option<(usize, usize)>>> =
            ops.iter().map(|o| vec![None; o.len()]).collect();
        let mut last: Vec<Option<(usize, usize)>> = vec![None; self.world.program.locations.len()];
        let mut pending: Vec<Vec<(crate::ir::LocId, usize)>> = vec![Vec::new(); n];
        let mut commit_of: Vec<(usize, (usize, usize))> = Vec::new();
        for (at, m) in path.iter().enumerate() {
            match *m {
                Moved::Op {
                    thread: t,
                    index: i,
                } => {
                    let o = &ops[t][i];
                    let loc = op_loc(&o.op);
                    if o.read.is_some() {
                        let loc = loc.expect("a read has a location");
                        let own = pending[t].iter().rev().find(|(l, _)| *l == loc);
                        source[t][i] = match own {
                            Some(&(_, k)) => Some((t, k)),
                            None => last[loc.index()],
                        };
                    }
                    let writes = match o.op {
                        MemOp::Store { .. } => !buffers,
                        MemOp::Rmw { .. } => true,
                        // MCR runs the hardware models, whose programs'
                        // CASes are strong (`crate::mapping::compile`).
                        MemOp::Cas { expected, .. } => o.read == Some(expected),
                        _ => false,
                    };
                    if writes {
                        last[loc.expect("a write has a location").index()] = Some((t, i));
                    }
                }
                Moved::Issue {
                    thread: t,
                    from,
                    count,
                } => {
                    for (i, o) in ops[t].iter().enumerate().skip(from).take(count) {
                        if let Some(l) = op_loc(&o.op) {
                            pending[t].push((l, i));
                        }
                    }
                }
                Moved::Commit { thread: t, loc } => {
                    let k = pending[t]
                        .iter()
                        .position(|(l, _)| *l == loc)
                        .expect("a buffered store");
                    let (_, i) = pending[t].remove(k);
                    last[loc.index()] = Some((t, i));
                    commit_of.push((at, (t, i)));
                }
            }
        }
        // The cone: the goal's operation, closed under program order and
        // sources.
        let mut need: Vec<usize> = vec![0; n];
        let mut work: Vec<(usize, usize)> = Vec::new();
        match goal {
            Goal::Read { thread, op, .. } => work.push((thread, op)),
            Goal::Reach { thread, ops } if ops > 0 => work.push((thread, ops - 1)),
            Goal::Reach { .. } | Goal::Any => {}
            Goal::Observe { .. } => {
                for (t, o) in ops.iter().enumerate() {
                    if !o.is_empty() {
                        work.push((t, o.len() - 1));
                    }
                }
            }
        }
        while let Some((t, i)) = work.pop() {
            if need[t] > i {
                continue;
            }
            for &src in &source[t][need[t]..=i] {
                if let Some(src) = src {
                    work.push(src);
                }
                if let Some((p, k)) = self.fork_at[t].filter(|(p, _)| *p != usize::MAX) {
                    work.push((p, k));
                }
            }
            need[t] = i + 1;
        }
        let kept_op = |t: usize, i: usize| i < need[t];
        let last_kept = path
            .iter()
            .rposition(|m| matches!(*m, Moved::Op { thread, index } if kept_op(thread, index)))
            .unwrap_or(0);
        let mut seed = Vec::new();
        let mut commits = commit_of.iter().peekable();
        for (at, m) in path.iter().enumerate() {
            match *m {
                Moved::Op { thread, index } if kept_op(thread, index) => {
                    seed.push(Choice::Op {
                        thread: ThreadId::new(thread),
                        loc: op_loc(&ops[thread][index].op),
                    });
                }
                Moved::Commit { thread, loc } => {
                    let &(cat, (t, i)) = commits.next().expect("a commit");
                    debug_assert_eq!(cat, at);
                    let keep =
                        kept_op(t, i) && (at < last_kept || matches!(goal, Goal::Observe { .. }));
                    if keep {
                        seed.push(Choice::Commit {
                            thread: ThreadId::new(thread),
                            loc,
                        });
                    }
                }
                _ => {}
            }
        }
        seed
    }

    /// The operations each thread may perform while checking that stop
    /// `s` of the execution can come first: every other stop's causing
    /// operation is left out. `None` when another stop comes with the
    /// same move and wins (a fork whose parent stops too: the parent's end
    /// is the one reported).
    pub(crate) fn caps_for_stop(&self, s: usize) -> Option<Vec<usize>> {
        let mut caps: Vec<usize> = self.exec.ops.iter().map(Vec::len).collect();
        let me = &self.exec.stops[s];
        for (i, other) in self.exec.stops.iter().enumerate() {
            if i == s {
                continue;
            }
            if let Some((u, k)) = other.cause {
                if Some((u, k)) == me.cause {
                    if other.thread.index() == u {
                        return None;
                    }
                    continue;
                }
                caps[u] = caps[u].min(k);
            }
        }
        Some(caps)
    }

    /// The goal of stop `s`: the operation causing it performed, or for a
    /// failure before any operation, every operation of its thread.
    pub(crate) fn stop_goal(&self, s: usize) -> Goal {
        let stop = &self.exec.stops[s];
        match stop.cause {
            Some((u, k)) => Goal::Reach {
                thread: u,
                ops: k + 1,
            },
            None => Goal::Reach {
                thread: stop.thread.index(),
                ops: self.exec.ops[stop.thread.index()].len(),
            },
        }
    }
}

/// Is the end a discard (an `assume`)?
pub(crate) fn discarded(e: &Ended) -> bool {
    matches!(e, Ended::Discarded)
}
