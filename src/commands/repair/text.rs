//! The repaired program as text: the source with fence statements inserted
//! at their anchors and orders rewritten in place, so comments and layout
//! stay exactly as written; and a unified diff against the source.
//!
//! - A fence before a statement that begins its line goes on a line of its
//!   own above it, with the statement's indentation; after a statement
//!   that ends its line (a trailing `//` comment allowed), on a line of its
//!   own below it. Otherwise it is written inline, next to the statement.
//! - An order is rewritten where it is written (`rlx` -> `acq`); a `cas`
//!   whose written failure order was the default of its old order gets the
//!   default of the new one, as the IR does (`repair::apply`).
//! - The `expect` block is replaced by the verdicts the repair verified
//!   (the model's and SC's), or added when there was none: the old entries
//!   described the unrepaired program. A run that unrolling cut
//!   (`--unroll`) gives no verdict: what it saw goes in a comment above
//!   the block instead ([`Verdicts`]).
//!
//! A herd7 test is edited in its relaxlab translation: the spans of the
//! program point into it.

use relaxlab_grammar::ast::{self, Stmt, StmtKind};
use relaxlab_semantics::analyses::repair::{Anchor, Change, Site, SiteKind};
use relaxlab_semantics::ir::{Program, Span};

/// What the repaired file says of the runs of the repaired program.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Verdicts {
    /// `expect` entries (`tso: never`, `tso.assert: never`): the verdicts
    /// of the runs no bound cut.
    pub entries: Vec<String>,
    /// The runs loops unrolled K times cut: K, and what each saw
    /// (`ax.tso: always observed, no execution seen to fail`).
    pub within_unroll: Option<(u32, Vec<String>)>,
}

