//! `relaxlab repair FILE --model M`: the minimum repairs of a test, each
//! verified twice: by the search's exhaustive run of the repaired program
//! (`relaxlab_semantics::analyses::repair`), and again here, by parsing the printed
//! text and running it under M, which must give the same outcomes and
//! verdicts. A repair that fails the second check is an internal error,
//! never printed as a repair.

use miette::IntoDiagnostic;
use relaxlab_semantics::analyses::repair::{
    Goal, Judge, Repair, RepairOptions, Repairs, Solution, Status,
};
use relaxlab_semantics::ir::{AxModel, ModelKey, OpModel, Program, Verdict};
use relaxlab_semantics::outcome::{BoundHit, OutcomeTable};

use super::render;
use super::text::{self, Verdicts};
use crate::cli::{EngineArgs, GoalArg, RepairArgs, RepairFormat};
use crate::commands::common;
use crate::engine::{self, Settings};
use crate::exit::{Exit, Outcome};
use crate::{files, interrupt, load, Io};

/// Without `--max-states`, each run after the first is bounded to this
/// many times the states of the program as written (at least
/// `MIN_RELATIVE_STATES`): a placement that makes the state space infinite
/// (a release in a C11 spin loop bumps a clock each iteration) is given up
/// on at a cost in proportion to the program.
pub const STATE_FACTOR: u64 = 64;

/// A model under which nothing can be inserted.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("there is nothing to insert under `{0}`: no fence changes what it allows")]
#[diagnostic(
    code(relaxlab::repair::model),
    help("repair for tso, pso, pslo, c11r or c11t, or an axiomatic model (ax.tso, ax.pso, ax.pslo, ax.c11, ax.rc11, ax.c11r, ax.c11t)")
)]
pub struct NothingToInsert(String);

/// A cat model given to `repair`, which knows the fences of the built-in
/// models only.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("`repair` does not take cat models (`{0}`): it inserts the fences of a built-in model, whose meaning it knows")]
#[diagnostic(
    code(relaxlab::repair::cat_model),
    help("repair for tso, pso, pslo, c11r or c11t, or an axiomatic model (ax.tso, ax.pso, ax.pslo, ax.c11, ax.rc11, ax.c11r, ax.c11t); then check the repaired program with `relaxlab run FILE --cat MODEL`")
)]
pub struct CatModelRefused(String);

/// `--goal condition` on a test without a condition.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{path}: the test has no final condition, so `--goal condition` has nothing to make hold")]
#[diagnostic(
    code(relaxlab::repair::no_condition),
    help("add an `exists`, `~exists` or `forall` condition, or use `--goal sc` to remove every behaviour SC does not have")
)]
pub struct NoCondition {
    path: String,
}

/// The axiomatic engine refused the program.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{0}")]
#[diagnostic(
    code(relaxlab::axiomatic),
    help("the axiomatic engine needs loop-free programs: pass --unroll K to unroll every loop K times")
)]
pub struct AxRefused(String);

/// A printed repair that does not verify: a bug.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("relaxlab internal error: repair {index} of {test} does not verify from its printed text: {why}")]
#[diagnostic(
    code(relaxlab::internal),
    help("please report this with the test file and the command")
)]
pub struct Unverified {
    index: usize,
    test: String,
    why: String,
}

/// The model named by `--model`: operational, or axiomatic with `ax.`.
fn model_key(name: &str) -> Result<ModelKey, miette::Report> {
    if let Some(key) = ModelKey::from_name(name) {
        return Ok(key);
    }
    if name.starts_with("cat:") || name.ends_with(".cat") {
        return Err(CatModelRefused(name.to_string()).into());
    }
    let names = [name.to_string()];
    if name.starts_with("ax.") {
        common::ax_models(&names)?;
    } else {
        common::op_models(&names)?;
    }
    unreachable!("relaxlab internal error: an unknown model name parsed")
}

/// SC under the same engine as `key`.
pub fn sc_key(key: ModelKey) -> ModelKey {
    match key {
        ModelKey::Op(_) => ModelKey::Op(OpModel::Sc),
        ModelKey::Ax(_) => ModelKey::Ax(AxModel::Sc),
    }
}

/// A printed, verified repair.
#[derive(Debug)]
pub struct Printed {
    /// The repaired program's text.
    pub text: String,
    /// The unified diff from the source to it.
    pub diff: String,
}

