//! RELAXER (issue 9) on the paper's figures: SC violations, Phase I
//! predictions, Phase II confirmations and the exhaustive ground truth.

use crate::relaxer_support::{dekker, fig1, fig2};
use relaxlab_semantics::analyses::relaxer::{
    confirm, describe_cycle, ground_truth, mark_non_sc, predict, sc_violation, PredictOptions,
    PredictedCycle,
};
use relaxlab_semantics::ir::Program;
use relaxlab_semantics::model::MemoryModel;
use relaxlab_semantics::models::{Pslo, Pso, Sc, Tso};
use relaxlab_semantics::operational::{explore, ExploreOptions};

fn labels(cycles: &[PredictedCycle]) -> Vec<Vec<u32>> {
    cycles.iter().map(PredictedCycle::labels).collect()
}

fn find<'c>(cycles: &'c [PredictedCycle], l: &[u32]) -> &'c PredictedCycle {
    cycles
        .iter()
        .find(|c| c.labels() == l)
        .unwrap_or_else(|| panic!("cycle {l:?} not predicted: {:?}", labels(cycles)))
}

#[test]
fn store_buffering_violates_sc_only_in_the_relaxed_outcome() {
    let p = fig1();
    let sc = explore(&p, &Sc, &ExploreOptions::default());
    let mut tso = explore(&p, &Tso, &ExploreOptions::default());
    for row in &sc.rows {
        assert_eq!(
            sc_violation(&p, row.witness.as_ref().unwrap()),
            None,
            "{:?}",
            row.values
        );
    }
    mark_non_sc(&mut tso, &sc);
    let marked: Vec<&Vec<i64>> = tso
        .rows
        .iter()
        .filter(|r| r.non_sc)
        .map(|r| &r.values)
        .collect();
    assert_eq!(marked, vec![&vec![0, 0]]);
    let row = tso.rows.iter().find(|r| r.values == [0, 0]).unwrap();
    let cycle = sc_violation(&p, row.witness.as_ref().unwrap()).expect("t1 = t2 = 0 violates SC");
    assert_eq!(cycle.events.len(), 4);
    assert_eq!(
        describe_cycle(&p, &cycle),
        "thread1:x = 1 ->po thread1:t1 = y ->c thread2:y = 1 ->po thread2:t2 = x ->c thread1:x = 1"
    );
    // The SC outcomes of the TSO table are SC in every witness.
    for row in tso.rows.iter().filter(|r| !r.non_sc) {
        assert_eq!(sc_violation(&p, row.witness.as_ref().unwrap()), None);
    }
}

#[test]
fn fig2_predictions_are_the_papers() {
    let cycles = predict(&fig2(), &PredictOptions::default());
    assert_eq!(labels(&cycles), vec![vec![1, 3, 4, 5], vec![2, 3, 4, 7]]);
    assert_eq!(cycles[0].describe(), "(1, 3, 4, 5)");
    // Fig. 1: the single cycle (1, 2, 3, 4).
    assert_eq!(
        labels(&predict(&fig1(), &PredictOptions::default())),
        vec![vec![1, 2, 3, 4]]
    );
    // No cycle of six events with two threads.
    let six = PredictOptions {
        length: 6,
        ..PredictOptions::default()
    };
    assert!(predict(&fig2(), &six).is_empty());
}

