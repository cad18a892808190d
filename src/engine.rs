//! Choosing an engine: the one place where a model's name becomes a
//! monomorphised exploration (README.md,
//! Architecture, invariant 2).

use std::sync::Arc;

use relaxlab_semantics::analyses::relaxer;
use relaxlab_semantics::analyses::repair::{self, Repair, RepairError, RepairOptions, Repairs};
use relaxlab_semantics::axiomatic::cat::Arch;
use relaxlab_semantics::axiomatic::{self, AxError, AxOptions};
use relaxlab_semantics::budget::{Budget, Deadline, ProgressHook};
use relaxlab_semantics::ir::Value;
use relaxlab_semantics::ir::{ModelKey, OpModel, Program};
use relaxlab_semantics::mapping::{self, Mapping, Target};
use relaxlab_semantics::model::Race;
use relaxlab_semantics::operational::mcr::{self, McrOptions, McrStats};
use relaxlab_semantics::operational::{
    self, ExploreOptions, FirstRuns, Reduction, SampleOptions, Strategy,
};
use relaxlab_semantics::outcome::{BoundHit, OutcomeTable, Trace};
use relaxlab_semantics::picture::Describe;
use relaxlab_semantics::registry::{with_model, OpVisitor};

use crate::model::{Engine, Model};
use crate::progress::ProgressAfterASecond;

/// Sampling parameters (`--sample N --seed S --strategy ...`).
#[derive(Clone, Copy, Debug)]
pub struct Sampling {
    pub runs: u64,
    pub seed: u64,
    pub strategy: Strategy,
    pub max_steps: u64,
}

/// How the operational models explore (`--search`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Search {
    /// The stateful explorer: breadth first, every state stored once (or
    /// sampled with `--sample`).
    #[default]
    Exhaustive,
    /// The stateless explorer: maximal causality reduction, one execution
    /// per combination of values the reads return (sc, tso, pso).
    Mcr,
}

/// Loops are unrolled this many times by the stateless explorer when
/// `--unroll` is not given (it explores loop-free programs).
pub const MCR_UNROLL: u32 = 2;

/// Everything an engine needs besides the program and the model.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `--search`: the stateful or the stateless explorer.
    pub search: Search,
    pub mapping: Mapping,
    pub max_states: u64,
    /// How deep an exhaustive exploration goes (`--max-depth`).
    pub max_depth: u64,
    pub max_candidates: u64,
    pub unroll: Option<u32>,
    pub sampling: Option<Sampling>,
    /// Also explore SC to mark the rows no SC execution reaches (`non-SC`,
    /// RELAXER Def. 1). Tables shown to people want it; `check` and
    /// `bench` do not, and skip the extra exploration.
    pub mark_non_sc: bool,
    /// Show a progress line on stderr when an exploration or an axiomatic
    /// run goes on past about a second (set when stderr is a terminal).
    pub progress: bool,
    /// Interruption, time and memory bounds of every engine run.
    pub budget: Budget,
    /// Partial-order reduction of exhaustive exploration (`--reduction`).
    pub reduction: Reduction,
    /// `--timeout`: each [`run`] gets a deadline this long after it starts.
    pub timeout: Option<std::time::Duration>,
}

/// The most states explored under SC to mark the `non-SC` rows of a
/// sampled table (fewer with `--max-states`): sampling is chosen when
/// exhaustive exploration is too big, and the notes must not cost more
/// than the sampling.
pub const SAMPLED_NON_SC_STATES: u64 = 1_000_000;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            search: Search::Exhaustive,
            mapping: Mapping::Standard,
            max_states: 10_000_000,
            max_depth: relaxlab_semantics::operational::DEFAULT_MAX_DEPTH,
            max_candidates: 10_000_000,
            unroll: None,
            sampling: None,
            mark_non_sc: true,
            progress: false,
            budget: Budget::default(),
            reduction: Reduction::Por,
            timeout: None,
        }
    }
}

/// What one engine run found: the table, and what the CLI says beside it.
#[derive(Clone, Debug)]
pub struct Ran {
    pub table: OutcomeTable,
    /// Sampled runs: the run behind each row's and failure's witness.
    pub first_runs: Option<FirstRuns>,
    /// The `non-SC` notes were asked for, but the SC exploration that
    /// decides them was cut short by this bound, so no row has one.
    pub non_sc_unknown: Option<BoundHit>,
    /// The stateless explorer's counters (`--search mcr`).
    pub mcr: Option<McrStats>,
}

