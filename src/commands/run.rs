//! `relaxlab run`: outcome tables under operational and axiomatic models.

use std::time::Instant;

use miette::IntoDiagnostic;
use relaxlab_semantics::axiomatic;
use relaxlab_semantics::ir::{ModelKey, OpModel, Program, Value};
use relaxlab_semantics::operational::Strategy;
use relaxlab_semantics::outcome::{OutcomeTable, Trace};

use super::common;
use crate::cli::{Format, RunArgs, StrategyArg};
use crate::engine::{self, Sampling, Settings};
use crate::exit::{Exit, Outcome};
use crate::render::{json, table, trace};
use crate::{load, Io};

/// A flag combination that makes no sense.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum FlagError {
    #[error("`--replay` expects SEED:INDEX, got `{0}`")]
    #[diagnostic(
        code(relaxlab::flags::replay),
        help("for example `--replay 7:42` replays run 42 of seed 7")
    )]
    Replay(String),
    #[error("`--replay` needs exactly one operational model")]
    #[diagnostic(code(relaxlab::flags::replay_model), help("pass one `--model`"))]
    ReplayModel,
}

fn strategy(s: StrategyArg) -> Strategy {
    match s {
        StrategyArg::Uniform => Strategy::Uniform,
        StrategyArg::Delay => Strategy::Delay,
        StrategyArg::Old => Strategy::Old,
        StrategyArg::C11Tester => Strategy::C11Tester,
    }
}

pub fn run(args: &RunArgs, io: &mut Io<'_>) -> Outcome {
    let config = common::config()?;
    let mut settings = common::settings(&args.engine, &config);
    settings.progress = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let pool = common::pool(&args.engine, &config)?;
    let format = args.format.or(config.format).unwrap_or(Format::Table);

    let mut models = common::op_models(&args.model)?;
    models.extend(common::ax_models(&args.axiomatic)?);
    if models.is_empty() {
        let op = config.models.clone().unwrap_or_default();
        let ax = config.axiomatic.clone().unwrap_or_default();
        models.extend(common::op_models(&op)?);
        models.extend(common::ax_models(&ax)?);
    }
    if models.is_empty() {
        models = common::op_models(&["sc".to_string()])?;
    }

    let mut dots = Vec::new();
    if let Some(spec) = &args.replay {
        return replay(args, spec, &models, &settings, io);
    }
    if let Some(runs) = args.sample {
        settings.sampling = Some(Sampling {
            runs,
            seed: args.seed,
            strategy: strategy(args.strategy),
            max_steps: args.max_steps,
        });
    }

    let mut exit = Exit::Ok;
    let mut json_runs = Vec::new();
    let mut first = true;
    for (file, program) in common::programs(&args.files, io, &mut exit)? {
        for &key in &models {
            if let Err(report) = load::check_model(&program, key, &file) {
                io.report(&report);
                exit = exit.max(Exit::InputError);
                continue;
            }
            let started = Instant::now();
            let ran = engine::program_for(&program, key, &settings);
            let table = match pool.install(|| engine::run(&program, key, &settings)) {
                Ok(t) => t,
                Err(e) => {
                    io.report(&load::attach(e, &file));
                    exit = exit.max(Exit::InputError);
                    continue;
                }
            };
            let elapsed = started.elapsed();
            match (&args.dot, key) {
                (Some(_), ModelKey::Ax(m)) => {
                    dots.extend(execution_graphs(&program, m, &settings));
                }
                (Some(_), ModelKey::Op(m)) => dots.extend(lifted_graphs(&ran, m, &table)),
                (None, _) => {}
            }
            if !table.complete() {
                exit = exit.max(Exit::Partial);
            }
            let mode = mode(key, &settings);
            match format {
                Format::Table => {
                    if !first {
                        writeln!(io.out).into_diagnostic()?;
                    }
                    first = false;
                    write!(
                        io.out,
                        "{}",
                        render_table(&ran, key, &table, mode, args.witness)
                    )
                    .into_diagnostic()?;
                    if settings.progress {
                        let _ = writeln!(io.err, "  ({} in {:.2?})", table.model, elapsed);
                    }
                }
                Format::Herd => {
                    if !first {
                        writeln!(io.out).into_diagnostic()?;
                    }
                    first = false;
                    write!(
                        io.out,
                        "{}",
                        crate::render::herd::render(&ran, &table, args.herd_time)
                    )
                    .into_diagnostic()?;
                }
                Format::Json => {
                    json_runs.push(json::run(&file.path, &ran, key, &table, mode, args.witness))
                }
            }
        }
    }
    match &args.dot {
        Some(path) if path.as_os_str() == "-" => {
            writeln!(io.out, "\n{}", dots.join("\n")).into_diagnostic()?;
        }
        Some(path) => std::fs::write(path, dots.join("\n")).into_diagnostic()?,
        None => {}
    }
    if format == Format::Json {
        serde_json::to_writer_pretty(&mut *io.out, &json_runs).into_diagnostic()?;
        writeln!(io.out).into_diagnostic()?;
    }
    Ok(exit)
}

