//! Partial-order reduction (`operational::reduction`) against the full
//! search, on random programs with everything the reduction must keep:
//! spin loops (cycles), branches, assertions, assumptions, division by
//! zero, local divergence, fork and join, non-atomic accesses (races).
//!
//! - `reduced_equals_full_*`: for every model (sc, tso, pso, pslo, c11r,
//!   c11t, and SC with race detection), the reduced table equals the full
//!   one in every row (values, verdict, racy, non-SC mark), failure kind,
//!   race and bound; every witness of the reduced table replays
//!   (`operational::replay_witness`) to its row's outcome, its failure, or
//!   a move reporting its race.
//! - `declared_dependence_holds`: every model's dependence relation, checked
//!   pair by pair on every reachable state (`operational::check_dependence`).
//! - `mutated_dependence_is_caught`: declaring dependent steps independent
//!   (one mutation per model) makes both checks fail on these programs.
//!
//! `RELAXLAB_POR_PROGRAMS=N` sets the number of programs per family
//! (default 250 in release builds, 2,000 with `RELAXLAB_CAMPAIGN=full`,
//! 100 in debug builds) and
//! `RELAXLAB_POR_SEED=K` another fixed sequence, for long runs in chunks.

use crate::ax_builder::campaign;
use relaxlab_semantics::analyses::relaxer::mark_non_sc;
use relaxlab_semantics::dependence::{Footprint, InternalAgent};
use relaxlab_semantics::ir::{
    C11Fence, FenceKind, LocId, ModelKey, OpModel, Program, ReadOrd, ThreadId, Value,
};
use relaxlab_semantics::mapping::{Mapping, Target};
use relaxlab_semantics::model::{Event, MemOp, MemoryModel, Site, Step};
use relaxlab_semantics::models::C11t;
use relaxlab_semantics::models::{C11r, ScRaces};
use relaxlab_semantics::models::{Pslo, Pso, Sc, Tso};
use relaxlab_semantics::operational::{
    check_dependence, explore, replay_witness, ExploreOptions, Reduction,
};
use relaxlab_semantics::outcome::{BoundHit, FailureKind, OutcomeTable};

/// Programs per family.
fn programs() -> usize {
    std::env::var("RELAXLAB_POR_PROGRAMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) {
            100
        } else {
            campaign(250, 2000)
        })
}

/// The generator's seed: `base`, or `base` mixed with `RELAXLAB_POR_SEED`.
fn seed(base: u64) -> u64 {
    match std::env::var("RELAXLAB_POR_SEED")
        .ok()
        .and_then(|k| k.parse::<u64>().ok())
    {
        Some(k) => base ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
        None => base,
    }
}

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len() as u64) as usize]
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// Which front-end checks a program must pass.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    /// Hardware barriers allowed; run under sc, tso, pso, pslo.
    Hardware,
    /// C11 fences only, one non-atomic location `d`; run under every model.
    C11,
}

/// One thread's code under construction.
struct ThreadGen {
    lines: Vec<String>,
    regs: usize,
}

impl ThreadGen {
    fn fresh(&mut self) -> String {
        self.regs += 1;
        format!("r{}", self.regs - 1)
    }
    fn some_reg(&mut self, rng: &mut Rng) -> Option<String> {
        (self.regs > 0).then(|| format!("r{}", rng.below(self.regs as u64)))
    }
}

