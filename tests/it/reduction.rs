//! Partial-order reduction on the whole litmus library (but the
//! benchmarks, whose full searches are long): for every file and every
//! operational model that applies, `--reduction por` reports exactly what
//! `--reduction none` reports (rows with verdicts, racy and non-SC marks,
//! failures, races, bounds), every reduced witness replays to what it
//! witnesses, and `relaxlab races` finds the same races under c11r, c11t
//! and sc. The state counts of both searches are pinned in one snapshot.

use crate::support;

use std::fmt::Write;

use relaxlab::engine::{self, Settings};
use relaxlab_semantics::ir::{ModelKey, OpModel, Program};
use relaxlab_semantics::mapping::Mapping;
use relaxlab_semantics::models::ScRaces;
use relaxlab_semantics::operational::{replay_witness, Reduction};
use relaxlab_semantics::outcome::{FailureKind, OutcomeTable, Trace};
use relaxlab_semantics::picture::Describe;
use relaxlab_semantics::registry::{with_model, OpVisitor, Target};

fn settings(reduction: Reduction) -> Settings {
    Settings {
        reduction,
        ..Settings::default()
    }
}

fn files() -> Vec<(String, Program)> {
    support::litmus_files("litmus")
        .into_iter()
        .filter(|p| {
            // Kernel tests run only under herd7's configuration (lkmm.rs).
            let rel = support::relative(p);
            !rel.starts_with("litmus/bench/") && !rel.starts_with("litmus/kernel/")
        })
        .map(|path| {
            let file = relaxlab::files::read(&path).unwrap();
            let program = relaxlab::load::program(&file)
                .unwrap_or_else(|e| panic!("{} does not load: {e:?}", path.display()));
            (support::relative(&path), program)
        })
        .collect()
}

fn models(program: &Program) -> Vec<OpModel> {
    let c11 = relaxlab_grammar::check_model(program, ModelKey::Op(OpModel::C11r)).is_ok();
    OpModel::ALL
        .into_iter()
        .filter(|m| c11 || !matches!(m.row().target, Target::C11))
        .collect()
}

/// What a table reports, but its statistics and witnesses.
fn report(t: &OutcomeTable) -> String {
    let rows: Vec<String> = t
        .rows
        .iter()
        .map(|r| {
            format!(
                "{:?} {:?} racy={} non_sc={}",
                r.values, r.satisfies, r.racy, r.non_sc
            )
        })
        .collect();
    let failures: Vec<&FailureKind> = t.failures.iter().map(|f| &f.kind).collect();
    format!("{rows:#?}\n{failures:?}\n{:?}\n{:?}", t.races, t.bounds)
}

/// Replays `w` under `model` on `program` (as the engine ran it).
fn replay(
    program: &Program,
    model: OpModel,
    w: &Trace,
) -> Result<relaxlab_semantics::operational::Replayed, String> {
    struct Replay<'a>(&'a Program, &'a Trace);
    impl OpVisitor for Replay<'_> {
        type Output = Result<relaxlab_semantics::operational::Replayed, String>;
        fn visit<M: Describe>(self, m: &M) -> Self::Output {
            replay_witness(self.0, m, Mapping::Standard, self.1)
        }
    }
    with_model(model, Replay(program, w))
}

fn check_witnesses(name: &str, program: &Program, model: OpModel, t: &OutcomeTable) {
    for row in &t.rows {
        let w = row.witness.as_ref().expect("a witness");
        let r = replay(program, model, w).unwrap_or_else(|e| panic!("{name} {model:?}: {e}"));
        assert_eq!(
            r.outcome.as_ref(),
            Some(&row.values),
            "{name} {model:?}: witness of {:?}",
            row.values
        );
    }
    for f in &t.failures {
        let w = f.witness.as_ref().expect("a witness");
        let r = replay(program, model, w).unwrap_or_else(|e| panic!("{name} {model:?}: {e}"));
        match f.kind {
            FailureKind::Deadlock => assert!(r.failure.is_none() && r.outcome.is_none()),
            _ => assert_eq!(r.failure.as_ref(), Some(&f.kind), "{name} {model:?}"),
        }
    }
}

#[test]
fn reduced_search_reports_what_the_full_search_reports() {
    let mut counts = String::new();
    let (mut full_total, mut reduced_total) = (0u64, 0u64);
    for (name, program) in files() {
        let mut line = format!("{name}:");
        for model in models(&program) {
            let key = ModelKey::Op(model);
            let full = engine::run(&program, key, &settings(Reduction::None)).unwrap();
            let reduced = engine::run(&program, key, &settings(Reduction::Por)).unwrap();
            assert_eq!(
                report(&reduced),
                report(&full),
                "{name} under {}: reduced (left) and full (right) differ",
                model.name()
            );
            check_witnesses(&name, &program, model, &reduced);
            full_total += full.stats.states;
            reduced_total += reduced.stats.states;
            let _ = write!(
                line,
                " {} {}/{}",
                model.name(),
                reduced.stats.states,
                full.stats.states
            );
        }
        counts.push_str(&line);
        counts.push('\n');
    }
    let _ = writeln!(
        counts,
        "\ntotal: {reduced_total} states reduced, {full_total} full"
    );
    insta::assert_snapshot!("state_counts_reduced_over_full", counts);
}

#[test]
fn races_are_the_same_reduced_and_full() {
    for (name, program) in files() {
        let c11 = relaxlab_grammar::check_model(&program, ModelKey::Op(OpModel::C11r)).is_ok();
        let mut models = vec![OpModel::Sc];
        if c11 {
            models.extend([OpModel::C11r, OpModel::C11t]);
        }
        for model in models {
            let full = engine::races(&program, model, &settings(Reduction::None)).unwrap();
            let reduced = engine::races(&program, model, &settings(Reduction::Por)).unwrap();
            assert_eq!(
                report(&reduced.table),
                report(&full.table),
                "{name}: races --model {} differ",
                model.name()
            );
            if model == OpModel::Sc {
                for (race, w) in &reduced.races {
                    let w = w.as_ref().expect("a race witness");
                    let r = replay_witness(&program, &ScRaces, Mapping::Standard, w)
                        .unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert!(
                        r.races.iter().any(|x| x.unordered() == *race),
                        "{name}: {race:?}"
                    );
                }
            }
        }
    }
}

/// The unreduced search, on one worker thread and on two, gives equal
/// tables (witnesses and state counts included), complete and cut short
/// by the state bound, on bench tests whose chunks send batches of
/// thousands of rows to the state table, so that two threads divide them
/// (`StateTable::insert_batch`) and the merge interns components in
/// between.
#[test]
fn full_search_is_the_same_on_one_and_two_threads() {
    for name in [
        "litmus/bench/bench-SB4x4.litmus",
        "litmus/bench/bench-peterson3.litmus",
    ] {
        let file = relaxlab::files::read(std::path::Path::new(name)).unwrap();
        let program = relaxlab::load::program(&file).unwrap();
        for model in [OpModel::Tso, OpModel::Pso, OpModel::C11r] {
            for max_states in [10_000_000, 123_457] {
                let s = Settings {
                    max_states,
                    ..settings(Reduction::None)
                };
                let on = |threads: usize| {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .expect("a pool");
                    pool.install(|| engine::run(&program, ModelKey::Op(model), &s).unwrap())
                };
                let (one, two) = (on(1), on(2));
                // Large enough for divided batches; the bound is hit.
                assert!(one.stats.states > 100_000, "{name}");
                assert_eq!(one.complete(), max_states == 10_000_000, "{name}");
                assert_eq!(one, two, "{name} under {} ({max_states})", model.name());
            }
        }
    }
}
