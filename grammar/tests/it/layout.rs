//! The formatter keeps comments and meaning: on generated valid programs
//! with comments and blank lines sprinkled in, formatting keeps every
//! comment in order, is idempotent, and the formatted program lowers to
//! the same IR (spans aside). Plus the layout rules by example.

use crate::common;

use proptest::prelude::*;
use relaxlab_grammar::ast::{Stmt, StmtKind, Trivia};
use relaxlab_grammar::{format, load, parse};

fn reg() -> impl Strategy<Value = String> {
    proptest::sample::select(vec!["r0", "r1", "r2"]).prop_map(str::to_string)
}

fn loc() -> impl Strategy<Value = &'static str> {
    proptest::sample::select(vec!["x", "y", "z"])
}

/// Register expressions, as text.
fn expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![(-3i64..4).prop_map(|v| v.to_string()), reg()];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (proptest::sample::select(vec!["-", "!"]), inner.clone())
                .prop_map(|(op, e)| format!("{op}({e})")),
            (
                inner.clone(),
                proptest::sample::select(vec![
                    "+", "-", "*", "/", "%", "<<", ">>", "&", "^", "|", "==", "!=", "<", "<=", ">",
                    ">=", "&&", "||"
                ]),
                inner
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
        ]
    })
}

/// Statements that lower without error, as lines of text.
fn stmt() -> impl Strategy<Value = String> {
    let simple = prop_oneof![
        (
            reg(),
            loc(),
            proptest::sample::select(vec!["na", "rlx", "acq", "sc"])
        )
            .prop_map(|(r, x, o)| format!("{r} = load({x}, {o});")),
        (
            loc(),
            expr(),
            proptest::sample::select(vec!["na", "rlx", "rel", "sc"])
        )
            .prop_map(|(x, e, o)| format!("store({x}, {e}, {o});")),
        (reg(), loc(), expr()).prop_map(|(r, x, e)| format!("{r} = fetch_add({x}, {e}, acq_rel);")),
        (reg(), loc(), expr(), expr())
            .prop_map(|(r, x, a, b)| format!("{r} = cas({x}, {a}, {b}, sc);")),
        proptest::sample::select(vec!["fence(sc);", "fence(acq);", "fence(full);"])
            .prop_map(str::to_string),
        (reg(), expr()).prop_map(|(r, e)| format!("{r} = {e};")),
        expr().prop_map(|e| format!("assume({e} || 1);")),
    ];
    simple.prop_recursive(2, 12, 3, |inner| {
        let block = proptest::collection::vec(inner, 0..3).prop_map(|v| v.join("\n"));
        prop_oneof![
            (
                expr(),
                block.clone(),
                proptest::collection::vec((expr(), block.clone()), 0..2),
                proptest::option::of(block.clone())
            )
                .prop_map(|(c, t, elifs, e)| {
                    let mut s = format!("if ({c}) {{\n{t}\n}}");
                    for (c, b) in elifs {
                        s += &format!(" else if ({c}) {{\n{b}\n}}");
                    }
                    if let Some(e) = e {
                        s += &format!(" else {{\n{e}\n}}");
                    }
                    s
                }),
            (expr(), block).prop_map(|(c, b)| format!("while ({c}) {{\n{b}\n}}")),
        ]
    })
}

/// A valid test, as text (in no particular layout).
fn program() -> impl Strategy<Value = String> {
    let thread = proptest::collection::vec(stmt(), 0..5).prop_map(|v| v.join("\n"));
    (
        proptest::collection::vec(thread, 1..3),
        proptest::sample::select(vec![
            "exists (P0:r0 = 0 /\\ x = 1)",
            "~exists (P0:r0 = 1 \\/ y = 2 /\\ z = 0)",
            "forall (x = 0 => P0:r0 = 0)",
            "exists ((P0:r0 = 0 \\/ P0:r0 = 1) /\\ ~(x = 2))",
        ]),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(threads, cond, observe, expect)| {
            let mut s = "test Gen \"a generated test\"\ninit { x = 0; y = 1; z; }\n".to_string();
            for (i, body) in threads.iter().enumerate() {
                // `r0` exists in every thread, for the condition.
                s += &format!("thread P{i} {{\nr0 = 0;\n{body}\n}}\n");
            }
            s += cond;
            s.push('\n');
            if observe {
                s += "observe { x; P0:r0; }\n";
            }
            if expect {
                s += "expect { sc: never; tso: sometimes; pso: always; ax.sc: never; ax.tso: never; c11r: sometimes; }\n";
            }
            s
        })
}

