//! The breadth-first search itself (module docs of `exhaustive`): the
//! options and entry points, the explorer's tables, the parallel expansion
//! of a chunk of states and its sequential merge.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::Range;

use rayon::prelude::*;

use crate::budget::Budget;
use crate::ir::{Program, Value};
use crate::mapping::{compile, Mapping};
use crate::model::{MemoryModel, Race};
use crate::outcome::{BoundHit, FailureKind, OutcomeTable};

use super::expansion::{
    At, Batch, Block, Class, Comp, End, Expansion, Fresh, MoveKey, RowAcc, Succs, Work, BLOCK, RACY,
};
use crate::operational::intern::Interner;
use crate::operational::interp::{Ended, Interp, Move, Next, Scratch};
use crate::operational::reduction::{AgentKind, Agents, Futures, Reduction};
use crate::operational::state_table::{hash_row, Placed, StateTable, MAX_ROWS};

/// The default depth bound: far deeper than any execution of the library
/// (whose outputs it leaves unchanged), and a fraction of a second and
/// about 20 MB of exploration for a one-thread counter loop, which has one
/// state per level (0.23 s, 18.7 MB under sc, measured).
pub const DEFAULT_MAX_DEPTH: u64 = 100_000;

/// Options of exhaustive exploration.
#[derive(Clone, Debug)]
pub struct ExploreOptions {
    /// Stop after storing this many states (default 10,000,000, about 1.5
    /// GB at the design target of 150 bytes per state).
    pub max_states: u64,
    /// Go no deeper than executions of this many steps (breadth-first
    /// levels; default [`DEFAULT_MAX_DEPTH`]): a loop whose states never
    /// repeat, such as `while (1) { r0 = load(x); store(x, r0 + 1); }`,
    /// has no last level, and under one thread would otherwise fill
    /// `max_states` one state per level.
    pub max_depth: u64,
    /// The compilation mapping hardware models apply (book: mapping.md).
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
            max_depth: DEFAULT_MAX_DEPTH,
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
    explorer.max_depth = opts.max_depth;
    explorer.progress = Some(Progress(progress));
    explorer.budget = &opts.budget;
    explorer.run()
}

/// A progress callback (a newtype so the explorer can derive `Debug`).
#[derive(Clone, Copy)]
pub(super) struct Progress<'a>(&'a (dyn Fn(u64) + Sync));

impl std::fmt::Debug for Progress<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress")
    }
}

/// The budget of an explorer built without options: it never runs out.
pub(super) static NO_BUDGET: Budget = Budget {
    interrupt: None,
    deadline: None,
    memory: None,
    progress: None,
};

/// States expanded in parallel before a sequential merge. Fixed, so the
/// merge order does not depend on the number of threads.
pub(super) const CHUNK: usize = 1 << 14;

/// About how many words of successor rows a chunk may build before its
/// merge (64 MiB): a program with many threads has wide rows and many
/// successors per state, and its chunks are made smaller so that the
/// bounds, polled after each chunk, can stop the search before one
/// chunk's successors fill the memory.
pub(super) const CHUNK_WORDS: usize = 1 << 24;

/// How many states a chunk holds for rows of `width` words: [`CHUNK`],
/// or fewer when each state may have about `width` successors of `width`
/// words that would together pass [`CHUNK_WORDS`]. A function of the
/// program alone, and numbering does not depend on it: a chunk's merge
/// numbers its rows as one at a time would.
pub(super) fn chunk_states(width: usize) -> usize {
    (CHUNK_WORDS / width.saturating_mul(width).max(1)).clamp(1, CHUNK)
}

#[derive(Debug)]
pub(super) struct Explorer<'p, M: MemoryModel> {
    pub(super) interp: Interp<'p, M>,
    pub(super) max_states: u64,
    /// How many breadth-first levels are expanded at most.
    pub(super) max_depth: u64,
    /// The future footprints, when the search is reduced.
    pub(super) futures: Option<Futures>,
    pub(super) threads: Vec<Interner<Box<[Value]>>>,
    pub(super) mems: Interner<M::State>,
    /// The model's hash-consing tables: every memory state not found in
    /// `mems` passes through them before it goes to the merge (module
    /// docs).
    pub(super) consing: M::Consing,
    pub(super) states: StateTable,
    pub(super) parent: Vec<u32>,
    pub(super) rows: BTreeMap<Vec<Value>, RowAcc>,
    pub(super) failures: BTreeMap<FailureKind, At>,
    pub(super) races: BTreeMap<Race, At>,
    pub(super) transitions: u64,
    pub(super) bound: Option<BoundHit>,
    pub(super) row: Vec<u32>,
    /// The buffers of a chunk's new states.
    pub(super) batch: Batch,
    /// Where each breadth-first level ends (the first state after it).
    pub(super) levels: Vec<u32>,
    /// The states of a chunk ([`chunk_states`]).
    pub(super) chunk: usize,
    /// The states expanded so far: `0..expanded`.
    pub(super) expanded: u32,
    /// Can an execution be discarded (an `assume`, or a `filter`)? Then
    /// races are confirmed after the search.
    pub(super) may_discard: bool,
    /// Told the number of stored states after every merged chunk.
    pub(super) progress: Option<Progress<'p>>,
    /// Polled after every merged chunk.
    pub(super) budget: &'p Budget,
}

impl<'p, M: MemoryModel> Explorer<'p, M> {
    pub(super) fn new(
        program: &'p Program,
        model: &'p M,
        max_states: u64,
        reduction: Reduction,
    ) -> Self {
        let n = program.threads.len();
        let reduce = reduction == Reduction::Por && M::DECLARES_DEPENDENCE;
        Explorer {
            interp: Interp::new(program, model),
            // States are numbered by `u32`, below the table's mark bit.
            max_states: max_states.min(MAX_ROWS),
            max_depth: u64::MAX,
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

    pub(super) fn interp(&self) -> &Interp<'p, M> {
        &self.interp
    }

    pub(super) fn run(mut self) -> OutcomeTable {
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
    pub(super) fn search(&mut self) {
        let mut lo = 0usize;
        while lo < self.states.len() && self.bound.is_none() {
            // Levels 0 to `max_depth` are expanded (so the outcomes of
            // executions `max_depth` steps long are recorded); states one
            // step deeper are stored, not expanded, and only they make the
            // result partial: a program whose executions all end by then
            // is complete.
            if self.levels.len() as u64 > self.max_depth {
                self.bound = Some(BoundHit::MaxDepth(self.max_depth));
                break;
            }
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
    pub(super) fn expand_chunk(
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
    pub(super) fn expand(
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
    pub(super) fn memory_of(&self, stored: &[u32]) -> (&M::State, bool) {
        let last = stored[stored.len() - 1];
        (self.mems.get(last & !RACY), last & RACY != 0)
    }

    /// Expands state `stored` with the moves of the agents in `set` only.
    /// `false` (and `e` to be cleared) when the set does not qualify: a
    /// member without moves, a move that ends the execution, or a
    /// successor stored at a level up to the state's own (the cycle
    /// proviso; module docs of `reduction`).
    pub(super) fn expand_set(
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
    pub(super) fn classify(
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
    pub(super) fn merge_chunk(&mut self, blocks: Vec<Block<M::State>>) {
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
    pub(super) fn merge_ends(
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
    pub(super) fn fresh_row(&mut self, row: &mut [u32], f: Fresh<M::State>) -> bool {
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
}
