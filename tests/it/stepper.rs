//! The stepper (`relaxlab_semantics::analyses::stepper`): every witness of every
//! operational model's exploration of the litmus library replays move by
//! move to its own outcome or failure, and golden views show each model's
//! state as the playground draws it.

use crate::support;

use relaxlab::engine::{self, Settings};
use relaxlab_semantics::analyses::stepper::{self, RunEnd, RunStatus, StepView, ThreadState};
use relaxlab_semantics::ir::{ModelKey, OpModel, Program};
use relaxlab_semantics::outcome::FailureKind;

fn load(path: &str) -> Program {
    let file = relaxlab::files::read(&support::root().join(path)).unwrap();
    relaxlab::load::program(&file).unwrap()
}

/// The view as text: threads, memory, enabled moves, history.
fn render(program: &Program, view: &StepView) -> String {
    let mut out = String::new();
    for th in &view.threads {
        let t = th.thread.index();
        let state = match th.state {
            ThreadState::Running { next } => {
                format!("next: {}", program.threads[t].code[next.index()].text)
            }
            ThreadState::NotStarted => "not started".into(),
            ThreadState::Finished => "finished".into(),
        };
        let regs: Vec<String> = th
            .registers
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        out.push_str(&format!(
            "{} ({state}) {}\n",
            program.threads[t].name,
            regs.join(" ")
        ));
        for g in &view.memory.threads[t] {
            out.push_str(&format!("  {}\n", group(g)));
        }
    }
    for g in &view.memory.shared {
        out.push_str(&format!("{}\n", group(g)));
    }
    out.push_str(&format!("status: {:?}\n", view.status));
    for m in &view.moves {
        out.push_str(&format!("  [{}] {}", m.choice, m.lines.join(" / then ")));
        if let Some(e) = &m.ends {
            out.push_str(&format!("  (ends: {e:?})"));
        }
        out.push('\n');
    }
    out
}

fn group(g: &relaxlab_semantics::picture::Group) -> String {
    let cells: Vec<String> = g
        .cells
        .iter()
        .map(|c| match &c.note {
            Some(n) => format!("[{} ({n})]", c.text),
            None => format!("[{}]", c.text),
        })
        .collect();
    let hint = g
        .hint
        .as_ref()
        .map(|h| format!(" ({h})"))
        .unwrap_or_default();
    format!("{}{hint}: {}", g.title, cells.join(" "))
}

/// Takes the moves whose labels start with `labels`, in order, and
/// returns the text of every view on the way.
fn walk(path: &str, model: OpModel, labels: &[&str]) -> String {
    let program = load(path);
    let ran = engine::program_for(&program, ModelKey::Op(model), &Settings::default());
    let mut choices = Vec::new();
    let mut out = format!("{path} under {}\n", model.name());
    for label in labels.iter().copied().map(Some).chain([None]) {
        let view = stepper::view(&ran, model, &choices, choices.len()).unwrap();
        out.push_str(&format!("\n== after {} moves\n", choices.len()));
        out.push_str(&render(&ran, &view));
        let Some(label) = label else { break };
        let m = view
            .moves
            .iter()
            .find(|m| m.lines[0].starts_with(label))
            .unwrap_or_else(|| panic!("no move `{label}` in\n{out}"));
        choices.push(m.choice);
    }
    out
}

fn golden(name: &str, text: String) {
    assert!(GOLDEN.contains(&name), "add `{name}` to GOLDEN");
    insta::with_settings!({
        snapshot_path => "../stepper",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name, text);
    });
}

#[test]
fn tso_store_buffers() {
    golden(
        "sb-tso",
        walk(
            "litmus/classic/SB.litmus",
            OpModel::Tso,
            &[
                "P0: store",
                "P1: store",
                "P0: r0 = load",
                "P1: r0 = load",
                "P0: commit",
            ],
        ),
    );
}

#[test]
fn pso_buffers_per_location() {
    golden(
        "mp-pso",
        walk(
            "litmus/classic/MP.litmus",
            OpModel::Pso,
            &[
                "P0: store(x",
                "P0: store(y",
                "P0: commit y",
                "P1: r0 = load(y",
            ],
        ),
    );
}

#[test]
fn pslo_histories() {
    golden(
        "iriw-pslo",
        walk(
            "litmus/classic/IRIW.litmus",
            OpModel::Pslo,
            &["P0: store", "P0: commit", "P2: r0 = load(x"],
        ),
    );
}

