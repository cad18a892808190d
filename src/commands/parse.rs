//! `relaxlab parse`: parse and statically check litmus files.

use miette::IntoDiagnostic;

use crate::cli::ParseArgs;
use crate::exit::{Exit, Outcome};
use crate::{files, load, Io};

pub fn parse(args: &ParseArgs, io: &mut Io<'_>) -> Outcome {
    let mut exit = Exit::Ok;
    for path in files::expand(&args.files)? {
        let file = files::read(&path)?;
        let program = match load::program(&file) {
            Ok(p) => p,
            Err(report) => {
                io.report(&report);
                exit = exit.max(Exit::InputError);
                continue;
            }
        };
        if args.ir {
            writeln!(io.out, "{}", relaxlab_grammar::ir_listing(&program)).into_diagnostic()?;
        } else {
            let instructions: usize = program.threads.iter().map(|t| t.code.len()).sum();
            writeln!(
                io.out,
                "{}: {} ok: {} threads, {} locations, {} instructions, {} expectations",
                file.path,
                program.name,
                program.threads.len(),
                program.locations.len(),
                instructions,
                program.expectations.len()
            )
            .into_diagnostic()?;
        }
    }
    Ok(exit)
}