#[test]
fn fig2_ground_truth_and_confirmation() {
    let p = fig2();
    let cycles = predict(&p, &PredictOptions::default());
    let (error, benign) = (find(&cycles, &[1, 3, 4, 5]), find(&cycles, &[2, 3, 4, 7]));
    let opts = ExploreOptions::default();
    for c in [error, benign] {
        let sc = ground_truth(&p, &Sc, c, &opts);
        let tso = ground_truth(&p, &Tso, c, &opts);
        assert!(
            !sc.feasible && !tso.feasible,
            "{}: {sc:?} {tso:?}",
            c.describe()
        );
        assert!(sc.complete && tso.complete);
    }
    for gt in [
        ground_truth(&p, &Pso, error, &opts),
        ground_truth(&p, &Pslo, error, &opts),
    ] {
        assert!(gt.feasible && gt.buggy && gt.complete && gt.exact, "{gt:?}");
    }
    let gt = ground_truth(&p, &Pso, benign, &opts);
    assert!(gt.feasible && !gt.buggy, "{gt:?}");
    let report = confirm(&p, &Pso, &cycles, 30, 7);
    assert_eq!(report.predicted(), 2);
    assert_eq!(report.confirmed(), 2, "{report:?}");
    assert_eq!(report.bugs(), 1);
    assert!(report
        .cycles
        .iter()
        .all(|c| c.buggy == 0 || c.cycle == *error));
    assert!(report.probability().is_some_and(|p| p > 0.0 && p <= 1.0));
    assert_eq!(confirm(&p, &Tso, &cycles, 30, 7).confirmed(), 0);
}

#[test]
fn dekker_under_tso_has_the_known_bug() {
    let p = dekker(2, false);
    let opts = PredictOptions {
        runs: 200,
        ..PredictOptions::default()
    };
    let cycles = predict(&p, &opts);
    // The store-load bug of Sec. 5.4.
    let bug = find(&cycles, &[1, 2, 11, 12]);
    let explore_opts = ExploreOptions::default();
    let gt = ground_truth(&p, &Tso, bug, &explore_opts);
    assert!(gt.feasible && gt.buggy && gt.complete, "{gt:?}");
    let report = confirm(&p, &Tso, std::slice::from_ref(bug), 30, 3);
    assert!(
        report.cycles[0].created > 0 && report.cycles[0].buggy > 0,
        "{report:?}"
    );
    // Under SC no cycle is ever created.
    assert!(!ground_truth(&p, &Sc, bug, &explore_opts).feasible);
}

#[test]
fn dekker_with_fences_keeps_only_the_benign_cycle() {
    let p = dekker(2, true);
    let opts = PredictOptions {
        runs: 200,
        ..PredictOptions::default()
    };
    let cycles = predict(&p, &opts);
    let bug = find(&cycles, &[1, 2, 11, 12]);
    let benign = find(&cycles, &[9, 2, 14, 15]);
    let explore_opts = ExploreOptions::default();
    // Fig. 12: feasible even with the fences, and never a bug.
    let gt = ground_truth(&p, &Tso, benign, &explore_opts);
    assert!(gt.feasible && !gt.buggy && gt.complete, "{gt:?}");
    let gt = ground_truth(&p, &Tso, bug, &explore_opts);
    assert!(!gt.feasible && !gt.buggy && gt.complete, "{gt:?}");
    let report = confirm(&p, &Tso, &[bug.clone(), benign.clone()], 30, 3);
    assert_eq!(report.cycles[0].created, 0);
    assert_eq!(report.bugs(), 0);
}

/// Every cycle Phase II confirms is feasible by exhaustive search, and
/// every buggy one is buggy there.
fn confirmed_implies_feasible<M: MemoryModel>(p: &Program, model: &M, seed: u64) {
    let cycles = predict(p, &PredictOptions::default());
    let report = confirm(p, model, &cycles, 20, seed);
    for c in &report.cycles {
        let gt = ground_truth(p, model, &c.cycle, &ExploreOptions::default());
        assert!(gt.complete);
        if c.created > 0 {
            assert!(
                gt.feasible,
                "{} {}: confirmed but infeasible",
                model.name(),
                c.cycle.describe()
            );
        }
        if c.buggy > 0 {
            assert!(
                gt.buggy,
                "{} {}: buggy trial but no buggy execution",
                model.name(),
                c.cycle.describe()
            );
        }
    }
}

#[test]
fn confirmed_cycles_are_feasible() {
    for p in [fig1(), fig2()] {
        for seed in 0..2 {
            confirmed_implies_feasible(&p, &Tso, seed);
            confirmed_implies_feasible(&p, &Pso, seed);
            confirmed_implies_feasible(&p, &Pslo, seed);
        }
    }
    confirmed_implies_feasible(&dekker(1, false), &Tso, 0);
}
