//! The operational release/acquire model `ra` against its axiomatic twin
//! `ax.ra` (book: model-ra.md, The axiomatic twin): equal outcome sets and
//! failures on random loop-free programs and on every loop-free test of
//! the litmus library it admits; every witness of `ra` lifts to an
//! execution `ax.ra` accepts, with the same outcome; SC's outcomes are
//! among RA's. Anchors: the classic shapes RA allows (SB, R, IRIW, 2+2W:
//! stores placed before newer ones) and forbids (MP, LB, S, WRC, CoRR).
//!
//!
//! Failures are compared as `compare` compares them
//! (book: op-vs-ax.md, Failures): a failure only `ra` finds must be one
//! `ax.ra` finds once the program's `assume`s and `filter` are dropped,
//! since the operational engine ends an execution where it fails and the
//! axiomatic one builds whole executions, which an `assume` may discard.
//!
//! `RELAXLAB_DIFF_PROGRAMS=N` sets the number of random programs (default
//! 300 in release builds, 50 in debug builds: a few seconds),
//! `RELAXLAB_DIFF_SEED=K` another fixed sequence; `.ci/long-ra` runs the
//! long campaign.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::ax_builder::*;
use relaxlab_semantics::axiomatic::{lift, run_axiomatic, AxOptions};
use relaxlab_semantics::ir::{AxModel, Instr, InstrId, ModelKey, OpModel, Program, Value, Verdict};
use relaxlab_semantics::models::{Ra, Sc};
use relaxlab_semantics::operational::{explore, program_for, ExploreOptions, Reduction};
use relaxlab_semantics::outcome::OutcomeTable;

fn outcomes(t: &OutcomeTable) -> BTreeSet<Vec<Value>> {
    t.rows.iter().map(|r| r.values.clone()).collect()
}

fn failures(t: &OutcomeTable) -> BTreeSet<String> {
    t.failures.iter().map(|f| format!("{:?}", f.kind)).collect()
}

/// Does `p` have an `assume` or a `filter`?
fn has_discards(p: &Program) -> bool {
    p.filter.is_some()
        || p.threads.iter().any(|t| {
            t.code
                .iter()
                .any(|i| matches!(i.instr, Instr::Assume { .. }))
        })
}

/// `p` with its `filter` dropped and every `assume` a jump to the next
/// instruction.
fn without_discards(p: &Program) -> Program {
    let mut p = p.clone();
    p.filter = None;
    for t in &mut p.threads {
        for (i, ins) in t.code.iter_mut().enumerate() {
            if matches!(ins.instr, Instr::Assume { .. }) {
                ins.instr = Instr::Jump {
                    target: InstrId::new(i + 1),
                };
            }
        }
    }
    p
}

