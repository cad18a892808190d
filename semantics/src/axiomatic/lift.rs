//! Lifting an operational trace to an axiomatic execution (TSAN11 Sec. 6.1,
//! for every operational model), and judging it under the model's
//! axiomatic twin (`sc`↔`ax.sc`, `tso`↔`ax.tso`, `pso`↔`ax.pso`,
//! `pslo`↔`ax.pslo`, `c11r`↔`ax.c11r`, `c11t`↔`ax.c11t`).
//!
//! # Events
//!
//! Exactly those of the axiomatic engine's skeletons (`candidates`): the
//! init writes first (one per location, in location order), then each
//! started thread's events in program order, threads in id order. A load
//! is a read, a store a write, a successful RMW or CAS a read and a write
//! joined by `rmw` (with the read and write parts of its order), a failed
//! CAS a read with its failure order, a fence a fence, fork and join their
//! events; thread ends are no events. `po` orders each thread's events,
//! `asw` puts the init writes before every thread event, a fork before its
//! child's first event and the child's last event before its join (the
//! fork itself when the child has no event). The trace's steps give the
//! values; the instructions of the program the model ran give the orders
//! and fence kinds. Registers are replayed along the trace (loads, RMWs,
//! assignments, forks) to learn which thread a `join` waits for and the
//! final values of the observed registers.
//!
//! # `rf`: which store each read took
//!
//! The trace says it through [`crate::model::EventKind::Read::older`]:
//! - SC, TSO, PSO: a read takes the thread's newest buffered store to the
//!   location if there is one (TSO, PSO), else memory: the location's last
//!   committed write (`Commit` step; an RMW commits at once).
//! - PSLO: its own newest buffered store likewise; else the entry `older`
//!   places back from the newest of the thread's store history. A history
//!   is always a suffix of the location's committed writes, oldest first,
//!   in which PSLO merges two consecutive equal values into one entry
//!   (deviation 1 of `pslo`; book: model-pslo.md, Rules (RELAXER Fig. 6)).
//!   So the entry is the run of
//!   consecutive equal-valued committed writes `older` runs back from the
//!   newest, and the lift takes the newest write of that run committed
//!   before the read: the readings of one run are indistinguishable by
//!   value, and the newest is the one memory held last.
//! - `c11r`, `c11t`: the store `older` positions back from the newest
//!   store to the location in performance order (the order of the `Write`
//!   and `Update` steps).
//! - A model that places stores in `mo` as it performs them (the registry
//!   row's `LiftReads::Mo`): the store `older` positions back from the
//!   newest in `mo`, which the lift rebuilds as the trace goes: a `Write`
//!   goes `newer` stores before the end, an `Update` right after the store
//!   it read.
//!
//! # `co`: the order of each location's writes
//!
//! Commit order under TSO, PSO and PSLO (stores still buffered when the
//! trace stops follow, in the order they were issued); performance order
//! under SC and `c11r`; `mo` as placed (above) for the models that place
//! their stores. `c11t` keeps the modification order as a partial
//! order, so its trace does not fix `co`: its `Settle` steps name the value
//! each location ends with, and the lift searches the orders whose last
//! write has that value (keeping each thread's writes in program order,
//! CoWW, which every model requires) for one `ax.c11t` accepts, in a fixed
//! order, up to [`MAX_CO_ORDERS`] of them; if none is accepted, it keeps
//! the first and says so ([`CoSource::Searched`]).
//!
//! # `sc`
//!
//! Under `c11r` the SC order is the order in which the trace performs the
//! SC events (TSAN11 Sec. 6.1, the `lsc` label); `ax.c11r` then checks that
//! order. Under `c11t` it is left for the checker to find. The hardware
//! models have none.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;