impl Verdicts {
    /// The text that replaces the `expect` block: the comment on the
    /// unrolled runs, then `expect { ... }`; empty when there is neither.
    fn block(&self) -> String {
        let mut lines = Vec::new();
        if let Some((k, seen)) = &self.within_unroll {
            lines.push(format!(
                "// Loops unrolled {} (--unroll {k}): these runs saw only the executions within",
                crate::render::plural(u64::from(*k), "time")
            ));
            lines.push(
                "// that bound, so they give no verdict, and `expect` has no entry for them:"
                    .to_string(),
            );
            lines.extend(seen.iter().map(|s| format!("//   {s}")));
        }
        if !self.entries.is_empty() {
            lines.push(format!(
                "expect {{ {} }}",
                self.entries
                    .iter()
                    .map(|v| format!("{v};"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
        lines.join("\n")
    }
}

/// Replace `len` bytes at `at` with `text`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Edit {
    at: usize,
    len: usize,
    text: String,
}

/// The written order of every access statement, by statement span.
fn orders(test: &ast::Test) -> Vec<(Span, ast::Order, Option<ast::Order>)> {
    fn walk(block: &ast::Block, out: &mut Vec<(Span, ast::Order, Option<ast::Order>)>) {
        for s in &block.stmts {
            visit(s, out);
        }
    }
    fn visit(s: &Stmt, out: &mut Vec<(Span, ast::Order, Option<ast::Order>)>) {
        match &s.kind {
            StmtKind::Load { ord, .. }
            | StmtKind::Store { ord, .. }
            | StmtKind::Rmw { ord, .. } => out.push((s.span, *ord, None)),
            StmtKind::Cas { ord, fail, .. } => out.push((s.span, *ord, *fail)),
            StmtKind::If { then, els, .. } => {
                walk(then, out);
                if let Some(e) = els {
                    walk(e, out);
                }
            }
            StmtKind::While { body, .. } | StmtKind::Fork { body, .. } => walk(body, out),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for t in &test.threads {
        walk(&t.body, &mut out);
    }
    out
}

/// The whitespace before `at` on its line, if only whitespace precedes it.
fn indentation(text: &str, at: usize) -> Option<&str> {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[start..at];
    before
        .chars()
        .all(|c| c == ' ' || c == '\t')
        .then_some(before)
}

/// Where the line containing `at` ends (its `\n`, or the end of the text),
/// if nothing but blanks and a `//` comment follow `at` on it.
fn line_end_after(text: &str, at: usize) -> Option<usize> {
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let rest = text[at..end].trim_start();
    (rest.is_empty() || rest.starts_with("//")).then_some(end)
}

fn fence_edit(text: &str, program: &Program, site: &Site, change: Change) -> Edit {
    let SiteKind::Fence(anchor) = site.kind else {
        unreachable!("relaxlab internal error: a fence at an order site")
    };
    let span = program.instruction(site.thread, anchor.instr()).span;
    let fence = format!("{};", change.text());
    match anchor {
        Anchor::Before(_) => {
            let at = span.start as usize;
            match indentation(text, at) {
                Some(indent) => Edit {
                    at,
                    len: 0,
                    text: format!("{fence}\n{indent}"),
                },
                None => Edit {
                    at,
                    len: 0,
                    text: format!("{fence} "),
                },
            }
        }
        Anchor::After(_) => {
            let at = span.end as usize;
            match (
                indentation(text, span.start as usize),
                line_end_after(text, at),
            ) {
                (Some(indent), Some(end)) => Edit {
                    at: end,
                    len: 0,
                    text: format!("\n{indent}{fence}"),
                },
                _ => Edit {
                    at,
                    len: 0,
                    text: format!(" {fence}"),
                },
            }
        }
    }
}

fn order_edits(
    program: &Program,
    written: &[(Span, ast::Order, Option<ast::Order>)],
    site: &Site,
    change: Change,
) -> Vec<Edit> {
    let SiteKind::Order(i) = site.kind else {
        unreachable!("relaxlab internal error: an order at a fence site")
    };
    let ins = program.instruction(site.thread, i);
    let Some((_, ord, fail)) = written.iter().find(|(s, _, _)| *s == ins.span) else {
        unreachable!("relaxlab internal error: an order site without its statement")
    };
    let mut out = vec![Edit {
        at: ord.span.start as usize,
        len: (ord.span.end - ord.span.start) as usize,
        text: change.text(),
    }];
    // A written failure order equal to the old default follows the new
    // default (as `repair::apply` does in the IR).
    if let (
        Some(fail),
        Change::Rmw(new),
        relaxlab_semantics::ir::Instr::Cas {
            ord: old, fail: f, ..
        },
    ) = (fail, change, &ins.instr)
    {
        if *f == old.read_part() {
            out.push(Edit {
                at: fail.span.start as usize,
                len: (fail.span.end - fail.span.start) as usize,
                text: relaxlab_semantics::analyses::repair::site::read_name(new.read_part())
                    .to_string(),
            });
        }
    }
    out
}

/// The next offset at or after `i` that is neither blank nor inside a
/// comment or a string, with the byte there.
fn next_code(text: &str, mut i: usize) -> Option<(usize, u8)> {
    let bytes = text.as_bytes();
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(bytes.len(), |k| i + k);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |k| i + 2 + k + 2);
            }
            b'"' => {
                i = text[i + 1..]
                    .find('"')
                    .map_or(bytes.len(), |k| i + 1 + k + 1);
            }
            c if c.is_ascii_whitespace() => i += 1,
            c => return Some((i, c)),
        }
    }
    None
}

/// The span of the `expect { ... }` block, found by scanning the text after
/// the threads (comments skipped, inside the block too), if there is one.
fn expect_block(text: &str, from: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut i = from;
    while let Some((at, c)) = next_code(text, i) {
        if !(c.is_ascii_alphabetic() || c == b'_') {
            i = at + 1;
            continue;
        }
        let mut end = at;
        while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
            end += 1;
        }
        if &text[at..end] != "expect" {
            i = end;
            continue;
        }
        let (open, c) = next_code(text, end)?;
        if c != b'{' {
            return None;
        }
        let mut j = open + 1;
        while let Some((k, c)) = next_code(text, j) {
            if c == b'}' {
                return Some((at, k + 1));
            }
            j = k + 1;
        }
        return None;
    }
    None
}

/// The source with `placement` applied and `expect` holding `verdicts`
/// (`tso: never`, ...; [`Verdicts::block`]), and a unified diff from the
/// source to it.
#[allow(clippy::too_many_arguments)]
pub fn repaired_text(
    text: &str,
    test: &ast::Test,
    program: &Program,
    sites: &[Site],
    placement: &[(usize, Change)],
    verdicts: &Verdicts,
    names: (&str, &str),
) -> (String, String) {
    let written = orders(test);
    let mut edits = Vec::new();
    for &(s, change) in placement {
        let site = &sites[s];
        match site.kind {
            SiteKind::Fence(_) => edits.push(fence_edit(text, program, site, change)),
            SiteKind::Order(_) => edits.extend(order_edits(program, &written, site, change)),
        }
    }
    let after_threads = test.threads.last().map_or(0, |t| t.span.end as usize);
    let block = verdicts.block();
    match expect_block(text, after_threads) {
        Some((start, end)) => edits.push(Edit {
            at: start,
            len: end - start,
            text: block,
        }),
        None if !block.is_empty() => {
            let end = text.trim_end().len();
            edits.push(Edit {
                at: end,
                len: 0,
                text: format!("\n{block}"),
            });
        }
        None => {}
    }
    // Stable: edits at one offset keep their order (site order).
    edits.sort_by_key(|e| e.at);
    let new = apply_edits(text, &edits);
    let diff = unified_diff(text, &edits, names, 1);
    (new, diff)
}

/// `text` with non-overlapping `edits` (sorted by offset) applied.
fn apply_edits(text: &str, edits: &[Edit]) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let mut pos = 0;
    for e in edits {
        out.push_str(&text[pos..e.at.max(pos)]);
        out.push_str(&e.text);
        pos = pos.max(e.at + e.len);
    }
    out.push_str(&text[pos.min(text.len())..]);
    out
}

