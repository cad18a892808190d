//! The C11-to-hardware compilation mapping (book: mapping.md).
//!
//! Under the hardware models (SC, TSO, PSO, PSLO) every access is a plain
//! hardware access; C11 memory orders only decide which barriers a compiler
//! would emit around it. [`compile`] rewrites a [`Program`] into the program
//! the hardware model runs, so that the operational and the axiomatic
//! hardware models see exactly the same barriers.
//!
//! | C11 operation | TSO | PSO / PSLO |
//! |---|---|---|
//! | load na/rlx, store na/rlx | plain | plain |
//! | store rel | plain | `fence(ss)`; store |
//! | load acq | plain | load; `fence(ll)` |
//! | load sc | plain | `fence(full)`; load; `fence(ll)` |
//! | store sc | store; `fence(full)` | `fence(ss)`; store; `fence(full)` |
//! | RMW any order | locked RMW | rel/acq_rel/sc: `fence(ss)` before; acq/acq_rel/sc: `fence(ll)` after |
//! | fence acq / rel / acq_rel | nothing | `ll` / `ss` / `ll`+`ss` |
//! | fence sc | `full` | `full` |
//!
//! Under SC the mapping only removes C11 fences (every fence is a no-op
//! there). With [`Mapping::Plain`] orders are ignored entirely: C11 fences
//! are removed and hardware barriers kept, for every target.
//!
//! Inserted instructions carry the span, line and text of the instruction
//! they were inserted for, with [`Origin::Mapping`], and a text such as
//! `fence(ss) [for store(x, 1, rel)]`.

use crate::ir::{
    C11Fence, FenceKind, HwFence, Instr, InstrId, Instruction, Origin, Program, ReadOrd,
    ThreadKind, WriteOrd,
};

/// Which compilation scheme hardware models apply (`--mapping`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Mapping {
    /// The table above.
    #[default]
    Standard,
    /// Ignore memory orders; drop C11 fences, keep hardware barriers.
    Plain,
}

/// The hardware family a program is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Sc,
    Tso,
    /// PSO and PSLO share one scheme.
    Pso,
}

/// Rewrites `program` for `target` under `mapping`. Jump targets and fork
/// sites are renumbered; everything else is kept.
pub fn compile(program: &Program, target: Target, mapping: Mapping) -> Program {
    let mut out = program.clone();
    let mut fork_sites = Vec::new();
    for thread in &mut out.threads {
        let (code, remap) = compile_thread(&thread.code, target, mapping);
        thread.code = code;
        fork_sites.push(remap);
    }
    for t in 0..out.threads.len() {
        if let ThreadKind::Forked { parent, at } = out.threads[t].kind {
            let at = fork_sites[parent.index()][at.index()];
            out.threads[t].kind = ThreadKind::Forked {
                parent,
                at: fork_site(&out, parent, at),
            };
        }
    }
    out
}

/// The fork instruction at or after `from` (the expansion of a fork may
/// begin with nothing else, but be robust to that anyway).
fn fork_site(program: &Program, parent: crate::ir::ThreadId, from: InstrId) -> InstrId {
    let code = &program.thread(parent).code;
    (from.index()..code.len())
        .find(|&i| matches!(code[i].instr, Instr::Fork { .. }))
        .map(InstrId::new)
        .expect("relaxlab internal error: fork site lost by the mapping")
}

/// The barriers placed before and after one instruction.
fn barriers(instr: &Instr, target: Target, mapping: Mapping) -> (Vec<HwFence>, Vec<HwFence>) {
    use HwFence::{Full, LL, SS};
    if mapping == Mapping::Plain {
        return (vec![], vec![]);
    }
    match (target, instr) {
        (Target::Sc, _) => (vec![], vec![]),
        (
            Target::Tso,
            Instr::Store {
                ord: WriteOrd::Sc, ..
            },
        ) => (vec![], vec![Full]),
        (Target::Tso, _) => (vec![], vec![]),
        (Target::Pso, Instr::Store { ord, .. }) => match ord {
            WriteOrd::Na | WriteOrd::Rlx => (vec![], vec![]),
            WriteOrd::Rel => (vec![SS], vec![]),
            WriteOrd::Sc => (vec![SS], vec![Full]),
        },
        (Target::Pso, Instr::Load { ord, .. }) => match ord {
            ReadOrd::Na | ReadOrd::Rlx => (vec![], vec![]),
            ReadOrd::Acq => (vec![], vec![LL]),
            ReadOrd::Sc => (vec![Full], vec![LL]),
        },
        (Target::Pso, Instr::Rmw { ord, .. } | Instr::Cas { ord, .. }) => {
            let before = if ord.is_release() { vec![SS] } else { vec![] };
            let after = if ord.is_acquire() { vec![LL] } else { vec![] };
            (before, after)
        }
        _ => (vec![], vec![]),
    }
}

/// What a fence becomes: the hardware barriers that replace it.
fn fence_replacement(kind: FenceKind, target: Target, mapping: Mapping) -> Vec<HwFence> {
    use HwFence::{Full, LL, SS};
    match kind {
        FenceKind::Hw(hw) => vec![hw],
        FenceKind::C11(_) if mapping == Mapping::Plain => vec![],
        FenceKind::C11(c) => match (target, c) {
            (Target::Sc, _) => vec![],
            (Target::Tso, C11Fence::Sc) => vec![Full],
            (Target::Tso, _) => vec![],
            (Target::Pso, C11Fence::Acq) => vec![LL],
            (Target::Pso, C11Fence::Rel) => vec![SS],
            (Target::Pso, C11Fence::AcqRel) => vec![LL, SS],
            (Target::Pso, C11Fence::Sc) => vec![Full],
        },
    }
}

