//! Test helpers for the `c11_*` tests: a tiny IR builder and a tiny
//! depth-first driver that runs a program under any `MemoryModel` and
//! collects its outcomes and races. The driver is a test helper, kept
//! independent of `operational::explore` so the model can be tested on its
//! own; it deduplicates full states, so spin loops terminate.

#![allow(dead_code)]

pub mod programs;

use std::collections::{BTreeMap, BTreeSet, HashSet};

use relaxlab_semantics::ir::{
    handle_of, thread_of_handle, Atomicity, BinOp, C11Fence, Expr, FenceKind, Instr, InstrId,
    Instruction, LocId, Location, Observable, Origin, Program, ReadOrd, RegId, RmwOp, RmwOrd, Span,
    ThreadCode, ThreadId, ThreadKind, Value, WriteOrd,
};
use relaxlab_semantics::model::{MemOp, MemoryModel, Race, Site, Step};

/// Builds a program by hand.
#[derive(Debug, Default)]
pub struct Builder {
    locs: Vec<Location>,
    threads: Vec<ThreadCode>,
    toplevel: usize,
}

impl Builder {
    pub fn new() -> Self {
        Builder::default()
    }

    /// An atomic location initialised to 0.
    pub fn atomic(&mut self, name: &str) -> LocId {
        self.loc(name, Atomicity::Atomic)
    }

    /// A non-atomic location initialised to 0.
    pub fn plain(&mut self, name: &str) -> LocId {
        self.loc(name, Atomicity::NonAtomic)
    }

    fn loc(&mut self, name: &str, atomicity: Atomicity) -> LocId {
        self.locs.push(Location {
            name: name.into(),
            init: 0,
            atomicity,
            span: Span::default(),
        });
        LocId::new(self.locs.len() - 1)
    }

    /// A top-level thread; `End` is appended. Top-level threads must be
    /// added before forked ones.
    pub fn thread(&mut self, regs: usize, code: Vec<Instr>) -> ThreadId {
        assert_eq!(self.toplevel, self.threads.len(), "top-level threads first");
        self.toplevel += 1;
        self.push(ThreadKind::TopLevel, regs, code)
    }

    /// A thread forked by `parent` at instruction `at`.
    pub fn forked(&mut self, parent: ThreadId, at: u32, regs: usize, code: Vec<Instr>) -> ThreadId {
        self.push(
            ThreadKind::Forked {
                parent,
                at: InstrId(at),
            },
            regs,
            code,
        )
    }

    fn push(&mut self, kind: ThreadKind, regs: usize, mut code: Vec<Instr>) -> ThreadId {
        code.push(Instr::End);
        let i = self.threads.len();
        self.threads.push(ThreadCode {
            name: format!("P{i}"),
            kind,
            regs: (0..regs).map(|r| format!("r{r}")).collect(),
            code: code
                .into_iter()
                .map(|instr| Instruction {
                    text: format!("{instr:?}"),
                    instr,
                    span: Span::default(),
                    line: 1,
                    origin: Origin::Source,
                })
                .collect(),
            span: Span::default(),
        });
        ThreadId::new(i)
    }

    pub fn build(self, observed: Vec<Observable>) -> Program {
        Program {
            name: "test".into(),
            doc: None,
            locations: self.locs,
            threads: self.threads,
            toplevel: self.toplevel,
            condition: None,
            filter: None,
            filter_only: Vec::new(),
            observed,
            expectations: Vec::new(),
            c: None,
            herd_reading: None,
            arrays: Vec::new(),
        }
    }
}

pub fn reg(t: u32, r: u32) -> Observable {
    Observable::Reg(ThreadId(t), RegId(r))
}

pub fn load(dst: u32, loc: LocId, ord: ReadOrd) -> Instr {
    Instr::Load {
        dst: RegId(dst),
        loc,
        ord,
    }
}

pub fn store(loc: LocId, val: Value, ord: WriteOrd) -> Instr {
    Instr::Store {
        loc,
        val: Expr::Const(val),
        ord,
    }
}

pub fn store_reg(loc: LocId, r: u32, ord: WriteOrd) -> Instr {
    Instr::Store {
        loc,
        val: Expr::Reg(RegId(r)),
        ord,
    }
}

pub fn rmw(dst: u32, loc: LocId, op: RmwOp, operand: Value, ord: RmwOrd) -> Instr {
    Instr::Rmw {
        dst: RegId(dst),
        loc,
        op,
        operand: Expr::Const(operand),
        ord,
    }
}

