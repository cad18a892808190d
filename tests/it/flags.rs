//! Flags as a person types them: every number is validated, a flag that
//! would have no effect is refused, both spellings of the model flag work,
//! and every subcommand's help shows examples.

use crate::support;

use crate::support::{binary, relaxlab};

const SB: &str = "litmus/classic/SB.litmus";

/// relaxlab refuses `args` as an input error that names `flag`.
fn refused(args: &[&str], flag: &str) {
    let (code, out, err) = relaxlab(args);
    assert_eq!(code, 2, "{args:?} was accepted:\n{out}{err}");
    assert!(
        err.contains(flag),
        "{args:?}: the error does not name {flag}:\n{err}"
    );
    assert!(out.is_empty(), "{args:?} printed results:\n{out}");
}

#[test]
fn worker_counts_are_validated() {
    refused(&["run", SB, "--jobs", "0"], "--jobs");
    refused(&["run", SB, "--jobs", "10000"], "--jobs");
    refused(&["check", SB, "-j", "0"], "--jobs");
    refused(&["bench", SB, "--jobs", "0"], "--jobs");
    refused(&["bench", SB, "--jobs", "1,0"], "--jobs");
    refused(&["bench", SB, "--jobs", "100000"], "--jobs");
}

#[test]
fn bounds_are_validated() {
    refused(&["run", SB, "--max-states", "0"], "--max-states");
    refused(
        &["run", SB, "--axiomatic", "sc", "--max-candidates", "0"],
        "--max-candidates",
    );
    refused(
        &["run", SB, "--axiomatic", "sc", "--unroll", "100000"],
        "--unroll",
    );
    refused(&["run", SB, "--model", "tso", "--sample", "0"], "--sample");
    refused(&["run", SB, "--model", "tso", "--sample=-1"], "--sample");
    refused(
        &[
            "run",
            SB,
            "--model",
            "tso",
            "--sample",
            "5",
            "--max-steps",
            "0",
        ],
        "--max-steps",
    );
    refused(&["run", SB, "--timeout", "0"], "--timeout");
    refused(&["run", SB, "--timeout", "-3"], "--timeout");
    refused(&["run", SB, "--timeout", "nan"], "--timeout");
    refused(&["run", SB, "--timeout", "1e300"], "--timeout");
    refused(&["run", SB, "--max-memory", "0"], "--max-memory");
    refused(&["run", SB, "--max-memory", "12 parsecs"], "--max-memory");
    refused(&["run", SB, "--max-memory", "99999999999T"], "--max-memory");
    refused(&["bench", SB, "--max-states", "0"], "--max-states");
    refused(&["predict", SB, "--runs", "0"], "--runs");
    refused(&["confirm", SB, "--trials", "0"], "--trials");
    refused(&["predict", SB, "--length", "3"], "--length");
    refused(&["predict", SB, "--length", "0"], "--length");
    refused(&["confirm", SB, "--length", "2"], "--length");
    refused(
        &[
            "run",
            SB,
            "--model",
            "tso",
            "--replay",
            "0:18446744073709551615",
        ],
        "--replay",
    );
}

/// `--sample 18446744073709551615` used to panic (capacity overflow) and
/// `--sample 4294967296` to abort allocating hundreds of GiB: a run count
/// costs time, never memory, and a time bound stops it with the runs done.
#[test]
fn a_huge_sample_runs_within_a_time_bound_and_says_so() {
    for runs in ["18446744073709551615", "4294967296"] {
        let r = binary(&[
            "run",
            SB,
            "--model",
            "tso",
            "--sample",
            runs,
            "--max-steps",
            "1",
            "--timeout",
            "1",
        ]);
        assert_eq!(r.code, Some(3), "--sample {runs}: {r:?}");
        assert!(
            r.out.contains("PARTIAL: stopped after 1 s (--timeout)"),
            "{r:?}"
        );
    }
}

