//! The paths of herd C threads: every run of each thread over the values
//! its reads may get (value domains), as the axiomatic engine needs them
//! (`crate::axiomatic::paths` does the same for relaxlab's instructions).
//!
//! A thread is run once per sequence of choices (a value for each read,
//! an alternative for each trylock, `cmpxchg` or `add_unless`), depth
//! first, the last choice varying fastest, so paths come in a
//! deterministic order. Each complete run becomes a [`ThreadPath`]: the
//! memory accesses (for the engine's check that every value read is
//! written by someone) and a [`CPath`] with the run's events and herd's
//! `po`, `addr`, `data`, `ctrl` and `rmw` between them.
//!
//! The value domain of a location holds its initial value and every
//! value a run writes to it, computed in rounds like relaxlab's (see
//! `crate::axiomatic::paths::value_domains`), plus every constant some
//! statement stores to it on any branch (to a location the statement
//! names through a parameter; to every location when it stores through
//! a computed pointer).

use std::collections::BTreeSet;

use crate::axiomatic::paths::{PathEnd, PathOp, PathStep, Paths, ThreadPath};
use crate::axiomatic::{AccessKind, Event, EventKind, MAX_EVENTS};
use crate::ir::{InstrId, LocId, Program, ThreadId, Value};

use super::deps::{run_deps, Mat};
use super::es::{EvKind, ThreadEs};
use super::eval::{Run, Stop};
use super::ir::{CExpr, CNode, CProgram, CStmt};
use super::location_at;

/// A thread run in herd's C semantics: its events (without the register
/// events) and the relations herd computes between them, over their
/// indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CPath {
    /// The events, in the order they were built. `thread` is set by the
    /// skeleton.
    pub events: Vec<Event>,
    pub po: Vec<u128>,
    pub addr: Vec<u128>,
    pub data: Vec<u128>,
    pub ctrl: Vec<u128>,
    /// The read and write of each read-modify-write.
    pub rmw: Vec<(usize, usize)>,
}

/// One complete run of a thread, or why it gives no path.
enum Outcome {
    Path(Box<ThreadPath>),
    None,
    Cut,
    TooBig(usize),
}

/// Every run of thread `t` under `domains`, at most `max` of them.
fn thread_runs(
    program: &Program,
    c: &CProgram,
    t: usize,
    domains: &[Vec<Value>],
    max: u64,
    paths: &mut Paths,
) -> Result<Vec<ThreadPath>, crate::axiomatic::AxError> {
    let mut out = Vec::new();
    let mut choices: Vec<u32> = Vec::new();
    let mut visited = 0u64;
    loop {
        visited += 1;
        if visited > max {
            paths.truncated = true;
            return Ok(out);
        }
        let (outcome, arities) = one_run(program, c, t, domains, &choices);
        match outcome {
            Outcome::Path(p) => out.push(*p),
            Outcome::None => {}
            Outcome::Cut => paths.unroll_cut = true,
            Outcome::TooBig(n) => {
                return Err(crate::axiomatic::AxError::TooManyEvents {
                    events: n,
                    max: MAX_EVENTS,
                })
            }
        }
        // The next sequence of choices: the last one that has another
        // option takes it; the ones after it start again from 0.
        let mut full: Vec<u32> = (0..arities.len())
            .map(|i| choices.get(i).copied().unwrap_or(0))
            .collect();
        loop {
            let Some(last) = full.len().checked_sub(1) else {
                return Ok(out);
            };
            if full[last] + 1 < arities[last] {
                full[last] += 1;
                break;
            }
            full.pop();
        }
        choices = full;
    }
}

/// Runs thread `t` with `choices`; returns the path and the number of
/// options of every choice made.
fn one_run(
    program: &Program,
    c: &CProgram,
    t: usize,
    domains: &[Vec<Value>],
    choices: &[u32],
) -> (Outcome, Vec<u32>) {
    let tid = ThreadId::new(t);
    let regs = c.init_regs[t].clone();
    let mut run = Run::new(c, tid, program.locations.len(), domains, regs, choices);
    let end = match run.run(&c.threads[t]) {
        Ok(()) => PathEnd::Finished,
        Err(Stop::Discard) => return (Outcome::None, run.arities),
        Err(Stop::Cut) => return (Outcome::Cut, run.arities),
        Err(Stop::Fail(kind)) => PathEnd::Failed(kind),
    };
    let arities = std::mem::take(&mut run.arities);
    let outcome = match to_path(c, &run.es, run.regs, end) {
        Ok(p) => Outcome::Path(Box::new(p)),
        Err(n) => Outcome::TooBig(n),
    };
    (outcome, arities)
}

