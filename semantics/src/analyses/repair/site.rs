//! Candidate sites of a repair and what may be placed at each.
//!
//! A **site** is one place where a repair may change the program:
//!
//! - a *fence site*: a statement boundary next to a memory access, where a
//!   `fence(K);` statement may be inserted (hardware barriers under `tso`,
//!   `pso`, `pslo` and their axiomatic twins; C11 fences under the C11
//!   models);
//! - an *order site* (C11 models only): an atomic access whose memory order
//!   may be strengthened (`rlx -> acq/rel -> acq_rel -> sc`).
//!
//! A repair places at most one [`Change`] per site, and counts one per
//! site it touches: a C11 fence and a stronger order count alike.
//!
//! # Fence sites
//!
//! A fence statement goes right before or right after the statement of a
//! memory access ([`Anchor`]). In the IR that is an insertion point: before
//! instruction `at`, where `retarget` says whether jumps to `at` pass
//! through the fence. `fence; S` inside S's block lowers to a fence before
//! S that every jump to S reaches (the end of an `if` or `while` before S,
//! an `else` starting with S), so it retargets; `S; fence` lowers to a
//! fence after S that only S falls into (a loop after S keeps its head).
//! The text of a repaired program is made the same way (the CLI inserts the
//! statement at the anchor's span), and the CLI verifies the printed text
//! again.
//!
//! Sites that always execute between the same memory events are one site:
//! an insertion point that no jump reaches retargets vacuously, and one
//! that precedes a register assignment no jump reaches may move past it
//! (local steps commute with everything; book: models.md, The shared frame). After this
//! normalisation two anchors with the same point are the same site; the
//! `before` anchor names it when there is one.
//!
//! # Useless hardware fence sites
//!
//! Under the hardware models a thread starts, forks, joins and ends with
//! its buffers drained and (PSLO) its histories fresh: fork, join and end
//! act as full barriers (book: models.md, The shared frame). A barrier that no memory
//! access of its thread can precede since the last of those, or that no
//! access can follow before the next, has nothing to order, and is not a
//! site. (For PSLO's `ll` right after a thread start: resetting the
//! histories at the start constrains the thread's loads only to read
//! entries no older than memory at some instant before the first of them,
//! and the instant just before the first commit read gives every load the
//! entry it read, so no behaviour is lost.) The C11 models keep every site:
//! an SC fence at the end of a thread still takes part in the SC order.
//!
//! # Strength and cost
//!
//! Per model, the options of a site form a lattice of effects
//! ([`Change::at_least`]), and each option has a cost ([`Change::cost`]);
//! the search minimises the number of changes first and their total cost
//! second. Hardware barriers (book: reference.md, Operational rules):
//!
//! | kind | cost | tso | pso | pslo |
//! |---|---|---|---|---|
//! | `ss`   | 1 | no effect | drains every buffer | drains every buffer |
//! | `ll`   | 1 | no effect | no effect | refreshes the histories |
//! | `ls`   | 1 | no effect | no effect | no effect |
//! | `sl`   | 2 | drains the buffer | drains every buffer | both |
//! | `full` | 3 | as `sl` | as `sl` | as `sl` |
//!
//! so the options are `sl` under TSO, `ss` under PSO (the operational
//! `ss` of RELAXER drains the whole buffer; book: model-pso.md, Rules (RELAXER Fig. 5)), and `ss`,
//! `ll` and `sl` under PSLO. The axiomatic twins keep the same pairs of
//! program order with the same barriers (book: axiomatic.md, Hardware models), except `ax.pso`,
//! whose `ss` keeps SPARC's meaning (store-store pairs only): there the
//! options are `ss` and `sl`. `sl` costs more than the one-direction
//! barriers because it waits for the store buffer to drain, which is what
//! makes `mfence` and `membar #StoreLoad` expensive on real machines.
//!
//! C11 options and costs: a stronger order on an access, `acq` or `rel` 1,
//! `acq_rel` 2, `sc` 3; a fence, `acq` or `rel` 2, `acq_rel` 3, `sc` 4. A
//! fence costs more than the same order on one access because it orders
//! every access around it; `sc` costs more than acquire/release because it
//! needs a full barrier on most hardware (book: mapping.md: `store sc` and
//! `fence sc` are `mfence` on TSO).

