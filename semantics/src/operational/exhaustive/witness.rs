//! Witnesses (module docs of `exhaustive`): the shortest path to a state
//! rebuilt from the parent links, replayed move by move, and the outcome
//! table with a witness for every row, failure and race.

use crate::model::MemoryModel;
use crate::outcome::{Failure, OutcomeRow, OutcomeTable, Stats, Trace};

use super::expansion::{At, MoveKey, RACY};
use super::search::Explorer;
use crate::operational::interp::{Move, Next};
use crate::operational::runner::{replay_choices, Runner};

impl<'p, M: MemoryModel> Explorer<'p, M> {
    /// The states from the initial one (excluded) to state `i`.
    pub(super) fn path(&self, mut i: u32) -> Vec<u32> {
        let mut states = Vec::new();
        while i != 0 {
            states.push(i);
            i = self.parent[i as usize];
        }
        states.reverse();
        states
    }

    /// Does move `m` of stored state `from` lead to stored state `to`?
    pub(super) fn leads_to(&self, from: u32, m: &Move<'_, M::State>, to: u32) -> bool {
        let Next::State {
            mem,
            changed,
            child,
            racy,
        } = &m.next
        else {
            return false;
        };
        let (have, want) = (self.states.row(from), self.states.row(to));
        let n = want.len() - 1;
        let moved = |t: usize| {
            [changed, child]
                .into_iter()
                .flatten()
                .find(|(u, _)| u.index() == t)
                .map(|(_, c)| *c)
        };
        (0..n).all(|t| match moved(t) {
            Some(c) => self.threads[t].find(c) == Some(want[t]),
            None => have[t] == want[t],
        }) && self.mems.find(mem) == Some(want[n] & !RACY)
            && *racy == (want[n] & RACY != 0)
    }

    /// The trace of the execution that reaches `at`: from each state of
    /// the path, the first move leading to the next (the one that first
    /// reached it), then the recorded move for a failure or race.
    pub(super) fn witness(&self, at: At) -> Trace {
        let (last, then) = match at {
            At::Start => return replay_choices(self.interp().clone(), &[]),
            At::State(i) => (i, None),
            At::Move(i, key) => (i, Some(key)),
        };
        let mut trace = Trace::default();
        let mut rec = Some(&mut trace);
        let Ok(mut runner) = Runner::start(self.interp().clone(), &mut rec) else {
            return trace;
        };
        let mut from = 0;
        for to in self.path(last) {
            let taken = runner.take_first(|m| self.leads_to(from, m, to), &mut rec);
            debug_assert!(
                taken.is_some(),
                "relaxlab internal error: a witness step cannot be replayed"
            );
            from = to;
        }
        if let Some(key) = then {
            let taken = runner.take_first(|m| MoveKey::of(m) == key, &mut rec);
            debug_assert!(
                taken.is_some(),
                "relaxlab internal error: a witness's last move cannot be replayed"
            );
        }
        trace
    }

    pub(super) fn table(&self) -> OutcomeTable {
        let rows = self
            .rows
            .iter()
            .map(|(values, acc)| OutcomeRow {
                values: values.clone(),
                satisfies: acc.satisfies,
                count: 1,
                racy: acc.racy,
                non_sc: false,
                witness: Some(self.witness(acc.at)),
            })
            .collect();
        let failures = self
            .failures
            .iter()
            .map(|(kind, at)| Failure {
                kind: kind.clone(),
                count: 1,
                witness: Some(self.witness(*at)),
            })
            .collect();
        OutcomeTable {
            model: self.interp.model.name().to_string(),
            has_condition: self.interp.program.condition.is_some(),
            rows,
            failures,
            races: self.races.keys().copied().collect(),
            race_witnesses: self.races.values().map(|at| self.witness(*at)).collect(),
            flags: Vec::new(),
            undefined_by_cat: None,
            stats: Stats {
                states: self.states.len() as u64,
                transitions: self.transitions,
            },
            bounds: self.bound.into_iter().collect(),
        }
    }
}
