//! RELAXER (Burnim, Sen, Stergiou, ISSTA 2011): SC violations and active
//! testing under relaxed memory models.
//!
//! - [`violation`]: Definition 1, a trace violates SC iff `->p ∪ ->c` has
//!   a cycle; marking outcome rows `non_sc`.
//! - [`predict`]: Phase I (Sec. 4.1, Definitions 2-3, Algorithm 1).
//! - [`exhaustive`]: Phase I over every SC execution, by exhaustive
//!   exploration of SC states augmented with the pair sets.
//! - [`confirm`]: Phase II (Sec. 4.3, Figs. 7-9), biased seeded runs.
//! - [`feasible`]: the exact ground truth of Phase II, by exhaustive
//!   exploration of the program with a per-cycle automaton.
//!
//! Events are lifted from operational traces by [`lift`]; [`created`]
//! decides whether a lifted trace contains a predicted cycle.
//!
//! Where this departs from the paper (each is argued where it is done):
//! - the two events of a program-order pair are distinct, as the worked
//!   example of Sec. 3.1 requires, although Definition 2 writes `<=`
//!   ([`predict`]);
//! - a store still buffered when a run ends counts as committed after
//!   every write that reached memory ([`created`], [`feasible`]);
//! - Phase I samples SC runs with the engine's uniform scheduler instead of
//!   noise making; Phase II uses logical time (which the paper allows) and
//!   a uniform choice among the threads that may move ([`confirm`]).

pub mod confirm;
pub mod created;
pub mod exhaustive;
pub mod feasible;
pub mod lift;
pub mod predict;
mod probe;
pub mod violation;

pub use confirm::{confirm, confirm_with, ConfirmOptions, ConfirmReport, CycleReport};
pub use created::creates;
pub use exhaustive::{predict_exhaustive, ExhaustivePrediction};
pub use feasible::{ground_truth, GroundTruth};
pub use predict::{predict, PredictOptions, PredictedCycle};
pub use violation::{
    describe_cycle, mark_non_sc, sc_violation, sc_violation_with, Cycle, CycleEvent, EdgeKind,
};
