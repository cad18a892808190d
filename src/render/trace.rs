//! Witness traces, one line per step.

use relaxlab_semantics::ir::{ModelKey, Program};
use relaxlab_semantics::operational::{buffers_stores, describe_trace};
use relaxlab_semantics::outcome::Trace;

/// The lines of a trace of `program` (the program the model ran, after
/// the mapping, so that inserted fences appear as steps) under `key`.
pub fn lines(program: &Program, key: ModelKey, trace: &Trace) -> Vec<String> {
    let buffered = match key {
        ModelKey::Op(m) => buffers_stores(m),
        ModelKey::Ax(_) => false,
    };
    describe_trace(program, trace, buffered)
}
