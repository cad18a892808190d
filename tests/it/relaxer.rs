//! RELAXER (issue 9) on the seed litmus files: Phase I predictions, Phase
//! II confirmations and the exhaustive ground truth.

use crate::support;

use relaxlab_semantics::analyses::relaxer::lift::{lift_exact, Access, LiftedEvent, UNCOMMITTED};
use relaxlab_semantics::analyses::relaxer::predict::Statement;
use relaxlab_semantics::analyses::relaxer::{
    confirm, creates, ground_truth, predict, PredictOptions, PredictedCycle,
};
use relaxlab_semantics::axiomatic::{self, AccessKind, EventId, EventKind, Execution, LiftError};
use relaxlab_semantics::ir::{OpModel, Program, ThreadId};
use relaxlab_semantics::mapping::Mapping;
use relaxlab_semantics::model::MemoryModel;
use relaxlab_semantics::models::{Pslo, Pso, Sc, Tso};
use relaxlab_semantics::operational::{
    program_for, replay, ExploreOptions, SampleOptions, Strategy,
};
use relaxlab_semantics::outcome::Trace;

fn load(rel: &str) -> Program {
    let path = support::root().join(rel);
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    relaxlab_grammar::load(&src).unwrap_or_else(|_| panic!("{} does not load", path.display()))
}

/// The cycle's (access, location name) sequence.
fn shape(p: &Program, c: &PredictedCycle) -> Vec<(Access, String)> {
    c.elements
        .iter()
        .map(|s| (s.access, p.location(s.loc).name.clone()))
        .collect()
}

#[test]
fn fig2_litmus_has_one_buggy_cycle_under_pso() {
    let p = load("litmus/seeds/RELAXER-fig2.litmus");
    let cycles = predict(&p, &PredictOptions::default());
    assert_eq!(
        cycles.len(),
        2,
        "{:?}",
        cycles
            .iter()
            .map(PredictedCycle::describe)
            .collect::<Vec<_>>()
    );
    let opts = ExploreOptions::default();
    let truths: Vec<_> = cycles
        .iter()
        .map(|c| ground_truth(&p, &Pso, c, &opts))
        .collect();
    assert!(truths.iter().all(|g| g.feasible && g.complete));
    assert_eq!(truths.iter().filter(|g| g.buggy).count(), 1);
    assert!(cycles
        .iter()
        .all(|c| !ground_truth(&p, &Tso, c, &opts).feasible));
    let report = confirm(&p, &Pso, &cycles, 30, 1);
    assert_eq!(report.bugs(), 1, "{report:?}");
}

#[test]
fn dekker_litmus_store_load_cycle_is_a_tso_bug() {
    let p = load("litmus/seeds/RELAXER-fig11-dekker.litmus");
    let cycles = predict(
        &p,
        &PredictOptions {
            runs: 200,
            ..PredictOptions::default()
        },
    );
    let want = [
        (Access::Store, "flag0".to_string()),
        (Access::Load, "flag1".to_string()),
        (Access::Store, "flag1".to_string()),
        (Access::Load, "flag0".to_string()),
    ];
    let flags: Vec<&PredictedCycle> = cycles.iter().filter(|c| shape(&p, c) == want).collect();
    assert!(
        !flags.is_empty(),
        "{:?}",
        cycles
            .iter()
            .map(PredictedCycle::describe)
            .collect::<Vec<_>>()
    );
    let opts = ExploreOptions::default();
    assert!(flags.iter().any(|c| ground_truth(&p, &Tso, c, &opts).buggy));
    let flags: Vec<PredictedCycle> = flags.into_iter().cloned().collect();
    assert!(confirm(&p, &Tso, &flags, 30, 1).bugs() > 0);
}

/// An independent reading of a trace: the axiomatic lift's `rf` and `co`
/// ([`axiomatic::lift`], which finds the write a load read from the
/// location's committed writes and the trace's `older`, keeping no store
/// histories). A store's commit index is its rank in `co` (init 0), a
/// load's that of the write it reads from.
struct Oracle {
    exec: Execution,
}

impl Oracle {
    /// `None` when the execution is too large for a relation.
    fn of(program: &Program, model: OpModel, trace: &Trace) -> Option<Oracle> {
        match axiomatic::lift(program, model, trace) {
            Ok(l) => Some(Oracle { exec: l.execution }),
            Err(LiftError::TooManyEvents { .. }) => None,
            Err(e) => panic!("{e}"),
        }
    }

