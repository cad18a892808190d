//! The syntax tree of a litmus file, with spans and comments.
//!
//! The tree is syntactic: it does not yet know which identifiers are
//! locations and which are registers (`r = x;` may be a plain load or a
//! register copy; lowering decides from the `init` block). Operation names,
//! memory orders and fence kinds are already resolved by the parser, so the
//! formatter prints the canonical spelling (`relaxed` becomes `rlx`, `Load`
//! becomes `load`).
//!
//! Flat sequences are flat in the tree, so that their length never becomes
//! the depth of a recursion (book: language.md, Nesting): a
//! chain of binary operators is one [`ExprKind::Chain`], a chain of `/\` or
//! `\/` one [`PropKind::And`] or [`PropKind::Or`], and `else if` arms are a
//! list in [`StmtKind::If`]. What nests (blocks, parentheses around a right
//! operand, prefix operators, `=>`) is bounded by the parser
//! ([`crate::MAX_NESTING`]).
//!
//! Every node carries the [`Span`] of its source text, and the nodes the
//! formatter prints on lines of their own carry their [`Trivia`]: the
//! comments around them and whether a blank line precedes them. A tree
//! built by hand (or edited, say to insert a fence) uses
//! `Trivia::default()` for new nodes. [`Test::clear_spans`] sets every span
//! to the empty span, so that two trees can be compared "modulo spans"
//! (the formatter's round-trip property); comments are kept.

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

/// A comment as written: `// ...` (without the line break) or `/* ... */`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    pub text: String,
    /// An empty line separates this comment from what precedes it.
    pub blank_before: bool,
    pub span: Span,
}

impl Comment {
    /// A `//` comment is printed at the end of its line: nothing may follow
    /// it there.
    pub fn is_line(&self) -> bool {
        self.text.starts_with("//")
    }
}

/// What the formatter keeps around a node besides the node itself.
/// Invariant: the first node of a list and its first comment have
/// `blank_before == false` (the formatter decides the spacing there).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trivia {
    /// Comments on the lines before the node, and comments that were
    /// written inside it between its tokens (the formatter cannot keep
    /// those in place, so it moves them before the node).
    pub before: Vec<Comment>,
    /// An empty line separates the node (after its `before` comments) from
    /// what precedes it.
    pub blank_before: bool,
    /// Comments after the node on the line where it ends.
    pub after: Vec<Comment>,
    /// For an entry of `init { }` or `expect { }`: the entry starts a line
    /// of its own (it is not on the line of the `{` or of the entry before
    /// it). The formatter keeps the lines of entries as written. Layout
    /// only: [`Test::clear_spans`] resets it.
    pub new_line: bool,
}

impl Trivia {
    /// No comments and no blank line.
    pub fn is_empty(&self) -> bool {
        self.before.is_empty() && self.after.is_empty() && !self.blank_before
    }

    fn clear_spans(&mut self) {
        for c in self.before.iter_mut().chain(&mut self.after) {
            c.span = Span::default();
        }
        self.new_line = false;
    }
}

/// A whole litmus file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Test {
    /// The name after `test`: any non-blank, non-control characters.
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
    /// Whether some `observe { }` or `locations [ ]` block is written: an
    /// empty one observes nothing (herd's rule for a test whose condition
    /// and `locations` name nothing), where no block at all observes every
    /// register and location.
    pub observe_block: bool,
    /// The entries of `expect { }`, in order.
    pub expect: Vec<ExpectEntry>,
    /// Byte offsets at which the source lines begin (the first is 0), for
    /// `Instruction::line`. Empty for a tree built by hand (every line is
    /// then 1); cleared by [`Test::clear_spans`].
    pub line_starts: Vec<u32>,
    /// The comments of the sections that are not nodes of their own, and
    /// where those sections were written.
    pub sections: Sections,
}

/// The sections of a file that have no node of their own: their comments
/// and spans (empty spans for a section that is absent or built by hand).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sections {
    /// Around the `test NAME "doc"` line (a file's opening comments).
    pub header: Trivia,
    pub header_span: Span,
    /// Around the `init { }` block as a whole.
    pub init: Trivia,
    /// Inside `init { }` after its last entry.
    pub init_end: Vec<Comment>,
    pub init_span: Span,
    /// Around the filter (and inside it).
    pub filter: Trivia,
    pub filter_span: Span,
    /// Around and inside the `observe { }` and `locations [ ]` blocks.
    pub observe: Trivia,
    pub observe_spans: Vec<Span>,
    /// Around the `expect { }` block as a whole.
    pub expect: Trivia,
    /// Inside `expect { }` after its last entry.
    pub expect_end: Vec<Comment>,
    pub expect_span: Span,
    /// After everything else.
    pub end: Vec<Comment>,
}

