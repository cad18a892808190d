//! A look-alike character pasted into a herd test (a curly quote, a Unicode
//! minus, a non-breaking space, ...) gets the front end's diagnostic from
//! the shared table: the character named, its code point, what to type
//! instead, and a label on exactly that character, under the herd code
//! `relaxlab::herd::lookalike`.

use miette::Diagnostic;
use relaxlab_grammar::herd::{translate, HerdError, HerdLookalike};
use relaxlab_grammar::LexError;

const C_MP: &str = "C MP\n{ x = 0; y = 0; }\n\n\
P0 (atomic_int* x, atomic_int* y) {\n  \
atomic_store_explicit(x, 1, memory_order_relaxed);\n  \
atomic_store_explicit(y, 1, memory_order_release);\n}\n\n\
P1 (atomic_int* x, atomic_int* y) {\n  \
int r0 = atomic_load_explicit(y, memory_order_acquire);\n  \
int r1 = atomic_load_explicit(x, memory_order_relaxed);\n}\n\n\
exists (1:r0=1 /\\ 1:r1=0)\n";

const X86_SB: &str = "X86 SB\n{ x=0; y=0; }\n \
P0          | P1          ;\n \
MOV [x],$1  | MOV [y],$1  ;\n \
MOV EAX,[y] | MOV EAX,[x] ;\n\
exists (0:EAX=0 /\\ 1:EAX=0)\n";

/// `src` with the first `from` replaced by `to`.
fn paste(src: &str, from: &str, to: &str) -> String {
    assert!(src.contains(from), "no `{from}` to replace");
    src.replacen(from, to, 1)
}

/// The single look-alike error of a refused translation.
fn lookalike_error(src: &str) -> HerdLookalike {
    let errors = match translate(src) {
        Ok(text) => panic!("accepted:\n{text}"),
        Err(e) => e,
    };
    let found: Vec<&HerdError> = errors
        .errors()
        .iter()
        .filter(|e| matches!(e, HerdError::Lookalike(_)))
        .collect();
    match found.as_slice() {
        [HerdError::Lookalike(e)] => e.clone(),
        _ => panic!("{}", errors.render("t.litmus", src, 80)),
    }
}

/// Checks name, code point, replacement, code and label position.
fn check(src: &str, at: char, name: &str, instead: &str) {
    let e = lookalike_error(src);
    let text = e.to_string();
    let code_point = format!("U+{:04X}", u32::from(at));
    assert!(text.contains(name), "{text}");
    assert!(text.contains(&code_point), "{text}");
    assert!(text.contains(instead), "{text}");
    let code = e.code().map(|c| c.to_string());
    assert_eq!(code.as_deref(), Some("relaxlab::herd::lookalike"));
    assert!(
        matches!(e.lex_error(), LexError::Lookalike { code, .. } if *code == u32::from(at)),
        "{:?}",
        e.lex_error()
    );
    let help = e.help().map(|h| h.to_string()).unwrap_or_default();
    assert!(help.contains(&format!("type {instead} instead")), "{help}");
    let label = e.labels().and_then(|mut l| l.next()).expect("a label");
    let offset = src.find(at).expect("the pasted character");
    assert_eq!(
        (label.offset(), label.len()),
        (offset, at.len_utf8()),
        "the label covers the character"
    );
}

#[test]
fn herd_c_curly_quote_is_named() {
    let src = paste(
        C_MP,
        "memory_order_relaxed);\n}\n\nexists",
        "memory_order_relaxed)\u{2019};\n}\n\nexists",
    );
    check(
        &src,
        '\u{2019}',
        "a curly single quote",
        "a straight quote `'`",
    );
}

#[test]
fn herd_c_unicode_minus_in_an_expression_is_named() {
    let src = paste(
        C_MP,
        "(x, 1, memory_order_relaxed)",
        "(x, \u{2212}1, memory_order_relaxed)",
    );
    check(&src, '\u{2212}', "a Unicode minus sign", "`-`");
}

#[test]
fn herd_x86_non_breaking_space_is_named() {
    let src = paste(X86_SB, "MOV EAX,[y]", "MOV\u{a0}EAX,[y]");
    check(&src, '\u{a0}', "a non-breaking space", "a plain space");
}

#[test]
fn herd_x86_logic_sign_in_the_condition_is_named() {
    let src = paste(X86_SB, "0:EAX=0 /\\ 1:EAX=0", "0:EAX=0 \u{2227} 1:EAX=0");
    check(&src, '\u{2227}', "the logical-and sign", "`/\\`");
}

#[test]
fn other_unknown_characters_keep_the_herd_diagnostic() {
    let src = paste(X86_SB, "MOV EAX,[y]", "MOV EAX,[y]\u{b5}");
    let errors = translate(&src).expect_err("refused");
    let bad: Vec<&HerdError> = errors.errors().iter().collect();
    assert!(
        matches!(
            bad.as_slice(),
            [HerdError::BadChar {
                found: '\u{b5}',
                ..
            }]
        ),
        "{}",
        errors.render("t.litmus", &src, 80)
    );
}

#[test]
fn both_lexers_name_a_lookalike_alike() {
    // The same character in a relaxlab file and in a herd file: one
    // diagnostic text.
    let litmus = "test T\ninit { x = 0; }\nthread P0 { store(x, \u{2212}1, rlx); }\n";
    let front = match relaxlab_grammar::parse(litmus) {
        Ok(_) => panic!("accepted"),
        Err(e) => e,
    };
    let front_text = front
        .errors()
        .iter()
        .map(ToString::to_string)
        .find(|t| t.contains("U+2212"))
        .expect("the front end names the minus");
    let src = paste(
        C_MP,
        "(x, 1, memory_order_relaxed)",
        "(x, \u{2212}1, memory_order_relaxed)",
    );
    assert_eq!(lookalike_error(&src).to_string(), front_text);
}
