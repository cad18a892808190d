//! The model registry: one row per model, operational and axiomatic,
//! holding every fact the rest of relaxlab asks about a model
//! (book: reference.md, Operational models and their twins); how to add
//! one (book: adding-a-model.md, The five files).
//!
//! A model is an enum variant ([`OpModel`], [`AxModel`]) and a row
//! ([`OpRow`], [`AxRow`]). The rows are built by exhaustive `match`es and
//! struct literals, so a variant without a row, or a row without one of
//! its facts, does not compile. Nothing else in relaxlab matches on a
//! model's name or lists models: the CLI's help texts and error messages,
//! the static checks of the front end, the explorers' schedulers, the
//! lift of traces, RELAXER, repair and `compare` all read the rows.
//!
//! The one other place that names each operational model is
//! [`with_model`], the dispatch from a model to its concrete type.

use std::fmt;

use serde::Serialize;

use crate::axiomatic::{self, Accepted, Execution, Rejection, Relation};
use crate::mapping;
use crate::models::{C11r, C11t, Pslo, Pso, Ra, Sc, ScAsWritten, ScRaces, Tso};
use crate::picture::Describe;

/// The operational models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum OpModel {
    Sc,
    Tso,
    Pso,
    Pslo,
    C11r,
    C11t,
    Ra,
}

/// The built-in axiomatic models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum AxModel {
    Sc,
    Tso,
    Pso,
    Pslo,
    C11,
    Rc11,
    C11r,
    C11t,
    Ra,
}

/// What a model's programs are written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A hardware model: programs are compiled by the mapping for this
    /// family first (book: mapping.md), operational and axiomatic alike.
    Hardware(mapping::Target),
    /// A language-level model: C11 orders taken at face value.
    C11,
}

impl Target {
    /// The mapping's target, for a hardware model.
    pub fn hardware(self) -> Option<mapping::Target> {
        match self {
            Target::Hardware(t) => Some(t),
            Target::C11 => None,
        }
    }
}

/// How an operational model holds stores back from memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Buffering {
    /// Stores reach memory when performed.
    None,
    /// One FIFO buffer per thread (TSO).
    Fifo,
    /// One FIFO buffer per thread and location (PSO).
    PerLocation,
    /// Per-location buffers, and per-thread histories of committed values
    /// loads may read (PSLO).
    Histories,
}

/// What an operational model's outcomes are, beside its twin's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TwinRelation {
    /// The same outcomes.
    Equal,
    /// Every operational outcome is allowed by the twin, which may allow
    /// more (book: op-vs-ax.md, What to expect).
    OperationalSubset,
}

/// What programs a model runs; the front end refuses the others
/// (book: language.md, Static errors).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Admits {
    /// Hardware barriers (`fence(ss)`, `fence(full)`, ...).
    pub hardware_fences: bool,
    /// A location accessed both atomically and non-atomically.
    pub mixed_atomicity: bool,
}

/// Which exploration `relaxlab races` runs for an operational model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Races {
    /// The model tracks no happens-before: `races` refuses it.
    None,
    /// The model itself, which detects races as it runs.
    Own,
    /// SC memory with C11's happens-before clocks ([`ScRaces`]).
    ScClocks,
}

/// What a repair may insert under a model (book: repair.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Repairs {
    /// `tso`, `ax.tso`: hardware barriers.
    Tso,
    /// `pso`: RELAXER's conservative `ss` drains the whole buffer.
    Pso,
    /// `ax.pso`: SPARC's `ss` orders store pairs only; a store-load pair
    /// needs `sl`.
    PsoAx,
    /// `pslo`, `ax.pslo`.
    Pslo,
    /// The C11 models: stronger orders and C11 fences.
    C11,
}

/// How the lift of an operational trace to an execution reads the trace
/// ([`crate::axiomatic::lift`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lift {
    /// Where a read's `older` counts from.
    pub reads: LiftReads,
    /// Where `co` comes from.
    pub co: LiftCo,
    /// The SC events are performed in the model's SC order.
    pub sc_in_trace_order: bool,
}

