//! Exit codes as documented (README, `relaxlab --help`, and
//! book: cli.md, Exit codes): 0 success, 1 a check failed, 2 input error,
//! 3 partial, 4 output error, 130 interrupted, 141 standard output's reader gone; never
//! 101 (a panic) or a signal, whatever the flags.

use crate::support;

use std::process::{Command, Stdio};

use crate::support::{binary, binary_in, relaxlab, Ran};
use proptest::prelude::*;

#[test]
fn check_exits_2_on_a_file_that_does_not_parse_or_is_not_utf8() {
    for file in [
        "tests/bad/lex_nbsp.litmus",
        "tests/bad/decl_duplicate_location.litmus",
        "tests/inputs/not-utf8.litmus",
    ] {
        let (code, out, err) = relaxlab(&["check", file]);
        assert_eq!(code, 2, "{file}:\n{out}{err}");
    }
    // A failed expectation stays 1; an input error wins over it.
    let (code, _, _) = relaxlab(&[
        "check",
        "litmus/classic/SB.litmus",
        "--max-states",
        "3",
        "--only",
        "tso",
    ]);
    assert_eq!(code, 1);
}

/// GenMC and Nidhugg exit non-zero when an assertion fails; relaxlab does
/// too, unless the test's `expect` block says the failure is expected.
#[test]
fn run_exits_1_when_an_execution_fails_unexpectedly() {
    let (code, out, _) = relaxlab(&[
        "run",
        "tests/inputs/assert-unexpected.litmus",
        "--model",
        "sc",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAILURE: assertion failed"), "{out}");
    for flags in [
        &["--axiomatic", "sc"][..],
        &["--model", "tso", "--sample", "200"][..],
    ] {
        let mut args = vec!["run", "tests/inputs/assert-unexpected.litmus"];
        args.extend_from_slice(flags);
        let (code, out, _) = relaxlab(&args);
        assert_eq!(code, 1, "{flags:?}: {out}");
    }
    // `sc.assert: sometimes` and `tso.assert: sometimes`: expected.
    let (code, out, _) = relaxlab(&[
        "run",
        "tests/inputs/assert-expected.litmus",
        "--model",
        "sc,tso",
    ]);
    assert_eq!(code, 0, "{out}");
    // dekker-broken expects its failure under tso (`tso.assert:
    // sometimes`), and no failure under sc.
    let (code, out, _) = relaxlab(&[
        "run",
        "litmus/algorithms/dekker-broken.litmus",
        "--model",
        "sc,tso",
    ]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn confirm_exits_1_after_confirming_an_unexpected_bug() {
    let (code, out, _) = relaxlab(&[
        "confirm",
        "tests/inputs/done-flag-no-expect.litmus",
        "--model",
        "pso",
        "--trials",
        "50",
    ]);
    assert_eq!(code, 1, "{out}");
    // RELAXER Fig. 2 says `pso.assert: sometimes`: the bug is expected.
    let (code, out, _) = relaxlab(&[
        "confirm",
        "litmus/seeds/RELAXER-fig2.litmus",
        "--model",
        "pso",
        "--trials",
        "50",
    ]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn a_directory_without_litmus_files_is_an_input_error() {
    let dir = support::scratch("empty-dir");
    std::fs::write(dir.join("notes.txt"), "not a test").unwrap();
    let dir = dir.to_string_lossy().into_owned();
    for cmd in ["run", "check", "parse", "fmt", "compare", "races"] {
        let (code, out, err) = relaxlab(&[cmd, &dir]);
        assert_eq!(code, 2, "{cmd}: {out}{err}");
        assert!(err.contains("no litmus files"), "{cmd}: {err}");
    }
}

#[test]
fn help_and_the_book_document_every_exit_code() {
    let (_, help, _) = relaxlab(&["--help"]);
    let cli = std::fs::read_to_string(support::root().join("book/src/cli.md")).unwrap();
    let readme = std::fs::read_to_string(support::root().join("README.md")).unwrap();
    for code in ["0", "1", "2", "3", "4", "130", "141"] {
        assert!(
            help.lines()
                .any(|l| l.trim_start().starts_with(&format!("{code} "))),
            "--help does not document exit code {code}:\n{help}"
        );
        for (name, doc) in [("cli.md", &cli), ("README.md", &readme)] {
            assert!(
                doc.contains(&format!("| {code} |")),
                "{name} does not document exit code {code}"
            );
        }
    }
}

/// A flag value: mostly valid, often at or past the edge of its range.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (1u64..40).prop_map(|n| n.to_string()),
        1 => Just("0".to_string()),
        1 => Just("-1".to_string()),
        1 => Just("4294967296".to_string()),
        1 => Just("18446744073709551615".to_string()),
        1 => Just("18446744073709551616".to_string()),
        1 => Just("1e3".to_string()),
        1 => Just("".to_string()),
        1 => Just("x".to_string()),
    ]
}

/// A run count: a time bound stops a huge valid one, which is tested on its
/// own (`tests/it/flags.rs`); here, small or invalid.
fn count() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (1u64..40).prop_map(|n| n.to_string()),
        1 => Just("0".to_string()),
        1 => Just("-1".to_string()),
        1 => Just("18446744073709551616".to_string()),
        1 => Just("many".to_string()),
    ]
}

/// Some flags of `cmd`, each with a random value where it takes one.
fn flags(cmd: &'static str) -> impl Strategy<Value = Vec<String>> {
    let numeric: &'static [&'static str] = match cmd {
        "run" => &[
            "--jobs",
            "--max-states",
            "--unroll",
            "--max-candidates",
            "--seed",
            "--max-steps",
            "--max-memory",
            "--timeout",
        ],
        "check" | "compare" => &[
            "--jobs",
            "--max-states",
            "--unroll",
            "--max-candidates",
            "--timeout",
        ],
        "races" => &["--jobs", "--max-states", "--timeout"],
        "predict" => &["--length", "--seed", "--max-states"],
        "confirm" => &["--seed", "--length", "--jobs", "--max-states"],
        "bench" => &["--jobs", "--max-states"],
        _ => &[],
    };
    let counted: &'static [&'static str] = match cmd {
        "run" => &["--sample"],
        "predict" => &["--runs"],
        "confirm" => &["--trials", "--runs"],
        _ => &[],
    };
    let switches: &'static [&'static str] = match cmd {
        "run" => &[
            "--witness",
            "--herd-time",
            "--format=herd",
            "--format=json",
            "--dot=-",
            "--model=sc,tso",
            "--model=c11r",
            "--axiomatic=sc",
            "--models=pso",
            "--strategy=delay",
            "--replay=3:4",
            "--mapping=plain",
        ],
        "check" => &["--only=tso", "--only=ax.sc", "--format=json"],
        "compare" => &["--models=tso", "--model=sc", "--format=json", "--dot=-"],
        "races" => &["--model=sc", "--model=c11t", "--format=json"],
        "predict" => &["--exhaustive"],
        "confirm" => &["--model=tso", "--models=pso"],
        "fmt" => &["--check", "--to=herd-c"],
        "parse" => &["--ir"],
        "bench" => &["--model=sc"],
        _ => &[],
    };
    let numbers = if numeric.is_empty() {
        Just(Vec::new()).boxed()
    } else {
        proptest::collection::vec((proptest::sample::select(numeric), number()), 0..4).boxed()
    };
    let chosen = proptest::sample::subsequence(switches, 0..=switches.len().min(3));
    let counts = if counted.is_empty() {
        Just(Vec::new()).boxed()
    } else {
        proptest::collection::vec((proptest::sample::select(counted), count()), 0..2).boxed()
    };
    (numbers, counts, chosen).prop_map(|(numbers, counts, chosen)| {
        let mut out: Vec<String> = chosen.into_iter().map(str::to_string).collect();
        for (flag, value) in numbers.into_iter().chain(counts) {
            out.push(format!("{flag}={value}"));
        }
        out
    })
}