/// Why an engine could not answer.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum EngineError {
    #[error(transparent)]
    #[diagnostic(transparent)]
    Axiomatic(#[from] AxiomaticError),
    #[error("model `{0}` is not available yet")]
    #[diagnostic(
        code(relaxlab::model::unavailable),
        help("the operational models are sc, tso, pso, pslo, c11r and c11t")
    )]
    Unavailable(String),
    #[error("the stateless explorer (--search mcr) runs sc, tso and pso, not {0}")]
    #[diagnostic(
        code(relaxlab::model::mcr),
        help("drop --search mcr for this model, or run it under sc, tso or pso")
    )]
    McrModel(String),
    #[error("the axiomatic engine does not sample")]
    #[diagnostic(
        code(relaxlab::flags::sample_axiomatic),
        help("drop --sample, or use an operational --model")
    )]
    SampleAxiomatic,
}

/// An axiomatic engine error, as a diagnostic: a refused loop is labelled
/// at its `while` (attach the program's source to see it).
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{error}")]
#[diagnostic(code(relaxlab::axiomatic))]
pub struct AxiomaticError {
    pub error: AxError,
    #[label("this loop")]
    pub at: Option<miette::SourceSpan>,
    #[help]
    pub help: String,
}

impl AxiomaticError {
    /// The diagnostic of `error` about `program`.
    pub fn new(error: AxError, program: &Program) -> Self {
        let (at, help) = match &error {
            AxError::HasLoops { thread, at } => {
                // A loop's head is its `while` statement: label the keyword.
                let span = program.thread(*thread).code[at.index()].span;
                let start = span.start as usize;
                let len = (span.end as usize).saturating_sub(start).min("while".len());
                (
                    Some(miette::SourceSpan::new(start.into(), len)),
                    "with --unroll K the engine judges the executions that leave every loop \
                     within K iterations; an operational model (--model) needs no bound",
                )
            }
            AxError::TooManyEvents { .. } => {
                (None, "use an operational model, or a smaller --unroll")
            }
            AxError::HerdSemantics => (
                None,
                "give a cat model of the C architecture (--cat), or herd7's configuration (--conf linux-kernel.cfg)",
            ),
        };
        AxiomaticError {
            error,
            at,
            help: help.to_string(),
        }
    }
}

/// The program a hardware model runs: compiled by the mapping.
fn compiled(program: &Program, target: Target, settings: &Settings) -> Program {
    mapping::compile(program, target, settings.mapping)
}

fn sample_options(s: Sampling, settings: &Settings) -> SampleOptions {
    SampleOptions {
        runs: s.runs,
        seed: s.seed,
        strategy: s.strategy,
        max_steps: s.max_steps,
        mapping: settings.mapping,
        budget: settings.budget.clone(),
    }
}

/// Explores or samples `program` under `model`; the explorers apply the
/// model's compilation mapping themselves. `why` says what the exploration
/// is for, on the progress bar.
fn operational(
    program: &Program,
    model: OpModel,
    settings: &Settings,
    why: &str,
) -> (OutcomeTable, Option<FirstRuns>) {
    let opts = ExploreOptions {
        max_states: settings.max_states,
        max_depth: settings.max_depth,
        mapping: settings.mapping,
        budget: settings.budget.clone(),
        reduction: settings.reduction,
    };
    match settings.sampling {
        None if settings.progress => {
            let bar = ProgressAfterASecond::new(&format!("{}{why}", model.name()));
            let table =
                operational::explore_model_with_progress(program, model, &opts, &|n| bar.update(n));
            bar.finish();
            (table, None)
        }
        None => (operational::explore_model(program, model, &opts), None),
        Some(s) => {
            let (table, first) =
                operational::sample_model(program, model, &sample_options(s, settings));
            (table, Some(first))
        }
    }
}

