//! RELAXER's table for every algorithm of the library: `relaxlab confirm`
//! under tso, pso and pslo (20 biased trials per predicted cycle, seed 0),
//! with the exhaustive ground truth beside Phase II, pinned as golden
//! files so that a change in prediction, confirmation or feasibility is
//! reviewed. One test per file, so they run in parallel.

use crate::support;

fn confirm_table(name: &str) {
    let rel = format!("litmus/algorithms/{name}.litmus");
    let (code, out, err) = support::relaxlab(&["confirm", &rel, "--trials", "20", "--seed", "0"]);
    assert_eq!(code, 0, "{rel}: {err}");
    // RELAXER's guarantee: a cycle Phase II created is feasible.
    for line in out.lines().filter(|l| l.trim_start().starts_with('(')) {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let created: u64 = cols[cols.len() - 4].parse().unwrap();
        assert!(
            created == 0 || cols[cols.len() - 2] == "yes",
            "{rel}: confirmed but infeasible: {line}"
        );
    }
    insta::with_settings!({
        snapshot_path => "../golden_relaxer",
        prepend_module_to_snapshot => false,
        description => rel.clone(),
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name.to_string(), out);
    });
}

macro_rules! tables {
    ($($test:ident => $file:literal),* $(,)?) => {
        $(#[test] fn $test() { confirm_table($file); })*

        /// Every algorithm of the library has its table (no orphan, none missing).
        #[test]
        fn every_algorithm_has_a_table() {
            let listed: std::collections::BTreeSet<&str> = [$($file),*].into_iter().collect();
            let found: std::collections::BTreeSet<String> = support::litmus_files("litmus/algorithms")
                .iter()
                .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
                .collect();
            assert_eq!(found.iter().map(String::as_str).collect::<std::collections::BTreeSet<_>>(), listed);
            let dir = support::root().join("tests/golden_relaxer");
            for entry in std::fs::read_dir(dir).unwrap().flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                let stem = name.trim_end_matches(".snap");
                assert!(listed.contains(stem), "orphan snapshot {name}");
            }
        }
    };
}

tables! {
    bakery2_broken => "bakery2-broken",
    bakery2_sc => "bakery2-sc",
    dekker_broken => "dekker-broken",
    dekker_fenced => "dekker-fenced",
    peterson_broken => "peterson-broken",
    peterson_fence_sc => "peterson-fence.sc",
    peterson_fences_hw => "peterson-fences.hw",
    peterson_sc => "peterson-sc",
    seqlock_broken => "seqlock-broken",
    seqlock => "seqlock",
    spinlock_cas_rlx => "spinlock-cas-rlx",
    spinlock_cas => "spinlock-cas",
    spsc_ring_broken => "spsc-ring-broken",
    spsc_ring => "spsc-ring",
}
