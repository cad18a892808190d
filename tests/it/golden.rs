//! Golden outcome tables: every litmus file (but the benchmarks) under every
//! model that applies to it, operational and axiomatic, with state and
//! transition counts of the full search. A change in behaviour or in state-space size shows up
//! as a snapshot diff to review.
//!
//! Which models apply: every model whose static check the program passes
//! (the four hardware models always; `c11r`, `c11t` and the axiomatic C11
//! models without hardware barriers, `ax.c11`, `ax.rc11`, `ra` and `ax.ra`
//! also with mixed atomicity); the axiomatic models only for loop-free programs.

use crate::support;

use relaxlab::engine::{self, Settings};
use relaxlab::render::table::Mode;
use relaxlab_semantics::ir::{AxModel, ModelKey, OpModel, Program};

fn applicable(program: &Program) -> Vec<ModelKey> {
    let mut keys: Vec<ModelKey> = OpModel::ALL.into_iter().map(ModelKey::Op).collect();
    if !program.has_loops() {
        keys.extend(
            AxModel::ALL
                .into_iter()
                .filter(|&m| m != AxModel::C11t)
                .map(ModelKey::Ax),
        );
    }
    keys.retain(|&k| relaxlab_grammar::check_model(program, k).is_ok());
    keys
}

/// The snapshot name of a litmus file: its path under litmus/ with `__`
/// for `/` and without the extension.
fn snapshot_name(path: &std::path::Path) -> String {
    let rel = support::relative(path);
    rel.trim_start_matches("litmus/")
        .trim_end_matches(".litmus")
        .replace('/', "__")
}

fn golden_files() -> Vec<std::path::PathBuf> {
    support::litmus_files("litmus")
        .into_iter()
        .filter(|p| {
            // Kernel tests run only under herd7's configuration (lkmm.rs).
            let rel = support::relative(p);
            !rel.starts_with("litmus/bench/") && !rel.starts_with("litmus/kernel/")
        })
        .collect()
}

/// The tables are those of the full search (`--reduction none`): the
/// goldens are about the models, and their state counts measure the
/// models' state spaces. `tests/it/reduction.rs` checks that the reduced
/// search reports the same and pins its state counts.
#[test]
fn golden_outcome_tables() {
    let settings = Settings {
        reduction: relaxlab_semantics::operational::Reduction::None,
        ..Settings::default()
    };
    for path in golden_files() {
        let file = relaxlab::files::read(&path).unwrap();
        let program = relaxlab::load::program(&file)
            .unwrap_or_else(|e| panic!("{} does not load: {e:?}", path.display()));
        let text = file.text;
        let mut body = String::new();
        for key in applicable(&program) {
            let ran = engine::program_for(&program, key, &settings);
            let table = engine::run(&program, key, &settings)
                .unwrap_or_else(|e| panic!("{} under {key}: {e}", path.display()));
            let mode = if matches!(key, ModelKey::Ax(_)) {
                Mode::Axiomatic
            } else {
                Mode::Exhaustive
            };
            body.push_str(&relaxlab::commands::run::render_table(
                &ran, key, &table, mode, false,
            ));
            body.push('\n');
        }
        insta::with_settings!({
            snapshot_path => "../golden",
            prepend_module_to_snapshot => false,
            description => support::relative(&path),
            omit_expression => true,
        }, {
            insta::assert_snapshot!(snapshot_name(&path), format!("{text}\n---\n{body}"));
        });
    }
}

/// `cargo insta test --unreferenced=reject`, without cargo-insta: every
/// golden snapshot belongs to a litmus file that still exists.
#[test]
fn no_orphan_golden_snapshots() {
    let names: std::collections::BTreeSet<String> =
        golden_files().iter().map(|p| snapshot_name(p)).collect();
    let dir = support::root().join("tests/golden");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut orphans = Vec::new();
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(name) = file.strip_suffix(".snap") else {
            orphans.push(file);
            continue;
        };
        if !names.contains(name) {
            orphans.push(file);
        }
    }
    assert!(
        orphans.is_empty(),
        "snapshots without a litmus file (delete them): {orphans:?}"
    );
}
