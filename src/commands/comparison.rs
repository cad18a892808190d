//! What `compare` shares between its pairs: the columns of a test, run so
//! that Ctrl-C keeps those finished; the outcome table, with what cut a
//! column short; the `undecided (PARTIAL)` label of an outcome that a
//! column cut short lacks; failures; and the loop over the tests (table or
//! JSON, `--dot`, Ctrl-C, exit codes). [`super::compare`] pairs each
//! operational model with its axiomatic twin, or with every cat model.
//!
//! A missing outcome is a disagreement only if the column that lacks it
//! ran to the end: a bound or Ctrl-C may have stopped it before it got
//! there, so such an outcome is `undecided`, and a test without a
//! disagreement is said to have none only when every column is complete.

use std::collections::{BTreeMap, BTreeSet};

use miette::IntoDiagnostic;
use relaxlab_semantics::axiomatic::{self, to_dot_showing, ExecutionEnd, Judge};
use relaxlab_semantics::ir::{Instr, InstrId, Program, Value};
use relaxlab_semantics::outcome::{satisfies, BoundHit, FailureKind, OutcomeTable, Trace};

use super::common;
use crate::cli::{CompareArgs, ReportFormat};
use crate::engine::{self, Settings};
use crate::exit::{Exit, Outcome};
use crate::files::SourceFile;
use crate::render::table::{bound_kind, describe_bound, describe_failure};
use crate::render::{dot, json};
use crate::{interrupt, Io};

/// The label of a disagreement on an outcome only racy executions reach.
pub(super) const RACY: &str = "racy (undefined behaviour)";

/// The line under a test whose columns all finished before Ctrl-C, which
/// then cut the search for evidence short.
const EVIDENCE_INTERRUPTED: &str = "  interrupted (Ctrl-C) after every column finished: the table is complete, the evidence of a disagreement may be missing";

/// Why a column after a Ctrl-C has no result.
const NOT_RUN_INTERRUPTED: &str = "interrupted (Ctrl-C) before it started";

/// The label of an outcome one column has and a column cut short by a
/// bound lacks: no disagreement can be concluded.
pub(super) const UNDECIDED: &str = "undecided (PARTIAL)";

/// One column of the table: its name and its outcomes, or why it did not
/// run.
pub(super) struct Column {
    pub name: String,
    pub result: Result<OutcomeTable, String>,
}

/// The columns of one test, run in the order given.
///
/// Invariant: once a column is interrupted (Ctrl-C), `interrupted` is set
/// and every later column is not run ([`NOT_RUN_INTERRUPTED`]).
#[derive(Default)]
pub(super) struct Columns {
    pub list: Vec<Column>,
    pub interrupted: bool,
}

impl Columns {
    /// Runs the column `name` with `run`, unless Ctrl-C came first: then
    /// it is marked as not run, and so is every later one.
    pub fn run(&mut self, name: String, run: impl FnOnce() -> Result<OutcomeTable, String>) {
        if self.interrupted || interrupt::requested() {
            self.interrupted = true;
            self.list.push(Column {
                name,
                result: Err(NOT_RUN_INTERRUPTED.to_string()),
            });
            return;
        }
        let result = run();
        if let Ok(t) = &result {
            self.interrupted |= t.bounds.contains(&BoundHit::Interrupted);
        }
        self.list.push(Column { name, result });
    }

    /// The outcomes of the column `name`, if it ran.
    pub fn table(&self, name: &str) -> Option<&OutcomeTable> {
        self.list
            .iter()
            .find(|c| c.name == name)
            .and_then(|c| c.result.as_ref().ok())
    }

    /// Was a column cut short, or not run after Ctrl-C? Then a
    /// disagreement may be hidden.
    fn cut(&self) -> bool {
        self.list.iter().any(|c| match &c.result {
            Ok(t) => !t.complete(),
            Err(why) => why == NOT_RUN_INTERRUPTED,
        })
    }

