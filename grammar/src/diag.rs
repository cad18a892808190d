//! Diagnostics: one concrete error type per stage (lexing, parsing,
//! lowering, model checks), each variant with a `relaxlab::...` code, a
//! label that speaks to the user and a help line, and [`Errors`], every
//! diagnostic of one file.
//!
//! Errors are data: nothing here prints. The CLI attaches the
//! source with `miette::Report::new(errors).with_source_code(..)`;
//! [`Errors::render`] renders without colour for snapshots.

use std::fmt;

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, SourceSpan};
use relaxlab_semantics::ir::Span;
use thiserror::Error;

/// The miette span of an IR span.
pub(crate) fn sspan(s: Span) -> SourceSpan {
    let start = s.start as usize;
    let len = (s.end as usize).saturating_sub(start);
    SourceSpan::new(start.into(), len)
}

/// Lexical errors: characters that are not part of the language.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq, Eq)]
pub enum LexError {
    #[error("{name} (U+{code:04X}) where {instead} is meant")]
    #[diagnostic(
        code(relaxlab::lex::lookalike),
        help("type {instead} instead: the character probably came from a word processor or a PDF")
    )]
    Lookalike {
        code: u32,
        name: &'static str,
        instead: &'static str,
        #[label("this is {name}, which only looks like {instead}")]
        span: SourceSpan,
    },
    #[error("unexpected character `{}`", .found.escape_debug())]
    #[diagnostic(
        code(relaxlab::lex::unexpected_char),
        help("a litmus file uses ASCII names, integers and the language's operators\n(book: language.md, Lexical structure)")
    )]
    UnexpectedChar {
        found: char,
        #[label("not part of the litmus language")]
        span: SourceSpan,
    },
    #[error("unterminated block comment")]
    #[diagnostic(
        code(relaxlab::lex::unterminated_comment),
        help("close the comment with `*/` (block comments do not nest)")
    )]
    UnterminatedComment {
        #[label("this comment is never closed")]
        span: SourceSpan,
    },
}

impl LexError {
    /// LOOKALIKE CHARACTERS: the error for a character the lexer does not
    /// know, naming it when it imitates ASCII punctuation
    /// ([`crate::lookalike`]).
    pub(crate) fn for_char(found: char, span: SourceSpan) -> LexError {
        match crate::lookalike::lookalike(found) {
            Some(l) => LexError::Lookalike {
                code: u32::from(found),
                name: l.name,
                instead: l.instead,
                span,
            },
            None => LexError::UnexpectedChar { found, span },
        }
    }
}

