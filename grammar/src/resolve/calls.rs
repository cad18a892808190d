//! The operations written as calls (`load(x, acq)`, `fetch_add`, `rmw`,
//! `cas`, `fence`, `assert`, `join`, ...) and the names they take:
//! operation names, memory orders, fence kinds and RMW operators, each
//! resolved with "did you mean" for misspellings, and argument counts
//! checked; and the verdicts of expectations.
//!
//! book: language.md, Read-modify-writes and compare-and-swap

use std::borrow::Cow;

use relaxlab_semantics::ir::{HwFence, RmwOp, Span, Verdict};

use crate::ast::{
    ExpectEntry, Expr, ExprKind, FenceArg, Ident, MemOrder, Order, RmwForm, Stmt, StmtKind, Trivia,
};
use crate::diag::{did_you_mean, sspan, Error, SyntaxError};

/// The operations written as calls, with their canonical names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Load,
    Store,
    Fetch(RmwOp),
    Rmw,
    Cas { weak: bool },
    Fence,
    Assert,
    Assume,
    Join,
}

/// Every spelling of every operation, aliases included.
const OPS: &[(&str, Op)] = &[
    ("load", Op::Load),
    ("Load", Op::Load),
    ("store", Op::Store),
    ("Store", Op::Store),
    ("fetch_add", Op::Fetch(RmwOp::Add)),
    ("fetch_sub", Op::Fetch(RmwOp::Sub)),
    ("fetch_and", Op::Fetch(RmwOp::And)),
    ("fetch_or", Op::Fetch(RmwOp::Or)),
    ("fetch_xor", Op::Fetch(RmwOp::Xor)),
    ("fetch_max", Op::Fetch(RmwOp::Max)),
    ("fetch_min", Op::Fetch(RmwOp::Min)),
    ("exchange", Op::Fetch(RmwOp::Xchg)),
    ("rmw", Op::Rmw),
    ("RMW", Op::Rmw),
    ("cas", Op::Cas { weak: false }),
    ("cas_weak", Op::Cas { weak: true }),
    ("fence", Op::Fence),
    ("Fence", Op::Fence),
    ("assert", Op::Assert),
    ("assume", Op::Assume),
    ("join", Op::Join),
    ("Join", Op::Join),
];

/// Every spelling of every memory order (book: language.md, Memory orders).
pub(crate) const ORDERS: &[(&str, MemOrder)] = &[
    ("na", MemOrder::Na),
    ("rlx", MemOrder::Rlx),
    ("relaxed", MemOrder::Rlx),
    ("memory_order_relaxed", MemOrder::Rlx),
    ("acq", MemOrder::Acq),
    ("acquire", MemOrder::Acq),
    ("memory_order_acquire", MemOrder::Acq),
    ("rel", MemOrder::Rel),
    ("release", MemOrder::Rel),
    ("memory_order_release", MemOrder::Rel),
    ("acq_rel", MemOrder::AcqRel),
    ("rel_acq", MemOrder::AcqRel),
    ("memory_order_acq_rel", MemOrder::AcqRel),
    ("sc", MemOrder::Sc),
    ("seq_cst", MemOrder::Sc),
    ("memory_order_seq_cst", MemOrder::Sc),
];

/// The hardware barriers; `mfence` is `full`.
pub(crate) const HW_FENCES: &[(&str, HwFence)] = &[
    ("ss", HwFence::SS),
    ("sl", HwFence::SL),
    ("ll", HwFence::LL),
    ("ls", HwFence::LS),
    ("full", HwFence::Full),
    ("mfence", HwFence::Full),
];

/// The operators of `rmw(x, OP, E, MO)`.
pub(crate) const RMW_OPS: &[(&str, RmwOp)] = &[
    ("add", RmwOp::Add),
    ("sub", RmwOp::Sub),
    ("and", RmwOp::And),
    ("or", RmwOp::Or),
    ("xor", RmwOp::Xor),
    ("max", RmwOp::Max),
    ("min", RmwOp::Min),
    ("xchg", RmwOp::Xchg),
];

const VERDICTS: &[(&str, Verdict)] = &[
    ("never", Verdict::Never),
    ("sometimes", Verdict::Sometimes),
    ("always", Verdict::Always),
];

