//! From a file on disk to a checked program, with diagnostics that carry
//! their source.
//!
//! A file is read as relaxlab's own language, or, when its first token is
//! `C` or `X86`, as a herd7 test: the importer translates it to relaxlab
//! text first (`relaxlab_grammar::herd`), and that text is parsed. Errors
//! of the importer point into the herd text; errors found after
//! translation point into the translation, which is named as such.

use miette::Report;
use relaxlab_grammar::herd::{self, Dialect};
use relaxlab_grammar::report;
use relaxlab_semantics::ir::{ModelKey, Program};

use crate::files::SourceFile;

/// The relaxlab text of a file: the file itself, or its translation.
pub fn relaxlab_text(file: &SourceFile) -> Result<(String, String), Report> {
    match herd::detect(&file.text) {
        Dialect::Relaxlab => Ok((file.path.clone(), file.text.clone())),
        Dialect::HerdC | Dialect::HerdX86 => herd::translate(&file.text)
            .map(|text| (format!("{} (translated from herd7)", file.path), text))
            .map_err(|e| report(e, &file.path, &file.text)),
    }
}

/// Parses and lowers a file; the error renders with its source.
///
/// A herd C test is read in herd's C semantics
/// (`relaxlab_grammar::herd::kernel`) when a macro file is in effect
/// (`--macros`, `--conf`: the kernel's primitives are macros), or when the
/// importer to relaxlab's instructions refuses it and herd's semantics
/// reads it (pointers, herd's annotated primitives). Otherwise it is
/// translated to relaxlab's language, which every model runs.
pub fn program(file: &SourceFile) -> Result<Program, Report> {
    if herd::detect(&file.text) == Dialect::HerdC {
        let setup = crate::herd_conf::current();
        let kernel = |text: &str| {
            herd::kernel::load(
                text,
                setup.macros.as_ref().map(|(_, m)| m.as_ref()),
                setup.semantics(),
            )
        };
        if setup.macros.is_some() {
            return kernel(&file.text).map_err(|e| report(e, &file.path, &file.text));
        }
        if let Err(first) = relaxlab_text(file) {
            return match kernel(&file.text) {
                Ok(p) => Ok(p),
                // A kernel test read without its macro file: say so.
                Err(e) if e.names_a_macro() => Err(report(e, &file.path, &file.text)),
                Err(_) => Err(first),
            };
        }
    }
    let (name, text) = relaxlab_text(file)?;
    relaxlab_grammar::load(&text).map_err(|e| report(e, name, &text))
}

/// The warnings about a file that loads: things it very likely does not
/// mean (`relaxlab_grammar::warnings`), each with its source.
pub fn warnings(file: &SourceFile) -> Vec<Report> {
    let Ok((name, text)) = relaxlab_text(file) else {
        return Vec::new();
    };
    let Ok(ast) = relaxlab_grammar::parse(&text) else {
        return Vec::new();
    };
    relaxlab_grammar::warnings(&ast)
        .into_iter()
        .map(|w| report(w, name.clone(), &text))
        .collect()
}

/// The file in canonical relaxlab layout (a herd test is translated).
pub fn format(file: &SourceFile) -> Result<String, Report> {
    let (name, text) = relaxlab_text(file)?;
    relaxlab_grammar::parse(&text)
        .map(|ast| relaxlab_grammar::format(&ast))
        .map_err(|e| report(e, name, &text))
}

/// A diagnostic about `file`'s program (its spans point into the relaxlab
/// text, the translation for a herd test), with that text attached.
pub fn attach<D>(e: D, file: &SourceFile) -> Report
where
    D: miette::Diagnostic + Send + Sync + 'static,
{
    let (name, text) =
        relaxlab_text(file).unwrap_or_else(|_| (file.path.clone(), file.text.clone()));
    report(e, name, &text)
}

/// Refuses a program the model cannot take: mixed atomic and non-atomic
/// accesses, hardware barriers under the C11 models
/// (book: language.md, Static errors).
pub fn check_model(program: &Program, key: ModelKey, file: &SourceFile) -> Result<(), Report> {
    relaxlab_grammar::check_model(program, key).map_err(|e| attach(e, file))
}

/// The file as a herd7 C litmus test (`fmt --to herd-c`).
pub fn herd_c(file: &SourceFile) -> Result<String, Report> {
    let (name, text) = relaxlab_text(file)?;
    let ast = relaxlab_grammar::parse(&text).map_err(|e| report(e, name.clone(), &text))?;
    herd::to_herd_c(&ast).map_err(|e| report(e, name, &text))
}
