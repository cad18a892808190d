//! herd7's event structures for one run of one thread (herdtools7's
//! `event.ml` and the monad of `eventsMonad.ml`, for the combinators its C
//! semantics uses).
//!
//! Every event of the run, register accesses included, is in one list;
//! the intra-instruction causality relations (`iico_data`, `iico_ctrl`)
//! and herd's `control` (from a condition's events to those of its
//! branch) are edge lists over it. Evaluating an expression builds a
//! *sub-structure*: the contiguous range of events it created, with
//! herd's optional explicit inputs and outputs. The combinators add edges
//! between the outputs of one sub-structure and the inputs of the next
//! exactly as herd's do, so the dependencies computed from these edges
//! ([`super::deps`]) are herd's.

use crate::axiomatic::LockOp;
use crate::ir::{LocId, RegId, Value};

use super::ir::Tags;

/// herd's ports: how a register or memory read feeds the instruction
/// (`Port.Addr`, `Port.Data`, `Port.No`). Data ports make data
/// dependencies, address ports address dependencies to stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Port {
    No,
    Addr,
    Data,
}

/// What an event of a thread run does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EvKind {
    RegRead(RegId),
    RegWrite(RegId),
    Read { loc: LocId, value: Value },
    Write { loc: LocId, value: Value },
    Fence,
    Lock { loc: LocId, op: LockOp },
    Srcu { loc: LocId, value: Option<Value> },
}

/// One event of a thread run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ev {
    pub kind: EvKind,
    pub tags: Tags,
    /// herd's program-order index of the instruction instance.
    pub inst: u32,
    pub line: u32,
    pub port: Port,
    /// Made by a read-modify-write (herd's `atomic` accesses).
    pub atomic: bool,
}

impl Ev {
    pub(crate) fn is_reg(&self) -> bool {
        matches!(self.kind, EvKind::RegRead(_) | EvKind::RegWrite(_))
    }
    /// herd's `is_mem`: a memory read or write.
    pub(crate) fn is_mem(&self) -> bool {
        matches!(self.kind, EvKind::Read { .. } | EvKind::Write { .. })
    }
    pub(crate) fn is_mem_load(&self) -> bool {
        matches!(self.kind, EvKind::Read { .. })
    }
    pub(crate) fn is_mem_store(&self) -> bool {
        matches!(self.kind, EvKind::Write { .. })
    }
    /// herd's `is_load`: a memory or register read.
    pub(crate) fn is_load(&self) -> bool {
        matches!(self.kind, EvKind::Read { .. } | EvKind::RegRead(_))
    }
    /// herd's `is_additional_mem`: the lock events.
    pub(crate) fn is_additional_mem(&self) -> bool {
        matches!(self.kind, EvKind::Lock { .. })
    }
    /// herd's `is_additional_mem_load`: a failed trylock or an is-locked
    /// read.
    pub(crate) fn is_additional_mem_load(&self) -> bool {
        matches!(
            self.kind,
            EvKind::Lock {
                op: LockOp::Fail | LockOp::ReadLocked | LockOp::ReadUnlocked,
                ..
            }
        )
    }
    pub(crate) fn is_fence(&self) -> bool {
        matches!(self.kind, EvKind::Fence)
    }
}

/// A sub-structure: the events `start..end` and herd's explicit inputs
/// and outputs (`None`: computed from the edges, as herd's `minimals` and
/// `maximals` do).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Sub {
    pub start: u32,
    pub end: u32,
    pub input: Option<Vec<u32>>,
    pub data_input: Option<Vec<u32>>,
    pub output: Option<Vec<u32>>,
    pub ctrl_output: Option<Vec<u32>>,
}

impl Sub {
    pub(crate) fn is_empty(&self) -> bool {
        self.start == self.end
    }
    fn range(&self) -> std::ops::Range<u32> {
        self.start..self.end
    }
}

/// The events and edges of one thread run.
#[derive(Clone, Debug, Default)]
pub(crate) struct ThreadEs {
    pub ev: Vec<Ev>,
    pub iico_data: Vec<(u32, u32)>,
    pub iico_ctrl: Vec<(u32, u32)>,
    pub control: Vec<(u32, u32)>,
}

fn union(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut v: Vec<u32> = a.iter().chain(b).copied().collect();
    v.sort_unstable();
    v.dedup();
    v
}

