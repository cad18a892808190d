//! The playground's HTTP API, in-process (`tower::ServiceExt::oneshot` on
//! the router): `/api/run` answers the document `run --format json`
//! prints, diagnostics carry spans in the source sent, the stepper walks
//! and follows witnesses, and the limits hold (request size, time,
//! concurrency, the `Host` check, a huge pasted test).

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use relaxlab::serve::{router, App, Limits};
use serde_json::{json, Value};
use tower::ServiceExt;

const PORT: u16 = 7878;

fn app(limits: Limits) -> Arc<App> {
    App::new(limits, "127.0.0.1", PORT).unwrap()
}

/// Sends one request; returns the status and the body (JSON, or a string
/// for other bodies).
async fn send(
    app: &Arc<App>,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    send_raw(
        app,
        Request::builder()
            .method(method)
            .uri(path)
            .header("host", format!("127.0.0.1:{PORT}"))
            .header("content-type", "application/json")
            .body(match body {
                Some(b) => Body::from(b.to_string()),
                None => Body::empty(),
            })
            .unwrap(),
    )
    .await
}

/// `POST /api/run` with `body`.
async fn post_run(app: &Arc<App>, body: Value) -> (StatusCode, Value) {
    send(app, "POST", "/api/run", Some(body)).await
}

