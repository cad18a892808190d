//! Cat models on the command line (`--cat`, `--cat-path`,
//! `RELAXLAB_CAT_PATH`, `expect { cat ... }`, the `[cat]` table):
//!
//! - every project model `cat/M.cat` gives exactly the table of `ax.M` on
//!   every litmus file of the library it applies to (outcomes, counts,
//!   racy and non-SC marks, races, failures, candidates);
//! - models written in herd7's style with the constructs of herd7's own
//!   x86tso.cat and rc11.cat (`tests/cat/herdlike/`) give herd7's output
//!   on the herd tests of `litmus/herd/` (the expected outputs of
//!   `tests/herd/`);
//! - every malformed model of `tests/cat/bad/` gets a diagnostic in the
//!   .cat file and exit code 2 (snapshots of the diagnostics).

use crate::support;

use std::path::Path;

use crate::support::{relaxlab, root};
use relaxlab::engine::Settings;
use relaxlab_semantics::axiomatic::{run_judges, Judge};
use relaxlab_semantics::ir::{AxModel, ModelKey, OpModel};
use relaxlab_semantics::outcome::OutcomeTable;

#[test]
fn project_models_equal_the_hand_written_ones_on_the_library() {
    let settings = Settings::default();
    let cats: Vec<_> = AxModel::ALL
        .iter()
        .map(|m| relaxlab::cat::load(&root().join(format!("cat/{}.cat", m.name())), &[]).unwrap())
        .collect();
    let mut compared = 0;
    for path in support::litmus_files("litmus") {
        let rel = support::relative(&path);
        if rel.starts_with("litmus/bench/") || rel.starts_with("litmus/kernel/") {
            continue;
        }
        let file = relaxlab::files::read(&path).unwrap();
        let program = relaxlab::load::program(&file).unwrap();
        if program.has_loops() {
            continue;
        }
        let c11_ok = relaxlab_grammar::check_model(&program, ModelKey::Op(OpModel::C11r)).is_ok();
        for (m, cat) in AxModel::ALL.iter().zip(&cats) {
            if m.is_c11() && !c11_ok {
                continue;
            }
            let judges = [Judge::Model(*m), Judge::Cat(cat.model.clone())];
            let opts = relaxlab::engine::ax_options(&settings);
            let tables = run_judges(&program, &judges, &opts).unwrap();
            let cat_table = OutcomeTable {
                model: tables[0].model.clone(),
                flags: Vec::new(),
                undefined_by_cat: None,
                ..tables[1].clone()
            };
            assert_eq!(tables[0], cat_table, "{rel}: cat/{}.cat", m.name());
            // The C11 models report races with `flag ~empty race as race`.
            let flags: &[&str] = if tables[0].races.is_empty() {
                &[]
            } else {
                &["race"]
            };
            assert_eq!(tables[1].flags, flags, "{rel}: cat/{}.cat", m.name());
            compared += 1;
        }
    }
    assert!(compared > 500, "only {compared} comparisons");
}

