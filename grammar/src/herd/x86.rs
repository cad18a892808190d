//! The importer of herd7's X86 litmus format (Intel syntax, column layout).
//!
//! ```text
//! X86 SB
//! { x=0; y=0; }
//!  P0          | P1          ;
//!  MOV [x],$1  | MOV [y],$1  ;
//!  MOV EAX,[y] | MOV EAX,[x] ;
//! exists (0:EAX=0 /\ 1:EAX=0)
//! ```
//!
//! Every instruction becomes one relaxlab statement (two for the few that
//! need a temporary), in the thread of its column:
//!
//! | X86 | relaxlab |
//! |---|---|
//! | `MOV [x],$v` / `MOV [x],R` | `store(x, v, rlx);` / `store(x, R, rlx);` |
//! | `MOV R,[x]` | `R = load(x, rlx);` |
//! | `MOV R,$v` / `MOV R,S` | `R = v;` / `R = S;` |
//! | `MFENCE` / `SFENCE` / `LFENCE` | `fence(full);` / `fence(ss);` / `fence(ll);` |
//! | `XCHG [x],R` / `XCHG R,[x]` | `R = exchange(x, R, sc);` |
//! | `LOCK ADD/SUB/AND/OR/XOR [x],v` | `tN = fetch_OP(x, v, sc);` |
//! | `LOCK INC [x]` / `LOCK DEC [x]` | `tN = fetch_add(x, 1, sc);` / `fetch_sub` |
//! | `LOCK XADD [x],R` | `R = fetch_add(x, R, sc);` |
//! | `LOCK CMPXCHG [x],R` | `tN = cas(x, EAX, R, sc); EAX = tN;` |
//! | `ADD/SUB/AND/OR/XOR R,v`, `INC R`, `DEC R` | `R = R + v;` ... |
//! | `ADD [x],v` (no `LOCK`) | `tN = load(x, rlx); store(x, tN + v, rlx);` |
//!
//! **Orders.** An X86 access is a plain hardware access. Under the
//! hardware models relaxlab compiles C11 orders with the mapping of
//! MODELS.md 2.5, where `rlx` adds nothing on TSO, PSO or PSLO: so plain
//! `MOV`s become `rlx` accesses and run exactly as the X86 instruction
//! does. Locked instructions (`XCHG` is implicitly locked) become `sc`
//! RMWs: on TSO any RMW is a locked RMW, and `sc` keeps the full-barrier
//! meaning of `LOCK` on the weaker models and under the C11 models. `MFENCE`
//! is the hardware `full` barrier (not `fence(sc)`), so the test means the
//! same thing under `--mapping plain`. `tN` are fresh registers never
//! used in the file; the result of a locked RMW to memory goes there.
//!
//! **Refused.** Jumps and compares (`J*`, `CMP`, `TEST`, `RET`: control
//! flow that has no clean relaxlab equivalent in a column format),
//! indirect operands `[EAX]`, address immediates `$x`, and any other
//! mnemonic. Labels `L0:` are accepted and dropped: without jumps nothing
//! refers to them.
//!
//! **`X86_64`**, herd's AT&T syntax (`movl $1,(x)`, `%eax`), is read into
//! the same instructions by [`super::att`].

use std::collections::BTreeSet;

use relaxlab_semantics::ir::Span;

use super::att;
use super::cond;
use super::emit::{name, Out, ThreadOut};
use super::error::{at, HerdError};
use super::lexer::{lex, Cursor, Header, Tok};

/// The registers herd's X86 knows, in herd's order.
pub(crate) const REGISTERS: [&str; 8] = ["EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP"];

/// An operand.
#[derive(Clone, Debug)]
enum Operand {
    Reg(String),
    Mem(String),
    Imm(i64),
}

/// How the instructions are spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Syntax {
    /// herd's `X86`: `MOV [x],$1`, `EAX`.
    Intel,
    /// herd's `X86_64`: `movl $1,(x)`, `%eax` ([`super::att`]).
    Att,
}

