//! Every example of the language chapter (book: language.md) parses and
//! lowers, and lowers to what the chapter says.

use relaxlab_grammar::{check_model, format, ir_listing, load, parse};
use relaxlab_semantics::ir::{
    Atomicity, AxModel, C11Fence, CmpOp, Expr, FenceKind, HwFence, Instr, InstrId, LocId, ModelKey,
    Observable, OpModel, Prop, Quantifier, ReadOrd, RegId, RmwOp, RmwOrd, Subject, ThreadId,
    ThreadKind, Verdict, WriteOrd,
};

const SB: &str = r#"// litmus/classic/SB.litmus
test SB "Store buffering: each thread writes one location, then reads the other"

init { x = 0; y = 0; }

thread P0 {
  store(x, 1, rlx);
  r0 = load(y, rlx);
}

thread P1 {
  store(y, 1, rlx);
  r0 = load(x, rlx);
}

exists (P0:r0 = 0 /\ P1:r0 = 0)
expect { sc: never; tso: sometimes; pso: sometimes; pslo: sometimes; c11r: sometimes; }
"#;

fn ok(src: &str) -> relaxlab_semantics::ir::Program {
    match load(src) {
        Ok(p) => p,
        Err(e) => panic!("{}", e.render("test.litmus", src, 80)),
    }
}

#[test]
fn complete_file_lowers() {
    let p = ok(SB);
    assert_eq!(p.name, "SB");
    assert_eq!(
        p.doc.as_deref(),
        Some("Store buffering: each thread writes one location, then reads the other")
    );
    assert_eq!(p.locations.len(), 2);
    assert_eq!(p.toplevel, 2);
    let t0 = &p.threads[0];
    assert_eq!(t0.name, "P0");
    assert_eq!(t0.regs, vec!["r0".to_string()]);
    assert_eq!(t0.code.len(), 3);
    assert_eq!(t0.code[0].text, "store(x, 1, rlx)");
    assert_eq!(t0.code[0].line, 7);
    assert_eq!(t0.code[1].text, "r0 = load(y, rlx)");
    assert_eq!(t0.code[1].line, 8);
    assert!(matches!(
        t0.code[1].instr,
        Instr::Load {
            ord: ReadOrd::Rlx,
            ..
        }
    ));
    assert_eq!(t0.code[2].instr, Instr::End);
    assert_eq!(
        p.observed,
        vec![
            Observable::Reg(ThreadId(0), RegId(0)),
            Observable::Reg(ThreadId(1), RegId(0))
        ]
    );
    let c = p.condition.as_ref().unwrap();
    assert_eq!(c.quantifier, Quantifier::Exists);
    assert_eq!(c.text, "exists (P0:r0 = 0 /\\ P1:r0 = 0)");
    assert_eq!(p.expectations.len(), 5);
    assert_eq!(p.expectations[0].model, ModelKey::Op(OpModel::Sc));
    assert_eq!(p.expectations[0].verdict, Verdict::Never);
    assert_eq!(p.locations[0].atomicity, Atomicity::Atomic);
    assert!(ir_listing(&p).contains("r0 = load(y, rlx)"));
}

