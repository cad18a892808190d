//! herd7's C semantics, for the herd C tests relaxlab's own instructions
//! cannot express: the Linux-kernel primitives of a `.def` file, pointers,
//! herd's annotations (tags), locks and SRCU; and for plain C tests under
//! herd's C cat models, C11 loads, stores, fences and read-modify-writes with their operands
//! unsequenced (book: herd.md, Unsequenced operands) (herdtools7's `CSem.ml`,
//! `event.ml` and `eventsMonad.ml`; the LKMM: Alglave et al., "Frightening
//! small children and disconcerting grown-ups", ASPLOS 2018).
//!
//! [`ir`] is the form such a test takes in a [`crate::ir::Program`];
//! [`paths`] runs each thread over the values its reads may get, building
//! herd's event structure ([`es`], [`eval`]) and from it the dependencies
//! herd computes ([`deps`]); the axiomatic engine turns the paths into
//! candidate executions. Locations are values here: [`address`] encodes
//! location `l` as a value no integer of a test reaches.

mod deps;
mod es;
mod eval;
pub mod ir;
pub(crate) mod paths;

pub use ir::{AtomicOp, CExpr, CNode, CProgram, CStmt, Returns, Rmw, Tags};

use crate::ir::{LocId, Value};

/// The value that stands for the address of location 0; location `l` is
/// `ADDRESS_BASE + l`. Integers of a test are refused beyond
/// [`MAX_INTEGER`], so no integer is taken for an address.
pub const ADDRESS_BASE: Value = 1 << 61;

/// The largest magnitude of an integer a herd C test may write.
pub const MAX_INTEGER: Value = 1 << 60;

/// The value of location `l`'s address.
pub fn address(l: LocId) -> Value {
    ADDRESS_BASE + Value::from(l.0)
}

/// The location whose address `v` is, among `locations` locations.
pub fn location_at(v: Value, locations: usize) -> Option<LocId> {
    let i = v.checked_sub(ADDRESS_BASE)?;
    (0..locations as Value)
        .contains(&i)
        .then(|| LocId::new(i as usize))
}

/// Does `v` look like an address (whether or not a location has it)?
pub fn is_address(v: Value) -> bool {
    v >= ADDRESS_BASE
}