/// A run as a path: its accesses as steps, its events and relations as
/// a [`CPath`]. `Err` with the event count when a run has more events
/// than a relation holds.
fn to_path(
    c: &CProgram,
    es: &ThreadEs,
    regs: Vec<Value>,
    end: PathEnd,
) -> Result<ThreadPath, usize> {
    let deps = run_deps(es);
    let kept: Vec<usize> = (0..es.ev.len()).filter(|&e| !es.ev[e].is_reg()).collect();
    if kept.len() > MAX_EVENTS {
        return Err(kept.len());
    }
    let mut index = vec![usize::MAX; es.ev.len()];
    for (i, &e) in kept.iter().enumerate() {
        index[e] = i;
    }
    let rows = |m: &Mat| -> Vec<u128> {
        kept.iter()
            .map(|&a| {
                kept.iter()
                    .enumerate()
                    .filter(|&(_, &b)| m.has(a, b))
                    .fold(0u128, |acc, (j, _)| acc | (1u128 << j))
            })
            .collect()
    };
    let mut events = Vec::with_capacity(kept.len());
    let mut steps = Vec::new();
    let mut rmw = Vec::new();
    for &e in &kept {
        let ev = es.ev[e];
        let mode = c.mode_of(ev.tags);
        let (kind, step) = match ev.kind {
            EvKind::Read { loc, value } => {
                let access = if !ev.atomic {
                    AccessKind::Plain
                } else if paired_write(es, e).is_some() {
                    AccessKind::Update
                } else {
                    AccessKind::FailedUpdate
                };
                let op = PathOp::Read {
                    loc,
                    value,
                    mode,
                    access,
                    free: false,
                };
                (EventKind::Read { loc, value, access }, Some(op))
            }
            EvKind::Write { loc, value } => {
                let access = if ev.atomic {
                    AccessKind::Update
                } else {
                    AccessKind::Plain
                };
                let op = PathOp::Write { loc, value, mode };
                (EventKind::Write { loc, value, access }, Some(op))
            }
            EvKind::Fence => (EventKind::TaggedFence, None),
            EvKind::Lock { loc, op } => (EventKind::Lock { loc, op }, None),
            EvKind::Srcu { loc, value } => (EventKind::Srcu { loc, value }, None),
            EvKind::RegRead(_) | EvKind::RegWrite(_) => unreachable!("registers filtered"),
        };
        if let Some(w) = paired_write(es, e) {
            rmw.push((index[e], index[w]));
        }
        if let Some(op) = step {
            steps.push(PathStep {
                instr: InstrId(0),
                line: ev.line,
                op,
                dep: 0,
            });
        }
        events.push(Event {
            thread: None,
            instr: None,
            line: ev.line,
            kind,
            mode,
            tags: ev.tags,
        });
    }
    Ok(ThreadPath {
        steps,
        regs,
        free_regs: Vec::new(),
        end,
        herd: Some(Box::new(CPath {
            events,
            po: rows(&deps.po),
            addr: rows(&deps.addr),
            data: rows(&deps.data),
            ctrl: rows(&deps.ctrl),
            rmw,
        })),
    })
}

/// The write of the read-modify-write whose read is event `r`: an atomic
/// write of the same instruction instance to the same location.
fn paired_write(es: &ThreadEs, r: usize) -> Option<usize> {
    let er = es.ev[r];
    let EvKind::Read { loc, .. } = er.kind else {
        return None;
    };
    if !er.atomic {
        return None;
    }
    (0..es.ev.len()).find(|&w| {
        let ew = es.ev[w];
        ew.atomic
            && ew.inst == er.inst
            && matches!(ew.kind, EvKind::Write { loc: l, .. } if l == loc)
    })
}

