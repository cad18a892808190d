//! Properties of RELAXER's analyses on random straight-line programs of
//! two threads over two locations.

use crate::relaxer_support::{assert_eq0, ld, program, st, thread, Line};
use proptest::prelude::*;
use relaxlab_semantics::analyses::relaxer::{
    confirm, ground_truth, mark_non_sc, predict, sc_violation, PredictOptions,
};
use relaxlab_semantics::ir::Program;
use relaxlab_semantics::model::MemoryModel;
use relaxlab_semantics::models::{Pslo, Pso, Sc, Tso};
use relaxlab_semantics::operational::{explore, ExploreOptions};

/// An access: a store of 1 or 2, or a load into the thread's register.
#[derive(Clone, Copy, Debug)]
enum Op {
    Store(u32, i64),
    Load(u32),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0u32..2, 1i64..3).prop_map(|(l, v)| Op::Store(l, v)),
        (0u32..2).prop_map(Op::Load)
    ]
}

/// Thread `t`'s accesses labelled `10 t + i + 1`, then `assert(r == 0)`
/// when `check`.
fn build(threads: &[(Vec<Op>, bool)]) -> Program {
    let code = threads
        .iter()
        .enumerate()
        .map(|(t, (ops, check))| {
            let mut lines: Vec<Line> = ops
                .iter()
                .enumerate()
                .map(|(i, o)| {
                    let line = 10 * t as u32 + i as u32 + 1;
                    match *o {
                        Op::Store(l, v) => st(line, l, v, "store"),
                        Op::Load(l) => ld(line, 0, l, "load"),
                    }
                })
                .collect();
            if *check {
                lines.push(assert_eq0(10 * t as u32 + 9, 0, "assert(r == 0)"));
            }
            thread(&format!("P{t}"), &["r"], lines)
        })
        .collect();
    program("random", &["x", "y"], code)
}

fn thread_code() -> impl Strategy<Value = (Vec<Op>, bool)> {
    (prop::collection::vec(op(), 2..4), any::<bool>())
}

fn check_model<M: MemoryModel>(p: &Program, model: &M, seed: u64) -> Result<(), TestCaseError> {
    let cycles = predict(
        p,
        &PredictOptions {
            runs: 30,
            seed,
            ..PredictOptions::default()
        },
    );
    let report = confirm(p, model, &cycles, 10, seed);
    for c in &report.cycles {
        let gt = ground_truth(p, model, &c.cycle, &ExploreOptions::default());
        prop_assert!(gt.complete && gt.exact);
        prop_assert!(
            c.created == 0 || gt.feasible,
            "{} {}: confirmed, infeasible",
            model.name(),
            c.cycle.describe()
        );
        prop_assert!(
            c.buggy == 0 || gt.buggy,
            "{} {}: buggy trial, no buggy run",
            model.name(),
            c.cycle.describe()
        );
        prop_assert!(!gt.buggy || gt.feasible);
        prop_assert!(!ground_truth(p, &Sc, &c.cycle, &ExploreOptions::default()).feasible);
    }
    // Every execution of a non-SC outcome violates SC: its witness too.
    let sc = explore(p, &Sc, &ExploreOptions::default());
    let mut table = explore(p, model, &ExploreOptions::default());
    mark_non_sc(&mut table, &sc);
    for row in table.rows.iter().filter(|r| r.non_sc) {
        let w = row
            .witness
            .as_ref()
            .expect("exhaustive rows have witnesses");
        prop_assert!(
            sc_violation(p, w).is_some(),
            "{} {:?}",
            model.name(),
            row.values
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn confirmed_cycles_are_feasible_and_sc_has_none(a in thread_code(), b in thread_code(), seed in 0u64..1000) {
        let p = build(&[a, b]);
        check_model(&p, &Tso, seed)?;
        check_model(&p, &Pso, seed)?;
        check_model(&p, &Pslo, seed)?;
    }
}
