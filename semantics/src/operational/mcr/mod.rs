//! Stateless exploration with maximal causality reduction (MCR; Huang and
//! Huang, "Maximal Causality Reduction for TSO and PSO", OOPSLA 2016), made
//! optimal: every execution explored reads a combination of values no
//! other explored execution reads (book: mcr.md).
//!
//! - [`region`]: the constraints on read values a node stands for;
//! - [`world`]: running, replaying (Algorithms 1-3) and searching one
//!   execution on the thread interpreter and the memory models;
//! - [`trace`]: an explored execution as MCR reasons about it;
//! - [`seed`]: the seed search, MCR's constraint solving;
//! - [`explore`]: the exploration tree and the table.

mod explore;
mod region;
mod seed;
mod trace;
mod world;

pub use explore::{McrOptions, McrReport, McrStats};
pub use world::Choice;

use crate::ir::OpModel;
use crate::ir::Program;
use crate::mapping::Mapping;
use crate::model::MemoryModel;
use crate::registry::Buffering;

/// The models the stateless explorer runs, read from their registry rows:
/// hardware models whose stores reach memory at once or through FIFO
/// buffers, one per thread (TSO) or per thread and location (PSO), the
/// buffers Algorithms 1-3 replay. PSLO's histories and the C11 models'
/// store lists are outside the paper's replay.
pub fn supports(model: OpModel) -> bool {
    let row = model.row();
    row.target.hardware().is_some()
        && matches!(
            row.buffering,
            Buffering::None | Buffering::Fifo | Buffering::PerLocation
        )
}

/// Does `model` buffer stores (so that replay must decide which stay
/// buffered)? Read from its registry row.
fn buffers_stores(model: &impl MemoryModel) -> bool {
    OpModel::from_name(model.name()).is_some_and(|m| m.row().buffering != Buffering::None)
}

/// Is `model` one the stateless explorer runs ([`supports`])?
fn runs(model: &impl MemoryModel) -> bool {
    OpModel::from_name(model.name()).is_some_and(supports)
}

/// The program the stateless explorer runs for `model`: compiled by the
/// mapping, then every loop unrolled `unroll` times (executions needing
/// more iterations are discarded and reported as
/// [`crate::outcome::BoundHit::Unroll`]). Instruction ids in its traces
/// refer to this program.
pub fn program_for<M: MemoryModel>(
    program: &Program,
    model: &M,
    mapping: Mapping,
    unroll: u32,
) -> Program {
    let compiled = super::program_for(program, model, mapping).into_owned();
    if compiled.has_loops() {
        crate::axiomatic::unroll(&compiled, unroll)
    } else {
        compiled
    }
}

/// Explores `program` under `model` (sc, tso or pso) statelessly: one
/// execution per combination of values its reads can return (the final
/// values of the observed locations counted as reads). Loops are unrolled
/// `unroll` times; `mapping` compiles C11 orders as for the other
/// explorers.
pub fn explore_mcr<M: MemoryModel>(
    program: &Program,
    model: &M,
    mapping: Mapping,
    unroll: u32,
    opts: &McrOptions,
) -> McrReport {
    explore_mcr_with_progress(program, model, mapping, unroll, opts, &|_| {})
}

/// [`explore_mcr`], telling `progress` the number of executions explored
/// after each one.
pub fn explore_mcr_with_progress<M: MemoryModel>(
    program: &Program,
    model: &M,
    mapping: Mapping,
    unroll: u32,
    opts: &McrOptions,
    progress: &dyn Fn(u64),
) -> McrReport {
    assert!(
        runs(model),
        "relaxlab internal error: the stateless explorer runs sc, tso and pso"
    );
    let compiled = super::program_for(program, model, mapping).into_owned();
    let looped = compiled.has_loops();
    let p = if looped {
        crate::axiomatic::unroll(&compiled, unroll)
    } else {
        compiled
    };
    explore::explore_program(
        &p,
        model,
        buffers_stores(model),
        looped.then_some(unroll),
        opts,
        progress,
    )
}
