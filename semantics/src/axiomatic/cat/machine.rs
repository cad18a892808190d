//! The evaluator: runs a compiled model's schedule over one candidate
//! execution.
//!
//! Values live in an arena of `u128` rows reused from one execution to the
//! next (a relation over `n` events takes `n` rows, a set one word), so
//! judging an execution allocates nothing unless a flag fires.
//!
//! This file holds the machine's state and its entry points; `compute`
//! computes the nodes, `search` runs the schedule and searches the
//! choices of `with`.

use super::deps::{dependencies, Deps};
use super::model::{CatModel, CheckKind, Kind, NodeId};
use super::one_event::{one_event_view, OneEventView};
use super::rows::members;
use crate::axiomatic::execution::{EventId, Execution};
use crate::axiomatic::relation::Relation;
use crate::ir::Program;

/// A flag that fired on an accepted execution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fired {
    /// The flag's name.
    pub name: String,
    /// `flag` (its check held) or `undefined_unless` (its check failed).
    pub kind: CheckKind,
    /// The pairs of the flagged relation (for a set, each event with
    /// itself).
    pub pairs: Vec<(EventId, EventId)>,
}

/// An accepted execution: how many executions it stands for (its passing
/// choices of counted `with`s), how many of them fired a flag, and the
/// flags that fired on some of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accepted {
    pub count: u64,
    pub flagged: u64,
    pub fired: Vec<Fired>,
}

/// A value of a family node: a set of sets, of relations, or of families,
/// sorted and without duplicates (herd7's sets of values).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Fam {
    Sets(Vec<u128>),
    Rels(Vec<Vec<u128>>),
    Fams(Vec<Fam>),
}

/// What a model says of an execution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every check passed (for some choice of every `with`).
    Accepted(Accepted),
    /// The statement of the check that failed (the last one tried, when a
    /// `with` tried several choices); `None` when a `with` had no choice
    /// at all. [`CatModel::check_name`] names it.
    Rejected(Option<usize>),
    /// The search over `with` choices stopped at its budget.
    Undetermined,
    /// A `let rec` that is not monotone did not settle.
    Unsettled,
}

/// How a run of the schedule ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Run {
    Accept,
    Reject,
    Exhausted,
}

/// Which bound of an interval a computation produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Lower,
    Upper,
}

impl Bound {
    fn flip(self) -> Bound {
        match self {
            Bound::Lower => Bound::Upper,
            Bound::Upper => Bound::Lower,
        }
    }
}

/// The evaluator of one model, with its arena.
#[derive(Debug)]
pub struct Machine<'m> {
    model: &'m CatModel,
    /// Events of the current execution.
    n: usize,
    /// Per node: its set value (lower and upper bounds).
    set_lo: Vec<u128>,
    set_hi: Vec<u128>,
    /// Per relation node: its slot in the relation arenas.
    slot: Vec<u32>,
    rel_lo: Vec<u128>,
    rel_hi: Vec<u128>,
    tmp: Vec<u128>,
    /// The segment whose nodes carry intervals, while a `with` searches.
    interval: Option<u32>,
    /// Prefixes the current execution's `with` search may still visit.
    budget: u64,
    budget_per_execution: u64,
    fired: Vec<Fired>,
    failed: Option<usize>,
    deps: Option<Deps>,
    /// Per family node, its value.
    fam: Vec<Option<Fam>>,
    /// The passing choices so far, those that fired a flag, and the union
    /// of their fired flags.
    count: u64,
    flagged: u64,
    acc_fired: Vec<Fired>,
    /// The program's tag bit of each of the model's annotations, and the
    /// program they were looked up for.
    tag_bits: Vec<u64>,
    tags_of: usize,
    /// A `let rec` that is not monotone did not settle.
    diverged: bool,
    /// The `with` choices of the first accepted execution, for pictures.
    first_vars: Vec<(NodeId, Vec<u128>)>,
    /// The model judges C11 read-modify-writes as one event
    /// ([`CatModel::one_event_rmws`]), and the view of the execution last
    /// judged so, if it had one.
    one_event: bool,
    view: Option<OneEventView>,
}

/// What [`Machine::copy_into`] did to the unknown it updated.
#[derive(Clone, Copy, Debug, Default)]
struct Copied {
    /// Its value differs from the last one.
    changed: bool,
    /// Its value has a member the last one lacked.
    grew: bool,
}

