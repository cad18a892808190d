//! Properties of the front end: generated trees survive format-then-parse
//! unchanged (modulo spans), formatting is idempotent, no input makes
//! `load` panic or report a span outside the input, and deeply nested or
//! long programs go through every stage on a 2 MiB thread stack or are
//! refused as too deep.

use miette::Diagnostic;
use proptest::prelude::*;
use relaxlab_grammar::ast::{
    BinOp, Block, CmpOp, Condition, ElseIf, ExpectEntry, Expr, ExprKind, FenceArg, HwFence, Ident,
    InitEntry, MemOrder, ObsItem, Order, Prop, PropKind, Quantifier, RmwForm, RmwOp, Sections,
    Span, Stmt, StmtKind, Test, ThreadDecl, ThreadRef, Trivia, UnOp, Verdict,
};
use relaxlab_grammar::{format, herd, load, parse, Errors, MAX_NESTING};
use relaxlab_semantics::ir::Instr;

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
        written: order.as_str(),
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
            (binop(), inner.clone(), inner).prop_map(|(op, a, b)| chain(op, a, b)),
        ]
    })
}

/// `a op b` in the parser's normal form: a chain on the left continues.
fn chain(op: BinOp, a: Expr, b: Expr) -> Expr {
    match a.kind {
        ExprKind::Chain { first, mut rest } => {
            rest.push((op, b));
            e(ExprKind::Chain { first, rest })
        }
        kind => e(ExprKind::Chain {
            first: Box::new(e(kind)),
            rest: vec![(op, b)],
        }),
    }
}

fn s(kind: StmtKind) -> Stmt {
    Stmt::new(kind, Span::default())
}

fn block(stmts: Vec<Stmt>) -> Block {
    Block::new(stmts, Span::default())
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
            proptest::option::of(ident()),
            ident(),
            expr(),
            expr(),
            order(),
            proptest::option::of(order()),
            proptest::bool::ANY
        )
            // The value and the flag need two registers.
            .prop_filter("two result registers", |(dst, ok, ..)| ok
                .as_ref()
                .is_none_or(|ok| ok.name != dst.name))
            .prop_map(
                |(dst, ok, loc, expected, desired, ord, fail, weak)| s(StmtKind::Cas {
                    dst,
                    ok,
                    loc,
                    expected,
                    desired,
                    ord,
                    fail,
                    weak
                })
            ),
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
            (
                expr(),
                stmts.clone(),
                proptest::collection::vec((expr(), stmts.clone()), 0..3),
                proptest::option::of(stmts.clone())
            )
                .prop_map(|(cond, t, elifs, e)| {
                    s(StmtKind::If {
                        cond,
                        then: block(t),
                        elifs: elifs
                            .into_iter()
                            .map(|(cond, b)| ElseIf {
                                cond,
                                then: block(b),
                                span: Span::default(),
                            })
                            .collect(),
                        els: e.map(block),
                    })
                }),
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
            (inner.clone(), inner.clone()).prop_map(|(a, b)| flat(a, b, true)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| flat(a, b, false)),
            (inner.clone(), inner)
                .prop_map(|(a, b)| p(PropKind::Implies(Box::new(a), Box::new(b)))),
        ]
    })
}

/// `a /\ b` (or `a \/ b`) in the parser's normal form: nested
/// conjunctions are one.
fn flat(a: Prop, b: Prop, conj: bool) -> Prop {
    let parts = |q: Prop| match q.kind {
        PropKind::And(ps) if conj => ps,
        PropKind::Or(ps) if !conj => ps,
        kind => vec![p(kind)],
    };
    let mut ps = parts(a);
    ps.extend(parts(b));
    p(if conj {
        PropKind::And(ps)
    } else {
        PropKind::Or(ps)
    })
}

