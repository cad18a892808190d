//! The C11 family (book: axiomatic.md, C11 models): `ax.c11`, `ax.rc11`, `ax.c11r`,
//! `ax.c11t`, and data races.
//!
//! Building blocks (Batty et al., POPL 2011, without consume and locks):
//! release sequences, `sw` (the four cases of C++11 §29.8, for events of
//! different threads), `hb = (po | asw | sw)+`, `eco = (rf | co | fr)+`,
//! and the axioms: `hb` irreflexive, coherence `irreflexive(hb; eco?)`,
//! atomicity (an RMW reads from its immediate `co` predecessor), and
//! non-atomic reads read a visible side effect. The SC order is searched
//! for in [`super::sc_order`].
//!
//! The models:
//! - `ax.c11`: the building blocks, C++11 release sequences, Batty's `sc`.
//! - `ax.rc11`: RC11 (Lahav et al., PLDI 2017, herd7's rc11.cat):
//!   release sequences `[W]; (po-loc)?; [W]; (rf; rmw)*`, `acyclic(psc)`
//!   instead of an `sc` order, and no thin air `acyclic(po | rf)`.
//! - `ax.c11r`: `ax.c11` and `acyclic(po | asw | rf | co | sc)` (TSAN11
//!   Sec. 6.2).
//! - `ax.c11t`: `ax.c11` with C++20 release sequences and
//!   `acyclic(hb | sc | rf)` (C11TESTER Sec. 2.2).
//!
//! Deviations, each with its reason:
//! 1. `ax.c11t`'s release sequences are `[W]; (rf; rmw)*`, C++20's
//!    definition as C11TESTER Sec. 2.2 states it ("does not allow relaxed
//!    stores by the thread that performed the release"), rather than the
//!    RC11 formula the book quotes for `ax.rc11` (book: axiomatic.md, C11 models), which keeps
//!    same-thread stores. The paper wins.
//! 2. The non-atomic read rule (book: axiomatic.md, C11 models) is Batty's, and `ax.rc11` does not
//!    apply it: RC11 constrains a non-atomic read by coherence alone, and
//!    a racy program's executions in which a plain read takes a write it
//!    races with are consistent, listed (racy) with their outcomes, as
//!    herd7's rc11.cat lists them. (Applying it here once hid such
//!    outcomes, and turned herd's `Sometimes` into `never` on a racy
//!    message-passing test.)
//! 3. Program order for RC11's `sb` is `(po | asw)+`: the init writes and
//!    forks come first, as RC11's initialisation does.

use super::sc_order::{self, ScExtra};
use crate::axiomatic::execution::{Event, EventId, Execution, Mode, Rejection};
use crate::axiomatic::relation::{members, single, EventSet, Relation};
use crate::axiomatic::run::Accepted;
use crate::ir::C11Fence;
use crate::model::{Race, Site};

/// Which release sequences a model uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ReleaseSeq {
    /// C++11: later writes of the head's thread and RMWs, contiguous in `co`.
    Cpp11,
    /// RC11: `[W]; (po-loc)?; [W]; (rf; rmw)*`.
    Rc11,
    /// C++20 per C11TESTER: `[W]; (rf; rmw)*`.
    Cpp20,
}

/// The derived relations of one execution.
pub(crate) struct C11<'a> {
    pub ex: &'a Execution,
    pub n: usize,
    pub fr: Relation,
    pub eco: Relation,
    pub sw: Relation,
    pub hb: Relation,
    pub reads: EventSet,
    pub writes: EventSet,
}

