//! An explored execution as MCR reasons about it (the trace `τ` of MCR
//! Sec. 2.1): each thread's operations in program order with the values
//! its reads returned, how each thread's part ended, the reads in the order
//! they happened, and the values written to each location.

use crate::ir::{InstrId, LocId, ThreadId, Value};
use crate::model::{EventKind, MemOp, MemoryModel, Site};

use super::super::interp::{Ended, FINISHED, NOT_STARTED};
use super::world::{Mv, State, StepRec, World};

/// One operation of a thread.
#[derive(Clone, Debug)]
pub(crate) struct OpRec {
    pub site: Site,
    pub op: MemOp,
    /// What a load, RMW or CAS returned.
    pub read: Option<Value>,
}

/// A thread that stopped: a failure or a discard.
#[derive(Clone, Debug)]
pub(crate) struct Stop {
    pub thread: ThreadId,
    pub ended: Ended,
    /// The instruction where it stopped.
    pub at: InstrId,
    /// The operation whose move stopped it (`(thread, index among that
    /// thread's operations)`): its own last one, or for a forked thread
    /// stopped by its first local steps, its parent's fork. `None` when it
    /// failed before an operation reached memory (a division by zero in an
    /// operand, a bad join handle): it stops when it is next scheduled.
    pub cause: Option<(usize, usize)>,
}

/// A read of the execution: `(thread, position among its reads)`, with
/// its location and value. The observer's reads have `thread == threads`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ReadAt {
    pub thread: usize,
    pub position: usize,
    /// The operation's index in the thread's list (observer: the position).
    pub op: usize,
    pub loc: LocId,
    pub value: Value,
}

/// An explored execution (module docs).
#[derive(Clone, Debug)]
pub(crate) struct Execution<S> {
    /// Every move, in order.
    pub path: Vec<StepRec>,
    /// The state where no move was left.
    pub end: State<S>,
    pub ops: Vec<Vec<OpRec>>,
    pub stops: Vec<Stop>,
    /// Reads in the order they happened, then the observer's.
    pub reads: Vec<ReadAt>,
    /// Per thread, then the observer: the values its reads returned.
    pub values: Vec<Vec<Value>>,
    /// Per location: every value written to it, its initial value
    /// included, sorted and without duplicates.
    pub written: Vec<Vec<Value>>,
    /// Did every thread finish (no stop, no thread left waiting)?
    pub finished: bool,
}

impl<S: Clone> Execution<S> {
    /// The execution `path` leads to, ending in `end`.
    pub(crate) fn new<M: MemoryModel<State = S>>(
        world: &World<'_, M>,
        path: Vec<StepRec>,
        end: State<S>,
    ) -> Self {
        let n = world.threads;
        let mut ops: Vec<Vec<OpRec>> = vec![Vec::new(); n];
        let mut stops = Vec::new();
        let mut reads = Vec::new();
        let mut values: Vec<Vec<Value>> = vec![Vec::new(); n + 1];
        let mut written: Vec<Vec<Value>> = world
            .program
            .locations
            .iter()
            .map(|l| vec![l.init])
            .collect();
        for rec in &path {
            let Mv::Thread(t) = rec.mv else { continue };
            let ti = t.index();
            if let Some((site, op)) = rec.op {
                let index = ops[ti].len();
                ops[ti].push(OpRec {
                    site,
                    op,
                    read: rec.read,
                });
                if let Some(v) = rec.read {
                    let loc = op_loc(&op).expect("a read has a location");
                    reads.push(ReadAt {
                        thread: ti,
                        position: values[ti].len(),
                        op: index,
                        loc,
                        value: v,
                    });
                    values[ti].push(v);
                }
                match &rec.event {
                    Some(EventKind::Write { loc, value, .. }) => written[loc.index()].push(*value),
                    Some(EventKind::Update {
                        loc,
                        wrote: Some(v),
                        ..
                    }) => written[loc.index()].push(*v),
                    _ => {}
                }
                if let Some((e, at)) = &rec.end {
                    stops.push(Stop {
                        thread: t,
                        ended: e.clone(),
                        at: *at,
                        cause: Some((ti, index)),
                    });
                }
                if let Some((c, e, at)) = &rec.child_end {
                    stops.push(Stop {
                        thread: *c,
                        ended: e.clone(),
                        at: *at,
                        cause: Some((ti, index)),
                    });
                }
            } else if let Some((e, at)) = &rec.end {
                stops.push(Stop {
                    thread: t,
                    ended: e.clone(),
                    at: *at,
                    cause: None,
                });
            }
        }
        let finished = end
            .comps
            .iter()
            .all(|c| c[0] == FINISHED || c[0] == NOT_STARTED)
            && world.model.settled(&end.mem);
        if finished {
            for (i, &l) in world.observed.iter().enumerate() {
                let v = world.model.final_value(&end.mem, l);
                reads.push(ReadAt {
                    thread: n,
                    position: i,
                    op: i,
                    loc: l,
                    value: v,
                });
                values[n].push(v);
            }
        }
        for w in &mut written {
            w.sort_unstable();
            w.dedup();
        }
        Execution {
            path,
            end,
            ops,
            stops,
            reads,
            values,
            written,
            finished,
        }
    }

    /// The moves of the execution.
    pub(crate) fn moves(&self) -> Vec<Mv> {
        self.path.iter().map(|r| r.mv).collect()
    }
}

/// The location an operation accesses.
pub(crate) fn op_loc(op: &MemOp) -> Option<LocId> {
    match *op {
        MemOp::Load { loc, .. }
        | MemOp::Store { loc, .. }
        | MemOp::Rmw { loc, .. }
        | MemOp::Cas { loc, .. } => Some(loc),
        _ => None,
    }
}
