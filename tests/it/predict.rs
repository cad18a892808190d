//! `relaxlab predict --exhaustive` (issue 9): RELAXER's Phase I over every
//! SC execution, on the seed and algorithm litmus files, through the
//! library and the CLI.

use crate::support;

use std::collections::BTreeSet;

use relaxlab_semantics::analyses::relaxer::{
    predict, predict_exhaustive, PredictOptions, PredictedCycle,
};
use relaxlab_semantics::ir::Program;
use relaxlab_semantics::operational::ExploreOptions;

fn load(rel: &str) -> Program {
    let path = support::root().join(rel);
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    relaxlab_grammar::load(&src).unwrap_or_else(|_| panic!("{} does not load", path.display()))
}

/// The cycles the CLI prints, one per indented line.
fn printed(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| l.starts_with("  ("))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn exhaustive_contains_the_sampled_prediction_on_every_algorithm() {
    let files = support::litmus_files("litmus/algorithms");
    assert!(files.len() >= 10);
    for path in files {
        let rel = support::relative(&path);
        let p = load(&rel);
        let all = predict_exhaustive(&p, 4, &ExploreOptions::default());
        assert!(all.complete, "{rel}");
        assert!(!all.cycles.is_empty(), "{rel}");
        let set: BTreeSet<&PredictedCycle> = all.cycles.iter().collect();
        for seed in [0, 1, 7] {
            let sampled = predict(
                &p,
                &PredictOptions {
                    runs: 40,
                    seed,
                    ..PredictOptions::default()
                },
            );
            for c in &sampled {
                assert!(
                    set.contains(c),
                    "{rel} seed {seed}: {} missing",
                    c.describe()
                );
            }
        }
    }
}

/// RELAXER Fig. 13: the cycle the paper calls (1, 2, 9, 10), here the
/// source lines of `x = 1; r1 = y` and `y = 1; r2 = x`.
#[test]
fn fig13_cycle_is_predicted() {
    let rel = "litmus/seeds/RELAXER-fig13.litmus";
    let (code, out, err) = support::relaxlab(&["predict", "--exhaustive", rel]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("RELAXER-fig13: 10 potential cycles of length 4 from every SC execution"),
        "{out}"
    );
    assert!(
        printed(&out).contains(&"(6, 7, 17, 18)".to_string()),
        "{out}"
    );
    // The library agrees with the CLI, cycle for cycle.
    let lib = predict_exhaustive(&load(rel), 4, &ExploreOptions::default());
    let described: Vec<String> = lib.cycles.iter().map(PredictedCycle::describe).collect();
    assert_eq!(printed(&out), described);
}

