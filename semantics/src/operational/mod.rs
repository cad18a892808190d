//! The operational engine: the thread interpreter, the runner that takes
//! one move at a time, and the explorers, exhaustive and sampled, with the
//! sampler's schedulers. The models themselves are in [`crate::models`].

mod baseline;
mod by_model;
mod check;
mod doomed;
mod exhaustive;
mod intern;
mod interp;
mod liveness;
pub mod mcr;
mod reduction;
mod rng;
mod runner;
mod sample;
mod schedulers;
mod state_table;
mod trace;

pub use baseline::hash_baseline;
pub use by_model::{
    explore_model, explore_model_with_progress, explore_races, explore_sc_reference,
    program_for_model, program_for_sc_reference, replay_model, sample_model,
};
pub use check::{check_dependence, replay_witness, DependenceCheck, Replayed};
pub use exhaustive::{
    explore, explore_with_progress, program_for, ExploreOptions, DEFAULT_MAX_DEPTH,
};
pub use reduction::Reduction;
pub use sample::{replay, sample, sample_with_first_runs, FirstRuns, SampleOptions};
pub use schedulers::Strategy;
pub use trace::{describe_step, describe_trace};

// Hooks for RELAXER's Phase II scheduler (`crate::analyses::relaxer::confirm`) and
// the playground's stepper (`crate::analyses::stepper`), which drive single runs
// move by move.
pub(crate) use intern::hash_of;
pub(crate) use interp::{Ended, Group, Interp, FINISHED, NOT_STARTED};
pub(crate) use runner::{MoveInfo, Preview, Runner, Status};
pub use schedulers::delay::{DELAY_L, DELAY_S};
pub(crate) use schedulers::{Bias, Delay, Pick, Random, Scheduler};
