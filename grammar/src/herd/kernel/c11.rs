//! C11's read-modify-writes in herd's C semantics, as herd7's C parser
//! reads them (herdtools7's `CParser.mly`, and its `c11.def` for the forms
//! without `_explicit`): `atomic_fetch_OP[_explicit]` (herd's `Fetch`),
//! `atomic_exchange[_explicit]` (`Exchange`) and
//! `atomic_compare_exchange_{strong,weak}[_explicit]` with herd's `SCAS`
//! and `WCAS` (`ECas`). A form without `_explicit` is `seq_cst`, its
//! compare-exchange `seq_cst` on success and on failure.
//! (book: herd.md, Unsequenced operands.)
//!
//! They are calls until the macros are expanded: a macro file may define
//! the same names (the Linux kernel's `atomic_fetch_add(V,X)`), and a
//! macro wins, as in herd7.

use relaxlab_semantics::ir::Span;

use super::ast::{AOp, Expr};
use super::parse::{bad_arity, order_name};
use crate::herd::error::HerdError;

/// Is `f` one of C11's read-modify-writes (a name herd's C semantics
/// reads when no macro of that name is defined)?
pub(crate) fn is_c11_rmw(f: &str) -> bool {
    f.starts_with("atomic_exchange")
        || f.starts_with("atomic_fetch_")
        || f.starts_with("atomic_compare_exchange")
        || matches!(f, "WCAS" | "SCAS")
}

/// The operation of `atomic_fetch_OP`.
fn fetch_op(op: &str) -> Option<AOp> {
    Some(match op {
        "add" => AOp::Add,
        "sub" => AOp::Sub,
        "or" => AOp::Or,
        "xor" => AOp::Xor,
        "and" => AOp::And,
        _ => return None,
    })
}

const SEQ_CST: &str = "memory_order_seq_cst";

/// The expression of the call `f(args)`, `f` being [`is_c11_rmw`] (its
/// arguments expanded).
pub(crate) fn rmw_call(f: &str, mut args: Vec<Expr>, span: Span) -> Result<Expr, HerdError> {
    let (base, explicit) = match f.strip_suffix("_explicit") {
        Some(b) => (b, true),
        None => (f, false),
    };
    let cas = match base {
        "atomic_compare_exchange_strong" | "SCAS" => Some(true),
        "atomic_compare_exchange_weak" | "WCAS" => Some(false),
        _ => None,
    };
    let orders = match (cas.is_some(), explicit) {
        (_, false) => 0,
        (false, true) => 1,
        (true, true) => 2,
    };
    let operands = if cas.is_some() { 3 } else { 2 };
    let op = base.strip_prefix("atomic_fetch_").map(fetch_op);
    if cas.is_none() && base != "atomic_exchange" && !matches!(op, Some(Some(_))) {
        return Ok(Expr::Unsupported(
            "this C11 read-modify-write (herd7 reads atomic_fetch_add, _sub, _or, _xor, _and, atomic_exchange and atomic_compare_exchange_strong, _weak)",
            span,
        ));
    }
    if args.len() != operands + orders {
        return Err(bad_arity(
            f,
            &(operands + orders).to_string(),
            args.len(),
            span,
        ));
    }
    let mut mos = Vec::new();
    for a in args.drain(operands..) {
        mos.push(order_name(&a, span)?);
    }
    let mo = |i: usize| mos.get(i).cloned().unwrap_or_else(|| SEQ_CST.to_string());
    let mut it = args.into_iter().map(Box::new);
    let (Some(a), Some(b)) = (it.next(), it.next()) else {
        unreachable!("the arity is checked")
    };
    Ok(match cas {
        Some(strong) => Expr::C11Cas {
            obj: a,
            expected: b,
            desired: it.next().expect("the arity is checked"),
            success: mo(0),
            failure: mo(1),
            strong,
            span,
        },
        None => Expr::C11Rmw {
            addr: a,
            op: op.flatten(),
            val: b,
            mo: mo(0),
            span,
        },
    })
}
