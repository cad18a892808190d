//! Unit tests of each rule on hand-built states.

use super::prune::prune;
use super::races::{na_read, na_write};
use super::rules::{
    atomic, atomic_fence, atomic_load, atomic_rmw, atomic_store, cas_failures, end, fork, join,
    reads_from_set, Memory, Strength,
};
use super::state::{C11State, ScWrite, Status};
use crate::ir::{
    Atomicity, C11Fence, Instr, InstrId, LocId, Location, Program, ReadOrd, RmwOrd, Span,
    ThreadCode, ThreadId, ThreadKind, WriteOrd,
};
use crate::model::{Race, Site};
use crate::models::clocks::threads::ThreadClockState;
use crate::models::clocks::vclock::VClock;

const X: LocId = LocId(0);
const Y: LocId = LocId(1);
const D: LocId = LocId(2);

fn t(i: u32) -> ThreadId {
    ThreadId(i)
}

fn site(th: u32, i: u32) -> Site {
    Site {
        thread: t(th),
        instr: InstrId(i),
    }
}

/// `top` top-level threads and `forked` threads forked by thread 0; x and y
/// atomic, d non-atomic, all 0.
fn program(top: usize, forked: usize) -> Program {
    let loc = |name: &str, atomicity| Location {
        name: name.into(),
        init: 0,
        atomicity,
        span: Span::default(),
    };
    let code = || ThreadCode {
        name: String::new(),
        kind: ThreadKind::TopLevel,
        regs: Vec::new(),
        code: vec![crate::ir::Instruction {
            instr: Instr::End,
            span: Span::default(),
            line: 1,
            text: "end".into(),
            origin: crate::ir::Origin::Source,
        }],
        span: Span::default(),
    };
    let mut threads: Vec<ThreadCode> = (0..top).map(|_| code()).collect();
    for _ in 0..forked {
        let mut c = code();
        c.kind = ThreadKind::Forked {
            parent: t(0),
            at: InstrId(0),
        };
        threads.push(c);
    }
    Program {
        name: "unit".into(),
        doc: None,
        locations: vec![
            loc("x", Atomicity::Atomic),
            loc("y", Atomicity::Atomic),
            loc("d", Atomicity::NonAtomic),
        ],
        threads,
        toplevel: top,
        condition: None,
        filter: None,
        filter_only: Vec::new(),
        observed: Vec::new(),
        expectations: Vec::new(),
        c: None,
        herd_reading: None,
        arrays: Vec::new(),
    }
}

fn init(top: usize) -> C11State {
    C11State::initial(&program(top, 0))
}

fn values(s: &C11State, th: ThreadId, loc: LocId, ord: ReadOrd) -> Vec<i64> {
    atomic_load(s, Memory::Weak, th, loc, ord)
        .into_iter()
        .map(|(v, _, _)| v)
        .collect()
}

/// Loads `v` from `loc` (which must be in the reads-from set).
fn load_value(s: &C11State, th: ThreadId, loc: LocId, ord: ReadOrd, v: i64) -> C11State {
    atomic_load(s, Memory::Weak, th, loc, ord)
        .into_iter()
        .find(|(w, _, _)| *w == v)
        .map(|(_, _, s)| s)
        .expect("value not readable")
}

#[test]
fn initial_state() {
    let s = C11State::initial(&program(2, 1));
    assert_eq!(s.thread(t(0)).c, VClock::unit(t(0)));
    assert_eq!(s.thread(t(2)).status, Status::NotStarted);
    assert_eq!(atomic(&s, X).stores.len(), 1);
    assert_eq!(values(&s, t(1), X, ReadOrd::Rlx), vec![0]);
}

/// RELEASE STORE + ACQUIRE LOAD: the loader acquires the writer's clock.
#[test]
fn release_acquire_synchronises() {
    let mut s = init(2);
    atomic_store(&mut s, t(0), X, 1, WriteOrd::Rel);
    assert_eq!(s.thread(t(0)).epoch(t(0)), 2, "release increments");
    let s1 = load_value(&s, t(1), X, ReadOrd::Acq, 1);
    assert_eq!(s1.thread(t(1)).c.get(t(0)), 1);
    // A relaxed load only feeds F^acq.
    let s2 = load_value(&s, t(1), X, ReadOrd::Rlx, 1);
    assert_eq!(s2.thread(t(1)).c.get(t(0)), 0);
    assert_eq!(s2.thread(t(1)).facq.get(t(0)), 1);
    // Reading the init gives nothing.
    let s3 = load_value(&s, t(1), X, ReadOrd::Acq, 0);
    assert_eq!(s3.thread(t(1)).c.get(t(0)), 0);
}

