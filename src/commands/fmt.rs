//! `relaxlab fmt`: print litmus files in canonical layout.

use miette::IntoDiagnostic;

use crate::cli::{FmtArgs, FmtTarget};
use crate::exit::{Exit, Outcome};
use crate::{files, load, Io};

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
    for path in files::expand(&args.files)? {
        let file = files::read(&path)?;
        let formatted = match args.to {
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
    Ok(exit)
}
