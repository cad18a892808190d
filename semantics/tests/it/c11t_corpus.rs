//! `c11t` against `ax.c11t` on the hand-written corpus of
//! `c11_support::programs` (message passing with every fence and order,
//! SB, IRIW, coherence, RMW/CAS, fork/join, non-atomic data behind flags):
//! the same race-free outcomes, the same racy marks, the same races
//! (compared as `c11_vs_ax.rs` compares `c11r` with `ax.c11r`). Also the
//! model seam directly: `older`, the settling steps and final values.

use std::collections::BTreeSet;

use crate::c11_support::programs::corpus;
use crate::c11_support::{load, reg, store, Builder};
use relaxlab_semantics::axiomatic::{run_axiomatic, AxOptions};
use relaxlab_semantics::ir::{AxModel, InstrId, LocId, ReadOrd, ThreadId, Value, WriteOrd};
use relaxlab_semantics::model::{EventKind, MemOp, MemoryModel, Race, Site};
use relaxlab_semantics::models::C11t;
use relaxlab_semantics::operational::{explore, ExploreOptions};
use relaxlab_semantics::outcome::OutcomeTable;

/// The race-free outcomes, whether some outcome is racy, and the races as
/// unordered pairs.
fn summary(t: &OutcomeTable) -> (BTreeSet<Vec<Value>>, bool, Vec<Race>) {
    let mut races: Vec<Race> = t.races.iter().map(|r| r.unordered()).collect();
    races.sort();
    races.dedup();
    (
        t.rows
            .iter()
            .filter(|r| !r.racy)
            .map(|r| r.values.clone())
            .collect(),
        t.rows.iter().any(|r| r.racy),
        races,
    )
}

