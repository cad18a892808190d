//! The herd importers on the library `litmus/herd/` and on the refused
//! inputs of `tests/herd/bad/`.
//!
//! Every library file must translate, and its translation must parse with
//! relaxlab's own parser. Snapshots show the herd source beside its
//! translation, and each refused input beside its diagnostics (no colour,
//! 80 columns).

use std::fs;
use std::path::{Path, PathBuf};

use relaxlab_grammar::herd::{detect, to_herd_c, translate, Dialect};

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
        let ast = match relaxlab_grammar::parse(&text) {
            Ok(ast) => ast,
            Err(e) => panic!(
                "the translation of {stem} does not parse:\n{}\n{}",
                text,
                e.render(stem, &text, 80)
            ),
        };
        // The translation lowers, and is already in the formatter's form.
        if let Err(e) = relaxlab_grammar::lower(&ast) {
            panic!("{stem} does not lower:\n{}", e.render(stem, &text, 80));
        }
        assert_eq!(relaxlab_grammar::format(&ast), text, "{stem}");
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
fn every_x86_64_library_test_translates_and_parses() {
    library("x86_64", Dialect::HerdX86, 8);
}

#[test]
fn x86_64_reads_att_syntax_into_the_x86_instructions() {
    // Source operand first, size suffixes dropped, every alias of a
    // register named as herd prints it, `lock` and `nop` forms.
    let src = "X86_64 T\n{ x=0; y=0; 0:EAX=2; }\n P0                  ;\n movq $-1,(x)        ;\n nopl 0(%rax,%rax,1) ;\n xchgl %eax,(y)      ;\n lock xaddq %rbx,(x) ;\n lock incl (y)       ;\n movl (y),%r9d       ;\n addl $3,%r9d        ;\n lock cmpxchgq %rcx,(x) ;\n mfence              ;\nexists (0:RAX=0 /\\ 0:r9=5 /\\ 0:ebx=0)\n";
    let text = translate(src).expect("translates");
    for line in [
        "rax = 2;",
        "store(x, -1, rlx);",
        "rax = exchange(y, rax, sc);",
        "rbx = fetch_add(x, rbx, sc);",
        "fetch_add(y, 1, sc);",
        "r9 = load(y, rlx);",
        "r9 = r9 + 3;",
        "= cas(x, rax, rcx, sc);",
        "fence(full);",
        "exists (0:rax = 0 /\\ 0:r9 = 5 /\\ 0:rbx = 0)",
    ] {
        assert!(text.contains(line), "{line} in\n{text}");
    }
    assert!(!text.contains("nop"), "{text}");
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
    let src = |strength: &str| {
        format!("C CAS\n{{ x = 1; }}\nP0 (atomic_int* x) {{\n  int e = 1;\n  int b = atomic_compare_exchange_{strength}_explicit(x, &e, 2, memory_order_acq_rel, memory_order_acquire);\n}}\nexists (0:b=1 /\\ 0:e=1)\n")
    };
    let text = translate(&src("strong")).expect("translates");
    assert!(
        text.contains("t0 = cas(x, e, 2, acq_rel, acq);\n  b = t0 == e;\n  e = t0;"),
        "{text}"
    );
    // The weak one returns its success flag, which a spurious failure
    // clears although the value read is the expected one.
    let text = translate(&src("weak")).expect("translates");
    assert!(
        text.contains("t0, t1 = cas_weak(x, e, 2, acq_rel, acq);\n  b = t1;\n  e = t0;"),
        "{text}"
    );
}

#[test]
fn a_plain_access_is_non_atomic_whatever_the_parameter_type() {
    // herd's C parser reads `*x` as a plain access (no memory order) also
    // on an `atomic_int*`.
    let src = "C Plain\n{ x = 0; y = 0; }\nP0 (atomic_int* x, int* y) {\n  *x = 1;\n  int r0 = *x;\n  *y = r0;\n}\nexists (0:r0=1)\n";
    let text = translate(src).expect("translates");
    assert!(
        text.contains("  store(x, 1, na);\n  r0 = load(x, na);\n  store(y, r0, na);\n"),
        "{text}"
    );
}

#[test]
fn atomic_init_and_the_wider_integer_types_are_read() {
    // C11's `ATOMIC_INIT(n)` initialises to n; herd's own regression tests
    // use `__int128_t` and `atomic_llong`, which hold integers like `int`.
    let src = "C Wide\n{ atomic_llong x = ATOMIC_INIT(3); __int128_t y = 1; }\nP0 (atomic_llong* x, __int128_t *y) {\n  __int128_t r0 = *y;\n  long long r1 = atomic_load(x);\n}\nexists (0:r0=1 /\\ 0:r1=3)\n";
    let text = translate(src).expect("translates");
    assert!(text.contains("x = 3;") && text.contains("y = 1;"), "{text}");
    assert!(text.contains("r0 = load(y, na);"), "{text}");
}

