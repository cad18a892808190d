//! `relaxlab fmt`: print litmus files in canonical layout.

use miette::IntoDiagnostic;

use crate::cli::{FmtArgs, FmtTarget};
use crate::exit::{Exit, Outcome};
use crate::{files, load, Io};

pub fn fmt(args: &FmtArgs, io: &mut Io<'_>) -> Outcome {
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
                std::fs::write(&path, &formatted).map_err(|source| files::ReadError {
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
