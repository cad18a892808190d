//! Thread paths: each thread run on its own with every value its reads may
//! get (book: axiomatic.md, Candidate executions: "candidates are built by running each thread with the
//! values its reads would get, so control flow follows values").
//!
//! A read of location `a` may get any value in the *value domain* of `a`:
//! the init value and every value some store, RMW or CAS of the program
//! writes to `a`. Written values depend on read values, so the domain is a
//! fixpoint, computed in rounds: run every thread with the current domains,
//! add what the writes wrote, repeat. A value whose justification is a chain
//! of `n` writes appears by round `n`, and a loop-free execution has at most
//! as many writes as the program has write instructions, so the rounds stop
//! there even when the fixpoint is infinite (`r = x; x = r + 1` in two
//! threads).
//!
//! The domain starts from the init value and every constant the program
//! writes to `a`, on any branch: a constant needs no read to justify it,
//! so a branch that only a value it writes itself can take is still
//! explored (the thin-air LB+ctrl, `r = x; if (r == 1) { y = 1; }` and its
//! mirror image, which C11 allows and `ax.c11` then shows, as herd7 does
//! with its C11 models; every other model forbids it by `po ∪ rf`
//! acyclicity or preserved program order).
//!
//! Deviation (as herd7): a value computed from a read that can only be
//! justified by a cycle of dependencies ("out of thin air" through data,
//! `y = r` beside `x = r'`, which could be 42) is never generated, so
//! `ax.c11`, which allows thin-air executions in principle, is only shown
//! those whose values are constants of the program or have an acyclic
//! justification.

use std::collections::BTreeSet;

use super::execution::{AccessKind, Mode};
use super::free_reads::free_loads;
use crate::ir::{
    thread_of_handle, C11Fence, FenceKind, Instr, InstrId, LocId, Origin, Program, RegId,
    ThreadCode, ThreadId, Value,
};
use crate::outcome::FailureKind;

/// What one memory instruction of a path did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PathOp {
    /// A read of `value`; a free read (see [`super::free_reads`]) has no
    /// value yet: `value` is 0 until `rf` gives it one.
    Read {
        loc: LocId,
        value: Value,
        mode: Mode,
        access: AccessKind,
        free: bool,
    },
    Write {
        loc: LocId,
        value: Value,
        mode: Mode,
    },
    /// A successful RMW or CAS: a read and a write joined by `rmw`.
    Update {
        loc: LocId,
        read: Value,
        wrote: Value,
        read_mode: Mode,
        write_mode: Mode,
    },
    Fence(FenceKind),
    Fork(ThreadId),
    Join(ThreadId),
}

/// A memory instruction of a path, with where it came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PathStep {
    pub instr: InstrId,
    pub line: u32,
    pub op: PathOp,
    /// The write instructions the values read so far (this step's read
    /// included) were justified by (see [`value_domains`]).
    pub dep: u64,
}

/// A read's possible values, each with the write instructions its
/// justification uses (a bit per instruction; 0 when not tracked).
type Domain = Vec<(Value, u64)>;

/// How a thread path ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PathEnd {
    Finished,
    /// A failed assert, a division by zero or a bad join handle: the thread
    /// stops there.
    Failed(FailureKind),
    /// A failed `assume`: no execution takes this path. Kept only while
    /// computing value domains, since the writes before the `assume` still
    /// justify values other paths read.
    Discarded,
}

/// One way a thread can run, given the values its reads get.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ThreadPath {
    pub steps: Vec<PathStep>,
    /// The registers when the thread stopped; a register in `free_regs`
    /// holds 0 here.
    pub regs: Vec<Value>,
    /// The registers that end holding the value of a free read: the
    /// register and the index in `steps` of the read.
    pub free_regs: Vec<(RegId, usize)>,
    pub end: PathEnd,
    /// A herd C thread's run: its events and herd's relations between
    /// them (the steps then list its memory accesses only, for the value
    /// check of the path search).
    pub herd: Option<Box<crate::csem::paths::CPath>>,
}

