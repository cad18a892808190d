//! The formatter: prints a syntax tree in the canonical layout.
//!
//! Canonical means: the header, the `init` block on one line, each thread
//! with two-space indentation and one statement per line, then the
//! condition, the filter, `observe` and `expect`, each on one line.
//! Keywords, operations and orders are printed in their lowercase short
//! form (`Load` becomes `load`, `relaxed` becomes `rlx`, `mfence` becomes
//! `full`, `locations [..]` becomes `observe { .. }`, `[x]` becomes `x`);
//! parentheses are printed exactly where precedence needs them.
//!
//! **Comments are dropped**: the tree does not keep them. Formatting is
//! idempotent, and `parse(format(t))` equals `t` modulo spans.
//!
//! [`stmt_text`] gives the one-line text of a statement that
//! `Instruction::text` carries (`r0 = load(y, rlx)`, `if (r0 == 1)`).

use std::fmt::Write;

use relaxlab_semantics::ir::{BinOp, CmpOp, HwFence, RmwOp, UnOp};

use crate::ast::{
    Block, Condition, Expr, ExprKind, FenceArg, ObsItem, Prop, PropKind, Quantifier, RmwForm, Stmt,
    StmtKind, Test, ThreadRef,
};

/// Prints `test` in the canonical layout.
pub(crate) fn format_test(test: &Test) -> String {
    let mut out = String::new();
    out.push_str("test ");
    out.push_str(&test.name.name);
    if let Some(doc) = &test.doc {
        let _ = write!(out, " \"{doc}\"");
    }
    out.push_str("\n\n");
    if !test.init.is_empty() {
        out.push_str("init {");
        for e in &test.init {
            match e.value {
                Some(v) => {
                    let _ = write!(out, " {} = {v};", e.loc.name);
                }
                None => {
                    let _ = write!(out, " {};", e.loc.name);
                }
            }
        }
        out.push_str(" }\n\n");
    }
    for t in &test.threads {
        let _ = write!(out, "thread {} ", t.name.name);
        block(&mut out, &t.body, 0);
        out.push_str("\n\n");
    }
    if let Some(c) = &test.condition {
        out.push_str(&condition_text(c));
        out.push('\n');
    }
    if let Some(f) = &test.filter {
        let _ = writeln!(out, "filter ({})", prop_text(f));
    }
    if !test.observe.is_empty() {
        out.push_str("observe {");
        for o in &test.observe {
            let _ = write!(out, " {};", obs_text(o));
        }
        out.push_str(" }\n");
    }
    if !test.expect.is_empty() {
        out.push_str("expect {");
        for e in &test.expect {
            let _ = write!(out, " {}: {};", e.key.name, e.verdict);
        }
        out.push_str(" }\n");
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// `{`, the statements one level deeper, `}` at `depth`.
fn block(out: &mut String, b: &Block, depth: usize) {
    out.push_str("{\n");
    for s in &b.stmts {
        indent(out, depth + 1);
        stmt(out, s, depth + 1);
        out.push('\n');
    }
    indent(out, depth);
    out.push('}');
}

fn stmt(out: &mut String, s: &Stmt, depth: usize) {
    match &s.kind {
        StmtKind::If { then, els, .. } => {
            out.push_str(&stmt_text(s));
            out.push(' ');
            block(out, then, depth);
            if let Some(els) = els {
                out.push_str(" else ");
                match els.stmts.as_slice() {
                    [only @ Stmt {
                        kind: StmtKind::If { .. },
                        ..
                    }] => stmt(out, only, depth),
                    _ => block(out, els, depth),
                }
            }
        }
        StmtKind::While { body, .. } => {
            out.push_str(&stmt_text(s));
            out.push(' ');
            block(out, body, depth);
        }
        StmtKind::Fork { body, .. } => {
            out.push_str(&stmt_text(s));
            out.push(' ');
            block(out, body, depth);
            out.push(';');
        }
        _ => {
            out.push_str(&stmt_text(s));
            out.push(';');
        }
    }
}

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
            expr(o, val, 0);
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
            expr(o, operand, 0);
            push_all(o, &[", ", ord.order.as_str(), ")"]);
        }
        StmtKind::Cas {
            dst,
            loc,
            expected,
            desired,
            ord,
            fail,
        } => {
            push_all(o, &[&dst.name, " = cas(", &loc.name, ", "]);
            expr(o, expected, 0);
            o.push_str(", ");
            expr(o, desired, 0);
            push_all(o, &[", ", ord.order.as_str()]);
            if let Some(f) = fail {
                push_all(o, &[", ", f.order.as_str()]);
            }
            o.push(')');
        }
        StmtKind::Fence { kind, .. } => push_all(o, &["fence(", fence_name(*kind), ")"]),
        StmtKind::Assign { dst, val } => {
            push_all(o, &[&dst.name, " = "]);
            expr(o, val, 0);
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
    expr(out, e, 0);
    out.push(')');
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

fn expr_prec(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Binary(op, _, _) => binop_prec(*op),
        ExprKind::Unary(..) => UNARY_PREC,
        // A negative literal reads as a unary minus.
        ExprKind::Int(v) if *v < 0 => UNARY_PREC,
        ExprKind::Int(_) | ExprKind::Var(_) => ATOM_PREC,
    }
}

/// Appends an expression with the parentheses its tree needs and no
/// others.
fn expr(out: &mut String, e: &Expr, min: u8) {
    let paren = expr_prec(e) < min;
    if paren {
        out.push('(');
    }
    match &e.kind {
        ExprKind::Int(v) => push_int(out, *v),
        ExprKind::Var(i) => out.push_str(&i.name),
        ExprKind::Unary(op, a) => {
            out.push(match op {
                UnOp::Neg => '-',
                UnOp::Not => '!',
            });
            expr(out, a, UNARY_PREC);
        }
        ExprKind::Binary(op, a, b) => {
            let p = binop_prec(*op);
            expr(out, a, p);
            push_all(out, &[" ", binop_symbol(*op), " "]);
            expr(out, b, p + 1);
        }
    }
    if paren {
        out.push(')');
    }
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

fn prop_prec(p: &Prop) -> u8 {
    match &p.kind {
        PropKind::Implies(..) => 1,
        PropKind::Or(..) => 2,
        PropKind::And(..) => 3,
        PropKind::Not(_) => 4,
        PropKind::True | PropKind::False | PropKind::Atom { .. } => 5,
    }
}

pub(crate) fn prop_text(p: &Prop) -> String {
    let mut out = String::new();
    prop(&mut out, p, 0);
    out
}

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
            prop(out, a, 4);
        }
        // `=>` associates to the right; `/\` and `\/` to the left.
        PropKind::Implies(a, b) => {
            prop(out, a, 2);
            out.push_str(" => ");
            prop(out, b, 1);
        }
        PropKind::Or(a, b) => {
            prop(out, a, 2);
            out.push_str(" \\/ ");
            prop(out, b, 3);
        }
        PropKind::And(a, b) => {
            prop(out, a, 3);
            out.push_str(" /\\ ");
            prop(out, b, 4);
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
