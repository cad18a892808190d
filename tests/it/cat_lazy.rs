//! herd7's order of evaluation in cat models: a binding is evaluated
//! where it is used, and `show` skips what is not defined, so herd's own
//! library models, which define every architecture's fences, run
//! unchanged (book: cat.md, Lazy bindings).

use crate::support::{self, root};
use relaxlab::engine::Settings;
use relaxlab_semantics::axiomatic::{run_judges, Judge};
use relaxlab_semantics::ir::AxModel;

/// `tests/cat/herdlike/lazy-sc.cat` (herd's `sc.cat`, with `sm`, and
/// bindings and shows that would fail if evaluated) gives `ax.sc`'s
/// verdicts and outcomes on the classic tests, and draws `po` alone.
#[test]
fn unused_failing_bindings_and_undefined_shows_are_no_error() {
    let model = relaxlab::cat::load(&root().join("tests/cat/herdlike/lazy-sc.cat"), &[]).unwrap();
    let opts = relaxlab::engine::ax_options(&Settings::default());
    let mut compared = 0;
    for path in support::litmus_files("litmus/classic") {
        let rel = support::relative(&path);
        let file = relaxlab::files::read(&path).unwrap();
        let program = relaxlab::load::program(&file).unwrap();
        if program.has_loops() {
            continue;
        }
        let judges = [Judge::Model(AxModel::Sc), Judge::Cat(model.model.clone())];
        let tables = run_judges(&program, &judges, &opts).unwrap();
        let rows = |i: usize| -> Vec<Vec<i64>> {
            tables[i].rows.iter().map(|r| r.values.clone()).collect()
        };
        assert_eq!(tables[0].verdict(), tables[1].verdict(), "{rel}");
        assert_eq!(rows(0), rows(1), "{rel}");
        compared += 1;
    }
    assert!(compared >= 10, "only {compared} tests");
    let (code, out, err) = support::relaxlab(&[
        "run",
        "litmus/classic/MP.litmus",
        "--cat",
        "tests/cat/herdlike/lazy-sc.cat",
        "--dot",
        "-",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("label=\"po\""), "{out}");
    assert!(
        !out.contains("nothing") && !out.contains("NOT_DEFINED"),
        "{out}"
    );
}
