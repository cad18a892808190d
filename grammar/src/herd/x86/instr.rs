//! One cell of the column layout: labels, then at most one instruction,
//! as herd7's X86 and X86_64 parsers read it (rules `instr_option` and
//! `instr`), in Intel operand order (destination first).
//!
//! The instructions read, in both syntaxes (AT&T mnemonics may carry a
//! size suffix `b`, `w`, `l`, `q`; `LOCK` may be followed by `;`, as herd
//! allows):
//! `MOV`; `ADD`, `SUB`, `AND`, `OR`, `XOR`, `SHL`; `INC`, `DEC`; `CMP`;
//! `XCHG` (and herd's `UXCH`); `XADD`; `CMPXCHG`; `MFENCE`, `SFENCE`,
//! `LFENCE`; `SETNB`; `CMOVC`; the jumps `JMP`, `JE`, `JNE`, `JLE`, `JLT`
//! (`JL`), `JGE`, `JGT` (`JG`), `JS`, `JNS` (also `JZ`, `JNZ`) to a label
//! of the same thread; `RET`; and in AT&T the no-ops `nop`, `nopl ...`,
//! `endbr64`. Other mnemonics are refused by name. herd reads AT&T
//! `cmpxchg` and `cmovc` destination first ([`herd_keeps_intel_order`]).

use relaxlab_semantics::ir::Span;

use super::att;
use super::operand::{self, Operand};
use crate::herd::error::HerdError;
use crate::herd::lexer::{Cursor, Tok};

/// How the instructions are spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Syntax {
    /// herd's `X86`: `MOV [x],$1`, `EAX`.
    Intel,
    /// herd's `X86_64`: `movl $1,(x)`, `%eax` ([`super::att`]).
    Att,
}

/// An operand with its place in the herd text.
pub(super) type Op = (Operand, Span);

/// The arithmetic of `ADD`-like instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Alu {
    Add,
    Sub,
    And,
    Or,
    Xor,
    Shl,
}

/// The condition of a conditional jump.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cond {
    Eq,
    Ne,
    Le,
    Lt,
    Ge,
    Gt,
    Sign,
    NoSign,
}

/// The label a jump goes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Target {
    pub label: String,
    pub span: Span,
}

/// One instruction, operands in Intel order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Instr {
    Mov {
        dst: Op,
        src: Op,
    },
    Alu {
        op: Alu,
        dst: Op,
        src: Op,
        locked: bool,
    },
    IncDec {
        inc: bool,
        dst: Op,
        locked: bool,
    },
    Cmp {
        a: Op,
        b: Op,
    },
    Xchg {
        a: Op,
        b: Op,
    },
    Xadd {
        dst: Op,
        src: Op,
        locked: bool,
    },
    Cmpxchg {
        dst: Op,
        src: Op,
        locked: bool,
    },
    /// `MFENCE`, `SFENCE`, `LFENCE`: relaxlab's `full`, `ss`, `ll`.
    Fence(&'static str),
    Setnb(Op),
    Cmovc {
        dst: Op,
        src: Op,
    },
    Jmp(Target),
    Jcc(Cond, Target),
    Ret,
    Nop,
}

/// A cell: its labels and its instruction, if any.
#[derive(Clone, Debug, Default)]
pub(super) struct Cell {
    pub labels: Vec<(String, Span)>,
    pub instr: Option<(Instr, Span)>,
    /// The access size in bytes (AT&T: from the suffix, or else from the
    /// first register operand).
    pub size: Option<u8>,
}

/// The conditional jumps, by mnemonic.
fn jump_condition(m: &str) -> Option<Cond> {
    Some(match m {
        "JE" | "JZ" => Cond::Eq,
        "JNE" | "JNZ" => Cond::Ne,
        "JLE" => Cond::Le,
        "JLT" | "JL" => Cond::Lt,
        "JGE" => Cond::Ge,
        "JGT" | "JG" => Cond::Gt,
        "JS" => Cond::Sign,
        "JNS" => Cond::NoSign,
        _ => return None,
    })
}

/// The arithmetic instructions, by mnemonic.
fn alu(m: &str) -> Option<Alu> {
    Some(match m {
        "ADD" => Alu::Add,
        "SUB" => Alu::Sub,
        "AND" => Alu::And,
        "OR" => Alu::Or,
        "XOR" => Alu::Xor,
        "SHL" | "SAL" => Alu::Shl,
        _ => return None,
    })
}

