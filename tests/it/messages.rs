//! Messages a person reads: errors name what failed and where, once;
//! empty results say why; counts agree with their nouns.

use crate::support;

use crate::support::{binary_in, relaxlab};

const SB: &str = "litmus/classic/SB.litmus";

#[test]
fn an_unwritable_dot_file_is_named_before_anything_runs() {
    let (code, out, err) = relaxlab(&[
        "run",
        SB,
        "--axiomatic",
        "tso",
        "--dot",
        "/no/such/dir/x.dot",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("/no/such/dir/x.dot"), "{err}");
    assert!(
        out.is_empty(),
        "the table was printed before the error:\n{out}"
    );
    let (code, _, err) = relaxlab(&[
        "compare",
        SB,
        "--models",
        "tso",
        "--dot",
        "/no/such/dir/y.dot",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("/no/such/dir/y.dot"), "{err}");
}

#[test]
fn an_io_error_is_said_once() {
    let (code, _, err) = relaxlab(&["run", "no/such/file.litmus"]);
    assert_eq!(code, 2);
    assert_eq!(
        err.matches("No such file or directory").count(),
        1,
        "the OS message is repeated:\n{err}"
    );
    assert!(err.contains("no/such/file.litmus"), "{err}");
}

#[test]
fn a_file_that_is_not_utf8_gets_the_offset_of_the_bad_byte() {
    let (code, _, err) = relaxlab(&["parse", "tests/inputs/not-utf8.litmus"]);
    assert_eq!(code, 2);
    assert!(err.contains("not UTF-8"), "{err}");
    assert!(err.contains("byte 47"), "{err}");
    assert!(err.contains("not-utf8.litmus:1:48"), "{err}");
}

/// A UTF-8 byte order mark at the start of a file (some editors write
/// one) is dropped where files are read: relaxlab's own format, herd7's C
/// and X86 and cat models read as without it, and a diagnostic's line
/// and column are those of the text (it used to be `unexpected
/// character` on an invisible one, five errors for a herd7 test).
#[test]
fn a_byte_order_mark_at_the_start_of_a_file_is_ignored() {
    let dir = support::scratch("bom");
    let with_bom = |from: &str, name: &str| {
        let text = std::fs::read(support::root().join(from)).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, [b"\xef\xbb\xbf".as_slice(), &text].concat()).unwrap();
        path.to_string_lossy().into_owned()
    };
    for (from, model) in [
        (SB, "tso"),
        ("litmus/herd/c/SB.litmus", "tso"),
        ("litmus/herd/x86/SB.litmus", "tso"),
    ] {
        let bom = with_bom(from, "SB.litmus");
        let (code, out, err) = relaxlab(&["run", &bom, "--model", model]);
        let (_, plain, _) = relaxlab(&["run", from, "--model", model]);
        assert_eq!((code, err.as_str()), (0, ""), "{from}");
        assert_eq!(out.replace(&bom, from), plain, "{from}");
    }
    let cat = with_bom("cat/tso.cat", "tso.cat");
    let (code, _, err) = relaxlab(&["run", SB, "--cat", &cat, "--cat-path", "cat"]);
    assert_eq!((code, err.as_str()), (0, ""));
    std::fs::write(
        dir.join("bad.litmus"),
        "\u{feff}test T\nthread P0 { r0 = ; }\n",
    )
    .unwrap();
    let bad = dir.join("bad.litmus").to_string_lossy().into_owned();
    let (code, _, err) = relaxlab(&["parse", &bad]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.litmus:2:18"), "{err}");
    assert!(!err.contains("unexpected character"), "{err}");
}

/// A control character in a test name (ESC would start a terminal escape
/// sequence wherever the name is printed) is refused, in relaxlab's
/// format and in herd7's header alike, and the diagnostic names it by
/// its escape, not the raw byte. Names used to take every non-blank
/// character, ESC included.
#[test]
fn a_control_character_in_a_test_name_is_refused_and_named_by_its_escape() {
    let dir = support::scratch("control");
    for (name, text) in [
        (
            "own.litmus",
            "test A\u{1b}[31m\ninit { x = 0; }\nthread P0 { store(x, 1); }\nexists (x = 1)\n",
        ),
        (
            "herd.litmus",
            "C A\u{1b}[31m\n{ x = 0; }\nP0 (atomic_int* x) { atomic_store(x, 1); }\nexists (x=1)\n",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let path = path.to_string_lossy().into_owned();
        let (code, out, err) = relaxlab(&["run", &path, "--model", "sc"]);
        assert_eq!(code, 2, "{name}: {out}{err}");
        assert!(
            err.contains("unexpected character `\\u{1b}`"),
            "{name}: {err}"
        );
        assert!(out.is_empty(), "{name}: {out}");
    }
}

#[test]
fn a_bad_model_in_relaxlab_toml_points_into_the_toml() {
    let dir = support::scratch("bad-config-model");
    std::fs::write(
        dir.join("relaxlab.toml"),
        "# project defaults\nmodels = [\"sc\", \"tos\"]\n",
    )
    .unwrap();
    let sb = support::root().join(SB).to_string_lossy().into_owned();
    let r = binary_in(Some(&dir), &["run", &sb], b"");
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(r.err.contains("relaxlab.toml:2:"), "{}", r.err);
    assert!(r.err.contains("did you mean `tso`"), "{}", r.err);
    std::fs::write(dir.join("relaxlab.toml"), "jobs = 0\n").unwrap();
    let r = binary_in(Some(&dir), &["run", &sb], b"");
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(r.err.contains("relaxlab.toml:1:"), "{}", r.err);
    // An array left open at the end of the file: the error says what
    // TOML expected, and the label points at the last character written,
    // not past the end of the file.
    std::fs::write(dir.join("relaxlab.toml"), "models = [\"sc\", \"tso\"\n").unwrap();
    let r = binary_in(Some(&dir), &["run", &sb], b"");
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(r.err.contains("expected `]`"), "{}", r.err);
    assert!(r.err.contains("relaxlab.toml:1:21]"), "{}", r.err);
}

/// relaxlab run in `dir` with `RELAXLAB_CONFIG` set to `config`.
fn run_with_config(dir: &std::path::Path, config: &str, args: &[&str]) -> support::Ran {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_relaxlab"))
        .args(args)
        .current_dir(dir)
        .env("RELAXLAB_CONFIG", config)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("relaxlab runs");
    support::Ran {
        code: output.status.code(),
        out: String::from_utf8_lossy(&output.stdout).into_owned(),
        err: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// A broken `relaxlab.toml` in a parent directory stopped every command
/// run below it, flags or not, and its error said only what was wrong
/// with it: the error now says how to run past it, and
/// `RELAXLAB_CONFIG=none` does (a path reads that file instead).
#[test]
fn a_broken_relaxlab_toml_above_can_be_bypassed_and_says_how() {
    let dir = support::scratch("config-bypass");
    let below = dir.join("work").join("tests");
    std::fs::create_dir_all(&below).unwrap();
    std::fs::write(dir.join("relaxlab.toml"), "models = \"tso\"\n").unwrap();
    let sb = support::root().join(SB).to_string_lossy().into_owned();
    let args = ["run", sb.as_str(), "--model", "sc"];
    let r = binary_in(Some(&below), &args, b"");
    assert_eq!(r.code, Some(2), "{r:?}");
    let err = support::flat(&r.err);
    assert!(
        err.contains("RELAXLAB_CONFIG=none runs without"),
        "{}",
        r.err
    );

    let r = run_with_config(&below, "none", &args);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.out.contains("SB under sc (exhaustive)"), "{}", r.out);

    // Another file, relative to the current directory: its models run.
    std::fs::write(below.join("mine.toml"), "models = [\"pso\"]\n").unwrap();
    let r = run_with_config(&below, "mine.toml", &["run", &sb]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.out.contains("SB under pso (exhaustive)"), "{}", r.out);

    // A file that is not there is named, with the same way out.
    let r = run_with_config(&below, "missing.toml", &["run", &sb]);
    assert_eq!(r.code, Some(2), "{r:?}");
    let err = support::flat(&r.err);
    assert!(
        err.contains("cannot read") && err.contains("missing.toml"),
        "{}",
        r.err
    );
    assert!(err.contains("RELAXLAB_CONFIG=none"), "{}", r.err);

    // The other kinds of error say it too.
    for text in ["jobs = 0\n", "models = [\"sc\", \"sc\"]\n"] {
        std::fs::write(dir.join("relaxlab.toml"), text).unwrap();
        let r = binary_in(Some(&below), &args, b"");
        assert_eq!(r.code, Some(2), "{r:?}");
        assert!(
            support::flat(&r.err).contains("RELAXLAB_CONFIG=none runs without"),
            "{text}: {}",
            r.err
        );
    }
}

/// A model named twice in `relaxlab.toml` is labelled where it is named
/// again, and where first: the diagnostic had no source at all.
#[test]
fn a_model_named_twice_in_relaxlab_toml_is_labelled_both_times() {
    let dir = support::scratch("config-model-twice");
    std::fs::write(
        dir.join("relaxlab.toml"),
        "# project defaults\nmodels = [\"sc\", \"tso\",\n  \"sc\"]\n",
    )
    .unwrap();
    let sb = support::root().join(SB).to_string_lossy().into_owned();
    let r = binary_in(Some(&dir), &["run", &sb], b"");
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(r.err.contains("relaxlab::model::twice"), "{}", r.err);
    assert!(
        support::flat(&r.err).contains("model `sc` is named twice"),
        "{}",
        r.err
    );
    assert!(r.err.contains("relaxlab.toml:3:3]"), "{}", r.err);
    assert!(r.err.contains("named again here"), "{}", r.err);
    assert!(r.err.contains("first named here"), "{}", r.err);
    // `rc11` and `ax.rc11` are one axiomatic model.
    std::fs::write(
        dir.join("relaxlab.toml"),
        "axiomatic = [\"rc11\", \"ax.rc11\"]\n",
    )
    .unwrap();
    let r = binary_in(Some(&dir), &["run", &sb], b"");
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(r.err.contains("relaxlab.toml:1:22]"), "{}", r.err);
}

#[test]
fn a_program_where_no_execution_ends_says_so() {
    let (code, out, _) = relaxlab(&["run", "tests/inputs/join-spin.litmus", "--model", "sc"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("no execution ends"), "{out}");
}

#[test]
fn no_outcome_and_no_condition_claim_no_verdict() {
    let src = std::fs::read_to_string(support::root().join("tests/inputs/join-spin.litmus"))
        .unwrap()
        .replace("exists (x = 1)", "");
    let r = binary_in(None, &["run", "-", "--model", "sc"], src.as_bytes());
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(
        r.out.starts_with("join-spin under sc (exhaustive)\n"),
        "{}",
        r.out
    );
    assert!(r.out.contains("no execution ends"), "{}", r.out);
    let r = binary_in(
        None,
        &["run", "-", "--model", "sc", "--format", "json"],
        src.as_bytes(),
    );
    let json: serde_json::Value = serde_json::from_str(&r.out).expect("JSON");
    assert_eq!(json[0]["verdict"], serde_json::Value::Null, "{}", r.out);
}

#[test]
fn check_does_not_judge_a_condition_the_test_lacks_even_with_no_outcome() {
    // The verdict lives in the table: `check` once read "no outcome" as
    // `never` and passed this expectation.
    let src = std::fs::read_to_string(support::root().join("tests/inputs/join-spin.litmus"))
        .unwrap()
        .replace("exists (x = 1)", "expect { sc: never; }");
    let r = binary_in(None, &["check", "-"], src.as_bytes());
    assert_eq!(r.code, Some(1), "{}{}", r.out, r.err);
    assert!(
        r.out
            .contains("sc: the test has no final condition to judge"),
        "{}",
        r.out
    );
}

#[test]
fn counts_agree_with_their_nouns() {
    let (_, out, _) = relaxlab(&["parse", "tests/inputs/join-spin.litmus"]);
    assert!(out.contains("0 expectations"), "{out}");
    assert!(
        !out.contains("1 locations") && !out.contains("1 threads"),
        "{out}"
    );
    let (_, out, _) = relaxlab(&["parse", "tests/inputs/assert-unexpected.litmus"]);
    assert!(out.contains(" 1 location,"), "{out}");
    let dir = support::scratch("one-expectation");
    let one = dir.join("one.litmus");
    let text =
        std::fs::read_to_string(support::root().join("tests/inputs/assert-unexpected.litmus"))
            .unwrap();
    std::fs::write(&one, format!("{text}expect {{ sc: always; }}\n")).unwrap();
    let (_, out, _) = relaxlab(&["check", &one.to_string_lossy()]);
    assert!(out.contains("(1 expectation)"), "{out}");
    let (_, out, _) = relaxlab(&[
        "run",
        "tests/inputs/assert-unexpected.litmus",
        "--axiomatic",
        "sc",
        "--max-candidates",
        "1",
    ]);
    assert!(
        out.contains(" 1 candidate,") || out.contains(" 1 candidate\n"),
        "{out}"
    );
    assert!(!out.contains(" 1 candidates"), "{out}");
}

/// The source lines a diagnostic shows hold no control character but tab
/// and line feed, whatever the input: relaxlab's format, herd7's C and
/// X86, cat models, `relaxlab.toml`, a file that is not UTF-8. A comment
/// holding `ESC[2J` used to clear the terminal when its line was shown.
/// Each hidden character becomes one `?` per byte, so the diagnostic is
/// the one the file with those `?` written in would get: every label
/// stays where it was. A string in a message is shown with escapes.
#[test]
fn diagnostics_show_no_control_characters_from_the_source() {
    let dir = support::scratch("control-characters");
    let shown = |text: &str| -> String {
        text.chars()
            .map(|c| match c {
                '\t' | '\n' => c.to_string(),
                '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => "???".to_string(),
                c if c.is_control() => "?".repeat(c.len_utf8()),
                c => c.to_string(),
            })
            .collect()
    };
    let clean = |err: &str| {
        err.chars()
            .all(|c| c == '\n' || !(c.is_control() || ('\u{202a}'..='\u{202e}').contains(&c)))
    };
    let dirty = "\u{1b}[2J\u{1b}]0;PWNED\u{7}\u{0}\u{7f}\u{9b}2J\u{202e}";
    // A file with `dirty` in a comment on a line the diagnostic shows,
    // then the same file with `?` in its place: the same diagnostic.
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        (
            "own.litmus",
            format!(
                "test T\ninit {{ x = 0; }}\nthread P0 {{ store(x, 1, rlx); }} // {dirty}\nthread P1 {{ r0 = load(x, rlx) }}\n"
            ),
            vec!["parse"],
        ),
        (
            "herd-c.litmus",
            format!(
                "C T\n{{ x = 0; }}\nP0 (atomic_int* x) {{ // {dirty}\n  atomic_store(x, 1) }}\nexists (x=1)\n"
            ),
            vec!["parse"],
        ),
        (
            "herd-x86.litmus",
            format!("X86 T\n{{ x = 0; }}\n P0 ; (* {dirty} *)\n FOO [x],$1 ;\nexists (x=1)\n"),
            vec!["parse"],
        ),
        (
            "model.cat",
            format!("\"T\"\n(* {dirty} *) acyclic po | undefined as t\n"),
            vec!["run", "litmus/classic/SB.litmus", "--cat"],
        ),
    ];
    for (name, text, args) in cases {
        let path = dir.join(name);
        let path_s = path.to_string_lossy().into_owned();
        let all = [&args[..], &[path_s.as_str()]].concat();
        std::fs::write(&path, &text).unwrap();
        let (code, _, err) = relaxlab(&all);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(clean(&err), "{name}: {err:?}");
        assert!(err.contains("?[2J?]0;PWNED?????2J???"), "{name}: {err}");
        std::fs::write(&path, shown(&text)).unwrap();
        let (_, _, plain) = relaxlab(&all);
        assert_eq!(err, plain, "{name}");
    }
    // relaxlab.toml: the line before the error is shown with it.
    let sb = support::root().join(SB).to_string_lossy().into_owned();
    let toml = format!("# {dirty}\njobs = 0\n");
    std::fs::write(dir.join("relaxlab.toml"), &toml).unwrap();
    let r = binary_in(Some(&dir), &["run", &sb], b"");
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(clean(&r.err), "{:?}", r.err);
    assert!(r.err.contains("# ?[2J?]0;PWNED?????2J???"), "{}", r.err);
    std::fs::remove_file(dir.join("relaxlab.toml")).unwrap();
    // Random bytes: not UTF-8, and the source shown around the bad byte
    // holds NUL, ESC and a carriage return.
    let junk = dir.join("junk.litmus");
    std::fs::write(&junk, b"test T\x00\x1b[2J\r\x07 \xff\x1b]0;x\x07\n").unwrap();
    let (code, _, err) = relaxlab(&["parse", &junk.to_string_lossy()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not UTF-8"), "{err}");
    assert!(clean(&err), "{err:?}");
    // A string in a message.
    let r = binary_in(
        None,
        &["parse", "-"],
        b"test T\ninit { x = 0; }\nthread P0 { store(x, 1, rlx); }\nexists (x = 1) \"a\x1b[2Jb\"\n",
    );
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(clean(&r.err), "{:?}", r.err);
    assert!(r.err.contains("string \"a\\u{1b}[2Jb\""), "{}", r.err);
}

/// A file whose lines end in a carriage return alone (classic Mac OS) is
/// refused at its first such line, with the help line saying so: its
/// first `//` comment ran to the end of the file, and relaxlab said `the
/// file holds no test, only comments`. CR LF still reads.
#[test]
fn lines_ending_in_a_carriage_return_alone_are_refused_and_named() {
    let dir = support::scratch("cr-line-ends");
    let relaxlab_sb = std::fs::read_to_string(support::root().join(SB)).unwrap();
    let herd_sb = std::fs::read_to_string(support::root().join("litmus/herd/c/SB.litmus")).unwrap();
    for (name, lf) in [
        ("own.litmus", format!("// SB\n{relaxlab_sb}")),
        ("herd.litmus", herd_sb.replace("\n{", "\n// SB\n{")),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, lf.replace('\n', "\r")).unwrap();
        let path = path.to_string_lossy().into_owned();
        for cmd in ["parse", "run", "check", "fmt"] {
            let (code, out, err) = relaxlab(&[cmd, &path]);
            assert_eq!(code, 2, "{cmd} {name}: {out}{err}");
            let flat = support::flat(&err);
            assert!(
                flat.contains(
                    "ends its lines with a carriage return alone (classic Mac OS line endings)"
                ),
                "{cmd} {name}: {err}"
            );
            assert!(!flat.contains("holds no test"), "{cmd} {name}: {err}");
        }
        let (_, _, err) = relaxlab(&["parse", &path]);
        let first = lf.lines().next().unwrap().chars().count();
        assert!(
            err.contains(&format!("{name}:1:{}]", first + 1)),
            "the label is not at the end of line 1: {err}"
        );
        assert!(
            err.contains(" 2 │ "),
            "the lines are not shown apart: {err}"
        );
        assert!(
            support::flat(&err).contains("tr '\\r' '\\n' < OLD > NEW"),
            "{err}"
        );
        let crlf = lf.replace('\n', "\r\n");
        std::fs::write(dir.join(name), &crlf).unwrap();
        let (code, _, err) = relaxlab(&["parse", &path]);
        assert_eq!(code, 0, "{name} with CR LF: {err}");
        let r = binary_in(None, &["parse", "-"], lf.replace('\n', "\r").as_bytes());
        assert_eq!(r.code, Some(2), "{r:?}");
        assert!(
            r.err
                .contains("<stdin> ends its lines with a carriage return alone"),
            "{}",
            r.err
        );
    }
}

/// `repair --format json` counts its undecided placements with the noun
/// the table uses: it said `1 placements undecided`.
#[test]
fn repair_json_bounds_agree_with_their_nouns() {
    // 25 states leave exactly one placement of SB's undecided under TSO.
    let (code, out, err) = relaxlab(&[
        "repair",
        SB,
        "--model",
        "tso",
        "--max-states",
        "25",
        "--format",
        "json",
    ]);
    assert_eq!(code, 3, "{out}{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let bounds: Vec<&str> = json["bounds"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b.as_str())
        .collect();
    assert!(
        bounds.contains(&"1 placement undecided (a run hit a bound)"),
        "{bounds:?}"
    );
    let (_, table, _) = relaxlab(&["repair", SB, "--model", "tso", "--max-states", "25"]);
    assert!(table.contains("  1 placement undecided "), "{table}");
}

/// Model names: one in other case is suggested (`--model TSO` got no
/// suggestion), and an empty one, from two commas in a row, is called so
/// (it was "unknown operational model ``", did you mean `sc`?).
#[test]
fn model_names_in_other_case_or_empty_are_named_helpfully() {
    let (code, _, err) = relaxlab(&["run", SB, "--model", "TSO"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `tso`?"), "{err}");
    let (code, _, err) = relaxlab(&["run", SB, "--axiomatic", "RC11"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `rc11`?"), "{err}");
    let (code, _, err) = relaxlab(&["run", SB, "--model", "tso,,pso"]);
    assert_eq!(code, 2);
    assert!(err.contains("an empty operational model name"), "{err}");
    assert!(err.contains("one comma between two names"), "{err}");
    assert!(!err.contains("did you mean"), "{err}");
    let (code, _, err) = relaxlab(&["compare", SB, "--models", "PSO"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `pso`?"), "{err}");
}

/// Threads are numbered in the order declared: with `thread P1` first,
/// `1:r0` names `P0`. That runs, but is warned about, at the number.
#[test]
fn a_thread_number_naming_another_p_thread_is_warned_about() {
    let dir = support::scratch("thread-numbers");
    let file = dir.join("swapped.litmus");
    std::fs::write(
        &file,
        "test Swapped\ninit { x = 0; }\nthread P1 { r0 = load(x, rlx); }\nthread P0 { store(x, 1, rlx); r0 = load(x, rlx); }\nexists (1:r0 = 1)\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    for command in ["run", "check"] {
        let (code, _, err) = relaxlab(&[command, path]);
        assert_eq!(code, 0, "{command}: {err}");
        let err = support::flat(&err);
        assert!(
            err.contains("`1:` names thread 1, which is `P0`, not `P1`"),
            "{command}: {err}"
        );
        assert!(err.contains("`P1` is thread 0"), "{command}: {err}");
    }
    let (_, _, err) = relaxlab(&["run", "litmus/classic/MP.litmus"]);
    assert!(err.is_empty(), "{err}");
}

/// A missing include of a cat model named without a directory said
/// "looked in ;": the current directory, which it names `.`.
#[test]
fn a_missing_include_names_where_it_was_looked_for() {
    let dir = support::scratch("cat-include");
    std::fs::write(
        dir.join("m.cat"),
        "include \"nothere.cat\"\nacyclic po | rf as x\n",
    )
    .unwrap();
    let sb = support::root().join(SB).to_string_lossy().into_owned();
    let r = binary_in(Some(&dir), &["run", &sb, "--cat", "m.cat"], b"");
    assert_eq!(r.code, Some(2), "{r:?}");
    let err = support::flat(&r.err);
    assert!(err.contains("looked in .; add a directory"), "{err}");
}

/// A `[cat]` model of relaxlab.toml that cannot be read is said so: `check`
/// said "a cat model does not compile".
#[test]
fn a_missing_cat_model_of_relaxlab_toml_is_named_as_unreadable() {
    let dir = support::scratch("config-cat-missing");
    std::fs::write(
        dir.join("relaxlab.toml"),
        "[cat]\nmine = \"models/none.cat\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("T.litmus"),
        "test T\ninit { x = 0; }\nthread P0 { r0 = load(x, rlx); }\nexists (P0:r0 = 0)\nexpect { cat.mine: always; }\n",
    )
    .unwrap();
    let r = binary_in(Some(&dir), &["check", "T.litmus"], b"");
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(!r.out.contains("does not compile"), "{}", r.out);
    assert!(
        support::flat(&r.out).contains("a cat model it names: cannot read"),
        "{}",
        r.out
    );
    assert!(r.out.contains("none.cat"), "{}", r.out);
}

/// A `~exists` table read backwards: under tso it said `1 satisfying the
/// condition` and starred the row that contradicts it. The condition line
/// now says whether a `~exists` or `forall` condition holds (herd7's Ok
/// and No), and the footer counts the rows that contradict it, the ones
/// starred.
#[test]
fn not_exists_and_forall_tables_say_whether_the_condition_holds() {
    let dir = support::scratch("quantifiers");
    let sb = std::fs::read_to_string(support::root().join(SB)).unwrap();
    let not_exists = dir.join("SB-not-exists.litmus");
    std::fs::write(&not_exists, sb.replace("\nexists", "\n~exists")).unwrap();
    let (code, out, err) = relaxlab(&["run", not_exists.to_str().unwrap(), "--model", "sc,tso"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("~exists (P0:r0 = 0 /\\ P1:r0 = 0): holds (Ok)\n"),
        "{out}"
    );
    assert!(
        out.contains("~exists (P0:r0 = 0 /\\ P1:r0 = 0): fails (No)\n"),
        "{out}"
    );
    assert!(out.contains("  *     0      0  non-SC\n"), "{out}");
    assert!(
        out.contains("4 outcomes, 1 contradicting the condition;"),
        "{out}"
    );
    assert!(!out.contains("satisfying"), "{out}");

    let forall = dir.join("SB-forall.litmus");
    std::fs::write(
        &forall,
        sb.replace(
            "\nexists (P0:r0 = 0 /\\ P1:r0 = 0)",
            "\nforall (P0:r0 = 1 \\/ P1:r0 = 1)",
        ),
    )
    .unwrap();
    let (code, out, err) = relaxlab(&["run", forall.to_str().unwrap(), "--model", "sc,tso"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1): holds (Ok)\n"), "{out}");
    assert!(out.contains("1): fails (No)\n"), "{out}");
    assert!(out.contains("  *     0      0  non-SC\n"), "{out}");
    assert!(
        out.contains("3 outcomes, 0 contradicting the condition;"),
        "{out}"
    );
    assert!(
        out.contains("4 outcomes, 1 contradicting the condition;"),
        "{out}"
    );

    // Sampling that saw no counterexample decides nothing.
    let (_, out, _) = relaxlab(&[
        "run",
        not_exists.to_str().unwrap(),
        "--model",
        "sc",
        "--sample",
        "5",
    ]);
    assert!(
        out.contains("undecided: no counterexample in 5 runs"),
        "{out}"
    );
}

/// A file with no `expect` entry checks nothing: `check` said `ok ... (0
/// expectations)` and counted it as passed.
#[test]
fn check_does_not_count_a_file_without_expectations_as_passed() {
    let dir = support::scratch("no-expectations");
    let file = dir.join("plain.litmus");
    std::fs::write(
        &file,
        "test Plain\ninit { x = 0; }\nthread P0 { store(x, 1, rlx); }\nexists (x = 1)\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let (code, out, err) = relaxlab(&["check", path]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("ok "), "{out}");
    assert!(out.contains("no `expect` entry, nothing checked"), "{out}");
    assert!(
        out.ends_with("0 passed, 0 failed, 1 with nothing to check\n"),
        "{out}"
    );
    let (_, out, _) = relaxlab(&["check", path, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["files"][0]["status"], "unchecked", "{out}");
    assert_eq!(
        (v["passed"].as_u64(), v["unchecked"].as_u64()),
        (Some(0), Some(1))
    );
}

/// `run --help` did not say which model runs when none is named.
#[test]
fn run_help_says_which_model_runs_by_default() {
    let (code, out, _) = relaxlab(&["run", "--help"]);
    assert_eq!(code, 0);
    assert!(
        support::flat(&out).contains("Without --model, --axiomatic or --cat: the `models` and `axiomatic` of relaxlab.toml, else sc"),
        "{out}"
    );
}

/// `models = "tso"` in relaxlab.toml said `expected a sequence` and
/// listed the keys, not what their values are.
#[test]
fn a_relaxlab_toml_value_of_the_wrong_type_is_told_the_types() {
    let dir = support::scratch("config-types");
    std::fs::write(dir.join("relaxlab.toml"), "models = \"tso\"\n").unwrap();
    std::fs::copy(support::root().join(SB), dir.join("SB.litmus")).unwrap();
    let r = binary_in(Some(&dir), &["run", "SB.litmus"], b"");
    assert_eq!(r.code, Some(2), "{}", r.err);
    let err = support::flat(&r.err);
    assert!(err.contains("expected a sequence"), "{err}");
    assert!(
        err.contains("models = [\"sc\", \"tso\"] and axiomatic = [\"rc11\"] (lists of names)"),
        "{err}"
    );
}

/// A loop whose states never repeat: every iteration stores a new value.
const COUNTER: &str = "test counter\n\ninit { x = 0; }\n\nthread P0 {\n  while (1) {\n    r0 = load(x, rlx);\n    store(x, r0 + 1, rlx);\n  }\n}\n";

/// An endless counter loop under sc has one new state per step: it ran
/// until the 10,000,000-state bound, about a minute and over a gigabyte,
/// and the bound's message did not say why. The depth bound stops it at
/// once and says what gets that deep, in every format, with exit code 3.
#[test]
fn an_endless_counter_loop_stops_at_the_depth_bound_which_says_why() {
    let dir = support::scratch("counter-loop");
    let file = dir.join("counter.litmus");
    std::fs::write(&file, COUNTER).unwrap();
    let file = file.to_string_lossy().into_owned();
    // The default bound.
    let (code, out, err) = relaxlab(&["run", &file]);
    assert_eq!(code, 3, "{out}{err}");
    let flat = support::flat(&out);
    assert!(
        flat.contains("PARTIAL: stopped at executions 100000 steps long (--max-depth)"),
        "{out}"
    );
    assert!(flat.contains("keeps growing a counter"), "{out}");
    assert!(flat.contains("100002 states, 100001 transitions"), "{out}");
    // A lower one, in JSON and herd's format.
    let (code, out, err) = relaxlab(&["run", &file, "--max-depth", "100", "--format", "json"]);
    assert_eq!(code, 3, "{out}{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let bound = &json[0]["bounds"][0];
    assert_eq!(bound["kind"], "max-depth", "{json}");
    assert!(bound.to_string().contains("100 steps long"), "{json}");
    let (code, out, err) = relaxlab(&["run", &file, "--max-depth", "100", "--format", "herd"]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.contains("--max-depth"), "{out}");
    // A program that ends is not cut by a bound as deep as its longest
    // execution (SB's under sc: 6 steps, its threads' ends included; the
    // states at the bound's depth are expanded, and only states one step
    // deeper make the result partial), and is by a shallower one.
    let (code, out, err) = relaxlab(&["run", SB, "--max-depth", "6"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, _) = relaxlab(&["run", SB, "--max-depth", "5"]);
    assert_eq!(code, 3, "{out}");
}
