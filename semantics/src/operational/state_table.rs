//! The stored program states: fixed-width rows of `u32` in one arena,
//! numbered in the order they are stored, and a hash index over them for
//! exact deduplication.
//!
//! The index is split into [`SHARDS`] hash tables by six bits of each
//! row's 64-bit hash, so that a batch of new rows (one merged chunk of the
//! breadth-first frontier) is deduplicated by all worker threads at once,
//! one shard each, while the numbers the rows get stay those of a
//! sequential insert in batch order ([`StateTable::insert_batch`]). The
//! numbering therefore does not depend on the number of threads
//! (README.md, Architecture, invariant 3).
//!
//! Each table entry is `(row number, 32 bits of the hash)`, and hashbrown
//! is handed the 64-bit hash `h32 << 32 | h32` (bucket from the low bits,
//! tag from the high ones), so growing a shard never reads the arena, and
//! a lookup compares a row only when its 32 hash bits match. The shard
//! comes from bits 32 to 37 of the hash, which the entry does not keep.

use hashbrown::hash_table::Entry;
use hashbrown::HashTable;
use rayon::prelude::*;

use super::intern::hash_of;

/// How many hash tables the index is split into.
pub(crate) const SHARDS: usize = 64;

/// Marks an entry inserted by a batch that has no row number yet: the rest
/// is the row's position in the batch.
const PENDING: u32 = 1 << 31;

/// Batches smaller than this are stored one row at a time, as are all
/// batches on one thread: dividing them among threads costs more than it
/// saves.
const PARALLEL_MIN: usize = 2048;

/// The largest number of rows a table holds: row numbers stay below
/// [`PENDING`].
pub(crate) const MAX_ROWS: u64 = PENDING as u64 - 1;

/// The shard of a row with 64-bit hash `h`.
#[inline]
fn shard_of(h: u64) -> usize {
    ((h >> 32) as usize) & (SHARDS - 1)
}

/// The hash of a state row: what [`StateTable::find_hashed`],
/// [`StateTable::insert_hashed`] and [`StateTable::insert_batch`] expect
/// beside each row, so a caller that hashed a row (in parallel) does not
/// hash it again.
#[inline]
pub(crate) fn hash_row(row: &[u32]) -> u64 {
    hash_of(row)
}

/// The 64-bit hash hashbrown sees for a stored 32-bit hash.
#[inline]
fn widen(h: u32) -> u64 {
    (u64::from(h) << 32) | u64::from(h)
}

/// What [`StateTable::insert_batch`] did with one row of a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Placed {
    /// Stored now, with this number.
    New(u32),
    /// Already stored (before the batch, or earlier in it).
    Old,
    /// New, but the table was full: not stored.
    Refused,
}

/// The stored rows and their index (module docs).
#[derive(Debug)]
pub(crate) struct StateTable {
    width: usize,
    arena: Vec<u32>,
    shards: Vec<HashTable<(u32, u32)>>,
}

