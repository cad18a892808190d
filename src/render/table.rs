//! The human-readable outcome table of `relaxlab run`.
//!
//! ```text
//! SB under tso (exhaustive): sometimes
//!   exists (P0:r0 = 0 /\ P1:r0 = 0)
//!
//!     P0:r0  P1:r0
//!   *     0      0
//!         0      1
//!
//!   4 outcomes, 1 satisfying the condition; 34 states, 52 transitions
//! ```
//!
//! A `*` in the first column marks the rows that decide the condition:
//! where its proposition holds under `exists` (the outcomes that satisfy
//! it) and `~exists` (those that contradict it), where it fails under
//! `forall` (those that contradict it). The footer counts them in the
//! same words. Under `~exists` and `forall` the verdict (`never`,
//! `sometimes`, `always`) is that of the proposition, so the condition
//! line says whether the condition holds, as herd7's `Ok`/`No`:
//!
//! ```text
//!   ~exists (P0:r0 = 0 /\ P1:r0 = 0): fails (No)
//! ```
//!
//! Under `exists` the verdict says it already (`never` is `No`). The
//! `notes` column says `racy` when every execution
//! reaching the row has a data race and `non-SC` when every one violates SC.
//!
//! Sampling sees some executions only: its verdict is `sometimes`, `not
//! observed in N runs` or `always observed in N runs`, never `never` or
//! `always`, and each witness names its run for `--replay`.

use std::fmt::Write;

use relaxlab_semantics::ir::{Program, Quantifier, Verdict};
use relaxlab_semantics::operational::mcr::McrStats;
use relaxlab_semantics::operational::{FirstRuns, Strategy};
use relaxlab_semantics::outcome::{BoundHit, FailureKind, OutcomeTable, Trace};

use super::plural;

/// How a table was produced, for its heading and its count column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every interleaving (`--reduction none`): witnesses are shortest.
    Exhaustive,
    /// Exhaustive with partial-order reduction (`--reduction por`): the
    /// same rows, failures and races; a witness is some execution reaching
    /// its row, not always a shortest one.
    Reduced,
    Sampled {
        runs: u64,
        seed: u64,
        /// `--strategy` and `--max-steps`, which a replay needs too.
        strategy: Strategy,
        max_steps: u64,
    },
    Axiomatic,
    /// The stateless explorer (`--search mcr`): one execution per
    /// combination of values the reads return; `count` is how many reach
    /// each row.
    Stateless,
}

impl Mode {
    /// What a `never` or `always` verdict of `table` rests on: `None` for a
    /// complete search, which may claim them; otherwise the unit of what
    /// was seen (runs, states, candidates), for sampling and for a search
    /// a bound cut short, which claim only what they saw. Every output
    /// format words its verdict from this.
    /// The runs a sampled result is made of: those asked for, or, when a
    /// bound (`--timeout`, `--max-memory`, Ctrl-C) stopped the sampling,
    /// those done. `None` unless sampled.
    pub fn runs(self, table: &OutcomeTable) -> Option<u64> {
        match self {
            Mode::Sampled { runs, .. } if table.complete() => Some(runs),
            Mode::Sampled { .. } => Some(table.stats.states),
            _ => None,
        }
    }

    pub fn seen_only(self, table: &OutcomeTable) -> Option<&'static str> {
        match self {
            Mode::Sampled { .. } => Some("run"),
            _ if table.complete() => None,
            Mode::Exhaustive | Mode::Reduced => Some("state"),
            Mode::Axiomatic => Some("candidate"),
            Mode::Stateless => Some("execution"),
        }
    }
}

/// Renders a witness trace as lines.
pub type TraceLines<'a> = &'a dyn Fn(&Trace) -> Vec<String>;

/// What is known about a table besides its rows.
#[derive(Clone, Copy, Debug, Default)]
pub struct Extras<'a> {
    /// Sampled runs: the run behind each witness.
    pub first_runs: Option<&'a FirstRuns>,
    /// The `non-SC` notes were asked for but the SC exploration deciding
    /// them was cut by this bound.
    pub non_sc_unknown: Option<&'a BoundHit>,
    /// The stateless explorer's counters.
    pub mcr: Option<&'a McrStats>,
}

