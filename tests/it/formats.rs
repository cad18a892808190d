//! Every output format says no more than relaxlab knows: bounds and
//! interruptions in the table, JSON and herd formats alike; sampling never
//! claims `never`; JSON stays parseable whatever the flags; DOT graphs say
//! which test, model and outcome they draw.

use crate::support;

use std::collections::BTreeSet;

use crate::support::{binary_in, relaxlab};

const SB: &str = "litmus/classic/SB.litmus";

fn json(out: &str) -> serde_json::Value {
    serde_json::from_str(out).unwrap_or_else(|e| panic!("not JSON ({e}):\n{out}"))
}

#[test]
fn json_with_dot_to_stdout_stays_one_json_document_with_the_graphs_inside() {
    for models in [&["--model", "tso"][..], &["--axiomatic", "tso"][..]] {
        let mut args = vec!["run", SB, "--format", "json", "--dot", "-"];
        args.extend_from_slice(models);
        let (code, out, err) = relaxlab(&args);
        assert_eq!(code, 0, "{err}");
        let v = json(&out);
        let graphs = v[0]["graphs"].as_array().expect("a `graphs` array");
        assert_eq!(graphs.len(), 4, "{out}");
        assert!(
            graphs[0]["dot"].as_str().unwrap().contains("digraph"),
            "{out}"
        );
    }
}

#[test]
fn herd_format_states_a_bound_in_a_comment_line() {
    let (code, out, _) = relaxlab(&[
        "run",
        "litmus/bench/bench-SB4x4.litmus",
        "--model",
        "tso",
        "--max-states",
        "1000",
        "--format",
        "herd",
    ]);
    assert_eq!(code, 3);
    assert!(
        out.lines()
            .any(|l| l.starts_with("# ") && l.contains("--max-states")),
        "{out}"
    );
}

#[test]
fn herd_format_names_the_model_of_each_block() {
    let (code, out, _) = relaxlab(&["run", SB, "--model", "sc,tso", "--format", "herd"]);
    assert_eq!(code, 0);
    let blocks: Vec<&str> = out.split("\n\n").filter(|b| !b.trim().is_empty()).collect();
    assert_eq!(blocks.len(), 2, "{out}");
    assert!(
        blocks[0].contains("# model sc") && blocks[1].contains("# model tso"),
        "{out}"
    );
}

#[test]
fn sampling_never_says_never() {
    let (code, out, _) = relaxlab(&["run", SB, "--model", "tso", "--sample", "2"]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("never"), "{out}");
    assert!(out.contains("not observed in 2 runs"), "{out}");
    let (_, out, _) = relaxlab(&[
        "run", SB, "--model", "tso", "--sample", "2", "--format", "herd",
    ]);
    assert!(!out.contains("Never"), "{out}");
    assert!(out.contains("Observation SB Unobserved 0 2"), "{out}");
    let (_, out, _) = relaxlab(&[
        "run", SB, "--model", "tso", "--sample", "2", "--format", "json",
    ]);
    assert_eq!(json(&out)[0]["verdict"], "not observed", "{out}");
}

#[test]
fn sampled_rows_carry_the_non_sc_note_and_witnesses_name_their_run() {
    let (code, out, _) = relaxlab(&[
        "run",
        SB,
        "--model",
        "tso",
        "--sample",
        "1000",
        "--seed",
        "7",
        "--witness",
    ]);
    assert_eq!(code, 0);
    let row = out
        .lines()
        .find(|l| l.starts_with("  *"))
        .unwrap_or_else(|| panic!("no satisfying row:\n{out}"));
    assert!(row.ends_with("non-SC"), "{out}");
    assert!(out.contains("--replay 7:"), "{out}");
    // The index printed replays to the same outcome.
    let at = out.find("--replay 7:").unwrap() + "--replay 7:".len();
    let index: String = out[at..].chars().take_while(char::is_ascii_digit).collect();
    let (_, replayed, _) = relaxlab(&[
        "run",
        SB,
        "--model",
        "tso",
        "--replay",
        &format!("7:{index}"),
    ]);
    assert!(replayed.contains("outcome:"), "{replayed}");
}

