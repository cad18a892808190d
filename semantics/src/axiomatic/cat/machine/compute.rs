//! Computing the nodes of the relation program on one execution: a
//! node's value on one bound of its interval from its operands', the
//! families, and the `let rec` groups iterated from empty until a round
//! adds nothing.
//!
//! Families (herd7's sets of sets: `map f X` over an execution's set or
//! relation X, `classes-loc(S)`, `cross(F)`) are computed exactly: a map
//! binds its parameter to each element in turn and computes the nodes
//! between the parameter and its body.
//!
//! book: cat.md, Speed

use super::super::model::{Kind, NodeId, Op};
use super::super::prims;
use super::super::rows::{self, bit, full, members};
use super::super::schedule::Step;
use super::{Bound, Copied, Fam, Machine};
use crate::axiomatic::execution::Execution;
use crate::ir::Value;

impl Machine<'_> {
    /// Computes `node`'s `bound` from its operands' bounds.
    pub(super) fn compute(&mut self, ex: &Execution, node: NodeId, bound: Bound) {
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
    pub(super) fn exact_step(&mut self, ex: &Execution, step: &Step) {
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
    pub(super) fn fix(&mut self, ex: &Execution, group: u32, body: &[Step], bounds: &[Bound]) {
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