/// Mnemonics herd7 knows that relaxlab refuses, with the reason.
fn refused_mnemonic(m: &str) -> Option<&'static str> {
    Some(match m {
        "MOVNTI" | "MOVNTDQA" => {
            "a non-temporal access is not ordered as TSO orders the others; relaxlab's models have no such access"
        }
        "MOVSD" | "MOVD" | "MOVT" => "relaxlab values are integers: no floating-point or vector moves",
        "CLFLUSH" | "CLFLUSHOPT" => "relaxlab's models have no caches to flush",
        "CALL" => "relaxlab threads have no call stack",
        _ => return None,
    })
}

/// Reads one cell (its tokens, ending at byte `end`) into labels and an
/// instruction.
pub(super) fn cell<'s>(
    src: &'s str,
    toks: Vec<(Tok<'s>, Span)>,
    end: usize,
    syntax: Syntax,
) -> Result<Cell, HerdError> {
    let mut cur = Cursor::sub(src, toks, end);
    let mut out = Cell::default();
    while let (Tok::Ident(l), Tok::Colon) = (cur.peek(), cur.peek_at(1)) {
        let (_, span) = cur.bump();
        cur.bump();
        out.labels.push((l.to_string(), span));
    }
    if cur.peek() == Tok::Eof {
        return Ok(out);
    }
    let (first, first_span) = cur.ident("an instruction or a label `L0:`")?;
    let locked = first.eq_ignore_ascii_case("LOCK");
    let (written, mut span) = (first, first_span);
    let written = if locked {
        cur.eat(Tok::Semi);
        let (m, s) = cur.ident("an instruction after `LOCK`")?;
        span = Span::new(first_span.start as usize, s.end as usize);
        m
    } else {
        written
    };
    if syntax == Syntax::Att && att::is_no_op(written) && !locked {
        // `nopl 0(%rax,%rax,1)`: the operands do nothing either.
        while cur.peek() != Tok::Eof {
            cur.bump();
        }
        out.instr = Some((Instr::Nop, span));
        return Ok(out);
    }
    let (m, size) = match syntax {
        Syntax::Intel => {
            let upper = written.to_ascii_uppercase();
            match upper.as_str() {
                "MOVB" | "MOVW" | "MOVL" | "MOVQ" => ("MOV".to_string(), None),
                _ => (upper, None),
            }
        }
        Syntax::Att => att::mnemonic(written),
    };
    let whole = |cur: &Cursor<'_>| {
        Span::new(
            span.start as usize,
            cur.prev_span().end.max(span.end) as usize,
        )
    };
    if m == "JMP" || jump_condition(&m).is_some() {
        let (label, lspan) = cur.ident("the label to jump to")?;
        if cur.peek() != Tok::Eof {
            return Err(cur.error("the end of the instruction"));
        }
        let target = Target {
            label: label.to_string(),
            span: lspan,
        };
        let instr = match jump_condition(&m) {
            Some(c) => Instr::Jcc(c, target),
            None => Instr::Jmp(target),
        };
        if locked {
            return Err(lock_refused(written, whole(&cur)));
        }
        out.instr = Some((instr, whole(&cur)));
        return Ok(out);
    }
    let mut ops: Vec<Op> = Vec::new();
    if cur.peek() != Tok::Eof {
        loop {
            ops.push(match syntax {
                Syntax::Intel => operand::intel(&mut cur)?,
                Syntax::Att => operand::att(&mut cur)?,
            });
            if cur.peek() == Tok::Eof {
                break;
            }
            cur.expect(Tok::Comma, "`,` between operands")?;
        }
    }
    let span = whole(&cur);
    if syntax == Syntax::Att && !herd_keeps_intel_order(&m, &ops) {
        // AT&T writes the source first.
        ops.reverse();
    }
    out.size = size.or_else(|| {
        ops.iter().find_map(|(o, _)| match o {
            Operand::Reg(r) if syntax == Syntax::Att => Some(r.width),
            _ => None,
        })
    });
    out.instr = Some((instruction(&m, written, locked, ops, span)?, span));
    Ok(out)
}