/// What a read's `older` counts ([`crate::model::EventKind::Read`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LiftReads {
    /// Runs of equal values among the location's committed writes, from
    /// the newest (the hardware models; 0 but under PSLO).
    CommittedRuns,
    /// Stores to the location from the newest, in the order they were
    /// performed.
    Performed,
    /// Stores to the location from the newest in modification order, as
    /// the model placed them: a write `newer` stores before the end, an
    /// update right after the store it read.
    Mo,
}

/// Where the lift takes `co` from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LiftCo {
    /// Commit order for buffered models, the order stores were placed in
    /// otherwise.
    Trace,
    /// The trace fixes only each location's last value (`Settle` steps):
    /// the orders ending with it are searched for one the twin accepts.
    Settled,
}

/// Everything relaxlab knows about an operational model.
#[derive(Clone, Copy, Debug)]
pub struct OpRow {
    /// As `--model` takes it and tables print it.
    pub name: &'static str,
    /// Other names `--model` takes.
    pub aliases: &'static [&'static str],
    pub target: Target,
    pub buffering: Buffering,
    /// The axiomatic model `compare` runs beside it.
    pub twin: AxModel,
    pub relation: TwinRelation,
    pub admits: Admits,
    pub races: Races,
    /// `None`: nothing to insert (every placement is a no-op).
    pub repair: Option<Repairs>,
    pub lift: Lift,
    /// One line for people.
    pub help: &'static str,
}

/// The axioms of a built-in model: does it accept the execution, and what
/// did it find ([`crate::axiomatic`]).
pub(crate) type Axioms = fn(&Execution) -> Result<Accepted, Rejection>;

/// A model's happens-before on an execution.
pub(crate) type HappensBefore = fn(&Execution) -> Relation;

/// Everything relaxlab knows about a built-in axiomatic model.
#[derive(Clone, Copy, Debug)]
pub struct AxRow {
    /// As `--axiomatic` takes it (tables print `ax.` before it).
    pub name: &'static str,
    /// Other names `--axiomatic` takes.
    pub aliases: &'static [&'static str],
    pub target: Target,
    pub admits: Admits,
    /// Decides data races (racy rows and failures).
    pub races: bool,
    /// `None`: nothing to insert.
    pub repair: Option<Repairs>,
    pub(crate) axioms: Axioms,
    /// `Some(hb)`: the model constrains a relaxed read that only observes
    /// by coherence alone, `irreflexive(hb; eco?)`, so the engine may
    /// split such reads off (`axiomatic::observers`).
    pub(crate) observers: Option<HappensBefore>,
    /// One line for people.
    pub help: &'static str,
}

const HARDWARE: Admits = Admits {
    hardware_fences: true,
    mixed_atomicity: true,
};

/// The C11 models that give each location one atomicity.
const C11_ONE_ATOMICITY: Admits = Admits {
    hardware_fences: false,
    mixed_atomicity: false,
};

/// The C11 models that take a location accessed both ways, as herd7 does
/// (and release/acquire, where every access is one).
const C11_MIXED: Admits = Admits {
    hardware_fences: false,
    mixed_atomicity: true,
};

const HARDWARE_LIFT: Lift = Lift {
    reads: LiftReads::CommittedRuns,
    co: LiftCo::Trace,
    sc_in_trace_order: false,
};

impl OpModel {
    pub const ALL: [OpModel; 7] = [
        OpModel::Sc,
        OpModel::Tso,
        OpModel::Pso,
        OpModel::Pslo,
        OpModel::C11r,
        OpModel::C11t,
        OpModel::Ra,
    ];

