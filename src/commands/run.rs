//! `relaxlab run`: outcome tables under operational and axiomatic models.
//!
//! Exit code of one run: 1 when some execution fails (a false `assert`, a
//! division by zero, a bad `join`, a deadlock, a divergence) and the test's
//! `expect` block does not say `MODEL.assert: sometimes` (GenMC and
//! Nidhugg exit non-zero on a failed assertion too), 3 when a bound cut the
//! result short, 130 after Ctrl-C; the command exits with the most severe.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use miette::IntoDiagnostic;
use relaxlab_grammar::herd::{detect as dialect_of, Dialect};
use relaxlab_semantics::ir::{ModelKey, OpModel, Program, Subject, Verdict};
use relaxlab_semantics::operational::Strategy;
use relaxlab_semantics::outcome::{BoundHit, OutcomeTable, Trace};

use super::common;
use crate::batch::Flow;
use crate::cli::{Format, RunArgs, StrategyArg};
use crate::config::Config;
use crate::engine::{self, Ran, Sampling, Settings};
use crate::exit::{Exit, Outcome};
use crate::model::Model;
use crate::render::{dot, herd, json, table, trace};
use crate::values::{Partition, Replay};
use crate::{files, flags, interrupt, load, Io};

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
/// when only `--cat` models are given); each named once. Also: was `sc`
/// the fallback?
fn models(
    args: &RunArgs,
    config: &Config,
    cats_given: &[crate::cat::CatFile],
) -> Result<(Vec<ModelKey>, bool), miette::Report> {
    let mut models = common::op_models(&args.model)?;
    models.extend(common::ax_models(&args.axiomatic)?);
    if models.is_empty() && cats_given.is_empty() {
        models.extend(common::op_models(&config.models().unwrap_or_default())?);
        models.extend(common::ax_models(&config.axiomatic().unwrap_or_default())?);
    }
    let fallback = models.is_empty() && cats_given.is_empty();
    if fallback {
        models = common::op_models(&["sc".to_string()])?;
    }
    common::distinct(&models)?;
    Ok((models, fallback))
}

/// The note after a run whose `herd` herd7 tests ran under the fallback
/// `sc`, where herd7 would have run its model for their architecture.
fn herd_default_note(herd: usize) -> String {
    let tests = if herd == 1 { "test" } else { "tests" };
    format!(
        "note: {herd} herd7 {tests} ran under sc, relaxlab's default model, where herd7 runs \
         x86tso.cat (X86), x86tso-mixed.cat (X86_64) or c11_partialSC.cat (C); name a model \
         for herd7's answer, e.g. --axiomatic tso, or --cat c11_partialSC.cat --cat-path \
         HERD_LIBDIR (book: herd.md, Choosing a model)"
    )
}

