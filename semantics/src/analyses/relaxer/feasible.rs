//! Ground truth for Phase II: does *any* execution under a model create a
//! predicted cycle, and does any such execution fail an assertion?
//!
//! Method: exhaustive exploration ([`crate::operational::explore`]) of the
//! product of the program with a small per-cycle automaton, built as a
//! model wrapper ([`Tracked`]): the memory state becomes (the inner model's
//! state, the automaton's state), and every step of the inner model is
//! passed through unchanged while the automaton watches its events.
//!
//! The cycle `l1, ..., l2k` is created by an execution when it has events
//! `e1, ..., e2k` with `l(ej) = lj`, `e2q-1 ->p e2q` (same thread, two
//! events, the first earlier) and `e2q ->c e2q+1 (mod 2k)` (RELAXER
//! Sec. 4.3, conditions (1)-(3)). The automaton *guesses* the events: an
//! access of a statement of the cycle may be marked as the element it
//! matches, the second element of a pair only after the first. Every
//! choice is a separate successor, so some path guesses right whenever an
//! execution creates the cycle: the search is exact, not a heuristic.
//!
//! Conflict order compares commit indices `c(e)` (see [`super::lift`]).
//! Only their order among the writes the marked events are or read
//! matters, and the automaton keeps just that: per location of the cycle,
//! the number `m` of *marked* writes (a marked store, or the write a
//! marked load reads) committed so far. A marked write committing gets
//! position `2m + 1`, an unmarked one `2m`; a load reads the position of
//! the write it reads (its own thread's newest buffered store, pending
//! until that store commits; PSLO: an entry of the store history, which
//! the automaton mirrors with positions; otherwise memory). Positions are
//! bounded by `4k + 1`, so the product stays finite wherever the program's
//! state space is. An edge `X ->c Y` holds when `pos(X) < pos(Y)` (`Y` a
//! store) or `pos(X) <= pos(Y)` (`X` a store, `Y` a load). A store still
//! buffered counts as later than every placed write (it can only commit
//! after them; a failed assertion ends the run with it still buffered), as
//! [`super::created`] does for traces; edges that hold then keep holding
//! when it commits. Once every element is marked and every edge holds, the
//! automaton *accepts* (and forgets its bookkeeping); a wrong guess is
//! dropped as soon as an edge can no longer hold.
//!
//! Assertion failures are attributed through the probe of [`super::probe`]:
//! the wrapper tells each thread whether the cycle was complete after its
//! last memory step.

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::ir::{FenceKind, LocId, Program, ThreadId, ThreadKind, Value};
use crate::model::{Event, EventKind, MemOp, MemoryModel, Site, Step};
use crate::operational::{explore, program_for, ExploreOptions};
use crate::outcome::{BoundHit, FailureKind};
use crate::registry::{Buffering, OpModel};

use super::lift::Access;
use super::predict::{PredictedCycle, Statement};
use super::probe::probe_asserts;

/// Where the write of a marked element stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum WPos {
    /// Committed at this position.
    Known(u8),
    /// A buffered store not yet committed.
    Pending,
}

/// The automaton's bookkeeping while the cycle is open.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Shadow {
    /// Per element: unmarked, or where its write stands.
    marks: Vec<Option<WPos>>,
    /// Per (thread, tracked location): the buffered stores, oldest first,
    /// each with the elements whose write it is (bit mask).
    buffers: BTreeMap<(ThreadId, LocId), VecDeque<u32>>,
    /// Per tracked location: marked writes committed, position of memory.
    committed: BTreeMap<LocId, (u8, u8)>,
    /// PSLO: per (thread, tracked location), the store history as (value,
    /// position), oldest first; absent while the thread is not running.
    histories: BTreeMap<(ThreadId, LocId), Vec<(Value, u8)>>,
}

/// The automaton's state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Progress {
    Open(Box<Shadow>),
    Accepted,
    /// Every remaining guess failed: nothing can be created on this path.
    Dead,
}

/// The tracking wrapper's state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct TrackedState<S> {
    inner: S,
    progress: Progress,
    /// Bit `t`: the cycle was complete after thread `t`'s last memory step.
    seen: u64,
}

