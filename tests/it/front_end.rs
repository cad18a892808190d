//! The front end through the `relaxlab` binary, as a person meets it: deep
//! and long inputs end with exit 0 or 2 and a diagnostic, never a signal
//! (book: language.md, Nesting); `fmt` keeps comments and refuses to
//! rewrite a herd test silently; diagnostics on huge lines stay short; an
//! empty file says so; the axiomatic engine points at the loop it refuses.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs the real binary (main thread, 8 MiB stack) in `dir`; returns the
/// exit code (`None` when a signal ended it), stdout and stderr.
fn binary(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_relaxlab"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("relaxlab runs");
    let mut err = String::from_utf8_lossy(&out.stderr).into_owned();
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&out.status) {
        err = format!("signal {signal}\n{err}");
    }
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        err,
    )
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("relaxlab-front-end-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// 10^5: the depth and length every shape below is tried at.
const N: usize = 100_000;

fn relaxlab_test(body: &str, condition: &str) -> String {
    format!("test T\ninit {{ x = 0; }}\nthread P0 {{\n{body}\n}}\n{condition}\n")
}

fn herd_c(body: &str, condition: &str) -> String {
    format!("C T\n{{ x = 0; }}\nP0 (atomic_int* x) {{\n  int r0 = 0;\n{body}\n}}\n{condition}\n")
}

/// Every deep or long shape of the issue, in relaxlab's syntax and in
/// herd's C and X86 formats.
fn shapes() -> Vec<(&'static str, String)> {
    let c = "exists (P0:r0 = 0)";
    let hc = "exists (0:r0=0)";
    let x86 = |cond: String| format!("X86 T\n{{ x = 0; }}\n P0 ;\n MOV [x],$1 ;\nexists {cond}\n");
    vec![
        (
            "if",
            relaxlab_test(
                &format!("{}r0 = 1;{}", "if (r0 == 0) {\n".repeat(N), "}\n".repeat(N)),
                c,
            ),
        ),
        (
            "while",
            relaxlab_test(
                &format!(
                    "{}r0 = 1;{}",
                    "while (r0 == 1) {\n".repeat(N),
                    "}\n".repeat(N)
                ),
                c,
            ),
        ),
        (
            "else-if",
            relaxlab_test(
                &format!(
                    "if (r0 == 0) {{ r0 = 1; }}{}",
                    " else if (r0 == 1) { r0 = 2; }".repeat(N)
                ),
                c,
            ),
        ),
        (
            "sum",
            relaxlab_test(&format!("r0 = {};", vec!["1"; N].join(" + ")), c),
        ),
        (
            "parens",
            relaxlab_test(&format!("r0 = {}1{};", "(".repeat(N), ")".repeat(N)), c),
        ),
        (
            "right-parens",
            relaxlab_test(&format!("r0 = {}1{};", "1 - (".repeat(N), ")".repeat(N)), c),
        ),
        (
            "not",
            relaxlab_test(&format!("r0 = {}1;", "!".repeat(N)), c),
        ),
        ("statements", relaxlab_test(&"r0 = r0 + 1;\n".repeat(N), c)),
        (
            "and",
            relaxlab_test(
                "r0 = 1;",
                &format!("exists ({})", vec!["P0:r0 = 1"; N].join(" /\\ ")),
            ),
        ),
        (
            "or",
            relaxlab_test(
                "r0 = 1;",
                &format!("exists ({})", vec!["P0:r0 = 1"; N].join(" \\/ ")),
            ),
        ),
        (
            "tilde",
            relaxlab_test("r0 = 1;", &format!("exists ({}P0:r0 = 1)", "~".repeat(N))),
        ),
        (
            "condition-parens",
            relaxlab_test(
                "r0 = 1;",
                &format!("exists {}P0:r0 = 1{}", "(".repeat(N), ")".repeat(N)),
            ),
        ),
        (
            "implies",
            relaxlab_test(
                "r0 = 1;",
                &format!("exists ({})", vec!["P0:r0 = 1"; N].join(" => ")),
            ),
        ),
        (
            "herd-c-blocks",
            herd_c(&format!("{}r0 = 1;{}", "{".repeat(N), "}".repeat(N)), hc),
        ),
        (
            "herd-c-ifs",
            herd_c(&format!("{}r0 = 1;", "if (r0 == 0) ".repeat(N)), hc),
        ),
        (
            "herd-c-else-if",
            herd_c(
                &format!(
                    "if (r0 == 0) r0 = 1;{}",
                    " else if (r0 == 1) r0 = 2;".repeat(N)
                ),
                hc,
            ),
        ),
        (
            "herd-c-else-if-loads",
            herd_c(
                &format!(
                    "if (r0 == 0) r0 = 1;{}",
                    " else if (*x == 1) r0 = 2;".repeat(N)
                ),
                hc,
            ),
        ),
        (
            "herd-c-sum",
            herd_c(&format!("r0 = {};", vec!["1"; N].join(" + ")), hc),
        ),
        (
            "herd-c-parens",
            herd_c(&format!("r0 = {}1{};", "(".repeat(N), ")".repeat(N)), hc),
        ),
        (
            "herd-c-not",
            herd_c(&format!("r0 = {}1;", "!".repeat(N)), hc),
        ),
        (
            "herd-c-and",
            herd_c(
                "r0 = 1;",
                &format!("exists ({})", vec!["0:r0=1"; N].join(" /\\ ")),
            ),
        ),
        (
            "herd-c-tilde",
            herd_c("r0 = 1;", &format!("exists ({}0:r0=1)", "~".repeat(N))),
        ),
        (
            "herd-c-implies",
            herd_c(
                "r0 = 1;",
                &format!("exists ({})", vec!["0:r0=1"; N].join(" => ")),
            ),
        ),
        (
            "herd-x86-and",
            x86(format!("({})", vec!["x=1"; N].join(" /\\ "))),
        ),
        (
            "herd-x86-parens",
            x86(format!("{}x=1{}", "(".repeat(N), ")".repeat(N))),
        ),
        ("herd-x86-tilde", x86(format!("({}x=1)", "~".repeat(N)))),
    ]
}

/// What a deep shape must give: flat shapes are accepted, nested ones
/// refused with the nesting diagnostic (its code names the front end or
/// the herd importer).
fn accepted(name: &str) -> bool {
    matches!(
        name,
        "else-if"
            | "sum"
            | "statements"
            | "and"
            | "or"
            | "herd-c-else-if"
            | "herd-c-sum"
            | "herd-c-and"
            | "herd-x86-and"
    )
}

#[test]
fn deep_and_long_inputs_end_with_exit_0_or_2_never_a_signal() {
    let dir = scratch("deep");
    for (name, text) in shapes() {
        let file = format!("{name}.litmus");
        std::fs::write(dir.join(&file), &text).unwrap();
        for args in [
            vec!["parse", &file],
            vec!["fmt", "--to", "relaxlab", &file],
            vec!["fmt", "--to", "herd-c", &file],
            vec!["run", &file, "--model", "sc"],
        ] {
            let (code, _, err) = binary(&dir, &args);
            let shown = format!("{name}: relaxlab {}", args.join(" "));
            let head = &err[..err.len().min(2000)];
            assert!(code.is_some(), "{shown}: ended by a signal\n{head}");
            if accepted(name) {
                // `fmt --to herd-c` may refuse a construct outside herd's
                // C subset (exit 2), with its own diagnostic.
                let ok = code == Some(0) || (args.contains(&"herd-c") && code == Some(2));
                assert!(ok, "{shown}: exit {code:?}\n{head}");
            } else {
                assert_eq!(code, Some(2), "{shown}");
                assert!(err.contains("too_deep"), "{shown}: {head}");
                assert!(
                    err.len() < 5_000,
                    "{shown}: the diagnostic prints {} bytes",
                    err.len()
                );
            }
        }
    }
}

/// `fmt --write` keeps every comment and the lines of an `expect` block;
/// a herd test named without `--to` is refused and left as it is.
#[test]
fn fmt_keeps_comments_and_refuses_to_rewrite_a_herd_test() {
    let dir = scratch("fmt");
    let src = "// header\ntest T\ninit { x = 0; y = 0; }\nthread P0 {\n  store(x, 1, rlx); // why\n  /* before */ r0 = load(y, rlx);\n}\nexists (P0:r0 = 0)\nexpect {\n  sc: never; tso: sometimes;\n  pso: sometimes; // note\n}\n";
    std::fs::write(dir.join("t.litmus"), src).unwrap();
    let (code, _, err) = binary(&dir, &["fmt", "--write", "t.litmus"]);
    assert_eq!(code, Some(0), "{err}");
    let written = std::fs::read_to_string(dir.join("t.litmus")).unwrap();
    for comment in ["// header", "// why", "/* before */", "// note"] {
        assert!(written.contains(comment), "{comment} lost:\n{written}");
    }
    assert!(
        written.contains("\n  sc: never; tso: sometimes;\n  pso: sometimes; // note\n"),
        "{written}"
    );
    let (code, _, err) = binary(&dir, &["fmt", "--check", "t.litmus"]);
    assert_eq!(code, Some(0), "formatting twice changes the file: {err}");

    let herd = "C MP\n{ x = 0; y = 0; }\nP0 (atomic_int* x, atomic_int* y) {\n  atomic_store_explicit(x, 1, memory_order_relaxed);\n}\nexists (x=1)\n";
    std::fs::write(dir.join("h.litmus"), herd).unwrap();
    for args in [vec!["fmt", "--write", "h.litmus"], vec!["fmt", "h.litmus"]] {
        let (code, _, err) = binary(&dir, &args);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(
            err.contains("relaxlab::fmt::herd_input") && err.contains("--to relaxlab"),
            "{err}"
        );
    }
    assert_eq!(std::fs::read_to_string(dir.join("h.litmus")).unwrap(), herd);
    let (code, out, err) = binary(&dir, &["fmt", "--to", "relaxlab", "h.litmus"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("test MP\n"), "{out}");
}

/// An error on a 300 KB line prints a window around the error, not the
/// line.
#[test]
fn an_error_on_a_huge_line_prints_a_window_of_it() {
    let dir = scratch("long-line");
    let line = format!("thread P0 {{ {} r0 = ; }}", "r0 = 1; ".repeat(37_500));
    std::fs::write(dir.join("t.litmus"), format!("test T\n{line}\n")).unwrap();
    let (code, _, err) = binary(&dir, &["run", "t.litmus", "--model", "sc"]);
    assert_eq!(code, Some(2), "{}", &err[..err.len().min(2000)]);
    assert!(err.contains("unexpected `;`") && err.contains('…'), "{err}");
    assert!(
        err.len() < 2_000,
        "the diagnostic prints {} bytes",
        err.len()
    );
}

/// An empty file, or one of comments only, says so.
#[test]
fn a_file_without_a_test_says_so() {
    let dir = scratch("empty");
    for (text, message) in [
        ("", "the file is empty"),
        ("\n  \n", "the file holds no test, only blank space"),
        (
            "// a comment\n/* another */\n",
            "the file holds no test, only comments",
        ),
    ] {
        std::fs::write(dir.join("t.litmus"), text).unwrap();
        let (code, _, err) = binary(&dir, &["run", "t.litmus", "--model", "sc"]);
        assert_eq!(code, Some(2), "{text:?}");
        assert!(err.contains(message), "{text:?}: {err}");
        assert!(!err.contains("missing"), "{text:?}: {err}");
    }
}

/// The axiomatic engine's refusal of a loop points at the `while`.
#[test]
fn the_axiomatic_refusal_of_a_loop_points_at_it() {
    let dir = scratch("loop");
    let src = "test T\ninit { x = 0; }\nthread P0 {\n  store(x, 1, rlx);\n}\nthread P1 {\n  r0 = 0;\n  while (r0 == 0) {\n    r0 = load(x, rlx);\n  }\n}\nexists (P1:r0 = 1)\n";
    std::fs::write(dir.join("t.litmus"), src).unwrap();
    let (code, _, err) = binary(&dir, &["run", "t.litmus", "--axiomatic", "sc"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("[t.litmus:8:3]") && err.contains("this loop"),
        "{err}"
    );
    assert!(err.contains("--unroll"), "{err}");
}

/// A test of `threads` threads, each storing to `x` (so no two commute).
fn threads_storing(threads: usize) -> String {
    let mut src = String::from("test T\ninit { x = 0; }\n");
    for i in 0..threads {
        src.push_str(&format!("thread P{i} {{ store(x, {i}, rlx); }}\n"));
    }
    src.push_str("exists (x = 1)\n");
    src
}

/// Past 1,024 threads a test is refused with a diagnostic at the first
/// thread too many, in relaxlab's syntax and in herd's C format; 10^5
/// threads once overflowed the axiomatic engine's stack and took the
/// operational one past 20 GB before any bound was polled.
#[test]
fn too_many_threads_are_refused_at_the_first_one_too_many() {
    let dir = scratch("threads");
    std::fs::write(dir.join("t.litmus"), threads_storing(N)).unwrap();
    let mut c = String::from("C T\n{ x = 0; }\n");
    for i in 0..1025 {
        c.push_str(&format!(
            "P{i} (atomic_int* x) {{ atomic_store_explicit(x, 1, memory_order_relaxed); }}\n"
        ));
    }
    c.push_str("exists (x=1)\n");
    std::fs::write(dir.join("c.litmus"), c).unwrap();
    for (file, count) in [("t.litmus", N), ("c.litmus", 1025)] {
        for engine in [["--model", "tso"], ["--axiomatic", "sc"]] {
            let (code, _, err) = binary(&dir, &["run", file, engine[0], engine[1]]);
            assert_eq!(code, Some(2), "{file} {engine:?}: {err}");
            assert!(
                err.contains(&format!(
                    "{count} threads: relaxlab explores programs of at most 1024"
                )) && err.contains("thread 1025"),
                "{file} {engine:?}: {err}"
            );
        }
    }
}

/// 1,024 threads that all store to one location: each state has 1,024
/// successors of 1,025 words, so a chunk of the usual 16,384 states would
/// build 68 GB of rows before its merge. Under a 3 GB address-space limit
/// the bounds still stop the search (exit 3), where a full chunk aborted
/// on a failed allocation.
#[cfg(unix)]
#[test]
fn the_bounds_hold_on_a_test_of_many_threads() {
    let dir = scratch("wide");
    std::fs::write(dir.join("t.litmus"), threads_storing(1024)).unwrap();
    let exe = env!("CARGO_BIN_EXE_relaxlab");
    for bound in ["--max-states 100000", "--max-memory 700M"] {
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 3000000 && exec '{exe}' run t.litmus --model sc --reduction none --jobs 2 {bound}"
            ))
            .current_dir(&dir)
            .output()
            .expect("sh runs");
        let err = String::from_utf8_lossy(&out.stderr);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(3), "{bound}: {err}");
        assert!(text.contains("PARTIAL: stopped"), "{bound}: {text}");
    }
}

