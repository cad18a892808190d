//! RELAXER (Burnim, Sen, Stergiou, ISSTA 2011): SC violations and active
//! testing under relaxed memory models.
//!
//! - [`violation`]: Definition 1, a trace violates SC iff `->p ∪ ->c` has
//!   a cycle; marking outcome rows `non_sc`.
//! - [`predict`]: Phase I (Sec. 4.1, Definitions 2-3, Algorithm 1).
//!
//! Events are lifted from operational traces by [`lift`].

pub mod lift;
pub mod predict;
pub mod violation;

pub use predict::{predict, PredictOptions, PredictedCycle};
pub use violation::{
    describe_cycle, mark_non_sc, sc_violation, sc_violation_with, Cycle, CycleEvent, EdgeKind,
};
