//! The canonical layout of a file, with its comments.
//!
//! Canonical means: the header, the `init` block, each thread with
//! two-space indentation and one statement per line, then the condition,
//! the filter, `observe` and `expect`; a blank line between the header,
//! the `init` block, each thread and the first trailer. The `init` and
//! `expect` blocks keep their lines as written: a block written on one line
//! stays on one line, and in a block of several lines each line of entries
//! stays a line (`sc: never; tso: never;`), unless it does not fit in
//! [`WIDTH`] columns, which breaks it one entry per line. Several
//! `observe`/`locations` blocks print as one `observe { .. }`.
//!
//! Comments print where [`crate::trivia`] attached them: before a node on
//! lines of their own, after it on its last line, after a `{`, or before a
//! `}`; a blank line the source had between two statements (or entries, or
//! trailers) is kept, several collapse into one.

use std::fmt::Write;

use crate::ast::{Block, Comment, Stmt, StmtKind, Test, Trivia};

use super::text::{condition_text, if_text, obs_text, prop_text, stmt_text};

/// The line width beyond which `init` and `expect` break one entry per
/// line (rustfmt's default).
pub(crate) const WIDTH: usize = 100;

/// Prints `test` in the canonical layout.
pub(crate) fn format_test(test: &Test) -> String {
    let mut p = Printer::default();
    let s = &test.sections;
    let mut header = format!("test {}", test.name.name);
    if let Some(doc) = &test.doc {
        let _ = write!(header, " \"{doc}\"");
    }
    p.item(&s.header, 0, |p| p.out.push_str(&header));

    if !test.init.is_empty() || !s.init.is_empty() || !s.init_end.is_empty() {
        p.separate();
        let entries: Vec<(String, &Trivia)> = test
            .init
            .iter()
            .map(|e| {
                let text = match (&e.array, e.value) {
                    (Some(a), _) => match &a.values {
                        Some(v) => format!(
                            "{}[{}] = {{{}}};",
                            e.loc.name,
                            a.len,
                            v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
                        ),
                        None => format!("{}[{}];", e.loc.name, a.len),
                    },
                    (None, Some(v)) => format!("{} = {v};", e.loc.name),
                    (None, None) => format!("{};", e.loc.name),
                };
                (text, &e.trivia)
            })
            .collect();
        p.item(&s.init, 0, |p| p.entries("init", &entries, &s.init_end));
    }
    for t in &test.threads {
        p.separate();
        p.item(&t.trivia, 0, |p| {
            let _ = write!(p.out, "thread {} ", t.name.name);
            p.block(&t.body, 0);
        });
    }

    let mut first = true;
    let mut trailer = |p: &mut Printer, trivia: &Trivia, text: &mut dyn FnMut(&mut Printer)| {
        if std::mem::take(&mut first) {
            p.separate();
        }
        p.item(trivia, 0, |p| text(p));
    };
    if let Some(c) = &test.condition {
        trailer(&mut p, &c.trivia, &mut |p| {
            p.out.push_str(&condition_text(c))
        });
    }
    if let Some(f) = &test.filter {
        trailer(&mut p, &s.filter, &mut |p| {
            let _ = write!(p.out, "filter ({})", prop_text(f));
        });
    }
    if test.observe_block || !test.observe.is_empty() {
        trailer(&mut p, &s.observe, &mut |p| {
            p.out.push_str("observe {");
            for o in &test.observe {
                let _ = write!(p.out, " {};", obs_text(o));
            }
            p.out.push_str(" }");
        });
    }
    if !test.expect.is_empty() || !s.expect.is_empty() || !s.expect_end.is_empty() {
        let entries: Vec<(String, &Trivia)> = test
            .expect
            .iter()
            .map(|e| (format!("{}: {};", e.key.name, e.verdict), &e.trivia))
            .collect();
        trailer(&mut p, &s.expect, &mut |p| {
            p.entries("expect", &entries, &s.expect_end)
        });
    }
    p.comments(&s.end, 0);
    let mut out = p.out;
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// The text being built, line by line.
#[derive(Default)]
struct Printer {
    out: String,
}

impl Printer {
    fn indent(&mut self, depth: usize) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
    }

    /// An empty line, unless the text is empty or already ends with one.
    fn blank(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with("\n\n") {
            self.out.push('\n');
        }
    }

    /// The blank line between the sections of a file.
    fn separate(&mut self) {
        self.blank();
    }

    /// Comments on lines of their own at `depth`.
    fn comments(&mut self, comments: &[Comment], depth: usize) {
        for c in comments {
            if c.blank_before {
                self.blank();
            }
            self.indent(depth);
            self.out.push_str(&c.text);
            self.out.push('\n');
        }
    }

    /// Comments after a node on its line; after a `//` comment, which
    /// ends the line, the others go on lines of their own at `depth`.
    fn trailing(&mut self, comments: &[Comment], depth: usize) {
        let mut line_ended = false;
        for c in comments {
            if line_ended {
                self.out.push('\n');
                self.indent(depth);
            } else {
                self.out.push(' ');
            }
            self.out.push_str(&c.text);
            line_ended |= c.is_line();
        }
    }

    /// A node with its comments: those before it, the node (printed by
    /// `node` from the current indentation on), those after it, and the
    /// end of its line.
    fn item(&mut self, trivia: &Trivia, depth: usize, node: impl FnOnce(&mut Printer)) {
        self.comments(&trivia.before, depth);
        if trivia.blank_before {
            self.blank();
        }
        self.indent(depth);
        node(self);
        self.trailing(&trivia.after, depth);
        self.out.push('\n');
    }

    /// `{`, the statements one level deeper, `}` at `depth`.
    fn block(&mut self, b: &Block, depth: usize) {
        self.out.push('{');
        self.trailing(&b.open, depth + 1);
        self.out.push('\n');
        for s in &b.stmts {
            self.stmt_item(s, depth + 1);
        }
        self.comments(&b.close, depth + 1);
        self.indent(depth);
        self.out.push('}');
    }

    /// [`Printer::item`] for a statement (without a closure: the
    /// recursion through nested blocks passes here, `stmt` and `block`
    /// only, and goes as deep as the nesting).
    fn stmt_item(&mut self, s: &Stmt, depth: usize) {
        self.comments(&s.trivia.before, depth);
        if s.trivia.blank_before {
            self.blank();
        }
        self.indent(depth);
        self.stmt(s, depth);
        self.trailing(&s.trivia.after, depth);
        self.out.push('\n');
    }

    /// A statement from its first character to its last (`;` or `}`).
    fn stmt(&mut self, s: &Stmt, depth: usize) {
        self.out.push_str(&stmt_text(s));
        match &s.kind {
            StmtKind::If {
                then, elifs, els, ..
            } => {
                self.out.push(' ');
                self.block(then, depth);
                for arm in elifs {
                    self.out.push_str(" else ");
                    self.out.push_str(&if_text(&arm.cond));
                    self.out.push(' ');
                    self.block(&arm.then, depth);
                }
                if let Some(els) = els {
                    self.out.push_str(" else ");
                    self.block(els, depth);
                }
            }
            StmtKind::While { body, .. } => {
                self.out.push(' ');
                self.block(body, depth);
            }
            StmtKind::Fork { body, .. } => {
                self.out.push(' ');
                self.block(body, depth);
                self.out.push(';');
            }
            _ => self.out.push(';'),
        }
    }

    /// `KEYWORD { e1 e2 ... }` on one line when it was written on one
    /// line, fits and nothing in it has a comment. Otherwise the entries
    /// keep the lines they were written on, one line of the block each;
    /// a line that does not fit in [`WIDTH`] columns breaks one entry per
    /// line. A comment before an entry, or a `//` comment after one, starts
    /// a new line. A tree built by hand (no [`Trivia::new_line`]) prints on
    /// one line, or one entry per line when that does not fit.
    fn entries(&mut self, keyword: &str, entries: &[(String, &Trivia)], end: &[Comment]) {
        let one_line =
            end.is_empty() && entries.iter().all(|(_, t)| t.is_empty() && !t.new_line) && {
                let line = self.out.len() - self.out.rfind('\n').map_or(0, |i| i + 1);
                line + keyword.len() + 4 + line_width(entries) <= WIDTH
            };
        let _ = write!(self.out, "{keyword} {{");
        if one_line {
            for (e, _) in entries {
                self.out.push(' ');
                self.out.push_str(e);
            }
            self.out.push_str(" }");
            return;
        }
        self.out.push('\n');
        for line in entry_lines(entries) {
            for (k, (e, trivia)) in line.iter().enumerate() {
                if k == 0 {
                    self.comments(&trivia.before, 1);
                    if trivia.blank_before {
                        self.blank();
                    }
                    self.indent(1);
                } else {
                    self.out.push(' ');
                }
                self.out.push_str(e);
                self.trailing(&trivia.after, 1);
            }
            self.out.push('\n');
        }
        self.comments(end, 1);
        self.out.push('}');
    }
}

/// The width of entries printed on one line, one space before each.
fn line_width(entries: &[(String, &Trivia)]) -> usize {
    entries.iter().map(|(e, _)| e.chars().count() + 1).sum()
}

/// The lines of a multi-line `init` or `expect` block (the rule of
/// [`Printer::entries`]).
fn entry_lines<'e, 't>(entries: &'e [(String, &'t Trivia)]) -> Vec<&'e [(String, &'t Trivia)]> {
    let mut lines = Vec::new();
    let mut start = 0;
    for k in 1..=entries.len() {
        let breaks = entries.get(k).is_none_or(|(_, t)| {
            t.new_line
                || t.blank_before
                || !t.before.is_empty()
                || entries[k - 1].1.after.iter().any(Comment::is_line)
        });
        if breaks {
            let line = &entries[start..k];
            // Two columns of indentation, and no space before the first.
            if line.len() > 1 && 2 + line_width(line) - 1 > WIDTH {
                lines.extend(line.chunks(1));
            } else {
                lines.push(line);
            }
            start = k;
        }
    }
    lines
}