/// The paths of every thread, and what cut the enumeration.
#[derive(Clone, Debug, Default)]
pub(crate) struct Paths {
    /// Per thread, in a deterministic order (reads try values in increasing
    /// order).
    pub threads: Vec<Vec<ThreadPath>>,
    /// Some path failed an `assume` that loop unrolling added: executions
    /// needing more iterations were discarded.
    pub unroll_cut: bool,
    /// The path count exceeded the bound and enumeration stopped.
    pub truncated: bool,
}

/// The value domain of every location (see the module docs).
///
/// Each value carries the set of write instructions its justification
/// uses (a bit mask, kept minimal per value): a write instruction never
/// uses a value whose justification already uses it, since in a loop-free
/// execution each instruction writes at most once and a justification is
/// acyclic. Without this, `x += 6` would justify 6, 12, 18, ... by itself.
/// Programs with more than 64 write instructions are not tracked (masks
/// stay 0) and fall back to the plain rounds.
pub(crate) fn value_domains(program: &Program, max_paths: u64) -> Vec<BTreeSet<Value>> {
    let mut writer_bit: std::collections::BTreeMap<(usize, usize), u64> = Default::default();
    for (t, code) in program.threads.iter().enumerate() {
        for (i, ins) in code.code.iter().enumerate() {
            if matches!(
                ins.instr,
                Instr::Store { .. } | Instr::Rmw { .. } | Instr::Cas { .. }
            ) {
                let k = writer_bit.len();
                writer_bit.insert((t, i), if k < 64 { 1u64 << k } else { 0 });
            }
        }
    }
    let tracked = writer_bit.len() <= 64;
    let mut domains: Vec<Domain> = program
        .locations
        .iter()
        .map(|l| vec![(l.init, 0)])
        .collect();
    // A write of a constant needs no read to justify it, wherever it is:
    // also on a branch that only a value it writes itself can take
    // (`r = x; if (r == 1) { y = 1; }` beside its mirror image, the
    // thin-air LB+ctrl, which C11 allows and herd7 enumerates).
    for (t, code) in program.threads.iter().enumerate() {
        for (i, ins) in code.code.iter().enumerate() {
            let Some((loc, v)) = constant_write(&ins.instr) else {
                continue;
            };
            let bit = writer_bit.get(&(t, i)).copied().unwrap_or(0);
            let mask = if tracked { bit } else { 0 };
            insert_minimal(&mut domains[loc.index()], v, mask);
        }
    }
    for _round in 0..writer_bit.len() {
        let mut grew = false;
        for (t, code) in program.threads.iter().enumerate() {
            let tid = ThreadId::new(t);
            let mut paths = Vec::new();
            let mut budget = max_paths;
            let mut cut = false;
            run_thread(
                code,
                tid,
                &domains,
                FreeReads::ToRf,
                &mut paths,
                &mut budget,
                &mut cut,
            );
            for path in &paths {
                for step in &path.steps {
                    let written = match step.op {
                        PathOp::Write { loc, value, .. } => Some((loc, value)),
                        PathOp::Update { loc, wrote, .. } => Some((loc, wrote)),
                        _ => None,
                    };
                    let Some((loc, v)) = written else { continue };
                    let bit = writer_bit
                        .get(&(t, step.instr.index()))
                        .copied()
                        .unwrap_or(0);
                    if tracked && step.dep & bit != 0 {
                        continue;
                    }
                    let mask = if tracked { step.dep | bit } else { 0 };
                    grew |= insert_minimal(&mut domains[loc.index()], v, mask);
                }
            }
        }
        if !grew {
            break;
        }
    }
    domains
        .into_iter()
        .map(|d| d.into_iter().map(|(v, _)| v).collect())
        .collect()
}

/// The location and value of a write instruction whose value is a
/// constant: a store or an exchange of an expression without registers,
/// or a CAS's constant desired value (a CAS that succeeds writes it,
/// whatever it read).
fn constant_write(ins: &Instr) -> Option<(LocId, Value)> {
    let constant = |e: &crate::ir::Expr| {
        let mut regs = Vec::new();
        e.regs(&mut regs);
        if regs.is_empty() {
            e.eval(&[]).ok()
        } else {
            None
        }
    };
    match ins {
        Instr::Store { loc, val, .. } => Some((*loc, constant(val)?)),
        Instr::Rmw {
            loc,
            op: crate::ir::RmwOp::Xchg,
            operand,
            ..
        } => Some((*loc, constant(operand)?)),
        Instr::Cas { loc, desired, .. } => Some((*loc, constant(desired)?)),
        _ => None,
    }
}

