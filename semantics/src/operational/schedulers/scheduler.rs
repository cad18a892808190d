//! What every strategy implements ([`Scheduler`]), the random numbers it
//! draws ([`Random`]), and the strategy a sampled run is given
//! ([`Strategy`]).

use crate::ir::Program;
use crate::operational::rng::Rng;
use crate::operational::runner::MoveInfo;
use crate::registry::Buffering;

use super::c11tester::Consecutive;
use super::delay::Delay;
use super::old::Old;
use super::uniform::Uniform;

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

impl Strategy {
    /// The scheduler of one run of `program` (the program the model runs)
    /// under a model that buffers stores as `buffering` says.
    pub(crate) fn scheduler(
        self,
        program: &Program,
        buffering: Buffering,
    ) -> Box<dyn Scheduler<Rng>> {
        match self {
            Strategy::Uniform => Box::new(Uniform),
            Strategy::Delay => Box::new(Delay::unbiased(buffering, program.threads.len())),
            Strategy::Old => Box::new(Old),
            Strategy::C11Tester => Box::new(Consecutive::new(program)),
        }
    }
}

/// The random numbers a scheduler draws. The sampler's runs and RELAXER's
/// Phase II trials each have their own generator (their outputs are fixed
/// by their seeds).
pub(crate) trait Random {
    /// `true` with probability 1/2.
    fn coin(&mut self) -> bool;
    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize;
}

impl Random for Rng {
    fn coin(&mut self) -> bool {
        Rng::coin(self)
    }
    fn below(&mut self, n: usize) -> usize {
        Rng::below(self, n)
    }
}

/// A decision of a scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pick {
    /// Take this move.
    Move(usize),
    /// Take no move now (a thread paused, or time jumped); ask again.
    Wait,
}

/// A strategy's state during one run: asked for each move, told each move
/// taken.
pub(crate) trait Scheduler<R: Random> {
    /// Chooses among `moves` (the runner's, in successor order; never
    /// empty). `blocked(t)`: thread `t` is running but has no enabled move
    /// (it waits for its buffers).
    fn pick(&mut self, moves: &[MoveInfo], blocked: &dyn Fn(usize) -> bool, rng: &mut R) -> Pick;

    /// Records that move `m` was taken.
    fn taken(&mut self, _m: &MoveInfo, _rng: &mut R) {}
}

/// The first move of every transition: a thread's results form one
/// transition, each internal step is its own. Moves of one thread are
/// contiguous.
pub(super) fn transition_starts(moves: &[MoveInfo]) -> Vec<usize> {
    use crate::operational::interp::Group;
    (0..moves.len())
        .filter(|&i| {
            i == 0 || moves[i].group == Group::Internal || moves[i].group != moves[i - 1].group
        })
        .collect()
}

/// A transition chosen uniformly, then one of its results by `result`
/// (given their number, at least 2).
pub(super) fn pick_transition<R: Random>(
    moves: &[MoveInfo],
    rng: &mut R,
    result: impl FnOnce(&MoveInfo, usize, &mut R) -> usize,
) -> usize {
    let starts = transition_starts(moves);
    let first = starts[rng.below(starts.len())];
    let m = &moves[first];
    let n = m.result.1;
    let k = if n <= 1 { 0 } else { result(m, n, rng) };
    (first + k).min(moves.len() - 1)
}
