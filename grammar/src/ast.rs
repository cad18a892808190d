//! The syntax tree of a litmus file, with spans.
//!
//! The tree is syntactic: it does not yet know which identifiers are
//! locations and which are registers (`r = x;` may be a plain load or a
//! register copy; lowering decides from the `init` block). Operation names,
//! memory orders and fence kinds are already resolved by the parser, so the
//! formatter prints the canonical spelling (`relaxed` becomes `rlx`, `Load`
//! becomes `load`).
//!
//! Every node carries the [`Span`] of its source text. [`Test::clear_spans`]
//! sets every span to the empty span, so that two trees can be compared
//! "modulo spans" (the formatter's round-trip property).

pub use relaxlab_semantics::ir::{BinOp, CmpOp, HwFence, RmwOp, Span, UnOp, Verdict};

/// A name with where it was written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

impl Ident {
    pub fn new(name: impl Into<String>, span: Span) -> Self {
        Ident {
            name: name.into(),
            span,
        }
    }
}

/// A whole litmus file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Test {
    /// The name after `test`: any non-blank characters.
    pub name: Ident,
    pub doc: Option<String>,
    /// The `init` block, in the order written (empty without one).
    pub init: Vec<InitEntry>,
    pub threads: Vec<ThreadDecl>,
    pub condition: Option<Condition>,
    /// herd's `filter (P)`, before or after the condition.
    pub filter: Option<Prop>,
    /// The items of every `observe { }` and `locations [ ]` block, in order.
    pub observe: Vec<ObsItem>,
    /// The entries of `expect { }`, in order.
    pub expect: Vec<ExpectEntry>,
    /// Byte offsets at which the source lines begin (the first is 0), for
    /// `Instruction::line`. Empty for a tree built by hand (every line is
    /// then 1); cleared by [`Test::clear_spans`].
    pub line_starts: Vec<u32>,
}

impl Test {
    /// The 1-based line of byte offset `at`.
    pub fn line_of(&self, at: u32) -> u32 {
        self.line_starts.partition_point(|&s| s <= at).max(1) as u32
    }
}

/// `x = 0;` or `x;` (value 0) in the `init` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitEntry {
    pub loc: Ident,
    /// `None` when no value was written; the location then starts at 0.
    pub value: Option<i64>,
    pub span: Span,
}

/// `thread NAME { ... }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadDecl {
    pub name: Ident,
    pub body: Block,
    pub span: Span,
}

/// A `{ ... }` block of statements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    /// From `{` to `}` inclusive.
    pub span: Span,
}

/// A statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// A memory order as written, before lowering checks it against the
/// operation (LANGUAGE.md, "Statements").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemOrder {
    Na,
    Rlx,
    Acq,
    Rel,
    AcqRel,
    Sc,
}

impl MemOrder {
    /// The canonical (short) spelling the formatter prints.
    pub fn as_str(self) -> &'static str {
        match self {
            MemOrder::Na => "na",
            MemOrder::Rlx => "rlx",
            MemOrder::Acq => "acq",
            MemOrder::Rel => "rel",
            MemOrder::AcqRel => "acq_rel",
            MemOrder::Sc => "sc",
        }
    }
}

/// An order with where it was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Order {
    pub order: MemOrder,
    pub span: Span,
}

/// A C11 fence kind as written (`acq rel acq_rel sc`), kept apart from the
/// hardware barriers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenceArg {
    C11(MemOrder),
    Hw(HwFence),
}

/// How an RMW was written: `fetch_add(x, e, mo)` or `rmw(x, add, e, mo)`.
/// Both lower alike; the formatter keeps the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RmwForm {
    /// `fetch_add` ... `fetch_min`, `exchange`.
    Named,
    /// `rmw(x, OP, E, MO)`.
    Generic,
}

/// The statement forms of LANGUAGE.md.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StmtKind {
    /// `dst = load(loc, ord);`
    Load { dst: Ident, loc: Ident, ord: Order },
    /// `store(loc, val, ord);`
    Store { loc: Ident, val: Expr, ord: Order },
    /// `dst = fetch_add(loc, operand, ord);` or `dst = rmw(loc, add, operand, ord);`
    Rmw {
        dst: Ident,
        loc: Ident,
        op: RmwOp,
        form: RmwForm,
        operand: Expr,
        ord: Order,
    },
    /// `dst = cas(loc, expected, desired, ord [, fail]);`
    Cas {
        dst: Ident,
        loc: Ident,
        expected: Expr,
        desired: Expr,
        ord: Order,
        fail: Option<Order>,
    },
    /// `fence(kind);`
    Fence { kind: FenceArg, kind_span: Span },
    /// `dst = val;`: a register assignment, a plain load (`r = x`) or a
    /// plain store (`x = E`); lowering tells which.
    Assign { dst: Ident, val: Expr },
    /// `if (cond) { then } else { els }`; `else if` is an `els` block holding
    /// exactly one `if`.
    If {
        cond: Expr,
        then: Block,
        els: Option<Block>,
    },
    /// `while (cond) { body }`
    While { cond: Expr, body: Block },
    /// `assert(cond);`
    Assert(Expr),
    /// `assume(cond);`
    Assume(Expr),
    /// `dst = fork NAME { body };`
    Fork {
        dst: Ident,
        name: Ident,
        body: Block,
    },
    /// `join(handle);`
    Join(Ident),
}

