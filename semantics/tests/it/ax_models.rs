//! The axiomatic engine against the expected verdicts (book: models.md, The models side by side) and the classic
//! litmus tests, every model, built with the IR builder.

use crate::ax_builder::*;
use relaxlab_semantics::axiomatic::{
    check, consistent_executions, run_axiomatic, to_dot, AxError, AxOptions,
};
use relaxlab_semantics::ir::{
    AxModel, C11Fence, HwFence, InstrId, LocId, Program, ReadOrd, RmwOp, RmwOrd, ThreadId, Verdict,
    WriteOrd,
};
use relaxlab_semantics::model::{Race, Site};
use relaxlab_semantics::outcome::FailureKind;

use AxModel::*;
use Verdict::{Never, Sometimes};

fn verdict(p: &Program, m: AxModel) -> Verdict {
    let t = run_axiomatic(p, m, &AxOptions::default()).unwrap();
    assert!(t.complete(), "{}: bound hit {:?}", m.name(), t.bounds);
    t.verdict().unwrap()
}

fn sb(st: WriteOrd, ld: ReadOrd) -> Program {
    program("SB", &["x", "y"])
        .thread("P0", |t| {
            t.store("x", 1, st).load("r0", "y", ld);
        })
        .thread("P1", |t| {
            t.store("y", 1, st).load("r0", "x", ld);
        })
        .exists(&[("P0", "r0", 0), ("P1", "r0", 0)])
}

fn mp(st: WriteOrd, ld: ReadOrd) -> Program {
    program("MP", &["x", "y"])
        .thread("P0", |t| {
            t.store("x", 1, SRlx).store("y", 1, st);
        })
        .thread("P1", |t| {
            t.load("r0", "y", ld).load("r1", "x", LRlx);
        })
        .exists(&[("P1", "r0", 1), ("P1", "r1", 0)])
}

fn lb() -> Program {
    program("LB", &["x", "y"])
        .thread("P0", |t| {
            t.load("r0", "x", LRlx).store("y", 1, SRlx);
        })
        .thread("P1", |t| {
            t.load("r0", "y", LRlx).store("x", 1, SRlx);
        })
        .exists(&[("P0", "r0", 1), ("P1", "r0", 1)])
}

fn iriw(st: WriteOrd, ld: ReadOrd) -> Program {
    program("IRIW", &["x", "y"])
        .thread("P0", |t| {
            t.store("x", 1, st);
        })
        .thread("P1", |t| {
            t.store("y", 1, st);
        })
        .thread("P2", |t| {
            t.load("r0", "x", ld).load("r1", "y", ld);
        })
        .thread("P3", |t| {
            t.load("r0", "y", ld).load("r1", "x", ld);
        })
        .exists(&[
            ("P2", "r0", 1),
            ("P2", "r1", 0),
            ("P3", "r0", 1),
            ("P3", "r1", 0),
        ])
}

fn two_plus_two_w() -> Program {
    program("2+2W", &["x", "y"])
        .thread("P0", |t| {
            t.store("x", 1, SRlx).store("y", 2, SRlx);
        })
        .thread("P1", |t| {
            t.store("y", 1, SRlx).store("x", 2, SRlx);
        })
        .exists(&[("", "x", 1), ("", "y", 1)])
}

fn corr() -> Program {
    program("CoRR", &["x"])
        .thread("P0", |t| {
            t.store("x", 1, SRlx);
        })
        .thread("P1", |t| {
            t.load("r0", "x", LRlx).load("r1", "x", LRlx);
        })
        .exists(&[("P1", "r0", 1), ("P1", "r1", 0)])
}

fn cowr() -> Program {
    program("CoWR", &["x"])
        .thread("P0", |t| {
            t.store("x", 1, SRlx).load("r0", "x", LRlx);
        })
        .thread("P1", |t| {
            t.store("x", 2, SRlx);
        })
        .exists(&[("P0", "r0", 0)])
}

fn corw() -> Program {
    program("CoRW", &["x"])
        .thread("P0", |t| {
            t.load("r0", "x", LRlx).store("x", 1, SRlx);
        })
        .thread("P1", |t| {
            t.store("x", 2, SRlx);
        })
        .exists(&[("P0", "r0", 2), ("", "x", 2)])
}

