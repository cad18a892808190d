//! `POST /api/run`: `relaxlab run --format json` over HTTP.
//!
//! The request names the source and the models (`tso`, `ax.tso`) and may
//! set the options `run` has (witnesses, mapping, bounds within the
//! server's, sampling). The answer's `runs` is the document `run --format
//! json` prints for the same file and flags, made by the same functions;
//! beside it come the diagnostics the CLI prints on stderr (with spans in
//! the source sent), the DOT graph of each row when asked (`--dot`), and
//! the exit code the CLI would give.

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use clap::ValueEnum;
use relaxlab_semantics::budget::Budget;
use relaxlab_semantics::ir::ModelKey;
use relaxlab_semantics::outcome::BoundHit;
use serde::{Deserialize, Serialize};

use super::app::{ApiError, ApiJson, App};
use super::diagnostics::{self, DiagnosticJson};
use super::limits::Limits;
use crate::cli::{MappingArg, StrategyArg};
use crate::commands::common;
use crate::commands::run::{non_sc_known, run_exit, strategy};
use crate::engine::{self, Sampling, Settings};
use crate::files::SourceFile;
use crate::model::Model;
use crate::render::{dot, json};
use crate::values::MAX_UNROLL;
use crate::{load, Exit};

/// The file name a run reports when the request names none.
pub(crate) const DEFAULT_FILE: &str = "playground.litmus";

/// The body of `POST /api/run`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RunRequest {
    /// The litmus test (relaxlab's language, or herd7's C or X86).
    pub source: String,
    /// The file name to report (`file` in the JSON), e.g. the library
    /// path the test came from.
    #[serde(default)]
    pub file: Option<String>,
    /// Models as `run` spells them: `sc`, `tso`, ..., `ax.sc`, `ax.rc11`,
    /// `cat:tso`; at least one.
    #[serde(default)]
    pub models: Vec<String>,
    /// `--witness`.
    #[serde(default)]
    pub witness: bool,
    /// `--dot`: the execution graph of each row, in `dot`.
    #[serde(default)]
    pub dot: bool,
    /// `--mapping`.
    #[serde(default)]
    pub mapping: Option<MappingArg>,
    /// `--max-states`, at most the server's.
    #[serde(default)]
    pub max_states: Option<u64>,
    /// `--max-candidates`, at most the server's.
    #[serde(default)]
    pub max_candidates: Option<u64>,
    /// `--unroll`, 0 to [`MAX_UNROLL`] as for `run`.
    #[serde(default)]
    pub unroll: Option<u32>,
    /// `--sample`, at least 1 (as for `run`) and at most the server's
    /// bound on runs.
    #[serde(default)]
    pub sample: Option<u64>,
    /// `--seed`.
    #[serde(default)]
    pub seed: Option<u64>,
    /// `--strategy`: uniform, delay, old, c11tester.
    #[serde(default)]
    pub strategy: Option<String>,
    /// `--max-steps`, at most the server's.
    #[serde(default)]
    pub max_steps: Option<u64>,
}

/// The answer of `POST /api/run`.
#[derive(Debug, Serialize)]
pub(crate) struct RunAnswer {
    /// Exactly what `relaxlab run --format json` prints.
    pub runs: Vec<json::Run>,
    /// What `run` prints on stderr, in order.
    pub diagnostics: Vec<DiagnosticJson>,
    /// With `dot`: per run, per row, the execution graph (DOT, which may
    /// start with `//` comments saying why it is not consistent) or
    /// `null` (no witness).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dot: Option<Vec<Vec<Option<String>>>>,
    /// `run`'s exit code: 0, 2 (input error) or 3 (a bound cut a result
    /// short).
    pub exit: u8,
}

/// The engine settings of a request, its flags clamped to the server's
/// limits.
pub(crate) fn settings(limits: &Limits, mapping: Option<MappingArg>, budget: &Budget) -> Settings {
    let engine = crate::cli::EngineArgs {
        mapping,
        ..Default::default()
    };
    let mut s = common::settings(&engine, &crate::config::Config::default());
    s.max_states = limits.max_states;
    s.max_candidates = limits.max_candidates;
    s.budget = budget.clone();
    s
}

/// A model a run request names: one of relaxlab's, or a bundled cat model
/// (`cat:tso` for `cat/tso.cat`, as `run --cat cat/tso.cat` names it).
enum Picked {
    Key(ModelKey),
    Cat(crate::cat::CatFile),
}

impl Picked {
    fn model(&self) -> Model<'_> {
        match self {
            Picked::Key(k) => Model::from(*k),
            Picked::Cat(c) => Model::Cat(c),
        }
    }
}

