//! Doomed states: those from which every execution is discarded.
//!
//! An `assume` that fails, or a `filter` that rejects a final state,
//! discards the execution: it is no execution of the program (book: language.md, assert and assume;
//! herd7's `filter` and GenMC's `__VERIFIER_assume` mean the same), so
//! nothing on it is reported. The axiomatic engine never sees such an
//! execution. The operational explorer reports a data race at the move
//! that makes it, before it knows how the execution goes on, so a race on
//! executions that are all discarded later would be reported wrongly
//! (found by the long reduction campaign, `c11_random.rs` keeps it fixed).
//!
//! A stored state is **doomed** when no execution through it survives:
//! it is the least set `D` with
//!
//! > `s ∈ D` iff `s` has no end of its own that survives (a final state the
//! > filter keeps, a deadlock, a move that fails an `assert`) and every
//! > move of `s` is discarded or leads into `D`.
//!
//! The least fixpoint matters for cycles: states on a cycle that no
//! discard closes start an infinite execution, which is an execution (a
//! spin loop that never exits), so they are not doomed. It is computed by
//! counting, per state, its successor edges not yet known to be doomed
//! (the backward attractor of a game graph), in time linear in the edges.
//!
//! A race is reported when the state after its move is not doomed (or the
//! move itself fails an `assert`). States the search did not expand (a
//! bound, an interruption) count as doomed: what lies after them was not
//! seen, and a partial result reports only what it saw.
//!
//! Cost: the pass runs only for a program with an `assume` or a `filter`
//! whose search found a race. It expands every state a second time and
//! keeps the graph (4 bytes per edge, twice, while computing). On MP5 with
//! non-atomic data words (111,299 states unreduced under `c11r`, 2
//! threads, 3 runs) it took the run from 1.11-1.24 s to 1.74-1.86 s and
//! its peak memory from 46 to 57 MB.
//!
//! Under partial-order reduction the graph is the reduced one; a state's
//! surviving ends (final states, deadlocks, failures) and infinite
//! executions are preserved from every state the reduced search stores,
//! so a state is doomed in the reduced graph exactly when it is in the
//! full one (the argument is in [`super::reduction`]).

/// The state graph, recorded state by state in number order.
#[derive(Debug, Default)]
pub(crate) struct Graph {
    /// `succ[start[s]..start[s + 1]]`: the stored states the moves of `s`
    /// lead to (with repeats).
    start: Vec<u64>,
    succ: Vec<u32>,
    /// Does `s` have a surviving end of its own?
    ends: Vec<bool>,
}

impl Graph {
    pub(crate) fn new() -> Self {
        Graph {
            start: vec![0],
            ..Graph::default()
        }
    }

    /// The number of states recorded so far.
    pub(crate) fn recorded(&self) -> usize {
        self.ends.len()
    }

    /// Records the next state: whether it has a surviving end of its own,
    /// and the stored states its moves lead to.
    pub(crate) fn push(&mut self, ends: bool, succ: impl IntoIterator<Item = u32>) {
        self.succ.extend(succ);
        self.start.push(self.succ.len() as u64);
        self.ends.push(ends);
    }

    /// Which of the `states` stored states are doomed (module docs).
    /// States past the recorded ones are doomed.
    pub(crate) fn doomed(&self, states: usize) -> Vec<bool> {
        let recorded = self.recorded();
        debug_assert!(recorded <= states);
        // Predecessor lists (a counting sort of the edges by target).
        let mut pstart = vec![0u64; states + 1];
        for &t in &self.succ {
            pstart[t as usize + 1] += 1;
        }
        for s in 0..states {
            pstart[s + 1] += pstart[s];
        }
        let mut fill = pstart.clone();
        let mut pred = vec![0u32; self.succ.len()];
        for s in 0..recorded {
            for &t in &self.succ[self.start[s] as usize..self.start[s + 1] as usize] {
                pred[fill[t as usize] as usize] = s as u32;
                fill[t as usize] += 1;
            }
        }
        drop(fill);
        // Successors not yet known to be doomed; a state whose count
        // reaches zero without an end of its own is doomed.
        let mut left: Vec<u32> = (0..states)
            .map(|s| match s < recorded {
                true => (self.start[s + 1] - self.start[s]) as u32,
                false => 0,
            })
            .collect();
        let mut doomed = vec![false; states];
        let mut work: Vec<u32> = (0..states)
            .filter(|&s| left[s] == 0 && !(s < recorded && self.ends[s]))
            .map(|s| s as u32)
            .collect();
        for &s in &work {
            doomed[s as usize] = true;
        }
        while let Some(t) = work.pop() {
            let t = t as usize;
            for &p in &pred[pstart[t] as usize..pstart[t + 1] as usize] {
                let p = p as usize;
                left[p] -= 1;
                if left[p] == 0 && !self.ends[p] && !doomed[p] {
                    doomed[p] = true;
                    work.push(p as u32);
                }
            }
        }
        doomed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_whose_moves_all_end_in_discards_is_doomed() {
        // 0 -> 1 -> 2 (no end, no successor: every move discarded);
        // 0 -> 3 (a kept final state).
        let mut g = Graph::new();
        g.push(false, [1, 3]);
        g.push(false, [2]);
        g.push(false, []);
        g.push(true, []);
        assert_eq!(g.doomed(4), [false, true, true, false]);
    }

    #[test]
    fn a_cycle_no_discard_closes_is_an_execution() {
        // 0 -> 1 <-> 2, and 2 -> 3 doomed: 1 and 2 spin forever.
        let mut g = Graph::new();
        g.push(false, [1]);
        g.push(false, [2]);
        g.push(false, [1, 3]);
        g.push(false, []);
        assert_eq!(g.doomed(4), [false, false, false, true]);
    }

    #[test]
    fn states_the_search_did_not_expand_count_as_doomed() {
        // 0 -> 1, 0 -> 2; 1 and 2 stored but never expanded.
        let mut g = Graph::new();
        g.push(false, [1, 2, 2]);
        assert_eq!(g.doomed(3), [true, true, true]);
        let mut g = Graph::new();
        g.push(false, [1, 2, 2]);
        g.push(false, []);
        g.push(true, []);
        assert_eq!(g.doomed(3), [false, true, false]);
    }
}