fn command() -> impl Strategy<Value = (&'static str, Vec<String>)> {
    proptest::sample::select(
        &[
            "run", "check", "compare", "races", "predict", "confirm", "fmt", "parse", "bench",
        ][..],
    )
    .prop_flat_map(|cmd| (Just(cmd), flags(cmd)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Every subcommand with random flags and numbers ends with a
    /// documented exit code, never a panic (101) or a signal (abort,
    /// stack overflow).
    #[test]
    fn every_command_exits_with_a_documented_code((cmd, flags) in command()) {
        let mut args: Vec<String> = vec![cmd.to_string()];
        args.extend(flags);
        // A small test, so that any valid combination ends quickly.
        args.push("litmus/classic/SB.litmus".to_string());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = binary(&args);
        prop_assert!(
            matches!(r.code, Some(0..=3)),
            "{args:?} ended with {:?}:\n{}{}", r.code, r.out, r.err
        );
        prop_assert!(!r.err.contains("panicked"), "{args:?}:\n{}", r.err);
    }
}

/// The same, on inputs that are not litmus tests at all.
#[test]
fn odd_inputs_are_input_errors() {
    let dir = support::scratch("odd-inputs");
    let empty = dir.join("empty.litmus");
    std::fs::write(&empty, "").unwrap();
    let binary_junk = dir.join("junk.litmus");
    std::fs::write(&binary_junk, [0u8, 159, 146, 150, 255, 0, 1]).unwrap();
    for file in [&empty, &binary_junk, &dir.join("missing.litmus")] {
        let file = file.to_string_lossy().into_owned();
        for cmd in [
            "run", "check", "parse", "fmt", "compare", "races", "predict",
        ] {
            let r = binary(&[cmd, &file]);
            assert_eq!(r.code, Some(2), "{cmd} {file}: {r:?}");
        }
    }
    let r = binary_in(None, &["run", "-"], b"\xff\xfe");
    assert_eq!(r.code, Some(2), "{r:?}");
}

/// What is not a regular file is refused by name before it is opened:
/// `/dev/zero` used to be read until memory ran out, and a named pipe
/// blocked relaxlab forever (opening one waits for a writer). A file of
/// more than 256 MiB, or as much on standard input, is refused too.
#[cfg(unix)]
#[test]
fn special_files_and_huge_files_are_refused() {
    let dir = support::scratch("special-files");
    let within = std::time::Duration::from_secs(60);
    let refused = |args: &[&str], says: &str| {
        let r = support::binary_within(None, args, within)
            .unwrap_or_else(|| panic!("relaxlab {args:?} did not end within {within:?}"));
        assert_eq!(r.code, Some(2), "{args:?}: {r:?}");
        assert!(support::flat(&r.err).contains(says), "{args:?}: {}", r.err);
        // `check` lists the file it cannot check.
        assert!(
            r.out.is_empty() || args[0] == "check",
            "{args:?}: {}",
            r.out
        );
    };
    refused(
        &["parse", "/dev/zero"],
        "/dev/zero is not a regular file: it is a character device",
    );
    let fifo = dir.join("fifo.litmus");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let fifo = fifo.to_string_lossy().into_owned();
    for args in [
        &["parse"][..],
        &["run"],
        &["check"],
        &["fmt"],
        &["repair", "--model", "tso"],
    ] {
        refused(
            &[args, &[fifo.as_str()]].concat(),
            "is not a regular file: it is a named pipe (FIFO)",
        );
    }
    refused(
        &["parse", &fifo],
        "name `-` instead and redirect standard input from it (`- <",
    );
    // Found in a directory, it is refused when read.
    refused(
        &["run", &dir.to_string_lossy()],
        "it is a named pipe (FIFO)",
    );
    refused(
        &["repair", "litmus/classic", "--model", "tso"],
        "litmus/classic is not a regular file: it is a directory",
    );
    refused(
        &["run", "litmus/classic/SB.litmus", "--cat", "/dev/zero"],
        "cannot read /dev/zero: it is a character device, not a regular file",
    );
    // A sparse file: its size costs no disk.
    let big = dir.join("big.litmus");
    std::fs::File::create(&big)
        .unwrap()
        .set_len((256 << 20) + 1)
        .unwrap();
    refused(
        &["parse", &big.to_string_lossy()],
        "big.litmus holds more than 256 MiB",
    );
    let r = shell("parse -", "< /dev/zero");
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(
        r.err.contains("<stdin> holds more than 256 MiB"),
        "{}",
        r.err
    );
}

/// `serve` refuses numbers that would leave it unable to answer (no worker,
/// no running slot, no time) or spawn thousands of threads, before it
/// listens.
#[test]
fn serve_validates_its_numbers() {
    for flag in [
        "--jobs=0",
        "--jobs=4294967296",
        "--max-running=0",
        "--request-timeout=0",
        "--max-states=0",
        "--max-candidates=0",
        "--max-request-bytes=0",
    ] {
        let r = binary(&["serve", "--port=0", flag]);
        assert_eq!(r.code, Some(2), "serve {flag}:\n{}{}", r.out, r.err);
    }
}

/// A shell command line running the relaxlab binary with `args`, from the
/// repository root.
fn shell(args: &str, redirect: &str) -> Ran {
    let script = format!("exec \"$0\" {args} {redirect}");
    let output = Command::new("sh")
        .args(["-c", &script, env!("CARGO_BIN_EXE_relaxlab")])
        .current_dir(support::root())
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    Ran {
        code: output.status.code(),
        out: String::from_utf8_lossy(&output.stdout).into_owned(),
        err: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// A write to standard output that fails is an output error (4) with a
/// diagnostic, from every command: `run` used to print the bare OS error
/// and exit 2 (input error), `--help` to exit 0 with its text lost.
#[test]
fn a_full_standard_output_is_an_output_error() {
    for args in [
        "run litmus/classic/SB.litmus --model tso",
        "check litmus/classic/SB.litmus",
        "parse litmus/classic/SB.litmus",
        "--help",
    ] {
        let r = shell(args, ">/dev/full");
        assert_eq!(r.code, Some(4), "{args}: {r:?}");
        assert!(
            r.err.contains("cannot write to standard output")
                && r.err.contains("No space left on device"),
            "{args}: {r:?}"
        );
        assert!(!r.err.contains("panicked"), "{args}: {r:?}");
    }
}

/// A reader that went away ends relaxlab quietly with 141 (128 + SIGPIPE,
/// as shells show `yes | head`): it used to exit 0, as if the command had
/// finished and found nothing wrong. The pipe's reader (`true`) has ended
/// before relaxlab starts, so the first write fails, whatever the timing.
#[test]
fn a_broken_pipe_ends_relaxlab_quietly_with_141() {
    let mut reader = Command::new("true")
        .stdin(Stdio::piped())
        .spawn()
        .expect("true runs");
    let pipe = reader.stdin.take().unwrap();
    reader.wait().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_relaxlab"))
        .args(["check", "litmus/classic"])
        .current_dir(support::root())
        .stdout(Stdio::from(pipe))
        .stderr(Stdio::piped())
        .output()
        .expect("relaxlab runs");
    assert_eq!(output.status.code(), Some(141), "{output:?}");
    assert!(output.stderr.is_empty(), "{output:?}");
}

/// A closed standard output (`>&-`) cannot be seen: the Rust runtime
/// reopens it on `/dev/null` before `main`, as a caller that discards the
/// output would open it (Python's `subprocess.DEVNULL`), so the command
/// runs and exits with its own code, silently (book: cli.md, exit codes).
#[test]
fn a_closed_standard_output_discards_the_results() {
    let r = shell("run litmus/classic/SB.litmus --model tso", ">&-");
    assert_eq!(r.code, Some(0), "{r:?}");
    assert_eq!((r.out.as_str(), r.err.as_str()), ("", ""), "{r:?}");
    let r = shell("check tests/bad/lex_nbsp.litmus", ">&-");
    assert_eq!(r.code, Some(2), "{r:?}");
}
