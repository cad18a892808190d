//! Running the program for the stateless explorer: one execution at a
//! time, on the thread interpreter and the memory models the other
//! explorers use (book: mcr.md, Replay).
//!
//! Differences from the exhaustive explorer's runs:
//! - a thread that fails an `assert` (or is discarded by an `assume`)
//!   stops alone and the others go on: an execution then holds every
//!   thread's reads up to where it stopped, which makes the values its reads
//!   returned name it (the partition of [`super::explore`] needs that);
//!   whether a failure is one an execution can end with first is decided
//!   afterwards ([`super::seed`]);
//! - every read is checked against a [`Guide`] (the region of the node
//!   being explored): a move whose read the region forbids is not taken.
//!
//! A seed ([`Choice`]s, the paper's schedule choices `c(tid, addr)`) is
//! replayed as Algorithms 1-3 of MCR Sec. 4.3-4.5 replay one: a choice of
//! thread `t` runs `t` up to and including its next operation that is not
//! a store, every store on the way going into `t`'s buffer (Theorem 1: its
//! address is not the choice's); a commit choice flushes the oldest
//! buffered store of `t` to that address (Theorem 2). Stores are put into
//! buffers as soon as a thread reaches them (an eager issue changes no
//! other thread's view and no order a TSO or PSO buffer keeps), so a
//! replayed seed is the same sequence of moves as the seed search took.
//! Under SC a store is a choice of its own and writes memory at once.
//!
//! After the seed, the free continuation runs every remaining move in a
//! fixed order (buffered stores first, then threads by number), checking
//! the guide; where a read would break it, it backtracks, depth first with
//! a table of the states it has given up on, until it finds an execution
//! in the region or has seen every continuation of the seed.

use std::collections::HashSet;

use crate::budget::Budget;
use crate::ir::{InstrId, LocId, Origin, Program, ThreadId, Value};
use crate::model::{EventKind, MemOp, MemoryModel, Site, Step};
use crate::outcome::{BoundHit, Trace, TraceStep};

use super::super::interp::{Ended, Interp, NextOp, Scratch, FINISHED, NOT_STARTED};
use super::region::Guide;

/// The status of a thread the explorer stopped (a failure or a discard).
pub(crate) const STOPPED: Value = -3;

/// One move: a thread's next operation, or a buffered store reaching
/// memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Mv {
    Thread(ThreadId),
    Commit { thread: ThreadId, loc: LocId },
}

/// A schedule choice of a seed (MCR Definition 1, `c(tid, addr)`): a
/// thread's next operation that is not a buffered store (`loc` is its
/// address, `None` for fences and synchronisation), or the commit of its
/// oldest buffered store to `loc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    Op {
        thread: ThreadId,
        loc: Option<LocId>,
    },
    Commit {
        thread: ThreadId,
        loc: LocId,
    },
}

/// What one move did.
#[derive(Clone, Debug)]
pub(crate) struct StepRec {
    pub mv: Mv,
    /// The operation performed (`None`: a commit, or an instruction that
    /// failed before reaching memory).
    pub op: Option<(Site, MemOp)>,
    pub event: Option<EventKind>,
    /// The value a load, RMW or CAS returned.
    pub read: Option<Value>,
    /// The thread stopped with this move: how, and at which instruction.
    pub end: Option<(Ended, InstrId)>,
    /// A forked thread started by this move stopped in its first local
    /// steps.
    pub child_end: Option<(ThreadId, Ended, InstrId)>,
}

/// A program state of the explorer, with each thread's place in the
/// guide. Thread statuses as in the interpreter, plus [`STOPPED`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct State<S> {
    pub comps: Vec<Box<[Value]>>,
    pub mem: S,
    pub cursor: Vec<u32>,
}

/// The result of trying a move.
enum Tried<S> {
    /// Not enabled in this state.
    Disabled,
    /// Enabled, but its read breaks the guide.
    Forbidden,
    Taken(State<S>, StepRec),
}

/// How a search ended.
pub(crate) enum Searched<S> {
    Found(Vec<StepRec>, State<S>),
    /// No execution in the region from where the search started.
    None,
    /// The budget ran out.
    Stopped(BoundHit),
}

/// Counters of the searches, for the report.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SearchStats {
    /// Moves taken by searches, replays included.
    pub moves: u64,
    /// Continuations that had to turn back (a read broke the guide).
    pub backtracks: u64,
}

