//! `relaxlab compare`: operational models beside their axiomatic twins.
//!
//! One table per test: the outcomes any model allows as rows, a column per
//! operational model and per axiomatic twin (`sc` and `ax.sc`, `tso` and
//! `ax.tso`, ...), each cell `yes` (allowed) or `-` (forbidden). Below it,
//! every disagreement between a model and its twin, with evidence:
//!
//! - an outcome only the operational model reaches: its shortest witness
//!   trace, lifted to an execution (TSAN11 Sec. 6.1, `axiomatic::lift`),
//!   and the axiom of the twin that rejects that execution (drawn by
//!   `--dot` too);
//! - an outcome only the axiomatic model allows: a consistent execution of
//!   it (its events, `rf` and `co`), and the reason where one is known.
//!
//! The expected relations (MODELS.md 4.1 and 3): operational = axiomatic
//! for sc, tso and c11r; operational ⊆ axiomatic for pso and pslo, where
//! RELAXER's conservative `ss` barrier also orders a store before later
//! loads. A disagreement on an outcome that only racy executions reach is
//! labelled racy: C11 gives such programs no meaning, and the two engines
//! resolve a race differently. Any other disagreement outside these
//! relations is flagged UNEXPECTED (exit code 1).
//!
//! Failures are compared too (failed `assert`s, divisions by zero, bad
//! `join` handles): one side's failure the other lacks is a disagreement,
//! except where the two engines read failures differently, which is
//! checked, not assumed: the operational engine ends an execution where
//! it fails, the axiomatic one builds whole executions, so a failure
//! whose every whole execution an `assume` discards is only operational
//! (`known difference` when the twin finds it once the `assume`s and the
//! `filter` are dropped).
//!
//! A column cut short by a bound says so under the table (`PARTIAL:
//! MODEL: ...`, exit code 3), and an outcome it lacks is undecided, not a
//! disagreement; after Ctrl-C the test is printed with the columns that
//! finished ([`comparison`], shared with `compare --cat`). `--format json`
//! prints the same, as [`json::Comparison`]s.

use relaxlab_semantics::axiomatic::{self, to_dot, twin, CoSource, Judge};
use relaxlab_semantics::ir::{FenceKind, HwFence, Instr, ModelKey, OpModel, Program, Value};
use relaxlab_semantics::outcome::OutcomeTable;
use relaxlab_semantics::registry::TwinRelation;

use super::common;
use super::comparison::{self, Columns, Compared, Only, RACY};
use crate::cli::CompareArgs;
use crate::engine::{self, Settings};
use crate::exit::{Exit, Outcome};
use crate::render::{dot, json, trace};
use crate::{load, Io};
use std::collections::BTreeMap;

/// Why racy outcomes may differ (MODELS.md 3 and 4.2).
const RACY_WHY: &str = "every execution reaching it has a data race, so C11 gives the program no meaning; \
    the operational model reads the newest value at a race (MODELS.md 3), the axiomatic one a visible side effect (4.2)";

/// Why failures of a racy program may differ.
const RACY_FAILURE_WHY: &str = "the program has a data race, so C11 gives it no meaning; \
    the operational model reads the newest value at a race (MODELS.md 3), the axiomatic one a visible side effect (4.2), \
    and a failure that depends on the value read may be found by one only";

/// Must the twins agree exactly (else: operational ⊆ axiomatic)?
fn must_be_equal(m: OpModel) -> bool {
    m.row().relation == TwinRelation::Equal
}

pub fn compare(args: &CompareArgs, io: &mut Io<'_>) -> Outcome {
    if args.herd_logs {
        return super::herd_logs::compare(&args.files, args.ignore_counts, io);
    }
    crate::flags::check_compare(args)?;
    if !args.cat.cat.is_empty() {
        return super::compare_cat::compare(args, io);
    }
    let config = common::config()?;
    let mut settings = common::settings(&args.engine, &config);
    settings.progress = common::stderr_is_terminal();
    let pool = common::pool(&args.engine, &config)?;
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
            for key in [ModelKey::Op(m), ModelKey::Ax(twin(m))] {
                columns.run(key.to_string(), || {
                    match load::check_model(program, key, file) {
                        Err(_) => Err("outside the model".to_string()),
                        Ok(()) => pool
                            .install(|| engine::run(program, key, &settings))
                            .map_err(|e| e.to_string()),
                    }
                });
            }
        }
        let mut report = comparison::report(file, program, &columns);
        let text = render(program, &columns, &models, &settings, dots, &mut report);
        let mut exit = columns.exit();
        if report.disagreements.iter().any(|d| d.label == "UNEXPECTED") {
            exit = exit.max(Exit::CheckFailed);
        }
        Compared { text, report, exit }
    })
}

/// A disagreement of `model` and its twin for JSON.
fn disagreement(
    label: &'static str,
    model: OpModel,
    only: Only,
    values: &[Value],
    text: &str,
) -> json::Disagreement {
    let twin = ModelKey::Ax(twin(model)).to_string();
    comparison::disagreement(label, model.name(), &twin, only, values, text)
}

