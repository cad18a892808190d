//! The axiomatic engine polls its [`Budget`] (Ctrl-C, `--timeout`,
//! `--max-memory`) and, once it runs out, stops with what it found: the
//! table names the bound, counts only the candidates judged, and every row
//! it has is a row of the full table with at most its count.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::ax_builder::*;
use relaxlab_semantics::axiomatic::{run_axiomatic, run_axiomatic_many, AxOptions, BUDGET_POLL};
use relaxlab_semantics::budget::{Budget, Deadline, MemoryCeiling};
use relaxlab_semantics::ir::AxModel;
use relaxlab_semantics::outcome::{BoundHit, OutcomeTable};

fn with(budget: Budget) -> AxOptions {
    AxOptions {
        budget,
        ..AxOptions::default()
    }
}

/// `cut` is a partial run of `full`'s: fewer candidates, rows among
/// `full`'s with no larger counts.
fn is_part_of(cut: &OutcomeTable, full: &OutcomeTable) {
    assert!(!cut.complete());
    assert!(cut.stats.states <= full.stats.states);
    assert!(cut.stats.transitions <= full.stats.transitions);
    for row in &cut.rows {
        let whole = full.rows.iter().find(|r| r.values == row.values);
        assert!(
            whole.is_some_and(|r| r.count >= row.count),
            "{:?} is not in the full table",
            row.values
        );
    }
}

#[test]
fn an_interruption_before_the_start_judges_nothing_and_says_so() {
    let flag = Arc::new(AtomicBool::new(true));
    let opts = with(Budget {
        interrupt: Some(flag),
        ..Budget::default()
    });
    for m in AxModel::ALL {
        let t = run_axiomatic(&fig6(), m, &opts).unwrap();
        assert_eq!(t.bounds, vec![BoundHit::Interrupted], "{}", m.name());
        assert_eq!(t.stats.states, 0);
        assert!(t.rows.is_empty());
    }
}

#[test]
fn a_deadline_passed_stops_every_model_of_a_shared_enumeration() {
    let opts = with(Budget {
        deadline: Some(Deadline::after(Duration::ZERO)),
        ..Budget::default()
    });
    let tables = run_axiomatic_many(&fig6(), &AxModel::ALL, &opts).unwrap();
    for t in tables {
        assert_eq!(
            t.bounds,
            vec![BoundHit::Timeout { millis: 0 }],
            "{}",
            t.model
        );
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
    let full = run_axiomatic(&fig6(), AxModel::Rc11, &AxOptions::default()).unwrap();
    assert!(full.complete());
    assert!(
        full.stats.states > 4 * BUDGET_POLL,
        "fig6 is too small to cut"
    );
    POLLS.store(0, Ordering::SeqCst);
    let opts = with(Budget {
        memory: Some(MemoryCeiling {
            bytes: 3.into(),
            baseline: 0,
            probe: counting_probe,
        }),
        ..Budget::default()
    });
    let cut = run_axiomatic(&fig6(), AxModel::Rc11, &opts).unwrap();
    assert_eq!(
        cut.bounds,
        vec![BoundHit::MaxMemory {
            bytes: 3,
            baseline: 0
        }]
    );
    // Polled at the start, then every BUDGET_POLL candidates: the fourth
    // poll stops the run before it judges the next core.
    assert_eq!(POLLS.load(Ordering::SeqCst), 4);
    assert!(cut.stats.states >= 3 * BUDGET_POLL, "{}", cut.stats.states);
    assert!(cut.stats.transitions > 0 && !cut.rows.is_empty());
    is_part_of(&cut, &full);
}

#[test]
fn an_unlimited_budget_changes_nothing() {
    let flag = Arc::new(AtomicBool::new(false));
    let opts = with(Budget {
        interrupt: Some(flag),
        deadline: Some(Deadline::after(Duration::from_secs(3600))),
        ..Budget::default()
    });
    for m in AxModel::ALL {
        let plain = run_axiomatic(&fig6(), m, &AxOptions::default()).unwrap();
        let polled = run_axiomatic(&fig6(), m, &opts).unwrap();
        assert_eq!(plain, polled, "{}", m.name());
    }
}