    /// Partial when a bound cut a column short.
    pub fn exit(&self) -> Exit {
        if self
            .list
            .iter()
            .any(|c| matches!(&c.result, Ok(t) if !t.complete()))
        {
            Exit::Partial
        } else {
            Exit::Ok
        }
    }
}

/// The outcomes of a table.
pub(super) fn outcomes(t: &OutcomeTable) -> BTreeSet<Vec<Value>> {
    t.rows.iter().map(|r| r.values.clone()).collect()
}

/// `P0:r0=1 x=2`: an outcome with the names of what it observes.
pub(super) fn outcome_text(program: &Program, v: &[Value]) -> String {
    program
        .observed
        .iter()
        .zip(v)
        .map(|(o, x)| format!("{}={x}", program.observable_name(*o)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The JSON of a test before its table is drawn: no rows, no
/// disagreements yet.
pub(super) fn report(file: &SourceFile, program: &Program, columns: &Columns) -> json::Comparison {
    json::Comparison {
        file: file.path.clone(),
        test: program.name.clone(),
        condition: program.condition.as_ref().map(|c| c.text.clone()),
        observed: program
            .observed
            .iter()
            .map(|o| program.observable_name(*o))
            .collect(),
        columns: columns.list.iter().map(|c| c.name.clone()).collect(),
        rows: Vec::new(),
        not_run: Vec::new(),
        disagreements: Vec::new(),
        bounds: Vec::new(),
        interrupted: columns.interrupted,
    }
}

/// The table of a test: `TEST: {title}`, its condition, a row per outcome
/// some column has (`*` where the condition holds) with a cell per column
/// (`yes`, `-`, or `n/a` for a column not run); then each column not run
/// and why, and each bound that cut one short. Fills `report`'s rows,
/// `not_run` and bounds.
pub(super) fn table(
    program: &Program,
    title: &str,
    columns: &Columns,
    report: &mut json::Comparison,
) -> String {
    let mut out = format!("{}: {title}\n", program.name);
    if let Some(c) = &program.condition {
        out.push_str(&format!("  {}\n", c.text));
    }
    let mut rows: BTreeSet<Vec<Value>> = BTreeSet::new();
    for c in &columns.list {
        if let Ok(t) = &c.result {
            rows.extend(outcomes(t));
        }
    }
    let width = rows
        .iter()
        .map(|r| outcome_text(program, r).len())
        .max()
        .unwrap_or(0)
        .max(7);
    out.push_str(&format!("\n    {:<width$}", "outcome"));
    for c in &columns.list {
        out.push_str(&format!("  {:>7}", c.name));
    }
    out.push('\n');
    for r in &rows {
        let holds = program
            .condition
            .as_ref()
            .map(|c| satisfies(program, &c.prop, r));
        out.push_str(&format!(
            "  {} {:<width$}",
            if holds == Some(true) { '*' } else { ' ' },
            outcome_text(program, r)
        ));
        let mut cells = Vec::new();
        for c in &columns.list {
            let cell = match &c.result {
                Ok(t) if t.rows.iter().any(|x| &x.values == r) => "yes",
                Ok(_) => "-",
                Err(_) => "n/a",
            };
            out.push_str(&format!("  {cell:>w$}", w = c.name.len().max(7)));
            cells.push(cell);
        }
        out.push('\n');
        report.rows.push(json::ComparedRow {
            values: r.clone(),
            satisfies: holds,
            cells,
        });
    }
    for c in &columns.list {
        match &c.result {
            Err(why) => {
                out.push_str(&format!("  {}: not run ({why})\n", c.name));
                report.not_run.push(json::NotRun {
                    model: c.name.clone(),
                    why: why.clone(),
                });
            }
            Ok(t) => {
                for bound in &t.bounds {
                    out.push_str(&format!(
                        "  PARTIAL: {}: {}\n",
                        c.name,
                        describe_bound(bound)
                    ));
                    report.bounds.push(json::ColumnBound {
                        model: c.name.clone(),
                        kind: bound_kind(bound),
                        message: describe_bound(bound),
                    });
                }
            }
        }
    }
    out
}

/// Which side of a pair has an outcome the other lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Only {
    /// The operational model reaches it.
    Operational,
    /// The axiomatic (or cat) model allows it.
    Axiomatic,
}

impl Only {
    /// As JSON names it.
    fn name(self) -> &'static str {
        match self {
            Only::Operational => "operational",
            Only::Axiomatic => "axiomatic",
        }
    }
}

/// A disagreement for JSON, with the evidence the text prints (`text`: its
/// label line, then the evidence).
pub(super) fn disagreement(
    label: &'static str,
    model: &str,
    twin: &str,
    only: Only,
    values: &[Value],
    text: &str,
) -> json::Disagreement {
    json::Disagreement {
        label,
        model: model.to_string(),
        twin: twin.to_string(),
        only: only.name(),
        values: values.to_vec(),
        failure: None,
        evidence: text.lines().skip(2).map(|l| l.trim().to_string()).collect(),
    }
}

/// The failures of a column that both engines can report, by their
/// description in the program the column ran (`ran`: instruction numbers
/// differ between compiled programs, lines and text do not): failed
/// `assert`s, divisions by zero and bad `join` handles, with the witness
/// where there is one. A deadlock and a local spin are the operational
/// engine's own notions (the axiomatic engine builds whole executions, in
/// which neither can occur), so they are not compared.
pub(super) fn comparable_failures<'t>(
    t: &'t OutcomeTable,
    ran: &Program,
) -> BTreeMap<String, Option<&'t Trace>> {
    t.failures
        .iter()
        .filter(|f| {
            !matches!(
                f.kind,
                FailureKind::Deadlock | FailureKind::Divergence { .. }
            )
        })
        .map(|f| (describe_failure(ran, &f.kind), f.witness.as_ref()))
        .collect()
}

