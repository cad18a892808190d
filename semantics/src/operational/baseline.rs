//! The hashing baseline of `relaxlab bench`: a bare insert of `n` distinct
//! state rows into the exhaustive explorer's own state table
//! ([`StateTable`], the same hasher), each row inserted twice (once new,
//! once found), as the explorer stores a state once and finds it again
//! from another parent. It does nothing else: no successor computation, no
//! interning, no parent links. The explorer's rate divided by this one, in
//! the same process and on the same number of threads, says how close
//! exploration runs to the cost of its own deduplication, a figure that
//! stays meaningful when absolute speeds move from run to run.
//!
//! With `jobs` worker threads the rows are split into `jobs` disjoint
//! shares (by row number), each inserted into a table of its own by its
//! own thread: the bare cost of `n` inserts on that many threads.

use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::state_table::StateTable;

/// Row `i` of width `width`: small ids, as the explorer's rows hold (one
/// per thread component and one for memory), distinct for distinct `i`.
#[inline]
fn fill(row: &mut [u32], i: u64) {
    let last = row.len() - 1;
    for (k, w) in row[..last].iter_mut().enumerate() {
        // Components take few distinct values; memory ids take many.
        *w = ((i >> (4 * k)) & 0xf) as u32;
    }
    row[last] = i as u32;
}

/// Inserts `n` distinct rows of `width` words twice each into fresh
/// [`StateTable`]s, on `jobs` threads of the current rayon pool (module
/// docs). Returns the elapsed time.
pub fn hash_baseline(n: u64, width: usize, jobs: usize) -> Duration {
    let width = width.max(1);
    let jobs = jobs.max(1) as u64;
    let started = Instant::now();
    let stored: usize = (0..jobs)
        .into_par_iter()
        .map(|share| {
            let mut table = StateTable::new(width);
            let mut row = vec![0u32; width];
            for _round in 0..2 {
                let mut i = share;
                while i < n {
                    fill(&mut row, i);
                    let _ = table.insert(&row);
                    i += jobs;
                }
            }
            table.len()
        })
        .sum();
    let elapsed = started.elapsed();
    debug_assert_eq!(stored as u64, n, "relaxlab internal error: baseline rows");
    std::hint::black_box(stored);
    elapsed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_distinct_and_all_stored() {
        for (n, width, jobs) in [(1000, 5, 1), (1001, 2, 2), (0, 4, 2), (70_000, 1, 3)] {
            let stored: usize = (0..jobs as u64)
                .map(|share| {
                    let mut t = StateTable::new(width);
                    let mut row = vec![0u32; width];
                    let mut i = share;
                    while i < n {
                        fill(&mut row, i);
                        assert!(t.insert(&row).is_ok(), "row {i} is new");
                        i += jobs as u64;
                    }
                    t.len()
                })
                .sum();
            assert_eq!(stored as u64, n);
            let _ = hash_baseline(n, width, jobs);
        }
    }
}
