//! The front end of herd7's cat language: `text --lexer (logos)--> tokens
//! --parser--> ast::Model --compile--> relaxlab_semantics::axiomatic::cat::CatModel`.
//!
//! Reading included files is the caller's business ([`CatLoader`]): the
//! CLI looks beside the including file, then in `--cat-path` directories.
//! Every error is a [`CatError`] pointing into the file it concerns.

pub mod ast;
mod compile;
mod error;
mod lexer;
mod parser;

pub use compile::{
    compile, compile_with, CatLoader, CompileOptions, Compiled, Loaded, NotFound, BUILT_IN_FILES,
};
pub use error::CatError;

/// Parses a cat file on its own (file number 0), for tools and tests.
pub fn parse(src: &str) -> Result<ast::Model, CatError> {
    parser::parse(0, src).map_err(|f| CatError::located(f, "<input>", src))
}
