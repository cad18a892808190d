//! herd7's C tests in herd's own C semantics: the Linux-kernel tests
//! (their primitives expanded by the model's `.def` macro file), tests
//! with pointers, and anything else whose meaning is herd's event
//! structure rather than a sequence of relaxlab instructions. The test is
//! parsed in full ([`parse`]), its macros expanded ([`macros`]) and it is
//! lowered to a `Program` carrying `relaxlab_semantics::csem::CProgram`
//! ([`lower`]), which only the axiomatic engine runs.

mod arrays;
mod ast;
mod c11;
mod lower;
pub mod macros;
mod parse;

pub use lower::Semantics;
pub use macros::Macros;

use relaxlab_semantics::ir::Program;

use super::error::{HerdError, HerdErrors};
use super::lexer::header;

/// Reads a herd C test in herd's C semantics, expanding its macros with
/// `macros`.
pub fn load(src: &str, macros: Option<&Macros>, sem: Semantics) -> Result<Program, HerdErrors> {
    let h = header(src);
    let test = parse::test(src, &h).map_err(HerdErrors::new)?;
    let mut bodies = Vec::new();
    let mut errors: Vec<HerdError> = Vec::new();
    for th in &test.threads {
        match macros::expand(&th.body, macros) {
            Ok(b) => bodies.push(b),
            Err(e) => {
                errors.push(e);
                bodies.push(Vec::new());
            }
        }
    }
    if !errors.is_empty() {
        return Err(HerdErrors::new(errors));
    }
    lower::lower(src, &test, bodies, sem).map_err(HerdErrors::new)
}