/// The number of random programs: `RELAXLAB_DIFF_PROGRAMS`, or a few
/// seconds' worth.
fn ra_programs() -> usize {
    std::env::var("RELAXLAB_DIFF_PROGRAMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 50 } else { 300 })
}

/// The full search: its witnesses are shortest, and every one is lifted.
fn full() -> ExploreOptions {
    ExploreOptions {
        reduction: Reduction::None,
        ..ExploreOptions::default()
    }
}

/// `ra` and `ax.ra` agree on `p` (outcomes, failures), and every witness
/// of `ra` lifts to an execution `ax.ra` accepts with the row's outcome.
/// `false` when a bound cut either side.
fn agree(p: &Program, what: &str) -> bool {
    let ax = run_axiomatic(p, AxModel::Ra, &AxOptions::default()).unwrap();
    let op = explore(p, &Ra, &full());
    if !ax.complete() || !op.complete() {
        return false;
    }
    assert_eq!(
        outcomes(&op),
        outcomes(&ax),
        "ra vs ax.ra on {what}\nonly ra: {:?}\nonly ax.ra: {:?}",
        outcomes(&op).difference(&outcomes(&ax)).collect::<Vec<_>>(),
        outcomes(&ax).difference(&outcomes(&op)).collect::<Vec<_>>(),
    );
    let (op_failures, ax_failures) = (failures(&op), failures(&ax));
    assert!(
        ax_failures.is_subset(&op_failures),
        "failures only ax.ra finds on {what}: {:?}",
        ax_failures.difference(&op_failures).collect::<Vec<_>>()
    );
    if op_failures != ax_failures {
        let plain = without_discards(p);
        let undiscarded = run_axiomatic(&plain, AxModel::Ra, &AxOptions::default()).unwrap();
        let only_op: BTreeSet<_> = op_failures.difference(&ax_failures).cloned().collect();
        assert!(
            has_discards(p) && only_op.is_subset(&failures(&undiscarded)),
            "failures only ra finds on {what}, not explained by a discarded execution: {only_op:?}"
        );
    }
    let ran = program_for(p, &Ra, Default::default());
    for row in &op.rows {
        let witness = row.witness.as_ref().expect("a witness");
        let lifted = lift(&ran, OpModel::Ra, witness).unwrap();
        assert!(
            lifted.verdict.is_ok(),
            "ax.ra rejects the lifted witness of {:?} on {what}: {:?}",
            row.values,
            lifted.verdict
        );
        assert_eq!(lifted.outcome.as_ref(), Some(&row.values), "{what}");
    }
    true
}

#[test]
fn ra_agrees_with_ax_ra_on_random_programs_and_contains_sc() {
    let mut rng = Rng(diff_seed(0x00a0_5eed_0000_0031));
    let (mut skipped, mut weaker) = (0, 0);
    for _ in 0..ra_programs() {
        let p = random_program(&mut rng, false);
        if !agree(&p, &describe(&p)) {
            skipped += 1;
            continue;
        }
        let ra = outcomes(&explore(&p, &Ra, &ExploreOptions::default()));
        let sc = outcomes(&explore(&p, &Sc, &ExploreOptions::default()));
        assert!(
            sc.is_subset(&ra),
            "sc ⊆ ra: sc only {:?}\n{}",
            sc.difference(&ra).collect::<Vec<_>>(),
            describe(&p)
        );
        if sc != ra {
            weaker += 1;
        }
    }
    eprintln!(
        "ra differential: {} programs, {skipped} beyond a bound, {weaker} where ra shows more than sc",
        ra_programs()
    );
    assert!(
        skipped * 100 <= ra_programs(),
        "{skipped} programs beyond the bound"
    );
    assert!(weaker > 0, "no program separates ra from sc");
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../litmus")
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "litmus") {
            out.push(p);
        }
    }
}

/// A test of the library, herd7's formats translated first.
fn load(path: &Path) -> Program {
    use relaxlab_grammar::herd::{self, Dialect};
    let mut text = std::fs::read_to_string(path).unwrap();
    if matches!(herd::detect(&text), Dialect::HerdC | Dialect::HerdX86) {
        text = herd::translate(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
    }
    relaxlab_grammar::load(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()))
}

#[test]
fn ra_agrees_with_ax_ra_on_the_library() {
    let mut files = Vec::new();
    walk(&root(), &mut files);
    let mut compared = 0;
    for path in files {
        let rel = path.strip_prefix(root()).unwrap().display().to_string();
        // The kernel's tests run in herd's C semantics, under the
        // Linux-kernel model only.
        if rel.starts_with("bench/") || rel.starts_with("kernel/") {
            continue;
        }
        let p = load(&path);
        let admitted = relaxlab_grammar::check_model(&p, ModelKey::Op(OpModel::Ra)).is_ok();
        if p.has_loops() || !admitted {
            continue;
        }
        if agree(&p, &rel) {
            compared += 1;
        }
    }
    assert!(compared >= 100, "only {compared} tests compared");
}

#[test]
fn ra_allows_and_forbids_the_classic_shapes() {
    let cases = [
        ("classic/SB.litmus", Verdict::Sometimes),
        ("classic/R.litmus", Verdict::Sometimes),
        ("classic/IRIW.litmus", Verdict::Sometimes),
        ("classic/2+2W.litmus", Verdict::Sometimes),
        ("classic/MP.litmus", Verdict::Never),
        ("classic/LB.litmus", Verdict::Never),
        ("classic/S.litmus", Verdict::Never),
        ("classic/WRC.litmus", Verdict::Never),
        ("classic/CoRR.litmus", Verdict::Never),
    ];
    for (test, verdict) in cases {
        let p = load(&root().join(test));
        let op = explore(&p, &Ra, &ExploreOptions::default());
        assert_eq!(op.verdict(), Some(verdict), "ra on {test}");
        let ax = run_axiomatic(&p, AxModel::Ra, &AxOptions::default()).unwrap();
        assert_eq!(ax.verdict(), Some(verdict), "ax.ra on {test}");
    }
}
