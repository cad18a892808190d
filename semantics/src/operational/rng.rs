//! The sampler's random numbers: SplitMix64 (Steele, Lea, Flood, "Fast
//! splittable pseudorandom number generators", OOPSLA 2014).
//!
//! Written here rather than taken from a crate so that a (seed, run index)
//! pair names the same run forever, whatever version of a dependency is
//! built: replaying a run printed by an older relaxlab must still work.

/// A SplitMix64 generator.
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 output function: a bijective mix of 64 bits.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// The generator of run `index` of a sampling session seeded `seed`:
    /// each run is seeded from the pair alone, so it replays by itself.
    pub(crate) fn for_run(seed: u64, index: u64) -> Rng {
        Rng(mix(
            seed ^ mix(index.wrapping_mul(GAMMA).wrapping_add(GAMMA))
        ))
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        mix(self.0)
    }

    /// A uniform number in `0..n` (`n > 0`), by multiply-shift (Lemire);
    /// the bias is below `n / 2^64`, far beneath anything a sampler sees.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0, "relaxlab internal error: empty choice");
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// True with probability 1/2.
    pub(crate) fn coin(&mut self) -> bool {
        self.next_u64() >> 63 == 1
    }

    /// tsan11's preference for older stores (TSAN11 Sec. 7.1): index 0
    /// (the oldest) with probability 1/2, index 1 with 1/4, and so on; the
    /// last index takes what remains, so the probabilities sum to 1.
    pub(crate) fn geometric(&mut self, n: usize) -> usize {
        let mut i = 0;
        while i + 1 < n && !self.coin() {
            i += 1;
        }
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_independent_and_reproducible() {
        let a: Vec<u64> = (0..4).map(|_| Rng::for_run(7, 3).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(Rng::for_run(7, 3).next_u64(), Rng::for_run(7, 4).next_u64());
        assert_ne!(Rng::for_run(7, 3).next_u64(), Rng::for_run(8, 3).next_u64());
    }

    #[test]
    fn geometric_prefers_index_zero() {
        let mut r = Rng::for_run(1, 1);
        let mut counts = [0u32; 3];
        for _ in 0..10_000 {
            counts[r.geometric(3)] += 1;
        }
        // Expected 5000, 2500, 2500.
        assert!((4700..5300).contains(&counts[0]), "{counts:?}");
        assert!((2200..2800).contains(&counts[1]), "{counts:?}");
        assert!((2200..2800).contains(&counts[2]), "{counts:?}");
    }
}