/// How a failure only one side reports is labelled, and the line that
/// explains it (empty for none).
pub(super) type FailureVerdict = (&'static str, String);

/// One column of a pair, for [`failure_disagreements`]: its name, its
/// result and the program it ran.
pub(super) type Side<'a> = (&'a str, &'a OutcomeTable, &'a Program);

/// Every failure one column of the pair `(op, other)` reports and the
/// other does not, appended to `out` and `report`; the operational
/// column's witness is printed as a trace of `key`. `judge` labels each
/// difference (its side, its description). A failure that a column cut
/// short lacks is undecided. Returns whether there was any.
pub(super) fn failure_disagreements(
    out: &mut String,
    report: &mut json::Comparison,
    op: Side<'_>,
    other: Side<'_>,
    key: relaxlab_semantics::ir::ModelKey,
    mut judge: impl FnMut(Only, &str) -> FailureVerdict,
) -> bool {
    let ((model, op_table, op_ran), (twin, ax_table, ax_ran)) = (op, other);
    let fo = comparable_failures(op_table, op_ran);
    let fa = comparable_failures(ax_table, ax_ran);
    let mut any = false;
    let sides = [
        (Only::Operational, &fo, &fa, ax_table.complete()),
        (Only::Axiomatic, &fa, &fo, op_table.complete()),
    ];
    for (only, has, lacks, lacker_complete) in sides {
        for (what, witness) in has.iter().filter(|(k, _)| !lacks.contains_key(*k)) {
            any = true;
            let start = out.len();
            let (label, why) = if lacker_complete {
                judge(only, what)
            } else {
                (UNDECIDED, String::new())
            };
            let (has_it, lacks_it) = match only {
                Only::Operational => (model, twin),
                Only::Axiomatic => (twin, model),
            };
            out.push_str(&if lacker_complete {
                format!("\n  {label}: {has_it} has an execution that fails ({what}), {lacks_it} has none\n")
            } else {
                format!(
                    "\n  {label}: {has_it} has an execution that fails ({what}); {lacks_it} did not find one before it was cut short\n"
                )
            });
            if !why.is_empty() {
                out.push_str(&format!("      {why}\n"));
            }
            if let (Only::Operational, Some(w)) = (only, witness) {
                out.push_str("      witness:\n");
                for line in crate::render::trace::lines(op_ran, key, w) {
                    out.push_str(&format!("      {line}\n"));
                }
            }
            report.disagreements.push(json::Disagreement {
                label,
                model: model.to_string(),
                twin: twin.to_string(),
                only: only.name(),
                values: Vec::new(),
                failure: Some(what.clone()),
                evidence: out[start..]
                    .lines()
                    .skip(2)
                    .map(|l| l.trim().to_string())
                    .collect(),
            });
        }
    }
    any
}

