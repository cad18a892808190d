//! Loop unrolling, an IR-to-IR pass (book: language.md, Loops and bounds):
//! every loop is unrolled K times and its K+1st test becomes `assume(!E)`,
//! so that executions needing more iterations are discarded, never
//! answered wrongly.
//!
//! A loop is a backward jump: instruction `j` (a `Jump` or a `Branch`)
//! whose target `h <= j`; its body is the region `h..=j`. Loops come from
//! structured `while` statements, so regions nest. The pass repeatedly
//! takes the back edge with the smallest `j` (an innermost loop: any loop
//! nested in it would end before it) and replaces its region by:
//!
//! 1. K copies of the region, copy `i` falling through into copy `i+1`
//!    where the original jumped back to `h`;
//! 2. the K+1st test: for a `while` loop (`h` is a `Branch` leaving the
//!    region) `assume(!E)` and a jump to its exit; for a loop whose back edge
//!    is itself conditional, that back edge becomes `assume` in the last
//!    copy; for anything else, `assume(false)`.
//!
//! Jumps from a copy into its own region stay within that copy; jumps
//! leaving the region go to where their target moved. Copies after the
//! first and the added tests carry [`Origin::Unroll`].
//!
//! Deviation: none from the language (book: language.md, Loops and bounds). A `fork` inside a loop (which the
//! front end rejects) would be kept in the first copy only for
//! [`ThreadKind::Forked`]'s site.

use crate::ir::{Expr, Instr, InstrId, Instruction, Origin, Program, ThreadKind, UnOp};

/// Unrolls every loop of `program` `k` times.
pub fn unroll(program: &Program, k: u32) -> Program {
    let mut out = program.clone();
    let mut sites = Vec::with_capacity(out.threads.len());
    for thread in &mut out.threads {
        let (code, remap) = unroll_thread(&thread.code, k);
        thread.code = code;
        sites.push(remap);
    }
    for t in 0..out.threads.len() {
        if let ThreadKind::Forked { parent, at } = out.threads[t].kind {
            if let Some(new_at) = sites
                .get(parent.index())
                .and_then(|remap| remap.get(at.index()))
            {
                out.threads[t].kind = ThreadKind::Forked {
                    parent,
                    at: *new_at,
                };
            }
        }
    }
    out
}

/// The first back edge of `code`: `(head, back)` with `head <= back`.
fn first_back_edge(code: &[Instruction]) -> Option<(usize, usize)> {
    code.iter()
        .enumerate()
        .find_map(|(i, ins)| match &ins.instr {
            Instr::Branch { target, .. } | Instr::Jump { target } if target.index() <= i => {
                Some((target.index(), i))
            }
            _ => None,
        })
}

/// Unrolls every loop of one thread; also returns, for every original
/// instruction, where (the first copy of) it ends up.
fn unroll_thread(code: &[Instruction], k: u32) -> (Vec<Instruction>, Vec<InstrId>) {
    let mut code = code.to_vec();
    let mut sites: Vec<InstrId> = (0..code.len()).map(InstrId::new).collect();
    while let Some((head, back)) = first_back_edge(&code) {
        let (next, remap) = unroll_loop(&code, head, back, k);
        for site in &mut sites {
            *site = remap[site.index()];
        }
        code = next;
    }
    (code, sites)
}

fn not(e: &Expr) -> Expr {
    Expr::Unary(UnOp::Not, Box::new(e.clone()))
}

fn added(instr: Instr, like: &Instruction, what: &str) -> Instruction {
    Instruction {
        instr,
        span: like.span,
        line: like.line,
        text: format!("{what} [unroll of {}]", like.text),
        origin: Origin::Unroll,
    }
}

