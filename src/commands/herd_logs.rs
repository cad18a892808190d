//! `relaxlab compare --herd-logs A B ...`: logs in herd7's format (herd7's,
//! litmus7's, `relaxlab run --format herd`'s) side by side, test by test,
//! as herdtools7's `mcompare7` compares them ([`crate::herd_log`];
//! book: herd.md, Comparing logs).
//!
//! Exit code 0 when every test is in every log and the logs agree on it,
//! 1 otherwise, 2 when a log cannot be read.

use std::path::PathBuf;

use miette::IntoDiagnostic;

use crate::exit::{Exit, Outcome};
use crate::herd_log::{self, Verdict};
use crate::{files, Io};

/// A log that is not in herd7's format.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{path} is not a herd log: {message}")]
#[diagnostic(
    code(relaxlab::herd_log),
    help("a herd log is what herd7, litmus7 or `relaxlab run --format herd` print: per test, `Test NAME KIND`, `States N` and N states, ..., `Observation NAME WORD P N`")
)]
pub struct BadLog {
    path: String,
    message: String,
    #[source_code]
    src: miette::NamedSource<String>,
    #[label("here")]
    at: miette::SourceSpan,
}

/// Fewer than two logs.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("`--herd-logs` compares two logs or more; {0} given")]
#[diagnostic(
    code(relaxlab::herd_log::count),
    help("name the logs to compare: `relaxlab compare --herd-logs herd7.log relaxlab.log`")
)]
pub struct TooFewLogs(usize);

/// The byte span of line `line` (1-based) of `text`: its end when the
/// text has fewer lines.
fn line_span(text: &str, line: usize) -> miette::SourceSpan {
    let mut start = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return (start, l.trim_end().len()).into();
        }
        start += l.len();
    }
    (text.len(), 0).into()
}

pub fn compare(paths: &[PathBuf], ignore_counts: bool, io: &mut Io<'_>) -> Outcome {
    if paths.len() < 2 {
        return Err(TooFewLogs(paths.len()).into());
    }
    let mut names = Vec::new();
    let mut logs = Vec::new();
    for path in paths {
        let file = files::read(path)?;
        let log = herd_log::parse(&file.text).map_err(|e| BadLog {
            path: file.path.clone(),
            at: line_span(&file.text, e.line),
            message: e.message,
            src: miette::NamedSource::new(&file.path, file.text.clone()),
        })?;
        names.push(file.path);
        logs.push(log);
    }
    let rows = herd_log::compare(&logs, !ignore_counts);
    write!(io.out, "{}", herd_log::render(&names, &rows)).into_diagnostic()?;
    Ok(if rows.iter().all(|r| r.verdict == Verdict::Agree) {
        Exit::Ok
    } else {
        Exit::CheckFailed
    })
}
