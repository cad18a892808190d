//! RELAXER (issue 9) on the seed litmus files: Phase I predictions, Phase
//! II confirmations and the exhaustive ground truth.

mod support;

use relaxlab_semantics::ir::Program;
use relaxlab_semantics::operational::models::{Pso, Tso};
use relaxlab_semantics::operational::ExploreOptions;
use relaxlab_semantics::relaxer::lift::Access;
use relaxlab_semantics::relaxer::{confirm, ground_truth, predict, PredictOptions, PredictedCycle};

fn load(rel: &str) -> Program {
    let path = support::root().join(rel);
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    relaxlab_grammar::load(&src).unwrap_or_else(|_| panic!("{} does not load", path.display()))
}

/// The cycle's (access, location name) sequence.
fn shape(p: &Program, c: &PredictedCycle) -> Vec<(Access, String)> {
    c.elements
        .iter()
        .map(|s| (s.access, p.location(s.loc).name.clone()))
        .collect()
}

#[test]
fn fig2_litmus_has_one_buggy_cycle_under_pso() {
    let p = load("litmus/seeds/RELAXER-fig2.litmus");
    let cycles = predict(&p, &PredictOptions::default());
    assert_eq!(
        cycles.len(),
        2,
        "{:?}",
        cycles
            .iter()
            .map(PredictedCycle::describe)
            .collect::<Vec<_>>()
    );
    let opts = ExploreOptions::default();
    let truths: Vec<_> = cycles
        .iter()
        .map(|c| ground_truth(&p, &Pso, c, &opts))
        .collect();
    assert!(truths.iter().all(|g| g.feasible && g.complete));
    assert_eq!(truths.iter().filter(|g| g.buggy).count(), 1);
    assert!(cycles
        .iter()
        .all(|c| !ground_truth(&p, &Tso, c, &opts).feasible));
    let report = confirm(&p, &Pso, &cycles, 30, 1);
    assert_eq!(report.bugs(), 1, "{report:?}");
}

#[test]
fn dekker_litmus_store_load_cycle_is_a_tso_bug() {
    let p = load("litmus/seeds/RELAXER-fig11-dekker.litmus");
    let cycles = predict(
        &p,
        &PredictOptions {
            runs: 200,
            ..PredictOptions::default()
        },
    );
    let want = [
        (Access::Store, "flag0".to_string()),
        (Access::Load, "flag1".to_string()),
        (Access::Store, "flag1".to_string()),
        (Access::Load, "flag0".to_string()),
    ];
    let flags: Vec<&PredictedCycle> = cycles.iter().filter(|c| shape(&p, c) == want).collect();
    assert!(
        !flags.is_empty(),
        "{:?}",
        cycles
            .iter()
            .map(PredictedCycle::describe)
            .collect::<Vec<_>>()
    );
    let opts = ExploreOptions::default();
    assert!(flags.iter().any(|c| ground_truth(&p, &Tso, c, &opts).buggy));
    let flags: Vec<PredictedCycle> = flags.into_iter().cloned().collect();
    assert!(confirm(&p, &Tso, &flags, 30, 1).bugs() > 0);
}
