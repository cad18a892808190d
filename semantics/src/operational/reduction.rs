//! Partial-order reduction of the exhaustive explorer: from some states
//! only the moves of a *persistent* set of agents are explored, with a
//! cycle proviso, so that everything relaxlab reports stays exactly as the
//! full search reports it.
//!
//! # What must be kept
//!
//! An exhaustive table reports (1) every final state's outcome, with its
//! verdict and whether the state is racy (the `racy` bit is part of the
//! state); (2) deadlocks: non-final states with no move; (3) every kind of
//! failed move (assertion, division by zero, bad join handle, divergence
//! of a local loop), each found by one move; (4) every distinct data race,
//! each reported by the event of one move; and the `non-SC` marks, which
//! are computed from the outcome sets of the model and of SC, so they
//! follow from (1). Items (1)-(2) are states with no move, *terminal
//! states*; (3)-(4) are *labels* of moves.
//!
//! # Agents and persistent sets
//!
//! An *agent* is a thread (its moves: the results of its next operation)
//! or one internal step source of the model (a store buffer's commit, a
//! settling step), each declared with its owner thread and footprints
//! ([`crate::dependence`]). In a state `s`, a set `P` of agents is used
//! instead of all of them when:
//! - every member has at least one move and none of its moves ends the
//!   execution (a failure or a discarded `assume`), so that each move of
//!   `P` leads to a stored state;
//! - (*persistence*) for every member `m` and every other agent `c`, with
//!   a different owner, the footprint of `m`'s operation does not conflict
//!   with the footprint of anything `c` may do before `m` moves: for a
//!   thread, the union of the future footprints of every instruction
//!   reachable from its program counter (a `fork` adds its child's whole
//!   code: [`Futures`]); for an internal agent, everything it may still
//!   take (a buffer: the commits of its present entries; later entries come
//!   from its thread's future stores, counted in the thread's future).
//!   Agents of the member's own thread are not compared: the hardware
//!   models argue that a thread commutes with its own buffers' commits.
//!   Threads not started yet are covered by their parent's `fork`; a member
//!   thread does not move, so its own children cannot start.
//!
//! Then the moves `T` of `P` form a persistent set in `s` (Godefroid 1996,
//! Def. 4.1): along any path from `s` on which no member moves, every
//! step is independent of every move of `T` in the state where it is
//! taken. (A member's operation is fixed while it does not move, and its
//! footprint holds in every state the others lead to, which
//! `MemoryModel::footprint` requires; each non-member's steps lie within
//! the future footprint counted for it; non-conflicting footprints commute
//! by each model's argument.) `P` is found by closing `{a}` under "add
//! every agent whose future conflicts with a member" (the conflict closure
//! of stubborn sets, Valmari 1991) for every seed agent `a`; a closure that
//! needs an agent without moves fails. The smallest closures are tried
//! first (fewest agents, then the lowest seed), and the first that passes
//! every test, the proviso included, is used; otherwise the state is fully
//! expanded.
//!
//! # The cycle proviso
//!
//! The state graph has cycles (spin loops). A reduced state's moves must
//! all lead to states not stored at a breadth-first level up to its own:
//! every successor is new or was first stored at the next level. So every
//! edge out of a reduced state goes one level deeper, and every cycle of
//! the explored graph contains a fully expanded state (the cycle condition
//! C3 of partial-order reduction, in the form Bošnački, Leue and
//! Lluch-Lafuente give for breadth-first search: *Partial-order reduction
//! for general state exploring algorithms*, STTT 11(1), 2009). The test
//! reads only ids below the end of the current level, all of which are
//! stored before the level starts, so it does not depend on the chunking
//! or on the number of worker threads: the reduced search is as
//! deterministic as the full one.
//!
//! # Soundness
//!
//! Let `G` be the full state graph and `R` the explored one.
//!
//! *Terminal states* (final states with their outcome and racy bit, and
//! deadlocks). Every terminal state `d` reachable in `G` from a state `s`
//! of `R` is reached in `R`: by induction on the length of a path `w` from
//! `s` to `d`. If `s` is fully expanded, the first move of `w` is explored.
//! Otherwise `w` contains a move of a member (else that member would still
//! be enabled at `d`); let `t` be the first, `w = u t v`. Persistence makes
//! `t` commute with `u`, so `s t u v` also reaches `d`, `s t` is in `R`,
//! and `u v` is shorter (Godefroid 1996, Theorem 4.3; no proviso needed).
//!
//! *Labels* (failures, races). Let a move `f` with label `L` be enabled at
//! the end of a path `w` from a state `s` of `R`. By induction on the pair
//! (length of `w`, number of levels below `s`), some explored move has
//! label `L`. If `s` is fully expanded, `f` is explored (`w` empty) or the
//! first move of `w` is. If `w` contains a member move, commute it to the
//! front as above: a shorter path from a state of `R`, or, if it is `f`
//! itself, `f` is explored at `s` with the same label. If `w` contains no
//! member move, then for any move `t` of `P`, `s t` is in `R` one level
//! deeper (the proviso), and every move of `w`, `f` included, is still
//! enabled along `w` from `s t` with the same results and events
//! (persistence): the same path, one level deeper. Levels are bounded, so
//! this ends.
//!
//! *Races that survive* ([`super::doomed`]: a race counts only if some
//! execution through its move is not discarded). First, from every state
//! `y` of `R`, `R` reaches a surviving end whenever `G` does: terminal
//! states and failures by the two arguments above, which start from any
//! state of `R`; and an infinite path `π` from `y` in `G` gives one from a
//! successor of `y` in `R` (commute `π`'s first member move to the front,
//! or, if it has none, prepend any member move, which leaves `π` enabled),
//! so `R`, being finite, has a cycle reachable from `y`. Hence `y` is
//! doomed in `R` exactly when it is in `G` (`R`'s moves are `G`'s, for the
//! converse). Second, a race move `f` followed by a surviving `z` in `G`
//! (`w f z` from a state `s` of `R`) has a twin in `R` whose successor is
//! not doomed: the induction of *Labels* on `w f z`, where a member move
//! that lies in `z` is commuted to the front (same `w`, one level deeper),
//! and `f` itself explored at `s` leaves a surviving path from `s f`, to
//! which the first point applies.
//!
//! Witnesses are paths of `R`: valid, replayable executions, but not
//! necessarily shortest ones (`--reduction none` gives shortest ones). For a
//! loop-free program every path to a state has the same length (each
//! instruction runs at most once, and commits match stores), so the
//! witness of an outcome is still a shortest one there.

