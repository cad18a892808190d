//! A compiled cat model: the relation program the evaluator runs over each
//! candidate execution.
//!
//! herd7's cat language (Alglave, Maranget and Tautschnig, "Herding cats",
//! TOPLAS 2014; the herd7 manual, "Model definitions") describes a model
//! as definitions of event sets and relations and checks on them. The
//! front end (`relaxlab-grammar`, `cat` module) resolves names, includes,
//! functions and procedures statically and hands over what remains: a DAG
//! of set and relation operations over the primitives of a candidate
//! execution ([`Node`]), least fixed points of `let rec` groups
//! ([`RecGroup`]), the checks in program order and the `with` choices
//! ([`Stmt`]), and the relations `show` names for pictures. Nodes are
//! interned, so a definition used in many places (`hb` in RC11) is
//! computed once per execution.
//!
//! [`super::CatBuilder::finish`] (`super::builder`) orders the nodes into a schedule
//! (`super::schedule`) that computes each node the first time a check
//! needs it.

use super::schedule::Schedule;
use crate::axiomatic::execution::{LockOp, Mode};
use crate::ir::HwFence;
use crate::mapping::Target;

/// A node of the relation program: an index into [`CatModel`]'s nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The machine a model describes, from the first word of its title line
/// (herd7's "architecture specification"): it decides how the program is
/// compiled before the model sees it (book: mapping.md) and which event tags
/// exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arch {
    /// `C` (and a title without a known architecture): the program as
    /// written, accesses and fences tagged with their C11 orders.
    C,
    /// `SC`, `TSO`/`X86`, `PSO`/`PSLO`: the program compiled for the
    /// hardware family; every access is a plain access and fences are
    /// hardware barriers.
    Hardware(Target),
}

impl Arch {
    /// The architecture a title word names, if any.
    pub fn from_title(word: &str) -> Option<Arch> {
        Some(match word {
            "C" => Arch::C,
            "SC" => Arch::Hardware(Target::Sc),
            "TSO" | "X86" | "X86_64" => Arch::Hardware(Target::Tso),
            "PSO" | "PSLO" => Arch::Hardware(Target::Pso),
            _ => return None,
        })
    }

    /// The compilation target of the program the model judges.
    pub fn target(self) -> Option<Target> {
        match self {
            Arch::C => None,
            Arch::Hardware(t) => Some(t),
        }
    }
}

/// Event sets a candidate execution provides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetPrim {
    /// `_`: every event.
    All,
    /// `R`: reads, the read halves of RMWs and failed CAS included.
    Reads,
    /// `W`: writes, init writes included.
    Writes,
    /// `M`: reads and writes.
    Memory,
    /// `F`: fences.
    Fences,
    /// `IW`: the init writes.
    Init,
    /// `FW`: the last write of each location in `co`.
    Final,
    /// `B`: branch events. The IR has none: always empty.
    Branches,
    /// `RMW`: both halves of every successful RMW or CAS.
    Rmw,
    /// `X`: the events of locked instructions (RMW halves, failed CAS
    /// reads).
    Locked,
    /// `FORK`, `JOIN`: fork and join events.
    Fork,
    Join,
    /// `NA`, `RLX`, `ACQ`, `REL`, `ACQ_REL`, `SC` (C only): accesses and
    /// fences with that order; `NA` holds accesses only.
    Mode(Mode),
    /// `A` (C only): atomic accesses (every order but `NA`).
    Atomic,
    /// `SS`, `SL`, `LL`, `LS`, `FULL` and herd's `MFENCE` (= `FULL`),
    /// `SFENCE` (= `SS`), `LFENCE` (= `LL`) (hardware only). `FULL` also
    /// holds fork and join events, which act as full barriers (book: models.md, The shared frame).
    HwFence(HwFence),
    /// The events carrying annotation number `i` of the model's tag table
    /// ([`CatModel::tags`]): herd7's set `Once` for tag `'once` (the tag's
    /// first letter in upper case), one per annotation its bell file
    /// declares.
    Tag(u32),
    /// herd7's lock events of one kind (C only): `LKR`, `LKW`, `UL`,
    /// `LF`, `RL`, `RU`.
    Lock(LockOp),
    /// `LK` (C only): lock reads and writes.
    LockAny,
    /// herd7's `annot` (C only): accesses and fences with an annotation.
    Annotated,
}

