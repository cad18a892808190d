//! The output of `relaxlab repair`: a report for people, or JSON.
//!
//! ```text
//! SB under tso: goal: `exists (P0:r0 = 0 /\ P1:r0 = 0)` never holds, and no execution fails
//!   as written: sometimes; 1 behaviour to remove:
//!     outcome P0:r0=0 P1:r0=0
//!   minimum: 2 fences, proven (2 learnt clauses over 2 candidate sites; 6 exhaustive runs)
//!
//!   repair 1 of 1, cost 4 (the sum of its changes'), verified under tso: never (3 outcomes, 26 states)
//!     P0 line 7: fence(sl) before `r0 = load(y, rlx)` (cost 2)
//!     P1 line 12: fence(sl) before `r0 = load(x, rlx)` (cost 2)
//!
//! --- SB.litmus
//! +++ SB.litmus (repair 1 for tso)
//! ...
//! ```
//!
//! then the repaired program of repair 1 (or where `--output` wrote it).
//!
//! The JSON schema (one object):
//!
//! ```text
//! { "file": string, "test": string, "model": string, "goal": "condition" | "sc",
//!   "status": "repaired" | "nothing to repair" | "unrepairable" | "stopped",
//!   "as_written": { "verdict": string | null,   // as `run` words it: "not observed",
//!                   "complete": bool,           // "always observed" when cut short
//!                   "remove": [string] },
//!   "minimum": number | null,       // changes of a minimum repair
//!   "lower_bound": number,          // no repair with fewer changes works
//!   "proven": bool,                 // minimality proven over every candidate site
//!   "complete": bool, "bounds": [string],
//!   "sites": { "considered": number, "found": number },
//!   "clauses": number, "runs": number,
//!   "repairs": [{ "cost": number,
//!                 "changes": [{ "thread": string, "line": number,
//!                               "where": "before" | "after" | "order",
//!                               "statement": string, "change": string }],
//!                 "verdict": string | null, "outcomes": number, "states": number,
//!                 "program": string, "diff": string }],
//!   "more_repairs": bool }
//! ```

use std::path::Path;

use relaxlab_semantics::analyses::repair::{
    Anchor, Behaviour, Change, Goal, Repair, Repairs, Site, SiteKind, Solution, Status,
};
use relaxlab_semantics::ir::{ModelKey, Program, Quantifier};
use relaxlab_semantics::outcome::OutcomeTable;
use serde::Serialize;

use super::command::Printed;
use crate::render::table::{describe_bound, describe_failure, Mode};

/// Everything a report shows.
#[derive(Debug)]
pub struct Report<'a> {
    pub file: &'a str,
    pub program: &'a Program,
    pub key: ModelKey,
    pub repair: &'a Repair,
    pub printed: &'a [Printed],
    pub output: Option<&'a Path>,
    pub max_candidates: usize,
    pub max_solutions: usize,
}

fn goal_text(program: &Program, goal: Goal) -> String {
    match (goal, &program.condition) {
        (Goal::Sc, _) => "no outcome or failure SC does not have".to_string(),
        (Goal::Condition, Some(c)) => {
            let what = match c.quantifier {
                Quantifier::Exists => "never holds",
                Quantifier::NotExists => "holds (its proposition never does)",
                Quantifier::Forall => "holds",
            };
            format!("`{}` {what}, and no execution fails", c.text)
        }
        (Goal::Condition, None) => "the condition holds".to_string(),
    }
}

/// A behaviour as one line.
pub fn describe(ran: &Program, b: &Behaviour) -> String {
    match b {
        Behaviour::Outcome(values) => {
            let cells: Vec<String> = ran
                .observed
                .iter()
                .zip(values)
                .map(|(o, v)| format!("{}={v}", ran.observable_name(*o)))
                .collect();
            format!("outcome {}", cells.join(" "))
        }
        Behaviour::Failure(kind) => describe_failure(ran, kind),
        Behaviour::Race(r) => {
            let at = |s: relaxlab_semantics::model::Site| {
                let ins = ran.instruction(s.thread, s.instr);
                format!("{} line {}", ran.thread(s.thread).name, ins.line)
            };
            format!(
                "data race on {} between {} and {}",
                ran.location(r.loc).name,
                at(r.earlier),
                at(r.later)
            )
        }
    }
}

