//! The operational engine's behaviour beyond the verdict table: the
//! compilation mapping, loops, failures, witnesses, determinism, bounds.

use crate::op_util::*;
use relaxlab_semantics::ir::*;
use relaxlab_semantics::mapping::Mapping;
use relaxlab_semantics::model::MemoryModel;
use relaxlab_semantics::models::{Pslo, Pso, Sc, Tso};
use relaxlab_semantics::operational::{
    describe_trace, explore, explore_model, program_for, ExploreOptions,
};
use relaxlab_semantics::outcome::{BoundHit, FailureKind, OutcomeTable};

fn opts(mapping: Mapping) -> ExploreOptions {
    ExploreOptions {
        mapping,
        ..ExploreOptions::default()
    }
}

#[test]
fn sb_with_sc_accesses_is_never_under_tso_with_the_standard_mapping() {
    let p = sb(WriteOrd::Sc, ReadOrd::Sc, None);
    let std = explore(&p, &Tso, &opts(Mapping::Standard));
    assert_eq!(std.verdict(), Some(Verdict::Never));
    let plain = explore(&p, &Tso, &opts(Mapping::Plain));
    assert_eq!(plain.verdict(), Some(Verdict::Sometimes));
    for table in [
        explore(&p, &Pso, &opts(Mapping::Standard)),
        explore(&p, &Pslo, &opts(Mapping::Standard)),
    ] {
        assert_eq!(table.verdict(), Some(Verdict::Never), "{}", table.model);
    }
    // rlx accesses get no barriers: sometimes, whatever the mapping.
    let rlx = sb(WriteOrd::Rlx, ReadOrd::Rlx, None);
    assert_eq!(
        explore(&rlx, &Tso, &opts(Mapping::Standard)).verdict(),
        Some(Verdict::Sometimes)
    );
}

#[test]
fn mp_with_release_acquire_is_never_under_pso_and_pslo() {
    let p0 = T::new("P0").st(X, 1, WriteOrd::Rlx).st(Y, 1, WriteOrd::Rel);
    let p1 = T::new("P1")
        .ld("r0", Y, ReadOrd::Acq)
        .ld("r1", X, ReadOrd::Rlx);
    let p = exists(
        program(&["x", "y"], vec![p0, p1]),
        &[(reg(1, 0), 1), (reg(1, 1), 0)],
    );
    for m in [OpModel::Pso, OpModel::Pslo] {
        let t = explore_model(&p, m, &opts(Mapping::Standard));
        assert_eq!(t.verdict(), Some(Verdict::Never), "{m:?}");
        let t = explore_model(&p, m, &opts(Mapping::Plain));
        assert_eq!(t.verdict(), Some(Verdict::Sometimes), "{m:?} plain");
    }
}

#[test]
fn dekker_terminates_and_fails_under_tso_only_without_fences() {
    let sc = explore(&dekker(false), &Sc, &ExploreOptions::default());
    assert!(sc.complete());
    assert!(sc.failures.is_empty(), "{:?}", sc.failures);
    assert!(!sc.rows.is_empty());
    let tso = explore(&dekker(false), &Tso, &ExploreOptions::default());
    assert!(tso.complete());
    assert_eq!(tso.failures.len(), 2, "{:?}", tso.failures);
    for f in &tso.failures {
        let FailureKind::Assert { thread, instr } = f.kind else {
            panic!("expected an assert failure, got {:?}", f.kind);
        };
        let w = f.witness.as_ref().expect("witness");
        let last = w.steps.last().expect("non-empty witness");
        assert_eq!((last.thread, last.instr), (thread, Some(instr)));
        // The witness shows both threads reading the other's flag as 0.
        let source = dekker(false);
        let prog = program_for(&source, &Tso, Mapping::Standard);
        let lines = describe_trace(&prog, w, true);
        assert!(
            lines
                .iter()
                .filter(|l| l.contains("r0 = load") && l.ends_with("[read 0]"))
                .count()
                >= 2,
            "{lines:#?}"
        );
    }
    let fenced = explore(&dekker(true), &Tso, &ExploreOptions::default());
    assert!(
        fenced.complete() && fenced.failures.is_empty(),
        "{:?}",
        fenced.failures
    );
    let pso = explore(&dekker(true), &Pso, &ExploreOptions::default());
    assert!(
        pso.complete() && pso.failures.is_empty(),
        "{:?}",
        pso.failures
    );
}

