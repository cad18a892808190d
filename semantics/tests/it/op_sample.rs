//! Sampled exploration: reproducibility, replay, strategies, bounds.

use crate::op_util::*;
use relaxlab_semantics::ir::*;
use relaxlab_semantics::mapping::Mapping;
use relaxlab_semantics::model::MemoryModel;
use relaxlab_semantics::models::{Pslo, Pso, Sc, Tso};
use relaxlab_semantics::operational::{
    explore, replay, sample, ExploreOptions, SampleOptions, Strategy,
};
use relaxlab_semantics::outcome::{BoundHit, OutcomeTable};

fn opts(strategy: Strategy, runs: u64, seed: u64) -> SampleOptions {
    SampleOptions {
        runs,
        seed,
        strategy,
        max_steps: 10_000,
        mapping: Mapping::Standard,
        ..SampleOptions::default()
    }
}

const ALL: [Strategy; 3] = [Strategy::Uniform, Strategy::Delay, Strategy::Old];

fn in_pool(threads: usize, f: impl FnOnce() -> OutcomeTable + Send) -> OutcomeTable {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool")
        .install(f)
}

#[test]
fn same_seed_same_table_whatever_the_pool() {
    let p = iriw(None);
    for s in ALL {
        let o = opts(s, 300, 42);
        let a = in_pool(1, || sample(&p, &Pslo, &o));
        let b = in_pool(2, || sample(&p, &Pslo, &o));
        assert_eq!(a, b, "{s:?}");
        assert_eq!(a.rows.iter().map(|r| r.count).sum::<u64>(), 300);
        let c = sample(&p, &Pslo, &opts(s, 300, 43));
        assert_ne!(a.stats.transitions, 0);
        // Another seed draws other runs (the counts differ somewhere).
        assert_ne!(
            a.rows.iter().map(|r| r.count).collect::<Vec<_>>(),
            c.rows.iter().map(|r| r.count).collect::<Vec<_>>()
        );
    }
}

#[test]
fn replaying_every_index_gives_the_table() {
    let p = sb(WriteOrd::Rlx, ReadOrd::Rlx, None);
    for s in ALL {
        let o = opts(s, 200, 7);
        let table = sample(&p, &Tso, &o);
        let mut counts = std::collections::BTreeMap::new();
        for i in 0..o.runs {
            let (trace, values) = replay(&p, &Tso, &o, i).expect("index in range");
            let values = values.expect("SB always ends");
            assert!(trace_reaches(
                &relaxlab_semantics::operational::program_for(&p, &Tso, o.mapping),
                &trace,
                &values
            ));
            *counts.entry(values).or_insert(0u64) += 1;
        }
        let from_table: std::collections::BTreeMap<Vec<Value>, u64> = table
            .rows
            .iter()
            .map(|r| (r.values.clone(), r.count))
            .collect();
        assert_eq!(counts, from_table, "{s:?}");
        // A row's witness is the trace of the first run reaching it.
        for row in &table.rows {
            assert!(trace_reaches(
                &relaxlab_semantics::operational::program_for(&p, &Tso, o.mapping),
                row.witness.as_ref().unwrap(),
                &row.values
            ));
        }
        assert!(replay(&p, &Tso, &o, o.runs).is_none());
    }
}

/// Sampled outcomes are outcomes of the exhaustive search, and with enough
/// runs every strategy finds the weak outcome.
fn finds<M: MemoryModel>(p: &Program, m: &M, strategy: Strategy) -> bool {
    let all = explore(p, m, &ExploreOptions::default());
    let t = sample(p, m, &opts(strategy, 2000, 1));
    for row in &t.rows {
        assert!(
            all.rows.iter().any(|r| r.values == row.values),
            "{:?} not in the exhaustive table",
            row.values
        );
    }
    t.rows.iter().any(|r| r.satisfies == Some(true))
}

