//! The relaxlab command line as a library: `main` is a thin wrapper around
//! [`run_cli`], so integration tests and the book's output generator run
//! exactly what users run, in-process.
//!
//! This crate is the only place that prints (README.md, Architecture, invariant 1).

pub mod batch;
pub mod cat;
pub mod cli;
pub mod commands;
pub mod config;
pub mod engine;
pub mod exit;
pub mod files;
pub mod flags;
pub mod herd_conf;
pub mod herd_log;
pub mod interrupt;
pub mod limits;
pub mod load;
pub mod model;
pub mod names;
pub mod progress;
pub mod render;
pub mod serve;
pub mod stdout;
pub mod values;

use std::io::Write;

use std::ffi::OsString;

use clap::{Args, FromArgMatches, Parser};

pub use exit::Exit;

/// Where a command writes: standard output and standard error, or buffers
/// in tests.
pub struct Io<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
}

impl std::fmt::Debug for Io<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Io")
    }
}

impl Io<'_> {
    /// Prints a diagnostic on the error stream.
    pub fn report(&mut self, report: &miette::Report) {
        let _ = writeln!(self.err, "{report:?}");
    }
}

/// Parses the command line (`args[0]` is the program name). clap builds
/// the arguments of every subcommand before it parses, and that was the
/// largest part of relaxlab's own start-up. So `relaxlab run ...`, the
/// command batches run, is first parsed by a command that knows `run`
/// alone, whose arguments are those of `run` in the whole command (clap
/// builds them by the same `RunArgs::augment_args`); anything it does not
/// accept as it is (help, version, a mistake) is parsed again by the whole
/// command, which answers as it always did.
fn parse_args(args: Vec<OsString>) -> Result<cli::Cli, clap::Error> {
    if args.get(1).is_some_and(|a| a == "run") {
        let run_alone = clap::Command::new("relaxlab")
            .subcommand(cli::RunArgs::augment_args(clap::Command::new("run")));
        if let Ok(matches) = run_alone.try_get_matches_from(&args) {
            if let Ok(cli) = cli::Cli::from_arg_matches(&matches) {
                return Ok(cli);
            }
        }
    }
    cli::Cli::try_parse_from(args)
}

/// Runs relaxlab with `args` (the first is the program name) and returns
/// its exit status.
pub fn run_cli<I, T>(args: I, io: &mut Io<'_>) -> Exit
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match parse_args(args.into_iter().map(Into::into).collect()) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                Exit::InputError
            } else {
                Exit::Ok
            };
            let _ = write!(
                if e.use_stderr() {
                    &mut *io.err
                } else {
                    &mut *io.out
                },
                "{}",
                e.render()
            );
            return code;
        }
    };
    // Each command starts from herd7's default configuration.
    herd_conf::reset();
    let result = match &cli.command {
        cli::Command::Run(a) => commands::run::run(a, io),
        cli::Command::Check(a) => commands::check::check(a, io),
        cli::Command::Parse(a) => commands::parse::parse(a, io),
        cli::Command::Fmt(a) => commands::fmt::fmt(a, io),
        cli::Command::Compare(a) => commands::compare::compare(a, io),
        cli::Command::Races(a) => commands::races::races(a, io),
        cli::Command::Predict(a) => commands::relaxer::predict(a, io),
        cli::Command::Confirm(a) => commands::relaxer::confirm(a, io),
        cli::Command::Bench(a) => commands::bench::bench(a, io),
        cli::Command::Repair(a) => commands::repair::repair(a, io),
        cli::Command::Serve(a) => serve::serve(a, io),
        cli::Command::Merge(a) => commands::merge::merge(a, io),
    };
    match result {
        Ok(exit) => exit,
        Err(report) => {
            io.report(&report);
            Exit::InputError
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The command that knows `run` alone parses what the whole command
    /// parses, to the same values, and leaves the rest to it.
    #[test]
    fn run_parsed_alone_is_run_parsed_by_the_whole_command() {
        let lines = [
            "run a.litmus",
            "run a.litmus b.litmus --model sc,tso --witness",
            "run a.litmus --axiomatic tso --format herd",
            "run - --cat x.cat --cat-path d --jobs 1",
            "run a.litmus --conf linux-kernel.cfg --timeout 60",
            "run a.litmus --model tso --sample 1000 --seed 7",
            "run a.litmus --jobs many",
            "run --help",
            "run --version",
            "run",
            "runs a.litmus",
        ];
        for line in lines {
            let args: Vec<OsString> = std::iter::once("relaxlab")
                .chain(line.split(' '))
                .map(OsString::from)
                .collect();
            let fast = parse_args(args.clone()).map_err(|e| e.render().to_string());
            let whole = cli::Cli::try_parse_from(args).map_err(|e| e.render().to_string());
            assert_eq!(format!("{fast:?}"), format!("{whole:?}"), "{line:?}");
        }
    }
}
