//! The importer of herd7's C litmus format.
//!
//! A herd C test is `C NAME`, an optional doc string, free `key=value`
//! lines, the init block, threads `P0 (atomic_int* x, int* y) { ... }` and
//! the trailers (see `cond.rs`). Each thread body is translated statement
//! by statement into relaxlab statements:
//!
//! | herd C | relaxlab |
//! |---|---|
//! | `atomic_load_explicit(x, mo)`, `atomic_load(x)` (= seq_cst) | `r = load(x, mo);` |
//! | `atomic_store_explicit(x, v, mo)`, `atomic_store(x, v)` | `store(x, v, mo);` |
//! | `atomic_exchange_explicit(x, v, mo)` | `r = exchange(x, v, mo);` |
//! | `atomic_fetch_OP_explicit(x, v, mo)`, OP in `add sub and or xor` | `r = fetch_OP(x, v, mo);` |
//! | `atomic_compare_exchange_{strong,weak}_explicit(x, &e, d, s, f)` | `t = cas(x, e, d, s, f); r = t == e; e = t;` |
//! | `atomic_compare_exchange_{strong,weak}_explicit(x, y, d, s, f)`, `y` a location | `e = load(y, na); t = cas(x, e, d, s, f); r = t == e; if (t != e) { store(y, t, na); }` |
//! | `atomic_thread_fence(mo)` | `fence(mo);` (`memory_order_relaxed`: nothing) |
//! | `*x` / `*x = v` on any parameter | `load(x, na)` / `store(x, v, na)` |
//! | `*y`, `atomic_*(y, ...)` on an array `int y[2]` | the same on `y[0]` (book: herd.md, C arrays) |
//! | `int r = e;`, `r = e;` | `r = e;` |
//! | `if (e) s else s`, `{ ... }` | `if (e) { s } else { s }` |
//!
//! The CAS row follows herd (and C11 §29.6.5p21): the call returns whether
//! it succeeded, and on failure writes the value it read into `e`; on
//! success that value equals `e`, so `e = t` is right in both cases. The
//! weak CAS is read as the strong one: it never fails spuriously here,
//! where herd7 lets it fail whatever it reads.
//! (book: herd.md, Where relaxlab and herd7 differ.)
//! When `expected` is a
//! shared location (a pointer parameter passed as is), herd's C semantics
//! reads it non-atomically before the operation and writes it
//! non-atomically on failure only; so does the translation. When `y` is
//! also accessed atomically, its atomicity is mixed, which only the models
//! that allow mixed atomicity accept.
//!
//! A shared access inside a larger expression is hoisted into a fresh
//! register (`t0`, `t1`, ... never used in the file) in left-to-right
//! order, before the statement: C leaves the order of two accesses in one
//! expression unspecified, and herd evaluates left to right too. An access
//! on the right of `&&`/`||` is refused: hoisting it would perform it when C
//! does not. `memory_order_consume`, loops, pointers to pointers, pointer
//! values, casts, `?:` and the Linux-kernel macros are refused with a
//! diagnostic naming them.

mod calls;

use std::collections::BTreeSet;

use relaxlab_semantics::ir::{BinOp, Span};

use super::c_arrays::{c_array_refused, c_init_types_refused};
use super::c_expr::{expr, op_str, prec, Un, E};
use super::cond;
use super::emit::{name, Out, ThreadOut};
use super::error::HerdError;
use super::lexer::{lex, Cursor, Header, Tok};

/// Type words accepted in declarations and parameters.
pub(crate) fn is_type_word(w: &str) -> bool {
    matches!(
        w,
        "int"
            | "long"
            | "short"
            | "char"
            | "unsigned"
            | "signed"
            | "const"
            | "volatile"
            | "_Atomic"
            | "intptr_t"
            | "int8_t"
            | "int16_t"
            | "int32_t"
            | "int64_t"
            | "uint8_t"
            | "uint16_t"
            | "uint32_t"
            | "uint64_t"
            | "uintptr_t"
            | "size_t"
            | "_Bool"
            | "bool"
            | "__int128"
            | "__int128_t"
            | "__uint128_t"
            | "atomic_int"
            | "atomic_long"
            | "atomic_uint"
            | "atomic_ulong"
            | "atomic_llong"
            | "atomic_ullong"
            | "atomic_short"
            | "atomic_ushort"
            | "atomic_char"
            | "atomic_schar"
            | "atomic_uchar"
            | "atomic_bool"
            | "atomic_size_t"
            | "atomic_intptr_t"
            | "atomic_uintptr_t"
    )
}

