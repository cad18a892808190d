//! The book shows relaxlab's real output: every block listed in
//! `book/outputs.txt` (`NAME: ARGS`) is regenerated here and compared with
//! `book/out/NAME.txt`, the file the chapter includes. Set
//! `RELAXLAB_BLESS=1` to rewrite the files after a deliberate change.
//! Internal links and `{{#include}}`s of the chapters must resolve.

use crate::support;

use std::path::Path;

fn outputs() -> Vec<(String, Vec<String>)> {
    let Ok(text) = std::fs::read_to_string(support::root().join("book/outputs.txt")) else {
        return vec![];
    };
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (name, args) = l
                .split_once(':')
                .unwrap_or_else(|| panic!("bad line in book/outputs.txt: {l}"));
            (
                name.trim().to_string(),
                args.split_whitespace().map(str::to_string).collect(),
            )
        })
        .collect()
}

/// What the book shows for one command: its output, then its exit code if
/// not 0, with diagnostics (stderr) after the output.
fn render(args: &[String]) -> String {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = support::relaxlab(&args);
    let mut text = format!("$ relaxlab {}\n{out}", args.join(" "));
    if !err.is_empty() {
        text.push_str(&err);
    }
    if code != 0 {
        text.push_str(&format!("[exit code {code}]\n"));
    }
    text
}

#[test]
fn book_outputs_are_up_to_date() {
    let bless = std::env::var_os("RELAXLAB_BLESS").is_some();
    let dir = support::root().join("book/out");
    let mut stale = Vec::new();
    let mut names = std::collections::BTreeSet::new();
    for (name, args) in outputs() {
        let now = render(&args);
        let path = dir.join(format!("{name}.txt"));
        names.insert(format!("{name}.txt"));
        let before = std::fs::read_to_string(&path).unwrap_or_default();
        if before != now {
            if bless {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, &now).unwrap();
            } else {
                stale.push(name);
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale book outputs (rerun with RELAXLAB_BLESS=1 and review): {stale:?}"
    );
    if let Ok(entries) = std::fs::read_dir(&dir) {
        let orphans: Vec<String> = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| !names.contains(n))
            .collect();
        assert!(
            orphans.is_empty(),
            "book/out files not listed in book/outputs.txt: {orphans:?}"
        );
    }
}

/// Every `[text](CHAPTER.md#anchor)` and `{{#include path}}` of every chapter
/// resolves to a file, and every `#anchor` to one of its headings.
#[test]
fn book_links_resolve() {
    let src = support::root().join("book/src");
    let Ok(entries) = std::fs::read_dir(&src) else {
        return;
    };
    let mut broken = Vec::new();
    let mut chapters: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    chapters.sort();
    for chapter in chapters
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
    {
        let text = std::fs::read_to_string(chapter).unwrap();
        for target in links(&text) {
            let file = target.split('#').next().unwrap_or_default();
            if file.contains("://") || file.starts_with("mailto:") {
                continue;
            }
            let path = if file.is_empty() {
                chapter.clone()
            } else {
                resolve(chapter, file)
            };
            if !path.exists() {
                broken.push(format!("{}: {target}", support::relative(chapter)));
                continue;
            }
            // A heading anchor must name a heading of that chapter, or the
            // link lands at the top of the page.
            if let Some((_, anchor)) = target.split_once('#') {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                if !heading_ids(&text).iter().any(|id| id == anchor) {
                    broken.push(format!("{}: {target}", support::relative(chapter)));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links in the book: {broken:#?}");
}

fn resolve(chapter: &Path, target: &str) -> std::path::PathBuf {
    let target = target.split(':').next().unwrap_or(target);
    chapter.parent().unwrap().join(target)
}

/// Markdown link targets `](...)` and include paths `{{#include ...}}`.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(j) = rest.find(')') {
            out.push(rest[..j].trim().to_string());
        }
    }
    let mut rest = text;
    while let Some(i) = rest.find("{{#include ") {
        rest = &rest[i + 11..];
        if let Some(j) = rest.find("}}") {
            out.push(rest[..j].trim().to_string());
        }
    }
    out
}

/// The anchors mdBook gives the headings of a chapter (outside code
/// blocks): the heading's text in lowercase, spaces as `-`, and every
/// character but letters, digits, `-` and `_` dropped (`## JSON: \`run\``
/// is `#json-run`).
pub(crate) fn heading_ids(text: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        if in_code {
            continue;
        }
        let heading = heading.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        ids.push(
            heading
                .trim()
                .to_lowercase()
                .chars()
                .filter_map(|c| match c {
                    ' ' => Some('-'),
                    c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                    _ => None,
                })
                .collect(),
        );
    }
    ids
}

/// The fenced blocks of a Markdown text: (info string, lines), in order.
fn fenced(text: &str) -> Vec<(String, Vec<String>)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, Vec<String>)> = None;
    for line in text.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => open = Some((info.trim().to_string(), Vec::new())),
            (Some(_), Some(_)) => blocks.push(open.take().unwrap()),
            (Some((_, lines)), None) => lines.push(line.to_string()),
            (None, None) => {}
        }
    }
    blocks
}

