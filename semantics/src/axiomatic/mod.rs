//! The axiomatic engine (MODELS.md 4): candidate executions of a loop-free
//! program, checked against the axioms of `ax.sc`, `ax.tso`, `ax.pso`,
//! `ax.pslo`, `ax.c11`, `ax.rc11`, `ax.c11r` and `ax.c11t`.
//!
//! The pipeline: [`unroll`] (when asked), the compilation mapping for the
//! hardware models, thread paths over value domains (`paths`), candidates
//! (`candidates`), the axioms (`hardware`, `c11`, `sc_order`) written with a
//! small relation algebra (`relation`), and the summary (`run`). User
//! models in herd7's cat language ([`cat`]) judge the same candidates.

mod c11;
mod candidates;
pub mod cat;
mod dot;
mod execution;
mod hardware;
mod lift;
mod paths;
mod relation;
mod run;
mod sc_order;
mod unroll;

pub use dot::{to_dot, to_dot_showing};
pub use execution::{AccessKind, AxError, Event, EventId, EventKind, Execution, Mode, Rejection};
pub use lift::{lift, twin, CoSource, LiftError, Lifted, MAX_CO_ORDERS};
pub use relation::{Relation, MAX_EVENTS};
pub use run::{
    check, consistent_executions, prepare, prepare_judge, run_axiomatic, run_axiomatic_many,
    run_cat, run_judges, visit_consistent, visit_consistent_many, visit_judged, AxOptions,
    AxSummary, ExecutionEnd, Judge, Judged, VisitJudged, VisitMany,
};
pub use unroll::unroll;