/// RELAXED STORE by another thread blocks the release sequence (TSAN11
/// Fig. 2), an RMW continues it (Fig. 4).
#[test]
fn release_sequence_blocked_and_continued() {
    let mut s = init(3);
    atomic_store(&mut s, t(0), X, 1, WriteOrd::Rel);
    let mut blocked = s.clone();
    atomic_store(&mut blocked, t(1), X, 2, WriteOrd::Rlx);
    let b = load_value(&blocked, t(2), X, ReadOrd::Acq, 2);
    assert_eq!(
        b.thread(t(2)).c.get(t(0)),
        0,
        "blocked by T1's relaxed store"
    );
    let mut continued = s.clone();
    let old = atomic_rmw(
        &mut continued,
        Memory::Weak,
        t(1),
        X,
        Strength::of_read(ReadOrd::Rlx),
        Strength::of_write(WriteOrd::Rlx),
        |v| v + 1,
    );
    assert_eq!(old, 1, "an RMW reads the last element");
    let c = load_value(&continued, t(2), X, ReadOrd::Acq, 2);
    assert_eq!(c.thread(t(2)).c.get(t(0)), 1, "continued by T1's RMW");
    // The writer's own later relaxed store stays in its release sequence.
    let mut own = s.clone();
    atomic_store(&mut own, t(0), X, 3, WriteOrd::Rlx);
    let o = load_value(&own, t(2), X, ReadOrd::Acq, 3);
    assert_eq!(o.thread(t(2)).c.get(t(0)), 1);
}

/// RELEASE FENCE + relaxed store, relaxed load + ACQUIRE FENCE (TSAN11
/// Fig. 5c).
#[test]
fn fences_synchronise() {
    let mut s = init(2);
    atomic_fence(&mut s, Memory::Weak, t(0), C11Fence::Rel);
    atomic_store(&mut s, t(0), X, 1, WriteOrd::Rlx);
    let mut r = load_value(&s, t(1), X, ReadOrd::Rlx, 1);
    assert_eq!(r.thread(t(1)).c.get(t(0)), 0);
    atomic_fence(&mut r, Memory::Weak, t(1), C11Fence::Acq);
    assert_eq!(r.thread(t(1)).c.get(t(0)), 1);
    // Without the release fence there is nothing to acquire.
    let mut s = init(2);
    atomic_store(&mut s, t(0), X, 1, WriteOrd::Rlx);
    let mut r = load_value(&s, t(1), X, ReadOrd::Rlx, 1);
    atomic_fence(&mut r, Memory::Weak, t(1), C11Fence::Sc);
    assert_eq!(r.thread(t(1)).c.get(t(0)), 0);
}

/// An acq_rel fence releases what it has just acquired.
#[test]
fn acq_rel_fence_order() {
    let mut s = init(3);
    atomic_store(&mut s, t(0), X, 1, WriteOrd::Rel);
    let mut s = load_value(&s, t(1), X, ReadOrd::Rlx, 1);
    atomic_fence(&mut s, Memory::Weak, t(1), C11Fence::AcqRel);
    assert_eq!(s.thread(t(1)).frel.get(t(0)), 1);
}

/// CoWR: a thread's own store hides the older ones from it; CoRR: a load
/// that happens before hides what is older than what it read.
#[test]
fn coherence_cuts_the_reads_from_set() {
    let mut s = init(2);
    atomic_store(&mut s, t(0), X, 1, WriteOrd::Rlx);
    atomic_store(&mut s, t(0), X, 2, WriteOrd::Rlx);
    assert_eq!(values(&s, t(0), X, ReadOrd::Rlx), vec![2]);
    assert_eq!(values(&s, t(1), X, ReadOrd::Rlx), vec![0, 1, 2]);
    let s1 = load_value(&s, t(1), X, ReadOrd::Rlx, 1);
    assert_eq!(values(&s1, t(1), X, ReadOrd::Rlx), vec![1, 2], "CoRR");
}

