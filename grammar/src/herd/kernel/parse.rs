//! The parser of herd7's C tests in full (herdtools7's `CParser.mly` deep
//! grammar, its state parser for the init block and its constraint parser
//! for the trailers), for the tests relaxlab runs in herd's C semantics.
//!
//! This file reads the init block, the threads and their statements; the
//! expressions (`expr`) and the trailers (`trailers`) have modules of
//! their own. Annotated primitives take their tags in braces:
//! `__load{once}(*x)`, `__fence{rcu-lock}`.
//!
//! book: herd.md, The supported subset

use relaxlab_semantics::ir::Span;

use super::ast::*;
use crate::herd::error::{at, HerdError};
use crate::herd::lexer::{lex, Cursor, Header, Tok};

mod expr;
mod trailers;

/// Type words of herd's C (its `BASE_TYPE`s and keywords).
fn is_type_word(w: &str) -> bool {
    crate::herd::c::is_type_word(w)
        || matches!(
            w,
            "void"
                | "spinlock_t"
                | "atomic_t"
                | "mtx_t"
                | "struct"
                | "int128_t"
                | "uint128_t"
                | "__int128"
                | "__uint128"
        )
}

/// Parses a whole herd C test (its header already read).
pub(crate) fn test(src: &str, h: &Header<'_>) -> Result<Test, Vec<HerdError>> {
    let toks = lex(src, h.rest).map_err(|e| vec![e])?;
    let mut p = P {
        cur: Cursor::new(src, toks),
    };
    p.test(h).map_err(|e| vec![e])
}

struct P<'s> {
    cur: Cursor<'s>,
}

type R<T> = Result<T, HerdError>;

fn join(a: Span, b: Span) -> Span {
    Span::new(a.start as usize, b.end.max(a.start) as usize)
}

impl<'s> P<'s> {
    fn test(&mut self, h: &Header<'_>) -> R<Test> {
        let mut t = Test {
            name: h.name.to_string(),
            doc: None,
            init: Vec::new(),
            reg_init: Vec::new(),
            arrays: Vec::new(),
            init_types: Vec::new(),
            threads: Vec::new(),
            locations: Vec::new(),
            filter: None,
            condition: None,
            regions: Vec::new(),
        };
        if let Tok::Str(doc) = self.cur.peek() {
            t.doc = Some(doc.to_string());
            self.cur.bump();
        }
        if !self.cur.skip_to(Tok::LBrace) {
            return Err(self.cur.error("`{` opening the init block"));
        }
        self.init_block(&mut t)?;
        if !t.arrays.is_empty() {
            if let Some(e) = crate::herd::c_arrays::c_init_types_refused(&t.init_types) {
                return Err(e);
            }
        }
        loop {
            match self.cur.peek() {
                Tok::Ident("void") if matches!(self.cur.peek_at(1), Tok::Ident(w) if is_proc(w)) => {
                    self.cur.bump();
                }
                Tok::Ident(w) if is_proc(w) => {
                    let th = self.thread(t.threads.len())?;
                    t.threads.push(th);
                }
                _ => break,
            }
        }
        if t.threads.is_empty() {
            return Err(self.cur.error("a thread `P0(int *x) { ... }`"));
        }
        self.trailers(&mut t)?;
        Ok(t)
    }

    // ---- Init block (herd's state parser) ------------------------------

    fn init_block(&mut self, t: &mut Test) -> R<()> {
        self.cur.expect(Tok::LBrace, "`{` opening the init block")?;
        loop {
            while self.cur.eat(Tok::Semi) {}
            if self.cur.eat(Tok::RBrace) {
                return Ok(());
            }
            self.init_entry(t)?;
            if self.cur.peek() != Tok::RBrace {
                self.cur
                    .expect(Tok::Semi, "`;` or `}` after an init entry")?;
            }
        }
    }

