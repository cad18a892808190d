//! The cat parser: recursive descent for instructions, precedence
//! climbing for expressions, following herd7's `modelParser.mly`.
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

use std::rc::Rc;

use super::ast::*;
use super::error::Fail;
use super::lexer::{lex, LexFailure, Spanned, Tok, KEYWORDS};

/// Parses file number `file` of a model.
pub(crate) fn parse(file: u32, src: &str) -> Result<Model, Fail> {
    let toks = lex(src).map_err(|e| match e {
        LexFailure::Char(s, e) => Fail::new(
            "relaxlab::cat::lex",
            Span::new(file, s, e),
            format!("unexpected character `{}`", &src[s..e]),
            "not part of the cat language",
            "cat has names, tags ('name), strings, `0`, comments (* *) and the operators | ++ ; \\ & * + ? ~ ^-1",
        ),
        LexFailure::Comment(s, e) => Fail::new(
            "relaxlab::cat::lex",
            Span::new(file, s, e),
            "unterminated comment",
            "this comment is never closed",
            "close it with `*)` (cat comments nest)",
        ),
    })?;
    let mut p = Parser {
        toks,
        pos: 0,
        file,
        eof: src.len(),
        depth: 0,
    };
    let title = p.title();
    let body = p.instructions(&[])?;
    if p.pos < p.toks.len() {
        return Err(
            p.unexpected("an instruction (let, acyclic, irreflexive, empty, show, include, ...)")
        );
    }
    Ok(Model { title, body })
}

struct Parser<'s> {
    toks: Vec<Spanned<'s>>,
    pos: usize,
    file: u32,
    eof: usize,
    /// Expressions being parsed, nested (bounded by [`MAX_NESTING`]).
    depth: usize,
}

/// The deepest nesting of expressions and instructions accepted, so that
/// no input can exhaust the stack of the parser or of what follows it.
const MAX_NESTING: usize = 200;

/// Binding powers of the infix operators.
const P_UNION: u8 = 1;
const P_ADD: u8 = 2;
const P_SEQ: u8 = 3;
const P_DIFF: u8 = 4;
const P_INTER: u8 = 5;
const P_CART: u8 = 6;
const P_POSTFIX: u8 = 7;
const P_INV: u8 = 8;

fn is_keyword(s: &str) -> bool {
    KEYWORDS.contains(&s)
}