/// Every statement form of the language's table, each spelling of orders
/// (book: language.md, Statements).
const STATEMENTS: &str = r#"
test all-forms+statements.v2 "every statement"
init { x = 0; y = 1; z; w = -5; h = 0x1F; }
thread P0 {
  r0 = load(x, rlx);
  r1 = load(x, relaxed);
  r2 = load(y, memory_order_acquire);
  r3 = Load(y, seq_cst);
  store(x, 1, rel);
  Store(x, r0 + 1, memory_order_release);
  store(x, 2, sc);
  r4 = z;
  z = r4 * 2 + 1;
  r5 = fetch_add(y, 1, acq_rel);
  r5 = fetch_sub(y, 1, rel_acq);
  r5 = fetch_and(y, 1, acq);
  r5 = fetch_or(y, 1, rel);
  r5 = fetch_xor(y, 1, rlx);
  r5 = fetch_max(y, 1, sc);
  r5 = fetch_min(y, 1, sc);
  r5 = exchange(y, 7, sc);
  r6 = rmw(y, add, 1, rlx);
  r6 = RMW(y, xchg, -1, memory_order_acq_rel);
  r7 = cas(y, 0, 1, acq_rel);
  r7 = cas(y, 0, 1, rel, acq);
  r7, r6 = cas_weak(y, 0, 1, rlx);
  r7, r6 = cas(y, 1, 2, sc, rlx);
  fence(acq); fence(rel); fence(acq_rel); fence(sc);
  Fence(ss); fence(sl); fence(ll); fence(ls); fence(full); fence(mfence);
  r8 = -r0 + !r1 * (r2 - 3) / 2 % 5 << 1 >> 2 & 7 ^ 3 | 1;
  r9 = r8 == 1 && r8 != 2 || r8 < 3 && r8 <= 4 && r8 > 0 && r8 >= 0;
  assert(r0 == 0 || r0 == 1);
  assume(r1 >= 0);
}
"#;

