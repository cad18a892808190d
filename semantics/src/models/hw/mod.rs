//! The hardware memory models of MODELS.md section 2, one file each.

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
pub use sc::Sc;
pub use tso::Tso;
