//! [`SharedVec`]: the persistent sequence of the C11 models' states (their
//! locations, and `c11r`'s store lists).
//!
//! A vector of reference-counted elements: cloning a state copies one
//! pointer per element, and changing an element copies that element only
//! (`Arc::make_mut`), so successor states share every location (and every
//! store) they do not change. The programs relaxlab explores have a few
//! locations and a few stores per location, for which this beats a
//! chunked persistent vector (`imbl::Vector`), whose copy-on-write unit is
//! a 64-slot chunk: changing one location of three copied, and allocated,
//! a chunk of 64. Up to four pointers are stored inline, so copying a
//! state with up to four threads and four locations allocates nothing
//! until an element changes.
//!
//! Equality and hashing are by value, in order, and cheap for what states
//! share. Each element caches its hash, computed on first use and cleared
//! when the element is changed, so hashing a successor rehashes only the
//! elements its step changed. Two elements are equal when they are the same
//! allocation, or when their hashes and then their values are equal: the
//! explorer's table, which compares a new state with stored ones of the
//! same hash tag, rejects most non-matching states on one element's hash,
//! without walking its clocks and store lists.
//!
//! **Hash-consing.** The exhaustive explorer keeps one [`HashCons`] table
//! per element type and passes every state it stores through it
//! ([`SharedVec::hash_cons`]): an element a step changed is replaced by
//! the table's node of equal value, if there is one, and becomes that node
//! otherwise (Filliâtre and Conchon, "Type-safe modular hash-consing",
//! ML Workshop 2006). Stored states then share every equal element: an
//! equal element is stored once however many states hold it, and a
//! successor (its parent's elements, except those its step changed)
//! compares with a stored state by pointer except for the changed ones. Equality stays by value (a pointer test first): hash-consing only
//! decides which allocation holds a value, never what two states compare
//! as, so a state that skipped it (a sampled run's) compares as before.

use std::hash::{Hash, Hasher};
use std::ops::{Index, IndexMut};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use hashbrown::hash_table::Entry;
use hashbrown::HashTable;

use smallvec::SmallVec;

/// An element and its cached hash (0: not computed yet).
#[derive(Debug)]
struct Node<T> {
    hash: AtomicU64,
    value: T,
}

impl<T> Node<T> {
    fn new(value: T) -> Self {
        Node {
            hash: AtomicU64::new(0),
            value,
        }
    }
}

/// The low bit of a node's hash word: the node is its table's node for
/// its value ([`HashCons`]). The hash proper is the word without it, and
/// always has bit 1 set, so a computed hash is never 0.
const CONSED: u64 = 1;

impl<T: Hash> Node<T> {
    /// The element's hash, computed once. Threads that race to compute it
    /// store the same value; `Relaxed` suffices, as the value is a function
    /// of the immutable element. (A store that overwrites the [`CONSED`]
    /// mark only costs a second table lookup.)
    fn hash(&self) -> u64 {
        match self.hash.load(Ordering::Relaxed) {
            0 => {
                let h = (crate::operational::hash_of(&self.value) | 2) & !CONSED;
                self.hash.store(h, Ordering::Relaxed);
                h
            }
            h => h & !CONSED,
        }
    }

    /// Is this node its [`HashCons`] table's node for its value?
    fn consed(&self) -> bool {
        self.hash.load(Ordering::Relaxed) & CONSED != 0
    }
}

impl<T: Clone> Clone for Node<T> {
    /// A copy made to be changed: its hash is computed again when needed.
    fn clone(&self) -> Self {
        Node::new(self.value.clone())
    }
}

/// The element behind `x`, unshared first if another state holds it; its
/// cached hash is forgotten, as the caller may change it.
fn unshare<T: Clone>(x: &mut Arc<Node<T>>) -> &mut T {
    let node = Arc::make_mut(x);
    *node.hash.get_mut() = 0;
    &mut node.value
}

/// A persistent vector (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct SharedVec<T>(SmallVec<[Arc<Node<T>>; 4]>);

