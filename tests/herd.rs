//! herd7 compatibility: every herd test of `litmus/herd/` imported and run
//! with `--format herd` prints exactly the herd7 output derived by hand in
//! `tests/herd/` (how each was derived: `tests/herd/README.md`): C tests
//! under `ax.rc11`, X86 tests under `ax.tso` and the operational `tso`.
//! Malformed or unsupported herd inputs (`tests/herd/bad/`) are refused.

mod support;

use support::relaxlab;

fn check_dir(dir: &str, runs: &[(&str, &str, &str)]) -> usize {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for path in support::litmus_files(&format!("litmus/herd/{dir}")) {
        let rel = support::relative(&path);
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        for (flag, model, suffix) in runs {
            let golden = support::root().join(format!("tests/herd/{dir}/{name}.{suffix}.out"));
            let Ok(expected) = std::fs::read_to_string(&golden) else {
                continue;
            };
            let (code, out, err) = relaxlab(&["run", &rel, flag, model, "--format", "herd"]);
            assert_eq!(code, 0, "{rel}: {err}");
            checked += 1;
            if out != expected {
                wrong.push(format!(
                    "{rel} {flag} {model}:\n--- expected\n{expected}--- got\n{out}"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    checked
}

#[test]
fn c_tests_print_what_herd7_prints_under_rc11() {
    assert!(check_dir("c", &[("--axiomatic", "rc11", "ax.rc11")]) >= 20);
}

#[test]
fn x86_tests_print_what_herd7_prints_under_x86_tso() {
    let n = check_dir("x86", &[("--axiomatic", "tso", "ax.tso")]);
    assert!(n >= 15);
}

#[test]
fn x86_operational_tso_agrees_with_the_axiomatic_golden_outcomes() {
    // The operational TSO prints outcome counts where herd prints execution
    // counts, so compare the set of final states only.
    for path in support::litmus_files("litmus/herd/x86") {
        let rel = support::relative(&path);
        let states = |out: &str| -> Vec<String> {
            out.lines()
                .filter(|l| l.contains('=') && l.ends_with(';'))
                .map(str::to_string)
                .collect()
        };
        let (_, op, _) = relaxlab(&["run", &rel, "--model", "tso", "--format", "herd"]);
        let (_, ax, _) = relaxlab(&["run", &rel, "--axiomatic", "tso", "--format", "herd"]);
        assert_eq!(states(&op), states(&ax), "{rel}");
    }
}

#[test]
fn bad_herd_inputs_are_refused_with_a_diagnostic() {
    let dir = support::root().join("tests/herd/bad");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let rel = support::relative(&entry.path());
        let (code, _, err) = relaxlab(&["parse", &rel]);
        assert_eq!(code, 2, "{rel} was accepted");
        assert!(
            err.contains("relaxlab::herd") || err.contains("relaxlab::"),
            "{rel}: {err}"
        );
        n += 1;
    }
    assert!(n >= 10);
}

#[test]
fn imported_tests_round_trip_through_relaxlab_syntax() {
    // An imported test printed in relaxlab syntax (`fmt`) and re-read gives
    // the same outcomes.
    let tmp = std::env::temp_dir().join(format!("relaxlab-roundtrip-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for path in support::litmus_files("litmus/herd") {
        let rel = support::relative(&path);
        let (code, translated, err) = relaxlab(&["fmt", "--to", "relaxlab", &rel]);
        assert_eq!(code, 0, "{rel}: {err}");
        let copy = tmp.join(path.file_name().unwrap());
        std::fs::write(&copy, &translated).unwrap();
        let copy = copy.to_string_lossy().into_owned();
        for model in ["sc", "tso"] {
            let (_, a, _) = relaxlab(&["run", &rel, "--model", model]);
            let (_, b, _) = relaxlab(&["run", &copy, "--model", model]);
            let rows = |s: &str| s.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
            assert_eq!(rows(&a), rows(&b), "{rel} under {model}");
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