/// The verdict as the table words it: sampling, and a search a bound cut
/// short, never claim `never` or `always`, only what was seen (in how
/// many runs, states or candidates).
pub fn verdict_text(table: &OutcomeTable, mode: Mode) -> Option<String> {
    let v = table.verdict()?;
    let Some(seen) = mode.seen_only(table) else {
        return Some(v.to_string());
    };
    Some(match v {
        Verdict::Never => format!("not observed in {}", plural(table.stats.states, seen)),
        Verdict::Always => format!("always observed in {}", plural(table.stats.states, seen)),
        Verdict::Sometimes => v.to_string(),
    })
}

/// Does a row whose proposition `satisfies` (or not) decide the
/// condition (its `*`)? A witness of `exists`, a counterexample of
/// `~exists` or `forall`.
pub fn decides(quantifier: Option<Quantifier>, satisfies: Option<bool>) -> bool {
    match quantifier {
        Some(Quantifier::Exists | Quantifier::NotExists) => satisfies == Some(true),
        Some(Quantifier::Forall) => satisfies == Some(false),
        None => false,
    }
}

/// Whether the condition holds, as herd7's `Ok`/`No`: a row decides it
/// whatever the bounds; its absence does only in a complete search.
pub fn condition_result(quantifier: Quantifier, table: &OutcomeTable, mode: Mode) -> String {
    let decided = table
        .rows
        .iter()
        .any(|r| decides(Some(quantifier), r.satisfies));
    let holds_if_decided = quantifier == Quantifier::Exists;
    if decided {
        return if holds_if_decided {
            "holds (Ok)"
        } else {
            "fails (No)"
        }
        .to_string();
    }
    match mode.seen_only(table) {
        Some(seen) => format!(
            "undecided: no {} in {}",
            if holds_if_decided {
                "witness"
            } else {
                "counterexample"
            },
            plural(table.stats.states, seen)
        ),
        None if holds_if_decided => "fails (No)".to_string(),
        None => "holds (Ok)".to_string(),
    }
}

/// What a final state means for the condition, for the stepper: whether
/// it satisfies the proposition, and whether that makes it a witness or a
/// counterexample.
pub fn final_state_reading(quantifier: Quantifier, satisfies: bool) -> &'static str {
    match (quantifier, satisfies) {
        (Quantifier::Exists, true) => "satisfies the condition",
        (Quantifier::Exists, false) => "does not satisfy the condition",
        (Quantifier::NotExists, true) => "contradicts the condition: its proposition holds",
        (Quantifier::NotExists, false) => "does not contradict the condition",
        (Quantifier::Forall, true) => "satisfies the condition's proposition",
        (Quantifier::Forall, false) => "contradicts the condition: its proposition fails",
    }
}

/// Renders one table. `witness` renders a trace as indented lines.
pub fn render(
    program: &Program,
    table: &OutcomeTable,
    mode: Mode,
    witness: Option<TraceLines<'_>>,
) -> String {
    render_with(program, table, mode, witness, Extras::default())
}

