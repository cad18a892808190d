//! The axiomatic hardware models (book: axiomatic.md, Hardware models): `ax.sc`, `ax.tso`,
//! `ax.pso`, `ax.pslo`.
//!
//! They judge the program *after* the compilation mapping (book: mapping.md),
//! so they see the same barriers as the operational models; memory orders
//! play no part here. Program order is `(po | asw)+`: fork and join edges
//! count as program order, and fork and join events act as `full` barriers
//! (book: models.md, The shared frame).
//!
//! - `ax.sc` (Lamport): `acyclic(po | com)`.
//! - `ax.tso`: herd7's x86tso.cat: uniproc `acyclic(po-loc | com)` and
//!   `acyclic(ppo | rfe | co | fr)` where `ppo` drops the W→R pairs except
//!   those separated by `sl`/`full` or with an end in a locked instruction
//!   (RMW, or CAS even when it fails).
//! - `ax.pso`, `ax.pslo`: the same shape with their own `ppo` (book: axiomatic.md, Hardware models),
//!   which over-approximates RELAXER's operational PSO/PSLO (its `ss`
//!   barrier is stronger than the axiomatic one): operational ⊆ axiomatic.
//!
//! Every model also checks atomicity, `empty(rmw & (fre; coe))`.

use crate::axiomatic::execution::{Execution, Rejection};
use crate::axiomatic::relation::{EventSet, Relation};
use crate::axiomatic::run::Accepted;
use crate::ir::HwFence::{self, Full, LL, SL, SS};

/// Shared derived relations of one execution.
struct Hw<'a> {
    ex: &'a Execution,
    /// `(po | asw)+`.
    po: Relation,
    fr: Relation,
    reads: EventSet,
    writes: EventSet,
}