/// Relations a candidate execution provides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RelPrim {
    /// Program order within each thread.
    Po,
    /// relaxlab's additional synchronises-with: init writes before every
    /// thread's events, fork and join edges (book: axiomatic.md, Candidate executions).
    Asw,
    Rf,
    Co,
    /// The read and the write of each successful RMW or CAS.
    Rmw,
    /// Events on the same location (memory events only, identity included).
    Loc,
    /// Events of different threads (the init writes count as a thread).
    Ext,
    /// Events of the same thread.
    Int,
    Id,
    /// Address dependencies: from a read to an access whose location it
    /// computes (herd C programs, whose locations are values; none in
    /// relaxlab's instructions, whose locations are static).
    Addr,
    /// Data dependencies: from a read to a write whose value depends on it
    /// through registers.
    Data,
    /// Control dependencies: from a read to every event after a branch
    /// whose condition depends on it.
    Ctrl,
}

/// Whether a node denotes an event set, a relation, or a family: a set of
/// such values that depends on the execution (herd7's sets of sets, made
/// by `map`, `classes-loc` and `cross`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Set,
    Rel,
    Family,
}

/// An operation of the relation program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Set(SetPrim),
    Rel(RelPrim),
    EmptySet,
    EmptyRel,
    SetUnion(NodeId, NodeId),
    SetInter(NodeId, NodeId),
    SetDiff(NodeId, NodeId),
    /// `~S`: every event not in S.
    SetCompl(NodeId),
    /// `domain(r)`, `range(r)`.
    Domain(NodeId),
    Range(NodeId),
    Union(NodeId, NodeId),
    Inter(NodeId, NodeId),
    Diff(NodeId, NodeId),
    /// `~r`: every pair not in r.
    Compl(NodeId),
    Seq(NodeId, NodeId),
    Inverse(NodeId),
    Plus(NodeId),
    Star(NodeId),
    Opt(NodeId),
    /// `[S]`.
    IdOn(NodeId),
    /// `S * T`.
    Cartesian(NodeId, NodeId),
    /// The current value of unknown `index` of `let rec` group `group`.
    Rec {
        group: u32,
        index: u32,
        kind: Kind,
    },
    /// The relation chosen by `with` number `with`.
    Var {
        with: u32,
    },
    /// herd7's `different-values(r)`: the pairs of r whose events do not
    /// carry equal values (an event without a value differs from any).
    DifferentValues(NodeId),
    /// The element `map` number `map` is applied to, as a singleton: an
    /// event (a set) or a pair (a relation).
    Param {
        map: u32,
        kind: Kind,
    },
    /// `map f X` over an execution's set or relation X: the family of
    /// `f e` for the elements e of X ([`MapDef`]).
    Map(u32),
    /// herd7's `classes-loc(S)`: the events of S grouped by location, a
    /// family of sets.
    ClassesLoc(NodeId),
    /// `cross(F)` of herd7's `cross.cat`: for a family of families of
    /// relations, every union of one member of each.
    Cross(NodeId),
}

impl Op {
    /// The operands of the operation.
    pub fn operands(&self) -> impl Iterator<Item = NodeId> {
        let (a, b) = match *self {
            Op::SetUnion(a, b)
            | Op::SetInter(a, b)
            | Op::SetDiff(a, b)
            | Op::Union(a, b)
            | Op::Inter(a, b)
            | Op::Diff(a, b)
            | Op::Seq(a, b)
            | Op::Cartesian(a, b) => (Some(a), Some(b)),
            Op::SetCompl(a)
            | Op::Domain(a)
            | Op::Range(a)
            | Op::Compl(a)
            | Op::Inverse(a)
            | Op::Plus(a)
            | Op::Star(a)
            | Op::Opt(a)
            | Op::IdOn(a)
            | Op::DifferentValues(a)
            | Op::ClassesLoc(a)
            | Op::Cross(a) => (Some(a), None),
            Op::Set(_)
            | Op::Rel(_)
            | Op::EmptySet
            | Op::EmptyRel
            | Op::Rec { .. }
            | Op::Var { .. }
            | Op::Param { .. }
            | Op::Map(_) => (None, None),
        };
        a.into_iter().chain(b)
    }

    /// What the operation denotes.
    pub fn kind(&self) -> Kind {
        match self {
            Op::Set(_)
            | Op::EmptySet
            | Op::SetUnion(..)
            | Op::SetInter(..)
            | Op::SetDiff(..)
            | Op::SetCompl(_)
            | Op::Domain(_)
            | Op::Range(_) => Kind::Set,
            Op::Rec { kind, .. } | Op::Param { kind, .. } => *kind,
            Op::Map(_) | Op::ClassesLoc(_) | Op::Cross(_) => Kind::Family,
            _ => Kind::Rel,
        }
    }
}

/// A `map f X` over an execution's set or relation: the evaluator binds
/// the parameter to each element of `source` in turn and computes `steps`
/// (every node between the parameter and `body`, in order), collecting
/// `body`'s values. `inputs` are the nodes the steps read that do not
/// depend on the element: they are computed before, once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapDef {
    pub source: NodeId,
    pub param: NodeId,
    pub body: NodeId,
    pub steps: Vec<NodeId>,
    pub inputs: Vec<NodeId>,
}

