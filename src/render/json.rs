//! `--format json`: one JSON document on standard output, whatever the
//! other flags (`--dot -` puts the graphs inside it).
//!
//! `run` prints an array with one object per (file, model) run (schema in
//! the book, which this module's types follow: book: cli.md, JSON: run):
//!
//! ```text
//! { "file": string, "test": string, "model": string,          // "tso", "ax.rc11"
//!   "mode": "exhaustive" | "sampled" | "axiomatic" | "stateless",
//!   "reduction": "por" | "none" | null,                        // exhaustive only
//!   "seed": number | null, "runs": number | null,               // sampled only: the runs made
//!   "columns": [string],                                        // "P0:r0", "x"
//!   "condition": string | null,                                 // as written
//!   "verdict": "never" | "sometimes" | "always"                 // exhaustive, axiomatic
//!            | "not observed" | "always observed" | null,       // sampled
//!   "complete": bool,
//!   "bounds": [{ "kind": string, "message": string }],          // why partial
//!   "non_sc_known": bool,                                       // rows' non_sc is decided
//!   "rows": [{ "values": [number | string],                    // a string: a location's address (herd C)
//!              "satisfies": bool | null, "count": number,
//!              "racy": bool, "non_sc": bool, "run": number | null,
//!              "witness": [string] | null }],
//!   "failures": [{ "what": string, "count": number, "run": number | null,
//!                  "witness": [string] | null }],
//!   "races": [{ "location": string, "earlier": string, "later": string }],
//!   "flags": [string],                                          // cat `flag`s that fired; absent when none
//!   "stats": { "states": number, "transitions": number },     // mcr: executions, moves
//!   "mcr": { "executions": number, "complete": number, "failed": number,
//!            "discarded": number, "filtered": number, "deadlocked": number,
//!            "first_failure": number | null, "seeds": number, "unsat": number,
//!            "seed_states": number, "blocked": number, "restarts": number,
//!            "empty": number, "moves": number, "distinct": null },  // --search mcr only
//!   "graphs": [{ "name": string, "dot": string }] | null }      // with --dot -
//! ```
//!
//! `check`, `compare` and `races` print the documents of [`CheckReport`],
//! [`Comparison`] and [`RaceReport`].

use relaxlab_semantics::ir::{ModelKey, Program, Verdict};
use relaxlab_semantics::model::Site;
use relaxlab_semantics::operational::FirstRuns;
use relaxlab_semantics::outcome::{BoundHit, OutcomeTable};
use serde::Serialize;

use super::table::{
    bound_kind, describe_bound, describe_bound_of, describe_failure, BoundOrigin, Mode,
};
use super::trace;

#[derive(Debug, Serialize)]
pub struct Run {
    file: String,
    test: String,
    model: String,
    mode: &'static str,
    reduction: Option<&'static str>,
    seed: Option<u64>,
    runs: Option<u64>,
    columns: Vec<String>,
    condition: Option<String>,
    verdict: Option<&'static str>,
    complete: bool,
    bounds: Vec<Bound>,
    non_sc_known: bool,
    rows: Vec<Row>,
    failures: Vec<FailureJson>,
    races: Vec<RaceJson>,
    /// A cat model's `flag` checks that held on some execution (absent
    /// when none did, as for every other engine).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    flags: Vec<String>,
    stats: relaxlab_semantics::outcome::Stats,
    /// The stateless explorer's counters (`--search mcr`; absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    mcr: Option<relaxlab_semantics::operational::mcr::McrStats>,
    graphs: Option<Vec<Graph>>,
    /// The playground's reading of the condition (absent from `run
    /// --format json`, whose `verdict` and `satisfies` say the same).
    #[serde(skip_serializing_if = "Option::is_none")]
    reading: Option<Reading>,
}

/// How the playground words a table's condition, as the text table does
/// (`render::table`): its quantifier, whether it holds, and which rows
/// decide it.
#[derive(Debug, Serialize)]
pub struct Reading {
    /// `exists`, `~exists` or `forall`.
    quantifier: &'static str,
    /// `holds (Ok)`, `fails (No)` or `undecided: ...`.
    result: String,
    /// Per row: does it decide the condition (its `*`)?
    decides: Vec<bool>,
}

