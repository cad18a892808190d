//! `predict_exhaustive` (RELAXER Phase I over every SC execution) against a
//! brute-force enumeration of every SC interleaving, and against the
//! sampled prediction.

use std::collections::BTreeSet;

use crate::relaxer_support::{br, dekker, fig1, fig2, ld, program, reg, st, thread, Line};
use proptest::prelude::*;
use relaxlab_semantics::analyses::relaxer::predict::predict_from_trace;
use relaxlab_semantics::analyses::relaxer::{
    predict, predict_exhaustive, ExhaustivePrediction, PredictOptions, PredictedCycle,
};
use relaxlab_semantics::ir::{
    Expr, Instr, InstrId, LocId, Program, ReadOrd, RegId, RmwOp, RmwOrd, ThreadId, Value,
};
use relaxlab_semantics::model::EventKind;
use relaxlab_semantics::operational::ExploreOptions;
use relaxlab_semantics::outcome::{Trace, TraceStep};

// ---------------------------------------------------------------------
// Brute force: every SC interleaving of a loop-free program, by a small
// interpreter of its own (loads, stores, fetch-add, CAS, branches).
// ---------------------------------------------------------------------

/// One thread of the brute-force interpreter.
#[derive(Clone, Debug)]
struct BfThread {
    pc: usize,
    regs: Vec<Value>,
}

fn eval(e: &Expr, regs: &[Value]) -> Value {
    match e {
        Expr::Const(v) => *v,
        Expr::Reg(r) => regs[r.index()],
        other => panic!("the brute force evaluates constants and registers, not {other:?}"),
    }
}

/// Where a thread stands after its local instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    Access,
    Finished,
    /// A failed `assert`: the whole execution ends.
    Failed,
}

/// Runs thread `t`'s local instructions.
fn settle(p: &Program, t: usize, th: &mut BfThread) -> At {
    loop {
        match &p.threads[t].code[th.pc].instr {
            Instr::Branch { cond, target } => {
                th.pc = if eval(cond, &th.regs) == 0 {
                    target.index()
                } else {
                    th.pc + 1
                };
            }
            Instr::Jump { target } => th.pc = target.index(),
            Instr::Assert { cond } if eval(cond, &th.regs) == 0 => return At::Failed,
            Instr::Assert { .. } => th.pc += 1,
            Instr::End => return At::Finished,
            Instr::Load { .. } | Instr::Store { .. } | Instr::Rmw { .. } | Instr::Cas { .. } => {
                return At::Access
            }
            other => panic!("the brute force runs no {other:?}"),
        }
    }
}

/// Performs the access thread `t` stands at under SC; its trace step.
fn access(p: &Program, t: usize, th: &mut BfThread, mem: &mut [Value]) -> TraceStep {
    let pc = th.pc;
    let kind = match &p.threads[t].code[pc].instr {
        Instr::Load { dst, loc, .. } => {
            th.regs[dst.index()] = mem[loc.index()];
            EventKind::Read {
                loc: *loc,
                value: mem[loc.index()],
                older: 0,
            }
        }
        Instr::Store { loc, val, .. } => {
            let v = eval(val, &th.regs);
            mem[loc.index()] = v;
            EventKind::Write {
                loc: *loc,
                value: v,
                newer: 0,
            }
        }
        Instr::Rmw {
            dst, loc, operand, ..
        } => {
            let old = mem[loc.index()];
            let new = old + eval(operand, &th.regs);
            mem[loc.index()] = new;
            th.regs[dst.index()] = old;
            EventKind::Update {
                loc: *loc,
                read: old,
                wrote: Some(new),
                older: 0,
            }
        }
        Instr::Cas {
            dst,
            loc,
            expected,
            desired,
            ..
        } => {
            let old = mem[loc.index()];
            th.regs[dst.index()] = old;
            let wrote = (old == eval(expected, &th.regs)).then(|| eval(desired, &th.regs));
            if let Some(v) = wrote {
                mem[loc.index()] = v;
            }
            EventKind::Update {
                loc: *loc,
                read: old,
                wrote,
                older: 0,
            }
        }
        other => panic!("not an access: {other:?}"),
    };
    th.pc += 1;
    TraceStep {
        thread: ThreadId::new(t),
        instr: Some(InstrId::new(pc)),
        event: Some(kind),
    }
}

