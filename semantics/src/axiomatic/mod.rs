//! The axiomatic engine (book: axiomatic.md, Candidate executions): candidate executions of a loop-free
//! program, checked against the axioms of `ax.sc`, `ax.tso`, `ax.pso`,
//! `ax.pslo`, `ax.c11`, `ax.rc11`, `ax.c11r` and `ax.c11t`.
//!
//! The pipeline: [`unroll`] (when asked), the compilation mapping for the
//! hardware models, thread paths over value domains (`paths`, with free
//! reads left to `rf`: `free_reads`), skeletons (`skeleton`), candidates
//! (`candidates`, with observer reads split off: `observers`), the axioms
//! (`hardware`, `c11`, `sc_order`) written with a small relation algebra
//! (`relation`), the loop judging candidates (`consistent`), and the
//! summary (`run`). User models in herd7's cat language ([`cat`]) judge
//! whole candidates (no free reads, no observer split: a cat model may read
//! any relation).

pub(crate) mod axioms;
mod candidates;
pub mod cat;
mod consistent;
mod dot;
mod execution;
mod free_reads;
mod judge;
mod lift;
mod observers;
mod outcome_ids;
pub(crate) mod paths;
mod relation;
mod run;
mod skeleton;
mod unroll;

pub use dot::{to_dot, to_dot_showing};
pub use execution::{
    AccessKind, AxError, Event, EventId, EventKind, Execution, LockOp, Mode, PathDeps, Rejection,
};
pub use judge::{prepare_judge, run_cat, run_judges, visit_judged, Judge, Judged, VisitJudged};
pub use lift::{lift, twin, CoSource, LiftError, Lifted, MAX_CO_ORDERS};
pub use relation::{Relation, MAX_EVENTS};
pub(crate) use run::Accepted;
pub use run::{
    check, consistent_executions, prepare, run_axiomatic, run_axiomatic_many, run_axiomatic_whole,
    visit_consistent, visit_consistent_many, AxOptions, AxSummary, ExecutionEnd, VisitMany,
    BUDGET_POLL,
};
pub use unroll::unroll;