/// The table of a test, then every disagreement of a model with its twin
/// and its evidence.
fn render(
    program: &Program,
    columns: &Columns,
    models: &[OpModel],
    settings: &Settings,
    dots: &mut Vec<String>,
    report: &mut json::Comparison,
) -> String {
    let mut out = comparison::table(program, "operational vs axiomatic", columns, report);
    let outcome_text = |v: &[Value]| comparison::outcome_text(program, v);
    let mut any = false;
    for &m in models {
        let ax_name = ModelKey::Ax(twin(m)).to_string();
        let (Some(op), Some(ax)) = (columns.table(m.name()), columns.table(&ax_name)) else {
            continue;
        };
        let (o, a) = (comparison::outcomes(op), comparison::outcomes(ax));
        let racy =
            |t: &OutcomeTable, r: &Vec<Value>| t.rows.iter().any(|x| &x.values == r && x.racy);
        for r in o.difference(&a) {
            any = true;
            if !ax.complete() {
                let pair = (m.name(), ax_name.as_str());
                comparison::undecided(
                    &mut out,
                    report,
                    pair,
                    Only::Operational,
                    r,
                    &outcome_text(r),
                );
                continue;
            }
            let start = out.len();
            let label = if racy(op, r) { RACY } else { "UNEXPECTED" };
            out.push_str(&format!(
                "\n  {label}: {} reaches [{}] but ax.{} forbids it; witness:\n",
                m.name(),
                outcome_text(r),
                twin(m).name()
            ));
            if label == RACY {
                out.push_str(&format!("      {RACY_WHY}\n"));
            }
            let key = ModelKey::Op(m);
            let ran = engine::program_for(program, key, settings);
            if let Some(w) = op
                .rows
                .iter()
                .find(|x| &x.values == r)
                .and_then(|x| x.witness.as_ref())
            {
                for line in trace::lines(&ran, key, w) {
                    out.push_str(&format!("      {line}\n"));
                }
                let (text, graph) = lifted_witness(&ran, m, &outcome_text(r), w);
                out.push_str(&text);
                let title = format!("{} under {}: {}", program.name, m.name(), outcome_text(r));
                dots.extend(graph.map(|g| dot::titled(&g, &title)));
            }
            report
                .disagreements
                .push(disagreement(label, m, Only::Operational, r, &out[start..]));
        }
        let witnesses = if op.complete() {
            let judge = Judge::Model(twin(m));
            comparison::consistent_executions(program, judge, &a.difference(&o).collect(), settings)
        } else {
            BTreeMap::new()
        };
        for r in a.difference(&o) {
            any = true;
            if !op.complete() {
                let pair = (m.name(), ax_name.as_str());
                comparison::undecided(&mut out, report, pair, Only::Axiomatic, r, &outcome_text(r));
                continue;
            }
            let start = out.len();
            let label = if racy(ax, r) {
                RACY
            } else if must_be_equal(m) {
                "UNEXPECTED"
            } else {
                "known difference"
            };
            out.push_str(&format!(
                "\n  {label}: ax.{} allows [{}] but {} cannot reach it\n",
                twin(m).name(),
                outcome_text(r),
                m.name()
            ));
            if label == RACY {
                out.push_str(&format!("      {RACY_WHY}\n"));
            } else if !must_be_equal(m) {
                let compiled = engine::program_for(program, ModelKey::Op(m), settings);
                out.push_str(&format!("      {}\n", explain_pso_difference(&compiled)));
            }
            let graph = witnesses.get(r);
            out.push_str(&comparison::consistent_execution_text(graph));
            if let Some(graph) = graph {
                let title = format!(
                    "{} under ax.{}: {}",
                    program.name,
                    twin(m).name(),
                    outcome_text(r)
                );
                dots.push(dot::titled(graph, &title));
            }
            report
                .disagreements
                .push(disagreement(label, m, Only::Axiomatic, r, &out[start..]));
        }
    }
    for &m in models {
        let ax_name = ModelKey::Ax(twin(m)).to_string();
        let (Some(op), Some(ax)) = (columns.table(m.name()), columns.table(&ax_name)) else {
            continue;
        };
        let key = ModelKey::Op(m);
        let ran = engine::program_for(program, key, settings);
        let ax_key = ModelKey::Ax(twin(m));
        let ax_ran = engine::program_for(program, ax_key, settings);
        // The twin on the program without its discards, run once if needed.
        let mut undiscarded: Option<Option<(OutcomeTable, Program)>> = None;
        let racy = !op.races.is_empty() || !ax.races.is_empty();
        any |= comparison::failure_disagreements(
            &mut out,
            report,
            (m.name(), op, &ran),
            (&ax_name, ax, &ax_ran),
            key,
            |only, what| match only {
                _ if racy => (RACY, RACY_FAILURE_WHY.to_string()),
                Only::Operational => {
                    let twin_run = undiscarded.get_or_insert_with(|| {
                        if !comparison::has_discards(program) {
                            return None;
                        }
                        let plain = comparison::without_discards(program);
                        let table = engine::run(&plain, ax_key, settings).ok()?;
                        Some((table, engine::program_for(&plain, ax_key, settings)))
                    });
                    let explained = twin_run.as_ref().is_some_and(|(t, ran)| {
                        comparison::comparable_failures(t, ran).contains_key(what)
                    });
                    if explained {
                        (
                            "known difference",
                            comparison::FAILURE_DISCARDED_WHY.to_string(),
                        )
                    } else {
                        ("UNEXPECTED", String::new())
                    }
                }
                Only::Axiomatic if must_be_equal(m) => ("UNEXPECTED", String::new()),
                Only::Axiomatic => ("known difference", explain_pso_difference(&ran).to_string()),
            },
        );
    }
    if !any {
        out.push_str(&comparison::no_disagreement(
            columns,
            "no disagreement between the models and their twins",
        ));
    }
    out.push('\n');
    out
}

