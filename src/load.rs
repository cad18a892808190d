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
/// translated to relaxlab's language, which every model runs but herd's C
/// cat models: they run its reading in herd's C semantics
/// ([`Program::herd_reading`]), as herd7 does.
pub fn program(file: &SourceFile) -> Result<Program, Report> {
    program_and_warnings(file).map(|(program, _)| program)
}

/// [`program`] and [`warnings`] at once: the file is translated (a herd
/// test) and parsed once for both, where calling the two translated and
/// parsed it twice, which was a fifth of the work of `run` on a batch of
/// small herd tests.
pub fn program_and_warnings(file: &SourceFile) -> Result<(Program, Vec<Report>), Report> {
    let dialect = herd::detect(&file.text);
    let translated = if dialect == Dialect::HerdC {
        let setup = crate::herd_conf::current();
        let kernel = |text: &str| {
            herd::kernel::load(
                text,
                setup.macros.as_ref().map(|(_, m)| m.as_ref()),
                setup.semantics(),
            )
        };
        if setup.macros.is_some() {
            let program = kernel(&file.text).map_err(|e| report(e, &file.path, &file.text))?;
            return Ok((program, warnings(file)));
        }
        match relaxlab_text(file) {
            Ok(translated) => translated,
            Err(first) => {
                return match kernel(&file.text) {
                    Ok(p) => Ok((p, Vec::new())),
                    // A kernel test read without its macro file: say so.
                    Err(e) if e.names_a_macro() || e.is_about_an_array() => {
                        Err(report(e, &file.path, &file.text))
                    }
                    Err(_) => Err(first),
                };
            }
        }
    } else {
        relaxlab_text(file)?
    };
    let (name, text) = translated;
    let ast = relaxlab_grammar::parse(&text).map_err(|e| report(e, name.clone(), &text))?;
    let mut program = relaxlab_grammar::lower(&ast).map_err(|e| report(e, name.clone(), &text))?;
    let warnings = warnings_of(&ast, &name, &text);
    if dialect == Dialect::HerdC {
        program.herd_reading = herd_reading(file, &program);
    }
    Ok((program, warnings))
}

/// A plain herd C test (no macro file) whose statements make several
/// memory accesses each, read in herd's C semantics as well, for herd's C
/// cat models, which take herd's reading: the operands of an operator
/// unsequenced, a statement's accesses ordered by no `po` among
/// themselves (book: herd.md, Unsequenced operands). `None` when every
/// statement makes one access at most (both readings are then the same
/// executions), or when herd's semantics in relaxlab does not read the
/// test (a C11 read-modify-write, an expression nested beyond the herd
/// importers' bound): the translation stands for it.
fn herd_reading(file: &SourceFile, program: &Program) -> Option<std::sync::Arc<Program>> {
    if !may_have_unsequenced_accesses(program) {
        return None;
    }
    let setup = crate::herd_conf::current();
    let semantics = herd::kernel::Semantics {
        c11: true,
        ..setup.semantics()
    };
    herd::kernel::load(&file.text, None, semantics)
        .ok()
        .filter(|p| p.c.as_ref().is_some_and(|c| c.has_unsequenced_accesses()))
        .map(std::sync::Arc::new)
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
    warnings_of(&ast, &name, &text)
}

/// The warnings about the syntax tree `ast` of `text`, each with its source.
fn warnings_of(ast: &relaxlab_grammar::ast::Test, name: &str, text: &str) -> Vec<Report> {
    relaxlab_grammar::warnings(ast)
        .into_iter()
        .map(|w| report(w, name.to_string(), text))
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

/// Could some statement of the test make two memory accesses? The
/// translation hoists an access inside a larger expression (and the
/// accesses of a compare-exchange or a loop's condition) into a fresh
/// register `tN`; a test without one makes one access per statement at
/// most, and is read once (long expressions without accesses are not read
/// a second time).
fn may_have_unsequenced_accesses(program: &Program) -> bool {
    program.threads.iter().flat_map(|th| &th.regs).any(|r| {
        r.strip_prefix('t')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}
