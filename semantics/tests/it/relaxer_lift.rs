//! The lift of PSLO traces (`relaxer::lift`): the write each load read is
//! the entry of the thread's store history that the model read, as
//! the model keeps the histories (book: model-pslo.md, Rules (RELAXER Fig. 6)).
//! Each trace here is built by hand and
//! first replayed through the PSLO model (`replay_witness`), so it is one
//! the model makes.

use crate::relaxer_support::{fig1, ld, program, st, thread};
use relaxlab_semantics::analyses::relaxer::lift::{lift_exact, Access, LiftedEvent};
use relaxlab_semantics::analyses::relaxer::{creates, predict, PredictOptions};
use relaxlab_semantics::ir::{FenceKind, HwFence, Instr, InstrId, LocId, Program, ThreadId};
use relaxlab_semantics::ir::{RegId, ThreadKind};
use relaxlab_semantics::mapping::Mapping;
use relaxlab_semantics::model::EventKind;
use relaxlab_semantics::models::Pslo;
use relaxlab_semantics::operational::{program_for, replay_witness};
use relaxlab_semantics::outcome::{Trace, TraceStep};

/// A step of thread `t` at instruction `i`.
fn at(t: u32, i: u32, event: EventKind) -> TraceStep {
    TraceStep {
        thread: ThreadId(t),
        instr: Some(InstrId(i)),
        event: Some(event),
    }
}

fn write(t: u32, i: u32, loc: u32, value: i64) -> TraceStep {
    at(
        t,
        i,
        EventKind::Write {
            loc: LocId(loc),
            value,
            newer: 0,
        },
    )
}

fn read(t: u32, i: u32, loc: u32, value: i64, older: u32) -> TraceStep {
    at(
        t,
        i,
        EventKind::Read {
            loc: LocId(loc),
            value,
            older,
        },
    )
}

fn sync(t: u32, i: u32) -> TraceStep {
    at(t, i, EventKind::Sync)
}

/// The oldest buffered store of thread `t` to `loc` reaches memory.
fn commit(t: u32, loc: u32, value: i64) -> TraceStep {
    TraceStep {
        thread: ThreadId(t),
        instr: None,
        event: Some(EventKind::Commit {
            thread: ThreadId(t),
            loc: LocId(loc),
            value,
        }),
    }
}

/// Lifts `steps`, after checking that PSLO makes them and that the lift
/// placed every read where the trace says the model read it.
fn lifted(p: &Program, steps: Vec<TraceStep>) -> Vec<LiftedEvent> {
    let trace = Trace { steps };
    replay_witness(p, &Pslo, Mapping::Standard, &trace)
        .unwrap_or_else(|e| panic!("not a PSLO trace: {e}"));
    let compiled = program_for(p, &Pslo, Mapping::Standard);
    let (events, exact) = lift_exact(&compiled, &trace, true);
    assert!(exact, "the lift guessed: {events:?}");
    events
}

/// The commit indices of the events of thread `t`, in program order.
fn positions(events: &[LiftedEvent], t: u32) -> Vec<(Access, u64)> {
    events
        .iter()
        .filter(|e| e.thread == ThreadId(t))
        .map(|e| (e.access, e.position))
        .collect()
}

/// Store buffering (RELAXER Fig. 1): `x = 1` reaches memory, then
/// thread2 reads the 0 still in its history of `x`, behind the 1. The load
/// read write 0, so it conflicts before `x = 1` and the cycle (1, 2, 3, 4)
/// is created. (The lift used to drop the 0 from a history it had not
/// written yet, take the load for a read of memory, write 1, and miss the
/// cycle: Phase II never created one under PSLO.)
#[test]
fn a_load_reads_the_value_its_history_keeps_after_a_commit() {
    let p = fig1();
    let (x, y) = (0, 1);
    let events = lifted(
        &p,
        vec![
            write(0, 0, x, 1),
            commit(0, x, 1),
            write(1, 0, y, 1),
            read(1, 1, x, 0, 1),
            read(0, 1, y, 0, 0),
            commit(1, y, 1),
            sync(0, 2),
            sync(1, 2),
        ],
    );
    assert_eq!(
        positions(&events, 0),
        [(Access::Store, 1), (Access::Load, 0)]
    );
    assert_eq!(
        positions(&events, 1),
        [(Access::Store, 1), (Access::Load, 0)]
    );
    let cycles = predict(&p, &PredictOptions::default());
    assert_eq!(cycles.len(), 1);
    assert_eq!(cycles[0].labels(), [1, 2, 3, 4]);
    assert!(creates(&events, &cycles[0]));
}

