//! The thread interpreter: the successors of a program state (book: models.md, The shared frame).
//!
//! A program state is one *thread component* per thread plus the memory
//! state of the model. A thread component is a slice `[status, r0, r1,
//! ...]`: the status is the program counter (`>= 0`, the thread is running
//! and about to execute a memory, fork, join or end instruction),
//! [`NOT_STARTED`] (a forked thread whose fork has not happened) or
//! [`FINISHED`]. Failed executions end at once and are never stored.
//!
//! One transition ([`Move`]) is either a thread step (the thread's next
//! instruction, handed to the model as a [`MemOp`]; one move per result the
//! model gives) or an internal step of the model (a buffer commit). After a
//! thread step the thread's local instructions (assign, branch, jump,
//! assert, assume) run eagerly until the next non-local instruction: they
//! touch nothing shared, so they commute with every other move and running
//! them at once keeps state spaces small.
//!
//! Successor order, on which determinism and the witness replay rest:
//! threads in increasing id, each with the model's results in the model's
//! order, then the model's internal steps in its order. The index of a move
//! in this order is its *choice*; replaying the same choices from the
//! initial state gives the same execution.
//!
//! Local divergence: a thread whose local code loops forever without a
//! memory access would make the eager run endless. The eager run detects a
//! repeated local state with Brent's cycle detection (exact: the local run
//! is deterministic, so a repeated `(pc, registers)` means it never leaves)
//! and also stops after [`LOCAL_STEP_BOUND`] local steps in a row; both are
//! reported as [`FailureKind::Divergence`] at the instruction reached. Such
//! an execution never ends and has no outcome, which is what the shared frame (book: models.md, The shared frame)
//! says of executions that spin.

use std::sync::Arc;

use super::liveness::MayLoad;
use crate::ir::{
    handle_of, thread_of_handle, Instr, InstrId, Program, ThreadId, ThreadKind, Value,
};
use crate::model::{Event, EventKind, MemOp, MemoryModel, Site, Step};
use crate::outcome::FailureKind;

/// Status of a forked thread whose fork has not happened yet.
pub(crate) const NOT_STARTED: Value = -1;
/// Status of a thread that executed `end`.
pub(crate) const FINISHED: Value = -2;
/// Local steps one eager run may take before it is reported as divergent.
/// Chosen far above any terminating local loop of a litmus test (they
/// count to tens, not millions) while still ending in milliseconds.
pub(crate) const LOCAL_STEP_BOUND: u64 = 1 << 20;

/// How an execution ended early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ended {
    Failed(FailureKind),
    /// An `assume` was false, or the `filter` rejected the final state.
    Discarded,
}

/// What a move leads to.
#[derive(Debug)]
pub(crate) enum Next<'a, S> {
    /// A new program state: memory `mem`, thread `changed` (if a thread
    /// moved) with its new component, and a forked `child` started.
    State {
        mem: S,
        changed: Option<(ThreadId, &'a [Value])>,
        child: Option<(ThreadId, &'a [Value])>,
        racy: bool,
    },
    Ended(Ended),
}

/// Which transition a move belongs to: the thread step of a thread (one
/// move per result of its operation) or one internal step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Group {
    Thread(ThreadId),
    Internal,
}

/// One successor of a program state.
#[derive(Debug)]
pub(crate) struct Move<'a, S> {
    pub group: Group,
    /// This move's position among the results of its operation, and how
    /// many results there are (1 for internal steps).
    pub result: (usize, usize),
    /// For an internal step, its position among the state's internal steps
    /// (in the model's order); for a thread step, `result.0`.
    pub index: usize,
    /// The thread that moved (for a commit, the thread whose buffer it was).
    pub thread: ThreadId,
    /// The instruction executed; `None` for internal steps.
    pub instr: Option<InstrId>,
    /// What the model reported; `None` when the instruction failed before
    /// reaching memory (division by zero in an operand, a bad join handle).
    pub event: Option<Event>,
    /// The local instructions run eagerly after it (recorded only when
    /// [`Scratch::record`] is set).
    pub locals: &'a [(ThreadId, InstrId)],
    pub next: Next<'a, S>,
}