pub fn run(args: &RunArgs, io: &mut Io<'_>) -> Outcome {
    let config = common::config()?;
    let mut settings = common::settings(&args.engine, &config);
    let terminal = common::stderr_is_terminal();
    settings.search = common::search(args.search);
    let format = args.format.or(config.format).unwrap_or(Format::Table);
    let cats = crate::cat::load_for(&args.cat, io)?;
    let (models, fallback) = models(args, &config, &cats)?;
    flags::check_run(args, format, &models, cats.len(), io)?;
    let mut sink = args.dot.as_deref().map(dot::Sink::open).transpose()?;

    if let Some(spec) = args.replay {
        settings.progress = terminal;
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

    let part = args.partition.unwrap_or(Partition::WHOLE);
    let all = files::expand(&args.files)?;
    let chosen: Vec<(usize, &std::path::Path)> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| part.holds(*i))
        .map(|(i, p)| (i, p.as_path()))
        .collect();
    for (_, path) in &chosen {
        files::check_readable(path)?;
    }
    // One file shows its explorations' progress; a batch counts files.
    settings.progress = terminal && chosen.len() == 1;
    if format == Format::Jsonl {
        let header = json::PartHeader::new("run", part, all.len());
        writeln!(
            io.out,
            "{}",
            serde_json::to_string(&header).into_diagnostic()?
        )
        .into_diagnostic()?;
    }
    let batch = Batch {
        args,
        models: &models,
        cats: &cats,
        settings: &settings,
        format,
        dot: match sink {
            None => DotTo::Nowhere,
            Some(dot::Sink::Stdout) => DotTo::Stdout,
            Some(dot::Sink::File(..)) => DotTo::File,
        },
        terminal,
        herd_under_fallback: fallback.then(AtomicUsize::default),
    };
    let mut printer = Printer {
        exit: Exit::Ok,
        tables: 0,
        json_runs: 0,
        graphs: Vec::new(),
        written: 0,
        drawn: 0,
        interrupted: false,
    };
    // The batch looks at Ctrl-C between runs: it must not end relaxlab.
    let watching = interrupt::interruptible();
    let work = |i: usize, part: &dyn Fn(FileRuns)| batch.file(chosen[i].0, chosen[i].1, part);
    let print = |_, ran, _| printer.print(ran, io, sink.as_mut());
    if models.iter().all(|k| matches!(k, ModelKey::Ax(_))) {
        // Only the axiomatic engine, which uses no worker pool: a small
        // batch is done before workers would have started.
        let pool = || common::pool(&args.engine, &config);
        crate::batch::in_order_pool_if_worth_it(pool, chosen.len(), terminal, work, print)?;
    } else {
        let pool = common::pool(&args.engine, &config)?;
        crate::batch::in_order(&pool, chosen.len(), terminal, work, print)?;
    }
    drop(watching);
    let mut exit = printer.exit;
    match &mut sink {
        Some(dot::Sink::Stdout) if !matches!(format, Format::Json | Format::Jsonl) => {
            writeln!(io.out, "\n{}", printer.graphs.join("\n")).into_diagnostic()?;
        }
        Some(sink) => sink.finish(printer.drawn, &mut *io.err)?,
        None => {}
    }
    if format == Format::Json {
        let end = if printer.json_runs == 0 { "[]" } else { "\n]" };
        writeln!(io.out, "{end}").into_diagnostic()?;
    }
    if let Some(herd) = &batch.herd_under_fallback {
        let herd = herd.load(Ordering::Relaxed);
        if herd > 0 {
            writeln!(io.err, "{}", herd_default_note(herd)).into_diagnostic()?;
        }
    }
    if printer.interrupted || interrupt::requested() {
        exit = Exit::Interrupted;
        let _ = writeln!(
            io.err,
            "relaxlab: interrupted (Ctrl-C); the runs it cut short say so, and the files after \
             the last one printed were not run"
        );
    }
    Ok(exit)
}

/// Where `--dot` sends graphs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum DotTo {
    Nowhere,
    Stdout,
    File,
}

/// What every file of a `run` is run with.
struct Batch<'a> {
    args: &'a RunArgs,
    models: &'a [ModelKey],
    cats: &'a [crate::cat::CatFile],
    settings: &'a Settings,
    format: Format,
    dot: DotTo,
    terminal: bool,
    /// With `sc` as the fallback model: how many herd7 tests were read.
    herd_under_fallback: Option<AtomicUsize>,
}

/// One piece of a file's output, in the order it is printed.
enum Piece {
    /// A table of `--format table`: a blank line separates two.
    Table(String),
    /// Text for standard output as it is (herd's blocks, JSON lines).
    Text(String),
    /// A run of `--format json`: an element of the array.
    JsonRun(String),
    /// A diagnostic for standard error.
    Report(miette::Report),
    /// A line for standard error.
    Note(String),
}

