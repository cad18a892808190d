//! Data and control dependencies of an execution (herd7's `data` and
//! `ctrl`), recovered from the program the execution came from.
//!
//! Each thread is replayed on the values its reads got in the execution,
//! with every register carrying the set of reads its value was computed
//! from (a taint). A write depends by `data` on the reads tainting the
//! expression it stores (the stored value of a store, the operand of an
//! RMW, the desired value of a CAS). A branch adds the reads tainting its
//! condition to the thread's control taint, and every later event of the
//! thread depends on them by `ctrl` (herd7: "the second event is in a
//! branch controlled by the value loaded by the first"). The IR's
//! locations are static, so there are no address dependencies (`addr` is
//! empty), and the comparison inside a CAS is not a branch.

use super::rows::bit;
use crate::axiomatic::execution::{EventKind, Execution};
use crate::ir::{Expr, Instr, Program, ThreadId, Value};

/// `data` and `ctrl` as rows over the execution's events.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Deps {
    pub data: Vec<u128>,
    pub ctrl: Vec<u128>,
}

/// The reads an expression's registers were computed from.
fn taint_of(e: &Expr, taint: &[u128], regs: &mut Vec<crate::ir::RegId>) -> u128 {
    regs.clear();
    e.regs(regs);
    regs.iter().fold(0, |acc, r| acc | taint[r.index()])
}

/// The dependencies of `ex`, an execution of `program` (the program the
/// model judged: unrolled and compiled).
pub(crate) fn dependencies(program: &Program, ex: &Execution) -> Deps {
    let n = ex.len();
    let mut deps = Deps {
        data: vec![0; n],
        ctrl: vec![0; n],
    };
    for t in 0..program.threads.len() {
        let events: Vec<usize> = (0..n)
            .filter(|&e| ex.events[e].thread == Some(ThreadId::new(t)))
            .collect();
        if !events.is_empty() {
            replay(program, ThreadId::new(t), ex, &events, &mut deps);
        }
    }
    deps
}

/// Replays thread `tid` over its events (in program order), adding its
/// dependencies. A mismatch between code and events ends the replay: it
/// would be a bug of the engine, and the relations stay what was found.
fn replay(program: &Program, tid: ThreadId, ex: &Execution, events: &[usize], deps: &mut Deps) {
    let code = &program.thread(tid).code;
    let nregs = program.thread(tid).regs.len();
    let mut values = vec![0i64; nregs];
    let mut taint = vec![0u128; nregs];
    let mut ctrl = 0u128;
    let mut next = 0;
    let mut pc = 0;
    let mut scratch = Vec::new();
    // Takes the next event if it comes from instruction `pc`.
    let take = |next: &mut usize, pc: usize| -> Option<usize> {
        let e = *events.get(*next)?;
        (ex.events[e].instr.map(|i| i.index()) == Some(pc)).then(|| {
            *next += 1;
            e
        })
    };
    // Every step is bounded by the events left (a loop-free program), but
    // guard against a bug looping forever.
    let mut fuel = code.len() * (events.len() + 1) + 1;
    while let Some(ins) = code.get(pc) {
        fuel = match fuel.checked_sub(1) {
            Some(f) => f,
            None => return,
        };
        let here = pc;
        pc += 1;
        match &ins.instr {
            Instr::Assign { dst, val } => {
                let Ok(v) = val.eval(&values) else { return };
                values[dst.index()] = v;
                taint[dst.index()] = taint_of(val, &taint, &mut scratch);
            }
            Instr::Branch { cond, target } => {
                let Ok(v) = cond.eval(&values) else { return };
                ctrl |= taint_of(cond, &taint, &mut scratch);
                if v == 0 {
                    pc = target.index();
                }
            }
            Instr::Jump { target } => pc = target.index(),
            Instr::Assert { cond } | Instr::Assume { cond } => match cond.eval(&values) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            },
            Instr::End => return,
            Instr::Fence { .. } | Instr::Join { .. } => {
                let Some(e) = take(&mut next, here) else {
                    return;
                };
                add_ctrl(deps, ctrl, e);
            }
            Instr::Fork { dst, child } => {
                let Some(e) = take(&mut next, here) else {
                    return;
                };
                add_ctrl(deps, ctrl, e);
                values[dst.index()] = crate::ir::handle_of(*child);
                taint[dst.index()] = 0;
            }
            Instr::Load { dst, .. } => {
                let Some(r) = take(&mut next, here) else {
                    return;
                };
                add_ctrl(deps, ctrl, r);
                values[dst.index()] = ex.events[r].value().unwrap_or(0);
                taint[dst.index()] = bit(r);
            }
            Instr::Store { val, .. } => {
                let Some(w) = take(&mut next, here) else {
                    return;
                };
                add_ctrl(deps, ctrl, w);
                add_data(deps, taint_of(val, &taint, &mut scratch), w);
            }
            Instr::Rmw { dst, operand, .. } => {
                let operand_taint = taint_of(operand, &taint, &mut scratch);
                let Some(r) = take(&mut next, here) else {
                    return;
                };
                add_ctrl(deps, ctrl, r);
                if let Some(w) = take(&mut next, here) {
                    add_ctrl(deps, ctrl, w);
                    add_data(deps, operand_taint, w);
                }
                values[dst.index()] = ex.events[r].value().unwrap_or(0);
                taint[dst.index()] = bit(r);
            }
            Instr::Cas {
                dst, desired, ok, ..
            } => {
                let desired_taint = taint_of(desired, &taint, &mut scratch);
                let Some(r) = take(&mut next, here) else {
                    return;
                };
                add_ctrl(deps, ctrl, r);
                let succeeded = events
                    .get(next)
                    .is_some_and(|&w| matches!(ex.events[w].kind, EventKind::Write { .. }));
                if succeeded {
                    if let Some(w) = take(&mut next, here) {
                        add_ctrl(deps, ctrl, w);
                        add_data(deps, desired_taint, w);
                    }
                }
                values[dst.index()] = ex.events[r].value().unwrap_or(0);
                taint[dst.index()] = bit(r);
                // The success flag is computed from the read, as the value.
                if let Some(ok) = ok {
                    values[ok.index()] = Value::from(succeeded);
                    taint[ok.index()] = bit(r);
                }
            }
        }
    }
}

/// CTRL: every read the thread's branches so far depended on, to `e`.
fn add_ctrl(deps: &mut Deps, ctrl: u128, e: usize) {
    for r in super::rows::members(ctrl) {
        deps.ctrl[r] |= bit(e);
    }
}

/// DATA: the reads the written value was computed from, to `w`.
fn add_data(deps: &mut Deps, reads: u128, w: usize) {
    for r in super::rows::members(reads) {
        deps.data[r] |= bit(w);
    }
}