/// The operands of a node, a map's source and inputs included.
pub(crate) fn operands_of(op: &Op, maps: &[MapDef]) -> Vec<NodeId> {
    match op {
        Op::Map(m) => {
            let def = &maps[*m as usize];
            std::iter::once(def.source)
                .chain(def.inputs.iter().copied())
                .collect()
        }
        op => op.operands().collect(),
    }
}

/// A node: an operation and what it denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Node {
    pub op: Op,
    pub kind: Kind,
}

/// The unknowns of one `let rec ... and ...` and their equations: the
/// value of unknown `i` is the least fixed point of `vars[i] = bodies[i]`
/// (herd7 manual, "Local bindings": least fixpoint, by inclusion).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecGroup {
    /// The [`Op::Rec`] nodes.
    pub vars: Vec<NodeId>,
    /// Filled by [`super::CatBuilder::close_group`].
    pub bodies: Vec<NodeId>,
    /// Are the equations monotone in the unknowns (none under `~` or on
    /// the right of `\`)? Then iteration from empty reaches the least
    /// fixed point; otherwise the evaluator iterates as herd7 does, with
    /// a bound on the rounds, and a `with` search does not bound them.
    pub monotone: bool,
}

/// The three checks of cat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Test {
    Acyclic,
    Irreflexive,
    Empty,
}

impl Test {
    pub fn name(self) -> &'static str {
        match self {
            Test::Acyclic => "acyclic",
            Test::Irreflexive => "irreflexive",
            Test::Empty => "empty",
        }
    }
}

/// What a failed check does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckKind {
    /// A plain check: the execution is rejected.
    Check,
    /// `flag`: when the check holds, the execution is flagged
    /// (reported), not rejected.
    Flag,
    /// `undefined_unless`: when the check fails, the execution is flagged
    /// as undefined, not rejected.
    UndefinedUnless,
}

/// One check, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub kind: CheckKind,
    pub test: Test,
    /// `~acyclic` and friends.
    pub negated: bool,
    pub node: NodeId,
    /// The `as NAME`, else the enclosing call's label, else the test's text.
    /// A `flag` always has its own `as NAME`: the compiler drops an
    /// unnamed one with a warning, as herd7 records nothing for it.
    pub name: String,
}

/// The set a `with` chooses from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// `linearisations(S, r)`: every strict total order of S that
    /// contains r restricted to S.
    Linearisations { set: NodeId, rel: NodeId },
    /// `generate_orders(S, r)` of herd7's `cross.cat`: every relation
    /// that is, on each location, a strict total order of the events of S
    /// at that location containing r restricted to them, with no pair
    /// across locations (herd7: the cross product of the per-location
    /// linearisations of `partition S`). Events of S without a location
    /// are in no order, as `partition` leaves them out; when S has no
    /// memory event there is one choice, the empty relation.
    PerLocation { set: NodeId, rel: NodeId },
    /// A family of relations (or sets) computed on the execution (herd7's
    /// `cross(...)` of lock.cat): each member in turn.
    Family(NodeId),
}

impl Choice {
    /// The nodes the choice is computed from.
    pub fn operands(self) -> Vec<NodeId> {
        match self {
            Choice::Linearisations { set, rel } | Choice::PerLocation { set, rel } => {
                vec![set, rel]
            }
            Choice::Family(f) => vec![f],
        }
    }

    /// Does the evaluator count each passing choice as an execution, as
    /// herd7 does? Choices that build the execution's coherence order or
    /// reads-from (`generate_orders`, `generate_cos`, a family of
    /// relations) are counted; a `linearisations` order beyond them (the
    /// SC order of the C11 models) only needs to exist, as the
    /// hand-written models have it.
    pub fn counted(self) -> bool {
        !matches!(self, Choice::Linearisations { .. })
    }
}

/// A statement of the model, in program order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    Check(Check),
    /// `with x from E`: the rest of the model runs for each choice; the
    /// execution is accepted when some choice passes every check, and
    /// counted once per passing choice when [`Choice::counted`].
    With {
        with: u32,
        from: Choice,
    },
}

