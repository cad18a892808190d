//! Throughput and peak memory per stored state of exhaustive exploration
//! (not a criterion benchmark: peak memory needs a fresh process). Run
//! with `cargo bench -p relaxlab-semantics --bench op_memory -- MODEL THREADS OPS LOCS POOL`.
//! Prints states, transitions, seconds, states/s, and VmHWM (peak resident
//! memory, from /proc/self/status) divided by the number of states.

mod op_workload;

use std::time::Instant;

use relaxlab_semantics::ir::OpModel;
use relaxlab_semantics::operational::{explore_model, ExploreOptions};

fn vm_hwm_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// User plus system CPU seconds of this process (/proc/self/stat fields
/// 14 and 15, in clock ticks of 1/100 s). The machine is shared, so wall
/// time overstates the cost when other processes run.
fn cpu_secs() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after_comm = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after_comm.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // Fields after the command: index 0 is field 3 (state), so utime
    // (field 14) is index 11 and stime (field 15) index 12.
    (ticks(11) + ticks(12)) / 100.0
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let arg = |i: usize, d: &str| args.get(i).cloned().unwrap_or_else(|| d.to_string());
    let model = OpModel::from_name(&arg(0, "tso")).expect("model name");
    let (threads, ops, locs, pool): (usize, usize, usize, usize) = (
        arg(1, "3").parse().expect("threads"),
        arg(2, "3").parse().expect("ops"),
        arg(3, "3").parse().expect("locs"),
        arg(4, "1").parse().expect("pool"),
    );
    let program = op_workload::ring(threads, ops, locs);
    let before = vm_hwm_kib().unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(pool)
        .build()
        .expect("pool");
    let start = Instant::now();
    let cpu0 = cpu_secs();
    let table = pool.install(|| explore_model(&program, model, &ExploreOptions::default()));
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu_secs() - cpu0;
    let after = vm_hwm_kib().unwrap_or(0);
    let states = table.stats.states;
    println!(
        "{} threads={threads} ops={ops} locs={locs} states={states} transitions={} outcomes={} wall_secs={secs:.3} cpu_secs={cpu:.2} states/wall_s={:.0} states/cpu_s={:.0} peak_bytes/state={:.1}",
        model.name(),
        table.stats.transitions,
        table.rows.len(),
        states as f64 / secs,
        states as f64 / cpu,
        (after.saturating_sub(before) * 1024) as f64 / states as f64,
    );
}