/// The program and model a stateless exploration runs.
#[derive(Debug)]
pub(crate) struct World<'p, M: MemoryModel> {
    pub interp: Interp<'p, M>,
    pub program: &'p Program,
    pub model: &'p M,
    pub threads: usize,
    /// The locations the observer reads at the end, in order.
    pub observed: Vec<LocId>,
    /// Does the model buffer stores (TSO, PSO)?
    pub buffers: bool,
}

impl<'p, M: MemoryModel> World<'p, M> {
    pub(crate) fn new(program: &'p Program, model: &'p M, buffers: bool) -> Self {
        let mut observed: Vec<LocId> = Vec::new();
        let mut obs = program.observed.clone();
        if let Some(f) = &program.filter {
            f.observables(&mut obs);
        }
        for o in obs {
            if let crate::ir::Observable::Loc(l) = o {
                if !observed.contains(&l) {
                    observed.push(l);
                }
            }
        }
        observed.sort();
        World {
            interp: Interp::new(program, model),
            program,
            model,
            threads: program.threads.len(),
            observed,
            buffers,
        }
    }

    /// The initial state, or how the run ends before any move (a failure
    /// or discard in the first local steps of a top-level thread, which
    /// ends every execution there, as in the other explorers).
    pub(crate) fn start(
        &self,
        guide: &Guide,
        sc: &mut Scratch<M::State>,
    ) -> Result<State<M::State>, Ended> {
        let (comps, mem) = self.interp.initial(sc)?;
        Ok(State {
            comps,
            mem,
            cursor: guide.start(),
        })
    }

    /// The moves to try from `s`, in the free continuation's order:
    /// commits of buffered stores first (in the model's order), then each
    /// running thread by number.
    fn moves(&self, s: &State<M::State>, out: &mut Vec<Mv>) {
        out.clear();
        let mut internal = Vec::new();
        self.model.internal(&s.mem, &mut internal);
        for (_, e) in &internal {
            if let EventKind::Commit { thread, loc, .. } = e.kind {
                out.push(Mv::Commit { thread, loc });
            }
        }
        for t in 0..self.threads {
            if s.comps[t][0] >= 0 {
                out.push(Mv::Thread(ThreadId::new(t)));
            }
        }
    }

    /// Is thread `t`'s next operation a store (which TSO and PSO buffer)?
    fn next_is_store(&self, s: &State<M::State>, t: ThreadId) -> bool {
        let comp = |i: usize| &s.comps[i][..];
        matches!(
            self.interp.next_op(t, &comp),
            Some(NextOp::Op(MemOp::Store { .. }))
        )
    }

    /// Tries move `mv` in `s` under `guide`.
    fn try_move(
        &self,
        s: &State<M::State>,
        mv: Mv,
        guide: &Guide,
        sc: &mut Scratch<M::State>,
        steps: &mut Vec<Step<M::State>>,
    ) -> Tried<M::State> {
        match mv {
            Mv::Commit { thread, loc } => {
                let mut internal = Vec::new();
                self.model.internal(&s.mem, &mut internal);
                let found = internal.into_iter().find(|(_, e)| {
                    matches!(e.kind, EventKind::Commit { thread: t, loc: l, .. } if t == thread && l == loc)
                });
                let Some((mem, e)) = found else {
                    return Tried::Disabled;
                };
                let next = State {
                    comps: s.comps.clone(),
                    mem,
                    cursor: s.cursor.clone(),
                };
                Tried::Taken(
                    next,
                    StepRec {
                        mv,
                        op: None,
                        event: Some(e.kind),
                        read: None,
                        end: None,
                        child_end: None,
                    },
                )
            }
            Mv::Thread(t) => self.try_thread(s, t, guide, sc, steps),
        }
    }