/// The models of a run request: `cat:NAME` for a bundled cat model (no
/// other file is read), the rest as [`parse_models`]; each named once, as
/// `run` asks.
fn parse_run_models(names: &[String]) -> Result<Vec<Picked>, miette::Report> {
    let (cats, keys): (Vec<&String>, Vec<&String>) =
        names.iter().partition(|n| n.starts_with("cat:"));
    let mut picked = Vec::new();
    if !keys.is_empty() || cats.is_empty() {
        let keys: Vec<String> = keys.into_iter().cloned().collect();
        let keys = parse_models(&keys)?;
        common::distinct(&keys)?;
        picked.extend(keys.into_iter().map(Picked::Key));
    }
    for (i, name) in cats.iter().enumerate() {
        if cats[..i].contains(name) {
            return Err(common::ModelTwice(name.to_string()).into());
        }
    }
    for name in cats {
        let stem = &name["cat:".len()..];
        match crate::cat::bundled(stem) {
            Some(Ok(file)) => picked.push(Picked::Cat(file)),
            Some(Err(e)) => return Err(miette::Report::new(e)),
            None => {
                let known: Vec<String> = crate::cat::bundled_models()
                    .map(|m| format!("cat:{m}"))
                    .collect();
                return Err(miette::miette!(
                    help = format!("the playground's cat models: {}", known.join(", ")),
                    "unknown cat model `{name}`"
                ));
            }
        }
    }
    Ok(picked)
}

/// The models a request names, parsed as `run` parses `--model` and
/// `--axiomatic`.
pub(crate) fn parse_models(names: &[String]) -> Result<Vec<ModelKey>, miette::Report> {
    let mut keys = Vec::new();
    for n in names {
        let parsed = if n.starts_with("ax.") {
            common::ax_models(std::slice::from_ref(n))?
        } else {
            common::op_models(std::slice::from_ref(n))?
        };
        keys.extend(parsed);
    }
    if keys.is_empty() {
        keys = common::op_models(&["sc".to_string()])?;
    }
    Ok(keys)
}

/// Refuses a request whose numbers `run` would refuse as flags: an
/// `unroll` beyond the CLI's bound, a bound of 0 (which would explore
/// nothing and answer as if the search were done).
fn check_numbers(request: &RunRequest) -> Result<(), ApiError> {
    if let Some(k) = request.unroll.filter(|&k| k > MAX_UNROLL) {
        return Err(ApiError::BadRequest(format!(
            "`unroll` is {k}: it must be 0 to {MAX_UNROLL} (as `relaxlab run --unroll`)"
        )));
    }
    for (field, value) in [
        ("sample", request.sample),
        ("max_states", request.max_states),
        ("max_candidates", request.max_candidates),
        ("max_steps", request.max_steps),
    ] {
        if value == Some(0) {
            return Err(ApiError::BadRequest(format!(
                "`{field}` is 0: it must be at least 1 (as `relaxlab run --{}`)",
                field.replace('_', "-")
            )));
        }
    }
    Ok(())
}

pub(crate) async fn run(
    State(app): State<Arc<App>>,
    ApiJson(request): ApiJson<RunRequest>,
) -> Result<Json<RunAnswer>, ApiError> {
    check_numbers(&request)?;
    let strategy = match &request.strategy {
        None => StrategyArg::Uniform,
        Some(s) => StrategyArg::from_str(s, true).map_err(|_| {
            ApiError::BadRequest(format!(
                "unknown strategy `{s}`: uniform, delay, old or c11tester"
            ))
        })?,
    };
    if request.models.is_empty() {
        return Err(ApiError::BadRequest(
            "`models` is empty: name at least one model, e.g. [\"sc\"] (GET /api/models lists them)"
                .to_string(),
        ));
    }
    let limits = app.limits.clone();
    let answer = app
        .work(move |budget| answer(&request, strategy, &limits, budget))
        .await?;
    Ok(Json(answer))
}

