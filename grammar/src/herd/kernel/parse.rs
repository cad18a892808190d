//! The parser of herd7's C tests in full (herdtools7's `CParser.mly` deep
//! grammar, its state parser for the init block and its constraint parser
//! for the trailers), for the tests relaxlab runs in herd's C semantics.
//!
//! Operators follow herd's precedence, loosest first: `|`, `^`, `&`, the
//! comparisons (not associative), `+ -`, `* /`, casts. herd's C has no
//! `&&`, `||`, `!`, `%` or shifts, and `&` is only the bitwise and; a
//! reader who writes them is told so. Annotated primitives take their tags
//! in braces: `__load{once}(*x)`, `__fence{rcu-lock}`.

use relaxlab_semantics::ir::{BinOp, Span};

use super::ast::*;
use crate::herd::error::{at, HerdError};
use crate::herd::lexer::{lex, Cursor, Header, Tok};

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

    /// herd's `location`: `x`, `*location`, `(expr)`; as the address of a
    /// plain store `*location = e`.
    fn location(&mut self) -> R<Expr> {
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
    fn annots(&mut self) -> R<Vec<String>> {
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

    fn call_args(&mut self) -> R<Vec<Expr>> {
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

    fn arity<const N: usize>(&self, f: &str, args: Vec<Expr>, span: Span) -> R<[Expr; N]> {
        let n = args.len();
        args.try_into()
            .map_err(|_| bad_arity(f, &N.to_string(), n, span))
    }

    fn atomic_op(&mut self) -> R<AOp> {
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

    fn expr(&mut self) -> R<Expr> {
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
    fn expr0(&mut self) -> R<Expr> {
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

    // ---- Trailers ---------------------------------------------------------

    fn trailers(&mut self, t: &mut Test) -> R<()> {
        loop {
            match (self.cur.peek(), self.cur.peek_at(1)) {
                (Tok::Eof, _) => return Ok(()),
                (Tok::Ident(w @ ("regions" | "scopes" | "levels")), Tok::Colon) => {
                    self.cur.bump();
                    self.cur.bump();
                    self.regions(t, w)?;
                }
                (Tok::Ident("locations"), _) => {
                    self.cur.bump();
                    self.cur.expect(Tok::LBracket, "`[` after `locations`")?;
                    loop {
                        while self.cur.eat(Tok::Semi) {}
                        if self.cur.eat(Tok::RBracket) {
                            break;
                        }
                        let l = self.observable()?;
                        t.locations.push(l);
                    }
                }
                (Tok::Ident("filter"), _) => {
                    self.cur.bump();
                    t.filter = Some(self.prop()?);
                }
                (Tok::Ident(q @ ("exists" | "forall")), _) => {
                    let start = self.cur.bump().1;
                    let p = self.prop()?;
                    t.condition = Some((
                        if q == "exists" { "exists" } else { "forall" },
                        p,
                        join(start, self.cur.prev_span()),
                    ));
                }
                (Tok::Tilde | Tok::Bang, Tok::Ident("exists")) => {
                    let start = self.cur.bump().1;
                    self.cur.bump();
                    let p = self.prop()?;
                    t.condition = Some(("~exists", p, join(start, self.cur.prev_span())));
                }
                _ => {
                    return Err(self
                        .cur
                        .error("`exists`, `~exists`, `forall`, `locations` or `filter`"))
                }
            }
        }
    }

    /// `regions: x:R, y:S` (herd's memory regions; `scopes:`/`levels:`
    /// are refused).
    fn regions(&mut self, t: &mut Test, what: &str) -> R<()> {
        if what != "regions" {
            return Err(HerdError::unsupported(
                format!("`{what}:` (GPU scope trees)"),
                self.cur.prev_span(),
                "relaxlab reads herd's `regions:` only",
            ));
        }
        while let (Tok::Ident(x), Tok::Colon) = (self.cur.peek(), self.cur.peek_at(1)) {
            if matches!(x, "locations" | "filter" | "exists" | "forall") {
                break;
            }
            self.cur.bump();
            self.cur.bump();
            let (r, _) = self.cur.ident("a region name")?;
            t.regions.push((x.to_string(), r.to_string()));
            self.cur.eat(Tok::Comma);
        }
        Ok(())
    }

    fn observable(&mut self) -> R<Loc> {
        let start = self.cur.span();
        match (self.cur.peek(), self.cur.peek_at(1)) {
            (Tok::Int(_), Tok::Colon) => {
                let (th, _) = self.cur.int("a thread number")?;
                self.cur.bump();
                let (r, rs) = self.cur.ident("a register")?;
                Ok(Loc::Reg(th as usize, r.to_string(), join(start, rs)))
            }
            (Tok::LBracket, _) => {
                self.cur.bump();
                let (x, s) = self.cur.ident("a location")?;
                self.cur.expect(Tok::RBracket, "`]`")?;
                Ok(Loc::Mem(x.to_string(), s))
            }
            (Tok::Ident(x), Tok::LBracket) => {
                // A cell of an array, `y[1]`.
                self.cur.bump();
                self.cur.bump();
                let (i, _) = self.cur.int("the index of a cell")?;
                let close = self.cur.expect(Tok::RBracket, "`]`")?;
                Ok(Loc::Mem(format!("{x}[{i}]"), join(start, close)))
            }
            (Tok::Ident(x), _) => {
                let (_, s) = self.cur.bump();
                Ok(Loc::Mem(x.to_string(), s))
            }
            _ => Err(self.cur.error("a register `N:reg` or a location")),
        }
    }

    fn prop(&mut self) -> R<Prop> {
        self.cur.enter()?;
        let a = self.prop_or()?;
        let r = if self.cur.eat(Tok::Implies) {
            Ok(Prop::Implies(Box::new(a), Box::new(self.prop()?)))
        } else {
            Ok(a)
        };
        self.cur.leave();
        r
    }

    fn prop_or(&mut self) -> R<Prop> {
        let mut a = self.prop_and()?;
        while self.cur.eat(Tok::Vee) || self.cur.eat(Tok::OrOr) {
            let b = self.prop_and()?;
            a = Prop::Or(Box::new(a), Box::new(b));
        }
        Ok(a)
    }

    fn prop_and(&mut self) -> R<Prop> {
        let mut a = self.prop_not()?;
        while self.cur.eat(Tok::Wedge) || self.cur.eat(Tok::AndAnd) {
            let b = self.prop_not()?;
            a = Prop::And(Box::new(a), Box::new(b));
        }
        Ok(a)
    }

    fn prop_not(&mut self) -> R<Prop> {
        let not_word = self.cur.at_word("not") && self.cur.peek_at(1) == Tok::LParen;
        if self.cur.eat(Tok::Tilde)
            || self.cur.eat(Tok::Bang)
            || (not_word && self.cur.eat(self.cur.peek()))
        {
            self.cur.enter()?;
            let p = self.prop_not()?;
            self.cur.leave();
            return Ok(Prop::Not(Box::new(p)));
        }
        match self.cur.peek() {
            Tok::LParen => {
                self.cur.bump();
                let p = self.prop()?;
                self.cur.expect(Tok::RParen, "`)`")?;
                Ok(p)
            }
            Tok::Ident("true") => {
                self.cur.bump();
                Ok(Prop::Const(true))
            }
            Tok::Ident("false") => {
                self.cur.bump();
                Ok(Prop::Const(false))
            }
            _ => {
                let start = self.cur.span();
                let l = self.observable()?;
                let ne = match self.cur.peek() {
                    Tok::Assign | Tok::EqEq => false,
                    Tok::NotEq => true,
                    _ => return Err(self.cur.error("`=` or `!=`")),
                };
                self.cur.bump();
                let v = self.value()?;
                Ok(Prop::Atom(l, ne, v, join(start, self.cur.prev_span())))
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
