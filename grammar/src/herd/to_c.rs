//! `relaxlab fmt --to herd-c`: prints a relaxlab test that stays inside
//! herd's C subset as a herd C litmus test.
//!
//! Works on the syntax tree ([`crate::ast::Test`]), so names, structure and
//! `if`/`else` come out as written. Atomic accesses are `atomic_*_explicit`
//! calls and `na` accesses plain `*x`. A location without `na` accesses
//! becomes an `atomic_int*` parameter, one with `na` accesses an `int*`
//! parameter, also when it has atomic accesses too (mixed atomicity, which
//! C spells only this way: a plain `*x` on an `atomic_int*` is `seq_cst`
//! in C, though herd7, and relaxlab's importer with it, reads every `*x`
//! as plain and every call as atomic, whatever the pointer's type). A register is declared with `int` at its
//! first assignment when that is at the top of the thread, else at the top
//! of the thread with value 0 (so C scoping does not hide it).
//!
//! `cas(x, e, d, s, f)` returns the value read; in C that value is what
//! `atomic_compare_exchange_strong_explicit` leaves in its `expected`
//! variable, so it becomes `int cN = e; atomic_compare_exchange_...(x,
//! &cN, d, s, f); r = cN;` with a fresh `cN`. `r, ok = cas_weak(..)`
//! becomes `ok = atomic_compare_exchange_weak_explicit(..)`.
//!
//! Refused, each with a diagnostic on the relaxlab text: `while`, `assert`,
//! `assume`, `fork`/`join`, hardware barriers and `fetch_max`/`fetch_min`.
//! `expect` entries are dropped: herd has none.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use relaxlab_semantics::ir::{CmpOp, RmwOp, Span, UnOp};

use super::c_expr::{op_str, prec};
use super::error::{HerdError, HerdErrors};
use crate::ast::{
    Block, Expr, ExprKind, FenceArg, MemOrder, ObsItem, Prop, PropKind, Quantifier, Stmt, StmtKind,
    Test, ThreadRef,
};

/// Prints `test` as a herd C litmus test.
pub fn to_herd_c(test: &Test) -> Result<String, HerdErrors> {
    // herd7's C refuses atomic arrays and indexing in code.
    if let Some(e) = test.init.iter().find(|e| e.array.is_some()) {
        return Err(HerdErrors::new(vec![HerdError::unsupported(
            format!("the array `{}`", e.loc.name),
            e.span,
            "herd's C reads no atomic array and no `t[i]` in code: declare one location per cell",
        )]));
    }
    let locs: Vec<&str> = test.init.iter().map(|e| e.loc.name.as_str()).collect();
    let mut errors = Vec::new();
    let atomic = atomicity(test, &locs);
    let mut s = format!("C {}\n", test.name.name);
    if let Some(doc) = &test.doc {
        let _ = writeln!(s, "\"{doc}\"");
    }
    s.push_str("\n{");
    for e in &test.init {
        let _ = write!(s, " {} = {};", e.loc.name, e.value.unwrap_or(0));
    }
    s.push_str(" }\n");
    for (i, th) in test.threads.iter().enumerate() {
        let mut used = BTreeSet::new();
        block_locs(&th.body, &locs, &mut used);
        let params: Vec<String> = locs
            .iter()
            .filter(|l| used.contains(**l))
            .map(|l| {
                let ty = if atomic.get(*l).copied().unwrap_or(true) {
                    "atomic_int"
                } else {
                    "int"
                };
                format!("{ty}* {l}")
            })
            .collect();
        let _ = writeln!(s, "\nP{i} ({}) {{", params.join(", "));
        let mut p = Printer {
            locs: &locs,
            declared: BTreeSet::new(),
            out: String::new(),
            next: 0,
            errors: Vec::new(),
        };
        p.declare_nested(&th.body);
        p.block(&th.body, 1, true);
        errors.append(&mut p.errors);
        s.push_str(&p.out);
        s.push_str("}\n");
    }
    let thread_index = |t: &ThreadRef| match t {
        ThreadRef::Index(i, _) => i.to_string(),
        ThreadRef::Name(n) => test
            .threads
            .iter()
            .position(|th| th.name.name == n.name)
            .map_or_else(|| n.name.clone(), |i| i.to_string()),
    };
    let obs = |o: &ObsItem| match o {
        ObsItem::Reg { thread, reg } => format!("{}:{}", thread_index(thread), reg.name),
        ObsItem::Loc(l) => l.name.clone(),
    };
    s.push('\n');
    if !test.observe.is_empty() {
        let items: Vec<String> = test
            .observe
            .iter()
            .map(|o| format!("{};", obs(o)))
            .collect();
        let _ = writeln!(s, "locations [{}]", items.join(" "));
    }
    if let Some(f) = &test.filter {
        let _ = writeln!(s, "filter ({})", prop(f, &obs, 0));
    }
    if let Some(c) = &test.condition {
        let q = match c.quantifier {
            Quantifier::Exists => "exists",
            Quantifier::NotExists => "~exists",
            Quantifier::Forall => "forall",
        };
        let _ = writeln!(s, "{q} ({})", prop(&c.prop, &obs, 0));
    }
    if errors.is_empty() {
        Ok(s)
    } else {
        Err(HerdErrors::new(errors))
    }
}

