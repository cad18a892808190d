//! herd7 compatibility: importers that translate herd's C and X86 litmus
//! formats into relaxlab source text (LANGUAGE.md, "Other front ends").
//!
//! An importer is a translator: [`translate`] returns the text of an
//! equivalent relaxlab test, which the ordinary parser then reads. The
//! translation is meant to be read (`relaxlab fmt --to relaxlab`): one
//! relaxlab statement per herd statement where possible, herd's names for
//! registers and locations, every location in `init` (missing ones at 0).
//! Every error points into the herd text.

mod c;
mod c_expr;
mod cond;
mod emit;
mod error;
mod lexer;
mod x86;

pub use error::{HerdError, HerdErrors};

/// The language of a litmus file, by its first word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// relaxlab's own language (`test NAME ...`).
    Relaxlab,
    /// herd's C format (`C NAME`).
    HerdC,
    /// herd's X86 format (`X86 NAME`, also `X86_64 NAME`, which
    /// [`translate`] refuses).
    HerdX86,
}

/// The dialect of `src`, by its first word (after blanks and comments):
/// `C`, `X86` or `X86_64`; anything else is relaxlab.
pub fn detect(src: &str) -> Dialect {
    match lexer::header(src).arch {
        "C" => Dialect::HerdC,
        "X86" | "X86_64" => Dialect::HerdX86,
        _ => Dialect::Relaxlab,
    }
}

/// Translates a herd C or X86 test into relaxlab source text.
pub fn translate(src: &str) -> Result<String, HerdErrors> {
    let h = lexer::header(src);
    if h.name.is_empty() && detect(src) != Dialect::Relaxlab {
        return Err(HerdErrors::new(vec![HerdError::syntax(
            "end of line",
            "the test name after the architecture",
            h.name_span,
        )]));
    }
    let result = match detect(src) {
        Dialect::HerdC => c::translate_c(src, &h),
        Dialect::HerdX86 => x86::translate_x86(src, &h),
        Dialect::Relaxlab => Err(vec![HerdError::NotHerd {
            found: h.arch.to_string(),
            span: error::at(h.arch_span),
        }]),
    };
    result.map_err(HerdErrors::new)
}
