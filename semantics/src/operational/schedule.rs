//! The sampler's strategies: which move a random run takes next.
//!
//! - **Uniform**: every enabled move (every thread step with every result,
//!   every internal step) with the same probability.
//! - **Old** (TSAN11 Sec. 7.1, "Resolving load operations at runtime"):
//!   a transition (a thread's step, or one internal step) is chosen
//!   uniformly; when it is a load with several possible results, the
//!   oldest is taken with probability 1/2, the next with 1/4, and so on
//!   (the newest takes the rest). Results are ordered oldest first by
//!   convention of the models (PSLO: history positions; see
//!   `models::pslo`). The brief said "newest with 1/2"; the paper says
//!   "choosing the oldest feasible store with 50% probability, the
//!   second-oldest with 25%", and the paper is followed.
//! - **Delay** (RELAXER Phase II, Figs. 7-9, P = 0.5) without a predicted
//!   cycle. Phase II biases towards one predicted happens-before cycle,
//!   delaying the statements of its odd positions (`co`) and hurrying those
//!   of its even positions (`ce`). With no cycle, every statement is taken
//!   to be in both sets, each decision gated by its own coin of
//!   probability P, exactly as in the figures:
//!   1. Logical time: one unit per move taken (the paper allows logical
//!      time "incremented with each executed instruction").
//!   2. `before_store` (Figs. 7, 8): a store is given a commit time: with
//!      probability P `now + DELAY_S`, else `now`; the times are queued per
//!      thread and location beside the model's buffers (`Bt`, `Bt_a`).
//!   3. `after_any`: after every move, a buffer commit whose store's time
//!      has come is taken at once (in successor order). A commit whose
//!      time has not come is never taken before it, so a delayed store
//!      also holds back the later stores of its FIFO (TSO: the thread's,
//!      PSO/PSLO: the location's), as in the figures.
//!   4. `before_load`, `before_CAS` (Fig. 8, PSO and PSLO, not TSO): with
//!      probability P the thread pauses for `DELAY_L` before the load, RMW
//!      or CAS (once per instruction: after the pause it goes ahead).
//!   5. `before_membar` (Figs. 7, 8): a thread whose next step waits for its
//!      buffers (a barrier, an RMW, a fork, join or end) is not enabled
//!      until its stores' times come (`waitUntil`). PSLO (Fig. 9) clears
//!      the thread's commit times instead: its stores become due at once.
//!   6. `loadPSLO` (Fig. 9): a load with several possible results (PSLO
//!      history, or any model offering a choice) reads the earliest with
//!      probability P, else the newest (memory).
//!   7. Thread choice: uniform among the threads that are not paused and
//!      have an enabled step (the paper leaves this to the OS scheduler).
//!      When no thread can move and no commit is due, time jumps to the
//!      next commit time or wake-up (`waitUntil`).
//!
//!   `DELAY_L < DELAY_S`, as the paper requires, so a delayed store in one
//!   thread is still pending while another thread pauses before a load.
//!   Models without buffers (SC, c11r) only get rules 4, 6 and 7.
//! - **C11Tester** (C11TESTER Sec. 3, "Thread scheduling"): "the next
//!   thread to execute is randomly selected from the set of enabled
//!   threads. However, when a thread performs several consecutive stores
//!   with memory order release or relaxed, the scheduler executes these
//!   stores consecutively without interruption from other threads."
//!   1. A thread whose last move was a store with order `rlx` or `rel`
//!      (a `store(loc, v, rlx|rel)` instruction; `na` and `sc` stores do
//!      not count) and whose next move is another such store takes it at
//!      once: no other thread's move, and no internal step, lands between
//!      them. Local instructions between the two are invisible (they run
//!      eagerly with the first). A store with several results (where a
//!      model offers a choice) takes one uniformly.
//!   2. Otherwise a transition (a thread's step, or one internal step) is
//!      chosen uniformly, as for **Old**, and its result uniformly.
//!
//!   It only biases the schedule, so it runs under every model. The rule
//!   reads the program the model runs: under PSO and PSLO the standard
//!   mapping puts an `ss` barrier before a release store (MODELS.md 2.5),
//!   so there a release store is never *next* after a store; relaxed ones
//!   are (and under `--mapping plain` release ones too).

use std::collections::{BTreeMap, VecDeque};

use crate::ir::{Instr, LocId, Program, ThreadId, WriteOrd};

use super::interp::Group;
use super::rng::Rng;
use super::runner::MoveInfo;