#[test]
fn fig2_exhaustive_prints_the_papers_two_cycles() {
    let (code, out, err) = support::relaxlab(&[
        "predict",
        "--exhaustive",
        "litmus/seeds/RELAXER-fig2.litmus",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(printed(&out).len(), 2, "{out}");
    let (_, sampled, _) = support::relaxlab(&["predict", "litmus/seeds/RELAXER-fig2.litmus"]);
    assert_eq!(printed(&out), printed(&sampled));
}

#[test]
fn the_state_bound_is_reported_with_exit_3() {
    let rel = "litmus/algorithms/bakery2-broken.litmus";
    let (code, out, err) =
        support::relaxlab(&["predict", "--exhaustive", "--max-states", "50", rel]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains("PARTIAL: stopped after 50 states (--max-states)"),
        "{out}"
    );
    let (full_code, full, _) = support::relaxlab(&["predict", "--exhaustive", rel]);
    assert_eq!(full_code, 0);
    assert!(!full.contains("PARTIAL"));
    let all: BTreeSet<String> = printed(&full).into_iter().collect();
    let cut = printed(&out);
    assert!(cut.len() < all.len());
    assert!(cut.iter().all(|c| all.contains(c)), "{out}");
    // Deterministic, even when cut.
    let (_, again, _) = support::relaxlab(&["predict", "--exhaustive", "--max-states", "50", rel]);
    assert_eq!(out, again);
}

#[test]
fn exhaustive_flags_are_checked() {
    let rel = "litmus/seeds/RELAXER-fig2.litmus";
    for args in [
        vec!["predict", "--exhaustive", "--runs", "5", rel],
        vec!["predict", "--exhaustive", "--seed", "3", rel],
        vec!["predict", "--max-states", "5", rel],
    ] {
        let (code, _, err) = support::relaxlab(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
}

#[test]
fn several_files_exit_with_the_most_severe() {
    let (code, out, _) = support::relaxlab(&[
        "predict",
        "--exhaustive",
        "--max-states",
        "60",
        "litmus/seeds/RELAXER-fig2.litmus",
        "litmus/algorithms/spsc-ring.litmus",
    ]);
    assert_eq!(code, 3, "{out}");
    assert_eq!(out.matches("PARTIAL").count(), 1, "{out}");
    assert!(out.starts_with("RELAXER-fig2: 2 potential cycles"), "{out}");
}

// ---------------------------------------------------------------------
// `run --sample N --strategy c11tester` (issue 8), from the command line.
// ---------------------------------------------------------------------

/// The run counts of a sampled table, by the value of its last column
/// but one (`threadB:r1` of C11TESTER Fig. 4).
fn r1_counts(out: &str) -> std::collections::BTreeMap<i64, u64> {
    // The rows: `x`, `threadB:r1` and the count of runs, all numbers
    // (a `forall` table stars only the rows that contradict it).
    out.lines()
        .filter_map(|l| {
            let cols: Vec<i64> = l
                .split_whitespace()
                .filter(|c| *c != "*")
                .map(str::parse)
                .collect::<Result<_, _>>()
                .ok()?;
            (cols.len() == 3).then(|| (cols[1], cols[2] as u64))
        })
        .collect()
}

#[test]
fn c11tester_strategy_evens_out_c11tester_fig4() {
    let run = |strategy: &str| {
        let (code, out, err) = support::relaxlab(&[
            "run",
            "litmus/seeds/C11TESTER-fig4.litmus",
            "-m",
            "c11r",
            "--sample",
            "2000",
            "--seed",
            "1",
            "--strategy",
            strategy,
        ]);
        assert_eq!(code, 0, "{err}");
        out
    };
    let out = run("c11tester");
    assert_eq!(out, run("c11tester"), "deterministic per seed");
    // Sec. 3: once threadA runs, both its stores are performed, so the
    // load reads 1 or 2 about equally often; a uniform scheduler rarely
    // runs threadA twice before threadB.
    let c = r1_counts(&out);
    let (one, two) = (c[&1], c[&2]);
    assert!(one.abs_diff(two) * 4 < one + two, "{out}");
    let u = r1_counts(&run("uniform"));
    assert!(u[&1] > 3 * u[&2], "{u:?}");
}

#[test]
fn c11tester_runs_replay_and_keep_the_stores_together() {
    let base = [
        "run",
        "litmus/seeds/C11TESTER-fig4.litmus",
        "-m",
        "c11r",
        "--sample",
        "60",
        "--seed",
        "3",
        "--strategy",
        "c11tester",
    ];
    let (code, table, _) = support::relaxlab(&base);
    assert_eq!(code, 0);
    let mut replayed: std::collections::BTreeMap<i64, u64> = Default::default();
    for i in 0..60 {
        let spec = format!("3:{i}");
        // `--replay` names the seed and the run; `--sample` has no effect
        // beside it.
        let args = [
            "run",
            "litmus/seeds/C11TESTER-fig4.litmus",
            "-m",
            "c11r",
            "--strategy",
            "c11tester",
            "--replay",
            &spec,
        ];
        let (code, out, err) = support::relaxlab(&args);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("(C11Tester strategy)"), "{out}");
        assert_eq!(
            support::relaxlab(&args).1,
            out,
            "replay {spec} is deterministic"
        );
        // threadA's two relaxed stores are consecutive lines of the trace.
        let lines: Vec<&str> = out.lines().collect();
        let first = lines
            .iter()
            .position(|l| l.contains("threadA: store(x, 1, rlx)"))
            .unwrap_or_else(|| panic!("{out}"));
        assert!(
            lines[first + 1].contains("threadA: store(x, 2, rlx)"),
            "{out}"
        );
        let r1 = out
            .rsplit("threadB:r1=")
            .next()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("{out}"));
        *replayed.entry(r1).or_insert(0) += 1;
    }
    // The runs replayed one by one make up the table.
    assert_eq!(replayed, r1_counts(&table), "{table}");
}
