//! Exhaustive exploration: breadth-first search of the whole state graph
//! (ARCHITECTURE.md, "Exploration").
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
//! whatever the number of worker threads (ARCHITECTURE.md invariant 3).
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
//! ([`super::doomed`]), the states expanded again to record the graph.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;

use rayon::prelude::*;

use crate::budget::Budget;
use crate::ir::{Program, Value};
use crate::mapping::{compile, Mapping};
use crate::model::{MemoryModel, Race};
use crate::outcome::{BoundHit, Failure, FailureKind, OutcomeRow, OutcomeTable, Stats, Trace};

use super::doomed::Graph;
use super::intern::Interner;
use super::interp::{Ended, Group, Interp, Move, Next, Scratch};
use super::reduction::{AgentKind, Agents, Futures, Reduction};
use super::runner::{replay_choices, Runner};
use super::state_table::{hash_row, Placed, StateTable, MAX_ROWS};

/// Options of exhaustive exploration.
#[derive(Clone, Debug)]
pub struct ExploreOptions {
    /// Stop after storing this many states (default 10,000,000, about 1.5
    /// GB at the design target of 150 bytes per state).
    pub max_states: u64,
    /// The compilation mapping hardware models apply (MODELS.md 2.5).
    pub mapping: Mapping,
    /// Interruption, time and memory bounds, polled after every merged
    /// chunk of the frontier.
    pub budget: Budget,
    /// Partial-order reduction (default) or the full search.
    pub reduction: Reduction,
}

impl Default for ExploreOptions {
    fn default() -> Self {
        ExploreOptions {
            max_states: 10_000_000,
            mapping: Mapping::Standard,
            budget: Budget::default(),
            reduction: Reduction::Por,
        }
    }
}

/// The program a model runs: compiled with the mapping for hardware models
/// ([`MemoryModel::target`]), as it is for the others. Witness traces
/// number instructions of this program.
pub fn program_for<'p, M: MemoryModel>(
    program: &'p Program,
    model: &M,
    mapping: Mapping,
) -> Cow<'p, Program> {
    match model.target() {
        Some(target) => Cow::Owned(compile(program, target, mapping)),
        None => Cow::Borrowed(program),
    }
}

/// Explores every execution of `program` under `model`. Parallel when run
/// inside a rayon pool; the result does not depend on the pool's size.
pub fn explore<M: MemoryModel>(
    program: &Program,
    model: &M,
    opts: &ExploreOptions,
) -> OutcomeTable {
    explore_with_progress(program, model, opts, &|_| {})
}

/// [`explore`], calling `progress` with the number of states stored so far
/// after every merged chunk of the frontier (for a progress bar). The
/// callback cannot influence the result.
pub fn explore_with_progress<M: MemoryModel>(
    program: &Program,
    model: &M,
    opts: &ExploreOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> OutcomeTable {
    let program = program_for(program, model, opts.mapping);
    let mut explorer = Explorer::new(&program, model, opts.max_states, opts.reduction);
    explorer.progress = Some(Progress(progress));
    explorer.budget = &opts.budget;
    explorer.run()
}

/// A progress callback (a newtype so the explorer can derive `Debug`).
#[derive(Clone, Copy)]
struct Progress<'a>(&'a (dyn Fn(u64) + Sync));

impl std::fmt::Debug for Progress<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress")
    }
}

/// The budget of an explorer built without options: it never runs out.
static NO_BUDGET: Budget = Budget {
    interrupt: None,
    deadline: None,
    memory: None,
};

/// States expanded in parallel before a sequential merge. Fixed, so the
/// merge order does not depend on the number of threads.
const CHUNK: usize = 1 << 14;

/// About how many words of successor rows a chunk may build before its
/// merge (64 MiB): a program with many threads has wide rows and many
/// successors per state, and its chunks are made smaller so that the
/// bounds, polled after each chunk, can stop the search before one
/// chunk's successors fill the memory.
const CHUNK_WORDS: usize = 1 << 24;