/// Where a site is: thread, line, `before`/`after`/`order`, statement.
fn describe_change(program: &Program, site: &Site) -> (String, u32, &'static str, String) {
    let thread = program.thread(site.thread).name.clone();
    let (instr, place) = match site.kind {
        SiteKind::Fence(Anchor::Before(i)) => (i, "before"),
        SiteKind::Fence(Anchor::After(i)) => (i, "after"),
        SiteKind::Order(i) => (i, "order"),
    };
    let ins = program.instruction(site.thread, instr);
    (thread, ins.line, place, ins.text.clone())
}

/// One change of a repair, with its cost (book: repair.md, Costs), which
/// the repair's cost adds up.
fn change_line(program: &Program, site: &Site, change: Change) -> String {
    let (thread, line, place, stmt) = describe_change(program, site);
    let cost = change.cost();
    match place {
        "order" => format!(
            "{thread} line {line}: `{stmt}` becomes {} (cost {cost})",
            change.text()
        ),
        _ => format!(
            "{thread} line {line}: {} {place} `{stmt}` (cost {cost})",
            change.text()
        ),
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn unit(family: Repairs) -> (&'static str, &'static str) {
    if family == Repairs::C11 {
        ("change", "changes")
    } else {
        ("fence", "fences")
    }
}

/// How the engine of `key` produced its tables, for the wording of their
/// verdicts.
fn mode(key: ModelKey) -> Mode {
    match key {
        ModelKey::Op(_) => Mode::Reduced,
        ModelKey::Ax(_) => Mode::Axiomatic,
    }
}

/// A run's verdict as `run` words it: a run a bound cut short claims
/// neither `never` nor `always`, only what it saw (`not observed in N
/// states (PARTIAL)`).
fn verdict_text(table: &OutcomeTable, key: ModelKey) -> String {
    let partial = if table.complete() { "" } else { " (PARTIAL)" };
    match crate::render::table::verdict_text(table, mode(key)) {
        Some(v) => format!("{v}{partial}"),
        None => format!("no condition{partial}"),
    }
}

/// A run's verdict in JSON, as `run --format json` words it.
fn verdict_word(table: &OutcomeTable, key: ModelKey) -> Option<String> {
    crate::render::json::verdict_word(table, mode(key)).map(str::to_string)
}

/// The human report.
pub fn table(r: &Report<'_>) -> String {
    let rep = r.repair;
    let mut out = format!(
        "{} under {}: goal: {}\n",
        r.program.name,
        r.key,
        goal_text(r.program, rep.goal)
    );
    let remove = &rep.original.bad;
    let as_written = verdict_text(&rep.original.table, r.key);
    // A run cut short saw some behaviours only: finding nothing bad in it
    // is no finding, and what it found may not be all.
    let cut = !rep.original.table.complete();
    match (remove.is_empty(), cut) {
        (true, false) => out.push_str(&format!("  as written: {as_written}; nothing to remove\n")),
        (true, true) => out.push_str(&format!(
            "  as written: {as_written}; nothing found to remove before the run was cut short\n"
        )),
        (false, false) => out.push_str(&format!(
            "  as written: {as_written}; {} to remove:\n",
            plural(remove.len(), "behaviour", "behaviours"),
        )),
        (false, true) => out.push_str(&format!(
            "  as written: {as_written}; {} to remove, seen before the run was cut short (there may be more):\n",
            plural(remove.len(), "behaviour", "behaviours"),
        )),
    }
    for b in remove {
        out.push_str(&format!("    {}\n", describe(&rep.original.ran, b)));
    }
    let (one, many) = unit(rep.family);
    let sites_note = if rep.sites_found > rep.sites.len() {
        format!(
            "{} of {} candidate sites (--max-candidates {})",
            rep.sites.len(),
            rep.sites_found,
            r.max_candidates
        )
    } else {
        plural(rep.sites.len(), "candidate site", "candidate sites")
    };
    match &rep.status {
        Status::NothingToRepair => {
            out.push_str(&format!(
                "  nothing to repair: the goal already holds under {}\n",
                r.key
            ));
        }
        Status::Unrepairable { sc_fails } => {
            if *sc_fails {
                out.push_str(&format!(
                    "  no repair: SC itself has {}, and no fence or order can remove what SC allows\n",
                    plural(rep.sc.bad.len(), "of these behaviours", "of these behaviours")
                ));
                for b in &rep.sc.bad {
                    out.push_str(&format!("    {}\n", describe(&rep.sc.ran, b)));
                }
                if rep.goal == Goal::Condition {
                    out.push_str("  (--goal sc removes only the behaviours SC does not have)\n");
                }
            } else {
                out.push_str(&format!(
                    "  no repair among {sites_note}: even the strongest change at every site leaves\n"
                ));
                if let Some(t) = &rep.strongest {
                    for b in &t.bad {
                        out.push_str(&format!("    {}\n", describe(&t.ran, b)));
                    }
                }
            }
        }
        Status::Stopped(bounds) => {
            out.push_str("  STOPPED: runs hit bounds before the search could conclude:\n");
            for b in bounds {
                out.push_str(&format!("    {}\n", describe_bound(b)));
            }
            if !rep.undecided.is_empty() {
                out.push_str(&undecided_text(rep));
            }
        }
        Status::Repaired => {
            let k = rep.minimum.unwrap_or(0);
            let proof = format!(
                "{} over {sites_note}; {} exhaustive runs",
                plural(rep.clauses.len(), "learnt clause", "learnt clauses"),
                rep.runs
            );
            if rep.sites_found > rep.sites.len() {
                out.push_str(&format!(
                    "  minimum: {} among the sites considered, NOT proven over all sites ({proof})\n",
                    plural(k, one, many)
                ));
            } else if rep.lower_bound < k {
                out.push_str(&format!(
                    "  minimum: {} found, NOT proven: no repair with fewer than {} works ({proof})\n",
                    plural(k, one, many),
                    plural(rep.lower_bound, one, many)
                ));
            } else {
                out.push_str(&format!(
                    "  minimum: {}, proven ({proof})\n",
                    plural(k, one, many)
                ));
            }
            if !rep.undecided.is_empty() {
                out.push_str(&undecided_text(rep));
            }
            if let Some(k) = rep.unrolled {
                out.push_str(&format!(
                    "  loops unrolled {k} times (--unroll): repairs are verified for executions within that bound only\n"
                ));
            }
            if rep.more_solutions {
                out.push_str(&format!(
                    "  more minimum repairs exist than the {} listed (--max-solutions)\n",
                    r.max_solutions
                ));
            }
            if rep.strength_bounded {
                out.push_str("  some repairs have too many option combinations to minimise their strength: they show the strongest options\n");
            }
            let n = rep.solutions.len();
            for (i, s) in rep.solutions.iter().enumerate() {
                out.push_str(&solution_text(r, i, n, s));
            }
            if let Some(first) = r.printed.first() {
                out.push('\n');
                out.push_str(&first.diff);
                match r.output {
                    Some(path) => {
                        out.push_str(&format!("\nrepair 1 written to {}\n", path.display()))
                    }
                    None => {
                        out.push_str("\nrepair 1:\n");
                        out.push_str(&first.text);
                        if !first.text.ends_with('\n') {
                            out.push('\n');
                        }
                    }
                }
            }
        }
    }
    out
}

/// The undecided placements, in a line or two.
fn undecided_text(rep: &Repair) -> String {
    let n = rep.undecided.len();
    let mut bounds: Vec<String> = Vec::new();
    for (_, hits) in &rep.undecided {
        for h in hits {
            let d = describe_bound(h);
            if !bounds.contains(&d) {
                bounds.push(d);
            }
        }
    }
    format!(
        "  {} undecided (treated as failing, so a repair among them may be missed): {}\n",
        plural(n, "placement", "placements"),
        bounds.join("; ")
    )
}

fn solution_text(r: &Report<'_>, i: usize, n: usize, s: &Solution) -> String {
    let t = &s.trial.table;
    // What the stats count: states explored, or candidate executions
    // judged under an axiomatic model.
    let searched = match r.key {
        ModelKey::Ax(_) => plural(t.stats.states as usize, "candidate", "candidates"),
        ModelKey::Op(_) => plural(t.stats.states as usize, "state", "states"),
    };
    let mut out = format!(
        "\n  repair {} of {n}, cost {} (the sum of its changes'), verified under {}: {} ({}, {searched})\n",
        i + 1,
        s.cost,
        r.key,
        verdict_text(t, r.key),
        plural(t.rows.len(), "outcome", "outcomes"),
    );
    for &(site, change) in &s.placement {
        out.push_str(&format!(
            "    {}\n",
            change_line(r.program, &r.repair.sites[site], change)
        ));
    }
    out
}

#[derive(Debug, Serialize)]
pub struct Json {
    file: String,
    test: String,
    model: String,
    goal: &'static str,
    status: &'static str,
    as_written: AsWritten,
    minimum: Option<usize>,
    lower_bound: usize,
    proven: bool,
    complete: bool,
    bounds: Vec<String>,
    sites: Sites,
    clauses: usize,
    runs: u64,
    repairs: Vec<JsonRepair>,
    more_repairs: bool,
}

#[derive(Debug, Serialize)]
struct AsWritten {
    /// `not observed` or `always observed` when the run was cut short.
    verdict: Option<String>,
    /// The run was not cut short: `remove` is every bad behaviour.
    complete: bool,
    remove: Vec<String>,
}

#[derive(Debug, Serialize)]
struct Sites {
    considered: usize,
    found: usize,
}

#[derive(Debug, Serialize)]
struct JsonRepair {
    cost: u32,
    changes: Vec<JsonChange>,
    verdict: Option<String>,
    outcomes: usize,
    states: u64,
    program: String,
    diff: String,
}

#[derive(Debug, Serialize)]
struct JsonChange {
    thread: String,
    line: u32,
    #[serde(rename = "where")]
    place: &'static str,
    statement: String,
    change: String,
}

/// The JSON report.
pub fn json(r: &Report<'_>) -> Json {
    let rep = r.repair;
    let mut bounds: Vec<String> = Vec::new();
    if rep.sites_found > rep.sites.len() {
        bounds.push(format!(
            "{} of {} candidate sites considered (--max-candidates)",
            rep.sites.len(),
            rep.sites_found
        ));
    }
    if !rep.undecided.is_empty() {
        bounds.push(format!(
            "{} undecided (a run hit a bound)",
            plural(rep.undecided.len(), "placement", "placements")
        ));
    }
    if let Some(k) = rep.unrolled {
        bounds.push(format!(
            "loops unrolled {k} times (--unroll): verified within that bound only"
        ));
    }
    if rep.more_solutions {
        bounds.push(format!(
            "more minimum repairs than the {} listed (--max-solutions)",
            r.max_solutions
        ));
    }
    if rep.strength_bounded {
        bounds.push("strength not minimised for some repairs (too many combinations)".into());
    }
    if let Status::Stopped(hits) = &rep.status {
        bounds.extend(hits.iter().map(describe_bound));
    }
    let repairs = rep
        .solutions
        .iter()
        .zip(r.printed)
        .map(|(s, p)| JsonRepair {
            cost: s.cost,
            changes: s
                .placement
                .iter()
                .map(|&(site, change)| {
                    let (thread, line, place, statement) =
                        describe_change(r.program, &rep.sites[site]);
                    JsonChange {
                        thread,
                        line,
                        place,
                        statement,
                        change: change.text(),
                    }
                })
                .collect(),
            verdict: verdict_word(&s.trial.table, r.key),
            outcomes: s.trial.table.rows.len(),
            states: s.trial.table.stats.states,
            program: p.text.clone(),
            diff: p.diff.clone(),
        })
        .collect();
    Json {
        file: r.file.to_string(),
        test: r.program.name.clone(),
        model: r.key.to_string(),
        goal: match rep.goal {
            Goal::Condition => "condition",
            Goal::Sc => "sc",
        },
        status: match rep.status {
            Status::NothingToRepair => "nothing to repair",
            Status::Repaired => "repaired",
            Status::Unrepairable { .. } => "unrepairable",
            Status::Stopped(_) => "stopped",
        },
        as_written: AsWritten {
            verdict: verdict_word(&rep.original.table, r.key),
            complete: rep.original.table.complete(),
            remove: rep
                .original
                .bad
                .iter()
                .map(|b| describe(&rep.original.ran, b))
                .collect(),
        },
        minimum: rep.minimum,
        lower_bound: rep.lower_bound,
        proven: rep.status == Status::Repaired
            && rep.sites_found == rep.sites.len()
            && rep.minimum == Some(rep.lower_bound),
        complete: !rep.bounded(),
        bounds,
        sites: Sites {
            considered: rep.sites.len(),
            found: rep.sites_found,
        },
        clauses: rep.clauses.len(),
        runs: rep.runs,
        repairs,
        more_repairs: rep.more_solutions,
    }
}