impl<'m> Machine<'m> {
    /// An evaluator of `model` whose `with` searches visit at most
    /// `budget` prefixes per execution.
    pub fn new(model: &'m CatModel, budget: u64) -> Machine<'m> {
        let mut slot = vec![u32::MAX; model.nodes.len()];
        let mut rels = 0u32;
        for (i, node) in model.nodes.iter().enumerate() {
            if node.kind == Kind::Rel {
                slot[i] = rels;
                rels += 1;
            }
        }
        Machine {
            model,
            n: 0,
            set_lo: vec![0; model.nodes.len()],
            set_hi: vec![0; model.nodes.len()],
            slot,
            rel_lo: Vec::new(),
            rel_hi: Vec::new(),
            tmp: Vec::new(),
            interval: None,
            budget: budget.max(1),
            budget_per_execution: budget.max(1),
            fired: Vec::new(),
            failed: None,
            deps: None,
            fam: vec![None; model.nodes.len()],
            count: 0,
            flagged: 0,
            acc_fired: Vec::new(),
            tag_bits: vec![0; model.tags.len()],
            tags_of: usize::MAX,
            diverged: false,
            first_vars: Vec::new(),
            one_event: model.one_event_rmws(),
            view: None,
        }
    }

    /// Judges `ex`, an execution of `program` (the program the model
    /// judges: see [`crate::axiomatic::prepare_judge`]).
    pub fn judge(&mut self, program: &Program, ex: &Execution) -> Verdict {
        // herd7's C semantics makes a C11 read-modify-write one event; the
        // Linux kernel's are a read and a write in herd7 too (the view
        // joins the C11 ones alone).
        self.view = match self.one_event {
            true => one_event_view(program, ex, self.model.needs_deps),
            false => None,
        };
        let Some(view) = self.view.take() else {
            return self.judge_execution(program, ex);
        };
        let mut verdict = self.judge_execution(program, &view.exec);
        if let Verdict::Accepted(acc) = &mut verdict {
            for f in &mut acc.fired {
                for p in &mut f.pairs {
                    *p = view.back(p.0, p.1);
                }
            }
        }
        self.view = Some(view);
        verdict
    }

    fn judge_execution(&mut self, program: &Program, ex: &Execution) -> Verdict {
        self.start(program, ex);
        let model = self.model;
        let run = self.run(ex, &model.schedule.steps, 0);
        if self.diverged {
            return Verdict::Unsettled;
        }
        match run {
            Run::Accept => Verdict::Accepted(Accepted {
                count: self.count,
                flagged: self.flagged,
                fired: std::mem::take(&mut self.acc_fired),
            }),
            Run::Reject => Verdict::Rejected(self.failed),
            Run::Exhausted => Verdict::Undetermined,
        }
    }

    /// The shown relations of the execution last accepted by
    /// [`Machine::judge`] (a shown set as the identity on it).
    pub fn shown(&mut self, ex: &Execution) -> Vec<(String, Relation)> {
        let Some(view) = self.view.take() else {
            return self.shown_on(ex);
        };
        let shown = self
            .shown_on(&view.exec)
            .into_iter()
            .map(|(name, r)| (name, view.relation_back(&r, ex.len())))
            .collect();
        self.view = Some(view);
        shown
    }

    fn shown_on(&mut self, ex: &Execution) -> Vec<(String, Relation)> {
        let model = self.model;
        // The search went on past the first accepted choice: put its
        // choices back and compute everything again.
        if !self.first_vars.is_empty() {
            for (node, rows) in std::mem::take(&mut self.first_vars) {
                let r = self.range_of(node);
                self.rel_lo[r].copy_from_slice(&rows);
            }
            for step in &model.schedule.steps {
                self.exact_step(ex, step);
            }
        }
        for step in &model.schedule.show_steps {
            self.exact_step(ex, step);
        }
        model
            .shows
            .iter()
            .map(|(name, node)| {
                let mut r = Relation::new(self.n);
                match self.model.nodes[node.index()].kind {
                    Kind::Family => {}
                    Kind::Set => {
                        for e in members(self.set_lo[node.index()]) {
                            r.add_idx(e, e);
                        }
                    }
                    Kind::Rel => {
                        let rows = self.rows(*node, Bound::Lower);
                        for (a, row) in rows.iter().enumerate() {
                            for b in members(*row) {
                                r.add_idx(a, b);
                            }
                        }
                    }
                }
                (name.clone(), r)
            })
            .collect()
    }

    /// Sizes the arena for `ex` and forgets the previous execution.
    fn start(&mut self, program: &Program, ex: &Execution) {
        self.n = ex.len();
        let rels = self.slot.iter().filter(|s| **s != u32::MAX).count();
        let size = rels * self.n;
        if self.rel_lo.len() < size {
            self.rel_lo.resize(size, 0);
            self.rel_hi.resize(size, 0);
        }
        self.tmp.resize(self.n, 0);
        self.interval = None;
        self.budget = self.budget_per_execution;
        self.fired.clear();
        self.failed = None;
        self.count = 0;
        self.flagged = 0;
        self.diverged = false;
        self.first_vars.clear();
        self.acc_fired.clear();
        self.deps = (self.model.needs_deps && ex.deps.is_none()).then(|| dependencies(program, ex));
        let key = program as *const Program as usize;
        if self.tags_of != key {
            self.tags_of = key;
            for (i, name) in self.model.tags.iter().enumerate() {
                self.tag_bits[i] = program.c.as_ref().and_then(|c| c.tag(name)).unwrap_or(0);
            }
        }
    }

    fn range_of(&self, node: NodeId) -> std::ops::Range<usize> {
        let s = self.slot[node.index()] as usize * self.n;
        s..s + self.n
    }

    /// Does `node` carry an interval in the current search?
    fn varies(&self, node: NodeId) -> bool {
        self.interval == Some(self.model.schedule.segment[node.index()])
    }

    fn rows(&self, node: NodeId, bound: Bound) -> &[u128] {
        let r = self.range_of(node);
        if bound == Bound::Upper && self.varies(node) {
            &self.rel_hi[r]
        } else {
            &self.rel_lo[r]
        }
    }

    fn set(&self, node: NodeId, bound: Bound) -> u128 {
        if bound == Bound::Upper && self.varies(node) {
            self.set_hi[node.index()]
        } else {
            self.set_lo[node.index()]
        }
    }
}

mod compute;
mod search;

#[cfg(test)]
pub(crate) mod tests;
