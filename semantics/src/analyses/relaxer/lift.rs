//! The lift of a trace to RELAXER's events (Sec. 2.1): one event per memory
//! access, with its thread, instruction, label and the *commit index* of
//! the write it is or reads.
//!
//! RELAXER's trace events are `ld(l, p, a, v, i, c)` and `st(l, p, a, v, i,
//! c)`: a store is the `c`-th write to reach address `a`, a load returns the
//! `c`-th value written there. Here the position of a store is its `Commit`
//! step under the buffered models (its `Write` step under SC), and the
//! initial value is write 0.
//!
//! The write a load reads is rebuilt by replaying the models' buffers and
//! PSLO's store histories (book: reference.md, Operational rules) over the trace, with write
//! references where the model keeps values. The histories follow
//! [`crate::models::hw::pslo`] rule by rule: every top-level
//! thread starts with `S[p][a] = [init(a)]`; a write `w` reaching memory
//! (a commit or an RMW; a failed CAS counts as memory's write reaching it
//! again) sets its own thread's history to `[w]` and is appended to every
//! other live one, including those of threads that have not read the
//! location yet; a load of position `i` drops the entries before it; the
//! `ll`, `sl` and `full` barriers, fork and join reset the thread's
//! histories to `[memory]`, a fork starts the child's, a thread end drops
//! them. Two adjacent equal values share one entry (the model's deviation
//! 1), which holds the newest of those writes.
//!
//! A load takes the newest buffered write of its thread to the location if
//! there is one (TSO, PSO, PSLO), else the entry of its history that the
//! trace names: [`EventKind::Read`]'s `older` counts the entries newer
//! than the one read (0, memory, under SC, TSO and PSO, whose histories
//! the replay keeps too: their newest entry is always memory). An entry
//! that merged equal values stands for all of them, indistinguishable by
//! value; the lift takes the newest, the one memory held last, as
//! [`crate::axiomatic::lift()`] does. An RMW or CAS reads memory (the models
//! enable it only with the thread's buffer of the location empty). If a
//! trace does not fit the mirror (a trace of another model or program),
//! the newest entry with the value read is taken instead, and
//! [`lift_exact`] says so.
//!
//! An RMW that wrote counts as a store at the position of its own write
//! (it reads the write just before it); a failed CAS counts as a load.
//! Fences, forks, joins and ends are not events of Definition 1.

use std::collections::{BTreeMap, VecDeque};

use crate::ir::{Instr, InstrId, LocId, Program, ThreadId, ThreadKind, Value};
use crate::model::EventKind;
use crate::outcome::Trace;

use super::feasible::resets;

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
#[derive(Debug)]
struct Replay<'p> {
    program: &'p Program,
    next_position: BTreeMap<LocId, Position>,
    /// Per (thread, location): buffered stores (store number, event index).
    buffers: BTreeMap<(ThreadId, LocId), VecDeque<(usize, usize)>>,
    /// Per (thread, location): PSLO's store history `S[p][a]`, oldest
    /// first, adjacent equal values merged into their newest write; absent
    /// while the thread is not running (the model's deviation 2).
    histories: BTreeMap<(ThreadId, LocId), Vec<WriteRef>>,
    memory: BTreeMap<LocId, WriteRef>,
    /// Per store number: its position once committed.
    committed: Vec<Position>,
    /// Loads reading a pending store: (event index, store number).
    forwarded: Vec<(usize, usize)>,
    /// Reads the mirror could not place as the trace says (0 for a trace
    /// of the program under sc, tso, pso or pslo).
    guesses: usize,
}

impl<'p> Replay<'p> {
    /// Every top-level thread starts with `S[p][a] = [init(a)]`; forked
    /// threads get theirs at the fork.
    fn new(program: &'p Program) -> Self {
        let mut r = Replay {
            program,
            next_position: BTreeMap::new(),
            buffers: BTreeMap::new(),
            histories: BTreeMap::new(),
            memory: BTreeMap::new(),
            committed: Vec::new(),
            forwarded: Vec::new(),
            guesses: 0,
        };
        for (t, code) in program.threads.iter().enumerate() {
            if code.kind == ThreadKind::TopLevel {
                r.reset(ThreadId::new(t));
            }
        }
        r
    }

    fn memory(&self, loc: LocId) -> WriteRef {
        self.memory.get(&loc).copied().unwrap_or_else(|| {
            let init = self
                .program
                .locations
                .get(loc.index())
                .map_or(0, |l| l.init);
            WriteRef::Committed(0, init)
        })
    }

    /// `S[p][a] = [m[a]]` for every `a` (`ll`, `sl` and `full` barriers,
    /// fork and join; a forked child's start).
    fn reset(&mut self, thread: ThreadId) {
        for a in 0..self.program.locations.len() {
            let loc = LocId::new(a);
            let m = self.memory(loc);
            self.histories.insert((thread, loc), vec![m]);
        }
    }

    /// `w` is now memory's write of `loc`, made so by `thread` (the model's
    /// `publish`): its own live history becomes `[w]`, and `w` is appended
    /// to every other live history of `loc`, merged with an equal newest
    /// value (the entry then holds `w`, the newest write of the run).
    fn publish(&mut self, thread: ThreadId, loc: LocId, w: WriteRef) {
        self.memory.insert(loc, w);
        for ((t, l), h) in self.histories.iter_mut() {
            if *l != loc {
                continue;
            }
            if *t == thread {
                *h = vec![w];
            } else {
                match h.last_mut() {
                    Some(last) if last.value() == w.value() => *last = w,
                    _ => h.push(w),
                }
            }
        }
    }