/// How a sampled run chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Strategy {
    /// Uniform among all enabled moves.
    #[default]
    Uniform,
    /// RELAXER's Phase II delay bias (Figs. 7-9), P = 0.5.
    Delay,
    /// tsan11's preference for older stores (1/2, 1/4, ...).
    Old,
    /// C11Tester's scheduler: consecutive relaxed or release stores of a
    /// thread run without interruption; otherwise uniform among
    /// transitions.
    C11Tester,
}

/// RELAXER's `delayS`, in moves: how long a delayed store stays buffered.
pub(crate) const DELAY_S: u64 = 8;
/// RELAXER's `delayL`, in moves: how long a thread pauses before a load.
pub(crate) const DELAY_L: u64 = 4;

/// Which of the figures' rules apply to the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    /// Fig. 7: stores delayed, no pauses before loads.
    Tso,
    /// Fig. 8: stores delayed, loads and CAS paused.
    Pso,
    /// Fig. 9: as PSO, and barriers clear the commit times.
    Pslo,
    /// No store buffers: loads paused, choices of loads biased.
    Unbuffered,
}

impl Family {
    pub(crate) fn of(name: &str) -> Family {
        match name {
            "tso" => Family::Tso,
            "pso" => Family::Pso,
            "pslo" => Family::Pslo,
            _ => Family::Unbuffered,
        }
    }
}

/// The state of the delay scheduler during one run.
#[derive(Debug)]
pub(crate) struct Delay {
    family: Family,
    now: u64,
    /// `Bt_a[p][a]`: commit times of the buffered stores, oldest first.
    due: BTreeMap<(ThreadId, LocId), VecDeque<u64>>,
    /// Per thread: paused until this time.
    wake: Vec<u64>,
    /// Per thread: the pause before its next load has been taken.
    paused: Vec<bool>,
}

/// A decision of a scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pick {
    /// Take this move.
    Move(usize),
    /// Take no move now (a thread paused, or time jumped); ask again.
    Wait,
}

impl Delay {
    pub(crate) fn new(family: Family, nthreads: usize) -> Delay {
        Delay {
            family,
            now: 0,
            due: BTreeMap::new(),
            wake: vec![0; nthreads],
            paused: vec![false; nthreads],
        }
    }

    /// The commit time of the store a commit move takes (now, when no time
    /// was recorded for it).
    fn due_of(&self, key: (ThreadId, LocId)) -> u64 {
        self.due
            .get(&key)
            .and_then(|q| q.front().copied())
            .unwrap_or(self.now)
    }

    /// Chooses the next move. `blocked(t)`: thread `t` is running but has
    /// no enabled step (it waits for its buffers).
    pub(crate) fn pick(
        &mut self,
        moves: &[MoveInfo],
        blocked: &dyn Fn(usize) -> bool,
        rng: &mut Rng,
    ) -> Pick {
        // Rule 5, Fig. 9: PSLO barriers clear the waiting thread's times.
        if self.family == Family::Pslo {
            for t in 0..self.wake.len() {
                if blocked(t) {
                    for ((p, _), q) in self.due.iter_mut() {
                        if p.index() == t {
                            q.iter_mut().for_each(|d| *d = (*d).min(self.now));
                        }
                    }
                }
            }
        }
        // Rule 3, after_any: a commit whose time has come goes first.
        if let Some(i) = moves
            .iter()
            .position(|m| m.commit.is_some_and(|k| self.due_of(k) <= self.now))
        {
            return Pick::Move(i);
        }
        // Rule 7: a uniformly chosen thread among those that may move.
        let mut threads: Vec<ThreadId> = Vec::new();
        for m in moves {
            if let Group::Thread(t) = m.group {
                if self.wake[t.index()] <= self.now && threads.last() != Some(&t) {
                    threads.push(t);
                }
            }
        }
        if threads.is_empty() {
            // waitUntil: jump to the next commit time or wake-up.
            let next_commit = moves
                .iter()
                .filter_map(|m| m.commit.map(|k| self.due_of(k)))
                .min();
            let next_wake = moves
                .iter()
                .filter_map(|m| match m.group {
                    Group::Thread(t) => Some(self.wake[t.index()]),
                    Group::Internal => None,
                })
                .min();
            match next_commit.into_iter().chain(next_wake).min() {
                Some(t) if t > self.now => {
                    self.now = t;
                    return Pick::Wait;
                }
                // Nothing is waiting on time: take any move (defensive).
                _ => return Pick::Move(rng.below(moves.len())),
            }
        }
        let t = threads[rng.below(threads.len())];
        let first = moves
            .iter()
            .position(|m| m.group == Group::Thread(t))
            .unwrap_or(0);
        let group = &moves[first];
        let n = group.result.1;
        // Rule 4: pause before a load, RMW or CAS (PSO, PSLO, unbuffered).
        if group.load && self.family != Family::Tso && !self.paused[t.index()] && rng.coin() {
            self.paused[t.index()] = true;
            self.wake[t.index()] = self.now + DELAY_L;
            return Pick::Wait;
        }
        // Rule 6: the earliest result with probability P, else the newest.
        let k = if n <= 1 {
            0
        } else if group.load {
            if rng.coin() {
                0
            } else {
                n - 1
            }
        } else {
            rng.below(n)
        };
        Pick::Move((first + k).min(moves.len() - 1))
    }

