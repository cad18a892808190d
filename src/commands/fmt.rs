//! `relaxlab fmt`: print litmus files in canonical layout, comments kept.
//!
//! A herd7 test is formatted only on request (`--to relaxlab` or `--to
//! herd-c`): laying it out means translating it, and `--write` would
//! replace the herd file by relaxlab text. Named on the command line
//! without `--to`, it is an input error; found in a directory, it is
//! skipped with a note, so that `fmt --check litmus/` checks the relaxlab
//! tests of a library that holds herd tests too.

use miette::IntoDiagnostic;
use relaxlab_grammar::herd::{self, Dialect};

use crate::cli::{FmtArgs, FmtTarget};
use crate::exit::{Exit, Outcome};
use crate::{files, load, Io};

/// A herd test given to `fmt` without `--to`.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{path} is a herd7 {arch} test: formatting it would rewrite it in relaxlab's syntax")]
#[diagnostic(
    code(relaxlab::fmt::herd_input),
    help("pass `--to relaxlab` to print (with --write: save) its relaxlab translation, or `--to herd-c` for herd's C format")
)]
struct HerdInput {
    path: String,
    arch: &'static str,
    #[label("a herd7 {arch} test")]
    span: miette::SourceSpan,
}

/// `fmt --write -`: standard input cannot be rewritten.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("`--write` cannot rewrite standard input (`-`)")]
#[diagnostic(
    code(relaxlab::flags::write_stdin),
    help("drop `--write`: `relaxlab fmt -` prints the formatted test")
)]
pub struct WriteStdin;

pub fn fmt(args: &FmtArgs, io: &mut Io<'_>) -> Outcome {
    if args.write && args.files.iter().any(|p| p.as_os_str() == files::STDIN) {
        return Err(WriteStdin.into());
    }
    let mut exit = Exit::Ok;
    let mut skipped = 0;
    for arg in &args.files {
        let walked = arg.is_dir();
        for path in files::expand(std::slice::from_ref(arg))? {
            let file = files::read(&path)?;
            let arch = match herd::detect(&file.text) {
                Dialect::Relaxlab => None,
                Dialect::HerdC => Some("C"),
                Dialect::HerdX86 => Some("X86"),
            };
            let target = match (args.to, arch) {
                (Some(to), _) => to,
                (None, None) => FmtTarget::Relaxlab,
                (None, Some(_)) if walked => {
                    skipped += 1;
                    continue;
                }
                (None, Some(arch)) => {
                    let at = herd::first_word(&file.text);
                    let span = miette::SourceSpan::new(
                        (at.start as usize).into(),
                        (at.end - at.start) as usize,
                    );
                    let e = HerdInput {
                        path: file.path.clone(),
                        arch,
                        span,
                    };
                    io.report(&relaxlab_grammar::report(e, &file.path, &file.text));
                    exit = exit.max(Exit::InputError);
                    continue;
                }
            };
            let formatted = match target {
                FmtTarget::Relaxlab => load::format(&file),
                FmtTarget::HerdC => load::herd_c(&file),
            };
            let formatted = match formatted {
                Ok(text) => text,
                Err(report) => {
                    io.report(&report);
                    exit = exit.max(Exit::InputError);
                    continue;
                }
            };
            if args.check {
                if formatted != file.text {
                    writeln!(
                        io.out,
                        "{}: not in canonical layout (run `relaxlab fmt --write`)",
                        file.path
                    )
                    .into_diagnostic()?;
                    exit = exit.max(Exit::CheckFailed);
                }
            } else if args.write {
                if formatted != file.text {
                    std::fs::write(&path, &formatted).map_err(|source| files::WriteError {
                        path: file.path.clone(),
                        source,
                    })?;
                }
            } else {
                write!(io.out, "{formatted}").into_diagnostic()?;
            }
        }
    }
    if skipped > 0 {
        let tests = if skipped == 1 { "test" } else { "tests" };
        writeln!(
            io.err,
            "note: skipped {skipped} herd7 {tests} found in directories (`--to relaxlab` formats their translation)"
        )
        .into_diagnostic()?;
    }
    Ok(exit)
}
