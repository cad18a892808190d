//! Properties of the front end: generated trees survive format-then-parse
//! unchanged (modulo spans), formatting is idempotent, and no input makes
//! `load` panic or report a span outside the input.

use miette::Diagnostic;
use proptest::prelude::*;
use relaxlab_grammar::ast::{
    BinOp, Block, CmpOp, Condition, ExpectEntry, Expr, ExprKind, FenceArg, HwFence, Ident,
    InitEntry, MemOrder, ObsItem, Order, Prop, PropKind, Quantifier, RmwForm, RmwOp, Span, Stmt,
    StmtKind, Test, ThreadDecl, ThreadRef, UnOp, Verdict,
};
use relaxlab_grammar::{format, load, parse, Errors};

const KEYWORDS: &[&str] = &[
    "test",
    "init",
    "thread",
    "if",
    "else",
    "while",
    "fork",
    "exists",
    "forall",
    "observe",
    "locations",
    "filter",
    "expect",
    "true",
    "false",
];

fn ident() -> impl Strategy<Value = Ident> {
    "[a-zA-Z_][a-zA-Z0-9_]{0,5}"
        .prop_filter("not a keyword", |s| {
            !KEYWORDS.contains(&s.as_str()) && s != "Fork"
        })
        .prop_map(|s| Ident::new(s, Span::default()))
}

fn order() -> impl Strategy<Value = Order> {
    prop_oneof![
        Just(MemOrder::Na),
        Just(MemOrder::Rlx),
        Just(MemOrder::Acq),
        Just(MemOrder::Rel),
        Just(MemOrder::AcqRel),
        Just(MemOrder::Sc),
    ]
    .prop_map(|order| Order {
        order,
        span: Span::default(),
    })
}

fn rmw_op() -> impl Strategy<Value = RmwOp> {
    prop_oneof![
        Just(RmwOp::Add),
        Just(RmwOp::Sub),
        Just(RmwOp::And),
        Just(RmwOp::Or),
        Just(RmwOp::Xor),
        Just(RmwOp::Max),
        Just(RmwOp::Min),
        Just(RmwOp::Xchg),
    ]
}

fn binop() -> impl Strategy<Value = BinOp> {
    use BinOp::*;
    proptest::sample::select(vec![
        Mul, Div, Rem, Add, Sub, Shl, Shr, BitAnd, BitXor, BitOr, Eq, Ne, Lt, Le, Gt, Ge, And, Or,
    ])
}

fn e(kind: ExprKind) -> Expr {
    Expr {
        kind,
        span: Span::default(),
    }
}

/// Expressions in the parser's normal form: a negated literal is a literal.
fn expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        any::<i64>().prop_map(|v| e(ExprKind::Int(v))),
        ident().prop_map(|i| e(ExprKind::Var(i))),
    ];
    leaf.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            (prop_oneof![Just(UnOp::Neg), Just(UnOp::Not)], inner.clone()).prop_map(|(op, a)| {
                match (op, a.kind) {
                    (UnOp::Neg, ExprKind::Int(v)) => e(ExprKind::Int(v.wrapping_neg())),
                    (op, kind) => e(ExprKind::Unary(op, Box::new(e(kind)))),
                }
            }),
            (binop(), inner.clone(), inner).prop_map(|(op, a, b)| e(ExprKind::Binary(
                op,
                Box::new(a),
                Box::new(b)
            ))),
        ]
    })
}

fn s(kind: StmtKind) -> Stmt {
    Stmt {
        kind,
        span: Span::default(),
    }
}

fn block(stmts: Vec<Stmt>) -> Block {
    Block {
        stmts,
        span: Span::default(),
    }
}

