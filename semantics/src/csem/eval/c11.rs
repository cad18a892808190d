//! C11's read-modify-writes in herd7's C semantics (herdtools7's
//! `CSem.ml`, `Fetch`, `Exchange` and `ECas`): herd makes a fetch
//! operation, an exchange and a successful compare-exchange one event in
//! `R` and `W` with the operation's order; here it is a read and a write
//! (one after the other, [`super::super::es::ThreadEs::one_event`])
//! annotated with the halves of the order, which the cat machine joins
//! back into one event for a C model that never reads `rmw`
//! (book: cat.md, One event per read-modify-write).
//!
//! A compare-exchange reads `*expected` (a plain read), then, under its
//! control, takes one of herd's two alternatives: a failure, which reads
//! the object with the failure order and writes the value read back to
//! `*expected` (a plain write, under the read's control), returning 0;
//! or a success, one read-modify-write of the object reading the expected
//! value and writing the desired one, returning 1. A strong
//! compare-exchange fails only when the value read is not the expected
//! one; a weak one may fail whatever it reads.

use crate::ir::Value;

use super::super::es::{EvKind, Port, Sub};
use super::super::ir::{AtomicOp, CExpr, Rmw, Tags};
use super::{Run, Stop, R};

/// The operands of a compare-exchange.
pub(super) struct Cas<'e> {
    pub obj: &'e CExpr,
    pub expected: &'e CExpr,
    pub desired: &'e CExpr,
    pub success: Rmw,
    pub failure: Tags,
}

impl Run<'_> {
    /// herd's `Fetch` (`op`: `Some`) and `Exchange`: `(val || addr) >>=
    /// RMW`; returns the value read. An exchange's event takes the port of
    /// the expression it is in (herd's `read_exchange port`), a fetch's
    /// none.
    pub(super) fn c11_rmw(
        &mut self,
        port: Port,
        addr: &CExpr,
        op: Option<AtomicOp>,
        val: &CExpr,
        rmw: Rmw,
    ) -> R<(Value, Sub)> {
        let (v, sv) = self.expr(Port::Data, val)?;
        let (a, sloc) = self.expr(Port::Addr, addr)?;
        let operands = self.es.para(sv, sloc);
        let port = if op.is_some() { Port::No } else { port };
        let (old, r) = self.read_mem(port, rmw.read, a, true)?;
        let new = match op {
            Some(op) => self.atomic_apply(op, old, v)?,
            None => v,
        };
        let w = self.write_mem(rmw.write, a, new, true)?;
        let e = self.es.one_event(r, w, op.is_some());
        Ok((old, self.es.bind_data(operands, e)))
    }

    /// herd's `ECas`: `expected >>= obj >>= read *expected >>*= (failure
    /// | success)` (see the module docs).
    pub(super) fn c11_cas(&mut self, c: Cas<'_>, strong: bool) -> R<(Value, Sub)> {
        let (le, sexp) = self.expr(Port::Addr, c.expected)?;
        let (lo, sobj) = self.expr(Port::Addr, c.obj)?;
        let (expected, rexp) = self.read_mem(Port::No, 0, le, false)?;
        let (result, alternative) = if self.choose(2) == 0 {
            let (read, robj) = self.read_mem(Port::Data, c.failure, lo, false)?;
            if strong && read == expected {
                return Err(Stop::Discard);
            }
            let back = self.write_mem(0, le, read, false)?;
            (0, self.es.bind_ctrl(robj, back))
        } else {
            let (desired, sdes) = self.expr(Port::No, c.desired)?;
            let r = self.read_known(c.success.read, lo, expected)?;
            let w = self.write_mem(c.success.write, lo, desired, true)?;
            let e = self.es.one_event(r, w, false);
            (1, self.es.bind_data(sdes, e))
        };
        let s = self.es.bind_ctrl(rexp, alternative);
        let s = self.es.bind_data(sobj, s);
        Ok((result, self.es.bind_data(sexp, s)))
    }

    /// The read of a read-modify-write whose value is fixed (the expected
    /// value of a successful compare-exchange): no choice is made, and
    /// the path exists only if the location's value domain has the value.
    fn read_known(&mut self, tags: Tags, a: Value, value: Value) -> R<Sub> {
        let loc = self.read_location(a)?;
        // The writers every justification of the value shares.
        let mut mask = None;
        for &(v, m) in &self.domains[loc.index()] {
            if v == value {
                mask = Some(mask.unwrap_or(u64::MAX) & m);
            }
        }
        let Some(mask) = mask else {
            return Err(Stop::Discard);
        };
        self.dep |= mask;
        let ev = self.ev(EvKind::Read { loc, value }, tags, Port::No, true);
        Ok(self.es.event(ev))
    }
}
