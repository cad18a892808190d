//! One execution followed move by move: witness replay and sampled runs.
//!
//! A [`Runner`] holds a decoded program state (owned thread components and
//! memory) and takes the move with a given choice index (the position in
//! the interpreter's successor order), optionally recording trace steps.
//! The exhaustive explorer rebuilds witnesses by replaying the choices on
//! the path to a state; the sampler chooses among [`MoveInfo`]s.

use crate::ir::{InstrId, ThreadId, Value};
use crate::model::MemoryModel;
use crate::outcome::{Trace, TraceStep};

use super::interp::{Ended, Group, Interp, Move, Next, Scratch};

/// What a sampler needs to know of a move to choose it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveInfo {
    pub group: Group,
    /// Position among the results of its operation, and their number.
    pub result: (usize, usize),
    /// The move is a store of this thread to this location (`Write` event).
    pub store: Option<(ThreadId, crate::ir::LocId)>,
    /// The move commits a store of this thread to this location.
    pub commit: Option<(ThreadId, crate::ir::LocId)>,
    /// The move is a load (a `Read` or `Update` event).
    pub load: bool,
    /// The move ends the execution (failure or discard).
    pub ends: bool,
    /// The instruction a thread's move executes (`None` for internal
    /// steps): RELAXER's Phase II biases by statement label.
    pub instr: Option<InstrId>,
}

/// Where an execution stands after a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    /// It goes on.
    Running,
    /// It ended early.
    Ended(Ended),
}

/// A single execution in progress.
#[derive(Debug)]
pub(crate) struct Runner<'p, M: MemoryModel> {
    interp: Interp<'p, M>,
    comps: Vec<Box<[Value]>>,
    mem: M::State,
    pub racy: bool,
    sc: Scratch<M::State>,
    /// Races found so far, in the order found.
    pub races: Vec<crate::model::Race>,
}

/// The trace steps of one move: the step itself, then its local steps.
pub(crate) fn move_steps<S>(m: &Move<'_, S>, out: &mut Vec<TraceStep>) {
    if m.instr.is_some() || m.event.is_some() {
        out.push(TraceStep {
            thread: m.thread,
            instr: m.instr,
            event: m.event.as_ref().map(|e| e.kind.clone()),
        });
    }
    out.extend(
        m.locals
            .iter()
            .map(|&(thread, instr): &(ThreadId, InstrId)| TraceStep {
                thread,
                instr: Some(instr),
                event: None,
            }),
    );
}

impl<'p, M: MemoryModel> Runner<'p, M> {
    /// The initial state; its eager local steps go to `trace`. `Err` when
    /// the execution ends before any move (an `assert` or `assume` before
    /// the first memory access).
    pub(crate) fn start(
        interp: Interp<'p, M>,
        trace: &mut Option<&mut Trace>,
    ) -> Result<Self, Ended> {
        let mut sc = Scratch::new(trace.is_some());
        let started = interp.initial(&mut sc);
        if let Some(tr) = trace {
            tr.steps.extend(
                interp
                    .initial_locals(&sc)
                    .iter()
                    .map(|&(thread, instr)| TraceStep {
                        thread,
                        instr: Some(instr),
                        event: None,
                    }),
            );
        }
        let (comps, mem) = started?;
        Ok(Runner {
            interp,
            comps,
            mem,
            racy: false,
            sc,
            races: Vec::new(),
        })
    }

    /// Is thread `t` running (started, not finished)?
    pub(crate) fn running(&self, t: usize) -> bool {
        self.comps[t][0] >= 0
    }

    /// Is the state final?
    pub(crate) fn is_final(&self) -> bool {
        self.interp.is_final(&|t| &self.comps[t][..], &self.mem)
    }

    /// The outcome of a final state (`None`: the filter rejects it) and
    /// whether it satisfies the condition.
    pub(crate) fn outcome(&self) -> Option<(Vec<Value>, Option<bool>)> {
        let comp = |t: usize| &self.comps[t][..];
        let values = self.interp.outcome(&comp, &self.mem)?;
        Some((values, self.interp.satisfies(&comp, &self.mem)))
    }

    /// Every move from the current state, in successor order.
    pub(crate) fn moves(&mut self, out: &mut Vec<MoveInfo>) {
        out.clear();
        let comps = &self.comps;
        let comp = |t: usize| &comps[t][..];
        self.sc.record = false;
        self.interp
            .successors(&comp, &self.mem, self.racy, &mut self.sc, &mut |m| {
                let kind = m.event.as_ref().map(|e| &e.kind);
                use crate::model::EventKind as K;
                out.push(MoveInfo {
                    group: m.group,
                    result: m.result,
                    store: match kind {
                        Some(K::Write { loc, .. }) => Some((m.thread, *loc)),
                        _ => None,
                    },
                    commit: match kind {
                        Some(K::Commit { thread, loc, .. }) => Some((*thread, *loc)),
                        _ => None,
                    },
                    load: matches!(kind, Some(K::Read { .. } | K::Update { .. })),
                    ends: matches!(m.next, Next::Ended(_)),
                    instr: m.instr,
                });
            });
    }

