//! The modification-order graph of one atomic location (C11TESTER Sec.
//! 4.1-4.3, Figs. 6 and 7), with mo-graph clock vectors for reachability
//! (Sec. 4.2, Theorem 4).
//!
//! A node is a store or RMW to the location; node index = the order in
//! which the stores were performed (node 0 is the init write). An edge
//! `a → b` is the constraint `a mo b`. An **rmw edge** `w ⇒ r` says that
//! the RMW `r` read `w` and so immediately follows it in `mo`.
//!
//! # Clock vectors
//!
//! Each node `n` of thread `t` carries a per-thread, per-location sequence
//! number `s_n` (1, 2, ... in the order `t` stored to the location). The
//! init write has a slot of its own with sequence number 1 (slot 0; thread
//! `t` uses slot `t + 1`), so that "init reaches `n`" is visible in `n`'s
//! vector like any other fact. Its clock vector is
//! `CV_n = ⊔ {⊥_m : m reaches n}` with `⊥_m = [t_m ↦ s_m]`: the largest
//! sequence number of each thread's nodes that reach `n`. Because the
//! stores of one thread to one location are totally ordered by `mo` (CoWW
//! via `sb`, the callers add those edges), Theorem 4 holds:
//! `a` reaches `b` iff `CV_a <= CV_b` (`<=` pointwise). In debug builds
//! every mutation re-checks this against a graph search
//! ([`MoGraph::check_invariants`]).
//!
//! # Edges and the rmw discipline
//!
//! The paper's `AddEdge` follows rmw edges forward from the source (an
//! edge from `w` goes from the last RMW of the chain `w ⇒ r1 ⇒ r2 ...`),
//! and `AddRMWEdge` moves `w`'s outgoing edges to the RMW. We also redirect
//! edges **into** an RMW backwards to the head of its chain (`x → r1`
//! becomes `x → w`, unless `x` is in the chain), which the paper leaves
//! out: it is what makes "r immediately follows w" hold in every
//! topological order. Invariant: in a chain, every node but the last has
//! its rmw successor as its only successor, and every node but the first
//! has its rmw predecessor as its only predecessor. Contracting the chains
//! gives an acyclic graph whose topological orders, with the chains
//! expanded, are exactly the modification orders the constraints allow.
//!
//! Deviation from Fig. 6: `AddRMWEdge` propagates the RMW's clock vector to
//! the successors it inherits unconditionally. In the figure it does so
//! only when `Merge(rmw, from)` changed the RMW's clock vector, which it
//! does not when the source's vector is below the RMW's own `⊥` (with the
//! paper's vectors: an RMW reading the all-zero init write, or an earlier
//! store of its own thread that nothing precedes); the inherited
//! successors would then miss the RMW's sequence number.
//!
//! Edges are kept as small sorted `Vec`s; an edge already implied by a path
//! is not added (the paper's redundancy test, `from.cv <= to.cv`), except
//! between nodes of one thread (the paper's `mustAddEdge`).

use crate::ir::ThreadId;
use crate::models::clocks::vclock::VClock;
use smallvec::{smallvec, SmallVec};

/// A node index: the order in which the location's stores were performed.
pub(crate) type NodeId = u32;

/// The clock-vector slot of a writer: 0 for the init write, `t + 1` for
/// thread `t`.
fn slot(thread: Option<ThreadId>) -> ThreadId {
    match thread {
        None => ThreadId(0),
        Some(t) => ThreadId(t.0.saturating_add(1)),
    }
}

/// `⊥_CV` of a node (Sec. 4.2): its own sequence number in its slot.
fn own_clock(thread: Option<ThreadId>, seq: u32) -> VClock {
    let mut cv = VClock::bottom();
    cv.set(slot(thread), seq);
    cv
}