use crate::dependence::{Footprint, InternalAgent};
use crate::ir::{Instr, Program, ThreadId};
use crate::model::{MemOp, MemoryModel};

use super::interp::{Interp, NextOp};

/// Which search the exhaustive explorer runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reduction {
    /// Every move of every state.
    None,
    /// Partial-order reduction (module docs), for the models that declare
    /// their dependence relation; the others are explored in full.
    #[default]
    Por,
}

/// The future footprint of every thread from every instruction: the union
/// of [`MemoryModel::future_footprint`] over the instructions reachable
/// from it (itself included), a `fork` adding its child's from its first
/// instruction.
#[derive(Debug)]
pub(crate) struct Futures {
    /// Per thread, the index of its first instruction in `table`.
    start: Vec<usize>,
    table: Vec<Footprint>,
}

/// A memory operation standing for `instr` in any state: values are
/// placeholders, which footprints do not depend on.
fn placeholder_op(instr: &Instr) -> Option<MemOp> {
    Some(match *instr {
        Instr::Load { loc, ord, .. } => MemOp::Load { loc, ord },
        Instr::Store { loc, ord, .. } => MemOp::Store { loc, val: 0, ord },
        Instr::Rmw { loc, op, ord, .. } => MemOp::Rmw {
            loc,
            op,
            operand: 0,
            ord,
        },
        Instr::Cas {
            loc,
            ord,
            fail,
            weak,
            ..
        } => MemOp::Cas {
            loc,
            expected: 0,
            desired: 0,
            ord,
            fail,
            weak,
        },
        Instr::Fence { kind } => MemOp::Fence { kind },
        Instr::Fork { child, .. } => MemOp::Fork { child },
        Instr::Join { .. } => MemOp::Join { child: ThreadId(0) },
        Instr::End => MemOp::End,
        Instr::Assign { .. }
        | Instr::Branch { .. }
        | Instr::Jump { .. }
        | Instr::Assert { .. }
        | Instr::Assume { .. } => return None,
    })
}