#[test]
fn every_statement_form_lowers() {
    let p = ok(STATEMENTS);
    assert_eq!(p.name, "all-forms+statements.v2");
    let locs: Vec<_> = p
        .locations
        .iter()
        .map(|l| (l.name.as_str(), l.init))
        .collect();
    assert_eq!(
        locs,
        vec![("x", 0), ("y", 1), ("z", 0), ("w", -5), ("h", 31)]
    );
    assert_eq!(p.locations[0].atomicity, Atomicity::Atomic);
    assert_eq!(p.locations[2].atomicity, Atomicity::NonAtomic);
    let t = &p.threads[0];
    assert_eq!(
        t.regs,
        ["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9"]
    );
    let ins: Vec<&Instr> = t.code.iter().map(|i| &i.instr).collect();
    assert_eq!(
        *ins[1],
        Instr::Load {
            dst: RegId(1),
            loc: LocId(0),
            ord: ReadOrd::Rlx
        }
    );
    assert_eq!(
        *ins[2],
        Instr::Load {
            dst: RegId(2),
            loc: LocId(1),
            ord: ReadOrd::Acq
        }
    );
    assert_eq!(
        *ins[3],
        Instr::Load {
            dst: RegId(3),
            loc: LocId(1),
            ord: ReadOrd::Sc
        }
    );
    assert!(matches!(
        ins[5],
        Instr::Store {
            ord: WriteOrd::Rel,
            ..
        }
    ));
    assert_eq!(t.code[5].text, "store(x, r0 + 1, rel)");
    assert_eq!(
        *ins[7],
        Instr::Load {
            dst: RegId(4),
            loc: LocId(2),
            ord: ReadOrd::Na
        }
    );
    assert_eq!(t.code[7].text, "r4 = z");
    assert!(matches!(
        ins[8],
        Instr::Store {
            loc: LocId(2),
            ord: WriteOrd::Na,
            ..
        }
    ));
    let ops: Vec<(RmwOp, RmwOrd)> = ins
        .iter()
        .filter_map(|i| match i {
            Instr::Rmw { op, ord, .. } => Some((*op, *ord)),
            _ => None,
        })
        .collect();
    assert_eq!(
        ops,
        vec![
            (RmwOp::Add, RmwOrd::AcqRel),
            (RmwOp::Sub, RmwOrd::AcqRel),
            (RmwOp::And, RmwOrd::Acq),
            (RmwOp::Or, RmwOrd::Rel),
            (RmwOp::Xor, RmwOrd::Rlx),
            (RmwOp::Max, RmwOrd::Sc),
            (RmwOp::Min, RmwOrd::Sc),
            (RmwOp::Xchg, RmwOrd::Sc),
            (RmwOp::Add, RmwOrd::Rlx),
            (RmwOp::Xchg, RmwOrd::AcqRel),
        ]
    );
    let cas: Vec<(RmwOrd, ReadOrd, bool, Option<RegId>)> = ins
        .iter()
        .filter_map(|i| match i {
            Instr::Cas {
                ord,
                fail,
                weak,
                ok,
                ..
            } => Some((*ord, *fail, *weak, *ok)),
            _ => None,
        })
        .collect();
    // The default failure order is the success order without its release
    // part; `r, ok = ...` names the success flag's register.
    assert_eq!(
        cas,
        vec![
            (RmwOrd::AcqRel, ReadOrd::Acq, false, None),
            (RmwOrd::Rel, ReadOrd::Acq, false, None),
            (RmwOrd::Rlx, ReadOrd::Rlx, true, Some(RegId(6))),
            (RmwOrd::Sc, ReadOrd::Rlx, false, Some(RegId(6))),
        ]
    );
    let fences: Vec<FenceKind> = ins
        .iter()
        .filter_map(|i| match i {
            Instr::Fence { kind } => Some(*kind),
            _ => None,
        })
        .collect();
    assert_eq!(
        fences,
        vec![
            FenceKind::C11(C11Fence::Acq),
            FenceKind::C11(C11Fence::Rel),
            FenceKind::C11(C11Fence::AcqRel),
            FenceKind::C11(C11Fence::Sc),
            FenceKind::Hw(HwFence::SS),
            FenceKind::Hw(HwFence::SL),
            FenceKind::Hw(HwFence::LL),
            FenceKind::Hw(HwFence::LS),
            FenceKind::Hw(HwFence::Full),
            FenceKind::Hw(HwFence::Full),
        ]
    );
    let texts: Vec<&str> = t.code.iter().map(|i| i.text.as_str()).collect();
    assert!(texts.contains(&"r6 = rmw(y, xchg, -1, acq_rel)"));
    assert!(texts.contains(&"r5 = exchange(y, 7, sc)"));
    assert!(texts.contains(&"fence(full)"));
    // C precedence: the expression prints back without redundant
    // parentheses, but with those around a `&&` inside a `||`.
    assert!(texts.contains(&"r8 = -r0 + !r1 * (r2 - 3) / 2 % 5 << 1 >> 2 & 7 ^ 3 | 1"));
    assert!(
        texts.contains(&"r9 = (r8 == 1 && r8 != 2) || (r8 < 3 && r8 <= 4 && r8 > 0 && r8 >= 0)")
    );
    assert!(matches!(ins[ins.len() - 3], Instr::Assert { .. }));
    assert!(matches!(ins[ins.len() - 2], Instr::Assume { .. }));
    // No condition, no observe: every register, then every location.
    assert_eq!(p.observed.len(), 10 + 5);
    assert_eq!(p.observed[10], Observable::Loc(LocId(0)));
    // Mixed atomicity is only the C11 models' business; barriers too.
    assert!(check_model(&p, ModelKey::Op(OpModel::Tso)).is_ok());
    assert!(check_model(&p, ModelKey::Ax(AxModel::Sc)).is_ok());
    let err = check_model(&p, ModelKey::Ax(AxModel::Rc11)).unwrap_err();
    assert_eq!(err.errors().len(), 6, "6 hardware barriers");
}

#[test]
fn precedence_is_c() {
    let p = ok("test P\nthread T { r = 1 + 2 * 3 - 4 - 5; s = 1 | 2 ^ 3 & 4 == 4; q = -2 - -3; }");
    let code = &p.threads[0].code;
    let Instr::Assign { val, .. } = &code[0].instr else {
        panic!()
    };
    assert_eq!(val.eval(&[0, 0, 0]), Ok(-2));
    let Instr::Assign { val, .. } = &code[1].instr else {
        panic!()
    };
    assert_eq!(val.eval(&[0, 0, 0]), Ok(1 | (2 ^ (3 & i64::from(4 == 4)))));
    let Instr::Assign { val, .. } = &code[2].instr else {
        panic!()
    };
    assert_eq!(
        *val,
        Expr::Binary(
            relaxlab_semantics::ir::BinOp::Sub,
            Box::new(Expr::Const(-2)),
            Box::new(Expr::Const(-3))
        )
    );
}

