//! The explorers for a model chosen at run time: each function hands the
//! registry's dispatch ([`crate::registry::with_model`]) a visitor that
//! runs the generic explorer on the model's concrete type.

use std::borrow::Cow;

use crate::ir::{OpModel, Program, Value};
use crate::mapping::{compile, Mapping};
use crate::outcome::{OutcomeTable, Trace};
use crate::picture::Describe;
use crate::registry::{with_model, with_race_model, with_sc_reference, OpVisitor};

use super::exhaustive::{explore_with_progress, ExploreOptions};
use super::sample::{replay, sample_with_first_runs, FirstRuns, SampleOptions};

/// The program `model` runs ([`super::program_for`]).
pub fn program_for_model(program: &Program, model: OpModel, mapping: Mapping) -> Cow<'_, Program> {
    match model.row().target.hardware() {
        Some(target) => Cow::Owned(compile(program, target, mapping)),
        None => Cow::Borrowed(program),
    }
}

/// Explores every execution of `program` under `model`
/// ([`super::explore`]).
pub fn explore_model(program: &Program, model: OpModel, opts: &ExploreOptions) -> OutcomeTable {
    explore_model_with_progress(program, model, opts, &|_| {})
}

/// [`explore_model`], telling `progress` the states stored so far
/// ([`super::explore_with_progress`]).
pub fn explore_model_with_progress(
    program: &Program,
    model: OpModel,
    opts: &ExploreOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> OutcomeTable {
    with_model(
        model,
        Explore {
            program,
            opts,
            progress,
        },
    )
}

/// Explores `program` under the SC model that decides `model`'s `non-SC`
/// notes ([`crate::registry::with_sc_reference`]).
pub fn explore_sc_reference(
    program: &Program,
    model: OpModel,
    opts: &ExploreOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> OutcomeTable {
    with_sc_reference(
        model,
        Explore {
            program,
            opts,
            progress,
        },
    )
}

/// The program the SC reference of `model` runs
/// ([`explore_sc_reference`]).
pub fn program_for_sc_reference(program: &Program, model: OpModel, mapping: Mapping) -> Program {
    with_sc_reference(model, ProgramFor { program, mapping })
}

/// Explores `program` with the model `relaxlab races` runs for `model`
/// (the registry row's `races`): `None` for a model that tracks no
/// happens-before.
pub fn explore_races(
    program: &Program,
    model: OpModel,
    opts: &ExploreOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Option<OutcomeTable> {
    with_race_model(
        model,
        Explore {
            program,
            opts,
            progress,
        },
    )
}

/// Samples `program` under `model` ([`super::sample_with_first_runs`]).
pub fn sample_model(
    program: &Program,
    model: OpModel,
    opts: &SampleOptions,
) -> (OutcomeTable, FirstRuns) {
    with_model(model, Sample { program, opts })
}

/// Replays sampled run `index` under `model` ([`super::replay`]).
pub fn replay_model(
    program: &Program,
    model: OpModel,
    opts: &SampleOptions,
    index: u64,
) -> Option<(Trace, Option<Vec<Value>>)> {
    with_model(
        model,
        Replay {
            program,
            opts,
            index,
        },
    )
}

struct Explore<'a> {
    program: &'a Program,
    opts: &'a ExploreOptions,
    progress: &'a (dyn Fn(u64) + Sync),
}

impl OpVisitor for Explore<'_> {
    type Output = OutcomeTable;
    fn visit<M: Describe>(self, model: &M) -> OutcomeTable {
        explore_with_progress(self.program, model, self.opts, self.progress)
    }
}

struct ProgramFor<'a> {
    program: &'a Program,
    mapping: Mapping,
}

impl OpVisitor for ProgramFor<'_> {
    type Output = Program;
    fn visit<M: Describe>(self, model: &M) -> Program {
        super::program_for(self.program, model, self.mapping).into_owned()
    }
}

struct Sample<'a> {
    program: &'a Program,
    opts: &'a SampleOptions,
}

impl OpVisitor for Sample<'_> {
    type Output = (OutcomeTable, FirstRuns);
    fn visit<M: Describe>(self, model: &M) -> Self::Output {
        sample_with_first_runs(self.program, model, self.opts)
    }
}

struct Replay<'a> {
    program: &'a Program,
    opts: &'a SampleOptions,
    index: u64,
}

impl OpVisitor for Replay<'_> {
    type Output = Option<(Trace, Option<Vec<Value>>)>;
    fn visit<M: Describe>(self, model: &M) -> Self::Output {
        replay(self.program, model, self.opts, self.index)
    }
}
