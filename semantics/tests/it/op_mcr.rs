//! The stateless explorer (maximal causality reduction, book: mcr.md)
//! against the exhaustive explorer: on the litmus library and on random
//! programs, under SC, TSO and PSO,
//! - its outcome table (rows, verdict values, failures) is the exhaustive
//!   one (loop-free programs), or within it (programs with loops, which it
//!   unrolls);
//! - it is optimal: no two explored executions read the same values (it
//!   keeps every execution's values to check), and the executions in which
//!   every thread finishes are exactly as many as the distinct
//!   combinations of read values (the final values of observed locations
//!   counted as reads) that the exhaustive explorer finds by brute force
//!   on the program with one history register per read;
//! - every witness replays to what it witnesses.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use relaxlab_semantics::ir::{
    Expr, Instr, InstrId, Instruction, LocId, Observable, Origin, Program, RegId, ThreadId,
    ThreadKind, Value,
};
use relaxlab_semantics::mapping::Mapping;
use relaxlab_semantics::model::MemoryModel;
use relaxlab_semantics::models::{Pso, Sc, Tso};
use relaxlab_semantics::operational::mcr::{self, explore_mcr, McrOptions, McrReport};
use relaxlab_semantics::operational::{explore, replay_witness, ExploreOptions, Reduction};
use relaxlab_semantics::outcome::{FailureKind, OutcomeTable};

/// Loops are unrolled this many times.
const UNROLL: u32 = 2;
/// The executions one exploration may take: ample for the library.
const MAX_EXECUTIONS: u64 = 100_000;
/// The states the exhaustive explorer may store for one comparison.
const MAX_STATES: u64 = 300_000;

fn mcr<M: MemoryModel>(p: &Program, m: &M) -> McrReport {
    let opts = McrOptions {
        max_executions: MAX_EXECUTIONS,
        check_distinct: true,
        ..McrOptions::default()
    };
    explore_mcr(p, m, Mapping::Standard, UNROLL, &opts)
}

fn exhaustive<M: MemoryModel>(p: &Program, m: &M, mapping: Mapping) -> OutcomeTable {
    let opts = ExploreOptions {
        max_states: MAX_STATES,
        mapping,
        reduction: Reduction::Por,
        ..ExploreOptions::default()
    };
    explore(p, m, &opts)
}

type Rows = BTreeSet<(Vec<Value>, Option<bool>)>;

fn rows(t: &OutcomeTable) -> Rows {
    t.rows
        .iter()
        .map(|r| (r.values.clone(), r.satisfies))
        .collect()
}

/// The failures of `t`, a table of `p`, by kind and source line: an
/// unrolled program numbers its instructions apart from the original.
fn failures(t: &OutcomeTable, p: &Program) -> BTreeSet<(String, u32)> {
    t.failures
        .iter()
        .map(|f| {
            let line = match f.kind {
                FailureKind::Assert { thread, instr }
                | FailureKind::DivisionByZero { thread, instr }
                | FailureKind::BadHandle { thread, instr }
                | FailureKind::Divergence { thread, instr } => {
                    p.instruction(thread, instr).line + 1000 * thread.0
                }
                // herd C tests only: the operational models refuse them.
                FailureKind::BadPointer { thread, line }
                | FailureKind::DivisionByZeroAt { thread, line } => line + 1000 * thread.0,
                FailureKind::Deadlock => 0,
            };
            let kind = format!("{:?}", f.kind);
            (kind.split(' ').next().unwrap_or("").to_string(), line)
        })
        .collect()
}

