//! Rendering results for people (tables, traces) and programs (JSON,
//! herd7's format, DOT graphs).

pub mod dot;
pub mod herd;
mod herd_states;
pub mod json;
pub mod table;
pub mod trace;
pub mod words;

pub use words::{plural, size};
