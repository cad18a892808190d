//! The formatter: prints a syntax tree in the canonical layout, with its
//! comments.

mod layout;
mod text;

pub(crate) use layout::format_test;
pub(crate) use text::{binop_prec, condition_text, hw_fence_name, if_text, stmt_text};
