//! Property: on random loop-free programs without `ss` barriers, every
//! outcome of a stronger hardware model is an outcome of each weaker one:
//! SC ⊆ TSO ⊆ PSO ⊆ PSLO. (`ss` is excluded because RELAXER's PSO `ss`
//! drains every buffer while TSO's is a no-op; book: model-pso.md, Rules (RELAXER Fig. 5).) Also:
//! exploring twice gives the same table, and every witness reaches its row.

use std::collections::BTreeSet;

use crate::op_util::*;
use proptest::prelude::*;
use relaxlab_semantics::ir::*;
use relaxlab_semantics::mapping::Mapping;
use relaxlab_semantics::model::MemoryModel;
use relaxlab_semantics::models::{Pslo, Pso, Sc, Tso};
use relaxlab_semantics::operational::{explore, program_for, ExploreOptions};

#[derive(Clone, Debug)]
enum Op {
    Ld(u32),
    St(u32, Value),
    Add(u32),
    Cas(u32, Value, Value),
    Fence(HwFence),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..2u32).prop_map(Op::Ld),
        4 => (0..2u32, 1..3i64).prop_map(|(l, v)| Op::St(l, v)),
        1 => (0..2u32).prop_map(Op::Add),
        1 => (0..2u32, 0..2i64, 1..3i64).prop_map(|(l, e, d)| Op::Cas(l, e, d)),
        1 => prop_oneof![Just(HwFence::SL), Just(HwFence::Full), Just(HwFence::LL), Just(HwFence::LS)]
            .prop_map(Op::Fence),
    ]
}

fn build(threads: &[Vec<Op>]) -> Program {
    let ts = threads
        .iter()
        .enumerate()
        .map(|(i, ops)| {
            let mut t = T::new(&format!("P{i}"));
            for (k, o) in ops.iter().enumerate() {
                let r = format!("r{k}");
                t = match *o {
                    Op::Ld(l) => t.ld(&r, l, ReadOrd::Rlx),
                    Op::St(l, v) => t.st(l, v, WriteOrd::Rlx),
                    Op::Add(l) => t.rmw(&r, l, RmwOp::Add, 1, RmwOrd::Rlx),
                    Op::Cas(l, e, d) => {
                        let dst = t.reg(&r);
                        t.push(
                            Instr::Cas {
                                dst,
                                loc: LocId(l),
                                expected: Expr::Const(e),
                                desired: Expr::Const(d),
                                ord: RmwOrd::Rlx,
                                weak: false,
                                ok: None,
                                fail: ReadOrd::Rlx,
                            },
                            "cas",
                        )
                    }
                    Op::Fence(f) => t.hw(f),
                };
            }
            t
        })
        .collect();
    let mut p = program(&["x", "y"], ts);
    for (t, th) in p.threads.iter().enumerate() {
        for r in 0..th.regs.len() {
            p.observed.push(reg(t as u32, r as u32));
        }
    }
    p.observed.push(loc(0));
    p.observed.push(loc(1));
    p
}

fn outcomes<M: MemoryModel>(p: &Program, m: &M) -> BTreeSet<Vec<Value>> {
    let o = ExploreOptions {
        mapping: Mapping::Plain,
        ..ExploreOptions::default()
    };
    let t = explore(p, m, &o);
    assert!(t.complete() && t.failures.is_empty());
    let prog = program_for(p, m, Mapping::Plain);
    for row in &t.rows {
        assert!(trace_reaches(
            &prog,
            row.witness.as_ref().expect("witness"),
            &row.values
        ));
    }
    assert_eq!(t, explore(p, m, &o), "exploration is deterministic");
    t.rows.into_iter().map(|r| r.values).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn stronger_models_have_fewer_outcomes(threads in prop::collection::vec(prop::collection::vec(op(), 1..4), 2..4)) {
        let p = build(&threads);
        let (sc, tso, pso, pslo) = (outcomes(&p, &Sc), outcomes(&p, &Tso), outcomes(&p, &Pso), outcomes(&p, &Pslo));
        prop_assert!(!sc.is_empty());
        prop_assert!(sc.is_subset(&tso), "sc ⊄ tso");
        prop_assert!(tso.is_subset(&pso), "tso ⊄ pso");
        prop_assert!(pso.is_subset(&pslo), "pso ⊄ pslo");
    }
}
