//! The project's cat models (`cat/*.cat`, written from the axioms of
//! book: axiomatic.md) against
//! the hand-written axiomatic models: on random loop-free programs each
//! `cat/M.cat` gives exactly the table `ax.M` gives: outcomes, execution
//! counts, racy and non-SC marks, races, failures, candidate counts and
//! bounds. Both run in one candidate enumeration (`run_judges`), so the
//! test also exercises the engine's sharing between hand-written and cat
//! judges. Programs: the generator of the differential test
//! (`ax_builder::random`), 250 per group of models in release builds
//! (2,000 with `RELAXLAB_CAMPAIGN=full`).
//! The whole litmus library is compared by the CLI tests (`tests/it/cat.rs`).

use std::sync::Arc;

use crate::ax_builder::*;
use crate::cat_support::{cat_model, cat_model_in};
use relaxlab_semantics::axiomatic::cat::CatModel;
use relaxlab_semantics::axiomatic::{run_judges, AxOptions, Judge};
use relaxlab_semantics::ir::{AxModel, Program};
use relaxlab_semantics::outcome::OutcomeTable;

/// Runs every model of `models` and its cat file in one enumeration and
/// compares the tables; false when the program is beyond the candidate
/// bound (never compared on a partial result).
fn agree(p: &Program, models: &[AxModel], cats: &[Arc<CatModel>]) -> bool {
    let mut judges: Vec<Judge> = models.iter().map(|&m| Judge::Model(m)).collect();
    judges.extend(cats.iter().map(|c| Judge::Cat(c.clone())));
    let tables = run_judges(p, &judges, &AxOptions::default()).unwrap();
    let (hand, cat) = tables.split_at(models.len());
    if hand.iter().chain(cat).any(|t| !t.complete()) {
        return false;
    }
    for (m, (h, c)) in models.iter().zip(hand.iter().zip(cat)) {
        // What the cat model calls undefined is its own field (herd's
        // `Undef`); the racy marks and races compared here say the rest.
        let c = OutcomeTable {
            model: h.model.clone(),
            undefined_by_cat: None,
            ..c.clone()
        };
        assert_eq!(
            *h,
            c,
            "cat/{}.cat differs from ax.{0}:\n{}",
            m.name(),
            describe(p)
        );
    }
    true
}

fn run(test: &str, seed: u64, hw: bool, models: &[AxModel]) {
    let cats: Vec<Arc<CatModel>> = models.iter().map(|m| cat_model(m.name())).collect();
    run_with(test, seed, hw, models, &cats);
}

fn run_with(test: &str, seed: u64, hw: bool, models: &[AxModel], cats: &[Arc<CatModel>]) {
    run_programs(test, seed, hw, models, cats, diff_programs());
}

fn run_programs(
    test: &str,
    seed: u64,
    hw: bool,
    models: &[AxModel],
    cats: &[Arc<CatModel>],
    total: usize,
) {
    let mut rng = Rng(diff_seed(seed));
    let mut skipped = 0;
    for _ in 0..total {
        let p = random_program(&mut rng, hw);
        // Models of one compilation target share an enumeration.
        let groups: Vec<(Vec<AxModel>, Vec<Arc<CatModel>>)> = if hw && models.len() == 4 {
            vec![
                (vec![AxModel::Sc], vec![cats[0].clone()]),
                (vec![AxModel::Tso], vec![cats[1].clone()]),
                (
                    vec![AxModel::Pso, AxModel::Pslo],
                    vec![cats[2].clone(), cats[3].clone()],
                ),
            ]
        } else {
            vec![(models.to_vec(), cats.to_vec())]
        };
        for (ms, cs) in &groups {
            if !agree(&p, ms, cs) {
                skipped += 1;
                break;
            }
        }
    }
    eprintln!("{test}: {total} programs, {skipped} beyond the axiomatic candidate bound");
    assert!(
        skipped * 100 <= total,
        "{test}: {skipped} of {total} programs beyond the bound"
    );
}

#[test]
fn hardware_cat_models_equal_the_hand_written_ones() {
    run(
        "hardware_cat_models_equal_the_hand_written_ones",
        0x5eed_1234_abcd_0001,
        true,
        &[AxModel::Sc, AxModel::Tso, AxModel::Pso, AxModel::Pslo],
    );
}

#[test]
fn c11_cat_models_equal_the_hand_written_ones() {
    run(
        "c11_cat_models_equal_the_hand_written_ones",
        0x0c11_c11c_0000_0042,
        false,
        &[AxModel::C11, AxModel::Rc11, AxModel::C11r, AxModel::C11t],
    );
}

/// cat/ra.cat against ax.ra, on as many programs as the other groups;
/// `.ci/long-ra` runs more.
#[test]
fn ra_cat_model_equals_the_hand_written_one() {
    run_programs(
        "ra_cat_model_equals_the_hand_written_one",
        0x00a0_ca75_0000_0007,
        false,
        &[AxModel::Ra],
        &[cat_model("ra")],
        diff_programs(),
    );
}

/// `with` over linearisations of every memory access, checked against
/// ax.sc: SC as one total order (tests/cat/lamport-sc.cat) is ax.sc.
#[test]
fn sc_as_a_total_order_equals_ax_sc() {
    run_with(
        "sc_as_a_total_order_equals_ax_sc",
        0x5eed_1234_abcd_0001,
        true,
        &[AxModel::Sc],
        &[cat_model_in("tests/cat", "lamport-sc")],
    );
}
