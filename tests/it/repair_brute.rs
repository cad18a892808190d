//! The repair search checked by brute force, independently of it: over
//! *every* anchor (none merged, no hardware site set aside as useless),
//! with the strongest option at each,
//!
//! - no placement of `k - 1` changes works (so the minimum `k` is right),
//! - the placements of `k` changes that work are exactly the repairs
//!   listed (up to sites that always execute together), and
//! - no cheaper option assignment of a listed placement works,
//!
//! where "works" is judged here from the outcome table alone (the
//! condition's forbidden outcomes, failures, and races under C11), for the
//! small tests of the library under the hardware models, their axiomatic
//! twins and the C11 models.

use crate::support;

use relaxlab::engine::{self, Settings};
use relaxlab_semantics::analyses::repair::{
    apply, every_site, Change, Goal, RepairOptions, Repairs, Site, Status,
};
use relaxlab_semantics::ir::{ModelKey, OpModel, Program, Quantifier};
use relaxlab_semantics::outcome::OutcomeTable;

/// Is the goal `--goal condition` missed, judged from the table alone?
fn misses(program: &Program, table: &OutcomeTable, c11: bool) -> bool {
    let q = program.condition.as_ref().unwrap().quantifier;
    let rows = table.rows.iter().any(|r| match q {
        Quantifier::Exists | Quantifier::NotExists => r.satisfies == Some(true),
        Quantifier::Forall => r.satisfies == Some(false),
    });
    rows || table.fails() || (c11 && !table.races.is_empty())
}

/// The subsets of `0..n` with `k` elements, in lexicographic order.
fn subsets(n: usize, k: usize, out: &mut Vec<Vec<usize>>) {
    fn go(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..n {
            cur.push(i);
            go(i + 1, n, k, cur, out);
            cur.pop();
        }
    }
    go(0, n, k, &mut Vec::new(), out);
}

