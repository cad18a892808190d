//! Diagnostics of the herd importers: every error points into the HERD
//! text (not into the relaxlab translation), names the construct and says
//! what to do about it.

use std::fmt;

use miette::{Diagnostic, SourceSpan};
use relaxlab_semantics::ir::Span;
use thiserror::Error;

use crate::diag::LexError;

/// The miette span of a byte range of the herd text.
pub(crate) fn at(s: Span) -> SourceSpan {
    let start = s.start as usize;
    let len = (s.end as usize).saturating_sub(start);
    SourceSpan::new(start.into(), len)
}

/// One problem of a herd file.
#[derive(Debug, Error, Diagnostic, Clone, PartialEq, Eq)]
pub enum HerdError {
    #[error("not a herd test: the first word is `{found}`")]
    #[diagnostic(
        code(relaxlab::herd::not_herd),
        help("a herd7 test starts with its architecture, `C` or `X86`, then its name")
    )]
    NotHerd {
        found: String,
        #[label("expected `C` or `X86`")]
        span: SourceSpan,
    },
    #[error("unexpected {found}")]
    #[diagnostic(code(relaxlab::herd::syntax))]
    Syntax {
        found: String,
        expected: String,
        #[label("expected {expected}")]
        span: SourceSpan,
        #[help]
        help: Option<String>,
    },
    #[error("unexpected character `{}`", .found.escape_debug())]
    #[diagnostic(
        code(relaxlab::herd::bad_char),
        help("herd litmus files are ASCII; was this character pasted from a document?")
    )]
    BadChar {
        found: char,
        #[label("not part of the herd format")]
        span: SourceSpan,
    },
    /// A pasted look-alike character (a curly quote, a Unicode minus, a
    /// non-breaking space, ...): the front end's own diagnostic, from the
    /// table both lexers share.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Lookalike(HerdLookalike),
    #[error("{construct} is outside the supported herd subset")]
    #[diagnostic(code(relaxlab::herd::unsupported))]
    Unsupported {
        construct: String,
        #[label("{construct}")]
        span: SourceSpan,
        #[help]
        help: String,
    },
    /// An array declared or used as herd7 refuses it too
    /// (book: herd.md, Arrays).
    #[error("{what}")]
    #[diagnostic(code(relaxlab::herd::array))]
    Array {
        what: String,
        #[label("{label}")]
        span: SourceSpan,
        label: String,
        #[help]
        help: String,
    },
    #[error("unknown macro `{name}`")]
    #[diagnostic(code(relaxlab::herd::unknown_macro))]
    UnknownMacro {
        name: String,
        #[label("not a macro of the macro file")]
        span: SourceSpan,
        #[help]
        help: String,
    },
    #[error("{what}")]
    #[diagnostic(code(relaxlab::herd::semantics))]
    Semantics {
        what: String,
        #[label("{label}")]
        span: SourceSpan,
        label: String,
        #[help]
        help: String,
    },
    #[error("`{name}` is not a shared location of this test")]
    #[diagnostic(
        code(relaxlab::herd::unknown_location),
        help("declare it in the init block or as a parameter of the thread (`int* {name}`)")
    )]
    UnknownLocation {
        name: String,
        #[label("not declared")]
        span: SourceSpan,
    },
    #[error("`{name}` holds no location: P{thread} reads or writes through it and never gives it a value")]
    #[diagnostic(
        code(relaxlab::herd::unbound_pointer),
        help("herd7 reads every name in a thread's code as a register, and a register never given a value holds 0, which is no location (herd7 gives no result: \"Non symbolic location with no initial write\"); pass the location as a parameter (`P{thread}(int *{name})`), or give the register an address (`{thread}:{name}=x;` in the init block, or an assignment)")
    )]
    UnboundPointer {
        name: String,
        thread: usize,
        #[label("never given a value in P{thread}")]
        span: SourceSpan,
    },
    #[error("`{order}` is not a valid order for {operation}")]
    #[diagnostic(code(relaxlab::herd::bad_order))]
    BadOrder {
        order: String,
        operation: &'static str,
        #[label("not allowed here")]
        span: SourceSpan,
        #[help]
        help: String,
    },
    #[error("integer literal `{text}` does not fit in 64 bits")]
    #[diagnostic(
        code(relaxlab::herd::integer_too_large),
        help("relaxlab values are i64")
    )]
    IntTooLarge {
        text: String,
        #[label("too large")]
        span: SourceSpan,
    },
    #[error("`{name}` is not a thread of this test")]
    #[diagnostic(code(relaxlab::herd::bad_thread))]
    BadThread {
        name: String,
        #[label("no such thread")]
        span: SourceSpan,
        #[help]
        help: String,
    },
    #[error("nested too deeply: more than {max} levels")]
    #[diagnostic(
        code(relaxlab::herd::too_deep),
        help("blocks, `if` bodies, parentheses, prefix operators and `=>` each nest one level, and so does each operator of an expression read in herd's C semantics (kernel tests); elsewhere a long chain of one operator, of `/\\` or of `else if` is not nesting; split the construct")
    )]
    TooDeep {
        max: u32,
        #[label("this goes past {max} levels")]
        span: SourceSpan,
    },
    #[error("`{name}` is used both as a register and as a shared location")]
    #[diagnostic(
        code(relaxlab::herd::name_clash),
        help(
            "rename the local variable: in relaxlab an assignment to a location's name is a store"
        )
    )]
    NameClash {
        name: String,
        #[label("a local with the name of a location")]
        span: SourceSpan,
    },
}

