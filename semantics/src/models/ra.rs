//! Release/acquire (`ra`): every write a release, every read an acquire,
//! whatever orders the program writes (GenMC's RA; Lahav, Giannarakis and
//! Vafeiadis, "Taming release-acquire consistency", POPL 2016), run with
//! per-thread views. Its axiomatic twin is `ax.ra`
//! ([`crate::axiomatic`], `axioms::ra`). Book: "RA: release/acquire"
//! (model-ra.md), sections "The machine: views and messages" and "Its
//! axiomatic twin: `ax.ra`".
//!
//! # Theory
//!
//! **Memory** is, per location, its messages in modification order (`mo`),
//! oldest first, the init write first. A message holds the value written
//! and the *view* of its writer when it wrote (a release): for every
//! location, the position in `mo` of the newest message the writer had
//! seen. Each thread has a view too. Positions are indices into the
//! message lists, so a view is a vector of `u32` per location.
//!
//! **Rules**, for thread `t` with view `V`:
//! - *read* `x`: take any message at position `i >= V[x]` (one result per
//!   message, oldest first); the value is the message's, and `t` acquires
//!   its view: `V := V ⊔ view(i)` (pointwise maximum; `view(i)[x] = i`).
//! - *write* `v` to `x`: place a new message right after any message at a
//!   position `j >= V[x]`, except right before a message an RMW wrote
//!   after reading `j` (it must stay adjacent to it). The new message, at
//!   `j + 1`, gets the view `V[x := j + 1]`, which becomes `t`'s view.
//!   Placing it before newer messages is what lets `mo` differ from the
//!   order of execution (2+2W is allowed). Results: the end of `mo`
//!   first, then one position further back at a time.
//! - *RMW* (and a successful CAS): read a message at `j >= V[x]` that no
//!   RMW has read (the next message is not marked), acquire its view, and
//!   write right after it, marked: atomicity, no write can come between.
//!   A failed CAS is a read of a message whose value differs from the
//!   expected one. Results: failures oldest first, then successes oldest
//!   first.
//! - *fence*: nothing (every access already releases or acquires; `ra`
//!   has no SC order, so `fence(sc)` and `sc` accesses are release/acquire
//!   too). *fork*: the child starts with its parent's view. *join*: the
//!   parent acquires the child's final view. *end*: nothing.
//!
//! Inserting a message at `j + 1` shifts every view entry for `x` at
//! `j + 1` or beyond (threads' and messages'): positions name messages,
//! and the shift keeps them naming the same ones. This keeps states
//! canonical: two executions that place the same messages in the same
//! order reach equal states.
//!
//! **Why it is RA.** Reads take messages already written, so `po ∪ rf`
//! follows execution order and `hb = (po ∪ rf)+` is acyclic. A view holds
//! the newest message of each location that happens before the thread's
//! next event, so a read cannot take a message `mo`-before one that
//! happens before it (CoRR, CoWR), and a write cannot go `mo`-before one
//! that happens before it (CoWW, CoRW): `hb; eco` is irreflexive. The RMW
//! marks give atomicity. Conversely every RA-consistent execution is
//! reached by performing its events in an order extending `hb` and placing
//! each write where `mo` puts it among those already written.
//!
//! Traces say which message a read took (`older`: messages `mo`-after it)
//! and where a write went (`newer`: messages `mo`-after it when it was
//! placed), so the lift rebuilds `mo` (registry: `LiftReads::Mo`).
//!
//! # Dependence ([`crate::dependence`])
//!
//! The cells are `M(x)`, location `x`'s message list; a thread's view is
//! its own. A read of `x` reads `M(x)`; a write, RMW or CAS writes it;
//! fences, forks, joins and ends touch no cell (a fork and a join involve
//! only their two threads). A write's shift of other views is no change of
//! what they denote (the messages they name stay the same), so two steps
//! on different locations commute: either order gives the same state. This
//! is SC's dependence ([`Footprint::of_access`]).

use crate::dependence::Footprint;
use crate::ir::{LocId, Program, ThreadId, Value};
use crate::model::{Event, EventKind, MemOp, MemoryModel, Site, Step};
use crate::picture::{loc_name, Cell, Describe, Group, MemoryPicture};
use crate::registry::OpModel;

/// The release/acquire model.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ra;

/// A message: a value written, with its writer's view.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Message {
    value: Value,
    /// Per location, a position in its `mo`.
    view: Box<[u32]>,
    /// Written by an RMW right after the message before it, which it read:
    /// nothing may be placed between them.
    rmw: bool,
}

/// The state of [`Ra`]: per location its messages in `mo`, per thread its
/// view.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RaState {
    locs: Box<[Vec<Message>]>,
    views: Box<[Box<[u32]>]>,
}

