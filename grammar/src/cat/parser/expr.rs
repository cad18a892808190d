//! cat expressions, by precedence climbing.
//!
//! lalrpop does not fit this grammar: herd7's yacc grammar resolves `*`
//! (postfix closure, or the cartesian product) and implicit application
//! with precedence declarations and yacc's shift preference, which an
//! LR(1) grammar without them cannot express. The rules, as yacc resolves
//! them:
//! - infix operators by increasing precedence: `|` `++` `;` (right
//!   associative), `\` (left), `&` (right), `*` (cartesian, by itself);
//!   prefix `~` and postfix `*` `+` `?` bind tighter, `^-1` tightest;
//! - `*` is the cartesian product when the next token can start an
//!   operand, the reflexive-transitive closure otherwise;
//! - application is a name followed by arguments (names or bracketed
//!   expressions): `fencerel(MFENCE)`, `map f S`; it binds tighter than
//!   every operator.
//!
//! book: cat.md, Expressions

use std::rc::Rc;

use super::super::ast::*;
use super::super::error::Fail;
use super::super::lexer::Tok;
use super::{is_keyword, Parser, MAX_NESTING};

/// Binding powers of the infix operators.
const P_UNION: u8 = 1;
const P_ADD: u8 = 2;
const P_SEQ: u8 = 3;
const P_DIFF: u8 = 4;
const P_INTER: u8 = 5;
const P_CART: u8 = 6;
const P_POSTFIX: u8 = 7;
const P_INV: u8 = 8;