/// A memory model that runs `inner` and watches for one cycle.
#[derive(Debug)]
pub(crate) struct Tracked<'a, M> {
    inner: &'a M,
    cycle: &'a PredictedCycle,
    /// Per thread, per instruction: its line.
    lines: Vec<Vec<u32>>,
    locs: Vec<LocId>,
    probe: LocId,
    buffered: bool,
    histories: bool,
    /// Per thread: top level (started with the init writes).
    toplevel: Vec<bool>,
    accepted: AtomicBool,
    approximate: AtomicBool,
}

impl<'a, M: MemoryModel> Tracked<'a, M> {
    fn new(inner: &'a M, cycle: &'a PredictedCycle, program: &Program, probe: LocId) -> Self {
        let mut locs: Vec<LocId> = cycle.elements.iter().map(|s| s.loc).collect();
        locs.sort();
        locs.dedup();
        Tracked {
            inner,
            cycle,
            lines: program
                .threads
                .iter()
                .map(|t| t.code.iter().map(|i| i.line).collect())
                .collect(),
            locs,
            probe,
            buffered: inner.model().row().buffering != Buffering::None,
            histories: inner.model().row().buffering == Buffering::Histories,
            toplevel: program
                .threads
                .iter()
                .map(|t| t.kind == ThreadKind::TopLevel)
                .collect(),
            accepted: AtomicBool::new(false),
            // The mirror knows the hardware models only (book: reference.md, Operational rules).
            approximate: AtomicBool::new(inner.model().row().target.hardware().is_none()),
        }
    }

    fn tracked(&self, loc: LocId) -> bool {
        self.locs.binary_search(&loc).is_ok()
    }

    fn line(&self, site: Site) -> u32 {
        self.lines
            .get(site.thread.index())
            .and_then(|t| t.get(site.instr.index()))
            .copied()
            .unwrap_or(0)
    }

    /// The element sets an event of `stmt` may be marked as, given the
    /// marks so far (the empty set first). The two elements of a pair are
    /// distinct events, the second marked after the first.
    fn mark_options(&self, marks: &[Option<WPos>], stmt: &Statement) -> Vec<u32> {
        let el = &self.cycle.elements;
        let mut out = vec![0u32];
        for q in 0..el.len() / 2 {
            let (a, b) = (2 * q, 2 * q + 1);
            if marks[a].is_none() && el[a] == *stmt {
                out.push(1 << a);
            }
            if marks[a].is_some() && marks[b].is_none() && el[b] == *stmt {
                out.push(1 << b);
            }
        }
        out
    }

    /// Checks the edges: `Dead` if one can never hold, `Accepted` if the
    /// cycle is complete, else unchanged. A pending store can only commit
    /// after every write placed so far, so it counts as infinitely late:
    /// an edge into it holds already, an edge out of it never will, and an
    /// edge between two pending writes waits.
    fn settle(&self, shadow: Box<Shadow>) -> Progress {
        let el = &self.cycle.elements;
        let n = el.len();
        let mut complete = shadow.marks.iter().all(Option::is_some);
        for q in 0..n / 2 {
            let (x, y) = (2 * q + 1, (2 * q + 2) % n);
            let late = |m: Option<WPos>| match m {
                Some(WPos::Known(p)) => Some(u16::from(p)),
                Some(WPos::Pending) => Some(u16::MAX),
                None => None,
            };
            let (Some(px), Some(py)) = (late(shadow.marks[x]), late(shadow.marks[y])) else {
                complete = false;
                continue;
            };
            let holds = match (el[x].access, el[y].access) {
                (_, Access::Store) => px < py,
                (Access::Store, Access::Load) => px <= py,
                (Access::Load, Access::Load) => false,
            };
            if !holds {
                if px == u16::MAX && py == u16::MAX {
                    complete = false;
                } else {
                    return Progress::Dead;
                }
            }
        }
        if complete {
            self.accepted.store(true, Ordering::Relaxed);
            Progress::Accepted
        } else {
            Progress::Open(shadow)
        }
    }