/// The structural part of a node: its edges and clock vector.
///
/// Invariant: `succ` is sorted and has no duplicate; `cv` is exact (the
/// join of the `⊥` of every node reaching this one, itself included).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct GraphNode {
    /// The writer; `None` for the init write.
    pub(crate) thread: Option<ThreadId>,
    /// The writer's per-location sequence number (1 for the init write).
    pub(crate) seq: u32,
    /// `mo` successors (the constraint graph's edges), sorted.
    pub(crate) succ: SmallVec<[NodeId; 4]>,
    /// The RMW that read this node (the rmw edge), if any.
    pub(crate) rmw_next: Option<NodeId>,
    /// For an RMW node: the node it read (the rmw edge's source).
    pub(crate) rmw_prev: Option<NodeId>,
    /// The mo-graph clock vector (Sec. 4.2).
    pub(crate) cv: VClock,
}

/// The mo-graph of one location.
///
/// Invariant: acyclic; node 0 is the init write and reaches every other
/// node; the rmw-chain invariant of the module docs; clock vectors exact.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct MoGraph {
    /// Inline up to four nodes (a location's init write and three
    /// stores): copying a location to change it allocates nothing more.
    nodes: SmallVec<[GraphNode; 4]>,
}

impl MoGraph {
    /// A graph holding only the init write.
    pub(crate) fn new() -> Self {
        MoGraph {
            nodes: smallvec![GraphNode {
                thread: None,
                seq: 1,
                succ: SmallVec::new(),
                rmw_next: None,
                rmw_prev: None,
                cv: own_clock(None, 1),
            }],
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    pub(crate) fn node(&self, n: NodeId) -> &GraphNode {
        &self.nodes[n as usize]
    }

    /// `⊥_CV` of a new node of thread `t` (Sec. 4.2): its own sequence
    /// number, one more than `t`'s last node here.
    fn next_seq(&self, t: ThreadId) -> u32 {
        self.nodes
            .iter()
            .filter(|n| n.thread == Some(t))
            .map(|n| n.seq)
            .max()
            .unwrap_or(0)
            + 1
    }

    /// A new node for a store of `t` (GetNode of Fig. 7), with no edge.
    fn add_node(&mut self, t: ThreadId) -> NodeId {
        let seq = self.next_seq(t);
        let cv = own_clock(Some(t), seq);
        self.nodes.push(GraphNode {
            thread: Some(t),
            seq,
            succ: SmallVec::new(),
            rmw_next: None,
            rmw_prev: None,
            cv,
        });
        (self.nodes.len() - 1) as NodeId
    }

    /// A store of `t` that must come after every node of `prior` (AddEdges
    /// of Fig. 7 on a new node, Sec. 4.3 "Atomic Store": a new node has no
    /// successor, so no cycle can arise). `prior` must contain the init
    /// write and `t`'s earlier nodes (they happen before the store).
    pub(crate) fn add_store(&mut self, t: ThreadId, prior: &[NodeId]) -> NodeId {
        let n = self.add_node(t);
        for &p in prior {
            self.add_edge_unchecked(p, n);
        }
        self.check_invariants();
        n
    }

    /// An RMW of `t` that read `from` (AddRMWEdge of Fig. 6) and must come
    /// after every node of `prior`, i.e. `p mo= from` for each (the RMW
    /// immediately follows `from`). The caller has checked that `from` has
    /// no RMW successor yet and that [`MoGraph::admits`]`(prior, from)`.
    pub(crate) fn add_rmw(&mut self, t: ThreadId, from: NodeId, prior: &[NodeId]) -> NodeId {
        let r = self.add_node(t);
        self.add_rmw_edge(from, r);
        for &p in prior {
            self.add_edge_unchecked(p, r);
        }
        self.check_invariants();
        r
    }

    /// The constraints `p mo w` for every `p ≠ w` of `prior` (a load read
    /// `w`). The caller has checked [`MoGraph::admits`]`(prior, w)`.
    pub(crate) fn add_edges_to(&mut self, prior: &[NodeId], w: NodeId) {
        for &p in prior {
            self.add_edge_unchecked(p, w);
        }
        self.check_invariants();
    }

    /// Does `a` reach `b` (reflexively)? Theorem 4: `CV_a <= CV_b`.
    pub(crate) fn reaches(&self, a: NodeId, b: NodeId) -> bool {
        a == b || self.node(a).cv.le(&self.node(b).cv)
    }

    /// Would the constraint `p mo= w` (for every `p` of `prior`) keep the
    /// graph acyclic? It would close a cycle iff `w` reaches some `p ≠ w`
    /// (Sec. 4.3: all the new edges end in `w`, so a cycle through two of
    /// them implies one through one).
    pub(crate) fn admits(&self, prior: &[NodeId], w: NodeId) -> bool {
        prior.iter().all(|&p| p == w || !self.reaches(w, p))
    }

    /// Merge of Fig. 6: `dst.cv ∪= src.cv`; true if `dst.cv` changed.
    fn merge(&mut self, dst: NodeId, src: NodeId) -> bool {
        let src_cv = self.node(src).cv.clone();
        let d = &mut self.nodes[dst as usize].cv;
        if src_cv.le(d) {
            return false;
        }
        d.join(&src_cv);
        true
    }

    /// Merges `src` into `dst` and propagates any change to everything
    /// `dst` reaches (lines 14-24 of AddEdge).
    fn merge_and_propagate(&mut self, dst: NodeId, src: NodeId) {
        if !self.merge(dst, src) {
            return;
        }
        let mut queue = vec![dst];
        while let Some(node) = queue.pop() {
            let succ = self.node(node).succ.clone();
            for d in succ {
                if self.merge(d, node) {
                    queue.push(d);
                }
            }
        }
    }

    /// AddEdge of Fig. 6, with rmw edges followed forward from `from` and
    /// backward into `to` (module docs): adds the constraint `from mo to`
    /// unless a path already implies it. The caller has checked with
    /// [`MoGraph::admits`] that it closes no cycle, and checks the
    /// invariants once its batch of edges is in.
    fn add_edge_unchecked(&mut self, from: NodeId, to: NodeId) {
        if from == to {
            return;
        }
        // Backward into `to`: an edge into an RMW goes to its chain's head,
        // unless `from` is in the chain before `to`.
        let mut to = to;
        while let Some(prev) = self.node(to).rmw_prev {
            if prev == from {
                break;
            }
            to = prev;
        }
        // Forward from `from` (Fig. 6 lines 6-12).
        let mut from = from;
        while let Some(next) = self.node(from).rmw_next {
            if next == to {
                break;
            }
            from = next;
        }
        debug_assert!(
            from == to || !self.reaches(to, from),
            "relaxlab internal error: mo edge {from} -> {to} closes a cycle"
        );
        // The paper's redundancy test, except between nodes of one thread
        // (`mustAddEdge`): those edges are what Theorem 4 rests on, and the
        // vectors of a new node already claim them before they exist.
        let same_thread = self.node(from).thread == self.node(to).thread;
        if from == to || (!same_thread && self.reaches(from, to)) {
            return;
        }
        let succ = &mut self.nodes[from as usize].succ;
        if let Err(i) = succ.binary_search(&to) {
            succ.insert(i, to);
        }
        self.merge_and_propagate(to, from);
    }

    /// AddRMWEdge of Fig. 6: the RMW `rmw` read `from`, so it immediately
    /// follows it. `from`'s successors become the RMW's, and `from`'s only
    /// successor becomes the RMW. The caller has checked that `from` has no
    /// RMW successor yet and that `rmw` is a fresh node.
    fn add_rmw_edge(&mut self, from: NodeId, rmw: NodeId) {
        debug_assert!(
            self.node(from).rmw_next.is_none() && self.node(rmw).succ.is_empty(),
            "relaxlab internal error: rmw edge from a node already read by an RMW"
        );
        let moved = std::mem::take(&mut self.nodes[from as usize].succ);
        self.nodes[from as usize].succ = smallvec![rmw];
        self.nodes[from as usize].rmw_next = Some(rmw);
        let r = &mut self.nodes[rmw as usize];
        r.rmw_prev = Some(from);
        r.succ = moved.into_iter().filter(|&d| d != rmw).collect();
        self.merge(rmw, from);
        // Unconditional propagation (module docs, deviation from Fig. 6).
        let succ = self.node(rmw).succ.clone();
        for d in succ {
            self.merge_and_propagate(d, rmw);
        }
    }

    /// The nodes without `mo` successor: the ones that may still be last.
    pub(crate) fn sinks(&self) -> Vec<NodeId> {
        (0..self.nodes.len() as NodeId)
            .filter(|&n| self.node(n).succ.is_empty())
            .collect()
    }

    /// Fixes `s` as the last store: an edge from every other sink to `s`.
    /// `s` must be a sink.
    pub(crate) fn settle(&mut self, s: NodeId) {
        for x in self.sinks() {
            if x != s {
                self.add_edge_unchecked(x, s);
            }
        }
        self.check_invariants();
        debug_assert!(
            self.sinks() == vec![s],
            "relaxlab internal error: settling left another sink"
        );
    }

    /// Reachability by graph search, the reference Theorem 4 is checked
    /// against.
    pub(crate) fn reaches_by_search(&self, a: NodeId, b: NodeId) -> bool {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![a];
        while let Some(n) = stack.pop() {
            if n == b {
                return true;
            }
            if std::mem::replace(&mut seen[n as usize], true) {
                continue;
            }
            stack.extend(self.node(n).succ.iter().copied());
        }
        false
    }

    /// The invariants of [`MoGraph`], checked in debug builds after every
    /// mutation (graphs with at most 40 nodes; beyond that the quadratic
    /// check costs more than it is worth).
    pub(crate) fn check_invariants(&self) {
        if cfg!(debug_assertions) && self.nodes.len() <= 40 {
            if let Err(msg) = self.invariant_violation() {
                panic!("relaxlab internal error: mo-graph invariant: {msg}");
            }
        }
    }

    /// The first violated invariant, if any.
    pub(crate) fn invariant_violation(&self) -> Result<(), String> {
        let n = self.nodes.len() as NodeId;
        for a in 0..n {
            let node = self.node(a);
            if node.succ.windows(2).any(|w| w[0] >= w[1]) {
                return Err(format!("successors of {a} not sorted"));
            }
            if node.succ.contains(&a) {
                return Err(format!("self loop on {a}"));
            }
            if let Some(r) = node.rmw_next {
                if node.succ[..] != [r] {
                    return Err(format!("{a} has successors besides its RMW {r}"));
                }
            }
            if let Some(p) = node.rmw_prev {
                let preds: Vec<NodeId> =
                    (0..n).filter(|&x| self.node(x).succ.contains(&a)).collect();
                if preds != vec![p] {
                    return Err(format!("RMW {a} has predecessors {preds:?} besides {p}"));
                }
            }
            let mut cv = VClock::bottom();
            for b in 0..n {
                let search = self.reaches_by_search(b, a);
                if search {
                    let b_node = self.node(b);
                    cv.join(&own_clock(b_node.thread, b_node.seq));
                }
                if b != a && search && self.reaches_by_search(a, b) {
                    return Err(format!("cycle through {a} and {b}"));
                }
                if self.reaches(b, a) != search {
                    return Err(format!(
                        "Theorem 4: clock vectors say {b} reaches {a}: {}, search says {search}",
                        !search
                    ));
                }
            }
            if cv != node.cv {
                return Err(format!("clock vector of {a} is {:?}, not {cv:?}", node.cv));
            }
            if a != 0 && !self.reaches_by_search(0, a) {
                return Err(format!("init does not reach {a}"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    //! Random edge and rmw-edge sequences: after every step the invariants
    //! hold (Theorem 4 against graph search, exact clock vectors, the
    //! rmw-chain discipline) and reachability equals the closure of the
    //! constraints asked for under the rmw-edge semantics of Sec. 4.1,
    //! computed independently here.

    use proptest::prelude::*;

    use super::*;

    /// The reference: the constraints as pairs, closed under transitivity
    /// and the two rmw rules (`x mo r ⇒ x mo= w`; `w mo x, x ≠ r ⇒ r mo x`
    /// for an RMW `r` reading `w`).
    struct Reference {
        n: usize,
        pairs: Vec<(usize, usize)>,
        rmws: Vec<(usize, usize)>,
    }

    impl Reference {
        fn closure(&self) -> Vec<Vec<bool>> {
            let n = self.n;
            let mut r = vec![vec![false; n]; n];
            for &(a, b) in self.pairs.iter().chain(&self.rmws) {
                r[a][b] = true;
            }
            loop {
                let mut changed = false;
                let mut add = |r: &mut Vec<Vec<bool>>, a: usize, b: usize| {
                    if a != b && !r[a][b] {
                        r[a][b] = true;
                        changed = true;
                    }
                };
                for k in 0..n {
                    for a in 0..n {
                        for b in 0..n {
                            if r[a][k] && r[k][b] {
                                add(&mut r, a, b);
                            }
                        }
                    }
                }
                for &(w, rm) in &self.rmws {
                    for x in 0..n {
                        if x != w && r[x][rm] {
                            add(&mut r, x, w);
                        }
                        if x != rm && r[w][x] {
                            add(&mut r, rm, x);
                        }
                    }
                }
                if !changed {
                    return r;
                }
            }
        }
    }

    /// One step: (kind, thread, a node choice, a subset mask).
    fn steps() -> impl Strategy<Value = Vec<(u8, u32, usize, u32)>> {
        prop::collection::vec((0u8..3, 0u32..3, 0usize..64, any::<u32>()), 1..14)
    }

    fn subset(mask: u32, n: usize) -> Vec<NodeId> {
        (0..n as NodeId)
            .filter(|&i| mask & (1 << (i % 32)) != 0)
            .collect()
    }

    proptest! {
        #[test]
        fn graph_matches_reference(ops in steps()) {
            let mut g = MoGraph::new();
            let mut reference = Reference { n: 1, pairs: Vec::new(), rmws: Vec::new() };
            for (kind, t, pick, mask) in ops {
                let t = ThreadId(t);
                let n = g.len();
                // What every store of t must follow: init and t's earlier
                // nodes (they happen before it).
                let mut prior: Vec<NodeId> = subset(mask, n);
                prior.push(0);
                prior.extend((0..n as NodeId).filter(|&i| g.node(i).thread == Some(t)));
                prior.sort_unstable();
                prior.dedup();
                let target = (pick % n) as NodeId;
                let closure = reference.closure();
                // admits agrees with the reference: w must not be forced
                // before any p.
                let forced = prior.iter().any(|&p| p != target && closure[target as usize][p as usize]);
                prop_assert_eq!(g.admits(&prior, target), !forced);
                match kind {
                    0 => {
                        let s = g.add_store(t, &prior);
                        reference.n += 1;
                        reference.pairs.extend(prior.iter().map(|&p| (p as usize, s as usize)));
                    }
                    1 if g.node(target).rmw_next.is_none() && !forced => {
                        let r = g.add_rmw(t, target, &prior);
                        reference.n += 1;
                        reference.rmws.push((target as usize, r as usize));
                        reference.pairs.extend(
                            prior.iter().filter(|&&p| p != target).map(|&p| (p as usize, r as usize)),
                        );
                    }
                    2 if !forced => {
                        let loads: Vec<NodeId> = subset(mask, n)
                            .into_iter()
                            .filter(|&p| p == target || !g.reaches(target, p))
                            .collect();
                        g.add_edges_to(&loads, target);
                        reference.pairs.extend(
                            loads.iter().filter(|&&p| p != target).map(|&p| (p as usize, target as usize)),
                        );
                    }
                    _ => continue,
                }
                prop_assert_eq!(g.invariant_violation(), Ok(()));
                let closure = reference.closure();
                prop_assert_eq!(closure.len(), g.len());
                for (a, row) in closure.iter().enumerate() {
                    for (b, &want) in row.iter().enumerate() {
                        if a != b {
                            prop_assert_eq!(
                                g.reaches(a as NodeId, b as NodeId),
                                want,
                                "reach {} -> {}", a, b
                            );
                        }
                    }
                }
            }
            // Settling on any sink leaves exactly that sink.
            let sinks = g.sinks();
            prop_assert!(!sinks.is_empty());
            for s in sinks {
                let mut h = g.clone();
                h.settle(s);
                prop_assert_eq!(h.sinks(), vec![s]);
                prop_assert_eq!(h.invariant_violation(), Ok(()));
            }
        }
    }
}