/// Translates a herd X86 or X86_64 test (its header already read) to
/// relaxlab text.
pub(crate) fn translate_x86(src: &str, h: &Header<'_>) -> Result<String, Vec<HerdError>> {
    let syntax = if h.arch == "X86_64" {
        Syntax::Att
    } else {
        Syntax::Intel
    };
    let toks = lex(src, h.rest).map_err(|e| vec![e])?;
    let mut cur = Cursor::new(src, toks);
    let mut out = Out {
        name: h.name.to_string(),
        reg_alias: (syntax == Syntax::Att).then_some(att::register as fn(&str) -> _),
        ..Out::default()
    };
    if let Tok::Str(doc) = cur.peek() {
        out.doc = Some(doc.to_string());
        cur.bump();
    }
    if !cur.skip_to(Tok::LBrace) {
        return Err(vec![cur.error("`{` opening the init block")]);
    }
    let init_span = cur.span();
    cond::init_block(&mut cur, &mut out).map_err(|e| vec![e])?;
    let taken: BTreeSet<String> = cur.idents().into_iter().map(str::to_string).collect();
    let mut x = X86 {
        syntax,
        taken,
        next_tmp: 0,
        errors: Vec::new(),
        sizes: att::Sizes::default(),
    };
    header_row(&mut cur, &mut out).map_err(|e| vec![e])?;
    while !at_trailer(&cur) {
        if let Err(e) = x.row(&mut cur, &mut out) {
            x.errors.push(e);
            // Resynchronise after the row.
            cur.skip_to(Tok::Semi);
            cur.bump();
        }
    }
    let mut errors = x.errors;
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

/// Does the condition part start here?
fn at_trailer(cur: &Cursor<'_>) -> bool {
    matches!(
        cur.peek(),
        Tok::Eof | Tok::Tilde | Tok::Ident("exists" | "forall" | "locations" | "filter")
    )
}

/// `P0 | P1 | ... ;`
fn header_row(cur: &mut Cursor<'_>, out: &mut Out) -> Result<(), HerdError> {
    loop {
        let (p, span) = cur.ident("a thread name `P0`")?;
        let index = out.threads.len();
        if p != format!("P{index}") {
            return Err(HerdError::BadThread {
                name: p.to_string(),
                span: at(span),
                help: format!("herd numbers the columns in order: this one must be `P{index}`"),
            });
        }
        out.threads.push(ThreadOut {
            name: p.to_string(),
            ..ThreadOut::default()
        });
        if cur.eat(Tok::Semi) {
            return Ok(());
        }
        cur.expect(Tok::Bar, "`|` or `;`")?;
    }
}

/// The translation state shared by the columns.
struct X86 {
    syntax: Syntax,
    taken: BTreeSet<String>,
    next_tmp: usize,
    errors: Vec<HerdError>,
    /// The access size of each location (`X86_64` only).
    sizes: att::Sizes,
}

impl X86 {
    /// A register never used in the file.
    /// The accumulator, which `CMPXCHG` compares and loads.
    fn accumulator(&self) -> &'static str {
        match self.syntax {
            Syntax::Intel => "EAX",
            Syntax::Att => "rax",
        }
    }

    fn fresh(&mut self, th: &mut ThreadOut) -> String {
        loop {
            let t = format!("t{}", self.next_tmp);
            self.next_tmp += 1;
            if self.taken.insert(t.clone()) {
                th.regs.insert(t.clone());
                return t;
            }
        }
    }

    /// ROW: one cell per column, `|`-separated, `;`-terminated.
    fn row(&mut self, cur: &mut Cursor<'_>, out: &mut Out) -> Result<(), HerdError> {
        let mut col = 0;
        loop {
            let start = cur.span();
            let mut cell = Vec::new();
            while !matches!(cur.peek(), Tok::Bar | Tok::Semi | Tok::Eof) {
                cell.push(cur.bump());
            }
            if col >= out.threads.len() {
                return Err(HerdError::BadThread {
                    name: format!("column {col}"),
                    span: at(start),
                    help: format!(
                        "the header row declares {} columns, P0 to P{}",
                        out.threads.len(),
                        out.threads.len().saturating_sub(1)
                    ),
                });
            }
            if let Err(e) = self.cell(cur, cell, col, out) {
                self.errors.push(e);
            }
            col += 1;
            match cur.peek() {
                Tok::Bar => {
                    cur.bump();
                }
                Tok::Semi => {
                    cur.bump();
                    return Ok(());
                }
                _ => return Err(cur.error("`|` or `;` ending the row")),
            }
        }
    }

    /// One instruction (maybe after a label) of column `col`.
    fn cell<'s>(
        &mut self,
        parent: &Cursor<'s>,
        cell: Vec<(Tok<'s>, Span)>,
        col: usize,
        out: &mut Out,
    ) -> Result<(), HerdError> {
        let end = cell.last().map_or(0, |t| t.1.end as usize);
        let mut cur = Cursor::sub(parent.src(), cell, end);
        if let (Tok::Ident(_), Tok::Colon) = (cur.peek(), cur.peek_at(1)) {
            cur.bump();
            cur.bump();
        }
        if cur.peek() == Tok::Eof {
            return Ok(());
        }
        let (first, first_span) = cur.ident("an instruction")?;
        let mut written = first;
        let mut span = first_span;
        let locked = first.eq_ignore_ascii_case("LOCK");
        if locked {
            let (m, s) = cur.ident("an instruction after `LOCK`")?;
            written = m;
            span = Span::new(first_span.start as usize, s.end as usize);
        }
        let (mnemonic, size) = match self.syntax {
            Syntax::Intel => (written.to_ascii_uppercase(), None),
            Syntax::Att if att::is_no_op(written) && !locked => return Ok(()),
            Syntax::Att => att::mnemonic(written),
        };
        if is_control_flow(&mnemonic) {
            let whole = Span::new(span.start as usize, end.max(span.end as usize));
            return Err(refusal(self.syntax, written, locked, &[], whole));
        }
        let mut ops = Vec::new();
        let mut widths = Vec::new();
        if cur.peek() != Tok::Eof {
            loop {
                let (op, width) = match self.syntax {
                    Syntax::Intel => (operand(&mut cur, out)?, None),
                    Syntax::Att => att_operand(&mut cur, out)?,
                };
                ops.push(op);
                widths.extend(width);
                if cur.peek() == Tok::Eof {
                    break;
                }
                cur.expect(Tok::Comma, "`,` between operands")?;
            }
        }
        let whole = Span::new(
            span.start as usize,
            cur.prev_span().end.max(span.end) as usize,
        );
        if self.syntax == Syntax::Att {
            // AT&T writes the source first: Intel order is the reverse.
            ops.reverse();
            if let Some(size) = size.or(widths.first().copied()) {
                for op in &ops {
                    if let Operand::Mem(x) = op {
                        self.sizes.record(x, size, whole)?;
                    }
                }
            }
        }
        let lines = self.instr(&mnemonic, written, locked, &ops, whole, col, out)?;
        let th = &mut out.threads[col];
        for l in lines {
            th.lines.push(format!("  {l}"));
        }
        Ok(())
    }

    /// The relaxlab statements of one instruction: `m` is its mnemonic in
    /// `X86` spelling, `written` as the test wrote it.
    #[allow(clippy::too_many_arguments)]
    fn instr(
        &mut self,
        m: &str,
        written: &str,
        locked: bool,
        ops: &[Operand],
        span: Span,
        col: usize,
        out: &mut Out,
    ) -> Result<Vec<String>, HerdError> {
        use Operand::{Imm, Mem, Reg};
        let mut assigned: Vec<String> = Vec::new();
        let val = |o: &Operand| match o {
            Reg(r) => r.clone(),
            Imm(v) => v.to_string(),
            Mem(l) => l.clone(),
        };
        let rmw_op = |m: &str| match m {
            "ADD" => Some(("fetch_add", "+")),
            "SUB" => Some(("fetch_sub", "-")),
            "AND" => Some(("fetch_and", "&")),
            "OR" => Some(("fetch_or", "|")),
            "XOR" => Some(("fetch_xor", "^")),
            _ => None,
        };
        let lines = match (m, locked, ops) {
            ("MOV", false, [Mem(x), v @ (Imm(_) | Reg(_))]) => {
                vec![format!("store({x}, {}, rlx);", val(v))]
            }
            ("MOV", false, [Reg(r), Mem(x)]) => {
                assigned.push(r.clone());
                vec![format!("{r} = load({x}, rlx);")]
            }
            ("MOV", false, [Reg(r), v @ (Imm(_) | Reg(_))]) => {
                assigned.push(r.clone());
                vec![format!("{r} = {};", val(v))]
            }
            ("MFENCE", false, []) => vec!["fence(full);".to_string()],
            ("SFENCE", false, []) => vec!["fence(ss);".to_string()],
            ("LFENCE", false, []) => vec!["fence(ll);".to_string()],
            ("XCHG", _, [Mem(x), Reg(r)] | [Reg(r), Mem(x)]) => {
                assigned.push(r.clone());
                vec![format!("{r} = exchange({x}, {r}, sc);")]
            }
            ("XCHG", false, [Reg(a), Reg(b)]) => {
                let t = self.fresh(&mut out.threads[col]);
                vec![
                    format!("{t} = {a};"),
                    format!("{a} = {b};"),
                    format!("{b} = {t};"),
                ]
            }
            ("INC" | "DEC", true, [Mem(x)]) => {
                let t = self.fresh(&mut out.threads[col]);
                let f = if m == "INC" { "fetch_add" } else { "fetch_sub" };
                vec![format!("{t} = {f}({x}, 1, sc);")]
            }
            ("XADD", true, [Mem(x), Reg(r)]) => {
                assigned.push(r.clone());
                vec![format!("{r} = fetch_add({x}, {r}, sc);")]
            }
            ("CMPXCHG", true, [Mem(x), Reg(r)]) => {
                let t = self.fresh(&mut out.threads[col]);
                let acc = self.accumulator();
                out.threads[col].regs.insert(acc.to_string());
                vec![
                    format!("{t} = cas({x}, {acc}, {r}, sc);"),
                    format!("{acc} = {t};"),
                ]
            }
            (_, true, [Mem(x), v @ (Imm(_) | Reg(_))]) if rmw_op(m).is_some() => {
                let (f, _) = rmw_op(m).unwrap_or(("fetch_add", "+"));
                let t = self.fresh(&mut out.threads[col]);
                vec![format!("{t} = {f}({x}, {}, sc);", val(v))]
            }
            (_, false, [Reg(r), v @ (Imm(_) | Reg(_))]) if rmw_op(m).is_some() => {
                let (_, sym) = rmw_op(m).unwrap_or(("fetch_add", "+"));
                assigned.push(r.clone());
                vec![format!("{r} = {r} {sym} {};", val(v))]
            }
            ("INC" | "DEC", false, [Reg(r)]) => {
                assigned.push(r.clone());
                let sym = if m == "INC" { "+" } else { "-" };
                vec![format!("{r} = {r} {sym} 1;")]
            }
            (_, false, [Mem(x), v @ (Imm(_) | Reg(_))]) if rmw_op(m).is_some() => {
                let (_, sym) = rmw_op(m).unwrap_or(("fetch_add", "+"));
                let t = self.fresh(&mut out.threads[col]);
                vec![
                    format!("{t} = load({x}, rlx);"),
                    format!("store({x}, {t} {sym} {}, rlx);", val(v)),
                ]
            }
            ("INC" | "DEC", false, [Mem(x)]) => {
                let sym = if m == "INC" { "+" } else { "-" };
                let t = self.fresh(&mut out.threads[col]);
                vec![
                    format!("{t} = load({x}, rlx);"),
                    format!("store({x}, {t} {sym} 1, rlx);"),
                ]
            }
            _ => return Err(refusal(self.syntax, written, locked, ops, span)),
        };
        out.threads[col].regs.extend(assigned);
        Ok(lines)
    }
}

