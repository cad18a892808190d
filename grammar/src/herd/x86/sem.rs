//! What each X86 instruction does, as relaxlab statements, after herd7's
//! `X86Sem` and `X86_64Sem` (herdtools7 `herd/X86Sem.ml`,
//! `herd/X86_64Sem.ml`).
//!
//! | X86 | relaxlab |
//! |---|---|
//! | `MOV [x],v` / `MOV R,[x]` / `MOV R,v` | `store(x, v, rlx);` / `R = load(x, rlx);` / `R = v;` |
//! | `MFENCE` / `SFENCE` / `LFENCE` | `fence(full);` / `fence(ss);` / `fence(ll);` |
//! | `XCHG [x],R` (locked or not, as in herd) | `R = exchange(x, R, sc);` |
//! | `LOCK ADD [x],v` (`SUB AND OR XOR`, `INC`, `DEC`) | `t = fetch_add(x, v, sc);` |
//! | `ADD [x],v` (no `LOCK`) | `t = load(x, rlx); store(x, t + v, rlx);` |
//! | `ADD R,v`, `SHL R,v`, `INC R` | `R = R + v;`, `R = R << v;`, `R = R + 1;` |
//! | `LOCK XADD [x],R` | `R = fetch_add(x, R, sc);` |
//! | `LOCK CMPXCHG [x],R` | `t = cas(x, EAX, R, sc); EAX = t;` |
//! | `CMP a,b` | the flags only |
//! | `SETNB d` / `CMOVC R,s` | `d = CF == 0` / `if (CF != 0) { R = s; }` |
//!
//! **Orders.** An X86 access is a plain hardware access. Under the
//! hardware models relaxlab compiles C11 orders with the mapping
//! (book: mapping.md, The table (--mapping standard, the default)), where
//! `rlx` adds nothing on TSO, PSO or PSLO: so plain `MOV`s become `rlx` accesses and run exactly as
//! the X86 instruction does. Locked instructions (`XCHG` is implicitly
//! locked) become `sc` RMWs: on TSO any RMW is a locked RMW, and `sc`
//! keeps the full-barrier meaning of `LOCK` on the weaker models and under
//! the C11 models. `MFENCE` is the hardware `full` barrier (not
//! `fence(sc)`), so the test means the same thing under `--mapping plain`.
//! `tN` are fresh registers never used in the file.
//!
//! **Flags.** herd models three flags as registers of the thread (`X86`
//! tests may name them in their condition, `1:ZF=1`): `CMP a,b` sets
//! `ZF` to `a == b`, `SF` to `a > b` and `CF` to 0; arithmetic sets them
//! from its result `r` as `CMP r,0` would (`INC` and `DEC` leave `CF`);
//! `CMPXCHG` sets `ZF`. A flag is written only where some instruction or
//! the condition reads it. The jumps read them with their x86 meaning:
//! `JE` `ZF`, `JNE` `!ZF`, `JG` `SF`, `JLE` `!SF`, `JGE` `ZF || SF`, `JL`
//! `!ZF && !SF`, `JS` (the result is negative) `!ZF && !SF`, `JNS` `ZF ||
//! SF`. herd7 7.58 reads `JLT` as `ZF || !SF` (also taken when equal), and
//! `JS`/`JNS` as `SF`/`!SF` (taken when the result is positive); relaxlab
//! takes the hardware's meaning, which the book lists among the
//! differences.
//!
//! **Through registers.** `[EAX]`, `8(%rax)`, `0(%rax,%rbx,8)` name a
//! location when every register in them holds a value known before the
//! thread runs: the base holds the address of a location from the init
//! block (`0:EAX=x`), the index an integer, and the thread writes neither.
//! Then the operand is that location, provided the offset is 0 (relaxlab
//! locations hold one integer); or, when the base holds the address of an
//! array (`0:rax=t`), the cell the offset lands on ([`array_cell`]): with
//! cells of 8 bytes, `8(%rax)` and `0(%rax,%rbx,8)` with `rbx` 1 are
//! `t[1]`. `(t)` is `t[0]`. Any other indirect operand is refused.

use std::collections::{BTreeMap, BTreeSet};

use relaxlab_semantics::ir::Span;

use super::att;
use super::flow::{Step, Test};
use super::instr::{Alu, Cond, Instr, Op, Syntax};
use super::operand::{Mem, Operand};
use crate::herd::emit::{HerdArray, Out};
use crate::herd::error::HerdError;

