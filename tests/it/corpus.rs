//! Corpus-scale runs: `--partition K/N` deals files out to parts the same
//! way every time, `run --format jsonl` prints one run per line, and
//! `relaxlab merge` joins the parts into exactly what the whole run prints.

use crate::support::{self, relaxlab};

const DIR: &str = "litmus/classic";

fn run_jsonl(extra: &[&str]) -> String {
    let mut args = vec!["run", DIR, "--axiomatic", "tso", "--format", "jsonl"];
    if !extra.contains(&"--model") {
        args.extend(["--model", "sc"]);
    }
    args.extend(extra);
    let (code, out, err) = relaxlab(&args);
    assert!(code == 0 || code == 1, "{code}: {err}");
    out
}

#[test]
fn merged_parts_are_the_whole_run_byte_for_byte() {
    let whole = run_jsonl(&[]);
    let dir = support::scratch("corpus-merge");
    let mut paths = Vec::new();
    // Given in any order.
    for k in [3, 1, 2] {
        let part = run_jsonl(&["--partition", &format!("{k}/3")]);
        let path = dir.join(format!("part{k}.jsonl"));
        std::fs::write(&path, part).unwrap();
        paths.push(path.to_string_lossy().into_owned());
    }
    let mut args = vec!["merge"];
    args.extend(paths.iter().map(String::as_str));
    let (code, merged, err) = relaxlab(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(merged, whole);
    let files = support::litmus_files(DIR).len();
    assert!(
        whole.starts_with(&format!(
            "{{\"relaxlab\":\"run\",\"partition\":[1,1],\"files\":{files}}}\n"
        )),
        "{}",
        &whole[..200]
    );
}

#[test]
fn every_file_is_in_exactly_one_part_dealt_out_in_turn() {
    let files = support::litmus_files(DIR).len();
    let mut seen = vec![0; files];
    for k in 1..=4 {
        let part = run_jsonl(&["--partition", &format!("{k}/4"), "--model", "sc"]);
        let mut lines = part.lines();
        assert_eq!(
            lines.next().unwrap(),
            format!("{{\"relaxlab\":\"run\",\"partition\":[{k},4],\"files\":{files}}}")
        );
        for line in lines {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let i = v["file_index"].as_u64().unwrap() as usize;
            assert_eq!(i % 4, k - 1, "{line}");
            seen[i] += 1;
        }
    }
    // Two runs per file: ax.tso and sc.
    assert!(seen.iter().all(|&n| n == 2), "{seen:?}");
}

#[test]
fn a_jsonl_line_is_the_json_formats_run_with_its_file_index() {
    let lines = run_jsonl(&[]);
    let (code, json, _) = relaxlab(&[
        "run",
        DIR,
        "--axiomatic",
        "tso",
        "--model",
        "sc",
        "--format",
        "json",
    ]);
    assert!(code == 0 || code == 1);
    let runs: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap();
    let from_lines: Vec<serde_json::Value> = lines
        .lines()
        .skip(1)
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("file_index").unwrap();
            v
        })
        .collect();
    assert_eq!(from_lines, runs);
}

#[test]
fn jsonl_output_does_not_depend_on_jobs() {
    let one = run_jsonl(&["--jobs", "1", "--model", "tso"]);
    let two = run_jsonl(&["--jobs", "2", "--model", "tso"]);
    assert_eq!(one, two);
}

#[test]
fn checking_the_parts_checks_every_file_once() {
    let (code, whole, err) = relaxlab(&["check", DIR, "--only", "sc,tso"]);
    assert_eq!(code, 0, "{err}");
    let count = |out: &str| out.lines().filter(|l| l.contains(".litmus")).count();
    let mut total = 0;
    for k in 1..=2 {
        let (code, out, err) = relaxlab(&[
            "check",
            DIR,
            "--only",
            "sc,tso",
            "--partition",
            &format!("{k}/2"),
        ]);
        assert_eq!(code, 0, "{err}");
        total += count(&out);
    }
    assert_eq!(total, count(&whole));
    assert!(total > 10);
}

#[test]
fn parts_that_do_not_make_one_run_are_refused() {
    let dir = support::scratch("corpus-bad");
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    };
    let p1 = write("p1", &run_jsonl(&["--partition", "1/3", "--model", "sc"]));
    let p2 = write("p2", &run_jsonl(&["--partition", "2/3", "--model", "sc"]));
    let other = write("o", &run_jsonl(&["--partition", "2/2", "--model", "sc"]));
    let table = write("t", "Test SB Allowed\n");
    let merge = |args: &[&str]| {
        let mut a = vec!["merge"];
        a.extend(args);
        let (code, out, err) = relaxlab(&a);
        assert_eq!(code, 2, "{out}");
        assert!(out.is_empty(), "{out}");
        support::flat(&err)
    };
    assert!(merge(&[&p1, &p2]).contains("parts missing: 3 (of 3)"));
    assert!(merge(&[&p1, &p1]).contains("part 1 is given twice"));
    assert!(merge(&[&p1, &other]).contains("is part 2 of 2 of a `run` run"));
    assert!(merge(&[&table]).contains(
        "is not the output of a `--format jsonl` run: its first line is not relaxlab's header"
    ));
    let (code, _, err) = relaxlab(&["run", DIR, "--partition", "4/3"]);
    assert_eq!(code, 2);
    assert!(err.contains("the part must be from 1 to 3"), "{err}");
}