impl Futures {
    /// The table of `program` under `model`: a backward fixpoint over each
    /// thread's control-flow graph, repeated across threads until forks
    /// stop adding anything.
    pub(crate) fn of<M: MemoryModel>(program: &Program, model: &M) -> Futures {
        let mut start = Vec::with_capacity(program.threads.len());
        let mut total = 0;
        for t in &program.threads {
            start.push(total);
            total += t.code.len();
        }
        let mut table = vec![Footprint::NONE; total];
        let own: Vec<Footprint> = program
            .threads
            .iter()
            .flat_map(|t| t.code.iter())
            .map(|i| {
                placeholder_op(&i.instr).map_or(Footprint::NONE, |op| model.future_footprint(&op))
            })
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            for (t, code) in program.threads.iter().enumerate() {
                let base = start[t];
                for pc in (0..code.code.len()).rev() {
                    let mut f = own[base + pc];
                    let instr = &code.code[pc].instr;
                    let next = (pc + 1 < code.code.len()).then_some(pc + 1);
                    let succs = match instr {
                        Instr::End => [None, None],
                        Instr::Jump { target } => [None, Some(target.index())],
                        Instr::Branch { target, .. } => [next, Some(target.index())],
                        _ => [next, None],
                    };
                    for s in succs.into_iter().flatten() {
                        f = f.union(table[base + s]);
                    }
                    if let Instr::Fork { child, .. } = instr {
                        if !program.thread(*child).code.is_empty() {
                            f = f.union(table[start[child.index()]]);
                        }
                    }
                    if f != table[base + pc] {
                        table[base + pc] = f;
                        changed = true;
                    }
                }
            }
        }
        Futures { start, table }
    }

    /// What thread `t` may touch from instruction `pc` on.
    #[inline]
    pub(crate) fn at(&self, t: usize, pc: usize) -> Footprint {
        self.table[self.start[t] + pc]
    }
}

/// An agent of one state (module docs).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Agent {
    pub kind: AgentKind,
    /// The owner thread; `NO_OWNER` for internal steps of no thread.
    owner: u32,
    /// Has a next operation that may be enabled (a thread whose operation
    /// is disabled or fails before memory, cannot be a member).
    eligible: bool,
    now: Footprint,
    later: Footprint,
}

const NO_OWNER: u32 = u32::MAX;

/// What an agent is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AgentKind {
    Thread(ThreadId),
    /// The internal step with this index in the model's order.
    Internal(usize),
}

/// The agents of one state and the candidate sets, reused across states.
#[derive(Debug, Default)]
pub(crate) struct Agents {
    pub list: Vec<Agent>,
    internal: Vec<InternalAgent>,
    /// `conflicts[i]`: the agents whose future conflicts with agent `i`'s
    /// operation (`None`: not computed yet).
    conflicts: Vec<Option<u64>>,
    /// Candidate sets found so far, as agent masks, in the order tried.
    candidates: Vec<u64>,
    /// The next agent to test as a singleton.
    scan: usize,
    /// The closures have been added.
    closed: bool,
}

/// At most this many agents are considered (one bit each); a state with
/// more is fully expanded.
const MAX_AGENTS: usize = 64;