/// How many states a chunk holds for rows of `width` words: [`CHUNK`],
/// or fewer when each state may have about `width` successors of `width`
/// words that would together pass [`CHUNK_WORDS`]. A function of the
/// program alone, and numbering does not depend on it: a chunk's merge
/// numbers its rows as one at a time would.
fn chunk_states(width: usize) -> usize {
    (CHUNK_WORDS / width.saturating_mul(width).max(1)).clamp(1, CHUNK)
}

/// The bit of a row's last word that marks a racy state.
const RACY: u32 = 1 << 31;

/// Where a witness ends: at a stored state, or one move after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    /// The execution ended while computing the initial state.
    Start,
    State(u32),
    Move(u32, MoveKey),
}

/// Which move of a state: the transition (a thread, or the internal steps)
/// and its index there (the result of the thread's operation, or the
/// position among the state's internal steps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct MoveKey {
    group: Group,
    index: usize,
}

impl MoveKey {
    fn of<S>(m: &Move<'_, S>) -> MoveKey {
        MoveKey {
            group: m.group,
            index: m.index,
        }
    }
}

/// An outcome found so far.
#[derive(Debug)]
struct RowAcc {
    satisfies: Option<bool>,
    racy: bool,
    at: At,
}

/// A component of a successor: already interned, or new.
#[derive(Debug)]
enum Comp<K> {
    Known(u32),
    New(K),
}

/// A successor that is not known to be stored yet.
#[derive(Debug)]
struct Fresh<S> {
    changed: Option<(usize, Comp<Box<[Value]>>)>,
    child: Option<(usize, Comp<Box<[Value]>>)>,
    mem: Comp<S>,
    racy: bool,
}

/// The result of expanding one state.
#[derive(Debug)]
struct Expansion {
    state: u32,
    end: End,
    /// Its successors not known to be stored: these positions of its
    /// block's [`Succs`].
    succs: Range<u32>,
    failures: Vec<(MoveKey, FailureKind)>,
    races: Vec<(MoveKey, Race)>,
    moves: u64,
    /// Where each move leads, when `record` (the pass that confirms races,
    /// `Explorer::confirm_races`).
    record: bool,
    edges: Vec<(MoveKey, Target)>,
}