/// [`render`], with the extras of [`Extras`].
pub fn render_with(
    program: &Program,
    table: &OutcomeTable,
    mode: Mode,
    witness: Option<TraceLines<'_>>,
    extras: Extras<'_>,
) -> String {
    let mut out = String::new();
    let how = match mode {
        Mode::Exhaustive | Mode::Reduced => "exhaustive".to_string(),
        Mode::Sampled { seed, .. } => {
            let runs = mode.runs(table).unwrap_or_default();
            format!("{}, seed {seed}", plural(runs, "sampled run"))
        }
        Mode::Axiomatic => "axiomatic".to_string(),
        Mode::Stateless => "stateless, mcr".to_string(),
    };
    let verdict = match verdict_text(table, mode) {
        Some(v) => format!(": {v}"),
        None => String::new(),
    };
    let partial = if table.complete() { "" } else { " (PARTIAL)" };
    let _ = writeln!(
        out,
        "{} under {} ({how}){verdict}{partial}",
        program.name, table.model
    );
    if let Some(c) = &program.condition {
        let result = match c.quantifier {
            Quantifier::Exists => String::new(),
            _ => format!(": {}", condition_result(c.quantifier, table, mode)),
        };
        let _ = writeln!(out, "  {}{result}", condition_line(&c.text));
    }
    out.push('\n');
    let quantifier = program.condition.as_ref().map(|c| c.quantifier);

    // A test that observes nothing (an empty `observe { }`, herd's rule
    // for a condition naming nothing) has one column saying so.
    let nothing = program.observed.is_empty();
    let headers: Vec<String> = if nothing {
        vec!["observed".to_string()]
    } else {
        program
            .observed
            .iter()
            .map(|o| program.observable_name(*o))
            .collect()
    };
    let count_header = match mode {
        Mode::Exhaustive | Mode::Reduced => None,
        Mode::Sampled { .. } => Some("runs"),
        Mode::Axiomatic | Mode::Stateless => Some("executions"),
    };
    let mut widths: Vec<usize> = headers.iter().map(|h| h.len()).collect();
    // A herd C test's addresses print as their locations' names.
    let text = |v: &i64| program.value_text(*v);
    let cells = |values: &[i64]| -> Vec<String> {
        if nothing {
            vec!["nothing".to_string()]
        } else {
            values.iter().map(text).collect()
        }
    };
    for row in &table.rows {
        for (w, v) in widths.iter_mut().zip(cells(&row.values)) {
            *w = (*w).max(v.len());
        }
    }
    let count_width = count_header.map(|h| {
        table
            .rows
            .iter()
            .map(|r| r.count.to_string().len())
            .max()
            .unwrap_or(0)
            .max(h.len())
    });
    let has_notes = table.rows.iter().any(|r| r.racy || r.non_sc);

    let mut line = String::from("    ");
    for (h, w) in headers.iter().zip(&widths) {
        let _ = write!(line, "{h:>w$}  ");
    }
    if let (Some(h), Some(w)) = (count_header, count_width) {
        let _ = write!(line, "{h:>w$}  ");
    }
    if has_notes {
        line.push_str("notes");
    }
    let _ = writeln!(out, "{}", line.trim_end());

    let replay_line = |first: Option<&u64>| match (mode, first) {
        (
            Mode::Sampled {
                seed,
                strategy,
                max_steps,
                ..
            },
            Some(i),
        ) => Some(format!(
            "run {i} ({})",
            replay_flags(seed, *i, strategy, max_steps)
        )),
        _ => None,
    };
    for (r, row) in table.rows.iter().enumerate() {
        let mark = if decides(quantifier, row.satisfies) {
            '*'
        } else {
            ' '
        };
        let mut line = format!("  {mark} ");
        for (v, w) in cells(&row.values).iter().zip(&widths) {
            let _ = write!(line, "{v:>w$}  ");
        }
        if let Some(w) = count_width {
            let _ = write!(line, "{:>w$}  ", row.count);
        }
        let notes: Vec<&str> = [(row.racy, "racy"), (row.non_sc, "non-SC")]
            .into_iter()
            .filter_map(|(on, s)| on.then_some(s))
            .collect();
        line.push_str(&notes.join(", "));
        let _ = writeln!(out, "{}", line.trim_end());
        if let (Some(render_trace), Some(trace)) = (witness, &row.witness) {
            let run = extras.first_runs.and_then(|f| f.rows.get(r));
            for step in replay_line(run).into_iter().chain(render_trace(trace)) {
                let _ = writeln!(out, "        | {step}");
            }
            out.push('\n');
        }
    }
    if table.rows.is_empty() {
        let _ = writeln!(out, "    (no outcome)");
    }

    for (f, failure) in table.failures.iter().enumerate() {
        let what = describe_failure(program, &failure.kind);
        let count = match mode {
            Mode::Exhaustive | Mode::Reduced | Mode::Stateless => String::new(),
            _ => format!(" ({})", plural(failure.count, "time")),
        };
        let _ = writeln!(out, "\n  FAILURE: {what}{count}");
        if let (Some(render_trace), Some(trace)) = (witness, &failure.witness) {
            let run = extras.first_runs.and_then(|runs| runs.failures.get(f));
            for step in replay_line(run).into_iter().chain(render_trace(trace)) {
                let _ = writeln!(out, "        | {step}");
            }
        }
    }

    for race in &table.races {
        let site = |s: relaxlab_semantics::model::Site| {
            let ins = program.instruction(s.thread, s.instr);
            format!(
                "{} line {}: {}",
                program.thread(s.thread).name,
                ins.line,
                ins.text
            )
        };
        let _ = writeln!(
            out,
            "\n  DATA RACE on {}: {}  vs  {}",
            program.location(race.loc).name,
            site(race.earlier),
            site(race.later)
        );
    }

    for flag in &table.flags {
        let _ = writeln!(
            out,
            "\n  FLAG {flag}: the cat model's `flag` check holds on some execution"
        );
    }

    let marked = table
        .rows
        .iter()
        .filter(|r| decides(quantifier, r.satisfies))
        .count();
    let (states, transitions) = match mode {
        Mode::Exhaustive | Mode::Reduced => ("state", "transition"),
        Mode::Sampled { .. } => ("run", "step"),
        Mode::Axiomatic => ("candidate", "consistent"),
        Mode::Stateless => ("execution", "move"),
    };
    let satisfying = match quantifier {
        Some(Quantifier::Exists) => format!(", {marked} satisfying the condition"),
        Some(_) => format!(", {marked} contradicting the condition"),
        None => String::new(),
    };
    let reduced = if mode == Mode::Reduced {
        " (partial-order reduction)"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "\n  {}{satisfying}; {}, {}{reduced}",
        plural(table.rows.len() as u64, "outcome"),
        plural(table.stats.states, states),
        // "consistent" is an adjective: no plural.
        match mode {
            Mode::Axiomatic => format!("{} {transitions}", table.stats.transitions),
            _ => plural(table.stats.transitions, transitions),
        },
    );
    if let Some(stats) = extras.mcr {
        for line in mcr_lines(stats) {
            let _ = writeln!(out, "  {line}");
        }
    }
    if table.rows.is_empty() && table.failures.is_empty() {
        let _ = writeln!(out, "  {}", no_outcome_why(table, mode));
    }
    let shown = table.rows.iter().any(|r| r.witness.is_some())
        || table.failures.iter().any(|f| f.witness.is_some());
    if mode == Mode::Reduced && witness.is_some() && shown {
        let _ = writeln!(
            out,
            "  witnesses: an execution each, from the reduced search (--reduction none gives shortest ones)"
        );
    }
    for bound in &table.bounds {
        let _ = writeln!(out, "  PARTIAL: {}", describe_bound(bound));
    }
    if let Some(bound) = extras.non_sc_unknown {
        let _ = writeln!(
            out,
            "  no non-SC notes: the SC exploration that decides them was cut short ({})",
            bound_flag(bound)
        );
    }
    out
}