impl Test {
    /// The 1-based line of byte offset `at`.
    pub fn line_of(&self, at: u32) -> u32 {
        self.line_starts.partition_point(|&s| s <= at).max(1) as u32
    }
}

/// `x = 0;` or `x;` (value 0) in the `init` block; or an array, `t[2] =
/// {1, -1};` or `t[2];` (every cell 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitEntry {
    pub loc: Ident,
    /// `None` when no value was written; the location then starts at 0.
    /// Always `None` for an array.
    pub value: Option<i64>,
    /// `Some` for an array.
    pub array: Option<ArrayInit>,
    pub span: Span,
    pub trivia: Trivia,
}

/// The cells of an array declared in `init` (book: language.md, Arrays).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrayInit {
    /// The number of cells, at least 1.
    pub len: usize,
    /// The values written (`= {1, -1}`), one per cell; `None` when none
    /// was written: every cell then starts at 0.
    pub values: Option<Vec<i64>>,
    /// The names of the cells, `t[0]`, `t[1]`, ...: the locations the
    /// array declares.
    pub cells: Vec<String>,
}

/// The name of cell `index` of array `array`: `t[1]`.
pub fn cell_name(array: &str, index: usize) -> String {
    format!("{array}[{index}]")
}

/// `thread NAME { ... }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadDecl {
    pub name: Ident,
    pub body: Block,
    pub span: Span,
    pub trivia: Trivia,
}

/// A `{ ... }` block of statements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    /// From `{` to `}` inclusive.
    pub span: Span,
    /// Comments on the line of `{`, after it.
    pub open: Vec<Comment>,
    /// Comments after the last statement, before `}`.
    pub close: Vec<Comment>,
}

impl Block {
    /// A block of `stmts` without comments.
    pub fn new(stmts: Vec<Stmt>, span: Span) -> Self {
        Block {
            stmts,
            span,
            open: Vec::new(),
            close: Vec::new(),
        }
    }
}

/// A statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
    pub trivia: Trivia,
}

impl Stmt {
    /// A statement without comments.
    pub fn new(kind: StmtKind, span: Span) -> Self {
        Stmt {
            kind,
            span,
            trivia: Trivia::default(),
        }
    }

    /// The blocks directly inside the statement, in source order.
    pub fn blocks(&self) -> Vec<&Block> {
        match &self.kind {
            StmtKind::If {
                then, elifs, els, ..
            } => std::iter::once(then)
                .chain(elifs.iter().map(|a| &a.then))
                .chain(els)
                .collect(),
            StmtKind::While { body, .. } | StmtKind::Fork { body, .. } => vec![body],
            _ => Vec::new(),
        }
    }

    /// [`Stmt::blocks`], mutably.
    pub fn blocks_mut(&mut self) -> Vec<&mut Block> {
        self.kind.blocks_mut()
    }
}

impl StmtKind {
    /// The blocks directly inside the statement, in source order.
    pub fn blocks_mut(&mut self) -> Vec<&mut Block> {
        match self {
            StmtKind::If {
                then, elifs, els, ..
            } => std::iter::once(then)
                .chain(elifs.iter_mut().map(|a| &mut a.then))
                .chain(els)
                .collect(),
            StmtKind::While { body, .. } | StmtKind::Fork { body, .. } => vec![body],
            _ => Vec::new(),
        }
    }
}

/// A memory order as written, before lowering checks it against the
/// operation (book: language.md, Statements).
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

/// An order with where and how it was written (`release` for `rel`, which
/// diagnostics quote as written).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Order {
    pub order: MemOrder,
    pub span: Span,
    pub written: &'static str,
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

/// One `else if (cond) { then }` arm of an `if`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElseIf {
    pub cond: Expr,
    pub then: Block,
    /// From `if` to the arm's closing `}`.
    pub span: Span,
}

