//! The random loop-free programs of the differential and lift tests
//! (issue 7): 2-4 threads of 1-4 operations over 2-3 locations, at most
//! [`MAX_OPS`] operations in all, every order, RMWs, CAS, C11 fences and
//! (for the hardware models) barriers. One generator, so every test that
//! draws from the same seed checks the same programs.

use relaxlab_semantics::ir::{
    C11Fence, FenceKind, HwFence, LocId, Observable, Program, ReadOrd, RegId, RmwOp, RmwOrd,
    ThreadId, Value, WriteOrd,
};

use super::program;

/// The size of a random campaign: `quick` in the README's test command,
/// `full` when `RELAXLAB_CAMPAIGN=full` (`.ci/long-campaigns`, the sizes
/// every commit's CI once ran). The same test code either way.
pub fn campaign(quick: usize, full: usize) -> usize {
    match std::env::var("RELAXLAB_CAMPAIGN").as_deref() {
        Ok("full") => full,
        _ => quick,
    }
}

/// Programs per test: 250 in release builds (2,000 with
/// `RELAXLAB_CAMPAIGN=full`), 100 in debug builds;
/// `RELAXLAB_DIFF_PROGRAMS=N` sets it for long runs.
pub fn diff_programs() -> usize {
    std::env::var("RELAXLAB_DIFF_PROGRAMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) {
            100
        } else {
            campaign(250, 2000)
        })
}

/// The largest program the generator makes, in operations: four threads
/// of four operations each have up to 16 events, whose candidate executions
/// can number millions; 10 keeps 2,000 programs within CI's time.
pub const MAX_OPS: usize = 10;

/// The generator's seed: `base`, or for long runs split into chunks
/// `base` mixed with `RELAXLAB_DIFF_SEED=K` (another fixed sequence of
/// programs per K).
pub fn diff_seed(base: u64) -> u64 {
    match std::env::var("RELAXLAB_DIFF_SEED")
        .ok()
        .and_then(|k| k.parse::<u64>().ok())
    {
        Some(k) => base ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
        None => base,
    }
}

/// xorshift64*: a fixed-seed generator, so every run checks the same
/// programs.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

/// A random program: 2-4 threads of 1-4 operations over 2-3 locations
/// (`x`, `y`, `z`), at most [`MAX_OPS`] operations in all, with every
/// order, RMWs, CAS and C11 fences; hardware barriers when `hw`.
pub fn random_program(rng: &mut Rng, hw_fences: bool) -> Program {
    let threads = 2 + rng.below(3) as usize;
    let locs: &[&str] = if rng.below(2) == 0 {
        &["x", "y"]
    } else {
        &["x", "y", "z"]
    };
    let mut b = program("random", locs);
    let mut value = 0;
    let sizes = loop {
        let sizes: Vec<usize> = (0..threads).map(|_| 1 + rng.below(4) as usize).collect();
        if sizes.iter().sum::<usize>() <= MAX_OPS {
            break sizes;
        }
    };
    for (t, ops) in sizes.into_iter().enumerate() {
        let mut choices = Vec::new();
        for _ in 0..ops {
            value += 1;
            choices.push((rng.below(if hw_fences { 6 } else { 5 }), rng.next(), value));
        }
        b = b.thread(&format!("P{t}"), |tb| {
            for (i, (kind, r, v)) in choices.into_iter().enumerate() {
                let mut rng = Rng(r | 1);
                let loc = rng.pick(locs);
                let reg = format!("r{i}");
                match kind {
                    0 => {
                        tb.store(
                            loc,
                            v,
                            rng.pick(&[WriteOrd::Rlx, WriteOrd::Rel, WriteOrd::Sc]),
                        );
                    }
                    1 => {
                        tb.load(
                            &reg,
                            loc,
                            rng.pick(&[ReadOrd::Rlx, ReadOrd::Acq, ReadOrd::Sc]),
                        );
                    }
                    2 => {
                        let ord = rng.pick(&[
                            RmwOrd::Rlx,
                            RmwOrd::Acq,
                            RmwOrd::Rel,
                            RmwOrd::AcqRel,
                            RmwOrd::Sc,
                        ]);
                        let op = rng.pick(&[RmwOp::Add, RmwOp::Xchg]);
                        tb.rmw(&reg, loc, op, v, ord);
                    }
                    3 => {
                        let ord = rng.pick(&[RmwOrd::Rlx, RmwOrd::AcqRel, RmwOrd::Sc]);
                        let expected = rng.below(3) as Value;
                        tb.cas(&reg, loc, expected, v, ord);
                    }
                    4 => {
                        let k = rng.pick(&[
                            C11Fence::Acq,
                            C11Fence::Rel,
                            C11Fence::AcqRel,
                            C11Fence::Sc,
                        ]);
                        tb.fence(FenceKind::C11(k));
                    }
                    _ => {
                        let k = rng.pick(&[
                            HwFence::SS,
                            HwFence::SL,
                            HwFence::LL,
                            HwFence::LS,
                            HwFence::Full,
                        ]);
                        tb.fence(FenceKind::Hw(k));
                    }
                }
            }
        });
    }
    let mut p = b.exists(&[]);
    p.condition = None;
    p.observed = Vec::new();
    for (t, th) in p.threads.iter().enumerate() {
        for r in 0..th.regs.len() {
            p.observed
                .push(Observable::Reg(ThreadId::new(t), RegId::new(r)));
        }
    }
    for l in 0..p.locations.len() {
        p.observed.push(Observable::Loc(LocId::new(l)));
    }
    p
}

