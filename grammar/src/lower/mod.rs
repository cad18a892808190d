//! Lowering the syntax tree to the IR (`semantics::ir::Program`).

mod cond;
mod program;
mod stmt;

pub(crate) use program::lower;
