//! A tiny builder of IR programs for the operational engine's tests (the
//! parser lives in another crate, which depends on this one).
#![allow(dead_code)]

use relaxlab_semantics::ir::*;

/// A thread under construction.
pub struct T {
    name: String,
    kind: ThreadKind,
    regs: Vec<String>,
    code: Vec<Instruction>,
}

fn ins(instr: Instr, text: String) -> Instruction {
    Instruction {
        instr,
        span: Span::default(),
        line: 1,
        text,
        origin: Origin::Source,
    }
}

impl T {
    pub fn new(name: &str) -> T {
        T {
            name: name.into(),
            kind: ThreadKind::TopLevel,
            regs: Vec::new(),
            code: Vec::new(),
        }
    }
    pub fn forked(mut self, parent: u32, at: u32) -> T {
        self.kind = ThreadKind::Forked {
            parent: ThreadId(parent),
            at: InstrId(at),
        };
        self
    }
    /// The register named `name`, created on first use.
    pub fn reg(&mut self, name: &str) -> RegId {
        match self.regs.iter().position(|r| r == name) {
            Some(i) => RegId::new(i),
            None => {
                self.regs.push(name.into());
                RegId::new(self.regs.len() - 1)
            }
        }
    }
    pub fn push(mut self, instr: Instr, text: &str) -> T {
        self.code.push(ins(instr, text.into()));
        self
    }
    /// The index the next instruction will have.
    pub fn here(&self) -> u32 {
        self.code.len() as u32
    }
    pub fn st(self, loc: u32, val: Value, ord: WriteOrd) -> T {
        let text = format!("store(L{loc}, {val})");
        self.push(
            Instr::Store {
                loc: LocId(loc),
                val: Expr::Const(val),
                ord,
            },
            &text,
        )
    }
    pub fn ld(mut self, reg: &str, loc: u32, ord: ReadOrd) -> T {
        let dst = self.reg(reg);
        let text = format!("{reg} = load(L{loc})");
        self.push(
            Instr::Load {
                dst,
                loc: LocId(loc),
                ord,
            },
            &text,
        )
    }
    pub fn fence(self, kind: FenceKind) -> T {
        self.push(Instr::Fence { kind }, "fence")
    }
    pub fn hw(self, f: HwFence) -> T {
        self.fence(FenceKind::Hw(f))
    }
    pub fn rmw(mut self, reg: &str, loc: u32, op: RmwOp, operand: Value, ord: RmwOrd) -> T {
        let dst = self.reg(reg);
        self.push(
            Instr::Rmw {
                dst,
                loc: LocId(loc),
                op,
                operand: Expr::Const(operand),
                ord,
            },
            "rmw",
        )
    }
    pub fn cas(mut self, reg: &str, loc: u32, expected: Value, desired: Value) -> T {
        let dst = self.reg(reg);
        self.push(
            Instr::Cas {
                dst,
                loc: LocId(loc),
                expected: Expr::Const(expected),
                desired: Expr::Const(desired),
                ord: RmwOrd::Sc,
                weak: false,
                ok: None,
                fail: ReadOrd::Sc,
            },
            "cas",
        )
    }
    pub fn end(self) -> T {
        self.push(Instr::End, "end")
    }
    fn build(self) -> ThreadCode {
        let mut code = self.code;
        if !matches!(code.last().map(|i| &i.instr), Some(Instr::End)) {
            code.push(ins(Instr::End, "end".into()));
        }
        ThreadCode {
            name: self.name,
            kind: self.kind,
            regs: self.regs,
            code,
            span: Span::default(),
        }
    }
}

pub fn rlx_st() -> WriteOrd {
    WriteOrd::Rlx
}

/// A program over locations `locs` (all initially 0).
pub fn program(locs: &[&str], threads: Vec<T>) -> Program {
    let toplevel = threads
        .iter()
        .filter(|t| matches!(t.kind, ThreadKind::TopLevel))
        .count();
    Program {
        name: "test".into(),
        doc: None,
        locations: locs
            .iter()
            .map(|n| Location {
                name: n.to_string(),
                init: 0,
                atomicity: Atomicity::Atomic,
                span: Span::default(),
            })
            .collect(),
        threads: threads.into_iter().map(T::build).collect(),
        toplevel,
        condition: None,
        filter: None,
        filter_only: Vec::new(),
        observed: Vec::new(),
        expectations: Vec::new(),
        c: None,
        herd_reading: None,
        arrays: Vec::new(),
    }
}

