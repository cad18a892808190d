//! Attaching comments and blank lines to the syntax tree, so that the
//! formatter keeps them (as rustfmt and gofmt do).
//!
//! The lexer sets comments aside; after parsing, each comment goes to one
//! node, by position (the rules of [`distribute`]):
//! 1. a comment on the line where a node ends, after it, is that node's
//!    trailing comment (`r0 = load(x, rlx); // why`);
//! 2. a comment on the line of a block's `{`, after it, stays there;
//! 3. any other comment between nodes goes with the next node, or with the
//!    end of the enclosing block (or file) when no node follows;
//! 4. a comment inside a node, between its own tokens (`store(x, /* v */
//!    1, rlx)`), goes before that node: the formatter prints a node's
//!    tokens its own way, so it moves the comment rather than lose it. In
//!    an `if` after its first block (`} /* c */ else {`), it goes after the
//!    `{` of the next block instead, which keeps the comments in order.
//!
//! Inside a block the same rules apply to its statements; inside `init {}`
//! and `expect {}` to their entries, which also record whether they start a
//! line of their own ([`Trivia::new_line`]), so that the formatter keeps
//! the lines of entries as written. A blank line before a node or a
//! comment is recorded too, except where the formatter always puts one
//! (between the sections of a file) or never does (at the start of a
//! block), so that formatting is idempotent.

use relaxlab_semantics::ir::Span;

use crate::ast::{Block, Comment, ExpectEntry, InitEntry, Test, Trivia};

/// A comment as the lexer found it.
pub(crate) type RawComment<'s> = (Span, &'s str);

