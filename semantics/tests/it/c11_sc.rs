//! End-to-end tests of the SC rules of `c11r`: the SC fence cases (5)-(8)
//! of TSAN11 Sec. 4.5, one test each, and deviation 1 of the `c11` module
//! docs (C11 §29.3p3 instead of TSAN11's `sc` marking).
//!
//! Each test pins the SC order with a relaxed flag: when the reader sees
//! the flag, everything before the flag's store was performed before the
//! reader's next step, and `c11r` orders SC events by execution
//! (`ax.c11r`'s acyclicity axiom; plain `ax.c11` could order them the other
//! way and allow the outcome).

use crate::c11_support::{explore, fence, load, reg, store, Builder, Explored};
use relaxlab_semantics::ir::{C11Fence, Observable, Program, ReadOrd as R, WriteOrd as W};
use relaxlab_semantics::models::C11r;

fn run(p: &Program) -> Explored {
    let pruned = explore(p, &C11r { prune: true });
    let full = explore(p, &C11r { prune: false });
    assert_eq!(
        pruned.outcomes, full.outcomes,
        "pruning changed the outcomes"
    );
    assert_eq!(pruned.failures, 0);
    pruned
}

/// `P0: x=1 <wx>; [fence sc]; y=1 rlx || P1: r0=y rlx; [fence sc]; r1=x <rx>`.
fn flagged(wx: W, fence0: bool, fence1: bool, rx: R) -> Program {
    let mut b = Builder::new();
    let (x, y) = (b.atomic("x"), b.atomic("y"));
    let mut p0 = vec![store(x, 1, wx)];
    if fence0 {
        p0.push(fence(C11Fence::Sc));
    }
    p0.push(store(y, 1, W::Rlx));
    let mut p1 = vec![load(0, y, R::Rlx)];
    if fence1 {
        p1.push(fence(C11Fence::Sc));
    }
    p1.push(load(1, x, rx));
    b.thread(0, p0);
    b.thread(2, p1);
    b.build(vec![reg(1, 0), reg(1, 1)])
}

/// (5) W_non-SC sb F_SC sc R_SC: the SC read reads the write or later.
#[test]
fn case5_fence_then_sc_read() {
    assert!(!run(&flagged(W::Rlx, true, false, R::Sc)).has(&[1, 0]));
    // Without the fence, or with a non-SC read, it may read stale.
    assert!(run(&flagged(W::Rlx, false, false, R::Sc)).has(&[1, 0]));
    assert!(run(&flagged(W::Rlx, true, false, R::Acq)).has(&[1, 0]));
}

/// (6) W_SC sc F_SC sb R_non-SC: the read reads the SC write or later.
#[test]
fn case6_sc_write_then_fence() {
    assert!(!run(&flagged(W::Sc, false, true, R::Rlx)).has(&[1, 0]));
    assert!(run(&flagged(W::Rel, false, true, R::Rlx)).has(&[1, 0]));
    assert!(run(&flagged(W::Sc, false, false, R::Rlx)).has(&[1, 0]));
}

/// (7) W sb F_SC sc F_SC sb R: the read reads the write or later.
#[test]
fn case7_fence_fence() {
    assert!(!run(&flagged(W::Rlx, true, true, R::Rlx)).has(&[1, 0]));
    assert!(run(&flagged(W::Rlx, false, true, R::Rlx)).has(&[1, 0]));
    assert!(run(&flagged(W::Rlx, true, false, R::Rlx)).has(&[1, 0]));
}

/// (8) W_SC ; R_SC: an SC read reads the last SC write or later.
#[test]
fn case8_sc_write_then_sc_read() {
    assert!(!run(&flagged(W::Sc, false, false, R::Sc)).has(&[1, 0]));
    assert!(run(&flagged(W::Rel, false, false, R::Sc)).has(&[1, 0]));
    assert!(run(&flagged(W::Sc, false, false, R::Acq)).has(&[1, 0]));
}

/// Deviation 1: `P0: x=1 rlx; x=2 sc || P1: x=3 sc; a=y sc || P2: y=1 sc;
/// r=x sc`. `a = 0` puts `x=3` sc-before `r`; `x=1` happens before `x=2`
/// but not before `x=3`, so C11 §29.3p3 (and `ax.c11r`) let `r` read 1
/// with `x = 3` at the end. TSAN11's marking (x=1 marked by x=2) forbids it.
#[test]
fn sc_read_may_read_write_not_before_last_sc_write() {
    let mut b = Builder::new();
    let (x, y) = (b.atomic("x"), b.atomic("y"));
    b.thread(0, vec![store(x, 1, W::Rlx), store(x, 2, W::Sc)]);
    b.thread(1, vec![store(x, 3, W::Sc), load(0, y, R::Sc)]);
    b.thread(1, vec![store(y, 1, W::Sc), load(0, x, R::Sc)]);
    let e = run(&b.build(vec![reg(1, 0), reg(2, 0), Observable::Loc(x)]));
    assert!(e.has(&[0, 1, 3]));
    // r may not read x=2 (an SC write older than x=3) when a = 0.
    assert!(!e.has(&[0, 2, 3]));
}

/// Deviation 1, case (6): `P0: x=1 rlx; y=1 sc; w=1 rlx || P1: r2=y acq;
/// x=2 sc; z=1 rlx || P2: r1=w rlx; fence sc; r3=z rlx; r=x rlx`. With
/// r1 = r2 = r3 = 1 and r = 0, the fence comes after `y=1` and before `x=2`
/// (else (6) forces r = 2), and nothing synchronises with P2 (`w` and `z`
/// are relaxed stores without release fences). `x=1` happens before `x=2`
/// and precedes `y=1` (an SC write sc-before the fence) in its thread, but
/// it is no SC write, so no rule of C11 stops P2 from reading the init.
/// TSAN11's marking (x=1 marked by x=2) would stop the walk at x=1.
#[test]
fn case6_applies_to_sc_writes_only() {
    let mut b = Builder::new();
    let (x, y, z, w) = (b.atomic("x"), b.atomic("y"), b.atomic("z"), b.atomic("w"));
    b.thread(
        0,
        vec![store(x, 1, W::Rlx), store(y, 1, W::Sc), store(w, 1, W::Rlx)],
    );
    b.thread(
        1,
        vec![load(0, y, R::Acq), store(x, 2, W::Sc), store(z, 1, W::Rlx)],
    );
    b.thread(
        3,
        vec![
            load(0, w, R::Rlx),
            fence(C11Fence::Sc),
            load(1, z, R::Rlx),
            load(2, x, R::Rlx),
        ],
    );
    let e = run(&b.build(vec![
        reg(1, 0),
        reg(2, 0),
        reg(2, 1),
        reg(2, 2),
        Observable::Loc(x),
    ]));
    assert!(e.has(&[1, 1, 1, 0, 2]));
    assert!(e.has(&[1, 1, 1, 1, 2]));
}
