//! **Delay**: RELAXER's Phase II scheduler (Sec. 4.3, Figs. 7-9, P =
//! 0.5), shared by `--strategy delay` and `relaxlab confirm`.
//!
//! Phase II biases towards one predicted happens-before cycle ([`Bias`]),
//! delaying the statements of its odd positions (`co`) and hurrying those
//! of its even positions (`ce`). Without a cycle (`--strategy delay`)
//! every statement is taken to be in both sets, each decision gated by
//! its own coin of probability P, exactly as in the figures:
//!
//! 1. Logical time: one unit per move taken (the paper allows logical time
//!    "incremented with each executed instruction").
//! 2. `before_store` (Figs. 7, 8): a store in `co` is given the commit time
//!    `now + DELAY_S` with probability P, every other store `now`; the
//!    times are queued per thread and location beside the model's buffers
//!    (`Bt`, `Bt_a`).
//! 3. `after_any`: after every move, a buffer commit whose store's time has
//!    come is taken at once (in successor order). A commit whose time has
//!    not come is never taken before it, so a delayed store also holds
//!    back the later stores of its FIFO (TSO: the thread's, PSO/PSLO: the
//!    location's), as in the figures.
//! 4. `before_load`, `before_CAS` (Fig. 8, PSO and PSLO, not TSO): with
//!    probability P a thread pauses for `DELAY_L` before a load, RMW or CAS
//!    in `co` (once per instruction: after the pause it goes ahead).
//! 5. `before_membar` (Figs. 7, 8): a thread whose next step waits for its
//!    buffers (a barrier, an RMW, a fork, join or end) is not enabled until
//!    its stores' times come (`waitUntil`). PSLO (Fig. 9) clears the
//!    thread's commit times instead: its stores become due at once.
//! 6. `loadPSLO` (Fig. 9): a load with several possible results (PSLO
//!    history, or any model offering a choice) in `ce` reads the earliest
//!    with probability P, else the newest (memory).
//! 7. Thread choice: uniform among the threads that are not paused and
//!    have an enabled step (the paper leaves this to the OS scheduler).
//!    When no thread can move and no commit is due, time jumps to the next
//!    commit time or wake-up (`waitUntil`).
//!
//! `DELAY_L < DELAY_S`, as the paper requires, so a delayed store in one
//! thread is still pending while another thread pauses before a load.
//! Which rules apply is the model's registry fact
//! [`Buffering`](crate::registry::Buffering): Fig. 7 for a FIFO buffer per
//! thread, Fig. 8 per location, Fig. 9 with histories; models without
//! buffers (SC, the C11 models) only get rules 4, 6 and 7.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::ir::{LocId, ThreadId};
use crate::operational::interp::Group;
use crate::operational::runner::MoveInfo;
use crate::registry::Buffering;

use super::scheduler::{Pick, Random, Scheduler};

/// RELAXER's `delayS`, in moves: how long a delayed store stays buffered.
pub const DELAY_S: u64 = 8;
/// RELAXER's `delayL`, in moves: how long a thread pauses before a load.
pub const DELAY_L: u64 = 4;

/// A statement label: a thread and a source line.
pub(crate) type Label = (ThreadId, u32);

/// Phase II's bias towards one predicted cycle: which statements to delay
/// (`co`) and which to hurry (`ce`), by label.
#[derive(Debug)]
pub(crate) struct Bias<'c> {
    pub(crate) co: &'c BTreeSet<Label>,
    pub(crate) ce: &'c BTreeSet<Label>,
    /// Per thread, per instruction: its line.
    pub(crate) lines: &'c [Vec<u32>],
}

impl Bias<'_> {
    fn label(&self, m: &MoveInfo) -> Option<Label> {
        let Group::Thread(t) = m.group else {
            return None;
        };
        let line = *self.lines.get(t.index())?.get(m.instr?.index())?;
        Some((t, line))
    }
}

