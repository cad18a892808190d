pub mod bench;
pub mod check;
pub mod common;
pub mod fmt;
pub mod parse;
pub mod races;
pub mod run;
