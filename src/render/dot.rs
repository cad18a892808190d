//! Execution graphs as Graphviz DOT: `run --dot`, `compare --dot` and the
//! playground draw them with these functions.

use std::collections::BTreeMap;

use relaxlab_semantics::axiomatic::{self, ExecutionEnd};
use relaxlab_semantics::ir::{AxModel, ModelKey, OpModel, Program, Value};
use relaxlab_semantics::outcome::OutcomeRow;

use crate::engine::{self, Settings};

/// One consistent execution per outcome of the axiomatic `model`, as DOT
/// digraphs keyed by the outcome.
pub fn consistent_per_outcome(
    program: &Program,
    model: AxModel,
    settings: &Settings,
) -> BTreeMap<Vec<Value>, String> {
    let prepared = engine::program_for(program, ModelKey::Ax(model), settings);
    let mut seen = BTreeMap::new();
    let _ = axiomatic::visit_consistent(
        program,
        model,
        &engine::ax_options(settings),
        &mut |ex, end, _| {
            if let ExecutionEnd::Outcome(values) = end {
                seen.entry(values.clone())
                    .or_insert_with(|| axiomatic::to_dot(&prepared, ex));
            }
        },
    );
    seen
}

/// The witness of `row` of the operational `model`, lifted to an
/// execution (TSAN11 Sec. 6.1), as a DOT digraph; `ran` is the program the
/// model ran. `None` when the row has no witness. A witness the twin
/// axiomatic model rejects (a racy `c11r` outcome, which C11 leaves
/// undefined; anything else would be a bug, as every operational model
/// lies within its twin) is drawn all the same, after a comment naming
/// the axiom; one that cannot be lifted (too many events) is a comment
/// saying why.
pub fn lifted(ran: &Program, model: OpModel, row: &OutcomeRow) -> Option<String> {
    let witness = row.witness.as_ref()?;
    let outcome = outcome_text(ran, &row.values);
    Some(match axiomatic::lift(ran, model, witness) {
        // Not expected (every c11t trace names each location's last store,
        // and the lift keeps it): said, never drawn as this outcome's
        // graph.
        Ok(l) if l.outcome.as_ref() != Some(&row.values) => format!(
            "// {} witness of [{outcome}]: not drawn: the lifted execution ends with other final values\n",
            model.name()
        ),
        Ok(l) => match &l.verdict {
            Ok(()) => axiomatic::to_dot(ran, &l.execution),
            Err(r) => format!(
                "// {} witness of [{outcome}]: ax.{} rejects it: {r}\n{}",
                model.name(),
                axiomatic::twin(model).name(),
                axiomatic::to_dot(ran, &l.execution)
            ),
        },
        Err(e) => format!(
            "// {} witness of [{outcome}]: not drawn: {e}\n",
            model.name()
        ),
    })
}

/// `a=0 b=1`: an outcome with the observables' names.
pub fn outcome_text(program: &Program, values: &[Value]) -> String {
    program
        .observed
        .iter()
        .zip(values)
        .map(|(o, v)| format!("{}={v}", program.observable_name(*o)))
        .collect::<Vec<_>>()
        .join(" ")
}