/// The `--replay` a sampled witness prints is the command that prints it
/// again: with a strategy other than the default it names it (it used to
/// print `--replay 5:1` alone, which replays under `uniform` and gives
/// another outcome).
#[test]
fn the_replay_hint_of_a_sampled_witness_names_its_strategy() {
    let (code, out, _) = relaxlab(&[
        "run",
        SB,
        "--model",
        "pso",
        "--sample",
        "200",
        "--seed",
        "5",
        "--strategy",
        "delay",
        "--max-steps",
        "500",
        "--witness",
    ]);
    assert_eq!(code, 0, "{out}");
    let mut row = None;
    let mut checked = 0;
    for line in out.lines() {
        // An outcome row: `*` or blanks, then the values.
        let cells = line.trim_start_matches([' ', '*']);
        if cells.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
            let values: Vec<&str> = cells.split_whitespace().take(2).collect();
            row = Some(format!("P0:r0={} P1:r0={}", values[0], values[1]));
        }
        let Some(hint) = line.split_once("(--replay ").map(|(_, h)| h) else {
            continue;
        };
        let hint = hint.trim_end_matches(')');
        assert!(
            hint.ends_with(" --strategy delay --max-steps 500"),
            "{line}"
        );
        let mut args = vec!["run", SB, "--model", "pso", "--replay"];
        args.extend(hint.split(' '));
        let (code, replayed, err) = relaxlab(&args);
        assert_eq!(code, 0, "{err}");
        let expected = row.as_ref().unwrap();
        assert!(
            replayed.contains(&format!("outcome: {expected}\n")),
            "{line} replays to another outcome than {expected}:\n{replayed}"
        );
        checked += 1;
    }
    assert_eq!(checked, 4, "{out}");
}

#[test]
fn dot_graphs_are_named_after_test_model_and_outcome() {
    let (code, out, _) = relaxlab(&[
        "run",
        SB,
        "--model",
        "tso",
        "--axiomatic",
        "tso",
        "--dot",
        "-",
    ]);
    assert_eq!(code, 0);
    let names: Vec<&str> = out.lines().filter(|l| l.starts_with("digraph ")).collect();
    assert_eq!(names.len(), 8, "{out}");
    let distinct: std::collections::BTreeSet<&&str> = names.iter().collect();
    assert_eq!(distinct.len(), 8, "graphs share a name: {names:#?}");
    assert!(
        names.contains(&"digraph \"SB under ax.tso: P0:r0=0 P1:r0=0\" {"),
        "{names:#?}"
    );
    assert!(
        names.contains(&"digraph \"SB under tso: P0:r0=1 P1:r0=1\" {"),
        "{names:#?}"
    );
}

