//! Observer reads: reads whose source only coherence constrains, location
//! by location, so that their `rf` choices are a product the engine can
//! enumerate without re-checking the whole execution (book: axiomatic.md, Candidate executions).
//!
//! A model that opts in (`super::axioms::c11::observer_reads`) names, per
//! skeleton, reads that are *terminal*: everything after them in their
//! thread is such a read too, and nothing waits for their thread (no
//! `asw` edge leaves them; [`terminal_reads`]). For such a read `r` of a
//! C11 model (relaxed, free, no SC fence in the execution; see `c11.rs`
//! for why each axiom then ignores `r`'s source), the only axiom its
//! source `w` can break is coherence, `irreflexive(hb; eco?)`, and only
//! through these patterns on `r`'s location:
//! - CoWR/CoRR against `hb`: no event `e` with `e hb r` whose position is
//!   `co`-after `w` (the position of a write is itself, of a read its
//!   source);
//! - CoRR within the observers of one thread: their sources do not go
//!   backwards in `co`.
//!
//! Every other eco path through `r` is `w rf r fr w'`, which `w co w'`
//! already short-cuts, and `r` has no `hb` successor but later observers.
//! So given a *core* (the candidate without the observers' `rf`) that the
//! model accepts, the consistent candidates are exactly the core with, for
//! each group of one thread's observers of one location, a sequence of
//! sources whose `co` positions never decrease and start at or above each
//! read's *floor* (the latest position `hb`-before it), groups
//! independent. Uniproc alone gives the same shape with `po` for `hb`: that
//! count is what the enumeration reports as candidates.
//!
//! Whether such a candidate is SC (the `non-SC` mark of outcome rows,
//! `acyclic(po | com)` with atomicity) is not local: the observers' `fr`
//! edges can close cycles through other locations (MP, IRIW). [`ScMarks`]
//! decides it per candidate from the core's closure: observer `o` reaches
//! observer `o'` when some write `co`-after `o`'s source reaches, in the
//! core, an event with an edge into `o'` (its source, or a `po`
//! predecessor); the candidate is SC iff the core is and this small graph,
//! with `po` between observers, is acyclic.

use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::candidates::Candidate;
use super::execution::Execution;
use super::relation::{members, single, EventSet, Relation};

/// The observer reads of one thread on one location, under one choice of
/// the location's `co` and its other reads' sources.
///
/// Invariant: `reads` are in `po` order; `floor` has one entry per read,
/// non-decreasing, each below `writes.len()`.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    /// The location's writes in `co` order, init first.
    pub writes: Vec<usize>,
    /// The location's reads that are not observers, with their sources.
    pub sourced: Vec<(usize, usize)>,
    /// The observers, in `po` order.
    pub reads: Vec<usize>,
    /// Per read, the least `co` position uniproc allows its source: that
    /// of the latest write `po`-before it (CoWR) and of the sources of
    /// reads `po`-before it (CoRR).
    pub floor: Vec<usize>,
}

impl Group {
    /// How many source sequences uniproc allows.
    pub(crate) fn uniproc_choices(&self) -> u64 {
        count_sequences(&self.floor, self.writes.len())
    }
}

/// The reads of `eligible` all of whose `po`-successors are in
/// `eligible` too, and that neither they nor those successors have an
/// `asw` successor (no join waits for their thread).
pub(crate) fn terminal_reads(ex: &Execution, eligible: EventSet) -> EventSet {
    let mut out = 0;
    for r in members(eligible) {
        if !ex.events[r].is_read() {
            continue;
        }
        let tail = ex.po.row(r) | single(r);
        let all_eligible = members(tail)
            .all(|e| eligible & single(e) != 0 && ex.events[e].is_read() && ex.asw.row(e) == 0);
        if all_eligible {
            out |= single(r);
        }
    }
    out
}

/// The observer groups of one location: `order` is its `co` order, `pos`
/// the position of each of its writes there, `observed` its observer
/// reads, `rf` the sources of its other reads.
pub(crate) fn location_groups(
    ex: &Execution,
    order: &[usize],
    pos: &[usize],
    observed: &[usize],
    rf: &[(usize, usize)],
) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for &r in observed {
        // CoWR: the latest write po-before r; CoRR: the sources of reads
        // po-before r.
        let writes_before = order.iter().filter(|&&w| ex.po.has(w, r)).map(|&w| pos[w]);
        let reads_before = rf
            .iter()
            .filter(|&&(_, q)| ex.po.has(q, r))
            .map(|&(s, _)| pos[s]);
        let floor = writes_before.chain(reads_before).max().unwrap_or(0);
        let thread = ex.events[r].thread;
        match groups.last_mut() {
            Some(g) if ex.events[g.reads[0]].thread == thread => {
                g.reads.push(r);
                g.floor.push(floor);
            }
            _ => groups.push(Group {
                writes: order.to_vec(),
                sourced: rf.to_vec(),
                reads: vec![r],
                floor: vec![floor],
            }),
        }
    }
    groups
}

