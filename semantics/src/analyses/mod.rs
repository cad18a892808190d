//! Analyses built on the engines: RELAXER's active testing ([`relaxer`]),
//! fence repair ([`repair`]) and the playground's stepper ([`stepper`]).

pub mod relaxer;
pub mod repair;
pub mod stepper;