impl Run {
    /// Adds the condition's [`Reading`] of `table` for the playground.
    pub fn read_condition(&mut self, program: &Program, table: &OutcomeTable, mode: Mode) {
        use relaxlab_semantics::ir::Quantifier;
        let Some(c) = &program.condition else {
            return;
        };
        self.reading = Some(Reading {
            quantifier: match c.quantifier {
                Quantifier::Exists => "exists",
                Quantifier::NotExists => "~exists",
                Quantifier::Forall => "forall",
            },
            result: super::table::condition_result(c.quantifier, table, mode),
            decides: table
                .rows
                .iter()
                .map(|r| super::table::decides(Some(c.quantifier), r.satisfies))
                .collect(),
        });
    }

    /// Names the bounds of `table` (this run's) by `origin` rather than by
    /// the flags that set them: the playground's limits.
    pub fn name_bounds(&mut self, table: &OutcomeTable, origin: BoundOrigin<'_>) {
        self.bounds = table
            .bounds
            .iter()
            .map(|b| Bound::of(b, "outcomes", origin))
            .collect();
    }
}

/// One line of `run --format jsonl`: a run and the index of its file
/// among all the files the arguments expand to (in every part of a
/// `--partition`).
#[derive(Debug, Serialize)]
pub struct Line {
    pub file_index: usize,
    #[serde(flatten)]
    pub run: Run,
}

/// The first line of a `--format jsonl` output: which command, which part
/// of how many, and how many files all the parts hold.
#[derive(Debug, Serialize, serde::Deserialize, PartialEq, Eq, Clone)]
pub struct PartHeader {
    pub relaxlab: String,
    pub partition: [usize; 2],
    pub files: usize,
}

impl PartHeader {
    pub fn new(command: &str, part: crate::values::Partition, files: usize) -> PartHeader {
        PartHeader {
            relaxlab: command.to_string(),
            partition: [part.part, part.parts],
            files,
        }
    }
}

/// A bound that cut a result short.
#[derive(Debug, Serialize)]
pub struct Bound {
    /// `max-states`, `max-candidates`, `max-steps`, `unroll`,
    /// `interrupted`, `timeout`, `max-memory`.
    kind: &'static str,
    message: String,
}

impl Bound {
    pub fn new(bound: &BoundHit) -> Bound {
        Bound {
            kind: bound_kind(bound),
            message: describe_bound(bound),
        }
    }

    /// A bound of a result made of `missing` (`races`), named by `origin`
    /// ([`describe_bound_of`]).
    pub fn of(bound: &BoundHit, missing: &str, origin: BoundOrigin<'_>) -> Bound {
        Bound {
            kind: bound_kind(bound),
            message: describe_bound_of(bound, missing, origin),
        }
    }
}

/// A DOT graph and its name.
#[derive(Debug, Serialize)]
pub struct Graph {
    pub name: String,
    pub dot: String,
}

/// A value of an outcome: an integer, or, in a herd C test where
/// locations are values, a location's address by its name.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Cell {
    Int(i64),
    Name(String),
}

fn cells(program: &Program, values: &[i64]) -> Vec<Cell> {
    values
        .iter()
        .map(|&v| match program.c {
            Some(_) if relaxlab_semantics::csem::is_address(v) => Cell::Name(program.value_text(v)),
            _ => Cell::Int(v),
        })
        .collect()
}

#[derive(Debug, Serialize)]
struct Row {
    values: Vec<Cell>,
    satisfies: Option<bool>,
    count: u64,
    racy: bool,
    non_sc: bool,
    run: Option<u64>,
    witness: Option<Vec<String>>,
}

#[derive(Debug, Serialize)]
struct FailureJson {
    what: String,
    count: u64,
    run: Option<u64>,
    witness: Option<Vec<String>>,
}

#[derive(Debug, Serialize)]
struct RaceJson {
    location: String,
    earlier: String,
    later: String,
}

/// The verdict's word: sampling, and a search a bound cut short, say
/// `not observed` and `always observed` for what a complete search calls
/// `never` and `always`.
pub fn verdict_word(table: &OutcomeTable, mode: Mode) -> Option<&'static str> {
    let v = table.verdict()?;
    let seen_only = mode.seen_only(table).is_some();
    Some(match v {
        Verdict::Never if seen_only => "not observed",
        Verdict::Always if seen_only => "always observed",
        v => v.as_str(),
    })
}