/// A random program (module docs): 2-4 threads of 1-4 statements over
/// `x`, `y` (and `z`), at most 10 statements in all.
fn random_source(rng: &mut Rng, family: Family, n: usize) -> String {
    let locs: &[&str] = if rng.chance(50) {
        &["x", "y"]
    } else {
        &["x", "y", "z"]
    };
    let na = family == Family::C11 && rng.chance(40);
    let threads = 2 + rng.below(3) as usize;
    let mut sizes: Vec<usize>;
    loop {
        sizes = (0..threads).map(|_| 1 + rng.below(4) as usize).collect();
        if sizes.iter().sum::<usize>() <= 10 {
            break;
        }
    }
    let fork_in = (rng.chance(15)).then(|| rng.below(threads as u64) as usize);
    let mut value = 0;
    let mut out = format!("test R{n}\n\ninit {{");
    for l in locs {
        out.push_str(&format!(" {l} = 0;"));
    }
    if na {
        out.push_str(" d = 0;");
    }
    out.push_str(" }\n\n");
    let mut forked = 0;
    for (t, size) in sizes.into_iter().enumerate() {
        let mut g = ThreadGen {
            lines: Vec::new(),
            regs: 0,
        };
        for _ in 0..size {
            statement(rng, family, locs, na, &mut g, &mut value);
        }
        if fork_in == Some(t) {
            let mut child = ThreadGen {
                lines: Vec::new(),
                regs: 0,
            };
            for _ in 0..1 + rng.below(2) {
                statement(rng, family, locs, na, &mut child, &mut value);
            }
            let at = rng.below(g.lines.len() as u64 + 1) as usize;
            let h = format!("h{forked}");
            let body = child.lines.join(" ");
            g.lines
                .insert(at, format!("{h} = fork C{forked} {{ {body} }};"));
            if rng.chance(70) {
                let j = at + 1 + rng.below((g.lines.len() - at) as u64) as usize;
                g.lines.insert(j, format!("join({h});"));
            }
            forked += 1;
        }
        out.push_str(&format!("thread P{t} {{\n"));
        for l in g.lines {
            out.push_str(&format!("  {l}\n"));
        }
        out.push_str("}\n\n");
    }
    if rng.chance(50) {
        let l = rng.pick(locs);
        out.push_str(&format!("exists ({l} = {})\n", rng.below(value as u64 + 1)));
    }
    out
}

fn statement(
    rng: &mut Rng,
    family: Family,
    locs: &[&str],
    na: bool,
    g: &mut ThreadGen,
    value: &mut Value,
) {
    let loc = rng.pick(locs);
    let read = rng.pick(&["rlx", "acq", "sc"]);
    let write = rng.pick(&["rlx", "rel", "sc"]);
    let rmw = rng.pick(&["rlx", "acq", "rel", "acq_rel", "sc"]);
    *value += 1;
    let v = *value;
    let line = match rng.below(16) {
        0 | 1 => format!("store({loc}, {v}, {write});"),
        2 | 3 => format!("{} = load({loc}, {read});", g.fresh()),
        4 => format!("{} = fetch_add({loc}, 1, {rmw});", g.fresh()),
        5 => format!("{} = exchange({loc}, {v}, {rmw});", g.fresh()),
        6 => {
            let expected = rng.below(3);
            format!("{} = cas({loc}, {expected}, {v}, {rmw});", g.fresh())
        }
        7 => match family {
            Family::C11 => format!("fence({});", rng.pick(&["acq", "rel", "acq_rel", "sc"])),
            Family::Hardware => format!(
                "fence({});",
                rng.pick(&["ss", "sl", "ll", "ls", "full", "sc", "acq"])
            ),
        },
        8 => {
            // A spin loop waiting for a non-zero value.
            let r = g.fresh();
            format!("{r} = load({loc}, {read}); while ({r} == 0) {{ {r} = load({loc}, {read}); }}")
        }
        9 => match g.some_reg(rng) {
            Some(r) => format!(
                "if ({r} == {}) {{ store({loc}, {v}, {write}); }}",
                rng.below(3)
            ),
            None => format!("store({loc}, {v}, {write});"),
        },
        10 => match g.some_reg(rng) {
            Some(r) => format!("assert({r} != {});", rng.below(3)),
            None => format!("{} = load({loc}, {read});", g.fresh()),
        },
        11 => match g.some_reg(rng) {
            Some(r) => format!("assume({r} != {});", 1 + rng.below(2)),
            None => format!("{} = load({loc}, {read});", g.fresh()),
        },
        12 => match g.some_reg(rng) {
            Some(r) => format!("{} = 6 / {r};", g.fresh()),
            None => format!("store({loc}, {v}, {write});"),
        },
        13 => match g.some_reg(rng) {
            // Spins locally forever when the register holds 1.
            Some(r) => format!("while ({r} == 1) {{ }}"),
            None => format!("{} = load({loc}, {read});", g.fresh()),
        },
        _ if na => {
            if rng.chance(50) {
                format!("d = {v};")
            } else {
                format!("{} = d;", g.fresh())
            }
        }
        _ => format!("{} = load({loc}, {read});", g.fresh()),
    };
    g.lines.push(line);
}