/// Jumps, compares and returns (mnemonics in `X86` spelling).
fn is_control_flow(m: &str) -> bool {
    m.starts_with('J') || matches!(m, "CMP" | "TEST" | "RET" | "CALL")
}

/// The diagnostic for an instruction outside the subset, named as the test
/// wrote it.
fn refusal(syntax: Syntax, written: &str, locked: bool, ops: &[Operand], span: Span) -> HerdError {
    let m = match syntax {
        Syntax::Intel => written.to_ascii_uppercase(),
        Syntax::Att => att::mnemonic(written).0,
    };
    let what = match (locked, syntax) {
        (true, Syntax::Intel) => format!("`LOCK {written}`"),
        (true, Syntax::Att) => format!("`lock {written}`"),
        (false, _) => format!("`{written}`"),
    };
    let known = [
        "MOV", "MFENCE", "SFENCE", "LFENCE", "XCHG", "ADD", "SUB", "AND", "OR", "XOR", "INC",
        "DEC", "XADD", "CMPXCHG",
    ];
    let subset = match syntax {
        Syntax::Intel => {
            "MOV, MFENCE, SFENCE, LFENCE, XCHG, LOCK ADD/SUB/AND/OR/XOR/INC/DEC/XADD/CMPXCHG, register arithmetic"
        }
        Syntax::Att => {
            "mov, mfence, sfence, lfence, xchg, lock add/sub/and/or/xor/inc/dec/xadd/cmpxchg (with a size suffix or not), register arithmetic, nop"
        }
    };
    if is_control_flow(&m) {
        return HerdError::unsupported(
            format!("the control-flow instruction {what}"),
            span,
            "jumps cannot be translated to relaxlab control flow in the column format; \
             write the test in relaxlab's language, with `if`",
        );
    }
    if known.contains(&m.as_str()) {
        return HerdError::unsupported(
            format!("{what} with these {} operands", ops.len()),
            span,
            format!("see the X86 subset in the book: {subset}"),
        );
    }
    HerdError::unsupported(
        format!("the instruction {what}"),
        span,
        format!("supported: {subset}"),
    )
}