/// How a table under `key` was produced.
pub fn mode(key: ModelKey, settings: &Settings) -> table::Mode {
    match (key, settings.sampling) {
        (ModelKey::Ax(_), _) => table::Mode::Axiomatic,
        (ModelKey::Op(_), Some(s)) => table::Mode::Sampled {
            runs: s.runs,
            seed: s.seed,
        },
        (ModelKey::Op(_), None) => table::Mode::Exhaustive,
    }
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

fn replay(
    args: &RunArgs,
    spec: &str,
    models: &[ModelKey],
    settings: &Settings,
    io: &mut Io<'_>,
) -> Outcome {
    let (seed, index) = spec
        .split_once(':')
        .and_then(|(s, i)| Some((s.parse::<u64>().ok()?, i.parse::<u64>().ok()?)))
        .ok_or_else(|| FlagError::Replay(spec.to_string()))?;
    let [key @ ModelKey::Op(_)] = models else {
        return Err(FlagError::ReplayModel.into());
    };
    let sampling = Sampling {
        runs: index + 1,
        seed,
        strategy: strategy(args.strategy),
        max_steps: args.max_steps,
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
            program.name, key, args.strategy
        )
        .into_diagnostic()?;
        for line in trace::lines(&ran, *key, &trace) {
            writeln!(io.out, "    {line}").into_diagnostic()?;
        }
        match outcome {
            Some(values) => {
                let cells: Vec<String> = program
                    .observed
                    .iter()
                    .zip(&values)
                    .map(|(o, v)| format!("{}={v}", program.observable_name(*o)))
                    .collect();
                writeln!(io.out, "  outcome: {}", cells.join(" ")).into_diagnostic()?;
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

/// One consistent execution per outcome of `model`, as DOT digraphs.
fn execution_graphs(
    program: &Program,
    model: relaxlab_semantics::ir::AxModel,
    settings: &Settings,
) -> Vec<String> {
    use relaxlab_semantics::axiomatic::ExecutionEnd;
    let prepared = engine::program_for(program, ModelKey::Ax(model), settings);
    let mut seen = std::collections::BTreeMap::new();
    let _ = axiomatic::visit_consistent(
        program,
        model,
        &engine::ax_options(settings),
        &mut |ex, end, _| {
            if let ExecutionEnd::Outcome(values) = end {
                seen.entry(values.clone())
                    .or_insert_with(|| axiomatic::to_dot(&prepared, ex));
            }
        },
    );
    seen.into_values().collect()
}

/// The witness of every outcome of the operational `model`, lifted to an
/// execution (TSAN11 Sec. 6.1), as DOT digraphs; `ran` is the program the
/// model ran. A witness the twin axiomatic model rejects (a racy `c11r`
/// outcome, which C11 leaves undefined; anything else would be a bug, as
/// every operational model lies within its twin) is drawn all the same,
/// after a comment naming the axiom; one that cannot be lifted (too many
/// events) is a comment saying why.
fn lifted_graphs(ran: &Program, model: OpModel, table: &OutcomeTable) -> Vec<String> {
    table
        .rows
        .iter()
        .filter_map(|row| {
            let witness = row.witness.as_ref()?;
            let outcome = outcome_text(ran, &row.values);
            Some(match axiomatic::lift(ran, model, witness) {
                // Not expected (every c11t trace names each location's
                // last store, and the lift keeps it): said, never drawn as
                // this outcome's graph.
                Ok(l) if l.outcome.as_ref() != Some(&row.values) => format!(
                    "// {} witness of [{outcome}]: not drawn: the lifted execution ends with other final values\n",
                    model.name()
                ),
                Ok(l) => match &l.verdict {
                    Ok(()) => axiomatic::to_dot(ran, &l.execution),
                    Err(r) => format!(
                        "// {} witness of [{outcome}]: ax.{} rejects it: {r}\n{}",
                        model.name(),
                        axiomatic::twin(model).name(),
                        axiomatic::to_dot(ran, &l.execution)
                    ),
                },
                Err(e) => format!(
                    "// {} witness of [{outcome}]: not drawn: {e}\n",
                    model.name()
                ),
            })
        })
        .collect()
}

/// `a=0 b=1`: an outcome with the observables' names.
fn outcome_text(program: &Program, values: &[Value]) -> String {
    program
        .observed
        .iter()
        .zip(values)
        .map(|(o, v)| format!("{}={v}", program.observable_name(*o)))
        .collect::<Vec<_>>()
        .join(" ")
}