/// A random program that passes the front end (and, for the C11 family,
/// the C11 models' check).
fn random_program(rng: &mut Rng, family: Family, n: usize) -> (Program, String) {
    loop {
        let src = random_source(rng, family, n);
        let Ok(p) = relaxlab_grammar::load(&src) else {
            continue;
        };
        if family == Family::C11
            && relaxlab_grammar::check_model(&p, ModelKey::Op(OpModel::C11r)).is_err()
        {
            continue;
        }
        return (p, src);
    }
}

/// The states one exploration may store: ample for these programs; a
/// program beyond it is counted and skipped, never compared partially.
const MAX_STATES: u64 = 200_000;

fn explore_with<M: MemoryModel>(p: &Program, m: &M, reduction: Reduction) -> OutcomeTable {
    let opts = ExploreOptions {
        max_states: MAX_STATES,
        reduction,
        ..ExploreOptions::default()
    };
    explore(p, m, &opts)
}

/// Everything a table reports but its statistics and witnesses.
type Report = (
    Vec<(Vec<Value>, Option<bool>, bool, bool)>,
    Vec<FailureKind>,
    Vec<relaxlab_semantics::model::Race>,
    Vec<BoundHit>,
);

fn report(t: &OutcomeTable) -> Report {
    (
        t.rows
            .iter()
            .map(|r| (r.values.clone(), r.satisfies, r.racy, r.non_sc))
            .collect(),
        t.failures.iter().map(|f| f.kind.clone()).collect(),
        t.races.clone(),
        t.bounds.clone(),
    )
}

/// Every witness of `t` (a table of `p` under `m`) replays to what it
/// witnesses.
fn witnesses_replay<M: MemoryModel>(p: &Program, m: &M, t: &OutcomeTable) -> Result<(), String> {
    let replay = |w| replay_witness(p, m, Mapping::Standard, w);
    for row in &t.rows {
        let w = row.witness.as_ref().ok_or("a row without witness")?;
        let r = replay(w)?;
        if r.outcome.as_ref() != Some(&row.values) {
            return Err(format!("the witness of {:?} ends with {r:?}", row.values));
        }
    }
    for f in &t.failures {
        let w = f.witness.as_ref().ok_or("a failure without witness")?;
        let r = replay(w)?;
        let ok = match f.kind {
            FailureKind::Deadlock => r.failure.is_none() && r.outcome.is_none(),
            _ => r.failure.as_ref() == Some(&f.kind),
        };
        if !ok {
            return Err(format!("the witness of {:?} ends with {r:?}", f.kind));
        }
    }
    for (race, w) in t.races.iter().zip(&t.race_witnesses) {
        let r = replay(w)?;
        if !r.races.iter().any(|x| x.unordered() == *race) {
            return Err(format!("the witness of {race:?} reports {:?}", r.races));
        }
    }
    Ok(())
}

/// Outcome of comparing one program under one model.
enum Compared {
    Same {
        full: u64,
        reduced: u64,
    },
    /// Beyond [`MAX_STATES`].
    Skipped,
}

/// Full and reduced tables of `p` under `m` (with non-SC marks from the
/// SC tables `sc`, full and reduced) must agree, and the reduced witnesses
/// must replay.
fn compare<M: MemoryModel>(
    p: &Program,
    src: &str,
    m: &M,
    sc: Option<&(OutcomeTable, OutcomeTable)>,
) -> Compared {
    let mut full = explore_with(p, m, Reduction::None);
    let mut reduced = explore_with(p, m, Reduction::Por);
    if !full.complete() || !reduced.complete() {
        return Compared::Skipped;
    }
    if let Some((sc_full, sc_reduced)) = sc {
        mark_non_sc(&mut full, sc_full);
        mark_non_sc(&mut reduced, sc_reduced);
    }
    assert_eq!(
        report(&reduced),
        report(&full),
        "{}: reduced (left) and full (right) differ on\n{src}",
        m.name()
    );
    if let Err(e) = witnesses_replay(p, m, &reduced) {
        panic!("{}: {e}\n{src}", m.name());
    }
    Compared::Same {
        full: full.stats.states,
        reduced: reduced.stats.states,
    }
}

