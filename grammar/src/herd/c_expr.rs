//! C expressions of herd's C format: parsing, and printing the
//! register-only part in relaxlab syntax.

use relaxlab_semantics::ir::{BinOp, Span};

use super::error::HerdError;
use super::lexer::{Cursor, Tok};

/// Unary operators of herd C expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Un {
    Neg,
    Not,
    /// `~e`, printed as `e ^ -1` (relaxlab has no bitwise complement).
    Compl,
}

/// A C expression as written.
#[derive(Clone, Debug)]
pub(crate) enum E<'s> {
    Int(i64),
    Var(&'s str, Span),
    /// `*x`: a plain access to the location `x`.
    Deref(&'s str, Span),
    /// `&x`: only meaningful as the `expected` argument of a CAS.
    AddrOf(&'s str, Span),
    /// `f(args)`: the name, its span, the arguments, the whole span.
    Call(&'s str, Span, Vec<E<'s>>, Span),
    Un(Un, Box<E<'s>>),
    /// `first op1 e1 op2 e2 ...` grouped from the left: a chain of
    /// operators kept flat, so that a long one (`1 + 1 + ... + 1`) costs
    /// no recursion.
    Chain(Box<E<'s>>, Vec<(BinOp, E<'s>)>),
}

/// C binding power of a binary operator (higher binds tighter).
pub(crate) fn prec(op: BinOp) -> u8 {
    match op {
        BinOp::Or => 1,
        BinOp::And => 2,
        BinOp::BitOr => 3,
        BinOp::BitXor => 4,
        BinOp::BitAnd => 5,
        BinOp::Eq | BinOp::Ne => 6,
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 7,
        BinOp::Shl | BinOp::Shr => 8,
        BinOp::Add | BinOp::Sub => 9,
        BinOp::Mul | BinOp::Div | BinOp::Rem => 10,
    }
}

/// The spelling of a binary operator (C and relaxlab agree).
pub(crate) fn op_str(op: BinOp) -> &'static str {
    match op {
        BinOp::Or => "||",
        BinOp::And => "&&",
        BinOp::BitOr => "|",
        BinOp::BitXor => "^",
        BinOp::BitAnd => "&",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
    }
}

/// The binary operator a token spells, if any.
fn binop(t: Tok<'_>) -> Option<BinOp> {
    Some(match t {
        Tok::OrOr => BinOp::Or,
        Tok::AndAnd => BinOp::And,
        Tok::Bar => BinOp::BitOr,
        Tok::Caret => BinOp::BitXor,
        Tok::Amp => BinOp::BitAnd,
        Tok::EqEq => BinOp::Eq,
        Tok::NotEq => BinOp::Ne,
        Tok::Lt => BinOp::Lt,
        Tok::Le => BinOp::Le,
        Tok::Gt => BinOp::Gt,
        Tok::Ge => BinOp::Ge,
        Tok::Shl => BinOp::Shl,
        Tok::Shr => BinOp::Shr,
        Tok::Plus => BinOp::Add,
        Tok::Minus => BinOp::Sub,
        Tok::Star => BinOp::Mul,
        Tok::Slash => BinOp::Div,
        Tok::Percent => BinOp::Rem,
        _ => return None,
    })
}

/// Parses an expression by precedence climbing.
pub(crate) fn expr<'s>(cur: &mut Cursor<'s>) -> Result<E<'s>, HerdError> {
    expr_prec(cur, 1)
}

/// Folds the operators of level `min` or tighter into one chain; the
/// recursion for a tighter right operand is bounded by the number of
/// levels.
fn expr_prec<'s>(cur: &mut Cursor<'s>, min: u8) -> Result<E<'s>, HerdError> {
    let first = unary(cur)?;
    let mut rest = Vec::new();
    while let Some(op) = binop(cur.peek()) {
        let p = prec(op);
        if p < min {
            break;
        }
        cur.bump();
        rest.push((op, expr_prec(cur, p + 1)?));
    }
    let lhs = if rest.is_empty() {
        first
    } else {
        E::Chain(Box::new(first), rest)
    };
    if cur.peek() == Tok::Question {
        return Err(HerdError::unsupported(
            "the conditional operator `?:`",
            cur.span(),
            "write an `if` statement instead",
        ));
    }
    Ok(lhs)
}

fn unary<'s>(cur: &mut Cursor<'s>) -> Result<E<'s>, HerdError> {
    let start = cur.span();
    let op = match cur.peek() {
        Tok::Minus => Some(Un::Neg),
        Tok::Bang => Some(Un::Not),
        Tok::Tilde => Some(Un::Compl),
        _ => None,
    };
    if let Some(op) = op {
        cur.bump();
        cur.enter()?;
        let e = unary(cur)?;
        cur.leave();
        return Ok(match (op, e) {
            (Un::Neg, E::Int(v)) => E::Int(v.wrapping_neg()),
            (op, e) => E::Un(op, Box::new(e)),
        });
    }
    match cur.peek() {
        Tok::Star => {
            cur.bump();
            let paren = cur.eat(Tok::LParen);
            let (x, s) = match cur.peek() {
                Tok::Ident(_) => cur.ident("a location")?,
                _ => {
                    return Err(HerdError::unsupported(
                        "a dereference of a computed address",
                        start,
                        "only `*x` with `x` a parameter of the thread is supported",
                    ))
                }
            };
            if paren {
                cur.expect(Tok::RParen, "`)`")?;
            }
            Ok(E::Deref(x, Span::new(start.start as usize, s.end as usize)))
        }
        Tok::Amp => {
            cur.bump();
            let (x, s) = cur.ident("a variable after `&`")?;
            Ok(E::AddrOf(
                x,
                Span::new(start.start as usize, s.end as usize),
            ))
        }
        _ => primary(cur),
    }
}

fn primary<'s>(cur: &mut Cursor<'s>) -> Result<E<'s>, HerdError> {
    match cur.peek() {
        Tok::Int(_) => Ok(E::Int(cur.int("an integer")?.0)),
        Tok::LParen => {
            let open = cur.span();
            cur.bump();
            if let (Tok::Ident(t), Tok::RParen | Tok::Star) = (cur.peek(), cur.peek_at(1)) {
                if super::c::is_type_word(t) {
                    return Err(HerdError::unsupported(
                        "a cast",
                        Span::new(open.start as usize, cur.span().end as usize),
                        "remove the cast: relaxlab values are all 64-bit integers",
                    ));
                }
            }
            cur.enter()?;
            let e = expr(cur)?;
            cur.leave();
            cur.expect(Tok::RParen, "`)`")?;
            Ok(e)
        }
        Tok::Ident(n) => {
            let (_, nspan) = cur.bump();
            if cur.eat(Tok::LParen) {
                let mut args = Vec::new();
                if !cur.eat(Tok::RParen) {
                    loop {
                        cur.enter()?;
                        args.push(expr(cur)?);
                        cur.leave();
                        if cur.eat(Tok::RParen) {
                            break;
                        }
                        cur.expect(Tok::Comma, "`,` or `)`")?;
                    }
                }
                let span = Span::new(nspan.start as usize, cur.prev_span().end as usize);
                Ok(E::Call(n, nspan, args, span))
            } else {
                Ok(E::Var(n, nspan))
            }
        }
        _ => Err(cur.error("an expression")),
    }
}