impl StateTable {
    pub(crate) fn new(width: usize) -> Self {
        StateTable {
            width,
            arena: Vec::new(),
            shards: (0..SHARDS).map(|_| HashTable::new()).collect(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.arena.len() / self.width.max(1)
    }

    /// Row `i`.
    #[inline]
    pub(crate) fn row(&self, i: u32) -> &[u32] {
        let w = self.width;
        &self.arena[i as usize * w..(i as usize + 1) * w]
    }

    /// The number of `row`, if it is stored.
    #[cfg(test)]
    pub(crate) fn find(&self, row: &[u32]) -> Option<u32> {
        self.find_hashed(row, hash_row(row))
    }

    /// [`Self::find`] for a row whose [`hash_row`] is `h`.
    #[inline]
    pub(crate) fn find_hashed(&self, row: &[u32], h: u64) -> Option<u32> {
        let h32 = h as u32;
        let (w, arena) = (self.width, &self.arena);
        self.shards[shard_of(h)]
            .find(widen(h32), |&(i, hi)| {
                hi == h32 && &arena[i as usize * w..(i as usize + 1) * w] == row
            })
            .map(|&(i, _)| i)
    }

    /// Stores `row` if it is new: `Ok(number)` for a new row, `Err(number)`
    /// for one already stored.
    pub(crate) fn insert(&mut self, row: &[u32]) -> Result<u32, u32> {
        self.insert_hashed(row, hash_row(row))
    }

    /// [`Self::insert`] for a row whose [`hash_row`] is `h`.
    #[inline]
    pub(crate) fn insert_hashed(&mut self, row: &[u32], h: u64) -> Result<u32, u32> {
        debug_assert_eq!(h, hash_row(row), "relaxlab internal error: row hash");
        debug_assert_eq!(
            row.len(),
            self.width,
            "relaxlab internal error: state row width"
        );
        let i = u32::try_from(self.len())
            .ok()
            .filter(|&i| u64::from(i) < MAX_ROWS)
            .expect("relaxlab internal error: more than 2^31 states");
        let h32 = h as u32;
        let (w, arena) = (self.width, &self.arena);
        let at = |j: u32| &arena[j as usize * w..(j as usize + 1) * w];
        match self.shards[shard_of(h)].entry(
            widen(h32),
            |&(j, hj)| hj == h32 && at(j) == row,
            |&(_, hj)| widen(hj),
        ) {
            Entry::Occupied(e) => Err(e.get().0),
            Entry::Vacant(v) => {
                v.insert((i, h32));
                self.arena.extend_from_slice(row);
                Ok(i)
            }
        }
    }

    /// [`Self::insert_batch`] one row at a time.
    fn insert_each(&mut self, batch: &[u32], hashes: &[u64], limit: u64, placed: &mut Vec<Placed>) {
        let mut full = false;
        for (row, &h) in batch.chunks_exact(self.width.max(1)).zip(hashes) {
            placed.push(if full || self.len() as u64 >= limit.min(MAX_ROWS) {
                match self.find_hashed(row, h) {
                    Some(_) => Placed::Old,
                    None => {
                        full = true;
                        Placed::Refused
                    }
                }
            } else {
                match self.insert_hashed(row, h) {
                    Ok(id) => Placed::New(id),
                    Err(_) => Placed::Old,
                }
            });
        }
    }

    /// Stores the rows of `batch` (rows of the table's width, one after
    /// the other; `hashes` has each one's [`hash_row`]) that are new, in
    /// batch order, until the table holds
    /// `limit` rows: the same numbers and the same [`Placed`] as
    /// [`Self::insert`] called on each row in turn, stopping at the first
    /// new row that does not fit. Shards are searched in parallel in the
    /// current rayon pool, each in batch order.
    pub(crate) fn insert_batch(
        &mut self,
        batch: &[u32],
        hashes: &[u64],
        limit: u64,
        placed: &mut Vec<Placed>,
    ) {
        let w = self.width.max(1);
        let n = batch.len() / w;
        debug_assert_eq!(hashes.len(), n, "relaxlab internal error: batch hashes");
        placed.clear();
        if n < PARALLEL_MIN || rayon::current_num_threads() == 1 {
            return self.insert_each(batch, hashes, limit, placed);
        }
        let candidate = |k: usize| &batch[k * w..(k + 1) * w];
        // The rows of each shard in batch order.
        let mut by_shard: Vec<Vec<u32>> = vec![Vec::new(); SHARDS];
        for (k, &h) in hashes.iter().enumerate() {
            by_shard[shard_of(h)].push(k as u32);
        }
        // Each shard keeps the first occurrence of each row it has not
        // stored, as a pending entry, and lists those rows.
        let arena = &self.arena;
        let stored = |j: u32| &arena[j as usize * w..(j as usize + 1) * w];
        let row_of = |j: u32| match j & PENDING {
            0 => stored(j),
            _ => candidate((j & !PENDING) as usize),
        };
        let fresh: Vec<Vec<u32>> = self
            .shards
            .par_iter_mut()
            .zip(&by_shard)
            .map(|(table, ks)| {
                let mut fresh = Vec::new();
                for &k in ks {
                    let h32 = hashes[k as usize] as u32;
                    let row = candidate(k as usize);
                    if let Entry::Vacant(v) = table.entry(
                        widen(h32),
                        |&(j, hj)| hj == h32 && row_of(j) == row,
                        |&(_, hj)| widen(hj),
                    ) {
                        v.insert((k | PENDING, h32));
                        fresh.push(k);
                    }
                }
                fresh
            })
            .collect();
        // Numbers, in batch order, while there is room.
        placed.resize(n, Placed::Old);
        for ks in &fresh {
            for &k in ks {
                placed[k as usize] = Placed::Refused;
            }
        }
        let limit = limit.min(MAX_ROWS);
        let mut len = self.len() as u64;
        for (k, p) in placed.iter_mut().enumerate() {
            if *p != Placed::Refused || len >= limit {
                continue;
            }
            *p = Placed::New(len as u32);
            self.arena.extend_from_slice(candidate(k));
            len += 1;
        }
        // Pending entries get their numbers, or go.
        let placed = &*placed;
        self.shards
            .par_iter_mut()
            .zip(&fresh)
            .for_each(|(table, ks)| {
                for &k in ks {
                    let h32 = hashes[k as usize] as u32;
                    let Ok(e) = table.find_entry(widen(h32), |&(j, _)| j == k | PENDING) else {
                        debug_assert!(false, "relaxlab internal error: pending entry");
                        continue;
                    };
                    match placed[k as usize] {
                        Placed::New(id) => e.into_mut().0 = id,
                        _ => {
                            e.remove();
                        }
                    }
                }
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows of width 2 from pairs.
    fn rows(pairs: &[(u32, u32)]) -> Vec<u32> {
        pairs.iter().flat_map(|&(a, b)| [a, b]).collect()
    }

    #[test]
    fn a_batch_numbers_rows_as_inserting_them_one_by_one_would() {
        // Rows already stored, repeated within the batch, and new ones, in
        // enough numbers to fill every shard.
        let first: Vec<(u32, u32)> = (0..500).map(|i| (i % 7, i)).collect();
        let all: Vec<(u32, u32)> = (0..3000).map(|i| ((i * 13) % 11, (i * 7) % 900)).collect();
        // The parallel path, and the one-by-one path for small batches.
        for (size, limit) in [3000, 100]
            .into_iter()
            .flat_map(|n| [u64::MAX, 500, 520, 700, 1100].map(|l| (n, l)))
        {
            let batch = &all[..size];
            let mut one = StateTable::new(2);
            let mut many = StateTable::new(2);
            for &(a, b) in &first {
                let _ = one.insert(&[a, b]);
                let _ = many.insert(&[a, b]);
            }
            let mut expected = Vec::new();
            let mut full = false;
            for &(a, b) in batch {
                let row = [a, b];
                expected.push(match one.find(&row) {
                    Some(_) => Placed::Old,
                    None if full || one.len() as u64 >= limit => {
                        full = true;
                        Placed::Refused
                    }
                    None => Placed::New(one.insert(&row).expect("new")),
                });
            }
            let mut placed = Vec::new();
            // Two worker threads, so the parallel path runs on any machine.
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(2)
                .build()
                .expect("a pool");
            let hashes: Vec<u64> = batch.iter().map(|&(a, b)| hash_row(&[a, b])).collect();
            pool.install(|| many.insert_batch(&rows(batch), &hashes, limit, &mut placed));
            // A refused row may repeat: the sequential insert refuses it
            // again (it is still not stored), and the batch calls its
            // repeats `Old` (one pending entry). Both store nothing.
            let stored = |p: &[Placed]| -> Vec<Option<u32>> {
                p.iter()
                    .map(|p| match p {
                        Placed::New(id) => Some(*id),
                        _ => None,
                    })
                    .collect()
            };
            assert_eq!(stored(&placed), stored(&expected), "{size} {limit}");
            let refused = |p: &[Placed]| p.iter().position(|p| *p == Placed::Refused);
            assert_eq!(refused(&placed), refused(&expected), "{size} {limit}");
            assert_eq!(many.len(), one.len());
            for i in 0..one.len() as u32 {
                assert_eq!(many.row(i), one.row(i));
                assert_eq!(many.find(one.row(i)), Some(i));
            }
            // Nothing refused is left behind in the index.
            for &(a, b) in batch {
                assert_eq!(many.find(&[a, b]), one.find(&[a, b]));
            }
        }
    }
}