/// A proposition in herd's syntax (`!=` as `~(a=v)`).
fn prop(p: &Prop, obs: &dyn Fn(&ObsItem) -> String, ctx: u8) -> String {
    let wrap = |t: String, own: u8| if own < ctx { format!("({t})") } else { t };
    match &p.kind {
        PropKind::True => "true".to_string(),
        PropKind::False => "false".to_string(),
        PropKind::Atom {
            obs: o,
            op: CmpOp::Eq,
            value,
        } => format!("{}={value}", obs(o)),
        PropKind::Atom {
            obs: o,
            op: CmpOp::Ne,
            value,
        } => format!("~({}={value})", obs(o)),
        PropKind::Not(q) => format!("~{}", prop(q, obs, 4)),
        PropKind::And(ps) => wrap(join(ps, " /\\ ", obs, 3), 2),
        PropKind::Or(ps) => wrap(join(ps, " \\/ ", obs, 2), 1),
        PropKind::Implies(a, b) => wrap(format!("{} => {}", prop(a, obs, 1), prop(b, obs, 0)), 0),
    }
}

/// The operands of a chain of `/\` or `\/`, each in context `ctx`.
fn join(ps: &[Prop], sep: &str, obs: &dyn Fn(&ObsItem) -> String, ctx: u8) -> String {
    let mut out = String::new();
    for (i, p) in ps.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(&prop(p, obs, ctx));
    }
    out
}

/// Is each location an `atomic_int*`? Only when no access to it is `na`:
/// a plain `*x` on an `atomic_int*` would be `seq_cst` to a C compiler
/// (herd reads it as plain), so a location
/// with both kinds of access (mixed atomicity) is an `int*` whose atomic
/// accesses are the `atomic_*_explicit` calls.
fn atomicity(test: &Test, locs: &[&str]) -> BTreeMap<String, bool> {
    let mut seen: BTreeMap<String, bool> = BTreeMap::new();
    let mut note = |l: &str, na: bool, _span: Span| {
        if locs.contains(&l) {
            *seen.entry(l.to_string()).or_insert(false) |= na;
        }
    };
    fn walk(b: &Block, note: &mut dyn FnMut(&str, bool, Span)) {
        for s in &b.stmts {
            match &s.kind {
                StmtKind::Load { loc, ord, .. } | StmtKind::Store { loc, ord, .. } => {
                    note(&loc.name, ord.order == MemOrder::Na, s.span)
                }
                StmtKind::Rmw { loc, .. } | StmtKind::Cas { loc, .. } => {
                    note(&loc.name, false, s.span)
                }
                StmtKind::Assign { dst, val } => {
                    note(&dst.name, true, s.span);
                    if let ExprKind::Var(v) = &val.kind {
                        note(&v.name, true, s.span);
                    }
                }
                _ => {
                    for b in s.blocks() {
                        walk(b, note);
                    }
                }
            }
        }
    }
    for th in &test.threads {
        walk(&th.body, &mut note);
    }
    seen.into_iter().map(|(l, na)| (l, !na)).collect()
}

