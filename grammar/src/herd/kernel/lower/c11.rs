//! C11's annotations in herd's C semantics: the memory order of a load,
//! a store or a fence (the event's one annotation, from which herd's C11
//! models read its order), and C11's read-modify-writes: fetch
//! operations, exchanges and compare-exchanges (herdtools7's `CSem.ml`,
//! `Fetch`, `Exchange` and `ECas`). herd7 makes a C11 read-modify-write one
//! event with the operation's order; here it is a read and a write joined
//! by `rmw`, annotated with the halves of the order, which the cat
//! machine joins back for a C model that never reads `rmw`
//! (book: cat.md, One event per read-modify-write).
//!
//! A test read with a macro file (the Linux kernel's) refuses them all:
//! only a plain C test's reading for herd's C cat models takes them
//! ([`super::Semantics::c11`]).

use relaxlab_semantics::csem::{AtomicOp, CExpr, Rmw};
use relaxlab_semantics::ir::Span;

use super::{lower_expr, semantics_error, Lowerer, ThreadScope, R};
use crate::herd::error::HerdError;
use crate::herd::kernel::ast::{Ann, Expr};

pub(super) fn c11_refused(span: Span) -> HerdError {
    semantics_error(
        "C11 atomics in a test run in herd's C semantics",
        span,
        "a C11 access",
        "relaxlab runs C11 tests through its own instructions and kernel tests in herd's C semantics; this test mixes both",
    )
}

/// A tag list (no C11 order).
pub(super) fn tag_list(ann: &Ann, span: Span) -> R<&[String]> {
    match ann {
        Ann::Plain => Ok(&[]),
        Ann::Tags(t) => Ok(t),
        Ann::Mo(_) => Err(c11_refused(span)),
    }
}

/// The annotation of a C11 load, store or fence, or a tag list: the
/// `memory_order_*` name is the event's one annotation, from which herd's
/// C11 models read its order ([`relaxlab_semantics::csem::CProgram::mode_of`]).
pub(super) fn access_tags<'a>(l: &Lowerer<'_>, ann: &'a Ann, span: Span) -> R<&'a [String]> {
    match ann {
        Ann::Plain => Ok(&[]),
        Ann::Tags(t) => Ok(t),
        Ann::Mo(_) if !l.c11 => Err(c11_refused(span)),
        Ann::Mo(mo) if mo == "memory_order_consume" => Err(HerdError::unsupported(
            "`memory_order_consume`",
            span,
            "relaxlab has no consume; compilers treat it as memory_order_acquire: write that",
        )),
        Ann::Mo(mo) if C11_ORDERS.contains(&mo.as_str()) => Ok(std::slice::from_ref(mo)),
        Ann::Mo(mo) => Err(semantics_error(
            format!("the memory order `{mo}`"),
            span,
            "not a C11 memory order",
            "write memory_order_relaxed, _acquire, _release, _acq_rel or _seq_cst",
        )),
    }
}

/// The C11 memory orders herd's C semantics reads ([`relaxlab_semantics::csem::CProgram::mode_of`]).
const C11_ORDERS: [&str; 5] = [
    "memory_order_relaxed",
    "memory_order_acquire",
    "memory_order_release",
    "memory_order_acq_rel",
    "memory_order_seq_cst",
];

/// The annotations of the read and of the write standing for a C11
/// read-modify-write of order `mo`: an acquire order goes to the read, a
/// release order to the write, `seq_cst` to both.
fn halves(l: &mut Lowerer<'_>, mo: &str, span: Span) -> R<Rmw> {
    let ann = Ann::Mo(mo.to_string());
    access_tags(l, &ann, span)?;
    let (read, write) = match mo {
        "memory_order_acquire" => ("memory_order_acquire", "memory_order_relaxed"),
        "memory_order_release" => ("memory_order_relaxed", "memory_order_release"),
        "memory_order_acq_rel" => ("memory_order_acquire", "memory_order_release"),
        other => (other, other),
    };
    Ok(Rmw {
        read: l.tags(&[read.to_string()], span)?,
        write: l.tags(&[write.to_string()], span)?,
    })
}

/// The annotation of a C11 order alone (a compare-exchange's failure).
fn order(l: &mut Lowerer<'_>, mo: &str, span: Span) -> R<u64> {
    let ann = Ann::Mo(mo.to_string());
    let names = access_tags(l, &ann, span)?.to_vec();
    l.tags(&names, span)
}

/// `atomic_fetch_OP_explicit(addr, val, mo)` (`op`: `Some`) or
/// `atomic_exchange_explicit(addr, val, mo)`.
pub(super) fn rmw(
    l: &mut Lowerer<'_>,
    s: &mut ThreadScope,
    addr: &Expr,
    op: Option<AtomicOp>,
    val: &Expr,
    mo: &str,
    span: Span,
) -> R<CExpr> {
    Ok(CExpr::C11Rmw {
        addr: Box::new(s.pointer(l, addr)?),
        op,
        val: Box::new(lower_expr(l, s, val)?),
        rmw: halves(l, mo, span)?,
    })
}

/// The operands of a compare-exchange.
pub(super) struct Cas<'e> {
    pub obj: &'e Expr,
    pub expected: &'e Expr,
    pub desired: &'e Expr,
    pub success: &'e str,
    pub failure: &'e str,
    pub strong: bool,
}

/// `atomic_compare_exchange_{strong,weak}_explicit(obj, expected, desired,
/// success, failure)`.
pub(super) fn cas(l: &mut Lowerer<'_>, s: &mut ThreadScope, c: Cas<'_>, span: Span) -> R<CExpr> {
    Ok(CExpr::C11Cas {
        obj: Box::new(s.pointer(l, c.obj)?),
        expected: Box::new(s.pointer(l, c.expected)?),
        desired: Box::new(lower_expr(l, s, c.desired)?),
        success: halves(l, c.success, span)?,
        failure: order(l, c.failure, span)?,
        strong: c.strong,
    })
}
