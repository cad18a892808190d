//! The operands of an instruction, as herd7's X86 and X86_64 parsers read
//! them (herdtools7 `lib/X86Parser.mly` and `lib/X86_64Parser.mly`, rules
//! `effaddr` and `operand`).
//!
//! | | Intel (`X86`) | AT&T (`X86_64`) |
//! |---|---|---|
//! | a location | `[x]` | `(x)` or `[x]` |
//! | a register | `EAX` ... `ESP`, the flags `ZF` `SF` `CF` | `%rax`, `%eax`, `%al`, ... (also without `%`) |
//! | an immediate | `$1`, `1`, `$-1`, `-1` | `$1`, `1` |
//! | through a register | `[EAX]`, `(EAX)` | `(%rax)`, `8(%rax)`, `0(%rax,%rbx,8)` |
//!
//! An immediate without `$` is herd's older spelling (`MOV [x],1`,
//! `shl 2,%eax`). A location reached through registers is resolved by
//! [`super::sem`] when the registers hold values known before the thread
//! runs. Refused, each by name: numeric addresses `[16]`, address
//! immediates `$x`, symbolic registers `%r`, the instruction pointer, the
//! high-byte registers and segment prefixes.

use relaxlab_semantics::ir::Span;

use super::att;
use crate::herd::emit::name;
use crate::herd::error::HerdError;
use crate::herd::lexer::{Cursor, Tok};

/// herd's X86 registers, in the order of its register type (which is the
/// order of herd's states).
pub(crate) const INTEL_REGISTERS: [&str; 11] = [
    "EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP", "ZF", "SF", "CF",
];

/// A register: its relaxlab name and its width in bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Reg {
    pub name: String,
    pub width: u8,
}

/// A memory operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Mem {
    /// `[x]`, `(x)`: the location `x` (relaxlab spelling).
    Abs(String),
    /// `disp(base, index, scale)`: the address in `base`, plus `disp` and
    /// `index * scale` bytes.
    Indirect {
        base: Reg,
        index: Option<(Reg, i64)>,
        disp: i64,
    },
}

/// An operand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Operand {
    Reg(Reg),
    Mem(Mem),
    Imm(i64),
}

/// The canonical name of an `X86` register (any case), the flags included.
pub(super) fn intel_register(r: &str) -> Option<&'static str> {
    let upper = r.to_ascii_uppercase();
    INTEL_REGISTERS.iter().copied().find(|n| *n == upper)
}

/// Refuses what both syntaxes refuse at an identifier: the instruction
/// pointer.
fn instruction_pointer(r: &str, span: Span) -> Option<HerdError> {
    matches!(r.to_ascii_uppercase().as_str(), "EIP" | "RIP").then(|| {
        HerdError::unsupported(
            format!("the instruction pointer `{r}`"),
            span,
            "relaxlab threads have no program counter register",
        )
    })
}

/// The span from `start` to the token before the cursor.
fn upto(start: Span, cur: &Cursor<'_>) -> Span {
    Span::new(
        start.start as usize,
        cur.prev_span().end.max(start.end) as usize,
    )
}

/// An immediate after `$`, or the address immediate `$x`, refused.
fn dollar(cur: &mut Cursor<'_>, start: Span) -> Result<Operand, HerdError> {
    cur.bump();
    if let Tok::Ident(_) = cur.peek() {
        cur.bump();
        return Err(HerdError::unsupported(
            "an address immediate",
            upto(start, cur),
            "relaxlab values are integers",
        ));
    }
    Ok(Operand::Imm(cur.int("an integer after `$`")?.0))
}

/// A numeric address `[16]`, refused.
fn numeric_address(cur: &mut Cursor<'_>, start: Span) -> HerdError {
    while !matches!(cur.peek(), Tok::RBracket | Tok::RParen | Tok::Eof) {
        cur.bump();
    }
    cur.bump();
    HerdError::unsupported(
        "a numeric address",
        upto(start, cur),
        "name the location: `[x]`",
    )
}

/// Intel OPERAND: `[x]`, `[EAX]`, `(EAX)`, `$v`, `v`, or a register.
pub(super) fn intel(cur: &mut Cursor<'_>) -> Result<(Operand, Span), HerdError> {
    let start = cur.span();
    let reg = |r: &str| Reg {
        name: r.to_string(),
        width: 4,
    };
    let op =
        match cur.peek() {
            Tok::LBracket | Tok::LParen => {
                let close = if cur.peek() == Tok::LBracket {
                    Tok::RBracket
                } else {
                    Tok::RParen
                };
                cur.bump();
                if let Tok::Int(_) = cur.peek() {
                    return Err(numeric_address(cur, start));
                }
                let (x, xspan) = cur.ident("a location or a register")?;
                let closing = if close == Tok::RBracket { "`]`" } else { "`)`" };
                cur.expect(close, closing)?;
                if let Some(e) = instruction_pointer(x, xspan) {
                    return Err(e);
                }
                match intel_register(x) {
                    Some(r) => Operand::Mem(Mem::Indirect {
                        base: reg(r),
                        index: None,
                        disp: 0,
                    }),
                    None if close == Tok::RParen => return Err(HerdError::syntax(
                        format!("`({x})`"),
                        "`[x]` for a location (herd's X86 reads `(...)` around a register only)",
                        upto(start, cur),
                    )),
                    None => Operand::Mem(Mem::Abs(name(x))),
                }
            }
            Tok::Dollar => dollar(cur, start)?,
            Tok::Int(_) | Tok::Minus => Operand::Imm(cur.int("an integer")?.0),
            Tok::Percent => return Err(symbolic_register(cur, start)),
            Tok::Ident(r) => {
                cur.bump();
                if let Some(e) = instruction_pointer(r, start) {
                    return Err(e);
                }
                match intel_register(r) {
                    Some(r) => Operand::Reg(reg(r)),
                    None => {
                        return Err(HerdError::syntax(
                            format!("`{r}`"),
                            "a register (EAX, EBX, ...), `[location]` or a value",
                            start,
                        ))
                    }
                }
            }
            _ => return Err(cur.error("an operand")),
        };
    Ok((op, upto(start, cur)))
}

