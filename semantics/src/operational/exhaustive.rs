//! Exhaustive exploration: breadth-first search of the whole state graph
//! (ARCHITECTURE.md, "Exploration").
//!
//! States are numbered in breadth-first order: the initial state is 0, and
//! each level's new states follow the previous level's, in the order
//! (parent number, choice) in which they are first reached. Each level is
//! expanded in chunks: the chunk's states are expanded in parallel (rayon;
//! expansion only reads the tables), then their successors are merged into
//! the tables sequentially in that order. Numbering, and so every witness
//! and every table, is therefore the same whatever the number of worker
//! threads (ARCHITECTURE.md invariant 3).
//!
//! Deduplication is exact. A stored state is a row of `u32`: one interned
//! id per thread component (program counter and registers), then the
//! interned id of the memory state with the `racy` bit on top (see
//! [`super::intern`]). No fingerprint ever stands for a state.
//!
//! Each state keeps its parent and the choice that reached it (two `u32`),
//! so breadth-first order gives a shortest witness for every outcome,
//! failure and race: it is rebuilt at the end by replaying the choices
//! ([`super::runner::replay_choices`]).
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
//! it.

use std::borrow::Cow;
use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::budget::Budget;
use crate::ir::{Program, Value};
use crate::mapping::{compile, Mapping};
use crate::model::{MemoryModel, Race};
use crate::outcome::{BoundHit, Failure, FailureKind, OutcomeRow, OutcomeTable, Stats, Trace};

use super::intern::{Interner, StateTable};
use super::interp::{Ended, Interp, Next, Scratch};
use super::runner::replay_choices;

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
}

