//! A small builder of IR programs for the axiomatic engine's tests: litmus
//! tests written as Rust calls, without the grammar crate.

// Each test binary and the benchmark use a different part of the builder.
#![allow(dead_code, unused_imports)]

use relaxlab_semantics::ir::*;

mod random;
pub use random::*;

pub struct ProgramBuilder {
    name: String,
    locations: Vec<Location>,
    threads: Vec<ThreadCode>,
}

pub struct ThreadBuilder<'a> {
    locs: &'a [Location],
    regs: Vec<String>,
    code: Vec<Instruction>,
}

fn ins(instr: Instr, text: &str) -> Instruction {
    Instruction {
        instr,
        span: Span::default(),
        line: 1,
        text: text.to_string(),
        origin: Origin::Source,
    }
}

pub fn program(name: &str, locs: &[&str]) -> ProgramBuilder {
    ProgramBuilder {
        name: name.into(),
        locations: locs
            .iter()
            .map(|l| Location {
                name: l.to_string(),
                init: 0,
                atomicity: Atomicity::Atomic,
                span: Span::default(),
            })
            .collect(),
        threads: Vec::new(),
    }
}

impl ProgramBuilder {
    /// Marks a location non-atomic (it is only accessed with `na`).
    pub fn non_atomic(mut self, loc: &str) -> Self {
        for l in &mut self.locations {
            if l.name == loc {
                l.atomicity = Atomicity::NonAtomic;
            }
        }
        self
    }

    /// Marks a location of mixed atomicity (accessed both atomically and
    /// with `na`).
    pub fn mixed(mut self, loc: &str) -> Self {
        for l in &mut self.locations {
            if l.name == loc {
                l.atomicity = Atomicity::Mixed;
            }
        }
        self
    }

    pub fn thread(mut self, name: &str, body: impl FnOnce(&mut ThreadBuilder)) -> Self {
        let mut t = ThreadBuilder {
            locs: &self.locations,
            regs: Vec::new(),
            code: Vec::new(),
        };
        body(&mut t);
        t.code.push(ins(Instr::End, "end"));
        let th = ThreadCode {
            name: name.into(),
            kind: ThreadKind::TopLevel,
            regs: t.regs,
            code: t.code,
            span: Span::default(),
        };
        self.threads.push(th);
        self
    }

    fn obs(&self, thread: &str, reg: &str) -> Observable {
        let t = self.threads.iter().position(|t| t.name == thread).unwrap();
        let r = self.threads[t].regs.iter().position(|r| r == reg).unwrap();
        Observable::Reg(ThreadId::new(t), RegId::new(r))
    }

    fn loc_obs(&self, loc: &str) -> Observable {
        Observable::Loc(LocId::new(
            self.locations.iter().position(|l| l.name == loc).unwrap(),
        ))
    }

    /// `exists (T:r = v /\ ... /\ loc = v ...)`: registers as
    /// ("P0", "r0", v), locations as ("", "x", v).
    pub fn exists(self, atoms: &[(&str, &str, Value)]) -> Program {
        let obs: Vec<(Observable, Value)> = atoms
            .iter()
            .map(|(t, r, v)| {
                if t.is_empty() {
                    (self.loc_obs(r), *v)
                } else {
                    (self.obs(t, r), *v)
                }
            })
            .collect();
        let prop = obs
            .iter()
            .map(|(o, v)| Prop::Atom(*o, CmpOp::Eq, *v))
            .reduce(|a, b| Prop::And(Box::new(a), Box::new(b)))
            .unwrap_or(Prop::True);
        let mut observed: Vec<Observable> = Vec::new();
        for (o, _) in &obs {
            if !observed.contains(o) {
                observed.push(*o);
            }
        }
        let toplevel = self.threads.len();
        Program {
            name: self.name,
            doc: None,
            locations: self.locations,
            threads: self.threads,
            toplevel,
            condition: Some(Condition {
                quantifier: Quantifier::Exists,
                prop,
                text: String::new(),
            }),
            filter: None,
            filter_only: Vec::new(),
            observed,
            expectations: vec![],
            c: None,
            herd_reading: None,
            arrays: Vec::new(),
        }
    }
}