pub fn cas(
    dst: u32,
    loc: LocId,
    expected: Value,
    desired: Value,
    ord: RmwOrd,
    fail: ReadOrd,
) -> Instr {
    Instr::Cas {
        dst: RegId(dst),
        loc,
        expected: Expr::Const(expected),
        desired: Expr::Const(desired),
        ord,
        fail,
        weak: false,
        ok: None,
    }
}

/// `dst, ok = cas_weak(loc, expected, desired, ord, fail)`.
pub fn cas_weak(
    dst: u32,
    ok: u32,
    loc: LocId,
    expected: Value,
    desired: Value,
    ord: RmwOrd,
    fail: ReadOrd,
) -> Instr {
    let mut i = cas(dst, loc, expected, desired, ord, fail);
    if let Instr::Cas { weak, ok: flag, .. } = &mut i {
        (*weak, *flag) = (true, Some(RegId(ok)));
    }
    i
}

pub fn fence(kind: C11Fence) -> Instr {
    Instr::Fence {
        kind: FenceKind::C11(kind),
    }
}

/// `if (r != v) goto target`: jumps when register `r` differs from `v`.
pub fn unless_eq(r: u32, v: Value, target: u32) -> Instr {
    Instr::Branch {
        cond: Expr::Binary(
            BinOp::Eq,
            Box::new(Expr::Reg(RegId(r))),
            Box::new(Expr::Const(v)),
        ),
        target: InstrId(target),
    }
}

pub fn fork(dst: u32, child: ThreadId) -> Instr {
    Instr::Fork {
        dst: RegId(dst),
        child,
    }
}

