//! The text of statements, expressions and propositions, on one line.
//!
//! Keywords, operations and orders are printed in their lowercase short
//! form (`Load` becomes `load`, `relaxed` becomes `rlx`, `mfence` becomes
//! `full`, `[x]` becomes `x`). Parentheses are printed where precedence
//! needs them, and around a conjunction inside a disjunction (`(a && b) ||
//! c`, `(a /\ b) \/ c`), which C compilers warn about and readers stumble
//! on; no others.
//!
//! [`stmt_text`] gives the one-line text of a statement that
//! `Instruction::text` carries (`r0 = load(y, rlx)`, `if (r0 == 1)`).
//!
//! Chains of binary operators and of `/\`, `\/` are printed by a loop; the
//! recursion follows only what nests (bounded by the parser).

use std::fmt::Write;

use relaxlab_semantics::ir::{BinOp, CmpOp, HwFence, RmwOp, UnOp};

use crate::ast::{
    Condition, Expr, ExprKind, FenceArg, ObsItem, Prop, PropKind, Quantifier, RmwForm, Stmt,
    StmtKind, ThreadRef,
};

/// The one-line text of a statement: without its `;`, and for compound
/// statements only the head (`if (r0 == 1)`, `while (r0 == 0)`,
/// `t = fork W`).
pub(crate) fn stmt_text(s: &Stmt) -> String {
    // Written piece by piece into one buffer: lowering calls this for every
    // statement, and `format!` with nested temporary strings dominated it.
    let mut out = String::with_capacity(32);
    let o = &mut out;
    match &s.kind {
        StmtKind::Load { dst, loc, ord } => {
            push_all(o, &[&dst.name, " = load(", &loc.name, ", "]);
            push_all(o, &[ord.order.as_str(), ")"]);
        }
        StmtKind::Store { loc, val, ord } => {
            push_all(o, &["store(", &loc.name, ", "]);
            expr(o, val, TOP);
            push_all(o, &[", ", ord.order.as_str(), ")"]);
        }
        StmtKind::Rmw {
            dst,
            loc,
            op,
            form,
            operand,
            ord,
        } => {
            match form {
                RmwForm::Named => {
                    push_all(
                        o,
                        &[&dst.name, " = ", fetch_name(*op), "(", &loc.name, ", "],
                    );
                }
                RmwForm::Generic => {
                    push_all(o, &[&dst.name, " = rmw(", &loc.name, ", "]);
                    push_all(o, &[rmw_op_name(*op), ", "]);
                }
            }
            expr(o, operand, TOP);
            push_all(o, &[", ", ord.order.as_str(), ")"]);
        }
        StmtKind::Cas {
            dst,
            ok,
            loc,
            expected,
            desired,
            ord,
            fail,
            weak,
        } => {
            o.push_str(&dst.name);
            if let Some(ok) = ok {
                push_all(o, &[", ", &ok.name]);
            }
            let op = if *weak { " = cas_weak(" } else { " = cas(" };
            push_all(o, &[op, &loc.name, ", "]);
            expr(o, expected, TOP);
            o.push_str(", ");
            expr(o, desired, TOP);
            push_all(o, &[", ", ord.order.as_str()]);
            if let Some(f) = fail {
                push_all(o, &[", ", f.order.as_str()]);
            }
            o.push(')');
        }
        StmtKind::Fence { kind, .. } => push_all(o, &["fence(", fence_name(*kind), ")"]),
        StmtKind::Assign { dst, val } => {
            push_all(o, &[&dst.name, " = "]);
            expr(o, val, TOP);
        }
        StmtKind::If { cond, .. } => wrapped(o, "if (", cond),
        StmtKind::While { cond, .. } => wrapped(o, "while (", cond),
        StmtKind::Assert(e) => wrapped(o, "assert(", e),
        StmtKind::Assume(e) => wrapped(o, "assume(", e),
        StmtKind::Fork { dst, name, .. } => push_all(o, &[&dst.name, " = fork ", &name.name]),
        StmtKind::Join(h) => push_all(o, &["join(", &h.name, ")"]),
    }
    out
}

/// Appends every piece in order.
fn push_all(out: &mut String, pieces: &[&str]) {
    for p in pieces {
        out.push_str(p);
    }
}

/// Appends the decimal digits of `v` (what `{v}` prints, without the
/// formatting machinery: lowering prints every literal of every statement).
fn push_int(out: &mut String, v: i64) {
    if v < 0 {
        out.push('-');
    }
    let mut digits = [0u8; 20];
    let mut n = v.unsigned_abs();
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(char::from(d));
    }
}

