//! A small relation algebra on bit sets, for the axioms (book: axiomatic.md).
//!
//! A [`Relation`] over the events of one execution is a bit matrix with one
//! `u128` row per event: bit `b` of row `a` says that `(a, b)` is in the
//! relation. Executions have at most [`MAX_EVENTS`] events, which covers
//! every litmus test (herd7's own tests rarely exceed 30 events), so union,
//! intersection and difference are word operations and composition and
//! closure are a few hundred of them.
//!
//! The operations are the ones cat files are written with: `|` `&` `\`
//! (union, intersection, difference), `;` (sequence), `^-1` (inverse), `+`
//! and `?` (transitive and reflexive closures), `[S]` (the identity on an
//! event set, [`Relation::id_on`]), and the three checks `acyclic`,
//! `irreflexive`, `empty`. The checks answer with a witness so a rejection
//! can name the events involved.

use super::execution::EventId;

/// The largest number of events an execution may have.
pub const MAX_EVENTS: usize = 128;

/// A set of events: bit `e` is event `e`.
pub type EventSet = u128;

/// A binary relation over the events `0..n` of one execution.
///
/// Invariant: `rows.len() == n <= MAX_EVENTS` and no row has a bit at or
/// above `n`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Relation {
    rows: Vec<u128>,
}

/// The set holding just `e`.
pub(crate) fn single(e: usize) -> EventSet {
    1u128 << e
}

/// Iterates the members of a set in increasing order.
pub(crate) fn members(mut set: EventSet) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let e = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(e)
    })
}

impl Relation {
    /// The empty relation over `n` events.
    pub fn new(n: usize) -> Relation {
        debug_assert!(
            n <= MAX_EVENTS,
            "relaxlab internal error: {n} events exceed the relation width"
        );
        Relation { rows: vec![0; n] }
    }

    /// Empties the relation, keeping its size.
    pub(crate) fn clear(&mut self) {
        self.rows.fill(0);
    }

    /// The number of events the relation is over.
    pub fn size(&self) -> usize {
        self.rows.len()
    }

    /// Adds the pair `(a, b)`.
    pub fn add(&mut self, a: EventId, b: EventId) {
        self.rows[a.index()] |= single(b.index());
    }

    /// Is `(a, b)` in the relation?
    pub fn contains(&self, a: EventId, b: EventId) -> bool {
        self.rows[a.index()] & single(b.index()) != 0
    }