#[test]
fn an_unknown_type_is_named_as_a_type() {
    // It used to be read as a parameter name, and the test refused as
    // "a parameter that is not a pointer".
    for src in [
        "C T\n{ x = 0; }\nP0 (my_int *x) {\n  *x = 1;\n}\nexists (x=1)\n",
        "C T\n{ x = 0; }\nP0 (int *x) {\n  my_int r0 = *x;\n}\nexists (0:r0=1)\n",
    ] {
        let err = translate(src).expect_err("refused");
        assert!(err.to_string().contains("the type `my_int`"), "{err}");
    }
}

#[test]
fn cas_with_a_shared_expected_reads_it_and_writes_it_back_on_failure() {
    let src = "C CAS\n{ x = 1; y = 1; }\nP0 (atomic_int* x, int* y) {\n  int b = atomic_compare_exchange_strong_explicit(x, y, 2, memory_order_acq_rel, memory_order_acquire);\n}\nexists (0:b=1 /\\ y=1)\n";
    let text = translate(src).expect("translates");
    assert!(
        text.contains(
            "  t0 = load(y, na);\n  t1 = cas(x, t0, 2, acq_rel, acq);\n  b = t1 == t0;\n  if (t1 != t0) {\n    store(y, t1, na);\n  }\n"
        ),
        "{text}"
    );
    relaxlab_grammar::parse(&text).expect("parses");
}