/// `--dot FILE` with several graphs says how to draw them, and that
/// command works: one SVG document per graph (`dot -Tsvg FILE` writes the
/// graphs as one stream of several `<svg>` roots, which no viewer reads,
/// and the book used to recommend it). Without Graphviz the command is
/// not run, off CI only (`.ci/run` installs it).
#[test]
fn a_dot_file_of_several_graphs_says_how_to_draw_each() {
    let dir = std::env::temp_dir().join(format!("relaxlab-dot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("sb.dot");
    let path = file.to_str().unwrap();
    let (code, _, err) = relaxlab(&["run", SB, "--model", "tso", "--dot", path]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!(
            "wrote 4 graphs to {path}; `dot -Tsvg -O {path}` draws each in its own file \
             ({path}.svg, {path}.2.svg, ...)"
        )),
        "{err}"
    );
    // One graph: nothing to say, `dot -Tsvg` draws it as it is.
    let one = dir.join("one.dot");
    let (_, _, err) = relaxlab(&[
        "run",
        "litmus/classic/CoWW.litmus",
        "--axiomatic",
        "sc",
        "--dot",
        one.to_str().unwrap(),
    ]);
    assert!(!err.contains("graphs to"), "{err}");
    match std::process::Command::new("dot")
        .args(["-Tsvg", "-O", path])
        .status()
    {
        Ok(status) => {
            assert!(status.success(), "dot -Tsvg -O failed: {status}");
            let svgs = ["sb.dot.svg", "sb.dot.2.svg", "sb.dot.3.svg", "sb.dot.4.svg"];
            for name in svgs {
                let svg = std::fs::read_to_string(dir.join(name)).unwrap();
                assert_eq!(svg.matches("<svg").count(), 1, "{name}: {svg}");
                assert!(svg.trim_end().ends_with("</svg>"), "{name}");
            }
        }
        Err(e) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must check the drawing command: install graphviz (.ci/run does): {e}"
            );
            eprintln!("SKIPPED drawing the graphs: Graphviz's dot is not installed ({e})");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_compare_and_races_print_json() {
    let (code, out, _) = relaxlab(&["check", SB, "litmus/classic/MP.litmus", "--format", "json"]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v["passed"], 2, "{out}");
    assert_eq!(v["files"][0]["status"], "passed", "{out}");

    let (code, out, _) = relaxlab(&["compare", SB, "--models", "tso,pso", "--format", "json"]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v[0]["test"], "SB", "{out}");
    assert_eq!(v[0]["columns"][1], "ax.tso", "{out}");

    let (code, out, _) = relaxlab(&["races", "litmus/c11/MP+na+rlx.litmus", "--format", "json"]);
    assert_eq!(code, 1);
    let v = json(&out);
    assert!(!v[0]["races"].as_array().unwrap().is_empty(), "{out}");
}

#[test]
fn compare_states_its_bounds() {
    let (code, out, _) = relaxlab(&[
        "compare",
        "litmus/bench/bench-SB4x4.litmus",
        "--models",
        "tso",
        "--max-states",
        "1000",
        "--max-candidates",
        "1000",
    ]);
    assert_eq!(code, 3);
    assert!(
        out.contains("PARTIAL: tso: stopped after 1000 states"),
        "{out}"
    );
}

#[test]
fn time_and_memory_bounds_are_reported_in_every_format() {
    let operational = &["run", "litmus/bench/bench-SB4x4.litmus", "--model", "tso"][..];
    // Seconds of candidates: the axiomatic engine polls the bounds too.
    let axiomatic = &[
        "run",
        "litmus/bench/bench-2+2W4x4.litmus",
        "--axiomatic",
        "rc11",
        "--max-candidates",
        "1000000000",
    ][..];
    for (base, (flags, says)) in [operational, axiomatic].into_iter().flat_map(|base| {
        [
            (&["--timeout", "0.001"][..], "--timeout"),
            (&["--max-memory", "1K"][..], "--max-memory"),
        ]
        .map(|f| (base, f))
    }) {
        let mut args = base.to_vec();
        args.extend_from_slice(flags);
        let (code, out, _) = relaxlab(&args);
        assert_eq!(code, 3, "{out}");
        assert!(out.contains("PARTIAL") && out.contains(says), "{out}");
        args.extend_from_slice(&["--format", "json"]);
        let (code, out, _) = relaxlab(&args);
        assert_eq!(code, 3, "{out}");
        let v = json(&out);
        assert_eq!(v[0]["complete"], false);
        assert!(
            v[0]["bounds"][0]["message"]
                .as_str()
                .unwrap()
                .contains(says),
            "{out}"
        );
        // In place of `--format json`.
        args.truncate(args.len() - 2);
        args.extend_from_slice(&["--format", "herd"]);
        let (code, out, _) = relaxlab(&args);
        assert_eq!(code, 3, "{out}");
        assert!(out.contains("# PARTIAL") && out.contains(says), "{out}");
    }
}

/// A bound's message says what the result lacks beyond it (`races`
/// said "outcomes beyond this point are missing") and names the flag as
/// the user set it (`--max-memory 1K` was called "by default 4/5 of the
/// machine's").
#[test]
fn bounds_say_what_they_cut_and_how_they_were_set() {
    let (code, out, _) = relaxlab(&[
        "races",
        "litmus/bench/bench-SB4x4.litmus",
        "--model",
        "sc",
        "--max-states",
        "100",
    ]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains(
            "PARTIAL: stopped after 100 states (--max-states); races beyond it are missing"
        ),
        "{out}"
    );
    assert!(!out.contains("outcomes"), "{out}");
    let (code, out, _) = relaxlab(&[
        "races",
        "litmus/bench/bench-SB4x4.litmus",
        "--model",
        "sc",
        "--max-states",
        "100",
        "--format",
        "json",
    ]);
    assert_eq!(code, 3, "{out}");
    assert!(
        json(&out)[0]["bounds"][0]["message"]
            .as_str()
            .unwrap()
            .ends_with("races beyond it are missing"),
        "{out}"
    );
    let (code, out, _) = relaxlab(&[
        "run",
        "litmus/bench/bench-SB4x4.litmus",
        "--model",
        "tso",
        "--max-memory",
        "1K",
    ]);
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("passed 1 KiB (--max-memory);"), "{out}");
    assert!(!out.contains("by default"), "{out}");
}

#[test]
fn a_test_read_from_standard_input() {
    let text = std::fs::read(support::root().join(SB)).unwrap();
    let r = binary_in(None, &["run", "-", "--model", "tso"], &text);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(
        r.out.contains("SB under tso (exhaustive): sometimes"),
        "{r:?}"
    );
    let r = binary_in(None, &["fmt", "-"], &text);
    assert_eq!(r.code, Some(0), "{r:?}");
    let r = binary_in(None, &["run", "-", "-"], &text);
    assert_eq!(r.code, Some(2), "{r:?}");
}

#[test]
fn a_dot_file_of_a_partial_run_says_so() {
    let path = std::env::temp_dir().join(format!("relaxlab-partial-{}.dot", std::process::id()));
    let file = path.to_str().unwrap();
    let (code, _, _) = relaxlab(&[
        "run",
        SB,
        "--model",
        "tso",
        "--max-states",
        "20",
        "--dot",
        file,
    ]);
    assert_eq!(code, 3);
    let dot = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert!(
        dot.starts_with("// SB under tso: PARTIAL: stopped after 20 states"),
        "{dot}"
    );
}

/// The field names (`"name":`) of each schema block of cli.md's section
/// `heading`, in the order of the blocks (the included example outputs are
/// not schemas).
fn documented_fields(heading: &str) -> Vec<BTreeSet<String>> {
    let cli = std::fs::read_to_string(support::root().join("book/src/cli.md")).unwrap();
    let start = cli.find(heading).unwrap_or_else(|| panic!("no {heading}"));
    let section = &cli[start + heading.len()..];
    let section = &section[..section.find("\n### ").unwrap_or(section.len())];
    let mut blocks = Vec::new();
    let mut rest = section;
    while let Some(at) = rest.find("```text\n") {
        rest = &rest[at + "```text\n".len()..];
        let end = rest.find("```").expect("a closed block");
        let block = &rest[..end];
        rest = &rest[end + 3..];
        if block.contains("{{#include") {
            continue;
        }
        let fields = block
            .match_indices("\":")
            .map(|(at, _)| {
                let name_start = block[..at].rfind('"').unwrap() + 1;
                block[name_start..at].to_string()
            })
            .collect();
        blocks.push(fields);
    }
    blocks
}

/// Every object key of `v`, at any depth.
fn fields(v: &serde_json::Value, into: &mut BTreeSet<String>) {
    match v {
        serde_json::Value::Object(map) => {
            for (k, x) in map {
                into.insert(k.clone());
                fields(x, into);
            }
        }
        serde_json::Value::Array(xs) => xs.iter().for_each(|x| fields(x, into)),
        _ => {}
    }
}

/// The keys of the JSON that the commands `runs` print, which must all
/// exit with one of `codes`.
fn printed_fields(runs: &[&[&str]]) -> BTreeSet<String> {
    let mut all = BTreeSet::new();
    for args in runs {
        let (code, out, err) = relaxlab(args);
        assert!([0, 1, 3].contains(&code), "{args:?}: {code}\n{err}");
        fields(&json(&out), &mut all);
    }
    all
}

/// Each command's JSON has exactly the fields its schema in cli.md names:
/// none missing from the book, none the book names that is never printed.
/// (repair's schema was missing from the book.)
#[test]
fn the_json_schemas_of_the_book_name_every_field_printed_and_no_other() {
    let sb = SB;
    let mp_racy = "litmus/c11/MP+na+rlx.litmus";
    let run = printed_fields(&[
        &[
            "run", sb, "-m", "tso", "--sample", "3", "-w", "--format", "json",
        ],
        &[
            "run",
            sb,
            "-m",
            "tso",
            "--max-states",
            "5",
            "--format",
            "json",
        ],
        &[
            "run", mp_racy, "-m", "c11r", "-a", "rc11", "-w", "--dot", "-", "--format", "json",
        ],
        &[
            "run",
            "litmus/algorithms/dekker-broken.litmus",
            "-m",
            "tso",
            "--format",
            "json",
        ],
        &[
            "run",
            sb,
            "--cat",
            "cat/examples/sc-with-flags.cat",
            "--format",
            "json",
        ],
        &[
            "run", sb, "-m", "tso", "--search", "mcr", "--format", "json",
        ],
    ]);
    let check = printed_fields(&[&["check", sb, "--format", "json"]]);
    let compare = printed_fields(&[&[
        "compare",
        sb,
        "litmus/classic/2+2W+fences.ss.litmus",
        "--max-states",
        "5",
        "--format",
        "json",
    ]]);
    let races = printed_fields(&[
        &["races", mp_racy, "--format", "json"],
        &["races", sb, "--max-states", "5", "--format", "json"],
    ]);
    let repair = printed_fields(&[&[
        "repair",
        "litmus/c11/MP+rlx+rlx.litmus",
        "--model",
        "c11r",
        "--format",
        "json",
    ]]);
    let [run_doc]: [_; 1] = documented_fields("### JSON: `run`").try_into().unwrap();
    let [check_doc, compare_doc, races_doc]: [_; 3] =
        documented_fields("### JSON: `check`, `compare` and `races`")
            .try_into()
            .unwrap();
    let [repair_doc]: [_; 1] = documented_fields("### JSON: `repair`").try_into().unwrap();
    for (command, printed, documented) in [
        ("run", run, run_doc),
        ("check", check, check_doc),
        ("compare", compare, compare_doc),
        ("races", races, races_doc),
        ("repair", repair, repair_doc),
    ] {
        assert_eq!(
            printed, documented,
            "{command}: the JSON printed (left) and the schema in book/src/cli.md (right) differ"
        );
    }
}

/// `--format json` and errors, as cli.md's "JSON and errors" says: an
/// error found before anything runs leaves standard output empty (but
/// `check` lists an unreadable file); a test that does not parse is left
/// out of the document, which still carries the others; never a
/// diagnostic in the document.
#[test]
fn json_output_on_input_errors_is_one_document_or_nothing() {
    let dir = support::scratch("json-errors");
    let bad = dir.join("bad.litmus");
    std::fs::write(&bad, "test bad\ninit { x = 0 }\n").unwrap();
    let bad = bad.to_str().unwrap();
    let missing = dir.join("missing.litmus");
    let missing = missing.to_str().unwrap();
    for command in ["run", "compare", "races", "check"] {
        let (code, out, err) = relaxlab(&[command, missing, SB, "--format", "json"]);
        assert_eq!(code, 2, "{command}: {err}");
        assert!(err.contains("cannot read"), "{command}: {err}");
        if command == "check" {
            assert_eq!(json(&out)["files"][0]["status"], "error", "{out}");
        } else {
            assert_eq!(out, "", "{command}: {err}");
        }
        let (code, out, err) = relaxlab(&[command, bad, SB, "--format", "json"]);
        assert_eq!(code, 2, "{command}: {err}");
        assert!(err.contains("unexpected"), "{command}: {err}");
        let v = json(&out);
        if command == "check" {
            assert_eq!(v["files"][0]["status"], "error", "{out}");
            assert_eq!(v["files"][1]["status"], "passed", "{out}");
        } else {
            assert!(
                v.as_array().unwrap().iter().all(|r| r["test"] == "SB"),
                "{command}: {out}"
            );
        }
        let (code, out, _) = relaxlab(&[command, bad, "--format", "json"]);
        assert_eq!(code, 2, "{command}");
        if command != "check" {
            assert_eq!(out.trim(), "[]", "{command}");
        }
    }
    let (code, out, err) = relaxlab(&["repair", bad, "--model", "tso", "--format", "json"]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
}

/// `compare --dot -` prints the graphs after the tables; with `--format
/// json` that would break the one JSON document, so it is refused (it used
/// to be accepted and draw nothing, exit 0). `--dot FILE` still writes them.
#[test]
fn compare_refuses_dot_to_stdout_with_json() {
    let racy = "litmus/c11/MP+na+rlx.litmus";
    let (code, out, err) = relaxlab(&["compare", racy, "--dot", "-", "--format", "json"]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains("`--dot -` has no effect with `--format json`"),
        "{err}"
    );
    let dir = support::scratch("compare-json-dot");
    let file = dir.join("graphs.dot");
    let (code, out, err) = relaxlab(&[
        "compare",
        racy,
        "--dot",
        file.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    json(&out);
    let dot = std::fs::read_to_string(&file).unwrap();
    assert!(dot.contains("digraph \"MP+na+rlx under"), "{dot}");
}