/// `p` with a fresh register after every load, RMW and CAS that keeps the
/// value read, every such register observed, the observed (and filtered)
/// locations observed, and no filter: the rows of its exhaustive table are
/// the distinct combinations of read values of `p`'s complete executions.
/// `p` must be loop-free (each read then runs at most once).
fn with_history(p: &Program) -> Program {
    let mut out = p.clone();
    let mut observed: Vec<Observable> = Vec::new();
    let mut locs: Vec<LocId> = Vec::new();
    let mut all = p.observed.clone();
    if let Some(f) = &p.filter {
        f.observables(&mut all);
    }
    for o in all {
        if let Observable::Loc(l) = o {
            if !locs.contains(&l) {
                locs.push(l);
            }
        }
    }
    let mut fork_remaps: Vec<Vec<InstrId>> = Vec::new();
    for (t, th) in out.threads.iter_mut().enumerate() {
        let mut code = Vec::new();
        let mut remap = Vec::new();
        for ins in &th.code {
            remap.push(InstrId::new(code.len()));
            code.push(ins.clone());
            let dst = match ins.instr {
                Instr::Load { dst, .. } | Instr::Rmw { dst, .. } | Instr::Cas { dst, .. } => dst,
                _ => continue,
            };
            let h = RegId::new(th.regs.len());
            th.regs.push(format!("h{}", h.index()));
            observed.push(Observable::Reg(ThreadId::new(t), h));
            code.push(Instruction {
                instr: Instr::Assign {
                    dst: h,
                    val: Expr::Reg(dst),
                },
                span: ins.span,
                line: ins.line,
                text: "history".into(),
                origin: Origin::Source,
            });
        }
        for ins in &mut code {
            match &mut ins.instr {
                Instr::Branch { target, .. } | Instr::Jump { target } => {
                    *target = remap[target.index()]
                }
                _ => {}
            }
        }
        th.code = code;
        fork_remaps.push(remap);
    }
    for th in &mut out.threads {
        if let ThreadKind::Forked { parent, at } = &mut th.kind {
            *at = fork_remaps[parent.index()][at.index()];
        }
    }
    observed.extend(locs.into_iter().map(Observable::Loc));
    out.observed = observed;
    out.filter = None;
    out.condition = None;
    out
}

/// What one comparison found.
#[derive(Debug, Default)]
struct Tally {
    programs: usize,
    executions: u64,
    /// Beyond a bound of either explorer: not compared.
    skipped: Vec<String>,
}

/// Compares the two explorers on `p` under `m`; `Err` describes a
/// disagreement.
fn compare<M: MemoryModel>(p: &Program, m: &M, tally: &mut Tally) -> Result<(), String> {
    let name = format!("{} under {}", p.name, m.name());
    let e = exhaustive(p, m, Mapping::Standard);
    if !e.complete() {
        tally.skipped.push(name);
        return Ok(());
    }
    let t0 = std::time::Instant::now();
    let r = mcr(p, m);
    if std::env::var("RELAXLAB_MCR_VERBOSE").is_ok() {
        eprintln!("  {name}: {:?} {:?}", t0.elapsed(), r.stats);
    }
    let t = &r.table;
    let looped = p.has_loops();
    if t.bounds
        .iter()
        .any(|b| !matches!(b, relaxlab_semantics::outcome::BoundHit::Unroll(_)))
    {
        tally.skipped.push(name);
        return Ok(());
    }
    tally.programs += 1;
    tally.executions += r.stats.executions;
    if r.stats.distinct != Some(r.stats.executions) {
        return Err(format!(
            "{name}: {} executions read only {:?} distinct combinations of values",
            r.stats.executions, r.stats.distinct
        ));
    }
    let unrolled = looped && !t.complete();
    // The programs the two explorers ran, whose instructions failures name.
    let ran = mcr::program_for(p, m, Mapping::Standard, UNROLL);
    let compiled = relaxlab_semantics::operational::program_for(p, m, Mapping::Standard);
    let (ft, fe) = (failures(t, &ran), failures(&e, &compiled));
    if unrolled {
        if !rows(t).is_subset(&rows(&e)) || !ft.is_subset(&fe) {
            return Err(format!(
                "{name}: unrolled rows {:?} / failures {ft:?} not within the exhaustive {:?} / {fe:?}",
                rows(t),
                rows(&e),
            ));
        }
    } else if rows(t) != rows(&e) || ft != fe {
        return Err(format!(
            "{name}: rows {:?} failures {ft:?}, exhaustive rows {:?} failures {fe:?}",
            rows(t),
            rows(&e),
        ));
    }
    // The brute-force count on the program the explorer ran.
    let brute = exhaustive(&with_history(&ran), m, Mapping::Plain);
    if brute.complete() && brute.rows.len() as u64 != r.stats.complete {
        return Err(format!(
            "{name}: {} complete executions explored, {} distinct combinations of read values",
            r.stats.complete,
            brute.rows.len()
        ));
    }
    if !looped {
        for row in &t.rows {
            let w = row.witness.as_ref().ok_or("a row without witness")?;
            let got =
                replay_witness(p, m, Mapping::Standard, w).map_err(|e| format!("{name}: {e}"))?;
            if got.outcome.as_ref() != Some(&row.values) {
                return Err(format!(
                    "{name}: the witness of {:?} ends with {got:?}",
                    row.values
                ));
            }
        }
        for f in &t.failures {
            let w = f.witness.as_ref().ok_or("a failure without witness")?;
            let got =
                replay_witness(p, m, Mapping::Standard, w).map_err(|e| format!("{name}: {e}"))?;
            let ok = match f.kind {
                FailureKind::Deadlock => got.failure.is_none() && got.outcome.is_none(),
                _ => got.failure.as_ref() == Some(&f.kind),
            };
            if !ok {
                return Err(format!(
                    "{name}: the witness of {:?} ends with {got:?}",
                    f.kind
                ));
            }
        }
    }
    Ok(())
}