/// Case (7): W sb F_sc sc F_sc sb R.
#[test]
fn sc_fence_fence() {
    let mut s = init(2);
    atomic_store(&mut s, t(0), X, 1, WriteOrd::Rlx);
    atomic_fence(&mut s, Memory::Weak, t(0), C11Fence::Sc);
    assert_eq!(values(&s, t(1), X, ReadOrd::Rlx), vec![0, 1]);
    atomic_fence(&mut s, Memory::Weak, t(1), C11Fence::Sc);
    assert_eq!(values(&s, t(1), X, ReadOrd::Rlx), vec![1]);
}

/// Case (6): W_sc sc F_sc sb R (non-SC read); only genuine SC writes.
#[test]
fn sc_write_then_fence() {
    let mut s = init(2);
    atomic_store(&mut s, t(0), X, 1, WriteOrd::Sc);
    atomic_fence(&mut s, Memory::Weak, t(1), C11Fence::Sc);
    assert_eq!(values(&s, t(1), X, ReadOrd::Rlx), vec![1]);
    let mut r = init(2);
    atomic_store(&mut r, t(0), X, 1, WriteOrd::Rel);
    atomic_fence(&mut r, Memory::Weak, t(1), C11Fence::Sc);
    assert_eq!(values(&r, t(1), X, ReadOrd::Rlx), vec![0, 1]);
}

/// Case (5): W sb F_sc sc R_sc.
#[test]
fn fence_then_sc_read() {
    let mut s = init(2);
    atomic_store(&mut s, t(0), X, 1, WriteOrd::Rlx);
    atomic_fence(&mut s, Memory::Weak, t(0), C11Fence::Sc);
    assert_eq!(values(&s, t(1), X, ReadOrd::Sc), vec![1]);
    assert_eq!(values(&s, t(1), X, ReadOrd::Acq), vec![0, 1]);
}

/// Case (8), C11 §29.3p3: an SC read may not read an older SC write, nor a
/// write that happens before the last SC write, but may read a write that
/// does not.
#[test]
fn sc_read_of_last_sc_write() {
    let mut s = init(3);
    atomic_store(&mut s, t(0), X, 1, WriteOrd::Rlx);
    atomic_store(&mut s, t(0), X, 2, WriteOrd::Sc);
    atomic_store(&mut s, t(1), X, 3, WriteOrd::Sc);
    assert_eq!(values(&s, t(2), X, ReadOrd::Sc), vec![1, 3]);
    assert_eq!(values(&s, t(2), X, ReadOrd::Rlx), vec![0, 1, 2, 3]);
    let marks: Vec<_> = atomic(&s, X).stores.iter().map(|e| e.sc).collect();
    assert_eq!(
        marks,
        vec![ScWrite::No, ScWrite::No, ScWrite::Yes, ScWrite::Yes]
    );
    assert!(
        atomic(&s, X).stores[2].sc_view.is_none(),
        "only the newest keeps it"
    );
    // A fourth SC write by T0, which knows x=1: now hidden.
    let mut s2 = s.clone();
    atomic_store(&mut s2, t(0), X, 4, WriteOrd::Sc);
    assert_eq!(values(&s2, t(2), X, ReadOrd::Sc), vec![4]);
}

/// A CAS succeeds only on the newest element and may fail on any readable
/// element with another value.
#[test]
fn cas_failure_choices() {
    let mut s = init(2);
    atomic_store(&mut s, t(0), X, 1, WriteOrd::Rlx);
    atomic_store(&mut s, t(0), X, 2, WriteOrd::Rlx);
    let fails: Vec<_> = cas_failures(&s, Memory::Weak, t(1), X, 2, ReadOrd::Rlx, false)
        .into_iter()
        .map(|(v, _, _)| v)
        .collect();
    assert_eq!(fails, vec![0, 1]);
    let fails: Vec<_> = cas_failures(&s, Memory::Sc, t(1), X, 0, ReadOrd::Rlx, false)
        .into_iter()
        .map(|(v, _, _)| v)
        .collect();
    assert_eq!(fails, vec![2], "SC memory: only the current value");
}

/// Fork and join synchronise; end resets what only the thread reads.
#[test]
fn fork_join_end() {
    let mut s = C11State::initial(&program(1, 1));
    atomic_store(&mut s, t(0), X, 1, WriteOrd::Rlx);
    fork(&mut s, t(0), t(1));
    assert_eq!(s.thread(t(1)).status, Status::Running);
    assert_eq!(s.thread(t(1)).c.get(t(0)), 1);
    assert_eq!(s.thread(t(1)).c.get(t(1)), 1);
    assert_eq!(s.thread(t(0)).epoch(t(0)), 2);
    assert_eq!(values(&s, t(1), X, ReadOrd::Rlx), vec![1], "fork is hb");
    atomic_fence(&mut s, Memory::Weak, t(1), C11Fence::Rel);
    atomic_store(&mut s, t(1), Y, 5, WriteOrd::Rel);
    end(&mut s, t(1));
    assert_eq!(s.thread(t(1)).frel, VClock::bottom());
    assert!(atomic(&s, Y).per_thread.is_empty());
    join(&mut s, t(0), t(1));
    assert_eq!(values(&s, t(0), Y, ReadOrd::Rlx), vec![5], "join is hb");
}

