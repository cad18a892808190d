//! Dependence between steps: the vocabulary in which every memory model
//! declares which of its steps commute, for the partial-order reduction of
//! the exhaustive explorer (`operational::reduction` states the theory of
//! the reduction itself and its soundness).
//!
//! # Cells and footprints
//!
//! A model's memory state is split into *cells*: one per location (`M(x)`:
//! whatever the model keeps about `x` that more than one thread reads or
//! writes: the value in memory, the store list or mo-graph of the C11
//! models, PSLO's histories of `x` of every thread, a non-atomic
//! location's race shadow) and the two global SC-fence clocks of the C11
//! models, `S_F` and `S_W` (TSAN11 Fig. 13), which each thread writes only
//! at its own entry. What a thread keeps for itself (registers, its own
//! clocks, its own store buffers) is no cell.
//!
//! A step's [`Footprint`] says which cells it reads and which it writes.
//! Two steps of different *agents* (a thread, or one of the model's
//! internal step sources such as a store buffer) **conflict** when one
//! writes a cell the other reads or writes, or one writes its entry of a
//! global clock the other reads. The classic sufficient condition for
//! independence (Godefroid 1996, *Partial-Order Methods for the
//! Verification of Concurrent Systems*, Sec. 3.3: transitions that access
//! disjoint variables, or only read common ones, are independent) then
//! gives each model's dependence relation: **steps that do not conflict
//! are independent**. Each model states, beside its rules, what each rule
//! reads and writes, and argues the one property the explorer relies on:
//!
//! > *Commutation.* If steps `a` and `b` of different agents are both
//! > enabled in a state `s` and their footprints do not conflict, then `b`
//! > is still enabled after `a` (and `a` after `b`), both orders reach the
//! > same state, and each step has the same results in either order: the
//! > same number of results, in the same order, each returning the same
//! > value and reporting the same event (the same races included).
//!
//! Where a model declares a footprint smaller than a naive read/write
//! count (a TSO store touches no cell: its buffer is its thread's own), the
//! model's docs give the argument. Two steps of the same thread, or a
//! thread and its own store buffers, are never compared by footprint: the
//! hardware models argue instead that a thread's steps commute with the
//! commits of its own buffers (MCR Sec. 4.3: a buffered store and the
//! flush of another store of the same buffer act on different ends of a
//! FIFO), and the explorer never needs to commute two steps of one thread.
//!
//! Locations beyond the 63rd share bit 63 of the sets: two accesses to
//! distinct high locations then look like a conflict, which only makes the
//! reduction more cautious, never unsound.
//!
//! A footprint over-approximates: declaring more cells than a step really
//! touches costs reduction, never soundness. Declaring fewer is a bug that
//! `semantics/tests/it/op_reduction.rs` is built to catch (its commutation
//! check and its mutation test).

use crate::ir::{LocId, ThreadId};
use crate::model::MemOp;

/// The cells a step reads and writes (module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Footprint {
    /// Location cells read, one bit per location (bit 63 stands for every
    /// location from the 63rd on).
    pub reads: u64,
    /// Location cells written.
    pub writes: u64,
    /// Global clock cells: [`Footprint::READS_SF`] and friends.
    pub clocks: u8,
}

impl Footprint {
    /// Touches no cell.
    pub const NONE: Footprint = Footprint {
        reads: 0,
        writes: 0,
        clocks: 0,
    };
    /// Touches every cell: the footprint of a step a model says nothing
    /// about, which conflicts with every other step.
    pub const ALL: Footprint = Footprint {
        reads: u64::MAX,
        writes: u64::MAX,
        clocks: Self::READS_SF | Self::WRITES_SF | Self::READS_SW | Self::WRITES_SW,
    };
    /// Reads every entry of `S_F` (C11 SC fences and SC loads).
    pub const READS_SF: u8 = 1;
    /// Writes the thread's own entry of `S_F` (C11 SC fences).
    pub const WRITES_SF: u8 = 2;
    /// Reads every entry of `S_W` (C11 SC fences).
    pub const READS_SW: u8 = 4;
    /// Writes the thread's own entry of `S_W` (C11 SC stores).
    pub const WRITES_SW: u8 = 8;

    /// The bit of location `x`.
    #[inline]
    pub fn bit(x: LocId) -> u64 {
        1u64 << x.index().min(63)
    }