#[test]
fn every_strategy_finds_the_weak_outcomes() {
    for s in ALL {
        assert!(
            finds(&sb(WriteOrd::Rlx, ReadOrd::Rlx, None), &Tso, s),
            "SB tso {s:?}"
        );
        assert!(finds(&mp(None, None), &Pso, s), "MP pso {s:?}");
        assert!(finds(&w22(), &Pso, s), "2+2W pso {s:?}");
        assert!(finds(&iriw(None), &Pslo, s), "IRIW pslo {s:?}");
        assert!(
            !finds(&sb(WriteOrd::Rlx, ReadOrd::Rlx, None), &Sc, s),
            "SB sc {s:?}"
        );
    }
}

#[test]
fn delay_finds_sb_more_often_than_uniform() {
    // RELAXER's point: delaying commits makes store buffering likely.
    let p = sb(WriteOrd::Rlx, ReadOrd::Rlx, None);
    let weak = |s| {
        let t = sample(&p, &Tso, &opts(s, 2000, 3));
        t.rows
            .iter()
            .filter(|r| r.satisfies == Some(true))
            .map(|r| r.count)
            .sum::<u64>()
    };
    let (d, u) = (weak(Strategy::Delay), weak(Strategy::Uniform));
    assert!(d > u, "delay {d} uniform {u}");
}

#[test]
fn old_prefers_old_history_values() {
    // P0: x = 1; x = 2 || P1: d = y (4 times); r0 = x. Once both stores
    // are committed, P1's PSLO history of x is [0, 1, 2]: Old reads 0 with
    // probability 1/2, Uniform with 1/3. The loads of y make it likely
    // that both stores are committed by then.
    let p0 = T::new("P0").st(X, 1, WriteOrd::Rlx).st(X, 2, WriteOrd::Rlx);
    let mut p1 = T::new("P1");
    for _ in 0..4 {
        p1 = p1.ld("d", Y, ReadOrd::Rlx);
    }
    let mut p = program(&["x", "y"], vec![p0, p1.ld("r0", X, ReadOrd::Rlx)]);
    p.observed = vec![reg(1, 1)];
    let zeros = |s| {
        let t = sample(&p, &Pslo, &opts(s, 4000, 5));
        t.rows
            .iter()
            .filter(|r| r.values[0] == 0)
            .map(|r| r.count)
            .sum::<u64>()
    };
    let (o, u) = (zeros(Strategy::Old), zeros(Strategy::Uniform));
    assert!(o > u, "old {o} uniform {u}");
}

#[test]
fn the_step_bound_is_reported() {
    // P0: do { r0 = x } while (r0 == 0); nobody sets x.
    let mut t = T::new("P0").ld("r0", X, ReadOrd::Rlx);
    let r0 = t.reg("r0");
    let not_r0 = Expr::Unary(UnOp::Not, Box::new(Expr::Reg(r0)));
    // Branch jumps when its condition is zero: when !r0 == 0, r0 != 0, exit.
    let t = t
        .push(
            Instr::Branch {
                cond: not_r0,
                target: InstrId(3),
            },
            "while (r0 == 0)",
        )
        .push(Instr::Jump { target: InstrId(0) }, "loop");
    let p = program(&["x"], vec![t]);
    let mut o = opts(Strategy::Uniform, 5, 0);
    o.max_steps = 100;
    let table = sample(&p, &Sc, &o);
    assert!(table.rows.is_empty());
    assert_eq!(
        table.bounds,
        vec![BoundHit::MaxSteps {
            bound: 100,
            runs: 5
        }]
    );
    // Exhaustively the spin is a cycle: no bound, no outcome, no failure.
    let all = explore(&p, &Sc, &ExploreOptions::default());
    assert!(all.complete() && all.rows.is_empty() && all.failures.is_empty());
}

#[test]
fn sampled_failures_are_counted_with_witnesses() {
    // Runs that livelock in the spin loops end at the step bound.
    let mut o = opts(Strategy::Delay, 200, 9);
    o.max_steps = 200;
    let t = sample(&dekker(false), &Tso, &o);
    assert!(!t.failures.is_empty());
    for f in &t.failures {
        assert!(f.count > 0);
        assert!(f.witness.as_ref().is_some_and(|w| !w.steps.is_empty()));
    }
    let sc = sample(&dekker(false), &Sc, &o);
    assert!(sc.failures.is_empty());
}