    /// Makes a write of `thread` with `value` reach memory, RELAXER's
    /// `store^c`: a fresh position, the histories as PSLO keeps them.
    fn commit(&mut self, thread: ThreadId, loc: LocId, value: Value) -> Position {
        let next = self.next_position.entry(loc).or_insert(1);
        let pos = *next;
        *next += 1;
        self.publish(thread, loc, WriteRef::Committed(pos, value));
        pos
    }

    /// The write a load of `thread` reading `value` read: its newest
    /// buffered store, else the history entry `older` places back from the
    /// newest, whose older entries the load drops (`loadPSLO`).
    fn read(
        &mut self,
        thread: ThreadId,
        loc: LocId,
        value: Value,
        older: u32,
        stores: &[Value],
    ) -> WriteRef {
        if let Some(&(n, _)) = self.buffers.get(&(thread, loc)).and_then(|b| b.back()) {
            let w = WriteRef::Pending(n, stores.get(n).copied().unwrap_or(value));
            if w.value() != value || older != 0 {
                self.guesses += 1;
            }
            return w;
        }
        let memory = self.memory(loc);
        let Some(history) = self.histories.get_mut(&(thread, loc)) else {
            // A thread that is not running does not load.
            self.guesses += 1;
            return memory;
        };
        let named = (history.len())
            .checked_sub(1 + older as usize)
            .filter(|&i| history[i].value() == value);
        let i = match named {
            Some(i) => i,
            None => {
                // Not a read this model made: the newest entry with the
                // value, else memory.
                self.guesses += 1;
                match history.iter().rposition(|w| w.value() == value) {
                    Some(i) => i,
                    None => return memory,
                }
            }
        };
        history.drain(..i);
        history[0]
    }

    /// The write an RMW or CAS read: memory (`CASPSLO` and its
    /// counterparts read `m[a]`, with the thread's buffer of `a` empty).
    fn read_memory(&mut self, thread: ThreadId, loc: LocId, value: Value) -> WriteRef {
        let buffered = self
            .buffers
            .get(&(thread, loc))
            .is_some_and(|b| !b.is_empty());
        let m = self.memory(loc);
        if buffered || m.value() != value {
            self.guesses += 1;
        }
        m
    }

    /// A step without a memory access of Definition 1 (`Sync`): the
    /// history resets of PSLO (book: model-pslo.md, Rules (RELAXER Fig. 6)).
    fn sync(&mut self, thread: ThreadId, instr: InstrId) {
        let Some(ins) = self
            .program
            .threads
            .get(thread.index())
            .and_then(|t| t.code.get(instr.index()))
        else {
            return;
        };
        match ins.instr {
            Instr::Fence { kind } if resets(kind) => self.reset(thread),
            Instr::Join { .. } => self.reset(thread),
            Instr::Fork { child, .. } => {
                self.reset(thread);
                self.reset(child);
            }
            Instr::End => self.histories.retain(|(t, _), _| *t != thread),
            _ => {}
        }
    }
}

/// Lifts `trace` to its events in trace order. `buffered`: stores reach
/// memory at their `Commit` step (TSO, PSO, PSLO), not at their `Write`
/// step (SC).
pub fn lift(program: &Program, trace: &Trace, buffered: bool) -> Vec<LiftedEvent> {
    lift_exact(program, trace, buffered).0
}

/// [`lift`], and whether every read was placed where the trace says the
/// model read it (false when the replay had to guess: a trace of another
/// program or model).
pub fn lift_exact(program: &Program, trace: &Trace, buffered: bool) -> (Vec<LiftedEvent>, bool) {
    let mut r = Replay::new(program);
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
            (
                EventKind::Read {
                    loc, value, older, ..
                },
                Some(instr),
            ) => {
                let w = r.read(step.thread, *loc, *value, *older, &store_values);
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
                let w = r.read_memory(step.thread, *loc, *read);
                match wrote {
                    Some(v) => {
                        let p = r.commit(step.thread, *loc, *v);
                        push(instr, *loc, Access::Store, p, &mut events);
                    }
                    None => {
                        // A failed CAS resets the thread's history of
                        // the location to `[m[a]]` (`CASPSLO`).
                        r.publish(step.thread, *loc, w);
                        let e = push(instr, *loc, Access::Load, 0, &mut events);
                        match w {
                            WriteRef::Committed(p, _) => events[e].position = p,
                            WriteRef::Pending(n, _) => r.forwarded.push((e, n)),
                        }
                    }
                }
            }
            (EventKind::Write { loc, value, .. }, Some(instr)) => {
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
                    let p = r.commit(step.thread, *loc, *value);
                    r.committed[n] = p;
                    push(instr, *loc, Access::Store, p, &mut events);
                }
            }
            (EventKind::Commit { thread, loc, value }, _) => {
                let popped = r
                    .buffers
                    .get_mut(&(*thread, *loc))
                    .and_then(|b| b.pop_front());
                let p = r.commit(*thread, *loc, *value);
                if let Some((n, e)) = popped {
                    r.committed[n] = p;
                    events[e].position = p;
                }
            }
            (EventKind::Sync, Some(instr)) => r.sync(step.thread, instr),
            _ => {}
        }
    }
    for (e, n) in std::mem::take(&mut r.forwarded) {
        events[e].position = r.committed.get(n).copied().unwrap_or(UNCOMMITTED);
    }
    (events, r.guesses == 0)
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