impl Expansion {
    /// The expansion of `state`, whose successors follow those already in
    /// `succs`.
    fn new<S>(state: u32, record: bool, succs: &Succs<S>) -> Self {
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
    fn note(&mut self, key: MoveKey, class: &Class) {
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
    fn clear<S>(&mut self, succs: &mut Succs<S>) {
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
struct Succs<S> {
    width: usize,
    rows: Vec<u32>,
    hashes: Vec<u64>,
    fresh: Vec<(u32, Fresh<S>)>,
}

impl<S> Succs<S> {
    fn new(width: usize) -> Self {
        Succs {
            width,
            rows: Vec::new(),
            hashes: Vec::new(),
            fresh: Vec::new(),
        }
    }

    /// A successor with every component interned: its row and hash.
    fn push_row(&mut self, row: &[u32], h: u64) {
        self.rows.extend_from_slice(row);
        self.hashes.push(h);
    }

    /// A successor of the state with row `parent` with a new component.
    fn push_fresh(&mut self, parent: &[u32], f: Fresh<S>) {
        self.fresh.push((self.hashes.len() as u32, f));
        self.push_row(parent, 0);
    }

    /// Keeps the first `n` successors.
    fn truncate(&mut self, n: usize) {
        self.rows.truncate(n * self.width);
        self.hashes.truncate(n);
        while self.fresh.last().is_some_and(|(k, _)| *k as usize >= n) {
            self.fresh.pop();
        }
    }
}

/// The expansions of a block of consecutive states, and their successors.
#[derive(Debug)]
struct Block<S> {
    expansions: Vec<Expansion>,
    succs: Succs<S>,
}

/// States expanded as one block (one task of the parallel expansion).
const BLOCK: usize = 256;

/// Where a move leads, as the graph that confirms races records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    State(u32),
    /// A state not stored (the search stopped at a bound).
    Unseen,
    Failed,
    Discarded,
}

/// What a move leads to, as the explorer sorts it.
enum Class {
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
struct Work<S> {
    sc: Scratch<S>,
    row: Vec<u32>,
    agents: Agents,
}

/// A chunk's new states, for [`StateTable::insert_batch`]: their rows and
/// hashes, the state each comes from, and what the table did with each.
#[derive(Debug, Default)]
struct Batch {
    rows: Vec<u32>,
    hashes: Vec<u64>,
    parents: Vec<u32>,
    placed: Vec<Placed>,
}

/// What a state is, besides its successors.
#[derive(Debug)]
enum End {
    Inner,
    Final {
        values: Vec<Value>,
        satisfies: Option<bool>,
        racy: bool,
    },
    Filtered,
    Deadlock,
}

#[derive(Debug)]
struct Explorer<'p, M: MemoryModel> {
    interp: Interp<'p, M>,
    max_states: u64,
    /// The future footprints, when the search is reduced.
    futures: Option<Futures>,
    threads: Vec<Interner<Box<[Value]>>>,
    mems: Interner<M::State>,
    /// The model's hash-consing tables: every memory state not found in
    /// `mems` passes through them before it goes to the merge (module
    /// docs).
    consing: M::Consing,
    states: StateTable,
    parent: Vec<u32>,
    rows: BTreeMap<Vec<Value>, RowAcc>,
    failures: BTreeMap<FailureKind, At>,
    races: BTreeMap<Race, At>,
    transitions: u64,
    bound: Option<BoundHit>,
    row: Vec<u32>,
    /// The buffers of a chunk's new states.
    batch: Batch,
    /// Where each breadth-first level ends (the first state after it).
    levels: Vec<u32>,
    /// The states of a chunk ([`chunk_states`]).
    chunk: usize,
    /// The states expanded so far: `0..expanded`.
    expanded: u32,
    /// Can an execution be discarded (an `assume`, or a `filter`)? Then
    /// races are confirmed after the search.
    may_discard: bool,
    /// Told the number of stored states after every merged chunk.
    progress: Option<Progress<'p>>,
    /// Polled after every merged chunk.
    budget: &'p Budget,
}

impl<'p, M: MemoryModel> Explorer<'p, M> {
    fn new(program: &'p Program, model: &'p M, max_states: u64, reduction: Reduction) -> Self {
        let n = program.threads.len();
        let reduce = reduction == Reduction::Por && M::DECLARES_DEPENDENCE;
        Explorer {
            interp: Interp::new(program, model),
            // States are numbered by `u32`, below the table's mark bit.
            max_states: max_states.min(MAX_ROWS),
            futures: reduce.then(|| Futures::of(program, model)),
            threads: (0..n).map(|_| Interner::new()).collect(),
            mems: Interner::new(),
            consing: M::Consing::default(),
            states: StateTable::new(n + 1),
            parent: Vec::new(),
            rows: BTreeMap::new(),
            failures: BTreeMap::new(),
            races: BTreeMap::new(),
            transitions: 0,
            bound: None,
            row: vec![0; n + 1],
            batch: Batch::default(),
            levels: Vec::new(),
            chunk: chunk_states(n + 1),
            expanded: 0,
            may_discard: program.filter.is_some()
                || program.threads.iter().any(|t| {
                    t.code
                        .iter()
                        .any(|i| matches!(i.instr, crate::ir::Instr::Assume { .. }))
                }),
            progress: None,
            budget: &NO_BUDGET,
        }
    }

    fn interp(&self) -> &Interp<'p, M> {
        &self.interp
    }

    fn run(mut self) -> OutcomeTable {
        let mut sc = Scratch::new(false);
        match self.interp().initial(&mut sc) {
            Err(Ended::Failed(kind)) => {
                self.failures.insert(kind, At::Start);
            }
            Err(Ended::Discarded) => {}
            Ok((comps, mut mem)) => {
                for (t, c) in comps.into_iter().enumerate() {
                    self.row[t] = self.threads[t].intern(c);
                }
                self.interp.model.hash_cons(&mut mem, &self.consing);
                let n = self.row.len() - 1;
                self.row[n] = self.mems.intern(mem);
                let row = std::mem::take(&mut self.row);
                let _ = self.states.insert(&row);
                self.row = row;
                self.parent.push(0);
                self.search();
                if self.may_discard && !self.races.is_empty() {
                    self.confirm_races();
                }
            }
        }
        self.table()
    }

    /// Level-by-level breadth-first search.
    fn search(&mut self) {
        let mut lo = 0usize;
        while lo < self.states.len() && self.bound.is_none() {
            let hi = self.states.len();
            self.levels.push(hi as u32);
            let mut start = lo;
            while start < hi && self.bound.is_none() {
                let end = (start + self.chunk).min(hi);
                let expansions = self.expand_chunk(start..end, hi as u32, false);
                self.merge_chunk(expansions);
                self.expanded = end as u32;
                if let Some(Progress(progress)) = self.progress {
                    progress(self.states.len() as u64);
                }
                if self.bound.is_none() {
                    self.bound = self.budget.exhausted();
                }
                start = end;
            }
            lo = hi;
        }
    }

    /// Expands stored states `chunk` of the breadth-first level ending
    /// before state `level_end`, in parallel blocks of [`BLOCK`] states
    /// (reads the tables only).
    fn expand_chunk(
        &self,
        chunk: Range<usize>,
        level_end: u32,
        record: bool,
    ) -> Vec<Block<M::State>> {
        let width = self.row.len();
        let blocks: Vec<Range<usize>> = chunk
            .clone()
            .step_by(BLOCK)
            .map(|lo| lo..(lo + BLOCK).min(chunk.end))
            .collect();
        blocks
            .into_par_iter()
            .map_init(
                || Work {
                    sc: Scratch::new(false),
                    row: Vec::new(),
                    agents: Agents::default(),
                },
                |work, block| {
                    let mut succs = Succs::new(width);
                    let expansions = block
                        .map(|i| self.expand(i as u32, level_end, work, record, &mut succs))
                        .collect();
                    Block { expansions, succs }
                },
            )
            .collect()
    }

    /// The successors of stored state `i` (reads the tables only), which
    /// lies in the breadth-first level ending before state `level_end`.
    /// With `record`, the expansion also says where each move leads. The
    /// successors not known to be stored are added to `succs`.
    fn expand(
        &self,
        i: u32,
        level_end: u32,
        work: &mut Work<M::State>,
        record: bool,
        succs: &mut Succs<M::State>,
    ) -> Expansion {
        let stored = self.states.row(i);
        let (mem, racy) = self.memory_of(stored);
        let comp = |t: usize| &self.threads[t].get(stored[t])[..];
        let interp = self.interp();
        let mut e = Expansion::new(i, record, succs);
        if interp.is_final(&comp, mem) {
            e.end = match interp.outcome(&comp, mem) {
                Some(values) => End::Final {
                    values,
                    satisfies: interp.satisfies(&comp, mem),
                    racy,
                },
                None => End::Filtered,
            };
            return e;
        }
        if let Some(futures) = &self.futures {
            work.agents.gather(interp, futures, &comp, mem);
            let mut k = 0;
            while let Some(set) = work.agents.candidate(k) {
                k += 1;
                if self.expand_set(stored, set, level_end, work, &mut e, succs) {
                    e.succs.end = succs.hashes.len() as u32;
                    return e;
                }
                e.clear(succs);
            }
        }
        let Work { sc, row, .. } = work;
        let moves = interp.successors(&comp, mem, racy, sc, &mut |m| {
            let key = MoveKey::of(&m);
            let class = self.classify(stored, m, row, &mut e, succs, key);
            e.note(key, &class);
        }) as u64;
        e.succs.end = succs.hashes.len() as u32;
        e.moves = moves;
        if e.moves == 0 {
            e.end = End::Deadlock;
        }
        e
    }

    /// The memory state of stored row `stored`, and its racy bit.
    #[inline]
    fn memory_of(&self, stored: &[u32]) -> (&M::State, bool) {
        let last = stored[stored.len() - 1];
        (self.mems.get(last & !RACY), last & RACY != 0)
    }

    /// Expands state `stored` with the moves of the agents in `set` only.
    /// `false` (and `e` to be cleared) when the set does not qualify: a
    /// member without moves, a move that ends the execution, or a
    /// successor stored at a level up to the state's own (the cycle
    /// proviso; module docs of `reduction`).
    fn expand_set(
        &self,
        stored: &[u32],
        set: u64,
        level_end: u32,
        work: &mut Work<M::State>,
        e: &mut Expansion,
        succs: &mut Succs<M::State>,
    ) -> bool {
        let (mem, racy) = self.memory_of(stored);
        let comp = |t: usize| &self.threads[t].get(stored[t])[..];
        let interp = self.interp();
        let Work { sc, row, agents } = work;
        let mut ok = true;
        let mut sink = |m: Move<'_, M::State>| {
            let key = MoveKey::of(&m);
            let class = self.classify(stored, m, row, e, succs, key);
            e.note(key, &class);
            match class {
                Class::Ended { .. } => ok = false,
                Class::Stored(id) => ok &= id >= level_end,
                Class::Unseen => {}
            }
        };
        let mut internal = 0u64;
        let mut moves = 0;
        let mut members = set;
        while members != 0 {
            let a = members.trailing_zeros() as usize;
            members &= members - 1;
            match agents.list[a].kind {
                AgentKind::Thread(t) => {
                    let k = interp.thread_step(t, &comp, mem, racy, sc, &mut sink);
                    if k == 0 {
                        return false;
                    }
                    moves += k;
                }
                AgentKind::Internal(k) => internal |= 1 << k.min(63),
            }
        }
        if internal != 0 {
            let keep = |k: usize| k < 64 && internal & (1 << k) != 0;
            moves += interp.internal_steps(mem, racy, sc, &mut sink, keep);
        }
        e.moves = moves as u64;
        ok
    }

    /// Sorts move `m` of state `stored`, recording its failure and races
    /// in `e`, and its successor in `succs` unless it is known to be
    /// stored (and the caller records where it leads, [`Expansion::note`]).
    ///
    /// A successor is looked up in the state table here only when its
    /// number matters before the merge: in a reduced search (its cycle
    /// proviso) and when recording the graph. Otherwise the merge's batch
    /// insert finds it, one probe of the table per successor instead of
    /// two for each new one.
    fn classify(
        &self,
        stored: &[u32],
        m: Move<'_, M::State>,
        row: &mut Vec<u32>,
        e: &mut Expansion,
        succs: &mut Succs<M::State>,
        key: MoveKey,
    ) -> Class {
        let n = stored.len() - 1;
        // A move whose execution an `assume` discards within the move (the
        // racing access, then local code up to a false `assume`) is on no
        // execution: its races are not reported from it.
        let discarded = matches!(m.next, Next::Ended(Ended::Discarded));
        if let Some(ev) = m.event.as_ref().filter(|_| !discarded) {
            e.races.extend(ev.races.iter().map(|r| (key, *r)));
        }
        let (mut mem, changed, child, racy) = match m.next {
            Next::Ended(Ended::Failed(kind)) => {
                e.failures.push((key, kind));
                return Class::Ended { failed: true };
            }
            Next::Ended(Ended::Discarded) => return Class::Ended { failed: false },
            Next::State {
                mem,
                changed,
                child,
                racy,
            } => (mem, changed, child, racy),
        };
        let lookup = |(t, v): (crate::ir::ThreadId, &[Value])| {
            let t = t.index();
            match self.threads[t].find(v) {
                Some(id) => (t, Comp::Known(id)),
                None => (t, Comp::New(Box::from(v))),
            }
        };
        let changed = changed.map(lookup);
        let child = child.map(lookup);
        let parent = stored[n] & !RACY;
        let mem = if M::same_state(&mem, self.mems.get(parent)) {
            Comp::Known(parent)
        } else {
            match self.mems.find(&mem) {
                Some(id) => Comp::Known(id),
                None => {
                    self.interp.model.hash_cons(&mut mem, &self.consing);
                    Comp::New(mem)
                }
            }
        };
        let known = |c: &Option<(usize, Comp<Box<[Value]>>)>| !matches!(c, Some((_, Comp::New(_))));
        if let (Comp::Known(mid), true, true) = (&mem, known(&changed), known(&child)) {
            // Every component is interned: the successor's row is known.
            row.clear();
            row.extend_from_slice(stored);
            for (t, c) in [&changed, &child].into_iter().flatten() {
                if let Comp::Known(id) = c {
                    row[*t] = *id;
                }
            }
            row[n] = mid | if racy { RACY } else { 0 };
            let h = hash_row(row);
            if self.futures.is_some() || e.record {
                if let Some(id) = self.states.find_hashed(row, h) {
                    return Class::Stored(id);
                }
            }
            succs.push_row(row, h);
        } else {
            let f = Fresh {
                changed,
                child,
                mem,
                racy,
            };
            succs.push_fresh(stored, f);
        }
        Class::Unseen
    }

    /// Adds a chunk's expansions to the tables, in state and successor
    /// order: their ends, failures and races, then their new states as one
    /// batch ([`StateTable::insert_batch`], numbered as one by one).
    fn merge_chunk(&mut self, blocks: Vec<Block<M::State>>) {
        let mut batch = std::mem::take(&mut self.batch);
        batch.rows.clear();
        batch.hashes.clear();
        batch.parents.clear();
        let w = self.row.len();
        let mut overflow = false;
        for Block { expansions, succs } in blocks {
            let Succs {
                mut rows,
                mut hashes,
                fresh,
                ..
            } = succs;
            // New components, interned in state and move order.
            let mut take = if overflow { 0 } else { hashes.len() };
            for (k, f) in fresh {
                let k = k as usize;
                if k >= take {
                    break;
                }
                let row = &mut rows[k * w..(k + 1) * w];
                if !self.fresh_row(row, f) {
                    overflow = true;
                    take = k;
                    break;
                }
                hashes[k] = hash_row(row);
            }
            for e in expansions {
                let i = e.state;
                self.merge_ends(i, e.end, e.moves, e.failures, e.races);
                let (lo, hi) = (e.succs.start as usize, (e.succs.end as usize).min(take));
                batch
                    .parents
                    .extend(std::iter::repeat_n(i, hi.saturating_sub(lo)));
            }
            batch.rows.extend_from_slice(&rows[..take * w]);
            batch.hashes.extend_from_slice(&hashes[..take]);
        }
        self.states.insert_batch(
            &batch.rows,
            &batch.hashes,
            self.max_states,
            &mut batch.placed,
        );
        for (k, placed) in batch.placed.iter().enumerate() {
            match placed {
                Placed::New(_) => self.parent.push(batch.parents[k]),
                Placed::Old => {}
                Placed::Refused => {
                    self.bound = Some(BoundHit::MaxStates(self.max_states));
                    break;
                }
            }
        }
        if overflow && self.bound.is_none() {
            // 2^31 distinct memory states: ids no longer fit beside the
            // racy bit. Stop as at the state bound (never reached below
            // the default bound).
            self.bound = Some(BoundHit::MaxStates(self.states.len() as u64));
        }
        self.batch = batch;
    }

    /// Records what state `i` is (a final state, a deadlock), its moves'
    /// failures and races, and the number of its moves.
    fn merge_ends(
        &mut self,
        i: u32,
        end: End,
        moves: u64,
        failures: Vec<(MoveKey, FailureKind)>,
        races: Vec<(MoveKey, Race)>,
    ) {
        self.transitions += moves;
        match end {
            End::Inner | End::Filtered => {}
            End::Final {
                values,
                satisfies,
                racy,
            } => {
                let acc = self.rows.entry(values).or_insert(RowAcc {
                    satisfies,
                    racy,
                    at: At::State(i),
                });
                acc.racy &= racy;
            }
            End::Deadlock => {
                self.failures
                    .entry(FailureKind::Deadlock)
                    .or_insert(At::State(i));
            }
        }
        for (c, kind) in failures {
            self.failures.entry(kind).or_insert(At::Move(i, c));
        }
        for (c, race) in races {
            // A race is a pair of instructions, whichever ran first.
            self.races.entry(race.unordered()).or_insert(At::Move(i, c));
        }
    }

    /// Completes `row`, the row of the state successor `f` comes from,
    /// into the successor's, interning its new components; `false` when
    /// memory ids no longer fit beside the racy bit.
    fn fresh_row(&mut self, row: &mut [u32], f: Fresh<M::State>) -> bool {
        let n = row.len() - 1;
        for (t, c) in [f.changed, f.child].into_iter().flatten() {
            row[t] = match c {
                Comp::Known(id) => id,
                Comp::New(v) => self.threads[t].intern(v),
            };
        }
        let mid = match f.mem {
            Comp::Known(id) => id,
            Comp::New(s) => self.mems.intern(s),
        };
        row[n] = mid | if f.racy { RACY } else { 0 };
        mid & RACY == 0
    }

    /// Keeps the races some surviving execution makes ([`super::doomed`]):
    /// expands the states the search expanded again, level by level in the
    /// same chunks and with the same persistent sets (a set's cycle proviso
    /// compares with the end of the state's level, recorded in `levels`,
    /// and every successor the search inserted was numbered past it),
    /// records the graph,
    /// and keeps, for each race, the first move making it whose successor
    /// is not doomed. The budget is polled after every chunk as in the
    /// search; states not expanded again count as doomed.
    fn confirm_races(&mut self) {
        let mut graph = Graph::new();
        let mut found: Vec<(u32, MoveKey, Race, Target)> = Vec::new();
        let expanded = self.expanded as usize;
        let mut lo = 0;
        'levels: for l in 0..self.levels.len() {
            let level_end = self.levels[l];
            let hi = (level_end as usize).min(expanded);
            let mut start = lo;
            while start < hi {
                let end = (start + self.chunk).min(hi);
                let blocks = self.expand_chunk(start..end, level_end, true);
                for e in blocks.into_iter().flat_map(|b| b.expansions) {
                    let failed = e.edges.iter().any(|(_, t)| *t == Target::Failed);
                    let ends = failed || matches!(e.end, End::Final { .. } | End::Deadlock);
                    graph.push(
                        ends,
                        e.edges.iter().filter_map(|(_, t)| match t {
                            Target::State(j) => Some(*j),
                            _ => None,
                        }),
                    );
                    for (key, race) in e.races {
                        // Every move noted its target, races' moves too.
                        let target = e.edges.iter().find(|(k, _)| *k == key).map(|(_, t)| *t);
                        debug_assert!(target.is_some(), "relaxlab internal error: race edge");
                        found.push((e.state, key, race, target.unwrap_or(Target::Unseen)));
                    }
                }
                if let Some(hit) = self.budget.exhausted() {
                    self.bound.get_or_insert(hit);
                    break 'levels;
                }
                start = end;
            }
            lo = hi;
        }
        let doomed = graph.doomed(self.states.len());
        self.races.clear();
        for (i, key, race, target) in found {
            let survives = match target {
                Target::Failed => true,
                Target::State(j) => !doomed[j as usize],
                Target::Unseen | Target::Discarded => false,
            };
            if survives {
                self.races
                    .entry(race.unordered())
                    .or_insert(At::Move(i, key));
            }
        }
        if self.bound.is_some() {
            self.races_to_racy_rows();
        }
    }