fn compare_all(p: &Program, tally: &mut Tally, errors: &mut Vec<String>) {
    for res in [
        compare(p, &Sc, tally),
        compare(p, &Tso, tally),
        compare(p, &Pso, tally),
    ] {
        if let Err(e) = res {
            errors.push(e);
        }
    }
}

fn library() -> Vec<(String, Program)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "litmus") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../litmus");
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let shown = path.strip_prefix(&root).unwrap().display().to_string();
        // The benchmarks (exhaustive searches of 10^5 to 10^8 states) are
        // compared by `.ci/long-mcr` (RELAXLAB_MCR_BENCH=1), not in CI,
        // but for the MCR paper's, small enough but for MCR-growth.
        let paper = shown.starts_with("bench/mcr/") && !shown.contains("MCR-growth");
        if shown.starts_with("bench/long")
            || (shown.starts_with("bench/")
                && !paper
                && std::env::var("RELAXLAB_MCR_BENCH").is_err())
        {
            continue;
        }
        let src = std::fs::read_to_string(&path).unwrap();
        let text = match relaxlab_grammar::herd::detect(&src) {
            relaxlab_grammar::herd::Dialect::Relaxlab => src,
            _ => match relaxlab_grammar::herd::translate(&src) {
                Ok(t) => t,
                Err(_) => continue,
            },
        };
        if let Ok(p) = relaxlab_grammar::load(&text) {
            out.push((shown, p));
        }
    }
    out
}

#[test]
fn the_library_gives_the_exhaustive_tables_with_one_execution_per_read_values() {
    let mut tally = Tally::default();
    let mut errors = Vec::new();
    let only = std::env::var("RELAXLAB_MCR_ONLY").ok();
    for (name, p) in library() {
        if only.as_ref().is_some_and(|o| !name.contains(o.as_str())) {
            continue;
        }
        let t0 = std::time::Instant::now();
        compare_all(&p, &mut tally, &mut errors);
        if std::env::var("RELAXLAB_MCR_VERBOSE").is_ok() {
            eprintln!("{name}: {:?}", t0.elapsed());
        }
    }
    eprintln!(
        "library: {} comparisons, {} executions, skipped {:?}",
        tally.programs, tally.executions, tally.skipped
    );
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    if std::env::var("RELAXLAB_MCR_ONLY").is_err() {
        assert!(tally.programs > 200, "{tally:?}");
    }
}

/// Random programs per generator and model: `RELAXLAB_MCR_PROGRAMS`, by
/// default 150 in release builds and 20 in debug builds.
fn random_count() -> usize {
    std::env::var("RELAXLAB_MCR_PROGRAMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 20 } else { 150 })
}

#[test]
fn random_programs_give_the_exhaustive_tables_with_one_execution_per_read_values() {
    use crate::ax_builder::{diff_seed, random_branching_program, random_program, Rng};
    let mut rng = Rng(diff_seed(0x3c12_9a0f_77e1_0005));
    let mut tally = Tally::default();
    let mut errors = Vec::new();
    for i in 0..random_count() {
        let p = if i % 2 == 0 {
            random_program(&mut rng, true)
        } else {
            random_branching_program(&mut rng)
        };
        let before = errors.len();
        compare_all(&p, &mut tally, &mut errors);
        if errors.len() > before {
            errors.push(crate::ax_builder::describe(&p));
            break;
        }
    }
    eprintln!(
        "random: {} comparisons, {} executions, {} skipped",
        tally.programs,
        tally.executions,
        tally.skipped.len()
    );
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn fig_3a_takes_four_executions_under_tso_where_the_paper_takes_five() {
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../litmus/seeds/MCR-fig3a.litmus"),
    )
    .unwrap();
    let p = relaxlab_grammar::load(&src).unwrap();
    assert_eq!(mcr(&p, &Sc).stats.executions, 3);
    assert_eq!(mcr(&p, &Tso).stats.executions, 4);
    assert_eq!(mcr(&p, &Pso).stats.executions, 4);
}