use super::candidates::{additional_synchronisation, init_events, program_order};
use super::execution::{AccessKind, Event, EventId, EventKind, Execution, Mode, Rejection};
use super::paths::{fence_mode, read_mode, write_mode};
use super::relation::{Relation, MAX_EVENTS};
use super::run::check;
use crate::ir::{
    handle_of, thread_of_handle, AxModel, Instr, LocId, Observable, OpModel, Program, ReadOrd,
    ThreadKind, Value,
};
use crate::model::EventKind as Step;
use crate::outcome::Trace;
use crate::registry::{Buffering, LiftCo, LiftReads};

mod co_search;

/// How many `co` orders the `c11t` lift tries at most.
pub const MAX_CO_ORDERS: u64 = 10_000;

/// The axiomatic twin of an operational model (its registry row's).
pub fn twin(model: OpModel) -> AxModel {
    model.twin()
}

/// Where the lifted `co` came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoSource {
    /// Read off the trace: commit order or performance order.
    Trace,
    /// Searched (`c11t`): `tried` orders were checked; `accepted` says
    /// whether the twin accepted one (else the first order is kept).
    Searched { tried: u64, accepted: bool },
}

/// A trace lifted to an execution, with the twin's verdict on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lifted {
    pub execution: Execution,
    /// The final values of [`Program::observed`] when every started thread
    /// finished; `None` for a trace that stops earlier (a failure).
    pub outcome: Option<Vec<Value>>,
    pub co: CoSource,
    /// The twin axiomatic model ([`twin`]) accepts the execution, or the
    /// axiom it breaks and the events that break it.
    pub verdict: Result<(), Rejection>,
}

/// Why a trace cannot be lifted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiftError {
    /// The execution would have more events than a relation holds.
    TooManyEvents { events: usize, max: usize },
    /// The trace does not fit the program or the model (it was run on
    /// another program, or a model broke its own event contract).
    Mismatch { step: usize, why: String },
}

impl fmt::Display for LiftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LiftError::TooManyEvents { events, max } => write!(
                f,
                "the lifted execution has {events} events; an execution holds at most {max}"
            ),
            LiftError::Mismatch { step, why } => {
                write!(
                    f,
                    "step {step} of the trace does not fit the program: {why}"
                )
            }
        }
    }
}

impl std::error::Error for LiftError {}

/// An event while the trace is replayed: an init write (by location) or
/// the `n`-th event of a thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Ev {
    Init(usize),
    Thread(usize, usize),
}

/// A write known to the replay, with its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Write {
    ev: Ev,
    value: Value,
}

/// The replay of a trace: per-thread events and registers, buffers,
/// commit and performance orders, and the edges found so far.
#[derive(Debug)]
struct Replay<'p> {
    program: &'p Program,
    model: OpModel,
    /// Per thread: its events in program order (`None` before it starts).
    events: Vec<Option<Vec<Event>>>,
    regs: Vec<Vec<Value>>,
    finished: Vec<bool>,
    /// Buffered stores per (thread, location), oldest first.
    buffers: BTreeMap<(usize, LocId), VecDeque<Write>>,
    /// Per location, writes in the order they reached memory (init first).
    committed: Vec<Vec<Write>>,
    /// Per location, writes in the order they were performed (init first),
    /// or in `mo` as placed for the models that place them.
    performed: Vec<Vec<Write>>,
    /// Buffered stores in the order they were issued, for those never
    /// committed.
    issued: Vec<(LocId, Write)>,
    rf: Vec<(Ev, Ev)>,
    rmw: Vec<(Ev, Ev)>,
    /// SC-mode events in trace order (`c11r`'s `sc`).
    sc: Vec<Ev>,
    /// `c11t`: the value each location's `co` ends with.
    settled: BTreeMap<LocId, Value>,
}

fn mismatch(step: usize, why: impl Into<String>) -> LiftError {
    LiftError::Mismatch {
        step,
        why: why.into(),
    }
}

