//! One run of one thread in herd7's C semantics (herdtools7's `CSem.ml`):
//! every statement and expression builds its events and herd's
//! intra-instruction edges with the combinators of [`super::es`], in the
//! order and with the ports herd uses.
//!
//! Values are concrete: a memory read takes one value of its location's
//! value domain, chosen by the path enumeration ([`super::paths`]), and so
//! does each alternative of herd's `altT` (a trylock that succeeds or
//! fails, a `cmpxchg` that succeeds or fails). An alternative whose
//! equation does not hold for the chosen values (a successful `cmpxchg`
//! that read another value than the expected one) is not a path, as in
//! herd, where its equations have no solution.
//!
//! `lkmmv2` (herd's variant, which the LKMM's `.cfg` sets) annotates both
//! events of a read-modify-write with the primitive's annotation;
//! without it (`lkmmv1`) a fully ordered one is bracketed by `mb` fences
//! and its events are `once`, as herd does.

mod c11;

use crate::axiomatic::LockOp;
use crate::ir::{BinOp, LocId, RegId, ThreadId, Value};
use crate::outcome::FailureKind;

use super::es::{Ev, EvKind, Port, Sub, ThreadEs};
use super::ir::{AtomicOp, CExpr, CNode, CProgram, CStmt, Returns, Tags};
use super::{is_address, location_at};

/// Why a run stopped before the end of the thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// No execution takes this path: an equation of herd's failed (a
    /// `cmpxchg` alternative that does not match the value read), or a
    /// read through a value that is not an address (herd finds no write
    /// for it).
    Discard,
    /// The thread fails here (a write through a value that is not an
    /// address: herd refuses such a test).
    Fail(FailureKind),
    /// A `while` ran more iterations than the unrolling bound.
    Cut,
}

type R<T> = Result<T, Stop>;

/// Per location, the values a read of it may get, each with the writers
/// its justification uses (a bit each, [`Sites`]; 0 when not tracked).
pub(crate) type Domains = [Vec<(Value, u64)>];

/// The writers of a program, for the justification of values
/// (book: herd.md, Unsequenced operands): a writer is the `k`-th write
/// made by one run of a statement outside every loop (by its address in
/// the program), which writes at most once in an execution: the writes
/// of one statement's alternatives that share a `k` exclude each other.
/// A write inside a loop is no tracked writer. Bits are given in the
/// order writers are met, which is deterministic; the 65th and later get
/// none.
#[derive(Debug, Default)]
pub(crate) struct Sites(std::cell::RefCell<Vec<(usize, u32)>>);

impl Sites {
    fn bit(&self, node: usize, k: u32) -> u64 {
        let mut v = self.0.borrow_mut();
        let i = match v.iter().position(|&s| s == (node, k)) {
            Some(i) => i,
            None => {
                v.push((node, k));
                v.len() - 1
            }
        };
        if i < 64 {
            1u64 << i
        } else {
            0
        }
    }
}

/// A write of a run, with what justifies its value: `dep`, the writers
/// of every value the run read before it, and `bit`, its own writer (0
/// when untracked).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Written {
    pub loc: LocId,
    pub value: Value,
    pub bit: u64,
    pub dep: u64,
}

/// The state of one run.
pub(crate) struct Run<'a> {
    c: &'a CProgram,
    tid: ThreadId,
    locations: usize,
    /// Per location, the values a read of it may get.
    domains: &'a Domains,
    /// The writers, when the run computes value domains.
    sites: Option<&'a Sites>,
    /// The writers of every value read so far.
    dep: u64,
    /// The writes made, when `sites` is given.
    pub written: Vec<Written>,
    /// The statement running (its address) and how many writes it made.
    node: usize,
    writes_in_node: u32,
    /// How many loops the run is in.
    loops: u32,
    pub es: ThreadEs,
    pub regs: Vec<Value>,
    /// herd's program-order index of the current instruction instance.
    inst: u32,
    line: u32,
    choices: &'a [u32],
    cursor: usize,
    /// The number of options of each choice made, in order.
    pub arities: Vec<u32>,
    once: Tags,
    mb: Tags,
    noreturn: Tags,
    rb_dep: Tags,
}