/// The SC exploration that decides `m`'s `non-SC` notes: exhaustive, under
/// the SC model for `m` ([`operational::explore_sc_reference`]: the
/// program after the mapping for a hardware model, as written for a C11
/// one), with at most [`SAMPLED_NON_SC_STATES`] states when `m` was
/// sampled.
fn sc_reference(program: &Program, m: OpModel, settings: &Settings) -> OutcomeTable {
    let max_states = match settings.sampling {
        Some(_) => settings.max_states.min(SAMPLED_NON_SC_STATES),
        None => settings.max_states,
    };
    let opts = ExploreOptions {
        max_states,
        max_depth: settings.max_depth,
        mapping: settings.mapping,
        budget: settings.budget.clone(),
        reduction: settings.reduction,
    };
    let bar = settings
        .progress
        .then(|| ProgressAfterASecond::new("sc (for the non-SC notes)"));
    let table = operational::explore_sc_reference(program, m, &opts, &|n| {
        if let Some(bar) = &bar {
            bar.update(n);
        }
    });
    if let Some(bar) = bar {
        bar.finish();
    }
    table
}

/// The settings of an exploration starting now: with the deadline of
/// `--timeout`.
pub(crate) fn started(settings: &Settings) -> std::borrow::Cow<'_, Settings> {
    match settings.timeout {
        Some(after) => {
            let mut s = settings.clone();
            s.budget.deadline = Some(Deadline::after(after));
            std::borrow::Cow::Owned(s)
        }
        None => std::borrow::Cow::Borrowed(settings),
    }
}

/// The options of an exhaustive exploration starting now (with the
/// deadline of `--timeout`), for the commands that call the explorer
/// themselves.
pub fn explore_options(settings: &Settings) -> ExploreOptions {
    let settings = started(settings);
    ExploreOptions {
        max_states: settings.max_states,
        max_depth: settings.max_depth,
        mapping: settings.mapping,
        budget: settings.budget.clone(),
        reduction: settings.reduction,
    }
}

/// Was `table` cut by Ctrl-C, `--timeout` or `--max-memory` (which would
/// cut any further exploration at once)?
pub fn out_of_budget(table: &OutcomeTable) -> bool {
    table.bounds.iter().any(|b| {
        matches!(
            b,
            BoundHit::Interrupted | BoundHit::Timeout { .. } | BoundHit::MaxMemory { .. }
        )
    })
}

/// The program as `model` runs it: after the mapping for the hardware
/// models (operational and axiomatic alike; book: axiomatic.md, Hardware models), as written for
/// the C11 models, and unrolled for the axiomatic models when `--unroll` is
/// given. Every instruction id in a table refers to this program.
pub fn program_for<'m>(
    program: &Program,
    model: impl Into<Model<'m>>,
    settings: &Settings,
) -> Program {
    let model = model.into();
    let program = herd_reading(program, &model);
    match model.engine() {
        Engine::Operational(m) if settings.search == Search::Mcr && mcr::supports(m) => {
            let unroll = settings.unroll.unwrap_or(MCR_UNROLL);
            with_model(
                m,
                McrProgram {
                    program,
                    mapping: settings.mapping,
                    unroll,
                },
            )
        }
        Engine::Operational(m) => match m.row().target.hardware() {
            Some(target) => compiled(program, target, settings),
            None => program.clone(),
        },
        // A program the axiomatic engine refuses has no events to render;
        // `run` reports the refusal.
        Engine::Axiomatic(judge) => {
            axiomatic::prepare_judge(program, &judge, &ax_options(settings))
                .unwrap_or_else(|_| program.clone())
        }
    }
}

/// The program `model` runs: a plain herd C test's reading in herd7's C
/// semantics under a C cat model, which takes herd's reading of the
/// test's unsequenced operands (book: herd.md, Unsequenced operands), the
/// program itself otherwise.
pub fn herd_reading<'p>(program: &'p Program, model: &Model<'_>) -> &'p Program {
    match (model, &program.herd_reading) {
        (Model::Cat(cat), Some(reading)) if cat.model.arch == Arch::C => reading,
        _ => program,
    }
}

/// [`ax_options`] for one run of the axiomatic engine under `what` (a
/// model's name), reporting the candidates it has counted to a progress
/// line when `settings.progress`: the line, to finish once the run ends.
pub(crate) fn ax_options_with_progress(
    settings: &Settings,
    what: &str,
) -> (AxOptions, Option<Arc<ProgressAfterASecond>>) {
    let mut opts = ax_options(settings);
    if !settings.progress {
        return (opts, None);
    }
    let bar = Arc::new(ProgressAfterASecond::counting(what, "candidates"));
    let hook = bar.clone();
    opts.budget.progress = Some(ProgressHook(Arc::new(move |n| hook.update(n))));
    (opts, Some(bar))
}