/// Looks `ident` up in `table`, or records "unknown WHAT" with a suggestion.
fn lookup<T: Copy>(
    errors: &mut Vec<Error>,
    what: &'static str,
    table: &[(&'static str, T)],
    ident: &Ident,
) -> Option<T> {
    if let Some(&(_, v)) = table.iter().find(|(n, _)| *n == ident.name) {
        return Some(v);
    }
    let help = did_you_mean(&ident.name, table.iter().map(|(n, _)| *n), || {
        let names: Vec<&str> = table.iter().map(|(n, _)| *n).take(8).collect();
        format!("expected one of {}", names.join(", "))
    });
    errors.push(
        SyntaxError::UnknownName {
            what,
            name: ident.name.clone(),
            span: sspan(ident.span),
            help,
        }
        .into(),
    );
    None
}

/// An argument that must be a bare name (a location, an order, ...).
fn name_arg(errors: &mut Vec<Error>, what: &str, op: &str, e: Expr) -> Option<Ident> {
    match e.kind {
        ExprKind::Var(i) => Some(i),
        _ => {
            errors.push(
                SyntaxError::ExpectedName {
                    what: what.to_string(),
                    span: sspan(e.span),
                    help: format!("`{op}` takes {what} here, not an expression"),
                }
                .into(),
            );
            None
        }
    }
}

fn order_arg(errors: &mut Vec<Error>, op: &str, e: Expr) -> Option<Order> {
    let ident = name_arg(errors, "a memory order", op, e)?;
    let order = lookup(errors, "memory order", ORDERS, &ident)?;
    let written = ORDERS
        .iter()
        .find(|(name, _)| *name == ident.name)
        .map_or(order.as_str(), |(name, _)| name);
    Some(Order {
        order,
        span: ident.span,
        written,
    })
}

/// The signature of an operation: how many arguments, whether it assigns
/// a register.
fn signature(op: Op) -> (&'static [usize], bool, &'static str) {
    match op {
        Op::Load => (&[2], true, "r = load(x, MO)"),
        Op::Store => (&[3], false, "store(x, E, MO)"),
        Op::Fetch(_) => (&[3], true, "r = fetch_add(x, E, MO)"),
        Op::Rmw => (&[4], true, "r = rmw(x, OP, E, MO)"),
        Op::Cas { weak: false } => (
            &[4, 5],
            true,
            "r [, ok] = cas(x, E_expected, E_desired, MO [, MO_fail])",
        ),
        Op::Cas { weak: true } => (
            &[4, 5],
            true,
            "r [, ok] = cas_weak(x, E_expected, E_desired, MO [, MO_fail])",
        ),
        Op::Fence => (&[1], false, "fence(K)"),
        Op::Assert => (&[1], false, "assert(E)"),
        Op::Assume => (&[1], false, "assume(E)"),
        Op::Join => (&[1], false, "join(t)"),
    }
}

/// The name of an operation as written.
struct OpName<'a> {
    name: &'a str,
    span: Span,
}

/// A call-shaped statement `[dst =] op(args);`: checks the operation, its
/// arity and whether it assigns, then builds the statement.
pub(crate) fn call(
    errors: &mut Vec<Error>,
    dst: Option<Ident>,
    ok_flag: Option<Ident>,
    op: (&str, Span),
    args: Vec<Expr>,
    span: Span,
) -> Option<Stmt> {
    // The operation's name is looked up, not kept: no `Ident` for it.
    let op = OpName {
        name: op.0,
        span: op.1,
    };
    let Some(&(_, kind)) = OPS.iter().find(|(n, _)| *n == op.name) else {
        let help = did_you_mean(op.name, OPS.iter().map(|(n, _)| *n), || {
            "operations are load, store, fetch_add, ..., exchange, rmw, cas, cas_weak, fence, assert, assume, join".to_string()
        });
        errors.push(
            SyntaxError::UnknownOperation {
                name: op.name.to_string(),
                span: sspan(op.span),
                help,
            }
            .into(),
        );
        return None;
    };
    // Aliases differ from the canonical name only in case (`Load`, `RMW`).
    let canonical: Cow<str> = if op.name.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(op.name.to_ascii_lowercase())
    } else {
        Cow::Borrowed(op.name)
    };
    let (arities, assigns, usage) = signature(kind);
    let mut ok = true;
    if !arities.contains(&args.len()) {
        let expected = match arities {
            [1] => "1 argument".to_string(),
            [n] => format!("{n} arguments"),
            _ => format!("{} or {} arguments", arities[0], arities[arities.len() - 1]),
        };
        errors.push(
            SyntaxError::ArgumentCount {
                op: canonical.to_string(),
                expected,
                found: args.len(),
                span: sspan(span),
                help: format!("write `{usage};`"),
            }
            .into(),
        );
        ok = false;
    }
    match (&dst, assigns) {
        (None, true) => {
            errors.push(
                SyntaxError::MissingResult {
                    op: canonical.to_string(),
                    span: sspan(op.span),
                    help: format!("write `{usage};`"),
                }
                .into(),
            );
            ok = false;
        }
        (Some(d), false) => {
            errors.push(
                SyntaxError::UnexpectedResult {
                    op: canonical.to_string(),
                    span: sspan(d.span),
                    dst: d.name.clone(),
                    help: format!("write `{usage};` without `{} =`", d.name),
                }
                .into(),
            );
            ok = false;
        }
        _ => {}
    }
    if let Some(flag) = &ok_flag {
        let problem = match (kind, &dst) {
            (Op::Cas { .. }, Some(d)) if d.name == flag.name => Some((
                "the value read and the success flag need two registers",
                format!(
                    "write `{}, ok = {canonical}(...);` with another register for the flag",
                    d.name
                ),
            )),
            (Op::Cas { .. }, _) => None,
            _ => Some((
                "only `cas` and `cas_weak` return a success flag",
                format!("write `{usage};`"),
            )),
        };
        if let Some((label, help)) = problem {
            errors.push(
                SyntaxError::SecondResult {
                    op: canonical.to_string(),
                    span: sspan(flag.span),
                    label,
                    help,
                }
                .into(),
            );
            ok = false;
        }
    }
    if !ok {
        return None;
    }
    let kind = build(errors, kind, &canonical, dst, ok_flag, args)?;
    Some(Stmt::new(kind, span))
}

