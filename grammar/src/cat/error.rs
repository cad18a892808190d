//! Diagnostics about cat models: a labelled span in the file it concerns
//! (the model, or a file it includes), a `relaxlab::cat::...` code and a
//! help line. Errors are data: the CLI renders them.

use std::fmt;

use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, Severity,
    SourceSpan,
};

use super::ast::Span;

/// What went wrong, before the file's text is attached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fail {
    pub code: &'static str,
    pub message: String,
    pub label: String,
    pub help: String,
    pub span: Span,
}

impl Fail {
    pub(crate) fn new(
        code: &'static str,
        span: Span,
        message: impl Into<String>,
        label: impl Into<String>,
        help: impl Into<String>,
    ) -> Fail {
        Fail {
            code,
            message: message.into(),
            label: label.into(),
            help: help.into(),
            span,
        }
    }
}

/// A diagnostic about a cat model.
#[derive(Clone)]
pub struct CatError {
    code: &'static str,
    message: String,
    label: String,
    help: String,
    /// The file the label points into, and the label's range.
    source: Option<Box<(NamedSource<String>, SourceSpan)>>,
    /// An error stops the model; a warning ([`CatError::is_warning`]) is
    /// printed and the model still runs.
    severity: Severity,
}

impl CatError {
    /// A failure located in a file with this name and text.
    pub(crate) fn located(fail: Fail, name: &str, text: &str) -> CatError {
        let start = (fail.span.start as usize).min(text.len());
        let end = (fail.span.end as usize).clamp(start, text.len());
        CatError {
            code: fail.code,
            message: fail.message,
            label: fail.label,
            help: fail.help,
            source: Some(Box::new((
                NamedSource::new(name, crate::printable(text).into_owned()),
                SourceSpan::new(start.into(), end - start),
            ))),
            severity: Severity::Error,
        }
    }

    /// The same diagnostic as a warning: the model compiled and runs.
    pub(crate) fn into_warning(self) -> CatError {
        CatError {
            severity: Severity::Warning,
            ..self
        }
    }

    /// Is this a warning about a model that compiled, not an error?
    pub fn is_warning(&self) -> bool {
        self.severity == Severity::Warning
    }

    /// A failure with no file to point into (the model file itself could
    /// not be read).
    pub fn unlocated(
        code: &'static str,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> CatError {
        CatError {
            code,
            message: message.into(),
            label: String::new(),
            help: help.into(),
            source: None,
            severity: Severity::Error,
        }
    }

    /// The diagnostic's code (`relaxlab::cat::...`).
    pub fn code_name(&self) -> &'static str {
        self.code
    }

    /// Renders the diagnostic with its source, without colour, at
    /// `width` columns (the form snapshot tests compare).
    pub fn render(&self, width: usize) -> String {
        let handler =
            GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor()).with_width(width);
        let mut out = String::new();
        match handler.render_report(&mut out, self) {
            Ok(()) => out,
            Err(_) => format!("relaxlab internal error: could not render {self}"),
        }
    }
}

impl fmt::Debug for CatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CatError")
            .field("code", &self.code)
            .field("message", &self.message)
            .field("label", &self.label)
            .finish()
    }
}

impl fmt::Display for CatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CatError {}

impl Diagnostic for CatError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }

    fn severity(&self) -> Option<Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        (!self.help.is_empty()).then(|| Box::new(&self.help) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source
            .as_deref()
            .map(|(s, _)| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let (_, span) = self.source.as_deref()?;
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            Some(self.label.clone()),
            *span,
        ))))
    }
}