    fn co(&self, a: usize, b: usize) -> bool {
        self.exec.co.contains(EventId::new(a), EventId::new(b))
    }

    fn source(&self, r: usize) -> usize {
        (0..self.exec.events.len())
            .find(|&w| self.exec.rf.contains(EventId::new(w), EventId::new(r)))
            .expect("every read reads from a write")
    }

    /// The events RELAXER's lift counts, as (event, access): loads, stores,
    /// a successful RMW as its write, a failed CAS as its read.
    fn access(&self, e: usize) -> Option<Access> {
        match self.exec.events[e].kind {
            EventKind::Read { access, .. } if access != AccessKind::Update => Some(Access::Load),
            EventKind::Write { .. } => Some(Access::Store),
            _ => None,
        }
    }

    /// Thread `t`'s accesses in program order, with their commit indices.
    fn accesses(&self, t: ThreadId) -> Vec<(Access, u64)> {
        (0..self.exec.events.len())
            .filter(|&e| self.exec.events[e].thread == Some(t))
            .filter_map(|e| {
                let a = self.access(e)?;
                let w = if a == Access::Store {
                    e
                } else {
                    self.source(e)
                };
                let rank = (0..self.exec.events.len())
                    .filter(|&v| self.co(v, w))
                    .count();
                Some((a, rank as u64))
            })
            .collect()
    }

    /// RELAXER's `x ->c y`, read off `rf` and `co`.
    fn conflict(&self, x: usize, y: usize) -> bool {
        match (self.access(x), self.access(y)) {
            (Some(Access::Store), Some(Access::Store)) => self.co(x, y),
            (Some(Access::Store), Some(Access::Load)) => {
                let w = self.source(y);
                w == x || self.co(x, w)
            }
            (Some(Access::Load), Some(Access::Store)) => self.co(self.source(x), y),
            _ => false,
        }
    }

    fn matches(&self, e: usize, s: &Statement) -> bool {
        let ev = &self.exec.events[e];
        ev.thread == Some(s.thread)
            && ev.line == s.line
            && ev.loc() == Some(s.loc)
            && self.access(e) == Some(s.access)
    }

    /// Does the execution create the cycle (RELAXER Sec. 4.3: `e2q-1 ->po
    /// e2q`, `e2q ->c e2q+1`, indices mod 2k)?
    fn creates(&self, cycle: &PredictedCycle) -> bool {
        let el = &cycle.elements;
        let n = self.exec.events.len();
        let pairs: Vec<Vec<(usize, usize)>> = (0..el.len() / 2)
            .map(|q| {
                let mut out = Vec::new();
                for a in (0..n).filter(|&a| self.matches(a, &el[2 * q])) {
                    for b in (0..n).filter(|&b| self.matches(b, &el[2 * q + 1])) {
                        if self.exec.po.contains(EventId::new(a), EventId::new(b)) {
                            out.push((a, b));
                        }
                    }
                }
                out
            })
            .collect();
        self.closes(&pairs, &mut Vec::new())
    }

    fn closes(&self, pairs: &[Vec<(usize, usize)>], chosen: &mut Vec<(usize, usize)>) -> bool {
        let q = chosen.len();
        if q == pairs.len() {
            return q >= 2 && self.conflict(chosen[q - 1].1, chosen[0].0);
        }
        for &p in &pairs[q] {
            if q > 0 && !self.conflict(chosen[q - 1].1, p.0) {
                continue;
            }
            chosen.push(p);
            if self.closes(pairs, chosen) {
                return true;
            }
            chosen.pop();
        }
        false
    }
}