use serde::Serialize;

use crate::ir::{
    C11Fence, FenceKind, HwFence, Instr, InstrId, Instruction, Program, ReadOrd, RmwOrd, ThreadId,
    WriteOrd,
};
use crate::registry::Repairs;

/// What a repair may insert is the model's registry fact
/// ([`crate::registry::Repairs`]); these are the options it gives.
impl Repairs {
    /// Is this a hardware family (fences only)?
    pub fn is_hardware(self) -> bool {
        self != Repairs::C11
    }

    /// The barriers worth trying at a fence site, cheapest first: one per
    /// distinct effect under the model (see the module docs).
    fn hw_options(self) -> &'static [HwFence] {
        match self {
            Repairs::Tso => &[HwFence::SL],
            Repairs::Pso => &[HwFence::SS],
            Repairs::PsoAx => &[HwFence::SS, HwFence::SL],
            Repairs::Pslo => &[HwFence::SS, HwFence::LL, HwFence::SL],
            Repairs::C11 => &[],
        }
    }
}

/// Where a fence statement goes, relative to a memory access statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Anchor {
    /// Right before the statement of this instruction.
    Before(InstrId),
    /// Right after it.
    After(InstrId),
}

impl Anchor {
    /// The instruction whose statement the anchor is next to.
    pub fn instr(self) -> InstrId {
        match self {
            Anchor::Before(i) | Anchor::After(i) => i,
        }
    }
}

/// An insertion point of the IR: before instruction `at`; with `retarget`,
/// jumps to `at` go through the inserted instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Point {
    pub at: InstrId,
    pub retarget: bool,
}

/// What kind of change a site takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum SiteKind {
    /// A fence statement at a statement boundary.
    Fence(Anchor),
    /// A stronger order on the atomic access at this instruction.
    Order(InstrId),
}

/// One candidate site.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Site {
    pub thread: ThreadId,
    pub kind: SiteKind,
    /// What may be placed here, cheapest first; the last is the strongest
    /// and at least as strong as every other ([`Change::at_least`]).
    pub options: Vec<Change>,
    /// Fence sites: the normalised insertion point (see the module docs).
    #[serde(skip)]
    pub(crate) point: Option<Point>,
}

impl Site {
    /// The strongest option.
    pub fn strongest(&self) -> Change {
        *self
            .options
            .last()
            .expect("relaxlab internal error: a site without options")
    }
}

/// One change a repair makes at a site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Change {
    /// Insert `fence(K)`.
    Fence(FenceKind),
    /// Give a load this order.
    Load(ReadOrd),
    /// Give a store this order.
    Store(WriteOrd),
    /// Give an RMW or CAS this order.
    Rmw(RmwOrd),
}

impl Change {
    /// The cost of the change (see the module docs); the search minimises
    /// the sum over a repair's changes after their number.
    pub fn cost(self) -> u32 {
        match self {
            Change::Fence(FenceKind::Hw(k)) => match k {
                HwFence::SS | HwFence::LL | HwFence::LS => 1,
                HwFence::SL => 2,
                HwFence::Full => 3,
            },
            Change::Fence(FenceKind::C11(k)) => match k {
                C11Fence::Acq | C11Fence::Rel => 2,
                C11Fence::AcqRel => 3,
                C11Fence::Sc => 4,
            },
            Change::Load(o) => match o {
                ReadOrd::Na | ReadOrd::Rlx => 0,
                ReadOrd::Acq => 1,
                ReadOrd::Sc => 3,
            },
            Change::Store(o) => match o {
                WriteOrd::Na | WriteOrd::Rlx => 0,
                WriteOrd::Rel => 1,
                WriteOrd::Sc => 3,
            },
            Change::Rmw(o) => match o {
                RmwOrd::Rlx => 0,
                RmwOrd::Acq | RmwOrd::Rel => 1,
                RmwOrd::AcqRel => 2,
                RmwOrd::Sc => 3,
            },
        }
    }