/// Syntax errors, including names the parser resolves (operations, orders,
/// fence kinds, RMW operators, verdicts).
#[derive(Debug, Error, Diagnostic, Clone, PartialEq, Eq)]
pub enum SyntaxError {
    #[error("unexpected {found}")]
    #[diagnostic(code(relaxlab::syntax::unexpected_token))]
    UnexpectedToken {
        found: String,
        #[label("expected {expected}")]
        span: SourceSpan,
        expected: String,
        #[help]
        help: String,
    },
    #[error("unexpected end of file")]
    #[diagnostic(
        code(relaxlab::syntax::unexpected_eof),
        help("the file stops in the middle of a construct; is a `}}` or `;` missing?")
    )]
    UnexpectedEof {
        #[label("expected {expected}")]
        span: SourceSpan,
        expected: String,
    },
    #[error("{}", if *holds == "nothing" { "the file is empty".to_string() } else { format!("the file holds no test, {holds}") })]
    #[diagnostic(
        code(relaxlab::syntax::empty_file),
        help("a litmus test starts with `test NAME`, then `init {{ ... }}` and one `thread NAME {{ ... }}` per thread\n(book: language.md, A file at a glance)")
    )]
    EmptyFile {
        /// What the file holds instead: "nothing", "only comments", ...
        holds: &'static str,
        #[label("no `test NAME` here")]
        span: SourceSpan,
    },
    #[error("nested too deeply: {depth} levels, the limit is {max}")]
    #[diagnostic(
        code(relaxlab::syntax::too_deep),
        help("brackets, prefix operators and operators that bind tighter than their left neighbour each nest one level; a long chain of one operator (`1 + 1 + ...`, `/\\`) or of `else if` is not nesting; split the construct, or compute part of it in a register first")
    )]
    TooDeep {
        depth: u32,
        max: u32,
        #[label("this goes past {max} levels")]
        span: SourceSpan,
    },
    #[error("an init value is an integer literal")]
    #[diagnostic(
        code(relaxlab::syntax::init_not_literal),
        help("init values are not computed: write the value itself, as in `x = 5;` or `x = -1;`")
    )]
    InitNotLiteral {
        #[label("not a literal")]
        span: SourceSpan,
    },
    #[error("an array has 1 to {max} cells")]
    #[diagnostic(
        code(relaxlab::syntax::array_size),
        help("each cell is a location of its own: declare `t[2]` for `t[0]` and `t[1]`")
    )]
    ArraySize {
        #[label("not a number of cells (or a cell) of an array")]
        span: SourceSpan,
        max: usize,
    },
    #[error("array `{name}` has {len} cells but {count} initial values")]
    #[diagnostic(
        code(relaxlab::syntax::array_values),
        help("give one value per cell, or none: every cell then starts at 0")
    )]
    ArrayValues {
        name: String,
        len: usize,
        count: usize,
        #[label("{count} values")]
        span: SourceSpan,
        #[label("{len} cells")]
        size: SourceSpan,
    },
    #[error("integer literal does not fit in 64 bits")]
    #[diagnostic(
        code(relaxlab::syntax::integer_too_large),
        help("values are i64: from -9223372036854775808 to 9223372036854775807")
    )]
    IntTooLarge {
        #[label("too large")]
        span: SourceSpan,
    },
    #[error("unknown operation `{name}`")]
    #[diagnostic(code(relaxlab::syntax::unknown_operation))]
    UnknownOperation {
        name: String,
        #[label("not an operation of the litmus language")]
        span: SourceSpan,
        #[help]
        help: String,
    },
    #[error("`{op}` returns a value that must be assigned to a register")]
    #[diagnostic(code(relaxlab::syntax::missing_result))]
    MissingResult {
        op: String,
        #[label("the result of this `{op}` goes nowhere")]
        span: SourceSpan,
        #[help]
        help: String,
    },
    #[error("`{op}` returns nothing")]
    #[diagnostic(code(relaxlab::syntax::unexpected_result))]
    UnexpectedResult {
        op: String,
        #[label("nothing to assign to `{dst}`")]
        span: SourceSpan,
        dst: String,
        #[help]
        help: String,
    },
    #[error("a second result register for `{op}`")]
    #[diagnostic(code(relaxlab::syntax::second_result))]
    SecondResult {
        op: String,
        #[label("{label}")]
        span: SourceSpan,
        label: &'static str,
        #[help]
        help: String,
    },
    #[error("`{op}` takes {expected}, not {found}")]
    #[diagnostic(code(relaxlab::syntax::argument_count))]
    ArgumentCount {
        op: String,
        expected: String,
        found: usize,
        #[label("{found} given here")]
        span: SourceSpan,
        #[help]
        help: String,
    },
    #[error("expected {what}")]
    #[diagnostic(code(relaxlab::syntax::expected_name))]
    ExpectedName {
        what: String,
        #[label("this must be a single name")]
        span: SourceSpan,
        #[help]
        help: String,
    },
    #[error("unknown {what} `{name}`")]
    #[diagnostic(code(relaxlab::syntax::unknown_name))]
    UnknownName {
        what: &'static str,
        name: String,
        #[label("not a {what}")]
        span: SourceSpan,
        #[help]
        help: String,
    },
    #[error("more than one {what}")]
    #[diagnostic(
        code(relaxlab::syntax::duplicate_section),
        help("a test has at most one {what}; combine them with `/\\`")
    )]
    DuplicateSection {
        what: &'static str,
        #[label("second {what}")]
        span: SourceSpan,
        #[label("first {what}")]
        first: SourceSpan,
    },
}

