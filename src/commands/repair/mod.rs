//! `relaxlab repair`: the fewest fences, or the weakest orders, that make a
//! test's condition hold under a model (the search is
//! `relaxlab_semantics::analyses::repair`; this module prints and re-verifies).

mod command;
pub mod render;
pub mod text;

pub use command::{repair, sc_key, Printed};