    /// When the search or the confirmation was cut short: adds the races
    /// made on the way to each racy row's witness state, replayed as
    /// [`Self::witness`] replays it. That path ends in a kept final state,
    /// so its races survive; with them, no row says `racy` without a race
    /// listed.
    fn races_to_racy_rows(&mut self) {
        let mut found = Vec::new();
        let mut no_trace = None;
        for acc in self.rows.values().filter(|acc| acc.racy) {
            let At::State(last) = acc.at else { continue };
            let Ok(mut runner) = Runner::start(self.interp().clone(), &mut no_trace) else {
                continue;
            };
            let mut from = 0;
            for to in self.path(last) {
                let (before, mut key) = (runner.races.len(), None);
                runner.take_first(
                    |m| {
                        let next = self.leads_to(from, m, to);
                        if next {
                            key = Some(MoveKey::of(m));
                        }
                        next
                    },
                    &mut no_trace,
                );
                if let Some(key) = key {
                    let made = &runner.races[before..];
                    found.extend(made.iter().map(|r| (r.unordered(), At::Move(from, key))));
                }
                from = to;
            }
        }
        for (race, at) in found {
            self.races.entry(race).or_insert(at);
        }
    }

    /// The states from the initial one (excluded) to state `i`.
    fn path(&self, mut i: u32) -> Vec<u32> {
        let mut states = Vec::new();
        while i != 0 {
            states.push(i);
            i = self.parent[i as usize];
        }
        states.reverse();
        states
    }

