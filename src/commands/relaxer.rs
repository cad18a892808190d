//! `relaxlab predict` and `relaxlab confirm`: RELAXER's active testing.
//!
//! Phase I (RELAXER Sec. 4.1, Algorithm 1) collects, from seeded SC runs,
//! the potential happens-before cycles over statement labels (source
//! lines). Phase II (Sec. 4.3, Figs. 7-9) runs biased executions under a
//! relaxed model to create each cycle and records whether an assertion
//! fails. Beside RELAXER's Table 1 columns, relaxlab prints the ground
//! truth, decided by exhaustive exploration: whether any execution creates
//! the cycle at all, and whether any such execution fails.
//! `predict --exhaustive` takes Phase I's union over every SC execution
//! (`relaxer::exhaustive`), bounded by `--max-states`.
//!
//! `confirm` exits with 1 when a biased run failed (a bug confirmed) under
//! a model whose `MODEL.assert: sometimes` expectation the test lacks, as
//! `run` does.

use miette::IntoDiagnostic;
use relaxlab_semantics::analyses::relaxer::{self, ConfirmOptions, PredictOptions, PredictedCycle};
use relaxlab_semantics::ir::{ModelKey, OpModel, Program};
use relaxlab_semantics::model::MemoryModel;
use relaxlab_semantics::outcome::BoundHit;
use relaxlab_semantics::picture::Describe;
use relaxlab_semantics::registry::{with_model, Buffering, OpVisitor};

use super::common;
use crate::cli::{ConfirmArgs, PredictArgs};
use crate::exit::{Exit, Outcome};
use crate::load;
use crate::render::table::describe_bound;
use crate::render::{plural, words};
use crate::{flags, interrupt, Io};

/// `--model` of `confirm` must be a model that buffers stores.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("`confirm` runs under {}, not `{name}`", words::listed(&buffered_models(), "or"))]
#[diagnostic(code(relaxlab::confirm::model))]
pub struct ConfirmModelError {
    name: String,
    #[help]
    help: String,
}

impl ConfirmModelError {
    fn new(name: String) -> Self {
        ConfirmModelError {
            name,
            help: format!(
                "RELAXER's Phase II is defined for the hardware models {}",
                words::listed(&buffered_models(), "and")
            ),
        }
    }
}

/// The models whose stores Phase II can delay: those that buffer them.
fn buffered_models() -> Vec<&'static str> {
    OpModel::ALL
        .into_iter()
        .filter(|m| m.row().buffering != Buffering::None)
        .map(OpModel::name)
        .collect()
}

fn cycles_of(
    program: &Program,
    length: usize,
    runs: u64,
    seed: u64,
    settings: &crate::engine::Settings,
) -> Vec<PredictedCycle> {
    relaxer::predict(
        program,
        &PredictOptions {
            length,
            runs,
            seed,
            mapping: settings.mapping,
        },
    )
}

pub fn predict(args: &PredictArgs, io: &mut Io<'_>) -> Outcome {
    let config = common::config()?;
    let engine = crate::cli::EngineArgs {
        max_states: args.max_states,
        ..crate::cli::EngineArgs::default()
    };
    let settings = common::settings(&engine, &config);
    let pool = common::pool(&engine, &config)?;
    let mut exit = Exit::Ok;
    for (file, program) in common::programs(&args.files, io, &mut exit)? {
        // RELAXER runs the program under SC: a test only herd's C
        // semantics reads is refused by name.
        if let Err(report) = load::check_model(&program, ModelKey::Op(OpModel::Sc), &file) {
            io.report(&report);
            exit = exit.max(Exit::InputError);
            continue;
        }
        warn_length(&program, args.length, io);
        if args.exhaustive {
            let file_exit = predict_exhaustive(&program, args.length, &settings, &pool, io)?;
            exit = exit.max(file_exit);
            if file_exit == Exit::Interrupted {
                break;
            }
            continue;
        }
        let cycles = cycles_of(&program, args.length, args.runs, args.seed, &settings);
        writeln!(
            io.out,
            "{}: {} of length {} from {} (seed {}), each by the source lines of its statements",
            program.name,
            plural(cycles.len() as u64, "potential cycle"),
            args.length,
            plural(args.runs, "SC run"),
            args.seed
        )
        .into_diagnostic()?;
        for c in &cycles {
            writeln!(io.out, "  {}", c.describe()).into_diagnostic()?;
        }
    }
    Ok(exit)
}