/// Buffers reused across expansions, so the hot loop does not allocate.
#[derive(Debug)]
pub(crate) struct Scratch<S> {
    steps: Vec<Step<S>>,
    internal: Vec<(S, Event)>,
    comp: Vec<Value>,
    child: Vec<Value>,
    saved: Vec<Value>,
    locals: Vec<(ThreadId, InstrId)>,
    /// Record the local steps of every move (for traces).
    pub record: bool,
}

impl<S> Scratch<S> {
    pub(crate) fn new(record: bool) -> Self {
        Scratch {
            steps: Vec::new(),
            internal: Vec::new(),
            comp: Vec::new(),
            child: Vec::new(),
            saved: Vec::new(),
            locals: Vec::new(),
            record,
        }
    }
}

/// The initial program state: thread components and memory.
pub(crate) type Start<S> = (Vec<Box<[Value]>>, S);

/// How an eager local run ended.
enum LocalEnd {
    Ready,
    Ended(Ended),
}

/// What a running thread's next instruction is, before memory answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NextOp {
    /// The operation handed to the model.
    Op(MemOp),
    /// Not enabled whatever memory holds now: a `join` of a thread that
    /// has not finished, a second `fork` of a started thread.
    Disabled,
    /// The instruction fails before reaching memory (division by zero in
    /// an operand, a `join` of a register holding no handle).
    Fails(FailureKind),
}

/// The interpreter of one program under one model. Cheap to clone.
#[derive(Debug)]
pub(crate) struct Interp<'p, M> {
    pub program: &'p Program,
    pub model: &'p M,
    /// For models that forget dead locations ([`MemoryModel::FORGETS`]):
    /// what each thread may still load.
    may_load: Option<Arc<MayLoad>>,
}

impl<M> Clone for Interp<'_, M> {
    fn clone(&self) -> Self {
        Interp {
            program: self.program,
            model: self.model,
            may_load: self.may_load.clone(),
        }
    }
}

impl<'p, M: MemoryModel> Interp<'p, M> {
    pub(crate) fn new(program: &'p Program, model: &'p M) -> Self {
        Interp {
            program,
            model,
            may_load: M::FORGETS.then(|| Arc::new(MayLoad::of(program))),
        }
    }

    /// `mem` after thread `t`, about to run instruction `comp[0]`, forgot
    /// the locations it will never load again ([`MemoryModel::forget`]).
    fn forget(&self, mem: M::State, t: ThreadId, comp: &[Value]) -> M::State {
        match &self.may_load {
            Some(live) if comp[0] >= 0 => {
                let pc = InstrId::new(comp[0] as usize);
                self.model.forget(&mem, t, live.at(t, pc)).unwrap_or(mem)
            }
            _ => mem,
        }
    }

    pub(crate) fn nthreads(&self) -> usize {
        self.program.threads.len()
    }

    /// The initial program state: top-level threads at their first
    /// non-local instruction (after their eager local steps), forked threads
    /// not started, memory after the init writes. Its local steps are in
    /// `sc.locals` when recording.
    pub(crate) fn initial(&self, sc: &mut Scratch<M::State>) -> Result<Start<M::State>, Ended> {
        sc.locals.clear();
        let mut comps = Vec::with_capacity(self.nthreads());
        for (t, code) in self.program.threads.iter().enumerate() {
            let t = ThreadId::new(t);
            let mut comp = vec![0; 1 + code.regs.len()];
            match code.kind {
                ThreadKind::TopLevel => {
                    if let LocalEnd::Ended(e) =
                        self.run_locals(t, &mut comp, &mut sc.saved, &mut sc.locals, sc.record)
                    {
                        return Err(e);
                    }
                }
                ThreadKind::Forked { .. } => comp[0] = NOT_STARTED,
            }
            comps.push(comp.into_boxed_slice());
        }
        let mut mem = self.model.initial(self.program);
        for (t, comp) in comps.iter().enumerate() {
            mem = self.forget(mem, ThreadId::new(t), comp);
        }
        Ok((comps, mem))
    }