fn inserted(hw: HwFence, for_ins: &Instruction) -> Instruction {
    Instruction {
        instr: Instr::Fence {
            kind: FenceKind::Hw(hw),
        },
        span: for_ins.span,
        line: for_ins.line,
        text: format!("fence({}) [for {}]", hw_name(hw), for_ins.text),
        origin: Origin::Mapping,
    }
}

/// The source name of a hardware barrier.
pub fn hw_name(hw: HwFence) -> &'static str {
    match hw {
        HwFence::SS => "ss",
        HwFence::SL => "sl",
        HwFence::LL => "ll",
        HwFence::LS => "ls",
        HwFence::Full => "full",
    }
}

/// Compiles one thread; also returns, for every old instruction index, the
/// new index of the first instruction of its expansion.
fn compile_thread(
    code: &[Instruction],
    target: Target,
    mapping: Mapping,
) -> (Vec<Instruction>, Vec<InstrId>) {
    let mut out = Vec::with_capacity(code.len());
    let mut remap = Vec::with_capacity(code.len());
    for ins in code {
        remap.push(InstrId::new(out.len()));
        if let Instr::Fence { kind } = ins.instr {
            match kind {
                // A barrier written in the source is kept as it is.
                FenceKind::Hw(_) => out.push(ins.clone()),
                FenceKind::C11(_) => out.extend(
                    fence_replacement(kind, target, mapping)
                        .into_iter()
                        .map(|hw| inserted(hw, ins)),
                ),
            }
            continue;
        }
        let (before, after) = barriers(&ins.instr, target, mapping);
        out.extend(before.into_iter().map(|hw| inserted(hw, ins)));
        out.push(ins.clone());
        out.extend(after.into_iter().map(|hw| inserted(hw, ins)));
    }
    for ins in &mut out {
        match &mut ins.instr {
            Instr::Branch { target, .. } | Instr::Jump { target } => {
                *target = remap[target.index()];
            }
            // A hardware compare-and-swap (x86's `lock cmpxchg`) does not
            // fail spuriously: a weak CAS compiles to a strong one.
            Instr::Cas { weak, .. } => *weak = false,
            _ => {}
        }
    }
    debug_assert!(matches!(out.last().map(|i| &i.instr), Some(Instr::End)));
    (out, remap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::*;

    fn ins(instr: Instr, text: &str) -> Instruction {
        Instruction {
            instr,
            span: Span::default(),
            line: 1,
            text: text.into(),
            origin: Origin::Source,
        }
    }

    fn program(code: Vec<Instruction>) -> Program {
        Program {
            name: "t".into(),
            doc: None,
            locations: vec![Location {
                name: "x".into(),
                init: 0,
                atomicity: Atomicity::Atomic,
                span: Span::default(),
            }],
            threads: vec![ThreadCode {
                name: "P0".into(),
                kind: ThreadKind::TopLevel,
                regs: vec!["r0".into()],
                code,
                span: Span::default(),
            }],
            toplevel: 1,
            condition: None,
            filter: None,
            filter_only: Vec::new(),
            observed: vec![],
            expectations: vec![],
            c: None,
            herd_reading: None,
            arrays: Vec::new(),
        }
    }

    fn fences(p: &Program) -> Vec<String> {
        p.threads[0].code.iter().map(|i| i.text.clone()).collect()
    }

    #[test]
    fn sc_store_gets_full_fence_under_tso_and_ss_full_under_pso() {
        let p = program(vec![
            ins(
                Instr::Store {
                    loc: LocId(0),
                    val: Expr::Const(1),
                    ord: WriteOrd::Sc,
                },
                "st",
            ),
            ins(Instr::End, "end"),
        ]);
        assert_eq!(
            fences(&compile(&p, Target::Tso, Mapping::Standard)),
            ["st", "fence(full) [for st]", "end"]
        );
        assert_eq!(
            fences(&compile(&p, Target::Pso, Mapping::Standard)),
            ["fence(ss) [for st]", "st", "fence(full) [for st]", "end"]
        );
        assert_eq!(
            fences(&compile(&p, Target::Pso, Mapping::Plain)),
            ["st", "end"]
        );
    }

    #[test]
    fn jump_targets_follow_their_instruction() {
        // 0: branch r0 to 2; 1: load acq; 2: end
        let p = program(vec![
            ins(
                Instr::Branch {
                    cond: Expr::Reg(RegId(0)),
                    target: InstrId(2),
                },
                "if",
            ),
            ins(
                Instr::Load {
                    dst: RegId(0),
                    loc: LocId(0),
                    ord: ReadOrd::Acq,
                },
                "ld",
            ),
            ins(
                Instr::Fence {
                    kind: FenceKind::C11(C11Fence::Acq),
                },
                "fa",
            ),
            ins(Instr::End, "end"),
        ]);
        let tso = compile(&p, Target::Tso, Mapping::Standard);
        // Under TSO the acquire fence disappears; the branch to it now
        // lands on `end`.
        assert_eq!(fences(&tso), ["if", "ld", "end"]);
        assert_eq!(
            tso.threads[0].code[0].instr,
            Instr::Branch {
                cond: Expr::Reg(RegId(0)),
                target: InstrId(2)
            }
        );
        let pso = compile(&p, Target::Pso, Mapping::Standard);
        assert_eq!(
            fences(&pso),
            [
                "if",
                "ld",
                "fence(ll) [for ld]",
                "fence(ll) [for fa]",
                "end"
            ]
        );
        assert_eq!(
            pso.threads[0].code[0].instr,
            Instr::Branch {
                cond: Expr::Reg(RegId(0)),
                target: InstrId(3)
            }
        );
    }
}