/// What the stateless explorer reports beside the table (book: mcr.md, Reading the report).
pub fn mcr_lines(s: &McrStats) -> Vec<String> {
    let mut lines = vec![format!(
        "mcr: {}, no two reading the same values: {} complete, {} failing, {} discarded, {} filtered, {} deadlocked",
        plural(s.executions, "execution"),
        s.complete,
        s.failed,
        s.discarded,
        s.filtered,
        s.deadlocked
    )];
    if let Some(first) = s.first_failure {
        lines.push(format!("mcr: first failure in execution {first}"));
    }
    lines.push(format!(
        "mcr: {} with a seed, {} without ({} seed-search states); {} blocked, {} searched again from the start, {} with no execution",
        plural(s.seeds, "new read value"),
        s.unsat,
        s.seed_states,
        plural(s.blocked, "continuation"),
        s.restarts,
        s.empty
    ));
    lines
}

/// Why a table without outcome or failure has none.
fn no_outcome_why(table: &OutcomeTable, mode: Mode) -> &'static str {
    if !table.complete() {
        return "no execution ended within the bounds below";
    }
    match mode {
        Mode::Sampled { .. } => "no run ended: every one was discarded by an `assume` or `filter`",
        _ => {
            "no execution ends: each one loops forever (a thread waits for a value no store \
             provides, or a join waits for a thread that never ends) or is discarded by an \
             `assume` or `filter`"
        }
    }
}

/// One line saying why an execution failed.
pub fn describe_failure(program: &Program, kind: &FailureKind) -> String {
    let at = |t: relaxlab_semantics::ir::ThreadId, i: relaxlab_semantics::ir::InstrId| {
        let ins = program.instruction(t, i);
        format!("{} line {}: {}", program.thread(t).name, ins.line, ins.text)
    };
    match kind {
        FailureKind::Assert { thread, instr } => {
            format!("assertion failed at {}", at(*thread, *instr))
        }
        FailureKind::DivisionByZero { thread, instr } => {
            format!("division by zero at {}", at(*thread, *instr))
        }
        FailureKind::BadHandle { thread, instr } => {
            format!(
                "join of a register holding no thread handle at {}",
                at(*thread, *instr)
            )
        }
        FailureKind::Deadlock => {
            "deadlock: no thread can move and the program has not ended".into()
        }
        FailureKind::Divergence { thread, instr } => {
            format!(
                "divergence: the thread spins forever without touching memory at {}",
                at(*thread, *instr)
            )
        }
        FailureKind::BadPointer { thread, line } => format!(
            "a write through a value that is not a location's address, or arithmetic on an address, at {} line {line}",
            program.thread(*thread).name
        ),
        FailureKind::DivisionByZeroAt { thread, line } => format!(
            "division by zero at {} line {line}",
            program.thread(*thread).name
        ),
    }
}

