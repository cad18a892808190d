//! Lowering a thread's statements to instructions with jump targets.
//!
//! Names: registers and locations share one namespace per thread. A name
//! declared in `init` is a location; any other name is a register of the
//! thread, numbered in order of first appearance (the target of an
//! assignment before the names its right-hand side reads). So `x = E;` with
//! `x` declared is a store, and `r = x;` a load.
//!
//! One shared access per statement (book: language.md, Statements): a location
//! anywhere but in the access position of its statement is an error, named
//! "two shared accesses" when the statement already accesses memory and
//! "shared location inside an expression" otherwise.
//!
//! Control flow (a `Branch` jumps when its condition is zero):
//! ```text
//! if (c) A else B:   Branch c -> L1; A; Jump -> L2; L1: B; L2:
//! while (c) A:       L0: Branch c -> L1; A; Jump -> L0; L1:
//! ```
//! An `else if (c) B` arm lowers as an `else { if (c) B ... }` would (the
//! same instructions, spans and texts), in a loop over the arms.
//!
//! A chain of two or more binary operators lowers to one flat
//! [`Expr::Chain`]; the other walks here recurse only through what nests,
//! which the parser bounds.

use relaxlab_semantics::ir::{
    C11Fence, Expr, FenceKind, Instr, InstrId, Instruction, LocId, Origin, ReadOrd, RegId, RmwOrd,
    Span, ThreadCode, ThreadId, ThreadKind, WriteOrd,
};

use super::program::Lowerer;
use crate::ast::{self, ExprKind, FenceArg, MemOrder, Stmt, StmtKind};
use crate::diag::{did_you_mean, sspan, LowerError};
use crate::fmt::{if_text, stmt_text};

/// What the statement around an expression already accesses, for the
/// "one shared access" rule.
#[derive(Clone, Copy, Debug)]
enum Access<'a> {
    /// The statement touches no location besides the expression.
    None,
    /// The statement accesses this location at this span.
    Loc(&'a str, Span),
}

/// The thread being lowered.
#[derive(Debug)]
struct ThreadBuilder {
    id: ThreadId,
    regs: Vec<String>,
    code: Vec<Instruction>,
    /// Registers some `fork` of this thread assigns a handle to.
    handles: Vec<String>,
    /// Spans of the `while` statements around the current statement.
    loops: Vec<Span>,
    /// The index in `line_starts` of the line of the last instruction:
    /// instructions mostly come in source order, so the next line is found
    /// by a short scan from there.
    line_hint: usize,
}

impl ThreadBuilder {
    /// The register named `name`, created on first appearance.
    fn reg(&mut self, name: &str) -> RegId {
        match self.regs.iter().position(|r| r == name) {
            Some(i) => RegId::new(i),
            None => {
                self.regs.push(name.to_string());
                RegId::new(self.regs.len() - 1)
            }
        }
    }

    fn next_id(&self) -> InstrId {
        InstrId::new(self.code.len())
    }
}

/// The registers `fork` statements of `block` assign, not looking into the
/// bodies of the forked threads.
fn collect_handles(block: &ast::Block, out: &mut Vec<String>) {
    for s in &block.stmts {
        match &s.kind {
            StmtKind::Fork { dst, .. } => out.push(dst.name.clone()),
            _ => {
                for b in s.blocks() {
                    collect_handles(b, out);
                }
            }
        }
    }
}