/// `text` with comments and blank lines inserted at the picked places
/// (beyond the first line): a comment line before a line, a `//` comment
/// at the end of a line, a `/* */` comment at a blank between tokens, or
/// an empty line.
fn sprinkle(text: &str, picks: &[(prop::sample::Index, u8)]) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    // Insertions as (byte offset, text), applied from the end.
    let mut inserts: Vec<(usize, String)> = Vec::new();
    let starts: Vec<usize> = lines
        .iter()
        .scan(0, |at, l| {
            let s = *at;
            *at += l.len();
            Some(s)
        })
        .collect();
    for (k, (at, kind)) in picks.iter().enumerate() {
        let line = 1 + at.index(lines.len().max(2) - 1);
        let Some(&start) = starts.get(line) else {
            continue;
        };
        let content = lines[line].trim_end_matches('\n');
        match kind % 4 {
            0 => inserts.push((start, format!("// c{k} before\n"))),
            1 => inserts.push((start + content.len(), format!(" // t{k} after"))),
            2 => {
                let blanks: Vec<usize> = content.match_indices(' ').map(|(i, _)| i).collect();
                if !blanks.is_empty() {
                    let b = blanks[k % blanks.len()];
                    inserts.push((start + b, format!(" /* b{k} */")));
                }
            }
            _ => inserts.push((start, "\n".to_string())),
        }
    }
    inserts.sort_by_key(|(at, _)| std::cmp::Reverse(*at));
    let mut out = text.to_string();
    for (at, s) in inserts {
        out.insert_str(at, &s);
    }
    out
}