/// `program` without its discards: every `assume` made a step that does
/// nothing, and no `filter`. A failure the axiomatic engine finds only
/// here is one whose every whole execution an `assume` or the `filter`
/// discards.
pub(super) fn without_discards(program: &Program) -> Program {
    let mut p = program.clone();
    p.filter = None;
    for t in &mut p.threads {
        for (i, ins) in t.code.iter_mut().enumerate() {
            if matches!(ins.instr, Instr::Assume { .. }) {
                ins.instr = Instr::Jump {
                    target: InstrId::new(i + 1),
                };
            }
        }
    }
    p
}

/// Does `program` have an `assume` or a `filter`?
pub(super) fn has_discards(program: &Program) -> bool {
    program.filter.is_some()
        || program.threads.iter().any(|t| {
            t.code
                .iter()
                .any(|i| matches!(i.instr, Instr::Assume { .. }))
        })
}

/// Why a failure only the operational engine finds may be missing from
/// the axiomatic side: the two read a failure differently.
pub(super) const FAILURE_DISCARDED_WHY: &str = "the operational engine ends an execution where it fails (book: models.md, The shared frame); the axiomatic engine builds whole executions, in which the other threads run to their ends, and here an `assume` or the `filter` discards every one that fails this way (the twin finds the failure when they are dropped)";

/// An outcome `only` has and the other model of the pair, cut short,
/// lacks: no disagreement can be concluded. Appends the text to `out` and
/// the entry to `report`.
pub(super) fn undecided(
    out: &mut String,
    report: &mut json::Comparison,
    (model, twin): (&str, &str),
    only: Only,
    values: &[Value],
    outcome: &str,
) {
    let start = out.len();
    out.push_str(&match only {
        Only::Operational => format!(
            "\n  {UNDECIDED}: {model} reaches [{outcome}]; {twin} did not allow it before it was cut short\n"
        ),
        Only::Axiomatic => format!(
            "\n  {UNDECIDED}: {twin} allows [{outcome}]; {model} did not reach it before it was cut short\n"
        ),
    });
    report.disagreements.push(disagreement(
        UNDECIDED,
        model,
        twin,
        only,
        values,
        &out[start..],
    ));
}

/// The line that ends a test without a disagreement: `none` when every
/// column ran to the end; else that the columns cut short may hide one.
pub(super) fn no_disagreement(columns: &Columns, none: &str) -> String {
    if columns.cut() {
        "\n  no disagreement found (PARTIAL): columns cut short or not run may hide one\n".into()
    } else {
        format!("\n  {none}\n")
    }
}

/// One test compared: its text (table and disagreements), its JSON, and
/// its exit code.
pub(super) struct Compared {
    pub text: String,
    pub report: json::Comparison,
    pub exit: Exit,
}

