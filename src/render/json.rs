//! `--format json`: one object per (file, model) run, in an array.
//!
//! The schema (documented in the book's CLI chapter):
//!
//! ```text
//! { "file": string, "test": string, "model": string,          // "tso", "ax.rc11"
//!   "mode": "exhaustive" | "sampled" | "axiomatic",
//!   "reduction": "por" | "none" | null,                        // exhaustive only
//!   "seed": number | null, "runs": number | null,               // sampled runs only
//!   "columns": [string],                                        // "P0:r0", "x"
//!   "condition": string | null,                                 // as written
//!   "verdict": "never" | "sometimes" | "always" | null,
//!   "complete": bool, "bounds": [string],                       // why partial
//!   "rows": [{ "values": [number], "satisfies": bool | null, "count": number,
//!              "racy": bool, "non_sc": bool, "witness": [string] | null }],
//!   "failures": [{ "what": string, "count": number, "witness": [string] | null }],
//!   "races": [{ "location": string, "earlier": string, "later": string }],
//!   "stats": { "states": number, "transitions": number } }
//! ```

use relaxlab_semantics::ir::{ModelKey, Program};
use relaxlab_semantics::model::Site;
use relaxlab_semantics::outcome::OutcomeTable;
use serde::Serialize;

use super::table::{describe_bound, describe_failure, Mode};
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
    bounds: Vec<String>,
    rows: Vec<Row>,
    failures: Vec<FailureJson>,
    races: Vec<RaceJson>,
    stats: relaxlab_semantics::outcome::Stats,
}

#[derive(Debug, Serialize)]
struct Row {
    values: Vec<i64>,
    satisfies: Option<bool>,
    count: u64,
    racy: bool,
    non_sc: bool,
    witness: Option<Vec<String>>,
}

#[derive(Debug, Serialize)]
struct FailureJson {
    what: String,
    count: u64,
    witness: Option<Vec<String>>,
}

#[derive(Debug, Serialize)]
struct RaceJson {
    location: String,
    earlier: String,
    later: String,
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
        Mode::Sampled { runs, seed } => ("sampled", Some(seed), Some(runs)),
        Mode::Axiomatic => ("axiomatic", None, None),
    };
    Run {
        file: file.to_string(),
        test: program.name.clone(),
        model: table.model.clone(),
        mode: mode_name,
        reduction: match mode {
            Mode::Exhaustive => Some("none"),
            Mode::Reduced => Some("por"),
            Mode::Sampled { .. } | Mode::Axiomatic => None,
        },
        seed,
        runs,
        columns: program
            .observed
            .iter()
            .map(|o| program.observable_name(*o))
            .collect(),
        condition: program.condition.as_ref().map(|c| c.text.clone()),
        verdict: table.verdict().map(|v| v.as_str()),
        complete: table.complete(),
        bounds: table.bounds.iter().map(describe_bound).collect(),
        rows: table
            .rows
            .iter()
            .map(|r| Row {
                values: r.values.clone(),
                satisfies: r.satisfies,
                count: r.count,
                racy: r.racy,
                non_sc: r.non_sc,
                witness: lines(&r.witness),
            })
            .collect(),
        failures: table
            .failures
            .iter()
            .map(|f| FailureJson {
                what: describe_failure(program, &f.kind),
                count: f.count,
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
        stats: table.stats,
    }
}