/// A type the importer does not know, written where a declaration or a
/// parameter starts: `T x` or `T* x` with `T` not a type word.
fn unknown_type(cur: &Cursor<'_>) -> Option<(String, Span)> {
    match (cur.peek(), cur.peek_at(1)) {
        (Tok::Ident(t), Tok::Ident(_) | Tok::Star) if !is_type_word(t) => {
            Some((t.to_string(), cur.span()))
        }
        _ => None,
    }
}

fn unknown_type_error((t, span): (String, Span)) -> HerdError {
    HerdError::unsupported(
        format!("the type `{t}`"),
        span,
        "relaxlab reads C's integer types (`int`, `long`, `int64_t`, `__int128`, ...), \
         their `atomic_` forms and `_Atomic`; its values are 64-bit integers",
    )
}

/// Is this a type word of an atomic type?
pub(crate) fn is_atomic_word(w: &str) -> bool {
    w.starts_with("atomic_") || w == "_Atomic"
}

/// Translates a herd C test (its header already read) to relaxlab text.
pub(crate) fn translate_c(src: &str, h: &Header<'_>) -> Result<String, Vec<HerdError>> {
    let toks = lex(src, h.rest).map_err(|e| vec![e])?;
    let mut cur = Cursor::new(src, toks);
    let mut out = Out {
        name: h.name.to_string(),
        c: true,
        ..Out::default()
    };
    if let Tok::Str(doc) = cur.peek() {
        out.doc = Some(doc.to_string());
        cur.bump();
    }
    // The `key=value` lines (Cycle=..., Com=...) carry no semantics.
    if !cur.skip_to(Tok::LBrace) {
        return Err(vec![cur.error("`{` opening the init block")]);
    }
    let init_span = cur.span();
    cond::init_block(&mut cur, &mut out).map_err(|e| vec![e])?;
    if !out.arrays.is_empty() {
        let refused = out
            .arrays
            .iter()
            .find_map(c_array_refused)
            .or_else(|| c_init_types_refused(&out.init_types));
        if let Some(e) = refused {
            return Err(vec![e]);
        }
    }
    let taken: BTreeSet<String> = cur.idents().into_iter().map(str::to_string).collect();
    let mut errors = Vec::new();
    while let Tok::Ident(w) = cur.peek() {
        if matches!(w, "exists" | "forall" | "locations" | "filter") {
            break;
        }
        let thread = thread(&mut cur, &mut out, &taken, &mut errors);
        out.threads.push(thread);
    }
    if out.threads.is_empty() {
        errors.push(cur.error("a thread `P0 (int* x) { ... }`"));
        return Err(errors);
    }
    if let Err(e) = cond::check_reg_inits(&out, init_span) {
        errors.push(e);
    }
    out.apply_reg_inits();
    if let Err(e) = cond::trailers(&mut cur, &mut out) {
        errors.push(e);
    }
    if errors.is_empty() {
        Ok(out.render())
    } else {
        Err(errors)
    }
}

/// One thread: its errors are recorded and the parser resumes after its
/// closing brace, so every thread is checked.
fn thread(
    cur: &mut Cursor<'_>,
    out: &mut Out,
    taken: &BTreeSet<String>,
    errors: &mut Vec<HerdError>,
) -> ThreadOut {
    let index = out.threads.len();
    let mut th = CThread {
        params: Vec::new(),
        globals: BTreeSet::new(),
        arrays: out.arrays.iter().map(|a| a.name.clone()).collect(),
        lines: Vec::new(),
        indent: 1,
        regs: BTreeSet::new(),
        taken: taken.clone(),
        next_tmp: 0,
        body_end: None,
    };
    cur.reset_depth();
    if let Err(e) = thread_inner(cur, out, &mut th, index, errors) {
        errors.push(e);
        // Resynchronise after the thread's body.
        match th.body_end {
            Some(end) => cur.reset(end),
            None => {
                if cur.skip_to(Tok::LBrace) {
                    let end = cur.after_matching_brace();
                    cur.reset(end);
                }
            }
        }
    }
    ThreadOut {
        name: format!("P{index}"),
        prelude: Vec::new(),
        lines: th.lines,
        regs: th.regs,
    }
}

