//! The axiomatic engine's splitting of candidates (free reads left to
//! `rf`, observer reads split off the C11 models' cores, SC marks decided
//! on the observer graph) against the whole enumeration
//! (`run_axiomatic_whole`: every read's value enumerated, every candidate
//! built and checked whole). The tables must be equal in everything:
//! outcomes, counts, racy and non-SC marks, failures, races, candidate and
//! consistent counts, bounds.

use crate::ax_builder::*;
use relaxlab_semantics::axiomatic::{run_axiomatic, run_axiomatic_whole, AxOptions};
use relaxlab_semantics::ir::{AxModel, Program};

fn same_tables(p: &Program, models: &[AxModel], opts: &AxOptions) {
    for &m in models {
        let split = run_axiomatic(p, m, opts).unwrap();
        let whole = run_axiomatic_whole(p, m, opts).unwrap();
        assert_eq!(split, whole, "{}:\n{}", m.name(), describe(p));
    }
}

/// As [`same_tables`], except where the whole enumeration, the oracle,
/// hits its bound and the split one does not: every read of the whole
/// enumeration branches on its location's whole value domain (the init,
/// every constant stored, every value computed), so its threads' paths
/// multiply out far faster. There the whole enumeration's rows must be
/// among the split one's, and the program is counted as only partly
/// checked. Returns true if the comparison was complete.
fn same_tables_or_oracle_bounded(p: &Program, models: &[AxModel], opts: &AxOptions) -> bool {
    let mut complete = true;
    for &m in models {
        let split = run_axiomatic(p, m, opts).unwrap();
        let whole = run_axiomatic_whole(p, m, opts).unwrap();
        if split.complete() && !whole.complete() {
            complete = false;
            for row in &whole.rows {
                let found = split.rows.iter().find(|r| r.values == row.values);
                assert!(
                    found.is_some_and(|r| r.count >= row.count),
                    "{}: a row of the bounded whole enumeration is missing:\n{}",
                    m.name(),
                    describe(p)
                );
            }
            continue;
        }
        assert_eq!(split, whole, "{}:\n{}", m.name(), describe(p));
    }
    complete
}

#[test]
fn split_equals_whole_on_random_programs() {
    let mut rng = Rng(diff_seed(0x5b11_7000_0000_0001));
    let n = diff_programs() / 4;
    let mut partial = 0;
    for i in 0..n {
        let p = random_program(&mut rng, i % 2 == 0);
        if !same_tables_or_oracle_bounded(&p, &AxModel::ALL, &AxOptions::default()) {
            partial += 1;
        }
    }
    eprintln!("{partial} of {n} programs partly compared");
    // The oracle's bound is rare: if it became common, this test would
    // compare little, so it fails instead.
    assert!(
        partial * 50 <= n,
        "{partial} of {n} programs were beyond the whole enumeration's bound"
    );
}

#[test]
fn split_equals_whole_on_branching_programs() {
    let mut rng = Rng(diff_seed(0x5b11_7000_0000_0002));
    for _ in 0..diff_programs() / 4 {
        let p = random_branching_program(&mut rng);
        same_tables(&p, &AxModel::ALL, &AxOptions::default());
    }
}

/// Under a candidate bound the engine either reports no bound and gives
/// the unbounded table, or reports it and gives at most that many
/// candidates, whose consistent executions are among the unbounded ones.
/// (Where exactly a bound cuts depends on the enumeration order, which the
/// split changes, so bounded tables are not compared with the whole
/// enumeration's.)
#[test]
fn a_candidate_bound_is_honest() {
    let mut rng = Rng(diff_seed(0x5b11_7000_0000_0003));
    for i in 0..diff_programs() / 20 {
        let p = random_program(&mut rng, false);
        let bound = 1 + (i as u64 * 7) % 60;
        let opts = AxOptions {
            max_candidates: bound,
            ..AxOptions::default()
        };
        for m in [AxModel::Rc11, AxModel::C11] {
            let full = run_axiomatic(&p, m, &AxOptions::default()).unwrap();
            let cut = run_axiomatic(&p, m, &opts).unwrap();
            if cut.complete() {
                assert_eq!(cut, full, "{}", describe(&p));
                continue;
            }
            assert!(cut.stats.states <= bound, "{}", describe(&p));
            assert!(cut.stats.transitions <= full.stats.transitions);
            for row in &cut.rows {
                let all = full.rows.iter().find(|r| r.values == row.values);
                assert!(
                    all.is_some_and(|r| r.count >= row.count),
                    "{}",
                    describe(&p)
                );
            }
        }
    }
}

/// A bound inside the observers' choices of one core stops at exactly
/// that many candidates.
#[test]
fn a_bound_inside_observer_choices_is_exact() {
    let p = fig6();
    let opts = AxOptions {
        max_candidates: 1000,
        ..AxOptions::default()
    };
    let t = run_axiomatic(&p, AxModel::Rc11, &opts).unwrap();
    assert_eq!(t.stats.states, 1000);
    assert!(!t.complete());
    let whole = run_axiomatic_whole(&p, AxModel::Rc11, &opts).unwrap();
    assert_eq!(whole.stats.states, 1000);
}

/// herd's `fig6` (Vafeiadis et al., POPL 2015, Fig. 6): a thread of six
/// relaxed observers over two locations written by SC, relaxed and
/// release stores; every C11 model agrees with the whole enumeration.
#[test]
fn split_equals_whole_on_fig6() {
    same_tables(
        &fig6(),
        &[AxModel::Rc11, AxModel::C11, AxModel::C11r, AxModel::C11t],
        &AxOptions::default(),
    );
}

/// IRIW with relaxed readers: the observers of two threads close an SC
/// cycle together, so the non-SC mark needs the observer graph.
#[test]
fn split_equals_whole_on_iriw() {
    let p = program("IRIW", &["x", "y"])
        .thread("P0", |t| {
            t.store("x", 1, SRlx);
        })
        .thread("P1", |t| {
            t.store("y", 1, SRlx);
        })
        .thread("P2", |t| {
            t.load("r0", "x", LRlx).load("r1", "y", LRlx);
        })
        .thread("P3", |t| {
            t.load("r0", "y", LRlx).load("r1", "x", LRlx);
        })
        .exists(&[
            ("P2", "r0", 1),
            ("P2", "r1", 0),
            ("P3", "r0", 1),
            ("P3", "r1", 0),
        ]);
    same_tables(&p, &AxModel::ALL, &AxOptions::default());
    let t = run_axiomatic(&p, AxModel::Rc11, &AxOptions::default()).unwrap();
    let weak = t.rows.iter().find(|r| r.values == [1, 0, 1, 0]).unwrap();
    assert!(weak.non_sc, "IRIW's weak outcome is non-SC");
}