    /// Is `self` at least as strong as `other` (two options of one site
    /// under `family`): does every behaviour the program has with `self`
    /// placed also occur with `other` placed?
    pub fn at_least(self, other: Change, family: Repairs) -> bool {
        if self == other {
            return true;
        }
        match (self, other) {
            (Change::Fence(FenceKind::Hw(a)), Change::Fence(FenceKind::Hw(b))) => {
                let (ea, eb) = (hw_effect(family, a), hw_effect(family, b));
                ea & eb == eb
            }
            (Change::Fence(FenceKind::C11(a)), Change::Fence(FenceKind::C11(b))) => {
                rmw_at_least(c11_fence_as_rmw(a), c11_fence_as_rmw(b))
            }
            (Change::Load(a), Change::Load(b)) => a >= b,
            (Change::Store(a), Change::Store(b)) => a >= b,
            (Change::Rmw(a), Change::Rmw(b)) => rmw_at_least(a, b),
            _ => false,
        }
    }

    /// The change as the source writes it: `fence(sl)`, `acq`.
    pub fn text(self) -> String {
        match self {
            Change::Fence(k) => format!("fence({})", fence_name(k)),
            Change::Load(o) => read_name(o).to_string(),
            Change::Store(o) => write_name(o).to_string(),
            Change::Rmw(o) => rmw_name(o).to_string(),
        }
    }
}

/// What a hardware barrier does under a model, as a bit set. Operational
/// models (book: reference.md, Operational rules): 1 = drains store
/// buffers, 2 = refreshes PSLO store histories. Axiomatic
/// (book: axiomatic.md, Hardware models), by the pairs of `po` it keeps:
/// 1 = store-store, 2 = load-load, 4 = store-load; `ax.tso` and `ax.pslo`
/// have the lattice of their operational twins (one effect; `ss` and `ll`
/// incomparable below `sl`), only `ax.pso` differs.
fn hw_effect(family: Repairs, k: HwFence) -> u8 {
    match (family, k) {
        (Repairs::PsoAx, HwFence::SS) => 1,
        (Repairs::PsoAx, HwFence::SL | HwFence::Full) => 1 | 4,
        (Repairs::PsoAx, _) => 0,
        (Repairs::Tso, HwFence::SL | HwFence::Full) => 1,
        (Repairs::Tso, _) => 0,
        (Repairs::Pso, HwFence::SS | HwFence::SL | HwFence::Full) => 1,
        (Repairs::Pso, _) => 0,
        (Repairs::Pslo, HwFence::SS) => 1,
        (Repairs::Pslo, HwFence::LL) => 2,
        (Repairs::Pslo, HwFence::SL | HwFence::Full) => 3,
        (Repairs::Pslo, HwFence::LS) => 0,
        (Repairs::C11, _) => 0,
    }
}

fn c11_fence_as_rmw(k: C11Fence) -> RmwOrd {
    match k {
        C11Fence::Acq => RmwOrd::Acq,
        C11Fence::Rel => RmwOrd::Rel,
        C11Fence::AcqRel => RmwOrd::AcqRel,
        C11Fence::Sc => RmwOrd::Sc,
    }
}

/// The lattice `rlx < acq, rel < acq_rel < sc`.
fn rmw_at_least(a: RmwOrd, b: RmwOrd) -> bool {
    (!b.is_acquire() || a.is_acquire())
        && (!b.is_release() || a.is_release())
        && (b != RmwOrd::Sc || a == RmwOrd::Sc)
}

/// The source name of a fence kind.
pub fn fence_name(k: FenceKind) -> &'static str {
    match k {
        FenceKind::Hw(h) => crate::mapping::hw_name(h),
        FenceKind::C11(C11Fence::Acq) => "acq",
        FenceKind::C11(C11Fence::Rel) => "rel",
        FenceKind::C11(C11Fence::AcqRel) => "acq_rel",
        FenceKind::C11(C11Fence::Sc) => "sc",
    }
}

