//! herd's C expressions (`CParser.mly`'s `expr`) and the places they
//! stand in: locations, annotations in braces, call arguments, and the
//! primitives that read or update memory (`__load{once}(*x)`,
//! `__xchg{mb}(x, 1)`, `atomic_load_explicit(x, memory_order_acquire)`,
//! ...); other calls stay calls until the macros are expanded.
//!
//! Operators follow herd's precedence, loosest first: `|`, `^`, `&`, the
//! comparisons (not associative), `+ -`, `* /`, casts. herd's C has no
//! `&&`, `||`, `!`, `%` or shifts, and `&` is only the bitwise and; a
//! reader who writes them is told so.
//!
//! book: herd.md, The supported subset

use relaxlab_semantics::ir::{BinOp, Span};

use super::super::ast::*;
use super::{bad_arity, is_type_word, join, order_name, P, R};
use crate::herd::error::HerdError;
use crate::herd::lexer::Tok;

impl<'s> P<'s> {
    /// herd's `location`: `x`, `*location`, `(expr)`; as the address of a
    /// plain store `*location = e`.
    pub(super) fn location(&mut self) -> R<Expr> {
        let start = self.cur.span();
        match self.cur.peek() {
            Tok::Ident(x) => {
                self.cur.bump();
                Ok(Expr::Name(x.to_string(), start))
            }
            Tok::Star => {
                self.cur.bump();
                let inner = self.location()?;
                let span = join(start, inner.span());
                Ok(Expr::Load(Box::new(inner), Ann::Plain, span))
            }
            Tok::LParen => {
                self.cur.bump();
                let e = self.expr()?;
                self.cur.expect(Tok::RParen, "`)`")?;
                Ok(e)
            }
            _ => Err(self.cur.error("a location")),
        }
    }

    /// `{a, b-c, ...}`: herd's annotations (names joined by `-`).
    pub(super) fn annots(&mut self) -> R<Vec<String>> {
        self.cur.expect(Tok::LBrace, "`{` and annotations")?;
        let mut out = Vec::new();
        loop {
            let (first, _) = self.cur.ident("an annotation")?;
            let mut a = first.to_string();
            while self.cur.eat(Tok::Minus) {
                let (next, _) = self.cur.ident("an annotation after `-`")?;
                a.push('-');
                a.push_str(next);
            }
            out.push(a);
            if self.cur.eat(Tok::RBrace) {
                return Ok(out);
            }
            self.cur.expect(Tok::Comma, "`,` or `}`")?;
        }
    }

    pub(super) fn call_args(&mut self) -> R<Vec<Expr>> {
        self.cur.expect(Tok::LParen, "`(`")?;
        let mut out = Vec::new();
        if self.cur.eat(Tok::RParen) {
            return Ok(out);
        }
        loop {
            out.push(self.expr()?);
            if self.cur.eat(Tok::RParen) {
                return Ok(out);
            }
            self.cur.expect(Tok::Comma, "`,` or `)`")?;
        }
    }

    /// The `N` arguments of a call of `f` that started at `start`, and the
    /// call's span.
    fn args_of<const N: usize>(&mut self, f: &str, start: Span) -> R<([Expr; N], Span)> {
        let args = self.call_args()?;
        let span = join(start, self.cur.prev_span());
        Ok((self.arity(f, args, span)?, span))
    }

    pub(super) fn arity<const N: usize>(
        &self,
        f: &str,
        args: Vec<Expr>,
        span: Span,
    ) -> R<[Expr; N]> {
        let n = args.len();
        args.try_into()
            .map_err(|_| bad_arity(f, &N.to_string(), n, span))
    }

    pub(super) fn atomic_op(&mut self) -> R<AOp> {
        let (t, s) = self.cur.bump();
        Ok(match t {
            Tok::Plus => AOp::Add,
            Tok::Minus => AOp::Sub,
            Tok::Amp if self.cur.eat(Tok::Tilde) => AOp::AndNot,
            Tok::Amp => AOp::And,
            Tok::Caret => AOp::Xor,
            Tok::Bar => AOp::Or,
            _ => {
                return Err(HerdError::syntax(
                    t.describe(),
                    "an atomic operator (`+`, `-`, `&`, `|`, `^`, `&~`)",
                    s,
                ))
            }
        })
    }

    // ---- Expressions ----------------------------------------------------

    pub(super) fn expr(&mut self) -> R<Expr> {
        self.cur.enter()?;
        let e = self.binary(0);
        self.cur.leave();
        e
    }