/// The locations a block uses.
fn block_locs(b: &Block, locs: &[&str], out: &mut BTreeSet<String>) {
    let add = |n: &str, out: &mut BTreeSet<String>| {
        if locs.contains(&n) {
            out.insert(n.to_string());
        }
    };
    for s in &b.stmts {
        match &s.kind {
            StmtKind::Load { loc, .. }
            | StmtKind::Store { loc, .. }
            | StmtKind::Rmw { loc, .. }
            | StmtKind::Cas { loc, .. } => add(&loc.name, out),
            StmtKind::Assign { dst, val } => {
                add(&dst.name, out);
                if let ExprKind::Var(v) = &val.kind {
                    add(&v.name, out);
                }
            }
            StmtKind::If { .. } => {
                for b in s.blocks() {
                    block_locs(b, locs, out);
                }
            }
            _ => {}
        }
    }
}

/// The C spelling of a memory order.
fn mo(o: MemOrder) -> &'static str {
    match o {
        MemOrder::Na | MemOrder::Rlx => "memory_order_relaxed",
        MemOrder::Acq => "memory_order_acquire",
        MemOrder::Rel => "memory_order_release",
        MemOrder::AcqRel => "memory_order_acq_rel",
        MemOrder::Sc => "memory_order_seq_cst",
    }
}

/// Prints one thread body.
struct Printer<'a> {
    locs: &'a [&'a str],
    /// Registers already declared.
    declared: BTreeSet<String>,
    out: String,
    next: usize,
    errors: Vec<HerdError>,
}