/// A symbolic register `%r` of herd's Intel syntax, refused.
fn symbolic_register(cur: &mut Cursor<'_>, start: Span) -> HerdError {
    cur.bump();
    if let Tok::Ident(_) = cur.peek() {
        cur.bump();
    }
    HerdError::unsupported(
        "a symbolic register",
        upto(start, cur),
        "name a machine register (EAX, EBX, ...)",
    )
}

/// An AT&T register after `%` (or written bare, as herd also reads it).
fn att_register(r: &str, span: Span) -> Result<Reg, HerdError> {
    if let Some(e) = instruction_pointer(r, span) {
        return Err(e);
    }
    match att::register(r) {
        Some(reg) => Ok(Reg {
            name: reg.to_string(),
            width: att::width(r),
        }),
        None if att::is_high_byte(r) => Err(HerdError::unsupported(
            format!("the high-byte register `%{r}`"),
            span,
            "relaxlab registers hold whole integers; use the low byte or the whole register",
        )),
        None => Err(HerdError::unsupported(
            format!("the register `%{r}`"),
            span,
            "the general-purpose registers are %rax ... %r15 and their narrow names",
        )),
    }
}

/// `%reg` or a bare register name, in an AT&T address.
fn att_reg_in_address(cur: &mut Cursor<'_>) -> Result<Reg, HerdError> {
    let start = cur.span();
    cur.eat(Tok::Percent);
    let (r, _) = cur.ident("a register")?;
    att_register(r, upto(start, cur))
}

/// AT&T OPERAND: `(x)`, `[x]`, `$v`, `v`, `%reg`, or an address through
/// registers `disp(%base,%index,scale)`.
pub(super) fn att(cur: &mut Cursor<'_>) -> Result<(Operand, Span), HerdError> {
    let start = cur.span();
    let op = match (cur.peek(), cur.peek_at(1)) {
        (Tok::Dollar, _) => dollar(cur, start)?,
        (Tok::Percent, _) => {
            cur.bump();
            let (r, _) = cur.ident("a register after `%`")?;
            Operand::Reg(att_register(r, upto(start, cur))?)
        }
        (Tok::LParen | Tok::LBracket, _) => att_address(cur, start, 0)?,
        (Tok::Int(_), Tok::LParen | Tok::LBracket) | (Tok::Minus, Tok::Int(_))
            if matches!(cur.peek_at(1), Tok::LParen | Tok::LBracket)
                || matches!(cur.peek_at(2), Tok::LParen | Tok::LBracket) =>
        {
            let (disp, _) = cur.int("a displacement")?;
            att_address(cur, start, disp)?
        }
        (Tok::Int(_) | Tok::Minus, _) => Operand::Imm(cur.int("an integer")?.0),
        (Tok::Ident(_), Tok::Colon) => {
            while cur.peek() != Tok::Eof && cur.peek() != Tok::Comma {
                cur.bump();
            }
            return Err(HerdError::unsupported(
                "a segment prefix",
                upto(start, cur),
                "address locations as `(x)`",
            ));
        }
        (Tok::Ident(r), _) if att::register(r).is_some() || att::is_high_byte(r) => {
            cur.bump();
            Operand::Reg(att_register(r, start)?)
        }
        (Tok::Ident(r), _) => {
            return Err(HerdError::syntax(
                format!("`{r}`"),
                "`(location)`, `$value` or a register `%eax`",
                cur.span(),
            ))
        }
        _ => return Err(cur.error("an operand")),
    };
    Ok((op, upto(start, cur)))
}