    /// Every pair, in increasing order of `(a, b)`.
    pub fn pairs(&self) -> impl Iterator<Item = (EventId, EventId)> + '_ {
        self.rows
            .iter()
            .enumerate()
            .flat_map(|(a, row)| members(*row).map(move |b| (EventId::new(a), EventId::new(b))))
    }

    /// The events `b` with `(a, b)` in the relation.
    pub(crate) fn row(&self, a: usize) -> EventSet {
        self.rows[a]
    }

    pub(crate) fn add_idx(&mut self, a: usize, b: usize) {
        self.rows[a] |= single(b);
    }

    pub(crate) fn has(&self, a: usize, b: usize) -> bool {
        self.rows[a] & single(b) != 0
    }

    /// The set of all events `0..n`.
    pub(crate) fn all(n: usize) -> EventSet {
        if n >= 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        }
    }

    /// `[S]`: the identity on the events of `set`.
    pub(crate) fn id_on(n: usize, set: EventSet) -> Relation {
        let mut r = Relation::new(n);
        for e in members(set & Relation::all(n)) {
            r.rows[e] = single(e);
        }
        r
    }

    /// The relation with these rows (row `a`: the events `b` with `(a, b)`).
    pub(crate) fn from_rows(rows: Vec<u128>) -> Relation {
        let n = rows.len();
        debug_assert!(
            n <= MAX_EVENTS && rows.iter().all(|r| r & !Relation::all(n) == 0),
            "relaxlab internal error: rows beyond the relation's events"
        );
        Relation { rows }
    }

    /// The relation built from a predicate on pairs.
    pub(crate) fn from_fn(n: usize, f: impl Fn(usize, usize) -> bool) -> Relation {
        let mut r = Relation::new(n);
        for a in 0..n {
            for b in 0..n {
                if f(a, b) {
                    r.rows[a] |= single(b);
                }
            }
        }
        r
    }

    /// `R | S`.
    pub(crate) fn union(&self, other: &Relation) -> Relation {
        self.zip(other, |a, b| a | b)
    }

    /// `R & S`.
    pub(crate) fn inter(&self, other: &Relation) -> Relation {
        self.zip(other, |a, b| a & b)
    }

    /// `R \ S`.
    pub(crate) fn minus(&self, other: &Relation) -> Relation {
        self.zip(other, |a, b| a & !b)
    }

    fn zip(&self, other: &Relation, f: impl Fn(u128, u128) -> u128) -> Relation {
        debug_assert_eq!(
            self.size(),
            other.size(),
            "relaxlab internal error: relations over different event sets"
        );
        Relation {
            rows: self
                .rows
                .iter()
                .zip(&other.rows)
                .map(|(a, b)| f(*a, *b))
                .collect(),
        }
    }

    /// `R ; S`: pairs `(a, c)` with `(a, b)` in R and `(b, c)` in S.
    pub(crate) fn seq(&self, other: &Relation) -> Relation {
        Relation {
            rows: self
                .rows
                .iter()
                .map(|row| members(*row).fold(0, |acc, b| acc | other.rows[b]))
                .collect(),
        }
    }

    /// `R^-1`.
    pub(crate) fn inverse(&self) -> Relation {
        let mut r = Relation::new(self.size());
        for (a, row) in self.rows.iter().enumerate() {
            for b in members(*row) {
                r.rows[b] |= single(a);
            }
        }
        r
    }

    /// `R+`, by Warshall's algorithm on rows.
    pub(crate) fn plus(&self) -> Relation {
        let mut r = self.clone();
        for k in 0..r.size() {
            let rk = r.rows[k];
            for a in 0..r.size() {
                if r.rows[a] & single(k) != 0 {
                    r.rows[a] |= rk;
                }
            }
        }
        r
    }

    /// `R?`: the relation and the identity.
    pub(crate) fn opt(&self) -> Relation {
        let mut r = self.clone();
        for (e, row) in r.rows.iter_mut().enumerate() {
            *row |= single(e);
        }
        r
    }

    /// `R*`.
    pub(crate) fn star(&self) -> Relation {
        self.plus().opt()
    }

    /// `[S] ; R ; [T]`: the pairs starting in `from` and ending in `to`.
    pub(crate) fn restrict(&self, from: EventSet, to: EventSet) -> Relation {
        Relation {
            rows: self
                .rows
                .iter()
                .enumerate()
                .map(|(a, row)| if from & single(a) != 0 { row & to } else { 0 })
                .collect(),
        }
    }

    /// The events some pair starts from.
    pub(crate) fn domain(&self) -> EventSet {
        self.rows
            .iter()
            .enumerate()
            .filter(|(_, row)| **row != 0)
            .fold(0, |acc, (a, _)| acc | single(a))
    }

    /// Is the relation empty? Otherwise a pair of it.
    pub(crate) fn empty_or_pair(&self) -> Result<(), (usize, usize)> {
        match self.rows.iter().position(|row| *row != 0) {
            None => Ok(()),
            Some(a) => Err((a, self.rows[a].trailing_zeros() as usize)),
        }
    }

    /// Is the relation irreflexive? Otherwise an event related to itself.
    pub(crate) fn irreflexive(&self) -> Result<(), usize> {
        match (0..self.size()).find(|&e| self.has(e, e)) {
            None => Ok(()),
            Some(e) => Err(e),
        }
    }

    /// Is the relation acyclic? Otherwise a cycle, each event related to the
    /// next and the last to the first, starting from its smallest event.
    pub(crate) fn acyclic(&self) -> Result<(), Vec<EventId>> {
        let n = self.size();
        // Colours of the depth-first search: 0 unseen, 1 on the stack, 2 done.
        let mut colour = vec![0u8; n];
        let mut stack: Vec<usize> = Vec::new();
        for root in 0..n {
            if colour[root] != 0 {
                continue;
            }
            if let Some(cycle) = self.dfs(root, &mut colour, &mut stack) {
                return Err(rotate_to_min(cycle));
            }
        }
        Ok(())
    }

    /// Iterative depth-first search from `root`; returns a cycle if it
    /// finds a back edge.
    fn dfs(&self, root: usize, colour: &mut [u8], stack: &mut Vec<usize>) -> Option<Vec<usize>> {
        // Each frame: the node and the successors still to visit.
        let mut frames: Vec<(usize, EventSet)> = vec![(root, self.rows[root])];
        colour[root] = 1;
        stack.push(root);
        while let Some((node, rest)) = frames.last_mut() {
            if *rest == 0 {
                colour[*node] = 2;
                stack.pop();
                frames.pop();
                continue;
            }
            let next = rest.trailing_zeros() as usize;
            *rest &= *rest - 1;
            match colour[next] {
                0 => {
                    colour[next] = 1;
                    stack.push(next);
                    frames.push((next, self.rows[next]));
                }
                1 => {
                    let start = stack.iter().position(|&e| e == next).unwrap_or(0);
                    return Some(stack[start..].to_vec());
                }
                _ => {}
            }
        }
        None
    }
}

/// A cycle rotated to start at its smallest event, so witnesses are stable.
fn rotate_to_min(mut cycle: Vec<usize>) -> Vec<EventId> {
    if let Some(min_at) = (0..cycle.len()).min_by_key(|&i| cycle[i]) {
        cycle.rotate_left(min_at);
    }
    cycle.into_iter().map(EventId::new).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(n: usize, pairs: &[(usize, usize)]) -> Relation {
        let mut r = Relation::new(n);
        for &(a, b) in pairs {
            r.add_idx(a, b);
        }
        r
    }

    #[test]
    fn closure_and_sequence() {
        let r = rel(4, &[(0, 1), (1, 2), (2, 3)]);
        let plus = r.plus();
        assert!(plus.has(0, 3) && plus.has(1, 3) && !plus.has(3, 0));
        assert_eq!(r.seq(&r), rel(4, &[(0, 2), (1, 3)]));
        assert_eq!(r.inverse(), rel(4, &[(1, 0), (2, 1), (3, 2)]));
        assert!(r.opt().has(2, 2));
        assert_eq!(
            r.restrict(single(1) | single(2), single(2)),
            rel(4, &[(1, 2)])
        );
    }

    #[test]
    fn acyclic_gives_the_cycle() {
        assert!(rel(3, &[(0, 1), (1, 2)]).acyclic().is_ok());
        let cyc = rel(4, &[(0, 1), (3, 1), (1, 2), (2, 3)]).acyclic();
        assert_eq!(
            cyc,
            Err(vec![EventId::new(1), EventId::new(2), EventId::new(3)])
        );
        assert_eq!(rel(2, &[(1, 1)]).irreflexive(), Err(1));
        assert_eq!(rel(2, &[(1, 0)]).empty_or_pair(), Err((1, 0)));
    }

    #[test]
    fn full_width_sets() {
        let mut r = Relation::new(128);
        r.add_idx(127, 0);
        r.add_idx(0, 127);
        assert_eq!(Relation::all(128), u128::MAX);
        assert!(r.acyclic().is_err());
        assert!(r.plus().has(127, 127));
    }
}
