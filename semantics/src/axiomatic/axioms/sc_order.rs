//! The SC order of the C11 models (book: axiomatic.md, C11 models; C++11 §29.3; Batty et
//! al. 2011; TSAN11 Sec. 4.4 and its fence rules (5)-(7)).
//!
//! `sc` is a strict total order of the SC events (SC reads, writes, RMWs
//! and fences; an RMW is one event, its write taking its read's place) that
//! contains `hb` and `co` between SC events, and satisfies:
//! - **SC reads** (§29.3p3): with A the last SC write to the location
//!   before the SC read r, r reads from A if it reads an SC write, and
//!   otherwise from a write that does not happen before A;
//! - **SC fences, read side** (§29.3p4-6): r does not read from a write
//!   `co`-before a write a when a po X sc r (r SC), or a sc X po r (a SC),
//!   or a po X sc Y po r (X, Y SC fences);
//! - **SC fences, write side** (§29.3p7): a `co` b when a po X sc b (b SC),
//!   or a sc Y po b (a SC), or a po X sc Y po b.
//!
//! The order only needs to exist. [`find`] builds it as a linear extension
//! of the required edges, one event at a time, and checks every rule at the
//! moment its last `sc`-ordered event is placed, so a violating prefix is
//! abandoned at once. For `ax.c11r` and `ax.c11t` the extension must also
//! follow their extra acyclicity axiom: it is seeded with that relation's
//! closure restricted to SC events, which makes `acyclic(R | sc)` hold
//! whenever R is acyclic.

use super::c11::C11;
use crate::axiomatic::execution::{EventId, Rejection};
use crate::axiomatic::relation::{members, single, EventSet, Relation};
use crate::ir::C11Fence;

/// An extra relation the SC order must follow.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ScExtra<'r> {
    None,
    /// A transitive relation whose edges between SC events `sc` must keep.
    Order(&'r Relation),
}

/// The relation of a total order given as a sequence.
pub(crate) fn as_relation(n: usize, order: &[EventId]) -> Relation {
    let mut r = Relation::new(n);
    for (i, a) in order.iter().enumerate() {
        for b in &order[i + 1..] {
            if a != b {
                r.add(*a, *b);
            }
        }
    }
    r
}

/// One node of the order: an SC event, or the two halves of an SC RMW.
struct Nodes {
    /// Events of each node (read half first).
    members: Vec<Vec<usize>>,
    /// Per node, the nodes that must come before it.
    preds: Vec<u128>,
}

/// Facts the rules read, precomputed per execution.
struct Facts<'c, 'a> {
    c: &'c C11<'a>,
    sc_reads: EventSet,
    sc_writes: EventSet,
    sc_fences: EventSet,
    /// `fr` rows: for r, the writes a with r fr a.
    fr: &'c Relation,
    /// For each event x, the writes po-before it.
    writes_before: Vec<EventSet>,
    /// For each event y, the reads and the writes po-after it.
    reads_after: Vec<EventSet>,
    writes_after: Vec<EventSet>,
}

/// Finds an SC order, or says why none exists. When the execution carries
/// an order (`ex.sc`, e.g. lifted from a trace), checks that one instead.
pub(crate) fn find(c: &C11, extra: ScExtra) -> Result<Vec<EventId>, Rejection> {
    let ex = c.ex;
    let sc_events = ex.set(|e| e.mode == crate::axiomatic::execution::Mode::Sc);
    let sc_fences = ex.c11_fences(|k| k == C11Fence::Sc);
    let facts = Facts {
        c,
        sc_reads: sc_events & c.reads,
        sc_writes: sc_events & c.writes,
        sc_fences,
        fr: &c.fr,
        writes_before: (0..c.n)
            .map(|x| ex.po.inverse().row(x) & c.writes)
            .collect(),
        reads_after: (0..c.n).map(|y| ex.po.row(y) & c.reads).collect(),
        writes_after: (0..c.n).map(|y| ex.po.row(y) & c.writes).collect(),
    };
    let nodes = build_nodes(c, sc_events, extra);
    if nodes.members.len() > 128 {
        return Err(Rejection {
            axiom: "sc",
            cycle: vec![],
        });
    }
    let mut must = Relation::new(nodes.members.len());
    for (v, p) in nodes.preds.iter().enumerate() {
        for u in members(*p) {
            must.add_idx(u, v);
        }
    }
    if let Err(cycle) = must.acyclic() {
        let cycle = cycle
            .iter()
            .filter_map(|n| nodes.members[n.index()].first())
            .map(|&e| EventId::new(e))
            .collect();
        return Err(Rejection {
            axiom: "sc-total",
            cycle,
        });
    }
    let given: Option<Vec<usize>> = ex.sc.as_ref().map(|order| {
        let mut seq = Vec::new();
        for e in order {
            if let Some(node) = nodes.members.iter().position(|m| m.contains(&e.index())) {
                if seq.last() != Some(&node) {
                    seq.push(node);
                }
            }
        }
        seq
    });
    let mut state = Search {
        facts: &facts,
        nodes: &nodes,
        placed: Vec::new(),
        placed_set: 0,
        placed_events: 0,
        given,
    };
    if state.extend() {
        let order = state
            .placed
            .iter()
            .flat_map(|&n| nodes.members[n].iter().map(|&e| EventId::new(e)))
            .collect();
        return Ok(order);
    }
    Err(Rejection {
        axiom: "sc",
        cycle: members(sc_events).map(EventId::new).collect(),
    })
}

