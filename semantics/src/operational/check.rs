//! Self-checks of the reduction's premises, for the tests: that a model's
//! declared dependence relation holds on every reachable state of a
//! program ([`check_dependence`]), and that a witness is an execution of
//! the program ([`replay_witness`]).
//!
//! [`check_dependence`] explores the full state graph (no reduction) and,
//! in every state, takes every pair of agents ([`super::reduction`]) that
//! the reduction would let commute: agents of different owners whose
//! footprints do not conflict, and agents of the same owner (a thread and
//! its own store buffers, which the hardware models argue commute). For
//! each pair it checks the commutation property of [`crate::dependence`]
//! exactly: each agent's moves, in order, are the same after the other's
//! move (same count, same events, same failures), and both orders reach
//! the same state. It also checks the two other premises: a thread's
//! footprint is within the future footprint of its instruction, and it does
//! not grow in the states the other agents lead to; an internal step's
//! footprint is within everything its agent may still do.

use std::collections::{HashMap, VecDeque};

use crate::ir::{Program, Value};
use crate::mapping::Mapping;
use crate::model::{Event, MemoryModel, Race};
use crate::outcome::{FailureKind, Trace, TraceStep};

use super::exhaustive::program_for;
use super::interp::{Ended, Interp, Move, Next, NextOp, Scratch};
use super::reduction::{AgentKind, Agents, Futures};
use super::runner::{move_steps, Runner, Status};

/// A decoded program state: thread components, memory, racy bit.
type Decoded<S> = (Vec<Box<[Value]>>, S, bool);

/// What one move does, owned.
#[derive(Clone, Debug, PartialEq)]
enum Effect<S> {
    Ended(Ended),
    State(Decoded<S>),
}

/// The moves of one agent in one state, in order: event and effect.
type AgentMoves<S> = Vec<(Option<Event>, Effect<S>)>;

/// What [`check_dependence`] checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DependenceCheck {
    /// States visited.
    pub states: u64,
    /// Pairs of agents whose commutation was checked.
    pub pairs: u64,
    /// The exploration stopped at the state bound.
    pub partial: bool,
}

fn apply<S: Clone>(from: &Decoded<S>, m: Move<'_, S>) -> (Option<Event>, Effect<S>) {
    let effect = match m.next {
        Next::Ended(e) => Effect::Ended(e),
        Next::State {
            mem,
            changed,
            child,
            racy,
        } => {
            let mut comps = from.0.clone();
            for (t, c) in changed.into_iter().chain(child) {
                comps[t.index()] = Box::from(c);
            }
            Effect::State((comps, mem, racy))
        }
    };
    (m.event, effect)
}

/// The moves of agent `kind` in `state`.
fn moves_of<M: MemoryModel>(
    interp: &Interp<'_, M>,
    state: &Decoded<M::State>,
    kind: AgentKind,
    sc: &mut Scratch<M::State>,
) -> AgentMoves<M::State> {
    let comp = |t: usize| &state.0[t][..];
    let mut out = Vec::new();
    let mut sink = |m: Move<'_, M::State>| out.push(apply(state, m));
    match kind {
        AgentKind::Thread(t) => {
            interp.thread_step(t, &comp, &state.1, state.2, sc, &mut sink);
        }
        AgentKind::Internal(k) => {
            interp.internal_steps(&state.1, state.2, sc, &mut sink, |i| i == k);
        }
    }
    out
}

