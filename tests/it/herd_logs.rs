//! `relaxlab compare --herd-logs`: herd-format logs side by side, test by
//! test, over herd7's own recorded outputs (`tests/herd/recorded/`) and
//! relaxlab's, without herd7.

use crate::support::{self, relaxlab};

/// herd7's log of a directory of `tests/herd/recorded/`: its recorded
/// outputs one after the other, in the order relaxlab runs the tests.
fn herd7_log(dir: &str) -> String {
    support::litmus_files(&format!("tests/herd/recorded/{dir}"))
        .iter()
        .map(|p| std::fs::read_to_string(p.with_extension("herd")).unwrap())
        .collect()
}

/// relaxlab's log of the same directory under `flags`.
fn relaxlab_log(dir: &str, flags: &[&str]) -> String {
    let dir = format!("tests/herd/recorded/{dir}");
    let mut args = vec!["run", &dir, "--format", "herd"];
    args.extend(flags);
    let (code, out, err) = relaxlab(&args);
    assert_eq!(code, 0, "{err}");
    out
}

/// Writes the logs in a scratch directory and compares them.
fn compare(name: &str, logs: &[(&str, &str)], extra: &[&str]) -> (u8, String, String) {
    let dir = support::scratch(name);
    let mut args = vec!["compare".to_string(), "--herd-logs".to_string()];
    for (file, text) in logs {
        let path = dir.join(file);
        std::fs::write(&path, text).unwrap();
        args.push(path.to_string_lossy().into_owned());
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    relaxlab(&args)
}

#[test]
fn herd7_and_relaxlab_logs_of_the_x86_catalogue_agree_test_by_test() {
    let herd = herd7_log("catalogue-x86");
    let ours = relaxlab_log("catalogue-x86", &["--axiomatic", "tso"]);
    let (code, out, err) = compare(
        "logs-agree",
        &[("herd7.log", &herd), ("relaxlab.log", &ours)],
        &[],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.ends_with("\n23 tests: 23 agree, 0 differ, 0 not in every log\n"),
        "{out}"
    );
    let sb = out.lines().find(|l| l.starts_with("SB ")).unwrap();
    assert_eq!(
        sb.split_whitespace().collect::<Vec<_>>(),
        ["SB", "Sometimes", "1", "3", "Sometimes", "1", "3"]
    );
}

#[test]
fn sc_and_tso_logs_differ_where_tso_relaxes_and_the_extra_states_are_listed() {
    let herd = herd7_log("catalogue-x86");
    let sc = relaxlab_log("catalogue-x86", &["--axiomatic", "sc"]);
    let (code, out, _) = compare("logs-differ", &[("tso.log", &herd), ("sc.log", &sc)], &[]);
    assert_eq!(code, 1, "{out}");
    // SB: TSO allows both reads of 0, SC does not.
    let sb = out.lines().find(|l| l.starts_with("SB ")).unwrap();
    assert!(
        sb.contains("Sometimes 1 3")
            && sb.contains("Never 0 3")
            && sb.ends_with("differ: states, verdict, counts"),
        "{sb}"
    );
    assert!(out.contains("\nSB:\n  "), "{out}");
    assert!(out.contains("    only here: 0:EAX=0; 1:EAX=0\n"), "{out}");
    // A test SC and TSO agree on (MP) agrees.
    let mp = out.lines().find(|l| l.starts_with("MP ")).unwrap();
    assert!(!mp.contains("differ"), "{mp}");
}

#[test]
fn operational_counts_can_be_left_out_of_the_comparison() {
    let herd = herd7_log("catalogue-x86");
    let op = relaxlab_log("catalogue-x86", &["--model", "tso"]);
    let (code, out, _) = compare(
        "logs-counts",
        &[("herd7.log", &herd), ("op.log", &op)],
        &["--ignore-counts"],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.ends_with("23 tests: 23 agree, 0 differ, 0 not in every log\n"),
        "{out}"
    );
}

#[test]
fn a_test_missing_from_a_log_is_reported() {
    let herd = herd7_log("catalogue-x86");
    let some: String = herd.split_inclusive("\n\n").skip(1).collect();
    let (code, out, _) = compare(
        "logs-missing",
        &[("all.log", &herd), ("some.log", &some)],
        &[],
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("missing\n"), "{out}");
    assert!(
        out.ends_with("23 tests: 22 agree, 0 differ, 1 not in every log\n"),
        "{out}"
    );
}

#[test]
fn a_log_that_is_not_herds_format_is_refused_with_its_line() {
    let herd = herd7_log("catalogue-x86");
    let cut = herd.replacen("States ", "Stats ", 1);
    let (code, out, err) = compare("logs-bad", &[("herd7.log", &herd), ("cut.log", &cut)], &[]);
    assert_eq!(code, 2, "{out}");
    let err = support::flat(&err);
    assert!(
        err.contains("cut.log is not a herd log: expected `States N` after `Test"),
        "{err}"
    );
    assert!(err.contains("relaxlab::herd_log"), "{err}");
    let (code, _, err) = relaxlab(&[
        "compare",
        "--herd-logs",
        "tests/herd/recorded/catalogue-x86/SB.herd",
    ]);
    assert_eq!(code, 2);
    assert!(
        support::flat(&err).contains("`--herd-logs` compares two logs or more; 1 given"),
        "{err}"
    );
    let (code, _, err) = relaxlab(&[
        "compare",
        "--herd-logs",
        "a.log",
        "b.log",
        "--models",
        "tso",
    ]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = relaxlab(&["compare", "a.log", "b.log", "--ignore-counts"]);
    assert_eq!(code, 2, "{err}");
}