    fn init_entry(&mut self, t: &mut Test) -> R<()> {
        let start = self.cur.span();
        if let (Tok::Int(_), Tok::Colon) = (self.cur.peek(), self.cur.peek_at(1)) {
            let (th, _) = self.cur.int("a thread number")?;
            self.cur.bump();
            let (reg, rspan) = self.cur.ident("a register")?;
            let v = if self.cur.eat(Tok::Assign) {
                self.value()?
            } else {
                Value::Int(0)
            };
            t.reg_init
                .push((th as usize, reg.to_string(), v, join(start, rspan)));
            return Ok(());
        }
        let mut words: Vec<(&str, Span)> = Vec::new();
        let mut bracketed = None;
        loop {
            match self.cur.peek() {
                Tok::Ident(_)
                    if self.cur.peek_at(1) == Tok::LBracket
                        && matches!(self.cur.peek_at(2), Tok::Int(_))
                        && self.cur.peek_at(3) == Tok::RBracket =>
                {
                    return self.array_entry(t, &words, start);
                }
                Tok::Ident(w) => words.push((w, self.cur.bump().1)),
                Tok::Star => {
                    self.cur.bump();
                }
                Tok::LBracket if bracketed.is_none() && words.is_empty() => {
                    self.cur.bump();
                    bracketed = Some(self.cur.ident("a location name")?);
                    self.cur.expect(Tok::RBracket, "`]`")?;
                }
                Tok::LBracket => {
                    let s = self.cur.span();
                    return Err(HerdError::unsupported(
                        "an array location",
                        s,
                        "herd's C semantics in relaxlab has scalar locations only",
                    ));
                }
                _ => break,
            }
        }
        let Some((loc, loc_span)) = bracketed.or_else(|| words.last().copied()) else {
            return Err(self.cur.error("a location or `N:register`"));
        };
        if words.len() > 1 && bracketed.is_none() {
            let (ty, _) = words[words.len() - 2];
            t.init_types.push((ty.to_string(), join(start, loc_span)));
        }
        let value = if self.cur.eat(Tok::Assign) {
            Some(self.value()?)
        } else {
            None
        };
        t.init.push((loc.to_string(), value, join(start, loc_span)));
        Ok(())
    }

    /// `TYPE y[N];` or `TYPE y[N] = {v0, ...};`: an array, as herd7's C
    /// reads it (book: herd.md, Arrays).
    fn array_entry(&mut self, t: &mut Test, words: &[(&str, Span)], start: Span) -> R<()> {
        let a = crate::herd::cond::array_decl(&mut self.cur, words, start, true)?;
        if let Some(e) = crate::herd::c_arrays::c_array_refused(&a) {
            return Err(e);
        }
        let taken = t.arrays.iter().any(|b| b.name == a.name)
            || t.init.iter().any(|(l, _, _)| *l == a.name);
        if taken {
            return Err(HerdError::unsupported(
                format!("a second declaration of `{}`", a.name),
                a.name_span,
                "declare each location and array once",
            ));
        }
        t.arrays.push(a);
        Ok(())
    }

    /// An integer, `ATOMIC_INIT(n)`, a location (its address) or `&x`.
    fn value(&mut self) -> R<Value> {
        if let (Tok::Ident("ATOMIC_INIT"), Tok::LParen) = (self.cur.peek(), self.cur.peek_at(1)) {
            self.cur.bump();
            self.cur.bump();
            let v = self.value()?;
            self.cur.expect(Tok::RParen, "`)` closing `ATOMIC_INIT(`")?;
            return Ok(v);
        }
        if self.cur.eat(Tok::Amp) {
            let (x, _) = self.cur.ident("a location")?;
            return Ok(Value::Addr(x.to_string()));
        }
        if let Tok::Ident(x) = self.cur.peek() {
            self.cur.bump();
            return Ok(Value::Addr(x.to_string()));
        }
        Ok(Value::Int(self.cur.int("an integer or a location")?.0))
    }

    // ---- Threads ------------------------------------------------------

    fn thread(&mut self, index: usize) -> R<Thread> {
        let (name, nspan) = self.cur.ident("a thread `P0(...)`")?;
        let number: usize = name[1..].parse().unwrap_or(usize::MAX);
        if number != index {
            return Err(HerdError::BadThread {
                name: name.to_string(),
                span: at(nspan),
                help: format!("herd numbers threads in order: this one must be `P{index}`"),
            });
        }
        self.cur.expect(Tok::LParen, "`(` opening the parameters")?;
        let mut params = Vec::new();
        if !self.cur.eat(Tok::RParen) {
            loop {
                params.push(self.param()?);
                if self.cur.eat(Tok::RParen) {
                    break;
                }
                self.cur.expect(Tok::Comma, "`,` or `)`")?;
            }
        }
        let open = self.cur.span();
        self.cur
            .expect(Tok::LBrace, "`{` opening the thread's body")?;
        let mut body = Vec::new();
        while !self.cur.eat(Tok::RBrace) {
            if self.cur.peek() == Tok::Eof {
                return Err(self.cur.error("`}` closing the thread"));
            }
            body.push(self.block_ins()?);
        }
        Ok(Thread {
            number,
            params,
            body,
            span: join(nspan, open),
        })
    }