/// Pruning drops what every running thread has seen, and nothing else.
#[test]
fn pruning() {
    let mut s = init(2);
    atomic_store(&mut s, t(0), X, 1, WriteOrd::Rel);
    atomic_store(&mut s, t(0), X, 2, WriteOrd::Rlx);
    prune(&mut s, Memory::Weak);
    assert_eq!(atomic(&s, X).stores.len(), 3, "T1 can still read all");
    let mut s1 = load_value(&s, t(1), X, ReadOrd::Acq, 1);
    prune(&mut s1, Memory::Weak);
    assert_eq!(atomic(&s1, X).stores.len(), 2, "both have seen x=1");
    assert_eq!(values(&s1, t(1), X, ReadOrd::Rlx), vec![1, 2]);
    end(&mut s1, t(1));
    prune(&mut s1, Memory::Weak);
    assert_eq!(atomic(&s1, X).stores.len(), 1, "only T0 runs; it saw x=2");
    let mut s2 = s.clone();
    prune(&mut s2, Memory::Sc);
    assert_eq!(atomic(&s2, X).stores.len(), 1);
}

/// FastTrack checks on a non-atomic location (TSAN11 Sec. 2.2).
#[test]
fn non_atomic_races() {
    let mut s = init(2);
    assert!(
        na_write(&mut s, site(0, 0), D, 7).is_empty(),
        "the init never races"
    );
    let (v, races) = na_read(&mut s, site(1, 0), D);
    assert_eq!(v, 7);
    assert_eq!(
        races,
        vec![Race {
            loc: D,
            earlier: site(0, 0),
            later: site(1, 0)
        }]
    );
    // read-write: T0 writes again without knowing T1's read.
    let races = na_write(&mut s, site(0, 1), D, 8);
    assert_eq!(
        races,
        vec![Race {
            loc: D,
            earlier: site(1, 0),
            later: site(0, 1)
        }]
    );
    // Synchronised: T0 releases, T1 acquires, T1 writes: no race.
    let mut s = init(2);
    na_write(&mut s, site(0, 0), D, 1);
    atomic_store(&mut s, t(0), X, 1, WriteOrd::Rel);
    let mut s = load_value(&s, t(1), X, ReadOrd::Acq, 1);
    assert!(na_write(&mut s, site(1, 1), D, 2).is_empty());
}

/// An RMW with release order heads a release sequence (V_a(t) = C_t).
#[test]
fn release_rmw_heads_sequence() {
    let mut s = init(3);
    atomic_rmw(
        &mut s,
        Memory::Weak,
        t(0),
        X,
        Strength::of_read(RmwOrd::AcqRel.read_part()),
        Strength::of_write(RmwOrd::AcqRel.write_part()),
        |v| v + 1,
    );
    assert_eq!(atomic(&s, X).v(t(0)).get(t(0)), 1);
    let r = load_value(&s, t(2), X, ReadOrd::Acq, 1);
    assert_eq!(r.thread(t(2)).c.get(t(0)), 1);
    assert_eq!(
        reads_from_set(atomic(&r, X), r.thread(t(2)), false).to_vec(),
        vec![1],
        "CoWR after synchronising"
    );
}

/// ATOMIC LOAD IMPL: loads are recorded once per thread (smallest epoch),
/// and not at all when the element happens before the loader.
#[test]
fn load_records_are_normalised() {
    let mut s = init(3);
    atomic_store(&mut s, t(0), X, 1, WriteOrd::Rlx);
    let s1 = load_value(&s, t(1), X, ReadOrd::Rlx, 0);
    assert!(
        atomic(&s1, X).stores[0].loads.is_empty(),
        "init happens before"
    );
    assert!(
        std::ptr::eq(atomic(&s1, X), atomic(&s, X)),
        "a load that records nothing leaves its location shared"
    );
    let mut s2 = load_value(&s, t(1), X, ReadOrd::Rlx, 1);
    let first = atomic(&s2, X).stores[1].loads.clone();
    assert_eq!(first.len(), 1);
    atomic_fence(&mut s2, Memory::Weak, t(1), C11Fence::Rel);
    let s3 = load_value(&s2, t(1), X, ReadOrd::Rlx, 1);
    assert_eq!(atomic(&s3, X).stores[1].loads, first, "smallest epoch kept");
    // An acquire read of a release store is not recorded.
    let mut r = init(2);
    atomic_store(&mut r, t(0), X, 1, WriteOrd::Rel);
    let r1 = load_value(&r, t(1), X, ReadOrd::Acq, 1);
    assert!(atomic(&r1, X).stores[1].loads.is_empty());
}