impl Printer<'_> {
    /// Declares at the top, with 0, every register first assigned inside
    /// an `if`.
    fn declare_nested(&mut self, body: &Block) {
        let mut top = BTreeSet::new();
        let mut nested = Vec::new();
        fn dsts(b: &Block, depth: usize, top: &mut BTreeSet<String>, nested: &mut Vec<String>) {
            for s in &b.stmts {
                let d: [Option<&str>; 2] = match &s.kind {
                    StmtKind::Cas { dst, ok, .. } => {
                        [Some(&dst.name), ok.as_ref().map(|ok| ok.name.as_str())]
                    }
                    StmtKind::Load { dst, .. }
                    | StmtKind::Rmw { dst, .. }
                    | StmtKind::Assign { dst, .. } => [Some(&dst.name), None],
                    StmtKind::If { .. } => {
                        for b in s.blocks() {
                            dsts(b, depth + 1, top, nested);
                        }
                        [None, None]
                    }
                    _ => [None, None],
                };
                for d in d.into_iter().flatten().map(str::to_string) {
                    if depth == 0 {
                        top.insert(d);
                    } else if !top.contains(&d) && !nested.contains(&d) {
                        nested.push(d);
                    }
                }
            }
        }
        dsts(body, 0, &mut top, &mut nested);
        for r in nested {
            if !self.locs.contains(&r.as_str()) {
                let _ = writeln!(self.out, "  int {r} = 0;");
                self.declared.insert(r);
            }
        }
    }

    fn is_loc(&self, n: &str) -> bool {
        self.locs.contains(&n)
    }

    /// `int r` at a register's first top-level assignment, else `r`.
    fn dst(&mut self, r: &str, top: bool) -> String {
        if top && self.declared.insert(r.to_string()) {
            format!("int {r}")
        } else {
            r.to_string()
        }
    }

    fn block(&mut self, b: &Block, depth: usize, top: bool) {
        for s in &b.stmts {
            self.stmt(s, depth, top);
        }
    }

    /// One statement; the recursion through nested `if`s passes through
    /// `stmt`, `if_stmt` and `block` only, whose frames are kept small.
    fn stmt(&mut self, s: &Stmt, depth: usize, top: bool) {
        match &s.kind {
            StmtKind::If {
                cond,
                then,
                elifs,
                els,
            } => self.if_stmt(cond, then, elifs, els.as_ref(), depth),
            _ => self.simple(s, depth, top),
        }
    }

    fn if_stmt(
        &mut self,
        cond: &Expr,
        then: &Block,
        elifs: &[crate::ast::ElseIf],
        els: Option<&Block>,
        depth: usize,
    ) {
        let ind = "  ".repeat(depth);
        let c = self.expr(cond, 0);
        let _ = writeln!(self.out, "{ind}if ({c}) {{");
        self.block(then, depth + 1, false);
        for arm in elifs {
            let c = self.expr(&arm.cond, 0);
            let _ = writeln!(self.out, "{ind}}} else if ({c}) {{");
            self.block(&arm.then, depth + 1, false);
        }
        if let Some(e) = els {
            let _ = writeln!(self.out, "{ind}}} else {{");
            self.block(e, depth + 1, false);
        }
        let _ = writeln!(self.out, "{ind}}}");
    }

    /// A statement without blocks: its line (or lines), or a refusal.
    #[inline(never)]
    fn simple(&mut self, s: &Stmt, depth: usize, top: bool) {
        let ind = "  ".repeat(depth);
        let line = match &s.kind {
            StmtKind::Load { dst, loc, ord } => {
                let d = self.dst(&dst.name, top);
                if ord.order == MemOrder::Na {
                    format!("{d} = *{};", loc.name)
                } else {
                    format!(
                        "{d} = atomic_load_explicit({}, {});",
                        loc.name,
                        mo(ord.order)
                    )
                }
            }
            StmtKind::Store { loc, val, ord } => {
                let v = self.expr(val, 0);
                if ord.order == MemOrder::Na {
                    format!("*{} = {v};", loc.name)
                } else {
                    format!(
                        "atomic_store_explicit({}, {v}, {});",
                        loc.name,
                        mo(ord.order)
                    )
                }
            }
            StmtKind::Rmw {
                dst,
                loc,
                op,
                operand,
                ord,
                ..
            } => {
                let f = match op {
                    RmwOp::Add => "atomic_fetch_add_explicit",
                    RmwOp::Sub => "atomic_fetch_sub_explicit",
                    RmwOp::And => "atomic_fetch_and_explicit",
                    RmwOp::Or => "atomic_fetch_or_explicit",
                    RmwOp::Xor => "atomic_fetch_xor_explicit",
                    RmwOp::Xchg => "atomic_exchange_explicit",
                    RmwOp::Max | RmwOp::Min => {
                        return self.refuse(
                            "`fetch_max`/`fetch_min`",
                            s.span,
                            "C11 has no atomic max/min",
                        );
                    }
                };
                let v = self.expr(operand, 0);
                let d = self.dst(&dst.name, top);
                format!("{d} = {f}({}, {v}, {});", loc.name, mo(ord.order))
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
                let c = loop {
                    let c = format!("c{}", self.next);
                    self.next += 1;
                    if !self.declared.contains(&c) && !self.is_loc(&c) {
                        break c;
                    }
                };
                let e = self.expr(expected, 0);
                let d = self.expr(desired, 0);
                let f = fail.map_or_else(
                    || match ord.order {
                        MemOrder::Rel => MemOrder::Rlx,
                        MemOrder::AcqRel => MemOrder::Acq,
                        o => o,
                    },
                    |f| f.order,
                );
                let strength = if *weak { "weak" } else { "strong" };
                let flag = match ok {
                    Some(ok) => format!("{} = ", self.dst(&ok.name, top)),
                    None => String::new(),
                };
                let r = self.dst(&dst.name, top);
                format!(
                    "int {c} = {e};\n{ind}{flag}atomic_compare_exchange_{strength}_explicit({}, &{c}, {d}, {}, {});\n{ind}{r} = {c};",
                    loc.name,
                    mo(ord.order),
                    mo(f)
                )
            }
            StmtKind::Fence {
                kind: FenceArg::C11(o),
                ..
            } => {
                format!("atomic_thread_fence({});", mo(*o))
            }
            StmtKind::Fence {
                kind: FenceArg::Hw(_),
                kind_span,
            } => {
                return self.refuse(
                    "a hardware barrier",
                    *kind_span,
                    "herd C has only atomic_thread_fence; use fence(sc)",
                );
            }
            StmtKind::Assign { dst, val } => {
                if self.is_loc(&dst.name) {
                    let v = self.expr(val, 0);
                    format!("*{} = {v};", dst.name)
                } else {
                    let v = match &val.kind {
                        ExprKind::Var(x) if self.is_loc(&x.name) => format!("*{}", x.name),
                        _ => self.expr(val, 0),
                    };
                    let d = self.dst(&dst.name, top);
                    format!("{d} = {v};")
                }
            }
            StmtKind::If { .. } => {
                debug_assert!(false, "relaxlab internal error: `if` in simple");
                return;
            }
            StmtKind::While { .. } => {
                return self.refuse("`while`", s.span, "herd C tests are loop-free here")
            }
            StmtKind::Assert(_) => {
                return self.refuse(
                    "`assert`",
                    s.span,
                    "herd has no assertions; use the condition",
                )
            }
            StmtKind::Assume(_) => {
                return self.refuse(
                    "`assume`",
                    s.span,
                    "herd's `filter` is the closest: it speaks of final values",
                )
            }
            StmtKind::Fork { .. } | StmtKind::Join(_) => {
                return self.refuse(
                    "`fork`/`join`",
                    s.span,
                    "herd tests have a fixed set of threads",
                );
            }
        };
        let _ = writeln!(self.out, "{ind}{line}");
    }

    fn refuse(&mut self, what: &str, span: Span, help: &str) {
        self.errors.push(HerdError::unsupported(what, span, help));
    }

    /// An expression with C precedence (relaxlab's are C's).
    fn expr(&mut self, e: &Expr, min: u8) -> String {
        match &e.kind {
            ExprKind::Int(v) => v.to_string(),
            ExprKind::Bool(b) => u8::from(*b).to_string(),
            ExprKind::Var(x) => x.name.clone(),
            ExprKind::Unary(op, a) => {
                let sym = if *op == UnOp::Neg { "-" } else { "!" };
                let a = self.expr(a, 11);
                // `- -1` must not print as the decrement `--1`.
                if a.starts_with('-') {
                    format!("{sym}({a})")
                } else {
                    format!("{sym}{a}")
                }
            }
            // Grouped from the left: the part before an operator that binds
            // tighter than the part's last one is parenthesised (all the
            // opening parentheses come first).
            ExprKind::Chain { first, rest } => {
                let Some((op0, _)) = rest.first() else {
                    return self.expr(first, min);
                };
                let wraps = rest
                    .windows(2)
                    .filter(|w| prec(w[0].0) < prec(w[1].0))
                    .count();
                let mut t = "(".repeat(wraps);
                t.push_str(&self.expr(first, prec(*op0)));
                let mut before: Option<u8> = None;
                for (op, e) in rest {
                    let p = prec(*op);
                    if before.is_some_and(|b| b < p) {
                        t.push(')');
                    }
                    let _ = write!(t, " {} {}", op_str(*op), self.expr(e, p + 1));
                    before = Some(p);
                }
                if before.is_some_and(|p| p < min) {
                    format!("({t})")
                } else {
                    t
                }
            }
        }
    }
}
