//! User-defined axiomatic models in herd7's cat language: the compiled
//! relation program ([`model`], built by [`builder`]), its evaluation
//! order ([`schedule`]), and the evaluator over candidate executions
//! ([`machine`]). The front end (parsing, includes, names, functions)
//! lives in `relaxlab-grammar`.

mod builder;
mod deps;
mod machine;
mod model;
mod one_event;
mod prims;
mod rows;
mod schedule;

pub use builder::{BuildError, CatBuilder};
pub use machine::{Accepted, Fired, Machine, Verdict};
pub use model::{
    Arch, CatModel, Check, CheckKind, Choice, Kind, MapDef, Node, NodeId, Op, RecGroup, RelPrim,
    SetPrim, Stmt, Test,
};
pub use schedule::MAX_SCOPES;
