//! What the C and X86 formats share: the init block and the trailers
//! (`locations [...]`, `filter P`, then the condition), as herd7's state
//! parser reads them.
//!
//! herd's condition language: atoms `N:reg=v` (also `PN:reg=v`), `x=v`,
//! `[x]=v` (also `!=` and `<>`, `==`), `true`, `false`; connectives `~`
//! (or `not`), `/\`, `\/`, `=>`, parentheses. herd binds `=>` tighter
//! than `/\` and `\/` (`a /\ b => c` is `a /\ (b => c)`), where
//! relaxlab's own language makes it the loosest: the translation keeps
//! herd's grouping and adds the parentheses relaxlab needs. It keeps
//! the parentheses as written and prints relaxlab's spelling (`0:r0 = 1`,
//! `x = 1`).
//!
//! The condition is `exists P`, `~exists P` (`not exists P`), `forall P`,
//! or one of herd's older forms: `final P` and a bare `(P)` mean `exists
//! P`, and `observed A1; A2; and B1; ...` means `exists ((A1 /\ A2) \/
//! (B1 ...))`. A test may have no condition at all. A `;` may follow the
//! condition, then `with` and a list of expectations (`tso: ~exists;`),
//! which name other tools' models and are read and ignored. herd stops
//! reading at `<<`: what follows (old tools' display directives) is
//! ignored too.

use relaxlab_semantics::ir::Span;

use super::emit::{name, HerdArray, Out, RegAddr};
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
    /// Does the proposition name a register or location?
    fn names_something(&self) -> bool {
        match self {
            P::Const(_) => false,
            P::Atom { .. } => true,
            P::Not(p) | P::Paren(p) => p.names_something(),
            P::Implies(a, b) => a.names_something() || b.names_something(),
            P::Chain(_, ps) => ps.iter().any(P::names_something),
        }
    }

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
                    // relaxlab's `=>` is the loosest connective, herd's
                    // binds tighter than `/\\` and `\\/`.
                    match p {
                        P::Implies(..) => out.push_str(&format!("({})", p.print())),
                        _ => out.push_str(&p.print()),
                    }
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

/// Does a register of a thread start here: `N:` or herd's older `PN:`?
fn at_thread_prefix(cur: &Cursor<'_>) -> bool {
    match (cur.peek(), cur.peek_at(1)) {
        (Tok::Int(_), Tok::Colon) => true,
        (Tok::Ident(p), Tok::Colon) => thread_word(p).is_some(),
        _ => false,
    }
}

