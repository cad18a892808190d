//! `relaxlab compare --cat FILE`: operational models beside cat models.
//!
//! Each cat model stands in for the axiomatic twin of every operational
//! model given with `-m`. One table per test, a column per model; below
//! it, every disagreement between an operational model and a cat model:
//! an outcome only the operational model reaches comes with its witness
//! lifted to an execution (TSAN11 Sec. 6.1) and the check of the cat
//! model that rejects it; an outcome only the cat model allows comes with
//! a consistent execution. Nothing says how a user's model should relate
//! to an operational one, so every disagreement that racy executions do
//! not explain makes the exit code 1.
//!
//! As in `compare` ([`super::comparison`]): an outcome that a column cut
//! short lacks is undecided, not a disagreement (exit code 3); after
//! Ctrl-C the test is printed with the columns that finished, and no
//! further test starts (exit code 130); `--format json` prints
//! [`json::Comparison`]s, with the cat model as the twin.

use relaxlab_semantics::axiomatic::cat::{Machine, Verdict};
use relaxlab_semantics::axiomatic::{self, to_dot, Judge};
use relaxlab_semantics::ir::{ModelKey, OpModel, Program, Value};
use relaxlab_semantics::outcome::OutcomeTable;

use super::common;
use super::compare::edges_as_text;
use super::comparison::{self, Columns, Compared, Only, RACY};
use crate::cat::CatFile;
use crate::cli::CompareArgs;
use crate::engine::{self, Settings};
use crate::exit::{Exit, Outcome};
use crate::render::{json, trace};
use crate::{load, Io};
use std::collections::BTreeMap;

/// The label of a disagreement racy executions do not explain.
const DIFFERS: &str = "differs";

pub fn compare(args: &CompareArgs, io: &mut Io<'_>) -> Outcome {
    let config = common::config()?;
    let mut settings = common::settings(&args.engine, &config);
    settings.progress = common::stderr_is_terminal();
    let pool = common::pool(&args.engine, &config)?;
    let cats = crate::cat::load_all(&args.cat.cat, &args.cat.cat_path, io)?;
    let keys = common::op_models(&args.models)?;
    common::distinct(&keys)?;
    let models: Vec<OpModel> = keys
        .into_iter()
        .filter_map(|k| match k {
            ModelKey::Op(m) => Some(m),
            ModelKey::Ax(_) => None,
        })
        .collect();
    comparison::compare_each(args, io, |file, program, dots| {
        let mut columns = Columns::default();
        for &m in &models {
            let key = ModelKey::Op(m);
            columns.run(m.name().to_string(), || {
                match load::check_model(program, key, file) {
                    Err(_) => Err("outside the model".to_string()),
                    Ok(()) => pool
                        .install(|| engine::run(program, key, &settings))
                        .map_err(|e| e.to_string()),
                }
            });
        }
        for cat in &cats {
            columns.run(cat_column(cat), || {
                match crate::cat::check_program(program, &cat.model, file) {
                    Err(_) => Err("outside the model".to_string()),
                    Ok(()) => pool
                        .install(|| crate::cat::run(program, &cat.model, &settings))
                        .map_err(|e| e.to_string()),
                }
            });
        }
        let mut report = comparison::report(file, program, &columns);
        let text = render(
            program,
            &models,
            &cats,
            &columns,
            &settings,
            dots,
            &mut report,
        );
        let mut exit = columns.exit();
        if report.disagreements.iter().any(|d| d.label == DIFFERS) {
            exit = exit.max(Exit::CheckFailed);
        }
        Compared { text, report, exit }
    })
}

/// The column of a cat model: `cat:NAME`.
fn cat_column(cat: &CatFile) -> String {
    format!("cat:{}", cat.model.name)
}

