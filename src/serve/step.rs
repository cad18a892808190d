//! `POST /api/step/*`: the stepper over HTTP.
//!
//! `start` loads a test under an operational model and opens a session
//! (with `follow`, on the witness of one outcome or failure of the
//! model's exploration, to be replayed with `forward`); `take` takes one
//! enabled move (dropping the moves "back" had undone), `back` and
//! `forward` move through the walk's history, `restart` goes back to the
//! initial state keeping the history. Every answer is the session's id
//! and its view: threads, memory, enabled moves labelled like witness
//! lines, and the history.

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use relaxlab_semantics::analyses::stepper::{self, RunEnd, RunStatus, StepView, ThreadState};
use relaxlab_semantics::ir::{ModelKey, OpModel, Program, Span, Value};
use relaxlab_semantics::picture::Group;
use serde::{Deserialize, Serialize};

use super::app::{ApiError, ApiJson, App};
use super::diagnostics::{self, utf16_offset, DiagnosticJson};
use super::run::{parse_models, settings, DEFAULT_FILE};
use super::sessions::Session;
use crate::cli::MappingArg;
use crate::engine;
use crate::files::SourceFile;
use crate::load;
use crate::render::table::describe_failure;

/// Which witness to follow.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "lowercase")]
pub(crate) enum Follow {
    /// The witness of the outcome with these values.
    Outcome(Vec<Value>),
    /// The witness of failure number `n` (in the table's order).
    Failure(usize),
}

/// The body of `POST /api/step/start`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StartRequest {
    pub source: String,
    #[serde(default)]
    pub file: Option<String>,
    /// An operational model (`relaxlab_semantics::registry::OpModel`).
    pub model: String,
    #[serde(default)]
    pub mapping: Option<MappingArg>,
    #[serde(default)]
    pub follow: Option<Follow>,
}

/// The body of `take` (with `choice`), `back`, `forward` and `restart`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SessionRequest {
    pub session: String,
    #[serde(default)]
    pub choice: Option<u32>,
}

/// An answer of the stepper.
#[derive(Debug, Serialize)]
pub(crate) struct StepAnswer {
    /// The session's id; `None` when the test did not load.
    pub session: Option<String>,
    pub model: Option<&'static str>,
    /// What stopped the test from loading, if anything.
    pub diagnostics: Vec<DiagnosticJson>,
    pub view: Option<ViewJson>,
}

/// An instruction as the page shows it.
#[derive(Debug, Serialize)]
pub(crate) struct InstrJson {
    pub text: String,
    pub line: u32,
    /// UTF-16 offsets into the source sent; `None` for a herd7 test.
    pub span: Option<(usize, usize)>,
}

#[derive(Debug, Serialize)]
pub(crate) struct RegisterJson {
    pub name: String,
    pub value: Value,
}

#[derive(Debug, Serialize)]
pub(crate) struct ThreadJson {
    pub name: String,
    /// `running`, `not started` or `finished`.
    pub state: &'static str,
    pub next: Option<InstrJson>,
    pub registers: Vec<RegisterJson>,
    /// The model's private part of the thread: buffers, histories, clocks.
    pub groups: Vec<Group>,
}

#[derive(Debug, Serialize)]
pub(crate) struct MoveJson {
    pub choice: u32,
    pub thread: String,
    pub internal: bool,
    /// Witness lines: the move (its label), then the local steps it runs.
    pub lines: Vec<String>,
    pub ends: Option<String>,
    pub instr: Option<InstrJson>,
    /// The move the walk's history takes next ("forward", or the next step
    /// of a followed witness).
    pub next_in_history: bool,
}

#[derive(Debug, Serialize)]
pub(crate) struct CellOutcome {
    pub name: String,
    pub value: Value,
}

#[derive(Debug, Serialize)]
pub(crate) struct StatusJson {
    /// `running`, `final`, `filtered`, `ended` or `deadlock`.
    pub kind: &'static str,
    /// One sentence for people.
    pub text: String,
    pub outcome: Option<Vec<CellOutcome>>,
    pub satisfies: Option<bool>,
}

