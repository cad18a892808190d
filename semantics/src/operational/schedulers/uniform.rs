//! **Uniform**: every enabled move (every thread step with every result,
//! every internal step) with the same probability.

use crate::operational::runner::MoveInfo;

use super::scheduler::{Pick, Random, Scheduler};

/// The uniform scheduler (it keeps no state).
#[derive(Debug)]
pub(crate) struct Uniform;

impl<R: Random> Scheduler<R> for Uniform {
    fn pick(&mut self, moves: &[MoveInfo], _blocked: &dyn Fn(usize) -> bool, rng: &mut R) -> Pick {
        Pick::Move(rng.below(moves.len()))
    }
}