#[test]
fn flags_without_effect_are_refused() {
    refused(
        &["run", SB, "--model", "tso", "--strategy", "delay"],
        "--strategy",
    );
    refused(
        &["run", SB, "--model", "tso", "--max-steps", "5"],
        "--max-steps",
    );
    refused(&["run", SB, "--model", "tso", "--seed", "5"], "--seed");
    refused(
        &["run", SB, "--model", "tso", "--format", "herd", "--witness"],
        "--witness",
    );
    refused(&["run", SB, "--model", "tso", "--herd-time"], "--herd-time");
    refused(
        &[
            "run", SB, "--model", "tso", "--replay", "1:2", "--sample", "10",
        ],
        "--sample",
    );
    refused(
        &["run", SB, "--model", "tso", "--replay", "1:2", "--witness"],
        "--witness",
    );
    refused(&["run", SB, "--model", "sc,sc"], "sc");
    refused(&["run", SB, "--axiomatic", "tso,ax.tso"], "tso");
    refused(&["compare", SB, "--models", "tso,tso"], "tso");
    refused(
        &["run", SB, "--axiomatic", "tso", "--sample", "10"],
        "--sample",
    );
    refused(&["races", SB, "--unroll", "2"], "--unroll");
    refused(&["races", SB, "--max-candidates", "5"], "--max-candidates");
    refused(&["confirm", SB, "--unroll", "2"], "--unroll");
    refused(&["fmt", "-", "--write"], "--write");
}