    fn try_thread(
        &self,
        s: &State<M::State>,
        t: ThreadId,
        guide: &Guide,
        sc: &mut Scratch<M::State>,
        steps: &mut Vec<Step<M::State>>,
    ) -> Tried<M::State> {
        let ti = t.index();
        if s.comps[ti][0] < 0 {
            return Tried::Disabled;
        }
        let pc = InstrId::new(s.comps[ti][0] as usize);
        let comp = |i: usize| &s.comps[i][..];
        let op = match self.interp.next_op(t, &comp) {
            None | Some(NextOp::Disabled) => return Tried::Disabled,
            Some(NextOp::Fails(kind)) => {
                let mut comps = s.comps.clone();
                let mut c = comps[ti].to_vec();
                c[0] = STOPPED;
                comps[ti] = c.into();
                return Tried::Taken(
                    State {
                        comps,
                        mem: s.mem.clone(),
                        cursor: s.cursor.clone(),
                    },
                    StepRec {
                        mv: Mv::Thread(t),
                        op: None,
                        event: None,
                        read: None,
                        end: Some((Ended::Failed(kind), pc)),
                        child_end: None,
                    },
                );
            }
            Some(NextOp::Op(op)) => op,
        };
        let site = Site {
            thread: t,
            instr: pc,
        };
        steps.clear();
        self.model.perform(&s.mem, site, op, steps);
        debug_assert!(
            steps.len() <= 1,
            "relaxlab internal error: a hardware model gave several results"
        );
        let Some(step) = steps.pop() else {
            return Tried::Disabled;
        };
        let read = match step.event.kind {
            EventKind::Read { value, .. } => Some(value),
            EventKind::Update { read, .. } => Some(read),
            _ => None,
        };
        let mut cursor = s.cursor.clone();
        if let Some(v) = read {
            match guide.read(ti, cursor[ti], v) {
                Some(c) => cursor[ti] = c,
                None => return Tried::Forbidden,
            }
        }
        let mut comps = s.comps.clone();
        let mut c = comps[ti].to_vec();
        let end = match self
            .interp
            .after_op(t, &mut c, step.value, Some(&step.event.kind), sc)
        {
            Ok(()) => None,
            Err(e) => {
                let at = InstrId::new(c[0].max(0) as usize);
                c[0] = STOPPED;
                Some((e, at))
            }
        };
        comps[ti] = c.into();
        let mut child_end = None;
        if let MemOp::Fork { child } = op {
            let (mut cc, e) = self.interp.start_child(child, sc);
            if let Err(e) = e {
                let at = InstrId::new(cc[0].max(0) as usize);
                cc[0] = STOPPED;
                child_end = Some((child, e, at));
            }
            comps[child.index()] = cc;
        }
        Tried::Taken(
            State {
                comps,
                mem: step.state,
                cursor,
            },
            StepRec {
                mv: Mv::Thread(t),
                op: Some((site, op)),
                event: Some(step.event.kind),
                read,
                end,
                child_end,
            },
        )
    }

    /// Takes move `mv`, appending its record to `path`; `false` when it
    /// cannot be taken.
    fn take(
        &self,
        s: &mut State<M::State>,
        mv: Mv,
        guide: &Guide,
        sc: &mut Scratch<M::State>,
        steps: &mut Vec<Step<M::State>>,
        path: &mut Vec<StepRec>,
    ) -> bool {
        match self.try_move(s, mv, guide, sc, steps) {
            Tried::Taken(n, rec) => {
                *s = n;
                path.push(rec);
                true
            }
            _ => false,
        }
    }

    /// Replays `seed` from the start (module docs), Algorithm 1 (TSO) and 3
    /// (PSO): a choice of thread `t`'s operation first puts every store
    /// `t` reaches before it into its buffer (Theorem 1); a commit choice
    /// of `(t, x)` puts `t`'s stores into its buffer until one to `x` can
    /// reach memory, then flushes it (Theorem 2, Algorithm 2). `None` when
    /// a choice cannot be taken (a read the guide forbids), which a seed
    /// from the seed search never meets.
    pub(crate) fn replay(
        &self,
        seed: &[Choice],
        guide: &Guide,
        stats: &mut SearchStats,
    ) -> Option<(State<M::State>, Vec<StepRec>)> {
        let mut sc = Scratch::new(false);
        let mut steps = Vec::new();
        let mut s = self.start(guide, &mut sc).ok()?;
        let mut path = Vec::new();
        for c in seed {
            match *c {
                // The stores `t` reaches first go into its buffer, then
                // the operation itself is taken.
                Choice::Op { thread, .. } => loop {
                    let buffered_store = self.buffers && self.next_is_store(&s, thread);
                    let mv = Mv::Thread(thread);
                    if !self.take(&mut s, mv, guide, &mut sc, &mut steps, &mut path) {
                        return None;
                    }
                    if !buffered_store {
                        break;
                    }
                },
                Choice::Commit { thread, loc } => loop {
                    let mv = Mv::Commit { thread, loc };
                    if self.take(&mut s, mv, guide, &mut sc, &mut steps, &mut path) {
                        break;
                    }
                    if !self.next_is_store(&s, thread)
                        || !self.take(
                            &mut s,
                            Mv::Thread(thread),
                            guide,
                            &mut sc,
                            &mut steps,
                            &mut path,
                        )
                    {
                        return None;
                    }
                },
            }
        }
        stats.moves += path.len() as u64;
        Some((s, path))
    }