/// The error codes of a failed load, or the program without spans.
fn lowered(text: &str) -> Result<relaxlab_semantics::ir::Program, Vec<String>> {
    load(text).map(common::without_spans).map_err(|e| {
        e.errors()
            .iter()
            .map(|d| {
                miette::Diagnostic::code(d)
                    .map(|c| c.to_string())
                    .unwrap_or_default()
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn formatting_keeps_comments_and_meaning(
        text in program(),
        picks in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..12),
    ) {
        let x = sprinkle(&format(&parse(&text).unwrap()), &picks);
        let tree = match parse(&x) {
            Ok(t) => t,
            Err(e) => return Err(TestCaseError::fail(e.render("x.litmus", &x, 100))),
        };
        let f = format(&tree);
        prop_assert_eq!(common::comments(&f), common::comments(&x), "{}\n---\n{}", x, f);
        prop_assert_eq!(format(&parse(&f).unwrap()), f.clone(), "{}\n---\n{}", x, f);
        prop_assert_eq!(lowered(&f), lowered(&x), "{}\n---\n{}", x, f);
        prop_assert!(lowered(&x).is_ok(), "{}", x);
    }
}

/// Where comments go, by example: before and after statements, after `{`,
/// before `}`, inside a statement (moved before it), in `init` and
/// `expect` (which then print one entry per line), around the header, the
/// threads and the condition, and at the end of the file; blank lines
/// between statements are kept (several become one), and not at the start
/// of a block.
#[test]
fn comments_stay_with_their_statements() {
    let src = "// litmus/x.litmus: a header comment

test X \"doc\" // on the header line
init { x = 0; // the flag
  y = 0; }
/* about P0 */
thread P0 { // opening
  store(x, 1, rlx); // trailing


  // before the load
  r0 = load(/* inside */ y, rlx);
  if (r0 == 1) {
    r1 = 2;
    // at the end of the block
  } else if (r0 == 2) { // arm
  } // after the if
}
thread P1 {
}
exists (P0:r0 = 0) // the interesting outcome
expect { sc: never; /* why */ tso: sometimes; }
// the end
";
    let expected = "// litmus/x.litmus: a header comment

test X \"doc\" // on the header line

init {
  x = 0; // the flag
  y = 0;
}

/* about P0 */
thread P0 { // opening
  store(x, 1, rlx); // trailing

  // before the load
  /* inside */
  r0 = load(y, rlx);
  if (r0 == 1) {
    r1 = 2;
    // at the end of the block
  } else if (r0 == 2) { // arm
  } // after the if
}

thread P1 {
}

exists (P0:r0 = 0) // the interesting outcome
expect {
  sc: never; /* why */ tso: sometimes;
}
// the end
";
    let f = format(&parse(src).unwrap());
    assert_eq!(f, expected);
    assert_eq!(format(&parse(&f).unwrap()), f);
}

/// An `expect` block written on one line that does not fit in 100
/// columns prints one entry per line; one that fits stays on its line.
#[test]
fn long_expect_blocks_break_one_entry_per_line() {
    let keys = [
        "sc", "tso", "pso", "pslo", "c11r", "c11t", "ax.sc", "ax.tso", "ax.pso",
    ];
    let entries: String = keys.iter().map(|k| format!(" {k}: never;")).collect();
    let src =
        format!("test T\ninit {{ x; }}\nthread P0 {{\n}}\nexists (x = 0)\nexpect {{{entries} }}\n");
    let f = format(&parse(&src).unwrap());
    let broken: String = keys.iter().map(|k| format!("  {k}: never;\n")).collect();
    assert!(f.ends_with(&format!("expect {{\n{broken}}}\n")), "{f}");
    let short = "test T\n\ninit { x; }\n\nthread P0 {\n}\n\nexists (x = 0)\nexpect { sc: never; tso: never; }\n";
    assert_eq!(format(&parse(short).unwrap()), short);
}

/// The fence-repair use: a statement inserted into the tree prints at its
/// place, without comments, and the comments of its neighbours stay.
#[test]
fn an_inserted_statement_prints_between_commented_ones() {
    let src = "test T\ninit { x = 0; y = 0; }\n\nthread P0 {\n  store(x, 1, rlx); // first\n  // then the load\n  r0 = load(y, rlx);\n}\n";
    let mut t = parse(src).unwrap();
    let fence = parse("test F\nthread P { fence(sc); }\n").unwrap().threads[0]
        .body
        .stmts[0]
        .clone();
    let fence = Stmt {
        trivia: Trivia::default(),
        ..fence
    };
    assert!(matches!(fence.kind, StmtKind::Fence { .. }));
    t.threads[0].body.stmts.insert(1, fence);
    assert_eq!(
        format(&t),
        "test T\n\ninit { x = 0; y = 0; }\n\nthread P0 {\n  store(x, 1, rlx); // first\n  fence(sc);\n  // then the load\n  r0 = load(y, rlx);\n}\n"
    );
}

/// A multi-line `expect` (or `init`) block keeps its lines of entries, as
/// the library writes them; only a line wider than 100 columns breaks, one
/// entry per line, and a comment before an entry starts a line.
#[test]
fn expect_blocks_keep_their_lines() {
    let src = "test T\n\ninit {\n  x = 0; y = 0;\n  z = 1;\n}\n\nthread P0 {\n}\n\nexists (x = 0)\nexpect {\n  sc: never; tso: never; pso: never; pslo: never;\n  c11r: never; c11t: never;\n  ax.sc: never; ax.tso: never; ax.pso: never; ax.pslo: never;\n}\n";
    assert_eq!(format(&parse(src).unwrap()), src);
    let keys = [
        "ax.sc", "ax.tso", "ax.pso", "ax.pslo", "ax.c11", "ax.rc11", "ax.c11r", "ax.c11t", "c11r",
    ];
    let wide: String = keys.iter().map(|k| format!(" {k}: sometimes;")).collect();
    let src = format!("test T\nthread P0 {{\n}}\nexists (x = 0)\nexpect {{\n  sc: never; tso: never;\n {wide}\n  // before c11t\n  c11t: never; pso: never; // why\n  pslo: never;\n}}\n");
    let f = format(&parse(&src).unwrap());
    let broken: String = keys
        .iter()
        .map(|k| format!("  {k}: sometimes;\n"))
        .collect();
    assert!(
        f.ends_with(&format!("expect {{\n  sc: never; tso: never;\n{broken}  // before c11t\n  c11t: never; pso: never; // why\n  pslo: never;\n}}\n")),
        "{f}"
    );
    assert_eq!(format(&parse(&f).unwrap()), f);
}

/// A comment on the header line stays there, with or without a doc
/// string.
#[test]
fn a_comment_on_the_header_line_stays_there() {
    for header in ["test T", "test T \"doc\""] {
        let src = format!("{header} // why\n\nthread P0 {{\n}}\n");
        assert_eq!(format(&parse(&src).unwrap()), src);
    }
}
