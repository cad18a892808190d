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

use std::collections::BTreeSet;

use miette::IntoDiagnostic;
use relaxlab_semantics::axiomatic::cat::{Machine, Verdict};
use relaxlab_semantics::axiomatic::{self, to_dot, to_dot_showing, ExecutionEnd, Judge};
use relaxlab_semantics::ir::{ModelKey, OpModel, Program, Value};
use relaxlab_semantics::outcome::OutcomeTable;

use super::common;
use super::compare::{edges_as_text, outcomes, RACY};
use crate::cat::CatFile;
use crate::cli::CompareArgs;
use crate::engine::{self, Settings};
use crate::exit::{Exit, Outcome};
use crate::render::trace;
use crate::{load, Io};

/// One column: its name and its table, or why it did not run.
struct Column {
    name: String,
    result: Result<OutcomeTable, String>,
}

pub fn compare(args: &CompareArgs, io: &mut Io<'_>) -> Outcome {
    let config = common::config()?;
    let settings = common::settings(&args.engine, &config);
    let pool = common::pool(&args.engine, &config)?;
    let cats = crate::cat::load_all(&args.cat.cat, &args.cat.cat_path, io)?;
    let models: Vec<OpModel> = common::op_models(&args.models)?
        .into_iter()
        .filter_map(|k| match k {
            ModelKey::Op(m) => Some(m),
            ModelKey::Ax(_) => None,
        })
        .collect();
    let mut exit = Exit::Ok;
    let mut dots = Vec::new();
    for (file, program) in common::programs(&args.files, io, &mut exit)? {
        let mut ops = Vec::new();
        for &m in &models {
            let key = ModelKey::Op(m);
            let result = match load::check_model(&program, key, &file) {
                Err(_) => Err("outside the model".to_string()),
                Ok(()) => pool
                    .install(|| engine::run(&program, key, &settings))
                    .map_err(|e| e.to_string()),
            };
            ops.push(Column {
                name: m.name().to_string(),
                result,
            });
        }
        let mut cat_columns = Vec::new();
        for cat in &cats {
            let result = match crate::cat::check_program(&program, &cat.model, &file) {
                Err(_) => Err("outside the model".to_string()),
                Ok(()) => pool
                    .install(|| crate::cat::run(&program, &cat.model, &settings))
                    .map_err(|e| e.to_string()),
            };
            cat_columns.push(Column {
                name: format!("cat:{}", cat.model.name),
                result,
            });
        }
        for c in ops.iter().chain(&cat_columns) {
            if matches!(&c.result, Ok(t) if !t.complete()) {
                exit = exit.max(Exit::Partial);
            }
        }
        let (text, differ) = render(
            &program,
            &models,
            &ops,
            &cats,
            &cat_columns,
            &settings,
            &mut dots,
        );
        write!(io.out, "{text}").into_diagnostic()?;
        if differ {
            exit = exit.max(Exit::CheckFailed);
        }
    }
    if let Some(dot_path) = &args.dot {
        let text = if dots.is_empty() {
            "// no disagreement: no execution to draw\ndigraph relaxlab {}\n".to_string()
        } else {
            dots.join("\n")
        };
        std::fs::write(dot_path, text).into_diagnostic()?;
    }
    Ok(exit)
}

