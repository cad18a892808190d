//! relaxlab's front end: the litmus language (book: language.md).
//!
//! `text --lexer (logos)--> tokens --parser (lalrpop)--> ast::Test
//! --lower--> ir::Program`. Every stage reports all the problems it can
//! find at once, as [`Errors`] (miette diagnostics with labelled spans):
//! the lexer skips bad characters, the parser recovers at the next `;`,
//! lowering collects every static error.
//!
//! Choices the language leaves open (book: language.md, Choices at a glance):
//! 1. Operation names, orders, fence kinds and verdicts are not reserved
//!    words; only `test init thread if else while fork Fork exists forall
//!    observe locations filter expect true false` are.
//! 2. An RMW or `cas` must assign its result (`r = fetch_add(..)`); a
//!    discarded result is an error with the form to write.
//! 3. `fence(na)`/`fence(rlx)` are errors (such a fence does nothing).
//! 4. A `cas` failure order must be a load order (`rlx acq sc`).
//! 5. Reading a register never assigned is allowed (registers start at 0).
//! 6. The filter's observables are also observed columns, after the
//!    condition's and before `observe`'s.
//! 7. `Condition::text` is the condition as the formatter prints it
//!    (the written condition, normalised: `exists (P0:r0 = 0 /\ x = 1)`).
//! 8. At most one condition, one filter and one `expect` block; several
//!    `observe`/`locations` blocks add up. The final `;` in `observe`,
//!    `locations` and `expect` is optional.
//! 9. `t = fork NAME { .. }` takes an optional `;`; a thread number in a
//!    condition indexes every thread, forked ones included (they follow the
//!    top-level ones in source order).

pub mod ast;
pub mod cat;
mod check;
mod clip;
mod diag;
mod fmt;
pub mod herd;
mod lexer;
mod listing;
mod lookalike;
mod lower;
mod nesting;
mod resolve;
mod trivia;
mod warn;

#[allow(
    clippy::all,
    clippy::pedantic,
    unused_parens,
    missing_debug_implementations
)]
mod parser {
    lalrpop_util::lalrpop_mod!(pub(crate) grammar, "/parser.rs");
}

pub use clip::{printable, report, set_clipping};
pub use diag::{Error, Errors, LexError, LowerError, ModelError, SyntaxError};
pub use nesting::MAX_NESTING;
use relaxlab_semantics::ir::{ModelKey, Program, Span, Subject, Verdict};
pub use warn::{warnings, ThreadNumber};

/// Parses a litmus file into its syntax tree, with its comments attached
/// to the nodes they belong to.
///
/// A file that nests deeper than [`MAX_NESTING`] is refused (a
/// `relaxlab::syntax::too_deep` diagnostic) before any part of the tree
/// gets that deep, so that the recursive stages after parsing (dropping
/// the tree, lowering, formatting) stay within a thread's stack.
pub fn parse(src: &str) -> Result<ast::Test, Errors> {
    let mut lexer = lexer::Lexer::new(src);
    let mut errors = Vec::new();
    let result = parser::grammar::TestParser::new().parse(&mut errors, &mut lexer);
    if let Some(deep) = lexer.too_deep.take() {
        // The token stream stopped there: the parser's complaint about the
        // end of the file is its echo.
        drop(result);
        let mut all: Vec<Error> = lexer.errors.into_iter().map(Error::from).collect();
        all.extend(errors);
        all.push(deep.into());
        return Err(Errors::new(all));
    }
    if lexer.tokens == 0 && lexer.errors.is_empty() {
        return Err(Errors::new(vec![empty_file(
            src,
            !lexer.comments.is_empty(),
        )]));
    }
    if let Err(e) = &result {
        errors.push(resolve::syntax_error(e.clone()));
    }
    let comments = std::mem::take(&mut lexer.comments);
    let all = without_cascades(src, lexer.errors, errors);
    match result {
        Ok(mut test) if all.is_empty() => {
            test.line_starts = line_starts(src);
            trivia::attach(&mut test, &comments, src);
            Ok(*test)
        }
        _ => Err(Errors::new(all)),
    }
}

/// The diagnostic of a file without a single token.
fn empty_file(src: &str, comments: bool) -> Error {
    let holds = match (src.is_empty(), comments) {
        (true, _) => "nothing",
        (false, true) => "only comments",
        (false, false) => "only blank space",
    };
    // The first line, or the first character of an empty file.
    let end = src.find('\n').unwrap_or(src.len());
    SyntaxError::EmptyFile {
        holds,
        span: diag::sspan(relaxlab_semantics::ir::Span::new(0, end)),
    }
    .into()
}

