//! The `with` searches of the machine: `generate_orders` per location and
//! `linearisations` over the whole set, on hand-built executions.

use super::super::builder::CatBuilder;
use super::super::model::{Arch, CatModel, Check, Choice, Op, RelPrim, SetPrim, Test};
use super::*;
use crate::axiomatic::execution::{AccessKind, Event, EventKind, Mode};
use crate::ir::{FenceKind, LocId, ThreadId};
use std::sync::Arc;

fn write(thread: Option<u32>, loc: usize, value: i64) -> Event {
    Event {
        thread: thread.map(|t| ThreadId::new(t as usize)),
        instr: None,
        line: 0,
        kind: EventKind::Write {
            loc: LocId::new(loc),
            value,
            access: AccessKind::Plain,
        },
        mode: Mode::Rlx,
        tags: 0,
    }
}

/// An execution with two locations: x with the init write and
/// `x_writes` more, y with the init write and one more, and a fence;
/// `co` orders each location's writes as they are numbered. Returns it
/// and the events of x and of y, in co order.
fn execution(x_writes: usize) -> (Execution, Vec<usize>, Vec<usize>) {
    let mut events = vec![write(None, 0, 0), write(None, 1, 0)];
    let mut xs = vec![0];
    for v in 1..=x_writes {
        xs.push(events.len());
        events.push(write(Some(0), 0, v as i64));
    }
    let ys = vec![1, events.len()];
    events.push(write(Some(1), 1, 1));
    events.push(Event {
        thread: Some(ThreadId::new(1)),
        instr: None,
        line: 0,
        kind: EventKind::Fence(FenceKind::Hw(crate::ir::HwFence::Full)),
        mode: Mode::Rlx,
        tags: 0,
    });
    let n = events.len();
    let mut co = Relation::new(n);
    for loc in [&xs, &ys] {
        for (i, &a) in loc.iter().enumerate() {
            for &b in &loc[i + 1..] {
                co.add_idx(a, b);
            }
        }
    }
    let ex = Execution {
        events,
        po: Relation::new(n),
        asw: Relation::new(n),
        rf: Relation::new(n),
        co,
        rmw: Relation::new(n),
        sc: None,
        deps: None,
        fw: None,
        updates: 0,
    };
    (ex, xs, ys)
}