fn tables_in_pool<M: MemoryModel>(p: &Program, m: &M, threads: usize) -> OutcomeTable {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");
    pool.install(|| explore(p, m, &ExploreOptions::default()))
}

#[test]
fn tables_are_the_same_with_one_and_two_worker_threads() {
    for p in [iriw(None), dekker(false), w22()] {
        assert_eq!(tables_in_pool(&p, &Tso, 1), tables_in_pool(&p, &Tso, 2));
        assert_eq!(tables_in_pool(&p, &Pslo, 1), tables_in_pool(&p, &Pslo, 2));
    }
}

#[test]
fn witnesses_lead_to_their_outcomes() {
    for p in [
        sb(WriteOrd::Rlx, ReadOrd::Rlx, None),
        mp(None, None),
        iriw(None),
        w22(),
        corr(),
    ] {
        for table in [
            explore(&p, &Sc, &ExploreOptions::default()),
            explore(&p, &Tso, &ExploreOptions::default()),
            explore(&p, &Pso, &ExploreOptions::default()),
            explore(&p, &Pslo, &ExploreOptions::default()),
        ] {
            let prog = match table.model.as_str() {
                "sc" => program_for(&p, &Sc, Mapping::Standard),
                "tso" => program_for(&p, &Tso, Mapping::Standard),
                "pso" => program_for(&p, &Pso, Mapping::Standard),
                _ => program_for(&p, &Pslo, Mapping::Standard),
            };
            assert!(!table.rows.is_empty());
            for row in &table.rows {
                let w = row.witness.as_ref().expect("witness");
                assert!(
                    trace_reaches(&prog, w, &row.values),
                    "{} {:?}",
                    table.model,
                    row.values
                );
            }
        }
    }
}

#[test]
fn witnesses_are_shortest() {
    // SB's 0/0 outcome under TSO needs both stores, both loads and both
    // commits: six steps, no fewer.
    let t = explore(
        &sb(WriteOrd::Rlx, ReadOrd::Rlx, None),
        &Tso,
        &ExploreOptions::default(),
    );
    let row = t.rows.iter().find(|r| r.values == [0, 0]).expect("0/0");
    let n = row.witness.as_ref().map(|w| w.steps.len());
    // Steps: 2 stores, 2 loads, 2 commits, 2 ends.
    assert_eq!(n, Some(8));
}

#[test]
fn max_states_bound_is_reported_with_a_partial_table() {
    let o = ExploreOptions {
        max_states: 10,
        mapping: Mapping::Standard,
        ..ExploreOptions::default()
    };
    let t = explore(&iriw(None), &Tso, &o);
    assert_eq!(t.bounds, vec![BoundHit::MaxStates(10)]);
    assert_eq!(t.stats.states, 10);
    let full = explore(&iriw(None), &Tso, &ExploreOptions::default());
    assert!(full.complete());
    assert!(full.stats.states > 10);
    assert!(full.stats.transitions >= full.stats.states - 1);
}

#[test]
fn an_exhausted_budget_stops_exploration_and_sampling_with_a_partial_table() {
    use relaxlab_semantics::budget::{Budget, Deadline};
    use relaxlab_semantics::operational::{sample, SampleOptions};
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let interrupted = Budget {
        interrupt: Some(Arc::new(AtomicBool::new(true))),
        ..Budget::default()
    };
    // The budget is polled after each chunk of the frontier: the first
    // chunk (the initial state) is expanded, then the search stops.
    let t = explore(
        &iriw(None),
        &Tso,
        &ExploreOptions {
            budget: interrupted.clone(),
            ..ExploreOptions::default()
        },
    );
    assert_eq!(t.bounds, vec![BoundHit::Interrupted]);
    assert!(!t.complete());
    let full = explore(&iriw(None), &Tso, &ExploreOptions::default());
    assert!(t.stats.states < full.stats.states);
    let timed_out = explore(
        &iriw(None),
        &Tso,
        &ExploreOptions {
            budget: Budget {
                deadline: Some(Deadline::after(std::time::Duration::ZERO)),
                ..Budget::default()
            },
            ..ExploreOptions::default()
        },
    );
    assert_eq!(timed_out.bounds, vec![BoundHit::Timeout { millis: 0 }]);
    // Sampling stops after its first chunk of runs, and says how many ran.
    let s = sample(
        &sb(WriteOrd::Rlx, ReadOrd::Rlx, None),
        &Tso,
        &SampleOptions {
            runs: u64::MAX,
            budget: interrupted,
            ..SampleOptions::default()
        },
    );
    assert_eq!(s.bounds, vec![BoundHit::Interrupted]);
    assert!(s.stats.states > 0 && s.stats.states < u64::MAX);
}