/// The front end's look-alike diagnostic ([`LexError::Lookalike`]): the
/// same message, label and help, under the herd code
/// `relaxlab::herd::lookalike` like every herd error.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error(transparent)]
pub struct HerdLookalike(LexError);

impl HerdLookalike {
    /// The front end's diagnostic.
    pub fn lex_error(&self) -> &LexError {
        &self.0
    }
}

impl Diagnostic for HerdLookalike {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new("relaxlab::herd::lookalike"))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.0.help()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.0.labels()
    }
}

impl HerdError {
    /// Where the error starts, for sorting.
    fn offset(&self) -> usize {
        self.labels()
            .and_then(|mut l| l.next())
            .map_or(0, |l| l.offset())
    }

    /// A character no herd rule accepts: named with its code point and
    /// what to type instead when it imitates ASCII, as in the front end.
    pub(crate) fn bad_char(found: char, span: Span) -> Self {
        match LexError::for_char(found, at(span)) {
            e @ LexError::Lookalike { .. } => HerdError::Lookalike(HerdLookalike(e)),
            _ => HerdError::BadChar {
                found,
                span: at(span),
            },
        }
    }

    /// A syntax error: `found` where `expected` was expected.
    pub(crate) fn syntax(
        found: impl Into<String>,
        expected: impl Into<String>,
        span: Span,
    ) -> Self {
        HerdError::Syntax {
            found: found.into(),
            expected: expected.into(),
            span: at(span),
            help: None,
        }
    }

    /// A construct outside the subset.
    pub(crate) fn array(
        what: impl Into<String>,
        label: impl Into<String>,
        span: Span,
        help: impl Into<String>,
    ) -> Self {
        HerdError::Array {
            what: what.into(),
            span: at(span),
            label: label.into(),
            help: help.into(),
        }
    }

    pub(crate) fn unsupported(
        construct: impl Into<String>,
        span: Span,
        help: impl Into<String>,
    ) -> Self {
        HerdError::Unsupported {
            construct: construct.into(),
            span: at(span),
            help: help.into(),
        }
    }
}

/// Every error of one herd file, sorted by position. Its
/// [`Diagnostic::related`] yields each error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HerdErrors {
    errors: Vec<HerdError>,
}

impl HerdErrors {
    /// Is one of the errors an unknown macro (a kernel primitive read
    /// without the model's macro file)?
    pub fn names_a_macro(&self) -> bool {
        self.errors
            .iter()
            .any(|e| matches!(e, HerdError::UnknownMacro { .. }))
    }

    /// Is one of the errors about an array (a form of herd's arrays that
    /// herd's C semantics refuses, which says more than the translation's
    /// refusal of the same test)?
    pub fn is_about_an_array(&self) -> bool {
        self.errors
            .iter()
            .any(|e| matches!(e, HerdError::Array { .. }))
    }

    /// Wraps a non-empty list of errors.
    pub fn new(mut errors: Vec<HerdError>) -> HerdErrors {
        debug_assert!(
            !errors.is_empty(),
            "relaxlab internal error: no herd errors"
        );
        errors.sort_by_key(HerdError::offset);
        HerdErrors { errors }
    }

    /// The errors, in source order.
    pub fn errors(&self) -> &[HerdError] {
        &self.errors
    }

    /// Renders every diagnostic without colour at `width` columns with the
    /// herd text attached: what snapshot tests compare.
    pub fn render(&self, path: &str, src: &str, width: usize) -> String {
        crate::diag::render_plain(self.clone(), path, src, width)
    }
}

impl fmt::Display for HerdErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.errors.as_slice() {
            [one] => write!(f, "{one}"),
            many => write!(f, "{} errors in the herd test", many.len()),
        }
    }
}

impl std::error::Error for HerdErrors {}

impl HerdErrors {
    /// The one error, when there is exactly one: `HerdErrors` then shows as
    /// it (rather than a headline repeating it above itself).
    fn single(&self) -> Option<&HerdError> {
        match self.errors.as_slice() {
            [one] => Some(one),
            _ => None,
        }
    }
}

/// One error is shown as itself; several as a headline with every error
/// related to it.
impl Diagnostic for HerdErrors {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        match self.single() {
            Some(one) => one.code(),
            None => Some(Box::new("relaxlab::herd::errors")),
        }
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.single().and_then(|e| e.help())
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.single().and_then(|e| e.labels())
    }

    fn url<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.single().and_then(|e| e.url())
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        match self.single() {
            Some(_) => None,
            None => Some(Box::new(self.errors.iter().map(|e| e as &dyn Diagnostic))),
        }
    }
}
