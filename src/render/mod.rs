//! Rendering results for people (tables, traces) and programs (JSON).

pub mod json;
pub mod table;
pub mod trace;
