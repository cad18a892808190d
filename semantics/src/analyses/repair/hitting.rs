//! Exact minimum hitting sets, by branching.
//!
//! A *clause* is a set of sites at least one of which every repair must
//! use; a hitting set meets every clause. [`hitting_sets`] enumerates the
//! hitting sets of at most `k` elements that branching reaches: pick the
//! unhit clause with the fewest elements, and for its elements `e1 < e2 <
//! ...` try `e1`, then `e2` with `e1` excluded, and so on. Every hitting set
//! of minimum size is found exactly once (its elements all lie in clauses,
//! and it is reached in the branch of its first element in each chosen
//! clause); [`minimum_hitting_set`] deepens `k` from 0 and takes the first.
//! The order is deterministic: clauses and elements are sorted.
//!
//! The instances are small (tens of sites, tens of clauses, `k` up to a
//! handful), where branching beats an ILP or SAT solver's start-up.

/// A set of site indices, as a bit set.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SiteSet {
    words: Vec<u64>,
}

impl SiteSet {
    /// The empty set over `n` sites.
    pub fn new(n: usize) -> SiteSet {
        SiteSet {
            words: vec![0; n.div_ceil(64)],
        }
    }
    /// The set of every site below `n`.
    pub fn full(n: usize) -> SiteSet {
        let mut s = SiteSet::new(n);
        for i in 0..n {
            s.insert(i);
        }
        s
    }
    pub fn from_slice(n: usize, elems: &[usize]) -> SiteSet {
        let mut s = SiteSet::new(n);
        for &e in elems {
            s.insert(e);
        }
        s
    }
    pub fn insert(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }
    pub fn contains(&self, i: usize) -> bool {
        self.words
            .get(i / 64)
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }
    pub fn union_with(&mut self, other: &SiteSet) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
    }
    /// The elements in `0..n` not in the set.
    pub fn complement(&self, n: usize) -> SiteSet {
        let mut s = SiteSet::new(n);
        for i in 0..n {
            if !self.contains(i) {
                s.insert(i);
            }
        }
        s
    }
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|w| *w == 0)
    }
    /// The elements, ascending.
    pub fn elements(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for (k, w) in self.words.iter().enumerate() {
            let mut w = *w;
            while w != 0 {
                let b = w.trailing_zeros() as usize;
                out.push(k * 64 + b);
                w &= w - 1;
            }
        }
        out
    }
}

/// Calls `visit` with hitting sets (sorted) of at most `k` elements in a
/// deterministic order, until it returns `false` (see the module docs).
pub fn hitting_sets(clauses: &[Vec<usize>], k: usize, visit: &mut dyn FnMut(&[usize]) -> bool) {
    let mut chosen = Vec::new();
    let mut excluded = Vec::new();
    branch(clauses, k, &mut chosen, &mut excluded, visit);
}

/// `false` when the visitor asked to stop.
fn branch(
    clauses: &[Vec<usize>],
    k: usize,
    chosen: &mut Vec<usize>,
    excluded: &mut Vec<usize>,
    visit: &mut dyn FnMut(&[usize]) -> bool,
) -> bool {
    // The unhit clause with the fewest elements still allowed.
    let mut pick: Option<Vec<usize>> = None;
    for c in clauses {
        if c.iter().any(|e| chosen.contains(e)) {
            continue;
        }
        let allowed: Vec<usize> = c
            .iter()
            .copied()
            .filter(|e| !excluded.contains(e))
            .collect();
        if pick.as_ref().is_none_or(|p| allowed.len() < p.len()) {
            pick = Some(allowed);
        }
    }
    let Some(allowed) = pick else {
        let mut set = chosen.clone();
        set.sort_unstable();
        return visit(&set);
    };
    if chosen.len() == k {
        return true;
    }
    let before = excluded.len();
    for e in allowed {
        chosen.push(e);
        let go_on = branch(clauses, k, chosen, excluded, visit);
        chosen.pop();
        if !go_on {
            excluded.truncate(before);
            return false;
        }
        excluded.push(e);
    }
    excluded.truncate(before);
    true
}

/// A hitting set of minimum size (the first the deterministic order
/// reaches); `None` when a clause is empty.
pub fn minimum_hitting_set(clauses: &[Vec<usize>], n: usize) -> Option<Vec<usize>> {
    if clauses.iter().any(Vec::is_empty) {
        return None;
    }
    for k in 0..=n {
        let mut found = None;
        hitting_sets(clauses, k, &mut |s| {
            found = Some(s.to_vec());
            false
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subset of `0..n`, by brute force.
    fn brute_minimum(clauses: &[Vec<usize>], n: usize) -> (usize, Vec<Vec<usize>>) {
        let mut best = usize::MAX;
        let mut all = Vec::new();
        for mask in 0u32..(1 << n) {
            let set: Vec<usize> = (0..n).filter(|i| mask >> i & 1 == 1).collect();
            if clauses.iter().all(|c| c.iter().any(|e| set.contains(e))) {
                match set.len().cmp(&best) {
                    std::cmp::Ordering::Less => {
                        best = set.len();
                        all = vec![set];
                    }
                    std::cmp::Ordering::Equal => all.push(set),
                    std::cmp::Ordering::Greater => {}
                }
            }
        }
        all.sort();
        (best, all)
    }

    #[test]
    fn branching_finds_every_minimum_hitting_set_once() {
        // Small pseudo-random instances, checked against brute force.
        let mut seed = 12345u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..300 {
            let n = 1 + (next() % 8) as usize;
            let m = (next() % 6) as usize;
            let clauses: Vec<Vec<usize>> = (0..m)
                .map(|_| {
                    let mut c: Vec<usize> = (0..n).filter(|_| next() % 3 == 0).collect();
                    if c.is_empty() {
                        c.push((next() % n as u64) as usize);
                    }
                    c
                })
                .collect();
            let (best, all) = brute_minimum(&clauses, n);
            let min = minimum_hitting_set(&clauses, n).unwrap();
            assert_eq!(min.len(), best, "{clauses:?}");
            let mut found = Vec::new();
            hitting_sets(&clauses, best, &mut |s| {
                found.push(s.to_vec());
                true
            });
            found.sort();
            assert_eq!(found, all, "{clauses:?}");
        }
    }

    #[test]
    fn an_empty_clause_has_no_hitting_set() {
        assert_eq!(minimum_hitting_set(&[vec![0], vec![]], 2), None);
        assert_eq!(minimum_hitting_set(&[], 3), Some(vec![]));
    }

    #[test]
    fn site_sets() {
        let s = SiteSet::from_slice(70, &[0, 3, 69]);
        assert_eq!(s.elements(), vec![0, 3, 69]);
        assert_eq!(s.len(), 3);
        assert!(s.contains(69) && !s.contains(68));
        assert_eq!(s.complement(70).len(), 67);
        assert!(SiteSet::new(5).is_empty());
    }
}