    fn param(&mut self) -> R<Param> {
        let start = self.cur.span();
        let mut stars = 0;
        loop {
            match self.cur.peek() {
                Tok::Ident(w) if is_type_word(w) => {
                    self.cur.bump();
                    if w == "struct" {
                        self.cur.ident("a struct name")?;
                    }
                }
                Tok::Ident(_) if matches!(self.cur.peek_at(1), Tok::Ident(_) | Tok::Star) => {
                    // herd's lexer takes any name before `*` for a type
                    // it does not know as a parameter name: refuse it.
                    let (w, s) = self.cur.bump();
                    return Err(HerdError::unsupported(
                        format!("the type {}", w.describe()),
                        s,
                        "herd's C types are C's integer types, their atomic forms, spinlock_t, atomic_t and struct srcu_struct",
                    ));
                }
                Tok::Star => {
                    stars += 1;
                    self.cur.bump();
                }
                _ => break,
            }
        }
        let (name, nspan) = self.cur.ident("a parameter name")?;
        if stars == 0 {
            return Err(HerdError::unsupported(
                "a parameter that is not a pointer",
                join(start, nspan),
                "a thread's parameters are the shared locations: write `int *x`",
            ));
        }
        Ok(Param {
            name: name.to_string(),
            span: nspan,
        })
    }

    /// A type (words and stars) at the cursor, if one starts here.
    fn skip_type(&mut self) -> bool {
        let mut any = false;
        while let Tok::Ident(w) = self.cur.peek() {
            if !is_type_word(w) {
                break;
            }
            self.cur.bump();
            if w == "struct" {
                let _ = self.cur.ident("a struct name");
            }
            any = true;
        }
        if any {
            while self.cur.eat(Tok::Star) {}
        }
        any
    }

    // ---- Statements -----------------------------------------------------

    fn block_ins(&mut self) -> R<Stmt> {
        if self.cur.peek() == Tok::LBrace {
            let start = self.cur.bump().1;
            self.cur.enter()?;
            let mut body = Vec::new();
            while !self.cur.eat(Tok::RBrace) {
                if self.cur.peek() == Tok::Eof {
                    return Err(self.cur.error("`}`"));
                }
                body.push(self.block_ins()?);
            }
            self.cur.leave();
            return Ok(Stmt::Seq(body, join(start, self.cur.prev_span())));
        }
        self.instruction()
    }

    fn semi(&mut self) -> R<Span> {
        self.cur.expect(Tok::Semi, "`;`")
    }