/// The flags that replay run `index` of a sample: `--replay S:I`, and the
/// sample's `--strategy` and `--max-steps` where they are not the
/// defaults, without which the replay would take other choices (or stop
/// elsewhere). The other flags (the model, `--mapping`, `--unroll`) stay
/// as they were.
pub fn replay_flags(seed: u64, index: u64, strategy: Strategy, max_steps: u64) -> String {
    let mut flags = format!("--replay {seed}:{index}");
    let name = match strategy {
        Strategy::Uniform => None,
        Strategy::Delay => Some("delay"),
        Strategy::Old => Some("old"),
        Strategy::C11Tester => Some("c11tester"),
    };
    if let Some(name) = name {
        let _ = write!(flags, " --strategy {name}");
    }
    if max_steps != crate::commands::run::DEFAULT_MAX_STEPS {
        let _ = write!(flags, " --max-steps {max_steps}");
    }
    flags
}

/// The flag (or key) behind a bound: `--max-states`, `Ctrl-C`, ...
pub fn bound_flag(bound: &BoundHit) -> &'static str {
    match bound {
        BoundHit::MaxStates(_) => "--max-states",
        BoundHit::MaxCandidates(_) => "--max-candidates",
        BoundHit::MaxExecutions(_) => "--max-states",
        BoundHit::MaxDepth(_) => "--max-depth",
        BoundHit::MaxSteps { .. } => "--max-steps",
        BoundHit::Unroll(_) => "--unroll",
        BoundHit::Interrupted => "Ctrl-C",
        BoundHit::Unsettled(_) => "a `let rec` that is not monotone",
        BoundHit::Timeout { .. } => "--timeout",
        BoundHit::MaxMemory { .. } => "--max-memory",
    }
}

/// A bound's name for programs (JSON's `kind`).
pub fn bound_kind(bound: &BoundHit) -> &'static str {
    match bound {
        BoundHit::MaxStates(_) => "max-states",
        BoundHit::MaxCandidates(_) => "max-candidates",
        BoundHit::MaxExecutions(_) => "max-executions",
        BoundHit::MaxDepth(_) => "max-depth",
        BoundHit::MaxSteps { .. } => "max-steps",
        BoundHit::Unroll(_) => "unroll",
        BoundHit::Interrupted => "interrupted",
        BoundHit::Unsettled(_) => "unsettled",
        BoundHit::Timeout { .. } => "timeout",
        BoundHit::MaxMemory { .. } => "max-memory",
    }
}

/// One line saying which bound cut the result short, and that outcomes
/// beyond it are missing; the bound is named by its flag.
pub fn describe_bound(bound: &BoundHit) -> String {
    describe_bound_of(bound, "outcomes", &flag_origin)
}

/// How a bound is named in a message: by the flag that sets it (the
/// command line, [`flag_origin`]) or by the playground's limit.
pub type BoundOrigin<'a> = &'a dyn Fn(&BoundHit) -> String;

/// The flag behind a bound, as messages name it: [`bound_flag`], and, for
/// `--max-memory` left to its default, what the default is.
pub fn flag_origin(bound: &BoundHit) -> String {
    match bound {
        BoundHit::MaxMemory { baseline: 0, .. } if crate::limits::memory_by_default() => {
            "--max-memory, by default 4/5 of the machine's".to_string()
        }
        _ => bound_flag(bound).to_string(),
    }
}