/// The source name of a load order.
pub fn read_name(o: ReadOrd) -> &'static str {
    match o {
        ReadOrd::Na => "na",
        ReadOrd::Rlx => "rlx",
        ReadOrd::Acq => "acq",
        ReadOrd::Sc => "sc",
    }
}

/// The source name of a store order.
pub fn write_name(o: WriteOrd) -> &'static str {
    match o {
        WriteOrd::Na => "na",
        WriteOrd::Rlx => "rlx",
        WriteOrd::Rel => "rel",
        WriteOrd::Sc => "sc",
    }
}

/// The source name of an RMW order.
pub fn rmw_name(o: RmwOrd) -> &'static str {
    match o {
        RmwOrd::Rlx => "rlx",
        RmwOrd::Acq => "acq",
        RmwOrd::Rel => "rel",
        RmwOrd::AcqRel => "acq_rel",
        RmwOrd::Sc => "sc",
    }
}

/// Is the instruction a load, store, RMW or CAS?
pub(crate) fn is_access(i: &Instr) -> bool {
    i.location().is_some()
}

/// The successors of instruction `i` in its thread's control-flow graph.
pub(crate) fn successors(code: &[Instruction], i: usize) -> Vec<usize> {
    match &code[i].instr {
        Instr::Branch { target, .. } => vec![i + 1, target.index()],
        Instr::Jump { target } => vec![target.index()],
        Instr::End => vec![],
        _ => vec![i + 1],
    }
}

/// Does instruction `i` fall through to `i + 1`?
fn falls_through(code: &[Instruction], i: usize) -> bool {
    !matches!(code[i].instr, Instr::Jump { .. } | Instr::End)
}

/// For every instruction, whether some jump or branch targets it.
fn jump_targets(code: &[Instruction]) -> Vec<bool> {
    let mut out = vec![false; code.len() + 1];
    for ins in code {
        if let Instr::Branch { target, .. } | Instr::Jump { target } = ins.instr {
            out[target.index()] = true;
        }
    }
    out
}

/// The insertion point of an anchor, normalised (module docs).
fn point_of(code: &[Instruction], targets: &[bool], anchor: Anchor) -> Point {
    let (mut at, mut retarget) = match anchor {
        Anchor::Before(i) => (i.index(), true),
        Anchor::After(i) => (i.index() + 1, false),
    };
    loop {
        if !retarget && !targets[at] {
            retarget = true;
        }
        let slides = retarget
            && at + 1 < code.len()
            && matches!(code[at].instr, Instr::Assign { .. })
            && !targets[at + 1];
        if !slides {
            break;
        }
        at += 1;
    }
    Point {
        at: InstrId::new(at),
        retarget,
    }
}

/// Whether a memory access may have run since the thread's last barrier
/// (start, fork, join) on entry to each instruction (forward data flow),
/// and whether one may run before the next barrier (fork, join, end) from
/// each instruction on (backward).
fn access_flow(code: &[Instruction]) -> (Vec<bool>, Vec<bool>) {
    let n = code.len();
    let barrier = |i: usize| matches!(code[i].instr, Instr::Fork { .. } | Instr::Join { .. });
    let out_of = |i: usize, entry: bool| {
        if is_access(&code[i].instr) {
            true
        } else if barrier(i) {
            false
        } else {
            entry
        }
    };
    let mut before = vec![false; n];
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..n {
            let out = out_of(i, before[i]);
            for s in successors(code, i) {
                if s < n && out && !before[s] {
                    before[s] = true;
                    changed = true;
                }
            }
        }
    }
    let mut after = vec![false; n];
    changed = true;
    while changed {
        changed = false;
        for i in (0..n).rev() {
            let v = if is_access(&code[i].instr) {
                true
            } else if barrier(i) || matches!(code[i].instr, Instr::End) {
                false
            } else {
                successors(code, i).into_iter().any(|s| s < n && after[s])
            };
            if v && !after[i] {
                after[i] = true;
                changed = true;
            }
        }
    }
    (before, after)
}