/// Builds the statement of a call whose arity and result were checked.
fn build(
    errors: &mut Vec<Error>,
    kind: Op,
    op: &str,
    dst: Option<Ident>,
    ok: Option<Ident>,
    args: Vec<Expr>,
) -> Option<StmtKind> {
    let mut args = args.into_iter();
    let mut next = || {
        args.next()
            .expect("relaxlab internal error: arity checked before building")
    };
    Some(match kind {
        Op::Load => {
            let loc = name_arg(errors, "a location name", op, next());
            let ord = order_arg(errors, op, next());
            StmtKind::Load {
                dst: dst?,
                loc: loc?,
                ord: ord?,
            }
        }
        Op::Store => {
            let loc = name_arg(errors, "a location name", op, next());
            let val = next();
            let ord = order_arg(errors, op, next());
            StmtKind::Store {
                loc: loc?,
                val,
                ord: ord?,
            }
        }
        Op::Fetch(rmw) => {
            let loc = name_arg(errors, "a location name", op, next());
            let operand = next();
            let ord = order_arg(errors, op, next());
            StmtKind::Rmw {
                dst: dst?,
                loc: loc?,
                op: rmw,
                form: RmwForm::Named,
                operand,
                ord: ord?,
            }
        }
        Op::Rmw => {
            let loc = name_arg(errors, "a location name", op, next());
            let rmw = name_arg(errors, "an RMW operator", op, next())
                .and_then(|i| lookup(errors, "RMW operator", RMW_OPS, &i));
            let operand = next();
            let ord = order_arg(errors, op, next());
            StmtKind::Rmw {
                dst: dst?,
                loc: loc?,
                op: rmw?,
                form: RmwForm::Generic,
                operand,
                ord: ord?,
            }
        }
        Op::Cas { weak } => {
            let loc = name_arg(errors, "a location name", op, next());
            let expected = next();
            let desired = next();
            let ord = order_arg(errors, op, next());
            let fail = args.next().map(|e| order_arg(errors, op, e));
            StmtKind::Cas {
                dst: dst?,
                ok,
                weak,
                loc: loc?,
                expected,
                desired,
                ord: ord?,
                fail: match fail {
                    None => None,
                    Some(f) => Some(f?),
                },
            }
        }
        Op::Fence => {
            let ident = name_arg(errors, "a fence kind", op, next())?;
            fence_kind(errors, &ident)?
        }
        Op::Assert => StmtKind::Assert(next()),
        Op::Assume => StmtKind::Assume(next()),
        Op::Join => StmtKind::Join(name_arg(errors, "a register", op, next())?),
    })
}

/// `fence(K)`: a C11 order or a hardware barrier. `na`/`rlx` are accepted
/// here as orders and rejected by lowering, which explains why.
fn fence_kind(errors: &mut Vec<Error>, ident: &Ident) -> Option<StmtKind> {
    let kind_span = ident.span;
    if let Some(&(_, hw)) = HW_FENCES.iter().find(|(n, _)| *n == ident.name) {
        return Some(StmtKind::Fence {
            kind: FenceArg::Hw(hw),
            kind_span,
        });
    }
    if let Some(&(_, o)) = ORDERS.iter().find(|(n, _)| *n == ident.name) {
        return Some(StmtKind::Fence {
            kind: FenceArg::C11(o),
            kind_span,
        });
    }
    let names = [
        "acq", "rel", "acq_rel", "sc", "ss", "sl", "ll", "ls", "full", "mfence",
    ];
    let help = did_you_mean(&ident.name, names, || {
        "fences are acq, rel, acq_rel, sc (C11) or ss, sl, ll, ls, full (hardware)".to_string()
    });
    errors.push(
        SyntaxError::UnknownName {
            what: "fence kind",
            name: ident.name.clone(),
            span: sspan(ident.span),
            help,
        }
        .into(),
    );
    None
}

/// `KEY: VERDICT`: the verdict is resolved here, the key by lowering.
pub(crate) fn expect_entry(
    errors: &mut Vec<Error>,
    key: Ident,
    verdict: Ident,
    span: Span,
) -> Option<ExpectEntry> {
    let v = lookup(errors, "verdict", VERDICTS, &verdict)?;
    Some(ExpectEntry {
        key,
        verdict: v,
        verdict_span: verdict.span,
        span,
        trivia: Trivia::default(),
    })
}
