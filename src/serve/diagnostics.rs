//! Diagnostics as the page shows them: the message, help and code, the
//! text the CLI would print (without colour), and each label's span as an
//! offset into the source the request sent, so the editor can mark it.

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, Report, SourceCode, SourceSpan};
use serde::Serialize;

/// One labelled span of a diagnostic.
#[derive(Debug, Serialize)]
pub(crate) struct LabelJson {
    pub label: Option<String>,
    /// The span as UTF-16 offsets (what JavaScript strings count) into the
    /// source sent; `None` when the span lies in another text (the
    /// relaxlab translation of a herd7 test).
    pub start: Option<usize>,
    pub end: Option<usize>,
    /// The 1-based line and column of the start, when in the source sent.
    pub line: Option<usize>,
    pub column: Option<usize>,
}

/// A diagnostic.
#[derive(Debug, Serialize)]
pub(crate) struct DiagnosticJson {
    pub message: String,
    pub code: Option<String>,
    pub help: Option<String>,
    pub labels: Vec<LabelJson>,
    /// As `relaxlab` prints it on a terminal without colour.
    pub rendered: String,
}

/// The UTF-16 offset of byte `byte` of `text` (clamped to the text).
pub(crate) fn utf16_offset(text: &str, byte: usize) -> usize {
    let mut byte = byte.min(text.len());
    while !text.is_char_boundary(byte) {
        byte -= 1;
    }
    text[..byte].encode_utf16().count()
}

/// The 1-based line and column (in characters) of byte `byte` of `text`.
fn line_column(text: &str, byte: usize) -> (usize, usize) {
    let mut byte = byte.min(text.len());
    while !text.is_char_boundary(byte) {
        byte -= 1;
    }
    let before = &text[..byte];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

/// A diagnostic with the source text of the one it is related to (miette
/// gives `related` diagnostics no source of their own).
struct WithSource<'a> {
    inner: &'a dyn Diagnostic,
    source: Option<&'a dyn SourceCode>,
}

impl std::fmt::Debug for WithSource<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.inner, f)
    }
}

impl std::fmt::Display for WithSource<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self.inner, f)
    }
}

impl std::error::Error for WithSource<'_> {}

impl Diagnostic for WithSource<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.inner.code()
    }
    fn severity(&self) -> Option<miette::Severity> {
        self.inner.severity()
    }
    fn help<'b>(&'b self) -> Option<Box<dyn std::fmt::Display + 'b>> {
        self.inner.help()
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.inner.source_code().or(self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        self.inner.labels()
    }
}

/// Does `code` hold exactly `source`, as diagnostics show it (control
/// characters hidden byte for byte by `relaxlab_grammar::printable`, so
/// that the offsets are the source's)?
fn speaks_of(code: Option<&dyn SourceCode>, source: &str) -> bool {
    let Some(code) = code else {
        return false;
    };
    let whole = SourceSpan::from(0..source.len());
    let shown = relaxlab_grammar::printable(source);
    code.read_span(&whole, 0, 0)
        .map(|c| c.data() == shown.as_bytes())
        .unwrap_or(false)
}

/// `report` for the page, one entry per diagnostic it holds (a report of
/// several errors holds them as related diagnostics); `source`: the text
/// the request sent.
pub(crate) fn to_json(report: &Report, source: &str) -> Vec<DiagnosticJson> {
    let mut out = Vec::new();
    flatten(report.as_ref(), None, source, &mut out);
    out
}

fn flatten<'a>(
    diagnostic: &'a dyn Diagnostic,
    inherited: Option<&'a dyn SourceCode>,
    source: &str,
    out: &mut Vec<DiagnosticJson>,
) {
    let code = diagnostic.source_code().or(inherited);
    let has_labels = diagnostic.labels().is_some_and(|mut l| l.next().is_some());
    if let (false, Some(related)) = (has_labels, diagnostic.related()) {
        let before = out.len();
        for r in related {
            flatten(r, code, source, out);
        }
        if out.len() > before {
            return;
        }
    }
    out.push(one(
        &WithSource {
            inner: diagnostic,
            source: code,
        },
        source,
    ));
}

fn one(d: &WithSource<'_>, source: &str) -> DiagnosticJson {
    let mut rendered = String::new();
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .with_links(false);
    if handler.render_report(&mut rendered, d).is_err() {
        rendered = d.to_string();
    }
    let here = speaks_of(d.source_code(), source);
    let labels = d
        .labels()
        .map(|labels| {
            labels
                .map(|l| {
                    let (start, end) = (l.offset(), l.offset() + l.len());
                    let (line, column) = line_column(source, start);
                    LabelJson {
                        label: l.label().map(str::to_string),
                        start: here.then(|| utf16_offset(source, start)),
                        end: here.then(|| utf16_offset(source, end)),
                        line: here.then_some(line),
                        column: here.then_some(column),
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    DiagnosticJson {
        message: d.to_string(),
        code: d.code().map(|c| c.to_string()),
        help: d.help().map(|h| h.to_string()),
        labels,
        rendered,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_count_utf16_units_and_lines_count_characters() {
        let text = "a\n∀x 𝔸y";
        // `𝔸` is 4 bytes in UTF-8 and 2 units in UTF-16.
        let y = text.find('y').unwrap();
        assert_eq!(utf16_offset(text, y), 7);
        assert_eq!(line_column(text, y), (2, 5));
        assert_eq!(utf16_offset(text, 1000), text.encode_utf16().count());
    }
}
