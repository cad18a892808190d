//! Mixed atomicity under `ax.c11` and `ax.rc11`: a location accessed both
//! atomically and non-atomically. Every write to it is in `mo`, and races
//! are decided per access (RC11, Lahav et al., PLDI 2017, Sec. 3): two
//! conflicting accesses from different threads, at least one of them
//! non-atomic, unordered by `hb`. Two atomic accesses to the location
//! never race, whatever the location's other accesses.

use crate::ax_builder::*;
use relaxlab_semantics::axiomatic::{run_axiomatic, AxOptions};
use relaxlab_semantics::ir::{AxModel, InstrId, LocId, Program, RmwOp, RmwOrd, ThreadId};
use relaxlab_semantics::model::{Race, Site};

const MODELS: [AxModel; 2] = [AxModel::C11, AxModel::Rc11];

fn site(thread: u32, instr: u32) -> Site {
    Site {
        thread: ThreadId(thread),
        instr: InstrId(instr),
    }
}

fn race(loc: u32, earlier: Site, later: Site) -> Race {
    Race {
        loc: LocId(loc),
        earlier,
        later,
    }
}

/// Each outcome's values and whether its executions race.
fn rows(p: &Program, m: AxModel) -> (Vec<(Vec<i64>, bool)>, Vec<Race>) {
    let t = run_axiomatic(p, m, &AxOptions::default()).unwrap();
    assert!(t.complete(), "ax.{}: bound hit", m.name());
    let rows = t.rows.iter().map(|r| (r.values.clone(), r.racy)).collect();
    (rows, t.races.clone())
}

#[test]
fn only_the_non_atomic_write_races_with_an_atomic_read() {
    // P0: x = 1 rlx; x = 2 na.  P1: r0 = x rlx.  The two relaxed accesses
    // do not race; the plain write and the read do, in every execution
    // (no hb across the threads). The read may see 0, 1 or 2.
    let p = program("Race", &["x"])
        .mixed("x")
        .thread("P0", |t| {
            t.store("x", 1, SRlx).store("x", 2, SNa);
        })
        .thread("P1", |t| {
            t.load("r0", "x", LRlx);
        })
        .exists(&[("P1", "r0", 1)]);
    for m in MODELS {
        let (rows, races) = rows(&p, m);
        assert_eq!(
            rows,
            vec![(vec![0], true), (vec![1], true), (vec![2], true)],
            "ax.{}",
            m.name()
        );
        assert_eq!(
            races,
            vec![race(0, site(0, 1), site(1, 0))],
            "ax.{}",
            m.name()
        );
    }
}

#[test]
fn a_plain_write_published_by_release_acquire_does_not_race_with_an_atomic_read() {
    // P0: x = 1 na; y = 1 rel.  P1: r0 = y acq; r1 = x rlx.  Seeing the
    // flag orders the accesses to x by hb and forbids r1 = 0 (coherence);
    // missing it leaves them unordered: those executions race.
    let p = program("MP", &["x", "y"])
        .mixed("x")
        .thread("P0", |t| {
            t.store("x", 1, SNa).store("y", 1, SRel);
        })
        .thread("P1", |t| {
            t.load("r0", "y", LAcq).load("r1", "x", LRlx);
        })
        .exists(&[("P1", "r0", 1), ("P1", "r1", 0)]);
    for m in MODELS {
        let (rows, races) = rows(&p, m);
        assert_eq!(
            rows,
            vec![(vec![0, 0], true), (vec![0, 1], true), (vec![1, 1], false)],
            "ax.{}",
            m.name()
        );
        assert_eq!(
            races,
            vec![race(0, site(0, 0), site(1, 1))],
            "ax.{}",
            m.name()
        );
    }
}

#[test]
fn a_plain_initialisation_then_an_atomic_rmw_is_in_mo_and_race_free() {
    // P0: x = 1 na; y = 1 rel.  P1: r0 = y acq; if r0 == 1 { r1 =
    // fetch_add(x, 1, rlx) }.  The RMW is hb-after the plain write, so it
    // must read it (it is in mo: reading 0 would be fr against hb) and no
    // execution races.
    let p = program("PUB", &["x", "y"])
        .mixed("x")
        .thread("P0", |t| {
            t.store("x", 1, SNa).store("y", 1, SRel);
        })
        .thread("P1", |t| {
            t.load("r0", "y", LAcq).if_eq("r0", 1, |t| {
                t.rmw("r1", "x", RmwOp::Add, 1, RmwOrd::Rlx);
            });
        })
        .exists(&[("P1", "r0", 1), ("P1", "r1", 0)]);
    for m in MODELS {
        let (rows, races) = rows(&p, m);
        assert_eq!(
            rows,
            vec![(vec![0, 0], false), (vec![1, 1], false)],
            "ax.{}",
            m.name()
        );
        assert!(races.is_empty(), "ax.{}", m.name());
    }
}

#[test]
fn a_relaxed_write_read_non_atomically_without_synchronisation_races() {
    // P0: x = 1 rlx; y = 1 rlx.  P1: r0 = y rlx; r1 = x na.  The plain
    // read and the relaxed write are unordered in every execution. Under
    // ax.c11 the plain read reads a visible side effect, the initial 0;
    // RC11 constrains it by coherence alone, so it may also read the
    // write it races with, as herd7's rc11.cat lets it (deviation 2 of
    // the C11 models).
    let p = program("MP", &["x", "y"])
        .mixed("x")
        .thread("P0", |t| {
            t.store("x", 1, SRlx).store("y", 1, SRlx);
        })
        .thread("P1", |t| {
            t.load("r0", "y", LRlx).load("r1", "x", LNa);
        })
        .exists(&[("P1", "r0", 1), ("P1", "r1", 0)]);
    for m in MODELS {
        let (rows, races) = rows(&p, m);
        let expected = match m {
            AxModel::Rc11 => vec![
                (vec![0, 0], true),
                (vec![0, 1], true),
                (vec![1, 0], true),
                (vec![1, 1], true),
            ],
            _ => vec![(vec![0, 0], true), (vec![1, 0], true)],
        };
        assert_eq!(rows, expected, "ax.{}", m.name());
        assert_eq!(
            races,
            vec![race(0, site(0, 0), site(1, 1))],
            "ax.{}",
            m.name()
        );
    }
}