impl<'p> Replay<'p> {
    fn new(program: &'p Program, model: OpModel) -> Self {
        let inits: Vec<Vec<Write>> = program
            .locations
            .iter()
            .enumerate()
            .map(|(l, loc)| {
                vec![Write {
                    ev: Ev::Init(l),
                    value: loc.init,
                }]
            })
            .collect();
        Replay {
            program,
            model,
            events: program
                .threads
                .iter()
                .map(|t| match t.kind {
                    ThreadKind::TopLevel => Some(Vec::new()),
                    ThreadKind::Forked { .. } => None,
                })
                .collect(),
            regs: program
                .threads
                .iter()
                .map(|t| vec![0; t.regs.len()])
                .collect(),
            finished: vec![false; program.threads.len()],
            buffers: BTreeMap::new(),
            committed: inits.clone(),
            performed: inits,
            issued: Vec::new(),
            rf: Vec::new(),
            rmw: Vec::new(),
            sc: Vec::new(),
            settled: BTreeMap::new(),
        }
    }

    /// Does the model buffer stores until a `Commit` step?
    fn buffered(&self) -> bool {
        self.model.row().buffering != Buffering::None
    }

    /// Appends an event of thread `t`, returning its reference.
    fn push(&mut self, step: usize, t: usize, ev: Event) -> Result<Ev, LiftError> {
        let Some(list) = self.events.get_mut(t).and_then(Option::as_mut) else {
            return Err(mismatch(step, "a thread moved before it was forked"));
        };
        list.push(ev);
        let r = Ev::Thread(t, list.len() - 1);
        if ev.mode == Mode::Sc {
            self.sc.push(r);
        }
        Ok(r)
    }

    /// A register of thread `t`, checked against the program.
    fn reg_mut(
        &mut self,
        step: usize,
        t: usize,
        r: crate::ir::RegId,
    ) -> Result<&mut Value, LiftError> {
        self.regs
            .get_mut(t)
            .and_then(|regs| regs.get_mut(r.index()))
            .ok_or_else(|| mismatch(step, "a register the thread does not have"))
    }

    /// The write a read of `loc` by thread `t` took (see the module docs).
    fn source(
        &self,
        step: usize,
        t: usize,
        loc: LocId,
        value: Value,
        older: u32,
    ) -> Result<Write, LiftError> {
        let own = self
            .buffers
            .get(&(t, loc))
            .and_then(VecDeque::back)
            .filter(|_| self.buffered());
        let found = match own {
            Some(w) => Some(*w),
            None if self.model.row().lift.reads != LiftReads::CommittedRuns => self
                .performed
                .get(loc.index())
                .and_then(|ws| ws.len().checked_sub(1 + older as usize).map(|i| ws[i])),
            None => self
                .committed
                .get(loc.index())
                .and_then(|ws| newest_of_run(ws, older)),
        };
        match found {
            Some(w) if w.value == value => Ok(w),
            Some(w) => Err(mismatch(
                step,
                format!("a read of {value} took a store of {}", w.value),
            )),
            None => Err(mismatch(step, format!("no store is {older} places back"))),
        }
    }

    /// A store reached memory (performed under the unbuffered models, a
    /// `Commit` or an RMW under the buffered ones).
    fn commit(&mut self, loc: LocId, w: Write) {
        if let Some(ws) = self.committed.get_mut(loc.index()) {
            ws.push(w);
        }
    }

    /// A store was performed, placed `newer` stores before the end of the
    /// location's list (0 but under `ra`).
    fn perform(&mut self, loc: LocId, w: Write, newer: u32) {
        if let Some(ws) = self.performed.get_mut(loc.index()) {
            let at = ws.len().saturating_sub(newer as usize);
            ws.insert(at, w);
        }
    }