/// Every lexical error, and the syntax errors that are not its echo: a
/// bad character makes the parser stumble on the same line, and an
/// unterminated comment makes the file end early.
fn without_cascades(src: &str, lex: Vec<LexError>, syntax: Vec<Error>) -> Vec<Error> {
    let line = |at: usize| src[..at.min(src.len())].matches('\n').count();
    let lex_lines: Vec<usize> = lex
        .iter()
        .filter_map(|e| miette::Diagnostic::labels(e)?.next())
        .map(|l| line(l.offset()))
        .collect();
    let open_comment = lex
        .iter()
        .any(|e| matches!(e, LexError::UnterminatedComment { .. }));
    let mut all: Vec<Error> = lex.into_iter().map(Error::from).collect();
    for e in syntax {
        let at = miette::Diagnostic::labels(&e)
            .and_then(|mut l| l.next())
            .map(|l| line(l.offset()));
        let echo = match &e {
            Error::Syntax(SyntaxError::UnexpectedEof { .. }) => open_comment,
            Error::Syntax(SyntaxError::UnexpectedToken { .. }) => {
                at.is_some_and(|l| lex_lines.contains(&l))
            }
            _ => false,
        };
        if !echo {
            all.push(e);
        }
    }
    all
}

/// Lowers a syntax tree to the IR, running every static check of the
/// language (book: language.md, Static errors).
pub fn lower(test: &ast::Test) -> Result<Program, Errors> {
    lower::lower(test)
}

/// Parses and lowers a litmus file.
pub fn load(src: &str) -> Result<Program, Errors> {
    lower(&parse(src)?)
}

/// Prints a syntax tree in the canonical layout, with the comments and
/// blank lines its nodes carry (see [`ast::Trivia`]). `parse(&format(t))`
/// equals `t` modulo spans, and formatting is idempotent. To print an
/// edited program, edit the tree (a statement inserted with
/// `Trivia::default()` gets no comment) and format it.
pub fn format(test: &ast::Test) -> String {
    fmt::format_test(test)
}

/// The listing of `relaxlab parse --ir`.
pub fn ir_listing(program: &Program) -> String {
    listing::ir_listing(program)
}

/// The checks that depend on the model: a C11 model rejects a location
/// accessed both atomically and non-atomically, and hardware barriers.
pub fn check_model(program: &Program, model: ModelKey) -> Result<(), Errors> {
    check::check_model(program, model)
}

/// Byte offsets at which the lines of `src` begin.
fn line_starts(src: &str) -> Vec<u32> {
    std::iter::once(0)
        .chain(src.match_indices('\n').map(|(i, _)| i as u32 + 1))
        .collect()
}

/// The cat model an expectation names.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CatRef {
    /// `cat "path/x.cat"`: a path relative to the litmus file.
    Path(String),
    /// `cat.KEY`: a key of the `[cat]` table of `relaxlab.toml`.
    Key(String),
}

/// One `expect` entry about a cat model: `cat "x.cat": VERDICT`,
/// `cat.KEY: VERDICT`, or either with `.assert`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatExpectation {
    pub model: CatRef,
    pub subject: Subject,
    pub verdict: Verdict,
    /// The entry as written, for messages.
    pub key: String,
    pub span: Span,
}

/// Is this `expect` key about a cat model?
pub(crate) fn is_cat_key(key: &str) -> bool {
    key.starts_with("cat \"") || key.starts_with("cat.")
}

/// The `expect` entries of a test that name cat models (lowering leaves
/// them to the CLI, which reads the models).
pub fn cat_expectations(test: &ast::Test) -> Vec<CatExpectation> {
    test.expect
        .iter()
        .filter(|e| is_cat_key(&e.key.name))
        .map(|e| {
            let (name, subject) = match e.key.name.strip_suffix(".assert") {
                Some(m) => (m, Subject::Failure),
                None => (e.key.name.as_str(), Subject::Condition),
            };
            let model = match name.strip_prefix("cat.") {
                Some(key) => CatRef::Key(key.to_string()),
                None => CatRef::Path(
                    name.trim_start_matches("cat \"")
                        .trim_end_matches('"')
                        .to_string(),
                ),
            };
            CatExpectation {
                model,
                subject,
                verdict: e.verdict,
                key: e.key.name.clone(),
                span: e.span,
            }
        })
        .collect()
}
