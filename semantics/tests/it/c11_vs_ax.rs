//! Differential test: the operational `c11r` and the axiomatic `ax.c11r`
//! (book: axiomatic.md, C11 models) must give the same outcomes (and racy marks) on the
//! corpus of `c11_support::programs` (book: model-c11r.md, Rules: "The model must
//! match the axiomatic `ax.c11r` exactly").
//!
//! Racy outcomes are compared only by their existence: their values are
//! undefined in C11 and the two sides read differently on purpose. The
//! operational model continues a racy non-atomic read with the newest
//! value (book: model-c11r.md, Rules); the axiomatic one reads the visible side
//! effect (book: axiomatic.md, C11 models), which for a racy read is an older write. The
//! races found must be the same.

use std::collections::BTreeSet;

use crate::c11_support::programs::corpus;
use relaxlab_semantics::axiomatic::{run_axiomatic, AxOptions};
use relaxlab_semantics::ir::{AxModel, Value};
use relaxlab_semantics::model::Race;
use relaxlab_semantics::models::C11r;
use relaxlab_semantics::operational::{explore, ExploreOptions};
use relaxlab_semantics::outcome::OutcomeTable;

/// The race-free outcomes, whether some outcome is racy, and the races.
fn summary(t: &OutcomeTable) -> (BTreeSet<Vec<Value>>, bool, Vec<Race>) {
    (
        t.rows
            .iter()
            .filter(|r| !r.racy)
            .map(|r| r.values.clone())
            .collect(),
        t.rows.iter().any(|r| r.racy),
        unordered(&t.races),
    )
}

/// Races as unordered pairs of sites. The operational side reports a race
/// in the order the two accesses executed, so a pair that executes both
/// ways appears twice; the axiomatic side reports each pair once.
fn unordered(races: &[Race]) -> Vec<Race> {
    let mut out: Vec<Race> = races
        .iter()
        .map(|r| Race {
            loc: r.loc,
            earlier: r.earlier.min(r.later),
            later: r.earlier.max(r.later),
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn c11r_matches_ax_c11r_on_the_corpus() {
    let mut differ = Vec::new();
    for (name, p) in corpus() {
        let op = explore(&p, &C11r::default(), &ExploreOptions::default());
        let ax = run_axiomatic(&p, AxModel::C11r, &AxOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert!(op.complete() && ax.complete(), "{name}: bound hit");
        if summary(&op) != summary(&ax) {
            differ.push(format!(
                "{name}:\n  op {:?}\n  ax {:?}",
                summary(&op),
                summary(&ax)
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