#[test]
fn c11r_store_lists_and_clocks() {
    golden(
        "mp-rel-acq-c11r",
        walk(
            "litmus/c11/MP+rel+acq+data.litmus",
            OpModel::C11r,
            &[
                "P0: store(data",
                "P0: store(flag",
                "P1: r0 = load(flag, acq)  [read 1]",
            ],
        ),
    );
}

#[test]
fn c11t_mo_graphs() {
    golden(
        "2+2w-c11t",
        walk(
            "litmus/classic/2+2W.litmus",
            OpModel::C11t,
            &[
                "P0: store(x",
                "P0: store(y",
                "P1: store(y",
                "P1: store(x",
                "P0: end",
                "P1: end",
            ],
        ),
    );
}

#[test]
fn a_walk_that_does_not_replay_is_refused() {
    let program = load("litmus/classic/SB.litmus");
    let ran = engine::program_for(&program, ModelKey::Op(OpModel::Sc), &Settings::default());
    assert_eq!(
        stepper::view(&ran, OpModel::Sc, &[0, 7], 2),
        Err(stepper::StepError::NoSuchMove { at: 1 })
    );
    assert_eq!(
        stepper::view(&ran, OpModel::Sc, &[0], 2),
        Err(stepper::StepError::BadPosition {
            position: 2,
            len: 1
        })
    );
    // The history after the position is replayed and labelled too.
    let view = stepper::view(&ran, OpModel::Sc, &[0, 0], 1).unwrap();
    assert_eq!(view.history.len(), 2);
    assert_eq!(view.history[0], ["P0: store(x, 1, rlx)  [x := 1]"]);
}

/// Every witness of every operational model on the library (but the
/// benchmarks) is replayed by the stepper, which shows every enabled move
/// (no reduction), to the witness's own outcome or failure.
#[test]
fn every_witness_of_the_library_replays_in_the_stepper() {
    let settings = Settings {
        max_states: 200_000,
        mark_non_sc: false,
        ..Settings::default()
    };
    let mut replayed = 0;
    for path in support::litmus_files("litmus") {
        let rel = support::relative(&path);
        if rel.starts_with("litmus/bench/") || rel.starts_with("litmus/kernel/") {
            continue;
        }
        let file = relaxlab::files::read(&path).unwrap();
        let program = relaxlab::load::program(&file).unwrap();
        for model in OpModel::ALL {
            let key = ModelKey::Op(model);
            if relaxlab_grammar::check_model(&program, key).is_err() {
                continue;
            }
            let ran = engine::program_for(&program, key, &settings);
            let table = engine::run(&program, key, &settings).unwrap();
            let rows = table
                .rows
                .iter()
                .map(|r| (r.witness.as_ref(), Ok(r.values.clone())));
            let failures = table
                .failures
                .iter()
                .map(|f| (f.witness.as_ref(), Err(f.kind.clone())));
            for (witness, expected) in rows.chain(failures) {
                let Some(witness) = witness else { continue };
                let choices = stepper::witness_choices(&ran, model, witness).unwrap_or_else(|| {
                    panic!("{rel} under {}: a witness does not replay", model.name())
                });
                let view = stepper::view(&ran, model, &choices, choices.len()).unwrap();
                let ok = match (&expected, &view.status) {
                    (Ok(values), RunStatus::Final { values: v, .. }) => values == v,
                    (Err(FailureKind::Deadlock), RunStatus::Deadlock) => true,
                    (Err(kind), RunStatus::Ended(RunEnd::Failed(k))) => kind == k,
                    _ => false,
                };
                assert!(
                    ok,
                    "{rel} under {}: the witness of {expected:?} ends in {:?}",
                    model.name(),
                    view.status
                );
                replayed += 1;
            }
        }
    }
    assert!(replayed > 1000, "only {replayed} witnesses replayed");
}

/// The golden views above, for the orphan check.
const GOLDEN: [&str; 5] = [
    "sb-tso",
    "mp-pso",
    "iriw-pslo",
    "mp-rel-acq-c11r",
    "2+2w-c11t",
];

/// No snapshot in tests/stepper/ outlives its test.
#[test]
fn no_orphan_stepper_snapshots() {
    let dir = support::root().join("tests/stepper");
    let orphans: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !GOLDEN.iter().any(|g| *n == format!("{g}.snap")))
        .collect();
    assert!(orphans.is_empty(), "orphan snapshots: {orphans:?}");
}