/// The output of the runs of one file, printed when every earlier
/// file's is.
struct FileRuns {
    pieces: Vec<Piece>,
    /// `--dot` graphs for standard output or the file, in order.
    graphs: Vec<json::Graph>,
    exit: Exit,
    /// A run was cut short by Ctrl-C, or Ctrl-C came between two runs.
    interrupted: bool,
    /// Ctrl-C came before the file was started.
    not_started: bool,
}

impl Default for FileRuns {
    fn default() -> Self {
        FileRuns {
            pieces: Vec::new(),
            graphs: Vec::new(),
            exit: Exit::Ok,
            interrupted: false,
            not_started: false,
        }
    }
}

impl Batch<'_> {
    /// Reads, loads and runs the file at `index` under every model, as
    /// long as no Ctrl-C comes; each run's output is handed to `part` as
    /// soon as it is made (a file of several models streams its tables),
    /// and the last output is returned.
    fn file(&self, index: usize, path: &std::path::Path, part: &dyn Fn(FileRuns)) -> FileRuns {
        let mut out = FileRuns::default();
        if interrupt::requested() {
            out.not_started = true;
            return out;
        }
        let loaded = files::read(path)
            .map_err(miette::Report::from)
            .and_then(|file| load::program_and_warnings(&file).map(|p| (file, p)));
        let (file, (program, warnings)) = match loaded {
            Ok(loaded) => loaded,
            Err(report) => {
                out.pieces.push(Piece::Report(report));
                out.exit = Exit::InputError;
                return out;
            }
        };
        for warning in warnings {
            out.pieces.push(Piece::Report(warning));
        }
        if let Some(herd) = &self.herd_under_fallback {
            if dialect_of(&file.text) != Dialect::Relaxlab {
                herd.fetch_add(1, Ordering::Relaxed);
            }
        }
        let jobs = self
            .models
            .iter()
            .map(|&k| Model::from(k))
            .chain(self.cats.iter().map(Model::Cat));
        for model in jobs {
            if interrupt::requested() {
                out.interrupted = true;
                break;
            }
            if let Err(e) = self.one(index, &file, &program, model, &mut out) {
                out.pieces.push(Piece::Report(e));
                out.exit = out.exit.max(Exit::InputError);
            }
            if out.interrupted {
                break;
            }
            part(std::mem::take(&mut out));
        }
        out
    }

    /// Runs `program` under `model`, adding its output to `out`.
    fn one(
        &self,
        index: usize,
        file: &files::SourceFile,
        program: &Program,
        model: Model<'_>,
        out: &mut FileRuns,
    ) -> Result<(), miette::Report> {
        let settings = self.settings;
        let key = model.key();
        model.check(program, file)?;
        let started = Instant::now();
        let ran =
            engine::run_detailed(program, model, settings).map_err(|e| load::attach(e, file))?;
        let program_ran = engine::program_for(program, model, settings);
        let elapsed = started.elapsed();
        let run_graphs: Vec<json::Graph> = match self.dot {
            DotTo::Nowhere => Vec::new(),
            _ => dot::per_outcome(model, program, &program_ran, &ran.table, settings)
                .into_values()
                .collect(),
        };
        out.exit = out.exit.max(run_exit(program, key, &ran.table));
        let mode = model.mode(settings);
        match self.format {
            Format::Table => {
                let text = render_ran(&program_ran, key, &ran, mode, self.args.witness);
                out.pieces.push(Piece::Table(text));
                if self.terminal {
                    out.pieces.push(Piece::Note(format!(
                        "  ({} in {:.2?})",
                        ran.table.model, elapsed
                    )));
                }
                if self.dot != DotTo::Nowhere {
                    out.graphs
                        .extend(with_bounds(&program_ran, &ran.table, run_graphs));
                }
            }
            Format::Herd => {
                let several = self.models.len() + self.cats.len() > 1;
                out.pieces.push(Piece::Text(herd::render_with(
                    &program_ran,
                    &ran.table,
                    mode,
                    self.args.herd_time,
                    several.then_some(ran.table.model.as_str()),
                    ran.mcr.as_ref(),
                )));
                if self.dot != DotTo::Nowhere {
                    out.graphs
                        .extend(with_bounds(&program_ran, &ran.table, run_graphs));
                }
            }
            Format::Json | Format::Jsonl => {
                // With `--dot -` the graphs go inside the run's object
                // (whose `bounds` say whether the run is partial).
                let inside = match self.dot {
                    DotTo::Stdout => Some(run_graphs),
                    DotTo::File => {
                        out.graphs
                            .extend(with_bounds(&program_ran, &ran.table, run_graphs));
                        None
                    }
                    DotTo::Nowhere => None,
                };
                let extras = json::RunExtras {
                    first_runs: ran.first_runs.as_ref(),
                    non_sc_known: non_sc_known(key, &ran, settings),
                    graphs: inside,
                    mcr: ran.mcr.as_ref(),
                };
                let run = json::run_with(
                    &file.path,
                    &program_ran,
                    key,
                    &ran.table,
                    mode,
                    self.args.witness,
                    extras,
                );
                let piece = if self.format == Format::Jsonl {
                    let line = json::Line {
                        file_index: index,
                        run,
                    };
                    let mut text = serde_json::to_string(&line).into_diagnostic()?;
                    text.push('\n');
                    Piece::Text(text)
                } else {
                    Piece::JsonRun(crate::batch::pretty_element(&run, 1).into_diagnostic()?)
                };
                out.pieces.push(piece);
            }
        }
        if ran.table.bounds.contains(&BoundHit::Interrupted) {
            out.interrupted = true;
        }
        Ok(())
    }
}