/// Runs the request as `run` would.
fn answer(
    request: &RunRequest,
    strategy_arg: StrategyArg,
    limits: &Limits,
    budget: &Budget,
) -> RunAnswer {
    let file = SourceFile {
        path: request.file.clone().unwrap_or_else(|| DEFAULT_FILE.into()),
        text: request.source.clone(),
    };
    let mut answer = RunAnswer {
        runs: Vec::new(),
        diagnostics: Vec::new(),
        dot: request.dot.then(Vec::new),
        exit: 0,
    };
    let mut exit = Exit::Ok;
    let report = |r: &miette::Report, exit: &mut Exit, answer: &mut RunAnswer| {
        answer
            .diagnostics
            .extend(diagnostics::to_json(r, &request.source));
        *exit = (*exit).max(Exit::InputError);
    };
    let mut settings = settings(limits, request.mapping, budget);
    if let Some(n) = request.max_states {
        settings.max_states = n.min(limits.max_states);
    }
    if let Some(n) = request.max_candidates {
        settings.max_candidates = n.min(limits.max_candidates);
    }
    settings.unroll = request.unroll;
    if let Some(runs) = request.sample {
        settings.sampling = Some(Sampling {
            runs: runs.min(limits.max_samples),
            seed: request.seed.unwrap_or(0),
            strategy: strategy(strategy_arg),
            max_steps: request
                .max_steps
                .unwrap_or(limits.max_sample_steps)
                .min(limits.max_sample_steps),
        });
    }
    let models = match parse_run_models(&request.models) {
        Ok(m) => m,
        Err(r) => {
            report(&r, &mut exit, &mut answer);
            answer.exit = exit.code();
            return answer;
        }
    };
    let program = match load::program(&file) {
        Ok(p) => p,
        Err(r) => {
            report(&r, &mut exit, &mut answer);
            answer.exit = exit.code();
            return answer;
        }
    };
    for picked in &models {
        let model = picked.model();
        let key = model.key();
        if let Err(r) = model.check(&program, &file) {
            report(&r, &mut exit, &mut answer);
            continue;
        }
        let ran = engine::program_for(&program, model, &settings);
        let detailed = match engine::run_detailed(&program, model, &settings) {
            Ok(r) => r,
            Err(e) => {
                report(&miette::Report::new(e), &mut exit, &mut answer);
                continue;
            }
        };
        let table = &detailed.table;
        // The exit code `relaxlab run` would give (a failed assertion not
        // expected by the test is 1, a bound 3).
        exit = exit.max(run_exit(&program, key, table));
        if let Some(graphs) = &mut answer.dot {
            let mut per_outcome = dot::per_outcome(model, &program, &ran, table, &settings);
            graphs.push(
                table
                    .rows
                    .iter()
                    .map(|row| per_outcome.remove(&row.values).map(|g| g.dot))
                    .collect(),
            );
        }
        let mode = model.mode(&settings);
        let extras = json::RunExtras {
            first_runs: detailed.first_runs.as_ref(),
            non_sc_known: non_sc_known(key, &detailed, &settings),
            graphs: None,
            mcr: detailed.mcr.as_ref(),
        };
        let mut run = json::run_with(&file.path, &ran, key, table, mode, request.witness, extras);
        run.name_bounds(table, &|b| limit_name(b, request, limits));
        run.read_condition(&program, table, mode);
        answer.runs.push(run);
    }
    answer.exit = exit.code();
    answer
}

/// How a partial answer names the bound that cut it: by the server's limit
/// (a person at the page cannot pass `--max-states`), or by the request's
/// own field when it asked for less.
fn limit_name(bound: &BoundHit, request: &RunRequest, limits: &Limits) -> String {
    let lowered = |asked: Option<u64>, server: u64| asked.is_some_and(|n| n < server);
    match bound {
        BoundHit::MaxStates(_) | BoundHit::MaxExecutions(_)
            if lowered(request.max_states, limits.max_states) =>
        {
            "the request's `max_states`".to_string()
        }
        BoundHit::MaxStates(_) | BoundHit::MaxExecutions(_) => {
            "the playground's bound per exploration, relaxlab serve --max-states".to_string()
        }
        BoundHit::MaxCandidates(_) if lowered(request.max_candidates, limits.max_candidates) => {
            "the request's `max_candidates`".to_string()
        }
        BoundHit::MaxCandidates(_) => {
            "the playground's bound per axiomatic run, relaxlab serve --max-candidates".to_string()
        }
        BoundHit::MaxSteps { .. } if lowered(request.max_steps, limits.max_sample_steps) => {
            "the request's `max_steps`".to_string()
        }
        BoundHit::MaxSteps { .. } => "the playground's bound per sampled run".to_string(),
        BoundHit::Unroll(_) => "the unroll option".to_string(),
        BoundHit::MaxDepth(_) => "the explorer's depth bound".to_string(),
        BoundHit::Interrupted => "the server gave up on the request".to_string(),
        // The model's own: no limit of the server or the request.
        BoundHit::Unsettled(_) => "a `let rec` of the model that is not monotone".to_string(),
        BoundHit::Timeout { .. } => {
            "the playground's time limit per request, relaxlab serve --request-timeout".to_string()
        }
        BoundHit::MaxMemory { .. } => {
            "the playground's memory budget per request, relaxlab serve --max-memory".to_string()
        }
    }
}