/// Errors found while lowering a well-formed tree to the IR: the static
/// checks of the language (book: language.md, Static errors).
#[derive(Debug, Error, Diagnostic, Clone, PartialEq, Eq)]
pub enum LowerError {
    #[error("a load cannot have order `{order}`")]
    #[diagnostic(
        code(relaxlab::lower::load_order),
        help("a load is `na`, `rlx`, `acq` or `sc`; release orders belong to stores and RMWs")
    )]
    LoadOrder {
        order: &'static str,
        #[label("`{order}` has a release part, which a load cannot have")]
        span: SourceSpan,
    },
    #[error("a store cannot have order `{order}`")]
    #[diagnostic(
        code(relaxlab::lower::store_order),
        help("a store is `na`, `rlx`, `rel` or `sc`; acquire orders belong to loads and RMWs")
    )]
    StoreOrder {
        order: &'static str,
        #[label("`{order}` has an acquire part, which a store cannot have")]
        span: SourceSpan,
    },
    #[error("a read-modify-write cannot be non-atomic")]
    #[diagnostic(
        code(relaxlab::lower::rmw_na),
        help("an RMW is atomic by nature: use `rlx` for the weakest order")
    )]
    RmwNa {
        #[label("`na` is not an order of an RMW")]
        span: SourceSpan,
    },
    #[error("a failed `cas` is a load and cannot have order `{order}`")]
    #[diagnostic(
        code(relaxlab::lower::cas_fail_order),
        help("the failure order is `rlx`, `acq` or `sc` (default: the success order without its release part)")
    )]
    CasFailOrder {
        order: &'static str,
        #[label("not an order of a load")]
        span: SourceSpan,
    },
    #[error("`{kind}` is not a fence kind")]
    #[diagnostic(
        code(relaxlab::lower::fence_kind),
        help("fences are `acq`, `rel`, `acq_rel`, `sc` (C11) or `ss`, `sl`, `ll`, `ls`, `full` (hardware)")
    )]
    FenceKind {
        kind: &'static str,
        #[label("a fence of this order would do nothing")]
        span: SourceSpan,
    },
    #[error("two shared accesses in one statement")]
    #[diagnostic(code(relaxlab::lower::two_accesses))]
    TwoAccesses {
        #[label("this accesses `{loc}`")]
        span: SourceSpan,
        loc: String,
        #[label("and this accesses `{other}`")]
        other_span: SourceSpan,
        other: String,
        #[help]
        help: String,
    },
    #[error("shared location `{loc}` inside an expression")]
    #[diagnostic(code(relaxlab::lower::location_in_expression))]
    LocationInExpr {
        loc: String,
        #[label("expressions read registers and literals only")]
        span: SourceSpan,
        #[help]
        help: String,
    },
    #[error("undeclared location `{name}`")]
    #[diagnostic(code(relaxlab::lower::undeclared_location))]
    UndeclaredLocation {
        name: String,
        #[label("not declared in `init`")]
        span: SourceSpan,
        #[help]
        help: String,
    },
    #[error("`{name}` is an array, not a location")]
    #[diagnostic(code(relaxlab::lower::whole_array))]
    WholeArray {
        name: String,
        #[label("a whole array")]
        span: SourceSpan,
        #[help]
        help: String,
    },
    #[error("no cell `{name}`")]
    #[diagnostic(code(relaxlab::lower::no_such_cell))]
    NoSuchCell {
        name: String,
        #[label("not a cell of an array of `init`")]
        span: SourceSpan,
        #[help]
        help: String,
    },
    #[error("location `{name}` is declared twice")]
    #[diagnostic(
        code(relaxlab::lower::duplicate_location),
        help("remove one of the two declarations")
    )]
    DuplicateLocation {
        name: String,
        #[label("declared again here")]
        span: SourceSpan,
        #[label("first declared here")]
        first: SourceSpan,
    },
    #[error("thread name `{name}` is used twice")]
    #[diagnostic(code(relaxlab::lower::duplicate_thread))]
    DuplicateThread {
        name: String,
        #[label("this thread")]
        span: SourceSpan,
        #[label("has the name of this one")]
        first: SourceSpan,
        #[help]
        help: String,
    },
    #[error("{count} threads: relaxlab explores programs of at most {max}")]
    #[diagnostic(
        code(relaxlab::lower::too_many_threads),
        help("every engine enumerates the threads' interleavings or orders, which grow exponentially with their number: split the test")
    )]
    TooManyThreads {
        count: usize,
        max: usize,
        #[label("thread {}", max + 1)]
        span: SourceSpan,
    },
    #[error("`fork` inside a `while` loop")]
    #[diagnostic(
        code(relaxlab::lower::fork_in_loop),
        help("each `fork` starts one statically known thread; unroll the loop by hand to fork several")
    )]
    ForkInLoop {
        #[label("this fork would run once per iteration")]
        span: SourceSpan,
        #[label("inside this loop")]
        loop_span: SourceSpan,
    },
    #[error("`join({reg})`: `{reg}` never holds a thread handle")]
    #[diagnostic(code(relaxlab::lower::join_without_fork))]
    JoinWithoutFork {
        reg: String,
        #[label("no `{reg} = fork ...` in this thread")]
        span: SourceSpan,
        #[help]
        help: String,
    },
    #[error("a thread handle cannot be stored in shared location `{name}`")]
    #[diagnostic(
        code(relaxlab::lower::fork_into_location),
        help("assign the handle to a register: `t = fork NAME {{ ... }};`")
    )]
    ForkIntoLocation {
        name: String,
        #[label("`{name}` is a location")]
        span: SourceSpan,
    },
    #[error("no thread `{name}`")]
    #[diagnostic(code(relaxlab::lower::unknown_thread))]
    UnknownThread {
        name: String,
        #[label("this thread does not exist")]
        span: SourceSpan,
        #[help]
        help: String,
    },
    #[error("thread `{thread}` has no register `{reg}`")]
    #[diagnostic(code(relaxlab::lower::unknown_register))]
    UnknownRegister {
        thread: String,
        reg: String,
        #[label("not a register of `{thread}`")]
        span: SourceSpan,
        #[help]
        help: String,
    },
    #[error("unknown `expect` key `{key}`")]
    #[diagnostic(code(relaxlab::lower::unknown_expect_key))]
    UnknownExpectKey {
        key: String,
        #[label("not a model")]
        span: SourceSpan,
        #[help]
        help: String,
    },
    #[error("`{key}: always` cannot be expected")]
    #[diagnostic(
        code(relaxlab::lower::assert_always),
        help("`.assert` speaks of whether some execution fails: its verdict is `never` or `sometimes`")
    )]
    AssertAlways {
        key: String,
        #[label("`always` is not a verdict about failures")]
        span: SourceSpan,
    },
    #[error("`expect` key `{key}` is given twice")]
    #[diagnostic(
        code(relaxlab::lower::duplicate_expect),
        help("keep one verdict per model")
    )]
    DuplicateExpect {
        key: String,
        #[label("again here")]
        span: SourceSpan,
        #[label("first here")]
        first: SourceSpan,
    },
}