    /// The model's row.
    pub const fn row(self) -> OpRow {
        match self {
            OpModel::Sc => OpRow {
                name: "sc",
                aliases: &[],
                target: Target::Hardware(mapping::Target::Sc),
                buffering: Buffering::None,
                twin: AxModel::Sc,
                relation: TwinRelation::Equal,
                admits: HARDWARE,
                races: Races::ScClocks,
                repair: None,
                lift: HARDWARE_LIFT,
                help: "sequential consistency: one memory, threads interleaved",
            },
            OpModel::Tso => OpRow {
                name: "tso",
                aliases: &[],
                target: Target::Hardware(mapping::Target::Tso),
                buffering: Buffering::Fifo,
                twin: AxModel::Tso,
                relation: TwinRelation::Equal,
                admits: HARDWARE,
                races: Races::None,
                repair: Some(Repairs::Tso),
                lift: HARDWARE_LIFT,
                help: "total store order (x86, SPARC TSO): a FIFO store buffer per thread",
            },
            OpModel::Pso => OpRow {
                name: "pso",
                aliases: &[],
                target: Target::Hardware(mapping::Target::Pso),
                buffering: Buffering::PerLocation,
                twin: AxModel::Pso,
                relation: TwinRelation::OperationalSubset,
                admits: HARDWARE,
                races: Races::None,
                repair: Some(Repairs::Pso),
                lift: HARDWARE_LIFT,
                help: "partial store order (SPARC PSO): a store buffer per thread and location",
            },
            OpModel::Pslo => OpRow {
                name: "pslo",
                aliases: &[],
                target: Target::Hardware(mapping::Target::Pso),
                buffering: Buffering::Histories,
                twin: AxModel::Pslo,
                relation: TwinRelation::OperationalSubset,
                admits: HARDWARE,
                races: Races::None,
                repair: Some(Repairs::Pslo),
                lift: HARDWARE_LIFT,
                help: "RELAXER's PSO with stale loads: per-thread histories of committed values",
            },
            OpModel::C11r => OpRow {
                name: "c11r",
                aliases: &[],
                target: Target::C11,
                buffering: Buffering::None,
                twin: AxModel::C11r,
                relation: TwinRelation::Equal,
                admits: C11_ONE_ATOMICITY,
                races: Races::Own,
                repair: Some(Repairs::C11),
                lift: Lift {
                    reads: LiftReads::Performed,
                    co: LiftCo::Trace,
                    sc_in_trace_order: true,
                },
                help: "restricted C11 (tsan11): store lists in modification order, vector clocks",
            },
            OpModel::C11t => OpRow {
                name: "c11t",
                aliases: &[],
                target: Target::C11,
                buffering: Buffering::None,
                twin: AxModel::C11t,
                relation: TwinRelation::Equal,
                admits: C11_ONE_ATOMICITY,
                races: Races::Own,
                repair: Some(Repairs::C11),
                lift: Lift {
                    reads: LiftReads::Performed,
                    co: LiftCo::Settled,
                    sc_in_trace_order: false,
                },
                help: "C11Tester's fragment of C11: modification order as a constraint graph",
            },
            OpModel::Ra => OpRow {
                name: "ra",
                aliases: &[],
                target: Target::C11,
                buffering: Buffering::None,
                twin: AxModel::Ra,
                relation: TwinRelation::Equal,
                admits: C11_MIXED,
                races: Races::None,
                repair: None,
                lift: Lift {
                    reads: LiftReads::Mo,
                    co: LiftCo::Trace,
                    sc_in_trace_order: false,
                },
                help: "release/acquire (GenMC's RA): every write a release, every read an acquire; per-thread views",
            },
        }
    }

    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// The model named `name` (or one of its aliases).
    pub fn from_name(name: &str) -> Option<OpModel> {
        OpModel::ALL.into_iter().find(|m| {
            let row = m.row();
            row.name == name || row.aliases.contains(&name)
        })
    }

    /// Is this a language-level model (which takes orders at face value)?
    pub fn is_c11(self) -> bool {
        self.row().target == Target::C11
    }

    /// The axiomatic model `compare` runs beside it.
    pub fn twin(self) -> AxModel {
        self.row().twin
    }
}

impl AxModel {
    pub const ALL: [AxModel; 9] = [
        AxModel::Sc,
        AxModel::Tso,
        AxModel::Pso,
        AxModel::Pslo,
        AxModel::C11,
        AxModel::Rc11,
        AxModel::C11r,
        AxModel::C11t,
        AxModel::Ra,
    ];