/// A cycle of 2k statements spans k threads: a test with fewer has none,
/// and an empty prediction must not look like a verdict.
fn warn_length(program: &Program, length: usize, io: &mut Io<'_>) {
    let threads = program.threads.len();
    if length / 2 > threads {
        flags::warn(
            io,
            "--length",
            format!(
                "`--length {length}` asks for cycles over {} threads, and {} has {}",
                length / 2,
                program.name,
                plural(threads as u64, "thread")
            ),
        );
    }
}

/// `predict --exhaustive` on one program: the union over every SC
/// execution; `Exit::Partial` when `--max-states` cut the search.
fn predict_exhaustive(
    program: &Program,
    length: usize,
    settings: &crate::engine::Settings,
    pool: &rayon::ThreadPool,
    io: &mut Io<'_>,
) -> Outcome {
    let opts = crate::engine::explore_options(settings);
    let found = {
        let _ctrl_c = interrupt::interruptible();
        pool.install(|| relaxer::predict_exhaustive(program, length, &opts))
    };
    let n = found.cycles.len();
    let source = if found.complete {
        "every SC execution"
    } else {
        "the SC executions explored"
    };
    writeln!(
        io.out,
        "{}: {} of length {length} from {source} ({}, {}), each by the source lines of its statements",
        program.name,
        plural(n as u64, "potential cycle"),
        plural(found.states, "state"),
        plural(found.pair_sets as u64, "maximal pair set"),
    )
    .into_diagnostic()?;
    for c in &found.cycles {
        writeln!(io.out, "  {}", c.describe()).into_diagnostic()?;
    }
    if found.complete {
        return Ok(Exit::Ok);
    }
    if interrupt::requested() {
        writeln!(
            io.out,
            "  PARTIAL: interrupted (Ctrl-C); cycles of the executions beyond this point are missing"
        )
        .into_diagnostic()?;
        return Ok(Exit::Interrupted);
    }
    writeln!(
        io.out,
        "  PARTIAL: stopped after {} (--max-states); cycles of the executions beyond it are missing",
        plural(settings.max_states, "state")
    )
    .into_diagnostic()?;
    Ok(Exit::Partial)
}

pub fn confirm(args: &ConfirmArgs, io: &mut Io<'_>) -> Outcome {
    let config = common::config()?;
    flags::operational_only(&args.engine, "confirm")?;
    let mut settings = common::settings(&args.engine, &config);
    settings.progress = common::stderr_is_terminal();
    let pool = common::pool(&args.engine, &config)?;
    let mut models = Vec::new();
    for key in common::op_models(&args.model)? {
        match key {
            // Phase II delays buffered stores.
            ModelKey::Op(m) if m.row().buffering != Buffering::None => models.push(m),
            other => return Err(ConfirmModelError::new(other.to_string()).into()),
        }
    }
    common::distinct(&models.iter().map(|m| ModelKey::Op(*m)).collect::<Vec<_>>())?;
    let mut exit = Exit::Ok;
    'files: for (file, program) in common::programs(&args.files, io, &mut exit)? {
        if let Err(report) = load::check_model(&program, ModelKey::Op(OpModel::Sc), &file) {
            io.report(&report);
            exit = exit.max(Exit::InputError);
            continue;
        }
        warn_length(&program, args.length, io);
        let cycles = cycles_of(&program, args.length, args.runs, args.seed, &settings);
        writeln!(
            io.out,
            "{}: {} predicted (length {}, {}, seed {}); {} per cycle",
            program.name,
            plural(cycles.len() as u64, "cycle"),
            args.length,
            plural(args.runs, "SC run"),
            args.seed,
            plural(args.trials, "biased trial")
        )
        .into_diagnostic()?;
        for &m in &models {
            if interrupt::requested() {
                break 'files;
            }
            // What is printed stays printed if a Ctrl-C ends relaxlab at
            // once (`interrupt`: outside an interruptible exploration).
            io.out.flush().into_diagnostic()?;
            // Phase II and the ground truth both stop at Ctrl-C with what
            // they found.
            let ctrl_c = interrupt::interruptible();
            let (text, bugs, cut) = pool.install(|| {
                with_model(
                    m,
                    Table {
                        program: &program,
                        cycles: &cycles,
                        args,
                        settings: &settings,
                    },
                )
            });
            drop(ctrl_c);
            if cut {
                exit = exit.max(Exit::Partial);
            }
            if bugs > 0 && !super::run::failure_expected(&program, ModelKey::Op(m)) {
                exit = exit.max(Exit::CheckFailed);
            }
            write!(io.out, "{text}").into_diagnostic()?;
        }
    }
    if interrupt::requested() {
        exit = Exit::Interrupted;
        // The notice follows the output it speaks of.
        io.out.flush().into_diagnostic()?;
        let _ = writeln!(
            io.err,
            "relaxlab: interrupted (Ctrl-C); the output stops at the interrupted model"
        );
    }
    Ok(exit)
}

