//! `relaxlab compare`: operational models beside their axiomatic twins,
//! or beside the cat models given with `--cat`.
//!
//! One table per test: the outcomes any model allows as rows, a column per
//! operational model and per model it is paired with, each cell `yes`
//! (allowed) or `-` (forbidden). Each operational model is paired with its
//! axiomatic twin (its registry row's `twin`: `sc` and `ax.sc`, `tso` and
//! `ax.tso`, ...), or with every `--cat` model, which stands in for the
//! twin. Below the table, every disagreement of a pair, with evidence:
//!
//! - an outcome only the operational model reaches: its shortest witness
//!   trace, lifted to an execution (TSAN11 Sec. 6.1, `axiomatic::lift`),
//!   and the axiom (or cat check) of the other model that rejects that
//!   execution (drawn by `--dot` too);
//! - an outcome only the other model allows: a consistent execution of it
//!   (its events, `rf` and `co`), and the reason where one is known.
//!
//! The expected relations (the registry rows' `relation`;
//! book: op-vs-ax.md, What to expect): operational = axiomatic for sc, tso, c11r and c11t;
//! operational ⊆ axiomatic for pso and pslo, where RELAXER's conservative
//! `ss` barrier also orders a store before later loads. A disagreement on
//! an outcome that only racy executions reach is labelled racy: C11 gives
//! such programs no meaning, and the two engines resolve a race
//! differently. Any other disagreement with a twin outside these relations
//! is flagged UNEXPECTED, and any with a cat model (nothing says how a
//! user's model should relate to an operational one) `differs`: exit code
//! 1.
//!
//! Failures are compared too (failed `assert`s, divisions by zero, bad
//! `join` handles): one side's failure the other lacks is a disagreement,
//! except where the two engines read failures differently, which is
//! checked, not assumed: the operational engine ends an execution where
//! it fails, the axiomatic one builds whole executions, so a failure
//! whose every whole execution an `assume` discards is only operational
//! (`known difference` when the other model finds it once the `assume`s
//! and the `filter` are dropped).
//!
//! A column cut short by a bound says so under the table (`PARTIAL:
//! MODEL: ...`, exit code 3), and an outcome it lacks is undecided, not a
//! disagreement; after Ctrl-C the test is printed with the columns that
//! finished ([`comparison`]). `--format json` prints the same, as
//! [`json::Comparison`]s.

use relaxlab_semantics::axiomatic::cat::{Machine, Verdict};
use relaxlab_semantics::axiomatic::{self, to_dot, CoSource};
use relaxlab_semantics::ir::{FenceKind, HwFence, Instr, ModelKey, OpModel, Program, Value};
use relaxlab_semantics::outcome::{OutcomeTable, Trace};
use relaxlab_semantics::registry::TwinRelation;

use super::common;
use super::comparison::{self, Columns, Compared, Only, RACY};
use crate::cat::CatFile;
use crate::cli::CompareArgs;
use crate::engine::{self, Settings};
use crate::exit::{Exit, Outcome};
use crate::model::Model;
use crate::render::{dot, json, trace};
use crate::Io;
use std::collections::BTreeMap;

/// Why racy outcomes may differ (book: reference.md, Between the two engines).
const RACY_WHY: &str = "every execution reaching it has a data race, so C11 gives the program no meaning; \
    the operational model reads the newest value at a race (book: model-c11r.md, Rules), the axiomatic one a visible side effect (book: axiomatic.md, C11 models)";

/// Why failures of a racy program may differ.
const RACY_FAILURE_WHY: &str = "the program has a data race, so C11 gives it no meaning; \
    the operational model reads the newest value at a race (book: model-c11r.md, Rules), the axiomatic one a visible side effect (book: axiomatic.md, C11 models), \
    and a failure that depends on the value read may be found by one only";

/// The label of a disagreement with a twin outside the expected relation.
const UNEXPECTED: &str = "UNEXPECTED";

/// The label of a disagreement with a cat model that racy executions do
/// not explain.
const DIFFERS: &str = "differs";

/// The label of a disagreement that the expected relation explains.
const KNOWN: &str = "known difference";

/// What the operational models are compared with.
#[derive(Clone, Copy)]
enum Against<'a> {
    /// Each with its axiomatic twin.
    Twins,
    /// Each with every cat model.
    Cats(&'a [CatFile]),
}

impl<'a> Against<'a> {
    /// The pairs to compare, in order: an operational model and the model
    /// it is compared with.
    fn pairs(self, models: &[OpModel]) -> Vec<(OpModel, Model<'a>)> {
        match self {
            Against::Twins => models.iter().map(|&m| (m, Model::Ax(m.twin()))).collect(),
            Against::Cats(cats) => models
                .iter()
                .flat_map(|&m| cats.iter().map(move |c| (m, Model::Cat(c))))
                .collect(),
        }
    }

