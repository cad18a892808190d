//! The playground's router, its shared state, and how requests get their
//! work done within the limits.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use relaxlab_semantics::budget::{Budget, Deadline, MemoryCeiling};
use relaxlab_semantics::ir::{AxModel, OpModel};
use serde::Serialize;
use tokio::sync::Semaphore;

use super::limits::Limits;
use super::sessions::Sessions;
use super::{assets, library, run, step};

/// The stack of every thread that parses or explores: the front end's
/// recursion grows with the length of an expression, and a request of
/// `max_request_bytes` must not overflow it (256 KiB of `1 + 1 + ...`
/// needs about 10 MiB). Only touched pages are backed by memory.
pub(crate) const WORKER_STACK: usize = 64 << 20;

/// What every request shares: the limits, the exploration pool, the
/// stepper sessions.
pub struct App {
    pub(crate) limits: Limits,
    pool: Arc<rayon::ThreadPool>,
    /// One permit per request exploring now.
    running: Arc<Semaphore>,
    pub(crate) sessions: Mutex<Sessions>,
    /// The authorities (`host:port`) requests may name; `None`: any (the
    /// server listens beyond the loopback interface, on purpose).
    allowed_hosts: Option<Vec<String>>,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("App").field("limits", &self.limits).finish()
    }
}

/// Why a request got no answer of its own.
#[derive(Debug)]
pub(crate) enum ApiError {
    /// 400: the request itself is malformed (not a litmus error, which is
    /// a diagnostic in a normal answer).
    BadRequest(String),
    /// The body is not the JSON the endpoint takes (not JSON, a field of
    /// the wrong type, an unknown field, no `Content-Type:
    /// application/json`, too large): axum's status (400, 413, 415, 422)
    /// and its reason.
    Rejected(StatusCode, String),
    /// 404.
    NotFound(String),
    /// 503: every exploration slot stayed busy for the whole time limit.
    Busy,
    /// 503: the work did not finish within the time limit.
    Timeout(std::time::Duration),
    /// 500: a bug in relaxlab.
    Internal(String),
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, message) = match self {
            ApiError::BadRequest(m) => (StatusCode::BAD_REQUEST, m),
            ApiError::Rejected(status, m) => (status, m),
            ApiError::NotFound(m) => (StatusCode::NOT_FOUND, m),
            ApiError::Busy => (
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is busy with other explorations; try again".to_string(),
            ),
            ApiError::Timeout(d) => (
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the request did not finish within {} s (relaxlab serve --request-timeout); \
                     lower the bounds or simplify the test",
                    d.as_secs()
                ),
            ),
            ApiError::Internal(m) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("relaxlab internal error: {m}"),
            ),
        };
        (status, Json(serde_json::json!({ "error": message }))).into_response()
    }
}

/// The JSON body of a request, as [`Json`] extracts it, except that a body
/// it refuses is answered `{"error": ...}` like every other refusal
/// ([`ApiError::Rejected`]), not with axum's plain-text one.
#[derive(Debug)]
pub(crate) struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    Json<T>: FromRequest<S, Rejection = JsonRejection>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(ApiJson(value)),
            Err(rejection) => Err(ApiError::Rejected(
                rejection.status(),
                rejection_text(&rejection.body_text()),
            )),
        }
    }
}

/// axum's reason for refusing a body, with the field it names first:
/// `Failed to deserialize the JSON body into the target type: mapping:
/// unknown variant ...` is `` `mapping`: unknown variant ... ``.
fn rejection_text(text: &str) -> String {
    const PREFIX: &str = "Failed to deserialize the JSON body into the target type: ";
    let Some(rest) = text.strip_prefix(PREFIX) else {
        return text.to_string();
    };
    match rest.split_once(": ") {
        Some((field, why)) if !field.contains(' ') => format!("`{field}`: {why}"),
        _ => rest.to_string(),
    }
}

impl App {
    /// The shared state of a server with these limits; `host` is the
    /// address it listens on and `port` its port (to check the `Host` of
    /// requests when it listens on loopback only).
    pub fn new(limits: Limits, host: &str, port: u16) -> Result<Arc<App>, String> {
        // Diagnostics keep the offsets of the text sent (the editor shows
        // every line whole), so long lines are not cut in this process.
        relaxlab_grammar::set_clipping(false);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(limits.jobs)
            .stack_size(WORKER_STACK)
            .thread_name(|i| format!("relaxlab-explore-{i}"))
            .build()
            .map_err(|e| format!("cannot start the exploration threads: {e}"))?;
        let loopback = host
            .parse::<std::net::IpAddr>()
            .map(|ip| ip.is_loopback())
            .unwrap_or(host == "localhost");
        let allowed_hosts = loopback.then(|| {
            ["127.0.0.1", "localhost", "[::1]"]
                .iter()
                .map(|h| format!("{h}:{port}"))
                .collect()
        });
        Ok(Arc::new(App {
            running: Arc::new(Semaphore::new(limits.max_running)),
            sessions: Mutex::new(Sessions::new(limits.max_sessions)),
            limits,
            pool: Arc::new(pool),
            allowed_hosts,
        }))
    }