fn simple_stmt() -> impl Strategy<Value = Stmt> {
    prop_oneof![
        (ident(), ident(), order()).prop_map(|(dst, loc, ord)| s(StmtKind::Load { dst, loc, ord })),
        (ident(), expr(), order()).prop_map(|(loc, val, ord)| s(StmtKind::Store { loc, val, ord })),
        (ident(), ident(), rmw_op(), any::<bool>(), expr(), order()).prop_map(
            |(dst, loc, op, generic, operand, ord)| s(StmtKind::Rmw {
                dst,
                loc,
                op,
                form: if generic {
                    RmwForm::Generic
                } else {
                    RmwForm::Named
                },
                operand,
                ord
            })
        ),
        (
            ident(),
            ident(),
            expr(),
            expr(),
            order(),
            proptest::option::of(order())
        )
            .prop_map(|(dst, loc, expected, desired, ord, fail)| s(StmtKind::Cas {
                dst,
                loc,
                expected,
                desired,
                ord,
                fail
            })),
        prop_oneof![
            order().prop_map(|o| FenceArg::C11(o.order)),
            proptest::sample::select(vec![
                HwFence::SS,
                HwFence::SL,
                HwFence::LL,
                HwFence::LS,
                HwFence::Full
            ])
            .prop_map(FenceArg::Hw),
        ]
        .prop_map(|kind| s(StmtKind::Fence {
            kind,
            kind_span: Span::default()
        })),
        (ident(), expr()).prop_map(|(dst, val)| s(StmtKind::Assign { dst, val })),
        expr().prop_map(|c| s(StmtKind::Assert(c))),
        expr().prop_map(|c| s(StmtKind::Assume(c))),
        ident().prop_map(|h| s(StmtKind::Join(h))),
    ]
}

fn stmt() -> impl Strategy<Value = Stmt> {
    simple_stmt().prop_recursive(3, 16, 3, |inner| {
        let stmts = proptest::collection::vec(inner, 0..3);
        prop_oneof![
            (expr(), stmts.clone(), proptest::option::of(stmts.clone())).prop_map(
                |(cond, t, e)| {
                    s(StmtKind::If {
                        cond,
                        then: block(t),
                        els: e.map(block),
                    })
                }
            ),
            (expr(), stmts.clone()).prop_map(|(cond, b)| s(StmtKind::While {
                cond,
                body: block(b)
            })),
            (ident(), ident(), stmts).prop_map(|(dst, name, b)| s(StmtKind::Fork {
                dst,
                name,
                body: block(b)
            })),
        ]
    })
}

fn p(kind: PropKind) -> Prop {
    Prop {
        kind,
        span: Span::default(),
    }
}

fn obs() -> impl Strategy<Value = ObsItem> {
    prop_oneof![
        (ident(), ident()).prop_map(|(t, reg)| ObsItem::Reg {
            thread: ThreadRef::Name(t),
            reg
        }),
        (any::<u32>(), ident()).prop_map(|(i, reg)| ObsItem::Reg {
            thread: ThreadRef::Index(i, Span::default()),
            reg
        }),
        ident().prop_map(ObsItem::Loc),
    ]
}

fn prop_strategy() -> impl Strategy<Value = Prop> {
    let leaf = prop_oneof![
        Just(p(PropKind::True)),
        Just(p(PropKind::False)),
        (obs(), any::<bool>(), any::<i64>()).prop_map(|(obs, eq, value)| p(PropKind::Atom {
            obs,
            op: if eq { CmpOp::Eq } else { CmpOp::Ne },
            value
        })),
    ];
    leaf.prop_recursive(4, 16, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| p(PropKind::Not(Box::new(a)))),
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| p(PropKind::And(Box::new(a), Box::new(b)))),
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| p(PropKind::Or(Box::new(a), Box::new(b)))),
            (inner.clone(), inner)
                .prop_map(|(a, b)| p(PropKind::Implies(Box::new(a), Box::new(b)))),
        ]
    })
}