/// [`describe_bound`] for a result of which `missing` (`outcomes`,
/// `races`) are lost beyond the bound, named by `origin`.
pub fn describe_bound_of(bound: &BoundHit, missing: &str, origin: BoundOrigin<'_>) -> String {
    let by = origin(bound);
    match bound {
        BoundHit::MaxStates(n) => {
            format!(
                "stopped after {} ({by}); {missing} beyond it are missing",
                plural(*n, "state")
            )
        }
        // The bound also caps the work of reaching a candidate (the
        // read-from and coherence choices listed per location, the path
        // combinations searched): a low bound stops before the first one.
        BoundHit::MaxCandidates(0) => format!(
            "stopped before the first candidate execution ({by}, which also caps the \
             choices searched to build one); {missing} beyond it are missing"
        ),
        BoundHit::MaxCandidates(n) => {
            format!(
                "stopped after {} ({by}); {missing} beyond it are missing",
                plural(*n, "candidate execution")
            )
        }
        BoundHit::MaxDepth(n) => {
            format!(
                "stopped at executions {} long ({by}): only a loop whose states never repeat, \
                 such as one that keeps growing a counter, gets that deep; {missing} beyond \
                 it are missing",
                plural(*n, "step")
            )
        }
        BoundHit::MaxExecutions(n) => {
            format!(
                "stopped after {} ({by}); {missing} beyond it are missing",
                plural(*n, "execution")
            )
        }
        BoundHit::MaxSteps { bound, runs } => {
            format!(
                "{} stopped after {} ({by}) without an outcome",
                plural(*runs, "sampled run"),
                plural(*bound, "step")
            )
        }
        BoundHit::Unroll(k) => {
            format!(
                "loops unrolled {} ({by}); executions needing more iterations are missing",
                plural(u64::from(*k), "time")
            )
        }
        BoundHit::Interrupted => {
            format!("interrupted ({by}); {missing} beyond this point are missing")
        }
        BoundHit::Unsettled(n) => {
            format!(
                "a `let rec` of the model that is not monotone never settled on {}, left undecided (herd7 does not end on them; book: cat.md, Recursive definitions); their outcomes may be missing",
                plural(*n, "candidate execution")
            )
        }
        BoundHit::Timeout { millis } => {
            format!(
                "stopped after {} s ({by}); {missing} beyond it are missing",
                *millis as f64 / 1000.0
            )
        }
        BoundHit::MaxMemory { bytes, baseline: 0 } => {
            format!(
                "stopped when relaxlab's memory passed {} ({by}); {missing} beyond it are missing",
                super::size(*bytes)
            )
        }
        BoundHit::MaxMemory { bytes, .. } => {
            format!(
                "stopped when relaxlab's memory grew by more than {} ({by}); {missing} beyond it are missing",
                super::size(*bytes)
            )
        }
    }
}

/// The longest condition the header prints whole, in characters.
const MAX_CONDITION_SHOWN: usize = 400;

/// The condition as the header shows it: clipped after
/// `MAX_CONDITION_SHOWN` characters with the count of those left out (a
/// generated condition can be megabytes; JSON keeps it whole).
fn condition_line(text: &str) -> String {
    let total = text.chars().count();
    if total <= MAX_CONDITION_SHOWN {
        return text.to_string();
    }
    let shown: String = text.chars().take(MAX_CONDITION_SHOWN).collect();
    format!(
        "{shown} ... ({} more characters)",
        total - MAX_CONDITION_SHOWN
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_memory_bound_says_whether_it_is_the_default() {
        let hit = BoundHit::MaxMemory {
            bytes: 1 << 30,
            baseline: 0,
        };
        let _ = crate::limits::budget(&crate::cli::EngineArgs::default());
        assert!(
            describe_bound(&hit).contains("(--max-memory, by default 4/5 of the machine's)"),
            "{}",
            describe_bound(&hit)
        );
        let _ = crate::limits::budget(&crate::cli::EngineArgs {
            max_memory: Some(1 << 30),
            ..Default::default()
        });
        assert!(
            describe_bound(&hit).contains("passed 1 GiB (--max-memory);"),
            "{}",
            describe_bound(&hit)
        );
    }

    #[test]
    fn a_long_condition_is_clipped_with_a_count() {
        let short = "exists (P0:r0 = 0 /\\ P1:r0 = 0)";
        assert_eq!(condition_line(short), short);
        let long = format!("exists ({})", vec!["P0:r0 = 0"; 10_000].join(" /\\ "));
        let shown = condition_line(&long);
        assert!(shown.len() < 500, "{}", shown.len());
        let left = long.chars().count() - MAX_CONDITION_SHOWN;
        assert!(
            shown.ends_with(&format!("... ({left} more characters)")),
            "{shown}"
        );
        assert!(long.starts_with(shown.split(" ... (").next().unwrap()));
    }
}
