//! Hand-built programs with 10^5..10^6 states for the operational
//! benchmarks: `threads` threads, each storing to and loading from a ring
//! of locations.

use relaxlab_semantics::ir::*;

fn ins(instr: Instr, text: &str) -> Instruction {
    Instruction {
        instr,
        span: Span::default(),
        line: 1,
        text: text.into(),
        origin: Origin::Source,
    }
}

/// Thread `i` runs `ops` pairs `store(L[(i + k) % locs], k + 1); r_k =
/// load(L[(i + k + 1) % locs])`.
pub fn ring(threads: usize, ops: usize, locs: usize) -> Program {
    let threads: Vec<ThreadCode> = (0..threads)
        .map(|i| {
            let mut code = Vec::new();
            let mut regs = Vec::new();
            for k in 0..ops {
                code.push(ins(
                    Instr::Store {
                        loc: LocId::new((i + k) % locs),
                        val: Expr::Const(k as Value + 1),
                        ord: WriteOrd::Rlx,
                    },
                    "store",
                ));
                regs.push(format!("r{k}"));
                code.push(ins(
                    Instr::Load {
                        dst: RegId::new(k),
                        loc: LocId::new((i + k + 1) % locs),
                        ord: ReadOrd::Rlx,
                    },
                    "load",
                ));
            }
            code.push(ins(Instr::End, "end"));
            ThreadCode {
                name: format!("P{i}"),
                kind: ThreadKind::TopLevel,
                regs,
                code,
                span: Span::default(),
            }
        })
        .collect();
    let observed = (0..threads.len())
        .flat_map(|t| (0..ops).map(move |r| Observable::Reg(ThreadId::new(t), RegId::new(r))))
        .collect();
    Program {
        name: "ring".into(),
        doc: None,
        locations: (0..locs)
            .map(|l| Location {
                name: format!("x{l}"),
                init: 0,
                atomicity: Atomicity::Atomic,
                span: Span::default(),
            })
            .collect(),
        threads,
        toplevel: 0,
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