/// A flag that applies to some of the models run says which it applies
/// to, instead of being dropped silently.
#[test]
fn flags_for_models_that_are_not_run_are_warned_about() {
    let (code, _, err) = relaxlab(&["run", SB, "--model", "tso", "--unroll", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("--unroll") && err.contains("axiomatic"),
        "{err}"
    );
    let (code, _, err) = relaxlab(&["run", SB, "--axiomatic", "tso", "--max-states", "5"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("--max-states") && err.contains("operational"),
        "{err}"
    );
    let (code, _, err) = relaxlab(&["predict", "litmus/classic/SB.litmus", "--length", "6"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("--length 6") && err.contains("2 threads"),
        "{err}"
    );
}

#[test]
fn model_and_models_are_both_accepted() {
    let a = relaxlab(&["run", SB, "--model", "tso"]);
    let b = relaxlab(&["run", SB, "--models", "tso"]);
    assert_eq!(a, b);
    assert_eq!(a.0, 0, "{}", a.2);
    let a = relaxlab(&["compare", SB, "--models", "tso"]);
    let b = relaxlab(&["compare", SB, "--model", "tso"]);
    assert_eq!(a, b);
    assert_eq!(a.0, 0, "{}", a.2);
    for cmd in ["confirm", "bench", "races"] {
        let (code, _, err) = relaxlab(&[cmd, "--help"]);
        assert_eq!(code, 0);
        let (code, out, _) = relaxlab(&[cmd, "--models", "nosuchmodel", SB]);
        assert_eq!(code, 2, "{cmd} --models: {out}");
        let _ = err;
    }
}

#[test]
fn every_subcommand_help_has_examples_and_every_flag_a_description() {
    let (_, top, _) = relaxlab(&["--help"]);
    let commands: Vec<&str> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 9, "{top}");
    for cmd in commands {
        let (code, help, _) = relaxlab(&[cmd, "--help"]);
        assert_eq!(code, 0);
        assert!(
            help.contains("Examples:"),
            "`{cmd} --help` has no examples:\n{help}"
        );
        let lines: Vec<&str> = help.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let flag = line.trim_start();
            let is_flag = flag.starts_with("--")
                || flag.len() > 3 && flag.starts_with('-') && flag[2..].starts_with(", --");
            if line.starts_with("  ") && is_flag {
                // The description follows on the same line or, in long
                // help, on the next one, indented further.
                let same_line = flag.split("  ").filter(|s| !s.trim().is_empty()).count() > 1;
                let next_line = lines
                    .get(i + 1)
                    .is_some_and(|n| n.starts_with("          ") && !n.trim().is_empty());
                assert!(
                    same_line || next_line,
                    "`{cmd} --help`: no description for `{flag}`"
                );
            }
        }
    }
}

#[test]
fn model_help_lists_every_model() {
    let (_, help, _) = relaxlab(&["run", "--help"]);
    let model = help
        .lines()
        .skip_while(|l| !l.contains("--model"))
        .take(3)
        .collect::<String>();
    assert!(model.contains("c11t"), "{model}");
    let (_, help, _) = relaxlab(&["races", "--help"]);
    assert!(help.contains("c11t"), "{help}");
}

/// A `--cat` model runs on the axiomatic engine: the engine's bounds bind
/// it and are not warned about (`--max-candidates 1` used to warn "none
/// runs" and then cut the cat model's result short, exit 3), and
/// `--sample`, which it cannot honour, is refused (it was dropped
/// silently: the cat model was explored in full).
#[test]
fn cat_models_count_as_axiomatic_models_for_the_flags() {
    let tso = "cat/tso.cat";
    let (code, out, err) = relaxlab(&["run", SB, "--cat", tso, "--max-candidates", "1"]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.contains("(--max-candidates)"), "{out}");
    assert!(!err.contains("has no effect"), "{err}");
    let (code, _, err) = relaxlab(&["run", SB, "--cat", tso, "--unroll", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("has no effect"), "{err}");
    refused(&["run", SB, "--cat", tso, "--sample", "3"], "--sample");
    refused(
        &["run", SB, "--model", "tso", "--cat", tso, "--sample", "3"],
        "--sample",
    );
}

/// A number out of range says which numbers the flag takes, in words:
/// clap's ranges printed Rust's half-open range (`--max-states 0`: `0 is
/// not in 1..18446744073709551615`), and `relaxlab.toml` said `not in 1..`.
#[test]
fn range_errors_say_the_range_in_words() {
    for (args, says) in [
        (&["run", SB, "--max-states", "0"][..], "must be at least 1"),
        (&["run", SB, "--max-states", "-3"], "must be at least 1"),
        (
            &["run", SB, "--max-states", "many"],
            "expected a whole number of at least 1",
        ),
        (
            &["run", SB, "--axiomatic", "sc", "--unroll", "65"],
            "must be from 0 to 64",
        ),
        (&["run", SB, "--sample", "0"], "must be at least 1"),
        (&["run", SB, "--jobs", "0"], "must be from 1 to 512"),
        (&["predict", SB, "--runs", "0"], "must be from 1 to 1000000"),
        (&["bench", SB, "--repeat", "0"], "must be from 1 to 1000"),
        (
            &["repair", SB, "--model", "tso", "--max-solutions", "0"],
            "must be at least 1",
        ),
        (&["serve", "--max-running", "0"], "must be from 1 to 64"),
        (
            &["serve", "--request-timeout", "0"],
            "must be from 1 to 86400",
        ),
    ] {
        let (code, out, err) = relaxlab(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains(".."), "{args:?}: {err}");
    }
    let dir = support::scratch("config-range");
    let sb = support::root().join(SB).to_string_lossy().into_owned();
    for (toml, says) in [
        ("jobs = 0\n", "`jobs` must be from 1 to 512"),
        ("max_states = 0\n", "`max_states` must be at least 1"),
        ("unroll = 65\n", "`unroll` must be from 0 to 64"),
    ] {
        std::fs::write(dir.join("relaxlab.toml"), toml).unwrap();
        let r = support::binary_in(Some(&dir), &["run", &sb], b"");
        assert_eq!(r.code, Some(2), "{toml}: {r:?}");
        assert!(support::flat(&r.err).contains(says), "{toml}: {}", r.err);
        assert!(!r.err.contains(".."), "{toml}: {}", r.err);
    }
}
