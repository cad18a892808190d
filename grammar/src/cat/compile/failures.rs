//! The failures more than one rule of the compiler reports: a name used
//! in its own definition, a construct relaxlab refuses, a recursion that
//! does not end statically, a tag no clause matches, and a value of the
//! wrong type.
//!
//! book: cat.md, Supported and refused

use super::value::Val;
use crate::cat::ast::Span;
use crate::cat::error::Fail;

pub(crate) fn self_reference(name: &str, at: Span) -> Fail {
    Fail::new(
        "relaxlab::cat::recursive",
        at,
        format!("`{name}` is used in its own definition"),
        format!("`{name}` is not defined yet"),
        format!("write `let rec {name} = ...` for a recursive definition (a least fixed point)"),
    )
}

pub(crate) fn unsupported(what: &str, span: Span) -> Fail {
    Fail::new(
        "relaxlab::cat::unsupported",
        span,
        format!("{what} is not supported by relaxlab"),
        "not supported",
        "what relaxlab supports: book: cat.md, Supported and refused",
    )
}

pub(crate) fn too_deep(name: &str, span: Span) -> Fail {
    Fail::new(
        "relaxlab::cat::unsupported",
        span,
        format!("the recursion of `{name}` does not end statically"),
        "unfolded too deeply here",
        "relaxlab unfolds functions before any execution exists: recursion over sets of an execution is not supported",
    )
}

pub(crate) fn no_match(tag: &str, span: Span) -> Fail {
    Fail::new(
        "relaxlab::cat::match",
        span,
        format!("no clause matches the tag '{tag}"),
        "matched here",
        "add a clause for it or a default clause `_ -> ...`",
    )
}

/// `what` needs `wanted`, got `got`.
pub(crate) fn type_error(span: Span, what: &str, wanted: &str, got: &Val) -> Fail {
    Fail::new(
        "relaxlab::cat::type",
        span,
        format!("{what} needs {wanted}, and this is {}", got.describe()),
        got.describe().to_string(),
        "turn an event set S into a relation with [S] (its identity) or S * T (a product); a relation r into a set with domain(r) or range(r)",
    )
}
