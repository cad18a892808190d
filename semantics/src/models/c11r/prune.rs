//! Sound pruning of store elements that no load can read any more.
//!
//! **Claim.** Let `N` be an element of `SE_a` that happens before every
//! thread that may still perform an operation (`N.c <= C_t(N.writer)` for
//! every running thread `t`). Then no element older than `N` is in any
//! future reads-from set, and none is read by a future RMW or CAS.
//!
//! **Proof.** Clocks only grow: every rule joins into `C_t` or increments
//! it, never lowers it, so `N` keeps happening before each running thread.
//! A thread that has not started yet will start with its parent's clock at
//! the `fork`, which is at least the parent's clock now; the parent is
//! either running (so covered) or not started (and the argument repeats up
//! to a top-level thread, which runs from the start). A finished thread
//! performs nothing. Hence every future load finds `N` happening before it;
//! Fig. 12 walks from the newest element backwards and stops (CoWR) at the
//! latest at `N`, and the other stop conditions (CoRR, the SC clocks) can
//! only stop it earlier. An RMW reads the newest element, never older than
//! `N`. The final value is the newest element. The C11 §29.3p3 rule for SC
//! loads only ever removes elements older than the newest SC write, so it
//! cannot bring an older element back. ∎
//!
//! So the elements older than the newest such `N` are dropped. With no
//! running thread at all every element but the newest is dropped.
//!
//! Under [`super::Memory::Sc`] every load reads the newest element, so
//! only that one is kept.

use super::rules::Memory;
use super::state::{AtomicLoc, C11State, Loc, Status, ThreadClocks};
use crate::shared_vec::SharedVec;

/// The index of the newest element that happens before every running
/// thread (`None`: no such element). Under [`Memory::Sc`] the newest.
fn seen_by_all(
    loc: &AtomicLoc,
    threads: &SharedVec<ThreadClocks>,
    memory: Memory,
) -> Option<usize> {
    let n = loc.stores.len();
    if memory == Memory::Sc {
        return n.checked_sub(1);
    }
    (0..n).rev().find(|&i| {
        let e = &loc.stores[i];
        threads
            .iter()
            .filter(|th| th.status == Status::Running)
            .all(|th| e.happens_before(&th.c))
    })
}

/// Drops, in every atomic location, the elements older than the newest one
/// `N` that happens before every running thread (module docs), and clears
/// the recorded loads of `N`: they only serve the CoRR stop condition,
/// and every future walk stops at `N` by CoWR anyway.
pub(crate) fn prune(s: &mut C11State, memory: Memory) {
    for i in 0..s.locs.len() {
        prune_location(s, i, memory);
    }
}

/// [`prune`] of `s`, a successor of the pruned state `parent`, looking
/// only where pruning can have become possible.
///
/// Pruning a location depends on the threads' statuses and clocks and on
/// the writers and epochs of its elements (the cut), and on the cut
/// element's recorded loads. It is idempotent: afterwards the cut element
/// is the location's oldest and has no recorded loads. So when the step
/// left every thread's clocks as they were (the same allocations: most
/// relaxed loads and stores), a location needs a look only if its store
/// list changed length. A list of the same length has the parent's
/// writers and epochs (elements are only appended, and removed by
/// pruning), so its cut is the parent's, and the one change a step makes
/// to an element in place that pruning reads, a load record, is never
/// made on an element that happens before the loader, as the cut element
/// does ([`super::rules::record_load`]).
pub(crate) fn prune_after(s: &mut C11State, parent: &C11State, memory: Memory) {
    if !s.threads.same_elements(&parent.threads) {
        return prune(s, memory);
    }
    for i in 0..s.locs.len() {
        let grown = match (&s.locs[i], &parent.locs[i]) {
            (Loc::Atomic(a), Loc::Atomic(b)) => a.stores.len() != b.stores.len(),
            _ => false,
        };
        if grown {
            prune_location(s, i, memory);
        }
    }
}

/// [`prune`] of location `i` alone.
fn prune_location(s: &mut C11State, i: usize, memory: Memory) {
    let Some(cut) = (match &s.locs[i] {
        Loc::Atomic(a) => seen_by_all(a, &s.threads, memory)
            .filter(|&cut| cut > 0 || !a.stores[cut].loads.is_empty()),
        Loc::NonAtomic(_) => None,
    }) else {
        return;
    };
    if let Some(Loc::Atomic(a)) = s.locs.get_mut(i) {
        a.stores = a.stores.split_off(cut);
        if let Some(front) = a.stores.front_mut() {
            front.loads.clear();
        }
        debug_assert!(
            !a.stores.is_empty(),
            "relaxlab internal error: pruning emptied a store list"
        );
    }
}
