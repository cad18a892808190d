//! Actions of the grammar that need more than building a node: resolving
//! operation names, memory orders, fence kinds, RMW operators and verdicts
//! (with "did you mean" for misspellings), checking argument counts and
//! assembling the sections of a file.
//!
//! Each action records its errors in the parser's error list and returns a
//! best-effort node (or `None`), so that parsing goes on and one run reports
//! every problem. The operations written as calls, and the names they
//! take, are resolved in `calls`.
//!
//! book: language.md, Static errors

use lalrpop_util::{ErrorRecovery, ParseError};
use relaxlab_semantics::ir::{BinOp, Span};

use crate::ast::{
    Block, Condition, ElseIf, ExpectEntry, Expr, ExprKind, Ident, InitEntry, ObsItem, Prop,
    PropKind, Sections, Stmt, StmtKind, Test, ThreadDecl, ThreadRef, Trivia,
};
use crate::diag::{sspan, Error, SyntaxError};
use crate::fmt::binop_prec;
use crate::lexer::{Never, Token};

mod calls;

pub(crate) use calls::{call, expect_entry};

/// The span `l..r`.
pub(crate) fn sp(l: usize, r: usize) -> Span {
    Span::new(l, r)
}

/// A section after the threads.
pub(crate) enum Trailer {
    Condition(Box<Condition>),
    Filter(Box<Prop>, Span),
    Observe(Vec<ObsItem>, Span),
    Expect(Vec<ExpectEntry>, Span),
}

/// Appends the last item of a `;`-separated list whose final `;` is optional.
pub(crate) fn push_opt<T>(mut v: Vec<T>, last: Option<T>) -> Vec<T> {
    v.extend(last);
    v
}

/// The `test NAME "doc"` line: the name, the doc and the line's span.
pub(crate) type Header<'a> = (Ident, Option<&'a str>, Span);

/// Assembles a file: at most one condition, at most one filter.
pub(crate) fn test(
    errors: &mut Vec<Error>,
    (name, doc, header_span): Header<'_>,
    init: Option<(Vec<InitEntry>, Span)>,
    threads: Vec<ThreadDecl>,
    trailers: Vec<Trailer>,
) -> Test {
    let (init, init_span) = init.unwrap_or_default();
    // Without a doc string the parser's end of the header is where the
    // next token starts (past any comment on the header line): the header
    // ends with its name.
    let header_span = match doc {
        Some(_) => header_span,
        None => Span {
            start: header_span.start,
            end: name.span.end,
        },
    };
    let mut test = Test {
        name,
        doc: doc.map(str::to_string),
        init,
        threads,
        condition: None,
        filter: None,
        observe: Vec::new(),
        observe_block: false,
        expect: Vec::new(),
        line_starts: Vec::new(),
        sections: Sections {
            header_span,
            init_span,
            ..Sections::default()
        },
    };
    let mut filter_span = None;
    let mut expect_span = None;
    for t in trailers {
        match t {
            Trailer::Condition(c) => match &test.condition {
                Some(first) => errors.push(duplicate("final condition", c.span, first.span)),
                None => test.condition = Some(*c),
            },
            Trailer::Filter(p, span) => match filter_span {
                Some(first) => errors.push(duplicate("filter", span, first)),
                None => {
                    test.filter = Some(*p);
                    filter_span = Some(span);
                    test.sections.filter_span = span;
                }
            },
            Trailer::Observe(items, span) => {
                test.observe.extend(items);
                test.observe_block = true;
                test.sections.observe_spans.push(span);
            }
            Trailer::Expect(entries, span) => match expect_span {
                Some(first) => errors.push(duplicate("expect block", span, first)),
                None => {
                    test.expect = entries;
                    expect_span = Some(span);
                    test.sections.expect_span = span;
                }
            },
        }
    }
    test
}

/// `if (c) { } else if (c) { } ... [else { }]`.
pub(crate) fn if_stmt(
    (cond, then, elifs): (Expr, Block, Vec<ElseIf>),
    els: Option<Block>,
    span: Span,
) -> Box<Stmt> {
    Box::new(Stmt::new(
        StmtKind::If {
            cond,
            then,
            elifs,
            els,
        },
        span,
    ))
}

/// `a /\ b`, flattened into one conjunction (`/\` is associative).
pub(crate) fn and(a: Prop, b: Prop, span: Span) -> Prop {
    let mut ps = match a.kind {
        PropKind::And(ps) => ps,
        kind => vec![Prop { kind, ..a }],
    };
    match b.kind {
        PropKind::And(more) => ps.extend(more),
        kind => ps.push(Prop { kind, ..b }),
    }
    Prop {
        kind: PropKind::And(ps),
        span,
    }
}

/// `a \/ b`, flattened into one disjunction.
pub(crate) fn or(a: Prop, b: Prop, span: Span) -> Prop {
    let mut ps = match a.kind {
        PropKind::Or(ps) => ps,
        kind => vec![Prop { kind, ..a }],
    };
    match b.kind {
        PropKind::Or(more) => ps.extend(more),
        kind => ps.push(Prop { kind, ..b }),
    }
    Prop {
        kind: PropKind::Or(ps),
        span,
    }
}