impl RaState {
    /// Places `msg` at position `at` of `loc`'s `mo`, shifting every view
    /// entry for `loc` from `at` on.
    fn insert(&mut self, loc: LocId, at: u32, msg: Message) {
        let l = loc.index();
        let shift = |view: &mut [u32]| {
            if view[l] >= at {
                view[l] += 1;
            }
        };
        self.views.iter_mut().for_each(|v| shift(v));
        for msgs in self.locs.iter_mut() {
            msgs.iter_mut().for_each(|m| shift(&mut m.view));
        }
        self.locs[l].insert(at as usize, msg);
    }

    /// `t` acquires `view`.
    fn acquire(&mut self, t: ThreadId, view: &[u32]) {
        for (mine, theirs) in self.views[t.index()].iter_mut().zip(view) {
            *mine = (*mine).max(*theirs);
        }
    }

    /// The state after `t` reads message `i` of `loc`.
    fn read(&self, t: ThreadId, loc: LocId, i: u32) -> RaState {
        let mut next = self.clone();
        let view = next.locs[loc.index()][i as usize].view.clone();
        next.acquire(t, &view);
        next
    }

    /// The state after `t` places a message of `value` right after message
    /// `j` of `loc` (an RMW's when `rmw`); `t`'s view then points at it.
    fn write_after(&self, t: ThreadId, loc: LocId, j: u32, value: Value, rmw: bool) -> RaState {
        let mut next = self.clone();
        let at = j + 1;
        next.insert(
            loc,
            at,
            Message {
                value,
                view: Box::default(),
                rmw,
            },
        );
        let view = &mut next.views[t.index()];
        view[loc.index()] = at;
        let view = view.clone();
        next.locs[loc.index()][at as usize].view = view;
        next
    }

    /// The positions of `loc`'s messages `t` may read.
    fn readable(&self, t: ThreadId, loc: LocId) -> std::ops::Range<u32> {
        self.views[t.index()][loc.index()]..self.locs[loc.index()].len() as u32
    }

    /// May a message go right after message `j` of `loc`?
    fn free_after(&self, loc: LocId, j: u32) -> bool {
        self.locs[loc.index()]
            .get(j as usize + 1)
            .is_none_or(|m| !m.rmw)
    }

    /// How many messages of `loc` come after position `i`.
    fn after(&self, loc: LocId, i: u32) -> u32 {
        self.locs[loc.index()].len() as u32 - 1 - i
    }
}

fn step(value: Option<Value>, state: RaState, kind: EventKind) -> Step<RaState> {
    Step {
        value,
        state,
        event: Event::new(kind),
    }
}

impl MemoryModel for Ra {
    type State = RaState;
    type Consing = ();

    fn model(&self) -> OpModel {
        OpModel::Ra
    }

    fn initial(&self, program: &Program) -> RaState {
        let n = program.locations.len();
        RaState {
            locs: program
                .locations
                .iter()
                .map(|l| {
                    vec![Message {
                        value: l.init,
                        view: vec![0; n].into(),
                        rmw: false,
                    }]
                })
                .collect(),
            views: program.threads.iter().map(|_| vec![0; n].into()).collect(),
        }
    }

    fn perform(&self, s: &RaState, site: Site, op: MemOp, out: &mut Vec<Step<RaState>>) {
        let t = site.thread;
        match op {
            MemOp::Load { loc, .. } => {
                for i in s.readable(t, loc) {
                    let value = s.locs[loc.index()][i as usize].value;
                    let older = s.after(loc, i);
                    let kind = EventKind::Read { loc, value, older };
                    out.push(step(Some(value), s.read(t, loc, i), kind));
                }
            }
            MemOp::Store { loc, val, .. } => {
                for j in s.readable(t, loc).rev().filter(|&j| s.free_after(loc, j)) {
                    let newer = s.after(loc, j);
                    let kind = EventKind::Write {
                        loc,
                        value: val,
                        newer,
                    };
                    out.push(step(None, s.write_after(t, loc, j, val, false), kind));
                }
            }
            MemOp::Rmw { loc, .. } | MemOp::Cas { loc, .. } => {
                let readable: Vec<u32> = s.readable(t, loc).collect();
                let old = |j: u32| s.locs[loc.index()][j as usize].value;
                let wrote = |j: u32| op.rmw_write(old(j));
                // A failed CAS reads (a weak one whatever it read); it is
                // not an RMW and needs no free place after what it read.
                for &j in readable.iter().filter(|&&j| op.may_fail(old(j))) {
                    let kind = EventKind::Update {
                        loc,
                        read: old(j),
                        wrote: None,
                        older: s.after(loc, j),
                    };
                    out.push(step(Some(old(j)), s.read(t, loc, j), kind));
                }
                for &j in &readable {
                    let (Some(v), true) = (wrote(j), s.free_after(loc, j)) else {
                        continue;
                    };
                    let kind = EventKind::Update {
                        loc,
                        read: old(j),
                        wrote: Some(v),
                        older: s.after(loc, j),
                    };
                    let next = s.read(t, loc, j).write_after(t, loc, j, v, true);
                    out.push(step(Some(old(j)), next, kind));
                }
            }
            MemOp::Fork { child } => {
                let mut next = s.clone();
                next.views[child.index()] = next.views[t.index()].clone();
                out.push(step(None, next, EventKind::Sync));
            }
            MemOp::Join { child } => {
                let mut next = s.clone();
                let view = next.views[child.index()].clone();
                next.acquire(t, &view);
                out.push(step(None, next, EventKind::Sync));
            }
            MemOp::Fence { .. } | MemOp::End => out.push(step(None, s.clone(), EventKind::Sync)),
        }
    }