/// Is a hardware barrier at `point` able to order anything (module docs)?
fn useful_hw_point(code: &[Instruction], flow: &(Vec<bool>, Vec<bool>), p: Point) -> bool {
    let (before, after) = flow;
    let at = p.at.index();
    let out_of = |i: usize| {
        if is_access(&code[i].instr) {
            true
        } else if matches!(code[i].instr, Instr::Fork { .. } | Instr::Join { .. }) {
            false
        } else {
            before[i]
        }
    };
    let preceded = if p.retarget {
        before[at]
    } else {
        at > 0 && falls_through(code, at - 1) && out_of(at - 1)
    };
    preceded && after[at]
}

/// The order options of an atomic access, cheapest first; empty for a
/// non-atomic access or one already `sc`.
fn order_options(instr: &Instr) -> Vec<Change> {
    match instr {
        Instr::Load { ord, .. } => match ord {
            ReadOrd::Rlx => vec![Change::Load(ReadOrd::Acq), Change::Load(ReadOrd::Sc)],
            ReadOrd::Acq => vec![Change::Load(ReadOrd::Sc)],
            ReadOrd::Na | ReadOrd::Sc => vec![],
        },
        Instr::Store { ord, .. } => match ord {
            WriteOrd::Rlx => vec![Change::Store(WriteOrd::Rel), Change::Store(WriteOrd::Sc)],
            WriteOrd::Rel => vec![Change::Store(WriteOrd::Sc)],
            WriteOrd::Na | WriteOrd::Sc => vec![],
        },
        Instr::Rmw { ord, .. } | Instr::Cas { ord, .. } => {
            let all = [RmwOrd::Acq, RmwOrd::Rel, RmwOrd::AcqRel, RmwOrd::Sc];
            all.into_iter()
                .filter(|o| *o != *ord && rmw_at_least(*o, *ord))
                .map(Change::Rmw)
                .collect()
        }
        _ => vec![],
    }
}

/// The C11 fence options, cheapest first.
fn c11_fence_options() -> Vec<Change> {
    [C11Fence::Acq, C11Fence::Rel, C11Fence::AcqRel, C11Fence::Sc]
        .into_iter()
        .map(|k| Change::Fence(FenceKind::C11(k)))
        .collect()
}

/// Every candidate site of `program` under `family`, thread by thread in
/// program order (fence sites and order sites interleaved by instruction).
/// Only instructions written in the source anchor sites.
pub fn candidate_sites(program: &Program, family: Repairs) -> Vec<Site> {
    sites(program, family, Selection::Candidates)
}

/// Every site, each anchor on its own: no two anchors merged, no hardware
/// site left out as useless. For checking the search (a brute force over
/// these must agree with it) and the text of repairs (every anchor).
pub fn every_site(program: &Program, family: Repairs) -> Vec<Site> {
    sites(program, family, Selection::Every)
}

impl Site {
    /// Do two sites always execute at the same place (same thread, same
    /// normalised insertion point, or the same access)?
    pub fn same_place(&self, other: &Site) -> bool {
        self.thread == other.thread
            && match (self.kind, other.kind) {
                (SiteKind::Order(a), SiteKind::Order(b)) => a == b,
                (SiteKind::Fence(_), SiteKind::Fence(_)) => self.point == other.point,
                _ => false,
            }
    }
}

/// Which sites [`sites`] returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Selection {
    Candidates,
    Every,
}

