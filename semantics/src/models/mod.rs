//! The operational memory models: the hardware models ([`hw`]: sc, tso,
//! pso, pslo), the restricted C11 model ([`c11r`]) and C11Tester's
//! fragment ([`c11t`]), with the vector clocks the two C11 models share
//! ([`clocks`]), and release/acquire ([`ra`]).

pub mod c11r;
pub mod c11t;
pub(crate) mod clocks;
pub mod hw;
pub mod ra;

pub use c11r::{C11r, ScRaces};
pub use c11t::C11t;
pub use hw::{Pslo, Pso, Sc, ScAsWritten, Tso};
pub use ra::Ra;
