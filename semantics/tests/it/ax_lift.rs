//! The lift of operational traces to axiomatic executions
//! (`axiomatic::lift`, TSAN11 Sec. 6.1).
//!
//! Property: on random loop-free programs, for every operational model and
//! every outcome row of its exhaustive exploration, the row's witness
//! lifts to an execution that has the row's outcome, is accepted by the
//! twin axiomatic model (operational ⊆ axiomatic holds for every pair), and
//! is, edge for edge, one of the consistent executions the axiomatic engine
//! enumerates itself. By hand: traces the twin rejects name the axiom.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use crate::ax_builder::*;
use relaxlab_semantics::axiomatic::{
    lift, twin, visit_consistent, AxOptions, CoSource, EventKind, Execution, ExecutionEnd,
    LiftError,
};
use relaxlab_semantics::ir::{
    HwFence, InstrId, LocId, Observable, OpModel, Program, ReadOrd, ThreadId, Value, WriteOrd,
};
use relaxlab_semantics::mapping::Mapping;
use relaxlab_semantics::model::EventKind as Step;
use relaxlab_semantics::operational::{explore_model, program_for_model, ExploreOptions};
use relaxlab_semantics::outcome::{OutcomeTable, Trace, TraceStep};

/// Programs per model: 60 in release builds, 25 in debug builds;
/// `RELAXLAB_LIFT_PROGRAMS=N` overrides it.
fn programs() -> usize {
    std::env::var("RELAXLAB_LIFT_PROGRAMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 25 } else { 60 })
}

/// The program `model` runs (the explorers compile the hardware models').
fn ran(p: &Program, model: OpModel) -> Program {
    program_for_model(p, model, Mapping::Standard).into_owned()
}

fn explore_op(p: &Program, model: OpModel) -> OutcomeTable {
    explore_model(p, model, &ExploreOptions::default())
}

/// Do two executions agree on everything both engines build (the SC
/// order is the lift's or the checker's choice)?
fn same_edges(a: &Execution, b: &Execution) -> bool {
    (&a.events, &a.po, &a.asw, &a.rf, &a.co, &a.rmw)
        == (&b.events, &b.po, &b.asw, &b.rf, &b.co, &b.rmw)
}

/// A hash of what [`same_edges`] compares, and the outcome.
fn key(ex: &Execution, values: &[Value]) -> u64 {
    let mut h = DefaultHasher::new();
    (&ex.events, &ex.po, &ex.asw, &ex.rf, &ex.co, &ex.rmw, values).hash(&mut h);
    h.finish()
}

/// Checks every witness of `model` on random programs; returns how many
/// witnesses were lifted, and how many programs were beyond the
/// axiomatic engine's bound.
fn check_model(model: OpModel, seed: u64, hw_fences: bool) -> (usize, usize) {
    let mut rng = Rng(seed);
    let mut lifted = 0;
    let mut skipped = 0;
    for _ in 0..programs() {
        let p = random_program(&mut rng, hw_fences);
        let table = explore_op(&p, model);
        assert!(table.complete(), "{}: bound hit", model.name());
        let program = ran(&p, model);
        let mut lifts: HashMap<u64, Vec<(Execution, Vec<Value>)>> = HashMap::new();
        for row in &table.rows {
            let witness = row
                .witness
                .as_ref()
                .expect("exhaustive rows have witnesses");
            let l = lift(&program, model, witness).unwrap_or_else(|e| {
                panic!("{}: {e}\n{}", model.name(), describe(&p));
            });
            assert_eq!(
                l.outcome.as_ref(),
                Some(&row.values),
                "{}: lifted outcome\n{}",
                model.name(),
                describe(&p)
            );
            if model == OpModel::C11t {
                // c11t's trace fixes only the last store of each location:
                // the lift searches the rest and must find an accepted order.
                assert!(
                    matches!(l.co, CoSource::Searched { accepted: true, .. }),
                    "c11t: {:?}\n{}",
                    l.co,
                    describe(&p)
                );
            } else {
                assert_eq!(l.co, CoSource::Trace);
            }
            if let Err(r) = &l.verdict {
                panic!(
                    "{}: ax.{} rejects the lift of the witness of {:?}: {r}\n{}\n{:?}",
                    model.name(),
                    twin(model).name(),
                    row.values,
                    describe(&p),
                    witness
                );
            }
            lifts
                .entry(key(&l.execution, &row.values))
                .or_default()
                .push((l.execution, row.values.clone()));
            lifted += 1;
        }
        // Each lift must be one of the axiomatic engine's own executions,
        // unless a bound cut them short (rare random programs with many
        // paths; ax_differential.rs skips them too).
        let mut found = 0usize;
        let summary =
            visit_consistent(&p, twin(model), &AxOptions::default(), &mut |ex, end, _| {
                let ExecutionEnd::Outcome(v) = end else {
                    return;
                };
                if let Some(list) = lifts.get_mut(&key(ex, v)) {
                    let before = list.len();
                    list.retain(|(l, lv)| !(lv == v && same_edges(l, ex)));
                    found += before - list.len();
                }
            })
            .expect("a loop-free program");
        if !summary.bounds.is_empty() {
            skipped += 1;
            continue;
        }
        let missing: Vec<&(Execution, Vec<Value>)> = lifts.values().flatten().collect();
        assert!(
            missing.is_empty(),
            "{}: {} lifts are not among ax.{}'s executions ({found} are), e.g. {:?}\n{}",
            model.name(),
            missing.len(),
            twin(model).name(),
            missing.first().map(|(ex, v)| (v, ex)),
            describe(&p)
        );
    }
    (lifted, skipped)
}

/// Runs [`check_model`] and reports; programs beyond the axiomatic bound
/// must stay rare (at most 1 in 20).
fn check_and_report(model: OpModel, seed: u64, hw_fences: bool) {
    let (lifted, skipped) = check_model(model, seed, hw_fences);
    eprintln!(
        "{}: {} programs, {lifted} witnesses lifted, {skipped} programs beyond the axiomatic bound",
        model.name(),
        programs()
    );
    assert!(lifted >= programs());
    assert!(
        skipped * 20 <= programs(),
        "{skipped} programs beyond the bound"
    );
}

#[test]
fn sc_witnesses_lift_to_consistent_executions() {
    check_and_report(OpModel::Sc, 0x11f7_0000_0000_0001, true);
}

#[test]
fn tso_witnesses_lift_to_consistent_executions() {
    check_and_report(OpModel::Tso, 0x11f7_0000_0000_0002, true);
}

#[test]
fn pso_witnesses_lift_to_consistent_executions() {
    check_and_report(OpModel::Pso, 0x11f7_0000_0000_0003, true);
}

#[test]
fn pslo_witnesses_lift_to_consistent_executions() {
    check_and_report(OpModel::Pslo, 0x11f7_0000_0000_0004, true);
}

#[test]
fn c11r_witnesses_lift_to_consistent_executions() {
    check_and_report(OpModel::C11r, 0x11f7_0000_0000_0005, false);
}

#[test]
fn c11t_witnesses_lift_to_consistent_executions() {
    check_and_report(OpModel::C11t, 0x11f7_0000_0000_0006, false);
}

// ---------------------------------------------------------------------
// Hand-made traces.

fn memory(thread: usize, instr: usize, event: Step) -> TraceStep {
    TraceStep {
        thread: ThreadId::new(thread),
        instr: Some(InstrId::new(instr)),
        event: Some(event),
    }
}

fn sync(thread: usize, instr: usize) -> TraceStep {
    memory(thread, instr, Step::Sync)
}

fn commit(thread: usize, loc: usize, value: Value) -> TraceStep {
    TraceStep {
        thread: ThreadId::new(thread),
        instr: None,
        event: Some(Step::Commit {
            thread: ThreadId::new(thread),
            loc: LocId::new(loc),
            value,
        }),
    }
}

fn read(loc: usize, value: Value, older: u32) -> Step {
    Step::Read {
        loc: LocId::new(loc),
        value,
        older,
    }
}

fn write(loc: usize, value: Value) -> Step {
    Step::Write {
        loc: LocId::new(loc),
        value,
        newer: 0,
    }
}

/// MP with `ss` and `ll` barriers: `P0: x=1; ss; y=1 || P1: r0=y; ll; r1=x`.
fn mp_fenced() -> Program {
    program("MP+ss+ll", &["x", "y"])
        .thread("P0", |t| {
            t.store("x", 1, WriteOrd::Rlx)
                .fence(hw(HwFence::SS))
                .store("y", 1, WriteOrd::Rlx);
        })
        .thread("P1", |t| {
            t.load("r0", "y", ReadOrd::Rlx)
                .fence(hw(HwFence::LL))
                .load("r1", "x", ReadOrd::Rlx);
        })
        .exists(&[("P1", "r0", 1), ("P1", "r1", 0)])
}

/// A PSLO run of [`mp_fenced`]: P0 stores and commits `x` and `y`, P1
/// reads `y = 1`, passes its `ll` and reads `x`: the stale init value
/// (one history entry back) when `stale`, else memory's `x = 1`.
fn mp_fenced_trace(stale: bool) -> Trace {
    let last_read = if stale { read(0, 0, 1) } else { read(0, 1, 0) };
    Trace {
        steps: vec![
            memory(0, 0, write(0, 1)),
            commit(0, 0, 1),
            sync(0, 1),
            memory(0, 2, write(1, 1)),
            commit(0, 1, 1),
            memory(1, 0, read(1, 1, 0)),
            sync(1, 1),
            memory(1, 2, last_read),
            sync(0, 3),
            sync(1, 3),
        ],
    }
}

/// A PSLO trace the model cannot produce (its `ll` resets the history, so
/// `r1` cannot take the stale `x = 0`), written by hand: the lift names the
/// `pslo` axiom and a cycle through both threads.
#[test]
fn a_stale_read_past_an_ll_barrier_breaks_the_pslo_axiom() {
    let l = lift(&mp_fenced(), OpModel::Pslo, &mp_fenced_trace(true)).unwrap();
    assert_eq!(l.outcome, Some(vec![1, 0]));
    let rejection = l.verdict.expect_err("ax.pslo must reject the stale read");
    assert_eq!(rejection.axiom, "pslo");
    let threads: Vec<_> = rejection
        .cycle
        .iter()
        .map(|e| l.execution.events[e.index()].thread)
        .collect();
    assert!(threads.contains(&Some(ThreadId::new(0))), "{rejection}");
    assert!(threads.contains(&Some(ThreadId::new(1))), "{rejection}");
    // The stale read took the init write: rf from event 0 (x's init).
    let r1 = l
        .execution
        .events
        .iter()
        .rposition(|e| matches!(e.kind, EventKind::Read { .. }))
        .unwrap();
    assert!(l
        .execution
        .rf
        .pairs()
        .any(|(w, r)| w.index() == 0 && r.index() == r1));
}

/// The same trace without the stale read (it reads `x = 1` from memory)
/// is accepted, with `co` in commit order.
#[test]
fn the_fresh_read_is_consistent_under_pslo() {
    let l = lift(&mp_fenced(), OpModel::Pslo, &mp_fenced_trace(false)).unwrap();
    assert_eq!(l.outcome, Some(vec![1, 1]));
    assert_eq!(l.verdict, Ok(()));
}

/// PSLO merges equal consecutive values of a history: `P0: x=1; x=1 ||
/// P1: r0=x` with both stores committed leaves P1 the history `[0, 1]`,
/// the 1 standing for both stores. Reading it (`older = 0`) takes the
/// newest store of the run; one entry back (`older = 1`) is the init.
#[test]
fn pslo_reads_take_the_newest_write_of_a_merged_run() {
    let p = program("run", &["x"])
        .thread("P0", |t| {
            t.store("x", 1, WriteOrd::Rlx).store("x", 1, WriteOrd::Rlx);
        })
        .thread("P1", |t| {
            t.load("r0", "x", ReadOrd::Rlx);
        })
        .exists(&[("P1", "r0", 1)]);
    let steps = |older_init: bool| Trace {
        steps: vec![
            memory(0, 0, write(0, 1)),
            commit(0, 0, 1),
            memory(0, 1, write(0, 1)),
            commit(0, 0, 1),
            memory(
                1,
                0,
                read(0, if older_init { 0 } else { 1 }, u32::from(older_init)),
            ),
            sync(0, 2),
            sync(1, 1),
        ],
    };
    let l = lift(&p, OpModel::Pslo, &steps(false)).unwrap();
    // Events: init x (0), P0's stores (1, 2), P1's load (3).
    assert!(l.execution.rf.pairs().any(|(w, r)| (w.0, r.0) == (2, 3)));
    assert_eq!(l.verdict, Ok(()));
    let l = lift(&p, OpModel::Pslo, &steps(true)).unwrap();
    assert!(l.execution.rf.pairs().any(|(w, r)| (w.0, r.0) == (0, 3)));
    assert_eq!(l.verdict, Ok(()));
}

/// 2+2W with relaxed stores under `c11t`: performance order would put
/// `x = 2` last, but the `Settle` steps say both locations end with 1, so
/// the lift searches `co` and finds the order `ax.c11t` accepts.
#[test]
fn c11t_settle_steps_choose_the_modification_order() {
    let p = program("2+2W", &["x", "y"])
        .thread("P0", |t| {
            t.store("x", 1, WriteOrd::Rlx).store("y", 2, WriteOrd::Rlx);
        })
        .thread("P1", |t| {
            t.store("y", 1, WriteOrd::Rlx).store("x", 2, WriteOrd::Rlx);
        })
        .exists(&[]);
    let p = Program {
        observed: vec![
            Observable::Loc(LocId::new(0)),
            Observable::Loc(LocId::new(1)),
        ],
        ..p
    };
    let settle = |loc: usize, value: Value| TraceStep {
        thread: ThreadId::new(0),
        instr: None,
        event: Some(Step::Settle {
            loc: LocId::new(loc),
            value,
        }),
    };
    let trace = Trace {
        steps: vec![
            memory(0, 0, write(0, 1)),
            memory(0, 1, write(1, 2)),
            memory(1, 0, write(1, 1)),
            memory(1, 1, write(0, 2)),
            sync(0, 2),
            sync(1, 2),
            settle(0, 1),
            settle(1, 1),
        ],
    };
    let l = lift(&p, OpModel::C11t, &trace).unwrap();
    assert_eq!(l.outcome, Some(vec![1, 1]));
    assert_eq!(
        l.co,
        CoSource::Searched {
            tried: 1,
            accepted: true
        }
    );
    assert_eq!(l.verdict, Ok(()));
    // Events: init x (0), init y (1), P0: x=1 (2), y=2 (3), P1: y=1 (4),
    // x=2 (5). co: x=2 before x=1, y=2 before y=1.
    assert!(l.execution.co.pairs().any(|(a, b)| (a.0, b.0) == (5, 2)));
    assert!(l.execution.co.pairs().any(|(a, b)| (a.0, b.0) == (3, 4)));
}

/// CoRR broken by hand under `c11t`: `P0: x=1; x=2 || P1: r0=x; r1=x`
/// with `r0` reading 2 and `r1` then the older 1. No modification order
/// helps (program order fixes it), so the search keeps the first order
/// and reports the coherence axiom.
#[test]
fn c11t_search_reports_the_axiom_when_no_order_is_accepted() {
    let p = program("CoRR", &["x"])
        .thread("P0", |t| {
            t.store("x", 1, WriteOrd::Rlx).store("x", 2, WriteOrd::Rlx);
        })
        .thread("P1", |t| {
            t.load("r0", "x", ReadOrd::Rlx)
                .load("r1", "x", ReadOrd::Rlx);
        })
        .exists(&[]);
    let trace = Trace {
        steps: vec![
            memory(0, 0, write(0, 1)),
            memory(0, 1, write(0, 2)),
            memory(1, 0, read(0, 2, 0)),
            memory(1, 1, read(0, 1, 1)),
            sync(0, 2),
            sync(1, 2),
        ],
    };
    let l = lift(&p, OpModel::C11t, &trace).unwrap();
    assert_eq!(
        l.co,
        CoSource::Searched {
            tried: 1,
            accepted: false
        }
    );
    assert_eq!(l.verdict.expect_err("CoRR").axiom, "coherence");
}

/// A trace of another program does not lift: the error names the step.
#[test]
fn a_trace_of_another_program_is_a_mismatch() {
    let p = mp_fenced();
    let trace = Trace {
        steps: vec![memory(0, 0, read(0, 0, 0))],
    };
    match lift(&p, OpModel::Sc, &trace) {
        Err(LiftError::Mismatch { step: 0, .. }) => {}
        other => panic!("{other:?}"),
    }
    // A read of a value no store wrote.
    let trace = Trace {
        steps: vec![memory(1, 0, read(1, 7, 0))],
    };
    assert!(matches!(
        lift(&p, OpModel::Sc, &trace),
        Err(LiftError::Mismatch { step: 0, .. })
    ));
}