    fn internal(&self, _state: &RaState, _out: &mut Vec<(RaState, Event)>) {}

    fn settled(&self, _state: &RaState) -> bool {
        true
    }

    /// The value of the `mo`-last message.
    fn final_value(&self, s: &RaState, loc: LocId) -> Value {
        s.locs[loc.index()]
            .last()
            .map(|m| m.value)
            .expect("relaxlab internal error: a location without its init message")
    }

    const DECLARES_DEPENDENCE: bool = true;

    fn footprint(&self, _s: &RaState, _thread: ThreadId, op: &MemOp) -> Footprint {
        self.future_footprint(op)
    }

    /// Module docs, "Dependence".
    fn future_footprint(&self, op: &MemOp) -> Footprint {
        Footprint::of_access(op)
    }
}

/// `[x:0 y:2]`: a view, by location name.
fn view_text(program: &Program, view: &[u32]) -> String {
    let entries: Vec<String> = view
        .iter()
        .enumerate()
        .map(|(l, i)| format!("{}:{i}", loc_name(program, LocId::new(l))))
        .collect();
    format!("[{}]", entries.join(" "))
}

/// Each location's messages in `mo` with their views, each thread's view.
impl Describe for Ra {
    fn describe(&self, program: &Program, s: &RaState) -> MemoryPicture {
        let shared = s
            .locs
            .iter()
            .enumerate()
            .map(|(l, msgs)| {
                let cells = msgs
                    .iter()
                    .map(|m| {
                        let rmw = if m.rmw { ", written by an RMW" } else { "" };
                        let note = format!("view {}{rmw}", view_text(program, &m.view));
                        Cell::noted(m.value.to_string(), note)
                    })
                    .collect();
                let name = loc_name(program, LocId::new(l));
                Group::hinted(
                    format!("{name}: messages"),
                    "modification order, oldest first (positions from 0)",
                    cells,
                )
            })
            .collect();
        let threads = s
            .views
            .iter()
            .map(|v| {
                vec![Group::new(
                    "view",
                    vec![Cell::noted(
                        view_text(program, v),
                        "the newest message of each location it has seen",
                    )],
                )]
            })
            .collect();
        MemoryPicture { shared, threads }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(locs: usize, threads: usize) -> RaState {
        RaState {
            locs: (0..locs)
                .map(|_| {
                    vec![Message {
                        value: 0,
                        view: vec![0; locs].into(),
                        rmw: false,
                    }]
                })
                .collect(),
            views: (0..threads).map(|_| vec![0; locs].into()).collect(),
        }
    }

    const X: LocId = LocId(0);
    const Y: LocId = LocId(1);

    #[test]
    fn a_write_placed_before_a_newer_one_shifts_the_views_naming_it() {
        let t0 = ThreadId(0);
        let t1 = ThreadId(1);
        // P1 writes x = 2 at the end; P0, whose view of x is the init,
        // places x = 1 right after the init, before x = 2.
        let s = state(2, 2).write_after(t1, X, 0, 2, false);
        assert_eq!(s.views[1][0], 1);
        let s = s.write_after(t0, X, 0, 1, false);
        let values: Vec<Value> = s.locs[0].iter().map(|m| m.value).collect();
        assert_eq!(values, [0, 1, 2]);
        // P1's view still names x = 2, now at position 2.
        assert_eq!(s.views[1][0], 2);
        assert_eq!(s.views[0][0], 1);
        assert_eq!(s.locs[0][2].view[0], 2);
    }

    #[test]
    fn a_read_acquires_the_writers_view() {
        let (t0, t1) = (ThreadId(0), ThreadId(1));
        let s = state(2, 2).write_after(t0, X, 0, 1, false);
        let s = s.write_after(t0, Y, 0, 1, false);
        // P1 reads y = 1 (position 1): it now sees x = 1 too.
        let s = s.read(t1, Y, 1);
        assert_eq!(&*s.views[1], &[1, 1]);
        assert_eq!(s.readable(t1, X), 1..2);
    }

    #[test]
    fn nothing_goes_between_an_rmw_and_what_it_read() {
        let t0 = ThreadId(0);
        let s = state(1, 1).write_after(t0, X, 0, 1, true);
        assert!(!s.free_after(X, 0));
        assert!(s.free_after(X, 1));
    }
}