    /// The columns of a test, in order: each model with its twin, or the
    /// operational models and then the cat models.
    fn columns(self, models: &[OpModel]) -> Vec<Model<'a>> {
        match self {
            Against::Twins => models
                .iter()
                .flat_map(|&m| [Model::Op(m), Model::Ax(m.twin())])
                .collect(),
            Against::Cats(cats) => models
                .iter()
                .map(|&m| Model::Op(m))
                .chain(cats.iter().map(Model::Cat))
                .collect(),
        }
    }

    /// The label of a disagreement nothing explains (exit code 1).
    fn unexplained(self) -> &'static str {
        match self {
            Against::Twins => UNEXPECTED,
            Against::Cats(_) => DIFFERS,
        }
    }

    /// The label and explanation of an outcome or failure only the other
    /// model of the pair with `m` has: a twin may allow more than a model
    /// that is a subset of it.
    fn only_other(self, m: OpModel, ran: &Program) -> (&'static str, Option<&'static str>) {
        match self {
            Against::Twins if m.row().relation == TwinRelation::OperationalSubset => {
                (KNOWN, Some(explain_pso_difference(ran)))
            }
            _ => (self.unexplained(), None),
        }
    }
}

pub fn compare(args: &CompareArgs, io: &mut Io<'_>) -> Outcome {
    if args.herd_logs {
        return super::herd_logs::compare(&args.files, args.ignore_counts, io);
    }
    crate::flags::check_compare(args)?;
    let config = common::config()?;
    let mut settings = common::settings(&args.engine, &config);
    settings.progress = common::stderr_is_terminal();
    // The cat models and herd's configuration, before the workers start.
    let cats = crate::cat::load_for(&args.cat, io)?;
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
    let against = if cats.is_empty() {
        Against::Twins
    } else {
        Against::Cats(&cats)
    };
    comparison::compare_each(args, io, |file, program, dots| {
        let mut columns = Columns::default();
        for model in against.columns(&models) {
            columns.run(model.name(), || match model.check(program, file) {
                Err(_) => Err("outside the model".to_string()),
                Ok(()) => pool
                    .install(|| engine::run(program, model, &settings))
                    .map_err(|e| e.to_string()),
            });
        }
        let mut report = comparison::report(file, program, &columns);
        let text = render(
            program,
            against,
            &models,
            &columns,
            &settings,
            dots,
            &mut report,
        );
        let mut exit = columns.exit();
        let unexplained = against.unexplained();
        if report.disagreements.iter().any(|d| d.label == unexplained) {
            exit = exit.max(Exit::CheckFailed);
        }
        Compared { text, report, exit }
    })
}