impl ThreadEs {
    /// A sub-structure of one new event.
    pub(crate) fn event(&mut self, ev: Ev) -> Sub {
        let id = self.ev.len() as u32;
        self.ev.push(ev);
        Sub {
            start: id,
            end: id + 1,
            ..Sub::default()
        }
    }

    /// The empty sub-structure at the current end.
    pub(crate) fn empty(&self) -> Sub {
        let at = self.ev.len() as u32;
        Sub {
            start: at,
            end: at,
            ..Sub::default()
        }
    }

    /// A fence's sub-structure: herd gives fences an empty output, so
    /// they are transparent to data composition.
    pub(crate) fn fence(&mut self, ev: Ev) -> Sub {
        let mut s = self.event(ev);
        s.output = Some(Vec::new());
        s
    }

    fn has_pred_in(&self, e: u32, r: std::ops::Range<u32>, data_only: bool) -> bool {
        let hit = |&(a, b): &(u32, u32)| b == e && r.contains(&a);
        self.iico_data.iter().any(hit) || (!data_only && self.iico_ctrl.iter().any(hit))
    }

    fn has_succ_in(&self, e: u32, r: std::ops::Range<u32>, data_only: bool) -> bool {
        let hit = |&(a, b): &(u32, u32)| a == e && r.contains(&b);
        self.iico_data.iter().any(hit) || (!data_only && self.iico_ctrl.iter().any(hit))
    }

    /// herd's `minimals`: the input, else the events with no iico
    /// predecessor inside.
    pub(crate) fn minimals(&self, s: &Sub) -> Vec<u32> {
        match &s.input {
            Some(i) => i.clone(),
            None => s
                .range()
                .filter(|&e| !self.has_pred_in(e, s.range(), false))
                .collect(),
        }
    }

    /// herd's `minimals_data`.
    pub(crate) fn minimals_data(&self, s: &Sub) -> Vec<u32> {
        match &s.data_input {
            Some(i) => i.clone(),
            None => s
                .range()
                .filter(|&e| !self.has_pred_in(e, s.range(), true))
                .collect(),
        }
    }

    /// herd's `maximals`: no iico successor inside.
    pub(crate) fn maximals(&self, s: &Sub) -> Vec<u32> {
        s.range()
            .filter(|&e| !self.has_succ_in(e, s.range(), false))
            .collect()
    }

    fn maximals_data(&self, s: &Sub) -> Vec<u32> {
        s.range()
            .filter(|&e| !self.has_succ_in(e, s.range(), true))
            .collect()
    }

    /// herd's `get_output`.
    pub(crate) fn output(&self, s: &Sub) -> Vec<u32> {
        match &s.output {
            Some(o) => o.clone(),
            None => self.maximals_data(s),
        }
    }

    fn ctrl_output(&self, s: &Sub) -> Vec<u32> {
        match &s.ctrl_output {
            Some(o) => o.clone(),
            None => self.maximals(s),
        }
    }

    fn data_edges(&mut self, from: &[u32], to: &[u32]) {
        for &a in from {
            for &b in to {
                if a != b {
                    self.iico_data.push((a, b));
                }
            }
        }
    }

    fn ctrl_edges(&mut self, from: &[u32], to: &[u32]) {
        for &a in from {
            for &b in to {
                self.iico_ctrl.push((a, b));
            }
        }
    }

    /// herd's `sequence_data_output`.
    fn seq_output(&self, a: &Sub, b: &Sub) -> Option<Vec<u32>> {
        match (&a.output, &b.output) {
            (_, Some(o)) => Some(o.clone()),
            (None, None) => None,
            (Some(o), None) => {
                let out2 = self.output(b);
                Some(if out2.is_empty() { o.clone() } else { out2 })
            }
        }
    }

    /// herd's `sequence_data_ctrl_output`.
    fn seq_ctrl_output(&self, a: &Sub, b: &Sub) -> Option<Vec<u32>> {
        match (&a.ctrl_output, &b.ctrl_output) {
            (_, Some(o)) => Some(o.clone()),
            (None, None) => None,
            (Some(o), None) => {
                let out2 = self.output(b);
                Some(if out2.is_empty() { o.clone() } else { out2 })
            }
        }
    }