/// A sampled run of 1,024 threads computes 1,024 moves at each of its
/// steps; `--timeout` is polled within the run, so the session stops with
/// no run counted, where it used to finish every run (a minute under
/// `c11r`) and only then notice the deadline.
#[test]
fn a_timeout_stops_a_long_sampled_run() {
    let dir = scratch("sample");
    std::fs::write(dir.join("t.litmus"), threads_storing(1024)).unwrap();
    let (code, out, err) = binary(
        &dir,
        &[
            "run",
            "t.litmus",
            "--model",
            "c11r",
            "--sample",
            "2",
            "--timeout",
            "0.5",
        ],
    );
    assert_eq!(code, Some(3), "{err}");
    assert!(
        out.contains("no execution ended within the bounds") && out.contains("--timeout"),
        "{out}"
    );
    // The header counts the runs done, not the two asked for.
    assert!(out.contains("(0 sampled runs, seed 0)"), "{out}");
}

/// Sampling stopped by `--timeout` says how many runs it made, in the
/// header as in the verdict and in every format; it used to print the
/// number asked for (`100000000 sampled runs ... not observed in 262144
/// runs`).
#[test]
fn sampling_cut_short_counts_the_runs_done() {
    let dir = scratch("sample-count");
    let args = |format: &'static str| {
        [
            "run",
            "MP.litmus",
            "--model",
            "tso",
            "--sample",
            "100000000",
            "--timeout",
            "0.3",
            "--format",
            format,
        ]
    };
    let mp = std::fs::read(support::root().join("litmus/classic/MP.litmus")).unwrap();
    std::fs::write(dir.join("MP.litmus"), mp).unwrap();
    let (code, out, err) = binary(&dir, &args("table"));
    assert_eq!(code, Some(3), "{err}");
    let header = out.lines().next().unwrap_or_default();
    let runs: u64 = header
        .split_once('(')
        .and_then(|(_, r)| r.split(" sampled runs").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{header}"));
    assert!(runs < 100_000_000, "{header}");
    assert!(
        header.contains(&format!("not observed in {runs} runs")),
        "{header}"
    );
    let (_, json, _) = binary(&dir, &args("json"));
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let run = if v.is_array() { &v[0] } else { &v };
    assert_eq!(run["runs"], run["stats"]["states"], "{json}");
    let (_, herd, _) = binary(&dir, &args("herd"));
    assert!(!herd.contains("100000000 sampled runs"), "{herd}");
}