/// Errors that depend on the model chosen (book: language.md, Static errors; mixed atomicity is
/// an error for `c11r`, `c11t`, `ax.c11r` and `ax.c11t`; hardware barriers
/// for every C11 model).
#[derive(Debug, Error, Diagnostic, Clone, PartialEq, Eq)]
pub enum ModelError {
    #[error("location `{loc}` is accessed both atomically and non-atomically, which {model} does not support")]
    #[diagnostic(
        code(relaxlab::model::mixed_atomicity),
        help("{model} gives a location one atomicity: make every access to `{loc}` atomic (`rlx` or stronger) or every access `na`, or run the axiomatic ax.c11 or ax.rc11, which accept mixed atomicity")
    )]
    MixedAtomicity {
        loc: String,
        model: String,
        #[label("atomic access")]
        atomic: SourceSpan,
        #[label("non-atomic access")]
        non_atomic: SourceSpan,
    },
    #[error("hardware barrier `fence({kind})` under the C11 model {model}")]
    #[diagnostic(
        code(relaxlab::model::hardware_barrier),
        help("`{kind}` has no C11 meaning; use fence(sc)")
    )]
    HardwareBarrier {
        kind: &'static str,
        model: String,
        #[label("not a C11 fence")]
        span: SourceSpan,
    },
    #[error("{model} does not run this test: it is read in herd7's C semantics ({why})")]
    #[diagnostic(
        code(relaxlab::model::herd_semantics),
        help("only cat models of the C architecture run such a test, as herd7 runs it: give one with --cat, or herd7's configuration with --conf (the Linux kernel's linux-kernel.cfg)")
    )]
    HerdSemantics {
        model: String,
        why: &'static str,
        #[label("this thread")]
        span: SourceSpan,
    },
}