/// Adds `(v, mask)` unless a smaller justification of `v` is known;
/// drops the larger ones. True if the domain changed. herd's C semantics
/// builds its value domains with it too (`crate::csem::paths`).
pub(crate) fn insert_minimal(domain: &mut Domain, v: Value, mask: u64) -> bool {
    if domain.iter().any(|&(w, m)| w == v && m & mask == m) {
        return false;
    }
    domain.retain(|&(w, m)| !(w == v && m & mask == mask));
    domain.push((v, mask));
    domain.sort_unstable();
    true
}

/// Whether thread paths leave the values of free reads to `rf`
/// ([`super::free_reads`]) or branch on them like on other reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FreeReads {
    ToRf,
    Branch,
}

/// Every path of every thread under `domains`, at most `max_paths` per
/// thread.
pub(crate) fn thread_paths(
    program: &Program,
    domains: &[BTreeSet<Value>],
    max_paths: u64,
    free_reads: FreeReads,
) -> Paths {
    let domains: Vec<Domain> = domains
        .iter()
        .map(|d| d.iter().map(|&v| (v, 0)).collect())
        .collect();
    let mut out = Paths::default();
    for (t, code) in program.threads.iter().enumerate() {
        let mut paths = Vec::new();
        let mut budget = max_paths;
        run_thread(
            code,
            ThreadId::new(t),
            &domains,
            free_reads,
            &mut paths,
            &mut budget,
            &mut out.unroll_cut,
        );
        out.truncated |= budget == 0;
        paths.retain(|p| p.end != PathEnd::Discarded);
        out.threads.push(paths);
    }
    out
}

/// A partial run: where it is and what it has done.
#[derive(Clone)]
struct Run {
    pc: usize,
    /// The justification masks of the values read so far.
    dep: u64,
    regs: Vec<Value>,
    /// Per register, the step of the free read whose value it holds.
    from_free: Vec<Option<usize>>,
    steps: Vec<PathStep>,
}

impl Run {
    /// `r` now holds a value the path computed.
    fn define(&mut self, r: RegId) {
        self.from_free[r.index()] = None;
    }

    /// The path ends here with `end`.
    fn finish(self, end: PathEnd) -> ThreadPath {
        let free_regs = self
            .from_free
            .iter()
            .enumerate()
            .filter_map(|(r, s)| s.map(|s| (RegId::new(r), s)))
            .collect();
        ThreadPath {
            herd: None,
            steps: self.steps,
            regs: self.regs,
            free_regs,
            end,
        }
    }
}

/// Runs one thread from its start, branching at every read over the
/// domain of its location, appending each complete path to `out`.
fn run_thread(
    code: &ThreadCode,
    tid: ThreadId,
    domains: &[Domain],
    free_reads: FreeReads,
    out: &mut Vec<ThreadPath>,
    budget: &mut u64,
    unroll_cut: &mut bool,
) {
    let free = match free_reads {
        FreeReads::ToRf => free_loads(code),
        FreeReads::Branch => vec![false; code.code.len()],
    };
    let mut stack = vec![Run {
        pc: 0,
        dep: 0,
        regs: vec![0; code.regs.len()],
        from_free: vec![None; code.regs.len()],
        steps: Vec::new(),
    }];
    while let Some(run) = stack.pop() {
        if *budget == 0 {
            return;
        }
        let mut branches = Vec::new();
        match advance(code, tid, domains, &free, run, &mut branches) {
            Advance::Done(path) => {
                *budget -= 1;
                out.push(path);
            }
            Advance::Discarded { by_unroll, steps } => {
                *unroll_cut |= by_unroll;
                *budget -= 1;
                out.push(ThreadPath {
                    herd: None,
                    steps,
                    regs: Vec::new(),
                    free_regs: Vec::new(),
                    end: PathEnd::Discarded,
                });
            }
            // Pushed in reverse so the smallest value is explored first.
            Advance::Branch => stack.extend(branches.into_iter().rev()),
        }
    }
}