/// The header and body of one thread. A misnumbered thread is recorded
/// and translated anyway.
fn thread_inner(
    cur: &mut Cursor<'_>,
    out: &mut Out,
    th: &mut CThread,
    index: usize,
    errors: &mut Vec<HerdError>,
) -> Result<(), HerdError> {
    if cur.at_word("void") {
        cur.bump();
    }
    let (n, nspan) = cur.ident("a thread `P0 (...) { ... }`")?;
    if n != format!("P{index}") {
        errors.push(HerdError::BadThread {
            name: n.to_string(),
            span: super::error::at(nspan),
            help: format!("herd numbers threads in order: this one must be `P{index}`"),
        });
    }
    cur.expect(Tok::LParen, "`(` opening the parameters")?;
    if !cur.eat(Tok::RParen) {
        loop {
            th.param(cur, out)?;
            if cur.eat(Tok::RParen) {
                break;
            }
            cur.expect(Tok::Comma, "`,` or `)`")?;
        }
    }
    th.globals = out.locs.iter().map(|(l, _)| l.clone()).collect();
    th.globals.extend(th.arrays.iter().cloned());
    th.body_end = Some(cur.after_matching_brace());
    th.block(cur)
}

/// A memory order in relaxlab spelling, with where it was written.
type Order = (&'static str, Span);

/// The translation state of one thread.
struct CThread {
    /// Parameters: (relaxlab location name, atomic type?).
    params: Vec<(String, bool)>,
    /// Every location of the test (relaxlab spelling), arrays included.
    globals: BTreeSet<String>,
    /// The arrays of the init block: a name of one stands for its first
    /// cell, as in herd7's C (book: herd.md, Arrays).
    arrays: BTreeSet<String>,
    lines: Vec<String>,
    indent: usize,
    /// Registers assigned so far (relaxlab spelling).
    regs: BTreeSet<String>,
    /// Names that fresh registers must avoid.
    taken: BTreeSet<String>,
    next_tmp: usize,
    /// The token position after the body's closing brace, once known.
    body_end: Option<usize>,
}

impl CThread {
    fn line(&mut self, s: String) {
        self.lines.push(format!("{}{s}", "  ".repeat(self.indent)));
    }

    /// A register never used in the file.
    fn fresh(&mut self) -> String {
        loop {
            let t = format!("t{}", self.next_tmp);
            self.next_tmp += 1;
            if self.taken.insert(t.clone()) {
                self.regs.insert(t.clone());
                return t;
            }
        }
    }

    /// PARAMETER: `atomic_int* x` (atomic) or `int* x` (non-atomic).
    fn param(&mut self, cur: &mut Cursor<'_>, out: &mut Out) -> Result<(), HerdError> {
        let start = cur.span();
        let mut atomic = false;
        let mut stars = 0;
        while let Tok::Ident(w) = cur.peek() {
            if !is_type_word(w) {
                break;
            }
            atomic |= is_atomic_word(w);
            cur.bump();
        }
        if let Some(t) = unknown_type(cur) {
            return Err(unknown_type_error(t));
        }
        while cur.eat(Tok::Star) {
            stars += 1;
        }
        let (x, xspan) = cur.ident("a parameter name")?;
        let span = Span::new(start.start as usize, xspan.end as usize);
        match stars {
            1 => {}
            0 => {
                return Err(HerdError::unsupported(
                    "a parameter that is not a pointer",
                    span,
                    "thread parameters are the shared locations: write `int* x` or `atomic_int* x`",
                ))
            }
            _ => return Err(HerdError::unsupported(
                "a pointer to a pointer",
                span,
                "relaxlab locations hold integers; tests that store addresses cannot be translated",
            )),
        }
        let x = name(x);
        if !self.arrays.contains(&x) {
            out.declare(&x, None);
        }
        self.params.push((x, atomic));
        Ok(())
    }

    /// The location `x` names and whether it is atomic; `None` for a local.
    /// An array's name is the address of its first cell: `*y` is `y[0]`.
    fn location(&self, x: &str) -> Option<(String, bool)> {
        let x = name(x);
        let (l, atomic) = match self.params.iter().find(|(l, _)| *l == x) {
            Some((l, a)) => (l.clone(), *a),
            None if self.globals.contains(&x) => (x, false),
            None => return None,
        };
        if self.arrays.contains(&l) {
            return Some((format!("{l}[0]"), atomic));
        }
        Some((l, atomic))
    }

    /// The location argument of an atomic operation.
    fn loc_arg(&self, e: &E<'_>, call: Span) -> Result<String, HerdError> {
        match e {
            E::Var(x, s) => {
                self.location(x)
                    .map(|(l, _)| l)
                    .ok_or_else(|| HerdError::UnknownLocation {
                        name: x.to_string(),
                        span: super::error::at(*s),
                    })
            }
            _ => Err(HerdError::unsupported(
                "a computed location",
                call,
                "the first argument must be a location parameter of the thread",
            )),
        }
    }

    /// BLOCK: `{ stmt* }`.
    fn block(&mut self, cur: &mut Cursor<'_>) -> Result<(), HerdError> {
        cur.expect(Tok::LBrace, "`{`")?;
        cur.enter()?;
        while !cur.eat(Tok::RBrace) {
            if cur.peek() == Tok::Eof {
                return Err(cur.error("`}`"));
            }
            self.stmt(cur)?;
        }
        cur.leave();
        Ok(())
    }

    /// STATEMENT.
    fn stmt(&mut self, cur: &mut Cursor<'_>) -> Result<(), HerdError> {
        match (cur.peek(), cur.peek_at(1)) {
            (Tok::LBrace, _) => self.block(cur),
            (Tok::Semi, _) => {
                cur.bump();
                Ok(())
            }
            (Tok::Ident("if"), _) => self.if_stmt(cur),
            (Tok::Ident("while"), _) => self.while_stmt(cur),
            (
                Tok::Ident(
                    w @ ("for" | "do" | "goto" | "return" | "switch" | "break" | "continue"),
                ),
                _,
            ) => Err(HerdError::unsupported(
                format!("`{w}`"),
                cur.span(),
                "herd7's C has `if` and `while` only, and so has the importer; \
                 write the loop as a `while`",
            )),
            (Tok::Ident(w), _) if is_type_word(w) => self.declaration(cur),
            (Tok::Ident(_), Tok::Ident(_)) if unknown_type(cur).is_some() => {
                Err(unknown_type_error(unknown_type(cur).unwrap_or_default()))
            }
            (Tok::Ident(r), Tok::Assign) => {
                let (_, rspan) = cur.bump();
                cur.bump();
                let e = expr(cur)?;
                cur.expect(Tok::Semi, "`;`")?;
                self.assign(r, rspan, &e)
            }
            (Tok::Star, _) => self.plain_store(cur),
            _ => {
                let e = expr(cur)?;
                cur.expect(Tok::Semi, "`;`")?;
                match &e {
                    E::Call(..) | E::Deref(..) => self.access(&e, None).map(|_| ()),
                    _ => Err(HerdError::unsupported(
                        "an expression statement without effect",
                        cur.prev_span(),
                        "remove it, or assign it to a register",
                    )),
                }
            }
        }
    }

    /// DECLARATION: `int r = e, s;` (no initialiser: 0).
    fn declaration(&mut self, cur: &mut Cursor<'_>) -> Result<(), HerdError> {
        while let Tok::Ident(w) = cur.peek() {
            if !is_type_word(w) {
                break;
            }
            if is_atomic_word(w) {
                return Err(HerdError::unsupported(
                    "an atomic local variable",
                    cur.span(),
                    "shared locations are thread parameters; locals are registers",
                ));
            }
            cur.bump();
        }
        loop {
            if cur.peek() == Tok::Star {
                return Err(HerdError::unsupported(
                    "a pointer local variable",
                    cur.span(),
                    "relaxlab registers hold integers",
                ));
            }
            let (r, rspan) = cur.ident("a variable name")?;
            if cur.eat(Tok::Assign) {
                let e = expr(cur)?;
                self.assign(r, rspan, &e)?;
            } else {
                self.assign(r, rspan, &E::Int(0))?;
            }
            if cur.eat(Tok::Semi) {
                return Ok(());
            }
            cur.expect(Tok::Comma, "`,` or `;`")?;
        }
    }

    /// ASSIGNMENT `r = e`: an access straight into `r`, else the hoisted
    /// accesses then `r = pure`.
    fn assign(&mut self, r: &str, rspan: Span, e: &E<'_>) -> Result<(), HerdError> {
        if self.location(r).is_some() {
            return Err(HerdError::NameClash {
                name: r.to_string(),
                span: super::error::at(rspan),
            });
        }
        let r = name(r);
        if let E::Call(..) | E::Deref(..) = e {
            if self.access(e, Some(r.clone()))?.is_some() {
                return Ok(());
            }
            return Err(HerdError::unsupported(
                "the value of a call that returns nothing",
                rspan,
                "`atomic_store` and `atomic_thread_fence` have no value",
            ));
        }
        let (v, _) = self.pure(e)?;
        self.regs.insert(r.clone());
        self.line(format!("{r} = {v};"));
        Ok(())
    }

    /// PLAIN STORE `*x = e;`.
    fn plain_store(&mut self, cur: &mut Cursor<'_>) -> Result<(), HerdError> {
        let start = cur.span();
        let target = expr(cur)?;
        let E::Deref(x, xspan) = target else {
            return Err(HerdError::unsupported(
                "an expression statement without effect",
                start,
                "remove it, or assign it to a register",
            ));
        };
        cur.expect(Tok::Assign, "`=`")?;
        let e = expr(cur)?;
        cur.expect(Tok::Semi, "`;`")?;
        let (loc, _) = self.location(x).ok_or_else(|| HerdError::UnknownLocation {
            name: x.to_string(),
            span: super::error::at(xspan),
        })?;
        let (v, _) = self.pure(&e)?;
        // herd reads `*x` as a plain access whatever the parameter's type.
        self.line(format!("store({loc}, {v}, na);"));
        Ok(())
    }

    /// IF: the condition's accesses are hoisted before the `if`. An
    /// `else if` whose condition reads no location continues the chain
    /// (`} else if (c) {`, in a loop); one that does becomes
    /// `} else { hoisted accesses; if ... }`, since C performs those
    /// accesses only when the first condition fails.
    fn if_stmt(&mut self, cur: &mut Cursor<'_>) -> Result<(), HerdError> {
        cur.bump();
        cur.expect(Tok::LParen, "`(` after `if`")?;
        let c = expr(cur)?;
        cur.expect(Tok::RParen, "`)`")?;
        let (c, _) = self.pure(&c)?;
        self.line(format!("if ({c}) {{"));
        loop {
            self.body(cur)?;
            if !cur.at_word("else") {
                break;
            }
            cur.bump();
            if cur.at_word("if") {
                let at = cur.pos();
                cur.bump();
                cur.expect(Tok::LParen, "`(` after `if`")?;
                let c = expr(cur)?;
                cur.expect(Tok::RParen, "`)`")?;
                if first_access(&c).is_none() {
                    let (c, _) = self.pure(&c)?;
                    self.line(format!("}} else if ({c}) {{"));
                    continue;
                }
                cur.reset(at);
            }
            self.line("} else {".to_string());
            self.body(cur)?;
            break;
        }
        self.line("}".to_string());
        Ok(())
    }

    /// WHILE: `while (c) s` runs `s` as long as `c` holds. A condition
    /// that reads no location stays as it is; one that does has its
    /// accesses hoisted before the loop and again at the end of its body,
    /// into a register the loop tests, so they are performed once per
    /// test of the condition, as in C (book: herd.md, The supported subset).
    fn while_stmt(&mut self, cur: &mut Cursor<'_>) -> Result<(), HerdError> {
        cur.bump();
        cur.expect(Tok::LParen, "`(` after `while`")?;
        let c = expr(cur)?;
        cur.expect(Tok::RParen, "`)`")?;
        if first_access(&c).is_none() {
            let (c, _) = self.pure(&c)?;
            self.line(format!("while ({c}) {{"));
            self.body(cur)?;
            self.line("}".to_string());
            return Ok(());
        }
        let (first, _) = self.pure(&c)?;
        let holds = self.fresh();
        self.line(format!("{holds} = {first};"));
        self.line(format!("while ({holds}) {{"));
        self.body(cur)?;
        self.indent += 1;
        let (again, _) = self.pure(&c)?;
        self.line(format!("{holds} = {again};"));
        self.indent -= 1;
        self.line("}".to_string());
        Ok(())
    }

    /// The statement of an `if`, `else` or `while`, one level deeper.
    fn body(&mut self, cur: &mut Cursor<'_>) -> Result<(), HerdError> {
        cur.enter()?;
        self.indent += 1;
        self.stmt(cur)?;
        self.indent -= 1;
        cur.leave();
        Ok(())
    }

    /// A register-only expression, hoisting its accesses left to right;
    /// returns the text and its binding power (11 for atoms).
    fn pure(&mut self, e: &E<'_>) -> Result<(String, u8), HerdError> {
        Ok(match e {
            E::Int(v) => (v.to_string(), 11),
            E::Var(x, s) => {
                if self.arrays.contains(&name(x)) {
                    return Err(HerdError::array(
                        format!("the array `{x}` used as a value"),
                        "an array's address",
                        *s,
                        format!(
                            "herd7's C reaches an array's first cell only, `*{x}` (its C has \
                             no `{x}[1]` in code); the condition names any cell (book: herd.md, Arrays)"
                        ),
                    ));
                }
                if self.location(x).is_some() {
                    return Err(HerdError::unsupported(
                        "the address of a location used as a value",
                        *s,
                        format!("to read the location write `*{x}`"),
                    ));
                }
                (name(x), 11)
            }
            E::AddrOf(_, s) => {
                return Err(HerdError::unsupported(
                    "an address used as a value",
                    *s,
                    "relaxlab values are integers",
                ))
            }
            E::Deref(_, s) | E::Call(_, _, _, s) => match self.access(e, None)? {
                Some(r) => (r, 11),
                None => {
                    return Err(HerdError::unsupported(
                        "the value of a call that returns nothing",
                        *s,
                        "`atomic_store` and `atomic_thread_fence` have no value",
                    ))
                }
            },
            E::Un(Un::Compl, a) => {
                let (a, p) = self.pure(a)?;
                (format!("{} ^ -1", paren(a, p, 5)), 4)
            }
            E::Un(op, a) => {
                let (a, p) = self.pure(a)?;
                let sym = if *op == Un::Neg { "-" } else { "!" };
                (format!("{sym}{}", paren(a, p, 11)), 11)
            }
            E::Chain(first, rest) => {
                for (op, b) in rest {
                    if matches!(op, BinOp::And | BinOp::Or) {
                        if let Some(s) = first_access(b) {
                            return Err(HerdError::unsupported(
                                format!("a shared access on the right of `{}`", op_str(*op)),
                                s,
                                "C performs it only when the left side does not decide; \
                                 read it into a local in an `if` first",
                            ));
                        }
                    }
                }
                // Grouped from the left: the part before an operator that
                // binds tighter than the part's own is parenthesised (all
                // the opening parentheses come first). Operands are
                // translated left to right, which orders their hoisted
                // accesses.
                let (a, pa) = self.pure(first)?;
                let mut before = pa;
                let opens = rest
                    .iter()
                    .filter(|(op, _)| {
                        let wrap = before < prec(*op);
                        before = prec(*op);
                        wrap
                    })
                    .count();
                let mut text = "(".repeat(opens);
                text.push_str(&a);
                let mut before = pa;
                for (op, b) in rest {
                    let p = prec(*op);
                    if before < p {
                        text.push(')');
                    }
                    let (b, pb) = self.pure(b)?;
                    text.push(' ');
                    text.push_str(op_str(*op));
                    text.push(' ');
                    text.push_str(&paren(b, pb, p + 1));
                    before = p;
                }
                (text, before)
            }
        })
    }

    /// A shared access (a `*x` or a call), its result written into `dst`
    /// or a fresh register; `None` for calls without a value.
    fn access(&mut self, e: &E<'_>, dst: Option<String>) -> Result<Option<String>, HerdError> {
        match e {
            E::Deref(x, s) => {
                let (loc, _) = self.location(x).ok_or_else(|| HerdError::UnknownLocation {
                    name: x.to_string(),
                    span: super::error::at(*s),
                })?;
                let r = self.dst(dst);
                // herd reads `*x` as a plain access whatever the
                // parameter's type.
                self.line(format!("{r} = load({loc}, na);"));
                Ok(Some(r))
            }
            E::Call(f, fspan, args, span) => self.call(f, *fspan, args, *span, dst),
            _ => Err(HerdError::unsupported(
                "an expression",
                Span::default(),
                "relaxlab internal error: access() on a non-access",
            )),
        }
    }

    fn dst(&mut self, dst: Option<String>) -> String {
        match dst {
            Some(r) => {
                self.regs.insert(r.clone());
                r
            }
            None => self.fresh(),
        }
    }
}

/// Parenthesises `text` (of binding power `p`) when below `min`.
fn paren(text: String, p: u8, min: u8) -> String {
    if p < min {
        format!("({text})")
    } else {
        text
    }
}

/// The span of the first shared access of `e`, if any.
fn first_access(e: &E<'_>) -> Option<Span> {
    match e {
        E::Deref(_, s) | E::Call(_, _, _, s) => Some(*s),
        E::Un(_, a) => first_access(a),
        E::Chain(a, rest) => {
            first_access(a).or_else(|| rest.iter().find_map(|(_, b)| first_access(b)))
        }
        E::Int(_) | E::Var(..) | E::AddrOf(..) => None,
    }
}
