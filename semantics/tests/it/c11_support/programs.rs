//! A corpus of small C11 programs for the agreement tests of
//! `c11_explore.rs`: each shape of the other `c11_*` tests in a few order
//! combinations, plus some RMW/CAS/fork programs.

use super::{cas, fence, fork, join, load, reg, rmw, store, unless_eq, Builder};
use relaxlab_semantics::ir::{
    C11Fence, Observable, Program, ReadOrd as R, RmwOp, RmwOrd, ThreadId, WriteOrd as W,
};

fn mp(sx: W, f0: Option<C11Fence>, sy: W, ly: R, f1: Option<C11Fence>, lx: R) -> Program {
    let mut b = Builder::new();
    let (x, y) = (b.atomic("x"), b.atomic("y"));
    let mut p0 = vec![store(x, 1, sx)];
    p0.extend(f0.map(fence));
    p0.push(store(y, 1, sy));
    let mut p1 = vec![load(0, y, ly)];
    p1.extend(f1.map(fence));
    p1.push(load(1, x, lx));
    b.thread(0, p0);
    b.thread(2, p1);
    b.build(vec![reg(1, 0), reg(1, 1)])
}

fn sb(s: W, f: Option<C11Fence>, l: R) -> Program {
    let mut b = Builder::new();
    let (x, y) = (b.atomic("x"), b.atomic("y"));
    let mut p0 = vec![store(x, 1, s)];
    p0.extend(f.map(fence));
    p0.push(load(0, y, l));
    let mut p1 = vec![store(y, 1, s)];
    p1.extend(f.map(fence));
    p1.push(load(0, x, l));
    b.thread(1, p0);
    b.thread(1, p1);
    b.build(vec![reg(0, 0), reg(1, 0)])
}

fn iriw(s: W, l: R) -> Program {
    let mut b = Builder::new();
    let (x, y) = (b.atomic("x"), b.atomic("y"));
    b.thread(0, vec![store(x, 1, s)]);
    b.thread(0, vec![store(y, 1, s)]);
    b.thread(2, vec![load(0, x, l), load(1, y, l)]);
    b.thread(2, vec![load(0, y, l), load(1, x, l)]);
    b.build(vec![reg(2, 0), reg(2, 1), reg(3, 0), reg(3, 1)])
}

/// Three stores to one location from two threads, two readers.
fn coherence(o: W, l: R) -> Program {
    let mut b = Builder::new();
    let x = b.atomic("x");
    b.thread(0, vec![store(x, 1, o), store(x, 2, o)]);
    b.thread(1, vec![store(x, 3, o), load(0, x, l)]);
    b.thread(2, vec![load(0, x, l), load(1, x, l)]);
    b.build(vec![reg(1, 0), reg(2, 0), reg(2, 1), Observable::Loc(x)])
}

/// RMW counters and a CAS lock with non-atomic data.
fn rmw_cas(o: RmwOrd) -> Program {
    let mut b = Builder::new();
    let (c, l, d) = (b.atomic("c"), b.atomic("l"), b.plain("d"));
    b.thread(
        2,
        vec![
            rmw(0, c, RmwOp::Add, 1, o),
            cas(1, l, 0, 1, o, R::Rlx),
            unless_eq(1, 0, 4),
            store(d, 1, W::Na),
        ],
    );
    b.thread(
        2,
        vec![
            rmw(0, c, RmwOp::Add, 1, o),
            cas(1, l, 0, 1, o, R::Rlx),
            unless_eq(1, 0, 4),
            store(d, 2, W::Na),
        ],
    );
    b.build(vec![
        reg(0, 0),
        reg(0, 1),
        reg(1, 0),
        reg(1, 1),
        Observable::Loc(c),
        Observable::Loc(d),
    ])
}

/// Fork/join with non-atomic and atomic accesses.
fn fork_join() -> Program {
    let mut b = Builder::new();
    let (d, x) = (b.plain("d"), b.atomic("x"));
    b.thread(
        2,
        vec![
            store(d, 1, W::Na),
            fork(0, ThreadId(1)),
            store(x, 1, W::Rlx),
            join(0),
            load(1, x, R::Rlx),
        ],
    );
    b.forked(
        ThreadId(0),
        1,
        2,
        vec![load(0, x, R::Rlx), load(1, d, R::Na), store(x, 2, W::Rlx)],
    );
    b.build(vec![reg(0, 1), reg(1, 0), reg(1, 1)])
}