/// RELAXER's Phase II under PSLO used to create no cycle at all: the lift
/// dropped the old value from a store history it had not yet written to,
/// and read a stale load as a read of memory. On store buffering and
/// message passing, biased runs now create the cycle under PSLO as under
/// PSO, and every run that says it created it did, by the axiomatic
/// lift's `rf` and `co`.
#[test]
fn pslo_creates_the_sb_and_mp_cycles_and_every_claim_holds() {
    for file in ["litmus/classic/SB.litmus", "litmus/classic/MP.litmus"] {
        let p = load(file);
        let cycles = predict(&p, &PredictOptions::default());
        assert_eq!(cycles.len(), 1, "{file}");
        for (model, report) in [
            ("pso", confirm(&p, &Pso, &cycles, 1000, 0)),
            ("pslo", confirm(&p, &Pslo, &cycles, 1000, 0)),
        ] {
            assert!(
                report.cycles[0].created > 100,
                "{file} {model}: {}",
                report.cycles[0].created
            );
        }
        assert!(ground_truth(&p, &Pslo, &cycles[0], &ExploreOptions::default()).feasible);
        // One trial per seed: each creating trial's trace is its witness.
        let compiled = program_for(&p, &Pslo, Mapping::Standard);
        let mut created = 0;
        for seed in 0..200 {
            let report = confirm(&p, &Pslo, &cycles, 1, seed);
            let Some(w) = &report.cycles[0].witness else {
                continue;
            };
            created += 1;
            let oracle = Oracle::of(&compiled, OpModel::Pslo, w).expect("a small trace");
            assert!(
                oracle.creates(&cycles[0]),
                "{file}, seed {seed}: created, says the lift; not by rf and co: {w:?}"
            );
        }
        assert!(created > 20, "{file}: {created} of 200");
    }
}

/// Sampled traces of `p` under `model`: the lift places every read where
/// the trace says the model read it, and agrees with the axiomatic lift
/// on every commit index and on every predicted cycle. Returns the
/// traces compared and those that create a cycle.
fn agrees<M: MemoryModel>(
    p: &Program,
    model: &M,
    op: OpModel,
    cycles: &[PredictedCycle],
) -> (usize, usize) {
    let compiled = program_for(p, model, Mapping::Standard);
    let buffered = op != OpModel::Sc;
    let (mut compared, mut created) = (0, 0);
    for strategy in [Strategy::Delay, Strategy::Uniform] {
        let opts = SampleOptions {
            runs: 60,
            strategy,
            ..SampleOptions::default()
        };
        for i in 0..opts.runs {
            let (trace, _) = replay(p, model, &opts, i).expect("a run");
            let (events, exact) = lift_exact(&compiled, &trace, buffered);
            assert!(
                exact,
                "{} {}: the lift guessed: {trace:?}",
                p.name,
                model.name()
            );
            if events.iter().any(|e| e.position == UNCOMMITTED) {
                continue;
            }
            let Some(oracle) = Oracle::of(&compiled, op, &trace) else {
                continue;
            };
            for t in 0..compiled.threads.len() {
                let t = ThreadId::new(t);
                let ours: Vec<(Access, u64)> = events
                    .iter()
                    .filter(|e: &&LiftedEvent| e.thread == t)
                    .map(|e| (e.access, e.position))
                    .collect();
                assert_eq!(
                    ours,
                    oracle.accesses(t),
                    "{} {} thread {t:?}: {trace:?}",
                    p.name,
                    model.name()
                );
            }
            for c in cycles {
                let ours = creates(&events, c);
                assert_eq!(
                    ours,
                    oracle.creates(c),
                    "{} {} {}: {trace:?}",
                    p.name,
                    model.name(),
                    c.describe()
                );
                created += usize::from(ours);
            }
            compared += 1;
        }
    }
    (compared, created)
}

#[test]
fn the_lift_agrees_with_the_axiomatic_lift_on_sampled_traces() {
    let mut files = support::litmus_files("litmus/classic");
    files.extend(support::litmus_files("litmus/seeds"));
    let mut pslo_created = 0;
    for path in files {
        let rel = support::relative(&path);
        let src = std::fs::read_to_string(&path).unwrap();
        let Ok(p) = relaxlab_grammar::load(&src) else {
            continue;
        };
        let cycles = predict(&p, &PredictOptions::default());
        let mut compared = 0;
        compared += agrees(&p, &Sc, OpModel::Sc, &cycles).0;
        compared += agrees(&p, &Tso, OpModel::Tso, &cycles).0;
        compared += agrees(&p, &Pso, OpModel::Pso, &cycles).0;
        let (n, c) = agrees(&p, &Pslo, OpModel::Pslo, &cycles);
        compared += n;
        pslo_created += c;
        assert!(compared > 0, "{rel}: no trace compared");
    }
    assert!(pslo_created > 0);
}