    /// A write reaches memory: its position, and the history updates.
    fn commit(&self, sh: &mut Shadow, thread: ThreadId, loc: LocId, value: Value, bits: u32) {
        let (m, pos) = sh.committed.entry(loc).or_insert((0, 0));
        *pos = if bits != 0 { 2 * *m + 1 } else { 2 * *m };
        if bits != 0 {
            *m += 1;
        }
        let p = *pos;
        for (j, mark) in sh.marks.iter_mut().enumerate() {
            if bits & (1 << j) != 0 {
                *mark = Some(WPos::Known(p));
            }
        }
        if self.histories {
            for ((t, l), h) in sh.histories.iter_mut() {
                if *l != loc {
                    continue;
                }
                if *t == thread {
                    *h = vec![(value, p)];
                } else if h.last() != Some(&(value, p)) {
                    h.push((value, p));
                }
            }
        }
    }

    fn memory(&self, sh: &Shadow, loc: LocId) -> u8 {
        sh.committed.get(&loc).map_or(0, |c| c.1)
    }

    /// PSLO: `S[p][a] = [m[a]]` for every tracked location.
    fn reset_histories(&self, sh: &mut Shadow, thread: ThreadId, mem: &dyn Fn(LocId) -> Value) {
        if !self.histories {
            return;
        }
        for &loc in &self.locs {
            let p = self.memory(sh, loc);
            sh.histories.insert((thread, loc), vec![(mem(loc), p)]);
        }
    }

    /// The successors of `shadow` for one inner step of `site`.
    fn on_step(
        &self,
        sh: &Shadow,
        site: Site,
        op: &MemOp,
        step: &Step<M::State>,
        index: (usize, usize),
        out: &mut Vec<Progress>,
    ) {
        let t = site.thread;
        let mem = |loc: LocId| self.inner.final_value(&step.state, loc);
        let stmt = |loc: LocId, access: Access| Statement {
            thread: t,
            line: self.line(site),
            loc,
            access,
        };
        match &step.event.kind {
            EventKind::Write { loc, .. } if self.tracked(*loc) => {
                for bits in self.mark_options(&sh.marks, &stmt(*loc, Access::Store)) {
                    let mut s = sh.clone();
                    mark(&mut s, bits, WPos::Pending);
                    if self.buffered {
                        s.buffers.entry((t, *loc)).or_default().push_back(bits);
                    } else {
                        self.commit(&mut s, t, *loc, mem(*loc), bits);
                    }
                    out.push(self.settle(Box::new(s)));
                }
            }
            EventKind::Update {
                loc,
                wrote: Some(v),
                ..
            } if self.tracked(*loc) => {
                for bits in self.mark_options(&sh.marks, &stmt(*loc, Access::Store)) {
                    let mut s = sh.clone();
                    self.commit(&mut s, t, *loc, *v, bits);
                    out.push(self.settle(Box::new(s)));
                }
            }
            EventKind::Read { loc, value, .. }
            | EventKind::Update {
                loc,
                read: value,
                wrote: None,
                ..
            } if self.tracked(*loc) => {
                let cas = matches!(step.event.kind, EventKind::Update { .. });
                for (s, w) in self.reads(sh, t, *loc, *value, cas, index) {
                    for bits in self.mark_options(&s.marks, &stmt(*loc, Access::Load)) {
                        let mut s = s.clone();
                        match w {
                            WPos::Pending => {
                                mark(&mut s, bits, WPos::Pending);
                                if let Some(b) =
                                    s.buffers.get_mut(&(t, *loc)).and_then(|b| b.back_mut())
                                {
                                    *b |= bits;
                                }
                            }
                            known => mark(&mut s, bits, known),
                        }
                        out.push(self.settle(Box::new(s)));
                    }
                }
            }
            _ => {
                let mut s = sh.clone();
                if self.histories {
                    match op {
                        MemOp::Fence { kind } if resets(*kind) => {
                            self.reset_histories(&mut s, t, &mem)
                        }
                        MemOp::Join { .. } => self.reset_histories(&mut s, t, &mem),
                        MemOp::Fork { child } => {
                            self.reset_histories(&mut s, t, &mem);
                            self.reset_histories(&mut s, *child, &mem);
                        }
                        MemOp::End => s.histories.retain(|(p, _), _| *p != t),
                        _ => {}
                    }
                }
                out.push(Progress::Open(Box::new(s)));
            }
        }
    }

