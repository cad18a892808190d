//! The lift of a trace to RELAXER's events (Sec. 2.1): one event per memory
//! access, with its thread, instruction, label and the *commit index* of
//! the write it is or reads.
//!
//! RELAXER's trace events are `ld(l, p, a, v, i, c)` and `st(l, p, a, v, i,
//! c)`: a store is the `c`-th write to reach address `a`, a load returns the
//! `c`-th value written there. Here the position of a store is its `Commit`
//! step under the buffered models (its `Write` step under SC), and the
//! initial value is write 0. The write a load reads is rebuilt by replaying
//! the models' buffers and store histories (MODELS.md 2.2-2.4) over the
//! trace: the newest buffered write of the thread to the location if there
//! is one, else the newest entry of the thread's store history of the
//! location with the value read. Under SC, TSO and PSO that entry is the
//! location's memory; under PSLO it may be older. When equal values make
//! the history ambiguous the newest candidate is taken: the readings are
//! indistinguishable by value, and the newest orders the load the most
//! like SC (fewest conflict edges against program order).
//!
//! An RMW that wrote counts as a store at the position of its own write
//! (it reads the write just before it); a failed CAS counts as a load.
//! Fences, forks, joins and ends are not events of Definition 1.

use std::collections::{BTreeMap, VecDeque};

use crate::ir::{InstrId, LocId, Program, ThreadId, Value};
use crate::model::EventKind;
use crate::outcome::Trace;

/// A commit index: `UNCOMMITTED` for a store that never reached memory.
pub type Position = u64;

/// The position of a store still buffered when the trace ends.
pub const UNCOMMITTED: Position = u64::MAX;

/// Is the access a load or a store (RELAXER's `o(e)`)?
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Access {
    Load,
    Store,
}

/// One event of a lifted trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LiftedEvent {
    pub thread: ThreadId,
    pub instr: InstrId,
    /// The statement label (`Instruction::line`).
    pub line: u32,
    pub loc: LocId,
    pub access: Access,
    /// Per thread, 0-based: RELAXER's instruction index `i(e)`.
    pub index: usize,
    /// RELAXER's commit index `c(e)`.
    pub position: Position,
}

/// A write known to the replay: committed at a position, or pending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum WriteRef {
    Committed(Position, Value),
    /// The n-th store of the trace, still buffered.
    Pending(usize, Value),
}

impl WriteRef {
    fn value(self) -> Value {
        match self {
            WriteRef::Committed(_, v) | WriteRef::Pending(_, v) => v,
        }
    }
}

/// The replay state: buffers and store histories of write references.
#[derive(Debug, Default)]
struct Replay {
    next_position: BTreeMap<LocId, Position>,
    /// Per (thread, location): buffered stores (store number, event index).
    buffers: BTreeMap<(ThreadId, LocId), VecDeque<(usize, usize)>>,
    /// Per (thread, location): the store history, oldest first; a missing
    /// entry means `[memory]`.
    histories: BTreeMap<(ThreadId, LocId), Vec<WriteRef>>,
    memory: BTreeMap<LocId, WriteRef>,
    /// Per store number: its position once committed.
    committed: Vec<Position>,
    /// Loads reading a pending store: (event index, store number).
    forwarded: Vec<(usize, usize)>,
}

impl Replay {
    fn memory(&self, program: &Program, loc: LocId) -> WriteRef {
        self.memory.get(&loc).copied().unwrap_or_else(|| {
            let init = program.locations.get(loc.index()).map_or(0, |l| l.init);
            WriteRef::Committed(0, init)
        })
    }

    /// Makes write `store` (with `value`) of `thread` reach memory, RELAXER's
    /// `store^c`: a fresh position, the histories as PSLO keeps them.
    fn commit(
        &mut self,
        program: &Program,
        thread: ThreadId,
        loc: LocId,
        value: Value,
    ) -> Position {
        let next = self.next_position.entry(loc).or_insert(1);
        let pos = *next;
        *next += 1;
        let w = WriteRef::Committed(pos, value);
        self.memory.insert(loc, w);
        for t in 0..program.threads.len() {
            let t = ThreadId::new(t);
            if t == thread {
                self.histories.insert((t, loc), vec![w]);
            } else {
                let m = self.histories.entry((t, loc)).or_default();
                m.push(w);
            }
        }
        pos
    }