/// The axiomatic engine's options from the settings.
pub fn ax_options(settings: &Settings) -> AxOptions {
    AxOptions {
        unroll: settings.unroll,
        max_candidates: settings.max_candidates,
        mapping: settings.mapping,
        budget: settings.budget.clone(),
    }
}

/// Runs `program` under `key`. Instruction ids in the result refer to
/// [`program_for`]`(program, key, settings)`. The caller has checked the
/// program against the model (`load::check_model`) and installed the
/// rayon pool.
pub fn run<'m>(
    program: &Program,
    model: impl Into<Model<'m>>,
    settings: &Settings,
) -> Result<OutcomeTable, EngineError> {
    run_detailed(program, model, settings).map(|ran| ran.table)
}

/// [`run`], with what the CLI prints beside the table. `--timeout` starts
/// counting here.
pub fn run_detailed<'m>(
    program: &Program,
    model: impl Into<Model<'m>>,
    settings: &Settings,
) -> Result<Ran, EngineError> {
    let settings = &started(settings);
    let model = model.into();
    let program = herd_reading(program, &model);
    match model.engine() {
        Engine::Operational(m) if settings.search == Search::Mcr => {
            let _ctrl_c = crate::interrupt::interruptible();
            let (mut table, stats) = stateless(program, m, settings, "")?;
            let mut non_sc_unknown = None;
            if m != OpModel::Sc && settings.mark_non_sc && !out_of_budget(&table) {
                let (sc, _) = stateless(program, OpModel::Sc, settings, " (for the non-SC notes)")?;
                relaxer::mark_non_sc(&mut table, &sc);
                non_sc_unknown = sc.bounds.first().copied();
            }
            Ok(Ran {
                table,
                first_runs: None,
                non_sc_unknown,
                mcr: Some(stats),
            })
        }
        Engine::Operational(m) => {
            // Both explorations below stop at Ctrl-C with what they found.
            let _ctrl_c = crate::interrupt::interruptible();
            let (mut table, first_runs) = operational(program, m, settings, "");
            let mut non_sc_unknown = None;
            // RELAXER Def. 1: an outcome no SC execution reaches is reached
            // only by SC-violating executions. Not after Ctrl-C or past
            // the time or memory bound: that exploration would stop at once.
            if m != OpModel::Sc && settings.mark_non_sc && !out_of_budget(&table) {
                let sc = sc_reference(program, m, settings);
                relaxer::mark_non_sc(&mut table, &sc);
                non_sc_unknown = sc.bounds.first().copied();
            }
            Ok(Ran {
                table,
                first_runs,
                non_sc_unknown,
                mcr: None,
            })
        }
        // A built-in or a cat model: the axiomatic engine's judge.
        Engine::Axiomatic(judge) => {
            if settings.sampling.is_some() {
                return Err(EngineError::SampleAxiomatic);
            }
            // The engine polls the budget: Ctrl-C stops it with what it
            // found.
            let _ctrl_c = crate::interrupt::interruptible();
            let (opts, bar) = ax_options_with_progress(settings, &model.name());
            let result = axiomatic::run_judges(program, &[judge], &opts);
            if let Some(bar) = bar {
                bar.finish();
            }
            result
                .map(|mut tables| Ran {
                    table: tables.remove(0),
                    first_runs: None,
                    non_sc_unknown: None,
                    mcr: None,
                })
                .map_err(|e| AxiomaticError::new(e, program).into())
        }
    }
}

/// The stateless explorer's options from the settings: `--max-states`
/// bounds the executions.
pub fn mcr_options(settings: &Settings) -> McrOptions {
    McrOptions {
        max_executions: settings.max_states,
        budget: settings.budget.clone(),
        check_distinct: false,
    }
}

/// Explores `program` under the hardware model `m` statelessly
/// (`--search mcr`); `why` says what the exploration is for, on the
/// progress bar.
fn stateless(
    program: &Program,
    m: OpModel,
    settings: &Settings,
    why: &str,
) -> Result<(OutcomeTable, McrStats), EngineError> {
    let opts = mcr_options(settings);
    let unroll = settings.unroll.unwrap_or(MCR_UNROLL);
    let bar = settings
        .progress
        .then(|| ProgressAfterASecond::counting(&format!("{}{why}", m.name()), "executions"));
    let progress = |n: u64| {
        if let Some(bar) = &bar {
            bar.update(n);
        }
    };
    if !mcr::supports(m) {
        return Err(EngineError::McrModel(m.name().to_string()));
    }
    let report = with_model(
        m,
        McrExplore {
            program,
            mapping: settings.mapping,
            unroll,
            opts: &opts,
            progress: &progress,
        },
    );
    if let Some(bar) = &bar {
        bar.finish();
    }
    Ok((report.table, report.stats))
}