    fn instruction(&mut self) -> R<Stmt> {
        let start = self.cur.span();
        match (self.cur.peek(), self.cur.peek_at(1)) {
            (Tok::Semi, _) => {
                self.cur.bump();
                Ok(Stmt::Seq(Vec::new(), start))
            }
            (Tok::Ident("if"), _) => {
                self.cur.bump();
                self.cur.expect(Tok::LParen, "`(` after `if`")?;
                let c = self.expr()?;
                self.cur.expect(Tok::RParen, "`)`")?;
                self.cur.enter()?;
                let then = self.block_ins()?;
                let otherwise = if self.cur.at_word("else") {
                    self.cur.bump();
                    Some(Box::new(self.block_ins()?))
                } else {
                    None
                };
                self.cur.leave();
                Ok(Stmt::If(
                    c,
                    Box::new(then),
                    otherwise,
                    join(start, self.cur.prev_span()),
                ))
            }
            (Tok::Ident("while"), _) => {
                self.cur.bump();
                let c = self.expr0()?;
                self.cur.enter()?;
                let body = self.block_ins()?;
                self.cur.leave();
                Ok(Stmt::While(
                    c,
                    Box::new(body),
                    join(start, self.cur.prev_span()),
                ))
            }
            (
                Tok::Ident(
                    w @ ("for" | "do" | "goto" | "return" | "switch" | "break" | "continue"),
                ),
                _,
            ) => Err(HerdError::unsupported(
                format!("`{w}`"),
                start,
                "herd's C has `if`, `while` and blocks only",
            )),
            (Tok::LParen, Tok::Ident("void")) if self.cur.peek_at(2) == Tok::RParen => {
                self.cur.bump();
                self.cur.bump();
                self.cur.bump();
                let e = self.expr()?;
                let end = self.semi()?;
                Ok(Stmt::Assign(None, e, join(start, end)))
            }
            (Tok::Ident(w), _) if is_type_word(w) => {
                self.skip_type();
                let (r, rspan) = self.cur.ident("a variable name")?;
                if self.cur.eat(Tok::Assign) {
                    let e = self.expr()?;
                    let end = self.semi()?;
                    return Ok(Stmt::Assign(
                        Some((r.to_string(), rspan)),
                        e,
                        join(start, end),
                    ));
                }
                if self.cur.peek() == Tok::LBracket {
                    return Err(HerdError::unsupported(
                        "an array variable",
                        self.cur.span(),
                        "herd's C semantics in relaxlab has scalar registers only",
                    ));
                }
                let end = self.semi()?;
                Ok(Stmt::Decl(r.to_string(), join(start, end)))
            }
            (Tok::Ident(r), Tok::Assign) => {
                let rspan = self.cur.bump().1;
                self.cur.bump();
                let e = self.expr()?;
                let end = self.semi()?;
                Ok(Stmt::Assign(
                    Some((r.to_string(), rspan)),
                    e,
                    join(start, end),
                ))
            }
            (Tok::Star, _) => {
                self.cur.bump();
                let loc = self.location()?;
                self.cur.expect(Tok::Assign, "`=`")?;
                let v = self.expr()?;
                let end = self.semi()?;
                Ok(Stmt::Store(loc, v, Ann::Plain, join(start, end)))
            }
            (Tok::Ident("__store"), _) => {
                self.cur.bump();
                let tags = self.annots()?;
                let args = self.call_args()?;
                let end = self.semi()?;
                let span = join(start, end);
                let [a, v]: [Expr; 2] = self.arity("__store", args, span)?;
                Ok(Stmt::Store(a, v, Ann::Tags(tags), span))
            }
            (Tok::Ident("__srcu"), _) => {
                self.cur.bump();
                let tags = self.annots()?;
                let mut args = self.call_args()?;
                let end = self.semi()?;
                let span = join(start, end);
                match args.len() {
                    1 => Ok(Stmt::Srcu(args.remove(0), tags, None, span)),
                    2 => {
                        let v = args.remove(1);
                        Ok(Stmt::Srcu(args.remove(0), tags, Some(v), span))
                    }
                    n => Err(bad_arity("__srcu", "1 or 2", n, span)),
                }
            }
            (Tok::Ident("__fence"), _) => {
                self.cur.bump();
                let tags = self.annots()?;
                let end = self.semi()?;
                Ok(Stmt::Fence(Ann::Tags(tags), join(start, end)))
            }
            (Tok::Ident(kw @ ("__lock" | "__unlock")), _) => {
                self.cur.bump();
                let args = self.call_args()?;
                let end = self.semi()?;
                let span = join(start, end);
                let [a]: [Expr; 1] = self.arity(kw, args, span)?;
                Ok(if kw == "__lock" {
                    Stmt::Lock(a, span)
                } else {
                    Stmt::Unlock(a, span)
                })
            }
            (Tok::Ident("__atomic_op"), _) => {
                self.cur.bump();
                let tags = if self.cur.peek() == Tok::LBrace {
                    self.annots()?
                } else {
                    vec![String::new()]
                };
                self.cur.expect(Tok::LParen, "`(`")?;
                let a = self.expr()?;
                self.cur.expect(Tok::Comma, "`,`")?;
                let op = self.atomic_op()?;
                self.cur.expect(Tok::Comma, "`,`")?;
                let v = self.expr()?;
                self.cur.expect(Tok::RParen, "`)`")?;
                let end = self.semi()?;
                Ok(Stmt::AtomicOp(a, op, v, tags, join(start, end)))
            }
            (Tok::Ident("atomic_thread_fence"), Tok::LParen) => {
                self.cur.bump();
                let args = self.call_args()?;
                let end = self.semi()?;
                let span = join(start, end);
                let [mo]: [Expr; 1] = self.arity("atomic_thread_fence", args, span)?;
                Ok(Stmt::Fence(Ann::Mo(order_name(&mo, span)?), span))
            }
            (Tok::Ident(f @ ("atomic_store_explicit" | "atomic_store")), Tok::LParen) => {
                self.cur.bump();
                let mut args = self.call_args()?;
                let end = self.semi()?;
                let span = join(start, end);
                let mo = if f == "atomic_store" {
                    "memory_order_seq_cst".to_string()
                } else {
                    let Some(mo) = args.pop().filter(|_| args.len() == 2) else {
                        return Err(bad_arity(f, "3", args.len() + 1, span));
                    };
                    order_name(&mo, span)?
                };
                let [a, v]: [Expr; 2] = self.arity(f, args, span)?;
                Ok(Stmt::Store(
                    Expr::Load(Box::new(a), Ann::Plain, span),
                    v,
                    Ann::Mo(mo),
                    span,
                ))
            }
            (Tok::Ident(w @ ("lock" | "unlock" | "mtx_lock" | "mtx_unlock")), Tok::LParen) => {
                let _ = w;
                self.cur.bump();
                self.call_args()?;
                let end = self.semi()?;
                Ok(Stmt::Unsupported("C11 mutexes", join(start, end)))
            }
            (Tok::Ident(f), Tok::LParen) if !is_builtin_expr(f) => {
                self.cur.bump();
                let args = self.call_args()?;
                let end = self.semi()?;
                Ok(Stmt::Call(f.to_string(), args, join(start, end)))
            }
            _ => {
                let e = self.expr()?;
                let end = self.semi()?;
                Ok(Stmt::Assign(None, e, join(start, end)))
            }
        }
    }
}