fn coww() -> Program {
    program("CoWW", &["x"])
        .thread("P0", |t| {
            t.store("x", 1, SRlx).store("x", 2, SRlx);
        })
        .exists(&[("", "x", 1)])
}

/// The expected verdicts (book: models.md, The models side by side), column by column: the hardware columns are
/// sc/tso/pso/pslo; c11r and rc11 use rlx accesses.
#[test]
fn models_md_section_5_table() {
    let cols = [Sc, Tso, Pso, Pslo, C11r, Rc11];
    let rows: [(&str, Program, [Verdict; 6]); 6] = [
        (
            "SB",
            sb(SRlx, LRlx),
            [Never, Sometimes, Sometimes, Sometimes, Sometimes, Sometimes],
        ),
        (
            "MP",
            mp(SRlx, LRlx),
            [Never, Never, Sometimes, Sometimes, Sometimes, Sometimes],
        ),
        ("LB", lb(), [Never, Never, Never, Never, Never, Never]),
        (
            "IRIW",
            iriw(SRlx, LRlx),
            [Never, Never, Never, Sometimes, Sometimes, Sometimes],
        ),
        (
            "2+2W",
            two_plus_two_w(),
            [Never, Never, Sometimes, Sometimes, Never, Sometimes],
        ),
        ("CoRR", corr(), [Never; 6]),
    ];
    for (name, p, expected) in rows {
        for (m, want) in cols.iter().zip(expected) {
            assert_eq!(verdict(&p, *m), want, "{name} under ax.{}", m.name());
        }
    }
}

#[test]
fn lb_and_2_2w_separate_the_c11_variants() {
    assert_eq!(
        verdict(&lb(), C11),
        Sometimes,
        "ax.c11 allows load buffering"
    );
    assert_eq!(verdict(&lb(), Rc11), Never);
    assert_eq!(verdict(&lb(), C11t), Never);
    assert_eq!(verdict(&two_plus_two_w(), C11t), Sometimes);
    assert_eq!(verdict(&two_plus_two_w(), C11), Sometimes);
    assert_eq!(verdict(&two_plus_two_w(), C11r), Never);
}

const C11_MODELS: [AxModel; 4] = [C11, Rc11, C11r, C11t];

#[test]
fn message_passing_with_release_acquire_is_never_weak_in_c11() {
    for m in C11_MODELS {
        assert_eq!(verdict(&mp(SRel, LAcq), m), Never, "ax.{}", m.name());
        assert_eq!(verdict(&mp(SRlx, LAcq), m), Sometimes, "ax.{}", m.name());
    }
}

#[test]
fn store_buffering_needs_sc_accesses_in_c11() {
    for m in C11_MODELS {
        assert_eq!(verdict(&sb(SSc, LSc), m), Never, "ax.{}", m.name());
        assert_eq!(verdict(&sb(SRel, LAcq), m), Sometimes, "ax.{}", m.name());
    }
}

#[test]
fn store_buffering_with_sc_fences_is_never_weak() {
    let p = program("SB+fences", &["x", "y"])
        .thread("P0", |t| {
            t.store("x", 1, SRlx)
                .fence(c11(C11Fence::Sc))
                .load("r0", "y", LRlx);
        })
        .thread("P1", |t| {
            t.store("y", 1, SRlx)
                .fence(c11(C11Fence::Sc))
                .load("r0", "x", LRlx);
        })
        .exists(&[("P0", "r0", 0), ("P1", "r0", 0)]);
    for m in C11_MODELS {
        assert_eq!(verdict(&p, m), Never, "ax.{}", m.name());
    }
}

#[test]
fn sc_fence_on_one_side_only_does_not_forbid_sb() {
    let p = program("SB+fence", &["x", "y"])
        .thread("P0", |t| {
            t.store("x", 1, SRlx)
                .fence(c11(C11Fence::Sc))
                .load("r0", "y", LRlx);
        })
        .thread("P1", |t| {
            t.store("y", 1, SRlx).load("r0", "x", LRlx);
        })
        .exists(&[("P0", "r0", 0), ("P1", "r0", 0)]);
    for m in C11_MODELS {
        assert_eq!(verdict(&p, m), Sometimes, "ax.{}", m.name());
    }
}