/// The number of sequences `p` with `floor[i] <= p[i] < m`, `p`
/// non-decreasing (saturating).
fn count_sequences(floor: &[usize], m: usize) -> u64 {
    // ways[p]: sequences for the reads from i on, with p[i - 1] = p.
    let mut ways = vec![1u64; m + 1];
    for &f in floor.iter().rev() {
        let mut next = vec![0u64; m + 1];
        // Suffix sums: the sequences whose next entry is at least p.
        let mut acc = 0u64;
        for p in (0..m).rev() {
            if p >= f {
                acc = acc.saturating_add(ways[p]);
            }
            next[p] = acc;
        }
        ways = next;
    }
    ways[0]
}

/// Every sequence `p` with `floor[i] <= p[i] < m`, `p` non-decreasing, in
/// lexicographic order.
fn sequences(floor: &[usize], m: usize, out: &mut Vec<Vec<usize>>, prefix: &mut Vec<usize>) {
    let i = prefix.len();
    if i == floor.len() {
        out.push(prefix.clone());
        return;
    }
    let lo = floor[i].max(prefix.last().copied().unwrap_or(0));
    for p in lo..m {
        prefix.push(p);
        sequences(floor, m, out, prefix);
        prefix.pop();
    }
}

/// The source sequences of groups, shared between the cores and models
/// that need the same: they depend on the floors and the number of writes
/// only.
#[derive(Debug, Default)]
pub(crate) struct SequenceCache {
    /// By packed key (see [`SequenceCache::key`]).
    cache: FxHashMap<u128, Rc<[Vec<usize>]>>,
}

impl SequenceCache {
    /// A key for floors of at most 15 reads and at most 255 writes.
    fn key(floor: &[usize], m: usize) -> Option<u128> {
        if floor.len() > 15 || m > 255 {
            return None;
        }
        let mut key = m as u128;
        for &f in floor {
            key = (key << 8) | f as u128;
        }
        Some((key << 4) | floor.len() as u128)
    }

    /// Every sequence for `floor` over `m` writes, in lexicographic order.
    fn get(&mut self, floor: &[usize], m: usize) -> Rc<[Vec<usize>]> {
        let make = || {
            let mut seqs = Vec::new();
            sequences(floor, m, &mut seqs, &mut Vec::new());
            Rc::<[Vec<usize>]>::from(seqs)
        };
        match Self::key(floor, m) {
            Some(key) => self.cache.entry(key).or_insert_with(make).clone(),
            None => make(),
        }
    }
}

/// One group's source sequences, and whether the model allows each
/// (`None`: all).
type GroupSequences = (Rc<[Vec<usize>]>, Option<Vec<bool>>);

/// The consistent extensions of one accepted core under one model: per
/// group, the source sequences (as `co` positions) the model allows.
#[derive(Debug)]
pub(crate) struct Extensions {
    /// Per group, its sequences, and whether the model allows each (`None`:
    /// all).
    per_group: Vec<GroupSequences>,
    /// Stop after this many uniproc extensions (the candidate bound).
    limit: Option<u64>,
}

impl Extensions {
    /// The extensions of `cand`, whose core the model accepts with
    /// happens-before `hb`.
    pub(crate) fn new(
        cand: &Candidate<'_>,
        hb: &Relation,
        cache: &mut SequenceCache,
    ) -> Extensions {
        let per_group = cand
            .observers
            .iter()
            .map(|g| {
                let floors = hb_floors(g, hb);
                let m = g.writes.len();
                match cand.limit {
                    // Without a bound only the allowed sequences are needed.
                    None => (cache.get(&floors, m), None),
                    // With one, the uniproc order decides where it cuts.
                    Some(_) => {
                        let seqs = cache.get(&g.floor, m);
                        let allowed = seqs
                            .iter()
                            .map(|s| s.iter().zip(&floors).all(|(p, f)| p >= f))
                            .collect();
                        (seqs, Some(allowed))
                    }
                }
            })
            .collect();
        Extensions {
            per_group,
            limit: cand.limit,
        }
    }