/// Is `w` a thread name `P<n>`?
fn is_proc(w: &str) -> bool {
    w.len() > 1 && w.starts_with('P') && w[1..].bytes().all(|b| b.is_ascii_digit())
}

/// Names that start an expression in herd's grammar, not a procedure
/// call, when followed by `(`.
fn is_builtin_expr(f: &str) -> bool {
    matches!(
        f,
        "__load"
            | "__xchg"
            | "__cmpxchg"
            | "__atomic_op_return"
            | "__atomic_fetch_op"
            | "__atomic_add_unless"
            | "__trylock"
            | "__islocked"
            | "atomic_load_explicit"
            | "atomic_load"
    ) || f.starts_with("atomic_exchange")
        || f.starts_with("atomic_fetch_")
        || f.starts_with("atomic_compare_exchange")
}

pub(super) fn bad_arity(f: &str, want: &str, got: usize, span: Span) -> HerdError {
    HerdError::Syntax {
        found: format!("number of arguments ({got})"),
        expected: format!("{want} arguments"),
        span: at(span),
        help: Some(format!("`{f}` takes {want} arguments")),
    }
}

/// The `memory_order_*` name an argument gives.
pub(super) fn order_name(e: &Expr, call: Span) -> R<String> {
    match e {
        Expr::Name(n, _) if n.starts_with("memory_order_") => Ok(n.clone()),
        other => Err(HerdError::syntax(
            "expression",
            "a memory_order_* constant",
            match other {
                Expr::Name(_, s) | Expr::Const(_, s) => *s,
                _ => call,
            },
        )),
    }
}

/// Parses a macro file: `NAME(formals) expr` and `NAME(formals) { body }`.
pub(crate) fn macros(src: &str) -> Result<Vec<super::macros::Macro>, Vec<HerdError>> {
    use super::macros::{Macro, MacroBody};
    let toks = lex(src, 0).map_err(|e| vec![e])?;
    let mut p = P {
        cur: Cursor::new(src, toks),
    };
    let mut out = Vec::new();
    let one = |p: &mut P<'_>| -> R<Macro> {
        let (name, nspan) = p.cur.ident("a macro name")?;
        p.cur
            .expect(Tok::LParen, "`(` and the macro's parameters")?;
        let mut formals = Vec::new();
        if !p.cur.eat(Tok::RParen) {
            loop {
                formals.push(p.cur.ident("a parameter name")?.0.to_string());
                if p.cur.eat(Tok::RParen) {
                    break;
                }
                p.cur.expect(Tok::Comma, "`,` or `)`")?;
            }
        }
        let body = if p.cur.peek() == Tok::LBrace {
            match p.block_ins()? {
                Stmt::Seq(b, _) => MacroBody::Stmts(b),
                s => MacroBody::Stmts(vec![s]),
            }
        } else {
            MacroBody::Expr(p.expr()?)
        };
        Ok(Macro {
            name: name.to_string(),
            formals,
            body,
            span: join(nspan, p.cur.prev_span()),
        })
    };
    while p.cur.peek() != Tok::Eof {
        out.push(one(&mut p).map_err(|e| vec![e])?);
    }
    Ok(out)
}