/// Attaches every comment of `src` to `test`.
pub(crate) fn attach(test: &mut Test, comments: &[RawComment<'_>], src: &str) {
    let sections = &mut test.sections;
    let mut items: Vec<Item<'_>> = Vec::new();
    items.push(Item {
        span: sections.header_span,
        trivia: &mut sections.header,
        inner: Vec::new(),
        separated: true,
    });
    if !test.init.is_empty() || sections.init_span != Span::default() {
        items.push(Item {
            span: sections.init_span,
            trivia: &mut sections.init,
            inner: vec![(
                sections.init_span,
                Container::Init(&mut test.init, &mut sections.init_end),
            )],
            separated: true,
        });
    }
    for t in &mut test.threads {
        items.push(Item {
            span: t.span,
            trivia: &mut t.trivia,
            inner: vec![(t.body.span, Container::Block(&mut t.body))],
            separated: true,
        });
    }
    // The trailers in the order the formatter prints them: the first one
    // follows a blank line whatever the source says.
    let mut trailers: Vec<Item<'_>> = Vec::new();
    if let Some(c) = &mut test.condition {
        trailers.push(Item {
            span: c.span,
            trivia: &mut c.trivia,
            inner: Vec::new(),
            separated: false,
        });
    }
    if test.filter.is_some() {
        trailers.push(Item {
            span: sections.filter_span,
            trivia: &mut sections.filter,
            inner: Vec::new(),
            separated: false,
        });
    }
    if let (Some(&first), Some(&last)) = (
        sections.observe_spans.first(),
        sections.observe_spans.last(),
    ) {
        // Several blocks print as one; comments between them go before it.
        trailers.push(Item {
            span: Span {
                start: first.start,
                end: last.end,
            },
            trivia: &mut sections.observe,
            inner: Vec::new(),
            separated: false,
        });
    }
    if sections.expect_span != Span::default() {
        trailers.push(Item {
            span: sections.expect_span,
            trivia: &mut sections.expect,
            inner: vec![(
                sections.expect_span,
                Container::Expect(&mut test.expect, &mut sections.expect_end),
            )],
            separated: false,
        });
    }
    if let Some(first) = trailers.first_mut() {
        first.separated = true;
    }
    items.extend(trailers);
    items.sort_by_key(|i| i.span.start);
    // Containers inside containers are filled from a work list rather than
    // by recursion: blocks nest as deep as the file does.
    let mut work = distribute(src, comments, items, None, &mut sections.end, false);
    while let Some((container, bucket)) = work.pop() {
        work.extend(fill(src, &bucket, container));
    }
}

/// A container with the comments that fall inside it.
type Work<'t, 's> = (Container<'t>, Vec<RawComment<'s>>);

/// A node that comments attach to.
struct Item<'t> {
    span: Span,
    trivia: &'t mut Trivia,
    /// Lists of nodes inside it, with their extents: a comment there goes
    /// to that list.
    inner: Vec<(Span, Container<'t>)>,
    /// The formatter always separates this node from the previous one by a
    /// blank line: no blank line is recorded before it.
    separated: bool,
}

/// A list of nodes with its end comments.
enum Container<'t> {
    Block(&'t mut Block),
    Init(&'t mut Vec<InitEntry>, &'t mut Vec<Comment>),
    Expect(&'t mut Vec<ExpectEntry>, &'t mut Vec<Comment>),
}

/// Distributes the comments inside a container to its nodes; returns the
/// containers inside those nodes, with their comments.
fn fill<'t, 's>(
    src: &str,
    comments: &[RawComment<'s>],
    container: Container<'t>,
) -> Vec<Work<'t, 's>> {
    match container {
        Container::Block(b) => {
            let items = b
                .stmts
                .iter_mut()
                .map(|s| {
                    let inner = s
                        .kind
                        .blocks_mut()
                        .into_iter()
                        .map(|b| (b.span, Container::Block(b)))
                        .collect();
                    Item {
                        span: s.span,
                        trivia: &mut s.trivia,
                        inner,
                        separated: false,
                    }
                })
                .collect();
            distribute(src, comments, items, Some(&mut b.open), &mut b.close, true)
        }
        Container::Init(entries, end) => {
            for e in entries.iter_mut() {
                e.trivia.new_line = newline_before(src, e.span.start);
            }
            let items = entries
                .iter_mut()
                .map(|e| Item {
                    span: e.span,
                    trivia: &mut e.trivia,
                    inner: Vec::new(),
                    separated: false,
                })
                .collect();
            distribute(src, comments, items, None, end, true)
        }
        Container::Expect(entries, end) => {
            for e in entries.iter_mut() {
                e.trivia.new_line = newline_before(src, e.span.start);
            }
            let items = entries
                .iter_mut()
                .map(|e| Item {
                    span: e.span,
                    trivia: &mut e.trivia,
                    inner: Vec::new(),
                    separated: false,
                })
                .collect();
            distribute(src, comments, items, None, end, true)
        }
    }
}

/// The whitespace before `at` holds an empty line.
fn blank_before(src: &str, at: u32) -> bool {
    let before = &src[..at as usize];
    let gap = &before[before.trim_end().len()..];
    gap.matches('\n').count() >= 2
}

/// A line break lies between `at` and what precedes it.
fn newline_before(src: &str, at: u32) -> bool {
    let before = &src[..at as usize];
    before[before.trim_end().len()..].contains('\n')
}

fn comment(src: &str, (span, text): RawComment<'_>) -> Comment {
    Comment {
        text: text.to_string(),
        blank_before: blank_before(src, span.start),
        span,
    }
}

/// Rules 1-4 of the module documentation over `items` (in source order);
/// `open` takes comments on the line of the container's `{`, `close` those
/// after the last node. `leading` says whether a blank line at the start
/// of the container is dropped (in a block) rather than kept. Returns the
/// containers inside the items, with their comments, to fill next.
fn distribute<'t, 's>(
    src: &str,
    comments: &[RawComment<'s>],
    mut items: Vec<Item<'t>>,
    mut open: Option<&mut Vec<Comment>>,
    close: &mut Vec<Comment>,
    leading: bool,
) -> Vec<Work<'t, 's>> {
    // Comments for each inner container of each item.
    let mut buckets: Vec<Vec<Vec<RawComment<'s>>>> = items
        .iter()
        .map(|i| vec![Vec::new(); i.inner.len()])
        .collect();
    let mut next = 0;
    // The item whose trailing comments may still grow.
    let mut trailing: Option<usize> = None;
    for &c in comments {
        let at = c.0.start;
        while next < items.len() && items[next].span.end <= at {
            trailing = Some(next);
            open = None;
            next += 1;
        }
        if let Some(item) = items.get_mut(next) {
            if item.span.start <= at {
                // Inside the node: in one of its lists, or between its tokens.
                let inside = item
                    .inner
                    .iter()
                    .position(|(s, _)| s.start < at && at < s.end);
                let ahead = item.inner.iter().position(|(s, _)| at < s.start);
                match (inside, ahead) {
                    (Some(k), _) => buckets[next][k].push(c),
                    (None, Some(k)) if k > 0 => match &mut item.inner[k].1 {
                        Container::Block(b) => {
                            let mut cm = comment(src, c);
                            cm.blank_before = false;
                            b.open.push(cm);
                        }
                        _ => item.trivia.before.push(comment(src, c)),
                    },
                    _ => item.trivia.before.push(comment(src, c)),
                }
                trailing = None;
                continue;
            }
        }
        let same_line = !newline_before(src, at);
        if same_line {
            if let Some(t) = trailing {
                let mut cm = comment(src, c);
                cm.blank_before = false;
                items[t].trivia.after.push(cm);
                continue;
            }
            if let Some(o) = open.as_deref_mut() {
                let mut cm = comment(src, c);
                cm.blank_before = false;
                o.push(cm);
                continue;
            }
        }
        trailing = None;
        open = None;
        match items.get_mut(next) {
            Some(item) => item.trivia.before.push(comment(src, c)),
            None => close.push(comment(src, c)),
        }
    }
    let count = items.len();
    for (k, item) in items.iter_mut().enumerate() {
        item.trivia.blank_before = blank_before(src, item.span.start);
        if (k == 0 && leading) || item.separated {
            match item.trivia.before.first_mut() {
                Some(c) => c.blank_before = false,
                None => item.trivia.blank_before = false,
            }
        }
    }
    if count == 0 && leading {
        if let Some(c) = close.first_mut() {
            c.blank_before = false;
        }
    }
    let mut work = Vec::new();
    for (item, lists) in items.into_iter().zip(buckets) {
        for ((_, container), bucket) in item.inner.into_iter().zip(lists) {
            work.push((container, bucket));
        }
    }
    work
}
