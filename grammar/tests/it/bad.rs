//! Snapshots of the diagnostics of every malformed input in `tests/bad/`:
//! the source, then the rendered diagnostics (no colour, width 80). A file
//! that loads is checked against the C11 model `c11r` (the model-dependent
//! checks); a file that passes both is a failure of this test.

use std::path::Path;

use relaxlab_grammar::{check_model, load};
use relaxlab_semantics::ir::{ModelKey, OpModel};

fn bad_files() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/bad");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/bad exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "litmus"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_bad_file_is_rejected_with_its_diagnostics() {
    let files = bad_files();
    assert!(files.len() >= 30, "only {} malformed inputs", files.len());
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        assert!(
            src.starts_with("// "),
            "{name}: first line must say what is wrong"
        );
        let shown = format!("bad/{name}.litmus");
        let errors = match load(&src) {
            Err(e) => e,
            Ok(p) => match check_model(&p, ModelKey::Op(OpModel::C11r)) {
                Err(e) => e,
                Ok(()) => panic!("{name} was accepted"),
            },
        };
        let rendered = errors.render(&shown, &src, 80);
        // Users have the book, not the repository's design documents.
        assert!(
            !["MODELS", "LANGUAGE"]
                .iter()
                .any(|d| rendered.contains(&format!("{d}.md"))),
            "{name}: a help line names a file users do not have:\n{rendered}"
        );
        insta::with_settings!({
            snapshot_path => "snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(format!("bad__{name}"), format!("{src}\n---\n{rendered}"));
        });
    }
}