impl<'s> Parser<'s> {
    fn peek(&self) -> Option<Tok<'s>> {
        self.toks.get(self.pos).map(|t| t.0)
    }

    fn peek_at(&self, k: usize) -> Option<Tok<'s>> {
        self.toks.get(self.pos + k).map(|t| t.0)
    }

    fn span_here(&self) -> Span {
        match self.toks.get(self.pos) {
            Some(&(_, s, e)) => Span::new(self.file, s, e),
            None => Span::new(self.file, self.eof, self.eof),
        }
    }

    /// The span of the token just consumed.
    fn prev_span(&self) -> Span {
        match self.pos.checked_sub(1).and_then(|i| self.toks.get(i)) {
            Some(&(_, s, e)) => Span::new(self.file, s, e),
            None => Span::new(self.file, 0, 0),
        }
    }

    fn bump(&mut self) -> Option<Tok<'s>> {
        let t = self.peek();
        self.pos += 1;
        t
    }

    fn at_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Some(Tok::Name(n)) if n == kw)
    }

    fn eat_kw(&mut self, kw: &str) -> bool {
        if self.at_kw(kw) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn eat(&mut self, t: Tok<'_>) -> bool {
        if self.peek() == Some(t) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn describe(t: Option<Tok<'_>>) -> String {
        match t {
            None => "end of file".to_string(),
            Some(Tok::Name(n)) if is_keyword(n) => format!("keyword `{n}`"),
            Some(Tok::Name(n)) => format!("name `{n}`"),
            Some(Tok::Tag(n)) => format!("tag `'{n}`"),
            Some(Tok::Str(s)) => format!("string \"{s}\""),
            Some(t) => format!("`{}`", symbol(t)),
        }
    }

    fn unexpected(&self, expected: &str) -> Fail {
        let found = Self::describe(self.peek());
        Fail::new(
            "relaxlab::cat::syntax",
            self.span_here(),
            format!("unexpected {found}"),
            format!("expected {expected}"),
            format!("the parser expected {expected} here"),
        )
    }

    fn expect(&mut self, t: Tok<'_>, what: &str) -> Result<(), Fail> {
        if self.eat(t) {
            Ok(())
        } else {
            Err(self.unexpected(what))
        }
    }

    fn expect_kw(&mut self, kw: &str) -> Result<(), Fail> {
        if self.eat_kw(kw) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("`{kw}`")))
        }
    }

    /// A name that is not a keyword.
    fn name(&mut self) -> Result<Name, Fail> {
        match self.peek() {
            Some(Tok::Name(n)) if !is_keyword(n) => {
                self.pos += 1;
                Ok(Name {
                    text: n.to_string(),
                    span: self.prev_span(),
                })
            }
            _ => Err(self.unexpected("a name")),
        }
    }

    /// The title line: names and strings before the first keyword.
    fn title(&mut self) -> Vec<TitleWord> {
        let mut out = Vec::new();
        loop {
            match self.peek() {
                Some(Tok::Name(n)) if !is_keyword(n) => out.push(TitleWord::Name(n.to_string())),
                Some(Tok::Str(s)) => out.push(TitleWord::Str(s.to_string())),
                _ => return out,
            }
            self.pos += 1;
        }
    }

    /// Instructions up to one of the keywords `stops` (not consumed) or
    /// the end of the file.
    fn instructions(&mut self, stops: &[&str]) -> Result<Vec<Ins>, Fail> {
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
    fn variant_cond(&mut self) -> Result<VariantCond, Fail> {
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
    fn at_variant_cond(&self) -> bool {
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

    fn tag(&mut self) -> Result<Name, Fail> {
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
    fn pat0(&mut self) -> Result<Option<Name>, Fail> {
        if self.eat(Tok::Underscore) {
            return Ok(None);
        }
        self.name().map(Some)
    }

    /// The formals inside `( )`: empty, one (a plain pattern) or a tuple.
    fn formals(&mut self) -> Result<Pat, Fail> {
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
    fn bindings(&mut self) -> Result<Vec<Binding>, Fail> {
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

    /// An expression, tuples without brackets included.
    fn expr(&mut self) -> Result<Expr, Fail> {
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
    fn base(&mut self, min: u8) -> Result<Expr, Fail> {
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
    fn simple(&mut self) -> Result<Expr, Fail> {
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
    fn args(&mut self, close: Tok<'_>) -> Result<Vec<Expr>, Fail> {
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

/// How a symbol token is written.
fn symbol(t: Tok<'_>) -> &'static str {
    match t {
        Tok::LPar => "(",
        Tok::RPar => ")",
        Tok::LBrace => "{",
        Tok::RBrace => "}",
        Tok::LBrack => "[",
        Tok::RBrack => "]",
        Tok::Underscore => "_",
        Tok::Zero => "0",
        Tok::Bar => "|",
        Tok::Alt => "||",
        Tok::Amp => "&",
        Tok::AmpAmp => "&&",
        Tok::Star => "*",
        Tok::Tilde => "~",
        Tok::Plus => "+",
        Tok::PlusPlus => "++",
        Tok::Hat => "^",
        Tok::MinusOne => "-1",
        Tok::Backslash => "\\",
        Tok::Question => "?",
        Tok::Eq => "=",
        Tok::Semi => ";",
        Tok::Comma => ",",
        Tok::Arrow => "->",
        Tok::Comment(_) | Tok::Str(_) | Tok::Tag(_) | Tok::Name(_) => "token",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The expression of `let x = SRC`, printed with full brackets.
    fn shape(src: &str) -> String {
        let m = parse(0, &format!("let x = {src}")).unwrap();
        let InsKind::Let { bindings, .. } = &m.body[0].kind else {
            panic!()
        };
        show(&bindings[0].expr)
    }

    fn show(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Var(v) => v.clone(),
            ExprKind::Empty => "0".into(),
            ExprKind::Universe => "_".into(),
            ExprKind::Unary(op, a) => format!("{op:?}({})", show(a)),
            ExprKind::Binary(op, a, b) => format!("({} {} {})", show(a), op.symbol(), show(b)),
            ExprKind::App(f, a) => format!("{}<{}>", show(f), show(a)),
            ExprKind::Tuple(items) => format!(
                "({})",
                items.iter().map(show).collect::<Vec<_>>().join(", ")
            ),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn precedence_follows_herd() {
        assert_eq!(shape("a | b ; c & d"), "(a | (b ; (c & d)))");
        assert_eq!(shape("po & (_ * B) ; po"), "((po & (_ * B)) ; po)");
        assert_eq!(shape("W * R & S & loc"), "((W * R) & (S & loc))");
        assert_eq!(shape("a ; b ; c"), "(a ; (b ; c))");
        assert_eq!(shape("a \\ b \\ c"), "(a \\ (b | c))");
        assert_eq!(shape("a | b | c | d"), "((a | b) | (c | d))");
        assert_eq!(shape("x & loc \\ y"), "((x & loc) \\ y)");
        assert_eq!(shape("rf^-1 ; co"), "(Inv(rf) ; co)");
        assert_eq!(shape("(rf ; rmw)* ; r"), "(Star((rf ; rmw)) ; r)");
        assert_eq!(shape("~a | b"), "(Compl(a) | b)");
        assert_eq!(shape("fencerel(MFENCE) | x"), "(fencerel<MFENCE> | x)");
        assert_eq!(shape("f x y ; z"), "(f<x><y> ; z)");
        assert_eq!(shape("hb? ; [F]"), "(Opt(hb) ; ToId(F))");
        assert_eq!(shape("WW(po) | RM(po)"), "(WW<po> | RM<po>)");
    }

    #[test]
    fn instructions_and_title() {
        let m = parse(
            0,
            "X86 TSO\ninclude \"x86fences.cat\"\nlet WW(r) = r & (W * W)\nand RM(r) = r & (R * M)\n\
             acyclic po | rf as tso\nflag ~empty dr as race\nshow a, b\nshow x as y\n\
             procedure p(a, b) = empty a \\ b end\ncall p(po, rf)\nwith s from linearisations(SC, hb)\n\
             if \"cos-opt\" include \"a.cat\" else include \"b.cat\" end",
        )
        .unwrap();
        assert_eq!(
            m.title,
            vec![TitleWord::Name("X86".into()), TitleWord::Name("TSO".into())]
        );
        assert_eq!(m.body.len(), 10);
        assert!(matches!(&m.body[1].kind, InsKind::Let { bindings, .. } if bindings.len() == 2));
        assert!(matches!(
            &m.body[3].kind,
            InsKind::Check {
                negated: true,
                kind: CheckKind::Flag,
                ..
            }
        ));
    }

    #[test]
    fn errors_point_at_the_token() {
        let e = parse(0, "let x = a |").unwrap_err();
        assert_eq!((e.span.start, e.span.end), (11, 11));
        let e = parse(0, "acyclic po as").unwrap_err();
        assert!(e.message.contains("end of file"), "{e:?}");
        let e = parse(0, "let = a").unwrap_err();
        assert_eq!(e.span.start, 4);
    }
}
