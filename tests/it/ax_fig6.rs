//! The fig6-shaped herd C benchmarks (`litmus/bench/c11-fig6`, issue 20):
//! the engine's split candidates (free reads, observer reads, SC marks from
//! the observer graph) give exactly the tables of the whole enumeration,
//! under every C11 model; and `relaxlab bench --axiomatic` measures them,
//! candidates enumerated against consistent.

use crate::support;

use crate::support::relaxlab;
use relaxlab_semantics::axiomatic::{run_axiomatic, run_axiomatic_whole, AxOptions};
use relaxlab_semantics::ir::AxModel;

#[test]
fn split_equals_whole_on_the_fig6_shapes() {
    let files = support::litmus_files("litmus/bench/c11-fig6");
    assert!(files.len() >= 4);
    for path in files {
        let file = relaxlab::files::read(&path).unwrap();
        let program = relaxlab::load::program(&file).unwrap();
        for m in [AxModel::Rc11, AxModel::C11, AxModel::C11r, AxModel::C11t] {
            let opts = AxOptions::default();
            let split = run_axiomatic(&program, m, &opts).unwrap();
            let whole = run_axiomatic_whole(&program, m, &opts).unwrap();
            assert!(split.complete(), "{}", path.display());
            assert_eq!(split, whole, "{} under {}", path.display(), m.name());
        }
    }
}

#[test]
fn bench_axiomatic_reports_candidates_against_consistent() {
    let (code, out, err) = relaxlab(&[
        "bench",
        "--axiomatic",
        "rc11",
        "litmus/bench/c11-fig6/fig6-copy.litmus",
        "litmus/classic/SB.litmus",
        "--repeat",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    let row = out
        .lines()
        .find(|l| l.starts_with("fig6-copy "))
        .unwrap_or_else(|| panic!("no fig6-copy row:\n{out}"));
    let cols: Vec<&str> = row.split_whitespace().collect();
    // herd's fig6 shape: 28,800 uniproc candidates, 19,200 RC11-consistent.
    assert_eq!(cols[1..4], ["ax.rc11", "28800", "19200"], "{out}");
    assert!(out.contains("total: 2 checks"), "{out}");
}