    /// Records that move `m` was taken: time advances, rule 2 for stores,
    /// and a commit consumes its store's time.
    pub(crate) fn taken(&mut self, m: &MoveInfo, rng: &mut Rng) {
        if let Group::Thread(t) = m.group {
            self.paused[t.index()] = false;
        }
        if let Some(key) = m.commit {
            if let Some(q) = self.due.get_mut(&key) {
                q.pop_front();
            }
        }
        if let Some(key) = m.store {
            if self.family != Family::Unbuffered {
                let at = if rng.coin() {
                    self.now + DELAY_S
                } else {
                    self.now
                };
                self.due.entry(key).or_default().push_back(at);
            }
        }
        self.now += 1;
    }
}

/// The first move of every transition: a thread's results form one
/// transition, each internal step is its own. Moves of one thread are
/// contiguous.
fn transition_starts(moves: &[MoveInfo]) -> Vec<usize> {
    (0..moves.len())
        .filter(|&i| {
            i == 0 || moves[i].group == Group::Internal || moves[i].group != moves[i - 1].group
        })
        .collect()
}

/// One move chosen by `Uniform` or `Old` (`Delay` and `C11Tester` have
/// their own schedulers; called with them it chooses as `Uniform` and
/// `Old` do).
pub(crate) fn pick_simple(strategy: Strategy, moves: &[MoveInfo], rng: &mut Rng) -> usize {
    match strategy {
        Strategy::Uniform | Strategy::Delay => rng.below(moves.len()),
        Strategy::Old | Strategy::C11Tester => {
            let starts = transition_starts(moves);
            let first = starts[rng.below(starts.len())];
            let m = &moves[first];
            let n = m.result.1;
            let k = if n <= 1 {
                0
            } else if m.load && strategy == Strategy::Old {
                rng.geometric(n)
            } else {
                rng.below(n)
            };
            (first + k).min(moves.len() - 1)
        }
    }
}

/// The state of the C11Tester scheduler during one run (the default knows
/// no store: it is not used).
#[derive(Debug, Default)]
pub(crate) struct Consecutive {
    /// Per thread, per instruction: a store with order `rlx` or `rel`.
    relaxed_store: Vec<Vec<bool>>,
    /// The thread whose last move was such a store.
    last: Option<ThreadId>,
}

impl Consecutive {
    /// For a run of `program` (the program the model runs).
    pub(crate) fn new(program: &Program) -> Consecutive {
        Consecutive {
            relaxed_store: program
                .threads
                .iter()
                .map(|t| {
                    t.code
                        .iter()
                        .map(|i| {
                            matches!(
                                i.instr,
                                Instr::Store {
                                    ord: WriteOrd::Rlx | WriteOrd::Rel,
                                    ..
                                }
                            )
                        })
                        .collect()
                })
                .collect(),
            last: None,
        }
    }

    /// Is `m` a thread's step performing a `rlx` or `rel` store?
    fn is_relaxed_store(&self, m: &MoveInfo) -> bool {
        match (m.group, m.instr) {
            (Group::Thread(t), Some(i)) => self
                .relaxed_store
                .get(t.index())
                .and_then(|code| code.get(i.index()))
                .copied()
                .unwrap_or(false),
            _ => false,
        }
    }

    /// Rule 1: the thread that just stored goes on storing; else rule 2.
    pub(crate) fn pick(&self, moves: &[MoveInfo], rng: &mut Rng) -> usize {
        if let Some(t) = self.last {
            if let Some(first) = moves
                .iter()
                .position(|m| m.group == Group::Thread(t) && self.is_relaxed_store(m))
            {
                let n = moves[first].result.1;
                let k = if n <= 1 { 0 } else { rng.below(n) };
                return (first + k).min(moves.len() - 1);
            }
        }
        pick_simple(Strategy::C11Tester, moves, rng)
    }

    /// Records that move `m` was taken.
    pub(crate) fn taken(&mut self, m: &MoveInfo) {
        self.last = match m.group {
            Group::Thread(t) if self.is_relaxed_store(m) => Some(t),
            _ => None,
        };
    }
}