/// The thread number of herd's `PN` (`P0`, `P12`).
fn thread_word(p: &str) -> Option<i64> {
    let digits = p.strip_prefix('P')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// `N:` or `PN:` (see [`at_thread_prefix`]): the thread number and its span.
fn thread_prefix(cur: &mut Cursor<'_>) -> Result<(i64, Span), HerdError> {
    let t = match cur.peek() {
        Tok::Ident(p) => match thread_word(p) {
            Some(t) => (t, cur.bump().1),
            None => return Err(cur.error("a thread number")),
        },
        _ => cur.int("a thread number")?,
    };
    cur.expect(Tok::Colon, "`:` after the thread number")?;
    Ok(t)
}

/// One entry of the init block.
fn init_entry(cur: &mut Cursor<'_>, out: &mut Out) -> Result<(), HerdError> {
    let start = cur.span();
    // A register, maybe after its type (`int64_t 0:rcx;`, which herd reads
    // for its type only).
    let mut k = 0;
    while let Tok::Ident(w) = cur.peek_at(k) {
        if cur.peek_at(k + 1) == Tok::Colon && thread_word(w).is_some() {
            break;
        }
        k += 1;
    }
    if matches!(
        (cur.peek_at(k), cur.peek_at(k + 1)),
        (Tok::Int(_) | Tok::Ident(_), Tok::Colon)
    ) {
        for _ in 0..k {
            cur.bump();
        }
        let (t, _) = thread_prefix(cur)?;
        let (reg, reg_span) = cur.ident("a register")?;
        let t = usize::try_from(t).unwrap_or(usize::MAX);
        let reg = out.reg_name(reg);
        let value = if cur.eat(Tok::Assign) {
            match register_address(cur) {
                Some((loc, span)) => {
                    out.reg_addrs.push(RegAddr {
                        thread: t,
                        reg,
                        loc: name(loc),
                        span: Span::new(reg_span.start as usize, span.end as usize),
                    });
                    return Ok(());
                }
                None => init_value(cur)?,
            }
        } else {
            0
        };
        out.reg_inits.push((t, reg, value));
        return Ok(());
    }
    let mut words: Vec<(&str, Span)> = Vec::new();
    let mut bracketed = None;
    let mut stars = Vec::new();
    loop {
        match cur.peek() {
            Tok::Ident(_) if cur.peek_at(1) == Tok::LBracket && cur.peek_at(3) == Tok::RBracket => {
                if let Tok::Int(_) = cur.peek_at(2) {
                    return array_entry(cur, &words, start, out);
                }
                words.push((cur.ident("a location")?.0, cur.bump().1));
            }
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
    if out.array(&name(loc)).is_some() {
        return Err(HerdError::unsupported(
            format!("a second declaration of `{loc}`"),
            loc_span,
            "declare each location and array once",
        ));
    }
    if words.len() > 1 && bracketed.is_none() {
        let (ty, _) = words[words.len() - 2];
        out.init_types.push((
            ty.to_string(),
            Span::new(start.start as usize, loc_span.end as usize),
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

/// The most cells an array may have (relaxlab's limit: each cell is a
/// location).
const MAX_CELLS: i64 = 4096;

/// The size in bytes of a cell of an array of `ty` (herd's integer types).
fn cell_size(ty: &str) -> Option<u8> {
    Some(match ty {
        "char" | "int8_t" | "uint8_t" => 1,
        "short" | "int16_t" | "uint16_t" => 2,
        "int" | "int32_t" | "uint32_t" | "unsigned" => 4,
        "long" | "int64_t" | "uint64_t" => 8,
        _ => return None,
    })
}

/// `TYPE t[N];` or `TYPE t[N] = {v0, ..., vN-1};`: an array of `N` cells
/// of `TYPE` (an integer type), every cell 0 unless values are given, as
/// herd7 reads it, which also requires one value per cell. The cursor is at
/// the array's name; `words` are the words before it.
fn array_entry(
    cur: &mut Cursor<'_>,
    words: &[(&str, Span)],
    start: Span,
    out: &mut Out,
) -> Result<(), HerdError> {
    let a = array_decl(cur, words, start, out.c)?;
    if out.array(&a.name).is_some() || out.locs.iter().any(|(l, _)| *l == a.name) {
        return Err(HerdError::unsupported(
            format!("a second declaration of `{}`", a.name),
            a.name_span,
            "declare each location and array once",
        ));
    }
    out.arrays.push(a);
    Ok(())
}

/// An array declaration `TYPE t[N]` with its values if any (see
/// [`array_entry`]), as both C readers and the X86 importers read it.
pub(crate) fn array_decl(
    cur: &mut Cursor<'_>,
    words: &[(&str, Span)],
    start: Span,
    c: bool,
) -> Result<HerdArray, HerdError> {
    let (arr, arr_span) = cur.ident("an array")?;
    cur.bump();
    let (len, len_span) = cur.int("the number of cells")?;
    let close = cur.expect(Tok::RBracket, "`]`")?;
    let decl = Span::new(start.start as usize, close.end as usize);
    let Some(&(ty, ty_span)) = words.last() else {
        return Err(HerdError::array(
            format!("the array `{arr}` has no type"),
            "no element type",
            decl,
            "herd7 reads arrays of an integer type: `int64_t t[2];`",
        ));
    };
    if c && super::c::is_atomic_word(ty) {
        return Err(HerdError::array(
            format!("an array of `{ty}`"),
            "atomic cells",
            decl,
            "herd7 has no arrays of atomic cells (\"Cannot find the size of type\"); \
             declare `int` cells and reach the first with the `atomic_*` calls (book: herd.md, Arrays)",
        ));
    }
    // In C the cells' size plays no part (code reaches the first cell
    // only); herd's C types are checked with the test.
    let size = if c {
        Some(cell_size(ty).unwrap_or(0))
    } else {
        cell_size(ty)
    };
    let Some(cell) = size else {
        return Err(HerdError::unsupported(
            format!("an array of `{ty}`"),
            ty_span,
            "the cells of an array are integers: `int8_t` ... `int64_t`, `uint8_t` ... `uint64_t`, `char`, `short`, `int`, `long`",
        ));
    };
    if !(1..=MAX_CELLS).contains(&len) {
        return Err(HerdError::unsupported(
            format!("an array of {len} cells"),
            len_span,
            format!("an array has 1 to {MAX_CELLS} cells"),
        ));
    }
    let name = name(arr);
    let values =
        if cur.eat(Tok::Assign) {
            let open = cur.expect(Tok::LBrace, "`{` before the cells' values")?;
            let mut values = Vec::new();
            while cur.peek() != Tok::RBrace {
                if let Tok::Ident(_) | Tok::Amp = cur.peek() {
                    return Err(HerdError::unsupported(
                        "a location's address as the value of a cell",
                        cur.span(),
                        "relaxlab's arrays hold integers, not addresses (book: herd.md, Arrays)",
                    ));
                }
                values.push(cur.int("an integer value of a cell")?.0);
                if cur.peek() != Tok::RBrace {
                    cur.expect(Tok::Comma, "`,` or `}`")?;
                }
            }
            let close = cur.bump().1;
            if values.len() as i64 != len {
                return Err(HerdError::array(
                format!("the array `{arr}` has {len} cells but {} initial values", values.len()),
                format!("{} values", values.len()),
                Span::new(open.start as usize, close.end as usize),
                "give one value per cell, as herd7 requires, or none: every cell then starts at 0",
            ));
            }
            Some(values)
        } else {
            None
        };
    Ok(HerdArray {
        name,
        name_span: arr_span,
        len: len as usize,
        cell,
        ty: ty.to_string(),
        type_words: words.len(),
        values,
        span: decl,
    })
}

/// A register's initial value that is the address of a location (`x`
/// or `&x`), which only the X86 importers can use ([`RegAddr`]); the
/// cursor does not move when the value is an integer.
fn register_address<'s>(cur: &mut Cursor<'s>) -> Option<(&'s str, Span)> {
    match (cur.peek(), cur.peek_at(1)) {
        (Tok::Ident(x), _) if x != "ATOMIC_INIT" => Some((x, cur.bump().1)),
        (Tok::Amp, Tok::Ident(x)) => {
            cur.bump();
            Some((x, cur.bump().1))
        }
        _ => None,
    }
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

/// Checks the thread numbers of the init block's registers, and that no
/// register holds an address (an importer that gives addresses a meaning
/// takes [`Out::reg_addrs`] before).
pub(crate) fn check_reg_inits(out: &Out, init_span: Span) -> Result<(), HerdError> {
    if let Some(a) = out.reg_addrs.first() {
        return Err(HerdError::unsupported(
            "an address as initial value",
            a.span,
            "relaxlab values are integers; pointers between locations are not supported",
        ));
    }
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

/// herd's final states show what the condition and `locations` name, and
/// nothing else: when they name nothing, every execution ends in the one
/// empty state (book: herd.md, herd's output format). An empty `observe`
/// block says so in relaxlab's language.
const NOTHING_DISPLAYED: &str = "observe { }";

/// TRAILERS: every `locations`, `filter` and condition up to the end of
/// the file (or herd's `<<`), appended to `out.trailers` as relaxlab text,
/// and an empty `observe` block when the condition and `locations` name
/// no register or location ([`NOTHING_DISPLAYED`]).
pub(crate) fn trailers(cur: &mut Cursor<'_>, out: &mut Out) -> Result<(), HerdError> {
    cur.reset_depth();
    let mut condition = false;
    // Whether the condition or `locations` name a register or location.
    let mut displayed = false;
    loop {
        let quantified =
            match cur.peek() {
                Tok::Eof | Tok::Shl => {
                    if !displayed {
                        out.trailers.push(NOTHING_DISPLAYED.to_string());
                    }
                    return Ok(());
                }
                Tok::Semi if condition => {
                    cur.bump();
                    continue;
                }
                Tok::Ident("with") if condition => {
                    cur.bump();
                    expectations(cur)?;
                    continue;
                }
                Tok::Ident("locations") => {
                    cur.bump();
                    let items = locations(cur, out)?;
                    displayed |= !items.is_empty();
                    out.trailers.push(format!("observe {{ {}}}", items));
                    continue;
                }
                Tok::Ident("filter") => {
                    cur.bump();
                    let p = prop(cur, out)?;
                    out.trailers.push(format!("filter {}", p.print_wrapped()));
                    continue;
                }
                _ if condition => {
                    return Err(cur.error("`;`, `with` or the end of the test after the condition"))
                }
                Tok::Ident("exists") => "exists",
                Tok::Ident("forall") => "forall",
                // herd's older spelling of `exists`.
                Tok::Ident("final") => "exists",
                Tok::Tilde | Tok::Bang if cur.peek_at(1) == Tok::Ident("exists") => {
                    cur.bump();
                    "~exists"
                }
                Tok::Ident("not") if cur.peek_at(1) == Tok::Ident("exists") => {
                    cur.bump();
                    "~exists"
                }
                Tok::Ident("observed" | "Observed") => {
                    cur.bump();
                    let p = observed(cur, out)?;
                    displayed |= p.names_something();
                    out.trailers.push(format!("exists {}", p.print_wrapped()));
                    condition = true;
                    continue;
                }
                // A bare `(P)` is `exists (P)`.
                Tok::LParen => {
                    let p = prop(cur, out)?;
                    displayed |= p.names_something();
                    out.trailers.push(format!("exists {}", p.print_wrapped()));
                    condition = true;
                    continue;
                }
                Tok::Ident(w @ "cases") => {
                    return Err(HerdError::unsupported(
                        format!("the `{w}` clause"),
                        cur.span(),
                        "use `exists`, `~exists` or `forall`",
                    ))
                }
                _ => return Err(cur.error(
                    "`exists`, `~exists`, `forall`, `final`, `observed`, `locations` or `filter`",
                )),
            };
        cur.bump();
        let p = prop(cur, out)?;
        displayed |= p.names_something();
        out.trailers
            .push(format!("{quantified} {}", p.print_wrapped()));
        condition = true;
    }
}

/// `with NAME: exists; NAME: ~exists; ...`: what other tools' models
/// were expected to say, read and dropped.
fn expectations(cur: &mut Cursor<'_>) -> Result<(), HerdError> {
    loop {
        cur.ident("a model name before `:`")?;
        cur.expect(Tok::Colon, "`:` after the model name")?;
        match cur.peek() {
            Tok::Ident("exists" | "forall") => {
                cur.bump();
            }
            Tok::Tilde | Tok::Bang | Tok::Ident("not")
                if cur.peek_at(1) == Tok::Ident("exists") =>
            {
                cur.bump();
                cur.bump();
            }
            _ => return Err(cur.error("`exists`, `~exists` or `forall`")),
        }
        cur.eat(Tok::Semi);
        if !matches!(cur.peek(), Tok::Ident(_)) {
            return Ok(());
        }
    }
}

/// `observed A; A; ... and A; ...`: one conjunction per `and`-separated
/// group, any of which may hold.
fn observed(cur: &mut Cursor<'_>, out: &mut Out) -> Result<P, HerdError> {
    let mut groups = Vec::new();
    loop {
        let mut atoms = Vec::new();
        while !matches!(cur.peek(), Tok::Eof | Tok::Shl | Tok::Ident("and" | "with")) {
            atoms.push(atom(cur, out)?);
            cur.expect(Tok::Semi, "`;` after an observed value")?;
        }
        groups.push(match atoms.len() {
            0 => P::Const(true),
            _ => P::Paren(Box::new(chain("/\\", atoms))),
        });
        if !(cur.at_word("and") && cur.eat(cur.peek())) {
            return Ok(P::Paren(Box::new(chain("\\/", groups))));
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
        s.push_str(&observable(cur, out, true)?);
        s.push_str("; ");
    }
}

/// `N:reg`, `x` or `[x]`, in relaxlab spelling; records what it names.
fn observable(cur: &mut Cursor<'_>, out: &mut Out, whole: bool) -> Result<String, HerdError> {
    match (cur.peek(), cur.peek_at(1)) {
        (Tok::Ident(arr), Tok::LBracket) => cell(cur, arr, out),
        _ if at_thread_prefix(cur) => {
            let (t, tspan) = thread_prefix(cur)?;
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
            let start = cur.bump().1;
            let (loc, _) = cur.ident("a location")?;
            let end = cur.expect(Tok::RBracket, "`]`")?;
            global(
                out,
                loc,
                Span::new(start.start as usize, end.end as usize),
                whole,
            )
        }
        (Tok::Ident(loc), _) => {
            let span = cur.bump().1;
            global(out, loc, span, whole)
        }
        _ => Err(cur.error("a register `N:reg` or a location")),
    }
}

/// A location named in `locations` (`whole`: an array stands for all its
/// cells) or in the condition (where an array is refused: herd7 compares
/// the whole array with an integer, which it never equals).
fn global(out: &mut Out, loc: &str, span: Span, whole: bool) -> Result<String, HerdError> {
    let loc = name(loc);
    if let Some(a) = out.array(&loc) {
        if !whole {
            return Err(HerdError::unsupported(
                format!("the whole array `{loc}` compared with a value"),
                span,
                format!(
                    "compare one of its cells, `{loc}[0]` to `{loc}[{}]`; `locations [{loc};]` shows the whole array",
                    a.len - 1
                ),
            ));
        }
        return Ok(loc);
    }
    out.declare(&loc, None);
    Ok(loc)
}

/// `t[i]`: a cell of an array of the init block, as relaxlab names it.
/// herd7 refuses an index outside the array and a name that is no array.
fn cell(cur: &mut Cursor<'_>, arr: &str, out: &mut Out) -> Result<String, HerdError> {
    let start = cur.bump().1;
    cur.bump();
    let (index, _) = cur.int("the index of a cell")?;
    let end = cur.expect(Tok::RBracket, "`]`")?;
    let span = Span::new(start.start as usize, end.end as usize);
    let loc = name(arr);
    match out.array(&loc) {
        Some(a) if (0..a.len as i64).contains(&index) => Ok(format!("{loc}[{index}]")),
        Some(a) => Err(HerdError::array(
            format!("no cell {index} in the array `{arr}`"),
            "outside the array",
            span,
            format!(
                "`{arr}` has {} cells: `{arr}[0]` to `{arr}[{}]`",
                a.len,
                a.len - 1
            ),
        )),
        None => Err(HerdError::array(
            format!("`{arr}` is not an array"),
            "indexed as an array",
            span,
            if out.locs.iter().any(|(l, _)| *l == loc) {
                format!("`{arr}` is a location, not an array: name it alone, `{arr}`")
            } else {
                format!("declare the array in the init block: `int64_t {arr}[2];`")
            },
        )),
    }
}

/// `P \\/ P`, the loosest (herd's precedence: `\\/`, then `/\\`, then
/// `=>`, then `~`).
fn prop(cur: &mut Cursor<'_>, out: &mut Out) -> Result<P, HerdError> {
    let mut ps = vec![prop_and(cur, out)?];
    while cur.eat(Tok::Vee) || cur.eat(Tok::OrOr) {
        ps.push(prop_and(cur, out)?);
    }
    Ok(chain("\\/", ps))
}

/// The operands of a chain of one connective, flat.
fn chain(op: &'static str, mut ps: Vec<P>) -> P {
    match ps.len() {
        1 => ps.pop().unwrap_or(P::Const(true)),
        _ => P::Chain(op, ps),
    }
}

fn prop_and(cur: &mut Cursor<'_>, out: &mut Out) -> Result<P, HerdError> {
    let mut ps = vec![prop_implies(cur, out)?];
    while cur.eat(Tok::Wedge) || cur.eat(Tok::AndAnd) {
        ps.push(prop_implies(cur, out)?);
    }
    Ok(chain("/\\", ps))
}

/// `P => P`, right-associative, binding tighter than `/\\`.
fn prop_implies(cur: &mut Cursor<'_>, out: &mut Out) -> Result<P, HerdError> {
    let a = prop_not(cur, out)?;
    if cur.eat(Tok::Implies) {
        cur.enter()?;
        let b = prop_implies(cur, out)?;
        cur.leave();
        return Ok(P::Implies(Box::new(a), Box::new(b)));
    }
    Ok(a)
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
    let obs = observable(cur, out, false)?;
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