/// An integer literal fits in 64 bits wherever it is written: thread code
/// refuses what `init` refuses, with the same diagnostic, and `-` directly
/// before a literal makes `i64::MIN` writable in both (it used to wrap in
/// code: `r = 9223372036854775808;` was `i64::MIN`).
#[test]
fn integer_literals_fit_in_64_bits_in_code_as_in_init() {
    let p = ok("test L\ninit { x = -9223372036854775808; }\nthread T {\n  r = -9223372036854775808;\n  s = 9223372036854775807 + -0x8000000000000000;\n  q = - -9223372036854775808;\n  store(x, -9223372036854775808, rlx);\n}\nexists (T:r = -9223372036854775808)");
    let consts: Vec<Option<i64>> = p.threads[0]
        .code
        .iter()
        .map(|i| match &i.instr {
            Instr::Assign { val, .. } => val.eval(&[0; 3]).ok(),
            _ => None,
        })
        .collect();
    assert_eq!(consts[..3], [Some(i64::MIN), Some(-1), Some(i64::MIN)]);
    for (what, src) in [
        (
            "init",
            "init { x = 9223372036854775808; }\nthread T { r = 1; }",
        ),
        ("code", "thread T { r = 9223372036854775808; }"),
        ("code, hex", "thread T { r = 0x8000000000000000; }"),
        ("code, operand", "thread T { r = 1 + 9223372036854775808; }"),
        (
            "code, parenthesised",
            "thread T { r = -(9223372036854775808); }",
        ),
        (
            "code, argument",
            "init { x = 0; }\nthread T { store(x, 9223372036854775808, rlx); }",
        ),
    ] {
        let src = format!("test L\n{src}");
        let Err(e) = load(&src) else {
            panic!("{what}: accepted")
        };
        let shown = e.render("test.litmus", &src, 80);
        assert!(
            shown.contains("relaxlab::syntax::integer_too_large")
                && shown.contains("integer literal does not fit in 64 bits"),
            "{what}:\n{shown}"
        );
    }
}

const CONTROL: &str = r#"
test MP+loop
init { data = 0; flag = 0; }
thread P0 {
  store(data, 42, na);
  store(flag, 1, rel);
}
thread P1 {
  r0 = 0;
  while (r0 == 0) {
    r0 = load(flag, acq);
  }
  if (r0 == 1) {
    r1 = data;
  } else if (r0 == 2) {
    r1 = 2;
  } else {
    r1 = 3;
  }
  if (r1) { r2 = 1; }
}
exists (P1:r1 = 0)
"#;

#[test]
fn control_flow_targets() {
    let p = ok(CONTROL);
    let t = &p.threads[1];
    let listing: Vec<String> = t
        .code
        .iter()
        .map(|i| match &i.instr {
            Instr::Branch { target, .. } => format!("{} ?->{}", i.text, target.0),
            Instr::Jump { target } => format!("{} ->{}", i.text, target.0),
            _ => i.text.clone(),
        })
        .collect();
    assert_eq!(
        listing,
        vec![
            "r0 = 0",
            "while (r0 == 0) ?->4",
            "r0 = load(flag, acq)",
            "while (r0 == 0) ->1",
            "if (r0 == 1) ?->7",
            "r1 = data",
            "else ->11",
            "if (r0 == 2) ?->10",
            "r1 = 2",
            "else ->11",
            "r1 = 3",
            "if (r1) ?->13",
            "r2 = 1",
            "end",
        ]
    );
    assert!(p.has_loops());
    assert_eq!(t.code[1].line, 10);
    assert_eq!(p.locations[0].atomicity, Atomicity::NonAtomic);
    assert_eq!(p.locations[1].atomicity, Atomicity::Atomic);
}

