//! herd7's C read-modify-writes: one event in `R & W`.
//! (book: cat.md, One event per read-modify-write.)
//!
//! relaxlab's executions make a read-modify-write (an RMW or a successful
//! CAS) a read and a write joined by `rmw`, as herd7 does for hardware
//! instructions and for the Linux kernel's primitives. herd7's C semantics
//! makes a C11 one (`atomic_fetch_add_explicit`, `atomic_exchange_explicit`,
//! a successful `atomic_compare_exchange_*`) a single event, a read and a
//! write at once, with the operation's memory order (`ACQ_REL` for
//! `memory_order_acq_rel`), in no `rmw` pair (herdtools7's `CSem.ml`,
//! `Act.RMW`); its classic C11 models (`c11_base.cat`) keep it atomic with
//! that: `irreflexive (rf | (mo; mo; rf^-1) | (mo; rf))`.
//!
//! A C model that never reads `rmw` judges such executions in herd7's
//! form ([`CatModel::one_event_rmws`](super::CatModel::one_event_rmws)):
//! [`one_event_view`] joins each `rmw` pair into one event, its read's
//! index, whose `rf` is the read's and whose `co`, `FW` and dependencies
//! in are the write's. Every candidate stands for exactly one of herd7's
//! (the read's `rf`, the write's place in `co`), so the counts are
//! herd7's. What the model reports on the view (shown relations, flagged
//! pairs) is put back on the execution's events by [`OneEventView::back`].

use super::deps::dependencies;
use crate::axiomatic::execution::{AccessKind, EventId, EventKind, Execution, Mode, PathDeps};
use crate::axiomatic::relation::{members, single, EventSet, Relation};
use crate::ir::Program;

/// An execution with each read-modify-write as one event.
#[derive(Debug)]
pub(crate) struct OneEventView {
    pub exec: Execution,
    /// For each event of the view, the execution's event it stands for as
    /// the source of a pair and as its target: the write and the read of a
    /// joined read-modify-write (what leaves it comes after its read in
    /// program order, what enters it comes before its write).
    back: Vec<(EventId, EventId)>,
}

impl OneEventView {
    /// The pair `(a, b)` of the view, on the execution's events.
    pub fn back(&self, a: EventId, b: EventId) -> (EventId, EventId) {
        (self.back[a.index()].0, self.back[b.index()].1)
    }

    /// A relation of the view, on the execution's `n` events.
    pub fn relation_back(&self, r: &Relation, n: usize) -> Relation {
        let mut out = Relation::new(n);
        for (a, b) in r.pairs() {
            let (a, b) = self.back(a, b);
            out.add(a, b);
        }
        out
    }
}

/// The order of herd7's one event for an RMW whose read and write halves
/// have orders `r` and `w` (the halves split the RMW's order:
/// `memory_order_acq_rel` is an acquire read and a release write).
fn joined_mode(r: Mode, w: Mode) -> Mode {
    match (r, w) {
        (Mode::Sc, _) | (_, Mode::Sc) => Mode::Sc,
        (Mode::Acq | Mode::AcqRel, Mode::Rel | Mode::AcqRel) => Mode::AcqRel,
        (Mode::Acq | Mode::AcqRel, _) => Mode::Acq,
        (_, Mode::Rel | Mode::AcqRel) => Mode::Rel,
        (Mode::Na, Mode::Na) => Mode::Na,
        _ => Mode::Rlx,
    }
}

/// Is the `rmw` pair whose read is `r` one event in herd7? Every pair of
/// relaxlab's instructions is (a C11 read-modify-write); in herd's C
/// semantics (`Program::c`), a C11 one is, its halves carrying the
/// halves of its order, and the Linux kernel's are not: they are a read
/// and a write in herd7 too, with no C11 order.
fn is_c11_rmw(program: &Program, ex: &Execution, r: EventId) -> bool {
    program.c.is_none() || ex.events[r.index()].mode != Mode::Na
}

