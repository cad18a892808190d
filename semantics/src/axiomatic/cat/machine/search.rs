//! Running the schedule: the checks in order, the flags an accepted
//! execution fires, and the search over the choices of `with`.
//!
//! `with x from linearisations(S, r)` (herd7 manual, "Candidate execution
//! extension") is existential: the execution is accepted when some strict
//! total order of S extending r passes the rest of the model, and counts
//! once however many orders pass (herd7 counts each; relaxlab's
//! hand-written C11 models only need their SC order to exist).
//! `with x from generate_orders(S, r)` (herd7's `cross.cat`) is the same
//! search over relations that order the events of S location by location:
//! it orders one location's events, then the next location's, and so on.
//! Its choices build the execution's coherence order, so each passing one
//! counts as an execution, as herd7 counts them; so do the members of a
//! family of relations (`with rf-lf from cross(...)` in herd7's
//! `lock.cat`), tried one by one.
//!
//! The orders are built one element at a time, depth first. A prefix
//! bounds every completion from below (the prefix's order, the prefix
//! before the rest of its group, and the closure of r among the rest) and
//! from above (that, and any order among the rest that r's closure does
//! not exclude), so every node that depends on the choice is computed twice, on
//! the lower and on the upper bound: monotone operations keep the bounds,
//! difference and complement swap them. A check that fails on the bound
//! that makes it easiest to pass (`acyclic`, `irreflexive`, `empty` on
//! the lower bound; their negations on the upper) fails for every
//! completion, and the prefix is abandoned. This is herd's semantics
//! computed with pruning, for any check: the search visits at most
//! `budget` prefixes per execution, and says so when it stops there.
//!
//! book: cat.md, Coherence chosen by the model

use super::super::model::{Check, CheckKind, Choice, Kind, NodeId, Op, Stmt, Test};
use super::super::rows::{self, bit, members};
use super::super::schedule::Step;
use super::{Bound, Fam, Fired, Machine, Run};
use crate::axiomatic::execution::{EventId, Execution};