/// `true` and `false` are C's 1 and 0 in thread code, as in conditions
/// (`while (true)` was refused, with a cascade of errors after it), and
/// the formatter keeps them as written.
#[test]
fn true_and_false_are_one_and_zero_in_thread_code() {
    let src = "test T\n\ninit { x = 0; }\n\nthread P0 {\n  while (true) {\n    r0 = load(x, rlx);\n    if (r0 == 1 || false) {\n      assert(true);\n    }\n  }\n}\n";
    let p = ok(src);
    let code: Vec<String> = p.threads[0].code.iter().map(|i| i.text.clone()).collect();
    assert_eq!(code[0], "while (true)", "{code:?}");
    match &p.threads[0].code[0].instr {
        Instr::Branch { cond, .. } => assert_eq!(*cond, Expr::Const(1)),
        other => panic!("{other:?}"),
    }
    assert_eq!(format(&parse(src).unwrap()), src);
}

const FORKS: &str = r#"
test fork-join
init { x = 0; }
thread Main {
  t = fork A {
    store(x, 1, rlx);
    u = fork B { store(x, 2, rlx); };
    join(u);
  };
  v = Fork C { r = load(x, rlx); };
  join(t);
  Join(v);
}
thread Other { r = load(x, sc); }
exists (C:r = 2 /\ 1:r = 0)
"#;

#[test]
fn forks_are_numbered_after_toplevel_threads_in_source_order() {
    // `1:r` names thread number 1 (Other); this is a well-formed file
    // except that thread 1 is `Other`, whose register `r` exists.
    let p = ok(FORKS);
    let names: Vec<&str> = p.threads.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["Main", "Other", "A", "B", "C"]);
    assert_eq!(p.toplevel, 2);
    assert_eq!(
        p.threads[2].kind,
        ThreadKind::Forked {
            parent: ThreadId(0),
            at: InstrId(0)
        }
    );
    assert_eq!(
        p.threads[3].kind,
        ThreadKind::Forked {
            parent: ThreadId(2),
            at: InstrId(1)
        }
    );
    assert_eq!(
        p.threads[4].kind,
        ThreadKind::Forked {
            parent: ThreadId(0),
            at: InstrId(1)
        }
    );
    assert_eq!(
        p.threads[0].code[0].instr,
        Instr::Fork {
            dst: RegId(0),
            child: ThreadId(2)
        }
    );
    assert_eq!(p.threads[0].code[0].text, "t = fork A");
    assert!(matches!(
        p.threads[0].code[3].instr,
        Instr::Join { handle: RegId(1) }
    ));
    assert_eq!(
        p.observed,
        vec![
            Observable::Reg(ThreadId(4), RegId(0)),
            Observable::Reg(ThreadId(1), RegId(0))
        ]
    );
}

#[test]
fn condition_forms_of_language_md() {
    let head = "test C\ninit { x = 0; y; z; }\nthread P0 { r0 = x; r1 = y; }\nthread P1 { r0 = load(y, rlx); r1 = 1; }\n";
    let cases: [(&str, Quantifier); 5] = [
        ("exists (P0:r0 = 0 /\\ P1:r0 = 0)", Quantifier::Exists),
        ("~exists (x = 2 /\\ 1:r1 = 0)", Quantifier::NotExists),
        ("forall (P0:r0 = 1 \\/ x = 2)", Quantifier::Forall),
        (
            "exists (P0:r0 == 1 && !(P1:r0 != 0) || true => [x] = -1)",
            Quantifier::Exists,
        ),
        ("exists ~(false)", Quantifier::Exists),
    ];
    for (cond, q) in cases {
        let p = ok(&format!("{head}{cond}\nobserve {{ P0:r1; z; }}\n"));
        let c = p.condition.unwrap();
        assert_eq!(c.quantifier, q, "{cond}");
        assert!(
            p.observed.ends_with(&[
                Observable::Reg(ThreadId(0), RegId(1)),
                Observable::Loc(LocId(2))
            ]),
            "{cond}"
        );
    }
    let p = ok(&format!(
        "{head}exists (P0:r0 = 1 /\\ P0:r1 = 1 \\/ x = 2 => y = 3)\nlocations [x; 0:r0; P1:r1;]\n"
    ));
    let Prop::Implies(a, b) = p.condition.unwrap().prop else {
        panic!("=> is loosest")
    };
    assert!(matches!(*a, Prop::Or(..)));
    assert_eq!(*b, Prop::Atom(Observable::Loc(LocId(1)), CmpOp::Eq, 3));
    // Condition observables first, then `locations`, no duplicates.
    assert_eq!(
        p.observed,
        vec![
            Observable::Reg(ThreadId(0), RegId(0)),
            Observable::Reg(ThreadId(0), RegId(1)),
            Observable::Loc(LocId(0)),
            Observable::Loc(LocId(1)),
            Observable::Reg(ThreadId(1), RegId(1)),
        ]
    );
}

