//! The command line as users meet it: exit codes, determinism across worker
//! counts, bad flags.

use crate::support;

use crate::support::relaxlab;

#[test]
fn output_is_identical_with_one_and_two_workers() {
    for path in support::litmus_files("litmus") {
        let rel = support::relative(&path);
        if rel.starts_with("litmus/bench/") || rel.starts_with("litmus/kernel/") {
            continue;
        }
        let one = relaxlab(&[
            "run",
            &rel,
            "--model",
            "sc,tso,pso,pslo",
            "--witness",
            "--jobs",
            "1",
        ]);
        let two = relaxlab(&[
            "run",
            &rel,
            "--model",
            "sc,tso,pso,pslo",
            "--witness",
            "--jobs",
            "2",
        ]);
        assert_eq!(
            one, two,
            "{rel}: output differs between --jobs 1 and --jobs 2"
        );
    }
}

#[test]
fn the_readme_command_runs() {
    let (code, out, err) = relaxlab(&[
        "run",
        "litmus/classic/SB.litmus",
        "--model",
        "sc,tso,pso",
        "--witness",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("SB under sc (exhaustive): never"), "{out}");
    assert!(
        out.contains("SB under tso (exhaustive): sometimes"),
        "{out}"
    );
}

#[test]
fn unknown_model_is_an_input_error_with_a_suggestion() {
    let (code, _, err) = relaxlab(&["run", "litmus/classic/SB.litmus", "--model", "tos"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `tso`"), "{err}");
}

#[test]
fn an_axiomatic_name_given_to_model_points_at_axiomatic() {
    // Tables name axiomatic models `ax.rc11`; a user who copies the name
    // into `--model` is told where it goes.
    let (code, _, err) = relaxlab(&["run", "litmus/classic/SB.litmus", "--model", "ax.rc11"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown operational model `ax.rc11`"), "{err}");
    assert!(err.contains("`--axiomatic rc11`"), "{err}");
}

#[test]
fn a_race_in_executions_an_assume_discards_is_not_reported() {
    // Discarded at the racing move, and at a later one.
    for f in [
        "tests/inputs/discarded-race.litmus",
        "tests/inputs/discarded-later-race.litmus",
    ] {
        for args in [
            &["run", f, "--model", "c11r,c11t", "--axiomatic", "c11r"][..],
            &["run", f, "--model", "c11r", "--reduction", "none"],
            &["run", f, "--model", "c11r,c11t", "--sample", "200"],
            &["races", f, "--model", "sc"],
        ] {
            let (code, out, err) = relaxlab(args);
            assert_eq!(code, 0, "{args:?}: {out}{err}");
            assert!(
                !out.contains("RACE") && !err.contains("race on"),
                "{args:?}: {out}{err}"
            );
        }
    }
}

#[test]
fn races_cut_short_claim_no_absence() {
    // MP with non-atomic data races, but not within 3 states.
    let f = "litmus/c11/MP+na+rlx.litmus";
    let (code, out, err) = relaxlab(&["races", f, "--max-states", "3"]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains("no data race found under c11r in 3 states (PARTIAL)"),
        "{out}"
    );
    let (code, out, _) = relaxlab(&["races", f]);
    assert_eq!(code, 1, "{out}");
}

#[test]
fn a_missing_file_is_an_input_error() {
    let (code, _, err) = relaxlab(&["run", "no/such/file.litmus"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
}

/// A directory is walked with each directory once and each file listed
/// once. Links back up the tree used to be followed without end: `sub/up
/// -> ..` listed (and ran) SB.litmus 41 times, until the system refused a
/// path of so many links, and `a -> .` beside `b -> .` never ended. A
/// link to a directory outside the tree is still followed; a link to a
/// directory in the tree, or a file named again, adds nothing.
#[cfg(unix)]
#[test]
fn a_directory_walk_lists_each_file_once_through_any_links() {
    use std::os::unix::fs::symlink;
    let dir = support::scratch("symlink-loops");
    let copy = |from: &str, to: &std::path::Path| {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(support::root().join(from), to).unwrap();
    };
    let up = dir.join("up");
    copy("litmus/classic/SB.litmus", &up.join("SB.litmus"));
    std::fs::create_dir_all(up.join("sub")).unwrap();
    symlink("..", up.join("sub/up")).unwrap();
    let here = dir.join("here");
    copy("litmus/classic/SB.litmus", &here.join("SB.litmus"));
    symlink(".", here.join("a")).unwrap();
    symlink(".", here.join("b")).unwrap();
    let lib = dir.join("lib");
    copy("litmus/classic/MP.litmus", &lib.join("real/MP.litmus"));
    symlink("real", lib.join("alias")).unwrap();
    symlink("../here", lib.join("outside")).unwrap();
    symlink("../here", lib.join("outside-again")).unwrap();
    let path = |p: &std::path::Path| p.to_string_lossy().into_owned();
    let within = std::time::Duration::from_secs(60);
    let parse = |args: &[&str]| {
        let all = [&["parse"], args].concat();
        let r = support::binary_within(None, &all, within)
            .unwrap_or_else(|| panic!("relaxlab {all:?} did not end within {within:?}"));
        assert_eq!(r.code, Some(0), "{r:?}");
        r.out
    };
    let (up_s, here_s, lib_s) = (path(&up), path(&here), path(&lib));
    assert_eq!(parse(&[&up_s]).lines().count(), 1, "{}", parse(&[&up_s]));
    assert_eq!(parse(&[&here_s]).lines().count(), 1);
    // A file named again, here and inside a directory named, runs once.
    let sb = path(&up.join("SB.litmus"));
    let out = parse(&[&sb, &up_s, &path(&up.join("sub/up/SB.litmus")), &sb]);
    assert_eq!(out.lines().count(), 1, "{out}");
    // The real path of a directory wins over a link to it, whatever the
    // names; a link leading out of the tree is followed once.
    let files: Vec<String> = parse(&[&lib_s])
        .lines()
        .map(|l| l.split(": ").next().unwrap().replace(&lib_s, "lib"))
        .collect();
    assert_eq!(files, ["lib/outside/SB.litmus", "lib/real/MP.litmus"]);
    let r = support::binary_within(None, &["run", &up_s, "--model", "sc"], within).unwrap();
    assert_eq!(r.code, Some(0), "{r:?}");
    assert_eq!(r.out.matches("SB under sc").count(), 1, "{}", r.out);
    let r = support::binary_within(None, &["check", &up_s, &sb], within).unwrap();
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.out.contains("1 passed, 0 failed"), "{}", r.out);
}

#[test]
fn a_partial_search_exits_3_and_claims_neither_never_nor_always() {
    // SB's outcome exists under TSO, but not within 3 states: a cut search
    // exits with 3 and says what it saw, in every format.
    let args = [
        "run",
        "litmus/classic/SB.litmus",
        "--model",
        "tso",
        "--max-states",
        "3",
    ];
    let (code, out, _) = relaxlab(&args);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.starts_with("SB under tso (exhaustive): not observed in 3 states (PARTIAL)\n"),
        "{out}"
    );
    let (_, out, _) = relaxlab(&[&args[..], &["--format", "json"]].concat());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["verdict"], "not observed", "{out}");
    let (_, out, _) = relaxlab(&[&args[..], &["--format", "herd"]].concat());
    assert!(out.contains("Observation SB Unobserved 0 0"), "{out}");
    let (code, out, _) = relaxlab(&[
        "run",
        "litmus/classic/SB.litmus",
        "--axiomatic",
        "tso",
        "--max-candidates",
        "1",
    ]);
    assert_eq!(code, 3, "{out}");
    // The bound also caps the search over thread paths (four nodes per
    // candidate): it stops before the first candidate, and says so.
    assert!(
        out.contains("(axiomatic): not observed in 0 candidates (PARTIAL)"),
        "{out}"
    );
    // Not "stopped after 0 candidate executions", which reads as a
    // miscount of a bound of 1.
    assert!(
        out.contains("PARTIAL: stopped before the first candidate execution (--max-candidates, "),
        "{out}"
    );
}

/// A ground truth cut short decides nothing it did not find: SB's cycle
/// is feasible under tso, but not within 20 states. `confirm` used to
/// print `no no PARTIAL` and `feasible 0` without naming the bound. What
/// Phase II found stands, though: its biased runs created SB's cycle, so
/// the cycle is feasible whatever the ground truth reached; whether it can
/// fail is unknown. IRIW3x3's cycles, which Phase II did not create, are
/// unknown.
#[test]
fn a_partial_ground_truth_says_unknown_and_names_its_bound() {
    let (code, out, _) = relaxlab(&[
        "confirm",
        "litmus/classic/SB.litmus",
        "--model",
        "tso",
        "--max-states",
        "20",
    ]);
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("   yes       unknown   PARTIAL\n"), "{out}");
    assert!(!out.contains("   no  "), "{out}");
    assert!(
        out.contains("feasible 1, of which Phase II confirmed 1\n"),
        "{out}"
    );
    assert!(
        out.contains("    PARTIAL: stopped after 20 states (--max-states)"),
        "{out}"
    );
    // `--timeout` is named as `run` names it.
    let (code, out, _) = relaxlab(&[
        "confirm",
        "litmus/bench/bench-IRIW3x3.litmus",
        "--model",
        "tso",
        "--reduction",
        "none",
        "--timeout",
        "0.2",
    ]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains(" 0        0   unknown   unknown   PARTIAL\n"),
        "{out}"
    );
    assert!(
        out.contains("    PARTIAL: stopped after 0.2 s (--timeout)"),
        "{out}"
    );
    // Complete: `yes`/`no` as before.
    let (code, out, _) = relaxlab(&["confirm", "litmus/classic/SB.litmus", "--model", "tso"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("   yes       no\n"), "{out}");
    assert!(!out.contains("PARTIAL"), "{out}");
}

/// An outcome missing from a column a bound cut short is no disagreement:
/// `compare` used to call each of SB's outcomes `UNEXPECTED: ... tso
/// cannot reach it` when tso stopped after 10 states.
#[test]
fn compare_concludes_no_disagreement_from_a_partial_column() {
    let args = [
        "compare",
        "litmus/classic/SB.litmus",
        "--models",
        "tso",
        "--max-states",
        "10",
    ];
    let (code, out, _) = relaxlab(&args);
    assert_eq!(code, 3, "{out}");
    assert!(!out.contains("UNEXPECTED"), "{out}");
    assert!(!out.contains("cannot reach"), "{out}");
    assert!(
        out.contains("  undecided (PARTIAL): ax.tso allows [P0:r0=0 P1:r0=0]; tso did not reach it before it was cut short\n"),
        "{out}"
    );
    let (code, out, _) = relaxlab(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(code, 3, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["interrupted"], false, "{out}");
    let labels: Vec<&str> = v[0]["disagreements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["undecided (PARTIAL)"; 4], "{out}");
}

/// The same with `--cat`: a cut operational column (`--max-states`) or a
/// cut cat column (`--max-candidates`) concludes nothing. `compare --cat`
/// used to call each of SB's outcomes `differs: cat:pso allows ... but tso
/// cannot reach it` with no `PARTIAL` line, and ignored `--format json`.
#[test]
fn compare_cat_concludes_no_disagreement_from_a_partial_column() {
    let cut_op = [
        "compare",
        "litmus/classic/SB.litmus",
        "--models",
        "tso",
        "--cat",
        "cat/pso.cat",
        "--max-states",
        "10",
    ];
    let (code, out, _) = relaxlab(&cut_op);
    assert_eq!(code, 3, "{out}");
    assert!(!out.contains("differs"), "{out}");
    assert!(
        out.contains("  PARTIAL: tso: stopped after 10 states (--max-states)"),
        "{out}"
    );
    assert!(
        out.contains("  undecided (PARTIAL): cat:pso allows [P0:r0=0 P1:r0=0]; tso did not reach it before it was cut short\n"),
        "{out}"
    );
    assert!(out.contains("SB: operational vs cat models"), "{out}");
    let (code, out, _) = relaxlab(&[
        "compare",
        "litmus/classic/SB.litmus",
        "--models",
        "pso",
        "--cat",
        "cat/tso.cat",
        "--max-candidates",
        "2",
    ]);
    assert_eq!(code, 3, "{out}");
    assert!(!out.contains("differs"), "{out}");
    assert!(
        out.contains("  undecided (PARTIAL): pso reaches [P0:r0=1 P1:r0=1]; cat:tso did not allow it before it was cut short\n"),
        "{out}"
    );
    let (code, out, _) = relaxlab(&[&cut_op[..], &["--format", "json"]].concat());
    assert_eq!(code, 3, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["interrupted"], false, "{out}");
    assert_eq!(
        v[0]["columns"],
        serde_json::json!(["tso", "cat:pso"]),
        "{out}"
    );
    assert_eq!(v[0]["bounds"][0]["kind"], "max-states", "{out}");
    let labels: Vec<&str> = v[0]["disagreements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["undecided (PARTIAL)"; 4], "{out}");
    assert_eq!(v[0]["disagreements"][0]["twin"], "cat:pso", "{out}");
    // `--dot -` is standard output, as for `compare` (it wrote a file `-`).
    let (code, out, _) = relaxlab(&[
        "compare",
        "litmus/classic/SB.litmus",
        "-m",
        "tso",
        "--cat",
        "cat/tso.cat",
        "--dot",
        "-",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("digraph relaxlab {}"), "{out}");
}

#[test]
fn json_output_is_valid_json_with_the_documented_fields() {
    let (code, out, err) = relaxlab(&[
        "run",
        "litmus/classic/SB.litmus",
        "--model",
        "tso",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let run = &v[0];
    assert_eq!(run["model"], "tso");
    assert_eq!(run["verdict"], "sometimes");
    assert_eq!(run["complete"], true);
    assert!(run["rows"].as_array().unwrap().len() >= 4);
}

#[test]
fn sampling_is_replayable_and_deterministic() {
    let args = [
        "run",
        "litmus/classic/SB.litmus",
        "--model",
        "tso",
        "--sample",
        "200",
        "--seed",
        "7",
    ];
    let a = relaxlab(&args);
    let b = relaxlab(&args);
    assert_eq!(a, b);
    assert_eq!(a.0, 0, "{}", a.2);
    let (code, out, err) = relaxlab(&[
        "run",
        "litmus/classic/SB.litmus",
        "--model",
        "tso",
        "--replay",
        "7:3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("P0"), "{out}");
}

#[test]
fn check_passes_on_the_library() {
    let (code, out, err) = relaxlab(&["check", "litmus"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains(" passed, 0 failed"), "{out}");
}

#[test]
fn help_documents_exit_codes() {
    let (code, out, _) = relaxlab(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Exit codes:"), "{out}");
}

/// The expected relations (book: op-vs-ax.md, What to expect): operational = axiomatic for sc, tso and c11r,
/// operational ⊆ axiomatic for pso and pslo, on every loop-free test of the
/// library (tests with loops are compared operationally only).
#[test]
fn compare_finds_no_unexpected_disagreement_in_the_library() {
    let (code, out, err) = relaxlab(&[
        "compare",
        "litmus/classic",
        "litmus/c11",
        "litmus/seeds",
        "litmus/algorithms",
        "litmus/herd",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("UNEXPECTED"), "{out}");
    assert!(
        out.contains("known difference: ax.pso allows"),
        "the SB+fences.ss difference is gone:\n{out}"
    );
}

/// `bench -` reads the test once and hands it to each measuring child on
/// its standard input: the children used to read the benchmark's own
/// standard input, which the first drained (`the file is empty`, exit 2).
#[test]
fn bench_measures_a_test_read_from_standard_input() {
    let sb = std::fs::read(support::root().join("litmus/classic/SB.litmus")).unwrap();
    let r = support::binary_in(
        None,
        &["bench", "-", "--jobs", "1", "--max-states", "1000"],
        &sb,
    );
    assert_eq!(r.code, Some(0), "{}", r.err);
    let rows: Vec<&str> = r.out.lines().filter(|l| l.starts_with("<stdin>")).collect();
    assert_eq!(
        rows.len(),
        2,
        "a row without and one with reduction:\n{}",
        r.out
    );
    assert!(rows[0].contains(" tso    1 none         58 "), "{}", r.out);
    assert!(rows[1].contains(" tso    1  por         23 "), "{}", r.out);
}

#[test]
fn compare_reports_a_failure_only_one_side_has() {
    // A failure whose whole executions an `assume` discards: operational
    // only, and labelled a known difference because the twin finds it once
    // the `assume`s are dropped.
    let file = "litmus/classic/assert-discarded.litmus";
    let (code, out, _) = relaxlab(&["compare", file, "--models", "sc,c11r"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("  known difference: sc has an execution that fails (assertion failed at P0 line 7: assert(r0 != 1)), ax.sc has none\n"),
        "{out}"
    );
    assert!(
        out.contains("known difference: c11r has an execution that fails"),
        "{out}"
    );
    assert!(
        out.contains("      witness:\n      P1: store(x, 1, rlx)"),
        "{out}"
    );
    let (_, json, _) = relaxlab(&["compare", file, "--models", "sc", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let d = &v[0]["disagreements"][0];
    assert_eq!(d["label"], "known difference", "{json}");
    assert_eq!(d["only"], "operational", "{json}");
    assert_eq!(d["values"], serde_json::json!([]), "{json}");
    assert!(d["failure"]
        .as_str()
        .unwrap()
        .starts_with("assertion failed at P0 line 7"));
    // The same with a cat model in the twin's place.
    let (code, out, _) = relaxlab(&["compare", file, "--models", "sc", "--cat", "cat/sc.cat"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("known difference: sc has an execution that fails (assertion failed at P0 line 7: assert(r0 != 1)), cat:sc has none"),
        "{out}"
    );
    // A failure only the other side has, which nothing explains: SB seen
    // through an assertion fails under TSO, never under SC.
    let sb = "tests/inputs/sb-assert.litmus";
    let (code, out, _) = relaxlab(&["compare", sb, "--models", "sc", "--cat", "cat/tso.cat"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("  differs: cat:tso has an execution that fails (assertion failed at P1 line 4: assert(r2 != 1)), sc has none\n"),
        "{out}"
    );
    // Twins that agree on the failure report nothing.
    let (code, out, _) = relaxlab(&["compare", sb, "--models", "sc,tso"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("no disagreement between the models and their twins"),
        "{out}"
    );
}

#[test]
fn races_on_a_herd_test_label_the_text_that_ran() {
    // The race's spans are in the translation of a herd7 test; the
    // diagnostic used to show them over the herd file itself, so its
    // labels fell inside the file's opening comment.
    let (code, out, _) = relaxlab(&["races", "litmus/herd/c/MP+na+rlx+racy-read.litmus"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("MP+na+rlx+racy-read.litmus (translated from herd7):6:3]"),
        "{out}"
    );
    assert!(out.contains("  6 │   store(x, 1, na);\n"), "{out}");
    assert!(!out.contains("RC11 verdict, by hand"), "{out}");
}

/// `--search mcr` (book: mcr.md): the exhaustive explorer's outcomes and
/// failures, its counters in every format, and honest bounds.
mod stateless {
    use super::relaxlab;

    fn json(out: &str) -> serde_json::Value {
        serde_json::from_str(out).unwrap_or_else(|e| panic!("not JSON ({e}):\n{out}"))
    }

    /// The rows' values and the failures' descriptions of a JSON run.
    fn outcomes(run: &serde_json::Value) -> (Vec<String>, Vec<String>) {
        let rows = run["rows"].as_array().unwrap();
        let failures = run["failures"].as_array().unwrap();
        (
            rows.iter().map(|r| r["values"].to_string()).collect(),
            failures.iter().map(|f| f["what"].to_string()).collect(),
        )
    }

    #[test]
    fn the_table_is_the_exhaustive_one_with_the_counters_in_json() {
        for file in [
            "litmus/seeds/MCR-fig3a.litmus",
            "litmus/bench/mcr/MCR-fig6-N1.litmus",
            "litmus/bench/mcr/MCR-stack-unsafe.litmus",
        ] {
            let (code, out, err) = relaxlab(&[
                "run",
                file,
                "--model",
                "sc,tso,pso",
                "--search",
                "mcr",
                "--format",
                "json",
            ]);
            assert_eq!(code, 0, "{err}");
            let (code, full, err) =
                relaxlab(&["run", file, "--model", "sc,tso,pso", "--format", "json"]);
            assert_eq!(code, 0, "{err}");
            let (runs, full) = (json(&out), json(&full));
            for (run, full) in runs
                .as_array()
                .unwrap()
                .iter()
                .zip(full.as_array().unwrap())
            {
                assert_eq!(run["mode"], "stateless");
                assert_eq!(
                    outcomes(run),
                    outcomes(full),
                    "{file} under {}",
                    run["model"]
                );
                let mcr = &run["mcr"];
                let executions = mcr["executions"].as_u64().unwrap();
                let counted: u64 = run["rows"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r["count"].as_u64().unwrap())
                    .sum();
                // The rows count the complete executions reaching them.
                assert_eq!(
                    counted,
                    mcr["complete"].as_u64().unwrap() - mcr["filtered"].as_u64().unwrap()
                );
                assert!(executions >= counted, "{mcr}");
                assert_eq!(
                    mcr["first_failure"].is_null(),
                    run["failures"].as_array().unwrap().is_empty(),
                    "{file}: {mcr}"
                );
            }
        }
    }

    #[test]
    fn fig_3a_takes_four_executions_under_tso_and_its_first_failure_is_counted() {
        let (code, out, err) = relaxlab(&[
            "run",
            "litmus/seeds/MCR-fig3a.litmus",
            "--model",
            "tso",
            "--search",
            "mcr",
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("MCR-fig3a under tso (stateless, mcr): sometimes"),
            "{out}"
        );
        assert!(
            out.contains("mcr: 4 executions, no two reading the same values"),
            "{out}"
        );
        let (code, out, err) = relaxlab(&[
            "run",
            "litmus/bench/mcr/MCR-fig6-N1.litmus",
            "--model",
            "pso",
            "--search",
            "mcr",
            "--format",
            "herd",
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("# mcr: first failure in execution 3\n"),
            "{out}"
        );
        assert!(
            out.contains("# mcr: 10 executions, no two reading the same values"),
            "{out}"
        );
    }

    #[test]
    fn bounds_are_reported_in_every_format_with_exit_3() {
        // Dekker's spin loops unrolled once, and Fig. 3(a) stopped after
        // 2 of its 4 executions under TSO.
        for args in [
            ["litmus/bench/mcr/MCR-dekker.litmus", "--unroll", "1"],
            ["litmus/seeds/MCR-fig3a.litmus", "--max-states", "2"],
        ] {
            let base = [
                "run", args[0], "--model", "tso", "--search", "mcr", args[1], args[2],
            ];
            let (code, out, err) = relaxlab(&base);
            assert_eq!(code, 3, "{out}{err}");
            assert!(out.contains("PARTIAL: "), "{out}");
            assert!(!out.contains(": never"), "{out}");
            assert!(!err.contains("has no effect"), "{err}");
            let (code, out, _) = relaxlab(&[&base[..], &["--format", "json"]].concat());
            assert_eq!(code, 3);
            let run = &json(&out)[0];
            assert_eq!(run["complete"], false, "{run}");
            assert!(!run["bounds"].as_array().unwrap().is_empty(), "{run}");
            let (code, out, _) = relaxlab(&[&base[..], &["--format", "herd"]].concat());
            assert_eq!(code, 3);
            assert!(out.contains("# PARTIAL: "), "{out}");
        }
        let (_, out, _) = relaxlab(&[
            "run",
            "litmus/seeds/MCR-fig3a.litmus",
            "--model",
            "tso",
            "--search",
            "mcr",
            "--max-states",
            "2",
        ]);
        assert!(out.contains("mcr: 2 executions"), "{out}");
    }

    #[test]
    fn models_it_does_not_run_are_refused_with_a_diagnostic() {
        let (code, _, err) = relaxlab(&[
            "run",
            "litmus/classic/SB.litmus",
            "--model",
            "pslo",
            "--search",
            "mcr",
        ]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("runs sc, tso and pso, not pslo"), "{err}");
        let (code, _, err) = relaxlab(&[
            "run",
            "litmus/classic/SB.litmus",
            "--model",
            "tso",
            "--search",
            "mcr",
            "--replay",
            "1:1",
        ]);
        assert_eq!(code, 2, "{err}");
    }

    #[test]
    fn check_meets_the_expectations_of_the_papers_benchmarks() {
        let (code, out, err) = relaxlab(&[
            "check",
            "litmus/bench/mcr/MCR-fig6-N1.litmus",
            "litmus/bench/mcr/MCR-stack-unsafe.litmus",
            "litmus/seeds/MCR-fig3a.litmus",
            "--search",
            "mcr",
        ]);
        assert_eq!(code, 0, "{out}{err}");
    }
}
