//! herd logs: the output of herd7, of litmus7, and of `relaxlab run
//! --format herd`, read back and compared test by test, as herdtools7's
//! `mcompare7` compares logs (book: herd.md, Comparing logs).
//!
//! A log is a sequence of blocks, one per test; everything else (blank
//! lines, herd7's warnings, relaxlab's `# ...` comments, `Time` and `Hash`
//! lines) is skipped. A block is herd7's
//!
//! ```text
//! Test SB Allowed
//! States 4
//! 0:EAX=0; 1:EAX=0;
//! ...
//! Ok
//! Witnesses
//! Positive: 1 Negative: 3
//! Condition exists (0:EAX=0 /\ 1:EAX=0)
//! Observation SB Sometimes 1 3
//! ```
//!
//! or litmus7's, whose states follow `Histogram (N states)`, each after its
//! run count and `*>` or `:>`. From a block the comparison keeps the test's
//! name, its final states (as sets of `location=value` pairs, `[x]` and `x`
//! alike), the verdict (`Ok`, `No`, `Undef`, with herd's `Loop` prefix),
//! the `Observation` word and the positive and negative counts.
//!
//! Two logs agree on a test when they list the same states and the same
//! verdict; counts are compared too unless asked not to (an operational
//! run of relaxlab counts outcomes where herd7 counts executions).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// One test's result in a log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    /// `Allowed`, `Forbidden`, `Required`.
    pub kind: String,
    /// Each state as its sorted `location=value` pairs.
    pub states: BTreeSet<Vec<String>>,
    /// `Ok`, `No`, `Undef`, maybe after `Loop `.
    pub verdict: String,
    /// `Never`, `Sometimes`, `Always` (relaxlab: also `Unobserved`).
    pub observation: String,
    pub positive: u64,
    pub negative: u64,
    /// The line in the log where the block starts (1-based).
    pub line: usize,
}

/// A log: its entries by test name, in the order of the log.
#[derive(Clone, Debug, Default)]
pub struct Log {
    pub entries: Vec<Entry>,
}

/// A problem with a log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for LogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// The pairs of a state line `0:EAX=0; [x]=1;`, sorted, brackets dropped.
fn state_pairs(line: &str) -> Vec<String> {
    let mut pairs: Vec<String> = line
        .split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((loc, v)) => {
                let loc = loc.trim();
                let loc = loc
                    .strip_prefix('[')
                    .and_then(|l| l.strip_suffix(']'))
                    .unwrap_or(loc);
                format!("{loc}={}", v.trim())
            }
            None => p.to_string(),
        })
        .collect();
    pairs.sort();
    pairs
}

/// Reads a log.
pub fn parse(text: &str) -> Result<Log, LogError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut log = Log::default();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_end();
        let Some(rest) = line.strip_prefix("Test ") else {
            i += 1;
            continue;
        };
        let start = i + 1;
        let mut words = rest.split_whitespace();
        let name = words.next().unwrap_or_default().to_string();
        let kind = words.next().unwrap_or_default().to_string();
        let mut entry = Entry {
            name,
            kind,
            states: BTreeSet::new(),
            verdict: String::new(),
            observation: String::new(),
            positive: 0,
            negative: 0,
            line: start,
        };
        i += 1;
        let err = |line: usize, message: String| LogError { line, message };
        // The states.
        let header = lines.get(i).map_or("", |l| l.trim());
        let count = if let Some(n) = header.strip_prefix("States ") {
            n.trim().parse::<usize>().ok()
        } else if let Some(n) = header.strip_prefix("Histogram (") {
            n.split_whitespace().next().and_then(|n| n.parse().ok())
        } else {
            None
        };
        let Some(count) = count else {
            return Err(err(i + 1, format!("expected `States N` after `{line}`")));
        };
        let litmus = header.starts_with("Histogram");
        i += 1;
        for _ in 0..count {
            let Some(s) = lines.get(i) else {
                return Err(err(
                    i + 1,
                    "the log ends inside a list of states".to_string(),
                ));
            };
            let s = if litmus {
                // `12 *> 0:r0=1; ...` or `3 :> ...`
                s.split_once('>').map_or(*s, |(_, st)| st)
            } else {
                s
            };
            entry.states.insert(state_pairs(s));
            i += 1;
        }
        // The rest of the block, up to `Observation`.
        loop {
            let Some(l) = lines.get(i).map(|l| l.trim()) else {
                return Err(err(
                    start,
                    format!("no `Observation` line for test {}", entry.name),
                ));
            };
            i += 1;
            let plain = l.strip_prefix("Loop ").unwrap_or(l);
            if matches!(plain, "Ok" | "No" | "Undef") {
                entry.verdict = l.to_string();
            } else if let Some(counts) = l.strip_prefix("Positive: ") {
                // herd7: `Positive: 1 Negative: 3`; litmus7: `Positive: 1, Negative: 3`.
                let nums: Vec<u64> = counts
                    .split(|c: char| !c.is_ascii_digit())
                    .filter(|w| !w.is_empty())
                    .filter_map(|w| w.parse().ok())
                    .collect();
                if let [p, n] = nums[..] {
                    entry.positive = p;
                    entry.negative = n;
                }
            } else if let Some(obs) = l.strip_prefix("Observation ") {
                let words: Vec<&str> = obs.split_whitespace().collect();
                if let Some(w) = words.get(1) {
                    entry.observation = w.to_string();
                }
                break;
            } else if l.starts_with("Test ") {
                return Err(err(
                    i,
                    format!("no `Observation` line for test {}", entry.name),
                ));
            }
        }
        if let Some(first) = log.entries.iter().find(|e| e.name == entry.name) {
            return Err(err(
                start,
                format!(
                    "test {} is here a second time (first at line {}): a log holds one run per test",
                    entry.name, first.line
                ),
            ));
        }
        log.entries.push(entry);
    }
    Ok(log)
}

