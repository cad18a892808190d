//! Parses and lowers about 1 MB of litmus text: one test with many threads
//! mixing every kind of statement (generated, varied by thread number).
//! Target: under 50 ms.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// A test of `threads` threads, each about 500 bytes.
pub fn big_test(threads: usize) -> String {
    let mut src = String::from(
        "test bench+1MB \"generated\"\n\ninit { x = 0; y = 0; z = 0; w = 0; flag = 0; }\n\n",
    );
    for t in 0..threads {
        let (a, b) = if t % 2 == 0 { ("x", "y") } else { ("y", "x") };
        src.push_str(&format!(
            "thread P{t} {{\n  // thread {t}\n  store({a}, {t}, rel);\n  r0 = load({b}, acq);\n  \
             r1 = fetch_add(z, r0 + {t}, acq_rel);\n  r2 = cas(w, 0, {t}, sc);\n  fence(sc);\n  \
             if (r0 == 1 && r1 != 0) {{\n    store(flag, 1, rlx);\n  }} else if (r2 > 3) {{\n    \
             r3 = r2 * 2 - (r1 << 1);\n  }} else {{\n    r3 = -1;\n  }}\n  \
             while (r0 == 0) {{\n    r0 = load(flag, acq);\n  }}\n  assert(r3 >= -1);\n  \
             r4 = rmw({a}, max, 0x{t:x}, rlx);\n}}\n\n"
        ));
    }
    src.push_str("exists (P0:r0 = 0 /\\ P1:r0 = 0 \\/ x = 1)\n");
    src.push_str("expect { sc: never; tso: sometimes; ax.rc11: sometimes; }\n");
    src
}

fn bench(c: &mut Criterion) {
    let src = big_test(2100);
    assert!(
        relaxlab_grammar::load(&src).is_ok(),
        "the generated test loads"
    );
    let mut g = c.benchmark_group("parse");
    g.throughput(Throughput::Bytes(src.len() as u64));
    g.sample_size(20);
    g.bench_function(format!("load {} KB", src.len() / 1024), |b| {
        b.iter(|| relaxlab_grammar::load(std::hint::black_box(&src)))
    });
    g.bench_function("parse only", |b| {
        b.iter(|| relaxlab_grammar::parse(std::hint::black_box(&src)))
    });
    let ast = relaxlab_grammar::parse(&src).expect("parses");
    g.bench_function("lower only", |b| {
        b.iter(|| relaxlab_grammar::lower(std::hint::black_box(&ast)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
