//! The herd importers on the library `litmus/herd/` and on the refused
//! inputs of `tests/herd/bad/`.
//!
//! Every library file must translate, and its translation must parse with
//! relaxlab's own parser. Snapshots show the herd source beside its
//! translation, and each refused input beside its diagnostics (no colour,
//! 80 columns).

use std::fs;
use std::path::{Path, PathBuf};

use relaxlab_grammar::herd::{detect, translate, Dialect};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `.litmus` files of a directory, sorted by name.
fn litmus_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "litmus"))
        .collect();
    files.sort();
    files
}

fn library(sub: &str, dialect: Dialect, at_least: usize) {
    let files = litmus_files(&root().join("litmus/herd").join(sub));
    assert!(files.len() >= at_least, "{} {sub} tests", files.len());
    for path in files {
        let src = fs::read_to_string(&path).expect("readable");
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("name");
        assert_eq!(detect(&src), dialect, "{stem}");
        let text = translate(&src)
            .unwrap_or_else(|e| panic!("{stem} does not translate:\n{}", e.render(stem, &src, 80)));
        if let Err(e) = relaxlab_grammar::parse(&text) {
            panic!(
                "the translation of {stem} does not parse:\n{}\n{}",
                text,
                e.render(stem, &text, 80)
            );
        }
        // Translating is deterministic.
        assert_eq!(translate(&src).ok().as_deref(), Some(text.as_str()));
        insta::assert_snapshot!(
            format!("herd_{sub}_{stem}"),
            format!("{src}\n----- translation -----\n{text}")
        );
    }
}

#[test]
fn every_c_library_test_translates_and_parses() {
    library("c", Dialect::HerdC, 20);
}

#[test]
fn every_x86_library_test_translates_and_parses() {
    library("x86", Dialect::HerdX86, 15);
}

#[test]
fn refused_inputs_have_diagnostics_pointing_into_the_herd_text() {
    let files = litmus_files(&root().join("tests/herd/bad"));
    assert!(files.len() >= 10);
    for path in files {
        let src = fs::read_to_string(&path).expect("readable");
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("name");
        let errors = match translate(&src) {
            Ok(text) => panic!("{stem} was translated:\n{text}"),
            Err(e) => e,
        };
        for e in errors.errors() {
            let code = miette::Diagnostic::code(e).map(|c| c.to_string());
            assert!(
                code.as_deref()
                    .is_some_and(|c| c.starts_with("relaxlab::herd::")),
                "{stem}: {code:?}"
            );
        }
        let rendered = errors.render(&format!("{stem}.litmus"), &src, 80);
        insta::assert_snapshot!(format!("herd_bad_{stem}"), rendered);
    }
}

#[test]
fn detection_reads_the_first_word() {
    assert_eq!(detect("C SB\n{}"), Dialect::HerdC);
    assert_eq!(detect("(* a comment *)\nX86 SB\n{}"), Dialect::HerdX86);
    assert_eq!(detect("X86_64 SB\n{}"), Dialect::HerdX86);
    assert_eq!(detect("// SB\ntest SB\n"), Dialect::Relaxlab);
    assert_eq!(detect("Cx SB"), Dialect::Relaxlab);
    assert_eq!(detect(""), Dialect::Relaxlab);
}

#[test]
fn a_relaxlab_file_is_not_translated() {
    let err = translate("test SB\ninit { x = 0; }\n").expect_err("not herd");
    assert!(err.to_string().contains("not a herd test"), "{err}");
}

#[test]
fn cas_updates_expected_and_returns_success() {
    let src = "C CAS\n{ x = 1; }\nP0 (atomic_int* x) {\n  int e = 1;\n  int b = atomic_compare_exchange_weak_explicit(x, &e, 2, memory_order_acq_rel, memory_order_acquire);\n}\nexists (0:b=1 /\\ 0:e=1)\n";
    let text = translate(src).expect("translates");
    assert!(
        text.contains("t0 = cas(x, e, 2, acq_rel, acq);\n  b = t0 == e;\n  e = t0;"),
        "{text}"
    );
}

#[test]
fn accesses_inside_expressions_are_hoisted_left_to_right() {
    let src = "C Hoist\n{ x = 0; y = 0; }\nP0 (int* x, atomic_int* y) {\n  int r0 = *x + 2 * atomic_load_explicit(y, memory_order_acquire);\n  *x = *x + 1;\n  if (*x == 1) { r0 = 1; } else if (r0) r0 = 2;\n}\nexists (0:r0=0)\n";
    let text = translate(src).expect("translates");
    let body = "  t0 = load(x, na);\n  t1 = load(y, acq);\n  r0 = t0 + 2 * t1;\n  t2 = load(x, na);\n  store(x, t2 + 1, na);\n  t3 = load(x, na);\n  if (t3 == 1) {\n    r0 = 1;\n  } else {\n    if (r0) {\n      r0 = 2;\n    }\n  }\n";
    assert!(text.contains(body), "{text}");
    relaxlab_grammar::parse(&text).expect("parses");
}

#[test]
fn registers_named_only_by_the_condition_start_at_zero() {
    let src = "X86 T\n{ x=0; 1:EBX=3; }\n P0 | P1 ;\n MOV [x],$1 | ;\nexists (0:EAX=0 /\\ 1:EBX=3 /\\ [z]=0)\n";
    let text = translate(src).expect("translates");
    assert!(text.contains("init { x = 0; z = 0; }"), "{text}");
    assert!(text.contains("thread P0 {\n  EAX = 0;\n"), "{text}");
    assert!(text.contains("thread P1 {\n  EBX = 3;\n}"), "{text}");
    relaxlab_grammar::parse(&text).expect("parses");
}