    /// Does move `m` of stored state `from` lead to stored state `to`?
    fn leads_to(&self, from: u32, m: &Move<'_, M::State>, to: u32) -> bool {
        let Next::State {
            mem,
            changed,
            child,
            racy,
        } = &m.next
        else {
            return false;
        };
        let (have, want) = (self.states.row(from), self.states.row(to));
        let n = want.len() - 1;
        let moved = |t: usize| {
            [changed, child]
                .into_iter()
                .flatten()
                .find(|(u, _)| u.index() == t)
                .map(|(_, c)| *c)
        };
        (0..n).all(|t| match moved(t) {
            Some(c) => self.threads[t].find(c) == Some(want[t]),
            None => have[t] == want[t],
        }) && self.mems.find(mem) == Some(want[n] & !RACY)
            && *racy == (want[n] & RACY != 0)
    }

    /// The trace of the execution that reaches `at`: from each state of
    /// the path, the first move leading to the next (the one that first
    /// reached it), then the recorded move for a failure or race.
    fn witness(&self, at: At) -> Trace {
        let (last, then) = match at {
            At::Start => return replay_choices(self.interp().clone(), &[]),
            At::State(i) => (i, None),
            At::Move(i, key) => (i, Some(key)),
        };
        let mut trace = Trace::default();
        let mut rec = Some(&mut trace);
        let Ok(mut runner) = Runner::start(self.interp().clone(), &mut rec) else {
            return trace;
        };
        let mut from = 0;
        for to in self.path(last) {
            let taken = runner.take_first(|m| self.leads_to(from, m, to), &mut rec);
            debug_assert!(
                taken.is_some(),
                "relaxlab internal error: a witness step cannot be replayed"
            );
            from = to;
        }
        if let Some(key) = then {
            let taken = runner.take_first(|m| MoveKey::of(m) == key, &mut rec);
            debug_assert!(
                taken.is_some(),
                "relaxlab internal error: a witness's last move cannot be replayed"
            );
        }
        trace
    }

    fn table(&self) -> OutcomeTable {
        let rows = self
            .rows
            .iter()
            .map(|(values, acc)| OutcomeRow {
                values: values.clone(),
                satisfies: acc.satisfies,
                count: 1,
                racy: acc.racy,
                non_sc: false,
                witness: Some(self.witness(acc.at)),
            })
            .collect();
        let failures = self
            .failures
            .iter()
            .map(|(kind, at)| Failure {
                kind: kind.clone(),
                count: 1,
                witness: Some(self.witness(*at)),
            })
            .collect();
        OutcomeTable {
            model: self.interp.model.name().to_string(),
            has_condition: self.interp.program.condition.is_some(),
            rows,
            failures,
            races: self.races.keys().copied().collect(),
            race_witnesses: self.races.values().map(|at| self.witness(*at)).collect(),
            flags: Vec::new(),
            undefined_by_cat: None,
            stats: Stats {
                states: self.states.len() as u64,
                transitions: self.transitions,
            },
            bounds: self.bound.into_iter().collect(),
        }
    }
}
