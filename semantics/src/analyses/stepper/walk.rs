//! Replaying a walk's choices, and finding the choices of a witness.

use std::fmt;

use crate::ir::{InstrId, OpModel, Program, ThreadId};
use crate::operational::{
    describe_trace, Ended, Interp, Preview, Runner, Status, FINISHED, NOT_STARTED,
};
use crate::outcome::{Trace, TraceStep};
use crate::picture::{Describe, MemoryPicture};
use crate::registry::{with_model_as, Buffering, Build, OpVisitor};

use super::view::{MoveView, RunEnd, RunStatus, StepView, ThreadState, ThreadView};

/// A walk that does not replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepError {
    /// Choice number `at` of the walk names no enabled move (the walk was
    /// made for another program or model, or the execution had ended).
    NoSuchMove { at: usize },
    /// The position lies beyond the walk's choices.
    BadPosition { position: usize, len: usize },
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepError::NoSuchMove { at } => {
                write!(f, "move {} of the walk is not enabled", at + 1)
            }
            StepError::BadPosition { position, len } => {
                write!(f, "position {position} lies beyond the walk's {len} moves")
            }
        }
    }
}

impl std::error::Error for StepError {}

/// The state of `program` under `model` after the first `position` of
/// `choices`, with the labels of every choice. `program` is the program
/// the model runs: after the compilation mapping for the hardware models
/// (the CLI's `engine::program_for`), so that inserted fences are moves
/// of their own, as in witnesses.
pub fn view(
    program: &Program,
    model: OpModel,
    choices: &[u32],
    position: usize,
) -> Result<StepView, StepError> {
    if position > choices.len() {
        return Err(StepError::BadPosition {
            position,
            len: choices.len(),
        });
    }
    let buffered = model.row().buffering != Buffering::None;
    struct View<'a> {
        program: &'a Program,
        buffered: bool,
        choices: &'a [u32],
        position: usize,
    }
    impl OpVisitor for View<'_> {
        type Output = Result<StepView, StepError>;
        fn visit<M: Describe>(self, m: &M) -> Self::Output {
            view_with(self.program, m, self.buffered, self.choices, self.position)
        }
    }
    let v = View {
        program,
        buffered,
        choices,
        position,
    };
    // The models as the stepper runs them: as the explorers do, except
    // that `c11r` keeps every store element (see the module docs).
    with_model_as(model, Build::Show, v)
}

/// The choices that replay `trace` (a witness of the explorers, whose
/// instruction ids refer to `program`) move by move; `None` when no
/// execution of the stepper gives exactly these steps.
pub fn witness_choices(program: &Program, model: OpModel, trace: &Trace) -> Option<Vec<u32>> {
    struct Witness<'a> {
        program: &'a Program,
        trace: &'a Trace,
    }
    impl OpVisitor for Witness<'_> {
        type Output = Option<Vec<u32>>;
        fn visit<M: Describe>(self, m: &M) -> Self::Output {
            witness_with(self.program, m, self.trace)
        }
    }
    with_model_as(model, Build::Show, Witness { program, trace })
}

fn run_end(e: Ended) -> RunEnd {
    match e {
        Ended::Failed(kind) => RunEnd::Failed(kind),
        Ended::Discarded => RunEnd::Discarded,
    }
}

fn view_with<M: Describe>(
    program: &Program,
    model: &M,
    buffered: bool,
    choices: &[u32],
    position: usize,
) -> Result<StepView, StepError> {
    let lines = |steps: &[TraceStep]| {
        describe_trace(
            program,
            &Trace {
                steps: steps.to_vec(),
            },
            buffered,
        )
    };
    let mut initial = Trace::default();
    let mut runner = match Runner::start(Interp::new(program, model), &mut Some(&mut initial)) {
        Ok(r) => r,
        Err(e) => {
            // The execution ends before any move: nothing to take.
            if let Some(at) = (!choices.is_empty()).then_some(0) {
                return Err(StepError::NoSuchMove { at });
            }
            return Ok(StepView {
                initial: lines(&initial.steps),
                history: Vec::new(),
                position: 0,
                threads: Vec::new(),
                memory: MemoryPicture::default(),
                moves: Vec::new(),
                status: RunStatus::Ended(run_end(e)),
                races: Vec::new(),
            });
        }
    };
    let mut history = Vec::with_capacity(choices.len());
    let mut ended = None;
    let mut shown = None;
    for (i, &c) in choices.iter().enumerate() {
        if i == position {
            shown = Some(snapshot(
                program,
                model,
                buffered,
                &mut runner,
                ended.clone(),
            ));
        }
        if ended.is_some() {
            return Err(StepError::NoSuchMove { at: i });
        }
        let mut steps = Trace::default();
        match runner.take(c as usize, &mut Some(&mut steps)) {
            None => return Err(StepError::NoSuchMove { at: i }),
            Some(Status::Running) => {}
            Some(Status::Ended(e)) => ended = Some(e),
        }
        history.push(lines(&steps.steps));
    }
    let (threads, memory, moves, status, races) = match shown {
        Some(s) => s,
        None => snapshot(program, model, buffered, &mut runner, ended),
    };
    Ok(StepView {
        initial: lines(&initial.steps),
        history,
        position,
        threads,
        memory,
        moves,
        status,
        races,
    })
}

