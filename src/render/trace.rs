//! Witness traces, one line per step.

use relaxlab_semantics::analyses::relaxer;
use relaxlab_semantics::ir::{ModelKey, Program};
use relaxlab_semantics::operational::describe_trace;
use relaxlab_semantics::outcome::Trace;
use relaxlab_semantics::registry::Buffering;

/// The lines of a trace of `program` (the program the model ran, after
/// the mapping, so that inserted fences appear as steps) under `key`.
pub fn lines(program: &Program, key: ModelKey, trace: &Trace) -> Vec<String> {
    let buffered = match key {
        ModelKey::Op(m) => m.row().buffering != Buffering::None,
        ModelKey::Ax(_) => false,
    };
    let mut lines = describe_trace(program, trace, buffered);
    // RELAXER Def. 1: show the happens-before cycle of an SC-violating
    // witness of a hardware model.
    if buffered {
        if let Some(cycle) = relaxer::sc_violation_with(program, trace, buffered) {
            lines.push(format!(
                "SC violation: {}",
                relaxer::describe_cycle(program, &cycle)
            ));
        }
    }
    lines
}