impl<'a> Hw<'a> {
    fn new(ex: &'a Execution) -> Hw<'a> {
        Hw {
            ex,
            po: ex.po_asw(),
            fr: ex.fr(),
            reads: ex.reads(),
            writes: ex.writes(),
        }
    }

    /// `po` between memory accesses only.
    fn po_mem(&self) -> Relation {
        let acc = self.ex.accesses();
        self.po.restrict(acc, acc)
    }

    /// Pairs of `po` from `from` to `to` with a fence of `kinds` between.
    fn separated(&self, from: EventSet, to: EventSet, kinds: &[HwFence]) -> Relation {
        let f = self.ex.hw_fences(kinds);
        self.po.restrict(from, f).seq(&self.po.restrict(f, to))
    }

    /// The write halves of RMWs.
    fn rmw_writes(&self) -> EventSet {
        self.ex.rmw.inverse().domain()
    }

    /// Events of locked instructions: RMW halves and failed CAS reads.
    fn locked(&self) -> EventSet {
        self.ex.set(|e| e.is_locked())
    }

    /// `acyclic(ppo | rfe | co | fr)`, the global-order axiom.
    fn order(&self, axiom: &'static str, ppo: &Relation) -> Result<(), Rejection> {
        let rfe = self.ex.rf.inter(&self.ex.ext());
        let ghb = ppo.union(&rfe).union(&self.ex.co).union(&self.fr);
        ghb.acyclic().map_err(|cycle| Rejection { axiom, cycle })
    }
}

/// Uniproc (SC per location): `acyclic(po-loc | com)`.
fn uniproc(hw: &Hw) -> Result<(), Rejection> {
    let po_loc = hw.po.inter(&hw.ex.same_loc());
    po_loc
        .union(&hw.ex.com())
        .acyclic()
        .map_err(|cycle| Rejection {
            axiom: "uniproc",
            cycle,
        })
}

/// Atomicity: `empty(rmw & (fre; coe))`.
pub(crate) fn atomicity_hw(ex: &Execution, fr: &Relation) -> Result<(), Rejection> {
    let ext = ex.ext();
    let fre = fr.inter(&ext);
    let coe = ex.co.inter(&ext);
    ex.rmw
        .inter(&fre.seq(&coe))
        .empty_or_pair()
        .map_err(|(r, w)| Rejection {
            axiom: "atomicity",
            cycle: crate::axiomatic::candidates::ids(&[r, w]),
        })
}

/// `ax.sc`: `acyclic(po | com)`.
pub(crate) fn check_sc(ex: &Execution) -> Result<(), Rejection> {
    let hw = Hw::new(ex);
    atomicity_hw(ex, &hw.fr)?;
    hw.po_mem()
        .union(&ex.com())
        .acyclic()
        .map_err(|cycle| Rejection { axiom: "sc", cycle })
}

/// `ax.tso` (x86tso.cat).
pub(crate) fn check_tso(ex: &Execution) -> Result<(), Rejection> {
    let hw = Hw::new(ex);
    uniproc(&hw)?;
    atomicity_hw(ex, &hw.fr)?;
    hw.order("tso", &ppo_tso(&hw))
}

/// TSO's preserved program order: every pair but W→R, and W→R pairs
/// separated by `sl`/`full` or with a locked end.
fn ppo_tso(hw: &Hw) -> Relation {
    let po = hw.po_mem();
    let w_r = po.restrict(hw.writes, hw.reads);
    let locked = hw.locked();
    po.minus(&w_r)
        .union(&hw.separated(hw.writes, hw.reads, &[SL, Full]))
        .union(&po.restrict(locked, hw.reads))
        .union(&po.restrict(hw.writes, locked))
}

/// `ax.pso`.
pub(crate) fn check_pso(ex: &Execution) -> Result<(), Rejection> {
    let hw = Hw::new(ex);
    uniproc(&hw)?;
    atomicity_hw(ex, &hw.fr)?;
    hw.order("pso", &ppo_pso(&hw))
}

/// PSO's preserved program order (book: axiomatic.md, Hardware models): pairs from a read; pairs
/// from the write of an RMW (it writes memory directly); W→W separated by
/// `ss`/`sl`/`full`; W→R separated by `sl`/`full`.
fn ppo_pso(hw: &Hw) -> Relation {
    let po = hw.po_mem();
    let all = hw.ex.accesses();
    po.restrict(hw.reads, all)
        .union(&po.restrict(hw.rmw_writes(), all))
        .union(&hw.separated(hw.writes, hw.writes, &[SS, SL, Full]))
        .union(&hw.separated(hw.writes, hw.reads, &[SL, Full]))
}

/// `ax.pslo`.
pub(crate) fn check_pslo(ex: &Execution) -> Result<(), Rejection> {
    let hw = Hw::new(ex);
    uniproc(&hw)?;
    atomicity_hw(ex, &hw.fr)?;
    hw.order("pslo", &ppo_pslo(&hw))
}

/// PSLO's preserved program order (book: axiomatic.md, Hardware models): R→W; R→R separated by
/// `ll`/`sl`/`full` or whose second read is locked (it reads memory, not
/// the history); W→W separated by `ss`/`sl`/`full`; W→R separated by
/// `sl`/`full`; and the write of an RMW before every later write and
/// before whatever its own read is ordered before.
fn ppo_pslo(hw: &Hw) -> Relation {
    let po = hw.po_mem();
    let locked_reads = hw.locked() & hw.reads;
    let base = po
        .restrict(hw.reads, hw.writes)
        .union(&hw.separated(hw.reads, hw.reads, &[LL, SL, Full]))
        .union(&po.restrict(hw.reads, locked_reads))
        .union(&hw.separated(hw.writes, hw.writes, &[SS, SL, Full]))
        .union(&hw.separated(hw.writes, hw.reads, &[SL, Full]));
    let rmw_w = hw.rmw_writes();
    // `rmw^-1; base` relates an RMW's write to its own write (through the
    // R→W pair of the RMW itself): that pair is not an ordering.
    let own = Relation::id_on(hw.ex.len(), rmw_w);
    base.union(&po.restrict(rmw_w, hw.writes))
        .union(&hw.ex.rmw.inverse().seq(&base).minus(&own))
}

/// The axioms of `ax.sc`, `ax.tso`, `ax.pso` and `ax.pslo` as the registry
/// holds them (`crate::registry::AxRow::axioms`): no SC order, no
/// happens-before.
fn accepted(r: Result<(), Rejection>) -> Result<Accepted, Rejection> {
    r.map(|()| Accepted { sc: None, hb: None })
}

pub(crate) fn sc(ex: &Execution) -> Result<Accepted, Rejection> {
    accepted(check_sc(ex))
}

pub(crate) fn tso(ex: &Execution) -> Result<Accepted, Rejection> {
    accepted(check_tso(ex))
}

pub(crate) fn pso(ex: &Execution) -> Result<Accepted, Rejection> {
    accepted(check_pso(ex))
}

pub(crate) fn pslo(ex: &Execution) -> Result<Accepted, Rejection> {
    accepted(check_pslo(ex))
}
