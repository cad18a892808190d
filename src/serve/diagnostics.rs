//! Diagnostics as the page shows them: the message, help and code, the
//! text the CLI would print (without colour), and each label's span as an
//! offset into the source the request sent, so the editor can mark it.

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, Report, SourceSpan};
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

/// Does the diagnostic's source text equal `source`?
fn speaks_of(report: &Report, source: &str) -> bool {
    let Some(code) = report.source_code() else {
        return false;
    };
    let whole = SourceSpan::from(0..source.len());
    code.read_span(&whole, 0, 0)
        .map(|c| c.data() == source.as_bytes())
        .unwrap_or(false)
}

/// `report` for the page; `source`: the text the request sent.
pub(crate) fn to_json(report: &Report, source: &str) -> DiagnosticJson {
    let mut rendered = String::new();
    let handler = GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .with_links(false);
    if handler
        .render_report(&mut rendered, report.as_ref() as &dyn Diagnostic)
        .is_err()
    {
        rendered = format!("{report}");
    }
    let here = speaks_of(report, source);
    let labels = report
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
        message: report.to_string(),
        code: report.code().map(|c| c.to_string()),
        help: report.help().map(|h| h.to_string()),
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