    fn joined(a: &Sub, b: &Sub) -> (u32, u32) {
        debug_assert!(a.is_empty() || b.is_empty() || a.end == b.start);
        let start = if a.is_empty() { b.start } else { a.start };
        let end = if b.is_empty() { a.end } else { b.end };
        (start, end.max(start))
    }

    /// `a >>= f` (herd's `=*$=`): data from a's output to b's data inputs;
    /// b's output.
    pub(crate) fn bind_data(&mut self, a: Sub, b: Sub) -> Sub {
        let (from, to) = (self.output(&a), self.minimals_data(&b));
        self.data_edges(&from, &to);
        let output = self.seq_output(&a, &b);
        self.sequenced(&a, &b, output)
    }

    /// `a >>== f` (herd's `=$$=`): as [`ThreadEs::bind_data`], but the
    /// output stays a's.
    pub(crate) fn bind_data_keep(&mut self, a: Sub, b: Sub) -> Sub {
        let (from, to) = (self.output(&a), self.minimals_data(&b));
        self.data_edges(&from, &to);
        let output = Some(self.output(&a));
        self.sequenced(&a, &b, output)
    }

    /// `a >>*= f` (herd's `=**=`): control from a's control output to b's
    /// inputs; b's output.
    pub(crate) fn bind_ctrl(&mut self, a: Sub, b: Sub) -> Sub {
        let (from, to) = (self.ctrl_output(&a), self.minimals(&b));
        self.ctrl_edges(&from, &to);
        let output = Some(self.output(&b));
        self.sequenced(&a, &b, output)
    }

    /// The structure of `a` then `b`, the three binds' common frame: the
    /// events of both, the inputs of the first that has events, `output`,
    /// and the sequenced control output.
    fn sequenced(&self, a: &Sub, b: &Sub, output: Option<Vec<u32>>) -> Sub {
        let (start, end) = Self::joined(a, b);
        let first = if a.is_empty() { b } else { a };
        Sub {
            start,
            end,
            input: first.input.clone(),
            data_input: first.data_input.clone(),
            output,
            ctrl_output: self.seq_ctrl_output(a, b),
        }
    }

    /// `a >>| b` (herd's parallel composition): no edges; inputs and
    /// outputs united.
    pub(crate) fn para(&mut self, a: Sub, b: Sub) -> Sub {
        let (start, end) = Self::joined(&a, &b);
        let uni = |x: &Option<Vec<u32>>,
                   y: &Option<Vec<u32>>,
                   dx: &dyn Fn() -> Vec<u32>,
                   dy: &dyn Fn() -> Vec<u32>| match (x, y) {
            (None, None) => None,
            (Some(o1), Some(o2)) => Some(union(o1, o2)),
            (None, Some(o2)) => Some(union(&dx(), o2)),
            (Some(o1), None) => Some(union(o1, &dy())),
        };
        let input = uni(&a.input, &b.input, &|| self.minimals(&a), &|| {
            self.minimals(&b)
        });
        let data_input = uni(
            &a.data_input,
            &b.data_input,
            &|| self.minimals_data(&a),
            &|| self.minimals_data(&b),
        );
        let output = uni(&a.output, &b.output, &|| self.maximals_data(&a), &|| {
            self.maximals_data(&b)
        });
        let ctrl_output = uni(
            &a.ctrl_output,
            &b.ctrl_output,
            &|| self.maximals(&a),
            &|| self.maximals(&b),
        );
        Sub {
            start,
            end,
            input,
            data_input,
            output,
            ctrl_output,
        }
    }

    /// `c >>>> f` (herd's `cond_comp`): the condition's events control
    /// every event of the branch.
    pub(crate) fn cond(&mut self, c: &Sub, branch: &Sub) {
        for a in c.range() {
            for b in branch.range() {
                self.control.push((a, b));
            }
        }
    }