/// What a run object says beside its table.
#[derive(Debug, Default)]
pub struct RunExtras<'a> {
    pub first_runs: Option<&'a FirstRuns>,
    /// The `non-SC` notes were decided (the SC exploration completed).
    pub non_sc_known: bool,
    /// With `--dot -`: the run's graphs.
    pub graphs: Option<Vec<Graph>>,
    /// The stateless explorer's counters.
    pub mcr: Option<&'a relaxlab_semantics::operational::mcr::McrStats>,
}

/// The JSON object of one run of `program` (the program the model ran,
/// after the mapping).
pub fn run(
    file: &str,
    program: &Program,
    key: ModelKey,
    table: &OutcomeTable,
    mode: Mode,
    witness: bool,
) -> Run {
    run_with(
        file,
        program,
        key,
        table,
        mode,
        witness,
        RunExtras::default(),
    )
}

/// [`run`] with [`RunExtras`].
pub fn run_with(
    file: &str,
    program: &Program,
    key: ModelKey,
    table: &OutcomeTable,
    mode: Mode,
    witness: bool,
    extras: RunExtras<'_>,
) -> Run {
    let lines = |t: &Option<relaxlab_semantics::outcome::Trace>| {
        if witness {
            t.as_ref().map(|t| trace::lines(program, key, t))
        } else {
            None
        }
    };
    let site = |s: Site| {
        let ins = program.instruction(s.thread, s.instr);
        format!(
            "{} line {}: {}",
            program.thread(s.thread).name,
            ins.line,
            ins.text
        )
    };
    let (mode_name, seed, runs) = match mode {
        Mode::Exhaustive | Mode::Reduced => ("exhaustive", None, None),
        Mode::Sampled { seed, .. } => ("sampled", Some(seed), mode.runs(table)),
        Mode::Axiomatic => ("axiomatic", None, None),
        Mode::Stateless => ("stateless", None, None),
    };
    Run {
        file: file.to_string(),
        test: program.name.clone(),
        model: table.model.clone(),
        mode: mode_name,
        reduction: match mode {
            Mode::Exhaustive => Some("none"),
            Mode::Reduced => Some("por"),
            Mode::Sampled { .. } | Mode::Axiomatic | Mode::Stateless => None,
        },
        seed,
        runs,
        columns: program
            .observed
            .iter()
            .map(|o| program.observable_name(*o))
            .collect(),
        condition: program.condition.as_ref().map(|c| c.text.clone()),
        verdict: verdict_word(table, mode),
        complete: table.complete(),
        bounds: table.bounds.iter().map(Bound::new).collect(),
        non_sc_known: extras.non_sc_known,
        rows: table
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| Row {
                values: cells(program, &r.values),
                satisfies: r.satisfies,
                count: r.count,
                racy: r.racy,
                non_sc: r.non_sc,
                run: extras.first_runs.and_then(|f| f.rows.get(i).copied()),
                witness: lines(&r.witness),
            })
            .collect(),
        failures: table
            .failures
            .iter()
            .enumerate()
            .map(|(i, f)| FailureJson {
                what: describe_failure(program, &f.kind),
                count: f.count,
                run: extras.first_runs.and_then(|r| r.failures.get(i).copied()),
                witness: lines(&f.witness),
            })
            .collect(),
        races: table
            .races
            .iter()
            .map(|r| RaceJson {
                location: program.location(r.loc).name.clone(),
                earlier: site(r.earlier),
                later: site(r.later),
            })
            .collect(),
        flags: table.flags.clone(),
        stats: table.stats,
        mcr: extras.mcr.copied(),
        graphs: extras.graphs,
        reading: None,
    }
}

/// `check --format json`.
#[derive(Debug, Serialize)]
pub struct CheckReport {
    pub files: Vec<CheckedFile>,
    #[serde(flatten)]
    pub totals: CheckTotals,
}

