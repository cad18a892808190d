//! Checks that depend on the model chosen. The C11 models (`c11r`, `c11t`,
//! `ax.c11`, `ax.rc11`, `ax.c11r`, `ax.c11t`) know no hardware barriers
//! (`ss sl ll ls full` are RELAXER's hardware fences, Sec. 3, with no C11
//! counterpart). A location accessed both atomically and non-atomically
//! (mixed atomicity) is refused by the models that give a location one
//! atomicity: the operational `c11r` and `c11t`, whose state keeps either
//! an atomic location's store history or a non-atomic location's race
//! clocks (TSAN11 Sec. 5, C11TESTER Sec. 3), and their axiomatic twins
//! `ax.c11r` and `ax.c11t`, so that the pairs stay comparable. `ax.c11`
//! and `ax.rc11` accept it as herd7's C models do: every write to the
//! location is in `mo`, and a race is a pair of conflicting accesses, one
//! of them non-atomic, unordered by `hb` (RC11, Lahav et al. 2017, Sec. 3),
//! decided per access.

use relaxlab_semantics::ir::{
    Atomicity, FenceKind, Instr, ModelKey, Program, ReadOrd, Span, WriteOrd,
};

use crate::diag::{sspan, Error, Errors, ModelError};
use crate::fmt::hw_fence_name;

/// Rejects hardware barriers and mixed-atomicity locations under the
/// models whose registry rows do not admit them
/// (`relaxlab_semantics::registry::Admits`).
pub(crate) fn check_model(program: &Program, model: ModelKey) -> Result<(), Errors> {
    // A test in herd's C semantics has no relaxlab instructions for the
    // operational models to run, and no C11 orders for the hand-written
    // axiomatic ones.
    if program.c.is_some() {
        let span = program.threads.first().map(|t| t.span).unwrap_or_default();
        return Err(Errors::new(vec![ModelError::HerdSemantics {
            model: model.to_string(),
            why: "kernel primitives, pointers or herd's annotations",
            span: sspan(span),
        }
        .into()]));
    }
    let admits = model.admits();
    let mut errors: Vec<Error> = Vec::new();
    for (l, loc) in program.locations.iter().enumerate() {
        if loc.atomicity != Atomicity::Mixed || admits.mixed_atomicity {
            continue;
        }
        let (atomic, non_atomic) = first_accesses(program, l);
        errors.push(
            ModelError::MixedAtomicity {
                loc: loc.name.clone(),
                model: model.to_string(),
                atomic: sspan(atomic.unwrap_or(loc.span)),
                non_atomic: sspan(non_atomic.unwrap_or(loc.span)),
            }
            .into(),
        );
    }
    let barriers = program.threads.iter().filter(|_| !admits.hardware_fences);
    for th in barriers {
        for ins in &th.code {
            if let Instr::Fence {
                kind: FenceKind::Hw(h),
            } = ins.instr
            {
                errors.push(
                    ModelError::HardwareBarrier {
                        kind: hw_fence_name(h),
                        model: model.to_string(),
                        span: sspan(ins.span),
                    }
                    .into(),
                );
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Errors::new(errors))
    }
}

/// The spans of the first atomic and the first non-atomic access to
/// location number `l`.
fn first_accesses(program: &Program, l: usize) -> (Option<Span>, Option<Span>) {
    let (mut atomic, mut non_atomic) = (None, None);
    for ins in program.threads.iter().flat_map(|t| &t.code) {
        if ins.instr.location().map(|x| x.index()) != Some(l) {
            continue;
        }
        let na = matches!(
            ins.instr,
            Instr::Load {
                ord: ReadOrd::Na,
                ..
            } | Instr::Store {
                ord: WriteOrd::Na,
                ..
            }
        );
        let slot = if na { &mut non_atomic } else { &mut atomic };
        slot.get_or_insert(ins.span);
    }
    (atomic, non_atomic)
}