/// The table and the disagreements of one test.
fn render(
    program: &Program,
    models: &[OpModel],
    cats: &[CatFile],
    columns: &Columns,
    settings: &Settings,
    dots: &mut Vec<String>,
    report: &mut json::Comparison,
) -> String {
    let mut out = comparison::table(program, "operational vs cat models", columns, report);
    let text = |v: &[Value]| comparison::outcome_text(program, v);
    let mut any = false;
    let racy = |t: &OutcomeTable, r: &Vec<Value>| t.rows.iter().any(|x| &x.values == r && x.racy);
    for &m in models {
        let Some(op) = columns.table(m.name()) else {
            continue;
        };
        for cat in cats {
            let name = cat_column(cat);
            let Some(ct) = columns.table(&name) else {
                continue;
            };
            let pair = (m.name(), name.as_str());
            let (o, a) = (comparison::outcomes(op), comparison::outcomes(ct));
            for r in o.difference(&a) {
                any = true;
                if !ct.complete() {
                    comparison::undecided(&mut out, report, pair, Only::Operational, r, &text(r));
                    continue;
                }
                let start = out.len();
                let label = if racy(op, r) { RACY } else { DIFFERS };
                out.push_str(&format!(
                    "\n  {label}: {} reaches [{}] but {name} forbids it; witness:\n",
                    m.name(),
                    text(r),
                ));
                let key = ModelKey::Op(m);
                let ran = engine::program_for(program, key, settings);
                let witness = op
                    .rows
                    .iter()
                    .find(|x| &x.values == r)
                    .and_then(|x| x.witness.as_ref());
                if let Some(w) = witness {
                    for line in trace::lines(&ran, key, w) {
                        out.push_str(&format!("      {line}\n"));
                    }
                    match axiomatic::lift(&ran, m, w) {
                        Ok(l) => {
                            let graph = to_dot(&ran, &l.execution);
                            out.push_str("      the witness lifted to an execution (rf, co, fr; the full graph with --dot):\n");
                            out.push_str(&edges_as_text(&graph));
                            let mut machine = Machine::new(&cat.model, settings.max_candidates);
                            let verdict = match machine.judge(&ran, &l.execution) {
                                Verdict::Rejected(Some(i)) => format!(
                                    "rejected by check {}",
                                    cat.model.check_name(i).unwrap_or("?")
                                ),
                                Verdict::Rejected(None) => {
                                    "rejected: no choice of its `with`".to_string()
                                }
                                Verdict::Accepted(_) => {
                                    "accepted (its rf/co differ from the model's own candidates)"
                                        .to_string()
                                }
                                Verdict::Undetermined => {
                                    "undecided (the `with` search hit --max-candidates)".to_string()
                                }
                            };
                            out.push_str(&format!("      {name}: {verdict}\n"));
                            dots.push(format!(
                                "// {} reaches [{}]: its witness lifted, {verdict} under {name}\n{graph}",
                                m.name(),
                                text(r),
                            ));
                        }
                        Err(e) => {
                            out.push_str(&format!("      the witness cannot be lifted: {e}\n"))
                        }
                    }
                }
                report.disagreements.push(comparison::disagreement(
                    label,
                    m.name(),
                    &name,
                    Only::Operational,
                    r,
                    &out[start..],
                ));
            }
            let witnesses = if op.complete() {
                let judge = Judge::Cat(cat.model.clone());
                comparison::consistent_executions(
                    program,
                    judge,
                    &a.difference(&o).collect(),
                    settings,
                )
            } else {
                BTreeMap::new()
            };
            for r in a.difference(&o) {
                any = true;
                if !op.complete() {
                    comparison::undecided(&mut out, report, pair, Only::Axiomatic, r, &text(r));
                    continue;
                }
                let start = out.len();
                let label = if racy(ct, r) { RACY } else { DIFFERS };
                out.push_str(&format!(
                    "\n  {label}: {name} allows [{}] but {} cannot reach it\n",
                    text(r),
                    m.name()
                ));
                let graph = witnesses.get(r);
                out.push_str(&comparison::consistent_execution_text(graph));
                dots.extend(graph.cloned());
                report.disagreements.push(comparison::disagreement(
                    label,
                    m.name(),
                    &name,
                    Only::Axiomatic,
                    r,
                    &out[start..],
                ));
            }
        }
    }
    for &m in models {
        let Some(op) = columns.table(m.name()) else {
            continue;
        };
        let key = ModelKey::Op(m);
        let ran = engine::program_for(program, key, settings);
        for cat in cats {
            let name = cat_column(cat);
            let Some(ct) = columns.table(&name) else {
                continue;
            };
            let racy = !op.races.is_empty() || !ct.races.is_empty();
            let cat_ran = crate::cat::program_for(program, &cat.model, settings);
            let mut undiscarded: Option<Option<(OutcomeTable, Program)>> = None;
            any |= comparison::failure_disagreements(
                &mut out,
                report,
                (m.name(), op, &ran),
                (&name, ct, &cat_ran),
                key,
                |only, what| match only {
                    _ if racy => (RACY, String::new()),
                    Only::Operational => {
                        let cat_run = undiscarded.get_or_insert_with(|| {
                            if !comparison::has_discards(program) {
                                return None;
                            }
                            let plain = comparison::without_discards(program);
                            let table = crate::cat::run(&plain, &cat.model, settings).ok()?;
                            Some((table, crate::cat::program_for(&plain, &cat.model, settings)))
                        });
                        let explained = cat_run.as_ref().is_some_and(|(t, ran)| {
                            comparison::comparable_failures(t, ran).contains_key(what)
                        });
                        if explained {
                            (
                                "known difference",
                                comparison::FAILURE_DISCARDED_WHY.to_string(),
                            )
                        } else {
                            (DIFFERS, String::new())
                        }
                    }
                    Only::Axiomatic => (DIFFERS, String::new()),
                },
            );
        }
    }
    if !any {
        out.push_str(&comparison::no_disagreement(
            columns,
            "no disagreement between the operational and the cat models",
        ));
    }
    out.push('\n');
    out
}