enum Advance {
    Done(ThreadPath),
    Discarded {
        by_unroll: bool,
        steps: Vec<PathStep>,
    },
    Branch,
}

/// Runs `run` until it ends or reaches a read that is not free (`free`,
/// per instruction); at such a read, pushes one continuation per value of
/// the domain.
fn advance(
    code: &ThreadCode,
    tid: ThreadId,
    domains: &[Domain],
    free: &[bool],
    mut run: Run,
    branches: &mut Vec<Run>,
) -> Advance {
    let failed = |run: Run, kind: FailureKind| Advance::Done(run.finish(PathEnd::Failed(kind)));
    loop {
        let Some(ins) = code.code.get(run.pc) else {
            // Falling off the end (an invariant the front end keeps) ends
            // the thread like `End`.
            return Advance::Done(run.finish(PathEnd::Finished));
        };
        let here = InstrId::new(run.pc);
        let div0 = FailureKind::DivisionByZero {
            thread: tid,
            instr: here,
        };
        let line = ins.line;
        let step = |op, dep| PathStep {
            instr: here,
            line,
            op,
            dep,
        };
        run.pc += 1;
        match &ins.instr {
            Instr::Assign { dst, val } => match val.eval(&run.regs) {
                Ok(v) => {
                    run.regs[dst.index()] = v;
                    run.define(*dst);
                }
                Err(_) => return failed(run, div0),
            },
            Instr::Branch { cond, target } => match cond.eval(&run.regs) {
                Ok(0) => run.pc = target.index(),
                Ok(_) => {}
                Err(_) => return failed(run, div0),
            },
            Instr::Jump { target } => run.pc = target.index(),
            Instr::Assert { cond } => match cond.eval(&run.regs) {
                Ok(0) => {
                    return failed(
                        run,
                        FailureKind::Assert {
                            thread: tid,
                            instr: here,
                        },
                    )
                }
                Ok(_) => {}
                Err(_) => return failed(run, div0),
            },
            Instr::Assume { cond } => match cond.eval(&run.regs) {
                Ok(0) => {
                    return Advance::Discarded {
                        by_unroll: ins.origin == Origin::Unroll,
                        steps: run.steps,
                    }
                }
                Ok(_) => {}
                Err(_) => return failed(run, div0),
            },
            Instr::End => return Advance::Done(run.finish(PathEnd::Finished)),
            Instr::Fence { kind } => run.steps.push(step(PathOp::Fence(*kind), run.dep)),
            Instr::Fork { dst, child } => {
                run.regs[dst.index()] = crate::ir::handle_of(*child);
                run.define(*dst);
                run.steps.push(step(PathOp::Fork(*child), run.dep));
            }
            Instr::Join { handle } => match thread_of_handle(run.regs[handle.index()]) {
                Some(child) => run.steps.push(step(PathOp::Join(child), run.dep)),
                None => {
                    return failed(
                        run,
                        FailureKind::BadHandle {
                            thread: tid,
                            instr: here,
                        },
                    )
                }
            },
            Instr::Store { loc, val, ord } => match val.eval(&run.regs) {
                Ok(value) => run.steps.push(step(
                    PathOp::Write {
                        loc: *loc,
                        value,
                        mode: write_mode(*ord),
                    },
                    run.dep,
                )),
                Err(_) => return failed(run, div0),
            },
            // A free read: one step, its value left to `rf`.
            Instr::Load { dst, loc, ord } if free[here.index()] => {
                run.regs[dst.index()] = 0;
                run.from_free[dst.index()] = Some(run.steps.len());
                run.steps.push(step(
                    PathOp::Read {
                        loc: *loc,
                        value: 0,
                        mode: read_mode(*ord),
                        access: AccessKind::Plain,
                        free: true,
                    },
                    run.dep,
                ));
            }
            Instr::Load { dst, loc, ord } => {
                for &(value, mask) in &domains[loc.index()] {
                    let mut next = run.clone();
                    next.regs[dst.index()] = value;
                    next.define(*dst);
                    next.dep |= mask;
                    next.steps.push(step(
                        PathOp::Read {
                            loc: *loc,
                            value,
                            mode: read_mode(*ord),
                            access: AccessKind::Plain,
                            free: false,
                        },
                        next.dep,
                    ));
                    branches.push(next);
                }
                return Advance::Branch;
            }
            Instr::Rmw {
                dst,
                loc,
                op,
                operand,
                ord,
            } => {
                let operand = match operand.eval(&run.regs) {
                    Ok(v) => v,
                    Err(_) => return failed(run, div0),
                };
                for &(read, mask) in &domains[loc.index()] {
                    let mut next = run.clone();
                    next.regs[dst.index()] = read;
                    next.define(*dst);
                    next.dep |= mask;
                    next.steps.push(step(
                        PathOp::Update {
                            loc: *loc,
                            read,
                            wrote: op.apply(read, operand),
                            read_mode: read_mode(ord.read_part()),
                            write_mode: write_mode(ord.write_part()),
                        },
                        next.dep,
                    ));
                    branches.push(next);
                }
                return Advance::Branch;
            }
            Instr::Cas {
                dst,
                loc,
                expected,
                desired,
                ord,
                fail,
                weak,
                ok,
            } => {
                let (expected, desired) = match (expected.eval(&run.regs), desired.eval(&run.regs))
                {
                    (Ok(e), Ok(d)) => (e, d),
                    _ => return failed(run, div0),
                };
                for &(read, mask) in &domains[loc.index()] {
                    // The success when it read `expected`; the failure when
                    // it did not, or, for a weak CAS, whatever it read.
                    let success = (read == expected).then(|| PathOp::Update {
                        loc: *loc,
                        read,
                        wrote: desired,
                        read_mode: read_mode(ord.read_part()),
                        write_mode: write_mode(ord.write_part()),
                    });
                    let failure = (read != expected || *weak).then(|| PathOp::Read {
                        loc: *loc,
                        value: read,
                        mode: read_mode(*fail),
                        access: AccessKind::FailedCas,
                        free: false,
                    });
                    for op in success.into_iter().chain(failure) {
                        let mut next = run.clone();
                        if let Some(ok) = ok {
                            next.regs[ok.index()] = matches!(op, PathOp::Update { .. }).into();
                            next.define(*ok);
                        }
                        next.regs[dst.index()] = read;
                        next.define(*dst);
                        next.dep |= mask;
                        next.steps.push(step(op, next.dep));
                        branches.push(next);
                    }
                }
                return Advance::Branch;
            }
        }
    }
}

