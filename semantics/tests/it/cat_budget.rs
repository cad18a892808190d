//! Cat models judge whole candidates in their own loop, which polls the
//! run's [`Budget`] as the engine's does: Ctrl-C, `--timeout` and
//! `--max-memory` stop a cat run with what it judged, and say so.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::ax_builder::*;
use crate::cat_support::cat_model;
use relaxlab_semantics::axiomatic::{run_cat, run_judges, AxOptions, Judge, BUDGET_POLL};
use relaxlab_semantics::budget::{Budget, Deadline, MemoryCeiling};
use relaxlab_semantics::ir::AxModel;
use relaxlab_semantics::outcome::BoundHit;

fn with(budget: Budget) -> AxOptions {
    AxOptions {
        budget,
        ..AxOptions::default()
    }
}

#[test]
fn an_interruption_before_the_start_judges_nothing_and_says_so() {
    let opts = with(Budget {
        interrupt: Some(Arc::new(AtomicBool::new(true))),
        ..Budget::default()
    });
    for name in ["rc11", "c11", "tso"] {
        let t = run_cat(&fig6(), &cat_model(name), &opts).unwrap();
        assert_eq!(t.bounds, vec![BoundHit::Interrupted], "{name}");
        assert_eq!(t.stats.states, 0);
        assert!(t.rows.is_empty());
    }
}

#[test]
fn a_deadline_passed_stops_models_and_cat_models_run_together() {
    let opts = with(Budget {
        deadline: Some(Deadline::after(Duration::ZERO)),
        ..Budget::default()
    });
    let judges = [
        Judge::Model(AxModel::Rc11),
        Judge::Cat(cat_model("rc11")),
        Judge::Cat(cat_model("c11")),
    ];
    for t in run_judges(&fig6(), &judges, &opts).unwrap() {
        let timeout = BoundHit::Timeout { millis: 0 };
        assert_eq!(t.bounds, vec![timeout], "{}", t.model);
        assert!(t.rows.is_empty());
    }
}

/// Polls so far; the probe reports it as the memory used, so the ceiling
/// `k` runs out at the `k + 1`-th poll.
static POLLS: AtomicU64 = AtomicU64::new(0);

fn counting_probe() -> Option<u64> {
    Some(POLLS.fetch_add(1, Ordering::SeqCst) + 1)
}

#[test]
fn a_bound_running_out_midway_keeps_what_was_found() {
    let rc11 = cat_model("rc11");
    let full = run_cat(&fig6(), &rc11, &AxOptions::default()).unwrap();
    assert!(full.complete());
    assert!(full.stats.states > 4 * BUDGET_POLL, "fig6 is too small");
    POLLS.store(0, Ordering::SeqCst);
    let opts = with(Budget {
        memory: Some(MemoryCeiling {
            bytes: 3.into(),
            baseline: 0,
            probe: counting_probe,
        }),
        ..Budget::default()
    });
    let cut = run_cat(&fig6(), &rc11, &opts).unwrap();
    assert_eq!(
        cut.bounds,
        vec![BoundHit::MaxMemory {
            bytes: 3,
            baseline: 0
        }]
    );
    // Polled at the start, then every BUDGET_POLL candidates.
    assert_eq!(POLLS.load(Ordering::SeqCst), 4);
    assert!(cut.stats.states >= 3 * BUDGET_POLL, "{}", cut.stats.states);
    assert!(cut.stats.states < full.stats.states);
    assert!(cut.stats.transitions > 0 && cut.stats.transitions <= full.stats.transitions);
    for row in &cut.rows {
        let whole = full.rows.iter().find(|r| r.values == row.values);
        assert!(
            whole.is_some_and(|r| r.count >= row.count),
            "{:?}",
            row.values
        );
    }
    // The cat model agrees with ax.rc11 on the whole run.
    let hand =
        relaxlab_semantics::axiomatic::run_axiomatic(&fig6(), AxModel::Rc11, &AxOptions::default())
            .unwrap();
    assert_eq!(hand.rows, full.rows);
    assert_eq!(hand.stats, full.stats);
}
