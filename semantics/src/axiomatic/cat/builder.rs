//! Building a [`CatModel`]: the front end adds nodes one operation at a
//! time (interned, so that a definition used in many places is one
//! node), the `let rec` groups, the checks and the `with` choices in
//! program order; [`CatBuilder::finish`] orders the nodes into a schedule
//! (`super::schedule`) and decides whether the model reads the
//! dependency relations. (book: cat.md, What a cat file is)

use std::sync::Arc;

use super::model::{
    operands_of, Arch, CatModel, Check, Choice, Kind, MapDef, Node, NodeId, Op, RecGroup, RelPrim,
    SetPrim, Stmt,
};
use super::schedule::schedule;

/// Why a model cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// More `let rec` groups and `with`s than the schedule can track.
    TooManyScopes(usize),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::TooManyScopes(n) => write!(
                f,
                "the model has {n} `let rec` groups and `with` choices; at most {} are supported",
                super::schedule::MAX_SCOPES
            ),
        }
    }
}

impl std::error::Error for BuildError {}

/// Builds a [`CatModel`] node by node.
///
/// Invariant: a node's operands have smaller ids than the node, except
/// that a [`RecGroup`]'s bodies come after its variables.
#[derive(Debug, Default)]
pub struct CatBuilder {
    nodes: Vec<Node>,
    /// Each operation's node. Only looked up, never iterated: Fx hashing
    /// (no random seed) cannot change a model.
    interned: rustc_hash::FxHashMap<Op, NodeId>,
    groups: Vec<RecGroup>,
    stmts: Vec<Stmt>,
    withs: u32,
    maps: Vec<MapDef>,
    tags: Vec<String>,
    chooses_co: bool,
}

impl CatBuilder {
    pub fn new() -> CatBuilder {
        CatBuilder::default()
    }

    /// The node computing `op` (one node per distinct operation).
    pub fn node(&mut self, op: Op) -> NodeId {
        if let Some(&id) = self.interned.get(&op) {
            return id;
        }
        debug_assert!(
            op.operands().all(|o| o.index() < self.nodes.len()),
            "relaxlab internal error: operand of a cat node not built yet"
        );
        let id = NodeId(
            u32::try_from(self.nodes.len()).expect("relaxlab internal error: too many cat nodes"),
        );
        self.nodes.push(Node {
            op,
            kind: op.kind(),
        });
        self.interned.insert(op, id);
        id
    }

    /// What node `id` denotes.
    pub fn kind(&self, id: NodeId) -> Kind {
        self.nodes[id.index()].kind
    }

    /// The operation of node `id`.
    pub fn op(&self, id: NodeId) -> Op {
        self.nodes[id.index()].op
    }

    /// Opens a `let rec` group with unknowns of the given kinds; returns
    /// its number and the unknowns' nodes.
    pub fn open_group(&mut self, kinds: &[Kind]) -> (u32, Vec<NodeId>) {
        let group =
            u32::try_from(self.groups.len()).expect("relaxlab internal error: too many groups");
        let vars: Vec<NodeId> = kinds
            .iter()
            .enumerate()
            .map(|(i, &kind)| {
                self.node(Op::Rec {
                    group,
                    index: i as u32,
                    kind,
                })
            })
            .collect();
        self.groups.push(RecGroup {
            vars: vars.clone(),
            bodies: Vec::new(),
            monotone: true,
        });
        (group, vars)
    }

    /// Gives group `group` its equations, one per unknown.
    pub fn close_group(&mut self, group: u32, bodies: Vec<NodeId>, monotone: bool) {
        let g = &mut self.groups[group as usize];
        debug_assert_eq!(g.vars.len(), bodies.len());
        g.bodies = bodies;
        g.monotone = monotone;
    }

    /// A new `with` variable: its number and its node.
    pub fn with_var(&mut self) -> (u32, NodeId) {
        let with = self.withs;
        self.withs += 1;
        (with, self.node(Op::Var { with }))
    }

    pub fn check(&mut self, check: Check) {
        self.stmts.push(Stmt::Check(check));
    }

    pub fn with(&mut self, with: u32, from: Choice) {
        self.stmts.push(Stmt::With { with, from });
    }