    /// [`Self::replay`], then thread `t`'s moves until it has performed
    /// `ops` operations (counting those the replay performed), then, when
    /// `one_more`, one more move of `t`: the moves a seed of
    /// [`super::seed::Goal::Reach`] leaves implicit (stores a seed search
    /// puts into buffers eagerly, the move of a failure before memory).
    pub(crate) fn replay_to(
        &self,
        seed: &[Choice],
        t: ThreadId,
        ops: usize,
        one_more: bool,
    ) -> Option<Vec<StepRec>> {
        let guide = Guide::new(&super::region::Region::everything(self.threads));
        let mut stats = SearchStats::default();
        let (mut s, mut path) = self.replay(seed, &guide, &mut stats)?;
        let mut sc = Scratch::new(false);
        let mut steps = Vec::new();
        let done = |path: &[StepRec]| {
            path.iter()
                .filter(|r| r.mv == Mv::Thread(t) && r.op.is_some())
                .count()
        };
        while done(&path) < ops {
            if !self.take(
                &mut s,
                Mv::Thread(t),
                &guide,
                &mut sc,
                &mut steps,
                &mut path,
            ) {
                return None;
            }
        }
        if one_more
            && !self.take(
                &mut s,
                Mv::Thread(t),
                &guide,
                &mut sc,
                &mut steps,
                &mut path,
            )
        {
            return None;
        }
        Some(path)
    }

    /// The outcome check of a state where no move is enabled: does the
    /// execution lie in the region (the observer's reads of the final
    /// values allowed, every required read done)?
    fn ends_in_region(&self, s: &State<M::State>, guide: &Guide) -> bool {
        let obs = self.threads;
        let finished = s
            .comps
            .iter()
            .all(|c| c[0] == FINISHED || c[0] == NOT_STARTED)
            && self.model.settled(&s.mem);
        let mut at = s.cursor[obs];
        if finished {
            for &l in &self.observed {
                match guide.read(obs, at, self.model.final_value(&s.mem, l)) {
                    Some(n) => at = n,
                    None => return false,
                }
            }
        }
        if guide.pending(obs, at) {
            return false;
        }
        (0..self.threads).all(|t| !guide.pending(t, s.cursor[t]))
    }

    /// Searches depth first, from `from` reached by `path`, for a maximal
    /// execution in the region of `guide` (module docs).
    pub(crate) fn search(
        &self,
        from: State<M::State>,
        path: Vec<StepRec>,
        guide: &Guide,
        budget: &Budget,
        stats: &mut SearchStats,
    ) -> Searched<M::State> {
        let mut sc = Scratch::new(false);
        let mut steps = Vec::new();
        let mut moves = Vec::new();
        let mut given_up: HashSet<State<M::State>> = HashSet::new();
        // One frame per state on the current path: the state and its
        // successors not tried yet (in reverse order, popped from the end).
        struct Frame<S> {
            state: State<S>,
            next: Vec<(State<S>, StepRec)>,
        }
        // A state expanded into its frame, or given back (with whether it
        // was blocked) when it has no successor to try.
        type Expanded<S> = Result<Frame<S>, (State<S>, bool)>;
        let base = path.len();
        let mut path = path;
        let mut stack: Vec<Frame<M::State>> = Vec::new();
        let mut expand = |s: State<M::State>,
                          stats: &mut SearchStats,
                          sc: &mut Scratch<M::State>,
                          steps: &mut Vec<Step<M::State>>|
         -> Expanded<M::State> {
            self.moves(&s, &mut moves);
            let mut next = Vec::new();
            let mut forbidden = false;
            for &mv in moves.iter() {
                match self.try_move(&s, mv, guide, sc, steps) {
                    Tried::Disabled => {}
                    Tried::Forbidden => forbidden = true,
                    Tried::Taken(n, rec) => next.push((n, rec)),
                }
            }
            stats.moves += next.len() as u64;
            if next.is_empty() {
                // A dead end: an execution if nothing was forbidden.
                return Err((s, !forbidden));
            }
            if forbidden {
                stats.backtracks += 1;
            }
            next.reverse();
            Ok(Frame { state: s, next })
        };
        let mut work = 0u64;
        match expand(from, stats, &mut sc, &mut steps) {
            Ok(f) => stack.push(f),
            Err((s, true)) if self.ends_in_region(&s, guide) => return Searched::Found(path, s),
            Err(_) => return Searched::None,
        }
        while let Some(top) = stack.last_mut() {
            work += 1;
            if work.is_multiple_of(4096) {
                if let Some(hit) = budget.exhausted() {
                    return Searched::Stopped(hit);
                }
            }
            let Some((n, rec)) = top.next.pop() else {
                let done = stack.pop().expect("a frame");
                given_up.insert(done.state);
                if path.len() > base {
                    path.pop();
                }
                stats.backtracks += 1;
                continue;
            };
            if given_up.contains(&n) {
                continue;
            }
            path.push(rec);
            match expand(n, stats, &mut sc, &mut steps) {
                Ok(f) => stack.push(f),
                Err((s, complete)) => {
                    if complete && self.ends_in_region(&s, guide) {
                        return Searched::Found(path, s);
                    }
                    stats.backtracks += 1;
                    given_up.insert(s);
                    path.pop();
                }
            }
        }
        Searched::None
    }