/// AT&T OPERAND: `(x)`, `$v` or `%reg`, with a register's width in bytes.
fn att_operand(cur: &mut Cursor<'_>, out: &mut Out) -> Result<(Operand, Option<u8>), HerdError> {
    let start = cur.span();
    let indirect = |cur: &mut Cursor<'_>| {
        // Up to the end of the operand, for the label.
        while !matches!(cur.peek(), Tok::Comma | Tok::Eof) {
            cur.bump();
        }
        HerdError::unsupported(
            "an indirect operand",
            Span::new(start.start as usize, cur.prev_span().end as usize),
            "only direct locations `(x)` are supported",
        )
    };
    match (cur.peek(), cur.peek_at(1)) {
        (Tok::LParen, Tok::Ident(x)) if cur.peek_at(2) == Tok::RParen => {
            cur.bump();
            cur.bump();
            cur.bump();
            let x = name(x);
            out.declare(&x, None);
            Ok((Operand::Mem(x), None))
        }
        (Tok::LParen, _) | (Tok::Int(_) | Tok::Minus, Tok::LParen | Tok::Int(_)) => {
            Err(indirect(cur))
        }
        (Tok::Dollar, _) => {
            cur.bump();
            if let Tok::Ident(_) = cur.peek() {
                return Err(HerdError::unsupported(
                    "an address immediate",
                    Span::new(start.start as usize, cur.span().end as usize),
                    "relaxlab values are integers",
                ));
            }
            Ok((Operand::Imm(cur.int("an integer after `$`")?.0), None))
        }
        (Tok::Percent, Tok::Ident(r)) => {
            cur.bump();
            let (_, rspan) = cur.bump();
            let span = Span::new(start.start as usize, rspan.end as usize);
            match att::register(r) {
                Some(reg) => Ok((Operand::Reg(reg.to_string()), Some(att::width(r)))),
                None if att::is_high_byte(r) => Err(HerdError::unsupported(
                    format!("the high-byte register `%{r}`"),
                    span,
                    "relaxlab registers hold whole integers; use the low byte or the whole register",
                )),
                None => Err(HerdError::syntax(
                    format!("`%{r}`"),
                    "a register (%rax, %eax, %r8, ...)",
                    span,
                )),
            }
        }
        (Tok::Ident(r), _) => Err(HerdError::syntax(
            format!("`{r}`"),
            "`(location)`, `$value` or a register `%eax`",
            cur.span(),
        )),
        _ => Err(cur.error("an operand")),
    }
}

