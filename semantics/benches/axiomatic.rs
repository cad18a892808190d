//! Criterion benchmark of the axiomatic engine: the classic litmus tests
//! (SB, MP, IRIW, 2+2W, and a three-thread RMW test) under every axiomatic
//! model. Throughput is candidate executions per second (criterion's
//! "elements"); the time per iteration is the time per test.

#[path = "../tests/it/ax_builder/mod.rs"]
mod ax_builder;

use ax_builder::*;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use relaxlab_semantics::axiomatic::{run_axiomatic, AxOptions};
use relaxlab_semantics::ir::{AxModel, Program, RmwOp, RmwOrd};

fn tests() -> Vec<(&'static str, Program)> {
    let sb = program("SB", &["x", "y"])
        .thread("P0", |t| {
            t.store("x", 1, SRlx).load("r0", "y", LRlx);
        })
        .thread("P1", |t| {
            t.store("y", 1, SRlx).load("r0", "x", LRlx);
        })
        .exists(&[("P0", "r0", 0), ("P1", "r0", 0)]);
    let mp = program("MP", &["x", "y"])
        .thread("P0", |t| {
            t.store("x", 1, SRlx).store("y", 1, SRel);
        })
        .thread("P1", |t| {
            t.load("r0", "y", LAcq).load("r1", "x", LRlx);
        })
        .exists(&[("P1", "r0", 1), ("P1", "r1", 0)]);
    let iriw = program("IRIW", &["x", "y"])
        .thread("P0", |t| {
            t.store("x", 1, SSc);
        })
        .thread("P1", |t| {
            t.store("y", 1, SSc);
        })
        .thread("P2", |t| {
            t.load("r0", "x", LSc).load("r1", "y", LSc);
        })
        .thread("P3", |t| {
            t.load("r0", "y", LSc).load("r1", "x", LSc);
        })
        .exists(&[
            ("P2", "r0", 1),
            ("P2", "r1", 0),
            ("P3", "r0", 1),
            ("P3", "r1", 0),
        ]);
    let w22 = program("2+2W", &["x", "y"])
        .thread("P0", |t| {
            t.store("x", 1, SRlx).store("y", 2, SRlx);
        })
        .thread("P1", |t| {
            t.store("y", 1, SRlx).store("x", 2, SRlx);
        })
        .exists(&[("", "x", 1), ("", "y", 1)]);
    let rmw3 = program("3xFAA", &["x", "y"])
        .thread("P0", |t| {
            t.rmw("r0", "x", RmwOp::Add, 1, RmwOrd::AcqRel)
                .store("y", 1, SRlx);
        })
        .thread("P1", |t| {
            t.rmw("r0", "x", RmwOp::Add, 1, RmwOrd::Rlx)
                .load("r1", "y", LRlx);
        })
        .thread("P2", |t| {
            t.rmw("r0", "x", RmwOp::Add, 1, RmwOrd::Sc)
                .store("y", 2, SRlx);
        })
        .exists(&[("", "x", 3)]);
    vec![
        ("SB", sb),
        ("MP", mp),
        ("IRIW", iriw),
        ("2+2W", w22),
        ("3xFAA", rmw3),
    ]
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("axiomatic");
    group.sample_size(20);
    let opts = AxOptions::default();
    for (name, program) in tests() {
        for model in AxModel::ALL {
            let candidates = run_axiomatic(&program, model, &opts)
                .map(|t| t.stats.states)
                .unwrap_or(0);
            group.throughput(Throughput::Elements(candidates));
            let id = format!("{name}/ax.{}/{candidates}cand", model.name());
            group.bench_function(id, |b| b.iter(|| run_axiomatic(&program, model, &opts)));
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
