//! `relaxlab run`: outcome tables under operational and axiomatic models.
//!
//! Exit code of one run: 1 when some execution fails (a false `assert`, a
//! division by zero, a bad `join`, a deadlock, a divergence) and the test's
//! `expect` block does not say `MODEL.assert: sometimes` (GenMC and
//! Nidhugg exit non-zero on a failed assertion too), 3 when a bound cut the
//! result short, 130 after Ctrl-C; the command exits with the most severe.

use std::time::Instant;

use miette::IntoDiagnostic;
use relaxlab_semantics::ir::{ModelKey, OpModel, Program, Subject, Verdict};
use relaxlab_semantics::operational::Strategy;
use relaxlab_semantics::outcome::{BoundHit, OutcomeTable, Trace};

use super::common;
use crate::cli::{Format, RunArgs, StrategyArg};
use crate::config::Config;
use crate::engine::{self, Ran, Sampling, Settings};
use crate::exit::{Exit, Outcome};
use crate::model::Model;
use crate::render::{dot, herd, json, table, trace};
use crate::values::{Partition, Replay};
use crate::{flags, interrupt, load, Io};

/// The step bound of one sampled run when `--max-steps` is not given.
pub const DEFAULT_MAX_STEPS: u64 = 10_000;

/// A flag combination that makes no sense.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum FlagError {
    #[error("`--replay` needs exactly one operational model")]
    #[diagnostic(code(relaxlab::flags::replay_model), help("pass one `--model`"))]
    ReplayModel,
}

pub(crate) fn strategy(s: StrategyArg) -> Strategy {
    match s {
        StrategyArg::Uniform => Strategy::Uniform,
        StrategyArg::Delay => Strategy::Delay,
        StrategyArg::Old => Strategy::Old,
        StrategyArg::C11Tester => Strategy::C11Tester,
    }
}

/// The models to run: the flags', else `relaxlab.toml`'s, else `sc` (none
/// when only `--cat` models are given); each named once.
fn models(
    args: &RunArgs,
    config: &Config,
    cats_given: &[crate::cat::CatFile],
) -> Result<Vec<ModelKey>, miette::Report> {
    let mut models = common::op_models(&args.model)?;
    models.extend(common::ax_models(&args.axiomatic)?);
    if models.is_empty() && cats_given.is_empty() {
        models.extend(common::op_models(&config.models().unwrap_or_default())?);
        models.extend(common::ax_models(&config.axiomatic().unwrap_or_default())?);
    }
    if models.is_empty() && cats_given.is_empty() {
        models = common::op_models(&["sc".to_string()])?;
    }
    common::distinct(&models)?;
    Ok(models)
}

