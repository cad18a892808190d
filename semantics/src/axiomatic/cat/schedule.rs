//! The evaluation order of a compiled model.
//!
//! Nodes are computed on demand: walking the statements in program order,
//! each check pulls in the nodes it needs that no earlier check needed, so
//! an execution rejected by the first check computes nothing the later
//! checks alone use. Two kinds of scope shape the order:
//!
//! - A `let rec` group is a [`Step::Fix`] whose body computes the nodes
//!   that depend on the group's unknowns and that its equations need;
//!   nodes that do not depend on them are computed once, before the loop.
//! - A `with` splits the schedule into segments: segment `k + 1` holds what
//!   depends on the choice of `with` number `k`, and is run once per
//!   choice. Anything that does not depend on a choice is hoisted to the
//!   earliest segment where its inputs exist, checks included (a check
//!   that does not depend on a choice fails for every choice or for none),
//!   so the segment after a `with` holds only what depends on it: the
//!   evaluator bounds exactly those nodes while it searches the choices.

use super::builder::BuildError;
use super::model::{operands_of, Choice, MapDef, Node, NodeId, Op, RecGroup, Stmt};

/// The most `let rec` groups a model may have (dependency masks are u128).
pub const MAX_SCOPES: usize = 128;

/// One step of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Compute a node from its operands.
    Eval(NodeId),
    /// Compute `let rec` group `group`: unknowns start empty; run `body`,
    /// copy the equations' values into the unknowns, repeat until nothing
    /// changes.
    Fix { group: u32, body: Vec<Step> },
    /// Run check `stmt` (an index into the model's statements).
    Check(usize),
    /// Choose `with` number `with`; the rest of the schedule runs once per
    /// choice.
    With { with: u32, choice: Choice },
}

/// The schedule of a model.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Schedule {
    pub steps: Vec<Step>,
    /// Per node, its segment: 0 when it depends on no `with`, `k + 1` when
    /// the latest `with` it depends on is number `k`.
    pub segment: Vec<u32>,
    /// The steps computing the shown nodes the checks do not need; run
    /// after an execution is accepted, when pictures are asked for.
    pub show_steps: Vec<Step>,
}

/// Builds the schedule (see the module docs).
pub(crate) fn schedule(
    nodes: &[Node],
    groups: &[RecGroup],
    maps: &[MapDef],
    stmts: &[Stmt],
    shows: &[(String, NodeId)],
) -> Result<Schedule, BuildError> {
    if groups.len() > MAX_SCOPES {
        return Err(BuildError::TooManyScopes(groups.len()));
    }
    let (rec, segment) = dependencies(nodes, groups, maps);
    let segments = 1 + stmts
        .iter()
        .filter(|s| matches!(s, Stmt::With { .. }))
        .count();
    let mut em = Emitter {
        nodes,
        groups,
        maps,
        rec: &rec,
        segment: &segment,
        emitted: vec![false; nodes.len()],
        group_done: vec![false; groups.len()],
        active: Vec::new(),
        loop_lists: Vec::new(),
        seg_lists: vec![Vec::new(); segments.max(segment_count(&segment))],
    };
    for (i, stmt) in stmts.iter().enumerate() {
        match stmt {
            Stmt::Check(c) => {
                em.emit(c.node);
                let seg = segment[c.node.index()] as usize;
                em.seg_lists[seg].push(Step::Check(i));
            }
            Stmt::With { from, .. } => {
                for o in from.operands() {
                    em.emit(o);
                }
            }
        }
    }
    let mut steps = Vec::new();
    let mut withs = stmts.iter().filter_map(|s| match s {
        Stmt::With { with, from } => Some((*with, *from)),
        Stmt::Check(_) => None,
    });
    let main = std::mem::take(&mut em.seg_lists);
    for (k, list) in main.into_iter().enumerate() {
        if k > 0 {
            if let Some((with, choice)) = withs.next() {
                steps.push(Step::With { with, choice });
            }
        }
        steps.extend(list);
    }
    em.seg_lists = vec![Vec::new(); segments.max(segment_count(&segment))];
    for (_, node) in shows {
        em.emit(*node);
    }
    let show_steps = em.seg_lists.into_iter().flatten().collect();
    Ok(Schedule {
        steps,
        segment,
        show_steps,
    })
}

fn segment_count(segment: &[u32]) -> usize {
    segment.iter().copied().max().unwrap_or(0) as usize + 1
}

/// Per node: the `let rec` groups it depends on (a mask), and its segment.
/// The value of a group's unknown depends on the group and on whatever its
/// equations depend on, so this is a fixed point (equations come after
/// their unknowns).
fn dependencies(nodes: &[Node], groups: &[RecGroup], maps: &[MapDef]) -> (Vec<u128>, Vec<u32>) {
    let mut rec = vec![0u128; nodes.len()];
    let mut seg = vec![0u32; nodes.len()];
    loop {
        let mut changed = false;
        for (i, node) in nodes.iter().enumerate() {
            let (mut r, mut s) = (0u128, 0u32);
            match node.op {
                Op::Rec { group, .. } => {
                    r |= 1u128 << group;
                    for b in &groups[group as usize].bodies {
                        r |= rec[b.index()];
                        s = s.max(seg[b.index()]);
                    }
                }
                Op::Var { with } => s = with + 1,
                op => {
                    for o in operands_of(&op, maps) {
                        r |= rec[o.index()];
                        s = s.max(seg[o.index()]);
                    }
                }
            }
            if r != rec[i] || s != seg[i] {
                rec[i] |= r;
                seg[i] = seg[i].max(s);
                changed = true;
            }
        }
        if !changed {
            return (rec, seg);
        }
    }
}