/// `head` (ending in `(`), the expression, `)`.
fn wrapped(out: &mut String, head: &str, e: &Expr) {
    out.push_str(head);
    expr(out, e, TOP);
    out.push(')');
}

/// `if (cond)`: the text of an `if` or `else if` arm's test.
pub(crate) fn if_text(cond: &Expr) -> String {
    let mut out = String::with_capacity(16);
    wrapped(&mut out, "if (", cond);
    out
}

/// The name of the `fetch_*` form of an RMW operator.
pub(crate) fn fetch_name(op: RmwOp) -> &'static str {
    match op {
        RmwOp::Add => "fetch_add",
        RmwOp::Sub => "fetch_sub",
        RmwOp::And => "fetch_and",
        RmwOp::Or => "fetch_or",
        RmwOp::Xor => "fetch_xor",
        RmwOp::Max => "fetch_max",
        RmwOp::Min => "fetch_min",
        RmwOp::Xchg => "exchange",
    }
}

/// The operator of the generic `rmw(x, OP, E, MO)` form.
pub(crate) fn rmw_op_name(op: RmwOp) -> &'static str {
    match op {
        RmwOp::Add => "add",
        RmwOp::Sub => "sub",
        RmwOp::And => "and",
        RmwOp::Or => "or",
        RmwOp::Xor => "xor",
        RmwOp::Max => "max",
        RmwOp::Min => "min",
        RmwOp::Xchg => "xchg",
    }
}

pub(crate) fn hw_fence_name(f: HwFence) -> &'static str {
    match f {
        HwFence::SS => "ss",
        HwFence::SL => "sl",
        HwFence::LL => "ll",
        HwFence::LS => "ls",
        HwFence::Full => "full",
    }
}

fn fence_name(k: FenceArg) -> &'static str {
    match k {
        FenceArg::C11(o) => o.as_str(),
        FenceArg::Hw(h) => hw_fence_name(h),
    }
}

/// Binding strength of a binary operator, C's table: higher binds tighter.
/// The parser groups binary expressions by it too.
pub(crate) fn binop_prec(op: BinOp) -> u8 {
    match op {
        BinOp::Or => 1,
        BinOp::And => 2,
        BinOp::BitOr => 3,
        BinOp::BitXor => 4,
        BinOp::BitAnd => 5,
        BinOp::Eq | BinOp::Ne => 6,
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 7,
        BinOp::Shl | BinOp::Shr => 8,
        BinOp::Add | BinOp::Sub => 9,
        BinOp::Mul | BinOp::Div | BinOp::Rem => 10,
    }
}

const UNARY_PREC: u8 = 11;
const ATOM_PREC: u8 = 12;

pub(crate) fn binop_symbol(op: BinOp) -> &'static str {
    match op {
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        BinOp::BitAnd => "&",
        BinOp::BitXor => "^",
        BinOp::BitOr => "|",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::And => "&&",
        BinOp::Or => "||",
    }
}

/// How tightly the printed expression binds: a chain binds like its last
/// operator, which is the root of its tree.
fn expr_prec(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Chain { rest, .. } => rest.last().map_or(ATOM_PREC, |(op, _)| binop_prec(*op)),
        ExprKind::Unary(..) => UNARY_PREC,
        // A negative literal reads as a unary minus.
        ExprKind::Int(v) if *v < 0 => UNARY_PREC,
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Var(_) => ATOM_PREC,
    }
}

/// The context an expression is printed in: the binding power it needs,
/// and whether it is an operand of `||` (where a `&&` gets parentheses).
#[derive(Clone, Copy)]
struct Ctx {
    min: u8,
    in_or: bool,
}

const TOP: Ctx = Ctx {
    min: 0,
    in_or: false,
};

/// The root operator of a chain.
fn root_op(e: &Expr) -> Option<BinOp> {
    match &e.kind {
        ExprKind::Chain { rest, .. } => rest.last().map(|(op, _)| *op),
        _ => None,
    }
}

/// Appends an expression with the parentheses its tree needs.
fn expr(out: &mut String, e: &Expr, ctx: Ctx) {
    let paren = expr_prec(e) < ctx.min || (ctx.in_or && root_op(e) == Some(BinOp::And));
    if paren {
        out.push('(');
    }
    match &e.kind {
        ExprKind::Int(v) => push_int(out, *v),
        ExprKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        ExprKind::Var(i) => out.push_str(&i.name),
        ExprKind::Unary(op, a) => {
            out.push(match op {
                UnOp::Neg => '-',
                UnOp::Not => '!',
            });
            expr(
                out,
                a,
                Ctx {
                    min: UNARY_PREC,
                    in_or: false,
                },
            );
        }
        ExprKind::Chain { first, rest } => chain(out, first, rest),
    }
    if paren {
        out.push(')');
    }
}