/// `x = 1; x = 0 || a = x; b = x; c = x`: thread1's history of `x` is
/// `[0, 1, 0]` (init, then the two commits). The trace says which 0 each
/// load read; the value alone does not.
#[test]
fn older_names_the_entry_among_equal_values() {
    let p = program(
        "stale-zero",
        &["x"],
        vec![
            thread("P0", &[], vec![st(1, 0, 1, "x = 1"), st(2, 0, 0, "x = 0")]),
            thread(
                "P1",
                &["a", "b", "c"],
                vec![
                    ld(3, 0, 0, "a = x"),
                    ld(4, 1, 0, "b = x"),
                    ld(5, 2, 0, "c = x"),
                ],
            ),
        ],
    );
    let events = lifted(
        &p,
        vec![
            write(0, 0, 0, 1),
            commit(0, 0, 1),
            write(0, 1, 0, 0),
            commit(0, 0, 0),
            sync(0, 2),
            // The initial 0, two entries back; then the 1, dropping the 0
            // before it; then memory's 0.
            read(1, 0, 0, 0, 2),
            read(1, 1, 0, 1, 1),
            read(1, 2, 0, 0, 0),
            sync(1, 3),
        ],
    );
    assert_eq!(
        positions(&events, 1),
        [(Access::Load, 0), (Access::Load, 1), (Access::Load, 2)]
    );
}

/// An `ll` barrier resets the thread's histories to memory: after it, the
/// initial 0 of `x` cannot be read, and the lift knows it too.
#[test]
fn a_load_load_barrier_resets_the_history() {
    let ll = (
        2,
        Instr::Fence {
            kind: FenceKind::Hw(HwFence::LL),
        },
        "fence(ll)",
    );
    let p = program(
        "ll",
        &["x"],
        vec![
            thread("P0", &[], vec![st(1, 0, 1, "x = 1")]),
            thread("P1", &["a"], vec![ll, ld(3, 0, 0, "a = x")]),
        ],
    );
    let prefix = || vec![write(0, 0, 0, 1), commit(0, 0, 1), sync(0, 1)];
    // Without the barrier's step first, the 0 is still there.
    let mut stale = prefix();
    stale.extend([sync(1, 0), read(1, 1, 0, 0, 1)]);
    let trace = Trace { steps: stale };
    assert!(replay_witness(&p, &Pslo, Mapping::Standard, &trace).is_err());
    let compiled = program_for(&p, &Pslo, Mapping::Standard);
    assert!(!lift_exact(&compiled, &trace, true).1);
    let mut fresh = prefix();
    fresh.extend([sync(1, 0), read(1, 1, 0, 1, 0), sync(1, 2)]);
    assert_eq!(positions(&lifted(&p, fresh), 1), [(Access::Load, 1)]);
}

/// A forked thread's histories start at the fork as memory: the child
/// reads the parent's 1 (a full barrier for the parent), or the 2
/// committed after the fork, never the initial 0.
#[test]
fn a_forked_thread_starts_its_history_at_the_fork() {
    let mut p = program(
        "fork",
        &["x"],
        vec![
            thread(
                "P0",
                &["h"],
                vec![
                    st(1, 0, 1, "x = 1"),
                    (
                        2,
                        Instr::Fork {
                            dst: RegId(0),
                            child: ThreadId(2),
                        },
                        "fork",
                    ),
                ],
            ),
            thread("P1", &[], vec![st(3, 0, 2, "x = 2")]),
            thread("C", &["a"], vec![ld(4, 0, 0, "a = x")]),
        ],
    );
    p.toplevel = 2;
    p.threads[2].kind = ThreadKind::Forked {
        parent: ThreadId(0),
        at: InstrId(1),
    };
    let prefix = || {
        vec![
            write(0, 0, 0, 1),
            commit(0, 0, 1),
            sync(0, 1),
            write(1, 0, 0, 2),
            commit(1, 0, 2),
            sync(1, 1),
        ]
    };
    let mut old = prefix();
    old.extend([read(2, 0, 0, 1, 1), sync(2, 1), sync(0, 2)]);
    assert_eq!(positions(&lifted(&p, old), 2), [(Access::Load, 1)]);
    let mut init = prefix();
    init.push(read(2, 0, 0, 0, 2));
    let trace = Trace { steps: init };
    assert!(replay_witness(&p, &Pslo, Mapping::Standard, &trace).is_err());
    let compiled = program_for(&p, &Pslo, Mapping::Standard);
    assert!(!lift_exact(&compiled, &trace, true).1);
}