impl Parser<'_> {
    /// An expression, tuples without brackets included.
    pub(super) fn expr(&mut self) -> Result<Expr, Fail> {
        self.depth += 1;
        let result = if self.depth > MAX_NESTING {
            Err(Fail::new(
                "relaxlab::cat::syntax",
                self.span_here(),
                format!("expressions nested more than {MAX_NESTING} deep"),
                "too deep",
                "split the expression into several `let` definitions",
            ))
        } else {
            self.expr_inner()
        };
        self.depth -= 1;
        result
    }

    fn expr_inner(&mut self) -> Result<Expr, Fail> {
        let start = self.span_here();
        match self.peek() {
            Some(Tok::Name("let")) => {
                self.pos += 1;
                let rec = self.eat_kw("rec");
                let bindings = self.bindings()?;
                self.expect_kw("in")?;
                let body = self.expr()?;
                let span = start.to(body.span);
                return Ok(Expr {
                    kind: ExprKind::Let {
                        rec,
                        bindings,
                        body: Box::new(body),
                    },
                    span,
                });
            }
            Some(Tok::Name("fun")) => {
                self.pos += 1;
                let param = if self.eat(Tok::LPar) {
                    let p = self.formals()?;
                    self.expect(Tok::RPar, "`)`")?;
                    p
                } else {
                    Pat::Var(self.pat0()?)
                };
                self.expect(Tok::Arrow, "`->`")?;
                let body = self.expr()?;
                let span = start.to(body.span);
                return Ok(Expr {
                    kind: ExprKind::Fun(param, Rc::new(body)),
                    span,
                });
            }
            Some(Tok::Name("try")) => {
                self.pos += 1;
                let e = self.expr()?;
                self.expect_kw("with")?;
                let d = self.expr()?;
                let span = start.to(d.span);
                return Ok(Expr {
                    kind: ExprKind::Try(Box::new(e), Box::new(d)),
                    span,
                });
            }
            Some(Tok::Name("if")) => {
                self.pos += 1;
                if self.at_variant_cond() {
                    let cond = self.variant_cond()?;
                    self.expect_kw("then")?;
                    let then = self.expr()?;
                    self.expect_kw("else")?;
                    let otherwise = self.expr()?;
                    return Ok(Expr {
                        span: start.to(otherwise.span),
                        kind: ExprKind::IfVariant {
                            cond,
                            then: Box::new(then),
                            otherwise: Box::new(otherwise),
                        },
                    });
                }
                self.expr()?;
                if !(self.eat(Tok::Eq) || self.eat_kw("subset") || self.eat_kw("in")) {
                    return Err(self.unexpected("`=`, `subset` or `in`"));
                }
                self.expr()?;
                self.expect_kw("then")?;
                self.expr()?;
                self.expect_kw("else")?;
                let e = self.expr()?;
                return Ok(Expr {
                    kind: ExprKind::If,
                    span: start.to(e.span),
                });
            }
            Some(Tok::Name("match")) => return self.match_expr(start),
            _ => {}
        }
        let first = self.base(0)?;
        if self.peek() != Some(Tok::Comma) {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat(Tok::Comma) {
            items.push(self.base(0)?);
        }
        let span = start.to(self.prev_span());
        Ok(Expr {
            kind: ExprKind::Tuple(items),
            span,
        })
    }

    fn match_expr(&mut self, start: Span) -> Result<Expr, Fail> {
        self.pos += 1;
        let scrutinee = self.expr()?;
        self.expect_kw("with")?;
        self.eat(Tok::Alt);
        // Set clauses: `{} -> e || x ++ s -> e` (either order).
        if matches!(self.peek(), Some(Tok::LBrace))
            || matches!(self.peek_at(1), Some(Tok::PlusPlus | Tok::Bar))
        {
            let mut empty = None;
            let mut nonempty = None;
            for _ in 0..2 {
                if self.eat(Tok::LBrace) {
                    self.expect(Tok::RBrace, "`}` (the empty-set clause is `{} -> ...`)")?;
                    self.expect(Tok::Arrow, "`->`")?;
                    empty = Some(self.expr()?);
                } else {
                    let elem = self.pat0()?;
                    if self.peek() == Some(Tok::Bar) {
                        return Err(
                            self.unexpected("`++` (the clause `x | y ++ s` is not supported)")
                        );
                    }
                    self.expect(Tok::PlusPlus, "`++`")?;
                    let rest = self.pat0()?;
                    self.expect(Tok::Arrow, "`->`")?;
                    nonempty = Some((elem, rest, self.expr()?));
                }
                if !self.eat(Tok::Alt) {
                    break;
                }
            }
            self.expect_kw("end")?;
            let span = start.to(self.prev_span());
            let (Some(empty), Some((elem, rest, nonempty))) = (empty, nonempty) else {
                return Err(Fail::new(
                    "relaxlab::cat::syntax",
                    span,
                    "a match on a set needs both clauses",
                    "one clause missing",
                    "write `match S with {} -> e1 || x ++ rest -> e2 end`",
                ));
            };
            return Ok(Expr {
                kind: ExprKind::MatchSet {
                    scrutinee: Box::new(scrutinee),
                    empty: Box::new(empty),
                    elem,
                    rest,
                    nonempty: Box::new(nonempty),
                },
                span,
            });
        }
        let mut clauses = Vec::new();
        let mut default = None;
        loop {
            if self.eat(Tok::Underscore) {
                self.expect(Tok::Arrow, "`->`")?;
                default = Some(Box::new(self.expr()?));
                break;
            }
            let tag = self.tag()?;
            self.expect(Tok::Arrow, "`->`")?;
            clauses.push((tag, self.expr()?));
            if !self.eat(Tok::Alt) {
                break;
            }
        }
        self.expect_kw("end")?;
        Ok(Expr {
            kind: ExprKind::MatchTag {
                scrutinee: Box::new(scrutinee),
                clauses,
                default,
            },
            span: start.to(self.prev_span()),
        })
    }

    /// Can `t` start an argument of an application?
    fn starts_arg(t: Option<Tok<'_>>) -> bool {
        match t {
            Some(Tok::Name(n)) => !is_keyword(n) || n == "begin",
            Some(
                Tok::Tag(_) | Tok::LPar | Tok::LBrace | Tok::LBrack | Tok::Underscore | Tok::Zero,
            ) => true,
            _ => false,
        }
    }

    /// Can `t` start an operand?
    fn starts_operand(t: Option<Tok<'_>>) -> bool {
        Self::starts_arg(t) || t == Some(Tok::Tilde)
    }

    /// Operators by precedence climbing; `min` is the weakest binding
    /// power accepted.
    pub(super) fn base(&mut self, min: u8) -> Result<Expr, Fail> {
        let mut lhs = if self.peek() == Some(Tok::Tilde) {
            let start = self.span_here();
            self.pos += 1;
            let e = self.base(P_INV)?;
            let span = start.to(e.span);
            Expr {
                kind: ExprKind::Unary(UnOp::Compl, Box::new(e)),
                span,
            }
        } else {
            self.application()?
        };
        loop {
            let t = self.peek();
            let postfix = match t {
                Some(Tok::Hat) if P_INV >= min => {
                    self.pos += 1;
                    self.expect(Tok::MinusOne, "`-1` (the inverse is `^-1`)")?;
                    Some(UnOp::Inv)
                }
                Some(Tok::Plus) if P_POSTFIX >= min => {
                    self.pos += 1;
                    Some(UnOp::Plus)
                }
                Some(Tok::Question) if P_POSTFIX >= min => {
                    self.pos += 1;
                    Some(UnOp::Opt)
                }
                Some(Tok::Star) if !Self::starts_operand(self.peek_at(1)) && P_POSTFIX >= min => {
                    self.pos += 1;
                    Some(UnOp::Star)
                }
                _ => None,
            };
            if let Some(op) = postfix {
                let span = lhs.span.to(self.prev_span());
                lhs = Expr {
                    kind: ExprKind::Unary(op, Box::new(lhs)),
                    span,
                };
                continue;
            }
            let (op, prec, right) = match t {
                Some(Tok::Bar) => (BinOp::Union, P_UNION, true),
                Some(Tok::PlusPlus) => (BinOp::Add, P_ADD, true),
                Some(Tok::Semi) => (BinOp::Seq, P_SEQ, true),
                Some(Tok::Backslash) => (BinOp::Diff, P_DIFF, false),
                Some(Tok::Amp) => (BinOp::Inter, P_INTER, true),
                Some(Tok::Star) => (BinOp::Cart, P_CART, false),
                _ => return Ok(lhs),
            };
            if prec < min {
                return Ok(lhs);
            }
            if op == BinOp::Cart {
                self.pos += 1;
                let rhs = self.base(prec + 1)?;
                let span = lhs.span.to(rhs.span);
                lhs = Expr {
                    kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                    span,
                };
                continue;
            }
            // A chain of one operator is read in a loop and built as a
            // balanced tree: `|`, `++`, `;` and `&` are associative, and
            // `a \ b \ c` is `a \ (b | c)`. Long chains thus nest
            // logarithmically, never deep enough to exhaust a stack.
            let tok = t;
            let mut items = Vec::new();
            while self.peek() == tok {
                self.pos += 1;
                items.push(self.base(prec + 1)?);
            }
            let _ = right;
            lhs = if op == BinOp::Diff {
                let rest = balanced(BinOp::Union, items);
                let span = lhs.span.to(rest.span);
                Expr {
                    kind: ExprKind::Binary(BinOp::Diff, Box::new(lhs), Box::new(rest)),
                    span,
                }
            } else {
                items.insert(0, lhs);
                balanced(op, items)
            };
        }
    }

    /// A name applied to arguments, or a simple expression.
    fn application(&mut self) -> Result<Expr, Fail> {
        let mut e = match self.peek() {
            Some(Tok::Name(n)) if !is_keyword(n) => {
                self.pos += 1;
                Expr {
                    kind: ExprKind::Var(n.to_string()),
                    span: self.prev_span(),
                }
            }
            _ => return self.simple(),
        };
        while Self::starts_arg(self.peek()) {
            let arg = match self.peek() {
                Some(Tok::Name(n)) if !is_keyword(n) => {
                    self.pos += 1;
                    Expr {
                        kind: ExprKind::Var(n.to_string()),
                        span: self.prev_span(),
                    }
                }
                _ => self.simple()?,
            };
            let span = e.span.to(arg.span);
            e = Expr {
                kind: ExprKind::App(Box::new(e), Box::new(arg)),
                span,
            };
        }
        Ok(e)
    }

    /// `0`, a tag, `{...}`, `_`, `()`, `(e)`, `begin e end`, `[e]`.
    pub(super) fn simple(&mut self) -> Result<Expr, Fail> {
        let start = self.span_here();
        let kind = match self.peek() {
            Some(Tok::Zero) => {
                self.pos += 1;
                ExprKind::Empty
            }
            Some(Tok::Underscore) => {
                self.pos += 1;
                ExprKind::Universe
            }
            Some(Tok::Tag(t)) => {
                self.pos += 1;
                ExprKind::Tag(t.to_string())
            }
            Some(Tok::LBrace) => {
                self.pos += 1;
                ExprKind::Set(self.args(Tok::RBrace)?)
            }
            Some(Tok::LPar) => {
                self.pos += 1;
                if self.eat(Tok::RPar) {
                    ExprKind::Tuple(Vec::new())
                } else {
                    let e = self.expr()?;
                    self.expect(Tok::RPar, "`)`")?;
                    return Ok(Expr {
                        kind: e.kind,
                        span: start.to(self.prev_span()),
                    });
                }
            }
            Some(Tok::Name("begin")) => {
                self.pos += 1;
                let e = self.expr()?;
                self.expect_kw("end")?;
                return Ok(Expr {
                    kind: e.kind,
                    span: start.to(self.prev_span()),
                });
            }
            Some(Tok::LBrack) => {
                self.pos += 1;
                let e = self.expr()?;
                self.expect(Tok::RBrack, "`]`")?;
                ExprKind::Unary(UnOp::ToId, Box::new(e))
            }
            _ => return Err(self.unexpected("an expression")),
        };
        Ok(Expr {
            kind,
            span: start.to(self.prev_span()),
        })
    }

    /// Comma-separated operands up to `close` (consumed).
    pub(super) fn args(&mut self, close: Tok<'_>) -> Result<Vec<Expr>, Fail> {
        let mut out = Vec::new();
        if self.eat(close) {
            return Ok(out);
        }
        loop {
            out.push(self.base(0)?);
            if self.eat(close) {
                return Ok(out);
            }
            self.expect(Tok::Comma, "`,`")?;
        }
    }
}

/// `items` joined by `op` as a balanced tree (`items` is not empty).
fn balanced(op: BinOp, mut items: Vec<Expr>) -> Expr {
    if items.len() == 1 {
        return items.pop().expect("one item");
    }
    let right = items.split_off(items.len() / 2);
    let (l, r) = (balanced(op, items), balanced(op, right));
    let span = l.span.to(r.span);
    Expr {
        kind: ExprKind::Binary(op, Box::new(l), Box::new(r)),
        span,
    }
}
