//! Vector clocks (TSAN11 Sec. 2.2): one epoch per thread, with the bottom
//! clock `⊥`, the pointwise join `∪`, the pointwise order `<=` and the
//! per-thread increment `inc_t`.
//!
//! A clock is stored as a vector of epochs indexed by [`ThreadId`]; missing
//! entries are 0. Trailing zeros are always trimmed, so two clocks that
//! denote the same function have the same representation and `Eq`/`Hash`
//! agree with the mathematical equality (a state holding `[1, 0]` and one
//! holding `[1]` must deduplicate).
//!
//! The vector is inline up to four threads (a `SmallVec`): a thread's six
//! clocks then sit in its clock record, so copying a record allocates
//! once, not seven times, and comparing a successor's record with a stored
//! one reads two or three cache lines, not seven.

use std::fmt;

use smallvec::SmallVec;

use crate::ir::ThreadId;

/// An epoch: a thread's logical time. Epoch 0 of any thread happens before
/// everything (the init writes carry it).
pub(crate) type Epoch = u32;

/// A vector clock.
///
/// Invariant: `entries` has no trailing zero (canonical form).
#[derive(Default, PartialEq, Eq, Hash)]
pub(crate) struct VClock {
    entries: SmallVec<[Epoch; 4]>,
}

impl Clone for VClock {
    /// A copy of the epochs in one move (`SmallVec`'s own `clone` pushes
    /// them one by one): every step copies its thread's six clocks.
    fn clone(&self) -> Self {
        VClock {
            entries: SmallVec::from_slice(&self.entries),
        }
    }
}

impl VClock {
    /// `⊥_V = λt.0`.
    pub(crate) fn bottom() -> Self {
        VClock::default()
    }

    /// `inc_t(⊥_V)`: the clock a top-level thread starts with.
    pub(crate) fn unit(t: ThreadId) -> Self {
        let mut c = VClock::bottom();
        c.set(t, 1);
        c
    }

    /// `V(t)`.
    pub(crate) fn get(&self, t: ThreadId) -> Epoch {
        self.entries.get(t.index()).copied().unwrap_or(0)
    }

    /// `V[t := e]`.
    pub(crate) fn set(&mut self, t: ThreadId, e: Epoch) {
        let i = t.index();
        if i >= self.entries.len() {
            if e == 0 {
                return;
            }
            self.entries.resize(i + 1, 0);
        }
        self.entries[i] = e;
        self.trim();
    }

    /// `V := inc_t(V)`.
    pub(crate) fn inc(&mut self, t: ThreadId) {
        let e = self.get(t).saturating_add(1);
        self.set(t, e);
    }

    /// `V := V ∪ other` (pointwise maximum).
    pub(crate) fn join(&mut self, other: &VClock) {
        if other.entries.len() > self.entries.len() {
            self.entries.resize(other.entries.len(), 0);
        }
        for (a, b) in self.entries.iter_mut().zip(&other.entries) {
            *a = (*a).max(*b);
        }
        // A join of canonical clocks is canonical: its last entry is the
        // maximum of two entries of which one is non-zero.
        debug_assert!(
            self.entries.last() != Some(&0),
            "relaxlab internal error: vector clock join left a trailing zero"
        );
    }

    /// `self <= other` pointwise.
    pub(crate) fn le(&self, other: &VClock) -> bool {
        self.entries.len() <= other.entries.len()
            && self.entries.iter().zip(&other.entries).all(|(a, b)| a <= b)
    }

    /// Is the epoch `c@u` covered by this clock (`c <= V(u)`)? This is the
    /// "happens before" test of an event of `u` at epoch `c`.
    pub(crate) fn covers(&self, u: ThreadId, c: Epoch) -> bool {
        c <= self.get(u)
    }

    fn trim(&mut self) {
        while self.entries.last() == Some(&0) {
            self.entries.pop();
        }
    }
}

impl fmt::Debug for VClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(i: u32) -> ThreadId {
        ThreadId(i)
    }

    #[test]
    fn canonical_after_set_zero() {
        let mut a = VClock::unit(t(2));
        a.set(t(2), 0);
        assert_eq!(a, VClock::bottom());
    }

    #[test]
    fn join_and_order() {
        let mut a = VClock::unit(t(0));
        let b = VClock::unit(t(1));
        assert!(!a.le(&b) && !b.le(&a));
        a.join(&b);
        assert!(b.le(&a));
        assert_eq!(a.get(t(0)), 1);
        assert_eq!(a.get(t(1)), 1);
        assert_eq!(a.get(t(7)), 0);
        assert!(VClock::bottom().le(&b));
    }

    #[test]
    fn inc_and_covers() {
        let mut a = VClock::unit(t(1));
        a.inc(t(1));
        assert_eq!(a.get(t(1)), 2);
        assert!(a.covers(t(1), 2));
        assert!(!a.covers(t(1), 3));
        assert!(a.covers(t(5), 0), "epoch 0 happens before everything");
    }
}
