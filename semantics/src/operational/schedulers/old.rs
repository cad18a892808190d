//! **Old** (TSAN11 Sec. 7.1, "Resolving load operations at runtime"): a
//! transition (a thread's step, or one internal step) is chosen
//! uniformly; when it is a load with several possible results, the oldest
//! is taken with probability 1/2, the next with 1/4, and so on (the newest
//! takes the rest). Results are ordered oldest first by convention of the
//! models (PSLO: history positions; see `models::hw::pslo`). The paper
//! says "choosing the oldest feasible store with 50% probability, the
//! second-oldest with 25%", and the paper is followed.

use crate::operational::rng::Rng;
use crate::operational::runner::MoveInfo;

use super::scheduler::{pick_transition, Pick, Scheduler};

/// The scheduler preferring older stores (it keeps no state).
#[derive(Debug)]
pub(crate) struct Old;

impl Scheduler<Rng> for Old {
    fn pick(
        &mut self,
        moves: &[MoveInfo],
        _blocked: &dyn Fn(usize) -> bool,
        rng: &mut Rng,
    ) -> Pick {
        Pick::Move(pick_transition(moves, rng, |m, n, rng| {
            if m.load {
                rng.geometric(n)
            } else {
                rng.below(n)
            }
        }))
    }
}
