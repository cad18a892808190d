//! Criterion benchmark of exhaustive exploration on programs with 10^5 to
//! 10^6 states, with 1 and 2 worker threads. Throughput is reported in
//! states per second (criterion's "elements").

mod op_workload;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use relaxlab_semantics::ir::OpModel;
use relaxlab_semantics::operational::{explore_model, ExploreOptions};

fn bench(c: &mut Criterion) {
    // (model, threads, ops per thread, locations)
    let cases = [
        (OpModel::Tso, 4, 2, 1),
        (OpModel::Pso, 4, 2, 1),
        (OpModel::Pslo, 4, 2, 1),
    ];
    let mut group = c.benchmark_group("explore");
    group.sample_size(10);
    for (model, threads, ops, locs) in cases {
        let program = op_workload::ring(threads, ops, locs);
        let opts = ExploreOptions::default();
        let states = explore_model(&program, model, &opts).stats.states;
        group.throughput(Throughput::Elements(states));
        for pool_size in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(pool_size)
                .build()
                .expect("pool");
            let name = format!(
                "{}/{threads}x{ops}/{states}states/{pool_size}threads",
                model.name()
            );
            group.bench_function(name, |b| {
                b.iter(|| pool.install(|| explore_model(&program, model, &opts)))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