fn duplicate(what: &'static str, span: Span, first: Span) -> Error {
    SyntaxError::DuplicateSection {
        what,
        span: sspan(span),
        first: sspan(first),
    }
    .into()
}

/// An integer literal, maybe negated (`-` written directly before it): in
/// the `init` block, a condition or thread code alike, so that
/// `-9223372036854775808` is `i64::MIN` and `9223372036854775808` does not
/// fit in 64 bits wherever it is written.
pub(crate) fn int(errors: &mut Vec<Error>, v: Option<u64>, negative: bool, span: Span) -> i64 {
    match v {
        Some(v) if negative && v == 1 << 63 => i64::MIN,
        Some(v) if v <= i64::MAX as u64 => {
            let v = v as i64;
            if negative {
                -v
            } else {
                v
            }
        }
        _ => {
            errors.push(too_large(span));
            0
        }
    }
}

fn too_large(span: Span) -> Error {
    SyntaxError::IntTooLarge { span: sspan(span) }.into()
}

/// The value of an init entry: an integer literal, negative or not. Any
/// other expression is an error (an init value is not computed), and 0.
pub(crate) fn init_value(errors: &mut Vec<Error>, e: Expr) -> i64 {
    match e.kind {
        ExprKind::Int(v) => v,
        _ => {
            errors.push(
                SyntaxError::InitNotLiteral {
                    span: sspan(e.span),
                }
                .into(),
            );
            0
        }
    }
}

/// The most cells an array may have: every cell is a location, which
/// each model's states hold.
pub(crate) const MAX_CELLS: usize = 4096;

/// `t[2] = {1, -1};` or `t[2];` in `init`: an array of at least one cell
/// and at most [`MAX_CELLS`], with one value per cell when values are
/// written.
pub(crate) fn array_entry(
    errors: &mut Vec<Error>,
    loc: Ident,
    (len, len_span): (Option<u64>, Span),
    values: Option<(Vec<i64>, Span)>,
    span: Span,
) -> InitEntry {
    let len = match len {
        Some(n) if (1..=MAX_CELLS as u64).contains(&n) => n as usize,
        _ => {
            errors.push(
                SyntaxError::ArraySize {
                    span: sspan(len_span),
                    max: MAX_CELLS,
                }
                .into(),
            );
            1
        }
    };
    let values = values.map(|(v, vspan)| {
        if v.len() != len {
            errors.push(
                SyntaxError::ArrayValues {
                    name: loc.name.clone(),
                    len,
                    count: v.len(),
                    span: sspan(vspan),
                    size: sspan(len_span),
                }
                .into(),
            );
        }
        v
    });
    let cells = (0..len)
        .map(|i| crate::ast::cell_name(&loc.name, i))
        .collect();
    InitEntry {
        loc,
        value: None,
        array: Some(crate::ast::ArrayInit { len, values, cells }),
        span,
        trivia: Trivia::default(),
    }
}

/// `t[1]`: the location of a cell, named `t[1]` (an index written `t[01]`
/// is the same cell).
pub(crate) fn cell(
    errors: &mut Vec<Error>,
    array: &str,
    (index, index_span): (Option<u64>, Span),
    span: Span,
) -> Ident {
    let index = match index {
        Some(i) if i < MAX_CELLS as u64 => i as usize,
        _ => {
            errors.push(
                SyntaxError::ArraySize {
                    span: sspan(index_span),
                    max: MAX_CELLS,
                }
                .into(),
            );
            0
        }
    };
    Ident::new(crate::ast::cell_name(array, index), span)
}

/// `-e` for an operand that is not an unsigned literal (the grammar makes
/// `-` before a literal a negative literal, [`int`]), folding a negated
/// constant into the constant: wrapping, as `-` wraps when the program
/// runs (`-(-9223372036854775808)` is `i64::MIN`).
pub(crate) fn negate(e: Expr, span: Span) -> Expr {
    let kind = match e.kind {
        ExprKind::Int(v) => ExprKind::Int(v.wrapping_neg()),
        kind => ExprKind::Unary(
            relaxlab_semantics::ir::UnOp::Neg,
            Box::new(Expr { kind, ..e }),
        ),
    };
    Expr { kind, span }
}

/// An operand of a binary expression with its extent, parentheses
/// included (the span of a binary node runs from its left operand's first
/// character to its right operand's last, as written).
pub(crate) type Operand = (Expr, Span);

/// Groups `first op1 e1 op2 e2 ...` by C precedence ([`binop_prec`], all
/// levels left associative; precedence climbing): the tree the textbook
/// grammar with one tier per level would build, with each left spine kept
/// as one [`ExprKind::Chain`].
pub(crate) fn climb(first: Operand, rest: Vec<(BinOp, Operand)>) -> Expr {
    if rest.is_empty() {
        return first.0;
    }
    let mut rest = rest.into_iter().peekable();
    climb_from(first, &mut rest, 0).0
}

