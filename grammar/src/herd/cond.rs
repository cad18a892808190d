//! What the C and X86 formats share: the init block and the trailers
//! (`locations [...]`, `filter P`, `exists P`, `~exists P`, `forall P`).
//!
//! herd's condition language: atoms `N:reg=v`, `x=v`, `[x]=v` (also `!=`
//! and `<>`, `==`), `true`, `false`; connectives `~`, `/\`, `\/`, `=>`
//! (loosest), parentheses. The translation keeps the structure and the
//! parentheses as written and prints relaxlab's spelling (`0:r0 = 1`,
//! `x = 1`).

use relaxlab_semantics::ir::Span;

use super::emit::{name, Out};
use super::error::{at, HerdError};
use super::lexer::{Cursor, Tok};

/// A proposition as written.
#[derive(Clone, Debug)]
enum P {
    Const(bool),
    Atom {
        obs: String,
        ne: bool,
        value: i64,
    },
    Not(Box<P>),
    /// `a => b`.
    Implies(Box<P>, Box<P>),
    /// A chain of one connective (`/\` or `\/`), kept flat so that a long
    /// one costs no recursion.
    Chain(&'static str, Vec<P>),
    Paren(Box<P>),
}

impl P {
    fn print(&self) -> String {
        match self {
            P::Const(b) => b.to_string(),
            P::Atom { obs, ne, value } => {
                format!("{obs} {} {value}", if *ne { "!=" } else { "=" })
            }
            P::Not(p) => format!("~{}", p.print()),
            P::Implies(a, b) => format!("{} => {}", a.print(), b.print()),
            P::Chain(op, ps) => {
                let mut out = String::new();
                for (i, p) in ps.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                        out.push_str(op);
                        out.push(' ');
                    }
                    out.push_str(&p.print());
                }
                out
            }
            P::Paren(p) => format!("({})", p.print()),
        }
    }

    /// Printed with parentheses around it unless it has them already.
    fn print_wrapped(&self) -> String {
        match self {
            P::Paren(_) => self.print(),
            _ => format!("({})", self.print()),
        }
    }
}

/// INIT BLOCK: `{ x = 0; [y] = 1; int z = 0; atomic_int w; 0:r0 = 1; }`.
/// `nthreads` is unknown yet, so register initialisations are recorded in
/// [`Out::reg_inits`] and checked by [`check_reg_inits`].
pub(crate) fn init_block(cur: &mut Cursor<'_>, out: &mut Out) -> Result<(), HerdError> {
    cur.expect(Tok::LBrace, "`{` opening the init block")?;
    loop {
        while cur.eat(Tok::Semi) {}
        if cur.eat(Tok::RBrace) {
            return Ok(());
        }
        init_entry(cur, out)?;
        if cur.peek() != Tok::RBrace {
            cur.expect(Tok::Semi, "`;` or `}` after an init entry")?;
        }
    }
}

/// One entry of the init block.
fn init_entry(cur: &mut Cursor<'_>, out: &mut Out) -> Result<(), HerdError> {
    let start = cur.span();
    if let (Tok::Int(_), Tok::Colon) = (cur.peek(), cur.peek_at(1)) {
        let (t, _) = cur.int("a thread number")?;
        cur.bump();
        let (reg, _) = cur.ident("a register")?;
        let value = if cur.eat(Tok::Assign) {
            init_value(cur)?
        } else {
            0
        };
        let t = usize::try_from(t).unwrap_or(usize::MAX);
        out.reg_inits.push((t, out.reg_name(reg), value));
        return Ok(());
    }
    let mut words: Vec<(&str, Span)> = Vec::new();
    let mut bracketed = None;
    let mut stars = Vec::new();
    loop {
        match cur.peek() {
            Tok::Ident(w) => words.push((w, cur.bump().1)),
            Tok::Star => stars.push(cur.bump().1),
            Tok::LBracket => {
                cur.bump();
                bracketed = Some(cur.ident("a location name")?);
                cur.expect(Tok::RBracket, "`]`")?;
            }
            _ => break,
        }
    }
    let Some((loc, loc_span)) = bracketed.or_else(|| words.last().copied()) else {
        return Err(cur.error("a location or `N:register`"));
    };
    if !stars.is_empty() {
        let span = Span::new(start.start as usize, loc_span.end as usize);
        return Err(HerdError::unsupported(
            "a pointer-valued location",
            span,
            "relaxlab locations hold integers; a test that stores addresses cannot be translated",
        ));
    }
    let value = if cur.eat(Tok::Assign) {
        Some(init_value(cur)?)
    } else {
        None
    };
    out.declare(&name(loc), value);
    Ok(())
}