/// `exists (o1 = v1 /\ o2 = v2 ...)`; the observables become the columns.
pub fn exists(mut p: Program, atoms: &[(Observable, Value)]) -> Program {
    let mut prop = Prop::True;
    for (o, v) in atoms {
        let atom = Prop::Atom(*o, CmpOp::Eq, *v);
        prop = match prop {
            Prop::True => atom,
            p => Prop::And(Box::new(p), Box::new(atom)),
        };
        if !p.observed.contains(o) {
            p.observed.push(*o);
        }
    }
    p.condition = Some(Condition {
        quantifier: Quantifier::Exists,
        prop,
        text: "cond".into(),
    });
    p
}

pub fn reg(t: u32, r: u32) -> Observable {
    Observable::Reg(ThreadId(t), RegId(r))
}

pub fn loc(l: u32) -> Observable {
    Observable::Loc(LocId(l))
}

pub const X: u32 = 0;
pub const Y: u32 = 1;
const R: ReadOrd = ReadOrd::Rlx;
const W: WriteOrd = WriteOrd::Rlx;

/// SB: P0: x = 1; r0 = y || P1: y = 1; r0 = x. exists 0:r0=0 /\ 1:r0=0.
pub fn sb(wo: WriteOrd, ro: ReadOrd, fence: Option<HwFence>) -> Program {
    let mk = |n: &str, a: u32, b: u32| {
        let t = T::new(n).st(a, 1, wo);
        let t = match fence {
            Some(f) => t.hw(f),
            None => t,
        };
        t.ld("r0", b, ro)
    };
    exists(
        program(&["x", "y"], vec![mk("P0", X, Y), mk("P1", Y, X)]),
        &[(reg(0, 0), 0), (reg(1, 0), 0)],
    )
}

/// MP: P0: x = 1; [f0]; y = 1 || P1: r0 = y; [f1]; r1 = x.
/// exists 1:r0=1 /\ 1:r1=0.
pub fn mp(f0: Option<HwFence>, f1: Option<HwFence>) -> Program {
    let mut p0 = T::new("P0").st(X, 1, W);
    if let Some(f) = f0 {
        p0 = p0.hw(f);
    }
    let p0 = p0.st(Y, 1, W);
    let mut p1 = T::new("P1").ld("r0", Y, R);
    if let Some(f) = f1 {
        p1 = p1.hw(f);
    }
    let p1 = p1.ld("r1", X, R);
    exists(
        program(&["x", "y"], vec![p0, p1]),
        &[(reg(1, 0), 1), (reg(1, 1), 0)],
    )
}

/// LB: P0: r0 = x; y = 1 || P1: r0 = y; x = 1. exists 0:r0=1 /\ 1:r0=1.
pub fn lb() -> Program {
    let p0 = T::new("P0").ld("r0", X, R).st(Y, 1, W);
    let p1 = T::new("P1").ld("r0", Y, R).st(X, 1, W);
    exists(
        program(&["x", "y"], vec![p0, p1]),
        &[(reg(0, 0), 1), (reg(1, 0), 1)],
    )
}

/// IRIW with optional fences between the readers' loads.
pub fn iriw(f: Option<HwFence>) -> Program {
    let reader = |n: &str, a: u32, b: u32| {
        let t = T::new(n).ld("r0", a, R);
        let t = match f {
            Some(f) => t.hw(f),
            None => t,
        };
        t.ld("r1", b, R)
    };
    let p = program(
        &["x", "y"],
        vec![
            T::new("P0").st(X, 1, W),
            T::new("P1").st(Y, 1, W),
            reader("P2", X, Y),
            reader("P3", Y, X),
        ],
    );
    exists(
        p,
        &[
            (reg(2, 0), 1),
            (reg(2, 1), 0),
            (reg(3, 0), 1),
            (reg(3, 1), 0),
        ],
    )
}

/// 2+2W: P0: x = 1; y = 2 || P1: y = 1; x = 2. exists x=1 /\ y=1.
pub fn w22() -> Program {
    let p0 = T::new("P0").st(X, 1, W).st(Y, 2, W);
    let p1 = T::new("P1").st(Y, 1, W).st(X, 2, W);
    exists(
        program(&["x", "y"], vec![p0, p1]),
        &[(loc(X), 1), (loc(Y), 1)],
    )
}