    /// One step of the trace.
    fn step(&mut self, i: usize, step: &crate::outcome::TraceStep) -> Result<(), LiftError> {
        let t = step.thread.index();
        if let Some(Step::Commit { thread, loc, value }) = &step.event {
            return self.commit_step(i, thread.index(), *loc, *value);
        }
        if let Some(Step::Settle { loc, value }) = &step.event {
            self.settled.insert(*loc, *value);
            return Ok(());
        }
        let Some(instr) = step.instr else {
            return Err(mismatch(i, "a step without an instruction"));
        };
        let Some(ins) = self
            .program
            .threads
            .get(t)
            .and_then(|th| th.code.get(instr.index()))
        else {
            return Err(mismatch(i, "an instruction the program does not have"));
        };
        let ev = |kind, mode| Event {
            thread: Some(step.thread),
            instr: Some(instr),
            line: ins.line,
            kind,
            mode,
            tags: 0,
        };
        match (&ins.instr, &step.event) {
            (
                Instr::Load { dst, loc, ord },
                Some(Step::Read {
                    loc: l,
                    value,
                    older,
                }),
            ) if loc == l => {
                let src = self.source(i, t, *loc, *value, *older)?;
                let kind = EventKind::Read {
                    loc: *loc,
                    value: *value,
                    access: AccessKind::Plain,
                };
                let r = self.push(i, t, ev(kind, read_mode(*ord)))?;
                self.rf.push((src.ev, r));
                *self.reg_mut(i, t, *dst)? = *value;
            }
            (
                Instr::Store { loc, ord, .. },
                Some(Step::Write {
                    loc: l,
                    value,
                    newer,
                }),
            ) if loc == l => {
                let kind = EventKind::Write {
                    loc: *loc,
                    value: *value,
                    access: AccessKind::Plain,
                };
                let w = Write {
                    ev: self.push(i, t, ev(kind, write_mode(*ord)))?,
                    value: *value,
                };
                self.perform(*loc, w, *newer);
                if self.buffered() {
                    self.buffers.entry((t, *loc)).or_default().push_back(w);
                    self.issued.push((*loc, w));
                } else {
                    self.commit(*loc, w);
                }
            }
            (
                Instr::Rmw { dst, loc, ord, .. } | Instr::Cas { dst, loc, ord, .. },
                Some(Step::Update {
                    loc: l,
                    read,
                    wrote,
                    older,
                }),
            ) if loc == l => {
                let src = self.source(i, t, *loc, *read, *older)?;
                let (fail, ok) = match &ins.instr {
                    Instr::Cas { fail, ok, .. } => (*fail, *ok),
                    _ => (ReadOrd::Rlx, None),
                };
                let (access, mode) = match wrote {
                    Some(_) => (AccessKind::Update, read_mode(ord.read_part())),
                    None => (AccessKind::FailedCas, read_mode(fail)),
                };
                let kind = EventKind::Read {
                    loc: *loc,
                    value: *read,
                    access,
                };
                let r = self.push(i, t, ev(kind, mode))?;
                self.rf.push((src.ev, r));
                if let Some(v) = wrote {
                    let kind = EventKind::Write {
                        loc: *loc,
                        value: *v,
                        access: AccessKind::Update,
                    };
                    let w = Write {
                        ev: self.push(i, t, ev(kind, write_mode(ord.write_part())))?,
                        value: *v,
                    };
                    self.rmw.push((r, w.ev));
                    // Under a model that places stores in `mo`, an update
                    // goes right after the store it read.
                    let newer = match self.model.row().lift.reads {
                        LiftReads::Mo => *older,
                        _ => 0,
                    };
                    self.perform(*loc, w, newer);
                    self.commit(*loc, w);
                }
                *self.reg_mut(i, t, *dst)? = *read;
                if let Some(ok) = ok {
                    *self.reg_mut(i, t, ok)? = Value::from(wrote.is_some());
                }
            }
            (Instr::Fence { kind }, Some(Step::Sync)) => {
                self.push(i, t, ev(EventKind::Fence(*kind), fence_mode(*kind)))?;
            }
            (Instr::Fork { dst, child }, Some(Step::Sync)) => {
                self.push(i, t, ev(EventKind::Fork { child: *child }, Mode::Na))?;
                *self.reg_mut(i, t, *dst)? = handle_of(*child);
                match self.events.get_mut(child.index()) {
                    Some(slot @ None) => *slot = Some(Vec::new()),
                    _ => return Err(mismatch(i, "a fork of a thread already running")),
                }
            }
            (Instr::Join { handle }, Some(Step::Sync)) => {
                let h = *self.reg_mut(i, t, *handle)?;
                let Some(child) = thread_of_handle(h) else {
                    return Err(mismatch(i, "a join of a register with no handle"));
                };
                self.push(i, t, ev(EventKind::Join { child }, Mode::Na))?;
            }
            (Instr::End, Some(Step::Sync)) => {
                if let Some(f) = self.finished.get_mut(t) {
                    *f = true;
                }
            }
            (Instr::Assign { dst, val }, None) => {
                let regs = self.regs.get(t).map(Vec::as_slice).unwrap_or(&[]);
                let v = val
                    .eval(regs)
                    .map_err(|_| mismatch(i, "an assignment divided by zero"))?;
                *self.reg_mut(i, t, *dst)? = v;
            }
            (Instr::Branch { .. } | Instr::Jump { .. } | Instr::Assert { .. }, None) => {}
            (Instr::Assume { .. }, None) => {}
            _ => return Err(mismatch(i, "the step does not match its instruction")),
        }
        Ok(())
    }