/// The registers that hold herd's flags in one thread, when live.
#[derive(Clone, Debug, Default)]
pub(super) struct Flags {
    pub zf: Option<String>,
    pub sf: Option<String>,
    pub cf: Option<String>,
}

/// Which flags an instruction reads: (ZF, SF, CF).
pub(super) fn flags_read(i: &Instr) -> (bool, bool, bool) {
    match i {
        Instr::Jcc(c, _) => match c {
            Cond::Eq | Cond::Ne => (true, false, false),
            Cond::Gt | Cond::Le => (false, true, false),
            Cond::Ge | Cond::Lt | Cond::Sign | Cond::NoSign => (true, true, false),
        },
        Instr::Setnb(_) | Instr::Cmovc { .. } => (false, false, true),
        _ => (false, false, false),
    }
}

/// The registers an instruction writes, to find the registers that keep
/// their initial value.
pub(super) fn registers_written(i: &Instr, acc: &str, out: &mut BTreeSet<String>) {
    let mut reg = |op: &Op| {
        if let Operand::Reg(r) = &op.0 {
            out.insert(r.name.clone());
        }
    };
    match i {
        Instr::Mov { dst, .. }
        | Instr::Alu { dst, .. }
        | Instr::IncDec { dst, .. }
        | Instr::Setnb(dst)
        | Instr::Cmovc { dst, .. } => reg(dst),
        Instr::Xchg { a, b } | Instr::Xadd { dst: a, src: b, .. } => {
            reg(a);
            reg(b);
        }
        Instr::Cmpxchg { dst, .. } => {
            reg(dst);
            out.insert(acc.to_string());
        }
        Instr::Cmp { .. }
        | Instr::Fence(_)
        | Instr::Jmp(_)
        | Instr::Jcc(..)
        | Instr::Ret
        | Instr::Nop => {}
    }
}

/// The translation of one thread's instructions.
pub(super) struct ThreadSem<'a> {
    pub syntax: Syntax,
    pub flags: Flags,
    /// Every identifier of the file and every register made so far.
    pub taken: &'a mut BTreeSet<String>,
    pub next_tmp: &'a mut usize,
    /// Registers holding the address of a location from the init block.
    pub addrs: BTreeMap<String, String>,
    /// Integer initial values of registers, from the init block.
    pub inits: BTreeMap<String, i64>,
    /// Registers the thread writes.
    pub written: BTreeSet<String>,
    /// Registers the thread assigns (relaxlab's declaration of them).
    pub regs: BTreeSet<String>,
    /// The access size of each location (`X86_64` only).
    pub sizes: &'a mut att::Sizes,
}

/// The cell of array `a` that an access of `size` bytes at `offset` bytes
/// from its start reaches: the access must start at a cell, inside the
/// array, and be no wider than a cell. herd7 refuses the first two (a
/// "mixed-size test"), except a negative offset, which it reads as a
/// location of its own outside the array; a wider access it reads as an
/// access to the one cell, where the hardware reads the next cells too.
fn array_cell(
    a: &HerdArray,
    offset: i64,
    span: Span,
    size: Option<u8>,
) -> Result<String, HerdError> {
    let cell = i64::from(a.cell);
    let len = a.len as i64;
    let last = len - 1;
    if offset < 0 || offset >= len * cell {
        return Err(HerdError::array(
            format!("byte {offset} of the array `{}` is outside it", a.name),
            "outside the array",
            span,
            format!(
                "`{}` has {len} cells of {}, at offsets 0 to {} from its start",
                a.name,
                bytes(a.cell),
                (len - 1) * cell
            ),
        ));
    }
    if offset % cell != 0 {
        return Err(HerdError::array(
            format!("byte {offset} of the array `{}` is inside a cell", a.name),
            "not the start of a cell",
            span,
            format!(
                "the cells of `{}` are {} each: address one at a multiple of {cell} bytes (cells 0 to {last})",
                a.name,
                bytes(a.cell)
            ),
        ));
    }
    if let Some(size) = size.filter(|&s| s > a.cell) {
        return Err(HerdError::unsupported(
            format!("an access of {} to the cells of {} of `{}`", bytes(size), bytes(a.cell), a.name),
            span,
            "an access wider than a cell reaches the next cells: relaxlab locations hold one integer; access a cell with its own size or less",
        ));
    }
    Ok(format!("{}[{}]", a.name, offset / cell))
}

