//! `relaxlab parse`: parse and statically check litmus files.

use miette::IntoDiagnostic;

use super::common;
use crate::cli::ParseArgs;
use crate::exit::{Exit, Outcome};
use crate::render::plural;
use crate::Io;

pub fn parse(args: &ParseArgs, io: &mut Io<'_>) -> Outcome {
    let mut exit = Exit::Ok;
    for (file, program) in common::programs(&args.files, io, &mut exit)? {
        if args.ir {
            writeln!(io.out, "{}", relaxlab_grammar::ir_listing(&program)).into_diagnostic()?;
        } else {
            let instructions: usize = program.threads.iter().map(|t| t.code.len()).sum();
            let count = |n: usize, noun: &str| plural(n as u64, noun);
            writeln!(
                io.out,
                "{}: {} ok: {}, {}, {}, {}",
                file.path,
                program.name,
                count(program.threads.len(), "thread"),
                count(program.locations.len(), "location"),
                count(instructions, "instruction"),
                count(program.expectations.len(), "expectation")
            )
            .into_diagnostic()?;
        }
    }
    Ok(exit)
}