    /// The write a load of `thread` reading `value` read.
    fn read(
        &mut self,
        program: &Program,
        thread: ThreadId,
        loc: LocId,
        value: Value,
        stores: &[Value],
    ) -> WriteRef {
        if let Some(&(n, _)) = self.buffers.get(&(thread, loc)).and_then(|b| b.back()) {
            return WriteRef::Pending(n, stores.get(n).copied().unwrap_or(value));
        }
        let memory = self.memory(program, loc);
        let history = self.histories.entry((thread, loc)).or_default();
        if history.is_empty() {
            history.push(memory);
        }
        match history.iter().rposition(|w| w.value() == value) {
            Some(i) => {
                history.drain(..i);
                history[0]
            }
            // Not a value the replay knows: the models never do this; take
            // memory rather than fail.
            None => memory,
        }
    }
}

/// Lifts `trace` to its events in trace order. `buffered`: stores reach
/// memory at their `Commit` step (TSO, PSO, PSLO), not at their `Write`
/// step (SC).
pub fn lift(program: &Program, trace: &Trace, buffered: bool) -> Vec<LiftedEvent> {
    let mut r = Replay::default();
    let mut events: Vec<LiftedEvent> = Vec::new();
    let mut per_thread: BTreeMap<ThreadId, usize> = BTreeMap::new();
    // Per store number: its value.
    let mut store_values: Vec<Value> = Vec::new();
    for step in &trace.steps {
        let Some(kind) = &step.event else { continue };
        let mut push = |instr: InstrId,
                        loc: LocId,
                        access: Access,
                        position: Position,
                        events: &mut Vec<LiftedEvent>| {
            let index = per_thread.entry(step.thread).or_insert(0);
            let line = program
                .threads
                .get(step.thread.index())
                .and_then(|t| t.code.get(instr.index()))
                .map_or(0, |i| i.line);
            events.push(LiftedEvent {
                thread: step.thread,
                instr,
                line,
                loc,
                access,
                index: *index,
                position,
            });
            *index += 1;
            events.len() - 1
        };
        match (kind, step.instr) {
            (EventKind::Read { loc, value, .. }, Some(instr)) => {
                let w = r.read(program, step.thread, *loc, *value, &store_values);
                let e = push(instr, *loc, Access::Load, 0, &mut events);
                match w {
                    WriteRef::Committed(p, _) => events[e].position = p,
                    WriteRef::Pending(n, _) => r.forwarded.push((e, n)),
                }
            }
            (
                EventKind::Update {
                    loc, read, wrote, ..
                },
                Some(instr),
            ) => {
                let w = r.read(program, step.thread, *loc, *read, &store_values);
                match wrote {
                    Some(v) => {
                        let p = r.commit(program, step.thread, *loc, *v);
                        push(instr, *loc, Access::Store, p, &mut events);
                    }
                    None => {
                        let e = push(instr, *loc, Access::Load, 0, &mut events);
                        match w {
                            WriteRef::Committed(p, _) => events[e].position = p,
                            WriteRef::Pending(n, _) => r.forwarded.push((e, n)),
                        }
                    }
                }
            }
            (EventKind::Write { loc, value }, Some(instr)) => {
                let n = store_values.len();
                store_values.push(*value);
                r.committed.push(UNCOMMITTED);
                if buffered {
                    let e = push(instr, *loc, Access::Store, UNCOMMITTED, &mut events);
                    r.buffers
                        .entry((step.thread, *loc))
                        .or_default()
                        .push_back((n, e));
                } else {
                    let p = r.commit(program, step.thread, *loc, *value);
                    r.committed[n] = p;
                    push(instr, *loc, Access::Store, p, &mut events);
                }
            }
            (EventKind::Commit { thread, loc, value }, _) => {
                let popped = r
                    .buffers
                    .get_mut(&(*thread, *loc))
                    .and_then(|b| b.pop_front());
                let p = r.commit(program, *thread, *loc, *value);
                if let Some((n, e)) = popped {
                    r.committed[n] = p;
                    events[e].position = p;
                }
            }
            _ => {}
        }
    }
    for (e, n) in std::mem::take(&mut r.forwarded) {
        events[e].position = r.committed.get(n).copied().unwrap_or(UNCOMMITTED);
    }
    events
}

/// Does the trace come from a buffered model? Yes when it has a `Commit`
/// step. (A buffered run that fails before any commit is read as SC: its
/// stores then count as performed when issued.)
pub fn buffered_trace(trace: &Trace) -> bool {
    trace
        .steps
        .iter()
        .any(|s| matches!(s.event, Some(EventKind::Commit { .. })))
}

/// RELAXER's conflict order `e ->c e'` (Sec. 2.2), restricted to
/// different threads: same location, at least one store, and `e` first
/// from the location's point of view.
pub fn conflict(e: &LiftedEvent, f: &LiftedEvent) -> bool {
    e.thread != f.thread
        && e.loc == f.loc
        && match (e.access, f.access) {
            (_, Access::Store) => e.position < f.position,
            (Access::Store, Access::Load) => e.position <= f.position,
            (Access::Load, Access::Load) => false,
        }
}