#[test]
fn an_empty_observe_block_observes_nothing() {
    let head = "test O\ninit { x = 0; }\nthread P0 { r0 = load(x, rlx); }\n";
    // No condition, no block: everything; an empty block: nothing.
    assert_eq!(ok(head).observed.len(), 2);
    for tail in ["observe { }", "forall (true)\nobserve { }", "locations []"] {
        let p = ok(&format!("{head}{tail}\n"));
        assert_eq!(p.observed, vec![], "{tail}");
        let text = format(&parse(&format!("{head}{tail}\n")).unwrap());
        assert!(text.ends_with("observe { }\n"), "{text}");
    }
    // What the condition names is observed, the empty block adds nothing.
    let p = ok(&format!("{head}exists (x = 1)\nobserve {{ }}\n"));
    assert_eq!(p.observed, vec![Observable::Loc(LocId(0))]);
}

#[test]
fn filter_before_or_after_the_condition() {
    let head = "test F\ninit { x = 0; }\nthread P0 { r0 = load(x, rlx); }\n";
    for tail in [
        "filter (x = 0)\nexists (P0:r0 = 0)",
        "exists (P0:r0 = 0)\nfilter (x = 0)",
    ] {
        let p = ok(&format!("{head}{tail}\n"));
        assert_eq!(
            p.filter,
            Some(Prop::Atom(Observable::Loc(LocId(0)), CmpOp::Eq, 0))
        );
        assert!(p.condition.is_some());
    }
}

#[test]
fn expectations_with_assert_subject() {
    let p = ok("test E\ninit { x; }\nthread P0 { r = load(x, rlx); assert(r == 0); }\nexists (P0:r = 0)\nexpect { sc: always; ax.rc11: sometimes; tso.assert: sometimes; ax.c11.assert: never }\n");
    let e: Vec<(ModelKey, Subject, Verdict)> = p
        .expectations
        .iter()
        .map(|e| (e.model, e.subject, e.verdict))
        .collect();
    assert_eq!(
        e,
        vec![
            (
                ModelKey::Op(OpModel::Sc),
                Subject::Condition,
                Verdict::Always
            ),
            (
                ModelKey::Ax(AxModel::Rc11),
                Subject::Condition,
                Verdict::Sometimes
            ),
            (
                ModelKey::Op(OpModel::Tso),
                Subject::Failure,
                Verdict::Sometimes
            ),
            (ModelKey::Ax(AxModel::C11), Subject::Failure, Verdict::Never),
        ]
    );
}

