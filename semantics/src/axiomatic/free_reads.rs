//! Free reads: loads whose value steers nothing (book: axiomatic.md, Candidate executions: "candidates
//! are built by running each thread with the values its reads would get,
//! so control flow follows values").
//!
//! A load is *free* when the register it writes is dead right after it: no
//! later instruction reads the register before something else overwrites
//! it. The value of a free load then decides no branch, no assertion, no
//! stored value, no RMW operand and no division by zero; at most it ends
//! up in the thread's final registers. A thread path need not branch on it:
//! [`super::paths`] runs it once, and the candidate enumeration takes its
//! value from the write it reads from (`rf`), as herd7 does for every read.
//! This is only a change of representation: the candidates are the same
//! `(rf, co)` pairs the value-by-value paths give, and the outcome is the
//! same, since the final register takes the source's value.
//!
//! Why it matters: a thread of `k` observing reads over `v` values had `v^k`
//! paths, each a separate skeleton whose candidates were enumerated again
//! (herd's `fig6`: 4^6 paths for one thread, 16384 skeletons for 28800
//! candidates); free, it has one.
//!
//! The analysis is the textbook backward liveness fixpoint over the
//! thread's control-flow graph (`Branch` falls through or jumps, `Jump`
//! jumps, `End` stops), with the uses and definitions of [`uses`] and
//! [`defined`]. The final registers of a thread are not a use: they are
//! read after the thread ends, from the path (see `ThreadPath::free_regs`).

use crate::ir::{Instr, RegId, ThreadCode};

/// A set of registers, one bit each.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RegSet(Vec<u64>);

impl RegSet {
    fn empty(regs: usize) -> RegSet {
        RegSet(vec![0; regs.div_ceil(64).max(1)])
    }
    fn insert(&mut self, r: RegId) {
        self.0[r.index() / 64] |= 1 << (r.index() % 64);
    }
    fn remove(&mut self, r: RegId) {
        self.0[r.index() / 64] &= !(1 << (r.index() % 64));
    }
    fn contains(&self, r: RegId) -> bool {
        self.0[r.index() / 64] & (1 << (r.index() % 64)) != 0
    }
    /// Adds `other`; true if the set grew.
    fn union_with(&mut self, other: &RegSet) -> bool {
        let mut grew = false;
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            let next = *a | *b;
            grew |= next != *a;
            *a = next;
        }
        grew
    }
}

/// The registers an instruction reads.
fn uses(instr: &Instr, out: &mut Vec<RegId>) {
    match instr {
        Instr::Store { val, .. } => val.regs(out),
        Instr::Rmw { operand, .. } => operand.regs(out),
        Instr::Cas {
            expected, desired, ..
        } => {
            expected.regs(out);
            desired.regs(out);
        }
        Instr::Assign { val, .. } => val.regs(out),
        Instr::Branch { cond, .. } | Instr::Assert { cond } | Instr::Assume { cond } => {
            cond.regs(out)
        }
        Instr::Join { handle } => out.push(*handle),
        Instr::Load { .. } | Instr::Fence { .. } | Instr::Fork { .. } | Instr::Jump { .. } => {}
        Instr::End => {}
    }
}

/// The registers an instruction writes: at most two (a CAS's value and
/// success flag).
fn defined(instr: &Instr) -> [Option<RegId>; 2] {
    match instr {
        Instr::Cas { dst, ok, .. } => [Some(*dst), *ok],
        Instr::Load { dst, .. }
        | Instr::Rmw { dst, .. }
        | Instr::Assign { dst, .. }
        | Instr::Fork { dst, .. } => [Some(*dst), None],
        _ => [None, None],
    }
}

/// The instructions control may reach right after instruction `i`.
fn successors(code: &ThreadCode, i: usize) -> impl Iterator<Item = usize> {
    let (next, jump) = match &code.code[i].instr {
        Instr::End => (None, None),
        Instr::Jump { target } => (None, Some(target.index())),
        Instr::Branch { target, .. } => (Some(i + 1), Some(target.index())),
        _ => (Some(i + 1), None),
    };
    let n = code.code.len();
    next.into_iter().chain(jump).filter(move |&s| s < n)
}

/// Per instruction: is it a free load (see the module docs)?
pub(crate) fn free_loads(code: &ThreadCode) -> Vec<bool> {
    let n = code.code.len();
    let regs = code.regs.len();
    // live_in[i]: the registers read at or after i before being redefined.
    let mut live_in: Vec<RegSet> = vec![RegSet::empty(regs); n];
    let mut used = Vec::new();
    let mut changed = true;
    while changed {
        changed = false;
        for i in (0..n).rev() {
            let mut live = RegSet::empty(regs);
            for s in successors(code, i) {
                live.union_with(&live_in[s]);
            }
            let instr = &code.code[i].instr;
            for d in defined(instr).into_iter().flatten() {
                live.remove(d);
            }
            used.clear();
            uses(instr, &mut used);
            for &r in &used {
                live.insert(r);
            }
            changed |= live_in[i].union_with(&live);
        }
    }
    (0..n)
        .map(|i| match code.code[i].instr {
            Instr::Load { dst, .. } => !successors(code, i).any(|s| live_in[s].contains(dst)),
            _ => false,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Expr, Instruction, LocId, Origin, ReadOrd, Span, ThreadKind, WriteOrd};

    fn code(instrs: Vec<Instr>, regs: usize) -> ThreadCode {
        ThreadCode {
            name: "P0".into(),
            kind: ThreadKind::TopLevel,
            regs: (0..regs).map(|r| format!("r{r}")).collect(),
            code: instrs
                .into_iter()
                .map(|instr| Instruction {
                    instr,
                    span: Span::default(),
                    line: 1,
                    text: String::new(),
                    origin: Origin::Source,
                })
                .collect(),
            span: Span::default(),
        }
    }

    fn load(r: usize) -> Instr {
        Instr::Load {
            dst: RegId::new(r),
            loc: LocId::new(0),
            ord: ReadOrd::Rlx,
        }
    }

    #[test]
    fn a_load_only_observed_is_free_and_a_used_one_is_not() {
        let c = code(
            vec![
                load(0),
                load(1),
                Instr::Store {
                    loc: LocId::new(0),
                    val: Expr::Reg(RegId::new(1)),
                    ord: WriteOrd::Rlx,
                },
                Instr::End,
            ],
            2,
        );
        assert_eq!(free_loads(&c), vec![true, false, false, false]);
    }

    #[test]
    fn a_branch_on_the_value_uses_it_and_a_redefinition_kills_it() {
        let c = code(
            vec![
                load(0),
                Instr::Branch {
                    cond: Expr::Reg(RegId::new(0)),
                    target: crate::ir::InstrId::new(3),
                },
                load(0),
                load(0),
                Instr::Assign {
                    dst: RegId::new(0),
                    val: Expr::Const(1),
                },
                Instr::End,
            ],
            1,
        );
        assert_eq!(free_loads(&c), vec![false, false, true, true, false, false]);
    }
}