/// Checks the declared dependence relation of `model` on every state of
/// `program` reachable within `max_states` states (module docs). `Err`
/// describes the first violation.
pub fn check_dependence<M: MemoryModel>(
    program: &Program,
    model: &M,
    mapping: Mapping,
    max_states: u64,
) -> Result<DependenceCheck, String>
where
    M::State: PartialEq,
{
    let program = program_for(program, model, mapping);
    let interp = Interp::new(&program, model);
    let futures = Futures::of(&program, model);
    let mut sc = Scratch::new(false);
    let mut report = DependenceCheck::default();
    let Ok((comps, mem)) = interp.initial(&mut sc) else {
        return Ok(report);
    };
    let mut seen: HashMap<Decoded<M::State>, ()> = HashMap::new();
    let mut queue = VecDeque::new();
    let start = (comps, mem, false);
    seen.insert(start.clone(), ());
    queue.push_back(start);
    let mut agents = Agents::default();
    while let Some(state) = queue.pop_front() {
        report.states += 1;
        let comp = |t: usize| &state.0[t][..];
        agents.gather(&interp, &futures, &comp, &state.1);
        let list = agents.list.clone();
        let moves: Vec<AgentMoves<M::State>> = list
            .iter()
            .map(|a| moves_of(&interp, &state, a.kind, &mut sc))
            .collect();
        for (i, a) in list.iter().enumerate() {
            premises(&interp, &futures, &state, a.kind, &agents, i)?;
            for (j, b) in list.iter().enumerate().skip(i + 1) {
                if moves[i].is_empty() || moves[j].is_empty() {
                    continue;
                }
                if !agents.may_commute(i, j) {
                    continue;
                }
                report.pairs += 1;
                diamond(
                    &interp,
                    &state,
                    (a.kind, &moves[i]),
                    (b.kind, &moves[j]),
                    &mut sc,
                )
                .map_err(|e| format!("{e}\nin state {state:?}"))?;
                diamond(
                    &interp,
                    &state,
                    (b.kind, &moves[j]),
                    (a.kind, &moves[i]),
                    &mut sc,
                )
                .map_err(|e| format!("{e}\nin state {state:?}"))?;
            }
        }
        for ms in moves {
            for (_, effect) in ms {
                if let Effect::State(next) = effect {
                    if !seen.contains_key(&next) {
                        if seen.len() as u64 >= max_states {
                            report.partial = true;
                            continue;
                        }
                        seen.insert(next.clone(), ());
                        queue.push_back(next);
                    }
                }
            }
        }
    }
    Ok(report)
}

/// A thread's footprint lies within its instruction's future footprint
/// (an internal agent's within its `later`), as `Agents::gather` computed
/// them.
fn premises<M: MemoryModel>(
    interp: &Interp<'_, M>,
    futures: &Futures,
    state: &Decoded<M::State>,
    kind: AgentKind,
    agents: &Agents,
    i: usize,
) -> Result<(), String> {
    let (now, later) = agents.footprints(i);
    let within = |a: crate::dependence::Footprint, b: crate::dependence::Footprint| {
        a.reads & !b.reads == 0 && a.writes & !b.writes == 0 && a.clocks & !b.clocks == 0
    };
    if !within(now, later) {
        return Err(format!(
            "{kind:?}: footprint {now:?} beyond its future {later:?} in state {state:?}"
        ));
    }
    if let AgentKind::Thread(t) = kind {
        let comp = |u: usize| &state.0[u][..];
        if let Some(NextOp::Op(op)) = interp.next_op(t, &comp) {
            let pc = state.0[t.index()][0] as usize;
            let future = futures.at(t.index(), pc);
            if !within(interp.model.future_footprint(&op), future) {
                return Err(format!("{kind:?}: {op:?} beyond the thread's future"));
            }
        }
    }
    Ok(())
}

/// After each move of `b`, agent `a` has the same moves (events, failures)
/// as before, and each of them commutes with that move of `b`.
fn diamond<M: MemoryModel>(
    interp: &Interp<'_, M>,
    state: &Decoded<M::State>,
    (a, a_moves): (AgentKind, &AgentMoves<M::State>),
    (b, b_moves): (AgentKind, &AgentMoves<M::State>),
    sc: &mut Scratch<M::State>,
) -> Result<(), String>
where
    M::State: PartialEq,
{
    let footprint = |s: &Decoded<M::State>, k: AgentKind| match k {
        AgentKind::Thread(t) => {
            let comp = |u: usize| &s.0[u][..];
            match interp.next_op(t, &comp) {
                Some(NextOp::Op(op)) => Some(interp.model.footprint(&s.1, t, &op)),
                _ => None,
            }
        }
        AgentKind::Internal(_) => None,
    };
    let before = footprint(state, a);
    for (j, (_, eff_b)) in b_moves.iter().enumerate() {
        let Effect::State(after_b) = eff_b else {
            continue;
        };
        // `a` after `b`'s move: internal steps are renumbered when a
        // buffer appears or empties, so find `a`'s steps by event.
        let a_after = match a {
            AgentKind::Thread(_) => moves_of(interp, after_b, a, sc),
            AgentKind::Internal(_) => internal_like(interp, after_b, a_moves, sc),
        };
        let events = |ms: &AgentMoves<M::State>| -> Vec<(Option<Event>, Option<Ended>)> {
            ms.iter()
                .map(|(e, eff)| {
                    let ended = match eff {
                        Effect::Ended(x) => Some(x.clone()),
                        Effect::State(_) => None,
                    };
                    (e.clone(), ended)
                })
                .collect()
        };
        if events(a_moves) != events(&a_after) {
            return Err(format!(
                "{a:?} is not the same after move {j} of {b:?}: {:?} then {:?}",
                events(a_moves),
                events(&a_after)
            ));
        }
        if let (Some(f0), Some(f1)) = (before, footprint(after_b, a)) {
            let grew = f1.reads & !f0.reads != 0
                || f1.writes & !f0.writes != 0
                || f1.clocks & !f0.clocks != 0;
            if grew {
                return Err(format!(
                    "{a:?}'s footprint grows after move {j} of {b:?}: {f0:?} then {f1:?}"
                ));
            }
        }
        for (i, (eff_a, (_, eff_ab))) in a_moves.iter().map(|m| &m.1).zip(&a_after).enumerate() {
            let (Effect::State(after_a), Effect::State(after_ab)) = (eff_a, eff_ab) else {
                continue;
            };
            let b_after_a = match b {
                AgentKind::Thread(_) => moves_of(interp, after_a, b, sc),
                AgentKind::Internal(_) => internal_like(interp, after_a, b_moves, sc),
            };
            let Some((_, Effect::State(after_ba))) = b_after_a.get(j) else {
                return Err(format!("move {j} of {b:?} is gone after move {i} of {a:?}"));
            };
            if after_ab != after_ba {
                return Err(format!(
                    "move {i} of {a:?} and move {j} of {b:?} do not commute:\n  {after_ab:?}\n  {after_ba:?}"
                ));
            }
        }
    }
    Ok(())
}