/// The 0-based line of byte offset `at`.
fn line_of(starts: &[usize], at: usize) -> usize {
    starts.partition_point(|&s| s <= at).saturating_sub(1)
}

/// A unified diff from `text` to `text` with `edits` applied, with
/// `context` lines around each change. Edits touching nearby lines share a
/// hunk; inside a hunk the lines are diffed by longest common subsequence
/// (a hunk is a few lines), so an inserted fence shows as one `+` line.
fn unified_diff(text: &str, edits: &[Edit], names: (&str, &str), context: usize) -> String {
    if edits.is_empty() {
        return String::new();
    }
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    // Lines, without the empty one after a final newline.
    let lines = text.lines().count().max(1);
    // Touched line ranges, merged when their contexts meet.
    let mut groups: Vec<(usize, usize, Vec<&Edit>)> = Vec::new();
    for e in edits {
        let clamp = |at: usize| line_of(&starts, at).min(lines - 1);
        let (l0, l1) = (clamp(e.at), clamp(e.at + e.len));
        match groups.last_mut() {
            Some(g) if l0 <= g.1 + 2 * context + 1 => {
                g.1 = g.1.max(l1);
                g.2.push(e);
            }
            _ => groups.push((l0, l1, vec![e])),
        }
    }
    let mut out = format!("--- {}\n+++ {}\n", names.0, names.1);
    let mut shift: isize = 0;
    for (l0, l1, group) in groups {
        let lo = l0.saturating_sub(context);
        let hi = (l1 + context).min(lines - 1);
        let from = starts[lo];
        let to = if hi + 1 < starts.len() {
            starts[hi + 1] - 1
        } else {
            text.len()
        };
        let to = group.iter().map(|e| e.at + e.len).fold(to, usize::max);
        let local: Vec<Edit> = group
            .iter()
            .map(|e| Edit {
                at: e.at - from,
                len: e.len,
                text: e.text.clone(),
            })
            .collect();
        let old_part = &text[from..to];
        let new_part = apply_edits(old_part, &local);
        let a: Vec<&str> = old_part.split('\n').collect();
        let b: Vec<&str> = new_part.split('\n').collect();
        out.push_str(&format!(
            "@@ -{},{} +{},{} @@\n",
            lo + 1,
            a.len(),
            (lo as isize + shift) + 1,
            b.len()
        ));
        for line in lcs_lines(&a, &b) {
            out.push_str(&line);
            out.push('\n');
        }
        shift += b.len() as isize - a.len() as isize;
    }
    out
}

/// The lines of `a` and `b` as a diff body: ` kept`, `-deleted`,
/// `+inserted`, by longest common subsequence (deletions before
/// insertions, as `diff` prints them).
fn lcs_lines(a: &[&str], b: &[&str]) -> Vec<String> {
    let (n, m) = (a.len(), b.len());
    let mut len = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            len[i][j] = if a[i] == b[j] {
                len[i + 1][j + 1] + 1
            } else {
                len[i + 1][j].max(len[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            out.push(format!(" {}", a[i]));
            i += 1;
            j += 1;
        } else if i < n && (j == m || len[i + 1][j] >= len[i][j + 1]) {
            out.push(format!("-{}", a[i]));
            i += 1;
        } else {
            out.push(format!("+{}", b[j]));
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(at: usize, len: usize, text: &str) -> Edit {
        Edit {
            at,
            len,
            text: text.to_string(),
        }
    }

    #[test]
    fn a_diff_of_an_inserted_line() {
        let text = "a\nb\nc\nd\n";
        let edits = [edit(4, 0, "fence;\n")];
        assert_eq!(apply_edits(text, &edits), "a\nb\nfence;\nc\nd\n");
        let d = unified_diff(text, &edits, ("f", "g"), 1);
        assert_eq!(d, "--- f\n+++ g\n@@ -2,3 +2,4 @@\n b\n+fence;\n c\n d\n");
    }

    #[test]
    fn far_apart_edits_make_two_hunks_with_shifted_new_lines() {
        let text = "1\n2\n3\n4\n5\n6\n7\n8\n";
        let edits = [edit(2, 0, "x\n"), edit(12, 1, "seven")];
        let d = unified_diff(text, &edits, ("f", "g"), 1);
        assert_eq!(
            d,
            "--- f\n+++ g\n@@ -1,3 +1,4 @@\n 1\n+x\n 2\n 3\n@@ -6,3 +7,3 @@\n 6\n-7\n+seven\n 8\n"
        );
    }

    #[test]
    fn the_expect_block_is_found_past_comments() {
        let text = "thread P { }\n// expect { no }\nexists (x = 1)\nexpect { sc: never; }\n";
        let (s, e) = expect_block(text, 12).unwrap();
        assert_eq!(&text[s..e], "expect { sc: never; }");
        let text = "exists (x = 1)\nexpect {\n  // a {0} set\n  /* } */ sc: never;\n}\n";
        let (s, e) = expect_block(text, 0).unwrap();
        assert_eq!(&text[s..e], &text[15..text.len() - 1]);
    }
}
