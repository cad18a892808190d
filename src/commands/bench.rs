//! `relaxlab bench`: exploration speed and memory on the benchmark tests.
//!
//! Each measurement runs in a fresh child process (this same binary, with
//! the hidden environment variable `RELAXLAB_BENCH_ONE` set), so that the
//! peak resident memory it reports (`VmHWM` of `/proc/self/status`) belongs
//! to that one exploration. Bytes per state are the peak minus the peak of
//! a child that explores nothing, divided by the states stored. Timing
//! covers exploration only, not parsing or start-up. Figures are printed,
//! never asserted: they depend on the machine.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use miette::IntoDiagnostic;
use relaxlab_semantics::ir::ModelKey;

use super::common;
use crate::cli::BenchArgs;
use crate::engine::{self, Settings};
use crate::exit::{Exit, Outcome};
use crate::{files, interrupt, load, Io};

/// The environment variable that makes the binary run one measurement:
/// `FILE|MODEL|JOBS|MAX_STATES`.
pub const ONE: &str = "RELAXLAB_BENCH_ONE";

/// One measurement, as the child prints it.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Measurement {
    pub states: u64,
    pub transitions: u64,
    pub seconds: f64,
    pub peak_kib: u64,
    pub complete: bool,
}

pub fn bench(args: &BenchArgs, io: &mut Io<'_>) -> Outcome {
    let paths = if args.files.is_empty() {
        vec![PathBuf::from("litmus/bench")]
    } else {
        args.files.clone()
    };
    let models = common::op_models(&args.model)?;
    common::distinct(&models)?;
    let max_states = args.max_states.unwrap_or(Settings::default().max_states);
    let baseline = child("", "sc", 1, 0)?;
    writeln!(io.out, "baseline peak memory: {} KiB", baseline.peak_kib).into_diagnostic()?;
    writeln!(
        io.out,
        "{:<28} {:>6} {:>4} {:>11} {:>12} {:>8} {:>12} {:>10}",
        "test", "model", "jobs", "states", "transitions", "seconds", "states/s", "bytes/state"
    )
    .into_diagnostic()?;
    let mut exit = Exit::Ok;
    for path in files::expand(&paths)? {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        for key in &models {
            for &jobs in &args.jobs {
                // Ctrl-C reaches the children too: the rows measured so far
                // stand, and nothing more is started.
                let measured = child(
                    &path.display().to_string(),
                    &key.to_string(),
                    jobs,
                    max_states,
                );
                if interrupt::requested() {
                    writeln!(io.out, "interrupted (Ctrl-C): the benchmark stops here")
                        .into_diagnostic()?;
                    return Ok(Exit::Interrupted);
                }
                let m = measured?;
                let per_state = (m.peak_kib.saturating_sub(baseline.peak_kib) * 1024) as f64
                    / m.states.max(1) as f64;
                writeln!(
                    io.out,
                    "{:<28} {:>6} {:>4} {:>11} {:>12} {:>8.3} {:>12.0} {:>10.1}{}",
                    name,
                    key.to_string(),
                    jobs,
                    m.states,
                    m.transitions,
                    m.seconds,
                    m.states as f64 / m.seconds.max(1e-9),
                    per_state,
                    if m.complete { "" } else { "  PARTIAL" }
                )
                .into_diagnostic()?;
                if !m.complete {
                    exit = exit.max(Exit::Partial);
                }
            }
        }
    }
    Ok(exit)
}

/// Runs one measurement in a child process.
fn child(
    file: &str,
    model: &str,
    jobs: usize,
    max_states: u64,
) -> Result<Measurement, miette::Report> {
    let exe = std::env::current_exe().into_diagnostic()?;
    let output = Command::new(exe)
        .env(ONE, format!("{file}|{model}|{jobs}|{max_states}"))
        .output()
        .into_diagnostic()?;
    if !output.status.success() {
        miette::bail!(
            "benchmark of {file} under {model} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    serde_json::from_slice(&output.stdout).into_diagnostic()
}

/// The child's side: explore, then print the measurement as JSON.
pub fn run_one(spec: &str, io: &mut Io<'_>) -> Result<(), miette::Report> {
    let mut parts = spec.split('|');
    let (file, model, jobs, max_states) = (
        parts.next().unwrap_or_default(),
        parts.next().unwrap_or_default(),
        parts.next().and_then(|j| j.parse().ok()).unwrap_or(1),
        parts.next().and_then(|m| m.parse().ok()).unwrap_or(0),
    );
    let (states, transitions, seconds, complete) = if file.is_empty() {
        (0, 0, 0.0, true)
    } else {
        let source = files::read(std::path::Path::new(file))?;
        let program = load::program(&source)?;
        let key =
            ModelKey::from_name(model).ok_or_else(|| miette::miette!("unknown model {model}"))?;
        // Measure the model's exploration alone, without the non-SC marking run.
        let settings = Settings {
            max_states,
            mark_non_sc: false,
            ..Settings::default()
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .into_diagnostic()?;
        let started = Instant::now();
        let table = pool.install(|| engine::run(&program, key, &settings))?;
        let seconds = started.elapsed().as_secs_f64();
        (
            table.stats.states,
            table.stats.transitions,
            seconds,
            table.complete(),
        )
    };
    let m = Measurement {
        states,
        transitions,
        seconds,
        peak_kib: peak_kib(),
        complete,
    };
    serde_json::to_writer(&mut *io.out, &m).into_diagnostic()?;
    Ok(())
}

/// The peak resident set size of this process, in KiB (0 where
/// `/proc/self/status` does not exist).
fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}