/// Prints the files' outputs in order, and keeps what the end of the
/// output needs.
struct Printer {
    exit: Exit,
    /// Tables printed so far (`--format table`).
    tables: usize,
    /// Runs printed so far (`--format json`).
    json_runs: usize,
    /// `--dot -` graphs, printed after the tables.
    graphs: Vec<String>,
    /// Graphs written to the `--dot` file so far, and those drawings.
    written: usize,
    drawn: usize,
    interrupted: bool,
}

impl Printer {
    fn print(
        &mut self,
        ran: FileRuns,
        io: &mut Io<'_>,
        sink: Option<&mut dot::Sink>,
    ) -> Result<Flow, miette::Report> {
        if ran.not_started {
            self.interrupted = true;
            return Ok(Flow::Stop);
        }
        self.exit = self.exit.max(ran.exit);
        self.interrupted |= ran.interrupted;
        for piece in ran.pieces {
            match piece {
                Piece::Table(text) => {
                    if self.tables > 0 {
                        writeln!(io.out).into_diagnostic()?;
                    }
                    self.tables += 1;
                    write!(io.out, "{text}").into_diagnostic()?;
                    io.out.flush().into_diagnostic()?;
                }
                Piece::Text(text) => {
                    write!(io.out, "{text}").into_diagnostic()?;
                    io.out.flush().into_diagnostic()?;
                }
                Piece::JsonRun(text) => {
                    let before = if self.json_runs == 0 { "[\n" } else { ",\n" };
                    self.json_runs += 1;
                    write!(io.out, "{before}{text}").into_diagnostic()?;
                    io.out.flush().into_diagnostic()?;
                }
                Piece::Report(report) => io.report(&report),
                Piece::Note(line) => {
                    let _ = writeln!(io.err, "{line}");
                }
            }
        }
        match sink {
            Some(dot::Sink::Stdout) => self.graphs.extend(ran.graphs.into_iter().map(|g| g.dot)),
            Some(sink) => {
                for graph in &ran.graphs {
                    sink.append(&graph.dot, self.written == 0)?;
                    self.written += 1;
                    self.drawn += usize::from(graph.dot.contains("digraph "));
                }
            }
            None => {}
        }
        Ok(Flow::Go)
    }
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