/// What a repaired program's file says of its runs under the model and
/// SC: `expect` entries for the runs no bound cut, and a comment for the
/// runs unrolling cut (`--unroll`, axiomatic models), which saw only the
/// executions within the bound and so give no verdict (`check` confirms
/// none from such a run): the file must not claim one.
fn verdict_entries(key: ModelKey, repair: &Repair, table: &OutcomeTable, failed: bool) -> Verdicts {
    let runs = [(sc_key(key), &repair.sc.table), (key, table)];
    let with_condition =
        repair.original.ran.condition.is_some() && runs.iter().all(|(_, t)| t.verdict().is_some());
    let with_failures = failed || repair.sc.table.fails();
    let never = |b: bool| if b { "sometimes" } else { "never" };
    let mut verdicts = Verdicts::default();
    let mut asserts = Vec::new();
    for (model, t) in runs {
        let verdict = t.verdict().filter(|_| with_condition);
        let Some(k) = unrolled(t) else {
            verdicts
                .entries
                .extend(verdict.map(|v| format!("{model}: {v}")));
            if with_failures {
                asserts.push(format!("{model}.assert: {}", never(t.fails())));
            }
            continue;
        };
        // What the run saw, in `run`'s words for a bounded run.
        let mut seen: Vec<&str> = verdict
            .map(|v| match v {
                Verdict::Never => "not observed",
                Verdict::Always => "always observed",
                Verdict::Sometimes => "sometimes",
            })
            .into_iter()
            .collect();
        if with_failures {
            seen.push(if t.fails() {
                "an execution fails"
            } else {
                "no execution seen to fail"
            });
        }
        if !seen.is_empty() {
            let (_, lines) = verdicts.within_unroll.get_or_insert((k, Vec::new()));
            lines.push(format!("{model}: {}", seen.join(", ")));
        }
    }
    verdicts.entries.extend(asserts);
    verdicts
}

/// The unrolling bound that cut `table`, if any.
fn unrolled(table: &OutcomeTable) -> Option<u32> {
    table.bounds.iter().find_map(|b| match b {
        BoundHit::Unroll(k) => Some(*k),
        _ => None,
    })
}

/// What a repair was asked about: the file's name and text, its syntax
/// tree and program, the model and the engine settings.
#[derive(Clone, Copy, Debug)]
struct Input<'a> {
    shown: &'a str,
    source: &'a str,
    test: &'a relaxlab_grammar::ast::Test,
    program: &'a Program,
    key: ModelKey,
    settings: &'a Settings,
}

/// Prints solution `index` and checks the text: it parses, and its run
/// under `key` meets the goal with the same outcomes as the search's run.
fn print_and_verify(
    input: &Input<'_>,
    repair: &Repair,
    index: usize,
    solution: &Solution,
) -> Result<Printed, miette::Report> {
    let Input {
        shown,
        source,
        test,
        program,
        key,
        settings,
    } = *input;
    let failed = repair.original.table.fails();
    let verdicts = verdict_entries(key, repair, &solution.trial.table, failed);
    let label = format!("{shown} (repair {} for {key})", index + 1);
    let (new_text, diff) = text::repaired_text(
        source,
        test,
        program,
        &repair.sites,
        &solution.placement,
        &verdicts,
        (shown, &label),
    );
    let fail = |why: String| Unverified {
        index: index + 1,
        test: program.name.clone(),
        why,
    };
    let reparsed =
        relaxlab_grammar::load(&new_text).map_err(|e| fail(format!("it does not parse: {e}")))?;
    let quiet = Settings {
        mark_non_sc: false,
        progress: false,
        ..settings.clone()
    };
    let table = engine::run(&reparsed, key, &quiet).map_err(|e| fail(e.to_string()))?;
    let ran = engine::program_for(&reparsed, key, &quiet);
    let judge = Judge::new(
        repair.goal,
        &reparsed,
        repair.family == Repairs::C11,
        &repair.sc.ran,
        &repair.sc.table,
    )
    .map_err(|e| fail(e.to_string()))?;
    let bad = judge.bad_behaviours(&ran, &table);
    let values = |t: &OutcomeTable| t.rows.iter().map(|r| r.values.clone()).collect::<Vec<_>>();
    let cut = table
        .bounds
        .iter()
        .any(|b| !matches!(b, relaxlab_semantics::outcome::BoundHit::Unroll(_)));
    if cut {
        return Err(fail("its run hit a bound".into()).into());
    }
    if !bad.is_empty() {
        return Err(fail(format!("{} bad behaviours remain", bad.len())).into());
    }
    if values(&table) != values(&solution.trial.table)
        || table.verdict() != solution.trial.table.verdict()
        || table.fails() != solution.trial.table.fails()
    {
        return Err(fail("its outcomes differ from the search's run".into()).into());
    }
    if verdict_entries(key, repair, &table, failed) != verdicts {
        return Err(fail("its verdicts differ from the search's run".into()).into());
    }
    Ok(Printed {
        text: new_text,
        diff,
    })
}