/// `ex` with each C11 `rmw` pair ([`is_c11_rmw`]) joined into one event (`None` when it has
/// none). `with_deps`: the model reads `data`, `ctrl` or `addr`, which the
/// view then carries, computed on `ex` (an execution of `program`).
pub(crate) fn one_event_view(
    program: &Program,
    ex: &Execution,
    with_deps: bool,
) -> Option<OneEventView> {
    // Most executions judged have no read-modify-write: nothing to build.
    let mut pairs = ex
        .rmw
        .pairs()
        .filter(|&(r, _)| is_c11_rmw(program, ex, r))
        .peekable();
    pairs.peek()?;
    let n = ex.len();
    // The write half of each pair, and the read it joins.
    let mut joined_to: Vec<Option<usize>> = vec![None; n];
    for (r, w) in pairs {
        joined_to[w.index()] = Some(r.index());
    }
    // New indices: the events in order, less the joined writes.
    let mut new_of = vec![0usize; n];
    let mut kept = Vec::with_capacity(n);
    for e in 0..n {
        if joined_to[e].is_none() {
            new_of[e] = kept.len();
            kept.push(e);
        }
    }
    for e in 0..n {
        if let Some(r) = joined_to[e] {
            new_of[e] = new_of[r];
        }
    }
    let m = kept.len();
    let mut back: Vec<(EventId, EventId)> = kept
        .iter()
        .map(|&e| (EventId::new(e), EventId::new(e)))
        .collect();
    let mut events: Vec<_> = kept.iter().map(|&e| ex.events[e]).collect();
    let mut updates: EventSet = 0;
    for (w, r) in joined_to
        .iter()
        .enumerate()
        .filter_map(|(w, r)| Some((w, (*r)?)))
    {
        let i = new_of[r];
        updates |= single(i);
        back[i].0 = EventId::new(w);
        let (read, write) = (&ex.events[r], &ex.events[w]);
        let e = &mut events[i];
        e.mode = joined_mode(read.mode, write.mode);
        e.tags = read.tags | write.tags;
        if let EventKind::Read { loc, value, .. } = read.kind {
            e.kind = EventKind::Read {
                loc,
                value,
                access: AccessKind::Update,
            };
        }
    }
    let map = |r: &Relation, keep_identity: bool| {
        let mut out = Relation::new(m);
        for (a, b) in r.pairs() {
            let (a, b) = (new_of[a.index()], new_of[b.index()]);
            if keep_identity || a != b {
                out.add_idx(a, b);
            }
        }
        out
    };
    let deps = match (&ex.deps, with_deps) {
        (Some(d), _) => Some(Box::new(PathDeps {
            addr: map(&d.addr, false),
            data: map(&d.data, false),
            ctrl: map(&d.ctrl, false),
        })),
        (None, true) => {
            let d = dependencies(program, ex);
            let rows = |rows: &[u128]| map(&Relation::from_rows(rows.to_vec()), false);
            Some(Box::new(PathDeps {
                addr: Relation::new(m),
                data: rows(&d.data),
                ctrl: rows(&d.ctrl),
            }))
        }
        (None, false) => None,
    };
    let set = |s: EventSet| members(s).fold(0, |acc, e| acc | single(new_of[e]));
    let exec = Execution {
        events,
        po: map(&ex.po, false),
        asw: map(&ex.asw, false),
        // An RMW reading its own write is a pair herd7 has too (`rf & id`),
        // for the model to reject.
        rf: map(&ex.rf, true),
        co: map(&ex.co, true),
        rmw: Relation::new(m),
        sc: ex.sc.as_ref().map(|order| {
            let mut joined: Vec<EventId> = Vec::with_capacity(order.len());
            for e in order {
                let j = EventId::new(new_of[e.index()]);
                if !joined.contains(&j) {
                    joined.push(j);
                }
            }
            joined
        }),
        deps,
        fw: ex.fw.map(set),
        updates,
    };
    Some(OneEventView { exec, back })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::axiomatic::cat::machine::tests::program;
    use crate::axiomatic::execution::Event;
    use crate::ir::{LocId, ThreadId};

    fn event(thread: Option<usize>, kind: EventKind, mode: Mode) -> Event {
        Event {
            thread: thread.map(ThreadId::new),
            instr: None,
            line: 0,
            kind,
            mode,
            tags: 0,
        }
    }

    fn access(read: bool, value: i64, access: AccessKind) -> EventKind {
        let loc = LocId::new(0);
        match read {
            true => EventKind::Read { loc, value, access },
            false => EventKind::Write { loc, value, access },
        }
    }

    /// An acq_rel fetch-add of x on thread 0 (events 1 and 2) that reads
    /// the init write (0) while thread 1's write (3) falls between it and
    /// the fetch-add's write in co: the view joins 1 and 2 into one
    /// `ACQ_REL` event in R & W, and herd7's atomicity axiom
    /// (`irreflexive co; co; rf^-1`) then fails on the init write.
    #[test]
    fn a_read_modify_write_becomes_one_event_in_r_and_w() {
        let events = vec![
            event(None, access(false, 0, AccessKind::Plain), Mode::Na),
            event(Some(0), access(true, 0, AccessKind::Update), Mode::Acq),
            event(Some(0), access(false, 1, AccessKind::Update), Mode::Rel),
            event(Some(1), access(false, 2, AccessKind::Plain), Mode::Rlx),
        ];
        let pairs = |p: &[(usize, usize)]| {
            let mut r = Relation::new(4);
            for &(a, b) in p {
                r.add_idx(a, b);
            }
            r
        };
        let ex = Execution {
            events,
            po: pairs(&[(1, 2)]),
            asw: pairs(&[(0, 1), (0, 2), (0, 3)]),
            rf: pairs(&[(0, 1)]),
            co: pairs(&[(0, 3), (3, 2), (0, 2)]),
            rmw: pairs(&[(1, 2)]),
            sc: None,
            deps: None,
            fw: Some(single(2)),
            updates: 0,
        };
        let view = one_event_view(&program(), &ex, false).expect("a view");
        let v = &view.exec;
        assert_eq!(v.len(), 3);
        assert_eq!(v.updates, single(1));
        assert_eq!(v.events[1].mode, Mode::AcqRel);
        assert!(v.events[1].is_read());
        assert_eq!(v.po, Relation::new(3));
        assert_eq!(v.rmw, Relation::new(3));
        assert_eq!(v.fw, Some(single(1)));
        let rf: Vec<_> = v.rf.pairs().map(|(a, b)| (a.0, b.0)).collect();
        assert_eq!(rf, [(0, 1)]);
        let co: Vec<_> = v.co.pairs().map(|(a, b)| (a.0, b.0)).collect();
        assert_eq!(co, [(0, 1), (0, 2), (2, 1)]);
        let atomicity = v.co.seq(&v.co).seq(&v.rf.inverse());
        assert!(atomicity.has(0, 0));
        // Back on the execution: out of the joined event from its write,
        // into it at its read.
        let id = EventId::new;
        assert_eq!(view.back(id(1), id(2)), (id(2), id(3)));
        assert_eq!(view.back(id(2), id(1)), (id(3), id(1)));
        // An execution without a read-modify-write has no view.
        let mut plain = ex.clone();
        plain.rmw = Relation::new(4);
        assert!(one_event_view(&program(), &plain, false).is_none());
    }
}