/// The canonical layout; `else { if .. }` stays as written, an `else if`
/// chain prints as one, and the comment before `test` is kept.
#[test]
fn formatter_canonical_layout() {
    let src = "/* c */ test MP+fence.rel+acq \"doc\" init{x;y=1;} thread P0{Store(x,1,relaxed);Fence(mfence);\
               if(1){r=2;}else{if(r){r=3;}} if(r){}else if(1){r=4;}else{}} exists(P0:r=2/\\x=1) locations[x;] expect{sc:never;}";
    let t = parse(src).unwrap();
    let f = format(&t);
    assert_eq!(
        f,
        "/* c */\ntest MP+fence.rel+acq \"doc\"\n\ninit { x; y = 1; }\n\nthread P0 {\n  store(x, 1, rlx);\n  fence(full);\n  if (1) {\n    r = 2;\n  } else {\n    if (r) {\n      r = 3;\n    }\n  }\n  if (r) {\n  } else if (1) {\n    r = 4;\n  } else {\n  }\n}\n\nexists (P0:r = 2 /\\ x = 1)\nobserve { x; }\nexpect { sc: never; }\n"
    );
    assert_eq!(format(&parse(&f).unwrap()), f);
    assert!(ir_listing(&load(&f).unwrap()).contains("(if false -> "));
}

#[test]
fn test_names_take_every_non_blank_character() {
    for name in ["2+2W", "MP+fence.rel+acq", "IRIW+acqs", "R"] {
        let p = ok(&format!(
            "/* before */ test {name} // after\nthread P0 {{ r = 1; }}"
        ));
        assert_eq!(p.name, name);
        assert_eq!(p.doc, None);
    }
}

#[test]
fn lowering_reports_every_error_at_once() {
    let src = "test T\ninit { x; y; }\nthread P0 { store(x, 1, acq); r0 = load(yy, rlx); x = y; }\nthread P1 { r0 = load(x, rel); }\nexists (P0:r0 = 0 /\\ P2:r0 = 0)\n";
    let e = load(src).unwrap_err();
    assert_eq!(e.errors().len(), 5, "{}", e.render("t", src, 80));
    let related = miette::Diagnostic::related(&e).map_or(0, |r| r.count());
    assert_eq!(related, 5);
    // Sorted by position.
    let codes: Vec<String> = e
        .errors()
        .iter()
        .map(|d| miette::Diagnostic::code(d).unwrap().to_string())
        .collect();
    assert_eq!(
        codes,
        [
            "relaxlab::lower::store_order",
            "relaxlab::lower::undeclared_location",
            "relaxlab::lower::two_accesses",
            "relaxlab::lower::load_order",
            "relaxlab::lower::unknown_thread",
        ]
    );
}

/// Binary expressions are grouped by precedence after a flat parse, each
/// left spine as one chain (`(a + b) * -c - ...` groups from the left, so
/// the parenthesised `a + b` starts the chain): a chain's span runs from
/// its first operand's first character (an opening parenthesis or a unary
/// sign included) to its last operand's last.
#[test]
fn binary_expression_spans_cover_their_operands() {
    use relaxlab_grammar::ast::{BinOp, ExprKind, StmtKind};
    let src = "test S\nthread T { r = (a + b) * -c - d % (e); }";
    let test = parse(src).unwrap();
    let StmtKind::Assign { val, .. } = &test.threads[0].body.stmts[0].kind else {
        panic!("an assignment")
    };
    let text = |e: &relaxlab_grammar::ast::Expr| &src[e.span.start as usize..e.span.end as usize];
    assert_eq!(text(val), "(a + b) * -c - d % (e)");
    let ExprKind::Chain { first, rest } = &val.kind else {
        panic!("a chain at the top")
    };
    assert_eq!(text(first), "a");
    let ops: Vec<BinOp> = rest.iter().map(|(op, _)| *op).collect();
    assert_eq!(ops, [BinOp::Add, BinOp::Mul, BinOp::Sub]);
    let texts: Vec<&str> = rest.iter().map(|(_, e)| text(e)).collect();
    assert_eq!(texts, ["b", "-c", "d % (e)"]);
    let ExprKind::Chain { first, rest } = &rest[2].1.kind else {
        panic!("`%` on the right")
    };
    assert_eq!(
        (text(first), text(&rest[0].1)),
        ("d", "e"),
        "parentheses belong to the operand"
    );
}
