//! Every `*.litmus` file of the litmus library parses and lowers, and its
//! formatted form lowers to the same program; the library is in canonical
//! layout, and formatting keeps its comments.

use crate::common;

use std::path::{Path, PathBuf};

use relaxlab_grammar::{format, herd, load, parse};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "litmus") {
            out.push(p);
        }
    }
}

/// Files written in herd's formats (first token `C` or `X86`) belong to the
/// herd importers, not to this grammar.
fn is_native(src: &str) -> bool {
    let first = src
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("//"))
        .unwrap_or("");
    !(first.starts_with("C ") || first.starts_with("X86"))
}

#[test]
fn every_library_file_loads() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../litmus");
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    let mut failures = Vec::new();
    let mut count = 0;
    for path in &files {
        let src = std::fs::read_to_string(path).unwrap();
        if !is_native(&src) {
            continue;
        }
        count += 1;
        let shown = path.strip_prefix(&root).unwrap().display().to_string();
        match load(&src) {
            Err(e) => failures.push(e.render(&shown, &src, 100)),
            Ok(p) => {
                let formatted = format(&parse(&src).unwrap());
                let again = load(&formatted).unwrap_or_else(|e| {
                    panic!(
                        "{shown}: formatted form fails:\n{}",
                        e.render(&shown, &formatted, 100)
                    )
                });
                assert_eq!(p.threads.len(), again.threads.len(), "{shown}");
                for (a, b) in p.threads.iter().zip(&again.threads) {
                    let ia: Vec<_> = a.code.iter().map(|i| (&i.instr, &i.text)).collect();
                    let ib: Vec<_> = b.code.iter().map(|i| (&i.instr, &i.text)).collect();
                    assert_eq!(ia, ib, "{shown}: thread {}", a.name);
                }
                assert_eq!(p.observed, again.observed, "{shown}");
                assert_eq!(p.condition, again.condition, "{shown}");
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} files fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The 1-based line of byte offset `at`, by counting newlines.
fn line_by_counting(src: &str, at: u32) -> u32 {
    1 + src[..at as usize].matches('\n').count() as u32
}

/// Every instruction's `line` is the line its span starts on, whatever
/// order lowering emits instructions in (loops jump back, forked bodies
/// come after their parents, several statements may share a line).
#[test]
fn instruction_lines_match_their_spans() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../litmus");
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    let mut sources: Vec<String> = files
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .filter(|s| is_native(s))
        .collect();
    let mut generated = String::from("test Lines\ninit { x = 0; y = 0; }\n");
    for t in 0..40 {
        generated.push_str(&format!(
            "thread P{t} {{ r0 = load(x, acq); store(y, 1, rel);\n\n\
             while (r0 == 0) {{\n  r0 = load(x, rlx);\n\n\n  if (r0 > {t}) {{ r1 = 1; }} else {{\n r1 = 2;\n }}\n}}\n\
             h{t} = fork W{t} {{\n  store(x, {t}, rlx);\n\n  fence(sc);\n}}\n join(h{t});\n\
             assert(r1 != 3); }}\n\n"
        ));
    }
    generated.push_str("exists (P0:r0 = 1)\n");
    sources.push(generated);
    let mut checked = 0;
    for src in &sources {
        let program = load(src).unwrap_or_else(|e| panic!("{}", e.render("t", src, 100)));
        for t in &program.threads {
            for i in &t.code {
                assert_eq!(
                    i.line,
                    line_by_counting(src, i.span.start),
                    "{}: `{}`",
                    program.name,
                    i.text
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked} instructions");
}

/// For every file of the library, and for the translation of every herd
/// test, formatting keeps every comment in order, is idempotent, and gives
/// the same program (spans aside). The library is not required to be in
/// the formatter's layout: it is written by hand.
#[test]
fn formatting_the_library_keeps_comments_and_meaning() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../litmus");
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    let mut with_comments = 0;
    for path in &files {
        let shown = path.strip_prefix(&root).unwrap().display().to_string();
        // The kernel's tests are read in herd's C semantics (their
        // primitives are macros of the model's .def file), never
        // translated to relaxlab's language: there is nothing to format.
        if shown.starts_with("kernel/") {
            continue;
        }
        let original = std::fs::read_to_string(path).unwrap();
        let native = is_native(&original);
        let src = if native {
            original
        } else {
            herd::translate(&original).unwrap_or_else(|e| panic!("{shown}: {e}"))
        };
        let formatted = format(&parse(&src).unwrap());
        let kept = common::comments(&src);
        with_comments += usize::from(!kept.is_empty());
        assert_eq!(common::comments(&formatted), kept, "{shown}: comments");
        assert_eq!(
            format(&parse(&formatted).unwrap()),
            formatted,
            "{shown}: formatting twice"
        );
        assert_eq!(
            common::without_spans(load(&formatted).unwrap()),
            common::without_spans(load(&src).unwrap()),
            "{shown}: the formatted program differs"
        );
    }
    assert!(with_comments > 20, "{with_comments} files with comments");
}
