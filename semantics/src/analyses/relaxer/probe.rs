//! The assertion probe of the ground truth ([`super::feasible`]).
//!
//! Question: does some execution create the cycle *and then* fail an
//! assertion? The interpreter evaluates an `assert` eagerly right after the
//! thread's previous memory step, and a failure ends the execution, so the
//! failure belongs to such an execution iff the cycle was complete after
//! that thread's previous memory step. The tracking model records that bit
//! per thread; this pass makes every `assert c` read it first:
//!
//! ```text
//! probe = load(__relaxer_probe)      // the tracking model answers the bit
//! assert(c || probe == 0)
//! ```
//!
//! The probe location is fresh and served by the tracking model alone, so
//! the inner memory model never sees it. The extra load is one more
//! interleaving point of a thread that only evaluates registers next, so it
//! adds no behaviour and removes none. Jump targets and fork sites are
//! renumbered; the probe instructions are marked `Origin::Mapping` (inserted
//! by a pass) and keep the assert's span and line.

use crate::ir::{
    Atomicity, BinOp, Expr, Instr, InstrId, Instruction, LocId, Location, Origin, Program, ReadOrd,
    RegId, ThreadKind,
};

/// The probed program and its probe location.
pub(crate) fn probe_asserts(program: &Program) -> (Program, LocId) {
    let mut out = program.clone();
    let probe = LocId::new(out.locations.len());
    out.locations.push(Location {
        name: "__relaxer_probe".to_string(),
        init: 0,
        atomicity: Atomicity::Atomic,
        span: Default::default(),
    });
    let mut remaps: Vec<Vec<usize>> = Vec::new();
    for thread in &mut out.threads {
        let reg = RegId::new(thread.regs.len());
        let has_assert = thread
            .code
            .iter()
            .any(|i| matches!(i.instr, Instr::Assert { .. }));
        if has_assert {
            thread.regs.push("__relaxer_probe".to_string());
        }
        let mut remap = Vec::with_capacity(thread.code.len());
        let mut code: Vec<Instruction> = Vec::with_capacity(thread.code.len() + 2);
        for ins in &thread.code {
            remap.push(code.len());
            match &ins.instr {
                Instr::Assert { cond } => {
                    code.push(Instruction {
                        instr: Instr::Load {
                            dst: reg,
                            loc: probe,
                            ord: ReadOrd::Rlx,
                        },
                        span: ins.span,
                        line: ins.line,
                        text: "__relaxer_probe".to_string(),
                        origin: Origin::Mapping,
                    });
                    let unaccepted = Expr::Binary(
                        BinOp::Eq,
                        Box::new(Expr::Reg(reg)),
                        Box::new(Expr::Const(0)),
                    );
                    code.push(Instruction {
                        instr: Instr::Assert {
                            cond: Expr::Binary(
                                BinOp::Or,
                                Box::new(cond.clone()),
                                Box::new(unaccepted),
                            ),
                        },
                        ..ins.clone()
                    });
                }
                _ => code.push(ins.clone()),
            }
        }
        for ins in &mut code {
            match &mut ins.instr {
                Instr::Branch { target, .. } | Instr::Jump { target } => {
                    *target =
                        InstrId::new(remap.get(target.index()).copied().unwrap_or(target.index()));
                }
                _ => {}
            }
        }
        thread.code = code;
        remaps.push(remap);
    }
    for thread in &mut out.threads {
        if let ThreadKind::Forked { parent, at } = &mut thread.kind {
            if let Some(&i) = remaps.get(parent.index()).and_then(|r| r.get(at.index())) {
                *at = InstrId::new(i);
            }
        }
    }
    (out, probe)
}
