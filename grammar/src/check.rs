//! Checks that depend on the model chosen: the C11 models (`c11r`, `c11t`,
//! `ax.c11`, `ax.rc11`, `ax.c11r`, `ax.c11t`) give each location one
//! atomicity and know no hardware barriers (LANGUAGE.md, "Statements";
//! C11 §5.1.2.4 defines atomics per object, and `ss sl ll ls full` are
//! RELAXER's hardware fences, Sec. 3, with no C11 counterpart).

use relaxlab_semantics::ir::{
    Atomicity, FenceKind, Instr, ModelKey, Program, ReadOrd, Span, WriteOrd,
};

use crate::diag::{sspan, Error, Errors, ModelError};
use crate::fmt::hw_fence_name;

fn is_c11(model: ModelKey) -> bool {
    match model {
        ModelKey::Op(m) => m.is_c11(),
        ModelKey::Ax(m) => m.is_c11(),
    }
}

/// Rejects, for a C11 model, mixed-atomicity locations and hardware
/// barriers. Other models accept every program.
pub(crate) fn check_model(program: &Program, model: ModelKey) -> Result<(), Errors> {
    if !is_c11(model) {
        return Ok(());
    }
    let mut errors: Vec<Error> = Vec::new();
    for (l, loc) in program.locations.iter().enumerate() {
        if loc.atomicity != Atomicity::Mixed {
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
    for th in &program.threads {
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