    /// How many sequences group `g` has.
    pub(crate) fn sequences_of(&self, g: usize) -> usize {
        self.per_group[g].0.len()
    }

    /// Calls `f` with each allowed extension in enumeration order (the
    /// last group fastest).
    pub(crate) fn for_each(&self, mut f: impl FnMut(&Choice<'_>)) {
        let groups = self.per_group.len();
        if self.per_group.iter().any(|(seqs, _)| seqs.is_empty()) {
            return;
        }
        let mut idx = vec![0usize; groups];
        let mut seqs: Vec<&[usize]> = Vec::with_capacity(groups);
        let mut seen = 0u64;
        // The first group changed since the last extension reported.
        let mut changed = 0;
        loop {
            if self.limit.is_some_and(|l| seen >= l) {
                return;
            }
            seen += 1;
            seqs.clear();
            let mut ok = true;
            for (g, &i) in idx.iter().enumerate() {
                let (list, allowed) = &self.per_group[g];
                ok &= allowed.as_ref().is_none_or(|a| a[i]);
                seqs.push(&list[i]);
            }
            if ok {
                f(&Choice {
                    seqs: &seqs,
                    idx: &idx,
                    changed,
                });
                changed = groups;
            }
            // Advance the mixed-radix counter, last group fastest.
            let mut g = groups;
            loop {
                if g == 0 {
                    return;
                }
                g -= 1;
                idx[g] += 1;
                if idx[g] < self.per_group[g].0.len() {
                    break;
                }
                idx[g] = 0;
            }
            changed = changed.min(g);
        }
    }
}

/// One extension as [`Extensions::for_each`] hands it out.
#[derive(Debug)]
pub(crate) struct Choice<'e> {
    /// Per group, the `co` positions of the observers' sources.
    pub seqs: &'e [&'e [usize]],
    /// Per group, the index of its sequence among the group's.
    pub idx: &'e [usize],
    /// The first group whose sequence differs from the previous
    /// extension's (0 for the first).
    pub changed: usize,
}

/// Per observer of `g`, the least `co` position its source may have:
/// coherence, `irreflexive(hb; eco?)`, forbids a source `co`-before the
/// position of an event of the location that happens before the read
/// (CoWR for a write, CoRR for a read, whose position is its source's).
fn hb_floors(g: &Group, hb: &Relation) -> Vec<usize> {
    let mut floors = Vec::with_capacity(g.reads.len());
    let mut prev = 0;
    for (i, &r) in g.reads.iter().enumerate() {
        let mut f = g.floor[i].max(prev);
        for (p, &w) in g.writes.iter().enumerate() {
            if hb.has(w, r) {
                f = f.max(p);
            }
        }
        for &(s, q) in &g.sourced {
            if hb.has(q, r) {
                if let Some(p) = g.writes.iter().position(|&w| w == s) {
                    f = f.max(p);
                }
            }
        }
        floors.push(f);
        prev = f;
    }
    floors
}

/// Decides whether extensions of one core are SC (see the module docs).
///
/// Invariant: at most 64 observers, each group with at most 64 writes;
/// `edges` has `k * positions * k` entries.
#[derive(Debug)]
pub(crate) struct ScMarks {
    /// The core itself is SC.
    core_sc: bool,
    /// The number of observers `k` (groups flattened in order).
    k: usize,
    /// The largest number of source positions of a group.
    positions: usize,
    /// `edges[(a * positions + p) * k + b]`: bit `q` set when observer `a`
    /// reading from position `p` reaches observer `b` reading from
    /// position `q`: a write `co`-after `a`'s source reaches, in the core,
    /// a `po` predecessor of `b` or `b`'s source.
    edges: Vec<u64>,
    /// Per observer, the observers after it in `po`.
    later: Vec<u64>,
    /// Scratch: the observers' positions, and the graph's rows.
    at: Vec<usize>,
    succ: Vec<u64>,
}

