//! The syntax tree of a cat file (herd7's `AST`): expressions, which have
//! values, and instructions, which bind names, check, show or include.

use std::rc::Rc;

/// A byte range in one of the files of a model (see
/// [`super::Sources`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub file: u32,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: u32, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }
    /// From the start of `self` to the end of `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start,
            end: other.end.max(self.start),
        }
    }
}

/// A name and where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

/// Prefix and postfix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `~e`
    Compl,
    /// `e+`
    Plus,
    /// `e*`
    Star,
    /// `e?`
    Opt,
    /// `e^-1`
    Inv,
    /// `[e]`
    ToId,
}

/// Infix operators, by increasing precedence (herd7's `modelParser.mly`):
/// `|` (right), `++` (right), `;` (right), `\` (left), `&` (right), `*`
/// (cartesian product, non-associative).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Union,
    Add,
    Seq,
    Diff,
    Inter,
    Cart,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Union => "|",
            BinOp::Add => "++",
            BinOp::Seq => ";",
            BinOp::Diff => "\\",
            BinOp::Inter => "&",
            BinOp::Cart => "*",
        }
    }
}

/// A pattern: a name, `_`, or a tuple of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pat {
    /// `x`, or `_` (`None`).
    Var(Option<Name>),
    /// `(x, y, ...)`; `()` is the empty tuple.
    Tuple(Vec<Option<Name>>),
}

/// `pat = expr` (a function binding `f x = e` is `f = fun x -> e`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    pub pat: Pat,
    pub expr: Rc<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// `0`: the empty relation.
    Empty,
    /// `_`: every event.
    Universe,
    Var(String),
    /// `'name`.
    Tag(String),
    /// `()` or `(e1, ..., en)` with n >= 2.
    Tuple(Vec<Expr>),
    /// `{ e1, ..., en }`.
    Set(Vec<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `f arg`.
    App(Box<Expr>, Box<Expr>),
    /// `fun pat -> e`; the name is the bound function's, for messages.
    Fun(Pat, Rc<Expr>),
    /// `let [rec] bindings in e`.
    Let {
        rec: bool,
        bindings: Vec<Binding>,
        body: Box<Expr>,
    },
    /// `match e with 't1 -> e1 || ... || _ -> d end`.
    MatchTag {
        scrutinee: Box<Expr>,
        clauses: Vec<(Name, Expr)>,
        default: Option<Box<Expr>>,
    },
    /// `match e with {} -> e1 || x ++ s -> e2 end`: evaluated when `e` is
    /// known before any execution exists (a set of tags).
    MatchSet {
        scrutinee: Box<Expr>,
        empty: Box<Expr>,
        elem: Option<Name>,
        rest: Option<Name>,
        nonempty: Box<Expr>,
    },
    /// `try e with d`.
    Try(Box<Expr>, Box<Expr>),
    /// `if "variant" then e1 else e2` (herd7's variant conditions:
    /// strings, `not`, `&&`, `||`).
    IfVariant {
        cond: VariantCond,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    /// `if e1 = e2 then ...` (and `subset`, `in`): a comparison of values
    /// of an execution, parsed and refused.
    If,
}

/// herd7's conditions on variants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantCond {
    /// `"name"` or `variant "name"`.
    Is(String, Span),
    Not(Box<VariantCond>),
    And(Box<VariantCond>, Box<VariantCond>),
    Or(Box<VariantCond>, Box<VariantCond>),
}

/// The three checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestKind {
    Acyclic,
    Irreflexive,
    Empty,
}

/// Plain check, `flag` or `undefined_unless`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckKind {
    Check,
    Flag,
    UndefinedUnless,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ins {
    pub kind: InsKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InsKind {
    Let {
        rec: bool,
        bindings: Vec<Binding>,
    },
    Check {
        kind: CheckKind,
        negated: bool,
        test: TestKind,
        expr: Expr,
        name: Option<Name>,
    },
    /// `show e as name`.
    ShowAs(Expr, Name),
    Show(Vec<Name>),
    Unshow(Vec<Name>),
    /// `include "file"`; the span is the string's.
    Include(String, Span),
    Procedure {
        name: Name,
        param: Pat,
        body: Rc<Vec<Ins>>,
    },
    Call {
        name: Name,
        arg: Expr,
        label: Option<Name>,
    },
    /// `with x from e`.
    With(Name, Expr),
    /// `enum name = 't1 || ... || 'tn`.
    Enum(Name, Vec<Name>),
    /// `if variant "v" ... else ... end`.
    IfVariant {
        cond: VariantCond,
        then: Vec<Ins>,
        otherwise: Vec<Ins>,
    },
    /// A bell declaration `instructions R[Accesses]` (or `default
    /// R[...]`): the annotations events of kind `R` may carry.
    Events {
        kind: Name,
        args: Vec<Expr>,
        default: bool,
    },
    /// `match e with 't -> instructions || ... end` at instruction level.
    Match {
        scrutinee: Expr,
        clauses: Vec<(Name, Vec<Ins>)>,
        default: Option<Vec<Ins>>,
    },
    /// A construct relaxlab parses and refuses: what it is.
    Unsupported(&'static str),
}

/// A word of the title line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TitleWord {
    Name(String),
    Str(String),
}

/// A parsed cat file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    /// The title line: at most a few names or strings before the first
    /// instruction (herd7: an architecture and a name, or a string).
    pub title: Vec<TitleWord>,
    pub body: Vec<Ins>,
}
