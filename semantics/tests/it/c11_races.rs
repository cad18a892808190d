//! End-to-end tests of data-race detection under `c11r` and under SC
//! memory (`ScRaces`, JRF's "DRF in all SC executions").

use crate::c11_support::{explore, fence, load, reg, store, unless_eq, Builder, Explored};
use relaxlab_semantics::ir::{C11Fence, InstrId, Program, ReadOrd as R, ThreadId, WriteOrd as W};
use relaxlab_semantics::model::{Race, Site};
use relaxlab_semantics::models::{C11r, ScRaces};

fn run(p: &Program) -> Explored {
    let pruned = explore(p, &C11r { prune: true });
    let full = explore(p, &C11r { prune: false });
    assert_eq!(
        pruned.outcomes, full.outcomes,
        "pruning changed the outcomes"
    );
    assert_eq!(pruned.races, full.races, "pruning changed the races");
    pruned
}

fn site(t: u32, i: u32) -> Site {
    Site {
        thread: ThreadId(t),
        instr: InstrId(i),
    }
}

/// TSAN11 Fig. 1a: T2's relaxed store blocks T1's release sequence, so
/// T3's read of `nax` races with T1's write.
fn fig1a() -> Program {
    let mut b = Builder::new();
    let (nax, x) = (b.plain("nax"), b.atomic("x"));
    b.thread(0, vec![store(nax, 1, W::Na), store(x, 1, W::Rel)]);
    b.thread(
        1,
        vec![load(0, x, R::Acq), unless_eq(0, 1, 3), store(x, 2, W::Rlx)],
    );
    b.thread(
        2,
        vec![load(0, x, R::Acq), unless_eq(0, 2, 3), load(1, nax, R::Na)],
    );
    b.build(vec![reg(2, 0), reg(2, 1)])
}

#[test]
fn tsan11_fig1a_race_on_nax() {
    let race = Race {
        loc: relaxlab_semantics::ir::LocId(0),
        earlier: site(0, 0),
        later: site(2, 2),
    };
    let e = run(&fig1a());
    assert_eq!(e.races.iter().copied().collect::<Vec<_>>(), vec![race]);
    assert_eq!(e.outcomes.get(&vec![2, 1]), Some(&true), "racy outcome");
    assert_eq!(e.outcomes.get(&vec![1, 0]), Some(&false));
    // The racy schedule A-F is an SC execution: SC memory finds it too.
    let sc = explore(&fig1a(), &ScRaces);
    assert_eq!(sc.races.iter().copied().collect::<Vec<_>>(), vec![race]);
}

/// TSAN11 Fig. 1c: fences synchronise, no race.
#[test]
fn tsan11_fig1c_no_race() {
    let mut b = Builder::new();
    let (nax, x) = (b.plain("nax"), b.atomic("x"));
    b.thread(
        0,
        vec![
            store(nax, 1, W::Na),
            fence(C11Fence::Rel),
            store(x, 1, W::Rlx),
        ],
    );
    b.thread(
        2,
        vec![
            load(0, x, R::Rlx),
            unless_eq(0, 1, 4),
            fence(C11Fence::Acq),
            load(1, nax, R::Na),
        ],
    );
    let p = b.build(vec![reg(1, 0), reg(1, 1)]);
    let e = run(&p);
    assert!(e.races.is_empty());
    assert!(e.has(&[1, 1]) && e.has(&[0, 0]));
    assert!(e.outcomes.values().all(|racy| !racy));
    assert!(explore(&p, &ScRaces).races.is_empty());
    // Without the acquire fence the read races.
    let mut b = Builder::new();
    let (nax, x) = (b.plain("nax"), b.atomic("x"));
    b.thread(
        0,
        vec![
            store(nax, 1, W::Na),
            fence(C11Fence::Rel),
            store(x, 1, W::Rlx),
        ],
    );
    b.thread(
        2,
        vec![load(0, x, R::Rlx), unless_eq(0, 1, 3), load(1, nax, R::Na)],
    );
    let p = b.build(vec![reg(1, 0), reg(1, 1)]);
    assert_eq!(run(&p).races.len(), 1);
    assert_eq!(explore(&p, &ScRaces).races.len(), 1);
}

/// MP with non-atomic data: a relaxed flag races (also under SC memory:
/// relaxed accesses do not synchronise), a rel/acq flag does not.
fn mp_na(flag_w: W, flag_r: R) -> Program {
    let mut b = Builder::new();
    let (d, f) = (b.plain("d"), b.atomic("f"));
    b.thread(0, vec![store(d, 1, W::Na), store(f, 1, flag_w)]);
    b.thread(
        2,
        vec![load(0, f, flag_r), unless_eq(0, 1, 3), load(1, d, R::Na)],
    );
    b.build(vec![reg(1, 0), reg(1, 1)])
}

#[test]
fn message_passing_with_non_atomic_data() {
    let racy = run(&mp_na(W::Rlx, R::Rlx));
    assert_eq!(racy.races.len(), 1);
    // A non-atomic location holds one value: the racy read sees the newest
    // one, and the outcome is marked racy.
    assert!(!racy.has(&[1, 0]));
    assert_eq!(racy.outcomes.get(&vec![1, 1]), Some(&true));
    assert_eq!(racy.outcomes.get(&vec![0, 0]), Some(&false));
    assert_eq!(explore(&mp_na(W::Rlx, R::Rlx), &ScRaces).races.len(), 1);
    let fine = run(&mp_na(W::Rel, R::Acq));
    assert!(fine.races.is_empty());
    assert!(!fine.has(&[1, 0]));
    assert!(explore(&mp_na(W::Sc, R::Sc), &ScRaces).races.is_empty());
}

/// Write-write race on a non-atomic location, and its absence when the
/// threads are ordered by fork and join.
#[test]
fn write_write_and_fork_join() {
    use crate::c11_support::{fork, join};
    let mut b = Builder::new();
    let d = b.plain("d");
    b.thread(0, vec![store(d, 1, W::Na)]);
    b.thread(0, vec![store(d, 2, W::Na)]);
    let p = b.build(vec![relaxlab_semantics::ir::Observable::Loc(d)]);
    let e = run(&p);
    assert_eq!(e.races.len(), 2, "both orders of the two writes");
    assert!(e.has(&[1]) && e.has(&[2]));

    let mut b = Builder::new();
    let d = b.plain("d");
    let child = ThreadId(1);
    b.thread(
        1,
        vec![
            store(d, 1, W::Na),
            fork(0, child),
            join(0),
            store(d, 3, W::Na),
        ],
    );
    b.forked(
        ThreadId(0),
        1,
        1,
        vec![load(0, d, R::Na), store(d, 2, W::Na)],
    );
    let p = b.build(vec![reg(1, 0), relaxlab_semantics::ir::Observable::Loc(d)]);
    let e = run(&p);
    assert!(e.races.is_empty());
    assert_eq!(e.set().into_iter().collect::<Vec<_>>(), vec![vec![1, 3]]);
}