/// The value of an init entry: an integer, or C11's `ATOMIC_INIT(n)`.
/// `&x` and `x` (addresses) are refused.
fn init_value(cur: &mut Cursor<'_>) -> Result<i64, HerdError> {
    if let (Tok::Ident("ATOMIC_INIT"), Tok::LParen) = (cur.peek(), cur.peek_at(1)) {
        cur.bump();
        cur.bump();
        let v = cur.int("an integer initial value")?.0;
        cur.expect(Tok::RParen, "`)` closing `ATOMIC_INIT(`")?;
        return Ok(v);
    }
    match cur.peek() {
        Tok::Amp | Tok::Ident(_) => {
            let start = cur.span();
            cur.eat(Tok::Amp);
            let end = cur.bump().1;
            Err(HerdError::unsupported(
                "an address as initial value",
                Span::new(start.start as usize, end.end as usize),
                "relaxlab values are integers; pointers between locations are not supported",
            ))
        }
        _ => Ok(cur.int("an integer initial value")?.0),
    }
}

/// Checks the thread numbers of the init block's registers.
pub(crate) fn check_reg_inits(out: &Out, init_span: Span) -> Result<(), HerdError> {
    match out
        .reg_inits
        .iter()
        .find(|(t, _, _)| *t >= out.threads.len())
    {
        None => Ok(()),
        Some((t, reg, _)) => Err(HerdError::BadThread {
            name: format!("{t}:{reg}"),
            span: at(init_span),
            help: format!(
                "the threads of this test are numbered 0 to {}",
                out.threads.len().saturating_sub(1)
            ),
        }),
    }
}

/// TRAILERS: every `locations`, `filter` and quantified condition up to the
/// end of the file, appended to `out.trailers` as relaxlab text.
pub(crate) fn trailers(cur: &mut Cursor<'_>, out: &mut Out) -> Result<(), HerdError> {
    cur.reset_depth();
    loop {
        match cur.peek() {
            Tok::Eof => return Ok(()),
            Tok::Ident("locations") => {
                cur.bump();
                let items = locations(cur, out)?;
                out.trailers.push(format!("observe {{ {}}}", items));
            }
            Tok::Ident("filter") => {
                cur.bump();
                let p = prop(cur, out)?;
                out.trailers.push(format!("filter {}", p.print_wrapped()));
            }
            Tok::Ident("exists") => {
                cur.bump();
                let p = prop(cur, out)?;
                out.trailers.push(format!("exists {}", p.print_wrapped()));
            }
            Tok::Ident("forall") => {
                cur.bump();
                let p = prop(cur, out)?;
                out.trailers.push(format!("forall {}", p.print_wrapped()));
            }
            Tok::Tilde | Tok::Bang if cur.peek_at(1) == Tok::Ident("exists") => {
                cur.bump();
                cur.bump();
                let p = prop(cur, out)?;
                out.trailers.push(format!("~exists {}", p.print_wrapped()));
            }
            Tok::Ident(w @ ("final" | "cases" | "with")) => {
                return Err(HerdError::unsupported(
                    format!("the `{w}` clause"),
                    cur.span(),
                    "use `exists`, `~exists` or `forall`",
                ))
            }
            _ => return Err(cur.error("`exists`, `~exists`, `forall`, `locations` or `filter`")),
        }
    }
}

/// `[x; 0:r0; ...]`, printed as the items of an `observe` block.
fn locations(cur: &mut Cursor<'_>, out: &mut Out) -> Result<String, HerdError> {
    cur.expect(Tok::LBracket, "`[` after `locations`")?;
    let mut s = String::new();
    loop {
        while cur.eat(Tok::Semi) {}
        if cur.eat(Tok::RBracket) {
            return Ok(s);
        }
        s.push_str(&observable(cur, out)?);
        s.push_str("; ");
    }
}