impl Machine<'_> {
    /// Does the check's test hold on `bound`?
    fn test_holds(&self, c: &Check, bound: Bound) -> bool {
        match self.model.nodes[c.node.index()].kind {
            // The front end lets no family reach a check.
            Kind::Family => true,
            Kind::Set => match c.test {
                Test::Empty => self.set(c.node, bound) == 0,
                // The front end only lets relations reach these.
                Test::Acyclic | Test::Irreflexive => true,
            },
            Kind::Rel => {
                let r = self.rows(c.node, bound);
                match c.test {
                    Test::Acyclic => rows::is_acyclic(r),
                    Test::Irreflexive => rows::is_irreflexive(r),
                    Test::Empty => rows::is_empty(r),
                }
            }
        }
    }

    /// Does the check pass, exactly?
    fn passes(&self, c: &Check) -> bool {
        self.test_holds(c, Bound::Lower) != c.negated
    }

    /// Does the check fail for every value within the current intervals?
    fn surely_fails(&self, c: &Check) -> bool {
        if c.negated {
            self.test_holds(c, Bound::Upper)
        } else {
            !self.test_holds(c, Bound::Lower)
        }
    }

    /// Runs `steps` from `pc` exactly.
    pub(super) fn run(&mut self, ex: &Execution, steps: &[Step], mut pc: usize) -> Run {
        let model = self.model;
        while let Some(step) = steps.get(pc) {
            match step {
                Step::Check(i) => {
                    let Stmt::Check(c) = &model.stmts[*i] else {
                        unreachable!("relaxlab internal error: check step on a with")
                    };
                    // A check rejects when it fails; `flag` reports when
                    // its check holds (herd7: "successful flagged checks
                    // are recorded"), `undefined_unless` when it fails.
                    match (c.kind, self.passes(c)) {
                        (CheckKind::Check, false) => {
                            self.failed = Some(*i);
                            return Run::Reject;
                        }
                        (CheckKind::Flag, true) | (CheckKind::UndefinedUnless, false) => {
                            self.fire(c)
                        }
                        _ => {}
                    }
                }
                Step::With { with, choice } => {
                    return self.choose(ex, steps, pc, *with, *choice);
                }
                step => self.exact_step(ex, step),
            }
            pc += 1;
        }
        self.leaf();
        Run::Accept
    }

    /// Records an accepted execution (one passing choice of every
    /// counted `with`) and the flags it fired.
    fn leaf(&mut self) {
        self.count += 1;
        if self.count == 1 {
            self.first_vars.clear();
            for (i, n) in self.model.nodes.iter().enumerate() {
                if let Op::Var { .. } = n.op {
                    let node = NodeId(i as u32);
                    let rows = self.rows(node, Bound::Lower).to_vec();
                    self.first_vars.push((node, rows));
                }
            }
        }
        if !self.fired.is_empty() {
            self.flagged += 1;
        }
        for f in &self.fired {
            match self
                .acc_fired
                .iter_mut()
                .find(|g| g.name == f.name && g.kind == f.kind)
            {
                Some(g) => {
                    for p in &f.pairs {
                        if !g.pairs.contains(p) {
                            g.pairs.push(*p);
                        }
                    }
                }
                None => self.acc_fired.push(f.clone()),
            }
        }
    }

    /// Records a fired flag with the pairs of its relation (the pairs that
    /// make `flag ~empty r` hold or `undefined_unless empty r` fail).
    fn fire(&mut self, c: &Check) {
        let pairs = match self.model.nodes[c.node.index()].kind {
            Kind::Family => Vec::new(),
            Kind::Set => members(self.set_lo[c.node.index()])
                .map(|e| (EventId::new(e), EventId::new(e)))
                .collect(),
            Kind::Rel => self
                .rows(c.node, Bound::Lower)
                .iter()
                .enumerate()
                .flat_map(|(a, row)| members(*row).map(move |b| (EventId::new(a), EventId::new(b))))
                .collect(),
        };
        self.fired.push(Fired {
            name: c.name.clone(),
            kind: c.kind,
            pairs,
        });
    }

    /// Runs the steps after the `with` at `pc` in interval mode; does a
    /// check surely fail?
    fn pruned(&mut self, ex: &Execution, steps: &[Step], pc: usize) -> bool {
        let model = self.model;
        for step in &steps[pc + 1..] {
            match step {
                // A family has no bounds: stop bounding before it.
                Step::Eval(node) if model.nodes[node.index()].kind == Kind::Family => return false,
                Step::Eval(node) => {
                    self.compute(ex, *node, Bound::Lower);
                    self.compute(ex, *node, Bound::Upper);
                }
                // Bounds go through monotone equations only.
                Step::Fix { group, .. } if !model.groups[*group as usize].monotone => return false,
                Step::Fix { group, body } => {
                    self.fix(ex, *group, body, &[Bound::Lower, Bound::Upper]);
                }
                Step::Check(i) => {
                    if let Stmt::Check(c) = &model.stmts[*i] {
                        if c.kind == CheckKind::Check && self.surely_fails(c) {
                            self.failed = Some(*i);
                            return true;
                        }
                    }
                }
                Step::With { .. } => return false,
            }
        }
        false
    }

    /// WITH: searches the choices of `with` number `with` (see the module
    /// docs), running the rest of the schedule on each complete one.
    fn choose(
        &mut self,
        ex: &Execution,
        steps: &[Step],
        pc: usize,
        with: u32,
        choice: Choice,
    ) -> Run {
        let (set, rel) = match choice {
            Choice::Family(f) => return self.choose_member(ex, steps, pc, with, f),
            Choice::Linearisations { set, rel } | Choice::PerLocation { set, rel } => (set, rel),
        };
        let events = self.set(set, Bound::Lower);
        // The groups the choice orders: all of S for `linearisations`, the
        // events of S at each location for `generate_orders` (in the order
        // of the locations; events without one are in no group).
        let groups: Vec<Vec<usize>> = match choice {
            Choice::Linearisations { .. } | Choice::Family(_) => vec![members(events).collect()],
            Choice::PerLocation { .. } => {
                let mut by_loc: Vec<(_, Vec<usize>)> = Vec::new();
                for e in members(events) {
                    // herd7's `partition`: by location, lock events'
                    // included.
                    let Some(loc) = ex.events[e].location() else {
                        continue;
                    };
                    match by_loc.iter_mut().find(|(l, _)| *l == loc) {
                        Some((_, g)) => g.push(e),
                        None => by_loc.push((loc, vec![e])),
                    }
                }
                by_loc.sort_by_key(|(l, _)| *l);
                by_loc.into_iter().map(|(_, g)| g).collect()
            }
        };
        let var = self
            .model
            .nodes
            .iter()
            .position(|n| n.op == Op::Var { with })
            .map(|i| NodeId(i as u32));
        let Some(mut search) = Search::new(
            groups,
            self.rows(rel, Bound::Lower),
            var,
            with + 1,
            self.fired.len(),
            choice.counted(),
        ) else {
            // r is cyclic on some group: no order extends it.
            return Run::Reject;
        };
        self.search(ex, steps, pc, &mut search)
    }

    fn search(&mut self, ex: &Execution, steps: &[Step], pc: usize, s: &mut Search) -> Run {
        if self.budget == 0 {
            return Run::Exhausted;
        }
        self.budget -= 1;
        self.set_bounds(s);
        if s.prefix.len() < s.elems.len() {
            let saved = self.interval.replace(s.segment);
            let pruned = self.pruned(ex, steps, pc);
            self.interval = saved;
            if pruned {
                return Run::Reject;
            }
        } else {
            let saved = self.interval.take();
            let run = self.run(ex, steps, pc + 1);
            self.interval = saved;
            self.fired.truncate(s.fired_before);
            return run;
        }
        // The next element: one of the first group not ordered yet, all of
        // whose predecessors are placed. A counted search goes on after a
        // passing order; an existential one stops there.
        let g = s.current_group();
        let mut result = Run::Reject;
        for i in s.ranges[g].clone() {
            if s.placed & bit(i) != 0 || s.preds[i] & !s.placed != 0 {
                continue;
            }
            s.prefix.push(i);
            s.placed |= bit(i);
            let run = self.search(ex, steps, pc, s);
            s.placed &= !bit(i);
            s.prefix.pop();
            match run {
                Run::Exhausted => return Run::Exhausted,
                Run::Accept if !s.counted => return Run::Accept,
                Run::Accept => result = Run::Accept,
                Run::Reject => {}
            }
        }
        result
    }

    /// WITH over a family of relations: each member in turn, each passing
    /// one counted.
    fn choose_member(
        &mut self,
        ex: &Execution,
        steps: &[Step],
        pc: usize,
        with: u32,
        family: NodeId,
    ) -> Run {
        let members: Vec<Vec<u128>> = match &self.fam[family.index()] {
            Some(Fam::Rels(rs)) => rs.clone(),
            _ => Vec::new(),
        };
        let var = self
            .model
            .nodes
            .iter()
            .position(|n| n.op == Op::Var { with })
            .map(|i| NodeId(i as u32));
        let fired_before = self.fired.len();
        let mut result = Run::Reject;
        for m in members {
            if self.budget == 0 {
                return Run::Exhausted;
            }
            self.budget -= 1;
            if let Some(var) = var {
                let r = self.range_of(var);
                self.rel_lo[r.clone()].copy_from_slice(&m);
                self.rel_hi[r].copy_from_slice(&m);
            }
            let saved = self.interval.take();
            let run = self.run(ex, steps, pc + 1);
            self.interval = saved;
            self.fired.truncate(fired_before);
            match run {
                Run::Exhausted => return Run::Exhausted,
                Run::Accept => result = Run::Accept,
                Run::Reject => {}
            }
        }
        result
    }

    /// Sets the `with` variable to the bounds of the current prefix. On
    /// each group, the lower bound orders the group's placed elements as
    /// the prefix does and puts them before the group's other elements,
    /// which it orders as the closure of r does; the upper bound adds every
    /// pair among those others that r's closure does not exclude. Groups
    /// are never related to each other.
    fn set_bounds(&mut self, s: &Search) {
        let Some(var) = s.var else { return };
        let r = self.range_of(var);
        let lo = &mut self.rel_lo[r.clone()];
        let hi = &mut self.rel_hi[r];
        lo.fill(0);
        hi.fill(0);
        let mut placed = 0u128;
        let mut before = 0u128;
        let mut group = usize::MAX;
        for &i in &s.prefix {
            let g = s.group_of[i];
            if g != group {
                group = g;
                before = 0;
            }
            let e = s.elems[i];
            before |= bit(e);
            placed |= bit(e);
            lo[e] = s.group_events[g] & !before;
            hi[e] = lo[e];
        }
        let unplaced = rows::full(s.elems.len()) & !s.placed;
        for i in members(unplaced) {
            let e = s.elems[i];
            let rest = s.group_events[s.group_of[i]] & !placed;
            lo[e] = s.succ_events[i];
            hi[e] = rest & !bit(e) & !s.pred_events[i];
        }
    }
}