impl Lowerer<'_> {
    /// Lowers thread `t`'s body, ending it with `End`.
    pub(super) fn lower_thread(&mut self, t: ThreadId) -> ThreadCode {
        let slot = &self.slots[t.index()];
        let (name, body, span) = (slot.name.name.clone(), slot.body, slot.span);
        let mut b = ThreadBuilder {
            id: t,
            regs: Vec::new(),
            code: Vec::new(),
            handles: Vec::new(),
            loops: Vec::new(),
            line_hint: 0,
        };
        collect_handles(body, &mut b.handles);
        self.block(&mut b, body);
        let close = Span::new(
            body.span.end.saturating_sub(1) as usize,
            body.span.end as usize,
        );
        self.emit(&mut b, Instr::End, close, "end".to_string());
        ThreadCode {
            name,
            kind: ThreadKind::TopLevel,
            regs: b.regs,
            code: b.code,
            span,
        }
    }

    fn emit(&self, b: &mut ThreadBuilder, instr: Instr, span: Span, text: String) -> InstrId {
        let id = b.next_id();
        let line = self.line_of(&mut b.line_hint, span.start);
        b.code.push(Instruction {
            instr,
            span,
            line,
            text,
            origin: Origin::Source,
        });
        id
    }

    /// The 1-based line of byte offset `at` (what [`ast::Test::line_of`]
    /// says), scanning forward from the line at `hint` when `at` lies at
    /// most a few lines after it.
    fn line_of(&self, hint: &mut usize, at: u32) -> u32 {
        let starts = &self.test.line_starts;
        let mut i = *hint;
        if starts.get(i).is_some_and(|&s| s <= at) {
            // Scan a few lines forward; fall back to the binary search.
            for _ in 0..8 {
                match starts.get(i + 1) {
                    Some(&next) if next <= at => i += 1,
                    _ => {
                        *hint = i;
                        return (i + 1) as u32;
                    }
                }
            }
        }
        let line = self.test.line_of(at);
        *hint = (line as usize).saturating_sub(1);
        line
    }

    /// Points the jump at `at` to `target`.
    fn patch(b: &mut ThreadBuilder, at: InstrId, to: InstrId) {
        match &mut b.code[at.index()].instr {
            Instr::Branch { target, .. } | Instr::Jump { target } => *target = to,
            other => debug_assert!(false, "relaxlab internal error: patching {other:?}"),
        }
    }

    fn block(&mut self, b: &mut ThreadBuilder, block: &ast::Block) {
        for s in &block.stmts {
            self.stmt(b, s);
        }
    }

    /// One statement. The recursion through nested blocks passes through
    /// `stmt`, `if_chain`, `while_loop` and `block` only, whose frames are
    /// kept small: it goes as deep as the nesting (book: language.md, Nesting).
    fn stmt(&mut self, b: &mut ThreadBuilder, s: &Stmt) {
        match &s.kind {
            StmtKind::If {
                cond,
                then,
                elifs,
                els,
            } => self.if_chain(b, s, cond, then, elifs, els.as_ref()),
            StmtKind::While { cond, body } => self.while_loop(b, s, cond, body),
            _ => self.simple(b, s),
        }
    }

    /// WHILE: `L0: Branch c -> L1; body; Jump -> L0; L1:`.
    fn while_loop(&mut self, b: &mut ThreadBuilder, s: &Stmt, cond: &ast::Expr, body: &ast::Block) {
        let head = self.branch(b, cond, s.span, stmt_text(s));
        b.loops.push(s.span);
        self.block(b, body);
        b.loops.pop();
        self.loop_back(b, s, body, head);
    }

    /// A `Branch` on `cond` whose target is patched later.
    #[inline(never)]
    fn branch(
        &mut self,
        b: &mut ThreadBuilder,
        cond: &ast::Expr,
        span: Span,
        text: String,
    ) -> InstrId {
        let cond = self.expr(b, cond, Access::None);
        self.emit(
            b,
            Instr::Branch {
                cond,
                target: InstrId(0),
            },
            span,
            text,
        )
    }

    /// The `Jump` out of an `if` arm (span: the `else` part it skips),
    /// patched later.
    #[inline(never)]
    fn jump(&mut self, b: &mut ThreadBuilder, span: Span) -> InstrId {
        self.emit(
            b,
            Instr::Jump { target: InstrId(0) },
            span,
            "else".to_string(),
        )
    }

    /// The end of a `while`: the jump back to its head (span: the closing
    /// `}`), and the head's exit.
    #[inline(never)]
    fn loop_back(&mut self, b: &mut ThreadBuilder, s: &Stmt, body: &ast::Block, head: InstrId) {
        let close = Span::new(
            body.span.end.saturating_sub(1) as usize,
            body.span.end as usize,
        );
        self.emit(b, Instr::Jump { target: head }, close, stmt_text(s));
        let end = b.next_id();
        Self::patch(b, head, end);
    }

    /// A statement without blocks: one instruction, or none after an error.
    #[inline(never)]
    fn simple(&mut self, b: &mut ThreadBuilder, s: &Stmt) {
        let text = stmt_text(s);
        let instr = match &s.kind {
            StmtKind::Load { dst, loc, ord } => self.load(b, dst, loc, *ord),
            StmtKind::Store { loc, val, ord } => self.store(b, loc, val, *ord),
            StmtKind::Rmw {
                dst,
                loc,
                op,
                operand,
                ord,
                ..
            } => {
                let l = self.access_loc(loc);
                let dst = self.result_reg(b, dst, loc);
                let operand = self.expr(b, operand, Access::Loc(&loc.name, loc.span));
                let ord = self.rmw_ord(*ord);
                match (l, ord) {
                    (Some(loc), Some(ord)) => {
                        self.use_loc(loc, true);
                        Some(Instr::Rmw {
                            dst,
                            loc,
                            op: *op,
                            operand,
                            ord,
                        })
                    }
                    _ => None,
                }
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
                let l = self.access_loc(loc);
                let dst = self.result_reg(b, dst, loc);
                let ok = ok.as_ref().map(|ok| self.result_reg(b, ok, loc));
                let access = Access::Loc(&loc.name, loc.span);
                let expected = self.expr(b, expected, access);
                let desired = self.expr(b, desired, access);
                let ord = self.rmw_ord(*ord);
                let fail = match (fail, ord) {
                    (Some(f), _) => self.cas_fail_ord(*f),
                    (None, Some(o)) => Some(o.read_part()),
                    (None, None) => None,
                };
                match (l, ord, fail) {
                    (Some(loc), Some(ord), Some(fail)) => {
                        self.use_loc(loc, true);
                        Some(Instr::Cas {
                            dst,
                            loc,
                            expected,
                            desired,
                            ord,
                            fail,
                            weak: *weak,
                            ok,
                        })
                    }
                    _ => None,
                }
            }
            StmtKind::Fence { kind, kind_span } => self.fence(*kind, *kind_span),
            StmtKind::Assign { dst, val } => self.assign(b, dst, val),
            StmtKind::If { .. } | StmtKind::While { .. } => {
                debug_assert!(
                    false,
                    "relaxlab internal error: compound statement in simple"
                );
                None
            }
            StmtKind::Assert(e) => Some(Instr::Assert {
                cond: self.expr(b, e, Access::None),
            }),
            StmtKind::Assume(e) => Some(Instr::Assume {
                cond: self.expr(b, e, Access::None),
            }),
            StmtKind::Fork { dst, .. } => self.fork(b, s, dst),
            StmtKind::Join(h) => self.join(b, h),
        };
        // After an error the instruction is left out: the program is not
        // returned anyway, and lowering goes on to find more errors.
        if let Some(instr) = instr {
            self.emit(b, instr, s.span, text);
        }
    }

    /// The location of an access statement, which must be declared.
    fn access_loc(&mut self, loc: &ast::Ident) -> Option<LocId> {
        let l = self.loc(&loc.name);
        if l.is_none() {
            self.undeclared(loc);
        }
        l
    }

    /// The register receiving a value read from `loc`: a location there
    /// would be a second shared access.
    fn result_reg(&mut self, b: &mut ThreadBuilder, dst: &ast::Ident, loc: &ast::Ident) -> RegId {
        if self.loc(&dst.name).is_some() {
            self.two_accesses(
                loc,
                dst,
                format!(
                    "read `{}` into a register, then store it in `{}` in a second statement",
                    loc.name, dst.name
                ),
            );
            // Not a register: leave the thread's register list alone.
            return RegId(0);
        }
        b.reg(&dst.name)
    }

    fn two_accesses(&mut self, first: &ast::Ident, second: &ast::Ident, help: String) {
        self.errors.push(
            LowerError::TwoAccesses {
                span: sspan(first.span),
                loc: first.name.clone(),
                other_span: sspan(second.span),
                other: second.name.clone(),
                help,
            }
            .into(),
        );
    }

    pub(super) fn use_loc(&mut self, loc: LocId, atomic: bool) {
        let u = &mut self.uses[loc.index()];
        if atomic {
            u.atomic = true;
        } else {
            u.non_atomic = true;
        }
    }

    /// LOAD: `r = load(x, MO)`, MO in `na rlx acq sc`.
    fn load(
        &mut self,
        b: &mut ThreadBuilder,
        dst: &ast::Ident,
        loc: &ast::Ident,
        ord: ast::Order,
    ) -> Option<Instr> {
        let l = self.access_loc(loc);
        let dst = self.result_reg(b, dst, loc);
        let ord = match ord.order {
            MemOrder::Na => Some(ReadOrd::Na),
            MemOrder::Rlx => Some(ReadOrd::Rlx),
            MemOrder::Acq => Some(ReadOrd::Acq),
            MemOrder::Sc => Some(ReadOrd::Sc),
            MemOrder::Rel | MemOrder::AcqRel => {
                self.errors.push(
                    LowerError::LoadOrder {
                        order: ord.written,
                        span: sspan(ord.span),
                    }
                    .into(),
                );
                None
            }
        };
        let (loc, ord) = (l?, ord?);
        self.use_loc(loc, ord != ReadOrd::Na);
        Some(Instr::Load { dst, loc, ord })
    }

    /// STORE: `store(x, E, MO)`, MO in `na rlx rel sc`.
    fn store(
        &mut self,
        b: &mut ThreadBuilder,
        loc: &ast::Ident,
        val: &ast::Expr,
        ord: ast::Order,
    ) -> Option<Instr> {
        let l = self.access_loc(loc);
        let val = self.expr(b, val, Access::Loc(&loc.name, loc.span));
        let ord = match ord.order {
            MemOrder::Na => Some(WriteOrd::Na),
            MemOrder::Rlx => Some(WriteOrd::Rlx),
            MemOrder::Rel => Some(WriteOrd::Rel),
            MemOrder::Sc => Some(WriteOrd::Sc),
            MemOrder::Acq | MemOrder::AcqRel => {
                self.errors.push(
                    LowerError::StoreOrder {
                        order: ord.written,
                        span: sspan(ord.span),
                    }
                    .into(),
                );
                None
            }
        };
        let (loc, ord) = (l?, ord?);
        self.use_loc(loc, ord != WriteOrd::Na);
        Some(Instr::Store { loc, val, ord })
    }

    /// RMW ORDER: any order but `na`.
    fn rmw_ord(&mut self, ord: ast::Order) -> Option<RmwOrd> {
        Some(match ord.order {
            MemOrder::Rlx => RmwOrd::Rlx,
            MemOrder::Acq => RmwOrd::Acq,
            MemOrder::Rel => RmwOrd::Rel,
            MemOrder::AcqRel => RmwOrd::AcqRel,
            MemOrder::Sc => RmwOrd::Sc,
            MemOrder::Na => {
                self.errors.push(
                    LowerError::RmwNa {
                        span: sspan(ord.span),
                    }
                    .into(),
                );
                return None;
            }
        })
    }

    /// CAS FAILURE ORDER: the order of a load, atomic.
    fn cas_fail_ord(&mut self, ord: ast::Order) -> Option<ReadOrd> {
        Some(match ord.order {
            MemOrder::Rlx => ReadOrd::Rlx,
            MemOrder::Acq => ReadOrd::Acq,
            MemOrder::Sc => ReadOrd::Sc,
            MemOrder::Na | MemOrder::Rel | MemOrder::AcqRel => {
                self.errors.push(
                    LowerError::CasFailOrder {
                        order: ord.written,
                        span: sspan(ord.span),
                    }
                    .into(),
                );
                return None;
            }
        })
    }

    /// FENCE: C11 `acq rel acq_rel sc`, or a hardware barrier.
    fn fence(&mut self, kind: FenceArg, span: Span) -> Option<Instr> {
        let kind = match kind {
            FenceArg::Hw(h) => FenceKind::Hw(h),
            FenceArg::C11(MemOrder::Acq) => FenceKind::C11(C11Fence::Acq),
            FenceArg::C11(MemOrder::Rel) => FenceKind::C11(C11Fence::Rel),
            FenceArg::C11(MemOrder::AcqRel) => FenceKind::C11(C11Fence::AcqRel),
            FenceArg::C11(MemOrder::Sc) => FenceKind::C11(C11Fence::Sc),
            FenceArg::C11(o @ (MemOrder::Na | MemOrder::Rlx)) => {
                self.errors.push(
                    LowerError::FenceKind {
                        kind: o.as_str(),
                        span: sspan(span),
                    }
                    .into(),
                );
                return None;
            }
        };
        Some(Instr::Fence { kind })
    }

    /// `dst = val`: a plain store when `dst` is a location, a plain load
    /// when `val` is a bare location, else a register assignment.
    fn assign(
        &mut self,
        b: &mut ThreadBuilder,
        dst: &ast::Ident,
        val: &ast::Expr,
    ) -> Option<Instr> {
        if let Some(loc) = self.loc(&dst.name) {
            // PLAIN STORE: `x = E` is `store(x, E, na)`.
            if let ExprKind::Var(src) = &val.kind {
                if self.loc(&src.name).is_some() {
                    self.two_accesses(
                        dst,
                        src,
                        format!(
                            "load `{}` into a register first: `r = {}; {} = r;`",
                            src.name, src.name, dst.name
                        ),
                    );
                    return None;
                }
            }
            let val = self.expr(b, val, Access::Loc(&dst.name, dst.span));
            self.use_loc(loc, false);
            return Some(Instr::Store {
                loc,
                val,
                ord: WriteOrd::Na,
            });
        }
        let reg = b.reg(&dst.name);
        if let ExprKind::Var(src) = &val.kind {
            if let Some(loc) = self.loc(&src.name) {
                // PLAIN LOAD: `r = x` is `r = load(x, na)`.
                self.use_loc(loc, false);
                return Some(Instr::Load {
                    dst: reg,
                    loc,
                    ord: ReadOrd::Na,
                });
            }
        }
        let val = self.expr(b, val, Access::None);
        Some(Instr::Assign { dst: reg, val })
    }

    /// FORK: `t = fork NAME { ... }`, not inside a loop.
    fn fork(&mut self, b: &mut ThreadBuilder, s: &Stmt, dst: &ast::Ident) -> Option<Instr> {
        let child = self.fork_ids.get(&(s as *const Stmt)).copied();
        if let Some(&loop_span) = b.loops.last() {
            self.errors.push(
                LowerError::ForkInLoop {
                    span: sspan(s.span),
                    loop_span: sspan(loop_span),
                }
                .into(),
            );
            return None;
        }
        if self.loc(&dst.name).is_some() {
            self.errors.push(
                LowerError::ForkIntoLocation {
                    name: dst.name.clone(),
                    span: sspan(dst.span),
                }
                .into(),
            );
            return None;
        }
        let dst = b.reg(&dst.name);
        let child = child.expect("relaxlab internal error: fork without a thread id");
        self.fork_sites[child.index()] = Some((b.id, b.next_id()));
        Some(Instr::Fork { dst, child })
    }

    /// JOIN: `join(t)` where some `fork` of this thread assigns `t`.
    fn join(&mut self, b: &mut ThreadBuilder, h: &ast::Ident) -> Option<Instr> {
        if self.loc(&h.name).is_some() || !b.handles.contains(&h.name) {
            let help = if self.loc(&h.name).is_some() {
                format!("`{}` is a shared location; join the register `t` of a `t = fork NAME {{ ... }};`", h.name)
            } else {
                did_you_mean(&h.name, b.handles.iter().map(String::as_str), || {
                    "assign a handle first: `t = fork NAME { ... };` then `join(t);`".to_string()
                })
            };
            self.errors.push(
                LowerError::JoinWithoutFork {
                    reg: h.name.clone(),
                    span: sspan(h.span),
                    help,
                }
                .into(),
            );
            return None;
        }
        Some(Instr::Join {
            handle: b.reg(&h.name),
        })
    }

    /// A register expression. A location in it is an error: "two shared
    /// accesses" when the statement has `access`, else "location inside an
    /// expression".
    fn expr(&mut self, b: &mut ThreadBuilder, e: &ast::Expr, access: Access<'_>) -> Expr {
        match &e.kind {
            ExprKind::Int(v) => Expr::Const(*v),
            ExprKind::Bool(b) => Expr::Const(i64::from(*b)),
            ExprKind::Var(i) => {
                if self.loc(&i.name).is_some() {
                    self.location_in_expr(i, access);
                    return Expr::Const(0);
                }
                Expr::Reg(b.reg(&i.name))
            }
            ExprKind::Unary(op, a) => Expr::Unary(*op, Box::new(self.expr(b, a, access))),
            ExprKind::Chain { first, rest } => {
                let l = self.expr(b, first, access);
                match rest.as_slice() {
                    [(op, r)] => Expr::Binary(*op, Box::new(l), Box::new(self.expr(b, r, access))),
                    _ => Expr::Chain(
                        Box::new(l),
                        rest.iter()
                            .map(|(op, r)| (*op, self.expr(b, r, access)))
                            .collect(),
                    ),
                }
            }
        }
    }

    /// IF: `if (c0) A0 else if (c1) A1 ... else B`. Arm `k` is a `Branch`
    /// to the next arm; each arm but the last ends with a `Jump` (span: the
    /// rest of the chain, as the `else` block it stands for) to the end.
    fn if_chain(
        &mut self,
        b: &mut ThreadBuilder,
        s: &Stmt,
        cond: &ast::Expr,
        then: &ast::Block,
        elifs: &[ast::ElseIf],
        els: Option<&ast::Block>,
    ) {
        // The end jumps to patch once the end is known.
        let mut jumps = Vec::new();
        let mut arm = (cond, then, s.span, stmt_text(s));
        let mut rest = elifs.iter();
        loop {
            let (cond, then, span, text) = arm;
            let branch = self.branch(b, cond, span, text);
            self.block(b, then);
            // The `else` part: the next arm with the rest of the chain, or
            // the final block.
            let next = rest.next();
            let else_span = match (next, els) {
                (Some(a), _) => Some(Span {
                    start: a.span.start,
                    end: s.span.end,
                }),
                (None, Some(e)) => Some(e.span),
                (None, None) => None,
            };
            let Some(else_span) = else_span else {
                let end = b.next_id();
                Self::patch(b, branch, end);
                break;
            };
            jumps.push(self.jump(b, else_span));
            let else_start = b.next_id();
            Self::patch(b, branch, else_start);
            match next {
                Some(a) => arm = (&a.cond, &a.then, else_span, if_text(&a.cond)),
                None => {
                    if let Some(e) = els {
                        self.block(b, e);
                    }
                    break;
                }
            }
        }
        let end = b.next_id();
        for j in jumps {
            Self::patch(b, j, end);
        }
    }

    fn location_in_expr(&mut self, i: &ast::Ident, access: Access<'_>) {
        let err = match access {
            Access::Loc(name, span) => LowerError::TwoAccesses {
                span: sspan(span),
                loc: name.to_string(),
                other_span: sspan(i.span),
                other: i.name.clone(),
                help: format!(
                    "load `{}` into a register first: `r = load({}, rlx);`, then use `r`",
                    i.name, i.name
                ),
            },
            Access::None => LowerError::LocationInExpr {
                loc: i.name.clone(),
                span: sspan(i.span),
                help: format!(
                    "load `{}` into a register first (`r = {};` or `r = load({}, rlx);`) and use `r`",
                    i.name, i.name, i.name
                ),
            },
        };
        self.errors.push(err.into());
    }
}