fn test_strategy() -> impl Strategy<Value = Test> {
    let init = proptest::collection::vec((ident(), proptest::option::of(any::<i64>())), 0..4)
        .prop_map(|v| {
            v.into_iter()
                .map(|(loc, value)| InitEntry {
                    loc,
                    value,
                    span: Span::default(),
                })
                .collect::<Vec<_>>()
        });
    let threads =
        proptest::collection::vec((ident(), proptest::collection::vec(stmt(), 0..5)), 1..3)
            .prop_map(|v| {
                v.into_iter()
                    .map(|(name, stmts)| ThreadDecl {
                        name,
                        body: block(stmts),
                        span: Span::default(),
                    })
                    .collect::<Vec<_>>()
            });
    let quant = prop_oneof![
        Just(Quantifier::Exists),
        Just(Quantifier::NotExists),
        Just(Quantifier::Forall)
    ];
    let condition = proptest::option::of((quant, prop_strategy())).prop_map(|c| {
        c.map(|(quantifier, prop)| Condition {
            quantifier,
            prop,
            span: Span::default(),
        })
    });
    let verdict = prop_oneof![
        Just(Verdict::Never),
        Just(Verdict::Sometimes),
        Just(Verdict::Always)
    ];
    let expect = proptest::collection::vec(
        ("[a-z][a-z0-9]{0,3}(\\.[a-z][a-z0-9]{0,5})?", verdict),
        0..3,
    )
    .prop_map(|v| {
        v.into_iter()
            .filter(|(k, _)| k.split('.').all(|w| !KEYWORDS.contains(&w)))
            .map(|(k, verdict)| ExpectEntry {
                key: Ident::new(k, Span::default()),
                verdict,
                verdict_span: Span::default(),
                span: Span::default(),
            })
            .collect::<Vec<_>>()
    });
    (
        "[A-Za-z0-9+._-]{1,12}",
        proptest::option::of("[a-zA-Z ,.]{0,12}"),
        init,
        threads,
        condition,
        proptest::option::of(prop_strategy()),
        proptest::collection::vec(obs(), 0..3),
        expect,
    )
        .prop_map(
            |(name, doc, init, threads, condition, filter, observe, expect)| Test {
                name: Ident::new(name, Span::default()),
                doc,
                init,
                threads,
                condition,
                filter,
                observe,
                expect,
                line_starts: Vec::new(),
            },
        )
}

/// Every label of every error lies inside the input.
fn spans_inside(errors: &Errors, len: usize) -> Result<(), TestCaseError> {
    for e in errors.errors() {
        for l in e.labels().into_iter().flatten() {
            prop_assert!(
                l.offset() + l.len() <= len,
                "label {:?} outside input of {len} bytes: {e}",
                l
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn format_then_parse_is_identity(t in test_strategy()) {
        let text = format(&t);
        let mut back = match parse(&text) {
            Ok(b) => b,
            Err(e) => return Err(TestCaseError::fail(e.render("gen.litmus", &text, 100))),
        };
        back.clear_spans();
        prop_assert_eq!(&back, &t, "{}", text);
    }

    #[test]
    fn format_is_idempotent(t in test_strategy()) {
        let once = format(&t);
        let twice = format(&parse(&once).unwrap());
        prop_assert_eq!(once, twice);
    }

    #[test]
    fn mutations_of_valid_files_never_panic(
        t in test_strategy(),
        cuts in proptest::collection::vec((any::<proptest::sample::Index>(), 0usize..6, "[ -~]{0,3}|[\u{2212}\u{201c}\u{a0}\u{2227}]"), 1..4),
    ) {
        let mut text = format(&t);
        for (at, del, ins) in cuts {
            let mut i = at.index(text.len() + 1);
            while !text.is_char_boundary(i) { i -= 1; }
            let mut j = (i + del).min(text.len());
            while !text.is_char_boundary(j) { j += 1; }
            text.replace_range(i..j, &ins);
        }
        if let Err(e) = load(&text) {
            spans_inside(&e, text.len())?;
            let _ = e.render("m.litmus", &text, 80);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Err(e) = load(&text) {
            spans_inside(&e, text.len())?;
        }
    }

    #[test]
    fn arbitrary_token_soup_never_panics(
        words in proptest::collection::vec(proptest::sample::select(vec![
            "test", "T", "init", "{", "}", "x", "=", "0", ";", "thread", "P0", "(", ")", "r0",
            "load", "store", "rlx", ",", "exists", "P0:r0", "/\\", "\\/", "~", "fork", "join",
            "while", "if", "else", "expect", "sc", ":", "never", "-", "0x10", "cas", "fence",
            "observe", "[", "]", "filter", "=>", "\"doc\"", "/*", "*/", "//", "\n", "ax.rc11",
        ]), 0..60),
    ) {
        let text = words.join(" ");
        if let Err(e) = load(&text) {
            spans_inside(&e, text.len())?;
        }
    }
}