/// A state of the walk as the page shows it.
#[derive(Debug, Serialize)]
pub(crate) struct ViewJson {
    pub test: String,
    pub position: usize,
    pub length: usize,
    pub initial: Vec<String>,
    pub history: Vec<Vec<String>>,
    pub threads: Vec<ThreadJson>,
    /// What the threads share: memory, store lists.
    pub shared: Vec<Group>,
    pub moves: Vec<MoveJson>,
    pub status: StatusJson,
    pub races: Vec<String>,
}

fn bad(e: impl std::fmt::Display) -> ApiError {
    ApiError::BadRequest(e.to_string())
}

fn instr_json(program: &Program, source: Option<&str>, t: usize, i: usize) -> Option<InstrJson> {
    let ins = program.threads.get(t)?.code.get(i)?;
    let Span { start, end } = ins.span;
    Some(InstrJson {
        text: ins.text.clone(),
        line: ins.line,
        span: source.map(|s| {
            (
                utf16_offset(s, start as usize),
                utf16_offset(s, end as usize),
            )
        }),
    })
}

fn end_text(program: &Program, e: &RunEnd) -> String {
    match e {
        RunEnd::Failed(kind) => format!("the execution fails: {}", describe_failure(program, kind)),
        RunEnd::Discarded => "the execution is discarded (an assume is false)".to_string(),
    }
}

/// The page's view of `view`, a state of `session`'s walk.
fn view_json(session: &Session, view: StepView) -> ViewJson {
    let p = &*session.program;
    let source = session.source.as_deref().map(String::as_str);
    let mut thread_groups = view.memory.threads;
    let threads = view
        .threads
        .iter()
        .map(|th| {
            let t = th.thread.index();
            let (state, next) = match th.state {
                ThreadState::Running { next } => {
                    ("running", instr_json(p, source, t, next.index()))
                }
                ThreadState::NotStarted => ("not started", None),
                ThreadState::Finished => ("finished", None),
            };
            ThreadJson {
                name: p.threads[t].name.clone(),
                state,
                next,
                registers: th
                    .registers
                    .iter()
                    .map(|(name, value)| RegisterJson {
                        name: name.clone(),
                        value: *value,
                    })
                    .collect(),
                groups: thread_groups
                    .get_mut(t)
                    .map(std::mem::take)
                    .unwrap_or_default(),
            }
        })
        .collect();
    let redo = session.choices.get(session.position).copied();
    let moves = view
        .moves
        .iter()
        .map(|m| MoveJson {
            choice: m.choice,
            thread: p.threads[m.thread.index()].name.clone(),
            internal: m.internal,
            lines: m.lines.clone(),
            ends: m.ends.as_ref().map(|e| end_text(p, e)),
            instr: m
                .instr
                .and_then(|i| instr_json(p, source, m.thread.index(), i.index())),
            next_in_history: redo == Some(m.choice),
        })
        .collect();
    let status = match &view.status {
        RunStatus::Running => StatusJson {
            kind: "running",
            text: format!(
                "{} enabled transition{}",
                view.moves.len(),
                if view.moves.len() == 1 { "" } else { "s" }
            ),
            outcome: None,
            satisfies: None,
        },
        RunStatus::Final { values, satisfies } => StatusJson {
            kind: "final",
            text: format!(
                "final state: {}{}",
                crate::render::dot::outcome_text(p, values),
                match (p.condition.as_ref(), satisfies) {
                    (Some(c), Some(holds)) => format!(
                        " ({})",
                        crate::render::table::final_state_reading(c.quantifier, *holds)
                    ),
                    _ => String::new(),
                }
            ),
            outcome: Some(
                p.observed
                    .iter()
                    .zip(values)
                    .map(|(o, v)| CellOutcome {
                        name: p.observable_name(*o),
                        value: *v,
                    })
                    .collect(),
            ),
            satisfies: *satisfies,
        },
        RunStatus::Filtered => StatusJson {
            kind: "filtered",
            text: "final state, rejected by the test's filter: no outcome".into(),
            outcome: None,
            satisfies: None,
        },
        RunStatus::Ended(e) => StatusJson {
            kind: "ended",
            text: end_text(p, e),
            outcome: None,
            satisfies: None,
        },
        RunStatus::Deadlock => StatusJson {
            kind: "deadlock",
            text: "deadlock: no transition is enabled and the state is not final".into(),
            outcome: None,
            satisfies: None,
        },
    };
    let site = |s: relaxlab_semantics::model::Site| {
        let ins = p.instruction(s.thread, s.instr);
        format!(
            "{} line {}: {}",
            p.thread(s.thread).name,
            ins.line,
            ins.text
        )
    };
    ViewJson {
        test: p.name.clone(),
        position: view.position,
        length: session.choices.len(),
        initial: view.initial,
        history: view.history,
        threads,
        shared: view.memory.shared,
        moves,
        status,
        races: view
            .races
            .iter()
            .map(|r| {
                format!(
                    "data race on {}: {} and {}",
                    p.location(r.loc).name,
                    site(r.earlier),
                    site(r.later)
                )
            })
            .collect(),
    }
}

