//! Lifted operational witnesses at the command line: `run --model M --dot`
//! draws the lifted witness of every outcome, and `compare` shows the
//! lifted witness of an outcome only the operational model reaches with
//! the axiom of the twin that rejects it.

use crate::support::relaxlab;

/// The DOT graphs of an output: everything from the first `digraph` on,
/// split before each graph.
fn graphs(out: &str) -> Vec<String> {
    let Some(start) = out.find("digraph") else {
        return Vec::new();
    };
    out[start..]
        .split("digraph")
        .filter(|g| !g.trim().is_empty())
        .map(|g| format!("digraph{}", g.trim_end()))
        .collect()
}

#[test]
fn run_tso_dot_draws_a_lifted_witness_per_outcome() {
    let (code, out, err) = relaxlab(&[
        "run",
        "litmus/classic/SB.litmus",
        "--model",
        "tso",
        "--dot",
        "-",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("SB under tso (exhaustive): sometimes"),
        "{out}"
    );
    let gs = graphs(&out);
    // SB has four outcomes under TSO, each drawn once.
    assert_eq!(gs.len(), 4, "{out}");
    for g in &gs {
        assert!(g.contains("[label=\"rf\""), "{g}");
        assert!(g.contains("[label=\"co\""), "{g}");
        assert!(g.contains("[label=\"po\""), "{g}");
        assert!(g.contains("W[init] x=0"), "{g}");
    }
    // The relaxed outcome r0 = r1 = 0: both loads read the init writes,
    // and each is fr-before the other thread's store.
    assert!(
        gs.iter().any(|g| g.matches("[label=\"fr\"").count() == 2),
        "{out}"
    );
}

/// Each SB outcome has a single execution, so the lifted TSO witnesses are
/// exactly the consistent executions `ax.tso` draws.
#[test]
fn lifted_sb_witnesses_are_the_axiomatic_executions() {
    let (_, op, _) = relaxlab(&[
        "run",
        "litmus/classic/SB.litmus",
        "--model",
        "tso",
        "--dot",
        "-",
    ]);
    let (_, ax, _) = relaxlab(&[
        "run",
        "litmus/classic/SB.litmus",
        "--axiomatic",
        "tso",
        "--dot",
        "-",
    ]);
    // The graphs are named after their model: compare the bodies.
    let bodies = |out: &str| -> Vec<String> {
        graphs(out)
            .iter()
            .map(|g| {
                g.replacen("under tso:", "under MODEL:", 2).replacen(
                    "under ax.tso:",
                    "under MODEL:",
                    2,
                )
            })
            .collect()
    };
    assert_eq!(bodies(&op), bodies(&ax));
    assert_eq!(graphs(&op).len(), 4);
}

#[test]
fn run_dot_writes_the_file_for_every_operational_model() {
    let dir = std::env::temp_dir().join(format!("relaxlab-lift-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mp.dot");
    let p = path.to_string_lossy().to_string();
    let (code, out, err) = relaxlab(&[
        "run",
        "litmus/classic/MP.litmus",
        "--model",
        "sc,pso",
        "--dot",
        &p,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("digraph"), "{out}");
    let text = std::fs::read_to_string(&path).unwrap();
    // MP: three outcomes under SC, four under PSO.
    assert_eq!(graphs(&text).len(), 7, "{text}");
    assert!(!text.contains("rejects"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Forks and joins: the child's events hang off the fork, the join waits
/// for the child's last event (`asw`).
#[test]
fn forked_threads_lift_with_asw_edges() {
    let dir = std::env::temp_dir().join(format!("relaxlab-lift-fork-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("fork.litmus");
    std::fs::write(
        &path,
        "test Fork\n\ninit { x = 0; }\n\nthread P0 {\n  t = fork W {\n    store(x, 1, rlx);\n  };\n  join(t);\n  r0 = load(x, rlx);\n}\n\nexists (P0:r0 = 1)\n",
    )
    .unwrap();
    let p = path.to_string_lossy().to_string();
    let (code, out, err) = relaxlab(&["run", &p, "--model", "tso", "--dot", "-"]);
    assert_eq!(code, 0, "{err}\n{out}");
    let gs = graphs(&out);
    assert_eq!(gs.len(), 1, "{out}");
    let g = &gs[0];
    assert!(g.contains("fork W"), "{g}");
    assert!(g.contains("join W"), "{g}");
    assert_eq!(g.matches("[label=\"asw\"").count(), 2, "{g}");
    assert!(g.contains("R[rlx] x=1"), "{g}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// MP with a non-atomic payload: `c11r` reads the newest `data` at the
/// race, an execution `ax.c11r` rejects by its non-atomic read rule.
#[test]
fn compare_shows_the_lifted_witness_and_the_axiom_that_rejects_it() {
    let dir = std::env::temp_dir().join(format!("relaxlab-lift-cmp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mp.dot");
    let p = path.to_string_lossy().to_string();
    let (code, out, err) = relaxlab(&[
        "compare",
        "litmus/c11/MP+na+rlx.litmus",
        "--models",
        "c11r",
        "--dot",
        &p,
    ]);
    assert_eq!(code, 0, "{err}\n{out}");
    assert!(
        out.contains("c11r reaches [P1:r0=1 P1:r1=1] but ax.c11r forbids it"),
        "{out}"
    );
    assert!(out.contains("the witness lifted to an execution"), "{out}");
    assert!(
        out.contains("c: W[na] data=1 -rf-> f: R[na] data=1"),
        "{out}"
    );
    assert!(
        out.contains("ax.c11r rejects it: axiom na-reads fails on"),
        "{out}"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("// c11r reaches [P1:r0=1 P1:r1=1]: its witness lifted, rejected by axiom na-reads under ax.c11r"),
        "{text}"
    );
    // The lifted graph and the consistent execution of the outcome only
    // ax.c11r allows.
    assert_eq!(graphs(&text).len(), 2, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
