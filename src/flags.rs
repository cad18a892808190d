//! Flags that would have no effect in a combination: never dropped
//! silently.
//!
//! A flag that cannot mean anything with the other flags given (`--strategy`
//! without `--sample`, `--witness` with `--format herd`, a model named
//! twice) is an error, exit code 2, before anything runs. A flag that
//! applies to some kinds of model only, when no model of that kind runs
//! (`--unroll` with operational models only: the models may come from
//! `relaxlab.toml`), is a warning on standard error. Values from
//! `relaxlab.toml` are project defaults and are never warned about.

use relaxlab_semantics::ir::ModelKey;

use crate::cli::{CompareArgs, EngineArgs, Format, ReportFormat, RunArgs};
use crate::Io;

/// A flag that has no effect with the others given.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("`{flag}` has no effect {why}")]
#[diagnostic(code(relaxlab::flags::no_effect), help("{help}"))]
pub struct NoEffect {
    flag: &'static str,
    why: &'static str,
    help: &'static str,
}

/// A flag that applies to no model of this run.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("`{flag}` has no effect here: {why}")]
#[diagnostic(code(relaxlab::flags::unused), severity(Warning))]
pub struct Unused {
    flag: &'static str,
    why: String,
}

fn no_effect(flag: &'static str, why: &'static str, help: &'static str) -> NoEffect {
    NoEffect { flag, why, help }
}

/// Prints a warning about `flag`.
pub fn warn(io: &mut Io<'_>, flag: &'static str, why: impl Into<String>) {
    io.report(&miette::Report::new(Unused {
        flag,
        why: why.into(),
    }));
}

/// `compare`'s flags: `--dot -` draws after the tables, so with `--format
/// json`, whose standard output is one JSON document, it would draw
/// nothing.
pub fn check_compare(args: &CompareArgs) -> Result<(), NoEffect> {
    if args.format == ReportFormat::Json && args.dot.as_deref() == Some(std::path::Path::new("-")) {
        return Err(no_effect(
            "--dot -",
            "with `--format json`",
            "write the graphs to a file (`--dot FILE`); the JSON's `evidence` lists their edges as text",
        ));
    }
    Ok(())
}

/// `run`'s flags, with the output format and models resolved (flags, then
/// `relaxlab.toml`) and `cats` the number of `--cat` models, which the
/// axiomatic engine runs: errors first, then warnings on `io`.
pub fn check_run(
    args: &RunArgs,
    format: Format,
    models: &[ModelKey],
    cats: usize,
    io: &mut Io<'_>,
) -> Result<(), NoEffect> {
    let random = args.sample.is_some() || args.replay.is_some();
    if args.strategy.is_some() && !random {
        return Err(no_effect(
            "--strategy",
            "without `--sample` or `--replay`",
            "exhaustive exploration follows every schedule: add `--sample N`",
        ));
    }
    if args.max_steps.is_some() && !random {
        return Err(no_effect(
            "--max-steps",
            "without `--sample` or `--replay`",
            "exhaustive exploration bounds states instead: `--max-states N`",
        ));
    }
    if args.herd_time && format != Format::Herd {
        return Err(no_effect(
            "--herd-time",
            "without `--format herd`",
            "add `--format herd`",
        ));
    }
    if args.witness && format == Format::Herd {
        return Err(no_effect(
            "--witness",
            "with `--format herd`",
            "herd7's format has no traces: use `--format table` or `--format json`",
        ));
    }
    let ax = cats > 0 || models.iter().any(|k| matches!(k, ModelKey::Ax(_)));
    if args.sample.is_some() && ax {
        return Err(no_effect(
            "--sample",
            "on the axiomatic models",
            "the axiomatic engine does not sample: run the axiomatic models without `--sample`",
        ));
    }
    let op = models.iter().any(|k| matches!(k, ModelKey::Op(_)));
    let hardware = models.iter().any(|k| match k {
        ModelKey::Op(m) => !m.is_c11(),
        ModelKey::Ax(m) => !m.is_c11(),
    });
    // `--search mcr` unrolls the loops of the operational models too.
    let unrolls = ax || (op && args.search == Some(crate::cli::SearchArg::Mcr));
    // Several files run at once on the workers (a directory stands for
    // its files).
    let several_files = args.files.len() > 1 || args.files.iter().any(|f| f.is_dir());
    warn_engine(&args.engine, op, ax, unrolls, hardware, several_files, io);
    Ok(())
}

/// Warnings for the engine flags given on the command line when the
/// models that run are operational (`op`), axiomatic (`ax`), some unroll
/// loops (`unrolls`: the axiomatic ones and `--search mcr`), hardware
/// models (`hardware`, the ones `--mapping` concerns) or not, on one file
/// or on `several_files` (which `--jobs` spreads over its workers).
pub fn warn_engine(
    args: &EngineArgs,
    op: bool,
    ax: bool,
    unrolls: bool,
    hardware: bool,
    several_files: bool,
    io: &mut Io<'_>,
) {
    if !unrolls && args.unroll.is_some() {
        warn(
            io,
            "--unroll",
            "it bounds the axiomatic models and `--search mcr`, and none runs",
        );
    }
    if !ax && args.max_candidates.is_some() {
        warn(
            io,
            "--max-candidates",
            "it bounds the axiomatic models, and none runs",
        );
    }
    if !op {
        if args.max_states.is_some() {
            warn(
                io,
                "--max-states",
                "it bounds the operational models, and none runs",
            );
        }
        if args.max_depth.is_some() {
            warn(
                io,
                "--max-depth",
                "it bounds the operational models, and none runs",
            );
        }
        if args.jobs.is_some() && !several_files {
            warn(
                io,
                "--jobs",
                "the axiomatic engine runs on one thread, no operational model runs, and \
                 there is one file",
            );
        }
    }
    if args.mapping.is_some() && !hardware {
        warn(
            io,
            "--mapping",
            "it compiles C11 orders for the hardware models, and only C11 models run",
        );
    }
    if args.max_memory.is_some() && crate::limits::resident_bytes().is_none() {
        warn(
            io,
            "--max-memory",
            "this system does not report the process's resident memory",
        );
    }
}

/// Engine flags of commands that never run the axiomatic engine (`races`,
/// `confirm`).
pub fn operational_only(args: &EngineArgs, command: &'static str) -> Result<(), NoEffect> {
    let why = match command {
        "races" => "on `races`, which explores operational models only",
        _ => "on `confirm`, which runs operational models only",
    };
    let help = "drop it: it bounds the axiomatic engine";
    if args.unroll.is_some() {
        return Err(no_effect("--unroll", why, help));
    }
    if args.max_candidates.is_some() {
        return Err(no_effect("--max-candidates", why, help));
    }
    Ok(())
}

/// `--mapping` on `races`: every model of `races` (c11r, c11t, SC with C11
/// happens-before) takes C11 orders as written.
pub fn races_mapping(args: &EngineArgs, io: &mut Io<'_>) {
    if args.mapping.is_some() {
        warn(
            io,
            "--mapping",
            "the models of `races` take C11 orders as written",
        );
    }
}