impl<T: Hash + Eq> PartialEq for SharedVec<T> {
    fn eq(&self, other: &Self) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .zip(&other.0)
                .all(|(a, b)| Arc::ptr_eq(a, b) || (a.hash() == b.hash() && a.value == b.value))
    }
}

impl<T: Hash + Eq> Eq for SharedVec<T> {}

impl<T: Hash> Hash for SharedVec<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.0.len());
        for x in &self.0 {
            state.write_u64(x.hash());
        }
    }
}

/// How many shards a [`HashCons`] table has: enough that the explorer's
/// threads rarely wait for one another's lookups.
const CONS_SHARDS: usize = 64;

/// A hash-consing table (module docs): one node per distinct element
/// value, shared by the explorer's threads, each shard behind a lock. It
/// holds its nodes until it is dropped, with the exploration.
pub(crate) struct HashCons<T> {
    shards: Vec<Shard<T>>,
}

/// A shard of a [`HashCons`] table, alone on its cache line, so that two
/// threads locking neighbouring shards do not contend for one line.
#[repr(align(64))]
struct Shard<T>(Mutex<HashTable<Arc<Node<T>>>>);

impl<T> Default for HashCons<T> {
    fn default() -> Self {
        HashCons {
            shards: (0..CONS_SHARDS)
                .map(|_| Shard(Mutex::new(HashTable::new())))
                .collect(),
        }
    }
}

impl<T> std::fmt::Debug for HashCons<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HashCons")
    }
}

impl<T: Hash + Eq> HashCons<T> {
    /// Replaces `x` by the table's node of equal value, or makes it that
    /// node.
    fn cons(&self, x: &mut Arc<Node<T>>) {
        let h = x.hash();
        // Bits that neither the shard's bucket index (the low bits) nor
        // hashbrown's 7-bit tag (the top ones) reads: a shard keyed by
        // the top bits would leave its entries one bit of tag.
        let shard = (h >> 40) as usize % CONS_SHARDS;
        // A poisoned shard only means another thread panicked mid-lookup;
        // the table is still a set of valid nodes.
        let mut table = self.shards[shard]
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let equal = |y: &Arc<Node<T>>| Arc::ptr_eq(y, x) || (y.hash() == h && y.value == x.value);
        match table.entry(h, equal, |y| y.hash()) {
            // The table's node is marked already: no write to a node that
            // every thread reads.
            Entry::Occupied(e) => *x = Arc::clone(e.get()),
            Entry::Vacant(v) => {
                x.hash.fetch_or(CONSED, Ordering::Relaxed);
                v.insert(Arc::clone(x));
            }
        }
    }
}

impl<T: Hash + Eq + Clone> SharedVec<T> {
    /// Hash-conses every element that is not its table's node yet (the
    /// ones a step changed, module docs), after `inner` has hash-consed
    /// what the element holds (when no other state holds the element).
    pub(crate) fn hash_cons(&mut self, table: &HashCons<T>, mut inner: impl FnMut(&mut T)) {
        for x in &mut self.0 {
            if x.consed() {
                continue;
            }
            if let Some(node) = Arc::get_mut(x) {
                inner(&mut node.value);
            }
            table.cons(x);
        }
    }
}

impl<T: Clone> SharedVec<T> {
    /// The vector of one element.
    pub(crate) fn unit(x: T) -> Self {
        SharedVec(smallvec::smallvec![Arc::new(Node::new(x))])
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(crate) fn get(&self, i: usize) -> Option<&T> {
        self.0.get(i).map(|x| &x.value)
    }

    /// The element `i`, unshared first if another state holds it.
    pub(crate) fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        self.0.get_mut(i).map(unshare)
    }

    /// Are the two vectors element for element the same allocations?
    /// (Then they are equal; `false` says nothing about the values.)
    pub(crate) fn same_elements(&self, other: &Self) -> bool {
        self.0.len() == other.0.len() && self.0.iter().zip(&other.0).all(|(a, b)| Arc::ptr_eq(a, b))
    }