/// herd's X86_64 grammar reads `cmpxchg` and `cmovc` destination first,
/// as Intel does (`cmpxchgl (x),%ecx`, `cmovc %eax,(x)`), where AT&T
/// writes the destination last: herd's order is kept, and AT&T's is read
/// too where the operands tell them apart (a location and a register).
fn herd_keeps_intel_order(m: &str, ops: &[Op]) -> bool {
    let kinds: Vec<bool> = ops
        .iter()
        .map(|(o, _)| matches!(o, Operand::Mem(_)))
        .collect();
    matches!(
        (m, kinds.as_slice()),
        ("CMPXCHG", [_, false]) | ("CMOVC", [false, _])
    )
}

/// The instruction `m` (herd's `X86` spelling) with its operands.
fn instruction(
    m: &str,
    written: &str,
    locked: bool,
    ops: Vec<Op>,
    span: Span,
) -> Result<Instr, HerdError> {
    let lockable = matches!(
        m,
        "ADD" | "SUB" | "AND" | "OR" | "XOR" | "INC" | "DEC" | "XCHG" | "UXCH" | "XADD" | "CMPXCHG"
    );
    if locked && !lockable {
        return Err(lock_refused(written, span));
    }
    let arity = |n: usize| {
        HerdError::unsupported(
            format!(
                "`{written}` with {} operand{}",
                ops.len(),
                if ops.len() == 1 { "" } else { "s" }
            ),
            span,
            format!(
                "`{written}` takes {n} operand{}",
                if n == 1 { "" } else { "s" }
            ),
        )
    };
    let two = || <[Op; 2]>::try_from(ops.clone()).map_err(|_| arity(2));
    let one = || <[Op; 1]>::try_from(ops.clone()).map_err(|_| arity(1));
    let none = || {
        if ops.is_empty() {
            Ok(())
        } else {
            Err(arity(0))
        }
    };
    Ok(match m {
        "MOV" => {
            let [dst, src] = two()?;
            Instr::Mov { dst, src }
        }
        _ if alu(m).is_some() => {
            let [dst, src] = two()?;
            let op = alu(m).unwrap_or(Alu::Add);
            Instr::Alu {
                op,
                dst,
                src,
                locked,
            }
        }
        "CMP" => {
            let [a, b] = two()?;
            Instr::Cmp { a, b }
        }
        "XCHG" | "UXCH" => {
            let [a, b] = two()?;
            Instr::Xchg { a, b }
        }
        "XADD" => {
            let [dst, src] = two()?;
            Instr::Xadd { dst, src, locked }
        }
        "CMPXCHG" => {
            let [dst, src] = two()?;
            Instr::Cmpxchg { dst, src, locked }
        }
        "CMOVC" => {
            let [dst, src] = two()?;
            Instr::Cmovc { dst, src }
        }
        "SETNB" => {
            let [dst] = one()?;
            Instr::Setnb(dst)
        }
        "INC" | "DEC" => {
            let [dst] = one()?;
            Instr::IncDec {
                inc: m == "INC",
                dst,
                locked,
            }
        }
        "MFENCE" | "SFENCE" | "LFENCE" => {
            none()?;
            Instr::Fence(match m {
                "MFENCE" => "full",
                "SFENCE" => "ss",
                _ => "ll",
            })
        }
        "RET" | "RETQ" => {
            none()?;
            Instr::Ret
        }
        _ => {
            if let Some(why) = refused_mnemonic(m) {
                return Err(HerdError::unsupported(
                    format!("the instruction `{written}`"),
                    span,
                    why,
                ));
            }
            return Err(HerdError::unsupported(
                format!("the instruction `{written}`"),
                span,
                "relaxlab reads MOV, ADD/SUB/AND/OR/XOR/SHL, INC/DEC, CMP, XCHG, XADD, \
                 CMPXCHG, the fences, SETNB, CMOVC, the jumps, RET and LOCK\n\
                 (book: herd.md, The supported subset)",
            ));
        }
    })
}

/// `LOCK` on an instruction that cannot take it.
fn lock_refused(written: &str, span: Span) -> HerdError {
    HerdError::unsupported(
        format!("`LOCK {written}`"),
        span,
        "LOCK applies to ADD, SUB, AND, OR, XOR, INC, DEC, XCHG, XADD and CMPXCHG",
    )
}