/// `first op1 e1 op2 e2 ...` grouped from the left: the part before an
/// operator is parenthesised when the operator binds tighter than the
/// part's own last operator (`(a + b) * c`), or is `||` after a `&&`.
fn chain(out: &mut String, first: &Expr, rest: &[(BinOp, Expr)]) {
    let Some(&(op0, _)) = rest.first() else {
        return expr(out, first, TOP);
    };
    // The opening parentheses all come first: count them.
    let wraps = rest
        .windows(2)
        .filter(|w| wraps_left(w[0].0, w[1].0))
        .count();
    for _ in 0..wraps {
        out.push('(');
    }
    expr(
        out,
        first,
        Ctx {
            min: binop_prec(op0),
            in_or: op0 == BinOp::Or,
        },
    );
    let mut prev: Option<BinOp> = None;
    for (op, e) in rest {
        if prev.is_some_and(|p| wraps_left(p, *op)) {
            out.push(')');
        }
        push_all(out, &[" ", binop_symbol(*op), " "]);
        expr(
            out,
            e,
            Ctx {
                min: binop_prec(*op) + 1,
                in_or: *op == BinOp::Or,
            },
        );
        prev = Some(*op);
    }
}

/// In a chain, does the part ending in `before` need parentheses as the
/// left operand of `next`?
fn wraps_left(before: BinOp, next: BinOp) -> bool {
    binop_prec(before) < binop_prec(next) || (before == BinOp::And && next == BinOp::Or)
}

/// `exists (P)`, `~exists (P)` or `forall (P)`: also `Condition::text`.
pub(crate) fn condition_text(c: &Condition) -> String {
    let q = match c.quantifier {
        Quantifier::Exists => "exists",
        Quantifier::NotExists => "~exists",
        Quantifier::Forall => "forall",
    };
    format!("{q} ({})", prop_text(&c.prop))
}

const IMPLIES_PREC: u8 = 1;
const OR_PREC: u8 = 2;
const AND_PREC: u8 = 3;
const NOT_PREC: u8 = 4;

fn prop_prec(p: &Prop) -> u8 {
    match &p.kind {
        PropKind::Implies(..) => IMPLIES_PREC,
        PropKind::Or(_) => OR_PREC,
        PropKind::And(_) => AND_PREC,
        PropKind::Not(_) => NOT_PREC,
        PropKind::True | PropKind::False | PropKind::Atom { .. } => 5,
    }
}

pub(crate) fn prop_text(p: &Prop) -> String {
    let mut out = String::new();
    prop(&mut out, p, 0);
    out
}

/// Appends a proposition, parenthesised when it binds looser than `min`.
/// `min` is `AND_PREC` inside a disjunction, so that a conjunction there
/// gets parentheses.
fn prop(out: &mut String, p: &Prop, min: u8) {
    let paren = prop_prec(p) < min;
    if paren {
        out.push('(');
    }
    match &p.kind {
        PropKind::True => out.push_str("true"),
        PropKind::False => out.push_str("false"),
        PropKind::Atom { obs, op, value } => {
            let op = match op {
                CmpOp::Eq => "=",
                CmpOp::Ne => "!=",
            };
            let _ = write!(out, "{} {op} {value}", obs_text(obs));
        }
        PropKind::Not(a) => {
            out.push('~');
            prop(out, a, NOT_PREC);
        }
        // `=>` associates to the right.
        PropKind::Implies(a, b) => {
            prop(out, a, OR_PREC);
            out.push_str(" => ");
            prop(out, b, IMPLIES_PREC);
        }
        PropKind::Or(ps) => {
            for (i, q) in ps.iter().enumerate() {
                if i > 0 {
                    out.push_str(" \\/ ");
                }
                prop(out, q, AND_PREC + 1);
            }
        }
        PropKind::And(ps) => {
            for (i, q) in ps.iter().enumerate() {
                if i > 0 {
                    out.push_str(" /\\ ");
                }
                prop(out, q, AND_PREC + 1);
            }
        }
    }
    if paren {
        out.push(')');
    }
}

pub(crate) fn obs_text(o: &ObsItem) -> String {
    match o {
        ObsItem::Reg { thread, reg } => match thread {
            ThreadRef::Name(t) => format!("{}:{}", t.name, reg.name),
            ThreadRef::Index(i, _) => format!("{i}:{}", reg.name),
        },
        ObsItem::Loc(l) => l.name.clone(),
    }
}
