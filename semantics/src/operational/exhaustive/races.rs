//! Race confirmation (module docs of `exhaustive`, "Data races"): after a
//! search of a program that may discard executions, the races some
//! surviving execution makes; and, when a bound cut the search, the races on
//! the way to each racy row's witness.

use crate::model::{MemoryModel, Race};

use super::expansion::{At, End, MoveKey, Target};
use super::search::Explorer;
use crate::operational::doomed::Graph;
use crate::operational::runner::Runner;

impl<'p, M: MemoryModel> Explorer<'p, M> {
    /// Keeps the races some surviving execution makes ([`crate::operational::doomed`]):
    /// expands the states the search expanded again, level by level in the
    /// same chunks and with the same persistent sets (a set's cycle proviso
    /// compares with the end of the state's level, recorded in `levels`,
    /// and every successor the search inserted was numbered past it),
    /// records the graph,
    /// and keeps, for each race, the first move making it whose successor
    /// is not doomed. The budget is polled after every chunk as in the
    /// search; states not expanded again count as doomed.
    pub(super) fn confirm_races(&mut self) {
        let mut graph = Graph::new();
        let mut found: Vec<(u32, MoveKey, Race, Target)> = Vec::new();
        let expanded = self.expanded as usize;
        let mut lo = 0;
        'levels: for l in 0..self.levels.len() {
            let level_end = self.levels[l];
            let hi = (level_end as usize).min(expanded);
            let mut start = lo;
            while start < hi {
                let end = (start + self.chunk).min(hi);
                let blocks = self.expand_chunk(start..end, level_end, true);
                for e in blocks.into_iter().flat_map(|b| b.expansions) {
                    let failed = e.edges.iter().any(|(_, t)| *t == Target::Failed);
                    let ends = failed || matches!(e.end, End::Final { .. } | End::Deadlock);
                    graph.push(
                        ends,
                        e.edges.iter().filter_map(|(_, t)| match t {
                            Target::State(j) => Some(*j),
                            _ => None,
                        }),
                    );
                    for (key, race) in e.races {
                        // Every move noted its target, races' moves too.
                        let target = e.edges.iter().find(|(k, _)| *k == key).map(|(_, t)| *t);
                        debug_assert!(target.is_some(), "relaxlab internal error: race edge");
                        found.push((e.state, key, race, target.unwrap_or(Target::Unseen)));
                    }
                }
                if let Some(hit) = self.budget.exhausted() {
                    self.bound.get_or_insert(hit);
                    break 'levels;
                }
                start = end;
            }
            lo = hi;
        }
        let doomed = graph.doomed(self.states.len());
        self.races.clear();
        for (i, key, race, target) in found {
            let survives = match target {
                Target::Failed => true,
                Target::State(j) => !doomed[j as usize],
                Target::Unseen | Target::Discarded => false,
            };
            if survives {
                self.races
                    .entry(race.unordered())
                    .or_insert(At::Move(i, key));
            }
        }
        if self.bound.is_some() {
            self.races_to_racy_rows();
        }
    }

    /// When the search or the confirmation was cut short: adds the races
    /// made on the way to each racy row's witness state, replayed as
    /// [`Self::witness`] replays it. That path ends in a kept final state,
    /// so its races survive; with them, no row says `racy` without a race
    /// listed.
    pub(super) fn races_to_racy_rows(&mut self) {
        let mut found = Vec::new();
        let mut no_trace = None;
        for acc in self.rows.values().filter(|acc| acc.racy) {
            let At::State(last) = acc.at else { continue };
            let Ok(mut runner) = Runner::start(self.interp().clone(), &mut no_trace) else {
                continue;
            };
            let mut from = 0;
            for to in self.path(last) {
                let (before, mut key) = (runner.races.len(), None);
                runner.take_first(
                    |m| {
                        let next = self.leads_to(from, m, to);
                        if next {
                            key = Some(MoveKey::of(m));
                        }
                        next
                    },
                    &mut no_trace,
                );
                if let Some(key) = key {
                    let made = &runner.races[before..];
                    found.extend(made.iter().map(|r| (r.unordered(), At::Move(from, key))));
                }
                from = to;
            }
        }
        for (race, at) in found {
            self.races.entry(race).or_insert(at);
        }
    }
}