/// `P0: x=1 <wx>; [fence sc]; y=1 rlx || P1: r0=y rlx; [fence sc]; r1=x <rx>`
/// (the SC cases (5)-(8) of TSAN11 Sec. 4.5).
pub fn flagged(wx: W, fence0: bool, fence1: bool, rx: R) -> Program {
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

/// Deviation 1 of the `c11` docs, SC reads (see `c11_sc.rs`).
pub fn sc_read_not_hb_last_sc_write() -> Program {
    let mut b = Builder::new();
    let (x, y) = (b.atomic("x"), b.atomic("y"));
    b.thread(0, vec![store(x, 1, W::Rlx), store(x, 2, W::Sc)]);
    b.thread(1, vec![store(x, 3, W::Sc), load(0, y, R::Sc)]);
    b.thread(1, vec![store(y, 1, W::Sc), load(0, x, R::Sc)]);
    b.build(vec![reg(1, 0), reg(2, 0), Observable::Loc(x)])
}

/// Deviation 1 of the `c11` docs, case (6) (see `c11_sc.rs`).
pub fn case6_non_sc_write() -> Program {
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
    b.build(vec![
        reg(1, 0),
        reg(2, 0),
        reg(2, 1),
        reg(2, 2),
        Observable::Loc(x),
    ])
}

/// TSAN11 Fig. 1a (`rmw_middle = false`) and Fig. 4's variant with an RMW
/// in the middle thread: does T3's read of `nax` race?
pub fn fig1a(rmw_middle: bool) -> Program {
    let mut b = Builder::new();
    let (nax, x) = (b.plain("nax"), b.atomic("x"));
    b.thread(0, vec![store(nax, 1, W::Na), store(x, 1, W::Rel)]);
    let middle = if rmw_middle {
        rmw(1, x, RmwOp::Add, 1, RmwOrd::Rlx)
    } else {
        store(x, 2, W::Rlx)
    };
    b.thread(2, vec![load(0, x, R::Acq), unless_eq(0, 1, 3), middle]);
    b.thread(
        2,
        vec![load(0, x, R::Acq), unless_eq(0, 2, 3), load(1, nax, R::Na)],
    );
    b.build(vec![reg(2, 0), reg(2, 1)])
}

/// TSAN11 Fig. 1c: fence synchronisation, with or without the acquire
/// fence.
pub fn fig1c(acquire_fence: bool) -> Program {
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
    let mut p1 = vec![load(0, x, R::Rlx), unless_eq(0, 1, 3)];
    if acquire_fence {
        p1[1] = unless_eq(0, 1, 4);
        p1.push(fence(C11Fence::Acq));
    }
    p1.push(load(1, nax, R::Na));
    b.thread(2, p1);
    b.build(vec![reg(1, 0), reg(1, 1)])
}

/// Every program of the corpus, named.
pub fn corpus() -> Vec<(String, Program)> {
    let mut out = Vec::new();
    let fences = [None, Some(C11Fence::Rel), Some(C11Fence::Sc)];
    let afences = [None, Some(C11Fence::Acq), Some(C11Fence::AcqRel)];
    for (sy, ly) in [
        (W::Rlx, R::Rlx),
        (W::Rel, R::Acq),
        (W::Sc, R::Sc),
        (W::Rel, R::Rlx),
    ] {
        for f0 in fences {
            for f1 in afences {
                out.push((
                    format!("MP {sy:?}/{ly:?} {f0:?} {f1:?}"),
                    mp(W::Rlx, f0, sy, ly, f1, R::Rlx),
                ));
            }
        }
    }
    for (s, l) in [
        (W::Rlx, R::Rlx),
        (W::Rel, R::Acq),
        (W::Sc, R::Sc),
        (W::Sc, R::Rlx),
    ] {
        for f in [None, Some(C11Fence::Sc), Some(C11Fence::AcqRel)] {
            out.push((format!("SB {s:?}/{l:?} {f:?}"), sb(s, f, l)));
        }
        out.push((format!("IRIW {s:?}/{l:?}"), iriw(s, l)));
        out.push((format!("COH {s:?}/{l:?}"), coherence(s, l)));
    }
    for o in [RmwOrd::Rlx, RmwOrd::AcqRel, RmwOrd::Sc] {
        out.push((format!("RMW-CAS {o:?}"), rmw_cas(o)));
    }
    out.push(("FORK-JOIN".into(), fork_join()));
    for wx in [W::Rlx, W::Rel, W::Sc] {
        for rx in [R::Rlx, R::Acq, R::Sc] {
            for (f0, f1) in [(false, false), (true, false), (false, true), (true, true)] {
                out.push((
                    format!("FLAGGED {wx:?} {f0} {f1} {rx:?}"),
                    flagged(wx, f0, f1, rx),
                ));
            }
        }
    }
    out.push(("SC-READ-DEV".into(), sc_read_not_hb_last_sc_write()));
    out.push(("CASE6-DEV".into(), case6_non_sc_write()));
    for m in [false, true] {
        out.push((format!("FIG1A rmw={m}"), fig1a(m)));
        out.push((format!("FIG1C acq={m}"), fig1c(m)));
    }
    out
}
