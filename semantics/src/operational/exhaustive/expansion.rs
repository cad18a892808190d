//! What the expansion of a state produces and the merge consumes: where a
//! witness ends ([`At`]), the successors of a block of states ([`Succs`],
//! [`Block`]), where a move leads ([`Target`], [`Class`]) and what a state
//! is besides its successors ([`End`]).

use std::ops::Range;

use crate::ir::Value;
use crate::model::Race;
use crate::outcome::FailureKind;

use crate::operational::interp::{Group, Move, Scratch};
use crate::operational::reduction::Agents;
use crate::operational::state_table::Placed;

/// The bit of a row's last word that marks a racy state.
pub(super) const RACY: u32 = 1 << 31;

/// Where a witness ends: at a stored state, or one move after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum At {
    /// The execution ended while computing the initial state.
    Start,
    State(u32),
    Move(u32, MoveKey),
}

/// Which move of a state: the transition (a thread, or the internal steps)
/// and its index there (the result of the thread's operation, or the
/// position among the state's internal steps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct MoveKey {
    pub(super) group: Group,
    pub(super) index: usize,
}

impl MoveKey {
    pub(super) fn of<S>(m: &Move<'_, S>) -> MoveKey {
        MoveKey {
            group: m.group,
            index: m.index,
        }
    }
}

/// An outcome found so far.
#[derive(Debug)]
pub(super) struct RowAcc {
    pub(super) satisfies: Option<bool>,
    pub(super) racy: bool,
    pub(super) at: At,
}

/// A component of a successor: already interned, or new.
#[derive(Debug)]
pub(super) enum Comp<K> {
    Known(u32),
    New(K),
}

/// A successor that is not known to be stored yet.
#[derive(Debug)]
pub(super) struct Fresh<S> {
    pub(super) changed: Option<(usize, Comp<Box<[Value]>>)>,
    pub(super) child: Option<(usize, Comp<Box<[Value]>>)>,
    pub(super) mem: Comp<S>,
    pub(super) racy: bool,
}

/// The result of expanding one state.
#[derive(Debug)]
pub(super) struct Expansion {
    pub(super) state: u32,
    pub(super) end: End,
    /// Its successors not known to be stored: these positions of its
    /// block's [`Succs`].
    pub(super) succs: Range<u32>,
    pub(super) failures: Vec<(MoveKey, FailureKind)>,
    pub(super) races: Vec<(MoveKey, Race)>,
    pub(super) moves: u64,
    /// Where each move leads, when `record` (the pass that confirms races,
    /// `Explorer::confirm_races`).
    pub(super) record: bool,
    pub(super) edges: Vec<(MoveKey, Target)>,
}

impl Expansion {
    /// The expansion of `state`, whose successors follow those already in
    /// `succs`.
    pub(super) fn new<S>(state: u32, record: bool, succs: &Succs<S>) -> Self {
        let at = succs.hashes.len() as u32;
        Expansion {
            state,
            end: End::Inner,
            succs: at..at,
            failures: Vec::new(),
            races: Vec::new(),
            moves: 0,
            record,
            edges: Vec::new(),
        }
    }

    /// Records where the move `key` leads, when `record`.
    pub(super) fn note(&mut self, key: MoveKey, class: &Class) {
        if self.record {
            let target = match class {
                Class::Ended { failed: true } => Target::Failed,
                Class::Ended { failed: false } => Target::Discarded,
                Class::Stored(id) => Target::State(*id),
                Class::Unseen => Target::Unseen,
            };
            self.edges.push((key, target));
        }
    }

    /// Forgets the moves of a rejected candidate set.
    pub(super) fn clear<S>(&mut self, succs: &mut Succs<S>) {
        succs.truncate(self.succs.start as usize);
        self.failures.clear();
        self.races.clear();
        self.edges.clear();
        self.moves = 0;
    }
}

/// The successors that a block of expansions sends to the merge, in state
/// and move order: their rows (one with a new component holds its
/// parent's row until the merge interns the component), each one's
/// [`hash_row`] (0 until then), and the ones with a new component, by
/// position. Kept per block rather than per state, so that expanding a
/// state allocates nothing for them.
#[derive(Debug)]
pub(super) struct Succs<S> {
    pub(super) width: usize,
    pub(super) rows: Vec<u32>,
    pub(super) hashes: Vec<u64>,
    pub(super) fresh: Vec<(u32, Fresh<S>)>,
}

impl<S> Succs<S> {
    pub(super) fn new(width: usize) -> Self {
        Succs {
            width,
            rows: Vec::new(),
            hashes: Vec::new(),
            fresh: Vec::new(),
        }
    }

    /// A successor with every component interned: its row and hash.
    pub(super) fn push_row(&mut self, row: &[u32], h: u64) {
        self.rows.extend_from_slice(row);
        self.hashes.push(h);
    }

    /// A successor of the state with row `parent` with a new component.
    pub(super) fn push_fresh(&mut self, parent: &[u32], f: Fresh<S>) {
        self.fresh.push((self.hashes.len() as u32, f));
        self.push_row(parent, 0);
    }

    /// Keeps the first `n` successors.
    pub(super) fn truncate(&mut self, n: usize) {
        self.rows.truncate(n * self.width);
        self.hashes.truncate(n);
        while self.fresh.last().is_some_and(|(k, _)| *k as usize >= n) {
            self.fresh.pop();
        }
    }
}

/// The expansions of a block of consecutive states, and their successors.
#[derive(Debug)]
pub(super) struct Block<S> {
    pub(super) expansions: Vec<Expansion>,
    pub(super) succs: Succs<S>,
}

/// States expanded as one block (one task of the parallel expansion).
pub(super) const BLOCK: usize = 256;

/// Where a move leads, as the graph that confirms races records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Target {
    State(u32),
    /// A state not stored (the search stopped at a bound).
    Unseen,
    Failed,
    Discarded,
}

/// What a move leads to, as the explorer sorts it.
pub(super) enum Class {
    /// The execution ended: a failure, or a discarded execution.
    Ended { failed: bool },
    /// A state already stored, with its number.
    Stored(u32),
    /// A state not known to be stored: added to the expansion's rows for
    /// the merge.
    Unseen,
}

/// A worker's buffers, reused across the states it expands.
#[derive(Debug)]
pub(super) struct Work<S> {
    pub(super) sc: Scratch<S>,
    pub(super) row: Vec<u32>,
    pub(super) agents: Agents,
}

/// A chunk's new states, for [`StateTable::insert_batch`]: their rows and
/// hashes, the state each comes from, and what the table did with each.
#[derive(Debug, Default)]
pub(super) struct Batch {
    pub(super) rows: Vec<u32>,
    pub(super) hashes: Vec<u64>,
    pub(super) parents: Vec<u32>,
    pub(super) placed: Vec<Placed>,
}

/// What a state is, besides its successors.
#[derive(Debug)]
pub(super) enum End {
    Inner,
    Final {
        values: Vec<Value>,
        satisfies: Option<bool>,
        racy: bool,
    },
    Filtered,
    Deadlock,
}
