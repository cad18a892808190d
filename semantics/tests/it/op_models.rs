//! The classic shapes under the hardware models, and the fenced variants
//! (book: models.md, The models side by side).

use crate::op_util::*;
use relaxlab_semantics::ir::{HwFence, Program, ReadOrd, Verdict, WriteOrd};
use relaxlab_semantics::model::MemoryModel;
use relaxlab_semantics::models::{Pslo, Pso, Sc, Tso};
use relaxlab_semantics::operational::{explore, ExploreOptions, Reduction};
use Verdict::{Never, Sometimes};

fn verdict<M: MemoryModel>(p: &Program, m: &M) -> Verdict {
    let t = explore(p, m, &ExploreOptions::default());
    assert!(t.complete(), "bound hit: {:?}", t.bounds);
    assert!(t.failures.is_empty(), "failures: {:?}", t.failures);
    t.verdict().expect("a condition")
}

/// Checks one row of the table: sc, tso, pso, pslo.
fn row(p: &Program, expected: [Verdict; 4]) {
    let got = [
        verdict(p, &Sc),
        verdict(p, &Tso),
        verdict(p, &Pso),
        verdict(p, &Pslo),
    ];
    assert_eq!(got, expected, "verdicts sc/tso/pso/pslo");
}

fn sb_plain() -> Program {
    sb(WriteOrd::Rlx, ReadOrd::Rlx, None)
}

#[test]
fn sb_row() {
    row(&sb_plain(), [Never, Sometimes, Sometimes, Sometimes]);
}

#[test]
fn mp_row() {
    row(&mp(None, None), [Never, Never, Sometimes, Sometimes]);
}

#[test]
fn lb_row() {
    row(&lb(), [Never, Never, Never, Never]);
}

#[test]
fn iriw_row() {
    row(&iriw(None), [Never, Never, Never, Sometimes]);
}

#[test]
fn two_plus_two_w_row() {
    row(&w22(), [Never, Never, Sometimes, Sometimes]);
}

#[test]
fn corr_row() {
    row(&corr(), [Never, Never, Never, Never]);
}

#[test]
fn sb_with_full_fences_is_never_under_tso_pso_pslo() {
    let p = sb(WriteOrd::Rlx, ReadOrd::Rlx, Some(HwFence::Full));
    row(&p, [Never, Never, Never, Never]);
    // An `ss` barrier does not order a store before a later load under
    // TSO; RELAXER's conservative `ss` does under PSO (book: model-pso.md, Rules (RELAXER Fig. 5)), but
    // not under PSLO, whose loads may still read an old value of their
    // history (only `ll`, `sl`, `full` reset it).
    let p = sb(WriteOrd::Rlx, ReadOrd::Rlx, Some(HwFence::SS));
    row(&p, [Never, Sometimes, Never, Sometimes]);
}

#[test]
fn mp_with_ss_and_ll_is_never_under_pso_and_pslo() {
    let p = mp(Some(HwFence::SS), Some(HwFence::LL));
    row(&p, [Never, Never, Never, Never]);
    // Half the fences are not enough under PSLO: without `ll` the reader's
    // second load may read an old value from its history.
    row(
        &mp(Some(HwFence::SS), None),
        [Never, Never, Never, Sometimes],
    );
    row(
        &mp(None, Some(HwFence::LL)),
        [Never, Never, Sometimes, Sometimes],
    );
}

#[test]
fn iriw_with_ll_is_never_under_pslo() {
    row(&iriw(Some(HwFence::LL)), [Never, Never, Never, Never]);
}

#[test]
fn sb_outcomes_under_tso_are_all_four() {
    let t = explore(&sb_plain(), &Tso, &ExploreOptions::default());
    let values: Vec<Vec<i64>> = t.rows.iter().map(|r| r.values.clone()).collect();
    assert_eq!(values, vec![vec![0, 0], vec![0, 1], vec![1, 0], vec![1, 1]]);
    let sc = explore(&sb_plain(), &Sc, &ExploreOptions::default());
    assert_eq!(sc.rows.len(), 3);
}

/// State counts are pinned: a change in the number of states
/// explored is a change to review.
#[test]
fn state_counts_are_pinned() {
    let counts = |p: &Program| {
        // The full search: the reduced one's counts are pinned in
        // tests/it/reduction.rs.
        let o = ExploreOptions {
            reduction: Reduction::None,
            ..ExploreOptions::default()
        };
        [
            explore(p, &Sc, &o).stats.states,
            explore(p, &Tso, &o).stats.states,
            explore(p, &Pso, &o).stats.states,
            explore(p, &Pslo, &o).stats.states,
        ]
    };
    let got = [
        counts(&sb_plain()),
        counts(&mp(None, None)),
        counts(&iriw(None)),
        counts(&w22()),
    ];
    assert_eq!(got, PINNED);
}

/// Rows: SB, MP, IRIW, 2+2W; columns: sc, tso, pso, pslo.
const PINNED: [[u64; 4]; 4] = [
    [28, 58, 58, 58],
    [28, 42, 53, 53],
    [652, 868, 868, 884],
    [28, 65, 92, 92],
];