    /// The model's row.
    pub const fn row(self) -> AxRow {
        use axiomatic::axioms as ax;
        const fn hardware(
            name: &'static str,
            target: mapping::Target,
            repair: Option<Repairs>,
            axioms: Axioms,
            help: &'static str,
        ) -> AxRow {
            AxRow {
                name,
                aliases: &[],
                target: Target::Hardware(target),
                admits: HARDWARE,
                races: false,
                repair,
                axioms,
                observers: None,
                help,
            }
        }
        match self {
            AxModel::Sc => hardware(
                "sc",
                mapping::Target::Sc,
                None,
                ax::hardware::sc,
                "sequential consistency: acyclic(po | rf | co | fr)",
            ),
            AxModel::Tso => hardware(
                "tso",
                mapping::Target::Tso,
                Some(Repairs::Tso),
                ax::hardware::tso,
                "TSO: coherence, atomicity, and acyclic(ppo | fences | rfe | co | fr)",
            ),
            AxModel::Pso => hardware(
                "pso",
                mapping::Target::Pso,
                Some(Repairs::PsoAx),
                ax::hardware::pso,
                "SPARC PSO: TSO without store-store order but where fenced",
            ),
            AxModel::Pslo => hardware(
                "pslo",
                mapping::Target::Pso,
                Some(Repairs::Pslo),
                ax::hardware::pslo,
                "PSLO: PSO's order without load-load order (stale loads)",
            ),
            AxModel::C11 => AxRow {
                name: "c11",
                aliases: &[],
                target: Target::C11,
                admits: C11_MIXED,
                races: true,
                repair: Some(Repairs::C11),
                axioms: ax::c11::c11,
                observers: Some(ax::c11::hb_cpp11),
                help: "C11 (Batty et al.) with its SC order",
            },
            AxModel::Rc11 => AxRow {
                name: "rc11",
                aliases: &[],
                target: Target::C11,
                admits: C11_MIXED,
                races: true,
                repair: Some(Repairs::C11),
                axioms: ax::c11::rc11,
                observers: Some(ax::c11::hb_rc11),
                help: "RC11 (Lahav et al. 2017): C11 repaired, no thin air",
            },
            AxModel::C11r => AxRow {
                name: "c11r",
                aliases: &[],
                target: Target::C11,
                admits: C11_ONE_ATOMICITY,
                races: true,
                repair: Some(Repairs::C11),
                axioms: ax::c11::c11r,
                observers: Some(ax::c11::hb_cpp11),
                help: "C11 and acyclic(po | asw | rf | co | sc): c11r's twin",
            },
            AxModel::C11t => AxRow {
                name: "c11t",
                aliases: &[],
                target: Target::C11,
                admits: C11_ONE_ATOMICITY,
                races: true,
                repair: Some(Repairs::C11),
                axioms: ax::c11::c11t,
                observers: Some(ax::c11::hb_cpp20),
                help: "C11 with C++20 release sequences and acyclic(hb | sc | rf): c11t's twin",
            },
            AxModel::Ra => AxRow {
                name: "ra",
                aliases: &[],
                target: Target::C11,
                admits: C11_MIXED,
                races: false,
                repair: None,
                axioms: ax::ra::ra,
                observers: None,
                help: "release/acquire: hb = (po | rf)+ acyclic, hb; eco irreflexive",
            },
        }
    }

    /// The name without the `ax.` prefix.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// The model named `name` (without `ax.`), or one of its aliases.
    pub fn from_name(name: &str) -> Option<AxModel> {
        AxModel::ALL.into_iter().find(|m| {
            let row = m.row();
            row.name == name || row.aliases.contains(&name)
        })
    }

    /// Is this a language-level model?
    pub fn is_c11(self) -> bool {
        self.row().target == Target::C11
    }
}

/// A model an `expect` entry names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum ModelKey {
    Op(OpModel),
    Ax(AxModel),
}

impl ModelKey {
    /// Parses `sc`, `tso`, ..., `ax.sc`, `ax.rc11`, ...
    pub fn from_name(name: &str) -> Option<ModelKey> {
        match name.strip_prefix("ax.") {
            Some(ax) => AxModel::from_name(ax).map(ModelKey::Ax),
            None => OpModel::from_name(name).map(ModelKey::Op),
        }
    }

    /// Every model, operational first, in registry order.
    pub fn all() -> impl Iterator<Item = ModelKey> {
        OpModel::ALL
            .into_iter()
            .map(ModelKey::Op)
            .chain(AxModel::ALL.into_iter().map(ModelKey::Ax))
    }

    pub fn target(self) -> Target {
        match self {
            ModelKey::Op(m) => m.row().target,
            ModelKey::Ax(m) => m.row().target,
        }
    }

    pub fn admits(self) -> Admits {
        match self {
            ModelKey::Op(m) => m.row().admits,
            ModelKey::Ax(m) => m.row().admits,
        }
    }