    /// Reads `M(x)`.
    #[inline]
    pub fn read(x: LocId) -> Footprint {
        Footprint {
            reads: Self::bit(x),
            ..Self::NONE
        }
    }

    /// Reads and writes `M(x)`.
    #[inline]
    pub fn write(x: LocId) -> Footprint {
        Footprint {
            reads: Self::bit(x),
            writes: Self::bit(x),
            clocks: 0,
        }
    }

    /// What a memory access touches at memory, as the hardware models see
    /// it: a load reads `M(x)`; a store, RMW or CAS writes it; fences,
    /// fork, join and end touch no cell.
    #[inline]
    pub fn of_access(op: &MemOp) -> Footprint {
        match *op {
            MemOp::Load { loc, .. } => Footprint::read(loc),
            MemOp::Store { loc, .. } | MemOp::Rmw { loc, .. } | MemOp::Cas { loc, .. } => {
                Footprint::write(loc)
            }
            MemOp::Fence { .. } | MemOp::Fork { .. } | MemOp::Join { .. } | MemOp::End => {
                Footprint::NONE
            }
        }
    }

    /// Reads every location cell (PSLO's history resets read all of `m`).
    pub const READ_ALL: Footprint = Footprint {
        reads: u64::MAX,
        writes: 0,
        clocks: 0,
    };

    /// This footprint with the global clock cells `clocks` added.
    #[inline]
    pub fn with_clocks(mut self, clocks: u8) -> Footprint {
        self.clocks |= clocks;
        self
    }

    /// Both footprints at once.
    #[inline]
    pub fn union(self, other: Footprint) -> Footprint {
        Footprint {
            reads: self.reads | other.reads,
            writes: self.writes | other.writes,
            clocks: self.clocks | other.clocks,
        }
    }

    /// Do steps of two different agents with these footprints conflict
    /// (module docs)? Symmetric.
    #[inline]
    pub fn conflicts(&self, other: &Footprint) -> bool {
        let cells = (self.writes & (other.reads | other.writes)) | (other.writes & self.reads);
        let clock = |w: u8, r: u8| {
            (self.clocks & w != 0 && other.clocks & r != 0)
                || (other.clocks & w != 0 && self.clocks & r != 0)
        };
        cells != 0
            || clock(Self::WRITES_SF, Self::READS_SF)
            || clock(Self::WRITES_SW, Self::READS_SW)
    }
}

/// One internal step enabled in a state, as the reduction sees it: which
/// thread it belongs to (the owner of a store buffer; `None` for steps of
/// no thread, such as `c11t`'s settling) and what it touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InternalAgent {
    pub owner: Option<ThreadId>,
    /// The footprint of this step.
    pub now: Footprint,
    /// The footprint of every step this agent may still take while its
    /// owner thread does not move (a buffer: the commits of all its
    /// stores, this one included).
    pub later: Footprint,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conflicts_are_write_read_or_write_write_on_a_cell() {
        let (x, y) = (LocId::new(0), LocId::new(1));
        assert!(!Footprint::read(x).conflicts(&Footprint::read(x)));
        assert!(Footprint::read(x).conflicts(&Footprint::write(x)));
        assert!(Footprint::write(x).conflicts(&Footprint::write(x)));
        assert!(!Footprint::write(x).conflicts(&Footprint::write(y)));
        assert!(Footprint::READ_ALL.conflicts(&Footprint::write(y)));
        assert!(!Footprint::READ_ALL.conflicts(&Footprint::read(y)));
        assert!(!Footprint::NONE.conflicts(&Footprint::ALL));
        let fence = Footprint::NONE
            .with_clocks(Footprint::READS_SF | Footprint::WRITES_SF | Footprint::READS_SW);
        let sc_store = Footprint::write(x).with_clocks(Footprint::WRITES_SW);
        let sc_load = Footprint::read(y).with_clocks(Footprint::READS_SF);
        assert!(fence.conflicts(&fence));
        assert!(fence.conflicts(&sc_store));
        assert!(fence.conflicts(&sc_load));
        assert!(!sc_store.conflicts(&sc_load));
        assert!(!sc_store.conflicts(&Footprint::write(y).with_clocks(Footprint::WRITES_SW)));
    }

    #[test]
    fn high_locations_share_a_bit() {
        let (a, b) = (LocId::new(70), LocId::new(99));
        assert!(Footprint::write(a).conflicts(&Footprint::read(b)));
    }
}