/// Runs a herd test under a cat model in herd's format and compares with
/// the expected herd7 output.
fn herd_outputs(dir: &str, model: &str, suffix: &str) -> usize {
    let mut wrong = Vec::new();
    let mut n = 0;
    for path in support::litmus_files(&format!("litmus/herd/{dir}")) {
        let rel = support::relative(&path);
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        // The racy tests fail this model's `undefined_unless`: their
        // goldens read `Undef` and `Flag *undef*`, as for ax.rc11.
        let golden = root().join(format!("tests/herd/{dir}/{name}.{suffix}.out"));
        let Ok(expected) = std::fs::read_to_string(golden) else {
            continue;
        };
        let (code, out, err) = relaxlab(&["run", &rel, "--cat", model, "--format", "herd"]);
        assert_eq!(code, 0, "{rel}: {err}");
        if out != expected {
            wrong.push(format!("{rel}:\n--- expected\n{expected}--- got\n{out}"));
        }
        n += 1;
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    n
}

#[test]
fn herd_style_models_give_herds_verdicts() {
    assert!(herd_outputs("x86", "tests/cat/herdlike/x86-tso.cat", "ax.tso") >= 15);
    // `si` (same instruction instance), as herd7's x86tso-mixed.cat uses it.
    assert!(herd_outputs("x86", "tests/cat/herdlike/x86-tso-si.cat", "ax.tso") >= 15);
    assert!(herd_outputs("c", "tests/cat/herdlike/rc11.cat", "ax.rc11") >= 20);
}

/// The verdict and the outcomes (values and racy marks) of a table: what
/// two models that count executions differently must agree on.
fn verdict_and_outcomes(t: &OutcomeTable) -> (String, Vec<(Vec<i64>, bool)>) {
    (
        format!("{:?}", t.verdict()),
        t.rows.iter().map(|r| (r.values.clone(), r.racy)).collect(),
    )
}

/// herd7's cross.cat is built in: `include "cross.cat"` needs no file, and
/// `with co from generate_cos(co0)` (or `generate_orders(W, co0)`) chooses
/// a coherence order location by location. Models that choose their co
/// that way give the verdicts and outcomes of the project's models, which
/// read co off the candidate, on the classic tests.
#[test]
fn generated_coherence_orders_give_the_candidates_verdicts() {
    let settings = Settings::default();
    let opts = relaxlab::engine::ax_options(&settings);
    let mut compared = 0;
    for (mine, project) in [
        ("tests/cat/cross/tso.cat", "cat/tso.cat"),
        ("tests/cat/cross/sc.cat", "cat/sc.cat"),
    ] {
        let mine = relaxlab::cat::load(&root().join(mine), &[]).unwrap();
        let project = relaxlab::cat::load(&root().join(project), &[]).unwrap();
        for path in support::litmus_files("litmus/classic") {
            let rel = support::relative(&path);
            let file = relaxlab::files::read(&path).unwrap();
            let program = relaxlab::load::program(&file).unwrap();
            let judges = [
                Judge::Cat(project.model.clone()),
                Judge::Cat(mine.model.clone()),
            ];
            let tables = run_judges(&program, &judges, &opts).unwrap();
            assert_eq!(
                verdict_and_outcomes(&tables[0]),
                verdict_and_outcomes(&tables[1]),
                "{rel}: {} and {}",
                project.path.display(),
                mine.path.display()
            );
            compared += 1;
        }
    }
    assert!(compared >= 60, "only {compared} comparisons");
}

/// A C11 model written with the constructs of herd7's classic C11 models
/// (c11_base.cat, c11_cos.cat, c11_los.cat, cross.cat): the modification
/// order generated on the atomic and init writes, a lock order generated
/// on the (absent) locks, `I`, `CON`, the lock sets, `FW`. It gives
/// ax.c11's verdicts and outcomes on the C tests, except where a plain
/// write is followed by an atomic access to its location: herd7's C11
/// models leave plain writes out of mo, so coherence does not order them
/// before the atomic accesses, which may then read the initial value.
#[test]
fn herds_classic_c11_style_gives_ax_c11s_verdicts() {
    let settings = Settings::default();
    let opts = relaxlab::engine::ax_options(&settings);
    let model = relaxlab::cat::load(&root().join("tests/cat/herdlike/c11.cat"), &[]).unwrap();
    // A plain write, then an atomic read (or RMW) of its location that
    // happens after it: herd7's C11 models let it read the initial 0.
    let plain_then_atomic = ["MP+na+rel+acq+rlx", "PUB+na+rel+acq+fadd"];
    let mut compared = 0;
    let mut differing = Vec::new();
    for dir in ["litmus/herd/c", "litmus/c11"] {
        for path in support::litmus_files(dir) {
            let rel = support::relative(&path);
            let file = relaxlab::files::read(&path).unwrap();
            let program = relaxlab::load::program(&file).unwrap();
            if relaxlab_grammar::check_model(&program, ModelKey::Ax(AxModel::C11)).is_err() {
                continue;
            }
            let judges = [Judge::Model(AxModel::C11), Judge::Cat(model.model.clone())];
            let tables = run_judges(&program, &judges, &opts).unwrap();
            let (ax, cat) = (
                verdict_and_outcomes(&tables[0]),
                verdict_and_outcomes(&tables[1]),
            );
            compared += 1;
            if ax == cat {
                continue;
            }
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            differing.push(name.clone());
            // More outcomes, all of them ax.c11's plus the one that reads 0.
            assert!(
                plain_then_atomic.contains(&name.as_str()),
                "{rel}: {ax:?} and {cat:?}"
            );
            assert_eq!(ax.0, "Some(Never)", "{rel}");
            assert_eq!(cat.0, "Some(Sometimes)", "{rel}");
            assert!(
                ax.1.iter().all(|row| cat.1.contains(row)),
                "{rel}: {ax:?} and {cat:?}"
            );
        }
    }
    assert_eq!(differing, plain_then_atomic);
    assert!(compared >= 70, "only {compared} comparisons");
}

/// herd7's C event sets as relaxlab gives them: `I` is `IW`; consume and
/// lock sets are empty; `FW` holds the co-last write of each location.
/// The model's flags name what is wrong; only `has-init` may hold.
#[test]
fn herds_c_sets_hold_what_relaxlab_gives() {
    let settings = Settings::default();
    let opts = relaxlab::engine::ax_options(&settings);
    let model = relaxlab::cat::load(&root().join("tests/cat/herd-c-sets.cat"), &[]).unwrap();
    let mut n = 0;
    for dir in ["litmus/herd/c", "litmus/c11", "litmus/classic"] {
        for path in support::litmus_files(dir) {
            let rel = support::relative(&path);
            let file = relaxlab::files::read(&path).unwrap();
            let program = relaxlab::load::program(&file).unwrap();
            if program.has_loops() {
                continue;
            }
            let tables = run_judges(&program, &[Judge::Cat(model.model.clone())], &opts).unwrap();
            if tables[0].rows.is_empty() {
                // No execution survives (an assume discards them all):
                // no flag is raised.
                assert!(tables[0].flags.is_empty(), "{rel}");
                continue;
            }
            assert_eq!(tables[0].flags, ["has-init"], "{rel}");
            n += 1;
        }
    }
    assert!(n >= 100, "only {n} tests");
    // A hardware model has none of them.
    let (code, _, err) = relaxlab(&[
        "run",
        "litmus/classic/SB.litmus",
        "--cat",
        "tests/cat/bad/c-set-in-hardware.cat",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("one of herd7's C event sets"), "{err}");
}

#[test]
fn bad_models_get_a_diagnostic_in_the_cat_file_and_exit_2() {
    let dir = root().join("tests/cat/bad");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 12);
    for path in files {
        let rel = support::relative(&path);
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let (code, out, err) = relaxlab(&["run", "litmus/classic/SB.litmus", "--cat", &rel]);
        assert_eq!(code, 2, "{rel} was accepted:\n{out}");
        assert!(err.contains("relaxlab::cat::"), "{rel}: {err}");
        let e = relaxlab::cat::load(Path::new(&rel), &[]).unwrap_err();
        let src = std::fs::read_to_string(&path).unwrap();
        insta::with_settings!({
            snapshot_path => "../cat/snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(format!("bad__{name}"), format!("{src}\n---\n{}", e.render(80)));
        });
    }
}

#[test]
fn run_draws_what_the_model_shows() {
    let (code, out, err) = relaxlab(&[
        "run",
        "litmus/herd/x86/SB+xchgs.litmus",
        "--cat",
        "tests/cat/herdlike/x86-tso.cat",
        "--dot",
        "-",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("under cat:TSO in herd7's style (axiomatic)"),
        "{out}"
    );
    assert!(out.contains("label=\"locked\""), "{out}");
    assert!(out.contains("digraph"), "{out}");
}

/// A relation a C model shows on the one-event view of a read-modify-write
/// is drawn on the two events relaxlab has: an edge into the joined event
/// on its read, an edge out of it from its write.
/// book: cat.md, One event per read-modify-write
#[test]
fn shown_relations_leave_a_joined_rmw_from_its_write() {
    let (code, out, err) = relaxlab(&[
        "run",
        "tests/cat/one-event/rs.litmus",
        "--cat",
        "tests/cat/one-event/sync.cat",
        "--dot",
        "-",
    ]);
    assert_eq!(code, 0, "{err}");
    let graph = out
        .split("digraph ")
        .find(|g| g.contains("P1:r0=1 P2:r1=2\" {"))
        .unwrap_or_else(|| panic!("no graph of the satisfying outcome:\n{out}"));
    let node = |label: &str| {
        let line = graph
            .lines()
            .find(|l| l.contains(&format!(": {label}\"")))
            .unwrap_or_else(|| panic!("no event {label}:\n{graph}"));
        line.trim().split(' ').next().unwrap().to_string()
    };
    let (store, read, write, load) = (
        node("W[rel] y=1"),
        node("R[acq] y=1"),
        node("W[rel] y=2"),
        node("R[acq] y=2"),
    );
    let sync: Vec<(String, String)> = graph
        .lines()
        .filter(|l| l.contains("label=\"sync\""))
        .map(|l| {
            let mut w = l.trim().split(' ');
            let a = w.next().unwrap().to_string();
            w.next();
            (a, w.next().unwrap().to_string())
        })
        .collect();
    assert_eq!(sync, vec![(store, read), (write, load)], "{graph}");
}

/// A `flag` that holds on some execution is named in every format (herd7
/// prints `Flag NAME` after the `Positive`/`Negative` line) without making
/// the test `Undef`; one that holds on none is not named, and a model
/// without flags adds no `flags` key to JSON.
#[test]
fn fired_flags_are_named_in_every_format() {
    let run = |format: &str, model: &str| {
        let (code, out, err) = relaxlab(&[
            "run",
            "litmus/classic/SB.litmus",
            "--cat",
            model,
            "--format",
            format,
        ]);
        assert_eq!(code, 0, "{err}");
        out
    };
    let flags = "cat/examples/sc-with-flags.cat";
    let table = run("table", flags);
    assert!(table.contains("FLAG cross-thread-read:"), "{table}");
    assert!(!table.contains("two-writes-in-a-thread"), "{table}");
    let herd = run("herd", flags);
    assert!(
        herd.contains("Positive: 0 Negative: 3\nFlag cross-thread-read\nCondition "),
        "{herd}"
    );
    assert!(!herd.contains("two-writes-in-a-thread"), "{herd}");
    // A fired `flag` names itself and leaves the execution defined: herd7
    // validates the test (`No`), where an `undefined_unless` failure
    // would make it `Undef`.
    assert!(herd.lines().any(|l| l == "No"), "{herd}");
    assert!(
        !herd.contains("Undef") && !herd.contains("*undef*"),
        "{herd}"
    );
    let json: serde_json::Value = serde_json::from_str(&run("json", flags)).expect("JSON");
    assert_eq!(json[0]["flags"], serde_json::json!(["cross-thread-read"]));
    let plain: serde_json::Value =
        serde_json::from_str(&run("json", "tests/cat/lamport-sc.cat")).expect("JSON");
    assert!(plain[0].get("flags").is_none(), "{plain}");
}

#[test]
fn an_unnamed_flag_warns_and_is_not_reported() {
    let run = |format: &str| {
        let (code, out, err) = relaxlab(&[
            "run",
            "litmus/classic/SB.litmus",
            "--cat",
            "tests/cat/unnamed-flag.cat",
            "--format",
            format,
        ]);
        assert_eq!(code, 0, "{err}");
        (out, err)
    };
    let (json, err) = run("json");
    let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    // Both flags hold on SB; only the named one is recorded (herd7 warns
    // "this flagged test does not have a name" and records nothing).
    assert_eq!(json[0]["flags"], serde_json::json!(["cross-thread-read"]));
    assert!(err.contains("relaxlab::cat::unnamed_flag"), "{err}");
    assert!(err.contains("unnamed-flag.cat:6:13"), "{err}");
    assert!(err.contains("help: name it"), "{err}");
    let (herd, _) = run("herd");
    let flag_lines: Vec<&str> = herd.lines().filter(|l| l.starts_with("Flag ")).collect();
    assert_eq!(flag_lines, ["Flag cross-thread-read"], "{herd}");
}

#[test]
fn check_compiles_a_shared_model_once_and_warns_once() {
    // Three files name the same model, which has an unnamed flag, one of
    // them by another spelling of its path.
    let (code, out, err) = relaxlab(&["check", "tests/cat/expect-unnamed"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("3 passed, 0 failed"), "{out}");
    assert_eq!(
        err.matches("relaxlab::cat::unnamed_flag").count(),
        1,
        "{err}"
    );
}

#[test]
fn check_verifies_expectations_about_cat_models() {
    let (code, out, _) = relaxlab(&["check", "tests/cat/expect/SB.litmus"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("(4 expectations)"), "{out}");
    let (code, out, _) = relaxlab(&["check", "tests/cat/expect/SB-wrong.litmus"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("cat \"../../../cat/tso.cat\": expected never, found sometimes"),
        "{out}"
    );
}

#[test]
fn compare_puts_cat_models_beside_operational_ones() {
    let (code, out, _) = relaxlab(&[
        "compare",
        "litmus/classic/MP.litmus",
        "-m",
        "tso",
        "--cat",
        "cat/tso.cat",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("no disagreement"), "{out}");
    let (code, out, _) = relaxlab(&[
        "compare",
        "litmus/classic/MP.litmus",
        "-m",
        "pso",
        "--cat",
        "cat/tso.cat",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("pso reaches [P1:r0=1 P1:r1=0] but cat:tso forbids it"),
        "{out}"
    );
    assert!(out.contains("cat:tso: rejected by check tso"), "{out}");
}

/// A fresh directory under the system's temporary directory.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("relaxlab-cat-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn includes_are_found_on_the_cat_path() {
    let (code, _, err) = relaxlab(&[
        "run",
        "litmus/classic/SB.litmus",
        "--cat",
        "tests/cat/path/uses-lib.cat",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot find included file \"lib.cat\""),
        "{err}"
    );
    let (code, out, err) = relaxlab(&[
        "run",
        "litmus/classic/SB.litmus",
        "--cat",
        "tests/cat/path/uses-lib.cat",
        "--cat-path",
        "tests/cat/path/lib",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("never"), "{out}");
    // The same through RELAXLAB_CAT_PATH, in a child process.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_relaxlab"))
        .current_dir(root())
        .env("RELAXLAB_CAT_PATH", root().join("tests/cat/path/lib"))
        .args([
            "run",
            "litmus/classic/SB.litmus",
            "--cat",
            "tests/cat/path/uses-lib.cat",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A `--cat` model that is not where it is named is looked for on the cat
/// path, as herd7 finds `-model x.cat` in its library directory; a file
/// that exists as named wins, and one found nowhere is named as asked.
#[test]
fn a_cat_model_is_found_on_the_cat_path() {
    let (code, out, err) = relaxlab(&[
        "run",
        "litmus/classic/SB.litmus",
        "--cat",
        "tso.cat",
        "--cat-path",
        "tests/cat/path/lib",
        "--cat-path",
        "cat",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("SB under cat:tso (axiomatic): sometimes"),
        "{out}"
    );
    let (code, _, err) = relaxlab(&[
        "run",
        "litmus/classic/SB.litmus",
        "--cat",
        "no-such-model.cat",
        "--cat-path",
        "cat",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read no-such-model.cat"), "{err}");
}

#[test]
fn the_cat_table_of_relaxlab_toml_names_models() {
    let dir = scratch("config");
    std::fs::write(
        dir.join("relaxlab.toml"),
        format!(
            "[cat]\nmine = \"{}\"\n",
            root()
                .join("cat/pso.cat")
                .display()
                .to_string()
                .replace('\\', "/")
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("MP.litmus"),
        "test MP\ninit { x = 0; y = 0; }\n\
         thread P0 { store(x, 1, rlx); store(y, 1, rlx); }\n\
         thread P1 { r0 = load(y, rlx); r1 = load(x, rlx); }\n\
         exists (P1:r0 = 1 /\\ P1:r1 = 0)\n\
         expect { cat.mine: sometimes; cat.other: never; }\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_relaxlab"))
        .current_dir(&dir)
        .args(["check", "MP.litmus"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(!stdout.contains("cat.mine"), "{stdout}");
    assert!(
        stdout.contains(
            "cat.other: no model `other` in the [cat] table of relaxlab.toml (it has: mine)"
        ),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A hardware model none of whose checks reaches `rmw` is warned about
/// when it is loaded (it sees an RMW as a read and a write joined by
/// `rmw`), and the warning is right: such a model lets three fetch-adds
/// of 1 leave 1 or 2. With the atomicity check added the warning and
/// those outcomes are gone. The same checks in a C model that never reads
/// `rmw` see each C11 RMW as one event in R & W, as herd7's C semantics
/// makes it (book: cat.md, One event per read-modify-write): `fr` and
/// `co` keep it atomic, and nothing is warned. No model of `cat/` is
/// warned about.
#[test]
fn a_model_that_never_uses_rmw_is_warned_about() {
    let run = |model: &str| {
        let (code, out, err) = relaxlab(&[
            "run",
            "litmus/c11/FAA+3.litmus",
            "--cat",
            model,
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{err}");
        let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        let finals: Vec<i64> = json[0]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["values"][0].as_i64().unwrap())
            .collect();
        (finals, err)
    };
    let (finals, err) = run("tests/cat/no-atomicity.cat");
    assert_eq!(finals, [1, 2, 3]);
    assert!(err.contains("relaxlab::cat::rmw_unused"), "{err}");
    assert!(err.contains("no-atomicity.cat:1:1"), "{err}");
    assert!(
        support::flat(&err).contains("empty rmw & (fre; coe)"),
        "{err}"
    );
    let dir = support::scratch("rmw-unused");
    let fixed = dir.join("atomic.cat");
    let text = std::fs::read_to_string(root().join("tests/cat/no-atomicity.cat")).unwrap();
    std::fs::write(
        &fixed,
        text.replace("acyclic", "empty rmw & (fre; coe) as atomicity\nacyclic"),
    )
    .unwrap();
    let (finals, err) = run(fixed.to_str().unwrap());
    assert_eq!(finals, [3]);
    assert!(!err.contains("rmw_unused"), "{err}");
    let one_event = dir.join("one-event.cat");
    std::fs::write(&one_event, text.replacen("SC ", "C ", 1)).unwrap();
    let (finals, err) = run(one_event.to_str().unwrap());
    assert_eq!(finals, [3]);
    assert!(!err.contains("rmw_unused"), "{err}");
    // The models of cat/ (the others there are parts they include).
    let models = [
        "sc", "tso", "pso", "pslo", "c11", "rc11", "c11r", "c11t", "ra",
    ];
    let examples = std::fs::read_dir(root().join("cat/examples"))
        .unwrap()
        .map(|e| e.unwrap().path());
    for path in models
        .iter()
        .map(|m| root().join(format!("cat/{m}.cat")))
        .chain(examples)
    {
        let loaded = relaxlab::cat::load(&path, &[]).unwrap();
        assert!(loaded.warnings.is_empty(), "{}", path.display());
    }
}

/// A quoted title names the model's architecture by its first word, in
/// any case, as herd7's `x86tso-mixed.cat` (`"x86 TSO Mixed"`) does: the
/// X86 sets (`MFENCE`) are defined.
#[test]
fn a_quoted_title_names_the_architecture() {
    let dir = scratch("quoted-title");
    let model = dir.join("quoted.cat");
    std::fs::write(
        &model,
        "\"x86 TSO, quoted\"\nlet fr = rf^-1 ; co\nlet mf = po ; [MFENCE] ; po\nacyclic po | rf | co | fr | mf as sc\n",
    )
    .unwrap();
    let (code, out, err) = relaxlab(&[
        "run",
        "litmus/herd/x86/SB.litmus",
        "--cat",
        model.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(axiomatic): never"), "{out}");
}

/// A `let rec` that is not monotone runs as herd7 runs it, with a warning
/// that says so: iterated from empty, each equation in turn, until a
/// round adds nothing. `let rec x = po \ x` ends with `x` empty (po, then
/// po \ po), not a fixed point, and herd7 gives SB its four outcomes under
/// `empty x`; one that never settles leaves every execution undecided
/// (herd7 does not end on it). herd's matching idiom, which the
/// Linux-kernel model uses, is not warned about.
#[test]
fn a_let_rec_that_is_not_monotone_runs_as_in_herd7_with_a_warning() {
    let run = |model: &str| {
        relaxlab(&[
            "run",
            "litmus/herd/c/SB.litmus",
            "--cat",
            model,
            "--format",
            "herd",
        ])
    };
    let (code, out, err) = run("tests/cat/not-monotone.cat");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("States 4"), "{out}");
    assert!(out.contains("Observation SB Sometimes 1 3"), "{out}");
    let flat = support::flat(&err);
    assert!(flat.contains("relaxlab::cat::not_monotone"), "{err}");
    assert!(flat.contains("not monotone in `x`"), "{err}");
    assert!(flat.contains("until a round adds nothing"), "{err}");
    assert!(err.contains("not-monotone.cat:6:9"), "{err}");
    assert!(!err.contains("rmw_unused"), "{err}");
    let (code, out, err) = relaxlab(&[
        "run",
        "litmus/herd/c/SB.litmus",
        "--cat",
        "tests/cat/never-settles.cat",
        "--format",
        "json",
    ]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        support::flat(&err).contains("relaxlab::cat::not_monotone"),
        "{err}"
    );
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(json[0]["bounds"][0]["kind"], "unsettled", "{out}");
    let (code, out, _) = relaxlab(&[
        "run",
        "litmus/herd/c/SB.litmus",
        "--cat",
        "tests/cat/never-settles.cat",
    ]);
    assert_eq!(code, 3, "{out}");
    assert!(
        support::flat(&out).contains("never settled on 4 candidate executions"),
        "{out}"
    );
    let (code, _, err) = relaxlab(&[
        "run",
        "litmus/kernel/RCU+gp.litmus",
        "--conf",
        "cat/linux/linux-kernel.cfg",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("not_monotone"), "{err}");
}

/// `si`, herd7's "same instruction instance": an instruction makes one
/// event in relaxlab's executions except a read-modify-write, whose read
/// and write are one instruction (an X86 `XCHG`): `si` is `id` and the
/// `rmw` pairs both ways, nothing else.
#[test]
fn si_pairs_the_two_events_of_an_rmw_instruction() {
    let dir = scratch("same-instruction");
    let model = dir.join("si.cat");
    std::fs::write(
        &model,
        "\"x86 si\"\nlet pairs = si \\ id\nflag ~empty pairs as rmw-pairs\nflag ~empty (pairs \\ (rmw | rmw^-1)) as other-pairs\nflag ~empty ((rmw | rmw^-1) \\ pairs) as missing-pairs\nflag ~empty ((id & (M * M)) \\ si) as missing-id\n",
    )
    .unwrap();
    let model = model.to_str().unwrap();
    let run = |test: &str| {
        let (code, out, err) = relaxlab(&["run", test, "--cat", model, "--format", "herd"]);
        assert_eq!(code, 0, "{test}: {err}");
        out
    };
    let xchg = run("litmus/herd/x86/SB+xchgs.litmus");
    assert!(xchg.contains("Flag rmw-pairs"), "{xchg}");
    let plain = run("litmus/herd/x86/SB.litmus");
    assert!(!plain.contains("Flag rmw-pairs"), "{plain}");
    for out in [&xchg, &plain] {
        for wrong in ["other-pairs", "missing-pairs", "missing-id"] {
            assert!(!out.contains(&format!("Flag {wrong}")), "{out}");
        }
    }
}
