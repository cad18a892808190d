//! Diagnostics with their source, shown without overlong lines.
//!
//! miette prints every source line a label (or its context) touches, whole:
//! an error on a 300 KB line would print 300 KB. [`report`] attaches the
//! source to a diagnostic, and when the source has a line longer than
//! [`LONG_LINE`] bytes it shows a copy of the source where each such line
//! is cut down to windows of [`WINDOW`] bytes around the label ends on it
//! (or its first bytes, when none is), the cuts marked `…`. Labels are
//! moved to the copy; the `file:line:column` in the header still speaks of
//! the original file. A source without long lines renders exactly as
//! miette renders it, once [`printable`] has hidden the characters a
//! terminal would obey instead of showing.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use miette::{
    Diagnostic, LabeledSpan, MietteError, MietteSpanContents, NamedSource, Report, Severity,
    SourceCode, SourceSpan, SpanContents,
};

/// Lines longer than this (in bytes) are cut.
pub const LONG_LINE: usize = 160;

/// Bytes kept on each side of a label's start and end on a long line.
pub const WINDOW: usize = 40;

/// The cut marker.
const MARK: &str = "…";

/// Whether [`report`] cuts long lines (the default).
static CLIPPING: AtomicBool = AtomicBool::new(true);

/// Turns the cutting of long lines on or off for the whole process. The
/// playground turns it off: its editor shows the whole text, and the
/// labels it sends must keep the offsets of the text it was given.
pub fn set_clipping(on: bool) {
    CLIPPING.store(on, Ordering::Relaxed);
}

/// `diag` with `src` (named `name`) attached, long lines cut and control
/// characters shown as [`printable`] shows them.
pub fn report<D>(diag: D, name: impl Into<String>, src: &str) -> Report
where
    D: Diagnostic + Send + Sync + 'static,
{
    let name = name.into();
    let src = printable(src);
    if !CLIPPING.load(Ordering::Relaxed) || !src.lines().any(|l| l.len() > LONG_LINE) {
        return Report::new(diag).with_source_code(NamedSource::new(name, src.into_owned()));
    }
    let mut points = Vec::new();
    label_ends(&diag, &mut points);
    let source = Arc::new(Clipped::new(name, &src, points));
    Report::new(Moved::new(&diag, &source, true))
}

/// What a diagnostic shows for each byte of a character it does not print.
const HIDDEN: char = '?';