/// Compares every test of `args.files` with `compare_one` (which also
/// collects DOT graphs), printing each as a table or all as one JSON
/// array, and the graphs where `--dot` says. After Ctrl-C the interrupted
/// test is printed (its finished columns, the interrupted one, the rest
/// not run) and no further test starts: exit code 130.
pub(super) fn compare_each(
    args: &CompareArgs,
    io: &mut Io<'_>,
    mut compare_one: impl FnMut(&SourceFile, &Program, &mut Vec<String>) -> Compared,
) -> Outcome {
    let mut sink = args.dot.as_deref().map(dot::Sink::open).transpose()?;
    let json_format = args.format == ReportFormat::Json;
    let mut exit = Exit::Ok;
    let mut dots = Vec::new();
    let mut reports = Vec::new();
    for (file, program) in common::programs(&args.files, io, &mut exit)? {
        if interrupt::requested() {
            break;
        }
        let mut compared = compare_one(&file, &program, &mut dots);
        // Ctrl-C after every column finished, while the evidence was being
        // gathered: the table is whole, the evidence may not be.
        if interrupt::requested() && !compared.report.interrupted {
            compared.report.interrupted = true;
            compared.text.push_str(EVIDENCE_INTERRUPTED);
            compared.text.push('\n');
        }
        exit = exit.max(compared.exit);
        let interrupted = compared.report.interrupted;
        if json_format {
            reports.push(compared.report);
        } else {
            write!(io.out, "{}", compared.text).into_diagnostic()?;
            io.out.flush().into_diagnostic()?;
        }
        if interrupted {
            break;
        }
    }
    if interrupt::requested() {
        exit = Exit::Interrupted;
        let _ = writeln!(
            io.err,
            "relaxlab: interrupted (Ctrl-C); the comparison stops at the interrupted test"
        );
    }
    if json_format {
        serde_json::to_writer_pretty(&mut *io.out, &reports).into_diagnostic()?;
        writeln!(io.out).into_diagnostic()?;
    }
    let dots = if dots.is_empty() {
        vec!["// no disagreement: no execution to draw\ndigraph relaxlab {}\n".to_string()]
    } else {
        dots
    };
    match &mut sink {
        Some(dot::Sink::Stdout) if !json_format => {
            writeln!(io.out, "{}", dots.join("\n")).into_diagnostic()?;
        }
        // JSON keeps standard output one document: the graphs are in
        // each disagreement's evidence only as text.
        Some(dot::Sink::Stdout) => {}
        Some(sink) => sink.write_file(&dots, &mut *io.err)?,
        None => {}
    }
    Ok(exit)
}

/// The first consistent execution under `judge` (in the engine's order)
/// of each outcome in `wanted`, as DOT graphs with what a cat model
/// shows: one enumeration for all of them, not one per outcome (a test
/// whose axiomatic side allows 200 outcomes the operational model cannot
/// reach took 200 enumerations). Ctrl-C stops the enumeration; the
/// outcomes not reached by then have no graph.
pub(super) fn consistent_executions(
    program: &Program,
    judge: Judge,
    wanted: &BTreeSet<&Vec<Value>>,
    settings: &Settings,
) -> BTreeMap<Vec<Value>, String> {
    let opts = engine::ax_options(settings);
    let prepared =
        axiomatic::prepare_judge(program, &judge, &opts).unwrap_or_else(|_| program.clone());
    let mut found = BTreeMap::new();
    let _ctrl_c = interrupt::interruptible();
    let _ = axiomatic::visit_judged(program, &[judge], &opts, true, &mut |_, ex, end, judged| {
        if let ExecutionEnd::Outcome(v) = end {
            if wanted.contains(v) && !found.contains_key(v) {
                found.insert(v.clone(), to_dot_showing(&prepared, ex, &judged.shown));
            }
        }
    });
    found
}

/// The listing of a consistent execution of an outcome (its communication
/// edges) from its graph, or why there is none.
pub(super) fn consistent_execution_text(dot: Option<&String>) -> String {
    match dot {
        Some(dot) => {
            let mut text = String::from(
                "      a consistent execution (rf, co, fr; the full graph with --dot):\n",
            );
            text.push_str(&super::compare::edges_as_text(dot));
            text
        }
        None if interrupt::requested() => {
            "      no consistent execution shown: interrupted (Ctrl-C) before one was found\n"
                .to_string()
        }
        None => String::new(),
    }
}