#[test]
fn a_pure_local_spin_is_reported_as_divergence() {
    // P0: x = 1; while (1) {}   P1: r0 = x
    let p0 = T::new("P0")
        .st(X, 1, WriteOrd::Rlx)
        .push(Instr::Jump { target: InstrId(1) }, "while (1) {}");
    let p = program(&["x"], vec![p0, T::new("P1").ld("r0", X, ReadOrd::Rlx)]);
    let t = explore(&p, &Sc, &ExploreOptions::default());
    assert!(
        t.rows.is_empty(),
        "a thread that never ends gives no outcome"
    );
    assert_eq!(
        t.failures
            .iter()
            .map(|f| f.kind.clone())
            .collect::<Vec<_>>(),
        vec![FailureKind::Divergence {
            thread: ThreadId(0),
            instr: InstrId(1)
        }]
    );
}

#[test]
fn a_terminating_local_loop_runs_to_its_end() {
    // P0: r0 = 0; while (r0 < 50) r0 = r0 + 1; x = r0
    let mut t = T::new("P0");
    let r0 = t.reg("r0");
    let inc = Expr::Binary(
        BinOp::Add,
        Box::new(Expr::Reg(r0)),
        Box::new(Expr::Const(1)),
    );
    let lt = Expr::Binary(
        BinOp::Lt,
        Box::new(Expr::Reg(r0)),
        Box::new(Expr::Const(50)),
    );
    let t = t
        .push(
            Instr::Branch {
                cond: lt,
                target: InstrId(3),
            },
            "while (r0 < 50)",
        )
        .push(Instr::Assign { dst: r0, val: inc }, "r0 = r0 + 1")
        .push(Instr::Jump { target: InstrId(0) }, "loop")
        .push(
            Instr::Store {
                loc: LocId(0),
                val: Expr::Reg(r0),
                ord: WriteOrd::Rlx,
            },
            "x = r0",
        );
    let mut p = program(&["x"], vec![t]);
    p.observed = vec![loc(X)];
    let table = explore(&p, &Tso, &ExploreOptions::default());
    assert!(table.failures.is_empty());
    assert_eq!(
        table
            .rows
            .iter()
            .map(|r| r.values.clone())
            .collect::<Vec<_>>(),
        vec![vec![50]]
    );
}

#[test]
fn deadlock_division_by_zero_bad_handle_assume_and_filter() {
    // P0 joins a forked thread whose fork it skipped: deadlock.
    let mut p0 = T::new("P0");
    let r0 = p0.reg("r0");
    let r1 = p0.reg("r1");
    let p0 = p0
        .push(
            Instr::Branch {
                cond: Expr::Const(0),
                target: InstrId(2),
            },
            "if (0)",
        )
        .push(
            Instr::Fork {
                dst: r1,
                child: ThreadId(1),
            },
            "r1 = fork C",
        )
        .push(
            Instr::Assign {
                dst: r0,
                val: Expr::Const(2),
            },
            "r0 = 2",
        )
        .push(Instr::Join { handle: r0 }, "join(r0)");
    let p = program(&["x"], vec![p0, T::new("C").forked(0, 1)]);
    let t = explore(&p, &Tso, &ExploreOptions::default());
    assert_eq!(t.failures.len(), 1);
    assert_eq!(t.failures[0].kind, FailureKind::Deadlock);

    // join of a register holding no handle.
    let mut q = T::new("P0");
    let h = q.reg("h");
    let q = q.push(Instr::Join { handle: h }, "join(h)");
    let t = explore(&program(&["x"], vec![q]), &Sc, &ExploreOptions::default());
    assert_eq!(
        t.failures[0].kind,
        FailureKind::BadHandle {
            thread: ThreadId(0),
            instr: InstrId(0)
        }
    );

    // r0 = load(x); store(x, 10 / r0): divides by zero when r0 = 0.
    let mut d = T::new("P0").ld("r0", X, ReadOrd::Rlx);
    let r = d.reg("r0");
    let div = Expr::Binary(
        BinOp::Div,
        Box::new(Expr::Const(10)),
        Box::new(Expr::Reg(r)),
    );
    let d = d.push(
        Instr::Store {
            loc: LocId(0),
            val: div,
            ord: WriteOrd::Rlx,
        },
        "x = 10 / r0",
    );
    let t = explore(&program(&["x"], vec![d]), &Sc, &ExploreOptions::default());
    assert_eq!(
        t.failures[0].kind,
        FailureKind::DivisionByZero {
            thread: ThreadId(0),
            instr: InstrId(1)
        }
    );

    // SB with assume(r0 == 1) in P0 and a filter on P1's r0: only one row.
    let mut sbp = sb(WriteOrd::Rlx, ReadOrd::Rlx, None);
    sbp.threads[0].code.insert(
        2,
        Instruction {
            instr: Instr::Assume {
                cond: Expr::Binary(
                    BinOp::Eq,
                    Box::new(Expr::Reg(RegId(0))),
                    Box::new(Expr::Const(1)),
                ),
            },
            span: Span::default(),
            line: 1,
            text: "assume(r0 == 1)".into(),
            origin: Origin::Source,
        },
    );
    sbp.filter = Some(Prop::Atom(reg(1, 0), CmpOp::Eq, 1));
    let t = explore(&sbp, &Tso, &ExploreOptions::default());
    assert_eq!(
        t.rows.iter().map(|r| r.values.clone()).collect::<Vec<_>>(),
        vec![vec![1, 1]]
    );
}

