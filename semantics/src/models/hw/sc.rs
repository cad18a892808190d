//! Sequential consistency: RELAXER Fig. 3 (book: model-sc.md, Rules (RELAXER Fig. 3)).
//!
//! Memory is one array `m` from locations to values. A load returns
//! `m[a]`, a store sets it, an RMW or CAS reads and writes `m[a]` in one
//! step (a failed CAS writes nothing); fences, forks, joins and thread ends
//! do nothing to memory. Every step happens at once, so there are no
//! internal steps and memory is always settled.
//!
//! Exact: every interleaving of the threads' accesses is an execution, and
//! nothing else is.
//!
//! # SC over the program as written ([`ScAsWritten`])
//!
//! `sc` runs the program after the hardware mapping, where every CAS is
//! strong. [`ScAsWritten`] runs the same rules on the program as written,
//! where a weak CAS (`cas_weak`) may also fail when it reads the expected
//! value, as C11 lets it whatever the memory model. It is the SC reference
//! of the C11 models' `non-SC` notes, so that an outcome only a spurious
//! failure gives is an SC outcome there as it is in the axiomatic models'
//! graphs (book: language.md, Read-modify-writes and compare-and-swap).
//!
//! # Dependence ([`crate::dependence`])
//!
//! The cells are `M(x) = m[x]`. A load of `x` reads `M(x)`; a store, RMW
//! or CAS of `x` reads and writes it (a CAS that fails writes nothing, but
//! whether it fails depends on the value); fences, forks, joins and thread
//! ends touch no cell (they do nothing to memory; a fork only enables its
//! child, a join is enabled only once its child has ended, and both only
//! involve the two threads). Commutation: two steps on different locations
//! change disjoint entries of `m` and read only their own; two loads of one
//! location change nothing. This is the textbook dependence of
//! interleaving semantics (Godefroid 1996, Sec. 3.3).

use crate::dependence::Footprint;
use crate::ir::{LocId, Program, ThreadId, Value};
use crate::model::{EventKind, MemOp, MemoryModel, Site, Step};
use crate::registry::OpModel;

use super::common::{rmw_write, step, update_event};

/// The SC model. Its state is the memory array, indexed by [`LocId`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Sc;

impl MemoryModel for Sc {
    type State = Box<[Value]>;
    type Consing = ();

    fn model(&self) -> OpModel {
        OpModel::Sc
    }

    fn initial(&self, program: &Program) -> Self::State {
        program.locations.iter().map(|l| l.init).collect()
    }

    fn perform(&self, m: &Self::State, _site: Site, op: MemOp, out: &mut Vec<Step<Self::State>>) {
        match op {
            MemOp::Load { loc, .. } => out.push(load_sc(m, loc)),
            MemOp::Store { loc, val, .. } => out.push(store_sc(m, loc, val)),
            MemOp::Rmw { loc, .. } | MemOp::Cas { loc, .. } => cas_sc(m, loc, &op, out),
            MemOp::Fence { .. } | MemOp::Fork { .. } | MemOp::Join { .. } | MemOp::End => {
                out.push(step(None, m.clone(), EventKind::Sync))
            }
        }
    }

    fn internal(&self, _state: &Self::State, _out: &mut Vec<(Self::State, crate::model::Event)>) {}

    fn settled(&self, _state: &Self::State) -> bool {
        true
    }

    fn final_value(&self, m: &Self::State, loc: LocId) -> Value {
        m[loc.index()]
    }

    const DECLARES_DEPENDENCE: bool = true;

    fn footprint(&self, _m: &Self::State, _thread: ThreadId, op: &MemOp) -> Footprint {
        self.future_footprint(op)
    }

    /// Module docs, "Dependence".
    fn future_footprint(&self, op: &MemOp) -> Footprint {
        Footprint::of_access(op)
    }
}

/// SC over the program as written, not after the hardware mapping: a weak
/// CAS stays weak (module docs, "SC over the program as written"). The
/// rules are [`Sc`]'s.
#[derive(Clone, Copy, Debug, Default)]
pub struct ScAsWritten;

impl MemoryModel for ScAsWritten {
    type State = Box<[Value]>;
    type Consing = ();

    fn model(&self) -> OpModel {
        OpModel::Sc
    }

    /// The program as written: no mapping, so C11 fences stay (SC does
    /// nothing at a fence) and a weak CAS stays weak.
    fn target(&self) -> Option<crate::mapping::Target> {
        None
    }

    fn initial(&self, program: &Program) -> Self::State {
        Sc.initial(program)
    }

    fn perform(&self, m: &Self::State, site: Site, op: MemOp, out: &mut Vec<Step<Self::State>>) {
        Sc.perform(m, site, op, out)
    }

    fn internal(&self, _state: &Self::State, _out: &mut Vec<(Self::State, crate::model::Event)>) {}

    fn settled(&self, _state: &Self::State) -> bool {
        true
    }

    fn final_value(&self, m: &Self::State, loc: LocId) -> Value {
        Sc.final_value(m, loc)
    }

    const DECLARES_DEPENDENCE: bool = true;

    fn footprint(&self, m: &Self::State, thread: ThreadId, op: &MemOp) -> Footprint {
        Sc.footprint(m, thread, op)
    }

    fn future_footprint(&self, op: &MemOp) -> Footprint {
        Sc.future_footprint(op)
    }
}

/// `loadSC(p,a)`, RELAXER Fig. 3: return `m[a]`.
fn load_sc(m: &[Value], loc: LocId) -> Step<Box<[Value]>> {
    let value = m[loc.index()];
    step(
        Some(value),
        m.into(),
        EventKind::Read {
            loc,
            value,
            older: 0,
        },
    )
}

/// `storeSC(p,a,v)`, RELAXER Fig. 3: `m[a] = v`.
fn store_sc(m: &[Value], loc: LocId, value: Value) -> Step<Box<[Value]>> {
    let mut next: Box<[Value]> = m.into();
    next[loc.index()] = value;
    step(
        None,
        next,
        EventKind::Write {
            loc,
            value,
            newer: 0,
        },
    )
}

/// `CASSC(p,a,oldv,newv)`, RELAXER Fig. 3, and the RMWs: read and write
/// `m[a]` atomically. A weak CAS that reads the expected value may also
/// fail spuriously, writing nothing (only in a program as written: the
/// mapping makes every CAS strong).
fn cas_sc(m: &[Value], loc: LocId, op: &MemOp, out: &mut Vec<Step<Box<[Value]>>>) {
    let old = m[loc.index()];
    let wrote = rmw_write(op, old);
    if let Some(v) = wrote {
        let mut next: Box<[Value]> = m.into();
        next[loc.index()] = v;
        out.push(step(Some(old), next, update_event(loc, old, wrote)));
    }
    if op.may_fail(old) {
        out.push(step(Some(old), m.into(), update_event(loc, old, None)));
    }
}