struct Emitter<'a> {
    nodes: &'a [Node],
    groups: &'a [RecGroup],
    maps: &'a [MapDef],
    rec: &'a [u128],
    segment: &'a [u32],
    emitted: Vec<bool>,
    group_done: Vec<bool>,
    /// The groups whose loops are being built, innermost last.
    active: Vec<u32>,
    /// The body of each active loop.
    loop_lists: Vec<Vec<Step>>,
    /// The steps of each segment.
    seg_lists: Vec<Vec<Step>>,
}

/// What the emitter has left to do (its stack replaces recursion, so a
/// model of any depth is scheduled without exhausting the stack).
enum Task {
    /// Emit a node: its operands first.
    Node(NodeId),
    /// Place a node whose operands are emitted.
    Place(NodeId),
    /// Close the loop of a group whose equations are emitted.
    EndGroup(u32),
}

impl Emitter<'_> {
    /// Emits the steps computing `root`, if not done yet.
    fn emit(&mut self, root: NodeId) {
        let mut todo = vec![Task::Node(root)];
        while let Some(task) = todo.pop() {
            match task {
                Task::Node(n) => {
                    if self.emitted[n.index()] {
                        continue;
                    }
                    match self.nodes[n.index()].op {
                        // An unknown of an active loop is that loop's
                        // variable; otherwise its loop is emitted.
                        Op::Rec { group, .. } => {
                            if !self.active.contains(&group) && !self.group_done[group as usize] {
                                self.active.push(group);
                                self.loop_lists.push(Vec::new());
                                todo.push(Task::EndGroup(group));
                                for b in self.groups[group as usize].bodies.iter().rev() {
                                    todo.push(Task::Node(*b));
                                }
                            }
                        }
                        // Set by its `with` step, or by its map.
                        Op::Var { .. } | Op::Param { .. } => {}
                        op => {
                            todo.push(Task::Place(n));
                            let operands: Vec<NodeId> = operands_of(&op, self.maps);
                            for o in operands.into_iter().rev() {
                                todo.push(Task::Node(o));
                            }
                        }
                    }
                }
                Task::Place(n) => {
                    if self.emitted[n.index()] {
                        continue;
                    }
                    self.emitted[n.index()] = true;
                    let scope = self.innermost(self.rec[n.index()]);
                    self.place(Step::Eval(n), scope, self.segment[n.index()]);
                }
                Task::EndGroup(g) => self.end_group(g),
            }
        }
    }

    /// The innermost active loop among the groups of `mask`.
    fn innermost(&self, mask: u128) -> Option<usize> {
        self.active.iter().rposition(|&g| mask & (1u128 << g) != 0)
    }

    fn place(&mut self, step: Step, scope: Option<usize>, segment: u32) {
        match scope {
            Some(i) => self.loop_lists[i].push(step),
            None => self.seg_lists[segment as usize].push(step),
        }
    }

    /// Closes the loop of group `g` (its equations emitted) and places it
    /// inside the innermost active loop its equations depend on, else in
    /// its segment.
    fn end_group(&mut self, g: u32) {
        let group = &self.groups[g as usize];
        let first = group.vars[0];
        let outer = self.rec[first.index()] & !(1u128 << g);
        let body = self.loop_lists.pop().unwrap_or_default();
        self.active.pop();
        self.group_done[g as usize] = true;
        for v in &group.vars {
            self.emitted[v.index()] = true;
        }
        let scope = self.innermost(outer);
        self.place(
            Step::Fix { group: g, body },
            scope,
            self.segment[first.index()],
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::builder::CatBuilder;
    use super::super::model::{Check, CheckKind, Kind, Op, RelPrim, Test};
    use super::*;

    fn check(node: NodeId) -> Check {
        Check {
            kind: CheckKind::Check,
            test: Test::Acyclic,
            negated: false,
            node,
            name: "t".into(),
        }
    }

    #[test]
    fn fixpoint_body_holds_only_what_depends_on_the_unknown() {
        let mut b = CatBuilder::new();
        let po = b.node(Op::Rel(RelPrim::Po));
        let rf = b.node(Op::Rel(RelPrim::Rf));
        let base = b.node(Op::Union(po, rf));
        let (g, vars) = b.open_group(&[Kind::Rel]);
        let seq = b.node(Op::Seq(vars[0], vars[0]));
        let body = b.node(Op::Union(base, seq));
        b.close_group(g, vec![body], true);
        b.check(check(vars[0]));
        let m = b
            .finish("t".into(), super::super::model::Arch::C, vec![])
            .unwrap();
        assert_eq!(
            m.schedule.steps,
            vec![
                Step::Eval(po),
                Step::Eval(rf),
                Step::Eval(base),
                Step::Fix {
                    group: 0,
                    body: vec![Step::Eval(seq), Step::Eval(body)]
                },
                Step::Check(0),
            ]
        );
    }

    #[test]
    fn with_segments_hoist_what_does_not_depend_on_the_choice() {
        let mut b = CatBuilder::new();
        let all = b.node(Op::Set(super::super::model::SetPrim::All));
        let po = b.node(Op::Rel(RelPrim::Po));
        let (w, var) = b.with_var();
        b.with(w, Choice::Linearisations { set: all, rel: po });
        let rf = b.node(Op::Rel(RelPrim::Rf));
        let mixed = b.node(Op::Union(var, rf));
        b.check(check(mixed));
        b.check(check(rf));
        let m = b
            .finish("t".into(), super::super::model::Arch::C, vec![])
            .unwrap();
        assert_eq!(
            m.schedule.steps,
            vec![
                Step::Eval(all),
                Step::Eval(po),
                Step::Eval(rf),
                Step::Check(2),
                Step::With {
                    with: 0,
                    choice: Choice::Linearisations { set: all, rel: po }
                },
                Step::Eval(mixed),
                Step::Check(1),
            ]
        );
    }
}
