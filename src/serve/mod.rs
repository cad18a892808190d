//! `relaxlab serve`: the playground, relaxlab in a web browser.
//!
//! An HTTP server (axum on tokio) with the page's assets and the litmus
//! library embedded in the binary: it reads no file and reaches no network
//! at run time. The API:
//!
//! - `GET /api/models`, `GET /api/library`, `GET /api/library/{path}`:
//!   the model names and the bundled tests;
//! - `POST /api/run`: `{ "source", "models", ... }` answers `{ "runs",
//!   "diagnostics", "dot", "exit" }`, where `runs` is exactly the document
//!   `relaxlab run --format json` prints (the same rendering code), and
//!   each diagnostic carries its labels' spans in the source sent;
//! - `POST /api/step/start`, `take`, `back`, `forward`, `restart`: the
//!   stepper (`relaxlab_semantics::analyses::stepper`), a session per walk.
//!
//! Limits, so that a pasted huge test cannot take the server down: the
//! request size, every exploration's state and candidate bounds, a time
//! limit per request (the operational explorers and the axiomatic engine
//! poll their [`Budget`](relaxlab_semantics::budget::Budget) deadline and
//! answer with a partial table; work that still runs past a grace period
//! is abandoned), a memory budget per request (the budget's memory
//! ceiling, counted from the request's start: a partial table too), how
//! many requests explore at once, and how many stepper sessions are kept.
//! A refused request is answered `{"error": ...}` with a 4xx status. Work runs on threads with large stacks,
//! as the front end's recursion grows with the length of an expression.

mod app;
mod assets;
mod command;
mod diagnostics;
mod library;
mod limits;
mod run;
mod sessions;
mod step;

pub use app::{router, App};
pub use command::{runtime, serve};
pub use library::LIBRARY;
pub use limits::Limits;
