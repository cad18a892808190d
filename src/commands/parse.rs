//! `relaxlab parse`: parse and statically check litmus files.

use miette::IntoDiagnostic;

use super::common;
use crate::cli::ParseArgs;
use crate::exit::{Exit, Outcome};
use crate::Io;

pub fn parse(args: &ParseArgs, io: &mut Io<'_>) -> Outcome {
    let mut exit = Exit::Ok;
    for (file, program) in common::programs(&args.files, io, &mut exit)? {
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
