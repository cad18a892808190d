//! The evaluator: runs a compiled model's schedule over one candidate
//! execution.
//!
//! Values live in an arena of `u128` rows reused from one execution to the
//! next (a relation over `n` events takes `n` rows, a set one word), so
//! judging an execution allocates nothing unless a flag fires.
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
//! Families (herd7's sets of sets: `map f X` over an execution's set or
//! relation X, `classes-loc(S)`, `cross(F)`) are computed exactly: a map
//! binds its parameter to each element in turn and computes the nodes
//! between the parameter and its body.
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

use super::deps::{dependencies, Deps};
use super::model::{CatModel, Check, CheckKind, Choice, Kind, NodeId, Op, Stmt, Test};
use super::one_event::{one_event_view, OneEventView};
use super::prims;
use super::rows::{self, bit, full, members};
use super::schedule::Step;
use crate::axiomatic::execution::{EventId, Execution};
use crate::axiomatic::relation::Relation;
use crate::ir::Program;
use crate::ir::Value;

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

    /// Computes `node`'s `bound` from its operands' bounds.
    fn compute(&mut self, ex: &Execution, node: NodeId, bound: Bound) {
        let op = self.model.nodes[node.index()].op;
        let n = self.n;
        if op.kind() == Kind::Family {
            // Families are computed exactly (never while a `with` searches:
            // the search stops bounding at them).
            self.compute_family(ex, node, op);
            return;
        }
        if op.kind() == Kind::Set {
            let v = match op {
                Op::Set(p) => prims::set(ex, p, &self.tag_bits),
                Op::Param { .. } => return,
                Op::EmptySet => 0,
                Op::SetUnion(a, b) => self.set(a, bound) | self.set(b, bound),
                Op::SetInter(a, b) => self.set(a, bound) & self.set(b, bound),
                Op::SetDiff(a, b) => self.set(a, bound) & !self.set(b, bound.flip()),
                Op::SetCompl(a) => full(n) & !self.set(a, bound.flip()),
                Op::Domain(a) => rows::domain(self.rows(a, bound)),
                Op::Range(a) => rows::range(self.rows(a, bound)),
                // Set by their loop.
                Op::Rec { .. } => return,
                _ => unreachable!("relaxlab internal error: relation op in a set node"),
            };
            match bound {
                Bound::Lower => self.set_lo[node.index()] = v,
                Bound::Upper => self.set_hi[node.index()] = v,
            }
            return;
        }
        let mut tmp = std::mem::take(&mut self.tmp);
        match op {
            Op::Rel(p) => prims::relation(ex, p, self.deps.as_ref(), &mut tmp),
            Op::EmptyRel => tmp.fill(0),
            Op::Union(a, b) | Op::Inter(a, b) | Op::Diff(a, b) => {
                let (ra, rb) = match op {
                    Op::Diff(..) => (self.rows(a, bound), self.rows(b, bound.flip())),
                    _ => (self.rows(a, bound), self.rows(b, bound)),
                };
                for (i, t) in tmp.iter_mut().enumerate() {
                    *t = match op {
                        Op::Union(..) => ra[i] | rb[i],
                        Op::Inter(..) => ra[i] & rb[i],
                        _ => ra[i] & !rb[i],
                    };
                }
            }
            Op::Compl(a) => {
                let ra = self.rows(a, bound.flip());
                for (t, r) in tmp.iter_mut().zip(ra) {
                    *t = full(n) & !r;
                }
            }
            Op::Seq(a, b) => rows::seq(&mut tmp, self.rows(a, bound), self.rows(b, bound)),
            Op::Inverse(a) => rows::inverse(&mut tmp, self.rows(a, bound)),
            Op::Plus(a) | Op::Star(a) | Op::Opt(a) => {
                tmp.copy_from_slice(self.rows(a, bound));
                if !matches!(op, Op::Opt(_)) {
                    rows::plus_in_place(&mut tmp);
                }
                if !matches!(op, Op::Plus(_)) {
                    rows::add_identity(&mut tmp);
                }
            }
            Op::IdOn(s) => rows::id_on(&mut tmp, self.set(s, bound)),
            Op::Cartesian(s, t) => {
                rows::cartesian(&mut tmp, self.set(s, bound), self.set(t, bound))
            }
            Op::DifferentValues(a) => {
                let ra = self.rows(a, bound);
                let value = |e: usize| ex.events[e].value();
                for (i, t) in tmp.iter_mut().enumerate() {
                    *t = members(ra[i])
                        .filter(|&j| {
                            let (x, y): (Option<Value>, Option<Value>) = (value(i), value(j));
                            !(x.is_some() && x == y)
                        })
                        .fold(0, |acc, j| acc | bit(j));
                }
            }
            Op::Rec { .. } | Op::Var { .. } | Op::Param { .. } => {
                self.tmp = tmp;
                return;
            }
            _ => unreachable!("relaxlab internal error: set op in a relation node"),
        }
        let r = self.range_of(node);
        match bound {
            Bound::Lower => self.rel_lo[r].copy_from_slice(&tmp),
            Bound::Upper => self.rel_hi[r].copy_from_slice(&tmp),
        }
        self.tmp = tmp;
    }

    /// The value of a family node (see the module docs).
    fn compute_family(&mut self, ex: &Execution, node: NodeId, op: Op) {
        let v = match op {
            Op::ClassesLoc(s) => {
                let set = self.set(s, Bound::Lower);
                let mut by_loc: Vec<(crate::ir::LocId, u128)> = Vec::new();
                for e in members(set) {
                    let Some(l) = ex.events[e].location() else {
                        continue;
                    };
                    match by_loc.iter_mut().find(|(x, _)| *x == l) {
                        Some((_, g)) => *g |= bit(e),
                        None => by_loc.push((l, bit(e))),
                    }
                }
                by_loc.sort_by_key(|(l, _)| *l);
                let mut sets: Vec<u128> = by_loc.into_iter().map(|(_, g)| g).collect();
                sets.sort_unstable();
                sets.dedup();
                Fam::Sets(sets)
            }
            Op::Cross(f) => {
                let inner = self.fam[f.index()].clone();
                Fam::Rels(cross(self.n, inner))
            }
            Op::Map(m) => self.eval_map(ex, m),
            _ => unreachable!("relaxlab internal error: not a family"),
        };
        self.fam[node.index()] = Some(v);
    }

    /// `map f X`: the body's value for each element of X (sorted, without
    /// duplicates).
    fn eval_map(&mut self, ex: &Execution, m: u32) -> Fam {
        let model = self.model;
        let def = &model.maps[m as usize];
        let param_kind = model.nodes[def.param.index()].kind;
        let body_kind = model.nodes[def.body.index()].kind;
        let elements: Vec<(usize, usize)> = match param_kind {
            Kind::Set => members(self.set(def.source, Bound::Lower))
                .map(|e| (e, e))
                .collect(),
            _ => self
                .rows(def.source, Bound::Lower)
                .iter()
                .enumerate()
                .flat_map(|(a, row)| members(*row).map(move |b| (a, b)))
                .collect(),
        };
        let mut sets = Vec::new();
        let mut rels = Vec::new();
        let mut fams = Vec::new();
        for (a, b) in elements {
            match param_kind {
                Kind::Set => self.set_lo[def.param.index()] = bit(a),
                _ => {
                    let r = self.range_of(def.param);
                    self.rel_lo[r.clone()].fill(0);
                    self.rel_lo[r.start + a] = bit(b);
                }
            }
            for &step in &def.steps {
                self.compute(ex, step, Bound::Lower);
            }
            match body_kind {
                Kind::Set => sets.push(self.set(def.body, Bound::Lower)),
                Kind::Rel => rels.push(self.rows(def.body, Bound::Lower).to_vec()),
                Kind::Family => fams.push(
                    self.fam[def.body.index()]
                        .clone()
                        .unwrap_or(Fam::Sets(Vec::new())),
                ),
            }
        }
        match body_kind {
            Kind::Set => {
                sets.sort_unstable();
                sets.dedup();
                Fam::Sets(sets)
            }
            Kind::Rel => {
                rels.sort();
                rels.dedup();
                Fam::Rels(rels)
            }
            Kind::Family => {
                fams.sort();
                fams.dedup();
                Fam::Fams(fams)
            }
        }
    }

    /// Runs one step that is not a `with` or a check, exactly.
    fn exact_step(&mut self, ex: &Execution, step: &Step) {
        match step {
            Step::Eval(node) => self.compute(ex, *node, Bound::Lower),
            Step::Fix { group, body } => self.fix(ex, *group, body, &[Bound::Lower]),
            Step::Check(_) | Step::With { .. } => {}
        }
    }

    /// LEAST FIXED POINT of a `let rec` group: unknowns start empty; the
    /// body runs until the equations give back the unknowns. Monotone
    /// equations only add pairs, so the loop ends at the least fixed
    /// point. Equations that are not monotone are iterated as herd7
    /// iterates them: each equation in turn, until a round adds nothing
    /// (every unknown's new value is included in its last one), whose
    /// values are kept, a fixed point or not (`let rec x = po \ x` gives
    /// `x` = ∅ after two rounds, as in herd7); the front end warns
    /// about such a group (book: cat.md, Recursive definitions).
    fn fix(&mut self, ex: &Execution, group: u32, body: &[Step], bounds: &[Bound]) {
        let model = self.model;
        let g = &model.groups[group as usize];
        for &v in &g.vars {
            for &b in bounds {
                self.store_empty(v, b);
            }
        }
        // Monotone equations only grow, so they stop; others (herd7
        // iterates them too) get as many rounds as a growing iteration
        // could take, then the execution is left undecided: herd7 would
        // not end.
        let mut rounds = if g.monotone {
            u64::MAX
        } else {
            (g.vars.len() as u64) * (self.n as u64 + 1) * (self.n as u64 + 1) + 2
        };
        loop {
            rounds = match rounds.checked_sub(1) {
                Some(r) => r,
                None => {
                    self.diverged = true;
                    return;
                }
            };
            let mut changed = false;
            if g.monotone {
                // Every equation on the last values, then all unknowns
                // at once: for monotone equations any order of updates
                // reaches the same least fixed point.
                self.fix_body(ex, body, bounds);
                for (&v, &eq) in g.vars.iter().zip(&g.bodies) {
                    for &b in bounds {
                        changed |= self.copy_into(v, eq, b).changed;
                    }
                }
            } else {
                // herd7's order (its `fix_step`): each equation in turn,
                // its unknown updated before the next equation is read.
                // herd7's test of a stable round (its `stabilised`): no
                // unknown gained a pair or an event.
                for (&v, &eq) in g.vars.iter().zip(&g.bodies) {
                    self.fix_body(ex, body, bounds);
                    for &b in bounds {
                        changed |= self.copy_into(v, eq, b).grew;
                    }
                }
            }
            if !changed {
                return;
            }
        }
    }

    /// One pass over the steps of a `let rec` group's body.
    fn fix_body(&mut self, ex: &Execution, body: &[Step], bounds: &[Bound]) {
        for step in body {
            match step {
                Step::Eval(node) => {
                    for &b in bounds {
                        self.compute(ex, *node, b);
                    }
                }
                Step::Fix { group, body } => self.fix(ex, *group, body, bounds),
                Step::Check(_) | Step::With { .. } => {}
            }
        }
    }

    fn store_empty(&mut self, node: NodeId, bound: Bound) {
        match self.model.nodes[node.index()].kind {
            Kind::Family => self.fam[node.index()] = None,
            Kind::Set => match bound {
                Bound::Lower => self.set_lo[node.index()] = 0,
                Bound::Upper => self.set_hi[node.index()] = 0,
            },
            Kind::Rel => {
                let r = self.range_of(node);
                match bound {
                    Bound::Lower => self.rel_lo[r].fill(0),
                    Bound::Upper => self.rel_hi[r].fill(0),
                }
            }
        }
    }

    /// Copies `from`'s bound into `to`: did `to` change, did it gain?
    fn copy_into(&mut self, to: NodeId, from: NodeId, bound: Bound) -> Copied {
        match self.model.nodes[to.index()].kind {
            Kind::Family => Copied::default(),
            Kind::Set => {
                let v = self.set(from, bound);
                let slot = match bound {
                    Bound::Lower => &mut self.set_lo[to.index()],
                    Bound::Upper => &mut self.set_hi[to.index()],
                };
                let copied = Copied {
                    changed: *slot != v,
                    grew: v & !*slot != 0,
                };
                *slot = v;
                copied
            }
            Kind::Rel => {
                let mut tmp = std::mem::take(&mut self.tmp);
                tmp.copy_from_slice(self.rows(from, bound));
                let r = self.range_of(to);
                let dst = match bound {
                    Bound::Lower => &mut self.rel_lo[r],
                    Bound::Upper => &mut self.rel_hi[r],
                };
                let copied = Copied {
                    changed: *dst != tmp[..],
                    grew: dst.iter().zip(tmp.iter()).any(|(old, new)| new & !old != 0),
                };
                dst.copy_from_slice(&tmp);
                self.tmp = tmp;
                copied
            }
        }
    }

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
    fn run(&mut self, ex: &Execution, steps: &[Step], mut pc: usize) -> Run {
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

/// herd7's `cross`: for a family of families of relations, every union
/// of one member of each (none when some family is empty; the empty
/// relation alone for no family), sorted and without duplicates.
fn cross(n: usize, inner: Option<Fam>) -> Vec<Vec<u128>> {
    let families: Vec<Vec<Vec<u128>>> = match inner {
        Some(Fam::Fams(fs)) => fs
            .into_iter()
            .map(|f| match f {
                Fam::Rels(rs) => rs,
                Fam::Sets(ss) => ss
                    .into_iter()
                    .map(|s| {
                        let mut r = vec![0u128; n];
                        rows::id_on(&mut r, s);
                        r
                    })
                    .collect(),
                Fam::Fams(_) => Vec::new(),
            })
            .collect(),
        _ => Vec::new(),
    };
    let mut acc: Vec<Vec<u128>> = vec![vec![0u128; n]];
    for f in &families {
        let mut next = Vec::with_capacity(acc.len() * f.len());
        for a in &acc {
            for r in f {
                next.push(a.iter().zip(r).map(|(x, y)| x | y).collect());
            }
        }
        acc = next;
    }
    acc.sort();
    acc.dedup();
    acc
}

#[cfg(test)]
pub(crate) mod tests;