    /// The local steps recorded by the last [`Interp::initial`].
    pub(crate) fn initial_locals<'s>(
        &self,
        sc: &'s Scratch<M::State>,
    ) -> &'s [(ThreadId, InstrId)] {
        &sc.locals
    }

    /// Is the state final: every thread finished (or never forked) and
    /// memory settled?
    pub(crate) fn is_final<'s>(
        &self,
        comp: &impl Fn(usize) -> &'s [Value],
        mem: &M::State,
    ) -> bool {
        (0..self.nthreads()).all(|t| comp(t)[0] < 0) && self.model.settled(mem)
    }

    /// The value of an observable in a final state.
    pub(crate) fn observe<'s>(
        &self,
        comp: &impl Fn(usize) -> &'s [Value],
        mem: &M::State,
        o: crate::ir::Observable,
    ) -> Value {
        match o {
            crate::ir::Observable::Reg(t, r) => {
                comp(t.index()).get(1 + r.index()).copied().unwrap_or(0)
            }
            crate::ir::Observable::Loc(l) => self.model.final_value(mem, l),
        }
    }

    /// The outcome of a final state, or `None` when herd's `filter` rejects
    /// it (evaluated on the state itself, so it may name anything).
    pub(crate) fn outcome<'s>(
        &self,
        comp: &impl Fn(usize) -> &'s [Value],
        mem: &M::State,
    ) -> Option<Vec<Value>> {
        if let Some(filter) = &self.program.filter {
            if !filter.eval(&|o| self.observe(comp, mem, o)) {
                return None;
            }
        }
        Some(
            self.program
                .observed
                .iter()
                .map(|o| self.observe(comp, mem, *o))
                .collect(),
        )
    }

    /// Does the final condition hold in this final state?
    pub(crate) fn satisfies<'s>(
        &self,
        comp: &impl Fn(usize) -> &'s [Value],
        mem: &M::State,
    ) -> Option<bool> {
        let cond = self.program.condition.as_ref()?;
        Some(cond.prop.eval(&|o| self.observe(comp, mem, o)))
    }

    /// Calls `sink` with every move from the state (`comp(t)` is thread
    /// `t`'s component), in successor order; returns how many there were.
    pub(crate) fn successors<'s>(
        &self,
        comp: &impl Fn(usize) -> &'s [Value],
        mem: &M::State,
        racy: bool,
        sc: &mut Scratch<M::State>,
        sink: &mut impl FnMut(Move<'_, M::State>),
    ) -> usize {
        let mut count = 0;
        for t in 0..self.nthreads() {
            count += self.thread_step(ThreadId::new(t), comp, mem, racy, sc, sink);
        }
        count + self.internal_steps(mem, racy, sc, sink, |_| true)
    }

    /// Calls `sink` with the model's internal steps whose index `keep`
    /// accepts, in the model's order; returns how many there were.
    pub(crate) fn internal_steps(
        &self,
        mem: &M::State,
        racy: bool,
        sc: &mut Scratch<M::State>,
        sink: &mut impl FnMut(Move<'_, M::State>),
        keep: impl Fn(usize) -> bool,
    ) -> usize {
        let mut count = 0;
        let mut internal = std::mem::take(&mut sc.internal);
        self.model.internal(mem, &mut internal);
        for (index, (state, event)) in internal.drain(..).enumerate() {
            if !keep(index) {
                continue;
            }
            let thread = match event.kind {
                crate::model::EventKind::Commit { thread, .. } => thread,
                _ => ThreadId(0),
            };
            let racy = racy || !event.races.is_empty();
            sc.locals.clear();
            sink(Move {
                group: Group::Internal,
                result: (0, 1),
                index,
                thread,
                instr: None,
                event: Some(event),
                locals: &sc.locals,
                next: Next::State {
                    mem: state,
                    changed: None,
                    child: None,
                    racy,
                },
            });
            count += 1;
        }
        sc.internal = internal;
        count
    }

    /// Thread `t`'s next operation (`None` when it is not running).
    pub(crate) fn next_op<'s>(
        &self,
        t: ThreadId,
        comp: &impl Fn(usize) -> &'s [Value],
    ) -> Option<NextOp> {
        let me = comp(t.index());
        if me[0] < 0 {
            return None;
        }
        let pc = InstrId::new(me[0] as usize);
        let regs = &me[1..];
        let div0 = NextOp::Fails(FailureKind::DivisionByZero {
            thread: t,
            instr: pc,
        });
        Some(match &self.program.instruction(t, pc).instr {
            Instr::Load { loc, ord, .. } => NextOp::Op(MemOp::Load {
                loc: *loc,
                ord: *ord,
            }),
            Instr::Store { loc, val, ord } => match val.eval(regs) {
                Ok(val) => NextOp::Op(MemOp::Store {
                    loc: *loc,
                    val,
                    ord: *ord,
                }),
                Err(_) => div0,
            },
            Instr::Rmw {
                loc,
                op,
                operand,
                ord,
                ..
            } => match operand.eval(regs) {
                Ok(operand) => NextOp::Op(MemOp::Rmw {
                    loc: *loc,
                    op: *op,
                    operand,
                    ord: *ord,
                }),
                Err(_) => div0,
            },
            Instr::Cas {
                loc,
                expected,
                desired,
                ord,
                fail: f,
                weak,
                ..
            } => match (expected.eval(regs), desired.eval(regs)) {
                (Ok(expected), Ok(desired)) => NextOp::Op(MemOp::Cas {
                    loc: *loc,
                    expected,
                    desired,
                    ord: *ord,
                    fail: *f,
                    weak: *weak,
                }),
                _ => div0,
            },
            Instr::Fence { kind } => NextOp::Op(MemOp::Fence { kind: *kind }),
            Instr::Fork { child, .. } => {
                // A fork runs once (the front end rejects forks in loops);
                // a second fork of a started thread is not enabled.
                if comp(child.index())[0] != NOT_STARTED {
                    NextOp::Disabled
                } else {
                    NextOp::Op(MemOp::Fork { child: *child })
                }
            }
            Instr::Join { handle } => {
                let child =
                    thread_of_handle(regs[handle.index()]).filter(|c| c.index() < self.nthreads());
                match child {
                    None => NextOp::Fails(FailureKind::BadHandle {
                        thread: t,
                        instr: pc,
                    }),
                    // Join waits until the child has finished.
                    Some(c) if comp(c.index())[0] != FINISHED => NextOp::Disabled,
                    Some(c) => NextOp::Op(MemOp::Join { child: c }),
                }
            }
            Instr::End => NextOp::Op(MemOp::End),
            Instr::Assign { .. }
            | Instr::Branch { .. }
            | Instr::Jump { .. }
            | Instr::Assert { .. }
            | Instr::Assume { .. } => {
                debug_assert!(
                    false,
                    "relaxlab internal error: thread stopped at a local instruction"
                );
                NextOp::Disabled
            }
        })
    }

    /// The moves of thread `t`'s next instruction.
    pub(crate) fn thread_step<'s>(
        &self,
        t: ThreadId,
        comp: &impl Fn(usize) -> &'s [Value],
        mem: &M::State,
        racy: bool,
        sc: &mut Scratch<M::State>,
        sink: &mut impl FnMut(Move<'_, M::State>),
    ) -> usize {
        let op = match self.next_op(t, comp) {
            None | Some(NextOp::Disabled) => return 0,
            Some(NextOp::Op(op)) => op,
            Some(NextOp::Fails(kind)) => {
                sc.locals.clear();
                let pc = InstrId::new(comp(t.index())[0] as usize);
                sink(Move {
                    group: Group::Thread(t),
                    result: (0, 1),
                    index: 0,
                    thread: t,
                    instr: Some(pc),
                    event: None,
                    locals: &sc.locals,
                    next: Next::Ended(Ended::Failed(kind)),
                });
                return 1;
            }
        };
        let me = comp(t.index());
        let pc = InstrId::new(me[0] as usize);
        let instr = &self.program.instruction(t, pc).instr;
        let mut steps = std::mem::take(&mut sc.steps);
        self.model.perform(
            mem,
            Site {
                thread: t,
                instr: pc,
            },
            op,
            &mut steps,
        );
        let n = steps.len();
        for (i, step) in steps.drain(..).enumerate() {
            sc.locals.clear();
            sc.comp.clear();
            sc.comp.extend_from_slice(me);
            let mut child = None;
            let mut ended = None;
            match instr {
                Instr::Load { dst, .. } | Instr::Rmw { dst, .. } | Instr::Cas { dst, .. } => {
                    debug_assert!(
                        step.value.is_some(),
                        "relaxlab internal error: a read returned no value"
                    );
                    sc.comp[1 + dst.index()] = step.value.unwrap_or(0);
                    if let Instr::Cas { ok: Some(ok), .. } = instr {
                        sc.comp[1 + ok.index()] = Value::from(wrote(&step.event.kind));
                    }
                }
                Instr::Fork { dst, child: c } => {
                    sc.comp[1 + dst.index()] = handle_of(*c);
                    child = Some(*c);
                }
                _ => {}
            }
            if matches!(instr, Instr::End) {
                sc.comp[0] = FINISHED;
            } else {
                sc.comp[0] += 1;
                if let LocalEnd::Ended(e) =
                    self.run_locals(t, &mut sc.comp, &mut sc.saved, &mut sc.locals, sc.record)
                {
                    ended = Some(e);
                }
            }
            if let (None, Some(c)) = (&ended, child) {
                sc.child.clear();
                sc.child.resize(1 + self.program.thread(c).regs.len(), 0);
                if let LocalEnd::Ended(e) =
                    self.run_locals(c, &mut sc.child, &mut sc.saved, &mut sc.locals, sc.record)
                {
                    ended = Some(e);
                }
            }
            let racy = racy || !step.event.races.is_empty();
            let next = match ended {
                Some(e) => Next::Ended(e),
                None => Next::State {
                    mem: {
                        let mem = self.forget(step.state, t, &sc.comp);
                        match child {
                            Some(c) => self.forget(mem, c, &sc.child),
                            None => mem,
                        }
                    },
                    changed: Some((t, &sc.comp)),
                    child: child.map(|c| (c, &sc.child[..])),
                    racy,
                },
            };
            sink(Move {
                group: Group::Thread(t),
                result: (i, n),
                index: i,
                thread: t,
                instr: Some(pc),
                event: Some(step.event),
                locals: &sc.locals,
                next,
            });
        }
        sc.steps = steps;
        n
    }

    /// Thread `t`'s component after its memory instruction at `comp[0]`
    /// returned `value` (loads, RMWs, CAS: written to the destination; a
    /// CAS's success flag is whether `event` wrote) or
    /// forked `child` (the handle is written): the program counter moves
    /// on and the local instructions run eagerly, as [`Self::thread_step`]
    /// does. The local steps go to the scratch's record when recording.
    /// For the stateless explorer (`super::mcr`), which keeps a thread's
    /// failure to that thread and lets the others go on.
    pub(crate) fn after_op(
        &self,
        t: ThreadId,
        comp: &mut [Value],
        value: Option<Value>,
        event: Option<&EventKind>,
        sc: &mut Scratch<M::State>,
    ) -> Result<(), Ended> {
        sc.locals.clear();
        let pc = InstrId::new(comp[0] as usize);
        match &self.program.instruction(t, pc).instr {
            Instr::Cas { dst, ok, .. } => {
                comp[1 + dst.index()] = value.unwrap_or(0);
                if let Some(ok) = ok {
                    comp[1 + ok.index()] = Value::from(event.is_some_and(wrote));
                }
            }
            Instr::Load { dst, .. } | Instr::Rmw { dst, .. } => {
                comp[1 + dst.index()] = value.unwrap_or(0);
            }
            Instr::Fork { dst, child } => comp[1 + dst.index()] = handle_of(*child),
            Instr::End => {
                comp[0] = FINISHED;
                return Ok(());
            }
            _ => {}
        }
        comp[0] += 1;
        match self.run_locals(t, comp, &mut sc.saved, &mut sc.locals, sc.record) {
            LocalEnd::Ready => Ok(()),
            LocalEnd::Ended(e) => Err(e),
        }
    }

    /// The component of the forked thread `c` when its fork happens: its
    /// registers at 0 and its first local instructions run (as
    /// [`Self::thread_step`] starts a child). Local steps are recorded as by
    /// [`Self::after_op`].
    pub(crate) fn start_child(
        &self,
        c: ThreadId,
        sc: &mut Scratch<M::State>,
    ) -> (Box<[Value]>, Result<(), Ended>) {
        sc.locals.clear();
        let mut comp = vec![0; 1 + self.program.thread(c).regs.len()];
        let end = match self.run_locals(c, &mut comp, &mut sc.saved, &mut sc.locals, sc.record) {
            LocalEnd::Ready => Ok(()),
            LocalEnd::Ended(e) => Err(e),
        };
        (comp.into_boxed_slice(), end)
    }

    /// The local steps the last [`Self::after_op`] or [`Self::start_child`]
    /// ran, when recording.
    pub(crate) fn last_locals<'s>(&self, sc: &'s Scratch<M::State>) -> &'s [(ThreadId, InstrId)] {
        &sc.locals
    }

    /// Runs thread `t`'s local instructions eagerly from `comp[0]` until the
    /// next non-local instruction (see the module docs for divergence).
    fn run_locals(
        &self,
        t: ThreadId,
        comp: &mut [Value],
        saved: &mut Vec<Value>,
        locals: &mut Vec<(ThreadId, InstrId)>,
        record: bool,
    ) -> LocalEnd {
        let code = &self.program.thread(t).code;
        // Brent's cycle detection: `saved` is the state at the last power
        // of two; meeting it again means the local run loops forever.
        saved.clear();
        saved.extend_from_slice(comp);
        let (mut power, mut lambda, mut steps) = (1u64, 0u64, 0u64);
        loop {
            let pc = comp[0] as usize;
            let Some(ins) = code.get(pc) else {
                debug_assert!(false, "relaxlab internal error: pc out of range");
                return LocalEnd::Ended(Ended::Discarded);
            };
            let here = InstrId::new(pc);
            // The step is recorded before it runs, so a failing `assert`
            // or division ends the witness.
            if record {
                locals.push((t, here));
            }
            let (regs_pc, regs) = comp.split_at_mut(1);
            let div0 = || {
                LocalEnd::Ended(Ended::Failed(FailureKind::DivisionByZero {
                    thread: t,
                    instr: here,
                }))
            };
            match &ins.instr {
                Instr::Assign { dst, val } => match val.eval(regs) {
                    Ok(v) => {
                        regs[dst.index()] = v;
                        regs_pc[0] += 1;
                    }
                    Err(_) => return div0(),
                },
                Instr::Branch { cond, target } => match cond.eval(regs) {
                    Ok(0) => regs_pc[0] = target.index() as Value,
                    Ok(_) => regs_pc[0] += 1,
                    Err(_) => return div0(),
                },
                Instr::Jump { target } => regs_pc[0] = target.index() as Value,
                Instr::Assert { cond } => match cond.eval(regs) {
                    Ok(0) => {
                        return LocalEnd::Ended(Ended::Failed(FailureKind::Assert {
                            thread: t,
                            instr: here,
                        }))
                    }
                    Ok(_) => regs_pc[0] += 1,
                    Err(_) => return div0(),
                },
                Instr::Assume { cond } => match cond.eval(regs) {
                    Ok(0) => return LocalEnd::Ended(Ended::Discarded),
                    Ok(_) => regs_pc[0] += 1,
                    Err(_) => return div0(),
                },
                _ => {
                    if record {
                        locals.pop();
                    }
                    return LocalEnd::Ready;
                }
            }
            steps += 1;
            lambda += 1;
            let diverged = || {
                let at = InstrId::new(comp[0] as usize);
                LocalEnd::Ended(Ended::Failed(FailureKind::Divergence {
                    thread: t,
                    instr: at,
                }))
            };
            if comp == &saved[..] {
                return diverged();
            }
            if steps >= LOCAL_STEP_BOUND {
                return diverged();
            }
            if lambda == power {
                saved.clear();
                saved.extend_from_slice(comp);
                power *= 2;
                lambda = 0;
            }
        }
    }
}

/// Did a CAS's step write: its success flag.
/// book: language.md, Read-modify-writes and compare-and-swap
fn wrote(kind: &EventKind) -> bool {
    matches!(kind, EventKind::Update { wrote: Some(_), .. })
}
