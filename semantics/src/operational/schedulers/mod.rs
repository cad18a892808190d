//! The sampler's schedulers: which move a random run takes next. One file
//! per strategy, each a [`Scheduler`]: [`uniform`], [`old`] (tsan11's
//! preference for older stores), [`delay`] (RELAXER's Phase II, also used
//! by `relaxlab confirm` with a predicted cycle) and [`c11tester`]
//! (C11Tester's consecutive stores).

mod c11tester;
pub(crate) mod delay;
mod old;
mod scheduler;
mod uniform;

pub(crate) use delay::{Bias, Delay};
pub use scheduler::Strategy;
pub(crate) use scheduler::{Pick, Random, Scheduler};