pub fn run(args: &RunArgs, io: &mut Io<'_>) -> Outcome {
    let config = common::config()?;
    let mut settings = common::settings(&args.engine, &config);
    settings.progress = common::stderr_is_terminal();
    settings.search = common::search(args.search);
    let format = args.format.or(config.format).unwrap_or(Format::Table);
    let cats = crate::cat::load_for(&args.cat, io)?;
    let models = models(args, &config, &cats)?;
    flags::check_run(args, format, &models, cats.len(), io)?;
    // Started when an operational model first needs it: the axiomatic
    // engine is sequential.
    let mut pool: Option<rayon::ThreadPool> = None;
    let mut sink = args.dot.as_deref().map(dot::Sink::open).transpose()?;

    if let Some(spec) = args.replay {
        return replay(args, spec, &models, &settings, io);
    }
    if let Some(runs) = args.sample {
        settings.sampling = Some(Sampling {
            runs,
            seed: args.seed.unwrap_or(0),
            strategy: strategy(args.strategy.unwrap_or(StrategyArg::Uniform)),
            max_steps: args.max_steps.unwrap_or(DEFAULT_MAX_STEPS),
        });
    }

    let mut exit = Exit::Ok;
    let mut json_runs = Vec::new();
    let mut graphs: Vec<json::Graph> = Vec::new();
    let mut first = true;
    let mut interrupted = false;
    let part = args.partition.unwrap_or(Partition::WHOLE);
    let corpus = common::corpus(&args.files, part, io, &mut exit)?;
    if format == Format::Jsonl {
        let header = json::PartHeader::new("run", part, corpus.files);
        writeln!(
            io.out,
            "{}",
            serde_json::to_string(&header).into_diagnostic()?
        )
        .into_diagnostic()?;
    }
    'files: for (index, file, program) in corpus.programs {
        let jobs = models
            .iter()
            .map(|&k| Model::from(k))
            .chain(cats.iter().map(Model::Cat));
        for model in jobs {
            if interrupt::requested() {
                interrupted = true;
                break 'files;
            }
            let key = model.key();
            if let Err(report) = model.check(&program, &file) {
                io.report(&report);
                exit = exit.max(Exit::InputError);
                continue;
            }
            let started = Instant::now();
            // The axiomatic engine is sequential: run its models here
            // rather than hand them to a worker thread (a context switch
            // per test); the pool is started when an operational model
            // first needs it.
            let result = match model {
                Model::Op(_) => {
                    let workers = match pool.take() {
                        Some(p) => p,
                        None => common::pool(&args.engine, &config)?,
                    };
                    let result =
                        workers.install(|| engine::run_detailed(&program, model, &settings));
                    pool = Some(workers);
                    result
                }
                _ => engine::run_detailed(&program, model, &settings),
            };
            let program_ran = engine::program_for(&program, model, &settings);
            let ran = match result.map_err(|e| load::attach(e, &file)) {
                Ok(r) => r,
                Err(report) => {
                    io.report(&report);
                    exit = exit.max(Exit::InputError);
                    continue;
                }
            };
            let elapsed = started.elapsed();
            let run_graphs: Vec<json::Graph> = match &args.dot {
                None => Vec::new(),
                Some(_) => dot::per_outcome(model, &program, &program_ran, &ran.table, &settings)
                    .into_values()
                    .collect(),
            };
            exit = exit.max(run_exit(&program, key, &ran.table));
            let mode = model.mode(&settings);
            match format {
                Format::Table | Format::Herd => {
                    // herd's blocks end with their own blank line.
                    if !first && format == Format::Table {
                        writeln!(io.out).into_diagnostic()?;
                    }
                    first = false;
                    let text = match format {
                        Format::Herd => herd::render_with(
                            &program_ran,
                            &ran.table,
                            mode,
                            args.herd_time,
                            (models.len() + cats.len() > 1).then_some(ran.table.model.as_str()),
                            ran.mcr.as_ref(),
                        ),
                        _ => render_ran(&program_ran, key, &ran, mode, args.witness),
                    };
                    write!(io.out, "{text}").into_diagnostic()?;
                    io.out.flush().into_diagnostic()?;
                    if settings.progress && format == Format::Table {
                        let _ = writeln!(io.err, "  ({} in {:.2?})", ran.table.model, elapsed);
                    }
                    if args.dot.is_some() {
                        graphs.extend(with_bounds(&program_ran, &ran.table, run_graphs));
                    }
                }
                Format::Json | Format::Jsonl => {
                    // With `--dot -` the graphs go inside the run's object
                    // (whose `bounds` say whether the run is partial).
                    let inside = match sink {
                        Some(dot::Sink::Stdout) => Some(run_graphs),
                        Some(dot::Sink::File(..)) => {
                            graphs.extend(with_bounds(&program_ran, &ran.table, run_graphs));
                            None
                        }
                        None => None,
                    };
                    let extras = json::RunExtras {
                        first_runs: ran.first_runs.as_ref(),
                        non_sc_known: non_sc_known(key, &ran, &settings),
                        graphs: inside,
                        mcr: ran.mcr.as_ref(),
                    };
                    let run = json::run_with(
                        &file.path,
                        &program_ran,
                        key,
                        &ran.table,
                        mode,
                        args.witness,
                        extras,
                    );
                    if format == Format::Jsonl {
                        let line = json::Line {
                            file_index: index,
                            run,
                        };
                        let text = serde_json::to_string(&line).into_diagnostic()?;
                        writeln!(io.out, "{text}").into_diagnostic()?;
                        io.out.flush().into_diagnostic()?;
                    } else {
                        json_runs.push(run);
                    }
                }
            }
            if ran.table.bounds.contains(&BoundHit::Interrupted) {
                interrupted = true;
                break 'files;
            }
        }
    }
    let dots: Vec<String> = graphs.into_iter().map(|g| g.dot).collect();
    match &mut sink {
        Some(dot::Sink::Stdout) if !matches!(format, Format::Json | Format::Jsonl) => {
            writeln!(io.out, "\n{}", dots.join("\n")).into_diagnostic()?;
        }
        Some(sink) => sink.write_file(&dots, &mut *io.err)?,
        None => {}
    }
    if format == Format::Json {
        serde_json::to_writer_pretty(&mut *io.out, &json_runs).into_diagnostic()?;
        writeln!(io.out).into_diagnostic()?;
    }
    if interrupted {
        exit = Exit::Interrupted;
        let _ = writeln!(
            io.err,
            "relaxlab: interrupted (Ctrl-C); the output stops at the interrupted run"
        );
    }
    Ok(exit)
}

/// Does the test's `expect` block say that executions fail under `key`?
pub fn failure_expected(program: &Program, key: ModelKey) -> bool {
    program
        .expectations
        .iter()
        .any(|e| e.model == key && e.subject == Subject::Failure && e.verdict == Verdict::Sometimes)
}

