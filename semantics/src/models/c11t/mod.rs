//! The operational model `c11t`: C11TESTER's fragment of C11 with a
//! constraint-based modification order (C11TESTER Secs. 2.2, 3, 4, 6;
//! book: axiomatic.md, C11 models). Its axiomatic twin is `ax.c11t`: `ax.c11` with
//! C++20 release sequences and `acyclic(hb ∪ sc ∪ rf)`.
//!
//! # Theory
//!
//! **Interleavings, and what they fix.** Threads run one operation at a
//! time, as under `c11r`. Because `hb ∪ sc ∪ rf` must be acyclic, every
//! consistent execution has a linearisation of `hb ∪ sc ∪ rf`, which is an
//! interleaving in which every load reads a store performed earlier and in
//! which `sc` is the order the SC operations are performed in. Conversely
//! every interleaving makes `hb ∪ sc ∪ rf` follow execution order. So,
//! over all interleavings, taking `sc` = execution order and letting each
//! load read any store already performed loses no execution and adds none
//! that is inconsistent, **provided** the modification order `co` is not
//! fixed by the interleaving (that is `c11r`'s restriction,
//! `acyclic(po ∪ rf ∪ co ∪ sc)`).
//!
//! **The mo-graph** (Sec. 4.1, `graph`). Per atomic location the stores
//! are nodes in the order they were performed; every `co` constraint is an
//! edge; a read of `w` by an RMW `r` is an rmw edge (`r` immediately
//! follows `w`). The graph stays acyclic; its topological orders (rmw
//! chains kept together) are the modification orders still allowed.
//! Reachability is read off mo-graph clock vectors (Sec. 4.2, Theorem 4),
//! checked against graph search in debug builds and by a proptest.
//!
//! **The constraints** (`rules`), with `hb` tracked by `c11r`'s vector
//! clocks (TSAN11 Figs. 6 and 13) and `sc` = execution order. The C11 axioms
//! (book: axiomatic.md, C11 models) that mention `co`, per location:
//! - coherence (CoWW, CoWR, CoRW, CoRR): a store that happens before the
//!   operation, or was read by a load that happens before it, precedes (or
//!   is) the store read / precedes the store written;
//! - SC fence read side (§29.3p4-6) and write side (§29.3p7): the stores
//!   the SC-fence clocks `S_F,t`, `S_W,t`, `S_R,t` and the global `S_F`
//!   cover precede (or are) the store read / precede the store written;
//! - `sc` contains `co` between SC writes: an SC store follows every SC
//!   store already performed;
//! - atomicity: an RMW reads a store no RMW has read, and immediately
//!   follows it.
//!
//! These sets are ReadPriorSet and WritePriorSet of Sec. 4.3. A load may
//! read `w` iff `w` reaches no store of its prior set (a cycle through
//! several new edges implies one through one, since all end in `w`); then
//! the edges are added (no rollback, Sec. 4.3). A store's node is new, so
//! its incoming edges close no cycle. An RMW checks both its read and its
//! write prior set against `w`. §29.3p3 (SC reads) constrains no `co`: with
//! `A` the last SC store performed, an SC load reads an SC store only if it
//! is `A`, and a non-SC store only if that does not happen before `A`.
//!
//! **Release sequences** are C++20's (Sec. 2.2): a store's release clock
//! `RF_s` (Sec. 6) is `C_t` for a release store, `F^rel_t` for a relaxed
//! one, and an RMW joins `RF` of the store it read. A later relaxed store
//! of the releasing thread therefore does not continue the sequence.
//!
//! **Final values** ("list every modification order the constraints still
//! allow"). When no thread is running, the model's internal step picks,
//! for the lowest atomic location not settled yet, one sink `s` and adds
//! edges from every other sink to `s` ([`crate::model::EventKind::Settle`]); one
//! step per sink, and one step naming the last store of a location whose
//! graph has a single sink, so that every trace names each location's
//! last store (the lift builds `co` from it). Every sink can be last (no constraint orders it before
//! another node), and locations are independent (every `co` constraint is
//! per location and already an edge), so the final values listed are
//! exactly those of the allowed modification orders.
//!
//! Non-atomic locations are as under `c11r`: one value and the FastTrack
//! race shadow (`races`). Fences, fork, join and thread end follow `c11r`
//! (book: model-c11r.md, Rules).
//!
//! Successor order: a load's results go from the oldest store it may read
//! to the newest (performance order); a CAS lists failures then successes,
//! each oldest first. `older` in events is the number of stores to the
//! location performed after the one read.
//!
//! # Dependence ([`crate::dependence`])
//!
//! The cells are those of `c11r` (module docs of [`crate::models::c11r`]): `M(a)`
//! is location `a`'s mo-graph with its stores' data and load records (or
//! the non-atomic value and race shadow), and `S_F`, `S_W` are the global
//! SC clocks. Unlike under `c11r`, **an atomic load of `a` writes `M(a)`**:
//! reading `w` adds the edges `p → w` from its prior set, which can close
//! a path `w' ⇝ p → w ⇝ q` that forbids another thread's later read of
//! `w'` (`q` in that read's prior set), so two loads of one location do
//! not commute. Stores, RMWs and CASes write `M(a)`; a non-atomic read
//! reads it (as under `c11r`). SC accesses add their clock cells: an SC
//! read part reads `S_F` (`S_R,t ∪= S_F`), an SC write part writes its
//! entry of `S_W` and reads `S_F` (the write prior set's §29.3p7 term);
//! an SC fence writes its entry of `S_F` and reads `S_F` and `S_W`. Other
//! fences, fork, join and end touch no cell (`c11r`'s argument; `c11t`
//! keeps no `V_a`). A static future footprint cannot tell an atomic load
//! from a non-atomic one and counts every load as a write. The settling
//! steps write the location they settle; they are enabled only once no
//! thread runs, and all settle the same location, so they conflict with
//! each other and are never reduced.
//!
//! # Deviations, each with its reason
//!
//! 1. **§29.3p3 is a filter, not a prior-set entry.** C11Tester's
//!    ReadPriorSet puts the last SC store `A` into an SC load's prior set
//!    (`A mo= w`). C11 and `ax.c11t` (book: axiomatic.md, C11 models) only forbid reading an
//!    SC store other than `A` or a non-SC store that happens before `A`; a
//!    non-SC store unordered with `A` may be `mo`-before it. We follow
//!    C11 (book: model-c11t.md, Choices made here); the differential test checks we match `ax.c11t`.
//! 2. **Edges into an RMW go to the head of its rmw chain** (`graph`
//!    module docs); Fig. 6 only redirects edges out of a store that an RMW
//!    read. Without it a topological order could put a store between a
//!    store and the RMW that read it.
//! 3. **AddRMWEdge propagates the RMW's clock vector unconditionally**
//!    (`graph` module docs); Fig. 6 misses the case where the RMW's vector
//!    does not change (an RMW of the init write).
//! 4. **The init write has a clock-vector slot of its own**, so the
//!    redundancy test `from.cv <= to.cv` does not drop the edge from the
//!    init write to a new node; and edges between nodes of one thread are
//!    always added (the paper's `mustAddEdge`).
//! 5. **Sequence numbers are per thread and per location** (1, 2, ...)
//!    rather than the paper's global event counter: Theorem 4 only needs
//!    them increasing per thread, and small numbers deduplicate better.
//! 6. **No pruning.** Nodes are never freed (Sec. 4's memory limiting is
//!    not needed for litmus-sized programs); a loop that stores forever
//!    makes the state space infinite, so exhaustive exploration then hits
//!    its state bound. Every loop of the litmus library terminates.
//! 7. **Fork** as `c11r` (its deviation 5): the child starts with its
//!    parent's clock and `⊥` fence and SC clocks. Hardware barriers never
//!    reach `c11t` (the front end rejects them); one that does is a
//!    `debug_assert!` and a no-op.

mod describe;
mod graph;
mod model;
mod races;
mod rules;
mod state;

pub use model::C11t;
pub use state::C11tState;