#[test]
fn iriw_sc_never_rlx_sometimes_in_c11() {
    for m in C11_MODELS {
        assert_eq!(verdict(&iriw(SSc, LSc), m), Never, "ax.{}", m.name());
        assert_eq!(verdict(&iriw(SRlx, LRlx), m), Sometimes, "ax.{}", m.name());
    }
}

#[test]
fn coherence_tests_are_never_weak_anywhere() {
    for (name, p) in [
        ("CoRR", corr()),
        ("CoWR", cowr()),
        ("CoRW", corw()),
        ("CoWW", coww()),
    ] {
        for m in AxModel::ALL {
            assert_eq!(verdict(&p, m), Never, "{name} under ax.{}", m.name());
        }
    }
}

#[test]
fn sc_store_and_load_make_sb_never_under_tso_and_pso() {
    // The mapping puts a full fence after an sc store (book: mapping.md).
    for m in [Tso, Pso, Pslo] {
        assert_eq!(verdict(&sb(SSc, LSc), m), Never, "ax.{}", m.name());
        assert_eq!(verdict(&sb(SRlx, LRlx), m), Sometimes, "ax.{}", m.name());
    }
    let plain = AxOptions {
        mapping: relaxlab_semantics::mapping::Mapping::Plain,
        ..AxOptions::default()
    };
    let t = run_axiomatic(&sb(SSc, LSc), Tso, &plain).unwrap();
    assert_eq!(
        t.verdict(),
        Some(Sometimes),
        "--mapping plain ignores orders"
    );
}

#[test]
fn hardware_fences_restore_order() {
    let sb_fenced = program("SB+mfence", &["x", "y"])
        .thread("P0", |t| {
            t.store("x", 1, SRlx)
                .fence(hw(HwFence::Full))
                .load("r0", "y", LRlx);
        })
        .thread("P1", |t| {
            t.store("y", 1, SRlx)
                .fence(hw(HwFence::Full))
                .load("r0", "x", LRlx);
        })
        .exists(&[("P0", "r0", 0), ("P1", "r0", 0)]);
    for m in [Tso, Pso, Pslo] {
        assert_eq!(verdict(&sb_fenced, m), Never, "ax.{}", m.name());
    }
    let mp_ss = program("MP+ss", &["x", "y"])
        .thread("P0", |t| {
            t.store("x", 1, SRlx)
                .fence(hw(HwFence::SS))
                .store("y", 1, SRlx);
        })
        .thread("P1", |t| {
            t.load("r0", "y", LRlx).load("r1", "x", LRlx);
        })
        .exists(&[("P1", "r0", 1), ("P1", "r1", 0)]);
    assert_eq!(verdict(&mp_ss, Pso), Never);
    // PSLO also reorders the reads (from stale histories) without `ll`.
    assert_eq!(verdict(&mp_ss, Pslo), Sometimes);
}

#[test]
fn sb_witness_counts_match_herd() {
    // herd7: SB under SC has 3 states, each from one execution; under TSO 4.
    let t = run_axiomatic(&sb(SRlx, LRlx), Sc, &AxOptions::default()).unwrap();
    assert_eq!(t.model, "ax.sc");
    assert_eq!(t.rows.len(), 3);
    assert!(t.rows.iter().all(|r| r.count == 1));
    assert_eq!((t.stats.states, t.stats.transitions), (4, 3));
    let values: Vec<Vec<i64>> = t.rows.iter().map(|r| r.values.clone()).collect();
    assert_eq!(values, vec![vec![0, 1], vec![1, 0], vec![1, 1]]);
    let t = run_axiomatic(&sb(SRlx, LRlx), Tso, &AxOptions::default()).unwrap();
    assert_eq!(t.rows.len(), 4);
    assert_eq!(t.stats.transitions, 4);
    // The weak outcome violates SC; the others do not.
    assert!(t.rows[0].non_sc && !t.rows[1].non_sc);
}