/// OPERAND: `[x]`, `$v`, or a register.
fn operand(cur: &mut Cursor<'_>, out: &mut Out) -> Result<Operand, HerdError> {
    let start = cur.span();
    match cur.peek() {
        Tok::LBracket => {
            cur.bump();
            let (x, xspan) = cur.ident("a location in `[...]`")?;
            cur.expect(Tok::RBracket, "`]`")?;
            if is_register(x) {
                return Err(HerdError::unsupported(
                    "an indirect operand",
                    Span::new(start.start as usize, xspan.end as usize + 1),
                    "only direct locations `[x]` are supported",
                ));
            }
            let x = name(x);
            out.declare(&x, None);
            Ok(Operand::Mem(x))
        }
        Tok::Dollar => {
            cur.bump();
            if let Tok::Ident(_) = cur.peek() {
                return Err(HerdError::unsupported(
                    "an address immediate",
                    Span::new(start.start as usize, cur.span().end as usize),
                    "relaxlab values are integers",
                ));
            }
            Ok(Operand::Imm(cur.int("an integer after `$`")?.0))
        }
        Tok::Ident(r) if is_register(r) => {
            cur.bump();
            Ok(Operand::Reg(r.to_ascii_uppercase()))
        }
        Tok::Ident(r) => Err(HerdError::syntax(
            format!("`{r}`"),
            "a register (EAX, EBX, ...), `[location]` or `$value`",
            cur.span(),
        )),
        _ => Err(cur.error("an operand")),
    }
}

/// Is `r` an X86 register name?
fn is_register(r: &str) -> bool {
    REGISTERS.contains(&r.to_ascii_uppercase().as_str())
}