    /// Binding power of an infix operator: `|` 1, `^` 2, `&` 3,
    /// comparisons 4, `+ -` 5, `* /` 6.
    fn infix(&self) -> Option<(BinOp, u8)> {
        Some(match self.cur.peek() {
            Tok::Bar => (BinOp::BitOr, 1),
            Tok::Caret => (BinOp::BitXor, 2),
            Tok::Amp => (BinOp::BitAnd, 3),
            Tok::EqEq => (BinOp::Eq, 4),
            Tok::NotEq => (BinOp::Ne, 4),
            Tok::Lt => (BinOp::Lt, 4),
            Tok::Le => (BinOp::Le, 4),
            Tok::Gt => (BinOp::Gt, 4),
            Tok::Ge => (BinOp::Ge, 4),
            Tok::Plus => (BinOp::Add, 5),
            Tok::Minus => (BinOp::Sub, 5),
            Tok::Star => (BinOp::Mul, 6),
            Tok::Slash => (BinOp::Div, 6),
            _ => return None,
        })
    }

    /// A chain of operators builds a tree as deep as the chain is long
    /// (herd's C semantics evaluates it recursively), so each operator
    /// counts as a level of nesting.
    fn binary(&mut self, min: u8) -> R<Expr> {
        let mut levels = 0;
        let e = self.binary_chain(min, &mut levels);
        for _ in 0..levels {
            self.cur.leave();
        }
        e
    }

    fn binary_chain(&mut self, min: u8, levels: &mut u32) -> R<Expr> {
        let mut lhs = self.unary()?;
        loop {
            if let t @ (Tok::AndAnd | Tok::OrOr | Tok::Percent | Tok::Shl | Tok::Shr) =
                self.cur.peek()
            {
                return Err(HerdError::unsupported(
                    format!("the operator {}", t.describe()),
                    self.cur.span(),
                    "herd's C has the operators | ^ & == != < <= > >= + - * / only",
                ));
            }
            let Some((op, p)) = self.infix() else {
                return Ok(lhs);
            };
            if p < min {
                return Ok(lhs);
            }
            self.cur.enter()?;
            *levels += 1;
            self.cur.bump();
            // Comparisons do not associate; the others group to the left.
            let rhs = self.binary(p + 1)?;
            let span = join(lhs.span(), rhs.span());
            lhs = Expr::Op(op, Box::new(lhs), Box::new(rhs), span);
            if p == 4 && matches!(self.infix(), Some((_, 4))) {
                return Err(HerdError::syntax(
                    self.cur.peek().describe(),
                    "an operator other than a comparison (herd's comparisons do not chain)",
                    self.cur.span(),
                ));
            }
        }
    }

    fn unary(&mut self) -> R<Expr> {
        let start = self.cur.span();
        match (self.cur.peek(), self.cur.peek_at(1)) {
            (Tok::Minus, Tok::Int(_)) => {
                self.cur.bump();
                let (v, s) = self.cur.int("an integer")?;
                Ok(Expr::Const(-v, join(start, s)))
            }
            (Tok::Bang | Tok::Tilde | Tok::Minus, _) => Err(HerdError::unsupported(
                format!("the prefix operator {}", self.cur.peek().describe()),
                start,
                "herd's C has no prefix operators (`-` only starts a negative integer)",
            )),
            (Tok::Amp, _) => Err(HerdError::unsupported(
                "taking an address with `&`",
                start,
                "a location's address is its parameter: write `x` for the address and `*x` for the value",
            )),
            (Tok::LParen, Tok::Ident(w)) if is_type_word(w) => {
                // A cast: herd drops it.
                self.cur.bump();
                self.skip_type();
                self.cur.expect(Tok::RParen, "`)` closing the cast")?;
                self.unary()
            }
            _ => self.primary(),
        }
    }

    /// herd's `expr0` for `while` conditions: a name, a constant, `*x` or
    /// a parenthesised expression.
    pub(super) fn expr0(&mut self) -> R<Expr> {
        match self.cur.peek() {
            Tok::LParen | Tok::Ident(_) | Tok::Int(_) | Tok::Star | Tok::Minus => self.unary(),
            _ => Err(self.cur.error("a condition")),
        }
    }