/// Every complete SC trace from the given state: the union of their
/// predicted cycles; `traces` counts them.
fn enumerate(
    p: &Program,
    threads: &[BfThread],
    mem: &[Value],
    steps: &mut Vec<TraceStep>,
    length: usize,
    out: &mut BTreeSet<PredictedCycle>,
    traces: &mut u64,
) {
    let mut ths = threads.to_vec();
    let at: Vec<At> = (0..ths.len()).map(|t| settle(p, t, &mut ths[t])).collect();
    let mut moved = false;
    for t in 0..threads.len() {
        if at.contains(&At::Failed) || at[t] != At::Access {
            continue;
        }
        moved = true;
        let mut ths = ths.clone();
        let mut mem = mem.to_vec();
        let step = access(p, t, &mut ths[t], &mut mem);
        steps.push(step);
        enumerate(p, &ths, &mem, steps, length, out, traces);
        steps.pop();
    }
    if !moved {
        *traces += 1;
        let trace = Trace {
            steps: steps.clone(),
        };
        out.extend(predict_from_trace(p, &trace, length));
    }
}

/// The union of the cycles of every SC trace of a loop-free program.
fn brute_force(p: &Program, length: usize) -> (Vec<PredictedCycle>, u64) {
    let threads: Vec<BfThread> = p
        .threads
        .iter()
        .map(|t| BfThread {
            pc: 0,
            regs: vec![0; t.regs.len()],
        })
        .collect();
    let mem: Vec<Value> = p.locations.iter().map(|l| l.init).collect();
    let (mut out, mut traces) = (BTreeSet::new(), 0);
    enumerate(
        p,
        &threads,
        &mem,
        &mut vec![],
        length,
        &mut out,
        &mut traces,
    );
    (out.into_iter().collect(), traces)
}

fn exhaustive(p: &Program, length: usize) -> ExhaustivePrediction {
    predict_exhaustive(p, length, &ExploreOptions::default())
}

fn labels(cycles: &[PredictedCycle]) -> Vec<Vec<u32>> {
    cycles.iter().map(PredictedCycle::labels).collect()
}

// ---------------------------------------------------------------------
// Random loop-free programs.
// ---------------------------------------------------------------------

/// An operation of a random thread (two locations, one register `r`).
#[derive(Clone, Copy, Debug)]
enum Op {
    Store(u32, Value),
    Load(u32),
    /// `r = fetch_add(loc, 1)`.
    Faa(u32),
    /// `r = cas(loc, 0, 1)`.
    Cas(u32),
    /// `if (r == 0) skip the next operation`.
    SkipIfZero,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0u32..2, 1i64..3).prop_map(|(l, v)| Op::Store(l, v)),
        3 => (0u32..2).prop_map(Op::Load),
        1 => (0u32..2).prop_map(Op::Faa),
        1 => (0u32..2).prop_map(Op::Cas),
        1 => Just(Op::SkipIfZero),
    ]
}

fn line_of(t: usize, i: usize, ops: &[Op]) -> Line {
    let line = 10 * t as u32 + i as u32 + 1;
    let r = RegId(0);
    match ops[i] {
        Op::Store(l, v) => st(line, l, v, "store"),
        Op::Load(l) => ld(line, 0, l, "load"),
        Op::Faa(l) => (
            line,
            Instr::Rmw {
                dst: r,
                loc: LocId(l),
                op: RmwOp::Add,
                operand: Expr::Const(1),
                ord: RmwOrd::Rlx,
            },
            "faa",
        ),
        Op::Cas(l) => (
            line,
            Instr::Cas {
                dst: r,
                loc: LocId(l),
                expected: Expr::Const(0),
                desired: Expr::Const(1),
                ord: RmwOrd::Rlx,
                weak: false,
                ok: None,
                fail: ReadOrd::Rlx,
            },
            "cas",
        ),
        // Instruction `i + 2` is the one after the next (or the `end`).
        Op::SkipIfZero => br(line, reg(0), (i + 2).min(ops.len()) as u32, "if (r)"),
    }
}

fn build(threads: &[Vec<Op>]) -> Program {
    let code = threads
        .iter()
        .enumerate()
        .map(|(t, ops)| {
            let lines = (0..ops.len()).map(|i| line_of(t, i, ops)).collect();
            thread(&format!("P{t}"), &["r"], lines)
        })
        .collect();
    program("random", &["x", "y"], code)
}