/// The state of one `with` search.
struct Search {
    /// The events to order, group by group.
    elems: Vec<usize>,
    /// The positions (in `elems`) of each group.
    ranges: Vec<std::ops::Range<usize>>,
    /// Per position, its group.
    group_of: Vec<usize>,
    /// Per group, its events.
    group_events: Vec<u128>,
    /// Per position, the positions that must come before it: r's closure
    /// within the group.
    preds: Vec<u128>,
    /// Per position, the events r's closure puts before it and after it.
    pred_events: Vec<u128>,
    succ_events: Vec<u128>,
    /// The order so far (positions in `elems`): whole groups, in order,
    /// then part of the current one.
    prefix: Vec<usize>,
    placed: u128,
    /// The variable's node, if the model uses it.
    var: Option<NodeId>,
    /// The segment of the nodes that depend on the choice.
    segment: u32,
    fired_before: usize,
    /// Every passing order counts (else the first one decides).
    counted: bool,
}

impl Search {
    /// The search over the orders of `groups` (groups of events) that
    /// contain `r` (the rows of a relation over events) restricted to each
    /// group; `None` when r is cyclic on some group, so that no order
    /// exists.
    fn new(
        groups: Vec<Vec<usize>>,
        r: &[u128],
        var: Option<NodeId>,
        segment: u32,
        fired_before: usize,
        counted: bool,
    ) -> Option<Search> {
        let mut elems = Vec::new();
        let mut ranges = Vec::new();
        let mut group_of = Vec::new();
        let mut group_events = Vec::new();
        for group in groups.into_iter().filter(|g| !g.is_empty()) {
            let g = ranges.len();
            ranges.push(elems.len()..elems.len() + group.len());
            group_events.push(group.iter().fold(0, |acc, &e| acc | bit(e)));
            group_of.extend(std::iter::repeat_n(g, group.len()));
            elems.extend(group);
        }
        // r restricted to each group, by position, then its closure (as
        // successor rows).
        let mut succ = vec![0u128; elems.len()];
        for range in &ranges {
            for i in range.clone() {
                for j in range.clone() {
                    if r[elems[i]] & bit(elems[j]) != 0 {
                        succ[i] |= bit(j);
                    }
                }
            }
        }
        rows::plus_in_place(&mut succ);
        if succ.iter().enumerate().any(|(i, row)| row & bit(i) != 0) {
            return None;
        }
        let mut preds = vec![0u128; elems.len()];
        let mut pred_events = vec![0u128; elems.len()];
        let mut succ_events = vec![0u128; elems.len()];
        for (i, row) in succ.iter().enumerate() {
            for j in members(*row) {
                preds[j] |= bit(i);
                pred_events[j] |= bit(elems[i]);
                succ_events[i] |= bit(elems[j]);
            }
        }
        Some(Search {
            elems,
            ranges,
            group_of,
            group_events,
            preds,
            pred_events,
            succ_events,
            prefix: Vec::new(),
            placed: 0,
            var,
            segment,
            fired_before,
            counted,
        })
    }

    /// The first group with an element not placed yet (the prefix is not
    /// complete).
    fn current_group(&self) -> usize {
        match self.prefix.last() {
            Some(&last) => {
                let g = self.group_of[last];
                let mask = rows::full(self.ranges[g].end) & !rows::full(self.ranges[g].start);
                if self.placed & mask == mask {
                    g + 1
                } else {
                    g
                }
            }
            None => 0,
        }
    }
}