/// The state of the delay scheduler during one run.
#[derive(Debug)]
pub(crate) struct Delay<'c> {
    buffering: Buffering,
    /// `None`: every statement is in `co` and in `ce`.
    bias: Option<Bias<'c>>,
    now: u64,
    /// `Bt_a[p][a]`: commit times of the buffered stores, oldest first.
    due: BTreeMap<(ThreadId, LocId), VecDeque<u64>>,
    /// Per thread: paused until this time.
    wake: Vec<u64>,
    /// Per thread: the pause before its next load has been taken.
    paused: Vec<bool>,
}

impl<'c> Delay<'c> {
    /// `--strategy delay`: no cycle to favour.
    pub(crate) fn unbiased(buffering: Buffering, nthreads: usize) -> Delay<'static> {
        Delay::new(buffering, None, nthreads)
    }

    /// Phase II: biased towards one cycle.
    pub(crate) fn biased(buffering: Buffering, bias: Bias<'c>, nthreads: usize) -> Delay<'c> {
        Delay::new(buffering, Some(bias), nthreads)
    }

    fn new(buffering: Buffering, bias: Option<Bias<'c>>, nthreads: usize) -> Delay<'c> {
        Delay {
            buffering,
            bias,
            now: 0,
            due: BTreeMap::new(),
            wake: vec![0; nthreads],
            paused: vec![false; nthreads],
        }
    }

    /// Is move `m`'s statement to be delayed?
    fn in_co(&self, m: &MoveInfo) -> bool {
        self.bias
            .as_ref()
            .is_none_or(|b| b.label(m).is_some_and(|l| b.co.contains(&l)))
    }

    /// Is move `m`'s statement to be hurried?
    fn in_ce(&self, m: &MoveInfo) -> bool {
        self.bias
            .as_ref()
            .is_none_or(|b| b.label(m).is_some_and(|l| b.ce.contains(&l)))
    }

    /// The commit time of the store a commit move takes (now, when no time
    /// was recorded for it).
    fn due_of(&self, key: (ThreadId, LocId)) -> u64 {
        self.due
            .get(&key)
            .and_then(|q| q.front().copied())
            .unwrap_or(self.now)
    }
}

impl<R: Random> Scheduler<R> for Delay<'_> {
    fn pick(&mut self, moves: &[MoveInfo], blocked: &dyn Fn(usize) -> bool, rng: &mut R) -> Pick {
        // Rule 5, Fig. 9: PSLO barriers clear the waiting thread's times.
        if self.buffering == Buffering::Histories {
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
            return match next_commit.into_iter().chain(next_wake).min() {
                Some(t) if t > self.now => {
                    self.now = t;
                    Pick::Wait
                }
                // Nothing is waiting on time: take any move (defensive).
                _ => Pick::Move(rng.below(moves.len())),
            };
        }
        let t = threads[rng.below(threads.len())];
        let first = moves
            .iter()
            .position(|m| m.group == Group::Thread(t))
            .unwrap_or(0);
        let m = &moves[first];
        // Rule 4: pause before a load, RMW or CAS (not under TSO).
        if m.load
            && self.buffering != Buffering::Fifo
            && self.in_co(m)
            && !self.paused[t.index()]
            && rng.coin()
        {
            self.paused[t.index()] = true;
            self.wake[t.index()] = self.now + DELAY_L;
            return Pick::Wait;
        }
        // Rule 6: the earliest result with probability P, else the newest.
        let n = m.result.1;
        let k = if n <= 1 {
            0
        } else if m.load {
            if self.in_ce(m) && rng.coin() {
                0
            } else {
                n - 1
            }
        } else {
            rng.below(n)
        };
        Pick::Move((first + k).min(moves.len() - 1))
    }

    /// Time advances, rule 2 for stores, and a commit consumes its store's
    /// time.
    fn taken(&mut self, m: &MoveInfo, rng: &mut R) {
        if let Group::Thread(t) = m.group {
            self.paused[t.index()] = false;
        }
        if let Some(key) = m.commit {
            if let Some(q) = self.due.get_mut(&key) {
                q.pop_front();
            }
        }
        if let Some(key) = m.store {
            if self.buffering != Buffering::None {
                let delayed = self.in_co(m) && rng.coin();
                let at = if delayed {
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
