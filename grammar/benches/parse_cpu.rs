//! The same work as `benches/parse.rs`, timed in CPU time of the running
//! thread (`/proc/thread-self/schedstat`, Linux) rather than wall time, so
//! that the figures mean something on a machine shared with other jobs.
//! Prints the median over 30 runs of load, parse only and lower only.

#[path = "parse.rs"]
#[allow(dead_code)]
mod wall;

/// CPU time of this thread so far, in nanoseconds (0 if unavailable).
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// The median CPU time of `runs` calls of `f`, in milliseconds.
fn median_ms<T>(runs: usize, mut f: impl FnMut() -> T) -> f64 {
    let mut times: Vec<u64> = (0..runs)
        .map(|_| {
            let start = cpu_ns();
            drop(std::hint::black_box(f()));
            cpu_ns() - start
        })
        .collect();
    times.sort_unstable();
    times[runs / 2] as f64 / 1e6
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is ignored.
    let src = wall::big_test(2100);
    let ast = relaxlab_grammar::parse(&src).expect("parses");
    relaxlab_grammar::lower(&ast).expect("lowers");
    let runs = 30;
    println!("{} KB, median CPU time of {runs} runs:", src.len() / 1024);
    let load = median_ms(runs, || relaxlab_grammar::load(&src));
    println!("  load        {load:8.2} ms");
    let parse = median_ms(runs, || relaxlab_grammar::parse(&src));
    println!("  parse only  {parse:8.2} ms");
    let lower = median_ms(runs, || relaxlab_grammar::lower(&ast));
    println!("  lower only  {lower:8.2} ms");
}
