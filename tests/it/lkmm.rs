//! The Linux-kernel memory model, run as kernel developers run it with
//! herd7: the kernel's model files (`cat/linux/`, unchanged) through
//! `--conf linux-kernel.cfg`, on herd C tests with the kernel's
//! primitives.
//!
//! - herdtools7's `catalogue/linux` (79 tests, `tests/lkmm/catalogue/`,
//!   with herd7's recorded outputs) prints exactly what herd7 printed,
//!   `Time` and `Hash` lines aside, and so does one test per primitive of
//!   the macro file (`tests/lkmm/primitives/`) and the tests of herd's C
//!   arrays under the kernel's model (`tests/lkmm/arrays/`);
//! - the kernel examples of `litmus/kernel/` get the verdict and the data
//!   race their `Result:` comment states;
//! - without the macro file, a kernel primitive is named as a macro, and
//!   the models that do not run herd's C semantics refuse such tests.

use std::collections::BTreeMap;

use crate::support;
use crate::support::relaxlab;

const CONF: &str = "cat/linux/linux-kernel.cfg";

/// The outputs of one `--format herd` run, by test name.
fn blocks(out: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    let mut current: Option<(String, String)> = None;
    for line in out.lines() {
        if let Some(rest) = line.strip_prefix("Test ") {
            if let Some((name, text)) = current.take() {
                map.insert(name, text);
            }
            let name = rest.split_whitespace().next().unwrap_or("").to_string();
            current = Some((name, String::new()));
        }
        if let Some((_, text)) = current.as_mut() {
            if !line.is_empty() && !line.starts_with("Time ") && !line.starts_with("Hash=") {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    if let Some((name, text)) = current {
        map.insert(name, text);
    }
    map
}

/// The tests of `dir` whose herd7 output (`NAME.litmus.expected`)
/// relaxlab's `--format herd` does not reproduce, Time and Hash lines
/// aside, and how many were compared.
fn differences_from_herd7(dir: &str) -> (usize, Vec<String>) {
    let (code, out, err) = relaxlab(&["run", dir, "--conf", CONF, "--format", "herd"]);
    assert_eq!(code, 0, "{err}");
    let ours = blocks(&out);
    let mut compared = 0;
    let mut wrong = Vec::new();
    for path in support::litmus_files(dir) {
        let expected_path = path.with_extension("litmus.expected");
        let expected = std::fs::read_to_string(&expected_path).unwrap();
        let theirs = blocks(&expected);
        assert_eq!(theirs.len(), 1, "{}", expected_path.display());
        for (name, text) in &theirs {
            compared += 1;
            match ours.get(name) {
                Some(t) if t == text => {}
                got => wrong.push(format!(
                    "{name}:\n--- herd7\n{text}--- relaxlab\n{}",
                    got.map_or("(missing)", |t| t.as_str())
                )),
            }
        }
    }
    (compared, wrong)
}

#[test]
fn the_linux_catalogue_prints_what_herd7_printed() {
    let (compared, wrong) = differences_from_herd7("tests/lkmm/catalogue");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert_eq!(compared, 79);
}

/// Every primitive of the kernel's macro file, each in its own test,
/// gives herd7's states, counts and verdict.
#[test]
fn every_kernel_primitive_gives_what_herd7_gives() {
    let (compared, wrong) = differences_from_herd7("tests/lkmm/primitives");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert_eq!(compared, 74);
}

/// Kernel tests with herd's C arrays (book: herd.md, Arrays): the first
/// cell reached through the array's name and through a local pointer,
/// cells and whole arrays printed as herd7 prints them.
#[test]
fn kernel_tests_with_arrays_give_what_herd7_gives() {
    let (compared, wrong) = differences_from_herd7("tests/lkmm/arrays");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert_eq!(compared, 3);
}

/// The verdict a kernel test's `Result:` comment states, and whether it
/// states a data race.
fn stated(text: &str) -> (String, bool) {
    let line = text
        .lines()
        .find_map(|l| l.trim_start_matches([' ', '*']).strip_prefix("Result:"))
        .expect("a Result: comment");
    let mut words = line.split_whitespace();
    let verdict = words.next().unwrap().to_string();
    (verdict, words.any(|w| w == "DATARACE"))
}

#[test]
fn the_kernel_examples_get_the_verdicts_their_comments_state() {
    let mut n = 0;
    for path in support::litmus_files("litmus/kernel") {
        let rel = support::relative(&path);
        let (verdict, race) = stated(&std::fs::read_to_string(&path).unwrap());
        let (code, out, err) = relaxlab(&["run", &rel, "--conf", CONF, "--format", "herd"]);
        assert_eq!(code, 0, "{rel}: {err}");
        let observation = out
            .lines()
            .find(|l| l.starts_with("Observation "))
            .unwrap_or_else(|| panic!("{rel}: {out}"));
        assert!(
            observation.contains(&format!(" {verdict} ")),
            "{rel}: {observation}"
        );
        assert_eq!(out.contains("\nFlag data-race\n"), race, "{rel}: {out}");
        n += 1;
    }
    assert!(n >= 10);
}

#[test]
fn a_kernel_primitive_without_the_macro_file_is_named_as_a_macro() {
    let (code, _, err) = relaxlab(&["run", "litmus/kernel/SB+mb.litmus", "--axiomatic", "c11"]);
    assert_eq!(code, 2, "{err}");
    let flat = support::flat(&err);
    assert!(flat.contains("relaxlab::herd::unknown_macro"), "{err}");
    // The first call of each thread is named (expansion stops there).
    assert!(flat.contains("unknown macro `WRITE_ONCE`"), "{err}");
    assert!(err.contains("SB+mb.litmus:17:2"), "{err}");
    assert!(err.contains("SB+mb.litmus:26:2"), "{err}");
    assert!(flat.contains("--conf linux-kernel.cfg"), "{err}");
}

#[test]
fn models_that_do_not_run_herds_c_semantics_refuse_kernel_tests() {
    for model in [["--model", "sc"], ["--axiomatic", "rc11"]] {
        let (code, _, err) = relaxlab(&[
            "run",
            "litmus/kernel/SB+mb.litmus",
            "--conf",
            CONF,
            model[0],
            model[1],
        ]);
        assert_eq!(code, 2, "{model:?}: {err}");
        assert!(
            support::flat(&err).contains("relaxlab::model::herd_semantics"),
            "{model:?}: {err}"
        );
    }
}

#[test]
fn pointers_print_as_the_locations_they_point_to() {
    let (code, out, err) = relaxlab(&["run", "litmus/kernel/RCU+gp.litmus", "--conf", CONF]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\n        y      1 "), "{out}");
    let (_, json, _) = relaxlab(&[
        "run",
        "litmus/kernel/RCU+gp.litmus",
        "--conf",
        CONF,
        "--format",
        "json",
    ]);
    assert!(json.contains("\"y\""), "{json}");
}

#[test]
fn check_honours_the_result_comments_of_kernel_tests() {
    let (code, out, err) = relaxlab(&["check", "litmus/kernel", "--conf", CONF]);
    assert_eq!(code, 0, "{out}{err}");
    let n = support::litmus_files("litmus/kernel").len();
    assert!(out.contains(&format!("{n} passed, 0 failed")), "{out}");
    assert!(out.contains(&format!("{n} expectations held")), "{out}");
}

/// A `Result:` comment that does not hold fails `check`: a wrong verdict,
/// a data race not stated, a stated one not flagged, a DEADLOCK with
/// executions.
#[test]
fn check_fails_a_result_comment_that_does_not_hold() {
    let dir = support::scratch("lkmm-check-wrong");
    let root = support::root().join("litmus/kernel");
    let cases = [
        (
            "SB+mb",
            "Result: Never",
            "Result: Sometimes",
            "expected sometimes, found never",
        ),
        (
            "MP+plain+race",
            "Result: Sometimes DATARACE",
            "Result: Sometimes",
            "a data race was flagged",
        ),
        (
            "MP+once",
            "Result: Sometimes",
            "Result: Sometimes DATARACE",
            "expected DATARACE",
        ),
        (
            "SB+once",
            "Result: Sometimes",
            "Result: DEADLOCK",
            "expected DEADLOCK",
        ),
    ];
    for (name, from, to, problem) in cases {
        let text = std::fs::read_to_string(root.join(format!("{name}.litmus"))).unwrap();
        assert!(text.contains(from), "{name}");
        let path = dir.join(format!("{name}.litmus"));
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        let conf = support::root().join(CONF);
        let (code, out, err) = relaxlab(&[
            "check",
            path.to_str().unwrap(),
            "--conf",
            conf.to_str().unwrap(),
        ]);
        assert_eq!(code, 1, "{name}: {out}{err}");
        assert!(support::flat(&out).contains(problem), "{name}: {out}");
    }
}

#[test]
fn check_without_the_configuration_skips_kernel_tests_and_says_how() {
    let (code, out, err) = relaxlab(&["check", "litmus/kernel/SB+mb.litmus"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("skip  litmus/kernel/SB+mb.litmus"), "{out}");
    assert!(
        support::flat(&out).contains("--conf linux-kernel.cfg"),
        "{out}"
    );
    assert!(out.contains("0 passed, 0 failed, 1 skipped"), "{out}");
    let (_, json, _) = relaxlab(&["check", "litmus/kernel/SB+mb.litmus", "--format", "json"]);
    assert!(json.contains("\"status\": \"skipped\""), "{json}");
    assert!(json.contains("\"skipped\": 1"), "{json}");
}

/// A call the macro file does not define is refused by its name, with a
/// label on it, whatever else the test holds.
#[test]
fn a_primitive_the_macro_file_lacks_is_refused_by_name() {
    let dir = support::scratch("lkmm-unknown-primitive");
    let path = dir.join("cond-load.litmus");
    std::fs::write(
        &path,
        "C cond-load\n\n{}\n\nP0(int *x, int *y)\n{\n\tint r0;\n\n\tWRITE_ONCE(*x, 1);\n\tr0 = smp_cond_load_acquire(y, VAL);\n}\n\nexists (0:r0=0)\n",
    )
    .unwrap();
    let conf = support::root().join(CONF);
    let (code, _, err) = relaxlab(&[
        "run",
        path.to_str().unwrap(),
        "--conf",
        conf.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    let flat = support::flat(&err);
    assert!(flat.contains("relaxlab::herd::unknown_macro"), "{err}");
    assert!(flat.contains("smp_cond_load_acquire"), "{err}");
}

/// A name read or written through that the thread never gives a value
/// (not a parameter, not given an address in the init block, never
/// assigned) holds 0, which is no location: herd7 gives no result ("Non
/// symbolic location with no initial write"), relaxlab refuses the test
/// with a label on the name. A register that holds an address read from
/// memory, or given one in the init block, is read through as herd7 does.
#[test]
fn reading_through_a_name_that_holds_no_location_is_refused() {
    let dir = support::scratch("lkmm-unbound-pointer");
    let conf = support::root().join(CONF);
    let run = |name: &str, text: &str| {
        let path = dir.join(format!("{name}.litmus"));
        std::fs::write(&path, text).unwrap();
        relaxlab(&[
            "run",
            path.to_str().unwrap(),
            "--conf",
            conf.to_str().unwrap(),
            "--format",
            "herd",
        ])
    };
    // `z` is a location of the init block, but not a parameter of P0.
    for (name, body) in [
        ("global", "{ x = 0; z = 0; }\n\nP0(int *x)\n{\n\tint r0 = READ_ONCE(*z);\n\tWRITE_ONCE(*x, 1);\n}\n"),
        ("declared", "{ x = 0; }\n\nP0(int *x)\n{\n\tint *r1;\n\tint r0 = READ_ONCE(*r1);\n\tWRITE_ONCE(*x, 1);\n}\n"),
        ("plain", "{ x = 0; }\n\nP0(int *x)\n{\n\tint r0 = *z;\n\t*x = 1;\n}\n"),
        ("store", "{ x = 0; }\n\nP0(int *x)\n{\n\tWRITE_ONCE(*q, 1);\n}\n"),
    ] {
        let (code, _, err) = run(name, &format!("C {name}\n\n{body}\nexists (x=0)\n"));
        assert_eq!(code, 2, "{name}: {err}");
        let flat = support::flat(&err);
        assert!(flat.contains("relaxlab::herd::unbound_pointer"), "{name}: {err}");
        assert!(flat.contains("never given a value in P0"), "{name}: {err}");
    }
    let (code, out, err) = run(
        "given",
        "C given\n\n{ x = 0; y = 0; 0:r1 = x; int *p = y; }\n\nP0(int *p)\n{\n\tint r0 = READ_ONCE(*r1);\n\tint *r2 = READ_ONCE(*p);\n\tWRITE_ONCE(*r2, 1);\n}\n\nexists (0:r0=0 /\\ y=1)\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Observation given Always 1 0"), "{out}");
    // The file of tests/herd/bad: refused with and without the macro file.
    for conf in [&["--conf", CONF][..], &[]] {
        let mut args = vec!["run", "tests/herd/bad/c-unknown-location.litmus"];
        args.extend_from_slice(conf);
        let (code, _, err) = relaxlab(&args);
        assert_eq!(code, 2, "{conf:?}: {err}");
        assert!(support::flat(&err).contains("`z`"), "{conf:?}: {err}");
    }
}

/// herd's C semantics evaluates an expression as the tree its operators
/// build, so a long chain of them nests: past the nesting bound it is
/// refused with the nesting diagnostic (it overflowed the stack before),
/// and a chain within it runs.
#[test]
fn a_long_operator_chain_in_a_kernel_test_is_refused_not_a_crash() {
    let dir = support::scratch("lkmm-chain");
    let test = |terms: usize| {
        let sum = vec!["1"; terms].join(" + ");
        format!(
            "C chain\n{{ }}\nP0(int *x) {{\n  int r0 = READ_ONCE(*x) + {sum};\n  WRITE_ONCE(*x, r0);\n}}\nexists (x={terms})\n"
        )
    };
    for (terms, code) in [(3000, 2), (400, 0)] {
        let file = dir.join(format!("chain{terms}.litmus"));
        std::fs::write(&file, test(terms)).unwrap();
        let file = file.to_string_lossy().into_owned();
        let (got, out, err) = relaxlab(&["run", &file, "--conf", "cat/linux/linux-kernel.cfg"]);
        assert_eq!(got, code, "{terms} terms: {err}");
        if code == 2 {
            assert!(
                support::flat(&err).contains("relaxlab::herd::too_deep"),
                "{err}"
            );
        } else {
            assert!(
                out.contains("1 outcome, 1 satisfying the condition"),
                "{out}"
            );
        }
    }
}