impl Agents {
    /// Collects the agents of the state (`comp(t)`: thread `t`'s
    /// component).
    pub(crate) fn gather<'s, M: MemoryModel>(
        &mut self,
        interp: &Interp<'_, M>,
        futures: &Futures,
        comp: &impl Fn(usize) -> &'s [crate::ir::Value],
        mem: &M::State,
    ) {
        self.list.clear();
        for t in 0..interp.nthreads() {
            let tid = ThreadId::new(t);
            let Some(next) = interp.next_op(tid, comp) else {
                continue;
            };
            let pc = comp(t)[0] as usize;
            let (eligible, now) = match next {
                NextOp::Op(op) => (true, interp.model.footprint(mem, tid, &op)),
                NextOp::Disabled | NextOp::Fails(_) => (false, Footprint::NONE),
            };
            self.list.push(Agent {
                kind: AgentKind::Thread(tid),
                owner: t as u32,
                eligible,
                now,
                later: futures.at(t, pc),
            });
        }
        self.internal.clear();
        interp.model.internal_agents(mem, &mut self.internal);
        for (k, a) in self.internal.iter().enumerate() {
            self.list.push(Agent {
                kind: AgentKind::Internal(k),
                owner: a.owner.map_or(NO_OWNER, |o| o.0),
                eligible: true,
                now: a.now,
                later: a.later,
            });
        }
        self.conflicts.clear();
        self.conflicts.resize(self.list.len(), None);
        self.candidates.clear();
        self.scan = 0;
        self.closed = false;
    }

    /// Agent `i`'s footprint now, and what it may do while its owner does
    /// not move.
    pub(crate) fn footprints(&self, i: usize) -> (Footprint, Footprint) {
        (self.list[i].now, self.list[i].later)
    }

    /// Does the reduction rely on agents `i` and `j` commuting when both
    /// are enabled: same owner (a thread and its own buffers), or
    /// footprints that do not conflict?
    pub(crate) fn may_commute(&self, i: usize, j: usize) -> bool {
        let (a, b) = (&self.list[i], &self.list[j]);
        (a.owner != NO_OWNER && a.owner == b.owner) || !a.now.conflicts(&b.now)
    }

    /// The agents whose future conflicts with agent `i`'s operation.
    fn conflicts_of(&mut self, i: usize) -> u64 {
        if let Some(c) = self.conflicts[i] {
            return c;
        }
        let a = self.list[i];
        let mut mask = 0u64;
        for (j, b) in self.list.iter().enumerate() {
            let same_owner = a.owner != NO_OWNER && a.owner == b.owner;
            if j != i && !same_owner && a.now.conflicts(&b.later) {
                mask |= 1 << j;
            }
        }
        self.conflicts[i] = Some(mask);
        mask
    }

    /// The conflict closure of `{seed}`, or `None` if it needs an agent
    /// that cannot be a member.
    fn closure(&mut self, seed: usize) -> Option<u64> {
        let mut set = 1u64 << seed;
        let mut frontier = set;
        while frontier != 0 {
            let mut added = 0u64;
            let mut f = frontier;
            while f != 0 {
                let i = f.trailing_zeros() as usize;
                f &= f - 1;
                if !self.list[i].eligible {
                    return None;
                }
                added |= self.conflicts_of(i);
            }
            frontier = added & !set;
            set |= added;
        }
        Some(set)
    }

    /// The `k`-th set worth trying (module docs), computed lazily: first
    /// every agent that conflicts with nobody, alone, in agent order; then
    /// the closures of every seed, smallest first. `None` after the last,
    /// and at once for a state with at most one agent or too many: those
    /// are fully expanded.
    pub(crate) fn candidate(&mut self, k: usize) -> Option<u64> {
        while self.candidates.len() <= k {
            if !self.advance() {
                return None;
            }
        }
        Some(self.candidates[k])
    }

    /// Adds the next candidate(s); `false` when there are no more.
    fn advance(&mut self) -> bool {
        let n = self.list.len();
        if n <= 1 || n > MAX_AGENTS {
            return false;
        }
        while self.scan < n {
            let i = self.scan;
            self.scan += 1;
            if self.list[i].eligible && self.conflicts_of(i) == 0 {
                self.candidates.push(1 << i);
                return true;
            }
        }
        if self.closed {
            return false;
        }
        self.closed = true;
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let before = self.candidates.len();
        for i in 0..n {
            if !self.list[i].eligible {
                continue;
            }
            if let Some(set) = self.closure(i) {
                if set != all && !self.candidates.contains(&set) {
                    self.candidates.push(set);
                }
            }
        }
        // Stable: equal sizes keep their seed order.
        self.candidates[before..].sort_by_key(|s| s.count_ones());
        self.candidates.len() > before
    }
}