#[test]
fn racy_message_passing_reports_the_race() {
    let racy = program("MP+na", &["x", "y"])
        .non_atomic("x")
        .thread("P0", |t| {
            t.store("x", 1, SNa).store("y", 1, SRlx);
        })
        .thread("P1", |t| {
            t.load("r0", "y", LRlx).load("r1", "x", LNa);
        })
        .exists(&[("P1", "r0", 1), ("P1", "r1", 0)]);
    let race = Race {
        loc: LocId(0),
        earlier: Site {
            thread: ThreadId(0),
            instr: InstrId(0),
        },
        later: Site {
            thread: ThreadId(1),
            instr: InstrId(1),
        },
    };
    for m in C11_MODELS {
        let t = run_axiomatic(&racy, m, &AxOptions::default()).unwrap();
        assert_eq!(t.races, vec![race], "ax.{}", m.name());
        assert!(t.rows.iter().all(|r| r.racy), "ax.{}", m.name());
    }
    // With release/acquire, the execution that sees the flag is race-free.
    let synced = program("MP+na+rel+acq", &["x", "y"])
        .non_atomic("x")
        .thread("P0", |t| {
            t.store("x", 1, SNa).store("y", 1, SRel);
        })
        .thread("P1", |t| {
            t.load("r0", "y", LAcq).load("r1", "x", LNa);
        })
        .exists(&[("P1", "r0", 1), ("P1", "r1", 0)]);
    for m in C11_MODELS {
        let t = run_axiomatic(&synced, m, &AxOptions::default()).unwrap();
        let flags: Vec<(Vec<i64>, bool)> =
            t.rows.iter().map(|r| (r.values.clone(), r.racy)).collect();
        // r0 = 0 reads x racily. Reading a visible side effect, it gets
        // 0; RC11 constrains the plain read by coherence alone, so it may
        // also get the write it races with (herd7's rc11.cat lists both).
        let expected = match m {
            Rc11 => vec![(vec![0, 0], true), (vec![0, 1], true), (vec![1, 1], false)],
            _ => vec![(vec![0, 0], true), (vec![1, 1], false)],
        };
        assert_eq!(flags, expected, "ax.{}", m.name());
        assert_eq!(t.races, vec![race]);
    }
}

#[test]
fn release_sequence_through_an_rmw_synchronises() {
    // P0: x = 1 (na); y = 1 rel.  P1: fetch_add(y, 1, rlx).
    // P2: r0 = y acq; r1 = x (na).  Reading 2 from the RMW still
    // synchronises with P0's release (C++11 and C++20 alike).
    let p = program("MP+rmw", &["x", "y"])
        .non_atomic("x")
        .thread("P0", |t| {
            t.store("x", 1, SNa).store("y", 1, SRel);
        })
        .thread("P1", |t| {
            t.rmw("r0", "y", RmwOp::Add, 1, RmwOrd::Rlx);
        })
        .thread("P2", |t| {
            t.load("r0", "y", LAcq).load("r1", "x", LNa);
        })
        .exists(&[("P2", "r0", 2), ("P2", "r1", 0)]);
    for m in C11_MODELS {
        let t = run_axiomatic(&p, m, &AxOptions::default()).unwrap();
        assert_eq!(t.verdict(), Some(Never), "ax.{}", m.name());
        let seen_two = t.rows.iter().find(|r| r.values == vec![2, 1]).unwrap();
        assert!(!seen_two.racy, "ax.{}", m.name());
    }
}

#[test]
fn rmw_atomicity_and_cas() {
    // Two fetch_adds never both read 0; a CAS pair: exactly one succeeds.
    let p = program("2xFAA", &["x"])
        .thread("P0", |t| {
            t.rmw("r0", "x", RmwOp::Add, 1, RmwOrd::Rlx);
        })
        .thread("P1", |t| {
            t.rmw("r0", "x", RmwOp::Add, 1, RmwOrd::Rlx);
        })
        .exists(&[("P0", "r0", 0), ("P1", "r0", 0)]);
    let q = program("2xCAS", &["x"])
        .thread("P0", |t| {
            t.cas("r0", "x", 0, 1, RmwOrd::AcqRel);
        })
        .thread("P1", |t| {
            t.cas("r0", "x", 0, 2, RmwOrd::AcqRel);
        })
        .exists(&[("P0", "r0", 0), ("P1", "r0", 0)]);
    for m in AxModel::ALL {
        assert_eq!(verdict(&p, m), Never, "FAA ax.{}", m.name());
        assert_eq!(verdict(&q, m), Never, "CAS ax.{}", m.name());
        let t = run_axiomatic(&q, m, &AxOptions::default()).unwrap();
        assert_eq!(t.rows.len(), 2, "one CAS wins, the other reads its value");
    }
}