/// The counts that end `check --format json`, after its files.
#[derive(Debug, Serialize, Default)]
pub struct CheckTotals {
    /// Files whose expectations all held, and the others.
    pub passed: u64,
    pub failed: u64,
    /// Files without an `expect` entry (status `unchecked`): nothing in
    /// them was checked, and they count as neither passed nor failed.
    pub unchecked: u64,
    /// Kernel tests left for `--conf`: read without herd's configuration,
    /// their `Result:` comments cannot be checked.
    pub skipped: u64,
    /// Files a Ctrl-C cut short (status `interrupted`): not all their
    /// expectations were checked, and they count as neither passed nor
    /// failed.
    pub cut: u64,
    /// Expectations that held, in the files that passed.
    pub expectations: u64,
    /// Ctrl-C stopped the check: files not reached are missing.
    pub interrupted: bool,
}

/// One line of `check --format jsonl`: a file's entry of `check --format
/// json` and its index among all the files the arguments expand to.
#[derive(Debug, Serialize)]
pub struct CheckLine<'a> {
    pub file_index: usize,
    #[serde(flatten)]
    pub file: &'a CheckedFile,
}

/// One file of `check --format json`.
#[derive(Debug, Serialize)]
pub struct CheckedFile {
    pub file: String,
    /// `passed`, `failed` (an expectation did not hold), `error` (the
    /// file cannot be checked: it does not parse, a model refuses it...),
    /// `unchecked` (it has no `expect` entry), `skipped` (a kernel test
    /// without `--conf`) or `interrupted` (Ctrl-C cut a run of it short;
    /// `problems` lists what the runs that ended found).
    pub status: &'static str,
    /// Expectations checked.
    pub expectations: u64,
    /// One line per expectation that did not hold or could not be checked.
    pub problems: Vec<String>,
}

/// `compare --format json`: an array of these, one per test.
#[derive(Debug, Serialize)]
pub struct Comparison {
    pub file: String,
    pub test: String,
    pub condition: Option<String>,
    /// `P0:r0`, `x`, ...
    pub observed: Vec<String>,
    /// One per model run: `tso`, `ax.tso`, ...
    pub columns: Vec<String>,
    pub rows: Vec<ComparedRow>,
    /// Columns that could not run, and why.
    pub not_run: Vec<NotRun>,
    pub disagreements: Vec<Disagreement>,
    /// The bounds that cut a column short.
    pub bounds: Vec<ColumnBound>,
    /// Ctrl-C stopped this test: its columns are those finished, the one
    /// interrupted (in `bounds`) and the others `not_run`.
    pub interrupted: bool,
}

/// An outcome of some column of a comparison.
#[derive(Debug, Serialize)]
pub struct ComparedRow {
    pub values: Vec<i64>,
    pub satisfies: Option<bool>,
    /// Aligned with `columns`: `yes` (allowed), `-` (not allowed), `n/a`
    /// (the column did not run).
    pub cells: Vec<&'static str>,
}

#[derive(Debug, Serialize)]
pub struct NotRun {
    pub model: String,
    pub why: String,
}

#[derive(Debug, Serialize)]
pub struct ColumnBound {
    pub model: String,
    pub kind: &'static str,
    pub message: String,
}

/// An outcome one model of a twin pair allows and the other does not.
#[derive(Debug, Serialize)]
pub struct Disagreement {
    /// `UNEXPECTED`, `known difference` or `racy (undefined behaviour)`.
    pub label: &'static str,
    /// The operational model; its twin is `ax.` + its name.
    pub model: String,
    pub twin: String,
    /// `operational` (only the operational model reaches it) or
    /// `axiomatic` (only the axiomatic one allows it).
    pub only: &'static str,
    /// The outcome the two sides disagree on; empty for a failure.
    pub values: Vec<i64>,
    /// The failure one side reports and the other does not (`assertion
    /// failed at P0 line 3: ...`); `null` for an outcome.
    pub failure: Option<String>,
    /// The evidence, as the text output prints it.
    pub evidence: Vec<String>,
}

/// `races --format json`: an array of these, one per test.
#[derive(Debug, Serialize)]
pub struct RaceReport {
    pub file: String,
    pub test: String,
    pub model: String,
    pub races: Vec<RaceFound>,
    pub complete: bool,
    pub bounds: Vec<Bound>,
}

/// One data race: two accesses, `THREAD line N: TEXT`.
#[derive(Debug, Serialize)]
pub struct RaceFound {
    pub location: String,
    pub first: String,
    pub second: String,
    pub witness: Option<Vec<String>>,
}
