//! The cat evaluator on small models whose answers are known: data and
//! control dependencies, `flag` and `undefined_unless`, `let rec`, and
//! `with` over linearisations.

use std::sync::Arc;

use relaxlab_grammar::cat::{compile, CatLoader, Loaded, NotFound};
use relaxlab_semantics::axiomatic::cat::CatModel;
use relaxlab_semantics::axiomatic::{run_cat, AxOptions};
use relaxlab_semantics::ir::{Program, Value};
use relaxlab_semantics::outcome::OutcomeTable;

struct NoFiles;

impl CatLoader for NoFiles {
    fn load(&mut self, _: &str, _: &str) -> Result<Loaded, NotFound> {
        Err(NotFound { searched: vec![] })
    }
}

fn model(text: &str) -> Arc<CatModel> {
    let root = Loaded {
        key: "test.cat".into(),
        display: "test.cat".into(),
        text: text.into(),
    };
    compile(root, "test", &mut NoFiles)
        .unwrap_or_else(|e| panic!("{}", e.render(80)))
        .model
}

fn program(text: &str) -> Program {
    relaxlab_grammar::load(text).unwrap_or_else(|e| panic!("{e:?}"))
}

fn run(p: &Program, m: &str) -> OutcomeTable {
    run_cat(p, &model(m), &AxOptions::default()).unwrap()
}

fn outcomes(t: &OutcomeTable) -> Vec<Vec<Value>> {
    t.rows.iter().map(|r| r.values.clone()).collect()
}

/// Load buffering where each store depends on the load before it, by
/// data in P0 and by control in P1, though the values stored are
/// constants (false dependencies, as herd7 counts them).
const LB_DEPS: &str = "test LB+data+ctrl
init { x = 0; y = 0; }
thread P0 { r0 = load(x, rlx); store(y, r0 * 0 + 1, rlx); }
thread P1 { r1 = load(y, rlx); if (r1 == r1) { store(x, 1, rlx); } }
exists (P0:r0 = 1 /\\ P1:r1 = 1)";

/// The same shape without dependencies.
const LB: &str = "test LB
init { x = 0; y = 0; }
thread P0 { r0 = load(x, rlx); store(y, 1, rlx); }
thread P1 { r1 = load(y, rlx); store(x, 1, rlx); }
exists (P0:r0 = 1 /\\ P1:r1 = 1)";

#[test]
fn dependencies_order_load_buffering() {
    let deps = "C deps\nacyclic data | ctrl | rf as no-dependency-cycle";
    let lb_deps = program(LB_DEPS);
    let t = run(&lb_deps, deps);
    assert!(!outcomes(&t).contains(&vec![1, 1]), "{t:?}");
    assert_eq!(outcomes(&t).len(), 3);
    // Without the dependency relations the cycle is allowed.
    let t = run(&lb_deps, "C nodeps\nacyclic addr | rf");
    assert!(outcomes(&t).contains(&vec![1, 1]));
    // Stores of constants depend on nothing.
    let t = run(&program(LB), deps);
    assert!(outcomes(&t).contains(&vec![1, 1]));
    // Data goes to the store only, control to everything after the branch.
    let t = run(
        &lb_deps,
        "C only-data\nempty data \\ (R * W) as data-is-read-to-write\nempty data & int \\ (R * W)",
    );
    assert_eq!(t.rows.len(), 4);
}

#[test]
fn flags_report_and_undefined_unless_reports_the_failure() {
    let p = program(LB);
    // `flag` fires when its check holds: every execution has a read.
    let t = run(&p, "C f\nflag ~empty [R] as has-reads");
    assert!(t.rows.iter().all(|r| r.racy));
    // `undefined_unless` fires when its check fails: no execution is
    // flagged when the check always holds.
    let t = run(&p, "C u\nundefined_unless empty [F] as no-fences");
    assert!(t.rows.iter().all(|r| !r.racy));
    let t = run(&p, "C u\nundefined_unless empty [R] as no-reads");
    assert!(t.rows.iter().all(|r| r.racy));
    // A flag is no check: nothing is rejected.
    assert_eq!(t.rows.len(), 4);
}

#[test]
fn let_rec_computes_least_fixed_points() {
    let p = program(LB);
    let closure = run(&p, "C a\nlet com = rf | co | fr\nacyclic po | com");
    let rec = run(
        &p,
        "C b\nlet com = rf | co | fr\nlet rec t = po | com | (t ; t)\nirreflexive t",
    );
    let mutual = run(
        &p,
        "C c\nlet rec a = po | (b ; b) and b = rf | co | fr | a\nirreflexive b",
    );
    let sets = run(
        &p,
        "C d\nlet rec s = IW | range([s]; rf)\nempty R \\ s as reads-init-or-not",
    );
    assert_eq!(outcomes(&closure), outcomes(&rec));
    assert_eq!(outcomes(&closure), outcomes(&mutual));
    assert!(outcomes(&sets).len() < 4, "{sets:?}");
}

#[test]
fn with_chooses_from_linearisations() {
    let p = program(LB);
    // Some total order of the memory events extends po and rf: SC's LB.
    let t = run(
        &p,
        "C w\nlet E = M \\ IW\nwith s from linearisations(E, po | rfe)\nempty ([E]; (po | rfe); [E]) \\ s as extends",
    );
    assert!(!outcomes(&t).contains(&vec![1, 1]));
    assert_eq!(outcomes(&t).len(), 3);
    // No order of an empty set: one choice, the empty order.
    let t = run(&p, "C e\nwith s from linearisations(F, po)\nempty s");
    assert_eq!(outcomes(&t).len(), 4);
    // Negated checks after a `with`.
    let t = run(&p, "C n\nwith s from linearisations(W \\ IW, 0)\n~empty s");
    assert_eq!(outcomes(&t).len(), 4);
    let t = run(&p, "C m\nwith s from linearisations(R, 0)\n~acyclic s");
    assert!(t.rows.is_empty());
}