pub fn repair(args: &RepairArgs, io: &mut Io<'_>) -> Outcome {
    let config = common::config()?;
    let engine_args = EngineArgs {
        mapping: args.mapping,
        jobs: args.jobs,
        max_states: args.max_states,
        max_depth: None,
        unroll: args.unroll,
        max_candidates: None,
        timeout: None,
        max_memory: args.max_memory,
        reduction: args.reduction,
    };
    // `--timeout` bounds the whole search, not each run.
    let mut settings = Settings {
        mark_non_sc: false,
        progress: common::stderr_is_terminal(),
        ..common::settings(&engine_args, &config)
    };
    settings.budget.deadline = args
        .timeout
        .map(relaxlab_semantics::budget::Deadline::after);
    // With a state bound given, every run has it; else runs after the
    // first are bounded relative to the program (`RepairOptions`).
    let fixed = args.max_states.or(config.max_states()).is_some();
    let pool = common::pool(&engine_args, &config)?;
    let key = model_key(&args.model)?;
    let family = key
        .repair()
        .ok_or_else(|| NothingToInsert(key.to_string()))?;
    let file = files::read(&args.file)?;
    let (shown, source) = load::relaxlab_text(&file)?;
    let program = load::program(&file)?;
    let test = relaxlab_grammar::parse(&source).map_err(miette::Report::new)?;
    load::check_model(&program, key, &file)?;
    let goal = match args.goal {
        GoalArg::Condition => Goal::Condition,
        GoalArg::Sc => Goal::Sc,
    };
    if goal == Goal::Condition && program.condition.is_none() {
        return Err(NoCondition {
            path: file.path.clone(),
        }
        .into());
    }
    let opts = RepairOptions {
        goal,
        max_sites: usize::try_from(args.max_candidates).unwrap_or(usize::MAX),
        max_solutions: usize::try_from(args.max_solutions).unwrap_or(usize::MAX),
        state_factor: (!fixed).then_some(STATE_FACTOR),
        max_undecided: 16,
        budget: settings.budget.clone(),
    };
    let (opts_max_sites, opts_max_solutions) = (opts.max_sites, opts.max_solutions);
    let started = std::time::Instant::now();
    // The operational explorers poll the budget, so Ctrl-C stops the
    // search with what it proved; the axiomatic engine does not, and
    // Ctrl-C then ends relaxlab at once (`interrupt`).
    let ctrl_c = matches!(key, ModelKey::Op(_)).then(interrupt::interruptible);
    let result = pool
        .install(|| engine::repair(&program, key, family, &settings, &opts))
        .map_err(|e| AxRefused(e.to_string()))?;
    drop(ctrl_c);
    let interrupted = matches!(&result.status, Status::Stopped(b) if b.contains(&BoundHit::Interrupted))
        || result
            .undecided
            .iter()
            .any(|(_, b)| b.contains(&BoundHit::Interrupted));
    let input = Input {
        shown: &shown,
        source: &source,
        test: &test,
        program: &program,
        key,
        settings: &settings,
    };
    let mut printed = Vec::new();
    for (i, s) in result.solutions.iter().enumerate() {
        if interrupted {
            // Printing re-verifies each text by a run, which a Ctrl-C
            // would cut: the repairs found are reported unprinted.
            break;
        }
        printed.push(pool.install(|| print_and_verify(&input, &result, i, s))?);
    }
    let elapsed = started.elapsed();
    if let (Some(path), Some(first)) = (&args.output, printed.first()) {
        std::fs::write(path, &first.text).into_diagnostic()?;
    }
    let out = render::Report {
        file: &file.path,
        program: &program,
        key,
        repair: &result,
        printed: &printed,
        output: args.output.as_deref(),
        max_candidates: opts_max_sites,
        max_solutions: opts_max_solutions,
    };
    match args.format {
        RepairFormat::Table => write!(io.out, "{}", render::table(&out)).into_diagnostic()?,
        RepairFormat::Json => {
            serde_json::to_writer_pretty(&mut *io.out, &render::json(&out)).into_diagnostic()?;
            writeln!(io.out).into_diagnostic()?;
        }
    }
    if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        let _ = writeln!(
            io.err,
            "  ({} exhaustive runs in {:.2?})",
            result.runs, elapsed
        );
    }
    if interrupted {
        let _ = writeln!(
            io.err,
            "relaxlab: interrupted (Ctrl-C); the search stopped before it could conclude"
        );
        return Ok(Exit::Interrupted);
    }
    Ok(exit_code(&result))
}

/// 0: repaired or nothing to repair; 1: no repair among the sites; 3: a
/// bound cut the search.
fn exit_code(r: &Repair) -> Exit {
    let status = match r.status {
        Status::NothingToRepair | Status::Repaired => Exit::Ok,
        Status::Unrepairable { .. } => Exit::CheckFailed,
        Status::Stopped(_) => Exit::Partial,
    };
    if r.bounded() {
        status.max(Exit::Partial)
    } else {
        status
    }
}
