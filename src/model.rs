//! One model reference for every command: an operational model, a
//! built-in axiomatic model, or a cat model (`--cat FILE`, an `expect`
//! entry, a bundled model of the playground). `run`, `compare`, `check`,
//! `races`, the playground and graph drawing take a [`Model`] and go
//! through the same engine entry points ([`crate::engine::run_detailed`],
//! [`crate::engine::program_for`], [`crate::render::dot::graphs`]): the
//! operational explorers for an operational model, the axiomatic engine's
//! judges ([`Judge`]) for a built-in or a cat model.

use relaxlab_semantics::axiomatic::cat::Arch;
use relaxlab_semantics::axiomatic::Judge;
use relaxlab_semantics::ir::{AxModel, ModelKey, OpModel, Program};
use relaxlab_semantics::operational::Reduction;

use crate::cat::CatFile;
use crate::engine::Settings;
use crate::render::table::Mode;

/// The engine a model runs on: the operational explorers, or the
/// axiomatic engine with a judge (a built-in model's axioms or a cat
/// model).
#[derive(Clone, Debug)]
pub enum Engine {
    Operational(OpModel),
    Axiomatic(Judge),
}

/// A model to run.
#[derive(Clone, Copy, Debug)]
pub enum Model<'a> {
    Op(OpModel),
    Ax(AxModel),
    Cat(&'a CatFile),
}

impl From<ModelKey> for Model<'_> {
    fn from(key: ModelKey) -> Self {
        match key {
            ModelKey::Op(m) => Model::Op(m),
            ModelKey::Ax(m) => Model::Ax(m),
        }
    }
}

impl<'a> From<&'a CatFile> for Model<'a> {
    fn from(cat: &'a CatFile) -> Self {
        Model::Cat(cat)
    }
}

impl Model<'_> {
    /// The name its table carries: `tso`, `ax.rc11`, `cat:` and the cat
    /// model's name.
    pub fn name(&self) -> String {
        match self {
            Model::Op(m) => m.name().to_string(),
            Model::Ax(m) => ModelKey::Ax(*m).to_string(),
            Model::Cat(c) => format!("cat:{}", c.model.name),
        }
    }

    /// The registry model whose expectations, static checks and trace
    /// rendering it shares: itself, or for a cat model the built-in model
    /// of its architecture (a C model: `ax.c11`).
    pub fn key(&self) -> ModelKey {
        match self {
            Model::Op(m) => ModelKey::Op(*m),
            Model::Ax(m) => ModelKey::Ax(*m),
            Model::Cat(c) => ModelKey::Ax(match c.model.arch {
                Arch::C => AxModel::C11,
                Arch::Hardware(t) => *AxModel::ALL
                    .iter()
                    .find(|m| m.row().target.hardware() == Some(t))
                    .expect("relaxlab internal error: a hardware target without a model"),
            }),
        }
    }

    /// The engine that runs it.
    pub fn engine(&self) -> Engine {
        match self {
            Model::Op(m) => Engine::Operational(*m),
            Model::Ax(m) => Engine::Axiomatic(Judge::Model(*m)),
            Model::Cat(c) => Engine::Axiomatic(Judge::Cat(c.model.clone())),
        }
    }

    /// The operational model, if it is one.
    pub fn operational(&self) -> Option<OpModel> {
        match self {
            Model::Op(m) => Some(*m),
            _ => None,
        }
    }

    /// Refuses a program the model cannot take (its registry row's
    /// `admits`): a cat model takes what its kin ([`Model::key`]) takes.
    pub fn check(
        &self,
        program: &Program,
        file: &crate::files::SourceFile,
    ) -> Result<(), miette::Report> {
        // A test in herd's C semantics runs under C cat models, as in
        // herd7.
        if let Model::Cat(c) = self {
            if program.c.is_some() && c.model.arch == Arch::C {
                return Ok(());
            }
        }
        let checked = crate::load::check_model(program, self.key(), file);
        match self {
            Model::Cat(c) => checked.map_err(|report| {
                let arch = match c.model.arch {
                    Arch::C => "C11 models",
                    Arch::Hardware(_) => "hardware models",
                };
                report.wrap_err(format!(
                    "cat:{} takes the programs the {arch} take, and this one is not",
                    c.model.name
                ))
            }),
            _ => checked,
        }
    }

    /// How its tables are produced.
    pub fn mode(&self, settings: &Settings) -> Mode {
        match (self, settings.sampling) {
            (Model::Ax(_) | Model::Cat(_), _) => Mode::Axiomatic,
            (Model::Op(_), _) if settings.search == crate::engine::Search::Mcr => Mode::Stateless,
            (Model::Op(_), Some(s)) => Mode::Sampled {
                runs: s.runs,
                seed: s.seed,
                strategy: s.strategy,
                max_steps: s.max_steps,
            },
            (Model::Op(_), None) => match settings.reduction {
                Reduction::None => Mode::Exhaustive,
                Reduction::Por => Mode::Reduced,
            },
        }
    }
}