/// What a view shows of the runner's state; `ended`: the last move ended
/// the execution (the runner then still holds the state before it).
type Snapshot = (
    Vec<ThreadView>,
    MemoryPicture,
    Vec<MoveView>,
    RunStatus,
    Vec<crate::model::Race>,
);

fn snapshot<M: Describe>(
    program: &Program,
    model: &M,
    buffered: bool,
    runner: &mut Runner<'_, M>,
    ended: Option<Ended>,
) -> Snapshot {
    let threads = runner
        .components()
        .iter()
        .enumerate()
        .map(|(t, comp)| ThreadView {
            thread: ThreadId::new(t),
            state: match comp[0] {
                NOT_STARTED => ThreadState::NotStarted,
                FINISHED => ThreadState::Finished,
                pc => ThreadState::Running {
                    next: InstrId::new(pc as usize),
                },
            },
            registers: program.threads[t]
                .regs
                .iter()
                .cloned()
                .zip(comp[1..].iter().copied())
                .collect(),
        })
        .collect();
    let memory = model.describe(program, runner.memory());
    let mut moves = Vec::new();
    let status = if let Some(e) = ended {
        RunStatus::Ended(run_end(e))
    } else if runner.is_final() {
        match runner.outcome() {
            Some((values, satisfies)) => RunStatus::Final { values, satisfies },
            None => RunStatus::Filtered,
        }
    } else {
        let mut previews = Vec::new();
        runner.previews(&mut previews);
        moves = previews
            .into_iter()
            .enumerate()
            .map(|(i, p)| move_view(program, buffered, i, p))
            .collect();
        if moves.is_empty() {
            RunStatus::Deadlock
        } else {
            RunStatus::Running
        }
    };
    (threads, memory, moves, status, runner.races.clone())
}

fn move_view(program: &Program, buffered: bool, choice: usize, p: Preview) -> MoveView {
    MoveView {
        choice: choice as u32,
        thread: p.thread,
        internal: p.internal,
        instr: p.instr,
        lines: describe_trace(program, &Trace { steps: p.steps }, buffered),
        ends: p.ended.map(run_end),
    }
}

/// One level of the witness search: a state, the moves whose steps match
/// the witness there, and how far the witness has been matched.
struct Level<'p, M: Describe> {
    runner: Runner<'p, M>,
    candidates: Vec<(u32, usize)>,
    next: usize,
    matched: usize,
}

/// The moves of `runner` whose steps are the witness's next steps, with
/// how many steps each matches.
fn matching<M: Describe>(runner: &mut Runner<'_, M>, rest: &[TraceStep]) -> Vec<(u32, usize)> {
    let mut previews = Vec::new();
    runner.previews(&mut previews);
    previews
        .into_iter()
        .enumerate()
        .filter(|(_, p)| !p.steps.is_empty() && rest.starts_with(&p.steps))
        .map(|(i, p)| (i as u32, p.steps.len()))
        .collect()
}

/// Depth-first search for the choices whose steps are `trace`'s. Moves of
/// one state rarely share their steps (a `c11t` settle step per sink of
/// equal value does), so the search almost never backtracks; it is
/// iterative so that a long witness cannot exhaust the stack.
fn witness_with<M: Describe>(program: &Program, model: &M, trace: &Trace) -> Option<Vec<u32>> {
    let mut initial = Trace::default();
    let start = Runner::start(Interp::new(program, model), &mut Some(&mut initial));
    let steps = &trace.steps;
    if !steps.starts_with(&initial.steps) {
        return None;
    }
    let Ok(mut runner) = start else {
        return (steps.len() == initial.steps.len()).then(Vec::new);
    };
    let matched = initial.steps.len();
    if matched == steps.len() {
        return Some(Vec::new());
    }
    let candidates = matching(&mut runner, &steps[matched..]);
    let mut stack = vec![Level {
        runner,
        candidates,
        next: 0,
        matched,
    }];
    let mut choices: Vec<u32> = Vec::new();
    while let Some(top) = stack.last_mut() {
        let Some(&(choice, len)) = top.candidates.get(top.next) else {
            stack.pop();
            choices.pop();
            continue;
        };
        top.next += 1;
        let matched = top.matched + len;
        let mut next = top.runner.clone();
        match next.take(choice as usize, &mut None) {
            Some(Status::Running) => {
                choices.push(choice);
                if matched == steps.len() {
                    return Some(choices);
                }
                let candidates = matching(&mut next, &steps[matched..]);
                stack.push(Level {
                    runner: next,
                    candidates,
                    next: 0,
                    matched,
                });
            }
            Some(Status::Ended(_)) if matched == steps.len() => {
                choices.push(choice);
                return Some(choices);
            }
            Some(Status::Ended(_)) | None => {}
        }
    }
    None
}