fn sites(program: &Program, family: Repairs, selection: Selection) -> Vec<Site> {
    let mut out = Vec::new();
    for (t, thread) in program.threads.iter().enumerate() {
        let thread_id = ThreadId::new(t);
        let code = &thread.code;
        let targets = jump_targets(code);
        let flow = access_flow(code);
        let accesses: Vec<usize> = (0..code.len())
            .filter(|&i| code[i].origin == crate::ir::Origin::Source && is_access(&code[i].instr))
            .collect();
        // Fence sites: `before` anchors name a point first, then `after`
        // anchors add the points no `before` anchor reaches.
        let mut fences: Vec<(Point, Anchor)> = Vec::new();
        let anchors = accesses
            .iter()
            .map(|&i| Anchor::Before(InstrId::new(i)))
            .chain(accesses.iter().map(|&i| Anchor::After(InstrId::new(i))));
        for anchor in anchors {
            let p = point_of(code, &targets, anchor);
            if selection == Selection::Candidates {
                if fences.iter().any(|(q, _)| *q == p) {
                    continue;
                }
                if family.is_hardware() && !useful_hw_point(code, &flow, p) {
                    continue;
                }
            }
            fences.push((p, anchor));
        }
        let fence_options: Vec<Change> = match family {
            Repairs::C11 => c11_fence_options(),
            hw => hw
                .hw_options()
                .iter()
                .map(|k| Change::Fence(FenceKind::Hw(*k)))
                .collect(),
        };
        let mut sites: Vec<(usize, u8, Site)> = fences
            .into_iter()
            .map(|(p, anchor)| {
                // Sort key: the anchor's instruction, `before` first.
                let key = match anchor {
                    Anchor::Before(i) => (i.index(), 0),
                    Anchor::After(i) => (i.index(), 2),
                };
                (
                    key.0,
                    key.1,
                    Site {
                        thread: thread_id,
                        kind: SiteKind::Fence(anchor),
                        options: fence_options.clone(),
                        point: Some(p),
                    },
                )
            })
            .collect();
        if family == Repairs::C11 {
            for &i in &accesses {
                let options = order_options(&code[i].instr);
                if !options.is_empty() {
                    sites.push((
                        i,
                        1,
                        Site {
                            thread: thread_id,
                            kind: SiteKind::Order(InstrId::new(i)),
                            options,
                            point: None,
                        },
                    ));
                }
            }
        }
        sites.sort_by_key(|(i, k, _)| (*i, *k));
        out.extend(sites.into_iter().map(|(_, _, s)| s));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lattice_is_consistent(family: Repairs, options: &[Change]) {
        let top = *options.last().unwrap();
        for &o in options {
            assert!(top.at_least(o, family), "{top:?} >= {o:?} under {family:?}");
            assert!(o.at_least(o, family));
        }
    }

    #[test]
    fn strongest_option_dominates_every_option() {
        for family in [Repairs::Tso, Repairs::Pso, Repairs::PsoAx, Repairs::Pslo] {
            let opts: Vec<Change> = family
                .hw_options()
                .iter()
                .map(|k| Change::Fence(FenceKind::Hw(*k)))
                .collect();
            lattice_is_consistent(family, &opts);
        }
        lattice_is_consistent(Repairs::C11, &c11_fence_options());
        for ord in [RmwOrd::Rlx, RmwOrd::Acq, RmwOrd::Rel, RmwOrd::AcqRel] {
            let instr = Instr::Rmw {
                dst: crate::ir::RegId(0),
                loc: crate::ir::LocId(0),
                op: crate::ir::RmwOp::Add,
                operand: crate::ir::Expr::Const(1),
                ord,
            };
            lattice_is_consistent(Repairs::C11, &order_options(&instr));
        }
    }

    #[test]
    fn acquire_and_release_are_incomparable() {
        let acq = Change::Rmw(RmwOrd::Acq);
        let rel = Change::Rmw(RmwOrd::Rel);
        assert!(!acq.at_least(rel, Repairs::C11));
        assert!(!rel.at_least(acq, Repairs::C11));
        let ss = Change::Fence(FenceKind::Hw(HwFence::SS));
        let ll = Change::Fence(FenceKind::Hw(HwFence::LL));
        let sl = Change::Fence(FenceKind::Hw(HwFence::SL));
        assert!(!ss.at_least(ll, Repairs::Pslo));
        assert!(sl.at_least(ll, Repairs::Pslo) && sl.at_least(ss, Repairs::Pslo));
        // Under PSO `ss` already drains every buffer; not under `ax.pso`.
        assert!(ss.at_least(sl, Repairs::Pso));
        assert!(!ss.at_least(sl, Repairs::PsoAx) && sl.at_least(ss, Repairs::PsoAx));
    }
}