/// A compiled model.
#[derive(Clone, Debug)]
pub struct CatModel {
    /// The model's name: the title line's name, else the file name.
    pub name: String,
    pub arch: Arch,
    pub(crate) nodes: Vec<Node>,
    pub(crate) groups: Vec<RecGroup>,
    pub(crate) stmts: Vec<Stmt>,
    /// `show`n relations and sets, after every `unshow`, in order.
    pub(crate) shows: Vec<(String, NodeId)>,
    pub(crate) schedule: Schedule,
    /// Does some node need the dependency relations?
    pub(crate) needs_deps: bool,
    /// The `map`s of the model.
    pub(crate) maps: Vec<MapDef>,
    /// The annotation names of [`SetPrim::Tag`], by index.
    pub tags: Vec<String>,
    /// The model chooses the coherence order itself (`with co from ...`,
    /// or any model that never reads the candidate's `co`), as herd7's
    /// models do: the engine then leaves `co` out of its candidates and
    /// chooses the final writes (`FW`) of the observed locations with
    /// `rf`.
    pub chooses_co: bool,
}

impl CatModel {
    /// The names of the checks, in program order.
    pub fn check_names(&self) -> Vec<&str> {
        self.stmts
            .iter()
            .filter_map(|s| match s {
                Stmt::Check(c) => Some(c.name.as_str()),
                Stmt::With { .. } => None,
            })
            .collect()
    }

    /// The name of the check at statement `stmt` (see
    /// [`super::Verdict::Rejected`]).
    pub fn check_name(&self, stmt: usize) -> Option<&str> {
        match self.stmts.get(stmt)? {
            Stmt::Check(c) => Some(&c.name),
            Stmt::With { .. } => None,
        }
    }

    /// Does some check that rejects executions (not a `flag` or an
    /// `undefined_unless`) depend on the primitive relation `prim`, through
    /// the definitions, `let rec` groups and `with` choices it uses?
    /// relaxlab's read-modify-writes are two events joined by `rmw`, so a
    /// model whose checks never reach `rmw` cannot keep them atomic.
    /// A model without such a check (one that only shows or flags) is
    /// counted as using everything: it rejects nothing anyway.
    pub fn checks_use(&self, prim: RelPrim) -> bool {
        let rejecting = |s: &Stmt| matches!(s, Stmt::Check(c) if c.kind == CheckKind::Check);
        if !self.stmts.iter().any(rejecting) {
            return true;
        }
        let mut roots: Vec<NodeId> = Vec::new();
        for stmt in &self.stmts {
            match stmt {
                Stmt::Check(c) if c.kind == CheckKind::Check => roots.push(c.node),
                Stmt::Check(_) => {}
                Stmt::With { from, .. } => roots.extend(from.operands()),
            }
        }
        self.reaches(roots, prim)
    }

    /// Does the model judge C11 read-modify-writes as herd7's C semantics
    /// makes them, one event in `R & W`?
    /// (book: cat.md, One event per read-modify-write.)
    /// A model of the C architecture that never reads
    /// `rmw` (in a check, a `with`, a flag or a `show`) does; one that
    /// reads it is written for relaxlab's read and write joined by `rmw`.
    pub fn one_event_rmws(&self) -> bool {
        if self.arch != Arch::C {
            return false;
        }
        let mut roots = self.statement_roots();
        roots.extend(self.shows.iter().map(|(_, n)| *n));
        !self.reaches(roots, RelPrim::Rmw)
    }

    /// Does a check or a `with` use the candidate's coherence order (the
    /// primitive `co`, which a model that chooses `co` must not read)?
    pub fn uses_candidate_co(&self) -> bool {
        self.reaches(self.statement_roots(), RelPrim::Co)
    }

    /// The nodes the statements read: every check's (flags and
    /// `undefined_unless` included) and every `with`'s operands.
    fn statement_roots(&self) -> Vec<NodeId> {
        let mut roots: Vec<NodeId> = Vec::new();
        for stmt in &self.stmts {
            match stmt {
                Stmt::Check(c) => roots.push(c.node),
                Stmt::With { from, .. } => roots.extend(from.operands()),
            }
        }
        roots
    }

    /// Does the value of some node of `roots` depend on the primitive
    /// relation `prim`, through definitions, `let rec` groups and maps?
    fn reaches(&self, mut stack: Vec<NodeId>, prim: RelPrim) -> bool {
        let mut seen = vec![false; self.nodes.len()];
        while let Some(n) = stack.pop() {
            let i = n.index();
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            match self.nodes[i].op {
                Op::Rel(p) if p == prim => return true,
                Op::Rec { group, index, .. } => {
                    stack.push(self.groups[group as usize].bodies[index as usize]);
                }
                Op::Map(m) => {
                    let def = &self.maps[m as usize];
                    stack.push(def.source);
                    stack.extend(def.steps.iter().copied());
                    stack.extend(def.inputs.iter().copied());
                }
                ref op => stack.extend(op.operands()),
            }
        }
        false
    }

    /// The names of the `show`n relations, in order.
    pub fn shown(&self) -> Vec<&str> {
        self.shows.iter().map(|(n, _)| n.as_str()).collect()
    }
}