    /// Runs `work` on a blocking thread inside the exploration pool, at
    /// most `max_running` requests at once, and answers within the
    /// request's time limit. `work` gets the budget its explorations must
    /// poll (the deadline, and an interruption flag raised when the
    /// answer is given up on).
    pub(crate) async fn work<T: Send + 'static>(
        self: &Arc<Self>,
        work: impl FnOnce(&Budget) -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let limit = self.limits.request_timeout;
        let started = tokio::time::Instant::now();
        let permit = tokio::time::timeout(limit, self.running.clone().acquire_owned())
            .await
            .map_err(|_| ApiError::Busy)?
            .map_err(|_| ApiError::Busy)?;
        let flag = Arc::new(AtomicBool::new(false));
        // The deadline counts from the request's arrival (time spent
        // waiting for a slot included) and reports the server's limit. The
        // memory budget counts from now, once the slot is taken: with
        // `max_running` requests at once, the server grows by at most that
        // many budgets (where the system does not tell the process's
        // memory, as for `run --max-memory`, there is no memory budget).
        let budget = Budget {
            interrupt: Some(flag.clone()),
            deadline: Some(Deadline {
                at: started.into_std() + limit,
                after: limit,
            }),
            memory: crate::limits::resident_bytes().map(|now| MemoryCeiling {
                bytes: self.limits.max_memory.into(),
                baseline: now,
                probe: crate::limits::resident_bytes,
            }),
            progress: None,
        };
        let pool = self.pool.clone();
        let handle = tokio::task::spawn_blocking(move || {
            // The permit goes with the work: a request given up on keeps
            // its slot until its work has really stopped.
            let _permit = permit;
            pool.install(|| work(&budget))
        });
        // A little grace past the deadline, for explorations to notice it
        // and for the answer to be rendered.
        let grace = std::time::Duration::from_secs(2);
        match tokio::time::timeout(limit + grace, handle).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(e)) => Err(ApiError::Internal(format!("a request's work failed: {e}"))),
            Err(_) => {
                flag.store(true, Ordering::Relaxed);
                Err(ApiError::Timeout(limit))
            }
        }
    }
}

/// The playground's routes over `app`.
pub fn router(app: Arc<App>) -> Router {
    let body_limit = app.limits.max_request_bytes;
    Router::new()
        .route("/", get(index))
        .route("/assets/{name}", get(asset))
        .route("/api/models", get(models))
        .route("/api/library", get(library_index))
        .route("/api/library/{*path}", get(library_file))
        .route("/api/run", post(run::run))
        .route("/api/step/start", post(step::start))
        .route("/api/step/take", post(step::take))
        .route("/api/step/back", post(step::back))
        .route("/api/step/forward", post(step::forward))
        .route("/api/step/restart", post(step::restart))
        .fallback(|| async { ApiError::NotFound("no such page".into()) })
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(middleware::from_fn_with_state(app.clone(), check_host))
        .with_state(app)
}

/// Refuses requests that name another host than the server's own
/// loopback address: a page of another site that has its name resolve
/// to 127.0.0.1 (DNS rebinding) gets nothing.
async fn check_host(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    if let Some(allowed) = &app.allowed_hosts {
        let host = request
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or_default();
        if !allowed.iter().any(|a| a == host) {
            return (StatusCode::MISDIRECTED_REQUEST, "unknown host").into_response();
        }
    }
    next.run(request).await
}

async fn index() -> Response {
    asset_response("index.html")
}

async fn asset(Path(name): Path<String>) -> Response {
    asset_response(&name)
}

fn asset_response(name: &str) -> Response {
    match assets::find(name) {
        Some((content_type, body)) => (
            [
                (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            ],
            body,
        )
            .into_response(),
        None => ApiError::NotFound(format!("no asset `{name}`")).into_response(),
    }
}

/// The model selector's choices.
#[derive(Serialize)]
struct Models {
    operational: Vec<&'static str>,
    axiomatic: Vec<String>,
    /// The project's cat models, built in (`cat:tso` is `cat/tso.cat`).
    cat: Vec<String>,
}

async fn models() -> Json<Models> {
    Json(Models {
        operational: OpModel::ALL.iter().map(|m| m.name()).collect(),
        axiomatic: AxModel::ALL
            .iter()
            .map(|m| format!("ax.{}", m.name()))
            .collect(),
        cat: crate::cat::bundled_models()
            .map(|m| format!("cat:{m}"))
            .collect(),
    })
}

async fn library_index() -> Json<&'static [library::Entry]> {
    Json(library::index())
}

async fn library_file(Path(path): Path<String>) -> Response {
    match library::find(&path) {
        Some(text) => (
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            )],
            text,
        )
            .into_response(),
        None => ApiError::NotFound(format!("no test `{path}` in the library")).into_response(),
    }
}
