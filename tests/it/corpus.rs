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