/// `1 byte`, `8 bytes`.
fn bytes(n: u8) -> String {
    if n == 1 {
        "1 byte".to_string()
    } else {
        format!("{n} bytes")
    }
}

/// One of herd's flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flag {
    Z,
    S,
    C,
}

/// What a destination operand is.
enum Dst {
    Reg(String),
    Loc(String),
}

impl ThreadSem<'_> {
    /// A register never used in the file.
    fn fresh(&mut self) -> String {
        loop {
            let t = format!("t{}", *self.next_tmp);
            *self.next_tmp += 1;
            if self.taken.insert(t.clone()) {
                self.regs.insert(t.clone());
                return t;
            }
        }
    }

    /// The accumulator, which `CMPXCHG` compares and loads.
    pub(super) fn accumulator(syntax: Syntax) -> &'static str {
        match syntax {
            Syntax::Intel => "EAX",
            Syntax::Att => "rax",
        }
    }

    /// The location a memory operand names (declared in `out`).
    fn location(
        &mut self,
        mem: &Mem,
        span: Span,
        size: Option<u8>,
        out: &mut Out,
    ) -> Result<String, HerdError> {
        let loc = match mem {
            Mem::Abs(x) => match out.array(x) {
                Some(a) => array_cell(a, 0, span, size)?,
                None => x.clone(),
            },
            Mem::Indirect { base, index, disp } => {
                let Some(loc) = self.addrs.get(&base.name).cloned() else {
                    return Err(HerdError::unsupported(
                        "an indirect operand",
                        span,
                        format!(
                            "`{}` holds no address: give it one in the init block (`N:{}=x;`) or name the location",
                            base.name, base.name
                        ),
                    ));
                };
                let mut offset = *disp;
                if let Some((r, scale)) = index {
                    if self.addrs.contains_key(&r.name) {
                        return Err(HerdError::unsupported(
                            "an address used as an index",
                            span,
                            "the index register must hold an integer",
                        ));
                    }
                    if self.written.contains(&r.name) {
                        return Err(HerdError::unsupported(
                            format!("an indirect operand indexed by `{}`, a register the thread writes", r.name),
                            span,
                            "relaxlab resolves an indirect operand before the thread runs: its registers must keep their initial values",
                        ));
                    }
                    let v = self.inits.get(&r.name).copied().unwrap_or(0);
                    offset = offset.wrapping_add(v.wrapping_mul(*scale));
                }
                if self.written.contains(&base.name) {
                    return Err(HerdError::unsupported(
                        format!("an indirect operand through `{}`, a register the thread writes", base.name),
                        span,
                        "relaxlab resolves an indirect operand before the thread runs: its registers must keep their initial values",
                    ));
                }
                if let Some(a) = out.array(&loc) {
                    array_cell(a, offset, span, size)?
                } else if offset != 0 {
                    return Err(HerdError::unsupported(
                        format!("the address of `{loc}` plus {offset} bytes"),
                        span,
                        "relaxlab locations hold one integer: the offset must be 0",
                    ));
                } else {
                    loc
                }
            }
        };
        // A cell (`t[1]`) is declared with its array.
        if !loc.ends_with(']') {
            out.declare(&loc, None);
        }
        if let (Syntax::Att, Some(size)) = (self.syntax, size) {
            self.sizes.record(&loc, size, span)?;
        }
        Ok(loc)
    }

    /// A register read as a value: not one that holds an address.
    fn register_value(&self, r: &str, span: Span) -> Result<String, HerdError> {
        if self.addrs.contains_key(r) {
            return Err(HerdError::unsupported(
                format!("the address in `{r}` used as a value"),
                span,
                "relaxlab values are integers: an address register may only be dereferenced",
            ));
        }
        Ok(r.to_string())
    }

    /// The value of a source operand as a relaxlab expression; a memory
    /// operand is loaded into a fresh register first.
    fn value(
        &mut self,
        op: &Op,
        size: Option<u8>,
        lines: &mut Vec<String>,
        out: &mut Out,
    ) -> Result<String, HerdError> {
        match &op.0 {
            Operand::Imm(v) => Ok(v.to_string()),
            Operand::Reg(r) => self.register_value(&r.name, op.1),
            Operand::Mem(m) => {
                let x = self.location(m, op.1, size, out)?;
                let t = self.fresh();
                lines.push(format!("{t} = load({x}, rlx);"));
                Ok(t)
            }
        }
    }

    /// A destination operand.
    fn dst(&mut self, op: &Op, size: Option<u8>, out: &mut Out) -> Result<Dst, HerdError> {
        match &op.0 {
            Operand::Reg(r) => {
                self.register_value(&r.name, op.1)?;
                self.regs.insert(r.name.clone());
                Ok(Dst::Reg(r.name.clone()))
            }
            Operand::Mem(m) => Ok(Dst::Loc(self.location(m, op.1, size, out)?)),
            Operand::Imm(_) => Err(HerdError::unsupported(
                "an immediate as destination",
                op.1,
                "the destination is a register or a location",
            )),
        }
    }

    /// The register of a flag, if live.
    fn flag_reg(&self, f: Flag) -> Option<&String> {
        match f {
            Flag::Z => self.flags.zf.as_ref(),
            Flag::S => self.flags.sf.as_ref(),
            Flag::C => self.flags.cf.as_ref(),
        }
    }

    /// `FLAG = e;` when the flag is live.
    fn set(&mut self, f: Flag, e: String, lines: &mut Vec<String>) {
        if let Some(r) = self.flag_reg(f).cloned() {
            lines.push(format!("{r} = {e};"));
            self.regs.insert(r);
        }
    }

    /// The live flags no instruction writes: they keep their initial 0.
    pub(super) fn unwritten_flags(&self) -> Vec<String> {
        [Flag::Z, Flag::S, Flag::C]
            .into_iter()
            .filter_map(|f| self.flag_reg(f))
            .filter(|r| !self.regs.contains(*r))
            .cloned()
            .collect()
    }

    /// The flags after arithmetic with result `r` (an expression);
    /// `carry`: whether `CF` is written (not by `INC`/`DEC`).
    fn result_flags(&mut self, r: &str, carry: bool, lines: &mut Vec<String>) {
        let r = parenthesised(r);
        self.set(Flag::Z, format!("{r} == 0"), lines);
        self.set(Flag::S, format!("{r} > 0"), lines);
        if carry {
            self.set(Flag::C, "0".to_string(), lines);
        }
    }

    /// The expression of a flag read by a jump or `SETNB`/`CMOVC`.
    fn flag(&self, f: &Option<String>) -> String {
        f.clone().unwrap_or_else(|| "0".to_string())
    }

    /// The relaxlab step of one instruction.
    pub(super) fn step(
        &mut self,
        instr: &Instr,
        size: Option<u8>,
        out: &mut Out,
    ) -> Result<Step, HerdError> {
        let mut l = Vec::new();
        match instr {
            Instr::Mov { dst, src } => match (&dst.0, &src.0) {
                (Operand::Reg(_), Operand::Mem(m)) => {
                    let x = self.location(m, src.1, size, out)?;
                    if let Dst::Reg(r) = self.dst(dst, size, out)? {
                        l.push(format!("{r} = load({x}, rlx);"));
                    }
                }
                _ => {
                    let v = self.value(src, size, &mut l, out)?;
                    match self.dst(dst, size, out)? {
                        Dst::Reg(r) => l.push(format!("{r} = {v};")),
                        Dst::Loc(x) => l.push(format!("store({x}, {v}, rlx);")),
                    }
                }
            },
            Instr::Alu {
                op,
                dst,
                src,
                locked,
            } => {
                let v = self.value(src, size, &mut l, out)?;
                let r = self.arithmetic(*op, dst, &v, *locked, size, &mut l, out)?;
                self.result_flags(&r, true, &mut l);
            }
            Instr::IncDec { inc, dst, locked } => {
                let op = if *inc { Alu::Add } else { Alu::Sub };
                let r = self.arithmetic(op, dst, "1", *locked, size, &mut l, out)?;
                self.result_flags(&r, false, &mut l);
            }
            Instr::Cmp { a, b } => {
                let va = self.value(a, size, &mut l, out)?;
                let vb = self.value(b, size, &mut l, out)?;
                self.set(Flag::Z, format!("{va} == {vb}"), &mut l);
                self.set(Flag::S, format!("{va} > {vb}"), &mut l);
                self.set(Flag::C, "0".to_string(), &mut l);
            }
            Instr::Xchg { a, b } => match (&a.0, &b.0) {
                (Operand::Mem(m), Operand::Reg(r)) | (Operand::Reg(r), Operand::Mem(m)) => {
                    let span = if let Operand::Mem(_) = a.0 { a.1 } else { b.1 };
                    let x = self.location(m, span, size, out)?;
                    let r = self.register_value(&r.name, span)?;
                    self.regs.insert(r.clone());
                    l.push(format!("{r} = exchange({x}, {r}, sc);"));
                }
                (Operand::Reg(ra), Operand::Reg(rb)) => {
                    let ra = self.register_value(&ra.name, a.1)?;
                    let rb = self.register_value(&rb.name, b.1)?;
                    self.regs.insert(ra.clone());
                    self.regs.insert(rb.clone());
                    let t = self.fresh();
                    l.push(format!("{t} = {ra};"));
                    l.push(format!("{ra} = {rb};"));
                    l.push(format!("{rb} = {t};"));
                }
                _ => return Err(operands_refused("XCHG", a.1.start, b.1.end)),
            },
            Instr::Xadd { dst, src, locked } => {
                let Operand::Reg(r) = &src.0 else {
                    return Err(operands_refused("XADD", dst.1.start, src.1.end));
                };
                let r = self.register_value(&r.name, src.1)?;
                self.regs.insert(r.clone());
                let live =
                    self.flags.zf.is_some() || self.flags.sf.is_some() || self.flags.cf.is_some();
                match (self.dst(dst, size, out)?, locked) {
                    (Dst::Loc(x), true) if !live => {
                        l.push(format!("{r} = fetch_add({x}, {r}, sc);"))
                    }
                    (Dst::Loc(x), true) => {
                        let t = self.fresh();
                        l.push(format!("{t} = fetch_add({x}, {r}, sc);"));
                        self.result_flags(&format!("{t} + {r}"), true, &mut l);
                        l.push(format!("{r} = {t};"));
                    }
                    (Dst::Loc(x), false) => {
                        let t = self.fresh();
                        l.push(format!("{t} = load({x}, rlx);"));
                        l.push(format!("store({x}, {t} + {r}, rlx);"));
                        self.result_flags(&format!("{t} + {r}"), true, &mut l);
                        l.push(format!("{r} = {t};"));
                    }
                    (Dst::Reg(d), _) => {
                        let t = self.fresh();
                        l.push(format!("{t} = {d} + {r};"));
                        l.push(format!("{r} = {d};"));
                        l.push(format!("{d} = {t};"));
                        self.result_flags(&d, true, &mut l);
                    }
                }
            }
            Instr::Cmpxchg { dst, src, locked } => {
                let Operand::Reg(r) = &src.0 else {
                    return Err(operands_refused("CMPXCHG", dst.1.start, src.1.end));
                };
                let r = self.register_value(&r.name, src.1)?;
                let acc = Self::accumulator(self.syntax);
                self.regs.insert(acc.to_string());
                match self.dst(dst, size, out)? {
                    Dst::Loc(x) => {
                        let t = self.fresh();
                        if *locked {
                            l.push(format!("{t} = cas({x}, {acc}, {r}, sc);"));
                        } else {
                            l.push(format!("{t} = load({x}, rlx);"));
                            l.push(format!("if ({t} == {acc}) {{"));
                            l.push(format!("  store({x}, {r}, rlx);"));
                            l.push("}".to_string());
                        }
                        self.set(Flag::Z, format!("{t} == {acc}"), &mut l);
                        l.push(format!("{acc} = {t};"));
                    }
                    Dst::Reg(d) => {
                        self.set(Flag::Z, format!("{d} == {acc}"), &mut l);
                        l.push(format!("if ({d} == {acc}) {{"));
                        l.push(format!("  {d} = {r};"));
                        l.push("} else {".to_string());
                        l.push(format!("  {acc} = {d};"));
                        l.push("}".to_string());
                    }
                }
            }
            Instr::Fence(k) => l.push(format!("fence({k});")),
            Instr::Setnb(dst) => {
                let v = format!("{} == 0", self.flag(&self.flags.cf));
                match self.dst(dst, size, out)? {
                    Dst::Reg(r) => l.push(format!("{r} = {v};")),
                    Dst::Loc(x) => l.push(format!("store({x}, {v}, rlx);")),
                }
            }
            Instr::Cmovc { dst, src } => {
                let Dst::Reg(r) = self.dst(dst, size, out)? else {
                    return Err(operands_refused("CMOVC", dst.1.start, src.1.end));
                };
                let mut body = Vec::new();
                let v = self.value(src, size, &mut body, out)?;
                l.push(format!("if ({} != 0) {{", self.flag(&self.flags.cf)));
                for b in body {
                    l.push(format!("  {b}"));
                }
                l.push(format!("  {r} = {v};"));
                l.push("}".to_string());
            }
            Instr::Jmp(t) => return Ok(Step::Jump(t.clone())),
            Instr::Jcc(c, t) => return Ok(Step::Branch(self.condition(*c), t.clone())),
            Instr::Ret => return Ok(Step::Exit),
            Instr::Nop => {}
        }
        Ok(Step::Seq(l))
    }

    /// `dst = dst op v` on a register or a location; returns the result
    /// as an expression.
    #[allow(clippy::too_many_arguments)]
    fn arithmetic(
        &mut self,
        op: Alu,
        dst: &Op,
        v: &str,
        locked: bool,
        size: Option<u8>,
        l: &mut Vec<String>,
        out: &mut Out,
    ) -> Result<String, HerdError> {
        let (fetch, sym) = match op {
            Alu::Add => (Some("fetch_add"), "+"),
            Alu::Sub => (Some("fetch_sub"), "-"),
            Alu::And => (Some("fetch_and"), "&"),
            Alu::Or => (Some("fetch_or"), "|"),
            Alu::Xor => (Some("fetch_xor"), "^"),
            Alu::Shl => (None, "<<"),
        };
        let v = parenthesised(v);
        match (self.dst(dst, size, out)?, locked) {
            (Dst::Reg(r), false) => {
                l.push(format!("{r} = {r} {sym} {v};"));
                Ok(r)
            }
            (Dst::Reg(_), true) => Err(HerdError::unsupported(
                "`LOCK` with a register destination",
                dst.1,
                "a locked instruction updates a location: `LOCK ADD [x],1`",
            )),
            (Dst::Loc(x), true) => {
                let Some(f) = fetch else {
                    return Err(HerdError::unsupported(
                        "`LOCK SHL`",
                        dst.1,
                        "relaxlab's RMWs are add, sub, and, or, xor, max, min and xchg",
                    ));
                };
                let t = self.fresh();
                l.push(format!("{t} = {f}({x}, {v}, sc);"));
                Ok(format!("{t} {sym} {v}"))
            }
            (Dst::Loc(x), false) => {
                let t = self.fresh();
                l.push(format!("{t} = load({x}, rlx);"));
                l.push(format!("store({x}, {t} {sym} {v}, rlx);"));
                Ok(format!("{t} {sym} {v}"))
            }
        }
    }

    /// A jump's condition over the flags, and its negation (see the
    /// module documentation).
    fn condition(&self, c: Cond) -> Test {
        let zf = self.flag(&self.flags.zf);
        let sf = self.flag(&self.flags.sf);
        let (holds, fails) = match c {
            Cond::Eq | Cond::Ne => (format!("{zf} != 0"), format!("{zf} == 0")),
            Cond::Gt | Cond::Le => (format!("{sf} != 0"), format!("{sf} == 0")),
            Cond::Ge | Cond::NoSign | Cond::Lt | Cond::Sign => (
                format!("{zf} != 0 || {sf} != 0"),
                format!("{zf} == 0 && {sf} == 0"),
            ),
        };
        match c {
            Cond::Eq | Cond::Gt | Cond::Ge | Cond::NoSign => Test { holds, fails },
            Cond::Ne | Cond::Le | Cond::Lt | Cond::Sign => Test {
                holds: fails,
                fails: holds,
            },
        }
    }
}

/// `e` parenthesised unless it is a name or a literal.
fn parenthesised(e: &str) -> String {
    if e.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        || (e.starts_with('-') && e[1..].chars().all(|c| c.is_ascii_digit()))
    {
        e.to_string()
    } else {
        format!("({e})")
    }
}

/// Operands an instruction cannot take.
fn operands_refused(m: &str, start: u32, end: u32) -> HerdError {
    HerdError::unsupported(
        format!("`{m}` with these operands"),
        Span::new(start as usize, end as usize),
        match m {
            "XCHG" => "XCHG exchanges a register with a location or another register",
            "CMOVC" => "CMOVC moves into a register",
            _ => "the source is a register",
        },
    )
}
