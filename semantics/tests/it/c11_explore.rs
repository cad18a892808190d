//! `c11r` and `ScRaces` through the real explorer (`operational::explore`)
//! agree with the test driver of `c11_support` on a corpus of programs:
//! same outcomes, same racy marks, same races; and pruning changes none of
//! them while storing no more states.

use std::collections::{BTreeMap, BTreeSet};

use crate::c11_support::programs::corpus;
use crate::c11_support::{explore as drive, Explored};
use relaxlab_semantics::ir::Value;
use relaxlab_semantics::model::{MemoryModel, Race};
use relaxlab_semantics::models::{C11r, ScRaces};
use relaxlab_semantics::operational::{explore, ExploreOptions};
use relaxlab_semantics::outcome::OutcomeTable;

type Summary = (BTreeMap<Vec<Value>, bool>, BTreeSet<Race>);

fn summary(t: &OutcomeTable) -> Summary {
    (
        t.rows.iter().map(|r| (r.values.clone(), r.racy)).collect(),
        t.races.iter().copied().collect(),
    )
}

fn driven(e: &Explored) -> Summary {
    (e.outcomes.clone(), e.races.clone())
}

fn check<M: MemoryModel>(name: &str, p: &relaxlab_semantics::ir::Program, m: &M) -> (Summary, u64) {
    let t = explore(p, m, &ExploreOptions::default());
    assert!(t.complete(), "{name}: bound hit");
    assert!(t.failures.is_empty(), "{name}: {:?}", t.failures);
    let d = drive(p, m);
    assert_eq!(
        summary(&t),
        driven(&d),
        "{name}: explorer and driver differ"
    );
    (summary(&t), t.stats.states)
}

#[test]
fn explorer_agrees_with_driver_and_pruning_is_sound() {
    let mut pruned_total = 0;
    let mut full_total = 0;
    for (name, p) in corpus() {
        let (pruned, ps) = check(&name, &p, &C11r { prune: true });
        let (full, fs) = check(&name, &p, &C11r { prune: false });
        assert_eq!(pruned, full, "{name}: pruning changed the result");
        assert!(ps <= fs, "{name}: pruning stored more states");
        pruned_total += ps;
        full_total += fs;
        let (sc, _) = check(&name, &p, &ScRaces);
        // SC memory shows a subset of c11r's outcomes.
        assert!(
            sc.0.keys().all(|o| pruned.0.contains_key(o)),
            "{name}: an SC outcome c11r misses"
        );
    }
    assert!(pruned_total < full_total, "pruning never helped");
}
