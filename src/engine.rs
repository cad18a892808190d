//! Choosing an engine: the one place where a model's name becomes a
//! monomorphised exploration (ARCHITECTURE.md: "Models are chosen once at
//! the CLI boundary").

use relaxlab_semantics::axiomatic::{self, AxError, AxOptions};
use relaxlab_semantics::c11::{C11r, ScRaces};
use relaxlab_semantics::ir::Value;
use relaxlab_semantics::ir::{ModelKey, OpModel, Program};
use relaxlab_semantics::mapping::{self, Mapping, Target};
use relaxlab_semantics::model::MemoryModel;
use relaxlab_semantics::model::Race;
use relaxlab_semantics::operational::models::{Pslo, Pso, Sc, Tso};
use relaxlab_semantics::operational::{self, ExploreOptions, SampleOptions, Strategy};
use relaxlab_semantics::outcome::{OutcomeTable, Trace};

/// Sampling parameters (`--sample N --seed S --strategy ...`).
#[derive(Clone, Copy, Debug)]
pub struct Sampling {
    pub runs: u64,
    pub seed: u64,
    pub strategy: Strategy,
    pub max_steps: u64,
}

/// Everything an engine needs besides the program and the model.
#[derive(Clone, Debug)]
pub struct Settings {
    pub mapping: Mapping,
    pub max_states: u64,
    pub max_candidates: u64,
    pub unroll: Option<u32>,
    pub sampling: Option<Sampling>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            mapping: Mapping::Standard,
            max_states: 10_000_000,
            max_candidates: 10_000_000,
            unroll: None,
            sampling: None,
        }
    }
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
        help("the operational models are sc, tso, pso, pslo and c11r")
    )]
    Unavailable(String),
    #[error("the axiomatic engine does not sample")]
    #[diagnostic(
        code(relaxlab::flags::sample_axiomatic),
        help("drop --sample, or use an operational --model")
    )]
    SampleAxiomatic,
}

/// An axiomatic engine error, as a diagnostic.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{0}")]
#[diagnostic(
    code(relaxlab::axiomatic),
    help("the axiomatic engine needs loop-free programs: pass --unroll K to unroll every loop K times")
)]
pub struct AxiomaticError(pub AxError);

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
    }
}

/// Explores or samples `program` under `model`; the explorers apply the
/// model's compilation mapping themselves.
fn operational<M: MemoryModel>(program: &Program, model: &M, settings: &Settings) -> OutcomeTable {
    match settings.sampling {
        None => operational::explore(
            program,
            model,
            &ExploreOptions {
                max_states: settings.max_states,
                mapping: settings.mapping,
            },
        ),
        Some(s) => operational::sample(program, model, &sample_options(s, settings)),
    }
}

/// The program as `model` runs it: after the mapping for the hardware
/// models (operational and axiomatic alike, MODELS.md 4.1), as written for
/// the C11 models. Every instruction id in a table refers to this program.
pub fn program_for(program: &Program, key: ModelKey, settings: &Settings) -> Program {
    use relaxlab_semantics::ir::AxModel;
    match key {
        ModelKey::Op(OpModel::Sc) | ModelKey::Ax(AxModel::Sc) => {
            compiled(program, Target::Sc, settings)
        }
        ModelKey::Op(OpModel::Tso) | ModelKey::Ax(AxModel::Tso) => {
            compiled(program, Target::Tso, settings)
        }
        ModelKey::Op(OpModel::Pso | OpModel::Pslo) | ModelKey::Ax(AxModel::Pso | AxModel::Pslo) => {
            compiled(program, Target::Pso, settings)
        }
        _ => program.clone(),
    }
}

/// Runs `program` under `key`. Instruction ids in the result refer to
/// [`program_for`]`(program, key, settings)`. The caller has checked the
/// program against the model (`load::check_model`) and installed the
/// rayon pool.
pub fn run(
    program: &Program,
    key: ModelKey,
    settings: &Settings,
) -> Result<OutcomeTable, EngineError> {
    let run = program;
    match key {
        ModelKey::Op(m) => Ok(match m {
            OpModel::Sc => operational(&run, &Sc, settings),
            OpModel::Tso => operational(&run, &Tso, settings),
            OpModel::Pso => operational(&run, &Pso, settings),
            OpModel::Pslo => operational(&run, &Pslo, settings),
            OpModel::C11r => operational(&run, &C11r::default(), settings),
            OpModel::C11t => return Err(EngineError::Unavailable("c11t".into())),
        }),
        ModelKey::Ax(m) => {
            if settings.sampling.is_some() {
                return Err(EngineError::SampleAxiomatic);
            }
            let opts = AxOptions {
                unroll: settings.unroll,
                max_candidates: settings.max_candidates,
                mapping: settings.mapping,
            };
            axiomatic::run_axiomatic(program, m, &opts).map_err(|e| AxiomaticError(e).into())
        }
    }
}

/// Replays sampled run `index` of `settings.sampling` under the operational
/// model `key`: its trace and, if it ended in one, its outcome.
pub fn replay(
    program: &Program,
    key: ModelKey,
    settings: &Settings,
    index: u64,
) -> Result<Option<(Trace, Option<Vec<Value>>)>, EngineError> {
    let Some(s) = settings.sampling else {
        return Ok(None);
    };
    let opts = sample_options(s, settings);
    Ok(match key {
        ModelKey::Op(OpModel::Sc) => operational::replay(program, &Sc, &opts, index),
        ModelKey::Op(OpModel::Tso) => operational::replay(program, &Tso, &opts, index),
        ModelKey::Op(OpModel::Pso) => operational::replay(program, &Pso, &opts, index),
        ModelKey::Op(OpModel::Pslo) => operational::replay(program, &Pslo, &opts, index),
        ModelKey::Op(OpModel::C11r) => operational::replay(program, &C11r::default(), &opts, index),
        ModelKey::Op(OpModel::C11t) => return Err(EngineError::Unavailable("c11t".into())),
        ModelKey::Ax(_) => return Err(EngineError::SampleAxiomatic),
    })
}

/// The result of `relaxlab races`: the exploration, the program it ran,
/// and each distinct race with a shortest witness.
#[derive(Debug)]
pub struct RaceResult {
    pub program: Program,
    pub table: OutcomeTable,
    pub races: Vec<(Race, Option<Trace>)>,
}

/// Explores `program` under c11r, or under SC with C11 happens-before
/// (`ScRaces`), collecting data races.
pub fn races(
    program: &Program,
    model: OpModel,
    settings: &Settings,
) -> Result<RaceResult, EngineError> {
    let opts = ExploreOptions {
        max_states: settings.max_states,
        mapping: settings.mapping,
    };
    let table = match model {
        OpModel::C11r => operational::explore(program, &C11r::default(), &opts),
        OpModel::Sc => operational::explore(program, &ScRaces::default(), &opts),
        other => {
            return Err(EngineError::Unavailable(format!(
                "races under {}",
                other.name()
            )))
        }
    };
    let races = table.races.iter().map(|r| (*r, None)).collect();
    Ok(RaceResult {
        program: program.clone(),
        table,
        races,
    })
}