/// Groups the SC events into nodes and computes the required order:
/// `hb | co` (and the extra relation) between SC events.
fn build_nodes(c: &C11, sc_events: EventSet, extra: ScExtra) -> Nodes {
    let ex = c.ex;
    let mut node_of = vec![usize::MAX; c.n];
    let mut node_members: Vec<Vec<usize>> = Vec::new();
    for e in members(sc_events) {
        if node_of[e] != usize::MAX {
            continue;
        }
        let mut m = vec![e];
        // The write half of an SC RMW joins its read's node.
        for w in members(ex.rmw.row(e) & sc_events) {
            m.push(w);
        }
        for &x in &m {
            node_of[x] = node_members.len();
        }
        node_members.push(m);
    }
    let mut required = c.hb.union(&ex.co);
    if let ScExtra::Order(r) = extra {
        required = required.union(r);
    }
    let mut preds = vec![0u128; node_members.len()];
    for (v, m) in node_members.iter().enumerate() {
        for &b in m {
            for a in members(required.inverse().row(b) & sc_events) {
                let u = node_of[a];
                if u != v && u < 128 {
                    preds[v] |= 1u128 << u;
                }
            }
        }
    }
    Nodes {
        members: node_members,
        preds,
    }
}

struct Search<'f, 'c, 'a> {
    facts: &'f Facts<'c, 'a>,
    nodes: &'f Nodes,
    placed: Vec<usize>,
    placed_set: u128,
    /// The events of the placed nodes.
    placed_events: EventSet,
    /// A given order to check instead of searching.
    given: Option<Vec<usize>>,
}

impl Search<'_, '_, '_> {
    /// Extends the placed prefix to a full order; true on success.
    fn extend(&mut self) -> bool {
        let total = self.nodes.members.len();
        if self.placed.len() == total {
            return true;
        }
        let candidates: Vec<usize> = match &self.given {
            Some(seq) => seq.get(self.placed.len()).copied().into_iter().collect(),
            None => (0..total).collect(),
        };
        for v in candidates {
            if self.placed_set & (1u128 << v) != 0
                || self.nodes.preds[v] & !self.placed_set != 0
                || !self.rules_hold(v)
            {
                continue;
            }
            self.placed.push(v);
            self.placed_set |= 1u128 << v;
            let saved = self.placed_events;
            for &e in &self.nodes.members[v] {
                self.placed_events |= single(e);
            }
            if self.extend() {
                return true;
            }
            self.placed_events = saved;
            self.placed_set &= !(1u128 << v);
            self.placed.pop();
        }
        false
    }

    /// The last SC write to the location of `r` among the placed events.
    fn last_sc_write(&self, r: usize) -> Option<usize> {
        let f = self.facts;
        let loc = f.c.ex.events[r].loc();
        self.placed.iter().rev().find_map(|&node| {
            self.nodes.members[node]
                .iter()
                .rev()
                .copied()
                .find(|&w| f.sc_writes & single(w) != 0 && f.c.ex.events[w].loc() == loc)
        })
    }

    /// Do the rules whose last `sc` event is node `v` hold if `v` comes
    /// next?
    fn rules_hold(&self, v: usize) -> bool {
        let f = self.facts;
        let placed_fences = self.placed_events & f.sc_fences;
        let placed_writes = self.placed_events & f.sc_writes;
        let co = &f.c.ex.co;
        for &e in &self.nodes.members[v] {
            if f.sc_reads & single(e) != 0 {
                // SC reads (§29.3p3).
                if !self.sc_read_ok(e) {
                    return false;
                }
                // Fence rule (5): a po X sc r, so r must not read before a.
                for x in members(placed_fences) {
                    if f.fr.row(e) & f.writes_before[x] != 0 {
                        return false;
                    }
                }
            }
            if f.sc_writes & single(e) != 0 {
                // Write side: a po X sc b implies a co b (or a = b).
                for x in members(placed_fences) {
                    if co.row(e) & f.writes_before[x] != 0 {
                        return false;
                    }
                }
            }
            if f.sc_fences & single(e) != 0 {
                let y = e;
                for r in members(f.reads_after[y]) {
                    // Fence rule (6): a sc Y po r with a SC.
                    if f.fr.row(r) & placed_writes != 0 {
                        return false;
                    }
                    // Fence rule (7): a po X sc Y po r.
                    for x in members(placed_fences) {
                        if f.fr.row(r) & f.writes_before[x] != 0 {
                            return false;
                        }
                    }
                }
                for b in members(f.writes_after[y]) {
                    // Write side: a sc Y po b (a SC) implies a co b.
                    if co.row(b) & placed_writes != 0 {
                        return false;
                    }
                    // Write side: a po X sc Y po b implies a co b.
                    for x in members(placed_fences) {
                        if co.row(b) & f.writes_before[x] != 0 {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    /// SC reads (§29.3p3) for the SC read `r` placed next.
    fn sc_read_ok(&self, r: usize) -> bool {
        let f = self.facts;
        let ex = f.c.ex;
        let a = self.last_sc_write(r);
        let Some(w) = members(ex.rf.inverse().row(r)).next() else {
            return true;
        };
        if f.sc_writes & single(w) != 0 {
            a == Some(w)
        } else {
            match a {
                Some(a) => !f.c.hb.has(w, a),
                None => true,
            }
        }
    }
}