/// An expression of a statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// Expression forms. A negated literal is folded into [`ExprKind::Int`] by
/// the parser, so `-1` is `Int(-1)`, never `Unary(Neg, Int(1))`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    Int(i64),
    /// A register, or (in the forms lowering accepts) a location.
    Var(Ident),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
}

/// herd's quantifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    Exists,
    NotExists,
    Forall,
}

/// The final condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    pub quantifier: Quantifier,
    pub prop: Prop,
    pub span: Span,
}

/// A proposition of the condition language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prop {
    pub kind: PropKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PropKind {
    True,
    False,
    Atom { obs: ObsItem, op: CmpOp, value: i64 },
    Not(Box<Prop>),
    And(Box<Prop>, Box<Prop>),
    Or(Box<Prop>, Box<Prop>),
    Implies(Box<Prop>, Box<Prop>),
}

/// A thread named in a condition: by name (`P1`) or number (`1`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThreadRef {
    Name(Ident),
    Index(u32, Span),
}

/// Something a condition or `observe` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObsItem {
    /// `T:reg`
    Reg { thread: ThreadRef, reg: Ident },
    /// `x` or `[x]`
    Loc(Ident),
}

/// One `KEY: VERDICT;` of `expect`. The key is kept as written (`ax.rc11`,
/// `tso.assert`); lowering checks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpectEntry {
    pub key: Ident,
    pub verdict: Verdict,
    pub verdict_span: Span,
    pub span: Span,
}

impl Test {
    /// Sets every span of the tree to the empty span: two trees equal after
    /// this differ at most in layout and comments.
    pub fn clear_spans(&mut self) {
        self.name.span = Span::default();
        self.line_starts.clear();
        for e in &mut self.init {
            e.loc.span = Span::default();
            e.span = Span::default();
        }
        for t in &mut self.threads {
            t.name.span = Span::default();
            t.span = Span::default();
            t.body.clear_spans();
        }
        if let Some(c) = &mut self.condition {
            c.span = Span::default();
            c.prop.clear_spans();
        }
        if let Some(f) = &mut self.filter {
            f.clear_spans();
        }
        for o in &mut self.observe {
            o.clear_spans();
        }
        for e in &mut self.expect {
            e.key.span = Span::default();
            e.verdict_span = Span::default();
            e.span = Span::default();
        }
    }
}

impl Block {
    fn clear_spans(&mut self) {
        self.span = Span::default();
        for s in &mut self.stmts {
            s.clear_spans();
        }
    }
}

impl Stmt {
    fn clear_spans(&mut self) {
        self.span = Span::default();
        let clear = |i: &mut Ident| i.span = Span::default();
        let clear_ord = |o: &mut Order| o.span = Span::default();
        match &mut self.kind {
            StmtKind::Load { dst, loc, ord } => {
                clear(dst);
                clear(loc);
                clear_ord(ord);
            }
            StmtKind::Store { loc, val, ord } => {
                clear(loc);
                val.clear_spans();
                clear_ord(ord);
            }
            StmtKind::Rmw {
                dst,
                loc,
                operand,
                ord,
                ..
            } => {
                clear(dst);
                clear(loc);
                operand.clear_spans();
                clear_ord(ord);
            }
            StmtKind::Cas {
                dst,
                loc,
                expected,
                desired,
                ord,
                fail,
            } => {
                clear(dst);
                clear(loc);
                expected.clear_spans();
                desired.clear_spans();
                clear_ord(ord);
                if let Some(f) = fail {
                    clear_ord(f);
                }
            }
            StmtKind::Fence { kind_span, .. } => *kind_span = Span::default(),
            StmtKind::Assign { dst, val } => {
                clear(dst);
                val.clear_spans();
            }
            StmtKind::If { cond, then, els } => {
                cond.clear_spans();
                then.clear_spans();
                if let Some(e) = els {
                    e.clear_spans();
                }
            }
            StmtKind::While { cond, body } => {
                cond.clear_spans();
                body.clear_spans();
            }
            StmtKind::Assert(e) | StmtKind::Assume(e) => e.clear_spans(),
            StmtKind::Fork { dst, name, body } => {
                clear(dst);
                clear(name);
                body.clear_spans();
            }
            StmtKind::Join(h) => clear(h),
        }
    }
}

impl Expr {
    fn clear_spans(&mut self) {
        self.span = Span::default();
        match &mut self.kind {
            ExprKind::Int(_) => {}
            ExprKind::Var(i) => i.span = Span::default(),
            ExprKind::Unary(_, e) => e.clear_spans(),
            ExprKind::Binary(_, a, b) => {
                a.clear_spans();
                b.clear_spans();
            }
        }
    }
}

impl Prop {
    fn clear_spans(&mut self) {
        self.span = Span::default();
        match &mut self.kind {
            PropKind::True | PropKind::False => {}
            PropKind::Atom { obs, .. } => obs.clear_spans(),
            PropKind::Not(p) => p.clear_spans(),
            PropKind::And(a, b) | PropKind::Or(a, b) | PropKind::Implies(a, b) => {
                a.clear_spans();
                b.clear_spans();
            }
        }
    }
}

impl ObsItem {
    fn clear_spans(&mut self) {
        match self {
            ObsItem::Reg { thread, reg } => {
                match thread {
                    ThreadRef::Name(i) => i.span = Span::default(),
                    ThreadRef::Index(_, s) => *s = Span::default(),
                }
                reg.span = Span::default();
            }
            ObsItem::Loc(i) => i.span = Span::default(),
        }
    }
}