/// [`table`] for the model [`with_model`] picks.
struct Table<'a> {
    program: &'a Program,
    cycles: &'a [PredictedCycle],
    args: &'a ConfirmArgs,
    settings: &'a crate::engine::Settings,
}

impl OpVisitor for Table<'_> {
    type Output = (String, usize, bool);
    fn visit<M: Describe>(self, model: &M) -> Self::Output {
        table(self.program, model, self.cycles, self.args, self.settings)
    }
}

/// One model's table: per cycle, Phase II's counts beside the ground
/// truth; how many cycles Phase II found failing (bugs); and whether a
/// bound or Ctrl-C cut it short.
///
/// A ground truth cut short decides only what it found: a cycle it did
/// not create is `unknown`, not infeasible, and the bound is printed below
/// the table as `run` prints it. After Ctrl-C the cycles left are not
/// explored.
fn table<M: MemoryModel>(
    program: &Program,
    model: &M,
    cycles: &[PredictedCycle],
    args: &ConfirmArgs,
    settings: &crate::engine::Settings,
) -> (String, usize, bool) {
    let report = relaxer::confirm_with(
        program,
        model,
        cycles,
        &ConfirmOptions {
            trials: args.trials,
            seed: args.seed,
            mapping: settings.mapping,
            interrupt: settings.budget.interrupt.clone(),
        },
    );
    let mut out = format!("\n  under {}:\n", model.name());
    if report.interrupted {
        // Counts of some trials only would read as RELAXER's Table 1.
        out.push_str(
            "    PARTIAL: interrupted (Ctrl-C) during Phase II's biased runs; no cycle is reported\n",
        );
        return (out, 0, true);
    }
    let opts = crate::engine::explore_options(settings);
    out.push_str("    cycle (source lines)    created    buggy   feasible  can fail\n");
    let (mut feasible, mut found_feasible, mut unknown) = (0, 0, 0);
    let mut bounds: Vec<BoundHit> = Vec::new();
    for c in &report.cycles {
        // After Ctrl-C no further exploration starts: the cycles left keep
        // Phase II's counts, and their ground truth is unknown.
        let truth = (!bounds.contains(&BoundHit::Interrupted))
            .then(|| relaxer::ground_truth(program, model, &c.cycle, &opts));
        let complete = truth.is_some_and(|t| t.complete);
        // A cycle Phase II created (or created in a failing run) is
        // feasible (can fail) by that run, whatever the ground truth
        // reached before a bound cut it.
        let (is_feasible, is_buggy) = truth.map_or((false, false), |t| (t.feasible, t.buggy));
        let (is_feasible, is_buggy) = (is_feasible || c.created > 0, is_buggy || c.buggy > 0);
        // Found is found; not found is a finding only of a complete search.
        let answer = |found: bool| match (found, complete) {
            (true, _) => "yes",
            (false, true) => "no",
            (false, false) => "unknown",
        };
        if let Some(b) = truth.and_then(|t| t.bound) {
            if !bounds.contains(&b) {
                bounds.push(b);
            }
        }
        if is_feasible {
            feasible += 1;
            if c.created > 0 {
                found_feasible += 1;
            }
        } else if !complete {
            unknown += 1;
        }
        let partial = if complete { "" } else { " PARTIAL" };
        let line = format!(
            "    {:<22} {:>8} {:>8}   {:<9} {:<9}{partial}",
            c.cycle.describe(),
            c.created,
            c.buggy,
            answer(is_feasible),
            answer(is_buggy),
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let probability = match report.probability() {
        Some(p) => format!("{p:.2}"),
        None => "-".to_string(),
    };
    let unknown_note = if unknown > 0 {
        format!("; unknown {unknown} (PARTIAL)")
    } else {
        String::new()
    };
    out.push_str(&format!(
        "    predicted {}, confirmed {}, bugs {}, probability of confirming a cycle {probability}; \
         feasible {feasible}, of which Phase II confirmed {found_feasible}{unknown_note}\n",
        report.predicted(),
        report.confirmed(),
        report.bugs(),
    ));
    for b in &bounds {
        out.push_str(&format!("    PARTIAL: {}\n", describe_bound(b)));
    }
    (out, report.bugs(), !bounds.is_empty())
}