    /// The writes a load (or failed CAS) of `t` reading `value` may have
    /// read, each with the shadow after the read. `index`: the position of
    /// this result among the inner model's results, and their number.
    fn reads(
        &self,
        sh: &Shadow,
        t: ThreadId,
        loc: LocId,
        value: Value,
        cas: bool,
        index: (usize, usize),
    ) -> Vec<(Shadow, WPos)> {
        if !cas && sh.buffers.get(&(t, loc)).is_some_and(|b| !b.is_empty()) {
            return vec![(sh.clone(), WPos::Pending)];
        }
        let memory = self.memory(sh, loc);
        if !self.histories {
            return vec![(sh.clone(), WPos::Known(memory))];
        }
        let Some(history) = sh.histories.get(&(t, loc)) else {
            return vec![(sh.clone(), WPos::Known(memory))];
        };
        if cas {
            // RMW: S[p][a] = [m[a]] (m[a] is unchanged by a failed CAS).
            let mut s = sh.clone();
            s.histories.insert((t, loc), vec![(value, memory)]);
            return vec![(s, WPos::Known(memory))];
        }
        // The inner model offers one result per run of equal values,
        // oldest first: result `i` reads run `i`, any entry of it.
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for (i, (v, _)) in history.iter().enumerate() {
            match runs.last_mut() {
                Some((start, end)) if history[*start].0 == *v => *end = i + 1,
                _ => runs.push((i, i + 1)),
            }
        }
        let (range, exact) = match runs.get(index.0) {
            Some(&r) if runs.len() == index.1 && history[r.0].0 == value => (r, true),
            _ => {
                let newest = history
                    .iter()
                    .rposition(|(v, _)| *v == value)
                    .unwrap_or(history.len().saturating_sub(1));
                ((newest, newest + 1), false)
            }
        };
        if !exact {
            self.approximate.store(true, Ordering::Relaxed);
        }
        (range.0..range.1.min(history.len()))
            .map(|i| {
                let mut s = sh.clone();
                let h = s.histories.entry((t, loc)).or_default();
                h.drain(..i);
                let p = h.first().map_or(memory, |e| e.1);
                (s, WPos::Known(p))
            })
            .collect()
    }

    fn with_seen(&self, seen: u64, thread: ThreadId, progress: &Progress) -> u64 {
        let bit = 1u64.checked_shl(thread.0).unwrap_or(0);
        match progress {
            Progress::Accepted => seen | bit,
            _ => seen & !bit,
        }
    }
}

/// Marks elements `bits` with write position `w`.
fn mark(sh: &mut Shadow, bits: u32, w: WPos) {
    for (j, m) in sh.marks.iter_mut().enumerate() {
        if bits & (1 << j) != 0 {
            *m = Some(w);
        }
    }
}

/// Does a PSLO barrier of this kind reset the store histories?
/// (The resets of PSLO's rules, book: model-pslo.md, Rules (RELAXER Fig. 6): `ll`, `sl`, `full`, and the C11
/// fences the PSO mapping turns into them.)
pub(super) fn resets(kind: FenceKind) -> bool {
    use crate::ir::{C11Fence, HwFence};
    matches!(
        kind,
        FenceKind::Hw(HwFence::LL | HwFence::SL | HwFence::Full)
            | FenceKind::C11(C11Fence::Acq | C11Fence::AcqRel | C11Fence::Sc)
    )
}

