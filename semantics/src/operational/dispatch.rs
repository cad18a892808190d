//! The CLI's entry point: a hardware model chosen by name, run exhaustively
//! or by sampling, monomorphised per model (ARCHITECTURE.md, "The
//! memory-model seam").

use crate::ir::{OpModel, Program, Value};
use crate::model::MemoryModel;
use crate::outcome::{OutcomeTable, Trace};

use super::exhaustive::{explore, ExploreOptions};
use super::sample::{replay, sample, SampleOptions};
use crate::models::{Pslo, Pso, Sc, Tso};

/// How to run a model.
#[derive(Clone, Debug)]
pub enum Run {
    Exhaustive(ExploreOptions),
    Sample(SampleOptions),
}

fn run_with<M: MemoryModel>(program: &Program, model: &M, run: &Run) -> OutcomeTable {
    match run {
        Run::Exhaustive(o) => explore(program, model, o),
        Run::Sample(o) => sample(program, model, o),
    }
}

/// Runs `program` under the hardware model `model` (sc, tso, pso, pslo),
/// applying the run's mapping first. `None` for the C11 models, which live
/// elsewhere.
pub fn run_hardware(program: &Program, model: OpModel, run: &Run) -> Option<OutcomeTable> {
    Some(match model {
        OpModel::Sc => run_with(program, &Sc, run),
        OpModel::Tso => run_with(program, &Tso, run),
        OpModel::Pso => run_with(program, &Pso, run),
        OpModel::Pslo => run_with(program, &Pslo, run),
        OpModel::C11r | OpModel::C11t => return None,
    })
}

/// [`replay`] for a hardware model chosen by name; `None` for the C11
/// models or an index beyond the session's runs.
pub fn replay_hardware(
    program: &Program,
    model: OpModel,
    opts: &SampleOptions,
    index: u64,
) -> Option<(Trace, Option<Vec<Value>>)> {
    match model {
        OpModel::Sc => replay(program, &Sc, opts, index),
        OpModel::Tso => replay(program, &Tso, opts, index),
        OpModel::Pso => replay(program, &Pso, opts, index),
        OpModel::Pslo => replay(program, &Pslo, opts, index),
        OpModel::C11r | OpModel::C11t => None,
    }
}

/// Does the model buffer stores (so traces show stores as buffered)?
pub fn buffers_stores(model: OpModel) -> bool {
    matches!(model, OpModel::Tso | OpModel::Pso | OpModel::Pslo)
}