/// How two logs' entries for one test compare.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Agree,
    /// What differs: `states`, `verdict`, `counts`.
    Differ(Vec<&'static str>),
    /// The test is in some logs only.
    Missing,
}

/// One row of a comparison: a test and its entry in each log.
#[derive(Clone, Debug)]
pub struct Row<'a> {
    pub name: String,
    pub entries: Vec<Option<&'a Entry>>,
    pub verdict: Verdict,
}

/// Compares logs test by test, in the order tests first appear; `counts`:
/// whether different positive/negative counts make a difference.
pub fn compare<'a>(logs: &'a [Log], counts: bool) -> Vec<Row<'a>> {
    let mut order: Vec<&str> = Vec::new();
    let mut seen = BTreeSet::new();
    let index: Vec<BTreeMap<&str, &Entry>> = logs
        .iter()
        .map(|l| l.entries.iter().map(|e| (e.name.as_str(), e)).collect())
        .collect();
    for log in logs {
        for e in &log.entries {
            if seen.insert(e.name.as_str()) {
                order.push(&e.name);
            }
        }
    }
    order
        .into_iter()
        .map(|name| {
            let entries: Vec<Option<&Entry>> = index.iter().map(|m| m.get(name).copied()).collect();
            let verdict = if entries.iter().any(Option::is_none) {
                Verdict::Missing
            } else {
                let all: Vec<&Entry> = entries.iter().flatten().copied().collect();
                let first = all[0];
                let mut what = Vec::new();
                if all.iter().any(|e| e.states != first.states) {
                    what.push("states");
                }
                if all.iter().any(|e| e.verdict != first.verdict) {
                    what.push("verdict");
                }
                if counts
                    && all
                        .iter()
                        .any(|e| (e.positive, e.negative) != (first.positive, first.negative))
                {
                    what.push("counts");
                }
                if what.is_empty() {
                    Verdict::Agree
                } else {
                    Verdict::Differ(what)
                }
            };
            Row {
                name: name.to_string(),
                entries,
                verdict,
            }
        })
        .collect()
}

