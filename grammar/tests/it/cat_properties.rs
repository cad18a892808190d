//! Property: whatever text a cat file holds, compiling it ends with a
//! model or a diagnostic, never a panic, and a model it compiles to runs
//! on a program without panicking.

use proptest::prelude::*;
use relaxlab_grammar::cat::{compile, CatLoader, Loaded, NotFound};

struct NoFiles;

impl CatLoader for NoFiles {
    fn load(&mut self, _: &str, _: &str) -> Result<Loaded, NotFound> {
        Err(NotFound { searched: vec![] })
    }
}

const SB: &str = "test SB\ninit { x = 0; y = 0; }\n\
    thread P0 { store(x, 1, sc); r0 = fetch_add(y, 1, rlx); fence(sc); }\n\
    thread P1 { store(y, 1, rlx); r0 = load(x, acq); }\n\
    exists (P0:r0 = 0 /\\ P1:r0 = 0)";

/// Words and symbols of cat, glued at random.
const PIECES: &[&str] = &[
    "let ",
    "rec ",
    "and ",
    "in ",
    "acyclic ",
    "irreflexive ",
    "empty ",
    "as ",
    "flag ",
    "~",
    "show ",
    "unshow ",
    "include \"x.cat\" ",
    "with ",
    "from ",
    "linearisations",
    "fun ",
    "->",
    "try ",
    "match ",
    "end ",
    "procedure ",
    "call ",
    "enum ",
    "'t ",
    "if ",
    "\"v\" ",
    "else ",
    "po",
    "rf",
    "co",
    "fr",
    "W",
    "R",
    "M",
    "F",
    "SC",
    "_",
    "0",
    "x",
    "y",
    "f",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "|",
    "||",
    "&",
    ";",
    "\\",
    "*",
    "+",
    "?",
    "^-1",
    "=",
    ",",
    " ",
    "\n",
    "(* c *)",
    "domain",
    "range",
    "C ",
    "TSO ",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn compiling_never_panics(pieces in proptest::collection::vec(0..PIECES.len(), 0..40)) {
        let text: String = pieces.iter().map(|&i| PIECES[i]).collect();
        let root = Loaded { key: "p.cat".into(), display: "p.cat".into(), text: text.clone() };
        match compile(root, "p", &mut NoFiles) {
            Err(e) => {
                let rendered = e.render(80);
                prop_assert!(rendered.contains("relaxlab::cat::"), "{}", rendered);
            }
            Ok(compiled) => {
                for w in &compiled.warnings {
                    let rendered = w.render(80);
                    prop_assert!(w.is_warning() && rendered.contains("relaxlab::cat::"), "{}", rendered);
                }
                let model = compiled.model;
                let program = relaxlab_grammar::load(SB).unwrap();
                let opts = relaxlab_semantics::axiomatic::AxOptions::default();
                relaxlab_semantics::axiomatic::run_cat(&program, &model, &opts).unwrap();
            }
        }
    }
}