    fn primary(&mut self) -> R<Expr> {
        let start = self.cur.span();
        match self.cur.peek() {
            Tok::Int(_) => {
                let (v, s) = self.cur.int("an integer")?;
                Ok(Expr::Const(v, s))
            }
            Tok::Star => {
                self.cur.bump();
                let inner = match self.cur.peek() {
                    Tok::Ident(x) => {
                        let (_, s) = self.cur.bump();
                        Expr::Name(x.to_string(), s)
                    }
                    Tok::LParen => {
                        self.cur.bump();
                        if matches!(self.cur.peek(), Tok::Ident(w) if is_type_word(w)) {
                            self.skip_type();
                            self.cur.expect(Tok::RParen, "`)`")?;
                            let (x, s) = self.cur.ident("a name")?;
                            Expr::Name(x.to_string(), s)
                        } else {
                            let e = self.expr()?;
                            self.cur.expect(Tok::RParen, "`)`")?;
                            e
                        }
                    }
                    // herd7's C parser reads `*` before a name or a
                    // parenthesised expression only: `**p` is refused, as
                    // it is by herd7 (`*(*p)` reads it).
                    _ => return Err(self.cur.error("a name or `(` after `*`")),
                };
                let span = join(start, inner.span());
                Ok(Expr::Load(Box::new(inner), Ann::Plain, span))
            }
            Tok::LParen => {
                self.cur.bump();
                let e = self.expr()?;
                self.cur.expect(Tok::RParen, "`)`")?;
                Ok(e)
            }
            Tok::Ident(f)
                if self.cur.peek_at(1) == Tok::LParen || self.cur.peek_at(1) == Tok::LBrace =>
            {
                self.builtin_or_call(f, start)
            }
            Tok::Ident(x) => {
                self.cur.bump();
                Ok(Expr::Name(x.to_string(), start))
            }
            _ => Err(self.cur.error("an expression")),
        }
    }

    fn builtin_or_call(&mut self, f: &'s str, start: Span) -> R<Expr> {
        self.cur.bump();
        let annots = if self.cur.peek() == Tok::LBrace {
            self.annots()?
        } else {
            Vec::new()
        };
        let span_to = |p: &Self| join(start, p.cur.prev_span());
        match f {
            "__load" => {
                let ([a], span) = self.args_of(f, start)?;
                // herd: `__load{a}(e)` needs `e = *l` (after macro
                // expansion) and reads at `l`: checked when lowered.
                Ok(Expr::Load(Box::new(a), Ann::Tags(annots), span))
            }
            "__srcu" => {
                let ([a], span) = self.args_of(f, start)?;
                Ok(Expr::Srcu(Box::new(a), annots, span))
            }
            "__xchg" => {
                let ([a, v], span) = self.args_of(f, start)?;
                Ok(Expr::Xchg(
                    Box::new(a),
                    Box::new(v),
                    Ann::Tags(annots),
                    span,
                ))
            }
            "__cmpxchg" => {
                let ([a, o, n], span) = self.args_of(f, start)?;
                Ok(Expr::CmpXchg(
                    Box::new(a),
                    Box::new(o),
                    Box::new(n),
                    annots,
                    span,
                ))
            }
            "__atomic_op_return" | "__atomic_fetch_op" => {
                self.cur.expect(Tok::LParen, "`(`")?;
                let a = self.expr()?;
                self.cur.expect(Tok::Comma, "`,`")?;
                let op = self.atomic_op()?;
                self.cur.expect(Tok::Comma, "`,`")?;
                let v = self.expr()?;
                self.cur.expect(Tok::RParen, "`)`")?;
                Ok(Expr::AtomicReturn {
                    addr: Box::new(a),
                    op,
                    val: Box::new(v),
                    tags: annots,
                    fetch: f == "__atomic_fetch_op",
                    span: span_to(self),
                })
            }
            "__atomic_add_unless" => {
                let ([a, v, u], span) = self.args_of(f, start)?;
                Ok(Expr::AddUnless(
                    Box::new(a),
                    Box::new(v),
                    Box::new(u),
                    annots,
                    span,
                ))
            }
            "__trylock" | "__islocked" => {
                let ([a], span) = self.args_of(f, start)?;
                Ok(if f == "__trylock" {
                    Expr::TryLock(Box::new(a), span)
                } else {
                    Expr::IsLocked(Box::new(a), span)
                })
            }
            "atomic_load_explicit" | "atomic_load" => {
                let mut args = self.call_args()?;
                let span = span_to(self);
                let mo = if f == "atomic_load" {
                    "memory_order_seq_cst".to_string()
                } else {
                    let Some(mo) = args.pop().filter(|_| args.len() == 1) else {
                        return Err(bad_arity(f, "2", args.len() + 1, span));
                    };
                    order_name(&mo, span)?
                };
                let [a]: [Expr; 1] = self.arity(f, args, span)?;
                Ok(Expr::Load(Box::new(a), Ann::Mo(mo), span))
            }
            // C11's read-modify-writes (`atomic_fetch_add`, ...) are calls
            // until the macros are expanded: the kernel's macro file
            // defines some of the same names (`atomic_fetch_add(V,X)`),
            // and a macro wins, as in herd7.
            _ => {
                let args = self.call_args()?;
                Ok(Expr::Call(f.to_string(), args, span_to(self)))
            }
        }
    }
}