fn test_strategy() -> impl Strategy<Value = Test> {
    let init = proptest::collection::vec((ident(), proptest::option::of(any::<i64>())), 0..4)
        .prop_map(|v| {
            v.into_iter()
                .map(|(loc, value)| InitEntry {
                    loc,
                    value,
                    array: None,
                    span: Span::default(),
                    trivia: Trivia::default(),
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
                        trivia: Trivia::default(),
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
            trivia: Trivia::default(),
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
                trivia: Trivia::default(),
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
        any::<bool>(),
    )
        .prop_map(
            |(name, doc, init, threads, condition, filter, observe, expect, block)| Test {
                name: Ident::new(name, Span::default()),
                doc,
                init,
                threads,
                condition,
                filter,
                // An empty `observe { }` is written or not.
                observe_block: block || !observe.is_empty(),
                observe,
                expect,
                line_starts: Vec::new(),
                sections: Sections::default(),
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

/// The shapes of deep and long programs: the first seven nest, the others
/// are flat sequences.
const SHAPES: &[&str] = &[
    "if",
    "while",
    "fork",
    "not",
    "right-parens",
    "tilde",
    "implies",
    "else-if",
    "sum",
    "and",
    "or",
    "statements",
];

/// A program of `shape` nesting (or as long as) `n`.
fn shaped(shape: &str, n: usize) -> String {
    let body = |b: String| format!("test T\ninit {{ x = 0; }}\nthread P0 {{\n  r0 = 0;\n{b}\n}}\n");
    let cond = |c: String| format!("{}exists ({c})\n", body(String::new()));
    match shape {
        "if" => body(format!(
            "{}r0 = 1;{}",
            "if (r0 == 0) {\n".repeat(n),
            "}\n".repeat(n)
        )),
        "while" => body(format!(
            "{}r0 = 1;{}",
            "while (r0 == 1) {\n".repeat(n),
            "}\n".repeat(n)
        )),
        "fork" => body(
            (0..n)
                .map(|i| format!("h{i} = fork W{i} {{\n"))
                .collect::<String>()
                + &"};\n".repeat(n),
        ),
        "not" => body(format!("r0 = {}1;", "!".repeat(n))),
        "right-parens" => body(format!("r0 = {}1{};", "1 - (".repeat(n), ")".repeat(n))),
        "tilde" => cond(format!("{}P0:r0 = 1", "~".repeat(n))),
        "implies" => cond(vec!["P0:r0 = 1"; n + 1].join(" => ")),
        "else-if" => body(format!(
            "if (r0 == 0) {{ r0 = 1; }}{}",
            " else if (r0 == 1) { r0 = 2; }".repeat(n)
        )),
        "sum" => body(format!("r0 = {};", vec!["1"; n + 1].join(" + "))),
        "and" => cond(vec!["P0:r0 = 1"; n + 1].join(" /\\ ")),
        "or" => cond(vec!["P0:r0 = 1"; n + 1].join(" \\/ ")),
        _ => body("r0 = r0 + 1;\n".repeat(n)),
    }
}

/// Runs `f` on a thread with a 2 MiB stack (a rayon worker's, the test
/// harness's), as the CLI's workers and library users' threads would.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

/// Every stage a program goes through in the front end and the IR's
/// evaluation: parse (and drop the tree), format, reparse, `--to herd-c`,
/// lower, evaluate every expression and the condition.
fn every_stage(text: &str) -> Result<(), Errors> {
    let test = parse(text)?;
    let formatted = format(&test);
    let mut again = parse(&formatted).expect("the formatted program parses");
    let mut original = test.clone();
    again.clear_spans();
    original.clear_spans();
    assert!(again == original, "format then parse changes the tree");
    let _ = herd::to_herd_c(&test);
    let program = relaxlab_grammar::lower(&test)?;
    drop(test);
    let regs = [0; 64];
    for t in &program.threads {
        for i in &t.code {
            match &i.instr {
                Instr::Assign { val: e, .. } | Instr::Branch { cond: e, .. } => {
                    let _ = e.eval(&regs);
                }
                _ => {}
            }
        }
    }
    if let Some(c) = &program.condition {
        let _ = c.prop.eval(&|_| 1);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Nesting up to the bound goes through every stage; past it the
    /// parser refuses with `too_deep` and nothing else; flat sequences are
    /// not nesting, however long.
    #[test]
    fn deep_and_long_programs_pass_every_stage_or_are_too_deep(
        shape in proptest::sample::select(SHAPES),
        n in prop_oneof![0usize..64, (MAX_NESTING as usize - 8)..(MAX_NESTING as usize + 8), 0usize..20_000],
    ) {
        let deep = SHAPES.iter().position(|s| *s == shape).is_some_and(|i| i < 7);
        let n = if deep { n.min(2 * MAX_NESTING as usize) } else { n };
        let text = shaped(shape, n);
        let result = on_small_stack(move || every_stage(&text).map_err(|e| {
            e.errors().iter().map(|d| d.code().map(|c| c.to_string()).unwrap_or_default()).collect::<Vec<_>>()
        }));
        match result {
            Ok(()) => prop_assert!(!deep || n <= MAX_NESTING as usize, "{shape} at {n} accepted"),
            Err(codes) => {
                prop_assert!(deep && n > MAX_NESTING as usize / 2, "{shape} at {n}: {codes:?}");
                prop_assert_eq!(codes, vec!["relaxlab::syntax::too_deep".to_string()]);
            }
        }
    }
}

/// At the bound exactly, every nested shape passes every stage on a 2 MiB
/// stack; one level more is refused. (Each level of `1 - (...)` is two: a
/// parenthesis and the operator before it.)
#[test]
fn every_shape_passes_every_stage_at_the_bound() {
    let max = MAX_NESTING as usize;
    // `thread P0 {` is one level, `r0 =` one, each `!` one more.
    let ok = shaped("not", max - 2);
    on_small_stack(move || every_stage(&ok).unwrap());
    let deep = shaped("not", max - 1);
    let err = on_small_stack(move || every_stage(&deep).unwrap_err().to_string());
    assert!(err.contains("nested too deeply"), "{err}");
    for shape in &SHAPES[..7] {
        // The deepest `n` the parser accepts.
        let (mut lo, mut hi) = (0, 2 * max);
        while lo + 1 < hi {
            let mid = (lo + hi) / 2;
            if parse(&shaped(shape, mid)).is_ok() {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        assert!(lo + 3 >= max / 2, "{shape}: only {lo} levels");
        let text = shaped(shape, lo);
        let shown = format!("{shape} at {lo}");
        on_small_stack(move || every_stage(&text)).unwrap_or_else(|e| panic!("{shown}: {e}"));
    }
}