/// Every path of every thread of a herd C program under `domains`.
pub(crate) fn c_thread_paths(
    program: &Program,
    c: &CProgram,
    domains: &[BTreeSet<Value>],
    max: u64,
) -> Result<Paths, crate::axiomatic::AxError> {
    let domains: Vec<Vec<Value>> = domains
        .iter()
        .map(|d| d.iter().copied().collect())
        .collect();
    let mut paths = Paths::default();
    for t in 0..c.threads.len() {
        let runs = thread_runs(program, c, t, &domains, max, &mut paths)?;
        paths.threads.push(runs);
    }
    Ok(paths)
}

/// The value domains of a herd C program (see the module docs).
pub(crate) fn c_value_domains(program: &Program, c: &CProgram, max: u64) -> Vec<BTreeSet<Value>> {
    let n = program.locations.len();
    let mut domains: Vec<BTreeSet<Value>> = program
        .locations
        .iter()
        .map(|l| BTreeSet::from([l.init]))
        .collect();
    for (t, body) in c.threads.iter().enumerate() {
        let mut consts = Vec::new();
        stored_constants(body, &c.init_regs[t], n, &mut consts);
        for (loc, v) in consts {
            match loc {
                Some(l) => {
                    domains[l.index()].insert(v);
                }
                None => {
                    for d in domains.iter_mut() {
                        d.insert(v);
                    }
                }
            }
        }
    }
    // Rounds: a value written can be read, and computed from, by the next
    // round; a loop-free run writes at most as often as it has stores.
    let rounds = c.threads.iter().map(|b| count_stores(b)).sum::<usize>() + 1;
    for _ in 0..rounds {
        let snapshot: Vec<Vec<Value>> = domains
            .iter()
            .map(|d| d.iter().copied().collect())
            .collect();
        let mut changed = false;
        for t in 0..c.threads.len() {
            let mut scratch = Paths::default();
            let Ok(runs) = thread_runs(program, c, t, &snapshot, max, &mut scratch) else {
                return domains;
            };
            for p in &runs {
                for s in &p.steps {
                    if let PathOp::Write { loc, value, .. } = s.op {
                        changed |= domains[loc.index()].insert(value);
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    domains
}

/// The constants a statement stores, with the location when the address
/// is a parameter's (a register holding an address from the start).
fn stored_constants(
    body: &[CNode],
    init: &[Value],
    locations: usize,
    out: &mut Vec<(Option<LocId>, Value)>,
) {
    let place = |addr: &CExpr| -> Option<LocId> {
        match addr {
            CExpr::Reg(r) => location_at(init[r.index()], locations),
            _ => None,
        }
    };
    for node in body {
        match &node.stmt {
            CStmt::Block(b) => stored_constants(b, init, locations, out),
            CStmt::If {
                then, otherwise, ..
            } => {
                stored_constants(std::slice::from_ref(then), init, locations, out);
                if let Some(o) = otherwise {
                    stored_constants(std::slice::from_ref(o), init, locations, out);
                }
            }
            CStmt::While { body, .. } => {
                stored_constants(std::slice::from_ref(body), init, locations, out)
            }
            CStmt::Store {
                addr,
                val: CExpr::Const(v),
                ..
            } => out.push((place(addr), *v)),
            CStmt::Eval { e, .. } => expr_constants(e, &place, out),
            _ => {}
        }
    }
}

fn expr_constants(
    e: &CExpr,
    place: &dyn Fn(&CExpr) -> Option<LocId>,
    out: &mut Vec<(Option<LocId>, Value)>,
) {
    match e {
        CExpr::Xchg { addr, val: v, .. } => {
            if let CExpr::Const(v) = **v {
                out.push((place(addr), v));
            }
        }
        CExpr::CmpXchg { addr, new, .. } => {
            if let CExpr::Const(v) = **new {
                out.push((place(addr), v));
            }
        }
        CExpr::Op(_, a, b) => {
            expr_constants(a, place, out);
            expr_constants(b, place, out);
        }
        _ => {}
    }
}

fn count_stores(body: &[CNode]) -> usize {
    body.iter()
        .map(|n| match &n.stmt {
            CStmt::Block(b) => count_stores(b),
            CStmt::If {
                then, otherwise, ..
            } => {
                count_stores(std::slice::from_ref(then))
                    + otherwise
                        .as_ref()
                        .map_or(0, |o| count_stores(std::slice::from_ref(o)))
            }
            CStmt::While { body, .. } => 2 * count_stores(std::slice::from_ref(body)),
            _ => 1,
        })
        .sum()
}