/// The table of a test, then every disagreement of each pair and its
/// evidence.
fn render(
    program: &Program,
    against: Against<'_>,
    models: &[OpModel],
    columns: &Columns,
    settings: &Settings,
    dots: &mut Vec<String>,
    report: &mut json::Comparison,
) -> String {
    let title = match against {
        Against::Twins => "operational vs axiomatic",
        Against::Cats(_) => "operational vs cat models",
    };
    let mut out = comparison::table(program, title, columns, report);
    let outcome_text = |v: &[Value]| comparison::outcome_text(program, v);
    let mut any = false;
    let pairs = against.pairs(models);
    for &(m, other) in &pairs {
        let other_name = other.name();
        let (Some(op), Some(ax)) = (columns.table(m.name()), columns.table(&other_name)) else {
            continue;
        };
        let pair = (m.name(), other_name.as_str());
        let (o, a) = (comparison::outcomes(op), comparison::outcomes(ax));
        let racy =
            |t: &OutcomeTable, r: &Vec<Value>| t.rows.iter().any(|x| &x.values == r && x.racy);
        let key = ModelKey::Op(m);
        let ran = engine::program_for(program, key, settings);
        for r in o.difference(&a) {
            any = true;
            if !ax.complete() {
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
            let label = if racy(op, r) {
                RACY
            } else {
                against.unexplained()
            };
            out.push_str(&format!(
                "\n  {label}: {} reaches [{}] but {other_name} forbids it; witness:\n",
                m.name(),
                outcome_text(r),
            ));
            if label == RACY && matches!(against, Against::Twins) {
                out.push_str(&format!("      {RACY_WHY}\n"));
            }
            if let Some(w) = op
                .rows
                .iter()
                .find(|x| &x.values == r)
                .and_then(|x| x.witness.as_ref())
            {
                for line in trace::lines(&ran, key, w) {
                    out.push_str(&format!("      {line}\n"));
                }
                let (text, graph) = lifted_witness(&ran, m, other, &outcome_text(r), w, settings);
                out.push_str(&text);
                let title = format!("{} under {}: {}", program.name, m.name(), outcome_text(r));
                dots.extend(graph.map(|g| dot::titled(&g, &title)));
            }
            report.disagreements.push(comparison::disagreement(
                label,
                m.name(),
                &other_name,
                Only::Operational,
                r,
                &out[start..],
            ));
        }
        let witnesses = match other.engine() {
            crate::model::Engine::Axiomatic(judge) if op.complete() => {
                comparison::consistent_executions(
                    program,
                    judge,
                    &a.difference(&o).collect(),
                    settings,
                )
            }
            _ => BTreeMap::new(),
        };
        for r in a.difference(&o) {
            any = true;
            if !op.complete() {
                comparison::undecided(&mut out, report, pair, Only::Axiomatic, r, &outcome_text(r));
                continue;
            }
            let start = out.len();
            let (label, why) = if racy(ax, r) {
                (RACY, matches!(against, Against::Twins).then_some(RACY_WHY))
            } else {
                against.only_other(m, &ran)
            };
            out.push_str(&format!(
                "\n  {label}: {other_name} allows [{}] but {} cannot reach it\n",
                outcome_text(r),
                m.name()
            ));
            if let Some(why) = why {
                out.push_str(&format!("      {why}\n"));
            }
            let graph = witnesses.get(r);
            out.push_str(&comparison::consistent_execution_text(graph));
            if let Some(graph) = graph {
                let title = format!("{} under {other_name}: {}", program.name, outcome_text(r));
                dots.push(dot::titled(graph, &title));
            }
            report.disagreements.push(comparison::disagreement(
                label,
                m.name(),
                &other_name,
                Only::Axiomatic,
                r,
                &out[start..],
            ));
        }
    }
    for &(m, other) in &pairs {
        let other_name = other.name();
        let (Some(op), Some(ax)) = (columns.table(m.name()), columns.table(&other_name)) else {
            continue;
        };
        let key = ModelKey::Op(m);
        let ran = engine::program_for(program, key, settings);
        let other_ran = engine::program_for(program, other, settings);
        // The other model on the program without its discards, run once if
        // needed.
        let mut undiscarded: Option<Option<(OutcomeTable, Program)>> = None;
        let racy = !op.races.is_empty() || !ax.races.is_empty();
        let racy_why = match against {
            Against::Twins => RACY_FAILURE_WHY.to_string(),
            Against::Cats(_) => String::new(),
        };
        any |= comparison::failure_disagreements(
            &mut out,
            report,
            (m.name(), op, &ran),
            (&other_name, ax, &other_ran),
            key,
            |only, what| match only {
                _ if racy => (RACY, racy_why.clone()),
                Only::Operational => {
                    let other_run = undiscarded.get_or_insert_with(|| {
                        if !comparison::has_discards(program) {
                            return None;
                        }
                        let plain = comparison::without_discards(program);
                        let table = engine::run(&plain, other, settings).ok()?;
                        Some((table, engine::program_for(&plain, other, settings)))
                    });
                    let explained = other_run.as_ref().is_some_and(|(t, ran)| {
                        comparison::comparable_failures(t, ran).contains_key(what)
                    });
                    if explained {
                        (KNOWN, comparison::FAILURE_DISCARDED_WHY.to_string())
                    } else {
                        (against.unexplained(), String::new())
                    }
                }
                Only::Axiomatic => {
                    let (label, why) = against.only_other(m, &ran);
                    (label, why.unwrap_or_default().to_string())
                }
            },
        );
    }
    if !any {
        let none = match against {
            Against::Twins => "no disagreement between the models and their twins",
            Against::Cats(_) => "no disagreement between the operational and the cat models",
        };
        out.push_str(&comparison::no_disagreement(columns, none));
    }
    out.push('\n');
    out
}

/// Why PSO/PSLO may reach less than their axiomatic twins (book: op-vs-ax.md, The PSO and PSLO difference: RELAXER's ss).
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

/// An operational witness of an outcome the model `other` forbids, lifted
/// to an execution (TSAN11 Sec. 6.1): a text listing of its communication
/// edges and of the axiom (or cat check) of `other` that rejects it, and
/// its DOT graph (after a comment saying what it is), if it could be
/// lifted. `ran` is the program the operational model ran.
fn lifted_witness(
    ran: &Program,
    model: OpModel,
    other: Model<'_>,
    outcome: &str,
    witness: &Trace,
    settings: &Settings,
) -> (String, Option<String>) {
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
    let name = other.name();
    let verdict = match other {
        Model::Cat(cat) => {
            let mut machine = Machine::new(&cat.model, settings.max_candidates);
            let verdict = match machine.judge(ran, &lifted.execution) {
                Verdict::Rejected(Some(i)) => format!(
                    "rejected by check {}",
                    cat.model.check_name(i).unwrap_or("?")
                ),
                Verdict::Rejected(None) => "rejected: no choice of its `with`".to_string(),
                Verdict::Accepted(_) => {
                    "accepted (its rf/co differ from the model's own candidates)".to_string()
                }
                Verdict::Undetermined => {
                    "undecided (the `with` search hit --max-candidates)".to_string()
                }
                Verdict::Unsettled => {
                    "undecided (a `let rec` that is not monotone never settled)".to_string()
                }
            };
            text.push_str(&format!("      {name}: {verdict}\n"));
            verdict
        }
        // The twin's verdict is the lift's: the lift judges under it.
        _ => match &lifted.verdict {
            Ok(()) => {
                text.push_str(&format!(
                    "      {name} accepts the lifted execution, yet does not list the outcome: report it\n"
                ));
                "accepted".to_string()
            }
            Err(r) => {
                text.push_str(&format!(
                    "      {name} rejects it: axiom {} fails on\n",
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
        },
    };
    let dot = format!(
        "// {} reaches [{outcome}]: its witness lifted, {verdict} under {name}\n{graph}",
        model.name(),
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