/// A program with nothing in it, for executions built by hand.
pub(crate) fn program() -> Program {
    Program {
        name: "t".into(),
        doc: None,
        locations: Vec::new(),
        threads: Vec::new(),
        toplevel: 0,
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

fn check(node: NodeId, test: Test) -> Check {
    Check {
        kind: CheckKind::Check,
        test,
        negated: false,
        node,
        name: "t".into(),
    }
}

/// `with x from CHOICE(set, rel)` then `empty x & co` when `against`
/// (x must reverse co on each location), showing x.
fn model(
    per_location: bool,
    set: impl FnOnce(&mut CatBuilder) -> NodeId,
    rel: impl FnOnce(&mut CatBuilder) -> NodeId,
    against: bool,
) -> Arc<CatModel> {
    let mut b = CatBuilder::new();
    let set = set(&mut b);
    let rel = rel(&mut b);
    let (w, x) = b.with_var();
    b.with(
        w,
        if per_location {
            Choice::PerLocation { set, rel }
        } else {
            Choice::Linearisations { set, rel }
        },
    );
    if against {
        let co = b.node(Op::Rel(RelPrim::Co));
        let both = b.node(Op::Inter(x, co));
        b.check(check(both, Test::Empty));
    }
    b.finish("t".into(), Arch::C, vec![("x".into(), x)])
        .unwrap()
}

fn writes(b: &mut CatBuilder) -> NodeId {
    b.node(Op::Set(SetPrim::Writes))
}

fn nothing(b: &mut CatBuilder) -> NodeId {
    b.node(Op::EmptyRel)
}

fn pairs(r: &Relation) -> Vec<(usize, usize)> {
    let mut v: Vec<_> = r.pairs().map(|(a, b)| (a.index(), b.index())).collect();
    v.sort();
    v
}

/// The strict total order listing `order`.
fn order(order: &[usize]) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for (i, &a) in order.iter().enumerate() {
        for &b in &order[i + 1..] {
            v.push((a, b));
        }
    }
    v
}

fn judge_and_show(m: &CatModel, ex: &Execution, budget: u64) -> Option<Vec<(usize, usize)>> {
    let mut machine = Machine::new(m, budget);
    match machine.judge(&program(), ex) {
        Verdict::Accepted(_) => {
            let shown = machine.shown(ex);
            Some(pairs(&shown[0].1))
        }
        Verdict::Rejected(_) => None,
        Verdict::Undetermined => panic!("the search stopped at its budget"),
        Verdict::Unsettled => panic!("a `let rec` did not settle"),
    }
}

#[test]
fn generate_orders_orders_each_location_and_nothing_across() {
    let (ex, xs, ys) = execution(2);
    let m = model(true, writes, nothing, false);
    let x = judge_and_show(&m, &ex, 1000).expect("some order");
    // The first order found: each location's writes in event order,
    // no pair across locations, the fence in no pair.
    let mut want = order(&xs);
    want.extend(order(&ys));
    want.sort();
    assert_eq!(x, want);
}

#[test]
fn generate_orders_searches_every_location() {
    // Only the orders reversing co on both locations pass `empty x &
    // co`: the search must go past the first order of x and of y.
    let (ex, xs, ys) = execution(3);
    let m = model(true, writes, nothing, true);
    let x = judge_and_show(&m, &ex, 1000).expect("the reversed orders");
    let rev = |v: &[usize]| v.iter().rev().copied().collect::<Vec<_>>();
    let mut want = order(&rev(&xs));
    want.extend(order(&rev(&ys)));
    want.sort();
    assert_eq!(x, want);
    // The same with the orders forced to extend co: none passes.
    let co = |b: &mut CatBuilder| b.node(Op::Rel(RelPrim::Co));
    let m = model(true, writes, co, true);
    assert_eq!(judge_and_show(&m, &ex, 1000), None);
}

#[test]
fn generate_orders_extends_r_and_rejects_a_cyclic_r() {
    let (ex, _, _) = execution(3);
    let co = |b: &mut CatBuilder| b.node(Op::Rel(RelPrim::Co));
    // r = co, total on each location: the only choice is co itself.
    let m = model(true, writes, co, false);
    assert_eq!(
        judge_and_show(&m, &ex, 1000).unwrap(),
        pairs(&ex.co),
        "co is the only order extending co"
    );
    // r = co | co^-1 is cyclic on each location: no choice at all.
    let cyclic = |b: &mut CatBuilder| {
        let co = b.node(Op::Rel(RelPrim::Co));
        let inv = b.node(Op::Inverse(co));
        b.node(Op::Union(co, inv))
    };
    let m = model(true, writes, cyclic, false);
    let mut machine = Machine::new(&m, 1000);
    assert_eq!(machine.judge(&program(), &ex), Verdict::Rejected(None));
}

#[test]
fn generate_orders_of_no_memory_event_is_the_empty_relation() {
    // S = the fences: no location, so one choice, the empty relation
    // (herd7: cross of no linearisations is {0}).
    let (ex, _, _) = execution(1);
    let fences = |b: &mut CatBuilder| b.node(Op::Set(SetPrim::Fences));
    let m = model(true, fences, nothing, false);
    assert_eq!(judge_and_show(&m, &ex, 10), Some(Vec::new()));
    let empty = |b: &mut CatBuilder| b.node(Op::EmptySet);
    let m = model(true, empty, nothing, false);
    assert_eq!(judge_and_show(&m, &ex, 10), Some(Vec::new()));
}

#[test]
fn generate_orders_prunes_prefixes_its_bounds_condemn() {
    // x has 7 writes: 5040 orders, one passing. The lower bound of a
    // prefix whose first element is not co-last already meets co, so
    // the search visits a few dozen prefixes.
    let (ex, xs, _) = execution(6);
    let m = model(true, writes, nothing, true);
    let x = judge_and_show(&m, &ex, 60).expect("found within the budget");
    let rev: Vec<usize> = xs.iter().rev().copied().collect();
    assert!(order(&rev).iter().all(|p| x.contains(p)));
}

#[test]
fn linearisations_still_order_the_whole_set() {
    let (ex, _, _) = execution(1);
    let m = model(false, writes, nothing, false);
    let x = judge_and_show(&m, &ex, 1000).expect("some order");
    // One total order of the five writes, across locations.
    let all: Vec<usize> = (0..ex.len()).filter(|&e| ex.events[e].is_write()).collect();
    assert_eq!(x, order(&all));
}