fn binomial(n: usize, k: usize) -> usize {
    (0..k).fold(1usize, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// Every option assignment of a set of sites.
fn assignments(sites: &[Site], set: &[usize]) -> Vec<Vec<(usize, Change)>> {
    let mut out = vec![Vec::new()];
    for &s in set {
        let mut next = Vec::new();
        for p in &out {
            for &o in &sites[s].options {
                let mut q: Vec<(usize, Change)> = p.clone();
                q.push((s, o));
                next.push(q);
            }
        }
        out = next;
    }
    out
}

/// Checks the search on one program under one model; returns how many
/// runs the brute force made (0 when skipped as too large).
fn check(rel: &str, program: &Program, key: ModelKey, limit: usize) -> usize {
    let family = key.repair().unwrap();
    // Strong C11 placements (SC orders and fences everywhere) can have
    // tens of millions of states under c11r: every run is bounded, and a
    // case where a bound leaves anything undecided is skipped at once (the search
    // reports it as bounded; `repair.rs` pins that reporting).
    let settings = Settings {
        mark_non_sc: false,
        max_states: 20_000,
        max_candidates: 200_000,
        ..Settings::default()
    };
    let opts = RepairOptions {
        goal: Goal::Condition,
        max_solutions: 1000,
        state_factor: None,
        max_undecided: 0,
        ..RepairOptions::default()
    };
    let result = engine::repair(program, key, family, &settings, &opts).unwrap();
    if result.bounded() {
        return 0;
    }
    let c11 = family == Repairs::C11;
    let every = every_site(program, family);
    let n = every.len();
    // `None`: a bound cut the run before it found anything bad.
    let judge = |repaired: &Program| -> Option<bool> {
        let table = engine::run(repaired, key, &settings).unwrap();
        let missed = misses(repaired, &table, c11);
        (missed || table.complete()).then_some(!missed)
    };
    let works = |placement: &[(usize, Change)]| -> bool {
        let repaired = apply(program, &every, placement);
        judge(&repaired).unwrap_or_else(|| panic!("{rel} {key}: {placement:?} undecided"))
    };
    let strongest = |set: &[usize]| -> Vec<(usize, Change)> {
        set.iter().map(|&s| (s, every[s].strongest())).collect()
    };
    let mut runs = 0;
    match result.status {
        Status::NothingToRepair => {
            assert!(works(&[]), "{rel} {key}: nothing to repair, yet it fails");
            runs += 1;
        }
        Status::Unrepairable { .. } => {
            let all: Vec<usize> = (0..n).collect();
            assert!(!works(&strongest(&all)), "{rel} {key}: called unrepairable");
            runs += 1;
        }
        Status::Stopped(_) => panic!("{rel} {key}: stopped"),
        Status::Repaired => {
            let k = result.minimum.unwrap();
            assert_eq!(result.lower_bound, k, "{rel} {key}");
            if binomial(n, k) + binomial(n, k.saturating_sub(1)) > limit {
                return 0;
            }
            // Nothing smaller works.
            if k > 0 {
                let mut smaller = Vec::new();
                subsets(n, k - 1, &mut smaller);
                for set in &smaller {
                    runs += 1;
                    assert!(
                        !works(&strongest(set)),
                        "{rel} {key}: {} changes work at {set:?}, the search says {k}",
                        k - 1
                    );
                }
            }
            // The working placements of k are the listed ones.
            let mut sets = Vec::new();
            subsets(n, k, &mut sets);
            let mut working: Vec<Vec<usize>> = Vec::new();
            for set in sets {
                runs += 1;
                if works(&strongest(&set)) {
                    working.push(set);
                }
            }
            let same = |a: &[usize], sites_a: &[Site], b: &[usize], sites_b: &[Site]| {
                a.len() == b.len()
                    && a.iter()
                        .all(|&x| b.iter().any(|&y| sites_a[x].same_place(&sites_b[y])))
            };
            let listed: Vec<Vec<usize>> = result
                .solutions
                .iter()
                .map(|s| s.placement.iter().map(|(i, _)| *i).collect())
                .collect();
            for w in &working {
                assert!(
                    listed.iter().any(|l| same(w, &every, l, &result.sites)),
                    "{rel} {key}: {w:?} works with {k} changes but is not listed"
                );
            }
            for l in &listed {
                assert!(
                    working.iter().any(|w| same(w, &every, l, &result.sites)),
                    "{rel} {key}: listed {l:?} is not a working placement"
                );
            }
            // No cheaper options work at a listed placement.
            for s in &result.solutions {
                let set: Vec<usize> = s.placement.iter().map(|(i, _)| *i).collect();
                let cheapest = assignments(&result.sites, &set)
                    .into_iter()
                    .filter(|a| {
                        runs += 1;
                        let repaired = apply(program, &result.sites, a);
                        judge(&repaired).unwrap_or_else(|| panic!("{rel} {key}: {a:?} undecided"))
                    })
                    .map(|a| a.iter().map(|(_, c)| c.cost()).sum::<u32>())
                    .min()
                    .unwrap();
                assert_eq!(cheapest, s.cost, "{rel} {key}: {:?}", s.placement);
            }
        }
    }
    runs
}

fn programs(dir: &str) -> Vec<(String, Program)> {
    support::litmus_files(dir)
        .into_iter()
        .filter_map(|path| {
            let file = relaxlab::files::read(&path).ok()?;
            let program = relaxlab::load::program(&file).ok()?;
            (program.condition.is_some() && !program.has_loops())
                .then(|| (support::relative(&path), program))
        })
        .collect()
}

#[test]
fn hardware_minimums_agree_with_brute_force() {
    let mut runs = 0;
    let mut cases = 0;
    for (rel, program) in programs("litmus/classic") {
        for name in ["tso", "pso", "pslo", "ax.tso", "ax.pso", "ax.pslo"] {
            let key = ModelKey::from_name(name).unwrap();
            let r = check(&rel, &program, key, 400);
            runs += r;
            cases += usize::from(r > 0);
        }
    }
    assert!(cases >= 200, "only {cases} cases checked ({runs} runs)");
}

#[test]
fn c11_minimums_agree_with_brute_force() {
    let mut runs = 0;
    let mut cases = 0;
    let mut all = programs("litmus/c11");
    all.extend(programs("litmus/classic").into_iter().filter(|(rel, _)| {
        ["SB", "MP", "LB", "2+2W", "IRIW", "WRC", "S", "R"]
            .iter()
            .any(|t| rel.ends_with(&format!("/{t}.litmus")))
    }));
    for (rel, program) in all {
        if relaxlab_grammar::check_model(&program, ModelKey::Op(OpModel::C11r)).is_err() {
            continue;
        }
        for name in ["c11r", "ax.c11", "ax.rc11"] {
            let key = ModelKey::from_name(name).unwrap();
            let r = check(&rel, &program, key, 1500);
            runs += r;
            cases += usize::from(r > 0);
        }
    }
    assert!(cases >= 60, "only {cases} cases checked ({runs} runs)");
}