/// States explored per model, full and reduced, and programs skipped.
#[derive(Default)]
struct Tally {
    full: u64,
    reduced: u64,
    skipped: usize,
    compared: usize,
    time: std::time::Duration,
}

impl Tally {
    fn add(&mut self, c: Compared) {
        match c {
            Compared::Same { full, reduced } => {
                self.full += full;
                self.reduced += reduced;
                self.compared += 1;
            }
            Compared::Skipped => self.skipped += 1,
        }
    }
}

fn run_family(family: Family, base: u64) {
    let mut rng = Rng(seed(base));
    let names = ["sc", "tso", "pso", "pslo", "c11r", "c11t", "sc+races"];
    let mut tallies: Vec<Tally> = names.iter().map(|_| Tally::default()).collect();
    for n in 0..programs() {
        let (p, src) = random_program(&mut rng, family, n);
        let sc_full = explore_with(&p, &Sc, Reduction::None);
        let sc_reduced = explore_with(&p, &Sc, Reduction::Por);
        let sc = (sc_full, sc_reduced);
        let timed = |t: &mut Tally, f: &dyn Fn() -> Compared| {
            let clock = std::time::Instant::now();
            t.add(f());
            t.time += clock.elapsed();
        };
        timed(&mut tallies[0], &|| compare(&p, &src, &Sc, None));
        timed(&mut tallies[1], &|| compare(&p, &src, &Tso, Some(&sc)));
        timed(&mut tallies[2], &|| compare(&p, &src, &Pso, Some(&sc)));
        timed(&mut tallies[3], &|| compare(&p, &src, &Pslo, Some(&sc)));
        if family == Family::C11 {
            timed(&mut tallies[4], &|| {
                compare(&p, &src, &C11r::default(), Some(&sc))
            });
            timed(&mut tallies[5], &|| compare(&p, &src, &C11t, Some(&sc)));
            timed(&mut tallies[6], &|| compare(&p, &src, &ScRaces, None));
        }
    }
    for (name, t) in names.iter().zip(&tallies) {
        if t.compared == 0 {
            continue;
        }
        eprintln!(
            "{name}: {} programs, {} states full, {} reduced ({:.1}x), {} beyond {MAX_STATES} states; {:.1?}",
            t.compared,
            t.full,
            t.reduced,
            t.full as f64 / t.reduced.max(1) as f64,
            t.skipped,
            t.time
        );
        assert!(
            t.skipped * 100 <= programs(),
            "{name}: {} programs beyond the state bound",
            t.skipped
        );
        assert!(t.reduced < t.full, "{name}: the reduction reduces nothing");
    }
}

#[test]
fn reduced_equals_full_hardware_family() {
    run_family(Family::Hardware, 0x9e0d_0000_0000_0015);
}

#[test]
fn reduced_equals_full_c11_family() {
    run_family(Family::C11, 0xc11e_0000_0000_0015);
}

/// Programs of the dependence checks, per family: the check explores the
/// full graph and tries every pair of agents in every state.
fn check_programs() -> usize {
    (programs() / 8).max(20)
}

fn check<M: MemoryModel>(p: &Program, m: &M) -> Result<u64, String> {
    check_dependence(p, m, Mapping::Standard, 20_000).map(|c| c.pairs)
}