/// Replaces the loop `head..=back` by K copies and its K+1st test. Returns
/// the new code and, for every old index, its new index (instructions of
/// the region map to their first copy).
fn unroll_loop(
    code: &[Instruction],
    head: usize,
    back: usize,
    k: u32,
) -> (Vec<Instruction>, Vec<InstrId>) {
    let len = back + 1 - head;
    let copies = k as usize;
    let head_ins = &code[head];
    // The exit of a `while` loop: its head branches out of the region.
    let while_exit = match &head_ins.instr {
        Instr::Branch { cond, target } if target.index() > back => Some((cond.clone(), *target)),
        _ => None,
    };
    let conditional_back = matches!(code[back].instr, Instr::Branch { .. });
    // The K+1st test: how many instructions it takes.
    let tail_len = match (&while_exit, conditional_back) {
        (_, true) => 0, // the last copy's back edge is the test
        (Some(_), false) => 2,
        (None, false) => 1,
    };
    let tail_len = if conditional_back && copies == 0 {
        1
    } else {
        tail_len
    };
    let added_len = copies * len + tail_len;
    // New index of an instruction outside the region.
    let outside = |i: usize| -> usize {
        if i < head {
            i
        } else {
            i - len + added_len
        }
    };
    let mut remap: Vec<InstrId> = Vec::with_capacity(code.len());
    for i in 0..code.len() {
        remap.push(InstrId::new(if (head..=back).contains(&i) {
            head + (i - head)
        } else {
            outside(i)
        }));
    }
    let exit_of_region = outside(back + 1);
    let retarget = |t: InstrId, copy_start: usize| -> InstrId {
        let t = t.index();
        if (head..=back).contains(&t) {
            InstrId::new(copy_start + (t - head))
        } else {
            InstrId::new(outside(t))
        }
    };
    let mut out: Vec<Instruction> = Vec::with_capacity(code.len() + added_len);
    for ins in &code[..head] {
        out.push(retarget_outside(ins, head, &retarget));
    }
    for c in 0..copies {
        let start = head + c * len;
        let next_start = start + len;
        for (off, ins) in code[head..=back].iter().enumerate() {
            let mut ins = ins.clone();
            if c > 0 {
                ins.origin = Origin::Unroll;
            }
            let is_back = off == len - 1;
            ins.instr = match ins.instr {
                // The back edge falls through into the next copy.
                Instr::Jump { .. } if is_back => Instr::Jump {
                    target: InstrId::new(next_start),
                },
                Instr::Branch { cond, .. } if is_back => {
                    if c + 1 == copies {
                        // The K+1st test: jumping back means another
                        // iteration, which the bound discards.
                        Instr::Assume { cond }
                    } else {
                        Instr::Branch {
                            cond: not(&cond),
                            target: InstrId::new(exit_of_region),
                        }
                    }
                }
                Instr::Branch { cond, target } => Instr::Branch {
                    cond,
                    target: retarget(target, start),
                },
                Instr::Jump { target } => Instr::Jump {
                    target: retarget(target, start),
                },
                other => other,
            };
            out.push(ins);
        }
    }
    match (&while_exit, conditional_back) {
        (_, true) if copies == 0 => {
            // The body must run once before the test; with K = 0 even that
            // first run is more than the bound allows.
            out.push(added(
                Instr::Assume {
                    cond: Expr::Const(0),
                },
                head_ins,
                "assume(false)",
            ));
        }
        (_, true) => {}
        (Some((cond, exit)), false) => {
            out.push(added(
                Instr::Assume { cond: not(cond) },
                head_ins,
                "assume(!E)",
            ));
            out.push(added(
                Instr::Jump {
                    target: InstrId::new(outside(exit.index())),
                },
                head_ins,
                "exit",
            ));
        }
        (None, false) => {
            out.push(added(
                Instr::Assume {
                    cond: Expr::Const(0),
                },
                head_ins,
                "assume(false)",
            ));
        }
    }
    debug_assert_eq!(
        out.len(),
        head + added_len,
        "relaxlab internal error: unrolled region has the wrong length"
    );
    for ins in &code[back + 1..] {
        out.push(retarget_outside(ins, head, &retarget));
    }
    (out, remap)
}

/// An instruction outside the region, its jump target moved. A jump into
/// the region from outside (only ever to its head) enters the first copy.
fn retarget_outside(
    ins: &Instruction,
    head: usize,
    retarget: &impl Fn(InstrId, usize) -> InstrId,
) -> Instruction {
    let mut ins = ins.clone();
    match &mut ins.instr {
        Instr::Branch { target, .. } | Instr::Jump { target } => *target = retarget(*target, head),
        _ => {}
    }
    ins
}