/// The program's threads, one line each, for failure messages.
pub fn describe(p: &Program) -> String {
    p.threads
        .iter()
        .map(|t| {
            let code: Vec<String> = t.code.iter().map(|i| format!("{:?}", i.instr)).collect();
            format!("{}: {}", t.name, code.join("; "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A random program whose control flow and stored values follow what it
/// reads, for the tests of the engine's splitting of candidates (free and
/// observer reads): 2-4 threads over the atomic `x`, `y` and the
/// non-atomic `a`, at most [`MAX_OPS`] operations in all. Besides the
/// operations of [`random_program`] (no hardware barriers): `if (r == v)`
/// around a store, stores of a loaded register, non-atomic accesses,
/// assertions; some programs have a `filter`.
pub fn random_branching_program(rng: &mut Rng) -> Program {
    let threads = 2 + rng.below(3) as usize;
    let mut b = program("branching", &["x", "y", "a"]).non_atomic("a");
    let mut value = 0;
    let sizes = loop {
        let sizes: Vec<usize> = (0..threads).map(|_| 1 + rng.below(4) as usize).collect();
        if sizes.iter().sum::<usize>() <= MAX_OPS {
            break sizes;
        }
    };
    for (t, ops) in sizes.into_iter().enumerate() {
        let mut choices = Vec::new();
        for _ in 0..ops {
            value += 1;
            choices.push((rng.below(9), rng.next(), value));
        }
        b = b.thread(&format!("P{t}"), |tb| {
            let mut loaded: Vec<String> = Vec::new();
            for (i, (kind, r, v)) in choices.into_iter().enumerate() {
                let mut rng = Rng(r | 1);
                let loc = rng.pick(&["x", "y"]);
                let reg = format!("r{i}");
                let wo = rng.pick(&[WriteOrd::Rlx, WriteOrd::Rel, WriteOrd::Sc]);
                let ro = rng.pick(&[ReadOrd::Rlx, ReadOrd::Rlx, ReadOrd::Acq, ReadOrd::Sc]);
                match kind {
                    0 => {
                        tb.store(loc, v, wo);
                    }
                    1 | 2 => {
                        tb.load(&reg, loc, ro);
                        loaded.push(reg);
                    }
                    3 => {
                        // A branch on a value read earlier, or just read.
                        let on = match loaded.last() {
                            Some(r) if rng.below(2) == 0 => r.clone(),
                            _ => {
                                tb.load(&reg, loc, ro);
                                reg.clone()
                            }
                        };
                        let target = rng.pick(&["x", "y"]);
                        let expect = rng.below(3) as Value;
                        tb.if_eq(&on, expect, |tb| {
                            tb.store(target, v, wo);
                        });
                    }
                    4 => match loaded.last() {
                        Some(r) => {
                            tb.store_reg(loc, &r.clone(), wo);
                        }
                        None => {
                            tb.store(loc, v, wo);
                        }
                    },
                    5 => {
                        if rng.below(2) == 0 {
                            tb.store("a", v, WriteOrd::Na);
                        } else {
                            tb.load(&reg, "a", ReadOrd::Na);
                            loaded.push(reg);
                        }
                    }
                    6 => {
                        let ord = rng.pick(&[RmwOrd::Rlx, RmwOrd::AcqRel, RmwOrd::Sc]);
                        if rng.below(2) == 0 {
                            tb.rmw(&reg, loc, RmwOp::Add, v, ord);
                        } else {
                            tb.cas(&reg, loc, rng.below(3) as Value, v, ord);
                        }
                        loaded.push(reg);
                    }
                    7 => {
                        let k = rng.pick(&[
                            C11Fence::Acq,
                            C11Fence::Rel,
                            C11Fence::AcqRel,
                            C11Fence::Sc,
                        ]);
                        tb.fence(FenceKind::C11(k));
                    }
                    _ => match loaded.last() {
                        Some(r) => {
                            tb.assert_eq(&r.clone(), rng.below(3) as Value);
                        }
                        None => {
                            tb.load(&reg, loc, ro);
                        }
                    },
                }
            }
        });
    }
    let mut p = b.exists(&[]);
    p.condition = None;
    p.observed = Vec::new();
    for (t, th) in p.threads.iter().enumerate() {
        for r in 0..th.regs.len() {
            p.observed
                .push(Observable::Reg(ThreadId::new(t), RegId::new(r)));
        }
    }
    for l in 0..p.locations.len() {
        p.observed.push(Observable::Loc(LocId::new(l)));
    }
    if rng.below(4) == 0 {
        // A filter on the first location: keeps some outcomes only.
        p.filter = Some(relaxlab_semantics::ir::Prop::Atom(
            Observable::Loc(LocId::new(0)),
            relaxlab_semantics::ir::CmpOp::Ne,
            0,
        ));
    }
    p
}
