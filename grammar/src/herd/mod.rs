//! herd7 compatibility: importers that translate herd's C and X86 litmus
//! formats into relaxlab source text (book: language.md, Other front ends).
//!
//! An importer is a translator: [`translate`] returns the text of an
//! equivalent relaxlab test, which the ordinary parser then reads. The
//! translation is meant to be read (`relaxlab fmt --to relaxlab`): one
//! relaxlab statement per herd statement where possible, herd's names for
//! registers and locations, every location in `init` (missing ones at 0).
//! Every error points into the herd text.
//!
//! [`to_herd_c`] goes the other way, for `relaxlab fmt --to herd-c`: a
//! relaxlab test inside the C subset printed as a herd C test.

mod c;
mod c_arrays;
mod c_expr;
mod cond;
mod dialect;
mod emit;
mod error;
pub mod kernel;
mod lexer;
mod to_c;
mod x86;

pub use dialect::{detect, first_word, translate, Dialect};
pub use error::{HerdError, HerdErrors, HerdLookalike};
pub use to_c::to_herd_c;