/// `N:reg`, `x` or `[x]`, in relaxlab spelling; records what it names.
fn observable(cur: &mut Cursor<'_>, out: &mut Out) -> Result<String, HerdError> {
    match (cur.peek(), cur.peek_at(1)) {
        (Tok::Int(_), Tok::Colon) => {
            let (t, tspan) = cur.int("a thread number")?;
            cur.bump();
            let (reg, rspan) = cur.ident("a register")?;
            let span = Span::new(tspan.start as usize, rspan.end as usize);
            let t = usize::try_from(t)
                .ok()
                .filter(|t| *t < out.threads.len())
                .ok_or_else(|| HerdError::BadThread {
                    name: format!("{t}:{reg}"),
                    span: at(span),
                    help: format!(
                        "the threads of this test are numbered 0 to {}",
                        out.threads.len().saturating_sub(1)
                    ),
                })?;
            let reg = out.reg_name(reg);
            out.ensure_reg(t, &reg);
            Ok(format!("{t}:{reg}"))
        }
        (Tok::LBracket, _) => {
            cur.bump();
            let (loc, _) = cur.ident("a location")?;
            cur.expect(Tok::RBracket, "`]`")?;
            let loc = name(loc);
            out.declare(&loc, None);
            Ok(loc)
        }
        (Tok::Ident(loc), _) => {
            cur.bump();
            let loc = name(loc);
            out.declare(&loc, None);
            Ok(loc)
        }
        _ => Err(cur.error("a register `N:reg` or a location")),
    }
}

/// `P => P | P`, right-associative, loosest.
fn prop(cur: &mut Cursor<'_>, out: &mut Out) -> Result<P, HerdError> {
    let a = prop_or(cur, out)?;
    if cur.eat(Tok::Implies) {
        cur.enter()?;
        let b = prop(cur, out)?;
        cur.leave();
        return Ok(P::Implies(Box::new(a), Box::new(b)));
    }
    Ok(a)
}

/// The operands of a chain of one connective, flat.
fn chain(op: &'static str, mut ps: Vec<P>) -> P {
    match ps.len() {
        1 => ps.pop().unwrap_or(P::Const(true)),
        _ => P::Chain(op, ps),
    }
}

fn prop_or(cur: &mut Cursor<'_>, out: &mut Out) -> Result<P, HerdError> {
    let mut ps = vec![prop_and(cur, out)?];
    while cur.eat(Tok::Vee) || cur.eat(Tok::OrOr) {
        ps.push(prop_and(cur, out)?);
    }
    Ok(chain("\\/", ps))
}

fn prop_and(cur: &mut Cursor<'_>, out: &mut Out) -> Result<P, HerdError> {
    let mut ps = vec![prop_not(cur, out)?];
    while cur.eat(Tok::Wedge) || cur.eat(Tok::AndAnd) {
        ps.push(prop_not(cur, out)?);
    }
    Ok(chain("/\\", ps))
}

fn prop_not(cur: &mut Cursor<'_>, out: &mut Out) -> Result<P, HerdError> {
    if cur.eat(Tok::Tilde) || cur.eat(Tok::Bang) || (cur.at_word("not") && cur.eat(cur.peek())) {
        cur.enter()?;
        let p = prop_not(cur, out)?;
        cur.leave();
        return Ok(P::Not(Box::new(p)));
    }
    match cur.peek() {
        Tok::LParen => {
            cur.bump();
            cur.enter()?;
            let p = prop(cur, out)?;
            cur.leave();
            cur.expect(Tok::RParen, "`)`")?;
            Ok(P::Paren(Box::new(p)))
        }
        Tok::Ident("true") => {
            cur.bump();
            Ok(P::Const(true))
        }
        Tok::Ident("false") => {
            cur.bump();
            Ok(P::Const(false))
        }
        _ => atom(cur, out),
    }
}

/// `obs = v`, `obs != v`.
fn atom(cur: &mut Cursor<'_>, out: &mut Out) -> Result<P, HerdError> {
    let obs = observable(cur, out)?;
    let ne = match cur.peek() {
        Tok::Assign | Tok::EqEq => false,
        Tok::NotEq => true,
        _ => return Err(cur.error("`=` or `!=`")),
    };
    cur.bump();
    if let Tok::Ident(_) | Tok::Amp = cur.peek() {
        let span = cur.span();
        return Err(HerdError::unsupported(
            "a comparison with an address",
            span,
            "relaxlab values are integers; compare with an integer",
        ));
    }
    let (value, _) = cur.int("an integer")?;
    Ok(P::Atom { obs, ne, value })
}