/// The internal steps of `state` whose events are those of `like` (an
/// internal agent's single step), in order.
fn internal_like<M: MemoryModel>(
    interp: &Interp<'_, M>,
    state: &Decoded<M::State>,
    like: &AgentMoves<M::State>,
    sc: &mut Scratch<M::State>,
) -> AgentMoves<M::State> {
    let mut all = Vec::new();
    interp.internal_steps(
        &state.1,
        state.2,
        sc,
        &mut |m| all.push(apply(state, m)),
        |_| true,
    );
    all.into_iter()
        .filter(|(e, _)| like.iter().any(|(l, _)| l == e))
        .collect()
}

/// How a replayed witness ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// The outcome, if the execution reached a final state.
    pub outcome: Option<Vec<Value>>,
    /// The failure its last move hit, if any.
    pub failure: Option<FailureKind>,
    /// Every race its moves reported, in order.
    pub races: Vec<Race>,
}

/// Replays `trace`, a witness of an exploration of `program` under `model`
/// (with `mapping`), move by move: every step must be one the interpreter
/// and the model allow from the state reached so far. `Err` names the
/// first step that is not.
pub fn replay_witness<M: MemoryModel>(
    program: &Program,
    model: &M,
    mapping: Mapping,
    trace: &Trace,
) -> Result<Replayed, String> {
    let program = program_for(program, model, mapping);
    let interp = Interp::new(&program, model);
    let mut own = Trace::default();
    let mut rec = Some(&mut own);
    let mut runner = match Runner::start(interp, &mut rec) {
        Ok(r) => r,
        Err(Ended::Failed(kind)) => {
            return Ok(Replayed {
                outcome: None,
                failure: Some(kind),
                races: Vec::new(),
            })
        }
        Err(Ended::Discarded) => return Err("the execution is discarded at once".into()),
    };
    if !trace.steps.starts_with(&own.steps) {
        return Err("the initial local steps differ".into());
    }
    let mut at = own.steps.len();
    let mut failure = None;
    while at < trace.steps.len() {
        let rest: &[TraceStep] = &trace.steps[at..];
        let mut len = 0;
        // Recording, so that moves carry their local steps.
        let mut scratch = Trace::default();
        let status = runner.take_first(
            |m| {
                let mut steps = Vec::new();
                move_steps(m, &mut steps);
                len = steps.len();
                !steps.is_empty() && rest.starts_with(&steps)
            },
            &mut Some(&mut scratch),
        );
        match status {
            None => {
                return Err(format!(
                    "step {at} ({:?}) is not a move of the state reached",
                    trace.steps[at]
                ))
            }
            Some(Status::Running) => at += len,
            Some(Status::Ended(Ended::Failed(kind))) => {
                at += len;
                failure = Some(kind);
                break;
            }
            Some(Status::Ended(Ended::Discarded)) => {
                return Err("the witness is discarded by an assume".into())
            }
        }
    }
    if at != trace.steps.len() {
        return Err("steps after the execution ended".into());
    }
    let outcome = if failure.is_none() && runner.is_final() {
        runner.outcome().map(|(values, _)| values)
    } else {
        None
    };
    Ok(Replayed {
        outcome,
        failure,
        races: runner.races.clone(),
    })
}