/// One diagnostic of any stage.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq, Eq)]
pub enum Error {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Lex(#[from] LexError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Syntax(#[from] SyntaxError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Lower(#[from] LowerError),
    #[error(transparent)]
    #[diagnostic(transparent)]
    Model(#[from] ModelError),
}

impl Error {
    /// Where the error starts, for sorting.
    fn offset(&self) -> usize {
        self.labels()
            .and_then(|mut l| l.next())
            .map_or(0, |l| l.offset())
    }
}

/// All diagnostics of one file, sorted by position (stable, so errors at
/// the same place keep the order they were found in). Its
/// [`Diagnostic::related`] yields every error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Errors {
    errors: Vec<Error>,
}

impl Errors {
    /// Wraps a non-empty list of errors.
    pub(crate) fn new(mut errors: Vec<Error>) -> Errors {
        debug_assert!(!errors.is_empty(), "relaxlab internal error: no errors");
        errors.sort_by_key(Error::offset);
        Errors { errors }
    }

    /// The errors, in source order.
    pub fn errors(&self) -> &[Error] {
        &self.errors
    }

    /// Renders every diagnostic without colour at `width` columns, with the
    /// source attached: what snapshot tests compare.
    pub fn render(&self, path: &str, src: &str, width: usize) -> String {
        render_plain(self.clone(), path, src, width)
    }
}

impl Errors {
    /// The one error, when there is exactly one: `Errors` then shows as it.
    fn single(&self) -> Option<&Error> {
        match self.errors.as_slice() {
            [one] => Some(one),
            _ => None,
        }
    }
}

impl fmt::Display for Errors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.single() {
            Some(one) => write!(f, "{one}"),
            None => write!(f, "{} errors in the litmus test", self.errors.len()),
        }
    }
}

impl std::error::Error for Errors {}

/// One error is shown as itself; several as a headline with every error
/// related to it.
impl Diagnostic for Errors {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.single().and_then(|e| e.code())
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.single().and_then(|e| e.help())
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.single().and_then(|e| e.labels())
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        match self.single() {
            Some(_) => None,
            None => Some(Box::new(self.errors.iter().map(|e| e as &dyn Diagnostic))),
        }
    }
}

/// "did you mean `x`?" for `name` among `candidates`, by optimal string
/// alignment distance (a transposition counts as one edit), accepting at
/// most one edit per three characters. Ties go to the earliest candidate.
pub(crate) fn suggest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = name.chars().count().div_ceil(3);
    let lower = name.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::osa_distance(&lower, &c.to_lowercase()), c))
        .filter(|&(d, _)| d <= limit.max(1))
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// A help line: the suggestion if there is one, else `otherwise`.
pub(crate) fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    otherwise: impl FnOnce() -> String,
) -> String {
    match suggest(name, candidates) {
        Some(s) => format!("did you mean `{s}`?"),
        None => otherwise(),
    }
}

/// Renders a diagnostic with its source, without colour, at `width`
/// columns: the form snapshot tests compare (front end and herd importer).
pub(crate) fn render_plain<D>(diag: D, path: &str, src: &str, width: usize) -> String
where
    D: miette::Diagnostic + Send + Sync + 'static,
{
    let shown = diag.to_string();
    let report = crate::clip::report(diag, path, src);
    let handler =
        GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(width);
    let mut out = String::new();
    match handler.render_report(&mut out, report.as_ref()) {
        Ok(()) => out,
        Err(_) => format!("relaxlab internal error: could not render {shown}"),
    }
}