impl<'a> C11<'a> {
    pub(crate) fn new(ex: &'a Execution, rs: ReleaseSeq) -> C11<'a> {
        let n = ex.len();
        let fr = ex.fr();
        let eco = ex.rf.union(&ex.co).union(&fr).plus();
        let reads = ex.reads();
        let writes = ex.writes();
        let rs = release_sequences(ex, rs, writes);
        let sw = synchronises_with(ex, &rs, writes);
        let hb = ex.po.union(&ex.asw).union(&sw).plus();
        C11 {
            ex,
            n,
            fr,
            eco,
            sw,
            hb,
            reads,
            writes,
        }
    }
}

/// Release sequences: `(a, b)` when `b` is in the release sequence headed
/// by the write `a` (book: axiomatic.md, C11 models).
fn release_sequences(ex: &Execution, kind: ReleaseSeq, writes: EventSet) -> Relation {
    let n = ex.len();
    let id_w = Relation::id_on(n, writes);
    let rf_rmw_star = ex.rf.seq(&ex.rmw).star();
    match kind {
        ReleaseSeq::Cpp20 => id_w.seq(&rf_rmw_star),
        ReleaseSeq::Rc11 => {
            let po_loc = ex.po.inter(&ex.same_loc());
            id_w.seq(&po_loc.opt()).seq(&id_w).seq(&rf_rmw_star)
        }
        ReleaseSeq::Cpp11 => {
            let rmw_writes = ex.rmw.inverse().domain();
            let co_inv = ex.co.inverse();
            let mut rs = id_w.clone();
            for a in members(writes) {
                // a's co-successors in co order: by how many writes precede.
                let mut succ: Vec<usize> = members(ex.co.row(a)).collect();
                succ.sort_by_key(|&b| co_inv.row(b).count_ones());
                for b in succ {
                    let same_thread = ex.events[b].thread == ex.events[a].thread;
                    if !same_thread && rmw_writes & single(b) == 0 {
                        break;
                    }
                    rs.add_idx(a, b);
                }
            }
            rs
        }
    }
}

/// `sw`, the four cases of C++11 §29.8 (book: axiomatic.md, C11 models), for events of
/// different threads:
/// `([W_rel] | [F_rel]; po; [W]) ; rs ; rf ; ([R_acq] | [R_atomic]; po; [F_acq])`.
fn synchronises_with(ex: &Execution, rs: &Relation, writes: EventSet) -> Relation {
    let n = ex.len();
    let rel_writes = ex.set(|e| e.is_write() && e.mode.is_release());
    let acq_reads = ex.set(|e| e.is_read() && e.mode.is_acquire());
    let atomic_reads = ex.set(|e| e.is_read() && e.mode != Mode::Na);
    let rel_fences =
        ex.c11_fences(|k| matches!(k, C11Fence::Rel | C11Fence::AcqRel | C11Fence::Sc));
    let acq_fences =
        ex.c11_fences(|k| matches!(k, C11Fence::Acq | C11Fence::AcqRel | C11Fence::Sc));
    // The release side: a release write itself (cases 1, 3), or a release
    // fence and any write after it (cases 2, 4).
    let release = Relation::id_on(n, rel_writes).union(&ex.po.restrict(rel_fences, writes));
    // The acquire side: an acquire read itself (1, 2), or any atomic read
    // and an acquire fence after it (3, 4).
    let acquire = Relation::id_on(n, acq_reads).union(&ex.po.restrict(atomic_reads, acq_fences));
    release.seq(rs).seq(&ex.rf).seq(&acquire).inter(&ex.ext())
}

/// `hb` irreflexive: `acyclic(po | asw | sw)`.
fn hb_irreflexive(c: &C11) -> Result<(), Rejection> {
    c.ex.po
        .union(&c.ex.asw)
        .union(&c.sw)
        .acyclic()
        .map_err(|cycle| Rejection { axiom: "hb", cycle })
}

/// Coherence: `irreflexive(hb; eco?)`. The witness is an event and the
/// event its `hb` path reaches before `eco` leads back.
fn coherence(c: &C11) -> Result<(), Rejection> {
    let hb_eco = c.hb.seq(&c.eco.opt());
    match hb_eco.irreflexive() {
        Ok(()) => Ok(()),
        Err(e) => {
            let via = members(c.hb.row(e)).find(|&x| x == e || c.eco.has(x, e));
            let mut cycle = vec![EventId::new(e)];
            if let Some(x) = via.filter(|&x| x != e) {
                cycle.push(EventId::new(x));
            }
            Err(Rejection {
                axiom: "coherence",
                cycle,
            })
        }
    }
}

/// Atomicity: an RMW reads from its immediate `co` predecessor,
/// `rf; rmw ⊆ co \ (co; co)`.
fn atomicity(c: &C11) -> Result<(), Rejection> {
    let co = &c.ex.co;
    let imm = co.minus(&co.seq(co));
    for (r, w) in c.ex.rmw.pairs() {
        let (r, w) = (r.index(), w.index());
        let src = c.ex.rf.inverse().row(r);
        if let Some(s) = members(src).next() {
            if !imm.has(s, w) {
                return Err(Rejection {
                    axiom: "atomicity",
                    cycle: crate::axiomatic::candidates::ids(&[s, r, w]),
                });
            }
        }
    }
    Ok(())
}

/// Non-atomic reads read a visible side effect: their write happens before
/// them, with no other write to the location in between in `hb`. (The
/// init writes happen before everything, so a visible side effect always
/// exists.)
fn na_reads(c: &C11) -> Result<(), Rejection> {
    let rf_inv = c.ex.rf.inverse();
    for r in members(c.ex.set(|e| e.is_read() && e.mode == Mode::Na)) {
        for w in members(rf_inv.row(r)) {
            if !c.hb.has(w, r) {
                return Err(Rejection {
                    axiom: "na-reads",
                    cycle: crate::axiomatic::candidates::ids(&[w, r]),
                });
            }
            let loc = c.ex.events[r].loc();
            let between = members(c.hb.row(w) & c.writes)
                .find(|&w2| c.ex.events[w2].loc() == loc && c.hb.has(w2, r));
            if let Some(w2) = between {
                return Err(Rejection {
                    axiom: "na-reads",
                    cycle: crate::axiomatic::candidates::ids(&[w, w2, r]),
                });
            }
        }
    }
    Ok(())
}

/// The axioms every C11 model shares.
fn base(c: &C11) -> Result<(), Rejection> {
    hb_irreflexive(c)?;
    coherence(c)?;
    atomicity(c)
}

/// [`base`] and Batty's non-atomic read rule: the models of C11 as
/// Batty et al. define it (`ax.c11`, `ax.c11r`, `ax.c11t`), not RC11.
fn base_with_na_reads(c: &C11) -> Result<(), Rejection> {
    base(c)?;
    na_reads(c)
}

fn acyclic(axiom: &'static str, r: &Relation) -> Result<(), Rejection> {
    r.acyclic().map_err(|cycle| Rejection { axiom, cycle })
}

/// `ax.rc11`: RC11's coherence, atomicity, no thin air and `psc`.
pub(crate) fn rc11(ex: &Execution) -> Result<Accepted, Rejection> {
    let c = C11::new(ex, ReleaseSeq::Rc11);
    base(&c)?;
    acyclic("no-thin-air", &ex.po.union(&ex.asw).union(&ex.rf))?;
    acyclic("psc", &psc(&c))?;
    Ok(Accepted {
        sc: None,
        hb: Some(c.hb),
    })
}

/// `ax.c11r`: C11 and `acyclic(po | asw | rf | co | sc)`. With `ex.sc`
/// given, that order is checked; otherwise one is searched for.
pub(crate) fn c11r(ex: &Execution) -> Result<Accepted, Rejection> {
    let c = C11::new(ex, ReleaseSeq::Cpp11);
    base_with_na_reads(&c)?;
    let order = ex.po.union(&ex.asw).union(&ex.rf).union(&ex.co);
    acyclic("c11r-order", &order)?;
    let sc = sc_order::find(&c, ScExtra::Order(&order.plus()))?;
    acyclic(
        "c11r-order",
        &order.union(&sc_order::as_relation(ex.len(), &sc)),
    )?;
    Ok(Accepted {
        sc: Some(sc),
        hb: Some(c.hb),
    })
}

/// `ax.c11t`: C11 with C++20 release sequences and `acyclic(hb | sc |
/// rf)`.
pub(crate) fn c11t(ex: &Execution) -> Result<Accepted, Rejection> {
    let c = C11::new(ex, ReleaseSeq::Cpp20);
    base_with_na_reads(&c)?;
    let order = c.hb.union(&ex.rf);
    acyclic("c11t-order", &order)?;
    let sc = sc_order::find(&c, ScExtra::Order(&order.plus()))?;
    acyclic(
        "c11t-order",
        &order.union(&sc_order::as_relation(ex.len(), &sc)),
    )?;
    Ok(Accepted {
        sc: Some(sc),
        hb: Some(c.hb),
    })
}

/// `ax.c11`: C11 proper, with an SC order.
pub(crate) fn c11(ex: &Execution) -> Result<Accepted, Rejection> {
    let c = C11::new(ex, ReleaseSeq::Cpp11);
    base_with_na_reads(&c)?;
    let sc = sc_order::find(&c, ScExtra::None)?;
    Ok(Accepted {
        sc: Some(sc),
        hb: Some(c.hb),
    })
}

/// RC11's `psc = psc_base | psc_F` (Lahav et al. 2017, Sec. 3):
/// `scb = sb | sb≠loc; hb; sb≠loc | hb|loc | co | fr`,
/// `psc_base = ([E_sc] | [F_sc]; hb?); scb; ([E_sc] | hb?; [F_sc])`,
/// `psc_F = [F_sc]; (hb | hb; eco; hb); [F_sc]`.
fn psc(c: &C11) -> Relation {
    let ex = c.ex;
    let n = c.n;
    let sb = ex.po.union(&ex.asw).plus();
    let loc = ex.same_loc();
    let sb_nloc = sb.minus(&loc);
    let scb = sb
        .union(&sb_nloc.seq(&c.hb).seq(&sb_nloc))
        .union(&c.hb.inter(&loc))
        .union(&ex.co)
        .union(&c.fr);
    let e_sc = ex.set(|e| e.mode == Mode::Sc);
    let f_sc = ex.c11_fences(|k| k == C11Fence::Sc);
    let id_esc = Relation::id_on(n, e_sc);
    let id_fsc = Relation::id_on(n, f_sc);
    let left = id_esc.union(&id_fsc.seq(&c.hb.opt()));
    let right = id_esc.union(&c.hb.opt().seq(&id_fsc));
    let psc_base = left.seq(&scb).seq(&right);
    let psc_f = id_fsc
        .seq(&c.hb.union(&c.hb.seq(&c.eco).seq(&c.hb)))
        .seq(&id_fsc);
    psc_base.union(&psc_f)
}

/// The happens-before with C++11 release sequences (`ax.c11`, `ax.c11r`).
pub(crate) fn hb_cpp11(ex: &Execution) -> Relation {
    C11::new(ex, ReleaseSeq::Cpp11).hb
}

/// The happens-before with RC11's release sequences (`ax.rc11`).
pub(crate) fn hb_rc11(ex: &Execution) -> Relation {
    C11::new(ex, ReleaseSeq::Rc11).hb
}

/// The happens-before with C++20 release sequences (`ax.c11t`).
pub(crate) fn hb_cpp20(ex: &Execution) -> Relation {
    C11::new(ex, ReleaseSeq::Cpp20).hb
}

/// The observer reads of a skeleton under the C11 models (see
/// [`super::observers`]): free relaxed reads (neither `na`, nor acquire,
/// nor part of an RMW or CAS) followed in their thread only by such reads,
/// in a thread no join waits for, in an execution without SC fences. None
/// of the four models' axioms but coherence looks at such a read's source:
/// - `sw` and release sequences: the read is not on the acquire side (not
///   an acquire read, no acquire fence after it) and not an RMW, so `hb`
///   does not depend on its source, and nothing is `hb`-after it but
///   later observers;
/// - RC11's `psc`: without SC fences, `psc = [E_sc]; scb; [E_sc]`, whose
///   `fr` and `hb` edges start at SC events (`psc_F` needs SC fences);
/// - C11's SC order: its rules read the sources of SC reads and, through
///   fence rules (5)-(7), of reads after SC fences only;
/// - no thin air `acyclic(po | rf)`, `ax.c11r`'s `acyclic(po | asw | rf |
///   co | sc)` and `ax.c11t`'s `acyclic(hb | sc | rf)`: an `rf` edge into
///   the read closes no cycle, since only later observers follow it;
/// - atomicity and the non-atomic read rule concern RMWs and `na` reads;
///   races and the outcome's failures do not depend on `rf` at all.
pub(crate) fn observer_reads(ex: &Execution, free: EventSet) -> EventSet {
    if ex.c11_fences(|k| k == C11Fence::Sc) != 0 {
        return 0;
    }
    let eligible = free & ex.set(|e| e.is_read() && e.mode == Mode::Rlx && !e.is_locked());
    crate::axiomatic::observers::terminal_reads(ex, eligible)
}

/// The data races of a consistent execution (book: axiomatic.md, C11 models), given its
/// happens-before: two accesses to one location from different threads,
/// at least one a write and one non-atomic, unordered by `hb`.
pub(crate) fn races_under(ex: &Execution, hb: &Relation) -> Vec<Race> {
    let n = ex.len();
    let mut out = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            let (ea, eb) = (&ex.events[a], &ex.events[b]);
            if racy_pair(ea, eb) && !hb.has(a, b) && !hb.has(b, a) {
                if let Some(race) = race_of(ea, eb) {
                    out.push(race);
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

fn racy_pair(a: &Event, b: &Event) -> bool {
    a.loc().is_some()
        && a.loc() == b.loc()
        && (a.is_write() || b.is_write())
        && (a.mode == Mode::Na || b.mode == Mode::Na)
        && a.thread.is_some()
        && b.thread.is_some()
        && a.thread != b.thread
}

/// The race between two events, the one first in (thread, instr) order
/// being `earlier`.
pub(crate) fn race_of(a: &Event, b: &Event) -> Option<Race> {
    let site = |e: &Event| {
        Some(Site {
            thread: e.thread?,
            instr: e.instr?,
        })
    };
    let (sa, sb) = (site(a)?, site(b)?);
    let (earlier, later) = if sa <= sb { (sa, sb) } else { (sb, sa) };
    Some(Race {
        loc: a.loc()?,
        earlier,
        later,
    })
}