/// `src` as a diagnostic may show it on a terminal: every control
/// character but tab and line feed (ESC, BEL, NUL, DEL, the C1 controls,
/// a carriage return that does not end a line before its line feed) and
/// every Unicode bidirectional override or isolate (U+202A to U+202E,
/// U+2066 to U+2069) becomes one [`HIDDEN`] per byte it takes. miette
/// prints the source lines a diagnostic points into as they are, so an
/// escape sequence in a comment would reach the terminal (and clear it, or
/// retitle its window), and a bidirectional override would reorder the
/// line shown; replaced byte for byte, the text keeps every offset, and
/// every span still points at the same place.
pub fn printable(src: &str) -> std::borrow::Cow<'_, str> {
    let hidden = |i: usize, c: char| match c {
        '\r' => src.as_bytes().get(i + 1) != Some(&b'\n'),
        c => unprintable(c),
    };
    if !src.char_indices().any(|(i, c)| hidden(i, c)) {
        return std::borrow::Cow::Borrowed(src);
    }
    let mut out = String::with_capacity(src.len());
    for (i, c) in src.char_indices() {
        if hidden(i, c) {
            out.extend(std::iter::repeat_n(HIDDEN, c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The characters [`printable`] hides, a carriage return before a line
/// feed aside: control characters other than tab and line feed, and the
/// bidirectional overrides and isolates.
fn unprintable(c: char) -> bool {
    match c {
        '\t' | '\n' => false,
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => true,
        c => c.is_control(),
    }
}

/// `text` from the source, for a diagnostic's message (a string literal,
/// a file name): each character [`printable`] hides is written as its
/// escape (`\u{1b}`), as `unexpected character` names one.
pub(crate) fn escaped(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(unprintable) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unprintable(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The start and end of every label of `d` and of its related diagnostics.
fn label_ends(d: &dyn Diagnostic, out: &mut Vec<usize>) {
    for l in d.labels().into_iter().flatten() {
        out.push(l.offset());
        out.push(l.offset() + l.len());
    }
    for r in d.related().into_iter().flatten() {
        label_ends(r, out);
    }
}

/// A run of original bytes kept in the copy.
#[derive(Debug, Clone, Copy)]
struct Kept {
    /// Where it starts in the original.
    from: usize,
    /// Where it starts in the copy.
    to: usize,
    len: usize,
}

/// The source with its long lines cut.
#[derive(Debug)]
struct Clipped {
    name: String,
    text: String,
    /// In order of both `from` and `to`.
    kept: Vec<Kept>,
    /// Where the lines of the original begin.
    line_starts: Vec<usize>,
}

impl Clipped {
    fn new(name: String, src: &str, mut points: Vec<usize>) -> Clipped {
        points.sort_unstable();
        let mut c = Clipped {
            name,
            text: String::with_capacity(src.len().min(1 << 16)),
            kept: Vec::new(),
            line_starts: std::iter::once(0)
                .chain(src.match_indices('\n').map(|(i, _)| i + 1))
                .collect(),
        };
        let mut start = 0;
        while start < src.len() {
            let end = src[start..].find('\n').map_or(src.len(), |i| start + i);
            if end - start <= LONG_LINE {
                c.keep(src, start, (end + 1).min(src.len()));
            } else {
                c.cut_line(src, start, end, &points);
                if end < src.len() {
                    c.keep(src, end, end + 1);
                }
            }
            start = end + 1;
        }
        c
    }

    /// Copies `src[from..to]`.
    fn keep(&mut self, src: &str, from: usize, to: usize) {
        if from >= to {
            return;
        }
        match self.kept.last_mut() {
            Some(k) if k.from + k.len == from && k.to + k.len == self.text.len() => {
                k.len += to - from
            }
            _ => self.kept.push(Kept {
                from,
                to: self.text.len(),
                len: to - from,
            }),
        }
        self.text.push_str(&src[from..to]);
    }

    /// Copies the windows of line `src[start..end]` around `points`.
    fn cut_line(&mut self, src: &str, start: usize, end: usize, points: &[usize]) {
        let at = |p: usize, up: bool| {
            let mut p = p.clamp(start, end);
            while !src.is_char_boundary(p) {
                if up {
                    p += 1;
                } else {
                    p -= 1;
                }
            }
            p
        };
        let first = points.partition_point(|&p| p < start);
        let last = points.partition_point(|&p| p <= end);
        let mut windows: Vec<(usize, usize)> = Vec::new();
        for &p in &points[first..last] {
            let w = (at(p.saturating_sub(WINDOW), false), at(p + WINDOW, true));
            match windows.last_mut() {
                // Windows closer than a marker's worth merge.
                Some(prev) if w.0 <= prev.1 + MARK.len() + 2 => prev.1 = prev.1.max(w.1),
                _ => windows.push(w),
            }
        }
        if windows.is_empty() {
            windows.push((start, at(start + 2 * WINDOW, true)));
        }
        for (k, &(from, to)) in windows.iter().enumerate() {
            if k == 0 && from > start {
                self.text.push_str(MARK);
                self.text.push(' ');
            }
            if k > 0 {
                self.text.push(' ');
                self.text.push_str(MARK);
                self.text.push(' ');
            }
            self.keep(src, from, to);
        }
        if windows.last().is_some_and(|w| w.1 < end) {
            self.text.push(' ');
            self.text.push_str(MARK);
        }
    }

    /// Where original offset `at` is in the copy (a cut offset goes to the
    /// end of the window before it).
    fn to_copy(&self, at: usize) -> usize {
        let i = self.kept.partition_point(|k| k.from <= at);
        match i.checked_sub(1).map(|i| self.kept[i]) {
            Some(k) if at <= k.from + k.len => k.to + (at - k.from),
            Some(k) => k.to + k.len,
            None => 0,
        }
    }

    /// Where copy offset `at` is in the original.
    fn to_original(&self, at: usize) -> usize {
        let i = self.kept.partition_point(|k| k.to <= at);
        match i.checked_sub(1).map(|i| self.kept[i]) {
            Some(k) if at <= k.to + k.len => k.from + (at - k.to),
            Some(k) => k.from + k.len,
            None => 0,
        }
    }

    fn span(&self, s: SourceSpan) -> SourceSpan {
        let start = self.to_copy(s.offset());
        let end = self.to_copy(s.offset() + s.len()).max(start);
        SourceSpan::new(start.into(), end - start)
    }
}

impl SourceCode for Clipped {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let c = self
            .text
            .as_str()
            .read_span(span, context_lines_before, context_lines_after)?;
        // Without context the column is the span's own, shown in the
        // header: the original's.
        let column = if context_lines_before == 0 {
            let at = self.to_original(span.offset());
            let line = self.line_starts.partition_point(|&s| s <= at).max(1) - 1;
            at - self.line_starts[line]
        } else {
            c.column()
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            c.data(),
            *c.span(),
            c.line(),
            column,
            c.line_count(),
        )))
    }
}

/// A diagnostic whose labels point into a [`Clipped`] source.
#[derive(Debug)]
struct Moved {
    message: String,
    code: Option<String>,
    severity: Option<Severity>,
    help: Option<String>,
    url: Option<String>,
    /// `None` when the original had none (a headline over related errors).
    labels: Option<Vec<LabeledSpan>>,
    related: Vec<Moved>,
    /// On the outermost diagnostic; the related ones use it too.
    source: Option<Arc<Clipped>>,
}

impl Moved {
    fn new(d: &dyn Diagnostic, source: &Arc<Clipped>, outermost: bool) -> Moved {
        let labels = d.labels().map(|ls| {
            ls.map(|l| {
                let span = source.span(*l.inner());
                let label = l.label().map(str::to_string);
                if l.primary() {
                    LabeledSpan::new_primary_with_span(label, span)
                } else {
                    LabeledSpan::new_with_span(label, span)
                }
            })
            .collect()
        });
        Moved {
            message: d.to_string(),
            code: d.code().map(|c| c.to_string()),
            severity: d.severity(),
            help: d.help().map(|h| h.to_string()),
            url: d.url().map(|u| u.to_string()),
            labels,
            related: d
                .related()
                .into_iter()
                .flatten()
                .map(|r| Moved::new(r, source, false))
                .collect(),
            source: outermost.then(|| Arc::clone(source)),
        }
    }
}

impl fmt::Display for Moved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Moved {}

impl Diagnostic for Moved {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.code
            .as_ref()
            .map(|c| Box::new(c) as Box<dyn fmt::Display>)
    }

    fn severity(&self) -> Option<Severity> {
        self.severity
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn url<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.url
            .as_ref()
            .map(|u| Box::new(u) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_deref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.labels
            .as_ref()
            .map(|ls| Box::new(ls.iter().cloned()) as Box<dyn Iterator<Item = LabeledSpan>>)
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(self.related.iter().map(|r| r as &dyn Diagnostic)))
    }
}