#[test]
fn fork_and_join_are_full_barriers() {
    // P0: x = 1; h = fork C; join(h); r0 = y.  C: r0 = x; y = 1.
    // The child always sees x = 1, and P0 sees y = 1 after the join.
    let mut p0 = T::new("P0").st(X, 1, WriteOrd::Rlx);
    let h = p0.reg("h");
    let p0 = p0
        .push(
            Instr::Fork {
                dst: h,
                child: ThreadId(1),
            },
            "h = fork C",
        )
        .push(Instr::Join { handle: h }, "join(h)")
        .ld("r0", Y, ReadOrd::Rlx);
    let c = T::new("C")
        .forked(0, 1)
        .ld("r0", X, ReadOrd::Rlx)
        .st(Y, 1, WriteOrd::Rlx);
    let mut p = program(&["x", "y"], vec![p0, c]);
    p.observed = vec![reg(0, 1), reg(1, 0)];
    for table in [
        explore(&p, &Sc, &ExploreOptions::default()),
        explore(&p, &Tso, &ExploreOptions::default()),
        explore(&p, &Pso, &ExploreOptions::default()),
        explore(&p, &Pslo, &ExploreOptions::default()),
    ] {
        let rows: Vec<Vec<Value>> = table.rows.iter().map(|r| r.values.clone()).collect();
        assert_eq!(rows, vec![vec![1, 1]], "{}", table.model);
        assert!(
            table.failures.is_empty(),
            "{}: {:?}",
            table.model,
            table.failures
        );
    }
}

#[test]
fn trace_lines_name_threads_instructions_and_effects() {
    let p = sb(WriteOrd::Rlx, ReadOrd::Rlx, None);
    // The full search gives the shortest witness this test spells out.
    let full = ExploreOptions {
        reduction: relaxlab_semantics::operational::Reduction::None,
        ..ExploreOptions::default()
    };
    let t = explore(&p, &Tso, &full);
    let row = t.rows.iter().find(|r| r.values == [0, 0]).expect("0/0");
    let prog = program_for(&p, &Tso, Mapping::Standard);
    let lines = describe_trace(&prog, row.witness.as_ref().expect("witness"), true);
    // Both loads run before either commit: the store-buffering witness.
    assert_eq!(
        lines,
        [
            "P0: store(L0, 1)  [x := 1 buffered]",
            "P0: r0 = load(L1)  [read 0]",
            "P1: store(L1, 1)  [y := 1 buffered]",
            "P1: r0 = load(L0)  [read 0]",
            "P0: commit x = 1",
            "P0: end",
            "P1: commit y = 1",
            "P1: end",
        ]
    );
    let step = &row.witness.as_ref().expect("witness").steps[0];
    assert_eq!(
        relaxlab_semantics::operational::describe_step(&prog, step),
        "P0: store(L0, 1)  [x := 1]"
    );
}