/// The SC helpers of Fig. 13.
#[test]
fn sc_helpers() {
    let mut s = init(2);
    atomic_store(&mut s, t(0), X, 1, WriteOrd::Sc);
    assert_eq!(s.sw.get(t(0)), 1, "S_W[t] = epoch of the SC store");
    atomic_fence(&mut s, Memory::Weak, t(0), C11Fence::Sc);
    assert_eq!(s.sf.get(t(0)), 2, "S_F[t] = epoch of the SC fence");
    assert_eq!(s.thread(t(0)).sw.get(t(0)), 1);
    let s1 = load_value(&s, t(1), Y, ReadOrd::Sc, 0);
    assert_eq!(s1.thread(t(1)).sr.get(t(0)), 2, "S_R,t ∪= S_F");
    assert_eq!(s1.thread(t(1)).sw, VClock::bottom(), "loads leave S_W,t");
}

/// `prune_after` (pruning only where a step can have made it possible)
/// prunes exactly as `prune` does, on every successor of random walks of
/// loads, stores, RMWs and fences of every order, under both memories,
/// by three threads that end at random points (a lone running thread's
/// store is what makes a grown list prunable without any clock change).
#[test]
fn pruning_after_a_step_is_pruning() {
    use super::model::perform_op;
    use super::prune::prune_after;
    use crate::ir::{FenceKind, RmwOp};
    use crate::model::{MemOp, Step};
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let (reads, writes) = (
        [ReadOrd::Rlx, ReadOrd::Acq, ReadOrd::Sc],
        [WriteOrd::Rlx, WriteOrd::Rel, WriteOrd::Sc],
    );
    let rmws = [
        RmwOrd::Rlx,
        RmwOrd::Acq,
        RmwOrd::Rel,
        RmwOrd::AcqRel,
        RmwOrd::Sc,
    ];
    let fences = [C11Fence::Acq, C11Fence::Rel, C11Fence::AcqRel, C11Fence::Sc];
    let (mut checked, mut cut) = (0, 0);
    for walk in 0..40 {
        let memory = [Memory::Weak, Memory::Sc][walk % 2];
        let mut s = init(3);
        let mut out: Vec<Step<C11State>> = Vec::new();
        let mut running: Vec<u32> = vec![0, 1, 2];
        while !running.is_empty() {
            let th = running[next(running.len() as u64) as usize];
            let loc = [X, Y][next(2) as usize];
            let op = match next(13) {
                0 => MemOp::End,
                1..=3 => MemOp::Load {
                    loc,
                    ord: reads[next(3) as usize],
                },
                4..=7 => MemOp::Store {
                    loc,
                    val: next(3) as i64,
                    ord: writes[next(3) as usize],
                },
                8..=9 => MemOp::Rmw {
                    loc,
                    op: RmwOp::Add,
                    operand: 1,
                    ord: rmws[next(5) as usize],
                },
                _ => MemOp::Fence {
                    kind: FenceKind::C11(fences[next(4) as usize]),
                },
            };
            if op == MemOp::End {
                running.retain(|&u| u != th);
            }
            out.clear();
            perform_op(memory, false, &s, site(th, 0), op, &mut out);
            for succ in &out {
                let (mut all, mut after) = (succ.state.clone(), succ.state.clone());
                prune(&mut all, memory);
                prune_after(&mut after, &s, memory);
                assert_eq!(all, after, "after {op:?} by {th} from {s:?}");
                checked += 1;
                cut += usize::from(all != succ.state);
            }
            let pick = next(out.len() as u64) as usize;
            s = out.swap_remove(pick).state;
            prune(&mut s, memory);
        }
    }
    assert!(
        checked > 1000 && cut > 50,
        "{checked} successors, {cut} cut"
    );
}