    /// A `Commit` step: the oldest buffered store of `t` to `loc` reaches
    /// memory.
    fn commit_step(
        &mut self,
        i: usize,
        t: usize,
        loc: LocId,
        value: Value,
    ) -> Result<(), LiftError> {
        let popped = self
            .buffers
            .get_mut(&(t, loc))
            .and_then(VecDeque::pop_front);
        match popped {
            Some(w) if w.value == value => {
                self.issued.retain(|&(_, x)| x != w);
                self.commit(loc, w);
                Ok(())
            }
            _ => Err(mismatch(i, "a commit of a store that is not buffered")),
        }
    }
}

/// The newest write of the run of equal values `older` runs back from the
/// newest in `ws` (PSLO's merged histories; `older = 0` is memory).
fn newest_of_run(ws: &[Write], older: u32) -> Option<Write> {
    let mut run = 0u32;
    let mut prev: Option<Value> = None;
    for w in ws.iter().rev() {
        if prev.is_some_and(|p| p != w.value) {
            run += 1;
        }
        if run == older {
            return Some(*w);
        }
        if run > older {
            return None;
        }
        prev = Some(w.value);
    }
    None
}

/// The replayed events laid out as the axiomatic engine lays out a
/// skeleton, with the index of each replay reference.
struct Layout {
    exec: Execution,
    index: BTreeMap<Ev, usize>,
}

impl Layout {
    fn of(&self, e: Ev) -> usize {
        *self
            .index
            .get(&e)
            .expect("relaxlab internal error: a lifted edge names an unknown event")
    }
}

/// Events, `po`, `asw`, `rmw`, `rf` and (for `c11r`) `sc` of a replay, as
/// `build_skeleton` lays them out.
fn layout(r: &Replay) -> Result<Layout, LiftError> {
    let mut events = init_events(r.program);
    let inits = events.len();
    let mut index: BTreeMap<Ev, usize> = (0..inits).map(|l| (Ev::Init(l), l)).collect();
    let mut ranges: Vec<Option<(usize, usize)>> = Vec::with_capacity(r.events.len());
    for (t, list) in r.events.iter().enumerate() {
        let Some(list) = list else {
            ranges.push(None);
            continue;
        };
        let start = events.len();
        for (k, ev) in list.iter().enumerate() {
            index.insert(Ev::Thread(t, k), events.len());
            events.push(*ev);
        }
        ranges.push(Some((start, events.len())));
    }
    let n = events.len();
    if n > MAX_EVENTS {
        return Err(LiftError::TooManyEvents {
            events: n,
            max: MAX_EVENTS,
        });
    }
    let exec = Execution {
        po: program_order(n, &ranges),
        asw: additional_synchronisation(&events, inits, &ranges).0,
        rf: Relation::new(n),
        co: Relation::new(n),
        rmw: Relation::new(n),
        sc: None,
        deps: None,
        fw: None,
        updates: 0,
        events,
    };
    let mut l = Layout { exec, index };
    for &(w, rd) in &r.rf {
        let (w, rd) = (l.of(w), l.of(rd));
        l.exec.rf.add_idx(w, rd);
    }
    for &(rd, w) in &r.rmw {
        let (rd, w) = (l.of(rd), l.of(w));
        l.exec.rmw.add_idx(rd, w);
    }
    if r.model.row().lift.sc_in_trace_order {
        let sc = r.sc.iter().map(|&e| EventId::new(l.of(e))).collect();
        l.exec.sc = Some(sc);
    }
    Ok(l)
}