/// `(x)`, `[x]`, `(%base)`, `(%base,%index,scale)` after a displacement.
fn att_address(cur: &mut Cursor<'_>, start: Span, disp: i64) -> Result<Operand, HerdError> {
    let (open, close, closing) = match cur.peek() {
        Tok::LBracket => (Tok::LBracket, Tok::RBracket, "`]`"),
        _ => (Tok::LParen, Tok::RParen, "`)`"),
    };
    cur.expect(open, "`(`")?;
    if let Tok::Int(_) = cur.peek() {
        return Err(numeric_address(cur, start));
    }
    // A location: a name that is not a register.
    if let (Tok::Ident(x), true) = (cur.peek(), cur.peek_at(1) == close) {
        if att::register(x).is_none() && !att::is_high_byte(x) {
            cur.bump();
            cur.bump();
            if disp != 0 {
                return Err(HerdError::unsupported(
                    "a displacement from a location",
                    upto(start, cur),
                    "relaxlab locations hold one integer; name the location itself",
                ));
            }
            return Ok(Operand::Mem(Mem::Abs(name(x))));
        }
    }
    let base = att_reg_in_address(cur)?;
    let mut index = None;
    if open == Tok::LParen && cur.eat(Tok::Comma) {
        let reg = att_reg_in_address(cur)?;
        cur.expect(Tok::Comma, "`,` before the scale")?;
        let (scale, _) = cur.int("a scale (1, 2, 4 or 8)")?;
        index = Some((reg, scale));
    }
    cur.expect(close, closing)?;
    Ok(Operand::Mem(Mem::Indirect { base, index, disp }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::herd::lexer::lex;

    fn parse(f: fn(&mut Cursor<'_>) -> Result<(Operand, Span), HerdError>, s: &str) -> Operand {
        let toks = lex(s, 0).unwrap();
        let mut cur = Cursor::new(s, toks);
        let (op, span) = f(&mut cur).unwrap_or_else(|e| panic!("{s}: {e:?}"));
        assert_eq!(cur.peek(), Tok::Eof, "{s}");
        assert_eq!(span, Span::new(0, s.len()), "{s}");
        op
    }

    fn refused(f: fn(&mut Cursor<'_>) -> Result<(Operand, Span), HerdError>, s: &str) -> String {
        let toks = lex(s, 0).unwrap();
        let mut cur = Cursor::new(s, toks);
        match f(&mut cur) {
            Ok(op) => panic!("{s} was read as {op:?}"),
            Err(e) => e.to_string(),
        }
    }

    fn reg(name: &str, width: u8) -> Reg {
        Reg {
            name: name.to_string(),
            width,
        }
    }

    #[test]
    fn intel_immediates_need_no_dollar() {
        assert_eq!(parse(intel, "$1"), Operand::Imm(1));
        assert_eq!(parse(intel, "1"), Operand::Imm(1));
        assert_eq!(parse(intel, "$-2"), Operand::Imm(-2));
        assert_eq!(parse(intel, "-2"), Operand::Imm(-2));
        assert_eq!(parse(intel, "[x]"), Operand::Mem(Mem::Abs("x".into())));
        assert_eq!(parse(intel, "EAX"), Operand::Reg(reg("EAX", 4)));
        assert_eq!(parse(intel, "ZF"), Operand::Reg(reg("ZF", 4)));
        assert_eq!(
            parse(intel, "[EBX]"),
            Operand::Mem(Mem::Indirect {
                base: reg("EBX", 4),
                index: None,
                disp: 0
            })
        );
        assert_eq!(parse(intel, "(EBX)"), parse(intel, "[EBX]"));
        assert!(refused(intel, "[16]").contains("numeric address"));
        assert!(refused(intel, "$x").contains("address immediate"));
        assert!(refused(intel, "%r0").contains("symbolic register"));
        assert!(refused(intel, "EIP").contains("instruction pointer"));
    }

    #[test]
    fn att_addresses_through_registers_are_read_whole() {
        assert_eq!(parse(att, "$1"), Operand::Imm(1));
        assert_eq!(parse(att, "2"), Operand::Imm(2));
        assert_eq!(parse(att, "(x)"), Operand::Mem(Mem::Abs("x".into())));
        assert_eq!(parse(att, "[x]"), Operand::Mem(Mem::Abs("x".into())));
        assert_eq!(parse(att, "%eax"), Operand::Reg(reg("rax", 4)));
        assert_eq!(parse(att, "eax"), Operand::Reg(reg("rax", 4)));
        assert_eq!(
            parse(att, "0(%rax,%rbx,8)"),
            Operand::Mem(Mem::Indirect {
                base: reg("rax", 8),
                index: Some((reg("rbx", 8), 8)),
                disp: 0
            })
        );
        assert_eq!(
            parse(att, "-8(%rbp)"),
            Operand::Mem(Mem::Indirect {
                base: reg("rbp", 8),
                index: None,
                disp: -8
            })
        );
        assert_eq!(
            parse(att, "(%rdi)"),
            Operand::Mem(Mem::Indirect {
                base: reg("rdi", 8),
                index: None,
                disp: 0
            })
        );
        assert!(refused(att, "%ah").contains("high-byte"));
        assert!(refused(att, "%xmm0").contains("register `%xmm0`"));
        assert!(refused(att, "%rip").contains("instruction pointer"));
        assert!(refused(att, "fs:0(%rax,%rbx,1)").contains("segment"));
        assert!(refused(att, "(8)").contains("numeric address"));
        assert!(refused(att, "8(x)").contains("displacement"));
    }
}
