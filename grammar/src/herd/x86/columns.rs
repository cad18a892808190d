//! The layout of an X86 or X86_64 test, as herd7's splitter and its X86
//! parsers' `main` rule read it:
//!
//! ```text
//! X86 NAME (TEXNAME) "DOC"          -- the texname and doc are optional
//! KEY=VALUE                         -- any number of info lines, skipped
//! { INIT };                         -- `;` after `}` is allowed
//!  P0          | P1          ;      -- a header row, then rows of cells
//!  MOV [x],1   | L0: MOV EAX,[y] ;  -- labels, at most one instruction
//! exists (0:EAX=0 /\ 1:EAX=0)       -- or final, observed, ...; `;`, `with`
//! << ... >>                         -- anything from `<<` on is skipped
//! ```
//!
//! The program ends where herd's splitter ends it: at the first `exists`,
//! `forall`, `~exists`, `final`, `cases`, `observed`, `locations` or
//! `filter`. Every row has one cell per thread.

use std::collections::{BTreeMap, BTreeSet};

use relaxlab_semantics::ir::Span;

use super::att;
use super::flow::{self, Node};
use super::instr::{self, Cell, Syntax};
use super::operand::{self, INTEL_REGISTERS};
use super::sem::{self, Flags, ThreadSem};
use crate::herd::cond;
use crate::herd::emit::{Out, ThreadOut};
use crate::herd::error::{at, HerdError};
use crate::herd::lexer::{lex, Cursor, Header, Tok};

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
        reg_alias: Some(match syntax {
            Syntax::Intel => operand::intel_register as fn(&str) -> _,
            Syntax::Att => att::register,
        }),
        ..Out::default()
    };
    // `(TEXNAME)`, then `"DOC"`, may follow the name.
    if let (Tok::LParen, Tok::Ident(_), Tok::RParen) = (cur.peek(), cur.peek_at(1), cur.peek_at(2))
    {
        cur.bump();
        cur.bump();
        cur.bump();
    }
    if let Tok::Str(doc) = cur.peek() {
        out.doc = Some(doc.to_string());
        cur.bump();
    }
    if !cur.skip_to(Tok::LBrace) {
        return Err(vec![cur.error("`{` opening the init block")]);
    }
    let init_span = cur.span();
    cond::init_block(&mut cur, &mut out).map_err(|e| vec![e])?;
    cur.eat(Tok::Semi);
    let mut taken: BTreeSet<String> = cur.idents().into_iter().map(str::to_string).collect();
    header_row(&mut cur, &mut out).map_err(|e| vec![e])?;
    let mut errors = Vec::new();
    let mut cells: Vec<Vec<Cell>> = vec![Vec::new(); out.threads.len()];
    while !at_trailer(&cur) {
        if let Err(e) = row(&mut cur, syntax, &mut cells, &mut errors) {
            errors.push(e);
            // Resynchronise after the row.
            cur.skip_to(Tok::Semi);
            cur.bump();
        }
    }
    let named = named_registers(&cur, syntax);
    let addrs = std::mem::take(&mut out.reg_addrs);
    let mut next_tmp = 0;
    let mut sizes = att::Sizes::default();
    for (t, column) in cells.iter().enumerate() {
        let thread = Thread {
            index: t,
            column,
            named: &named,
            addrs: &addrs,
        };
        if let Err(e) = thread.translate(syntax, &mut taken, &mut next_tmp, &mut sizes, &mut out) {
            errors.push(e);
        }
    }
    if let Some(a) = addrs
        .iter()
        .find(|a| named.contains(&(a.thread, a.reg.clone())))
    {
        errors.push(HerdError::unsupported(
            format!(
                "the address in `{}:{}` read by the condition",
                a.thread, a.reg
            ),
            a.span,
            "relaxlab values are integers: a register holding an address cannot be observed",
        ));
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

/// Does the condition part start here? (herd's splitter's keywords.)
fn at_trailer(cur: &Cursor<'_>) -> bool {
    match cur.peek() {
        Tok::Eof | Tok::Shl => true,
        Tok::Tilde => cur.peek_at(1) == Tok::Ident("exists"),
        Tok::Ident(w) => matches!(
            w,
            "exists"
                | "forall"
                | "final"
                | "cases"
                | "observed"
                | "Observed"
                | "locations"
                | "filter"
        ),
        _ => false,
    }
}

/// The registers the trailers name, by thread (`1:ZF`, `P0:EAX`), to
/// know which flags and address registers the condition reads.
fn named_registers(cur: &Cursor<'_>, syntax: Syntax) -> BTreeSet<(usize, String)> {
    let mut named = BTreeSet::new();
    let mut k = 0;
    loop {
        let thread = match cur.peek_at(k) {
            Tok::Eof => return named,
            Tok::Int(Some(t)) => usize::try_from(t).ok(),
            Tok::Ident(p) => p.strip_prefix('P').and_then(|d| d.parse().ok()),
            _ => None,
        };
        if let (Some(t), Tok::Colon, Tok::Ident(r)) =
            (thread, cur.peek_at(k + 1), cur.peek_at(k + 2))
        {
            let r = match syntax {
                Syntax::Intel => r.to_ascii_uppercase(),
                Syntax::Att => att::register(r).map_or(r.to_string(), str::to_string),
            };
            named.insert((t, r));
        }
        k += 1;
    }
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

/// ROW: one cell per column, `|`-separated, `;`-terminated. A `;` right
/// after `LOCK` belongs to the instruction (herd's `LOCK; ADD [x],1`).
fn row(
    cur: &mut Cursor<'_>,
    syntax: Syntax,
    cells: &mut [Vec<Cell>],
    errors: &mut Vec<HerdError>,
) -> Result<(), HerdError> {
    let columns = cells.len();
    let row_start = cur.span();
    let mut col = 0;
    loop {
        let start = cur.span();
        let mut cell = Vec::new();
        loop {
            match cur.peek() {
                Tok::Bar | Tok::Eof => break,
                Tok::Semi => {
                    let after_lock = matches!(cell.last(), Some((Tok::Ident(w), _)) if w.eq_ignore_ascii_case("LOCK"));
                    if !after_lock {
                        break;
                    }
                }
                _ => {}
            }
            cell.push(cur.bump());
        }
        if col >= columns {
            return Err(HerdError::BadThread {
                name: format!("column {col}"),
                span: at(start),
                help: format!(
                    "the header row declares {} columns, P0 to P{}",
                    columns,
                    columns.saturating_sub(1)
                ),
            });
        }
        let end = cell
            .last()
            .map_or(start.start as usize, |t| t.1.end as usize);
        match instr::cell(cur.src(), cell, end, syntax) {
            Ok(c) => cells[col].push(c),
            Err(e) => {
                errors.push(e);
                cells[col].push(Cell::default());
            }
        }
        col += 1;
        match cur.peek() {
            Tok::Bar => {
                cur.bump();
            }
            Tok::Semi => {
                cur.bump();
                if col < columns {
                    return Err(HerdError::Syntax {
                        found: format!(
                            "end of row after {col} cell{}",
                            if col == 1 { "" } else { "s" }
                        ),
                        expected: format!("{columns} cells, one per thread"),
                        span: at(Span::new(row_start.start as usize, cur.prev_span().end as usize)),
                        help: Some("herd7 refuses rows of different lengths (\"mismatch in instruction lines\"); leave a cell empty with `|  |`".to_string()),
                    });
                }
                return Ok(());
            }
            _ => return Err(cur.error("`|` or `;` ending the row")),
        }
    }
}

/// One column of the program.
struct Thread<'a> {
    index: usize,
    column: &'a [Cell],
    named: &'a BTreeSet<(usize, String)>,
    addrs: &'a [crate::herd::emit::RegAddr],
}

impl Thread<'_> {
    /// Translates the column into its thread of `out`.
    fn translate(
        &self,
        syntax: Syntax,
        taken: &mut BTreeSet<String>,
        next_tmp: &mut usize,
        sizes: &mut att::Sizes,
        out: &mut Out,
    ) -> Result<(), HerdError> {
        let acc = ThreadSem::accumulator(syntax);
        let instrs = || self.column.iter().filter_map(|c| c.instr.as_ref());
        let mut written = BTreeSet::new();
        let (mut zf, mut sf, mut cf) = (false, false, false);
        for (i, _) in instrs() {
            sem::registers_written(i, acc, &mut written);
            let (z, s, c) = sem::flags_read(i);
            zf |= z;
            sf |= s;
            cf |= c;
        }
        let flags = self.flags(syntax, zf, sf, cf, taken);
        let inits: BTreeMap<String, i64> = out
            .reg_inits
            .iter()
            .filter(|(t, _, _)| *t == self.index)
            .map(|(_, r, v)| (r.clone(), *v))
            .collect();
        let addrs = self
            .addrs
            .iter()
            .filter(|a| a.thread == self.index)
            .map(|a| (a.reg.clone(), a.loc.clone()))
            .collect();
        let mut sem = ThreadSem {
            syntax,
            flags,
            taken,
            next_tmp,
            addrs,
            inits,
            written,
            regs: BTreeSet::new(),
            sizes,
        };
        let mut nodes = Vec::new();
        let mut labels = Vec::new();
        for c in self.column {
            labels.extend(c.labels.iter().cloned());
            if let Some((i, _)) = &c.instr {
                let step = sem.step(i, c.size, out)?;
                nodes.push(Node {
                    labels: std::mem::take(&mut labels),
                    step,
                });
            }
        }
        let mut unwritten = sem.unwritten_flags();
        unwritten.retain(|f| !sem.inits.contains_key(f));
        let regs = std::mem::take(&mut sem.regs);
        let name = out.threads[self.index].name.clone();
        let lines = flow::structure(&nodes, &labels, &name)?;
        let th = &mut out.threads[self.index];
        for f in unwritten {
            th.prelude.push(format!("{f} = 0;"));
            th.regs.insert(f);
        }
        th.regs.extend(regs);
        th.lines.extend(lines);
        Ok(())
    }

    /// The registers of the live flags: those an instruction reads, that
    /// appear as an operand (`X86`), or that the condition names.
    fn flags(
        &self,
        syntax: Syntax,
        zf: bool,
        sf: bool,
        cf: bool,
        taken: &mut BTreeSet<String>,
    ) -> Flags {
        let operand_names: BTreeSet<&str> = self
            .column
            .iter()
            .filter_map(|c| c.instr.as_ref())
            .flat_map(|(i, _)| operands(i))
            .collect();
        let mut pick = |herd: &str, read: bool| -> Option<String> {
            let upper = herd.to_ascii_uppercase();
            let live = read
                || (syntax == Syntax::Intel
                    && (operand_names.contains(upper.as_str())
                        || self.named.contains(&(self.index, upper.clone()))));
            if !live {
                return None;
            }
            match syntax {
                Syntax::Intel => Some(upper),
                Syntax::Att => {
                    // herd's X86_64 flags cannot be named by a test: a
                    // register name no identifier of the file uses.
                    let mut name = herd.to_string();
                    let mut k = 0;
                    while taken.contains(&name) {
                        name = format!("{herd}{k}");
                        k += 1;
                    }
                    taken.insert(name.clone());
                    Some(name)
                }
            }
        };
        debug_assert!(INTEL_REGISTERS.contains(&"ZF"));
        Flags {
            zf: pick("zf", zf),
            sf: pick("sf", sf),
            cf: pick("cf", cf),
        }
    }
}

/// The register names an instruction's operands mention.
fn operands(i: &instr::Instr) -> Vec<&str> {
    use super::operand::Operand;
    use instr::Instr as I;
    let ops: Vec<&instr::Op> = match i {
        I::Mov { dst, src }
        | I::Alu { dst, src, .. }
        | I::Xadd { dst, src, .. }
        | I::Cmpxchg { dst, src, .. }
        | I::Cmovc { dst, src } => vec![dst, src],
        I::Cmp { a, b } | I::Xchg { a, b } => vec![a, b],
        I::IncDec { dst, .. } | I::Setnb(dst) => vec![dst],
        _ => Vec::new(),
    };
    ops.into_iter()
        .filter_map(|(o, _)| match o {
            Operand::Reg(r) => Some(r.name.as_str()),
            _ => None,
        })
        .collect()
}
