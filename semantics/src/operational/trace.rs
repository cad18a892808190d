//! One line per witness step, for the CLI's trace renderer.
//!
//! ```text
//! P0: store(x, 1, rlx)  [x := 1 buffered]
//! P1: r0 = load(x, rlx)  [read 0]
//! P0: commit x = 1
//! ```
//!
//! Instruction ids in a trace number the program the model ran, which for
//! the hardware models is the compiled one ([`super::program_for`]): pass
//! that program here so that fences inserted by the mapping are shown.

use crate::ir::{Program, ThreadId};
use crate::model::EventKind;
use crate::outcome::{Trace, TraceStep};

/// The name of a thread, or `T<n>` for an id the program does not have.
fn thread_name(program: &Program, t: ThreadId) -> String {
    program
        .threads
        .get(t.index())
        .map(|th| th.name.clone())
        .unwrap_or_else(|| format!("T{}", t.0))
}

fn loc_name(program: &Program, l: crate::ir::LocId) -> String {
    program
        .locations
        .get(l.index())
        .map(|x| x.name.clone())
        .unwrap_or_else(|| format!("L{}", l.0))
}

/// One step as a line, stores shown as going to memory directly.
pub fn describe_step(program: &Program, step: &TraceStep) -> String {
    describe(program, step, false)
}

/// Every step of `trace`, one line each. `buffered`: the model buffers
/// stores (TSO, PSO, PSLO), so a store line says so.
pub fn describe_trace(program: &Program, trace: &Trace, buffered: bool) -> Vec<String> {
    trace
        .steps
        .iter()
        .map(|s| describe(program, s, buffered))
        .collect()
}

fn describe(program: &Program, step: &TraceStep, buffered: bool) -> String {
    let who = thread_name(program, step.thread);
    let text = || {
        step.instr
            .and_then(|i| {
                program
                    .threads
                    .get(step.thread.index())?
                    .code
                    .get(i.index())
            })
            .map(|ins| ins.text.clone())
            .unwrap_or_else(|| "?".into())
    };
    let note = match &step.event {
        Some(EventKind::Commit { loc, value, .. }) => {
            return format!("{who}: commit {} = {value}", loc_name(program, *loc));
        }
        Some(EventKind::Settle { loc, value }) => {
            return format!("memory: {} ends with {value}", loc_name(program, *loc));
        }
        None | Some(EventKind::Sync) => return format!("{who}: {}", text()),
        Some(EventKind::Read { value, .. }) => format!("read {value}"),
        Some(EventKind::Write { loc, value, newer }) => {
            let suffix = match (buffered, newer) {
                (true, _) => " buffered".to_string(),
                (false, 0) => String::new(),
                (false, 1) => ", before 1 newer store".to_string(),
                (false, n) => format!(", before {n} newer stores"),
            };
            format!("{} := {value}{suffix}", loc_name(program, *loc))
        }
        Some(EventKind::Update {
            read, wrote, loc, ..
        }) => match wrote {
            Some(w) => format!("read {read}, {} := {w}", loc_name(program, *loc)),
            None => format!("read {read}, no write"),
        },
    };
    format!("{who}: {}  [{note}]", text())
}