/// `run` works on several files at once and prints them in file order:
/// the output of every format is the same whatever `--jobs`.
#[test]
fn run_output_does_not_depend_on_jobs_in_any_format() {
    let dir = support::scratch("corpus-jobs");
    for format in ["table", "json", "herd", "jsonl"] {
        let mut outputs = Vec::new();
        for jobs in ["1", "2", "3"] {
            let dot = dir.join(format!("{format}-{jobs}.dot"));
            let dot = dot.to_string_lossy().into_owned();
            let (code, out, err) = relaxlab(&[
                "run",
                DIR,
                "--model",
                "sc,tso",
                "--axiomatic",
                "tso",
                "--format",
                format,
                "--dot",
                &dot,
                "--jobs",
                jobs,
            ]);
            assert!(code == 0 || code == 1, "{code}: {err}");
            let graphs = std::fs::read_to_string(&dot).unwrap();
            assert!(graphs.matches("digraph ").count() > 100, "{graphs}");
            outputs.push((out, graphs));
        }
        assert!(
            outputs.iter().all(|o| *o == outputs[0]),
            "{format}: the output depends on --jobs"
        );
    }
    let dots: Vec<String> = ["1", "2"]
        .iter()
        .map(|jobs| {
            let (code, out, err) =
                relaxlab(&["run", DIR, "--model", "tso", "--dot", "-", "--jobs", jobs]);
            assert!(code == 0 || code == 1, "{code}: {err}");
            out
        })
        .collect();
    assert_eq!(dots[0], dots[1]);
    assert!(dots[0].contains("digraph "));
}

/// The files come out in the order of the arguments, each file's tables
/// together, whatever file finishes first.
#[test]
fn run_prints_the_files_in_the_order_given() {
    let files: Vec<String> = support::litmus_files(DIR)
        .iter()
        .rev()
        .map(|p| support::relative(p))
        .collect();
    let mut args = vec![
        "run", "--model", "sc,tso", "--format", "jsonl", "--jobs", "2",
    ];
    args.extend(files.iter().map(String::as_str));
    let (code, out, err) = relaxlab(&args);
    assert!(code == 0 || code == 1, "{code}: {err}");
    let order: Vec<(u64, String, String)> = out
        .lines()
        .skip(1)
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["file_index"].as_u64().unwrap(),
                v["file"].as_str().unwrap().to_string(),
                v["model"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expected: Vec<(u64, String, String)> = files
        .iter()
        .enumerate()
        .flat_map(|(i, f)| ["sc", "tso"].map(|m| (i as u64, f.clone(), m.to_string())))
        .collect();
    assert_eq!(order, expected);
}

fn check_jsonl(extra: &[&str]) -> String {
    let mut args = vec!["check", DIR, "--only", "sc,tso", "--format", "jsonl"];
    args.extend(extra);
    let (code, out, err) = relaxlab(&args);
    assert_eq!(code, 0, "{err}");
    out
}

#[test]
fn merged_check_parts_are_the_whole_check_byte_for_byte() {
    let whole = check_jsonl(&[]);
    let dir = support::scratch("corpus-check-merge");
    let mut paths = Vec::new();
    for k in [2, 3, 1] {
        let part = check_jsonl(&["--partition", &format!("{k}/3"), "--jobs", "2"]);
        assert!(part.starts_with(&format!("{{\"relaxlab\":\"check\",\"partition\":[{k},3],")));
        let path = dir.join(format!("check{k}.jsonl"));
        std::fs::write(&path, part).unwrap();
        paths.push(path.to_string_lossy().into_owned());
    }
    let mut args = vec!["merge"];
    args.extend(paths.iter().map(String::as_str));
    let (code, merged, err) = relaxlab(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(merged, whole);
    let files = support::litmus_files(DIR).len();
    assert_eq!(whole.lines().count(), files + 1, "{whole}");
    assert!(whole.starts_with(&format!(
        "{{\"relaxlab\":\"check\",\"partition\":[1,1],\"files\":{files}}}\n"
    )));
    // A run's part and a check's part are not parts of one run.
    let run = dir.join("run2.jsonl");
    std::fs::write(&run, run_jsonl(&["--partition", "2/3", "--model", "sc"])).unwrap();
    let (code, _, err) = relaxlab(&["merge", &paths[2], &run.to_string_lossy()]);
    assert_eq!(code, 2);
    assert!(
        support::flat(&err).contains("is part 2 of 3 of a `run` run"),
        "{err}"
    );
}

/// A `check --format jsonl` line is the file's entry of `--format json`
/// with its index; the JSON document's counts are those of the lines.
#[test]
fn a_check_jsonl_line_is_the_json_reports_file_with_its_index() {
    let lines = check_jsonl(&["--jobs", "1"]);
    assert_eq!(lines, check_jsonl(&["--jobs", "2"]));
    let (code, json, err) = relaxlab(&["check", DIR, "--only", "sc,tso", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let mut passed = 0;
    for (i, line) in lines.lines().skip(1).enumerate() {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        let index = v.as_object_mut().unwrap().remove("file_index").unwrap();
        assert_eq!(index, i);
        assert_eq!(v, report["files"][i]);
        passed += u64::from(v["status"] == "passed");
    }
    assert_eq!(report["passed"], passed);
    assert_eq!(
        report["files"].as_array().unwrap().len(),
        lines.lines().count() - 1
    );
}

/// `--jobs` spreads the files of a batch over its workers, even when
/// only the axiomatic engine runs (which judges one test on one thread):
/// it is said to have no effect on one file only.
#[test]
fn jobs_has_an_effect_on_several_files_of_axiomatic_models() {
    let (code, _, err) = relaxlab(&["run", DIR, "--axiomatic", "tso", "--jobs", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("--jobs"), "{err}");
    let (code, _, err) = relaxlab(&[
        "run",
        "litmus/classic/SB.litmus",
        "--axiomatic",
        "tso",
        "--jobs",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        support::flat(&err).contains("`--jobs` has no effect here"),
        "{err}"
    );
}
