//! Which language a litmus file is in, and the translation entry point.

use super::error::{self, HerdError, HerdErrors};
use super::{c, lexer, x86};
use relaxlab_semantics::ir::Span;

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

/// Where the first word of `src` (the architecture of a herd test) is.
pub fn first_word(src: &str) -> relaxlab_semantics::ir::Span {
    lexer::header(src).arch_span
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
    // A control character (ESC, DEL, ...) in the name would reach the
    // terminal, JSON and herd output as it is.
    if let Some(i) = h.name.find(|c: char| c.is_control()) {
        let c = h.name[i..].chars().next().unwrap_or('\u{fffd}');
        let at = h.name_span.start as usize + i;
        return Err(HerdErrors::new(vec![HerdError::bad_char(
            c,
            Span::new(at, at + c.len_utf8()),
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