/// CoRR: P0: x = 1 || P1: r0 = x; r1 = x. exists 1:r0=1 /\ 1:r1=0.
pub fn corr() -> Program {
    let p0 = T::new("P0").st(X, 1, W);
    let p1 = T::new("P1").ld("r0", X, R).ld("r1", X, R);
    exists(
        program(&["x"], vec![p0, p1]),
        &[(reg(1, 0), 1), (reg(1, 1), 0)],
    )
}

/// Dekker-style mutual exclusion for thread `i` of 2 (locations: flag0,
/// flag1, owner): set my flag, [fence], spin while the other's flag is
/// set, then in the critical section write my id to `owner` and assert
/// that I read it back; finally clear my flag.
pub fn dekker_thread(i: u32, fenced: bool) -> T {
    let (me, other, owner) = (i, 1 - i, 2);
    let id = Value::from(i) + 1;
    let mut t = T::new(&format!("P{i}")).st(me, 1, WriteOrd::Rlx);
    if fenced {
        t = t.hw(HwFence::Full);
    }
    let spin = t.here();
    let t = t.ld("r0", other, ReadOrd::Rlx);
    let cs = t.here() + 2;
    let mut t = t;
    let r0 = t.reg("r0");
    let r1 = t.reg("r1");
    t.push(
        Instr::Branch {
            cond: Expr::Reg(r0),
            target: InstrId(cs),
        },
        "while (r0 != 0)",
    )
    .push(
        Instr::Jump {
            target: InstrId(spin),
        },
        "loop",
    )
    .st(owner, id, WriteOrd::Rlx)
    .hw(HwFence::Full)
    .push(
        Instr::Load {
            dst: r1,
            loc: LocId(owner),
            ord: ReadOrd::Rlx,
        },
        "r1 = load(owner)",
    )
    .push(
        Instr::Assert {
            cond: Expr::Binary(
                BinOp::Eq,
                Box::new(Expr::Reg(r1)),
                Box::new(Expr::Const(id)),
            ),
        },
        "assert(r1 == id)",
    )
    .st(me, 0, WriteOrd::Rlx)
}

pub fn dekker(fenced: bool) -> Program {
    program(
        &["flag0", "flag1", "owner"],
        vec![dekker_thread(0, fenced), dekker_thread(1, fenced)],
    )
}

/// Checks that `trace` leads to `values` (aligned with `program.observed`):
/// registers get the values the trace's reads return, locations the last
/// value committed (or written, for models without buffers).
pub fn trace_reaches(
    program: &Program,
    trace: &relaxlab_semantics::outcome::Trace,
    values: &[Value],
) -> bool {
    use relaxlab_semantics::model::EventKind;
    let mut regs: Vec<Vec<Value>> = program
        .threads
        .iter()
        .map(|t| vec![0; t.regs.len()])
        .collect();
    let mut mem: Vec<Value> = program.locations.iter().map(|l| l.init).collect();
    let buffered = trace
        .steps
        .iter()
        .any(|s| matches!(s.event, Some(EventKind::Commit { .. })));
    for s in &trace.steps {
        let t = s.thread.index();
        let instr = s.instr.map(|i| &program.threads[t].code[i.index()].instr);
        match (&s.event, instr) {
            (Some(EventKind::Read { value, .. }), Some(Instr::Load { dst, .. })) => {
                regs[t][dst.index()] = *value
            }
            (
                Some(EventKind::Update {
                    read, wrote, loc, ..
                }),
                Some(Instr::Rmw { dst, .. } | Instr::Cas { dst, .. }),
            ) => {
                regs[t][dst.index()] = *read;
                if let Some(w) = wrote {
                    mem[loc.index()] = *w;
                }
            }
            (Some(EventKind::Write { loc, value, .. }), _) if !buffered => {
                mem[loc.index()] = *value
            }
            (Some(EventKind::Commit { loc, value, .. }), _) => mem[loc.index()] = *value,
            (None, Some(Instr::Assign { dst, val })) => {
                regs[t][dst.index()] = val.eval(&regs[t]).unwrap_or(0)
            }
            _ => {}
        }
    }
    let got: Vec<Value> = program
        .observed
        .iter()
        .map(|o| match o {
            Observable::Reg(t, r) => regs[t.index()][r.index()],
            Observable::Loc(l) => mem[l.index()],
        })
        .collect();
    got == values
}
