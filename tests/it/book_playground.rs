//! The book's examples open in the playground: every output the book
//! shows of a command on a litmus test is followed by a link that loads
//! the test in `relaxlab serve` with the command's models selected, and
//! every playground link of the book names a bundled test and real
//! models.
//!
//! When an output is added to `book/outputs.txt`, add the link this test
//! asks for right after the block that includes it.

use crate::support;

use relaxlab_semantics::ir::ModelKey;

/// The playground's address in the book (`relaxlab serve`'s default).
const BASE: &str = "http://127.0.0.1:7878/";

fn outputs() -> Vec<(String, Vec<String>)> {
    let text = std::fs::read_to_string(support::root().join("book/outputs.txt")).unwrap();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let (name, args) = l.split_once(':')?;
            Some((
                name.trim().to_string(),
                args.split_whitespace().map(str::to_string).collect(),
            ))
        })
        .collect()
}

/// The values of `flags` in `args` (comma-separated lists flattened).
fn values(args: &[String], flags: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, a) in args.iter().enumerate() {
        for f in flags {
            if a == f {
                if let Some(v) = args.get(i + 1) {
                    out.extend(v.split(',').map(str::to_string));
                }
            } else if let Some(v) = a.strip_prefix(&format!("{f}=")) {
                out.extend(v.split(',').map(str::to_string));
            }
        }
    }
    out
}

/// The playground URL of `file` with `query` (the path under `litmus/`,
/// `+` escaped, which a query string reads as a space).
fn url(file: &str, query: &str) -> String {
    let test = file.trim_start_matches("litmus/").replace('+', "%2B");
    format!("{BASE}?test={test}{query}")
}

/// The link line expected after the output of `args`, if it names tests.
fn expected_link(args: &[String]) -> Option<String> {
    let files: Vec<&String> = args
        .iter()
        .filter(|a| a.starts_with("litmus/") && a.ends_with(".litmus"))
        .collect();
    // The playground does not read herd7's configurations (the
    // Linux-kernel memory model's chapter runs its examples on the
    // command line).
    if files.is_empty() || args.iter().any(|a| a == "--conf" || a == "--macros") {
        return None;
    }
    let models: Vec<String> = match args[0].as_str() {
        "run" => {
            let mut m = values(args, &["--model", "-m"]);
            m.extend(
                values(args, &["--axiomatic", "-a"])
                    .into_iter()
                    .map(|a| format!("ax.{a}")),
            );
            m
        }
        "compare" => {
            let ops = values(args, &["--models", "-m"]);
            let ops = if ops.is_empty() {
                ["sc", "tso", "pso", "pslo", "c11r", "c11t"]
                    .map(String::from)
                    .to_vec()
            } else {
                ops
            };
            ops.into_iter()
                .flat_map(|m| [m.clone(), format!("ax.{m}")])
                .collect()
        }
        "races" => {
            let m = values(args, &["--model", "-m"]);
            if m.is_empty() {
                vec!["c11r".into()]
            } else {
                m
            }
        }
        _ => Vec::new(),
    };
    let mut query = String::new();
    if !models.is_empty() {
        query.push_str(&format!("&model={}", models.join(",")));
    }
    for (flag, key) in [("--mapping", "mapping"), ("--unroll", "unroll")] {
        if let Some(v) = values(args, &[flag]).first() {
            query.push_str(&format!("&{key}={v}"));
        }
    }
    Some(if let [file] = files[..] {
        format!("[▶ Try it in the playground]({})", url(file, &query))
    } else {
        let links: Vec<String> = files
            .iter()
            .map(|f| {
                let name = f.rsplit('/').next().unwrap().trim_end_matches(".litmus");
                format!("[▶ {name}]({})", url(f, &query))
            })
            .collect();
        format!("Try them in the playground: {}", links.join(", "))
    })
}

fn chapters() -> Vec<(String, String)> {
    let dir = support::root().join("book/src");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| (support::relative(&p), std::fs::read_to_string(&p).unwrap()))
        .collect();
    out.sort();
    out
}

#[test]
fn every_example_output_links_to_the_playground() {
    let outputs = outputs();
    let mut missing = Vec::new();
    for (chapter, text) in chapters() {
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(name) = line
                .trim()
                .strip_prefix("{{#include ../out/")
                .and_then(|r| r.strip_suffix(".txt}}"))
            else {
                continue;
            };
            let Some((_, args)) = outputs.iter().find(|(n, _)| n == name) else {
                continue;
            };
            let Some(link) = expected_link(args) else {
                continue;
            };
            // The link follows the block's closing fence.
            let close = (i + 1..lines.len())
                .find(|&j| lines[j].starts_with("```"))
                .unwrap_or(i);
            let after = &lines[close + 1..(close + 4).min(lines.len())];
            if !after.iter().any(|l| l.trim() == link) {
                missing.push(format!("{chapter}: after {name}: {link}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "book examples without their playground link (add each line after the block):\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_playground_link_opens_a_bundled_test_under_real_models() {
    let library: Vec<&str> = relaxlab::serve::LIBRARY.iter().map(|(p, _)| *p).collect();
    let mut bad = Vec::new();
    let mut links = 0;
    for (chapter, text) in chapters() {
        let opener = format!("]({BASE}?");
        for (i, _) in text.match_indices(&opener) {
            let rest = &text[i + opener.len() - 1..];
            let query = &rest[..rest.find(')').unwrap_or(rest.len())];
            links += 1;
            for pair in query.trim_start_matches('?').split('&') {
                let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
                let ok = match key {
                    "test" => library.contains(&value.replace("%2B", "+").as_str()),
                    "model" => value.split(',').all(|m| ModelKey::from_name(m).is_some()),
                    "mapping" => ["standard", "plain"].contains(&value),
                    "unroll" => value.parse::<u32>().is_ok(),
                    _ => false,
                };
                if !ok {
                    bad.push(format!("{chapter}: {key}={value} in {query}"));
                }
            }
        }
    }
    assert!(bad.is_empty(), "bad playground links:\n{}", bad.join("\n"));
    assert!(links > 50, "only {links} playground links in the book");
}