pub fn join(handle: u32) -> Instr {
    Instr::Join {
        handle: RegId(handle),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Status {
    NotStarted,
    Running,
    Finished,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Thread {
    pc: usize,
    regs: Vec<Value>,
    status: Status,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct State<S> {
    threads: Vec<Thread>,
    mem: S,
    racy: bool,
}

/// What the driver found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Explored {
    /// Each outcome (the observed values) with whether every execution
    /// reaching it raced.
    pub outcomes: BTreeMap<Vec<Value>, bool>,
    /// Every distinct race.
    pub races: BTreeSet<Race>,
    /// Executions that failed an assert or deadlocked.
    pub failures: usize,
    /// Distinct states visited.
    pub states: usize,
}

impl Explored {
    /// Is `values` a reachable outcome?
    pub fn has(&self, values: &[Value]) -> bool {
        self.outcomes.contains_key(values)
    }
    /// The outcomes, without the racy marks.
    pub fn set(&self) -> BTreeSet<Vec<Value>> {
        self.outcomes.keys().cloned().collect()
    }
}

/// Runs the local instructions of thread `t` eagerly. `Err(true)`: an
/// assertion failed; `Err(false)`: an assume failed.
fn run_locals(p: &Program, th: &mut Thread, t: usize) -> Result<(), bool> {
    let code = &p.threads[t].code;
    for _ in 0..=code.len() * 4 {
        match &code[th.pc].instr {
            Instr::Assign { dst, val } => {
                th.regs[dst.index()] = val.eval(&th.regs).map_err(|_| true)?;
                th.pc += 1;
            }
            Instr::Branch { cond, target } => {
                if cond.eval(&th.regs).map_err(|_| true)? == 0 {
                    th.pc = target.index();
                } else {
                    th.pc += 1;
                }
            }
            Instr::Jump { target } => th.pc = target.index(),
            Instr::Assert { cond } => {
                if cond.eval(&th.regs).map_err(|_| true)? == 0 {
                    return Err(true);
                }
                th.pc += 1;
            }
            Instr::Assume { cond } => {
                if cond.eval(&th.regs).map_err(|_| true)? == 0 {
                    return Err(false);
                }
                th.pc += 1;
            }
            _ => return Ok(()),
        }
    }
    // A purely local loop: treat as an assume failure (no outcome).
    Err(false)
}

/// Every execution of `p` under `m`, depth-first with full-state dedup.
pub fn explore<M: MemoryModel>(p: &Program, m: &M) -> Explored {
    let mut res = Explored::default();
    let mut threads: Vec<Thread> = p
        .threads
        .iter()
        .enumerate()
        .map(|(i, tc)| Thread {
            pc: 0,
            regs: vec![0; tc.regs.len()],
            status: if i < p.toplevel {
                Status::Running
            } else {
                Status::NotStarted
            },
        })
        .collect();
    for (t, th) in threads.iter_mut().enumerate().take(p.toplevel) {
        match run_locals(p, th, t) {
            Ok(()) => {}
            Err(failed) => {
                res.failures += usize::from(failed);
                return res;
            }
        }
    }
    let start = State {
        threads,
        mem: m.initial(p),
        racy: false,
    };
    let mut seen = HashSet::new();
    let mut stack = vec![start];
    let mut steps: Vec<Step<M::State>> = Vec::new();
    while let Some(s) = stack.pop() {
        if !seen.insert(s.clone()) {
            continue;
        }
        res.states += 1;
        if s.threads.iter().all(|th| th.status != Status::Running) {
            let values: Vec<Value> = p
                .observed
                .iter()
                .map(|o| match *o {
                    Observable::Reg(t, r) => s.threads[t.index()].regs[r.index()],
                    Observable::Loc(l) => m.final_value(&s.mem, l),
                })
                .collect();
            let racy = res.outcomes.entry(values).or_insert(s.racy);
            *racy &= s.racy;
            continue;
        }
        let mut enabled = false;
        for t in 0..s.threads.len() {
            let th = &s.threads[t];
            if th.status != Status::Running {
                continue;
            }
            let ins = &p.threads[t].code[th.pc].instr;
            let site = Site {
                thread: ThreadId::new(t),
                instr: InstrId::new(th.pc),
            };
            let regs = &th.regs;
            let ev = |e: &Expr| e.eval(regs).unwrap_or(0);
            let (op, dst) = match ins {
                Instr::Load { dst, loc, ord } => (
                    MemOp::Load {
                        loc: *loc,
                        ord: *ord,
                    },
                    Some(*dst),
                ),
                Instr::Store { loc, val, ord } => (
                    MemOp::Store {
                        loc: *loc,
                        val: ev(val),
                        ord: *ord,
                    },
                    None,
                ),
                Instr::Rmw {
                    dst,
                    loc,
                    op,
                    operand,
                    ord,
                } => (
                    MemOp::Rmw {
                        loc: *loc,
                        op: *op,
                        operand: ev(operand),
                        ord: *ord,
                    },
                    Some(*dst),
                ),
                Instr::Cas {
                    dst,
                    loc,
                    expected,
                    desired,
                    ord,
                    fail,
                    weak,
                    ..
                } => (
                    MemOp::Cas {
                        loc: *loc,
                        expected: ev(expected),
                        desired: ev(desired),
                        ord: *ord,
                        fail: *fail,
                        weak: *weak,
                    },
                    Some(*dst),
                ),
                Instr::Fence { kind } => (MemOp::Fence { kind: *kind }, None),
                Instr::Fork { dst, child } => (MemOp::Fork { child: *child }, Some(*dst)),
                Instr::Join { handle } => {
                    let Some(child) = thread_of_handle(regs[handle.index()]) else {
                        res.failures += 1;
                        continue;
                    };
                    if s.threads[child.index()].status != Status::Finished {
                        continue;
                    }
                    (MemOp::Join { child }, None)
                }
                Instr::End => (MemOp::End, None),
                _ => unreachable!("locals run eagerly"),
            };
            steps.clear();
            m.perform(&s.mem, site, op, &mut steps);
            for st in steps.drain(..) {
                enabled = true;
                let mut next = State {
                    threads: s.threads.clone(),
                    mem: st.state,
                    racy: s.racy || !st.event.races.is_empty(),
                };
                res.races.extend(st.event.races.iter().copied());
                let me = &mut next.threads[t];
                me.pc += 1;
                match op {
                    MemOp::End => me.status = Status::Finished,
                    MemOp::Fork { child } => {
                        me.regs[dst.expect("fork dst").index()] = handle_of(child);
                        let c = &mut next.threads[child.index()];
                        c.status = Status::Running;
                        c.pc = 0;
                        if let Err(failed) = run_locals(p, c, child.index()) {
                            res.failures += usize::from(failed);
                            continue;
                        }
                    }
                    _ => {
                        if let (Some(d), Some(v)) = (dst, st.value) {
                            me.regs[d.index()] = v;
                        }
                        // A CAS's success flag: did it write?
                        if let Instr::Cas { ok: Some(ok), .. } = ins {
                            let wrote = matches!(
                                st.event.kind,
                                relaxlab_semantics::model::EventKind::Update { wrote: Some(_), .. }
                            );
                            me.regs[ok.index()] = Value::from(wrote);
                        }
                    }
                }
                if next.threads[t].status == Status::Running {
                    if let Err(failed) = run_locals(p, &mut next.threads[t], t) {
                        res.failures += usize::from(failed);
                        continue;
                    }
                }
                stack.push(next);
            }
        }
        if !enabled {
            res.failures += 1; // deadlock
        }
    }
    res
}