async fn send_raw(app: &Arc<App>, request: Request<Body>) -> (StatusCode, Value) {
    let response = router(app.clone()).oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

fn source(path: &str) -> String {
    std::fs::read_to_string(support::root().join(path)).unwrap()
}

/// Runs `body` on the playground's runtime (large stacks for the work).
fn on_runtime<F: std::future::Future<Output = ()>>(body: F) {
    relaxlab::serve::runtime().unwrap().block_on(body);
}

/// A test whose every state is new (the counter grows for ever): no
/// exploration ends it, however fast the machine or whatever the
/// reduction; only a bound does.
const ENDLESS: &str = "test Counter\ninit { x = 0; }\nthread P0 {\n  r = 0;\n  while (r >= 0) {\n    r = r + 1;\n    store(x, r, rlx);\n  }\n}\nexists (x = 0)\n";

/// Runs [`ENDLESS`] under `pslo` on `app`: the run, which a bound of the
/// app's limits has cut short (exit 3, not complete).
async fn endless_run(app: &Arc<App>) -> Value {
    let (status, answer) = send(
        app,
        "POST",
        "/api/run",
        Some(json!({ "source": ENDLESS, "models": ["pslo"] })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["exit"], json!(3), "{answer}");
    let run = answer["runs"][0].clone();
    assert_eq!(run["complete"], json!(false), "{run}");
    run
}

#[test]
fn run_answers_the_document_of_run_format_json() {
    on_runtime(async {
        let app = app(Limits::default());
        for (path, models, flags) in [
            (
                "litmus/classic/SB.litmus",
                vec!["tso", "ax.tso"],
                vec!["--model", "tso", "--axiomatic", "tso"],
            ),
            (
                "litmus/classic/MP.litmus",
                vec!["sc", "pso", "pslo"],
                vec!["--model", "sc,pso,pslo"],
            ),
            (
                "litmus/c11/MP+na+rlx.litmus",
                vec!["c11r", "c11t", "ax.rc11"],
                vec!["--model", "c11r,c11t", "--axiomatic", "rc11"],
            ),
            (
                "litmus/herd/c/SB.litmus",
                vec!["tso", "ax.c11"],
                vec!["--model", "tso", "--axiomatic", "c11"],
            ),
            (
                "litmus/classic/SB.litmus",
                vec!["tso", "cat:tso"],
                vec!["--model", "tso", "--cat", "cat/tso.cat"],
            ),
            (
                "litmus/c11/MP+na+rlx.litmus",
                vec!["cat:rc11", "cat:c11"],
                vec!["--cat", "cat/rc11.cat", "--cat", "cat/c11.cat"],
            ),
        ] {
            let (status, answer) = post_run(
                &app,
                json!({ "source": source(path), "file": path, "models": models, "witness": true }),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{answer}");
            let mut args = vec!["run", path, "--format", "json", "--witness"];
            args.extend(flags);
            let (code, out, err) = support::relaxlab(&args);
            assert_eq!((code, err.as_str()), (0, ""));
            let cli: Value = serde_json::from_str(&out).unwrap();
            // The playground's runs add the condition's reading, which
            // `run --format json` leaves to its `verdict` and `satisfies`.
            let mut runs = answer["runs"].clone();
            for run in runs.as_array_mut().unwrap() {
                let reading = run.as_object_mut().unwrap().remove("reading");
                assert_eq!(reading.unwrap()["quantifier"], json!("exists"), "{path}");
            }
            assert_eq!(runs, cli, "{path}");
            assert_eq!(answer["diagnostics"], json!([]));
            assert_eq!(answer["exit"], json!(0));
        }
    });
}

#[test]
fn run_draws_a_graph_per_row() {
    on_runtime(async {
        let app = app(Limits::default());
        let (_, answer) = post_run(&app, json!({ "source": source("litmus/classic/SB.litmus"), "models": ["tso", "ax.tso"], "dot": true })).await;
        let dot = answer["dot"].as_array().unwrap();
        assert_eq!(dot.len(), 2);
        for per_run in dot {
            let rows = per_run.as_array().unwrap();
            assert_eq!(rows.len(), 4);
            assert!(rows
                .iter()
                .all(|g| g.as_str().unwrap().starts_with("digraph \"SB under ")));
        }
        assert_eq!(answer["runs"][0]["file"], json!("playground.litmus"));
    });
}

#[test]
fn diagnostics_carry_spans_in_the_source_sent() {
    on_runtime(async {
        let app = app(Limits::default());
        // `∀` before the error moves byte offsets away from UTF-16 ones.
        let broken =
            "// ∀\ntest T\ninit { x = 0; }\nthread P0 { store(x, 1, rlx) }\nexists (x = 1)\n";
        let (status, answer) = post_run(&app, json!({ "source": broken, "models": ["sc"] })).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(answer["runs"], json!([]));
        assert_eq!(answer["exit"], json!(2));
        let d = &answer["diagnostics"][0];
        let label = &d["labels"][0];
        let start = label["start"].as_u64().unwrap() as usize;
        let units: Vec<u16> = broken.encode_utf16().collect();
        let at = String::from_utf16(&units[start..]).unwrap();
        assert!(at.starts_with('}'), "the span points at `{at}`");
        assert_eq!(label["line"], json!(4));
        assert!(d["rendered"]
            .as_str()
            .unwrap()
            .contains("store(x, 1, rlx) }"));

        // A model that refuses the test: said, and the other models run.
        let fenced = source("litmus/classic/SB+fences.ss.litmus");
        let (_, answer) =
            post_run(&app, json!({ "source": fenced, "models": ["c11r", "tso"] })).await;
        assert_eq!(answer["runs"].as_array().unwrap().len(), 1);
        assert_eq!(answer["runs"][0]["model"], json!("tso"));
        // Two errors (one per fence), each with its span.
        let diagnostics = answer["diagnostics"].as_array().unwrap();
        assert_eq!(diagnostics.len(), 2, "{answer:#}");
        for d in diagnostics {
            let start = d["labels"][0]["start"].as_u64().unwrap() as usize;
            assert!(fenced[start..].starts_with("fence(ss)"), "{d:#}");
        }
        assert_eq!(answer["exit"], json!(2));

        // An unknown model, with the CLI's suggestion.
        let (_, answer) = post_run(&app, json!({ "source": fenced, "models": ["tsx"] })).await;
        assert!(answer["diagnostics"][0]["help"]
            .as_str()
            .unwrap()
            .contains("did you mean `tso`"));

        // A herd7 test whose error lies in the herd text: spans in it.
        let herd = "C T\n{ x = 0; }\nP0 (atomic_int* x) { atomic_store_explicit(x, 1, memory_order_relaxed) }\nexists (x=1)\n";
        let (_, answer) = post_run(&app, json!({ "source": herd, "models": ["sc"] })).await;
        assert_eq!(answer["exit"], json!(2), "{answer}");
    });
}

#[test]
fn bad_requests_are_refused_with_a_reason() {
    on_runtime(async {
        let app = app(Limits {
            max_request_bytes: 4096,
            ..Limits::default()
        });
        let huge = "x".repeat(10_000);
        let (status, _) = post_run(&app, json!({ "source": huge })).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        let (status, _) = post_run(&app, json!({ "source": "", "bogus": 1 })).await;
        assert!(status.is_client_error());
        let (status, answer) = post_run(&app, json!({ "source": "", "strategy": "fast" })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(answer["error"]
            .as_str()
            .unwrap()
            .contains("unknown strategy"));
        // Every bad parameter is named: no model (the page used to run sc
        // in its place), an unknown mapping (axum's raw serde message).
        let sb = source("litmus/classic/SB.litmus");
        let (status, answer) = post_run(&app, json!({ "source": sb, "models": [] })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(
            answer["error"]
                .as_str()
                .unwrap()
                .starts_with("`models` is empty"),
            "{answer}"
        );
        let (status, answer) = post_run(
            &app,
            json!({ "source": sb, "models": ["sc"], "mapping": "weird" }),
        )
        .await;
        assert!(status.is_client_error());
        assert!(
            answer["error"]
                .as_str()
                .unwrap()
                .starts_with("`mapping`: unknown variant `weird`, expected `standard` or `plain`"),
            "{answer}"
        );
        let (status, _) = send(&app, "GET", "/api/library/../Cargo.toml", None).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, _) = send(&app, "GET", "/etc/passwd", None).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        // Another site's name resolving to this machine gets nothing.
        let (status, _) = send_raw(
            &app,
            Request::builder()
                .uri("/api/models")
                .header("host", "attacker.example:7878")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
        assert_eq!(status, StatusCode::MISDIRECTED_REQUEST);
    });
}

/// `/api/run` checks its numbers and models as `run` checks its flags,
/// and every refusal, a body axum's JSON extractor refuses included, is
/// `{"error": ...}` (they were plain text; `"unroll": 1000` ran, `"sample":
/// 0` answered "not observed" after no run, `["tso", "tso"]` ran twice).
#[test]
fn run_requests_are_checked_as_run_checks_its_flags() {
    on_runtime(async {
        let app = app(Limits::default());
        let sb = source("litmus/classic/SB.litmus");
        for (field, value, says) in [
            ("unroll", 1000, "must be 0 to 64"),
            ("unroll", 65, "must be 0 to 64"),
            ("sample", 0, "--sample"),
            ("max_states", 0, "--max-states"),
            ("max_candidates", 0, "--max-candidates"),
            ("max_steps", 0, "--max-steps"),
        ] {
            let mut body = json!({ "source": sb, "models": ["tso"], "sample": 10 });
            body[field] = json!(value);
            let (status, answer) = send(&app, "POST", "/api/run", Some(body)).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{field}: {answer}");
            let error = answer["error"].as_str().unwrap_or_default();
            assert!(
                error.contains(field) && error.contains(says),
                "{field}: {answer}"
            );
        }
        let (status, answer) = post_run(
            &app,
            json!({ "source": sb, "models": ["ax.tso"], "unroll": 64 }),
        )
        .await;
        assert_eq!(
            (status, &answer["exit"]),
            (StatusCode::OK, &json!(0)),
            "{answer}"
        );
        for models in [json!(["tso", "tso"]), json!(["cat:tso", "sc", "cat:tso"])] {
            let (status, answer) = post_run(&app, json!({ "source": sb, "models": models })).await;
            assert_eq!(status, StatusCode::OK, "{answer}");
            assert_eq!(answer["exit"], json!(2), "{answer}");
            assert_eq!(answer["runs"], json!([]), "{answer}");
            let message = answer["diagnostics"][0]["message"].as_str().unwrap();
            assert!(message.contains("is named twice"), "{answer}");
        }
        // Bodies the JSON extractor refuses: not JSON, a field of the wrong
        // type, no JSON content type.
        let request = |body: &str, content_type: Option<&str>| {
            let mut r = Request::builder()
                .method("POST")
                .uri("/api/run")
                .header("host", format!("127.0.0.1:{PORT}"));
            if let Some(t) = content_type {
                r = r.header("content-type", t);
            }
            r.body(Body::from(body.to_string())).unwrap()
        };
        for (path, body, content_type, expected) in [
            (
                "/api/run",
                "{\"source\": ",
                Some("application/json"),
                StatusCode::BAD_REQUEST,
            ),
            (
                "/api/run",
                "{\"source\": 5}",
                Some("application/json"),
                StatusCode::UNPROCESSABLE_ENTITY,
            ),
            (
                "/api/run",
                "{\"source\": \"\"}",
                None,
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ),
            (
                "/api/step/take",
                "{\"session\": ",
                Some("application/json"),
                StatusCode::BAD_REQUEST,
            ),
        ] {
            let mut r = request(body, content_type);
            *r.uri_mut() = path.parse().unwrap();
            let (status, answer) = send_raw(&app, r).await;
            assert_eq!(status, expected, "{body}: {answer}");
            assert!(
                answer["error"].as_str().is_some_and(|e| !e.is_empty()),
                "{body}: {answer}"
            );
        }
    });
}

/// Each request gets a memory budget (`serve --max-memory`): an
/// exploration that grows the server past it stops with a partial table
/// that says why, as `run --max-memory` does.
#[test]
fn a_request_past_its_memory_budget_stops_and_says_so() {
    if relaxlab::limits::resident_bytes().is_none() {
        return; // No memory budget where the system does not tell.
    }
    on_runtime(async {
        let app = app(Limits {
            max_memory: 1 << 20,
            max_states: u64::MAX,
            request_timeout: Duration::from_secs(120),
            ..Limits::default()
        });
        let run = endless_run(&app).await;
        assert_eq!(run["bounds"][0]["kind"], json!("max-memory"), "{run}");
        assert!(
            run["bounds"][0]["message"].as_str().unwrap().contains(
                "grew by more than 1 MiB (the playground's memory budget per request, \
                     relaxlab serve --max-memory)"
            ),
            "{run}"
        );
    });
}

#[test]
fn pages_and_library_are_served_from_the_binary() {
    on_runtime(async {
        let app = app(Limits::default());
        let (status, page) = send(&app, "GET", "/", None).await;
        assert_eq!(status, StatusCode::OK);
        assert!(page.as_str().unwrap().contains("relaxlab playground"));
        for asset in ["app.js", "style.css", "viz-global.js"] {
            let (status, _) = send(&app, "GET", &format!("/assets/{asset}"), None).await;
            assert_eq!(status, StatusCode::OK, "{asset}");
        }
        let (_, index) = send(&app, "GET", "/api/library", None).await;
        let entries = index.as_array().unwrap();
        assert_eq!(entries.len(), support::litmus_files("litmus").len());
        let sb = entries
            .iter()
            .find(|e| e["path"] == "classic/SB.litmus")
            .unwrap();
        assert_eq!(sb["name"], json!("SB"));
        let (status, text) = send(&app, "GET", "/api/library/classic/SB.litmus", None).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(text.as_str().unwrap(), source("litmus/classic/SB.litmus"));
        let (_, models) = send(&app, "GET", "/api/models", None).await;
        assert_eq!(
            models["operational"],
            json!(["sc", "tso", "pso", "pslo", "c11r", "c11t", "ra"])
        );
        assert_eq!(models["axiomatic"].as_array().unwrap().len(), 9);
        assert_eq!(
            models["cat"],
            json!([
                "cat:sc", "cat:tso", "cat:pso", "cat:pslo", "cat:c11", "cat:rc11", "cat:c11r",
                "cat:c11t"
            ])
        );
        // Every listed cat model compiles and runs; an unknown one is a
        // diagnostic, and no file outside the binary is read.
        for name in models["cat"].as_array().unwrap() {
            let (status, answer) = post_run(&app, json!({ "source": source("litmus/classic/SB.litmus"), "models": [name], "dot": true })).await;
            assert_eq!(status, StatusCode::OK, "{answer}");
            assert_eq!(answer["exit"], json!(0), "{name}: {answer}");
            assert_eq!(answer["runs"][0]["model"], *name);
        }
        let (_, answer) = post_run(&app, json!({ "source": source("litmus/classic/SB.litmus"), "models": ["cat:../../etc/passwd"] })).await;
        assert_eq!(answer["exit"], json!(2), "{answer}");
        assert!(
            answer["diagnostics"]
                .to_string()
                .contains("unknown cat model"),
            "{answer}"
        );
    });
}

/// Takes the move labelled `label` (a prefix) and returns the new view.
async fn take(app: &Arc<App>, session: &str, view: &Value, label: &str) -> Value {
    let m = view["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["lines"][0].as_str().unwrap().starts_with(label))
        .unwrap_or_else(|| panic!("no move `{label}` in {:#}", view["moves"]));
    let (status, answer) = send(
        app,
        "POST",
        "/api/step/take",
        Some(json!({ "session": session, "choice": m["choice"] })),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    answer["view"].clone()
}

#[test]
fn the_stepper_walks_backs_and_follows_witnesses() {
    on_runtime(async {
        let app = app(Limits::default());
        let sb = source("litmus/classic/SB.litmus");
        let (status, answer) = send(
            &app,
            "POST",
            "/api/step/start",
            Some(json!({ "source": sb, "model": "tso" })),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let session = answer["session"].as_str().unwrap().to_string();
        let mut view = answer["view"].clone();
        assert_eq!(
            view["threads"][0]["next"]["text"],
            json!("store(x, 1, rlx)")
        );
        let span = &view["threads"][0]["next"]["span"];
        let (a, b) = (
            span[0].as_u64().unwrap() as usize,
            span[1].as_u64().unwrap() as usize,
        );
        assert_eq!(&sb[a..b], "store(x, 1, rlx);");
        for label in ["P0: store", "P1: store", "P0: r0 = load", "P1: r0 = load"] {
            view = take(&app, &session, &view, label).await;
        }
        // Both stores still buffered: both loads read 0.
        assert_eq!(
            view["threads"][0]["groups"][0]["cells"][0]["text"],
            json!("x = 1")
        );
        assert_eq!(view["shared"][0]["cells"][0]["text"], json!("x = 0"));
        let labels: Vec<&str> = view["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["lines"][0].as_str().unwrap())
            .collect();
        assert_eq!(labels, ["P0: commit x = 1", "P1: commit y = 1"]);
        for label in ["P0: commit", "P1: commit", "P0: end", "P1: end"] {
            view = take(&app, &session, &view, label).await;
        }
        assert_eq!(view["status"]["kind"], json!("final"));
        assert_eq!(
            view["status"]["outcome"],
            json!([{"name": "P0:r0", "value": 0}, {"name": "P1:r0", "value": 0}])
        );
        assert_eq!(view["history"].as_array().unwrap().len(), 8);

        let step = |action: &'static str| {
            let app = app.clone();
            let session = session.clone();
            async move {
                let (status, answer) = send(
                    &app,
                    "POST",
                    &format!("/api/step/{action}"),
                    Some(json!({ "session": session })),
                )
                .await;
                assert_eq!(status, StatusCode::OK, "{answer}");
                answer["view"].clone()
            }
        };
        let back = step("back").await;
        assert_eq!(
            (back["position"].clone(), back["length"].clone()),
            (json!(7), json!(8))
        );
        assert_eq!(back["status"]["kind"], json!("running"));
        assert!(back["moves"][0]["next_in_history"].as_bool().unwrap());
        let restarted = step("restart").await;
        assert_eq!(restarted["position"], json!(0));
        assert_eq!(
            restarted["history"].as_array().unwrap().len(),
            8,
            "restart keeps the history"
        );
        let forward = step("forward").await;
        assert_eq!(forward["position"], json!(1));
        // A move that is not enabled is refused; the session stays.
        let (status, _) = send(
            &app,
            "POST",
            "/api/step/take",
            Some(json!({ "session": session, "choice": 99 })),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(step("forward").await["position"], json!(2));

        // Following the witness of the weak outcome: forward to the end.
        let (_, answer) = send(
            &app,
            "POST",
            "/api/step/start",
            Some(json!({ "source": sb, "model": "tso", "follow": { "outcome": [0, 0] } })),
        )
        .await;
        let followed = answer["session"].as_str().unwrap().to_string();
        let length = answer["view"]["length"].as_u64().unwrap();
        assert_eq!(length, 8);
        let mut view = answer["view"].clone();
        for _ in 0..length {
            let (_, answer) = send(
                &app,
                "POST",
                "/api/step/forward",
                Some(json!({ "session": followed })),
            )
            .await;
            view = answer["view"].clone();
        }
        assert_eq!(
            view["status"]["text"],
            json!("final state: P0:r0=0 P1:r0=0 (satisfies the condition)")
        );

        // What the stepper refuses.
        let (status, _) = send(
            &app,
            "POST",
            "/api/step/start",
            Some(json!({ "source": sb, "model": "ax.tso" })),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let (status, _) = send(
            &app,
            "POST",
            "/api/step/take",
            Some(json!({ "session": "nope", "choice": 0 })),
        )
        .await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (_, answer) = send(
            &app,
            "POST",
            "/api/step/start",
            Some(json!({ "source": "test", "model": "tso" })),
        )
        .await;
        assert_eq!(answer["session"], Value::Null);
        assert_eq!(answer["diagnostics"].as_array().unwrap().len(), 1);
    });
}

/// An exploration whose deadline has already passed when it first polls
/// it answers with what it has and says why (the limit is zero, so no
/// wall-clock race).
#[test]
fn a_long_exploration_stops_at_the_time_limit_and_says_so() {
    on_runtime(async {
        let app = app(Limits {
            request_timeout: Duration::ZERO,
            max_states: u64::MAX,
            ..Limits::default()
        });
        let run = endless_run(&app).await;
        assert!(
            run["bounds"][0]["message"]
                .as_str()
                .unwrap()
                .contains("stopped after 0 s"),
            "{run}"
        );
    });
}

/// A partial answer names the bound by the server's limit, which a person
/// at the page can see (`relaxlab serve --help`), not by a flag of `run`
/// they cannot pass; or by the request's own field when it asked for less.
#[test]
fn a_partial_answer_names_the_servers_bound() {
    on_runtime(async {
        let app = app(Limits {
            max_states: 50,
            ..Limits::default()
        });
        let message = |run: &Value| run["bounds"][0]["message"].as_str().unwrap().to_string();
        let run = endless_run(&app).await;
        assert!(
            message(&run)
                .contains("(the playground's bound per exploration, relaxlab serve --max-states)"),
            "{run}"
        );
        let (_, answer) = post_run(
            &app,
            json!({ "source": ENDLESS, "models": ["pslo"], "max_states": 10 }),
        )
        .await;
        let run = &answer["runs"][0];
        assert!(
            message(run).contains("(the request's `max_states`)"),
            "{run}"
        );
        assert!(!message(run).contains("--max-states"), "{run}");
    });
}

#[test]
fn requests_are_served_concurrently_within_the_limit() {
    on_runtime(async {
        let app = app(Limits {
            max_running: 1,
            ..Limits::default()
        });
        let mp = source("litmus/classic/MP.litmus");
        let requests = (0..6).map(|_| {
            let app = app.clone();
            let mp = mp.clone();
            tokio::spawn(async move {
                post_run(&app, json!({ "source": mp, "models": ["tso", "pso"] })).await
            })
        });
        let mut answers = Vec::new();
        for r in requests {
            answers.push(r.await.unwrap());
        }
        for (status, answer) in &answers {
            assert_eq!(*status, StatusCode::OK);
            assert_eq!(answer["runs"], answers[0].1["runs"]);
        }
    });
}

#[test]
fn a_huge_pasted_test_is_answered() {
    on_runtime(async {
        let app = app(Limits::default());
        // 200 KB of one flat expression: deep recursion in the front end,
        // which the server's large worker stacks absorb.
        let expr = format!("1{}", " + 1".repeat(50_000));
        let huge = format!("test Huge\ninit {{ x = 0; }}\nthread P0 {{ r0 = {expr}; store(x, r0, rlx); }}\nexists (x = 50001)\n");
        let (status, answer) = post_run(&app, json!({ "source": huge, "models": ["sc"] })).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["runs"][0]["verdict"], json!("always"), "{answer:#}");
        // And a huge broken one: a diagnostic, not a crash.
        let broken = format!(
            "test Huge\nthread P0 {{ {} }}",
            "store(x, 1, rlx) ".repeat(10_000)
        );
        let (status, answer) = post_run(&app, json!({ "source": broken, "models": ["sc"] })).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(answer["exit"], json!(2));
    });
}

/// A deadline already passed when the axiomatic engine (or a cat model)
/// first polls it: each run answers with the partial table it has and
/// says why, and the slot is free again. (No wall-clock race: the limit
/// is zero.)
#[test]
fn an_axiomatic_run_past_its_deadline_stops_and_says_so() {
    on_runtime(async {
        let app = app(Limits {
            request_timeout: Duration::ZERO,
            max_candidates: u64::MAX,
            ..Limits::default()
        });
        let (status, answer) = send(
            &app,
            "POST",
            "/api/run",
            Some(json!({
                "source": source("litmus/classic/SB.litmus"),
                "models": ["ax.tso", "cat:tso"],
            })),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["exit"], json!(3), "{answer}");
        for run in answer["runs"].as_array().unwrap() {
            assert_eq!(run["complete"], json!(false), "{run}");
            assert!(
                run["bounds"][0]["message"]
                    .as_str()
                    .unwrap()
                    .contains("stopped after 0 s"),
                "{run}"
            );
        }
        assert_eq!(answer["runs"].as_array().unwrap().len(), 2, "{answer}");
    });
    on_runtime(async {
        let app = app(Limits::default());
        let (status, answer) = post_run(
            &app,
            json!({ "source": source("litmus/classic/SB.litmus"), "models": ["ax.tso"] }),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        assert_eq!(answer["exit"], json!(0), "{answer}");
    });
}

/// Under `~exists` the rows the table stars are those that contradict the
/// condition, and the run says that it fails: the playground showed
/// `~exists` tables as if the condition were `exists`.
#[test]
fn a_not_exists_condition_is_read_as_what_it_says() {
    on_runtime(async {
        let app = app(Limits::default());
        let sb = source("litmus/classic/SB.litmus").replace("\nexists", "\n~exists");
        let (status, answer) =
            post_run(&app, json!({ "source": sb, "models": ["sc", "tso"] })).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let reading = |i: usize| answer["runs"][i]["reading"].clone();
        assert_eq!(reading(0)["quantifier"], json!("~exists"));
        assert_eq!(reading(0)["result"], json!("holds (Ok)"));
        assert_eq!(reading(0)["decides"], json!([false, false, false]));
        assert_eq!(reading(1)["result"], json!("fails (No)"));
        assert_eq!(reading(1)["decides"], json!([true, false, false, false]));
    });
}