#[test]
fn declared_dependence_holds() {
    for (family, base) in [(Family::Hardware, 0xd5ec_0001), (Family::C11, 0xd5ec_0002)] {
        let mut rng = Rng(seed(base));
        let mut pairs = 0;
        for n in 0..check_programs() {
            let (p, src) = random_program(&mut rng, family, n);
            let fail = |name: &str, e: String| -> ! { panic!("{name}: {e}\n{src}") };
            pairs += check(&p, &Sc).unwrap_or_else(|e| fail("sc", e));
            pairs += check(&p, &Tso).unwrap_or_else(|e| fail("tso", e));
            pairs += check(&p, &Pso).unwrap_or_else(|e| fail("pso", e));
            pairs += check(&p, &Pslo).unwrap_or_else(|e| fail("pslo", e));
            if family == Family::C11 {
                pairs += check(&p, &C11r::default()).unwrap_or_else(|e| fail("c11r", e));
                pairs += check(&p, &C11t).unwrap_or_else(|e| fail("c11t", e));
                pairs += check(&p, &ScRaces).unwrap_or_else(|e| fail("sc+races", e));
            }
        }
        assert!(pairs > 0, "no pair of independent steps was checked");
    }
}

/// A model whose dependence relation is that of `M` with one mutation:
/// some steps that conflict are declared not to.
#[derive(Debug)]
struct Mutant<M> {
    inner: M,
    mutation: Mutation,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mutation {
    /// SC: a store writes no cell.
    ScStoreTouchesNothing,
    /// TSO: a load reads no cell.
    TsoLoadTouchesNothing,
    /// TSO: a buffer's commit writes no cell.
    TsoCommitTouchesNothing,
    /// PSO: an RMW touches no cell.
    PsoRmwTouchesNothing,
    /// PSLO: a history reset (`ll` barrier) reads no cell.
    PsloResetTouchesNothing,
    /// c11r: an SC fence touches no global clock.
    C11rScFenceTouchesNoClock,
    /// c11r: a non-atomic write only reads its location (its races).
    C11rNaWriteOnlyReads,
    /// c11t: an atomic load only reads its location, as under c11r.
    C11tLoadOnlyReads,
}

impl<M: MemoryModel> Mutant<M> {
    fn mutate(&self, op: &MemOp, f: Footprint) -> Footprint {
        use Mutation::*;
        match (self.mutation, op) {
            (ScStoreTouchesNothing, MemOp::Store { .. }) => Footprint::NONE,
            (TsoLoadTouchesNothing, MemOp::Load { .. }) => Footprint::NONE,
            (PsoRmwTouchesNothing, MemOp::Rmw { .. } | MemOp::Cas { .. }) => Footprint::NONE,
            (PsloResetTouchesNothing, MemOp::Fence { .. }) => Footprint::NONE,
            (
                C11rScFenceTouchesNoClock,
                MemOp::Fence {
                    kind: FenceKind::C11(C11Fence::Sc),
                },
            ) => Footprint::NONE,
            (C11rNaWriteOnlyReads, MemOp::Store { loc, .. }) if f.clocks == 0 => {
                Footprint::read(*loc)
            }
            (C11tLoadOnlyReads, MemOp::Load { loc, ord }) => {
                let clocks = if *ord == ReadOrd::Sc {
                    Footprint::READS_SF
                } else {
                    0
                };
                Footprint::read(*loc).with_clocks(clocks)
            }
            _ => f,
        }
    }
}

impl<M: MemoryModel> MemoryModel for Mutant<M> {
    type State = M::State;
    type Consing = M::Consing;
    fn hash_cons(&self, s: &mut M::State, tables: &M::Consing) {
        self.inner.hash_cons(s, tables)
    }
    fn model(&self) -> relaxlab_semantics::ir::OpModel {
        self.inner.model()
    }
    fn initial(&self, program: &Program) -> M::State {
        self.inner.initial(program)
    }
    fn perform(&self, s: &M::State, site: Site, op: MemOp, out: &mut Vec<Step<M::State>>) {
        self.inner.perform(s, site, op, out)
    }
    fn internal(&self, s: &M::State, out: &mut Vec<(M::State, Event)>) {
        self.inner.internal(s, out)
    }
    fn settled(&self, s: &M::State) -> bool {
        self.inner.settled(s)
    }
    fn final_value(&self, s: &M::State, loc: LocId) -> Value {
        self.inner.final_value(s, loc)
    }
    fn target(&self) -> Option<Target> {
        self.inner.target()
    }
    const FORGETS: bool = M::FORGETS;
    fn forget(&self, s: &M::State, t: ThreadId, may_load: &[bool]) -> Option<M::State> {
        self.inner.forget(s, t, may_load)
    }
    const DECLARES_DEPENDENCE: bool = true;
    fn footprint(&self, s: &M::State, t: ThreadId, op: &MemOp) -> Footprint {
        self.mutate(op, self.inner.footprint(s, t, op))
    }
    fn future_footprint(&self, op: &MemOp) -> Footprint {
        self.mutate(op, self.inner.future_footprint(op))
    }
    fn internal_agents(&self, s: &M::State, out: &mut Vec<InternalAgent>) {
        let start = out.len();
        self.inner.internal_agents(s, out);
        if self.mutation == Mutation::TsoCommitTouchesNothing {
            for a in &mut out[start..] {
                a.now = Footprint::NONE;
                a.later = Footprint::NONE;
            }
        }
    }
}

/// Programs tried first for a mutation, before random ones: the pair of
/// steps it declares independent rarely meets in random programs.
const TARGETED: &[(Mutation, &str)] = &[(
    // A has seen x = 2 (through g) and may read x = 1, which puts 2
    // mo-before 1; B has seen x = 1 (through f) and may read x = 2, which
    // puts 1 mo-before 2. Whichever loads first forbids the other's choice.
    Mutation::C11tLoadOnlyReads,
    "test c11t-loads
init { x = 0; f = 0; g = 0; }
thread C { store(x, 1, rlx); store(f, 1, rel); }
thread D { store(x, 2, rlx); store(g, 1, rel); }
thread A { r0 = load(g, acq); r1 = load(x, rlx); }
thread B { r0 = load(f, acq); r1 = load(x, rlx); }
",
)];

/// Does a mutant of `inner` fail the dependence check, and does its
/// reduced search differ from the full one, on some of `n` programs of
/// `family`? Returns (caught by the check, caught by the comparison).
fn catches<M: MemoryModel + Clone>(
    inner: M,
    mutation: Mutation,
    family: Family,
    observable: bool,
) -> (bool, bool) {
    let n = 400;
    let mutant = Mutant {
        inner: inner.clone(),
        mutation,
    };
    let mut rng = Rng(0x3a7a_0000 ^ mutation as u64);
    let (mut by_check, mut by_compare) = (false, false);
    let targeted: Vec<Program> = TARGETED
        .iter()
        .filter(|(m, _)| *m == mutation)
        .map(|(_, src)| relaxlab_grammar::load(src).expect("a targeted program loads"))
        .collect();
    for i in 0..n {
        let p = match targeted.get(i) {
            Some(p) => p.clone(),
            None => random_program(&mut rng, family, i).0,
        };
        if !by_check {
            by_check = check(&p, &mutant).is_err();
        }
        if observable && !by_compare {
            let full = explore_with(&p, &inner, Reduction::None);
            let reduced = explore_with(&p, &mutant, Reduction::Por);
            by_compare = full.complete() && reduced.complete() && report(&full) != report(&reduced);
        }
        if by_check && (by_compare || !observable) {
            eprintln!("{mutation:?}: {} programs", i + 1);
            break;
        }
    }
    (by_check, by_compare)
}

/// Each mutation declares two dependent steps independent. The dependence
/// check must catch every one. The comparison of reduced and full tables
/// must catch those whose pruned interleavings change what is reported;
/// three cannot: an `ll` reset taken before a publication instead of after
/// only leaves a longer history (more values to read, never fewer); and
/// `c11r` and `c11t` reach every consistent execution by any interleaving
/// that linearises `hb ∪ sc ∪ rf` (module docs of `c11t`), so forcing one
/// order of two SC fences, or of two loads of one location, loses states
/// but no outcome.
#[test]
fn mutated_dependence_is_caught() {
    use Mutation::*;
    let results = [
        (
            ScStoreTouchesNothing,
            catches(Sc, ScStoreTouchesNothing, Family::Hardware, true),
            true,
        ),
        (
            TsoLoadTouchesNothing,
            catches(Tso, TsoLoadTouchesNothing, Family::Hardware, true),
            true,
        ),
        (
            TsoCommitTouchesNothing,
            catches(Tso, TsoCommitTouchesNothing, Family::Hardware, true),
            true,
        ),
        (
            PsoRmwTouchesNothing,
            catches(Pso, PsoRmwTouchesNothing, Family::Hardware, true),
            true,
        ),
        (
            PsloResetTouchesNothing,
            catches(Pslo, PsloResetTouchesNothing, Family::Hardware, false),
            false,
        ),
        (
            C11rScFenceTouchesNoClock,
            catches(
                C11r::default(),
                C11rScFenceTouchesNoClock,
                Family::C11,
                false,
            ),
            false,
        ),
        (
            C11rNaWriteOnlyReads,
            catches(C11r::default(), C11rNaWriteOnlyReads, Family::C11, true),
            true,
        ),
        (
            C11tLoadOnlyReads,
            catches(C11t, C11tLoadOnlyReads, Family::C11, false),
            false,
        ),
    ];
    for (mutation, (by_check, by_compare), observable) in results {
        eprintln!("{mutation:?}: caught by the check: {by_check}; by the comparison: {by_compare}");
        assert!(by_check, "{mutation:?}: the dependence check misses it");
        assert!(
            by_compare || !observable,
            "{mutation:?}: the comparison of reduced and full tables misses it"
        );
    }
}

/// Found by the long run (`.ci/long-por`, C11 family, seeds 4 and 7): a
/// race is reported only if some execution through its move survives
/// every `assume` (`operational::doomed`). In R1883 the racing read
/// followed by a false `assume` in the same move is on no execution, but
/// the race is real through other interleavings. In R1426 every execution
/// making the race is discarded later: P1's read of `d` sees 1 after P0's
/// write (and fails its `assume`), or sees 0 before it and fails at once
/// on `6 / r0`, ending the execution before P0 writes `d`. `disc` and
/// `later` are discarded at the racing move and at a later move.
#[test]
fn a_race_is_reported_only_if_an_execution_through_it_survives() {
    let found = [
        (
            "test R1883\ninit { x = 0; y = 0; d = 0; }\n\
          thread P0 { store(x, 1, rlx); d = 2; store(x, 3, rel); r0 = cas(y, 2, 4, sc); }\n\
          thread P1 { r0 = load(x, sc); r1 = d; assume(r0 != 1); r2 = exchange(x, 8, rel); }\n",
            1,
        ),
        (
            "test R1426\ninit { x = 0; y = 0; z = 0; d = 0; }\n\
          thread P0 { d = 1; store(x, 2, sc); store(z, 3, sc); r0 = load(y, sc); }\n\
          thread P1 { r0 = d; assume(r0 != 1); r1 = 6 / r0; }\n\
          thread P2 { store(z, 8, rlx); r0 = d; }\n",
            0,
        ),
        (
            "test disc\ninit { d = 0; }\nthread P0 { d = 2; }\n\
          thread P1 { r0 = d; assume(r0 == 7); }\n",
            0,
        ),
        (
            "test later\ninit { x = 0; d = 0; }\nthread P0 { d = 2; }\n\
          thread P1 { r0 = d; r1 = load(x, rlx); assume(r1 == 7); }\n",
            0,
        ),
        // The same race, and a filter that keeps some final states.
        (
            "test kept\ninit { x = 0; d = 0; }\nthread P0 { d = 2; store(x, 1, rlx); }\n\
          thread P1 { r0 = d; r1 = load(x, rlx); }\nfilter (P1:r1 == 1)\n",
            1,
        ),
        // A filter that keeps no final state discards every execution.
        (
            "test filtered\ninit { x = 0; d = 0; }\nthread P0 { d = 2; }\n\
          thread P1 { r0 = d; r1 = load(x, rlx); }\nfilter (P1:r1 == 1)\n",
            0,
        ),
        // A spin loop that never exits is an execution (racy), though every
        // path out of it is discarded.
        (
            "test spin\ninit { x = 0; d = 0; }\nthread P0 { d = 2; }\n\
          thread P1 { r0 = d; r1 = load(x, rlx); while (r1 == 0) { r1 = load(x, rlx); } assume(r1 == 7); }\n",
            1,
        ),
    ];
    for (src, races) in found {
        let p = relaxlab_grammar::load(src).expect("parses");
        for c in [
            compare(&p, src, &C11r::default(), None),
            compare(&p, src, &C11t, None),
            compare(&p, src, &ScRaces, None),
        ] {
            assert!(matches!(c, Compared::Same { .. }), "{src}");
        }
        for reduction in [Reduction::None, Reduction::Por] {
            let t = explore_with(&p, &C11r::default(), reduction);
            assert_eq!(t.races.len(), races, "{reduction:?}:\n{src}");
            assert_eq!(
                explore_with(&p, &C11t, reduction).races.len(),
                races,
                "{src}"
            );
            assert_eq!(
                explore_with(&p, &ScRaces, reduction).races.len(),
                races,
                "{src}"
            );
        }
    }
}

/// Budget polls made so far, and how many return "within budget"
/// ([`a_cut_short_confirmation_still_lists_a_race_for_every_racy_row`]).
static POLLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static POLLS_ALLOWED: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(usize::MAX);

/// A memory probe that reports nothing used for the allowed number of
/// polls, then everything: the search or the race confirmation stops at a
/// chosen poll, as at a Ctrl-C.
fn counting_probe() -> Option<u64> {
    use std::sync::atomic::Ordering::SeqCst;
    let k = POLLS.fetch_add(1, SeqCst) + 1;
    Some(if k > POLLS_ALLOWED.load(SeqCst) {
        u64::MAX
    } else {
        0
    })
}

/// Cut at every budget poll, through the search and the race confirmation
/// of a program with a filter or an `assume`: the result is partial, every
/// race it lists is one the full run lists, and every row it marks `racy`
/// has a race listed (the races on the way to its witness).
#[test]
fn a_cut_short_confirmation_still_lists_a_race_for_every_racy_row() {
    use relaxlab_semantics::budget::{Budget, MemoryCeiling};
    use std::sync::atomic::Ordering::SeqCst;
    let srcs = [
        "test kept\ninit { x = 0; d = 0; }\nthread P0 { d = 2; store(x, 1, rlx); }\n\
         thread P1 { r0 = d; r1 = load(x, rlx); }\nfilter (P1:r1 == 1)\n",
        "test R1883\ninit { x = 0; y = 0; d = 0; }\n\
         thread P0 { store(x, 1, rlx); d = 2; store(x, 3, rel); r0 = cas(y, 2, 4, sc); }\n\
         thread P1 { r0 = load(x, sc); r1 = d; assume(r0 != 1); r2 = exchange(x, 8, rel); }\n",
    ];
    let run = |p: &Program, allowed: usize| {
        POLLS.store(0, SeqCst);
        POLLS_ALLOWED.store(allowed, SeqCst);
        let opts = ExploreOptions {
            reduction: Reduction::None,
            budget: Budget {
                memory: Some(MemoryCeiling {
                    bytes: 1.into(),
                    baseline: 0,
                    probe: counting_probe,
                }),
                ..Budget::default()
            },
            ..ExploreOptions::default()
        };
        let t = explore(p, &C11r::default(), &opts);
        (t, POLLS.load(SeqCst))
    };
    let mut cuts_with_racy_rows = 0;
    for src in srcs {
        let p = relaxlab_grammar::load(src).expect("parses");
        let (full, polls) = run(&p, usize::MAX);
        assert!(full.bounds.is_empty() && !full.races.is_empty(), "{src}");
        for allowed in 0..polls {
            let (t, _) = run(&p, allowed);
            assert!(!t.bounds.is_empty(), "cut at poll {allowed}:\n{src}");
            for race in &t.races {
                assert!(
                    full.races.contains(race),
                    "cut at poll {allowed} lists a race the full run does not:\n{src}"
                );
            }
            if t.rows.iter().any(|r| r.racy) {
                cuts_with_racy_rows += 1;
                assert!(
                    !t.races.is_empty(),
                    "cut at poll {allowed}: a racy row and no race listed:\n{src}"
                );
            }
        }
    }
    assert!(cuts_with_racy_rows > 0, "no cut left a racy row to check");
}
