//! Exhaustive exploration: breadth-first search of the whole state graph
//! (book: models.md, Exhaustive exploration).
//!
//! States are numbered in breadth-first order: the initial state is 0, and
//! each level's new states follow the previous level's, in the order
//! (parent number, choice) in which they are first reached. Each level is
//! expanded in chunks: the chunk's states are expanded in parallel (rayon;
//! expansion only reads the tables), then their results are merged into
//! the tables in that order: outcomes, failures, races and new components
//! sequentially, and the new state rows as one batch that the state
//! table's shards deduplicate in parallel while numbering the rows as a
//! sequential insert in batch order would ([`super::state_table`]).
//! Numbering, and so every witness and every table, is therefore the same
//! whatever the number of worker threads (README.md, Architecture, invariant 3).
//!
//! The state table is probed once per successor. Expansion builds and
//! hashes the row of every successor whose components are all interned,
//! in parallel, and sends it to the merge without looking it up: the
//! batch insert finds the ones already stored (`Placed::Old`), so a new
//! state costs one probe, not a failed lookup and then an insert. Only the
//! reduced search looks successors up while expanding, because its cycle
//! proviso needs their numbers, as does the pass that records the graph
//! to confirm races. Successor rows and hashes are kept per block of
//! [`BLOCK`] states, so that expanding a state allocates nothing for them.
//!
//! Deduplication is exact. A stored state is a row of `u32`: one interned
//! id per thread component (program counter and registers), then the
//! interned id of the memory state with the `racy` bit on top (see
//! [`super::intern`], [`super::state_table`]). No fingerprint ever stands
//! for a state.
//!
//! A memory state that is not stored yet is hash-consed before it goes to
//! the merge ([`MemoryModel::hash_cons`], `crate::shared_vec`): the parts
//! its step changed are replaced by equal parts of states met before. The
//! C11 models' stored states then share every equal part, so a part held
//! by many states is stored once, and a successor, which holds its
//! parent's parts except the ones its step changed, is compared with a
//! stored state by pointer except for those. A successor found stored is
//! not hash-consed: that would touch the shared parts' reference counts
//! from both worker threads for nothing. Hash-consing changes which
//! allocation holds a value, never a comparison's answer.
//!
//! Each state keeps its parent (one `u32`), so breadth-first order gives a
//! shortest witness for every outcome, failure and race: it is rebuilt at
//! the end by replaying, from each state on the path, the first move (in
//! successor order) that leads to the next one, which is the move that
//! first reached it. A failure or race keeps the move that found it.
//!
//! Partial-order reduction ([`super::reduction`], `opts.reduction`) expands
//! some states with the moves of a persistent set of agents only; every
//! reported outcome, verdict, racy mark, failure and race stays the same
//! (the soundness argument is in that module), and witnesses are then
//! paths of the reduced graph: valid executions, not always shortest ones.
//!
//! Cycles in the state graph (spin loops) need no bound: a state already
//! stored is not expanded again. The `max_states` bound stops the search
//! after that many stored states; the table is then partial and says so
//! ([`BoundHit::MaxStates`]). The options' [`Budget`] (interruption, time,
//! memory) is polled after every merged chunk, and stops the search the
//! same way.
//!
//! Memory: a stored state costs its row (`4 * (threads + 1)` bytes), about
//! 8 to 16 bytes of hash table (an index and 32 bits of hash, at hashbrown's
//! load factor) and 8 bytes of parent link, plus its share of the interned
//! components. Measured peak resident memory (`benches/op_memory.rs`,
//! VmHWM): 42-73 bytes per state on 10^6-state TSO/PSO/PSLO programs, up
//! to about 250 on 4*10^4-state PSLO ones where interned histories
//! dominate.
//!
//! Data races: a step that reports races sets the `racy` bit of the states
//! after it; an outcome is racy when every final state giving it is racy,
//! and each distinct race is kept with the first (shortest) step reporting
//! it. A race is reported only if some execution through its move
//! survives: a move that a false `assume` discards is on no execution, and
//! for programs with an `assume` or a `filter`, races are confirmed after
//! the search against the states from which every execution is discarded
//! ([`crate::operational::doomed`]), the states expanded again to record the graph.

mod expansion;
mod races;
mod search;
mod witness;

pub use search::{explore, explore_with_progress, program_for, ExploreOptions, DEFAULT_MAX_DEPTH};