/// The statement forms of the language (book: language.md, Statements).
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
    /// `dst [, ok] = cas(loc, expected, desired, ord [, fail]);`, or
    /// `cas_weak` (`weak`), which may fail spuriously; `ok` receives the
    /// success flag.
    Cas {
        dst: Ident,
        ok: Option<Ident>,
        loc: Ident,
        expected: Expr,
        desired: Expr,
        ord: Order,
        fail: Option<Order>,
        weak: bool,
    },
    /// `fence(kind);`
    Fence { kind: FenceArg, kind_span: Span },
    /// `dst = val;`: a register assignment, a plain load (`r = x`) or a
    /// plain store (`x = E`); lowering tells which.
    Assign { dst: Ident, val: Expr },
    /// `if (cond) { then } else if (..) { .. } ... else { els }`. An
    /// `else { if .. }` written with braces is an `els` block holding the
    /// `if`, and is printed so.
    If {
        cond: Expr,
        then: Block,
        elifs: Vec<ElseIf>,
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
    /// `true` or `false`, C's 1 and 0 (kept as written for the formatter).
    Bool(bool),
    /// A register, or (in the forms lowering accepts) a location.
    Var(Ident),
    Unary(UnOp, Box<Expr>),
    /// `first op1 e1 op2 e2 ...`, grouped from the left whatever the
    /// operators: `((first op1 e1) op2 e2) ...`. The parser groups by C
    /// precedence and keeps each left spine flat: `a + b * c - d` is
    /// `Chain(a, [+ Chain(b, [* c]), - d])`, `(a + b) * c` is
    /// `Chain(a, [+ b, * c])`.
    ///
    /// Invariant (the parser's normal form, which the formatter's
    /// round trip relies on): `rest` is non-empty and `first` is not a
    /// `Chain`.
    Chain {
        first: Box<Expr>,
        rest: Vec<(BinOp, Expr)>,
    },
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
    pub trivia: Trivia,
}

/// A proposition of the condition language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prop {
    pub kind: PropKind,
    pub span: Span,
}

/// Proposition forms. `/\` and `\/` are associative, so a chain of either
/// is one node. Invariant (the parser's normal form): an `And` has at least
/// two operands and none of them is an `And`; likewise `Or`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PropKind {
    True,
    False,
    Atom { obs: ObsItem, op: CmpOp, value: i64 },
    Not(Box<Prop>),
    And(Vec<Prop>),
    Or(Vec<Prop>),
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
    pub trivia: Trivia,
}

impl Test {
    /// Sets every span of the tree to the empty span: two trees equal after
    /// this differ at most in layout.
    pub fn clear_spans(&mut self) {
        self.name.span = Span::default();
        self.line_starts.clear();
        let s = &mut self.sections;
        for t in [
            &mut s.header,
            &mut s.init,
            &mut s.filter,
            &mut s.observe,
            &mut s.expect,
        ] {
            t.clear_spans();
        }
        for c in s
            .init_end
            .iter_mut()
            .chain(&mut s.expect_end)
            .chain(&mut s.end)
        {
            c.span = Span::default();
        }
        s.header_span = Span::default();
        s.init_span = Span::default();
        s.filter_span = Span::default();
        s.observe_spans.clear();
        s.expect_span = Span::default();
        for e in &mut self.init {
            e.loc.span = Span::default();
            e.span = Span::default();
            e.trivia.clear_spans();
        }
        let mut blocks: Vec<&mut Block> = Vec::new();
        for t in &mut self.threads {
            t.name.span = Span::default();
            t.span = Span::default();
            t.trivia.clear_spans();
            blocks.push(&mut t.body);
        }
        // Iterative over blocks: nesting is bounded, but every walk over
        // statements uses one shape.
        while let Some(b) = blocks.pop() {
            b.span = Span::default();
            for c in b.open.iter_mut().chain(&mut b.close) {
                c.span = Span::default();
            }
            for st in &mut b.stmts {
                st.clear_own_spans();
                blocks.extend(st.blocks_mut());
            }
        }
        if let Some(c) = &mut self.condition {
            c.span = Span::default();
            c.trivia.clear_spans();
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
            e.trivia.clear_spans();
        }
    }
}

impl Stmt {
    /// Clears the spans of the statement, its trivia and expressions, not
    /// those of its blocks.
    fn clear_own_spans(&mut self) {
        self.span = Span::default();
        self.trivia.clear_spans();
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
                ok,
                loc,
                expected,
                desired,
                ord,
                fail,
                ..
            } => {
                clear(dst);
                if let Some(ok) = ok {
                    clear(ok);
                }
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
            StmtKind::If { cond, elifs, .. } => {
                cond.clear_spans();
                for a in elifs {
                    a.cond.clear_spans();
                    a.span = Span::default();
                }
            }
            StmtKind::While { cond, .. } => cond.clear_spans(),
            StmtKind::Assert(e) | StmtKind::Assume(e) => e.clear_spans(),
            StmtKind::Fork { dst, name, .. } => {
                clear(dst);
                clear(name);
            }
            StmtKind::Join(h) => clear(h),
        }
    }
}

impl Expr {
    fn clear_spans(&mut self) {
        self.span = Span::default();
        match &mut self.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) => {}
            ExprKind::Var(i) => i.span = Span::default(),
            ExprKind::Unary(_, e) => e.clear_spans(),
            ExprKind::Chain { first, rest } => {
                first.clear_spans();
                for (_, e) in rest {
                    e.clear_spans();
                }
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
            PropKind::And(ps) | PropKind::Or(ps) => {
                for p in ps {
                    p.clear_spans();
                }
            }
            PropKind::Implies(a, b) => {
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
