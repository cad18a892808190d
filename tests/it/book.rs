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
