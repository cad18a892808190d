//! The restricted C11 model `c11r` (book: model-c11r.md, Rules; TSAN11 Figs. 6,
//! 10-13) and SC memory with C11 race detection ([`ScRaces`]).
//!
//! # Theory
//!
//! tsan11 explores weak C11 behaviours with *store buffers*: every atomic
//! location keeps the list `SE_a` of its stores in modification order, each
//! store element remembering its writer and epoch, its value, whether it
//! was an SC write, its own release clock and the loads that read it. A
//! load picks any element of a *reads-from set* (Fig. 12) computed from the
//! C11 coherence rules (CoWR, CoRR; CoWW and CoRW hold by construction,
//! TSAN11 Sec. 4.5) and the SC-fence rules (5)-(8) of Sec. 4.5. The
//! happens-before relation is tracked by the vector-clock algorithm of
//! Fig. 6: thread clocks `C_t`, fence clocks `F^rel_t`/`F^acq_t`, and per
//! location the release clock `L_a` with the per-thread clocks `V_a(t)` that
//! make another thread's relaxed store block a release sequence and an RMW
//! continue it. SC fences use the global clocks `S_F`, `S_W` and the
//! per-thread `S_F,t`, `S_W,t`, `S_R,t` of Fig. 13.
//!
//! Every relation follows the order in which events are performed (TSAN11
//! Sec. 6.2), so the model is C11 plus `acyclic(po ∪ asw ∪ rf ∪ co ∪ sc)`:
//! `ax.c11r`. It is therefore **sound but incomplete** for C11: every
//! outcome it shows is allowed by C11; it misses load buffering and the
//! outcomes that need `co` against execution order (2+2W, S, R with
//! relaxed accesses; C11TESTER Sec. 2.2).
//!
//! Non-atomic locations hold one value and a FastTrack race shadow
//! (`races`). [`ScRaces`] runs the same clocks over SC memory.
//!
//! Files: `state` (Fig. 10), `rules` (Figs. 6, 11-13, one function per
//! rule), `races` (non-atomic accesses), `prune` (pruning, with its
//! soundness argument), `model` (the `MemoryModel` glue); the vector
//! clocks, thread clocks, store elements and race shadow it shares with
//! `c11t` are in [`crate::models::clocks`].
//!
//! # Deviations from the figures
//!
//! 1. **SC reads (case (8), C11 §29.3p3) and the `sc` mark.** TSAN11 marks
//!    as `sc` every element that happens before an SC store and lets an SC
//!    load read only the newest marked element; Fig. 12 also uses that mark
//!    in the case (6) test. Both over-restrict C11 (and `ax.c11r`, which is C11's rule; book: axiomatic.md, C11 models). Here an element's flag says only whether it
//!    *is* an SC write; the newest SC write `A` keeps its writer's clock at
//!    the store, and an SC load may not read an SC write older than `A` nor
//!    a write that happens before `A`: exactly §29.3p3 ("the last SC write
//!    before the read in `sc`" is the newest SC element, since `sc` and `co`
//!    follow execution order here). Counterexamples to the marking, each
//!    allowed by C11 and `ax.c11r` and forbidden by the marking:
//!    - `P0: x=1 rlx; x=2 sc || P1: x=3 sc; a=y sc || P2: y=1 sc; r=x sc`
//!      with `a=0 ∧ r=1 ∧ x=3`: `a` reads the init so `x=3` is sc-before
//!      `r`, and `x=1` happens before `x=2` but not before `x=3` (= A).
//!      The marking hides `x=1` from `r` (semantics/tests/it/c11_sc.rs).
//!    - case (6) with a marked element whose marking SC store comes after
//!      the fence: the paper's remark "how we handle (8) does not affect
//!      (6)" assumes the marking store is sc-before the fence
//!      (semantics/tests/it/c11_sc.rs, `case6_applies_to_sc_writes_only`).
//!
//!    With this rule `c11r` and `ax.c11r` agree on both programs and on
//!    every program of semantics/tests/it/c11_vs_ax.rs and c11_random.rs.
//! 2. **Loads acquire `S.clock`, not `L_a`** (Fig. 6 writes `L_x`, right
//!    only for the newest element; book: model-c11r.md, Rules).
//! 3. **The "only the newest sc element" filter applies to SC loads only**
//!    (Fig. 12 applies it to every load; book: model-c11r.md, Rules). Subsumed by
//!    deviation 1.
//! 4. **Fence order**: SC part, acquire part, release part, increment, so an
//!    acq_rel fence releases what it has just acquired
//!    (book: model-c11r.md, Rules).
//! 5. **Fork**: the child starts with its parent's clock and its own entry
//!    at 1; its fence and SC clocks start at `⊥` (C11's fence and SC-fence
//!    rules speak of `sb`, and `asw` is not `sb`); the parent increments.
//!    **Join**: `C_parent ∪= C_child`. **End** is always enabled.
//! 6. **Hardware barriers** never reach `c11r` (the front end rejects
//!    them); if one does it is a `debug_assert!` in debug builds and a no-op
//!    in release builds.
//! 7. **A CAS** succeeds only by reading the newest element (atomicity);
//!    it may also fail by reading, with its failure order, any element of
//!    the reads-from set whose value differs from `expected`.
//!
//! # State normalisation (all sound; deduplication only)
//!
//! - Pruning (`prune`, switchable with [`C11r::prune`]): elements older
//!   than one that happens before every running thread are unreadable
//!   forever and are dropped; that element's recorded loads are dropped
//!   too (every walk stops at it by CoWR).
//! - A load is not recorded when the element happens before the loader
//!   after the load, nor by an RMW (its own newer element of the same
//!   epoch stops every walk that the record would stop); per thread and
//!   element only the smallest recorded epoch is kept (`rules::record_load`).
//! - Only the newest SC write keeps its clock for deviation 1.
//! - A finished thread's fence and SC clocks and its `V_a(t)` are reset:
//!   only the thread's own operations read them. Its `C_t` stays for
//!   `join`.
//!
//! Successor order: a load's results go from the oldest element of the
//! reads-from set to the newest (result 0 is the oldest, as the sampler's
//! `Old` strategy expects); a CAS lists its failures first, oldest first,
//! then its success (if any).
//!
//! # Dependence ([`crate::dependence`])
//!
//! The cells: `M(a)` is everything the state keeps for location `a` (its
//! store list with the load records, `L_a`, `V_a`, or the non-atomic value
//! with its race shadow); `S_F` and `S_W` are the global SC clocks of
//! Fig. 13, which a thread writes only at its own entry. A thread's own
//! clocks (`C_t`, `F^rel_t`, `F^acq_t`, `S_F,t`, `S_W,t`, `S_R,t`) are no
//! cell: only its own steps read them, and those of a `fork` or `join`,
//! which involve only the two threads (a child's clocks before its fork,
//! a finished child's `C_t` at the join, which no step changes any more).
//! Rule by rule:
//! - an atomic load of `a` reads `M(a)` (and, SC under `c11r`, `S_F`); a
//!   non-atomic read reads `M(a)`;
//! - an atomic or non-atomic store, an RMW and a CAS of `a` write `M(a)`;
//!   an SC store (or an RMW's SC write) writes its entry of `S_W`, an SC
//!   read part reads `S_F`;
//! - an SC fence writes its entry of `S_F` and reads `S_F` and `S_W`;
//!   other fences, fork, join and end touch no cell.
//!
//! Under [`ScRaces`] the SC clocks are not kept: SC accesses and fences
//! touch only what their non-SC versions touch.
//!
//! Commutation beyond the disjoint cells:
//! - *Two loads of `a` by different threads* both write `M(a)` (a load
//!   record, `ATOMIC LOAD IMPL`, or a read entry of the race shadow) but
//!   commute. Records are kept per thread, so both orders record the same.
//!   A load's results depend on the records only through CoRR ("a load
//!   that happens before this one read `e`"), and a record carries its
//!   thread's current epoch, which no other thread's clock covers: a
//!   thread increments its epoch after every release (TSAN11 Fig. 6) and
//!   after a fork, so another thread can only ever have acquired an
//!   earlier epoch. A non-atomic read's race check reads the last write
//!   only, never the other reads.
//! - *Thread end* drops `V_a(t)` at every location; another thread's store
//!   to `a` clears every entry but its own and its RMW sets only its own,
//!   so both orders leave the same `V_a`.
//! - *Pruning* (`prune`) runs after every step and reads every running
//!   thread's clock. It is a congruence: the elements it drops are read by
//!   no later step (its claim), clocks only grow and the running threads
//!   only shrink or start with their parent's clock, so the elements
//!   prunable in a state stay prunable after any step, and pruning before a
//!   step or only after it leaves the same state: `prune(op(prune(s))) =
//!   prune(op(s))`. Hence two steps that commute without pruning commute
//!   with it.

pub(crate) mod describe;
mod model;
mod prune;
pub(crate) mod races;
pub(crate) mod rules;
pub(crate) mod state;

#[cfg(test)]
mod tests;

pub use model::{C11r, ScRaces};
pub use state::C11State;