    /// The trace of the moves `path` from the initial state, with the local
    /// steps each runs, as the witness printer shows traces.
    pub(crate) fn trace(&self, path: &[Mv]) -> Trace {
        let mut sc = Scratch::new(true);
        let mut steps = Vec::new();
        let mut trace = Trace::default();
        let guide = Guide::new(&super::region::Region::everything(self.threads));
        let Ok(mut s) = self.start(&guide, &mut sc) else {
            return trace;
        };
        trace.steps.extend(
            self.interp
                .initial_locals(&sc)
                .iter()
                .map(|&(thread, instr)| TraceStep {
                    thread,
                    instr: Some(instr),
                    event: None,
                }),
        );
        for &mv in path {
            let Tried::Taken(n, _) =
                self.try_move_recorded(&s, mv, &guide, &mut sc, &mut steps, &mut trace)
            else {
                break;
            };
            s = n;
        }
        trace
    }

    /// [`Self::try_move`], appending the move's trace steps (the step, the
    /// local steps of the thread, then those of a forked child).
    fn try_move_recorded(
        &self,
        s: &State<M::State>,
        mv: Mv,
        guide: &Guide,
        sc: &mut Scratch<M::State>,
        steps: &mut Vec<Step<M::State>>,
        trace: &mut Trace,
    ) -> Tried<M::State> {
        let t = match mv {
            Mv::Thread(t) => t,
            Mv::Commit { thread, .. } => thread,
        };
        let pc = s.comps[t.index()][0];
        let tried = self.try_move(s, mv, guide, sc, steps);
        if let Tried::Taken(_, rec) = &tried {
            trace.steps.push(TraceStep {
                thread: t,
                instr: match mv {
                    Mv::Thread(_) => Some(InstrId::new(pc as usize)),
                    Mv::Commit { .. } => None,
                },
                event: rec.event.clone(),
            });
            // `after_op` then `start_child` each recorded their local steps
            // in turn; the child's overwrote the parent's, so the parent's
            // are recomputed here.
            if let Mv::Thread(t) = mv {
                self.append_locals(s, t, rec, sc, trace);
            }
        }
        tried
    }

    /// Appends the local steps thread `t` ran after the move `rec`, and
    /// those of a child it forked.
    fn append_locals(
        &self,
        s: &State<M::State>,
        t: ThreadId,
        rec: &StepRec,
        sc: &mut Scratch<M::State>,
        trace: &mut Trace,
    ) {
        if rec.op.is_none() {
            return;
        }
        let mut c = s.comps[t.index()].to_vec();
        let _ = self
            .interp
            .after_op(t, &mut c, rec.read, rec.event.as_ref(), sc);
        trace.steps.extend(
            self.interp
                .last_locals(sc)
                .iter()
                .map(|&(thread, instr)| TraceStep {
                    thread,
                    instr: Some(instr),
                    event: None,
                }),
        );
        if let Some((_, MemOp::Fork { child })) = rec.op {
            let _ = self.interp.start_child(child, sc);
            trace
                .steps
                .extend(
                    self.interp
                        .last_locals(sc)
                        .iter()
                        .map(|&(thread, instr)| TraceStep {
                            thread,
                            instr: Some(instr),
                            event: None,
                        }),
                );
        }
    }

    /// Is `at` of thread `t` an `assume` that loop unrolling inserted?
    pub(crate) fn unroll_assume(&self, t: ThreadId, at: InstrId) -> bool {
        self.program
            .thread(t)
            .code
            .get(at.index())
            .is_some_and(|i| i.origin == Origin::Unroll)
    }
}