#[test]
fn failed_asserts_are_counted() {
    let p = program("assert", &["x"])
        .thread("P0", |t| {
            t.store("x", 1, SRlx);
        })
        .thread("P1", |t| {
            t.load("r0", "x", LRlx).assert_eq("r0", 0);
        })
        .exists(&[("P1", "r0", 0)]);
    for m in AxModel::ALL {
        let t = run_axiomatic(&p, m, &AxOptions::default()).unwrap();
        assert_eq!(t.failures.len(), 1, "ax.{}", m.name());
        assert_eq!(
            t.failures[0].kind,
            FailureKind::Assert {
                thread: ThreadId(1),
                instr: InstrId(1)
            }
        );
        assert_eq!(t.failures[0].count, 1);
        assert_eq!(t.rows.len(), 1, "only r0 = 0 finishes");
    }
}

#[test]
fn check_names_the_failing_axiom_and_dot_draws_the_execution() {
    let p = sb(SRlx, LRlx);
    let tso = consistent_executions(&p, Tso, &AxOptions::default()).unwrap();
    assert_eq!(tso.len(), 4);
    let (weak, _) = tso.iter().find(|(_, v)| v == &vec![0, 0]).unwrap();
    let rej = check(Sc, weak).unwrap_err();
    assert_eq!(rej.axiom, "sc");
    assert_eq!(rej.cycle.len(), 4, "W x, R y, W y, R x: {rej}");
    assert!(check(Tso, weak).is_ok());
    let dot = to_dot(&p, weak);
    assert!(dot.contains("subgraph cluster_t0") && dot.contains("subgraph cluster_t1"));
    assert!(dot.contains("label=\"rf\"") && dot.contains("label=\"fr\""));
    assert!(dot.contains("W[rlx] x=1"));
    // C11 executions carry the SC order found.
    let c11 = consistent_executions(&sb(SSc, LSc), C11, &AxOptions::default()).unwrap();
    assert!(c11
        .iter()
        .all(|(ex, _)| ex.sc.as_ref().is_some_and(|s| s.len() == 4)));
}

/// The refusal names the loop: P1's spin loop, whose head (the `while`
/// test) follows P1's first load.
#[test]
fn loops_are_refused_without_unroll() {
    let p = spin();
    assert_eq!(
        run_axiomatic(&p, Sc, &AxOptions::default()).unwrap_err(),
        AxError::HasLoops {
            thread: ThreadId(1),
            at: InstrId(1)
        }
    );
}

/// P0: data = 1; flag = 1 (rel).  P1: while (flag == 0) spin (acq); r1 = data.
fn spin() -> Program {
    program("spin", &["data", "flag"])
        .thread("P0", |t| {
            t.store("data", 1, SRlx).store("flag", 1, SRel);
        })
        .thread("P1", |t| {
            t.load("r0", "flag", LAcq)
                .while_eq("r0", 0, |t| {
                    t.load("r0", "flag", LAcq);
                })
                .load("r1", "data", LRlx);
        })
        .exists(&[("P1", "r1", 0)])
}

#[test]
fn unrolled_spin_loop() {
    let opts = AxOptions {
        unroll: Some(2),
        ..AxOptions::default()
    };
    for m in [Sc, Tso, Pso, Pslo, C11, Rc11, C11r, C11t] {
        let t = run_axiomatic(&spin(), m, &opts).unwrap();
        assert_eq!(t.verdict(), Some(Never), "ax.{}", m.name());
        assert_eq!(t.rows.len(), 1, "ax.{}", m.name());
        assert_eq!(
            t.bounds,
            vec![relaxlab_semantics::outcome::BoundHit::Unroll(2)],
            "spinning three times is cut"
        );
    }
}

#[test]
fn max_candidates_is_reported() {
    let opts = AxOptions {
        max_candidates: 2,
        ..AxOptions::default()
    };
    let t = run_axiomatic(&sb(SRlx, LRlx), Tso, &opts).unwrap();
    assert_eq!(t.stats.states, 2);
    assert_eq!(
        t.bounds,
        vec![relaxlab_semantics::outcome::BoundHit::MaxCandidates(2)]
    );
}
