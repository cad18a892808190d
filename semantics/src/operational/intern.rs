//! Interning tables: every distinct value stored once, named by a `u32`.
//!
//! The exhaustive explorer stores a program state as a short row of ids
//! (one per thread component, one for the memory state), so a state costs a
//! few words however large its parts are, and parts shared by many states
//! (the same memory with different registers) are stored once. Lookup is
//! exact: the table compares full values, never only hashes.
//!
//! Ids are given in insertion order, which the explorer makes
//! deterministic; the hash table only maps values to ids and is never
//! iterated. The rows of ids are stored in [`super::state_table`].

use std::borrow::Borrow;
use std::hash::{BuildHasher, Hash};

use hashbrown::hash_table::Entry;
use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

/// The hash every table of the explorer uses: FxHash, then the SplitMix64
/// finaliser. FxHash alone leaves rows of small ids poorly spread over
/// the high bits, from which hashbrown takes its 7-bit tags, and the
/// explorer then spends its time comparing rows that do not match.
#[inline]
pub(crate) fn hash_of<Q: Hash + ?Sized>(q: &Q) -> u64 {
    let mut z = FxBuildHasher.hash_one(q);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Distinct values of type `K`, numbered from 0 in insertion order.
#[derive(Debug)]
pub(crate) struct Interner<K> {
    items: Vec<K>,
    table: HashTable<u32>,
}

impl<K: Hash + Eq> Interner<K> {
    pub(crate) fn new() -> Self {
        Interner {
            items: Vec::new(),
            table: HashTable::new(),
        }
    }

    /// The value named `id`.
    #[inline]
    pub(crate) fn get(&self, id: u32) -> &K {
        &self.items[id as usize]
    }

    /// The id of `q`, if it was interned.
    pub(crate) fn find<Q>(&self, q: &Q) -> Option<u32>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let items = &self.items;
        self.table
            .find(hash_of(q), |&i| items[i as usize].borrow() == q)
            .copied()
    }

    /// The id of `k`, interning it if it is new (one probe).
    pub(crate) fn intern(&mut self, k: K) -> u32 {
        let hash = hash_of(&k);
        let items = &self.items;
        let id = u32::try_from(items.len())
            .expect("relaxlab internal error: more than 2^32 interned values");
        match self.table.entry(
            hash,
            |&i| items[i as usize] == k,
            |&i| hash_of(&items[i as usize]),
        ) {
            Entry::Occupied(e) => *e.get(),
            Entry::Vacant(v) => {
                v.insert(id);
                self.items.push(k);
                id
            }
        }
    }
}