    /// Records that the model chooses `co` itself (see
    /// [`CatModel::chooses_co`]).
    pub fn set_chooses_co(&mut self) {
        self.chooses_co = true;
    }

    /// The node of annotation `name`'s event set.
    pub fn tag_set(&mut self, name: &str) -> NodeId {
        let i = match self.tags.iter().position(|t| t == name) {
            Some(i) => i,
            None => {
                self.tags.push(name.to_string());
                self.tags.len() - 1
            }
        };
        self.node(Op::Set(SetPrim::Tag(i as u32)))
    }

    /// A new map's parameter node, for its body to be built on; then
    /// [`CatBuilder::map`].
    pub fn map_param(&mut self, kind: Kind) -> NodeId {
        let map = self.maps.len() as u32;
        self.maps.push(MapDef {
            source: NodeId(0),
            param: NodeId(0),
            body: NodeId(0),
            steps: Vec::new(),
            inputs: Vec::new(),
        });
        let param = self.node(Op::Param { map, kind });
        self.maps[map as usize].param = param;
        param
    }

    /// The family of `body` (built on `param`, from
    /// [`CatBuilder::map_param`]) over the elements of `source`.
    pub fn map(&mut self, param: NodeId, source: NodeId, body: NodeId) -> NodeId {
        let Op::Param { map, .. } = self.op(param) else {
            panic!("relaxlab internal error: map over a non-parameter")
        };
        // The nodes between the parameter and the body, in id (hence
        // dependency) order, and the others the body needs.
        let n = self.nodes.len();
        let mut needed = vec![false; n];
        let mut depends = vec![false; n];
        needed[body.index()] = true;
        for i in (0..=body.index()).rev() {
            if needed[i] {
                for o in operands_of(&self.nodes[i].op, &self.maps) {
                    needed[o.index()] = true;
                }
            }
        }
        for i in 0..=body.index() {
            depends[i] = i == param.index()
                || operands_of(&self.nodes[i].op, &self.maps)
                    .iter()
                    .any(|o| depends[o.index()]);
        }
        let steps: Vec<NodeId> = (0..=body.index())
            .filter(|&i| needed[i] && depends[i] && i != param.index())
            .map(|i| NodeId(i as u32))
            .collect();
        let mut inputs: Vec<NodeId> = Vec::new();
        for s in &steps {
            for o in operands_of(&self.nodes[s.index()].op, &self.maps) {
                if !depends[o.index()] && !inputs.contains(&o) {
                    inputs.push(o);
                }
            }
        }
        if !depends[body.index()] && body != param && !inputs.contains(&body) {
            inputs.push(body);
        }
        self.maps[map as usize] = MapDef {
            source,
            param,
            body,
            steps,
            inputs,
        };
        self.node(Op::Map(map))
    }

    /// The model, its schedule built.
    pub fn finish(
        self,
        name: String,
        arch: Arch,
        shows: Vec<(String, NodeId)>,
    ) -> Result<Arc<CatModel>, BuildError> {
        let schedule = schedule(&self.nodes, &self.groups, &self.maps, &self.stmts, &shows)?;
        let needs_deps = self.nodes.iter().any(|n| {
            matches!(
                n.op,
                Op::Rel(RelPrim::Data) | Op::Rel(RelPrim::Ctrl) | Op::Rel(RelPrim::Addr)
            )
        });
        let mut model = CatModel {
            name,
            arch,
            nodes: self.nodes,
            groups: self.groups,
            stmts: self.stmts,
            shows,
            schedule,
            needs_deps,
            maps: self.maps,
            tags: self.tags,
            chooses_co: self.chooses_co,
        };
        // A model that never reads the candidate's `co` has its executions
        // made of `rf` and the final writes alone, as herd7 makes them for
        // every model (it enumerates no coherence order of its own): the
        // orders the model generates (c11_cos.cat's `with mo from
        // generate_orders(...)`) are then all the coherence it has, each
        // counted once (book: cat.md, Coherence chosen by the model).
        if !model.uses_candidate_co() {
            model.chooses_co = true;
        }
        Ok(Arc::new(model))
    }
}