/// The README starts with the two commands a newcomer runs, the test
/// suite's being the one CI runs, and shows what the first prints (it
/// linked to a chapter whose outputs are `{{#include}}`s, which only a
/// built book shows), kept true here: `RELAXLAB_BLESS=1` rewrites it. The
/// introduction repeats the same two commands.
#[test]
fn the_readme_starts_with_its_two_commands_and_shows_what_the_first_prints() {
    let root = support::root();
    let path = root.join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let blocks = fenced(&readme);
    let (info, commands) = &blocks[0];
    assert_eq!(info, "sh", "the README's first block is not its commands");
    assert_eq!(commands.len(), 2, "{commands:?}");
    let args: Vec<String> = commands[0]
        .strip_prefix("cargo run --release -- ")
        .unwrap_or_else(|| panic!("not a `cargo run --release --` command: {}", commands[0]))
        .split_whitespace()
        .map(str::to_string)
        .collect();
    assert!(
        args.iter()
            .any(|a| a.starts_with("litmus/") && root.join(a).is_file()),
        "the first command runs no bundled test: {args:?}"
    );
    assert_eq!(commands[1], "cargo test --workspace --release");
    let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap();
    // CI may set environment variables for the command (`VAR=value cmd`).
    let without_env = |line: &str| {
        line.split_whitespace()
            .skip_while(|word| word.contains('=') && !word.starts_with('-'))
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(
        ci.lines().any(|l| without_env(l) == commands[1]),
        "CI runs another test command"
    );
    let intro = std::fs::read_to_string(root.join("book/src/introduction.md")).unwrap();
    assert!(
        fenced(&intro)
            .iter()
            .any(|(info, lines)| info == "sh" && lines == commands),
        "the introduction does not show the README's two commands"
    );

    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = support::relaxlab(&argv);
    assert_eq!(code, 0, "{err}");
    let shown = blocks
        .iter()
        .find(|(info, _)| info == "text")
        .map(|(_, lines)| lines.join("\n") + "\n")
        .expect("no output block in the README");
    if shown != out {
        assert!(
            std::env::var_os("RELAXLAB_BLESS").is_some(),
            "the README's output of its first command is stale (rerun with RELAXLAB_BLESS=1):\n{out}"
        );
        let start = readme.find("```text\n").unwrap() + "```text\n".len();
        let end = start + readme[start..].find("```").unwrap();
        let updated = format!("{}{out}{}", &readme[..start], &readme[end..]);
        std::fs::write(&path, updated).unwrap();
    }
}

/// The Rust version the book and the README ask for is the one Cargo.toml
/// declares (the book said 1.80 when Cargo.toml said 1.85).
#[test]
fn the_docs_ask_for_the_rust_version_cargo_toml_declares() {
    let root = support::root();
    let cargo = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let version = cargo
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .expect("Cargo.toml declares a rust-version")
        .trim_matches('"');
    let mut docs = vec![root.join("README.md")];
    docs.extend(
        std::fs::read_dir(root.join("book/src"))
            .unwrap()
            .flatten()
            .map(|e| e.path()),
    );
    let mut seen = 0;
    for doc in docs {
        let text = std::fs::read_to_string(&doc).unwrap_or_default();
        for (i, _) in text.match_indices(" or newer") {
            let asked = text[..i]
                .rsplit(|c: char| !(c.is_ascii_digit() || c == '.'))
                .next();
            if let Some(asked) = asked.filter(|a| a.contains('.')) {
                seen += 1;
                assert_eq!(
                    asked,
                    version,
                    "{} asks for Rust {asked}",
                    support::relative(&doc)
                );
            }
        }
    }
    assert!(seen > 0, "no document says which Rust version to install");
}

/// The witness steps a chapter quotes in its prose (`` `P0: commit x = 1` ``)
/// are steps of a witness the chapter shows, in the order quoted: the
/// introduction described its TSO witness in words that did not match the
/// witness printed above them.
#[test]
fn witness_steps_quoted_in_the_prose_are_those_of_the_outputs_shown() {
    let src = support::root().join("book/src");
    let mut wrong = Vec::new();
    let mut checked = 0;
    let mut chapters: Vec<_> = std::fs::read_dir(&src)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    chapters.sort();
    for chapter in chapters
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
    {
        let text = std::fs::read_to_string(chapter).unwrap();
        // The witnesses the chapter shows: runs of `| STEP` lines.
        let mut witnesses: Vec<Vec<String>> = Vec::new();
        for target in links(&text).iter().filter(|t| t.starts_with("../out/")) {
            let out = std::fs::read_to_string(resolve(chapter, target)).unwrap_or_default();
            let mut current = Vec::new();
            for line in out.lines() {
                match line.trim_start().strip_prefix("| ") {
                    Some(step) => current.push(step.to_string()),
                    None if !current.is_empty() => witnesses.push(std::mem::take(&mut current)),
                    None => {}
                }
            }
            if !current.is_empty() {
                witnesses.push(current);
            }
        }
        if witnesses.is_empty() {
            continue;
        }
        // Each paragraph's quoted steps, outside code blocks.
        let mut in_code = false;
        let mut paragraphs = vec![String::new()];
        for line in text.lines() {
            if line.starts_with("```") {
                in_code = !in_code;
                paragraphs.push(String::new());
            } else if !in_code && line.trim().is_empty() {
                paragraphs.push(String::new());
            } else if !in_code {
                let p = paragraphs.last_mut().unwrap();
                p.push_str(line);
                p.push(' ');
            }
        }
        for paragraph in &paragraphs {
            let quoted: Vec<&str> = paragraph
                .split('`')
                .skip(1)
                .step_by(2)
                .filter(|q| {
                    q.split_once(": ").is_some_and(|(who, what)| {
                        who.starts_with('P')
                            && who[1..].chars().all(|c| c.is_ascii_digit())
                            && (what.contains('(') || what.starts_with("commit") || what == "end")
                    })
                })
                .collect();
            if quoted.is_empty() {
                continue;
            }
            checked += 1;
            let in_order = |w: &Vec<String>| {
                let mut steps = w.iter();
                quoted.iter().all(|q| steps.any(|s| s == q))
            };
            if !witnesses.iter().any(in_order) {
                wrong.push(format!("{}: {quoted:?}", support::relative(chapter)));
            }
        }
    }
    assert!(checked > 0, "no chapter quotes a witness step");
    assert!(
        wrong.is_empty(),
        "steps quoted that no witness shown has, in that order: {wrong:#?}"
    );
}