/// Folds operators of level `min` or tighter into `lhs`; recursion depth is
/// bounded by the number of levels.
fn climb_from(
    lhs: Operand,
    rest: &mut std::iter::Peekable<std::vec::IntoIter<(BinOp, Operand)>>,
    min: u8,
) -> Operand {
    let (first, mut span) = lhs;
    // A parenthesised chain on the left continues the spine: `(a + b) * c`
    // groups as `((a + b) * c)` either way.
    let (first, mut chain) = match first.kind {
        ExprKind::Chain { first, rest } => (*first, rest),
        kind => (Expr { kind, ..first }, Vec::new()),
    };
    while let Some((op, mut rhs)) = rest.next_if(|(op, _)| binop_prec(*op) >= min) {
        while rest
            .peek()
            .is_some_and(|(next, _)| binop_prec(*next) > binop_prec(op))
        {
            rhs = climb_from(rhs, rest, binop_prec(op) + 1);
        }
        span.end = rhs.1.end;
        chain.push((op, rhs.0));
    }
    let expr = if chain.is_empty() {
        first
    } else {
        Expr {
            kind: ExprKind::Chain {
                first: Box::new(first),
                rest: chain,
            },
            span,
        }
    };
    (expr, span)
}

/// A thread named by number in a condition.
pub(crate) fn thread_index(errors: &mut Vec<Error>, v: Option<u64>, span: Span) -> ThreadRef {
    match v.and_then(|v| u32::try_from(v).ok()) {
        Some(v) => ThreadRef::Index(v, span),
        None => {
            errors.push(too_large(span));
            ThreadRef::Index(0, span)
        }
    }
}

/// Records a syntax error lalrpop recovered from.
pub(crate) fn recovered(errors: &mut Vec<Error>, e: ErrorRecovery<usize, Token<'_>, Never>) {
    errors.push(syntax_error(e.error));
}

/// Terminal names as the grammar spells them, made readable.
fn pretty_expected(expected: &[String]) -> String {
    let words: Vec<String> = expected
        .iter()
        .map(|e| match e.as_str() {
            "Name" => "a name".to_string(),
            "Int" => "an integer".to_string(),
            "Str" => "a string".to_string(),
            "TestName" => "the test name".to_string(),
            quoted => format!("`{}`", quoted.trim_matches('"').replace("\\\\", "\\")),
        })
        .collect();
    match words.as_slice() {
        [] => "something else".to_string(),
        [one] => one.clone(),
        [init @ .., last] if words.len() <= 8 => format!("{} or {}", init.join(", "), last),
        _ => format!("one of {}", words[..8].join(", ") + ", ..."),
    }
}

/// The diagnostic of a parse error.
pub(crate) fn syntax_error(e: ParseError<usize, Token<'_>, Never>) -> Error {
    match e {
        ParseError::UnrecognizedToken {
            token: (l, tok, r),
            expected,
        } => {
            let keywords: Vec<&str> = expected
                .iter()
                .filter(|e| e.starts_with('"'))
                .map(|e| e.trim_matches('"'))
                .filter(|e| e.chars().all(|c| c.is_ascii_alphabetic()) && e.len() > 2)
                .collect();
            let suggestion = match tok {
                Token::Ident(name) => crate::diag::suggest(name, keywords.iter().copied()),
                _ => None,
            };
            let help = match (tok, suggestion) {
                (_, Some(s)) => format!("did you mean `{s}`?"),
                (Token::Assign, _) if expected.iter().any(|e| e == "\"==\"") => {
                    "compare with `==`; `=` assigns".to_string()
                }
                _ if expected.iter().any(|e| e == "\";\"") => {
                    "is a `;` missing before this?".to_string()
                }
                _ if expected.iter().any(|e| e == "TestName") => {
                    "the test's name follows `test` on the same line: `test SB`".to_string()
                }
                _ => {
                    "the syntax is in the book (book: language.md, A file at a glance)".to_string()
                }
            };
            SyntaxError::UnexpectedToken {
                found: tok.to_string(),
                span: sspan(Span::new(l, r)),
                expected: pretty_expected(&expected),
                help,
            }
            .into()
        }
        ParseError::UnrecognizedEof { location, expected } => SyntaxError::UnexpectedEof {
            span: sspan(Span::new(location, location)),
            expected: pretty_expected(&expected),
        }
        .into(),
        ParseError::ExtraToken { token: (l, tok, r) } => SyntaxError::UnexpectedToken {
            found: tok.to_string(),
            span: sspan(Span::new(l, r)),
            expected: "the end of the file".to_string(),
            help: "nothing may follow the expectations".to_string(),
        }
        .into(),
        ParseError::InvalidToken { location } => SyntaxError::UnexpectedToken {
            found: "character".to_string(),
            span: sspan(Span::new(location, location + 1)),
            expected: "a token".to_string(),
            help: "the syntax is in the book (book: language.md, A file at a glance)".to_string(),
        }
        .into(),
        ParseError::User { error } => match error {},
    }
}