/// The exit code one table calls for (see the module docs).
pub fn run_exit(program: &Program, key: ModelKey, table: &OutcomeTable) -> Exit {
    let mut exit = Exit::Ok;
    if table.fails() && !failure_expected(program, key) {
        exit = Exit::CheckFailed;
    }
    if !table.complete() {
        exit = exit.max(Exit::Partial);
    }
    if table.bounds.contains(&BoundHit::Interrupted) {
        exit = Exit::Interrupted;
    }
    exit
}

/// Are the rows' `non_sc` notes decided (JSON's `non_sc_known`)?
pub(crate) fn non_sc_known(key: ModelKey, ran: &Ran, settings: &Settings) -> bool {
    matches!(key, ModelKey::Op(m) if m != OpModel::Sc)
        && settings.mark_non_sc
        && ran.non_sc_unknown.is_none()
        && !engine::out_of_budget(&ran.table)
}

/// How a table under `key` was produced.
pub fn mode(key: ModelKey, settings: &Settings) -> table::Mode {
    Model::from(key).mode(settings)
}

/// The table of one run of `ran`, the program the model ran (after the
/// mapping, so inserted fences show in witnesses).
pub fn render_table(
    ran: &Program,
    key: ModelKey,
    table: &OutcomeTable,
    mode: table::Mode,
    witness: bool,
) -> String {
    let render_trace = |t: &Trace| trace::lines(ran, key, t);
    table::render(
        ran,
        table,
        mode,
        witness.then_some(&render_trace as &dyn Fn(&Trace) -> Vec<String>),
    )
}

/// [`render_table`] with what the engine said beside the table: the run
/// behind each sampled witness, missing `non-SC` notes.
pub fn render_ran(
    program: &Program,
    key: ModelKey,
    ran: &Ran,
    mode: table::Mode,
    witness: bool,
) -> String {
    let render_trace = |t: &Trace| trace::lines(program, key, t);
    table::render_with(
        program,
        &ran.table,
        mode,
        witness.then_some(&render_trace as &dyn Fn(&Trace) -> Vec<String>),
        table::Extras {
            first_runs: ran.first_runs.as_ref(),
            non_sc_unknown: ran.non_sc_unknown.as_ref(),
            mcr: ran.mcr.as_ref(),
        },
    )
}

fn replay(
    args: &RunArgs,
    spec: Replay,
    models: &[ModelKey],
    settings: &Settings,
    io: &mut Io<'_>,
) -> Outcome {
    let Replay { seed, index } = spec;
    let [key @ ModelKey::Op(_)] = models else {
        return Err(FlagError::ReplayModel.into());
    };
    let strategy_arg = args.strategy.unwrap_or(StrategyArg::Uniform);
    let sampling = Sampling {
        // `index` is below `u64::MAX` (`values::replay`).
        runs: index + 1,
        seed,
        strategy: strategy(strategy_arg),
        max_steps: args.max_steps.unwrap_or(DEFAULT_MAX_STEPS),
    };
    let settings = Settings {
        sampling: Some(sampling),
        ..settings.clone()
    };
    let mut exit = Exit::Ok;
    for (file, program) in common::programs(&args.files, io, &mut exit)? {
        load::check_model(&program, *key, &file)?;
        let ran = engine::program_for(&program, *key, &settings);
        let Some((trace, outcome)) = engine::replay(&program, *key, &settings, index)? else {
            continue;
        };
        writeln!(
            io.out,
            "{} under {}: run {index} of seed {seed} ({:?} strategy)",
            program.name, key, strategy_arg
        )
        .into_diagnostic()?;
        for line in trace::lines(&ran, *key, &trace) {
            writeln!(io.out, "    {line}").into_diagnostic()?;
        }
        match outcome {
            Some(values) => {
                writeln!(
                    io.out,
                    "  outcome: {}",
                    dot::outcome_text(&program, &values)
                )
                .into_diagnostic()?;
            }
            None => writeln!(
                io.out,
                "  no outcome (the run failed, was discarded or hit --max-steps)"
            )
            .into_diagnostic()?,
        }
    }
    Ok(exit)
}

/// A run's graphs for a DOT file, after a comment line per bound that cut
/// the run short (outcomes beyond it have no graph).
fn with_bounds(
    program: &Program,
    table: &OutcomeTable,
    graphs: Vec<json::Graph>,
) -> Vec<json::Graph> {
    let notes: String = table
        .bounds
        .iter()
        .map(|b| {
            format!(
                "// {} under {}: PARTIAL: {}\n",
                program.name,
                table.model,
                table::describe_bound(b)
            )
        })
        .collect();
    if notes.is_empty() {
        return graphs;
    }
    let note = json::Graph {
        name: format!("{} under {}: bounds", program.name, table.model),
        dot: notes,
    };
    std::iter::once(note).chain(graphs).collect()
}