/// [`mcr::program_for`] with the model's concrete type.
struct McrProgram<'a> {
    program: &'a Program,
    mapping: Mapping,
    unroll: u32,
}

impl OpVisitor for McrProgram<'_> {
    type Output = Program;
    fn visit<M: Describe>(self, model: &M) -> Program {
        mcr::program_for(self.program, model, self.mapping, self.unroll)
    }
}

/// [`mcr::explore_mcr_with_progress`] with the model's concrete type.
struct McrExplore<'a> {
    program: &'a Program,
    mapping: Mapping,
    unroll: u32,
    opts: &'a McrOptions,
    progress: &'a dyn Fn(u64),
}

impl OpVisitor for McrExplore<'_> {
    type Output = mcr::McrReport;
    fn visit<M: Describe>(self, model: &M) -> mcr::McrReport {
        mcr::explore_mcr_with_progress(
            self.program,
            model,
            self.mapping,
            self.unroll,
            self.opts,
            self.progress,
        )
    }
}

/// A replayed run: its trace and, if it ended in one, its outcome.
pub type Replayed = (Trace, Option<Vec<Value>>);

/// Replays sampled run `index` of `settings.sampling` under the operational
/// model `key`: its trace and, if it ended in one, its outcome.
pub fn replay(
    program: &Program,
    key: ModelKey,
    settings: &Settings,
    index: u64,
) -> Result<Option<Replayed>, EngineError> {
    let Some(s) = settings.sampling else {
        return Ok(None);
    };
    let opts = sample_options(s, settings);
    match key {
        ModelKey::Op(m) => Ok(operational::replay_model(program, m, &opts, index)),
        ModelKey::Ax(_) => Err(EngineError::SampleAxiomatic),
    }
}

/// The result of `relaxlab races`: the exploration, the program it ran,
/// and each distinct race with a shortest witness.
#[derive(Debug)]
pub struct RaceResult {
    pub program: Program,
    pub table: OutcomeTable,
    pub races: Vec<(Race, Option<Trace>)>,
}

/// Explores `program` under c11r or c11t, or under SC with C11 happens-before
/// (`ScRaces`), collecting data races.
pub fn races(
    program: &Program,
    model: OpModel,
    settings: &Settings,
) -> Result<RaceResult, EngineError> {
    let settings = &started(settings);
    let opts = ExploreOptions {
        max_states: settings.max_states,
        max_depth: settings.max_depth,
        mapping: settings.mapping,
        budget: settings.budget.clone(),
        reduction: settings.reduction,
    };
    let _ctrl_c = crate::interrupt::interruptible();
    let explored = if settings.progress {
        let bar = ProgressAfterASecond::new(&format!("{} (races)", model.name()));
        let table = operational::explore_races(program, model, &opts, &|n| bar.update(n));
        bar.finish();
        table
    } else {
        operational::explore_races(program, model, &opts, &|_| {})
    };
    let Some(table) = explored else {
        return Err(EngineError::Unavailable(format!(
            "races under {}",
            model.name()
        )));
    };
    let races = table
        .races
        .iter()
        .enumerate()
        .map(|(i, r)| (*r, table.race_witnesses.get(i).cloned()))
        .collect();
    Ok(RaceResult {
        program: program.clone(),
        table,
        races,
    })
}

/// Repairs `program` for `key` (`relaxlab repair`): every run is
/// exhaustive under the model, with the settings' bounds.
pub fn repair(
    program: &Program,
    key: ModelKey,
    family: Repairs,
    settings: &Settings,
    opts: &RepairOptions,
) -> Result<Repair, RepairError> {
    use repair::{Axiomatic, Operational};
    let explore = ExploreOptions {
        max_states: settings.max_states,
        max_depth: settings.max_depth,
        mapping: settings.mapping,
        budget: settings.budget.clone(),
        reduction: settings.reduction,
    };
    match key {
        ModelKey::Op(m) => repair::repair(program, family, &mut Operational::new(m, explore), opts),
        ModelKey::Ax(m) => repair::repair(
            program,
            family,
            &mut Axiomatic::new(m, ax_options(settings)),
            opts,
        ),
    }
}
