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
//! a computed pointer). As there, each value carries the writers its
//! justification uses (a writer being a write of a statement outside
//! every loop, [`super::eval::Sites`]), and a writer never writes a value
//! whose justification uses it: `r = *x * *x; *x = r + 1;` would
//! otherwise justify 1, 2, 5, 26, ... by itself, a value more every round
//! and the reads' combinations with them.

use std::collections::BTreeSet;

use crate::axiomatic::paths::{insert_minimal, PathEnd, PathOp, PathStep, Paths, ThreadPath};
use crate::axiomatic::{AccessKind, Event, EventKind, MAX_EVENTS};
use crate::ir::{InstrId, LocId, Program, ThreadId, Value};

use super::deps::{run_deps, Mat};
use super::es::{EvKind, ThreadEs};
use super::eval::{Domains, Run, Sites, Stop};
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

/// Every run of thread `t` under `domains`, at most `max` of them.
fn thread_runs(
    program: &Program,
    c: &CProgram,
    t: usize,
    domains: &Domains,
    max: u64,
    paths: &mut Paths,
) -> Result<Vec<ThreadPath>, crate::axiomatic::AxError> {
    let mut out = Vec::new();
    let mut too_big = None;
    let (mut cut, mut truncated) = (false, false);
    each_run(
        program,
        c,
        t,
        domains,
        None,
        max,
        &mut truncated,
        &mut |run, stop| {
            let end = match stop {
                Ok(()) => PathEnd::Finished,
                Err(Stop::Discard) => return true,
                Err(Stop::Cut) => {
                    cut = true;
                    return true;
                }
                Err(Stop::Fail(kind)) => PathEnd::Failed(kind.clone()),
            };
            match to_path(c, &run.es, std::mem::take(&mut run.regs), end) {
                Ok(p) => out.push(p),
                Err(n) => too_big = Some(n),
            }
            too_big.is_none()
        },
    );
    paths.unroll_cut |= cut;
    paths.truncated |= truncated;
    match too_big {
        Some(n) => Err(crate::axiomatic::AxError::TooManyEvents {
            events: n,
            max: MAX_EVENTS,
        }),
        None => Ok(out),
    }
}

/// Runs thread `t` once per sequence of choices, depth first, the last
/// choice varying fastest, at most `max` times (`truncated` set when it
/// stops there); `visit` gets each run and how it ended, and stops the
/// enumeration by returning false.
#[allow(clippy::too_many_arguments)]
fn each_run(
    program: &Program,
    c: &CProgram,
    t: usize,
    domains: &Domains,
    sites: Option<&Sites>,
    max: u64,
    truncated: &mut bool,
    visit: &mut dyn FnMut(&mut Run<'_>, &Result<(), Stop>) -> bool,
) {
    let tid = ThreadId::new(t);
    let mut choices: Vec<u32> = Vec::new();
    let mut visited = 0u64;
    loop {
        visited += 1;
        if visited > max {
            *truncated = true;
            return;
        }
        let regs = c.init_regs[t].clone();
        let mut run = Run::new(
            c,
            tid,
            program.locations.len(),
            domains,
            sites,
            regs,
            &choices,
        );
        let stop = run.run(&c.threads[t]);
        if !visit(&mut run, &stop) {
            return;
        }
        let arities = std::mem::take(&mut run.arities);
        // The next sequence of choices: the last one that has another
        // option takes it; the ones after it start again from 0.
        let mut full: Vec<u32> = (0..arities.len())
            .map(|i| choices.get(i).copied().unwrap_or(0))
            .collect();
        loop {
            let Some(last) = full.len().checked_sub(1) else {
                return;
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
/// write of the same instruction instance to the same location, the one
/// made right after the read when there is one (two read-modify-writes of
/// one location in one statement are two pairs).
fn paired_write(es: &ThreadEs, r: usize) -> Option<usize> {
    let er = es.ev[r];
    let EvKind::Read { loc, .. } = er.kind else {
        return None;
    };
    if !er.atomic {
        return None;
    }
    let pairs = |w: &usize| {
        let ew = es.ev[*w];
        ew.atomic
            && ew.inst == er.inst
            && matches!(ew.kind, EvKind::Write { loc: l, .. } if l == loc)
    };
    std::iter::once(r + 1)
        .filter(|&w| w < es.ev.len())
        .chain(0..es.ev.len())
        .find(pairs)
}

/// Every path of every thread of a herd C program under `domains`.
pub(crate) fn c_thread_paths(
    program: &Program,
    c: &CProgram,
    domains: &[BTreeSet<Value>],
    max: u64,
) -> Result<Paths, crate::axiomatic::AxError> {
    let domains: Vec<Vec<(Value, u64)>> = domains
        .iter()
        .map(|d| d.iter().map(|&v| (v, 0)).collect())
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
    let mut domains: Vec<Vec<(Value, u64)>> = program
        .locations
        .iter()
        .map(|l| vec![(l.init, 0)])
        .collect();
    for (t, body) in c.threads.iter().enumerate() {
        let mut consts = Vec::new();
        stored_constants(body, &c.init_regs[t], n, &mut consts);
        for (loc, v) in consts {
            match loc {
                Some(l) => {
                    insert_minimal(&mut domains[l.index()], v, 0);
                }
                None => {
                    for d in domains.iter_mut() {
                        insert_minimal(d, v, 0);
                    }
                }
            }
        }
    }
    // Rounds: a value written can be read, and computed from, by the next
    // round; a loop-free run writes at most as often as it has stores. A
    // writer never writes a value whose justification uses it (in a
    // loop-free execution it writes once, and a justification is
    // acyclic): without this, `*x = *x + 1` would justify 1, 2, 3, ... by
    // itself, and every round would add a value.
    let rounds = c.threads.iter().map(|b| count_stores(b)).sum::<usize>() + 1;
    let sites = Sites::default();
    for _ in 0..rounds {
        let snapshot = domains.clone();
        let mut changed = false;
        for t in 0..c.threads.len() {
            let mut written = Vec::new();
            let mut truncated = false;
            each_run(
                program,
                c,
                t,
                &snapshot,
                Some(&sites),
                max,
                &mut truncated,
                &mut |run, stop| {
                    if matches!(stop, Ok(()) | Err(Stop::Fail(_))) {
                        written.append(&mut run.written);
                    }
                    true
                },
            );
            for w in written {
                if w.dep & w.bit == 0 {
                    changed |= insert_minimal(&mut domains[w.loc.index()], w.value, w.dep | w.bit);
                }
            }
        }
        if !changed {
            break;
        }
    }
    domains
        .into_iter()
        .map(|d| d.into_iter().map(|(v, _)| v).collect())
        .collect()
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
            CStmt::Eval { e, .. } => 1 + c11_writes(e),
            CStmt::Store { addr, val, .. } => 1 + c11_writes(addr) + c11_writes(val),
            _ => 1,
        })
        .sum()
}

/// The writes of the C11 read-modify-writes of an expression, counted
/// beside the statement's one for the bound on the rounds.
fn c11_writes(e: &CExpr) -> usize {
    match e {
        CExpr::C11Rmw { addr, val, .. } => 1 + c11_writes(addr) + c11_writes(val),
        CExpr::C11Cas {
            obj,
            expected,
            desired,
            ..
        } => 1 + c11_writes(obj) + c11_writes(expected) + c11_writes(desired),
        CExpr::Op(_, a, b) => c11_writes(a) + c11_writes(b),
        CExpr::Load { addr, .. } => c11_writes(addr),
        _ => 0,
    }
}