    pub(crate) fn back(&self) -> Option<&T> {
        self.0.last().map(|x| &x.value)
    }

    pub(crate) fn front_mut(&mut self) -> Option<&mut T> {
        self.get_mut(0)
    }

    pub(crate) fn push_back(&mut self, x: T) {
        self.0.push(Arc::new(Node::new(x)));
    }

    /// Keeps `[..at]`, returns `[at..]`.
    pub(crate) fn split_off(&mut self, at: usize) -> Self {
        SharedVec(self.0.drain(at..).collect())
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &T> {
        self.0.iter().map(|x| &x.value)
    }
}

impl<T> Index<usize> for SharedVec<T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        &self.0[i].value
    }
}

impl<T: Clone> IndexMut<usize> for SharedVec<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        unshare(&mut self.0[i])
    }
}

impl<T> FromIterator<T> for SharedVec<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        SharedVec(iter.into_iter().map(|x| Arc::new(Node::new(x))).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::SharedVec;

    #[test]
    fn a_change_unshares_one_element_and_equality_is_by_value() {
        let a: SharedVec<Vec<u32>> = [vec![1], vec![2], vec![3]].into_iter().collect();
        let mut b = a.clone();
        b.get_mut(1).unwrap().push(9);
        assert_eq!(a[1], vec![2]);
        assert_eq!(b[1], vec![2, 9]);
        assert!(std::ptr::eq(&a[0], &b[0]), "untouched elements stay shared");
        b.get_mut(1).unwrap().pop();
        assert_eq!(a, b);
        let tail = b.split_off(1);
        assert_eq!(b.len(), 1);
        assert_eq!(
            tail.iter().cloned().collect::<Vec<_>>(),
            vec![vec![2], vec![3]]
        );
    }

    #[test]
    fn hash_consing_shares_equal_elements_and_keeps_equality() {
        use super::HashCons;
        let table = HashCons::default();
        let inner = |_: &mut Vec<u32>| {};
        let mut a: SharedVec<Vec<u32>> = [vec![1], vec![2]].into_iter().collect();
        a.hash_cons(&table, inner);
        // Built apart, equal by value: the same allocations once consed.
        let mut b: SharedVec<Vec<u32>> = [vec![1], vec![2]].into_iter().collect();
        assert!(!std::ptr::eq(&a[0], &b[0]));
        b.hash_cons(&table, inner);
        assert!(std::ptr::eq(&a[0], &b[0]) && std::ptr::eq(&a[1], &b[1]));
        // A changed element is consed again; an unequal one stays apart.
        let mut c = b.clone();
        c[1].push(3);
        c.hash_cons(&table, inner);
        assert!(std::ptr::eq(&c[0], &a[0]) && !std::ptr::eq(&c[1], &a[1]));
        assert_ne!(a, c);
        c[1].pop();
        assert!(!std::ptr::eq(&c[1], &a[1]), "changed, not consed yet");
        assert_eq!(a, c, "equal by value before consing");
        c.hash_cons(&table, inner);
        assert!(std::ptr::eq(&c[1], &a[1]));
        assert_eq!(
            crate::operational::hash_of(&a),
            crate::operational::hash_of(&c)
        );
    }

    #[test]
    fn a_changed_element_is_hashed_again() {
        use crate::operational::hash_of;
        let a: SharedVec<Vec<u32>> = [vec![1], vec![2]].into_iter().collect();
        let mut b = a.clone();
        assert_eq!(hash_of(&a), hash_of(&b), "hashes cached, shared");
        b.get_mut(0).unwrap().push(5);
        b[1].push(6);
        let fresh: SharedVec<Vec<u32>> = [vec![1, 5], vec![2, 6]].into_iter().collect();
        assert_eq!(hash_of(&b), hash_of(&fresh));
        assert_eq!(b, fresh, "equal values in distinct allocations");
        assert_ne!(a, b);
        b.get_mut(0).unwrap().pop();
        b[1].pop();
        assert_eq!(a, b);
        assert_eq!(hash_of(&a), hash_of(&b));
    }
}
