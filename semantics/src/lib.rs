//! relaxlab semantics: the IR, the thread interpreter, operational and
//! axiomatic memory models, explorers and analyses.
//!
//! This crate consumes a lowered [`ir::Program`] and returns data. It does no
//! I/O and knows nothing of the litmus syntax (README.md, Architecture, invariant 1).

pub mod analyses;
pub mod axiomatic;
pub mod budget;
pub mod csem;
pub mod dependence;
pub mod ir;
pub mod mapping;
pub mod model;
pub mod models;
pub mod operational;
pub mod outcome;
pub mod picture;
pub mod registry;
mod shared_vec;