/// An `else if` that reads no location continues the chain; one that does
/// nests, with its access inside the `else` (C performs it only there).
#[test]
fn accesses_inside_expressions_are_hoisted_left_to_right() {
    let src = "C Hoist\n{ x = 0; y = 0; }\nP0 (int* x, atomic_int* y) {\n  int r0 = *x + 2 * atomic_load_explicit(y, memory_order_acquire);\n  *x = *x + 1;\n  if (*x == 1) { r0 = 1; } else if (r0) r0 = 2; else if (*x == 2) r0 = 3; else r0 = 4;\n}\nexists (0:r0=0)\n";
    let text = translate(src).expect("translates");
    let body = "  t0 = load(x, na);\n  t1 = load(y, acq);\n  r0 = t0 + 2 * t1;\n  t2 = load(x, na);\n  store(x, t2 + 1, na);\n  t3 = load(x, na);\n  if (t3 == 1) {\n    r0 = 1;\n  } else if (r0) {\n    r0 = 2;\n  } else {\n    t4 = load(x, na);\n    if (t4 == 2) {\n      r0 = 3;\n    } else {\n      r0 = 4;\n    }\n  }\n";
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

#[test]
fn c_tests_survive_the_round_trip_through_to_herd_c() {
    for path in litmus_files(&root().join("litmus/herd/c")) {
        let src = fs::read_to_string(&path).expect("readable");
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("name");
        let first = translate(&src).expect("translates");
        let ast = relaxlab_grammar::parse(&first).expect("parses");
        let herd =
            to_herd_c(&ast).unwrap_or_else(|e| panic!("{stem}:\n{}", e.render(stem, &first, 80)));
        let second = translate(&herd).unwrap_or_else(|e| {
            panic!(
                "{stem}: printed herd C does not translate:\n{}",
                e.render(stem, &herd, 80)
            )
        });
        relaxlab_grammar::parse(&second).expect("parses");
        // A CAS comes back through a C temporary; everything else is
        // printed back exactly.
        if !first.contains("cas(") {
            assert_eq!(first, second, "{stem}: herd C was\n{herd}");
        }
    }
}

#[test]
fn to_herd_c_prints_cas_through_the_expected_variable() {
    let src = "test T\ninit { x = 1; }\nthread P0 {\n  r = cas(x, 1, 2, acq_rel);\n  if (r == 1) { s = -r; }\n}\nexists (P0:r = 1 /\\ x != 2)\nobserve { x; }\n";
    let ast = relaxlab_grammar::parse(src).expect("parses");
    let herd = to_herd_c(&ast).expect("prints");
    assert_eq!(
        herd,
        "C T\n\n{ x = 1; }\n\nP0 (atomic_int* x) {\n  int s = 0;\n  int c0 = 1;\n  \
         atomic_compare_exchange_strong_explicit(x, &c0, 2, memory_order_acq_rel, memory_order_acquire);\n  \
         int r = c0;\n  if (r == 1) {\n    s = -r;\n  }\n}\n\nlocations [x;]\nexists (0:r=1 /\\ ~(x=2))\n"
    );
    translate(&herd).expect("translates back");
}

#[test]
fn to_herd_c_refuses_what_herd_c_cannot_say() {
    let src = "test T\ninit { x = 0; }\nthread P0 {\n  store(x, 1, rlx);\n  fence(full);\n  while (r == 0) { r = load(x, acq); }\n  x = 2;\n}\n";
    let ast = relaxlab_grammar::parse(src).expect("parses");
    let err = to_herd_c(&ast).expect_err("refused");
    let text = err.render("T.litmus", src, 80);
    for what in ["hardware barrier", "`while`"] {
        assert!(text.contains(what), "{text}");
    }
}

#[test]
fn to_herd_c_prints_a_mixed_location_as_int_with_atomic_calls() {
    // `x` is stored atomically and plainly: an `int*` (a plain `*x` on an
    // `atomic_int*` would be seq_cst), its atomic accesses the explicit
    // calls; `y`, atomic only, stays `atomic_int*`.
    let src = "test T\ninit { x = 0; y = 0; }\nthread P0 {\n  store(x, 1, rlx);\n  x = 2;\n  store(y, 1, rel);\n}\n";
    let ast = relaxlab_grammar::parse(src).expect("parses");
    let herd = to_herd_c(&ast).expect("prints");
    assert!(
        herd.contains(
            "P0 (int* x, atomic_int* y) {\n  atomic_store_explicit(x, 1, memory_order_relaxed);\n  *x = 2;\n"
        ),
        "{herd}"
    );
    let back = translate(&herd).expect("translates back");
    assert!(
        back.contains("store(x, 1, rlx);\n  store(x, 2, na);\n  store(y, 1, rel);"),
        "{back}"
    );
}

/// herd's grouping is kept, where herd's `=>` binds tighter than `/\\`.
#[test]
fn the_condition_language_keeps_its_structure() {
    let src = "C T\n{ x = 0; }\nP0 (atomic_int* x) {\n  int r0 = atomic_load(x);\n}\n\
               locations [x; 0:r0;]\nfilter (0:r0=1 \\/ ~[x]=2)\n\
               forall (true => x=0x1 /\\ (0:r0 != 1 \\/ false))\n";
    let text = translate(src).expect("translates");
    assert!(
        text.ends_with(
            "observe { x; 0:r0; }\nfilter (0:r0 = 1 \\/ ~x = 2)\n\
             forall ((true => x = 1) /\\ (0:r0 != 1 \\/ false))\n"
        ),
        "{text}"
    );
    let ast = relaxlab_grammar::parse(&text).expect("parses");
    relaxlab_grammar::lower(&ast).expect("lowers");
    let not_exists = "X86 T\n{ }\n P0 ;\n MOV [x],$1 ;\n~exists ([x]=0)\n";
    let text = translate(not_exists).expect("translates");
    assert!(
        text.contains("init { x = 0; }") && text.ends_with("~exists (x = 0)\n"),
        "{text}"
    );
}

proptest::proptest! {
    /// No input makes an importer panic: it translates or it explains.
    #[test]
    fn importers_never_panic(
        arch in proptest::sample::select(vec!["C", "X86", "X86_64"]),
        body in "[ -~\n]{0,200}",
    ) {
        let src = format!("{arch} T\n{body}");
        if let Err(e) = translate(&src) {
            proptest::prop_assert!(!e.errors().is_empty());
            let _ = e.render("t.litmus", &src, 80);
        }
    }

    /// Mutations of a real test: tokens dropped or duplicated.
    #[test]
    fn importers_never_panic_on_damaged_tests(cut in 0usize..400, len in 0usize..40) {
        for sub in ["c/MP+rel+cas-acq", "x86/SB+xchgs", "c/MP+na+rel+acq"] {
            let path = root().join(format!("litmus/herd/{sub}.litmus"));
            let src = fs::read_to_string(path).expect("readable");
            let cut = cut.min(src.len());
            let end = (cut + len).min(src.len());
            if !src.is_char_boundary(cut) || !src.is_char_boundary(end) {
                continue;
            }
            let damaged = format!("{}{}", &src[..cut], &src[end..]);
            let doubled = format!("{}{}", &src[..end], &src[cut..]);
            for s in [damaged, doubled] {
                if let Err(e) = translate(&s) {
                    let _ = e.render("t.litmus", &s, 80);
                }
            }
        }
    }
}