/// Why PSO/PSLO may reach less than their axiomatic twins (MODELS.md 4.1).
fn explain_pso_difference(compiled: &Program) -> &'static str {
    let has_ss = compiled.threads.iter().any(|t| {
        t.code.iter().any(|i| {
            matches!(
                i.instr,
                Instr::Fence {
                    kind: FenceKind::Hw(HwFence::SS)
                }
            )
        })
    });
    if has_ss {
        "the program has an `ss` barrier: RELAXER's PSO/PSLO (Fig. 5) wait for every buffer to drain at it, \
         so it also orders earlier stores before later loads, which the axiomatic model does not require"
    } else {
        "no `ss` barrier here: this difference is not the documented one; report it"
    }
}

/// An operational witness of an outcome its twin forbids, lifted to an
/// execution (TSAN11 Sec. 6.1): a text listing of its communication edges
/// and of the axiom of the twin that rejects it, and its DOT graph (after
/// a comment saying what it is), if it could be lifted. `ran` is the
/// program the model ran.
fn lifted_witness(
    ran: &Program,
    model: OpModel,
    outcome: &str,
    witness: &relaxlab_semantics::outcome::Trace,
) -> (String, Option<String>) {
    let ax = axiomatic::twin(model);
    let lifted = match axiomatic::lift(ran, model, witness) {
        Ok(l) => l,
        Err(e) => return (format!("      the witness cannot be lifted: {e}\n"), None),
    };
    let graph = to_dot(ran, &lifted.execution);
    let mut text = String::from(
        "      the witness lifted to an execution (rf, co, fr; the full graph with --dot):\n",
    );
    text.push_str(&edges_as_text(&graph));
    if let CoSource::Searched {
        tried,
        accepted: false,
    } = lifted.co
    {
        text.push_str(&format!(
            "      (c11t fixes only the last store of mo: none of the {tried} orders tried is \
             accepted; the first is shown)\n"
        ));
    }
    let verdict = match &lifted.verdict {
        Ok(()) => {
            text.push_str(&format!(
                "      ax.{} accepts the lifted execution, yet does not list the outcome: report it\n",
                ax.name()
            ));
            "accepted".to_string()
        }
        Err(r) => {
            text.push_str(&format!(
                "      ax.{} rejects it: axiom {} fails on\n",
                ax.name(),
                r.axiom
            ));
            let labels = dot_labels(&graph);
            for e in &r.cycle {
                let id = format!("e{}", e.0);
                let label = labels.get(&id).cloned().unwrap_or(id);
                text.push_str(&format!("        {label}\n"));
            }
            format!("rejected by axiom {}", r.axiom)
        }
    };
    let dot = format!(
        "// {} reaches [{outcome}]: its witness lifted, {verdict} under ax.{}\n{graph}",
        model.name(),
        ax.name()
    );
    (text, Some(dot))
}

/// The events of a DOT execution graph: node id to label.
pub(super) fn dot_labels(dot: &str) -> std::collections::BTreeMap<String, String> {
    dot.lines()
        .map(str::trim)
        .filter(|line| !line.contains(" -> "))
        .filter_map(|line| {
            let (id, rest) = line.split_once(" [label=\"")?;
            let label = rest.split('"').next()?;
            Some((id.to_string(), label.to_string()))
        })
        .collect()
}

/// The communication edges of a DOT execution graph as readable lines,
/// `c: W[rlx] x=1 -rf-> f: R[rlx] x=1`, using the events' labels.
pub(super) fn edges_as_text(dot: &str) -> String {
    let labels = dot_labels(dot);
    let mut out = String::new();
    for line in dot.lines().map(str::trim) {
        let label = line
            .split("label=\"")
            .nth(1)
            .and_then(|l| l.split('"').next())
            .unwrap_or("");
        match line.split_once(" -> ") {
            None => {}
            Some((from, rest)) if matches!(label, "rf" | "co" | "fr") => {
                let to = rest.split_whitespace().next().unwrap_or("");
                let name = |id: &str| labels.get(id).cloned().unwrap_or_else(|| id.to_string());
                out.push_str(&format!("        {} -{label}-> {}\n", name(from), name(to)));
            }
            Some(_) => {}
        }
    }
    out
}