/// The `co` order of each location read off the replay: commit order for
/// the buffered models (stores never committed last, as issued),
/// performance order otherwise.
fn trace_co(r: &Replay) -> Vec<Vec<Ev>> {
    let mut orders: Vec<Vec<Ev>> = if r.buffered() {
        r.committed
            .iter()
            .map(|ws| ws.iter().map(|w| w.ev).collect())
            .collect()
    } else {
        r.performed
            .iter()
            .map(|ws| ws.iter().map(|w| w.ev).collect())
            .collect()
    };
    if r.buffered() {
        for (loc, w) in &r.issued {
            if let Some(o) = orders.get_mut(loc.index()) {
                o.push(w.ev);
            }
        }
    }
    orders
}

/// `exec` with `co` the total orders `orders` (one per location).
fn with_co(exec: &Execution, l: &Layout, orders: &[Vec<Ev>]) -> Execution {
    let mut exec = exec.clone();
    for order in orders {
        for (i, &a) in order.iter().enumerate() {
            for &b in &order[i + 1..] {
                exec.co.add_idx(l.of(a), l.of(b));
            }
        }
    }
    exec
}

/// The final values of the observed registers and locations: registers as
/// replayed, locations from their `co`-last write.
fn outcome(r: &Replay, orders: &[Vec<Ev>], exec: &Execution, l: &Layout) -> Option<Vec<Value>> {
    let done = r
        .events
        .iter()
        .zip(&r.finished)
        .all(|(events, &finished)| events.is_none() || finished);
    if !done || r.buffers.values().any(|b| !b.is_empty()) {
        return None;
    }
    let last = |loc: usize| {
        orders
            .get(loc)
            .and_then(|o| o.last())
            .and_then(|&e| exec.events.get(l.of(e)))
            .and_then(Event::value)
            .unwrap_or(0)
    };
    Some(
        r.program
            .observed
            .iter()
            .map(|o| match *o {
                Observable::Reg(t, reg) => r
                    .events
                    .get(t.index())
                    .and_then(|e| e.as_ref())
                    .and_then(|_| r.regs.get(t.index()))
                    .and_then(|rs| rs.get(reg.index()).copied())
                    .unwrap_or(0),
                Observable::Loc(loc) => last(loc.index()),
            })
            .collect(),
    )
}

/// Lifts `trace`, a trace of `program` under `model`, to an execution and
/// judges it under the twin axiomatic model. `program` must be the program
/// the model ran (after the compilation mapping for the hardware models,
/// [`crate::operational::program_for`]): the trace's instruction ids
/// number its instructions.
pub fn lift(program: &Program, model: OpModel, trace: &Trace) -> Result<Lifted, LiftError> {
    let mut r = Replay::new(program, model);
    for (i, step) in trace.steps.iter().enumerate() {
        r.step(i, step)?;
    }
    let l = layout(&r)?;
    let ax = twin(model);
    let (orders, co) = if model.row().lift.co == LiftCo::Settled {
        co_search::search_co(&r, &l, ax)
    } else {
        (trace_co(&r), CoSource::Trace)
    };
    let execution = with_co(&l.exec, &l, &orders);
    let verdict = check(ax, &execution);
    let outcome = outcome(&r, &orders, &execution, &l);
    Ok(Lifted {
        execution,
        outcome,
        co,
        verdict,
    })
}