impl<'a> Run<'a> {
    pub(crate) fn new(
        c: &'a CProgram,
        tid: ThreadId,
        locations: usize,
        domains: &'a Domains,
        sites: Option<&'a Sites>,
        regs: Vec<Value>,
        choices: &'a [u32],
    ) -> Run<'a> {
        let tag = |n: &str| c.tag(n).unwrap_or(0);
        Run {
            c,
            tid,
            locations,
            domains,
            sites,
            dep: 0,
            written: Vec::new(),
            node: 0,
            writes_in_node: 0,
            loops: 0,
            es: ThreadEs::default(),
            regs,
            inst: 0,
            line: 0,
            choices,
            cursor: 0,
            arities: Vec::new(),
            once: tag("once"),
            mb: tag("mb"),
            noreturn: tag("noreturn"),
            rb_dep: tag("rb_dep"),
        }
    }

    /// Runs the thread's body.
    pub(crate) fn run(&mut self, body: &[CNode]) -> R<()> {
        self.list(body)
    }

    /// One of `n` options: the recorded choice, or 0 (recorded).
    fn choose(&mut self, n: usize) -> usize {
        let k = match self.choices.get(self.cursor) {
            Some(&k) => k as usize,
            None => 0,
        };
        self.cursor += 1;
        self.arities.push(n as u32);
        k.min(n.saturating_sub(1))
    }

    fn ev(&self, kind: EvKind, tags: Tags, port: Port, atomic: bool) -> Ev {
        Ev {
            kind,
            tags,
            inst: self.inst,
            line: self.line,
            port,
            atomic,
        }
    }

    fn is(&self, tags: Tags, name: &str) -> bool {
        self.c.tag(name) == Some(tags)
    }

    // ---- Basic events -------------------------------------------------

    fn read_reg(&mut self, port: Port, r: RegId) -> (Value, Sub) {
        let v = self.regs[r.index()];
        let ev = self.ev(EvKind::RegRead(r), 0, port, false);
        (v, self.es.event(ev))
    }

    fn write_reg(&mut self, r: RegId, v: Value) -> Sub {
        self.regs[r.index()] = v;
        let ev = self.ev(EvKind::RegWrite(r), 0, Port::No, false);
        self.es.event(ev)
    }

    /// The location an address value names; reading through a value that
    /// names none gives no execution.
    fn read_location(&self, a: Value) -> R<LocId> {
        location_at(a, self.locations).ok_or(Stop::Discard)
    }

    fn write_location(&self, a: Value) -> R<LocId> {
        location_at(a, self.locations).ok_or(Stop::Fail(FailureKind::BadPointer {
            thread: self.tid,
            line: self.line,
        }))
    }

    fn read_mem(&mut self, port: Port, tags: Tags, a: Value, atomic: bool) -> R<(Value, Sub)> {
        let loc = self.read_location(a)?;
        let domain = &self.domains[loc.index()];
        if domain.is_empty() {
            return Err(Stop::Discard);
        }
        let k = self.choose(domain.len());
        let (value, mask) = self.domains[loc.index()][k];
        self.dep |= mask;
        let ev = self.ev(EvKind::Read { loc, value }, tags, port, atomic);
        Ok((value, self.es.event(ev)))
    }

    fn write_mem(&mut self, tags: Tags, a: Value, value: Value, atomic: bool) -> R<Sub> {
        let loc = self.write_location(a)?;
        if let Some(sites) = self.sites {
            let bit = if self.loops == 0 {
                sites.bit(self.node, self.writes_in_node)
            } else {
                0
            };
            self.writes_in_node += 1;
            self.written.push(Written {
                loc,
                value,
                bit,
                dep: self.dep,
            });
        }
        let ev = self.ev(EvKind::Write { loc, value }, tags, Port::No, atomic);
        Ok(self.es.event(ev))
    }

    fn fence(&mut self, tags: Tags) -> Sub {
        let ev = self.ev(EvKind::Fence, tags, Port::No, false);
        self.es.fence(ev)
    }

    fn lock_event(&mut self, loc: LocId, op: LockOp) -> Sub {
        let ev = self.ev(EvKind::Lock { loc, op }, 0, Port::No, false);
        self.es.event(ev)
    }

    /// herd's `linux_lock`: the lock read, then (control) the lock write.
    fn linux_lock(&mut self, loc: LocId) -> Sub {
        let r = self.lock_event(loc, LockOp::Read);
        let w = self.lock_event(loc, LockOp::Write);
        self.es.bind_ctrl(r, w)
    }

    /// A value computed by an operator: herd's symbolic comparison of
    /// addresses works, other arithmetic on an address does not.
    fn op(&self, op: BinOp, a: Value, b: Value) -> R<Value> {
        let addresses = is_address(a) || is_address(b);
        // An offset of 0 leaves the address as it is, as in herd.
        match op {
            BinOp::Add if is_address(a) && b == 0 => return Ok(a),
            BinOp::Add if is_address(b) && a == 0 => return Ok(b),
            BinOp::Sub if is_address(a) && b == 0 => return Ok(a),
            _ => {}
        }
        if addresses && !matches!(op, BinOp::Eq | BinOp::Ne) {
            return Err(Stop::Fail(FailureKind::BadPointer {
                thread: self.tid,
                line: self.line,
            }));
        }
        let e = crate::ir::Expr::Binary(
            op,
            Box::new(crate::ir::Expr::Const(a)),
            Box::new(crate::ir::Expr::Const(b)),
        );
        e.eval(&[]).map_err(|_| {
            Stop::Fail(FailureKind::DivisionByZeroAt {
                thread: self.tid,
                line: self.line,
            })
        })
    }

    fn atomic_apply(&self, op: AtomicOp, old: Value, v: Value) -> R<Value> {
        let bin = match op {
            AtomicOp::Add => BinOp::Add,
            AtomicOp::Sub => BinOp::Sub,
            AtomicOp::And => BinOp::BitAnd,
            AtomicOp::Or => BinOp::BitOr,
            AtomicOp::Xor => BinOp::BitXor,
            AtomicOp::AndNot => {
                if is_address(old) || is_address(v) {
                    return self.op(BinOp::Add, old, v);
                }
                return Ok(old & !v);
            }
        };
        self.op(bin, old, v)
    }

    // ---- Expressions (herd's build_semantics_expr) --------------------

    fn expr(&mut self, port: Port, e: &CExpr) -> R<(Value, Sub)> {
        match e {
            CExpr::Const(v) => Ok((*v, self.es.empty())),
            CExpr::Reg(r) => Ok(self.read_reg(port, *r)),
            CExpr::Load { addr, tags, deref } => {
                let (a, sa) = self.expr(port, addr)?;
                if *deref {
                    let (v, r) = self.read_mem(port, self.once, a, false)?;
                    let s = self.es.bind_data(sa, r);
                    let f = self.fence(self.rb_dep);
                    let s = self.es.bind_ctrl(s, f);
                    return Ok((v, s));
                }
                let (v, r) = self.read_mem(port, *tags, a, false)?;
                Ok((v, self.es.bind_data(sa, r)))
            }
            CExpr::Op(op, a, b) => {
                let (va, sa) = self.expr(port, a)?;
                let (vb, sb) = self.expr(port, b)?;
                let s = self.es.para(sa, sb);
                let v = self.op(*op, va, vb)?;
                let empty = self.es.empty();
                Ok((v, self.es.bind_data(s, empty)))
            }
            CExpr::TryLock(addr) => {
                let (a, sa) = self.expr(port, addr)?;
                let loc = self.write_location(a)?;
                let (v, s) = if self.choose(2) == 0 {
                    (1, self.linux_lock(loc))
                } else {
                    (0, self.lock_event(loc, LockOp::Fail))
                };
                Ok((v, self.es.bind_data(sa, s)))
            }
            CExpr::IsLocked(addr) => {
                let (a, sa) = self.expr(port, addr)?;
                let loc = self.write_location(a)?;
                let (v, s) = if self.choose(2) == 0 {
                    (1, self.lock_event(loc, LockOp::ReadLocked))
                } else {
                    (0, self.lock_event(loc, LockOp::ReadUnlocked))
                };
                Ok((v, self.es.bind_data(sa, s)))
            }
            CExpr::Xchg { addr, val, tags } => self.xchg(port, addr, val, *tags),
            CExpr::CmpXchg {
                addr,
                old,
                new,
                tags,
            } => self.cmpxchg(addr, old, new, *tags),
            CExpr::AtomicReturn {
                addr,
                op,
                val,
                tags,
                returns,
            } => self.atomic_return(addr, *op, val, *tags, *returns),
            CExpr::AddUnless {
                addr,
                add,
                unless,
                tags,
            } => self.add_unless(addr, add, unless, *tags),
            CExpr::C11Rmw { addr, op, val, rmw } => self.c11_rmw(port, addr, *op, val, *rmw),
            CExpr::C11Cas {
                obj,
                expected,
                desired,
                success,
                failure,
                strong,
            } => self.c11_cas(
                c11::Cas {
                    obj,
                    expected,
                    desired,
                    success: *success,
                    failure: *failure,
                },
                *strong,
            ),
            CExpr::Srcu { addr, tags } => {
                let (a, sa) = self.expr(Port::Addr, addr)?;
                let loc = self.write_location(a)?;
                let value = self
                    .is(*tags, "srcu-lock")
                    .then(|| (Value::from(self.tid.0) + 1) * 307 + Value::from(self.inst) * 599);
                let ev = self.ev(EvKind::Srcu { loc, value }, *tags, Port::No, false);
                let s = self.es.event(ev);
                Ok((value.unwrap_or(0), self.es.bind_data(sa, s)))
            }
        }
    }

    /// The annotations of a read-modify-write's read and write: its own
    /// under `lkmmv2`; under `lkmmv1`, `acquire` on the read only,
    /// `release` on the write only, `once` otherwise.
    fn rmw_tags(&self, tags: Tags) -> (Tags, Tags) {
        if self.c.lkmmv2 {
            return (tags, tags);
        }
        let r = if self.is(tags, "acquire") {
            tags
        } else {
            self.once
        };
        let w = if self.is(tags, "release") {
            tags
        } else {
            self.once
        };
        (r, w)
    }

    /// herd's `xchg`: `linux_exch` of the location and the value; under
    /// `lkmmv1` an `mb` one is bracketed by `mb` fences.
    fn xchg(&mut self, port: Port, addr: &CExpr, val: &CExpr, tags: Tags) -> R<(Value, Sub)> {
        let (ar, aw) = self.rmw_tags(tags);
        let fences = !self.c.lkmmv2 && self.is(tags, "mb");
        let before = fences.then(|| self.fence(tags));
        let (a, sloc) = self.expr(Port::Addr, addr)?;
        let (v, sval) = self.expr(Port::Data, val)?;
        let (old, rmem) = self.read_mem(port, ar, a, true)?;
        let wmem = self.write_mem(aw, a, v, true)?;
        let s = self.es.linux_exch(&sloc, &sval, &rmem, &wmem);
        Ok((old, self.bracket(before, s, fences, tags)))
    }

    /// Fences around a `lkmmv1` fully ordered operation (`>>*=`).
    fn bracket(&mut self, before: Option<Sub>, s: Sub, after: bool, tags: Tags) -> Sub {
        let s = match before {
            Some(f) => self.es.bind_ctrl(f, s),
            None => s,
        };
        if after {
            let f = self.fence(tags);
            self.es.bind_ctrl(s, f)
        } else {
            s
        }
    }

    /// herd's `CmpExchange`: success (the value read equals `old`, `new`
    /// written) or failure (a read alone), in that order.
    fn cmpxchg(&mut self, addr: &CExpr, old: &CExpr, new: &CExpr, tags: Tags) -> R<(Value, Sub)> {
        let v2 = self.c.lkmmv2;
        let is_mb = self.is(tags, "mb");
        let (arok, awok) = self.rmw_tags(tags);
        let arnok = if v2 { tags } else { self.once };
        if self.choose(2) == 0 {
            let before = (!v2 && is_mb).then(|| self.fence(self.mb));
            let (a, sloc) = self.expr(Port::Addr, addr)?;
            let (o, sold) = self.expr(Port::No, old)?;
            let (n, snew) = self.expr(Port::Data, new)?;
            let (w, rmem) = self.read_mem(Port::No, arok, a, true)?;
            if w != o {
                return Err(Stop::Discard);
            }
            let wmem = self.write_mem(awok, a, n, true)?;
            let s = self.es.cmpxchg_ok(&sloc, &sold, &snew, &rmem, &wmem);
            let after = before.is_some();
            let s = self.bracket(before, s, after, self.mb);
            Ok((w, s))
        } else {
            let (a, sloc) = self.expr(Port::Addr, addr)?;
            let (o, sold) = self.expr(Port::No, old)?;
            let (w, rmem) = self.read_mem(Port::Data, arnok, a, true)?;
            if w == o {
                return Err(Stop::Discard);
            }
            Ok((w, self.es.cmpxchg_no(&sloc, &sold, &rmem)))
        }
    }

    /// herd's `build_atomic_op`: `(v || (loc >>= read || loc)) >>== op
    /// >>= write`; returns the new or the old value.
    fn atomic_op(
        &mut self,
        addr: &CExpr,
        op: AtomicOp,
        val: &CExpr,
        ar: Tags,
        aw: Tags,
        returns: Returns,
    ) -> R<(Value, Sub)> {
        let (v, sv) = self.expr(Port::Data, val)?;
        let (a, sloc) = self.expr(Port::Addr, addr)?;
        let (old, r) = self.read_mem(Port::Data, ar, a, true)?;
        let empty = self.es.empty();
        let r = self.es.para(r, empty);
        let sr = self.es.bind_data(sloc, r);
        let first = self.es.para(sv, sr);
        let new = self.atomic_apply(op, old, v)?;
        let w = self.write_mem(aw, a, new, true)?;
        let s = self.es.bind_data_keep(first, w);
        Ok((
            match returns {
                Returns::New => new,
                Returns::Old => old,
            },
            s,
        ))
    }

    fn atomic_return(
        &mut self,
        addr: &CExpr,
        op: AtomicOp,
        val: &CExpr,
        tags: Tags,
        returns: Returns,
    ) -> R<(Value, Sub)> {
        if self.c.lkmmv2 {
            return self.atomic_op(addr, op, val, tags, tags, returns);
        }
        if self.is(tags, "mb") {
            let f = self.fence(self.mb);
            let (v, s) = self.atomic_op(addr, op, val, self.once, self.once, returns)?;
            let s = self.es.bind_ctrl(f, s);
            let f = self.fence(self.mb);
            return Ok((v, self.es.bind_ctrl(s, f)));
        }
        let (ar, aw) = self.rmw_tags(tags);
        self.atomic_op(addr, op, val, ar, aw, returns)
    }

    /// herd's `AtomicAddUnless`: success (the value read differs from
    /// `unless`: it adds) or failure (it equals it), in that order;
    /// returns whether it added.
    fn add_unless(
        &mut self,
        addr: &CExpr,
        add: &CExpr,
        unless: &CExpr,
        tags: Tags,
    ) -> R<(Value, Sub)> {
        let v2 = self.c.lkmmv2;
        let at = if v2 { tags } else { self.once };
        if self.choose(2) == 0 {
            let before = (!v2).then(|| self.fence(self.mb));
            let (a, sloc) = self.expr(Port::Addr, addr)?;
            let (x, sadd) = self.expr(Port::Addr, add)?;
            let (u, su) = self.expr(Port::No, unless)?;
            let (old, rmem) = self.read_mem(Port::No, at, a, true)?;
            if old == u {
                return Err(Stop::Discard);
            }
            let new = self.op(BinOp::Add, old, x)?;
            let wmem = self.write_mem(at, a, new, true)?;
            let s = self.es.add_unless_ok(&sloc, &sadd, &su, &rmem, &wmem);
            let after = before.is_some();
            let s = self.bracket(before, s, after, self.mb);
            Ok((1, s))
        } else {
            let (a, sloc) = self.expr(Port::Addr, addr)?;
            let (u, su) = self.expr(Port::No, unless)?;
            let (old, rmem) = self.read_mem(Port::No, at, a, true)?;
            if old != u {
                return Err(Stop::Discard);
            }
            Ok((0, self.es.add_unless_no(&sloc, &su, &rmem)))
        }
    }

    /// herd's `build_cond`: a comparison as is, anything else `!= 0`.
    fn cond(&mut self, c: &CExpr) -> R<(Value, Sub)> {
        match c {
            CExpr::Op(
                BinOp::Lt | BinOp::Gt | BinOp::Eq | BinOp::Ne | BinOp::Le | BinOp::Ge,
                _,
                _,
            ) => self.expr(Port::No, c),
            _ => {
                let (v, s) = self.expr(Port::No, c)?;
                let empty = self.es.empty();
                let s = self.es.bind_data(s, empty);
                Ok((Value::from(v != 0), s))
            }
        }
    }

    // ---- Statements (herd's build_semantics) --------------------------

    fn list(&mut self, body: &[CNode]) -> R<()> {
        for node in body {
            self.stmt(node)?;
        }
        Ok(())
    }

    fn stmt(&mut self, node: &CNode) -> R<()> {
        self.inst += 1;
        self.line = node.line;
        self.node = node as *const CNode as usize;
        self.writes_in_node = 0;
        match &node.stmt {
            CStmt::Block(body) => self.list(body),
            CStmt::If {
                cond,
                then,
                otherwise,
            } => {
                let (v, sc) = self.cond(cond)?;
                let start = self.es.empty();
                // herd runs a branch at the next index (its `ii'`); an
                // absent `else` adds nothing.
                let branch = if v != 0 {
                    Some(then)
                } else {
                    otherwise.as_ref()
                };
                if let Some(b) = branch {
                    self.inst += 1;
                    self.stmt(b)?;
                }
                let branch = Sub {
                    start: start.start,
                    end: self.es.ev.len() as u32,
                    ..Sub::default()
                };
                self.es.cond(&sc, &branch);
                Ok(())
            }
            CStmt::While { cond, body } => {
                // A loop's writes are no tracked writers: a statement in
                // it may run several times.
                self.loops += 1;
                let run = self.while_loop(node, cond, body, 0);
                self.loops -= 1;
                run
            }
            CStmt::Eval { dst, e } => {
                let (v, s) = self.expr(Port::No, e)?;
                if let Some(r) = dst {
                    let w = self.write_reg(*r, v);
                    self.es.bind_data(s, w);
                }
                Ok(())
            }
            CStmt::Store { addr, val, tags } => {
                let (a, sa) = self.expr(Port::Addr, addr)?;
                let (v, sv) = self.expr(Port::Data, val)?;
                let s = self.es.para(sa, sv);
                let w = self.write_mem(*tags, a, v, false)?;
                self.es.bind_data(s, w);
                Ok(())
            }
            CStmt::Fence { tags } => {
                self.fence(*tags);
                Ok(())
            }
            CStmt::Lock(addr) => {
                let (a, sa) = self.expr(Port::Addr, addr)?;
                let loc = self.write_location(a)?;
                let l = self.linux_lock(loc);
                self.es.bind_data(sa, l);
                Ok(())
            }
            CStmt::Unlock(addr) => {
                let (a, sa) = self.expr(Port::Addr, addr)?;
                let loc = self.write_location(a)?;
                let u = self.lock_event(loc, LockOp::Unlock);
                self.es.bind_data(sa, u);
                Ok(())
            }
            CStmt::AtomicOp {
                addr,
                op,
                val,
                tags,
            } => {
                let (ar, aw) = if self.c.lkmmv2 {
                    (*tags, *tags)
                } else {
                    (self.noreturn, self.once)
                };
                self.atomic_op(addr, *op, val, ar, aw, Returns::New)?;
                Ok(())
            }
            CStmt::Srcu { addr, tags, val } => {
                let (a, sa) = self.expr(Port::No, addr)?;
                let (value, sv) = match val {
                    Some(e) => {
                        let (v, s) = self.expr(Port::Addr, e)?;
                        (Some(v), s)
                    }
                    None => (None, self.es.empty()),
                };
                let s = self.es.para(sa, sv);
                let loc = self.write_location(a)?;
                let ev = self.ev(EvKind::Srcu { loc, value }, *tags, Port::No, false);
                let e = self.es.event(ev);
                self.es.bind_data(s, e);
                Ok(())
            }
        }
    }

    /// herd's `While(c, body, n)`: the condition, then the body and the
    /// next iteration under its control, cut off after `unroll`
    /// iterations.
    fn while_loop(&mut self, node: &CNode, cond: &CExpr, body: &CNode, n: u32) -> R<()> {
        self.line = node.line;
        let (v, sc) = self.cond(cond)?;
        if v == 0 {
            return Ok(());
        }
        if n >= self.c.unroll {
            return Err(Stop::Cut);
        }
        let start = self.es.empty();
        self.stmt(body)?;
        self.inst += 1;
        let result = self.while_loop(node, cond, body, n + 1);
        let branch = Sub {
            start: start.start,
            end: self.es.ev.len() as u32,
            ..Sub::default()
        };
        self.es.cond(&sc, &branch);
        result
    }
}
