//! The syntax of herd7's C threads (herdtools7's `CBase` types, as its
//! `CParser.mly` builds them), before macro expansion: names are still
//! text, and a call `f(args)` may be a macro of the model's `.def` file.

use relaxlab_semantics::ir::{BinOp, Span};

/// The annotation of an access or a fence: none (a plain `*x`), herd's
/// tags (`__load{once}`), or a C11 memory order (`atomic_load_explicit`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ann {
    Plain,
    Tags(Vec<String>),
    /// A C11 order, by its `memory_order_*` name.
    Mo(String),
}

/// herd's `__atomic_op` operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AOp {
    Add,
    Sub,
    And,
    Or,
    Xor,
    AndNot,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Expr {
    Const(i64, Span),
    /// A name: a register (a parameter is a register holding its
    /// location's address), or a macro's formal.
    Name(String, Span),
    /// `*a` (`ann` plain: `a` is the address), `__load{tags}(e)` (`e`
    /// must be `*a` once macros are expanded), `atomic_load_explicit(a,
    /// mo)`.
    Load(Box<Expr>, Ann, Span),
    Op(BinOp, Box<Expr>, Box<Expr>, Span),
    Xchg(Box<Expr>, Box<Expr>, Ann, Span),
    CmpXchg(Box<Expr>, Box<Expr>, Box<Expr>, Vec<String>, Span),
    /// `__atomic_op_return` (`fetch` false) and `__atomic_fetch_op`.
    AtomicReturn {
        addr: Box<Expr>,
        op: AOp,
        val: Box<Expr>,
        tags: Vec<String>,
        fetch: bool,
        span: Span,
    },
    AddUnless(Box<Expr>, Box<Expr>, Box<Expr>, Vec<String>, Span),
    TryLock(Box<Expr>, Span),
    IsLocked(Box<Expr>, Span),
    Srcu(Box<Expr>, Vec<String>, Span),
    /// `atomic_fetch_OP_explicit(a, v, mo)` (`op`: `Some`) and
    /// `atomic_exchange_explicit(a, v, mo)` (`None`), and their forms
    /// without `_explicit`, `seq_cst`: herd's `Fetch` and `Exchange`.
    C11Rmw {
        addr: Box<Expr>,
        op: Option<AOp>,
        val: Box<Expr>,
        mo: String,
        span: Span,
    },
    /// `atomic_compare_exchange_{strong,weak}[_explicit](obj, expected,
    /// desired[, success, failure])`: herd's `ECas`.
    C11Cas {
        obj: Box<Expr>,
        expected: Box<Expr>,
        desired: Box<Expr>,
        success: String,
        failure: String,
        strong: bool,
        span: Span,
    },
    /// `f(args)`: a macro call.
    Call(String, Vec<Expr>, Span),
    /// A C construct herd7's semantics has no event structure for here:
    /// its name.
    Unsupported(&'static str, Span),
}

impl Expr {
    pub(crate) fn span(&self) -> Span {
        match self {
            Expr::Const(_, s)
            | Expr::Name(_, s)
            | Expr::Load(_, _, s)
            | Expr::Op(_, _, _, s)
            | Expr::Xchg(_, _, _, s)
            | Expr::CmpXchg(_, _, _, _, s)
            | Expr::AtomicReturn { span: s, .. }
            | Expr::AddUnless(_, _, _, _, s)
            | Expr::TryLock(_, s)
            | Expr::IsLocked(_, s)
            | Expr::Srcu(_, _, s)
            | Expr::C11Rmw { span: s, .. }
            | Expr::C11Cas { span: s, .. }
            | Expr::Call(_, _, s)
            | Expr::Unsupported(_, s) => *s,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Stmt {
    Seq(Vec<Stmt>, Span),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>, Span),
    While(Expr, Box<Stmt>, Span),
    /// `int *r;`: a register, of a pointer type when `pointer`.
    Decl(String, Span),
    /// `r = e;`, `int r = e;` (`Some(r)`), or `e;`.
    Assign(Option<(String, Span)>, Expr, Span),
    /// `*a = v;`, `__store{tags}(a, v);` (a being `*l`),
    /// `atomic_store_explicit(a, v, mo);`.
    Store(Expr, Expr, Ann, Span),
    Fence(Ann, Span),
    Lock(Expr, Span),
    Unlock(Expr, Span),
    AtomicOp(Expr, AOp, Expr, Vec<String>, Span),
    /// `__srcu{tags}(a)`, `__srcu{tags}(a, v)` as an instruction.
    Srcu(Expr, Vec<String>, Option<Expr>, Span),
    /// `f(args);`: a macro call.
    Call(String, Vec<Expr>, Span),
    /// A construct refused by name.
    Unsupported(&'static str, Span),
}

impl Stmt {
    pub(crate) fn span(&self) -> Span {
        match self {
            Stmt::Seq(_, s)
            | Stmt::If(_, _, _, s)
            | Stmt::While(_, _, s)
            | Stmt::Decl(_, s)
            | Stmt::Assign(_, _, s)
            | Stmt::Store(_, _, _, s)
            | Stmt::Fence(_, s)
            | Stmt::Lock(_, s)
            | Stmt::Unlock(_, s)
            | Stmt::AtomicOp(_, _, _, _, s)
            | Stmt::Srcu(_, _, _, s)
            | Stmt::Call(_, _, s)
            | Stmt::Unsupported(_, s) => *s,
        }
    }
}

/// A thread parameter: `int *x` names location `x`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Param {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Thread {
    pub number: usize,
    pub params: Vec<Param>,
    pub body: Vec<Stmt>,
    pub span: Span,
}

/// A value of the init block or of the condition: an integer or a
/// location's address (`x`, `&x`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    Int(i64),
    Addr(String),
}

/// What the condition and the `locations` list name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Loc {
    Reg(usize, String, Span),
    Mem(String, Span),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Prop {
    Const(bool),
    Atom(Loc, bool, Value, Span),
    Not(Box<Prop>),
    And(Box<Prop>, Box<Prop>),
    Or(Box<Prop>, Box<Prop>),
    Implies(Box<Prop>, Box<Prop>),
}

/// A whole test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Test {
    pub name: String,
    pub doc: Option<String>,
    /// The init block: locations with their values (in order), register
    /// values.
    pub init: Vec<(String, Option<Value>, Span)>,
    pub reg_init: Vec<(usize, String, Value, Span)>,
    /// The arrays of the init block (book: herd.md, Arrays).
    pub arrays: Vec<crate::herd::emit::HerdArray>,
    /// The type of each typed location of the init block (its last type
    /// word), which herd7 checks in a test with arrays.
    pub init_types: Vec<(String, Span)>,
    pub threads: Vec<Thread>,
    pub locations: Vec<Loc>,
    pub filter: Option<Prop>,
    /// `exists`, `~exists` or `forall`, and the proposition.
    pub condition: Option<(&'static str, Prop, Span)>,
    /// `regions:` lines (herd's memory regions), kept for their names.
    pub regions: Vec<(String, String)>,
}