impl ThreadBuilder<'_> {
    pub fn reg(&mut self, name: &str) -> RegId {
        match self.regs.iter().position(|r| r == name) {
            Some(i) => RegId::new(i),
            None => {
                self.regs.push(name.into());
                RegId::new(self.regs.len() - 1)
            }
        }
    }

    fn loc(&self, name: &str) -> LocId {
        LocId::new(self.locs.iter().position(|l| l.name == name).unwrap())
    }

    pub fn load(&mut self, r: &str, loc: &str, ord: ReadOrd) -> &mut Self {
        let (dst, loc) = (self.reg(r), self.loc(loc));
        self.code.push(ins(Instr::Load { dst, loc, ord }, "load"));
        self
    }

    pub fn store(&mut self, loc: &str, v: Value, ord: WriteOrd) -> &mut Self {
        let loc = self.loc(loc);
        self.code.push(ins(
            Instr::Store {
                loc,
                val: Expr::Const(v),
                ord,
            },
            "store",
        ));
        self
    }

    /// `store(loc, r, ord)`: stores a register.
    pub fn store_reg(&mut self, loc: &str, r: &str, ord: WriteOrd) -> &mut Self {
        let (reg, loc) = (self.reg(r), self.loc(loc));
        self.code.push(ins(
            Instr::Store {
                loc,
                val: Expr::Reg(reg),
                ord,
            },
            "store",
        ));
        self
    }

    pub fn rmw(&mut self, r: &str, loc: &str, op: RmwOp, v: Value, ord: RmwOrd) -> &mut Self {
        let (dst, loc) = (self.reg(r), self.loc(loc));
        self.code.push(ins(
            Instr::Rmw {
                dst,
                loc,
                op,
                operand: Expr::Const(v),
                ord,
            },
            "rmw",
        ));
        self
    }

    pub fn cas(&mut self, r: &str, loc: &str, exp: Value, des: Value, ord: RmwOrd) -> &mut Self {
        let (dst, loc) = (self.reg(r), self.loc(loc));
        self.code.push(ins(
            Instr::Cas {
                dst,
                loc,
                expected: Expr::Const(exp),
                desired: Expr::Const(des),
                ord,
                weak: false,
                ok: None,
                fail: ord.read_part(),
            },
            "cas",
        ));
        self
    }

    pub fn fence(&mut self, kind: FenceKind) -> &mut Self {
        self.code.push(ins(Instr::Fence { kind }, "fence"));
        self
    }

    pub fn assert_eq(&mut self, r: &str, v: Value) -> &mut Self {
        let reg = self.reg(r);
        self.code.push(ins(
            Instr::Assert {
                cond: Expr::Binary(
                    BinOp::Eq,
                    Box::new(Expr::Reg(reg)),
                    Box::new(Expr::Const(v)),
                ),
            },
            "assert",
        ));
        self
    }

    /// `if (r == v) { body }`.
    pub fn if_eq(&mut self, r: &str, v: Value, body: impl FnOnce(&mut Self)) -> &mut Self {
        let reg = self.reg(r);
        let head = self.code.len();
        self.code
            .push(ins(Instr::Jump { target: InstrId(0) }, "if"));
        body(self);
        let exit = InstrId::new(self.code.len());
        self.code[head].instr = Instr::Branch {
            cond: Expr::Binary(
                BinOp::Eq,
                Box::new(Expr::Reg(reg)),
                Box::new(Expr::Const(v)),
            ),
            target: exit,
        };
        self
    }

    /// `while (r == v) { body }`.
    pub fn while_eq(&mut self, r: &str, v: Value, body: impl FnOnce(&mut Self)) -> &mut Self {
        let reg = self.reg(r);
        let head = self.code.len();
        self.code
            .push(ins(Instr::Jump { target: InstrId(0) }, "while"));
        body(self);
        self.code.push(ins(
            Instr::Jump {
                target: InstrId::new(head),
            },
            "loop",
        ));
        let exit = InstrId::new(self.code.len());
        self.code[head].instr = Instr::Branch {
            cond: Expr::Binary(
                BinOp::Eq,
                Box::new(Expr::Reg(reg)),
                Box::new(Expr::Const(v)),
            ),
            target: exit,
        };
        self
    }
}

/// Shorthands.
pub use relaxlab_semantics::ir::ReadOrd::{Acq as LAcq, Na as LNa, Rlx as LRlx, Sc as LSc};
pub use relaxlab_semantics::ir::WriteOrd::{Na as SNa, Rel as SRel, Rlx as SRlx, Sc as SSc};

pub fn c11(f: C11Fence) -> FenceKind {
    FenceKind::C11(f)
}
pub fn hw(f: HwFence) -> FenceKind {
    FenceKind::Hw(f)
}

/// herd's `fig6` (Vafeiadis et al., POPL 2015, Fig. 6): three threads of
/// SC, release and relaxed stores to two locations and a fourth of six
/// relaxed observers; 28,800 C11 candidates.
pub fn fig6() -> Program {
    program("fig6", &["x", "y"])
        .thread("P0", |t| {
            t.store("x", 1, SRlx).store("x", 2, SSc).store("y", 1, SSc);
        })
        .thread("P1", |t| {
            t.store("x", 3, SRlx).store("y", 2, SSc);
        })
        .thread("P2", |t| {
            t.store("y", 3, SSc).load("r", "x", LSc);
        })
        .thread("P3", |t| {
            t.load("s1", "x", LRlx)
                .load("s2", "x", LRlx)
                .load("s3", "x", LRlx)
                .load("t1", "y", LRlx)
                .load("t2", "y", LRlx)
                .load("t3", "y", LRlx);
        })
        .exists(&[
            ("P2", "r", 1),
            ("P3", "s1", 1),
            ("P3", "t1", 1),
            ("P3", "s2", 2),
            ("P3", "t2", 2),
            ("P3", "s3", 3),
            ("P3", "t3", 3),
        ])
}