/// The table and the disagreements of one test; true when a disagreement
/// is not explained by racy executions.
fn render(
    program: &Program,
    models: &[OpModel],
    ops: &[Column],
    cats: &[CatFile],
    cat_columns: &[Column],
    settings: &Settings,
    dots: &mut Vec<String>,
) -> (String, bool) {
    let mut out = format!("{}: operational vs cat models\n", program.name);
    if let Some(c) = &program.condition {
        out.push_str(&format!("  {}\n", c.text));
    }
    let columns: Vec<&Column> = ops.iter().chain(cat_columns).collect();
    let mut rows: BTreeSet<Vec<Value>> = BTreeSet::new();
    for c in &columns {
        if let Ok(t) = &c.result {
            rows.extend(outcomes(t));
        }
    }
    let text = |v: &[Value]| outcome_text(program, v);
    let width = rows.iter().map(|r| text(r).len()).max().unwrap_or(0).max(7);
    out.push_str(&format!("\n    {:<width$}", "outcome"));
    for c in &columns {
        out.push_str(&format!("  {:>7}", c.name));
    }
    out.push('\n');
    for r in &rows {
        let holds = program
            .condition
            .as_ref()
            .is_some_and(|c| relaxlab_semantics::outcome::satisfies(program, &c.prop, r));
        out.push_str(&format!(
            "  {} {:<width$}",
            if holds { '*' } else { ' ' },
            text(r)
        ));
        for c in &columns {
            let cell = match &c.result {
                Ok(t) if t.rows.iter().any(|x| &x.values == r) => "yes",
                Ok(_) => "-",
                Err(_) => "n/a",
            };
            out.push_str(&format!("  {cell:>w$}", w = c.name.len().max(7)));
        }
        out.push('\n');
    }
    for c in &columns {
        if let Err(why) = &c.result {
            out.push_str(&format!("  {}: not run ({why})\n", c.name));
        }
    }
    let mut any = false;
    let mut differ = false;
    let racy = |t: &OutcomeTable, r: &Vec<Value>| t.rows.iter().any(|x| &x.values == r && x.racy);
    for (&m, op) in models.iter().zip(ops) {
        let Ok(op) = &op.result else { continue };
        for (cat, col) in cats.iter().zip(cat_columns) {
            let Ok(ct) = &col.result else { continue };
            let (o, a) = (outcomes(op), outcomes(ct));
            for r in o.difference(&a) {
                any = true;
                let label = if racy(op, r) { RACY } else { "differs" };
                differ |= label != RACY;
                out.push_str(&format!(
                    "\n  {label}: {} reaches [{}] but {} forbids it; witness:\n",
                    m.name(),
                    text(r),
                    col.name
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
                            out.push_str(&format!("      {}: {verdict}\n", col.name));
                            dots.push(format!(
                                "// {} reaches [{}]: its witness lifted, {verdict} under {}\n{graph}",
                                m.name(),
                                text(r),
                                col.name
                            ));
                        }
                        Err(e) => {
                            out.push_str(&format!("      the witness cannot be lifted: {e}\n"))
                        }
                    }
                }
            }
            for r in a.difference(&o) {
                any = true;
                let label = if racy(ct, r) { RACY } else { "differs" };
                differ |= label != RACY;
                out.push_str(&format!(
                    "\n  {label}: {} allows [{}] but {} cannot reach it\n",
                    col.name,
                    text(r),
                    m.name()
                ));
                if let Some((listing, dot)) = cat_witness(program, cat, r, settings) {
                    out.push_str(&listing);
                    dots.push(dot);
                }
            }
        }
    }
    if !any {
        out.push_str("\n  no disagreement between the operational and the cat models\n");
    }
    out.push('\n');
    (out, differ)
}

/// A consistent execution of the cat model with outcome `values`: its
/// communication edges as text, and its DOT graph with what it shows.
fn cat_witness(
    program: &Program,
    cat: &CatFile,
    values: &[Value],
    settings: &Settings,
) -> Option<(String, String)> {
    let prepared = crate::cat::program_for(program, &cat.model, settings);
    let mut found = None;
    let _ = axiomatic::visit_judged(
        program,
        &[Judge::Cat(cat.model.clone())],
        &engine::ax_options(settings),
        true,
        &mut |_, ex, end, judged| {
            if found.is_none() && matches!(end, ExecutionEnd::Outcome(v) if v == values) {
                found = Some(to_dot_showing(&prepared, ex, &judged.shown));
            }
        },
    );
    let dot = found?;
    let mut text =
        String::from("      a consistent execution (rf, co, fr; the full graph with --dot):\n");
    text.push_str(&edges_as_text(&dot));
    Some((text, dot))
}

fn outcome_text(program: &Program, v: &[Value]) -> String {
    program
        .observed
        .iter()
        .zip(v)
        .map(|(o, x)| format!("{}={x}", program.observable_name(*o)))
        .collect::<Vec<_>>()
        .join(" ")
}
