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
            MemOp::Rmw { loc, .. } | MemOp::Cas { loc, .. } => out.push(cas_sc(m, loc, &op)),
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
/// `m[a]` atomically.
fn cas_sc(m: &[Value], loc: LocId, op: &MemOp) -> Step<Box<[Value]>> {
    let old = m[loc.index()];
    let wrote = rmw_write(op, old);
    let mut next: Box<[Value]> = m.into();
    if let Some(v) = wrote {
        next[loc.index()] = v;
    }
    step(Some(old), next, update_event(loc, old, wrote))
}
