//! The hardware memory models, one file each (book: reference.md, Operational rules).

mod common;
mod describe;
pub mod flat;
pub mod pslo;
pub mod pso;
pub mod sc;
pub mod tso;

pub use flat::Segs;
pub use pslo::Pslo;
pub use pso::Pso;
pub use sc::{Sc, ScAsWritten};
pub use tso::Tso;
