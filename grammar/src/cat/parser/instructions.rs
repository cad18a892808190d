//! The instructions of a cat file, by recursive descent as herd7's
//! `modelParser.mly` reads them: `let` and `let rec` bindings and their
//! patterns, the checks, `show`, `include`, procedures and `call`,
//! `with`, `enum`, `if variant` and `match`.
//!
//! book: cat.md, Instructions

use std::rc::Rc;

use super::super::ast::*;
use super::super::error::Fail;
use super::super::lexer::Tok;
use super::{Parser, MAX_NESTING};

impl Parser<'_> {
    /// Instructions up to one of the keywords `stops` (not consumed) or
    /// the end of the file.
    pub(super) fn instructions(&mut self, stops: &[&str]) -> Result<Vec<Ins>, Fail> {
        let mut out = Vec::new();
        loop {
            match self.peek() {
                None => return Ok(out),
                Some(Tok::Name(n)) if stops.contains(&n) => return Ok(out),
                _ => out.push(self.instruction()?),
            }
        }
    }

    fn instruction(&mut self) -> Result<Ins, Fail> {
        let start = self.span_here();
        if self.depth > MAX_NESTING {
            return Err(Fail::new(
                "relaxlab::cat::syntax",
                start,
                format!("instructions nested more than {MAX_NESTING} deep"),
                "too deep",
                "flatten the procedures, matches or variants",
            ));
        }
        self.depth += 1;
        let kind = self.instruction_kind();
        self.depth -= 1;
        let kind = kind?;
        Ok(Ins {
            kind,
            span: start.to(self.prev_span()),
        })
    }

    fn instruction_kind(&mut self) -> Result<InsKind, Fail> {
        let Some(Tok::Name(kw)) = self.peek() else {
            if self.peek() == Some(Tok::Tilde) {
                return self.check(CheckKind::Check);
            }
            return Err(self.unexpected(
                "an instruction (let, acyclic, irreflexive, empty, show, include, ...)",
            ));
        };
        match kw {
            "let" => {
                self.pos += 1;
                let rec = self.eat_kw("rec");
                let bindings = self.bindings()?;
                if rec && self.eat_kw("when") {
                    self.check_body()?;
                    self.eat_kw("in");
                    return Ok(InsKind::Unsupported("`let rec ... when`"));
                }
                // herd7 accepts (and ignores) a trailing `in`.
                self.eat_kw("in");
                Ok(InsKind::Let { rec, bindings })
            }
            "acyclic" | "irreflexive" | "empty" => self.check(CheckKind::Check),
            "flag" => {
                self.pos += 1;
                self.check(CheckKind::Flag)
            }
            "undefined_unless" => {
                self.pos += 1;
                self.check(CheckKind::UndefinedUnless)
            }
            "show" => {
                self.pos += 1;
                let e = self.base(0)?;
                if self.eat_kw("as") {
                    return Ok(InsKind::ShowAs(e, self.name()?));
                }
                let first = match e.kind {
                    ExprKind::Var(v) => Name {
                        text: v,
                        span: e.span,
                    },
                    _ => return Err(self.unexpected("`as NAME` after a shown expression")),
                };
                let mut names = vec![first];
                while self.eat(Tok::Comma) {
                    names.push(self.name()?);
                }
                Ok(InsKind::Show(names))
            }
            "unshow" => {
                self.pos += 1;
                let mut names = vec![self.name()?];
                while self.eat(Tok::Comma) {
                    names.push(self.name()?);
                }
                Ok(InsKind::Unshow(names))
            }
            "include" => {
                self.pos += 1;
                match self.bump() {
                    Some(Tok::Str(s)) => Ok(InsKind::Include(s.to_string(), self.prev_span())),
                    _ => {
                        self.pos -= 1;
                        Err(self.unexpected("a file name in double quotes"))
                    }
                }
            }
            "procedure" => {
                self.pos += 1;
                self.eat_kw("rec");
                let name = self.name()?;
                let param = if self.peek() == Some(Tok::LPar) {
                    self.pos += 1;
                    let p = self.formals()?;
                    self.expect(Tok::RPar, "`)`")?;
                    p
                } else {
                    Pat::Var(self.pat0()?)
                };
                self.expect(Tok::Eq, "`=`")?;
                let body = self.instructions(&["end"])?;
                self.expect_kw("end")?;
                Ok(InsKind::Procedure {
                    name,
                    param,
                    body: Rc::new(body),
                })
            }
            "call" => {
                self.pos += 1;
                let name = self.name()?;
                let arg = self.simple()?;
                let label = if self.eat_kw("as") {
                    Some(self.name()?)
                } else {
                    None
                };
                Ok(InsKind::Call { name, arg, label })
            }
            "debug" => {
                self.pos += 1;
                self.expr()?;
                Ok(InsKind::Unsupported("`debug`"))
            }
            "forall" => {
                self.pos += 1;
                self.name()?;
                self.expect_kw("in")?;
                self.expr()?;
                self.expect_kw("do")?;
                self.instructions(&["end"])?;
                self.expect_kw("end")?;
                Ok(InsKind::Unsupported("`forall`"))
            }
            "with" => {
                self.pos += 1;
                let name = self.name()?;
                self.expect_kw("from")?;
                Ok(InsKind::With(name, self.expr()?))
            }
            "instructions" | "default" => {
                let default = kw == "default";
                self.pos += 1;
                let kind = self.name()?;
                self.expect(Tok::LBrack, "`[`")?;
                let args = self.args(Tok::RBrack)?;
                Ok(InsKind::Events {
                    kind,
                    args,
                    default,
                })
            }
            "enum" => {
                self.pos += 1;
                let name = self.name()?;
                self.expect(Tok::Eq, "`=`")?;
                self.eat(Tok::Alt);
                let mut tags = vec![self.tag()?];
                while self.eat(Tok::Alt) {
                    tags.push(self.tag()?);
                }
                Ok(InsKind::Enum(name, tags))
            }
            "if" => {
                self.pos += 1;
                let cond = self.variant_cond()?;
                let then = self.instructions(&["else", "end"])?;
                let otherwise = if self.eat_kw("else") {
                    self.instructions(&["end"])?
                } else {
                    Vec::new()
                };
                self.expect_kw("end")?;
                Ok(InsKind::IfVariant {
                    cond,
                    then,
                    otherwise,
                })
            }
            "match" => {
                self.pos += 1;
                let scrutinee = self.expr()?;
                self.expect_kw("with")?;
                self.eat(Tok::Alt);
                let mut clauses = Vec::new();
                let mut default = None;
                loop {
                    if self.eat(Tok::Underscore) {
                        self.expect(Tok::Arrow, "`->`")?;
                        default = Some(self.instructions(&["end"])?);
                        break;
                    }
                    let tag = self.tag()?;
                    self.expect(Tok::Arrow, "`->`")?;
                    let body = self.instructions_until_alt()?;
                    clauses.push((tag, body));
                    if !self.eat(Tok::Alt) {
                        break;
                    }
                }
                self.expect_kw("end")?;
                Ok(InsKind::Match {
                    scrutinee,
                    clauses,
                    default,
                })
            }
            _ => Err(self.unexpected(
                "an instruction (let, acyclic, irreflexive, empty, show, include, ...)",
            )),
        }
    }

    /// herd7's variant condition: `"v"`, `variant "v"`, `not c`,
    /// `c && c`, `c || c` (`&&` binding tighter), `(c)`.
    pub(super) fn variant_cond(&mut self) -> Result<VariantCond, Fail> {
        let mut lhs = self.variant_and()?;
        while self.eat(Tok::Alt) {
            let rhs = self.variant_and()?;
            lhs = VariantCond::Or(Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn variant_and(&mut self) -> Result<VariantCond, Fail> {
        let mut lhs = self.variant_atom()?;
        while self.eat(Tok::AmpAmp) {
            let rhs = self.variant_atom()?;
            lhs = VariantCond::And(Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn variant_atom(&mut self) -> Result<VariantCond, Fail> {
        if self.eat_kw("not") {
            return Ok(VariantCond::Not(Box::new(self.variant_atom()?)));
        }
        if self.eat(Tok::LPar) {
            let c = self.variant_cond()?;
            self.expect(Tok::RPar, "`)`")?;
            return Ok(c);
        }
        self.eat_kw("variant");
        match self.bump() {
            Some(Tok::Str(s)) => Ok(VariantCond::Is(s.to_string(), self.prev_span())),
            _ => {
                self.pos -= 1;
                Err(self.unexpected("a variant name in double quotes"))
            }
        }
    }

    /// Is the `if` at the current position a variant condition?
    pub(super) fn at_variant_cond(&self) -> bool {
        let mut k = 0;
        loop {
            match self.peek_at(k) {
                Some(Tok::Name("not" | "variant")) | Some(Tok::LPar) => k += 1,
                Some(Tok::Str(_)) => return true,
                _ => return false,
            }
        }
    }

    /// Instructions up to `||` or `end`.
    fn instructions_until_alt(&mut self) -> Result<Vec<Ins>, Fail> {
        let mut out = Vec::new();
        while !matches!(self.peek(), None | Some(Tok::Alt)) && !self.at_kw("end") {
            out.push(self.instruction()?);
        }
        Ok(out)
    }

    pub(super) fn tag(&mut self) -> Result<Name, Fail> {
        match self.peek() {
            Some(Tok::Tag(t)) => {
                self.pos += 1;
                Ok(Name {
                    text: t.to_string(),
                    span: self.prev_span(),
                })
            }
            _ => Err(self.unexpected("a tag ('name)")),
        }
    }

    /// `[~] acyclic|irreflexive|empty expr [as name]`.
    fn check(&mut self, kind: CheckKind) -> Result<InsKind, Fail> {
        let negated = self.eat(Tok::Tilde);
        let test = match self.peek() {
            Some(Tok::Name("acyclic")) => TestKind::Acyclic,
            Some(Tok::Name("irreflexive")) => TestKind::Irreflexive,
            Some(Tok::Name("empty")) => TestKind::Empty,
            _ => return Err(self.unexpected("`acyclic`, `irreflexive` or `empty`")),
        };
        self.pos += 1;
        let expr = self.expr()?;
        let name = if self.eat_kw("as") {
            Some(self.name()?)
        } else {
            None
        };
        Ok(InsKind::Check {
            kind,
            negated,
            test,
            expr,
            name,
        })
    }

    /// The check after `let rec ... when` (refused, parsed for its extent).
    fn check_body(&mut self) -> Result<(), Fail> {
        self.eat(Tok::Tilde);
        if !(self.eat_kw("acyclic") || self.eat_kw("irreflexive") || self.eat_kw("empty")) {
            return Err(self.unexpected("`acyclic`, `irreflexive` or `empty`"));
        }
        self.expr()?;
        if self.eat_kw("as") {
            self.name()?;
        }
        Ok(())
    }

    /// `_` or a name.
    pub(super) fn pat0(&mut self) -> Result<Option<Name>, Fail> {
        if self.eat(Tok::Underscore) {
            return Ok(None);
        }
        self.name().map(Some)
    }

    /// The formals inside `( )`: empty, one (a plain pattern) or a tuple.
    pub(super) fn formals(&mut self) -> Result<Pat, Fail> {
        if self.peek() == Some(Tok::RPar) {
            return Ok(Pat::Tuple(Vec::new()));
        }
        let mut names = vec![self.pat0()?];
        while self.eat(Tok::Comma) {
            names.push(self.pat0()?);
        }
        Ok(if names.len() == 1 {
            Pat::Var(names.pop().flatten())
        } else {
            Pat::Tuple(names)
        })
    }

    /// `b1 and b2 and ...`.
    pub(super) fn bindings(&mut self) -> Result<Vec<Binding>, Fail> {
        let mut out = vec![self.binding()?];
        while self.eat_kw("and") {
            out.push(self.binding()?);
        }
        Ok(out)
    }

    /// `(formals) = e`, `x, y = e`, `x = e`, `f x = e`, `f(x, y) = e`.
    fn binding(&mut self) -> Result<Binding, Fail> {
        let start = self.span_here();
        if self.peek() == Some(Tok::LPar) {
            self.pos += 1;
            let pat = self.formals()?;
            self.expect(Tok::RPar, "`)`")?;
            self.expect(Tok::Eq, "`=`")?;
            let expr = Rc::new(self.expr()?);
            return Ok(Binding {
                pat,
                span: start.to(expr.span),
                expr,
            });
        }
        let first = self.pat0()?;
        match (self.peek(), &first) {
            (Some(Tok::Eq), _) => {
                self.pos += 1;
                let expr = Rc::new(self.expr()?);
                Ok(Binding {
                    pat: Pat::Var(first),
                    span: start.to(expr.span),
                    expr,
                })
            }
            (Some(Tok::Comma), _) => {
                let mut names = vec![first];
                while self.eat(Tok::Comma) {
                    names.push(self.pat0()?);
                }
                self.expect(Tok::Eq, "`=`")?;
                let expr = Rc::new(self.expr()?);
                Ok(Binding {
                    pat: Pat::Tuple(names),
                    span: start.to(expr.span),
                    expr,
                })
            }
            (Some(Tok::LPar), Some(name)) => {
                self.pos += 1;
                let param = self.formals()?;
                self.expect(Tok::RPar, "`)`")?;
                self.function_binding(name.clone(), param, start)
            }
            (_, Some(name)) => {
                let param = Pat::Var(self.pat0()?);
                self.function_binding(name.clone(), param, start)
            }
            _ => Err(self.unexpected("`=`")),
        }
    }

    fn function_binding(&mut self, name: Name, param: Pat, start: Span) -> Result<Binding, Fail> {
        self.expect(Tok::Eq, "`=`")?;
        let body = self.expr()?;
        let span = start.to(body.span);
        Ok(Binding {
            pat: Pat::Var(Some(name)),
            expr: Rc::new(Expr {
                kind: ExprKind::Fun(param, Rc::new(body)),
                span,
            }),
            span,
        })
    }
}
