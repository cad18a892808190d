//! Model names for help texts, defaults and messages, read off the model
//! registry (`relaxlab_semantics::registry`), so that a new model appears
//! in every list without an edit here.

use std::sync::LazyLock;

use relaxlab_semantics::ir::{AxModel, OpModel};
use relaxlab_semantics::registry::Buffering;

fn joined<'a>(names: impl Iterator<Item = &'a str>, sep: &str) -> String {
    names.collect::<Vec<_>>().join(sep)
}

fn op_names(keep: impl Fn(OpModel) -> bool, sep: &str) -> String {
    joined(
        OpModel::ALL
            .into_iter()
            .filter(|&m| keep(m))
            .map(OpModel::name),
        sep,
    )
}

/// Phase II of RELAXER delays buffered stores: the models that buffer.
fn buffered(m: OpModel) -> bool {
    m.row().buffering != Buffering::None
}

/// Every operational model, `, ` between them.
pub fn operational() -> String {
    op_names(|_| true, ", ")
}

/// `run --model`.
pub static RUN_MODELS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "Operational models, comma separated: {}. Without --model, --axiomatic or \
         --cat: the `models` and `axiomatic` of relaxlab.toml, else sc",
        op_names(|_| true, ", ")
    )
});

/// `run --axiomatic`.
pub static RUN_AXIOMATIC: LazyLock<String> = LazyLock::new(|| {
    format!(
        "Axiomatic models, comma separated: {}",
        joined(AxModel::ALL.into_iter().map(AxModel::name), ", ")
    )
});

/// `compare --models`.
pub static COMPARE_MODELS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "Operational models to compare with their axiomatic twins, comma separated: {}",
        op_names(|_| true, ", ")
    )
});

/// `compare`'s default: every operational model.
pub static COMPARE_DEFAULT: LazyLock<String> = LazyLock::new(|| op_names(|_| true, ","));

/// `confirm --model`.
pub static CONFIRM_MODELS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "Relaxed models, comma separated: {}",
        op_names(buffered, ", ")
    )
});

/// `confirm`'s default: every model Phase II runs under.
pub static CONFIRM_DEFAULT: LazyLock<String> = LazyLock::new(|| op_names(buffered, ","));

/// `repair --model`.
pub static REPAIR_MODEL: LazyLock<String> = LazyLock::new(|| {
    format!(
        "The model: {}, or axiomatic (ax.tso, ax.rc11, ...)",
        op_names(|m| m.row().repair.is_some(), ", ")
    )
});