    /// herd7's one event of a C11 read-modify-write (an `RMW` action, in
    /// `R` and in `W`) as its read `r` and its write `w`: what enters the
    /// event enters both, what leaves it leaves both, and the read
    /// precedes the write (by data when the value written is computed from
    /// the value read, by control otherwise), so the two are ordered where
    /// a model sees them apart
    /// (book: cat.md, One event per read-modify-write).
    pub(crate) fn one_event(&mut self, r: Sub, w: Sub, data: bool) -> Sub {
        let both = vec![r.start, w.start];
        let edge = (r.start, w.start);
        if data {
            self.iico_data.push(edge);
        } else {
            self.iico_ctrl.push(edge);
        }
        Sub {
            start: r.start,
            end: w.end,
            input: Some(both.clone()),
            data_input: Some(both.clone()),
            output: Some(both),
            ctrl_output: None,
        }
    }

    /// herd's `linux_exch`: data from the location and the value to the
    /// write and from the location to the read; control from the read to
    /// the write. The output is the read's.
    pub(crate) fn linux_exch(&mut self, loc: &Sub, val: &Sub, rmem: &Sub, wmem: &Sub) -> Sub {
        let in_w = self.minimals(wmem);
        let out_loc = self.maximals(loc);
        let m = self.maximals(val);
        self.data_edges(&m, &in_w);
        self.data_edges(&out_loc, &in_w);
        let in_r = self.minimals(rmem);
        self.data_edges(&out_loc, &in_r);
        let m = self.maximals(rmem);
        self.ctrl_edges(&m, &in_w);
        self.whole(&[loc, val, rmem, wmem], self.output(rmem))
    }

    /// herd's `linux_cmpexch_ok`.
    pub(crate) fn cmpxchg_ok(
        &mut self,
        loc: &Sub,
        old: &Sub,
        new: &Sub,
        rmem: &Sub,
        wmem: &Sub,
    ) -> Sub {
        let in_w = self.minimals(wmem);
        let in_r = self.minimals(rmem);
        let out_loc = self.maximals(loc);
        let m = self.maximals(new);
        self.data_edges(&m, &in_w);
        self.data_edges(&out_loc, &in_w);
        self.data_edges(&out_loc, &in_r);
        let m = self.maximals(old);
        self.ctrl_edges(&m, &in_w);
        let m = self.maximals(rmem);
        self.ctrl_edges(&m, &in_w);
        self.whole(&[loc, old, new, rmem, wmem], self.output(rmem))
    }

    /// herd's `linux_cmpexch_no`.
    pub(crate) fn cmpxchg_no(&mut self, loc: &Sub, old: &Sub, rmem: &Sub) -> Sub {
        let in_r = self.minimals(rmem);
        let out_loc = self.maximals(loc);
        self.data_edges(&out_loc, &in_r);
        self.whole(&[loc, old, rmem], self.output(rmem))
    }

    /// herd's `linux_add_unless_ok`.
    pub(crate) fn add_unless_ok(
        &mut self,
        loc: &Sub,
        add: &Sub,
        unless: &Sub,
        rmem: &Sub,
        wmem: &Sub,
    ) -> Sub {
        let out_loc = self.maximals(loc);
        let in_r = self.minimals(rmem);
        let in_w = self.minimals(wmem);
        self.data_edges(&out_loc, &in_w);
        self.data_edges(&out_loc, &in_r);
        let m = self.maximals(add);
        self.data_edges(&m, &in_w);
        let m = self.maximals(rmem);
        self.data_edges(&m, &in_w);
        let m = self.maximals(unless);
        self.ctrl_edges(&m, &in_w);
        let out = union(&self.output(rmem), &self.output(unless));
        self.whole(&[loc, add, unless, rmem, wmem], out)
    }

    /// herd's `linux_add_unless_no`.
    pub(crate) fn add_unless_no(&mut self, loc: &Sub, unless: &Sub, rmem: &Sub) -> Sub {
        let out_loc = self.maximals(loc);
        let in_r = self.minimals(rmem);
        self.data_edges(&out_loc, &in_r);
        let out = union(&self.output(rmem), &self.output(unless));
        self.whole(&[loc, unless, rmem], out)
    }

    /// The sub-structure of contiguous parts, with explicit output and no
    /// explicit inputs (herd's special combinators).
    fn whole(&self, parts: &[&Sub], output: Vec<u32>) -> Sub {
        let start = parts.iter().map(|p| p.start).min().unwrap_or(0);
        let end = parts.iter().map(|p| p.end).max().unwrap_or(start);
        Sub {
            start,
            end,
            input: None,
            data_input: None,
            output: Some(output),
            ctrl_output: None,
        }
    }
}