/// The comparison as a table, one column per log, then the states that
/// tell differing logs apart, then a summary line.
pub fn render(names: &[String], rows: &[Row<'_>]) -> String {
    let cell = |e: Option<&Entry>| match e {
        Some(e) => format!("{} {} {}", e.observation, e.positive, e.negative),
        None => "-".to_string(),
    };
    let mut widths: Vec<usize> = vec!["test".len()];
    widths.extend(names.iter().map(|n| n.len()));
    for r in rows {
        widths[0] = widths[0].max(r.name.len());
        for (k, e) in r.entries.iter().enumerate() {
            widths[k + 1] = widths[k + 1].max(cell(*e).len());
        }
    }
    let mut out = String::new();
    let line = |cells: Vec<String>, note: &str, out: &mut String| {
        let mut l = String::new();
        for (c, w) in cells.iter().zip(&widths) {
            let _ = write!(l, "{c:<w$}  ");
        }
        l.push_str(note);
        out.push_str(l.trim_end());
        out.push('\n');
    };
    let mut head = vec!["test".to_string()];
    head.extend(names.iter().cloned());
    line(head, "", &mut out);
    for r in rows {
        let mut cells = vec![r.name.clone()];
        cells.extend(r.entries.iter().map(|e| cell(*e)));
        let note = match &r.verdict {
            Verdict::Agree => String::new(),
            Verdict::Differ(what) => format!("differ: {}", what.join(", ")),
            Verdict::Missing => "missing".to_string(),
        };
        line(cells, &note, &mut out);
    }
    for r in rows {
        if !matches!(&r.verdict, Verdict::Differ(w) if w.contains(&"states") || w.contains(&"verdict"))
        {
            continue;
        }
        let _ = writeln!(out, "\n{}:", r.name);
        let all: Vec<&Entry> = r.entries.iter().flatten().copied().collect();
        for (k, e) in r.entries.iter().enumerate() {
            let Some(e) = e else { continue };
            let _ = writeln!(out, "  {}: {}", names[k], e.verdict);
            for s in &e.states {
                let everywhere = all.iter().all(|o| o.states.contains(s));
                if !everywhere {
                    let _ = writeln!(out, "    only here: {}", s.join("; "));
                }
            }
        }
    }
    let agree = rows.iter().filter(|r| r.verdict == Verdict::Agree).count();
    let differ = rows
        .iter()
        .filter(|r| matches!(r.verdict, Verdict::Differ(_)))
        .count();
    let missing = rows.len() - agree - differ;
    let tests = if rows.len() == 1 { "test" } else { "tests" };
    let _ = writeln!(
        out,
        "\n{} {tests}: {agree} agree, {differ} differ, {missing} not in every log",
        rows.len()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const HERD: &str = "Warning: something\n\
Test SB Allowed\nStates 2\n0:EAX=0; 1:EAX=0;\n0:EAX=1; [x]=1;\nOk\nWitnesses\n\
Positive: 1 Negative: 1\nCondition exists (0:EAX=0 /\\ 1:EAX=0)\nObservation SB Sometimes 1 1\n\
Time SB 0.01\nHash=abc\n\n\
Test MP Allowed\nStates 1\n1:EAX=0;\nLoop No\nWitnesses\nPositive: 0 Negative: 3\n\
Condition exists (1:EAX=1)\nObservation MP Never 0 3\n";

    const LITMUS: &str = "Test SB Allowed\nHistogram (2 states)\n5     *>0:EAX=0; 1:EAX=0;\n\
95    :>0:EAX=1; x=1;\nOk\n\nWitnesses\nPositive: 5, Negative: 95\n\
Condition exists (0:EAX=0 /\\ 1:EAX=0) is validated\nObservation SB Sometimes 5 95\n";

    #[test]
    fn herd_and_litmus_blocks_are_read() {
        let log = parse(HERD).unwrap();
        assert_eq!(log.entries.len(), 2);
        let sb = &log.entries[0];
        assert_eq!(sb.name, "SB");
        assert_eq!(sb.kind, "Allowed");
        assert_eq!(sb.verdict, "Ok");
        assert_eq!((sb.positive, sb.negative), (1, 1));
        assert!(sb
            .states
            .contains(&vec!["0:EAX=1".to_string(), "x=1".to_string()]));
        assert_eq!(log.entries[1].verdict, "Loop No");
        assert_eq!(log.entries[1].observation, "Never");
        let l = parse(LITMUS).unwrap();
        assert_eq!(l.entries[0].states, sb.states);
        assert_eq!((l.entries[0].positive, l.entries[0].negative), (5, 95));
    }

    #[test]
    fn logs_are_compared_by_states_verdict_and_counts() {
        let a = parse(HERD).unwrap();
        let b = parse(LITMUS).unwrap();
        let logs = [a, b];
        let rows = compare(&logs, true);
        assert_eq!(rows[0].verdict, Verdict::Differ(vec!["counts"]));
        assert_eq!(rows[1].verdict, Verdict::Missing);
        let rows = compare(&logs, false);
        assert_eq!(rows[0].verdict, Verdict::Agree);
        let text = render(&["a".into(), "b".into()], &rows);
        assert!(
            text.contains("SB    Sometimes 1 1  Sometimes 5 95\n"),
            "{text}"
        );
        assert!(
            text.contains("MP    Never 0 3      -               missing\n"),
            "{text}"
        );
        assert!(
            text.ends_with("2 tests: 1 agree, 0 differ, 1 not in every log\n"),
            "{text}"
        );
    }

    #[test]
    fn differing_states_are_listed_per_log() {
        let a = parse(HERD).unwrap();
        let b = parse(&HERD.replace("0:EAX=1; [x]=1;", "0:EAX=1; [x]=2;")).unwrap();
        let logs = [a, b];
        let rows = compare(&logs, true);
        assert_eq!(rows[0].verdict, Verdict::Differ(vec!["states"]));
        let text = render(&["a".into(), "b".into()], &rows);
        assert!(text.contains("\nSB:\n  a: Ok\n    only here: 0:EAX=1; x=1\n  b: Ok\n    only here: 0:EAX=1; x=2\n"), "{text}");
    }

    #[test]
    fn a_truncated_block_is_an_error_with_its_line() {
        let e = parse("Test T Allowed\nStates 3\n0:r0=1;\n").unwrap_err();
        assert_eq!(e.line, 4);
        let e = parse("Test T Allowed\nStates 0\nOk\n").unwrap_err();
        assert!(e.message.contains("no `Observation`"), "{e}");
        let twice = format!("{HERD}{HERD}");
        let e = parse(&twice).unwrap_err();
        assert_eq!(e.line, 23);
        assert!(
            e.message
                .contains("test SB is here a second time (first at line 2)"),
            "{e}"
        );
    }
}
