//! The cost of cat evaluation: `cat/rc11.cat` against the hand-written
//! `ax.rc11`, on every litmus test of the library that RC11 applies to
//! (loop-free, passing the C11 check), measured in one process.
//!
//! Each round times both engines on every test (in alternating order from
//! one round to the next) and takes their ratio; the report gives the
//! median ratio and its spread over the rounds, for the library's small
//! tests (each run 20 times per round) and for its benchmark tests
//! (`litmus/bench/`, each run once per round). `cargo bench --bench cat`
//! runs 5 rounds (`RELAXLAB_CAT_ROUNDS=N` to change); run as a test, one
//! quick round on the small tests.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use relaxlab_grammar::cat::{compile, CatLoader, Loaded, NotFound};
use relaxlab_semantics::axiomatic::cat::CatModel;
use relaxlab_semantics::axiomatic::{run_axiomatic, run_cat, AxOptions};
use relaxlab_semantics::ir::{AxModel, ModelKey, Program};

struct Dir(PathBuf);

impl CatLoader for Dir {
    fn load(&mut self, name: &str, _: &str) -> Result<Loaded, NotFound> {
        let path = self.0.join(name);
        std::fs::read_to_string(&path)
            .map(|text| Loaded {
                key: path.display().to_string(),
                display: name.to_string(),
                text,
            })
            .map_err(|_| NotFound { searched: vec![] })
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rc11() -> Arc<CatModel> {
    let dir = root().join("cat");
    let text = std::fs::read_to_string(dir.join("rc11.cat")).expect("cat/rc11.cat");
    let root = Loaded {
        key: "rc11.cat".into(),
        display: "cat/rc11.cat".into(),
        text,
    };
    compile(root, "rc11", &mut Dir(dir))
        .expect("cat/rc11.cat compiles")
        .model
}

fn litmus(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("litmus/").flatten() {
        let p = entry.path();
        if p.is_dir() {
            litmus(&p, out);
        } else if p.extension().is_some_and(|e| e == "litmus") {
            out.push(p);
        }
    }
}

/// The library's RC11 programs: (small tests, benchmark tests).
fn programs() -> (Vec<Program>, Vec<Program>) {
    let mut paths = Vec::new();
    litmus(&root().join("litmus"), &mut paths);
    paths.sort();
    let (mut small, mut big) = (Vec::new(), Vec::new());
    for p in paths {
        let text = std::fs::read_to_string(&p).expect("readable");
        let text = match relaxlab_grammar::herd::detect(&text) {
            relaxlab_grammar::herd::Dialect::Relaxlab => text,
            _ => match relaxlab_grammar::herd::translate(&text) {
                Ok(t) => t,
                Err(_) => continue,
            },
        };
        let Ok(program) = relaxlab_grammar::load(&text) else {
            continue;
        };
        if program.has_loops()
            || relaxlab_grammar::check_model(&program, ModelKey::Ax(AxModel::Rc11)).is_err()
        {
            continue;
        }
        if p.components().any(|c| c.as_os_str() == "bench") {
            big.push(program);
        } else {
            small.push(program);
        }
    }
    (small, big)
}

/// The time of `reps` runs of every program under one engine.
fn time(programs: &[Program], reps: usize, cat: Option<&Arc<CatModel>>) -> Duration {
    let opts = AxOptions::default();
    let start = Instant::now();
    for _ in 0..reps {
        for p in programs {
            let t = match cat {
                Some(m) => run_cat(p, m, &opts),
                None => run_axiomatic(p, AxModel::Rc11, &opts),
            };
            std::hint::black_box(t.ok());
        }
    }
    start.elapsed()
}

/// Rounds of both engines; per round (hand-written time, cat time).
fn rounds(
    programs: &[Program],
    reps: usize,
    n: usize,
    cat: &Arc<CatModel>,
) -> Vec<(Duration, Duration)> {
    (0..n)
        .map(|round| {
            if round % 2 == 0 {
                let hand = time(programs, reps, None);
                (hand, time(programs, reps, Some(cat)))
            } else {
                let c = time(programs, reps, Some(cat));
                (time(programs, reps, None), c)
            }
        })
        .collect()
}

fn report(what: &str, count: usize, rounds: &[(Duration, Duration)]) {
    let mut ratios: Vec<f64> = rounds
        .iter()
        .map(|(h, c)| c.as_secs_f64() / h.as_secs_f64())
        .collect();
    ratios.sort_by(|a, b| a.total_cmp(b));
    let median = ratios[ratios.len() / 2];
    let hand: Vec<String> = rounds
        .iter()
        .map(|(h, _)| format!("{:.3}", h.as_secs_f64()))
        .collect();
    let cat: Vec<String> = rounds
        .iter()
        .map(|(_, c)| format!("{:.3}", c.as_secs_f64()))
        .collect();
    println!(
        "{what} ({count} tests): cat/rc11.cat / ax.rc11 = {median:.2} (median of {} rounds; min {:.2}, max {:.2})",
        ratios.len(),
        ratios[0],
        ratios[ratios.len() - 1]
    );
    println!("  ax.rc11 seconds per round:      {}", hand.join(" "));
    println!("  cat/rc11.cat seconds per round: {}", cat.join(" "));
}

fn main() {
    let benching = std::env::args().any(|a| a == "--bench");
    let n: usize = std::env::var("RELAXLAB_CAT_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let cat = rc11();
    let (small, big) = programs();
    if !benching {
        let r = rounds(&small, 1, 1, &cat);
        report("library, quick check", small.len(), &r);
        return;
    }
    report("library tests", small.len(), &rounds(&small, 20, n, &cat));
    report("benchmark tests", big.len(), &rounds(&big, 1, n, &cat));
}