impl Default for ExploreOptions {
    fn default() -> Self {
        ExploreOptions {
            max_states: 10_000_000,
            mapping: Mapping::Standard,
            budget: Budget::default(),
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
    let mut explorer = Explorer::new(&program, model, opts.max_states);
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

/// The bit of a row's last word that marks a racy state.
const RACY: u32 = 1 << 31;

/// Where a witness ends: at a stored state, or one move after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    /// The execution ended while computing the initial state.
    Start,
    State(u32),
    Move(u32, u32),
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
    choice: u32,
    changed: Option<(usize, Comp<Box<[Value]>>)>,
    child: Option<(usize, Comp<Box<[Value]>>)>,
    mem: Comp<S>,
    racy: bool,
}

/// The result of expanding one state.
#[derive(Debug)]
struct Expansion<S> {
    state: u32,
    end: End,
    fresh: Vec<Fresh<S>>,
    failures: Vec<(u32, FailureKind)>,
    races: Vec<(u32, Race)>,
    moves: u64,
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
    threads: Vec<Interner<Box<[Value]>>>,
    mems: Interner<M::State>,
    states: StateTable,
    parent: Vec<u32>,
    choice: Vec<u32>,
    rows: BTreeMap<Vec<Value>, RowAcc>,
    failures: BTreeMap<FailureKind, At>,
    races: BTreeMap<Race, At>,
    transitions: u64,
    bound: Option<BoundHit>,
    row: Vec<u32>,
    /// Told the number of stored states after every merged chunk.
    progress: Option<Progress<'p>>,
    /// Polled after every merged chunk.
    budget: &'p Budget,
}

impl<'p, M: MemoryModel> Explorer<'p, M> {
    fn new(program: &'p Program, model: &'p M, max_states: u64) -> Self {
        let n = program.threads.len();
        Explorer {
            interp: Interp::new(program, model),
            // States are numbered by `u32`.
            max_states: max_states.min(u64::from(u32::MAX)),
            threads: (0..n).map(|_| Interner::new()).collect(),
            mems: Interner::new(),
            states: StateTable::new(n + 1),
            parent: Vec::new(),
            choice: Vec::new(),
            rows: BTreeMap::new(),
            failures: BTreeMap::new(),
            races: BTreeMap::new(),
            transitions: 0,
            bound: None,
            row: vec![0; n + 1],
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
            Ok((comps, mem)) => {
                for (t, c) in comps.into_iter().enumerate() {
                    self.row[t] = self.threads[t].intern(c);
                }
                let n = self.row.len() - 1;
                self.row[n] = self.mems.intern(mem);
                let row = std::mem::take(&mut self.row);
                let _ = self.states.insert(&row);
                self.row = row;
                self.parent.push(0);
                self.choice.push(0);
                self.search();
            }
        }
        self.table()
    }

    /// Level-by-level breadth-first search.
    fn search(&mut self) {
        let mut lo = 0usize;
        while lo < self.states.len() && self.bound.is_none() {
            let hi = self.states.len();
            let mut start = lo;
            while start < hi && self.bound.is_none() {
                let end = (start + CHUNK).min(hi);
                let this = &*self;
                let expansions: Vec<Expansion<M::State>> = (start..end)
                    .into_par_iter()
                    .map_init(
                        || (Scratch::new(false), Vec::new()),
                        |(sc, row), i| this.expand(i as u32, sc, row),
                    )
                    .collect();
                for e in expansions {
                    self.merge(e);
                }
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

    /// The successors of stored state `i` (reads the tables only).
    fn expand(
        &self,
        i: u32,
        sc: &mut Scratch<M::State>,
        row: &mut Vec<u32>,
    ) -> Expansion<M::State> {
        let stored = self.states.row(i);
        let n = stored.len() - 1;
        let mem = self.mems.get(stored[n] & !RACY);
        let racy = stored[n] & RACY != 0;
        let comp = |t: usize| &self.threads[t].get(stored[t])[..];
        let interp = self.interp();
        let mut e = Expansion {
            state: i,
            end: End::Inner,
            fresh: Vec::new(),
            failures: Vec::new(),
            races: Vec::new(),
            moves: 0,
        };
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
        let mut choice = 0u32;
        let moves = interp.successors(&comp, mem, racy, sc, &mut |m| {
            let c = choice;
            choice += 1;
            if let Some(ev) = &m.event {
                e.races.extend(ev.races.iter().map(|r| (c, *r)));
            }
            match m.next {
                Next::Ended(Ended::Failed(kind)) => e.failures.push((c, kind)),
                Next::Ended(Ended::Discarded) => {}
                Next::State {
                    mem,
                    changed,
                    child,
                    racy,
                } => {
                    let lookup = |(t, v): (crate::ir::ThreadId, &[Value])| {
                        let t = t.index();
                        match self.threads[t].find(v) {
                            Some(id) => (t, Comp::Known(id)),
                            None => (t, Comp::New(Box::from(v))),
                        }
                    };
                    let changed = changed.map(lookup);
                    let child = child.map(lookup);
                    let mem = match self.mems.find(&mem) {
                        Some(id) => Comp::Known(id),
                        None => Comp::New(mem),
                    };
                    // Drop a successor already stored: the common case.
                    if let Comp::Known(mid) = mem {
                        let known = |c: &Option<(usize, Comp<Box<[Value]>>)>| {
                            !matches!(c, Some((_, Comp::New(_))))
                        };
                        if known(&changed) && known(&child) {
                            row.clear();
                            row.extend_from_slice(stored);
                            for (t, id) in [&changed, &child].into_iter().flatten().filter_map(
                                |(t, c)| match c {
                                    Comp::Known(id) => Some((*t, *id)),
                                    Comp::New(_) => None,
                                },
                            ) {
                                row[t] = id;
                            }
                            row[n] = mid | if racy { RACY } else { 0 };
                            if self.states.find(row).is_some() {
                                return;
                            }
                        }
                    }
                    e.fresh.push(Fresh {
                        choice: c,
                        changed,
                        child,
                        mem,
                        racy,
                    });
                }
            }
        }) as u64;
        e.moves = moves;
        if e.moves == 0 {
            e.end = End::Deadlock;
        }
        e
    }

    /// Adds an expansion's results to the tables, in successor order.
    fn merge(&mut self, e: Expansion<M::State>) {
        self.transitions += e.moves;
        let i = e.state;
        match e.end {
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
        for (c, kind) in e.failures {
            self.failures.entry(kind).or_insert(At::Move(i, c));
        }
        for (c, race) in e.races {
            // A race is a pair of instructions, whichever ran first.
            self.races.entry(race.unordered()).or_insert(At::Move(i, c));
        }
        let n = self.row.len() - 1;
        for f in e.fresh {
            if self.bound.is_some() {
                break;
            }
            let mut row = std::mem::take(&mut self.row);
            row.copy_from_slice(self.states.row(i));
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
            if mid & RACY != 0 {
                // 2^31 distinct memory states: ids no longer fit beside the
                // racy bit. Stop as at the state bound (never reached below
                // the default bound).
                self.bound = Some(BoundHit::MaxStates(self.states.len() as u64));
                self.row = row;
                break;
            }
            row[n] = mid | if f.racy { RACY } else { 0 };
            if self.states.len() as u64 >= self.max_states {
                if self.states.find(&row).is_none() {
                    self.bound = Some(BoundHit::MaxStates(self.max_states));
                }
            } else if self.states.insert(&row).is_ok() {
                self.parent.push(i);
                self.choice.push(f.choice);
            }
            self.row = row;
        }
    }

    /// The choices from the initial state to state `i`.
    fn path(&self, mut i: u32) -> Vec<u32> {
        let mut choices = Vec::new();
        while i != 0 {
            choices.push(self.choice[i as usize]);
            i = self.parent[i as usize];
        }
        choices.reverse();
        choices
    }

    fn witness(&self, at: At) -> Trace {
        let choices = match at {
            At::Start => vec![],
            At::State(i) => self.path(i),
            At::Move(i, c) => {
                let mut p = self.path(i);
                p.push(c);
                p
            }
        };
        replay_choices(self.interp().clone(), &choices)
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
            rows,
            failures,
            races: self.races.keys().copied().collect(),
            race_witnesses: self.races.values().map(|at| self.witness(*at)).collect(),
            stats: Stats {
                states: self.states.len() as u64,
                transitions: self.transitions,
            },
            bounds: self.bound.into_iter().collect(),
        }
    }
}