    /// The thread components (`[status, registers...]`, see the
    /// interpreter's module docs), indexed by thread.
    pub(crate) fn components(&self) -> &[Box<[Value]>] {
        &self.comps
    }

    /// The memory state.
    pub(crate) fn memory(&self) -> &M::State {
        &self.mem
    }

    /// Every move from the current state, in successor order, as its
    /// trace steps (the move's step, then the local steps it runs) and how
    /// it ends the execution, if it does. For the playground's stepper,
    /// which labels each enabled transition like a witness line.
    pub(crate) fn previews(&mut self, out: &mut Vec<Preview>) {
        out.clear();
        let comps = &self.comps;
        let comp = |t: usize| &comps[t][..];
        self.sc.record = true;
        self.interp
            .successors(&comp, &self.mem, self.racy, &mut self.sc, &mut |m| {
                let mut steps = Vec::new();
                move_steps(&m, &mut steps);
                out.push(Preview {
                    thread: m.thread,
                    instr: m.instr,
                    internal: m.group == Group::Internal,
                    steps,
                    ended: match &m.next {
                        Next::Ended(e) => Some(e.clone()),
                        Next::State { .. } => None,
                    },
                });
            });
    }

    /// Takes move `choice`, appending its steps to `trace`. Returns `None`
    /// when there is no such move.
    pub(crate) fn take(&mut self, choice: usize, trace: &mut Option<&mut Trace>) -> Option<Status> {
        let mut index = 0;
        self.take_first(
            |_| {
                index += 1;
                index - 1 == choice
            },
            trace,
        )
    }

    /// Takes the first move, in successor order, that `accept` accepts
    /// (`accept` sees every move until then, in order), appending its steps
    /// to `trace`. Returns `None` when it accepts none.
    pub(crate) fn take_first(
        &mut self,
        mut accept: impl FnMut(&Move<'_, M::State>) -> bool,
        trace: &mut Option<&mut Trace>,
    ) -> Option<Status> {
        let comps = &self.comps;
        let comp = |t: usize| &comps[t][..];
        let mut taken: Option<(Status, Option<Update<M::State>>)> = None;
        self.sc.record = trace.is_some();
        let races = &mut self.races;
        self.interp
            .successors(&comp, &self.mem, self.racy, &mut self.sc, &mut |m| {
                if taken.is_none() && accept(&m) {
                    if let Some(tr) = trace.as_deref_mut() {
                        move_steps(&m, &mut tr.steps);
                    }
                    if let Some(e) = &m.event {
                        races.extend(e.races.iter().copied());
                    }
                    taken = Some(match m.next {
                        Next::Ended(e) => (Status::Ended(e), None),
                        Next::State {
                            mem,
                            changed,
                            child,
                            racy,
                        } => (
                            Status::Running,
                            Some(Update {
                                mem,
                                changed: changed.map(|(t, c)| (t, Box::from(c))),
                                child: child.map(|(t, c)| (t, Box::from(c))),
                                racy,
                            }),
                        ),
                    });
                }
            });
        let (status, update) = taken?;
        if let Some(u) = update {
            self.mem = u.mem;
            self.racy = u.racy;
            for (t, c) in u.changed.into_iter().chain(u.child) {
                self.comps[t.index()] = c;
            }
        }
        Some(status)
    }
}

/// One move as the stepper shows it ([`Runner::previews`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Preview {
    /// The thread that moves (for a commit, the thread whose buffer it is).
    pub thread: ThreadId,
    /// The instruction it executes; `None` for internal steps.
    pub instr: Option<InstrId>,
    /// An internal step of the model (a commit, a settle step).
    pub internal: bool,
    /// Its trace steps: the move's own step, then its eager local steps.
    pub steps: Vec<TraceStep>,
    /// How it ends the execution, if it does.
    pub ended: Option<Ended>,
}

impl<M: MemoryModel> Clone for Runner<'_, M> {
    /// The same execution, to go on along another move (the scratch
    /// buffers are not part of the state, so the copy gets fresh ones).
    fn clone(&self) -> Self {
        Runner {
            interp: self.interp.clone(),
            comps: self.comps.clone(),
            mem: self.mem.clone(),
            racy: self.racy,
            sc: Scratch::new(self.sc.record),
            races: self.races.clone(),
        }
    }
}

/// The owned effect of a move on the decoded state.
struct Update<S> {
    mem: S,
    changed: Option<(ThreadId, Box<[Value]>)>,
    child: Option<(ThreadId, Box<[Value]>)>,
    racy: bool,
}

/// The trace of the execution that takes `choices` from the initial state
/// (a witness of the exhaustive explorer).
pub(crate) fn replay_choices<M: MemoryModel>(interp: Interp<'_, M>, choices: &[u32]) -> Trace {
    let mut trace = Trace::default();
    let mut rec = Some(&mut trace);
    let Ok(mut runner) = Runner::start(interp, &mut rec) else {
        return trace;
    };
    for &c in choices {
        match runner.take(c as usize, &mut rec) {
            Some(Status::Running) => {}
            Some(Status::Ended(_)) | None => break,
        }
    }
    trace
}