fn threads(n: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Vec<Op>>> {
    prop::collection::vec(prop::collection::vec(op(), 1..4), n)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Two or three threads: exactly the union over every SC trace.
    #[test]
    fn exhaustive_is_the_union_over_every_sc_trace(ts in threads(2..4)) {
        let p = build(&ts);
        for length in [4, 6] {
            let got = exhaustive(&p, length);
            let (want, traces) = brute_force(&p, length);
            prop_assert!(traces > 0);
            prop_assert!(got.complete);
            prop_assert_eq!(labels(&got.cycles), labels(&want));
            prop_assert_eq!(&got.cycles, &want);
        }
    }

    /// The sampled prediction never finds more, whatever the seed.
    #[test]
    fn exhaustive_contains_every_sampled_prediction(ts in threads(2..4), seed in 0u64..1000) {
        let p = build(&ts);
        let all: BTreeSet<PredictedCycle> = exhaustive(&p, 4).cycles.into_iter().collect();
        let sampled = predict(&p, &PredictOptions { runs: 20, seed, ..PredictOptions::default() });
        for c in &sampled {
            prop_assert!(all.contains(c), "{} sampled, not exhaustive", c.describe());
        }
    }
}

// ---------------------------------------------------------------------
// The paper's figures.
// ---------------------------------------------------------------------

#[test]
fn fig1_and_fig2_give_the_papers_cycles() {
    assert_eq!(
        labels(&exhaustive(&fig1(), 4).cycles),
        vec![vec![1, 2, 3, 4]]
    );
    // Sec. 3.1 lists exactly (1, 3, 4, 5) and (2, 3, 4, 7) for Fig. 2.
    let p = fig2();
    let got = exhaustive(&p, 4);
    assert!(got.complete);
    assert_eq!(
        labels(&got.cycles),
        vec![vec![1, 3, 4, 5], vec![2, 3, 4, 7]]
    );
    assert_eq!(got.cycles, brute_force(&p, 4).0);
    // Two threads make no cycle of six events.
    assert!(exhaustive(&p, 6).cycles.is_empty());
}

/// A program whose only cycle needs one rare interleaving: the first
/// thread reaches its load of `y` only if it read `z = 1`, which the second
/// thread writes last.
#[test]
fn a_cycle_on_a_rare_path_is_found() {
    let (x, y, z) = (0, 1, 2);
    let p = program(
        "rare",
        &["x", "y", "z"],
        vec![
            thread(
                "P0",
                &["r", "s"],
                vec![
                    ld(1, 0, z, "r = z"),
                    br(2, reg(0), 4, "if (r)"),
                    st(3, x, 1, "x = 1"),
                    ld(4, 1, y, "s = y"),
                ],
            ),
            thread(
                "P1",
                &["t"],
                vec![
                    st(11, y, 1, "y = 1"),
                    ld(12, 0, x, "t = x"),
                    st(13, z, 1, "z = 1"),
                ],
            ),
        ],
    );
    let got = exhaustive(&p, 4);
    let (want, _) = brute_force(&p, 4);
    assert_eq!(got.cycles, want);
    assert!(
        labels(&got.cycles).contains(&vec![3, 4, 11, 12]),
        "{:?}",
        labels(&got.cycles)
    );
}

/// Dekker (Fig. 11) has spin loops: no brute force, but the result
/// contains every sampled prediction and the store-load cycle of Sec. 5.4.
#[test]
fn dekker_with_loops_contains_the_sampled_predictions() {
    let p = dekker(1, false);
    let got = exhaustive(&p, 4);
    assert!(got.complete);
    let all: BTreeSet<&PredictedCycle> = got.cycles.iter().collect();
    for seed in 0..5 {
        for c in predict(
            &p,
            &PredictOptions {
                runs: 50,
                seed,
                ..PredictOptions::default()
            },
        ) {
            assert!(all.contains(&c), "{} sampled, not exhaustive", c.describe());
        }
    }
    assert!(labels(&got.cycles).contains(&vec![1, 2, 11, 12]));
}

#[test]
fn the_state_bound_gives_a_flagged_subset_independent_of_workers() {
    let p = dekker(2, false);
    let full = exhaustive(&p, 4);
    assert!(full.complete);
    let opts = ExploreOptions {
        max_states: 200,
        ..ExploreOptions::default()
    };
    let cut = |jobs: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .unwrap()
            .install(|| predict_exhaustive(&p, 4, &opts))
    };
    let one = cut(1);
    assert!(!one.complete);
    assert_eq!(one.states, 200);
    assert!(one.cycles.len() < full.cycles.len());
    assert!(one.cycles.iter().all(|c| full.cycles.contains(c)));
    assert_eq!(one, cut(2));
}