/// The C11 mode of a read order.
pub(crate) fn read_mode(ord: crate::ir::ReadOrd) -> Mode {
    use crate::ir::ReadOrd;
    match ord {
        ReadOrd::Na => Mode::Na,
        ReadOrd::Rlx => Mode::Rlx,
        ReadOrd::Acq => Mode::Acq,
        ReadOrd::Sc => Mode::Sc,
    }
}

/// The C11 mode of a write order.
pub(crate) fn write_mode(ord: crate::ir::WriteOrd) -> Mode {
    use crate::ir::WriteOrd;
    match ord {
        WriteOrd::Na => Mode::Na,
        WriteOrd::Rlx => Mode::Rlx,
        WriteOrd::Rel => Mode::Rel,
        WriteOrd::Sc => Mode::Sc,
    }
}

/// The C11 mode of a fence (hardware barriers have none: `Na`).
pub(crate) fn fence_mode(kind: FenceKind) -> Mode {
    match kind {
        FenceKind::C11(C11Fence::Acq) => Mode::Acq,
        FenceKind::C11(C11Fence::Rel) => Mode::Rel,
        FenceKind::C11(C11Fence::AcqRel) => Mode::AcqRel,
        FenceKind::C11(C11Fence::Sc) => Mode::Sc,
        FenceKind::Hw(_) => Mode::Na,
    }
}
