//! Which locations a thread may still load: a backward may-analysis over
//! each thread's control-flow graph, for models that keep per-thread state
//! about locations (PSLO's store histories, RELAXER Fig. 6).
//!
//! `may_load(t, pc)` holds location `a` when some path of thread `t` from
//! instruction `pc` (included) reaches a `load` of `a`: the least fixpoint
//! of `may_load(pc) = loads(pc) ∪ ⋃ may_load(succ)` over the successors of
//! `pc` (fall-through, branch and jump targets; none after `end`). RMWs and
//! CASes are not loads here: they read memory, not a history.
//!
//! A location outside `may_load` of a thread's next instruction is dead
//! for that thread: whatever the model keeps about it for the thread can
//! never be observed again, so dropping it merges states that only differ
//! in unobservable history (the classic dead-variable reduction of model
//! checkers). [`crate::model::MemoryModel::forget`] does the dropping.

use crate::ir::{Instr, InstrId, Program, ThreadId};

/// The may-load sets of every instruction of every thread of a program.
#[derive(Debug)]
pub(crate) struct MayLoad {
    /// Locations of the program.
    nloc: usize,
    /// Per thread, the index of its first instruction in `bits`.
    start: Vec<usize>,
    /// `bits[(start[t] + pc) * nloc + a]`: may thread `t` load `a` from `pc`?
    bits: Vec<bool>,
}

impl MayLoad {
    /// The analysis of `program` (every thread, to the fixpoint).
    pub(crate) fn of(program: &Program) -> MayLoad {
        let nloc = program.locations.len();
        let mut start = Vec::with_capacity(program.threads.len());
        let mut total = 0;
        for t in &program.threads {
            start.push(total);
            total += t.code.len();
        }
        let mut live = MayLoad {
            nloc,
            start,
            bits: vec![false; total * nloc],
        };
        for (t, code) in program.threads.iter().enumerate() {
            live.solve_thread(t, &code.code);
        }
        live
    }

    /// Iterates `may_load(pc) ⊇ loads(pc) ∪ may_load(succ)` backwards over
    /// thread `t`'s code until nothing changes (loops need several rounds).
    fn solve_thread(&mut self, t: usize, code: &[crate::ir::Instruction]) {
        let base = self.start[t];
        let nloc = self.nloc;
        let mut changed = true;
        while changed {
            changed = false;
            for pc in (0..code.len()).rev() {
                let (fall, target) = successors(&code[pc].instr, pc, code.len());
                for a in 0..nloc {
                    let here = (base + pc) * nloc + a;
                    if self.bits[here] {
                        continue;
                    }
                    let loads =
                        matches!(code[pc].instr, Instr::Load { loc, .. } if loc.index() == a);
                    let later = [fall, target]
                        .into_iter()
                        .flatten()
                        .any(|s| self.bits[(base + s) * nloc + a]);
                    if loads || later {
                        self.bits[here] = true;
                        changed = true;
                    }
                }
            }
        }
    }

    /// The locations thread `t` may still load from instruction `pc`, one
    /// flag per location.
    pub(crate) fn at(&self, t: ThreadId, pc: InstrId) -> &[bool] {
        let i = (self.start[t.index()] + pc.index()) * self.nloc;
        &self.bits[i..i + self.nloc]
    }
}

/// The control-flow successors of instruction `pc`: its fall-through and
/// its jump target.
fn successors(instr: &Instr, pc: usize, len: usize) -> (Option<usize>, Option<usize>) {
    let next = (pc + 1 < len).then_some(pc + 1);
    match instr {
        Instr::End => (None, None),
        Instr::Jump { target } => (None, Some(target.index())),
        Instr::Branch { target, .. } => (next, Some(target.index())),
        _ => (next, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Atomicity, Expr, Instruction, LocId, Location, Origin, ReadOrd, RegId};
    use crate::ir::{Span, ThreadCode, ThreadKind, WriteOrd};

    fn ins(instr: Instr) -> Instruction {
        Instruction {
            instr,
            span: Span::default(),
            line: 1,
            text: String::new(),
            origin: Origin::Source,
        }
    }

    fn load(a: usize) -> Instr {
        Instr::Load {
            dst: RegId::new(0),
            loc: LocId::new(a),
            ord: ReadOrd::Rlx,
        }
    }

    fn store(a: usize) -> Instr {
        Instr::Store {
            loc: LocId::new(a),
            val: Expr::Const(1),
            ord: WriteOrd::Rlx,
        }
    }

    fn program(code: Vec<Instr>) -> Program {
        Program {
            name: "t".into(),
            doc: None,
            locations: (0..2)
                .map(|i| Location {
                    name: format!("l{i}"),
                    init: 0,
                    atomicity: Atomicity::Atomic,
                    span: Span::default(),
                })
                .collect(),
            threads: vec![ThreadCode {
                name: "P0".into(),
                kind: ThreadKind::TopLevel,
                regs: vec!["r0".into()],
                code: code.into_iter().map(ins).collect(),
                span: Span::default(),
            }],
            toplevel: 1,
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

    fn at(m: &MayLoad, pc: usize) -> Vec<bool> {
        m.at(ThreadId::new(0), InstrId::new(pc)).to_vec()
    }

    #[test]
    fn straight_line_code_forgets_after_the_last_load() {
        let m = MayLoad::of(&program(vec![
            load(0),
            store(1),
            load(1),
            store(0),
            Instr::End,
        ]));
        assert_eq!(at(&m, 0), [true, true]);
        assert_eq!(at(&m, 1), [false, true]);
        assert_eq!(at(&m, 2), [false, true]);
        assert_eq!(at(&m, 3), [false, false]);
        assert_eq!(at(&m, 4), [false, false]);
    }

    #[test]
    fn a_loop_keeps_its_loads_live_on_every_instruction_of_the_body() {
        // 0: store l1; 1: load l0; 2: branch r0 -> 4; 3: jump 0; 4: end
        let m = MayLoad::of(&program(vec![
            store(1),
            load(0),
            Instr::Branch {
                cond: Expr::Reg(RegId::new(0)),
                target: InstrId::new(4),
            },
            Instr::Jump {
                target: InstrId::new(0),
            },
            Instr::End,
        ]));
        for pc in 0..4 {
            assert_eq!(at(&m, pc), [true, false], "pc {pc}");
        }
        assert_eq!(at(&m, 4), [false, false]);
    }
}