/// The view of `session` at its position.
fn answer_for(id: String, session: &Session) -> Result<StepAnswer, ApiError> {
    let view = stepper::view(
        &session.program,
        session.model,
        &session.choices,
        session.position,
    )
    .map_err(bad)?;
    Ok(StepAnswer {
        session: Some(id),
        model: Some(session.model.name()),
        diagnostics: Vec::new(),
        view: Some(view_json(session, view)),
    })
}

/// Loads a test for the stepper, or says why it does not load.
enum Started {
    Session(Session),
    Refused(Vec<DiagnosticJson>),
}

fn load_session(
    request: &StartRequest,
    model: OpModel,
    settings: &engine::Settings,
) -> Result<Started, ApiError> {
    let file = SourceFile {
        path: request.file.clone().unwrap_or_else(|| DEFAULT_FILE.into()),
        text: request.source.clone(),
    };
    let refuse =
        |r: miette::Report| Ok(Started::Refused(diagnostics::to_json(&r, &request.source)));
    let program = match load::program(&file) {
        Ok(p) => p,
        Err(r) => return refuse(r),
    };
    let key = ModelKey::Op(model);
    if let Err(r) = load::check_model(&program, key, &file) {
        return refuse(r);
    }
    let ran = engine::program_for(&program, key, settings);
    let choices = match &request.follow {
        None => Vec::new(),
        Some(follow) => {
            let table = engine::run(&program, key, settings).map_err(bad)?;
            let witness = match follow {
                Follow::Outcome(values) => table
                    .rows
                    .iter()
                    .find(|r| &r.values == values)
                    .and_then(|r| r.witness.clone()),
                Follow::Failure(n) => table.failures.get(*n).and_then(|f| f.witness.clone()),
            };
            let witness = witness.ok_or_else(|| {
                bad(format!(
                    "{} has no such outcome or failure under {} (or it has no witness{})",
                    program.name,
                    model.name(),
                    if table.complete() {
                        ""
                    } else {
                        ": the exploration was cut short"
                    }
                ))
            })?;
            stepper::witness_choices(&ran, model, &witness).ok_or_else(|| {
                ApiError::Internal(format!(
                    "the stepper cannot replay the {} witness of {}",
                    model.name(),
                    program.name
                ))
            })?
        }
    };
    let in_editor = relaxlab_grammar::herd::detect(&request.source)
        == relaxlab_grammar::herd::Dialect::Relaxlab;
    Ok(Started::Session(Session {
        program: Arc::new(ran),
        model,
        source: in_editor.then(|| Arc::new(request.source.clone())),
        choices,
        position: 0,
    }))
}

