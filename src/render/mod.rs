//! Rendering results for people (tables, traces) and programs (JSON).

pub mod dot;
pub mod herd;
pub mod json;
pub mod table;
pub mod trace;