impl ScMarks {
    /// The marks of `cand`'s extensions; `None` when they exceed the
    /// invariant's sizes (the caller then checks whole executions).
    pub(crate) fn new(cand: &Candidate<'_>) -> Option<ScMarks> {
        let ex = cand.exec;
        let observers: Vec<(usize, usize)> = cand
            .observers
            .iter()
            .enumerate()
            .flat_map(|(gi, g)| g.reads.iter().map(move |&r| (gi, r)))
            .collect();
        let k = observers.len();
        let positions = cand.observers.iter().map(|g| g.writes.len()).max();
        let positions = positions.unwrap_or(0);
        if k > 64 || positions > 64 {
            return None;
        }
        let core_sc = super::axioms::hardware::check_sc(ex).is_ok();
        let mut marks = ScMarks {
            core_sc,
            k,
            positions,
            edges: Vec::new(),
            later: Vec::new(),
            at: Vec::with_capacity(k),
            succ: Vec::with_capacity(k),
        };
        if !core_sc || k == 0 {
            return Some(marks);
        }
        let obs_set = observers.iter().fold(0u128, |acc, &(_, o)| acc | single(o));
        let po = ex.po_asw().restrict(ex.accesses(), ex.accesses());
        let core = ex.accesses() & !obs_set;
        // Acyclic, since the core is SC.
        let reach = po.restrict(core, core).union(&ex.com()).star();
        let po_inv = po.inverse();
        let preds: Vec<EventSet> = observers
            .iter()
            .map(|&(_, o)| po_inv.row(o) & core)
            .collect();
        marks.edges = vec![0; k * positions * k];
        for (a, &(ga, _)) in observers.iter().enumerate() {
            let writes = &cand.observers[ga].writes;
            // What the writes co-after each position reach, last first.
            let mut after = 0u128;
            for p in (0..writes.len()).rev() {
                for (b, &(gb, _)) in observers.iter().enumerate() {
                    let mask = if after & preds[b] != 0 {
                        u64::MAX
                    } else {
                        cand.observers[gb]
                            .writes
                            .iter()
                            .enumerate()
                            .filter(|&(_, &w)| after & single(w) != 0)
                            .fold(0u64, |acc, (q, _)| acc | (1 << q))
                    };
                    marks.edges[(a * positions + p) * k + b] = mask;
                }
                after |= reach.row(writes[p]);
            }
            let later = observers
                .iter()
                .enumerate()
                .filter(|&(_, &(_, o2))| po.has(observers[a].1, o2))
                .fold(0u64, |acc, (i, _)| acc | (1 << i));
            marks.later.push(later);
        }
        Some(marks)
    }

    /// Is the extension choosing `choice` (per group, the sources'
    /// positions) SC?
    pub(crate) fn is_sc(&mut self, choice: &[&[usize]]) -> bool {
        if !self.core_sc {
            return false;
        }
        let k = self.k;
        if k == 0 {
            return true;
        }
        self.at.clear();
        for seq in choice {
            self.at.extend_from_slice(seq);
        }
        // The observer graph: `edges`, and `po` between observers.
        self.succ.clear();
        for (a, &p) in self.at.iter().enumerate() {
            let start = (a * self.positions + p) * k;
            let mut row = self.later[a];
            for (b, (&mask, &q)) in self.edges[start..start + k]
                .iter()
                .zip(&self.at)
                .enumerate()
            {
                row |= ((mask >> q) & 1) << b;
            }
            self.succ.push(row);
        }
        acyclic_small(&self.succ)
    }
}

/// Is the graph with successor sets `succ` (bit `b` of `succ[a]`: an edge
/// from `a` to `b`, at most 64 nodes) acyclic? Peels sinks until none is
/// left, highest index first, so that a chain whose edges go up (`po`
/// between one thread's observers) goes in one round.
fn acyclic_small(succ: &[u64]) -> bool {
    let k = succ.len();
    let mut left: u64 = if k == 64 { u64::MAX } else { (1u64 << k) - 1 };
    while left != 0 {
        let before = left;
        let mut rest = left;
        while rest != 0 {
            let a = 63 - rest.leading_zeros() as usize;
            rest &= !(1 << a);
            if succ[a] & left == 0 {
                left &= !(1 << a);
            }
        }
        if left == before {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_the_enumeration() {
        for (floor, m) in [
            (vec![0, 0, 0], 4),
            (vec![1, 2], 3),
            (vec![0], 1),
            (vec![2, 2, 3], 5),
        ] {
            let mut seqs = Vec::new();
            sequences(&floor, m, &mut seqs, &mut Vec::new());
            assert_eq!(count_sequences(&floor, m), seqs.len() as u64);
            assert!(seqs.windows(2).all(|w| w[0] < w[1]));
        }
        assert_eq!(count_sequences(&[0, 0, 0], 4), 20);
    }

    #[test]
    fn peeling_finds_cycles() {
        assert!(acyclic_small(&[0b10, 0b100, 0]));
        assert!(!acyclic_small(&[0b10, 0b1]));
        assert!(!acyclic_small(&[0b1]));
    }
}
