//! **C11Tester** (C11TESTER Sec. 3, "Thread scheduling"): "the next
//! thread to execute is randomly selected from the set of enabled
//! threads. However, when a thread performs several consecutive stores
//! with memory order release or relaxed, the scheduler executes these
//! stores consecutively without interruption from other threads."
//!
//! 1. A thread whose last move was a store with order `rlx` or `rel` (a
//!    `store(loc, v, rlx|rel)` instruction; `na` and `sc` stores do not
//!    count) and whose next move is another such store takes it at once:
//!    no other thread's move, and no internal step, lands between them.
//!    Local instructions between the two are invisible (they run eagerly
//!    with the first). A store with several results (where a model offers
//!    a choice) takes one uniformly.
//! 2. Otherwise a transition (a thread's step, or one internal step) is
//!    chosen uniformly, as for **Old**, and its result uniformly.
//!
//! It only biases the schedule, so it runs under every model. The rule
//! reads the program the model runs: under PSO and PSLO the standard
//! mapping puts an `ss` barrier before a release store (book: mapping.md),
//! so there a release store is never *next* after a store; relaxed ones
//! are (and under `--mapping plain` release ones too).

use crate::ir::{Instr, Program, ThreadId, WriteOrd};
use crate::operational::interp::Group;
use crate::operational::runner::MoveInfo;

use super::scheduler::{pick_transition, Pick, Random, Scheduler};

/// The state of the C11Tester scheduler during one run.
#[derive(Debug)]
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
}

impl<R: Random> Scheduler<R> for Consecutive {
    /// Rule 1: the thread that just stored goes on storing; else rule 2.
    fn pick(&mut self, moves: &[MoveInfo], _blocked: &dyn Fn(usize) -> bool, rng: &mut R) -> Pick {
        if let Some(t) = self.last {
            if let Some(first) = moves
                .iter()
                .position(|m| m.group == Group::Thread(t) && self.is_relaxed_store(m))
            {
                let n = moves[first].result.1;
                let k = if n <= 1 { 0 } else { rng.below(n) };
                return Pick::Move((first + k).min(moves.len() - 1));
            }
        }
        Pick::Move(pick_transition(moves, rng, |_, n, rng| rng.below(n)))
    }

    fn taken(&mut self, m: &MoveInfo, _rng: &mut R) {
        self.last = match m.group {
            Group::Thread(t) if self.is_relaxed_store(m) => Some(t),
            _ => None,
        };
    }
}