impl<M: MemoryModel> MemoryModel for Tracked<'_, M> {
    type State = TrackedState<M::State>;
    type Consing = M::Consing;

    fn hash_cons(&self, state: &mut Self::State, tables: &M::Consing) {
        self.inner.hash_cons(&mut state.inner, tables);
    }

    fn model(&self) -> OpModel {
        self.inner.model()
    }

    fn target(&self) -> Option<crate::mapping::Target> {
        self.inner.target()
    }

    fn initial(&self, program: &Program) -> Self::State {
        let mut histories = BTreeMap::new();
        if self.histories {
            for (t, top) in self.toplevel.iter().enumerate() {
                if *top {
                    for &loc in &self.locs {
                        let init = program.locations.get(loc.index()).map_or(0, |l| l.init);
                        histories.insert((ThreadId::new(t), loc), vec![(init, 0u8)]);
                    }
                }
            }
        }
        TrackedState {
            inner: self.inner.initial(program),
            progress: Progress::Open(Box::new(Shadow {
                marks: vec![None; self.cycle.elements.len()],
                buffers: BTreeMap::new(),
                committed: BTreeMap::new(),
                histories,
            })),
            seen: 0,
        }
    }

    fn perform(
        &self,
        state: &Self::State,
        site: Site,
        op: MemOp,
        out: &mut Vec<Step<Self::State>>,
    ) {
        if let MemOp::Load { loc, .. } = op {
            if loc == self.probe {
                let v = Value::from(site.thread.0 < 64 && (state.seen >> site.thread.0) & 1 == 1);
                out.push(Step {
                    value: Some(v),
                    state: state.clone(),
                    event: Event::new(EventKind::Read {
                        loc,
                        value: v,
                        older: 0,
                    }),
                });
                return;
            }
        }
        let mut inner = Vec::new();
        self.inner.perform(&state.inner, site, op, &mut inner);
        let n = inner.len();
        let mut next = Vec::new();
        for (i, step) in inner.into_iter().enumerate() {
            next.clear();
            match &state.progress {
                Progress::Open(sh) => self.on_step(sh, site, &op, &step, (i, n), &mut next),
                done => next.push(done.clone()),
            }
            for progress in next.drain(..) {
                let seen = self.with_seen(state.seen, site.thread, &progress);
                out.push(Step {
                    value: step.value,
                    state: TrackedState {
                        inner: step.state.clone(),
                        progress,
                        seen,
                    },
                    event: step.event.clone(),
                });
            }
        }
    }

    fn internal(&self, state: &Self::State, out: &mut Vec<(Self::State, Event)>) {
        let mut inner = Vec::new();
        self.inner.internal(&state.inner, &mut inner);
        for (s, event) in inner {
            let progress = match (&state.progress, &event.kind) {
                (Progress::Open(sh), EventKind::Commit { thread, loc, value })
                    if self.tracked(*loc) =>
                {
                    let mut sh = sh.clone();
                    let bits = sh
                        .buffers
                        .get_mut(&(*thread, *loc))
                        .and_then(|b| b.pop_front())
                        .unwrap_or(0);
                    self.commit(&mut sh, *thread, *loc, *value, bits);
                    self.settle(sh)
                }
                (p, _) => p.clone(),
            };
            out.push((
                TrackedState {
                    inner: s,
                    progress,
                    seen: state.seen,
                },
                event,
            ));
        }
    }

    fn settled(&self, state: &Self::State) -> bool {
        self.inner.settled(&state.inner)
    }

    fn final_value(&self, state: &Self::State, loc: LocId) -> Value {
        self.inner.final_value(&state.inner, loc)
    }
}

/// The ground truth for one cycle under one model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GroundTruth {
    /// Some execution creates the cycle.
    pub feasible: bool,
    /// Some execution creates the cycle and then fails an assertion.
    pub buggy: bool,
    /// The exploration was not cut by a bound.
    pub complete: bool,
    /// The first bound that cut it short (`None` when complete): a cycle
    /// not found is then undecided, not infeasible.
    pub bound: Option<BoundHit>,
    /// The automaton mirrored the model exactly: false for models other
    /// than sc, tso, pso and pslo (whose loads it cannot place), or if the
    /// PSLO history mirror ever had to guess (it never should).
    pub exact: bool,
}

/// Decides by exhaustive exploration whether any execution of `program`
/// under `model` creates `cycle`, and whether any such execution fails an
/// assertion. `opts.mapping` compiles the program as the model would.
pub fn ground_truth<M: MemoryModel>(
    program: &Program,
    model: &M,
    cycle: &PredictedCycle,
    opts: &ExploreOptions,
) -> GroundTruth {
    let (probed, probe) = probe_asserts(program);
    let compiled = program_for(&probed, model, opts.mapping);
    let tracked = Tracked::new(model, cycle, &compiled, probe);
    // The wrapper has no target: `explore` runs `compiled` as it is.
    let table = explore(&compiled, &tracked, opts);
    GroundTruth {
        feasible: tracked.accepted.load(Ordering::Relaxed),
        buggy: table
            .failures
            .iter()
            .any(|f| matches!(f.kind, FailureKind::Assert { .. })),
        complete: table.complete(),
        bound: table.bounds.first().copied(),
        exact: !tracked.approximate.load(Ordering::Relaxed),
    }
}