pub(crate) async fn start(
    State(app): State<Arc<App>>,
    ApiJson(request): ApiJson<StartRequest>,
) -> Result<Json<StepAnswer>, ApiError> {
    let model = match parse_models(std::slice::from_ref(&request.model)) {
        Ok(keys) => match keys[..] {
            [ModelKey::Op(m)] => m,
            _ => {
                return Err(bad(format!(
                    "the stepper runs operational models ({}), not `{}`",
                    crate::names::operational(),
                    request.model
                )))
            }
        },
        Err(r) => {
            return Ok(Json(StepAnswer {
                session: None,
                model: None,
                diagnostics: diagnostics::to_json(&r, &request.source),
                view: None,
            }))
        }
    };
    let limits = app.limits.clone();
    let worker = app.clone();
    app.work(move |budget| {
        let settings = settings(&limits, request.mapping, budget);
        match load_session(&request, model, &settings)? {
            Started::Refused(diagnostics) => Ok(StepAnswer {
                session: None,
                model: Some(model.name()),
                diagnostics,
                view: None,
            }),
            Started::Session(session) => {
                let id = lock(&worker)?.insert(session.clone());
                answer_for(id, &session)
            }
        }
    })
    .await?
    .map(Json)
}

fn lock(app: &App) -> Result<std::sync::MutexGuard<'_, super::sessions::Sessions>, ApiError> {
    app.sessions
        .lock()
        .map_err(|_| ApiError::Internal("the session table is poisoned".into()))
}

/// Applies `change` to the request's session and answers its new view;
/// a change whose walk does not replay is refused and leaves the session
/// as it was.
async fn change_session(
    app: Arc<App>,
    request: SessionRequest,
    change: impl FnOnce(&mut Session, Option<u32>, usize) -> Result<(), ApiError> + Send + 'static,
) -> Result<Json<StepAnswer>, ApiError> {
    let max_walk = app.limits.max_walk;
    let worker = app.clone();
    app.work(move |_| {
        let mut session = lock(&worker)?.get(&request.session).ok_or_else(|| {
            ApiError::NotFound("no such session (it may have expired): start again".into())
        })?;
        change(&mut session, request.choice, max_walk)?;
        let answer = answer_for(request.session.clone(), &session)?;
        lock(&worker)?.put(&request.session, session);
        Ok(answer)
    })
    .await?
    .map(Json)
}

pub(crate) async fn take(
    State(app): State<Arc<App>>,
    ApiJson(request): ApiJson<SessionRequest>,
) -> Result<Json<StepAnswer>, ApiError> {
    change_session(app, request, |s, choice, max_walk| {
        let choice = choice.ok_or_else(|| bad("`take` needs a `choice`"))?;
        if s.position >= max_walk {
            return Err(bad(format!("a walk is limited to {max_walk} moves")));
        }
        // Taking the move the history takes next keeps the rest of the
        // history (a followed witness goes on); another move replaces it.
        if s.choices.get(s.position) != Some(&choice) {
            s.choices.truncate(s.position);
            s.choices.push(choice);
        }
        s.position += 1;
        Ok(())
    })
    .await
}

pub(crate) async fn back(
    State(app): State<Arc<App>>,
    ApiJson(request): ApiJson<SessionRequest>,
) -> Result<Json<StepAnswer>, ApiError> {
    change_session(app, request, |s, _, _| {
        s.position = s.position.saturating_sub(1);
        Ok(())
    })
    .await
}

pub(crate) async fn forward(
    State(app): State<Arc<App>>,
    ApiJson(request): ApiJson<SessionRequest>,
) -> Result<Json<StepAnswer>, ApiError> {
    change_session(app, request, |s, _, _| {
        s.position = (s.position + 1).min(s.choices.len());
        Ok(())
    })
    .await
}

pub(crate) async fn restart(
    State(app): State<Arc<App>>,
    ApiJson(request): ApiJson<SessionRequest>,
) -> Result<Json<StepAnswer>, ApiError> {
    change_session(app, request, |s, _, _| {
        s.position = 0;
        Ok(())
    })
    .await
}