    /// What a repair may insert under the model.
    pub fn repair(self) -> Option<Repairs> {
        match self {
            ModelKey::Op(m) => m.row().repair,
            ModelKey::Ax(m) => m.row().repair,
        }
    }

    /// Is this a language-level model?
    pub fn is_c11(self) -> bool {
        self.target() == Target::C11
    }
}

impl fmt::Display for ModelKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelKey::Op(m) => f.write_str(m.name()),
            ModelKey::Ax(m) => write!(f, "ax.{}", m.name()),
        }
    }
}

/// Something to do with an operational model's concrete type: the
/// explorers, the stepper and the analyses are generic over
/// [`crate::model::MemoryModel`] (every model also draws its states,
/// [`Describe`]), and [`with_model`] picks the type.
pub trait OpVisitor {
    type Output;
    fn visit<M: Describe>(self, model: &M) -> Self::Output;
}

/// How [`with_model_as`] builds a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    /// As the explorers run it: states normalised so that more of them
    /// merge (`c11r` drops the store elements no thread can read any more).
    Explore,
    /// As the stepper shows it to a person: nothing dropped, every store
    /// of a location is there to see. The moves are the same.
    Show,
}

/// Calls `visitor` with `model`'s concrete type, built for exploration:
/// the one dispatch from a model to its type.
pub fn with_model<V: OpVisitor>(model: OpModel, visitor: V) -> V::Output {
    with_model_as(model, Build::Explore, visitor)
}

/// [`with_model`], with the model built as `build` says.
pub fn with_model_as<V: OpVisitor>(model: OpModel, build: Build, visitor: V) -> V::Output {
    match model {
        OpModel::Sc => visitor.visit(&Sc),
        OpModel::Tso => visitor.visit(&Tso),
        OpModel::Pso => visitor.visit(&Pso),
        OpModel::Pslo => visitor.visit(&Pslo),
        OpModel::C11r => visitor.visit(&C11r {
            prune: build == Build::Explore,
        }),
        OpModel::C11t => visitor.visit(&C11t),
        OpModel::Ra => visitor.visit(&Ra),
    }
}

/// Calls `visitor` with the model `relaxlab races` explores for `model`
/// (its row's [`Races`]); `None` for a model that tracks no
/// happens-before.
pub fn with_race_model<V: OpVisitor>(model: OpModel, visitor: V) -> Option<V::Output> {
    match model.row().races {
        Races::None => None,
        Races::Own => Some(with_model(model, visitor)),
        Races::ScClocks => Some(visitor.visit(&ScRaces)),
    }
}

/// Calls `visitor` with the SC model that decides which of `model`'s
/// outcomes are `non-SC` (RELAXER Def. 1): SC over the program `model`
/// runs, so that both run the same operations. That is [`Sc`] after the
/// hardware mapping for a hardware model, and [`ScAsWritten`] for a C11
/// model, whose weak CAS may fail spuriously under SC too.
pub fn with_sc_reference<V: OpVisitor>(model: OpModel, visitor: V) -> V::Output {
    match model.row().target.hardware() {
        Some(_) => visitor.visit(&Sc),
        None => visitor.visit(&ScAsWritten),
    }
}

/// The names of `models`, joined with `, ` (help texts, error messages).
pub fn names<T>(models: impl IntoIterator<Item = T>, name: impl Fn(T) -> &'static str) -> String {
    models.into_iter().map(name).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_name_their_model() {
        for m in OpModel::ALL {
            assert_eq!(OpModel::from_name(m.name()), Some(m));
            assert_eq!(
                ModelKey::from_name(&ModelKey::Op(m).to_string()),
                Some(ModelKey::Op(m))
            );
        }
        for m in AxModel::ALL {
            assert_eq!(AxModel::from_name(m.name()), Some(m));
            assert_eq!(
                ModelKey::from_name(&ModelKey::Ax(m).to_string()),
                Some(ModelKey::Ax(m))
            );
        }
    }

    #[test]
    fn a_twin_is_written_for_what_its_model_is_written_for() {
        for m in OpModel::ALL {
            let (row, twin) = (m.row(), m.twin().row());
            assert_eq!(row.target, twin.target, "{}", row.name);
            assert_eq!(row.admits, twin.admits, "{}", row.name);
        }
    }
}