#[test]
fn c11t_matches_ax_c11t_on_the_corpus() {
    let mut differ = Vec::new();
    let mut count = 0;
    for (name, p) in corpus() {
        let op = explore(&p, &C11t, &ExploreOptions::default());
        let ax = run_axiomatic(&p, AxModel::C11t, &AxOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert!(op.complete() && ax.complete(), "{name}: bound hit");
        count += 1;
        if summary(&op) != summary(&ax) {
            differ.push(format!(
                "{name}:\n  op {:?}\n  ax {:?}",
                summary(&op),
                summary(&ax)
            ));
        }
    }
    assert!(count > 50, "corpus too small: {count}");
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

fn site(t: u32, i: u32) -> Site {
    Site {
        thread: ThreadId(t),
        instr: InstrId(i),
    }
}

/// Performs `op` and returns the only result.
fn only(
    m: &C11t,
    s: &<C11t as MemoryModel>::State,
    at: Site,
    op: MemOp,
) -> <C11t as MemoryModel>::State {
    let mut out = Vec::new();
    m.perform(s, at, op, &mut out);
    assert_eq!(out.len(), 1, "{op:?}");
    out.pop().unwrap().state
}

/// C11TESTER Fig. 4 through the seam: after `x=1; x=2` by P0, P1's relaxed
/// load may read 0, 1 or 2, oldest first, with `older` 2, 1, 0. Then, with
/// both threads finished, x has one sink (x=2 follows x=1 by CoWW): one
/// settling step naming it, final value 2.
#[test]
fn older_and_final_value_through_the_seam() {
    let mut b = Builder::new();
    let x = b.atomic("x");
    b.thread(
        0,
        vec![store(x, 1, WriteOrd::Rlx), store(x, 2, WriteOrd::Rlx)],
    );
    b.thread(1, vec![load(0, x, ReadOrd::Rlx)]);
    let p = b.build(vec![reg(1, 0)]);
    let m = C11t;
    let mut s = m.initial(&p);
    for (i, v) in [(0, 1), (1, 2)] {
        let op = MemOp::Store {
            loc: x,
            val: v,
            ord: WriteOrd::Rlx,
        };
        s = only(&m, &s, site(0, i), op);
    }
    let mut out = Vec::new();
    let op = MemOp::Load {
        loc: x,
        ord: ReadOrd::Rlx,
    };
    m.perform(&s, site(1, 0), op, &mut out);
    let seen: Vec<(Option<Value>, EventKind)> = out
        .iter()
        .map(|st| (st.value, st.event.kind.clone()))
        .collect();
    let read = |value, older| {
        (
            Some(value),
            EventKind::Read {
                loc: x,
                value,
                older,
            },
        )
    };
    assert_eq!(seen, vec![read(0, 2), read(1, 1), read(2, 0)]);
    let mut s = out.swap_remove(0).state;
    s = only(&m, &s, site(0, 2), MemOp::End);
    s = only(&m, &s, site(1, 1), MemOp::End);
    // One sink (`x = 2`, after `x = 1` in P0's order): a single settle
    // step names it, so the trace says which store `x` ends with.
    assert!(!m.settled(&s));
    let mut internal = Vec::new();
    m.internal(&s, &mut internal);
    let events: Vec<EventKind> = internal.iter().map(|(_, e)| e.kind.clone()).collect();
    assert_eq!(events, vec![EventKind::Settle { loc: x, value: 2 }]);
    let s = internal.swap_remove(0).0;
    let mut more = Vec::new();
    m.internal(&s, &mut more);
    assert!(more.is_empty(), "settled once");
    assert!(m.settled(&s));
    assert_eq!(m.final_value(&s, x), 2);
}

/// 2+2W's stores through the seam: P0 `x=1; y=2`, P1 `y=1; x=2`, all
/// relaxed, run one after the other. Nothing orders the two stores of
/// each location, so at the end each location has two sinks: no step is
/// offered while a thread runs; then one settling step per sink for `x`
/// (the lowest location), and after it one per sink for `y`.
#[test]
fn settling_lists_every_last_store() {
    let mut b = Builder::new();
    let (x, y) = (b.atomic("x"), b.atomic("y"));
    b.thread(
        0,
        vec![store(x, 1, WriteOrd::Rlx), store(y, 2, WriteOrd::Rlx)],
    );
    b.thread(
        0,
        vec![store(y, 1, WriteOrd::Rlx), store(x, 2, WriteOrd::Rlx)],
    );
    let p = b.build(vec![]);
    let m = C11t;
    let mut s = m.initial(&p);
    let st = |loc: LocId, val| MemOp::Store {
        loc,
        val,
        ord: WriteOrd::Rlx,
    };
    s = only(&m, &s, site(0, 0), st(x, 1));
    s = only(&m, &s, site(0, 1), st(y, 2));
    s = only(&m, &s, site(1, 0), st(y, 1));
    s = only(&m, &s, site(1, 1), st(x, 2));
    s = only(&m, &s, site(0, 2), MemOp::End);
    let mut internal = Vec::new();
    m.internal(&s, &mut internal);
    assert!(internal.is_empty(), "settling while P1 runs");
    assert!(!m.settled(&s));
    s = only(&m, &s, site(1, 2), MemOp::End);
    m.internal(&s, &mut internal);
    let kinds: Vec<EventKind> = internal.iter().map(|(_, e)| e.kind.clone()).collect();
    assert_eq!(
        kinds,
        vec![
            EventKind::Settle { loc: x, value: 1 },
            EventKind::Settle { loc: x, value: 2 },
        ]
    );
    let mut finals = BTreeSet::new();
    for (sx, _) in internal {
        assert!(!m.settled(&sx));
        let mut next = Vec::new();
        m.internal(&sx, &mut next);
        assert_eq!(next.len(), 2, "one step per sink of y");
        for (sy, e) in next {
            assert!(matches!(e.kind, EventKind::Settle { loc, .. } if loc == y));
            assert!(m.settled(&sy));
            finals.insert((m.final_value(&sy, x), m.final_value(&sy, y)));
        }
    }
    let want: BTreeSet<(Value, Value)> = [(1, 1), (1, 2), (2, 1), (2, 2)].into_iter().collect();
    assert_eq!(finals, want);
}
