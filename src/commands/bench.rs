//! `relaxlab bench`: exploration speed and memory on the benchmark tests,
//! with and without partial-order reduction, against a hashing baseline.
//!
//! Each measurement runs in a fresh child process (this same binary, with
//! the hidden environment variable `RELAXLAB_BENCH_ONE` set), so that the
//! peak resident memory it reports (`VmHWM` of `/proc/self/status`) belongs
//! to that one exploration. Bytes per state are the peak minus the peak of
//! a child that explores nothing, divided by the states stored. Timing
//! covers exploration only, not parsing or start-up.
//!
//! Every test and model is explored twice per worker-thread count: with
//! `--reduction none` and with `--reduction por`. After exploring, the same
//! child, on the same number of threads, times the baseline
//! ([`relaxlab_semantics::operational::hash_baseline`]): a bare insert,
//! twice each, of as many distinct rows as it stored, of the same width,
//! into the explorer's own state table. `ratio` is the explorer's rate over
//! the baseline's (baseline time / exploration time). A reduced run also
//! times the baseline on the unreduced state count: `full/base` is that
//! time over the reduced exploration's (above 1: the reduced search ends
//! before a bare table could even store the unreduced states), and `fewer`
//! is unreduced states over reduced ones (`>` when the unreduced search was
//! cut short by `--max-states`: a lower bound). With `--repeat N` each
//! measurement is taken N times, and the median is printed with the range
//! of the ratios. Figures are printed, never asserted: they depend on the
//! machine.
//!
//! A test read from standard input (`-`) is read once, here, and written
//! to each child's standard input: the children cannot read the
//! benchmark's own standard input, which the first would drain.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use miette::IntoDiagnostic;
use relaxlab_semantics::ir::ModelKey;
use relaxlab_semantics::operational::{hash_baseline, Reduction};

use super::common;
use crate::cli::BenchArgs;
use crate::engine::{self, Settings};
use crate::exit::{Exit, Outcome};
use crate::{files, interrupt, load, Io};

/// The environment variable that makes the binary run one measurement:
/// `FILE|MODEL|JOBS|MAX_STATES|REDUCTION|FULL_STATES` (`REDUCTION`: `none`
/// or `por`, or `mcr` for the stateless explorer, whose executions count as
/// states; `FULL_STATES`: the unreduced state count to time the baseline
/// on as well, or 0).
pub const ONE: &str = "RELAXLAB_BENCH_ONE";

/// One measurement, as the child prints it.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Measurement {
    pub states: u64,
    pub transitions: u64,
    pub seconds: f64,
    pub peak_kib: u64,
    pub complete: bool,
    /// The baseline's time for `states` rows.
    pub baseline_seconds: f64,
    /// The baseline's time for the unreduced state count, if asked.
    pub full_baseline_seconds: Option<f64>,
}

/// The median of `xs` (not empty), and the smallest and largest.
pub(super) fn spread(mut xs: Vec<f64>) -> (f64, f64, f64) {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    let median = if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    };
    (median, xs[0], xs[n - 1])
}

/// `median [min-max]`, or the value alone for one run.
pub(super) fn with_spread(xs: Vec<f64>, digits: usize) -> String {
    let n = xs.len();
    let (m, lo, hi) = spread(xs);
    if n == 1 {
        format!("{m:.digits$}")
    } else {
        format!("{m:.digits$} [{lo:.digits$}-{hi:.digits$}]")
    }
}

/// The benchmark tests measured by default: `litmus/bench` without its
/// `long/` directory, whose tests (10^8 states and more) are measured only
/// when named, and without `mcr/`, the stateless explorer's (`bench
/// --search mcr`).
fn default_tests() -> Result<Vec<PathBuf>, miette::Report> {
    let (long, mcr) = (PathBuf::from(LONG), PathBuf::from(super::bench_mcr::TESTS));
    Ok(files::expand(&[PathBuf::from("litmus/bench")])?
        .into_iter()
        .filter(|p| !p.starts_with(&long) && !p.starts_with(&mcr))
        .collect())
}

/// What the benchmark prints after Ctrl-C, below the rows it measured.
pub(super) const INTERRUPTED: &str = "interrupted (Ctrl-C): the benchmark stops here";

/// The long benchmarks' directory.
pub const LONG: &str = "litmus/bench/long";

pub fn bench(args: &BenchArgs, io: &mut Io<'_>) -> Outcome {
    if !args.axiomatic.is_empty() {
        return super::bench_ax::bench_axiomatic(args, io);
    }
    if args.search == Some(crate::cli::SearchArg::Mcr) {
        return super::bench_mcr::bench_mcr(args, io);
    }
    let paths = if args.files.is_empty() {
        default_tests()?
    } else {
        args.files.clone()
    };
    let models = common::op_models(&args.model)?;
    common::distinct(&models)?;
    let max_states = args.max_states.unwrap_or(Settings::default().max_states);
    let repeat = args.repeat.unwrap_or(1);
    let paths = files::expand(&paths)?;
    // Before the header: a test that cannot be read is an input error.
    let stdin = read_stdin_once(&paths)?;
    // This process only waits for its children, which Ctrl-C on a
    // terminal reaches too: it must outlive them to say that the benchmark
    // stopped (otherwise the handler ends it at once, `interrupt`).
    let _ctrl_c = interrupt::interruptible();
    let baseline = child("", None, "sc", 1, 0, Reduction::None, 0);
    let Some(baseline) = baseline.transpose().filter(|_| !interrupt::requested()) else {
        writeln!(io.out, "{INTERRUPTED}").into_diagnostic()?;
        return Ok(Exit::Interrupted);
    };
    let baseline = baseline?;
    writeln!(io.out, "baseline peak memory: {} KiB", baseline.peak_kib).into_diagnostic()?;
    writeln!(
        io.out,
        "ratio: explorer states/s over a bare state-table insert of as many rows, same process and threads{}",
        if repeat > 1 {
            format!("; median of {repeat} runs [min-max]")
        } else {
            String::new()
        }
    )
    .into_diagnostic()?;
    writeln!(
        io.out,
        "{:<22} {:>5} {:>4} {:>4} {:>10} {:>8} {:>10} {:>10} {:>18} {:>7} {:>8} {:>18}",
        "test",
        "model",
        "jobs",
        "red",
        "states",
        "seconds",
        "states/s",
        "base/s",
        "ratio",
        "B/state",
        "fewer",
        "full/base"
    )
    .into_diagnostic()?;
    let mut exit = Exit::Ok;
    for path in paths {
        let from_stdin = path.as_os_str() == files::STDIN;
        let name = if from_stdin {
            files::STDIN_NAME.to_string()
        } else {
            path.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        let file = path.display().to_string();
        let input = stdin.as_deref().filter(|_| from_stdin);
        for key in &models {
            for &jobs in &args.jobs {
                let (mut full_states, mut full_complete) = (0, true);
                for reduction in [Reduction::None, Reduction::Por] {
                    let mut runs = Vec::new();
                    for _ in 0..repeat {
                        // Ctrl-C reaches the children too: the rows measured
                        // so far stand, and nothing more is started.
                        let measured = child(
                            &file,
                            input,
                            &key.to_string(),
                            jobs,
                            max_states,
                            reduction,
                            full_states,
                        );
                        let Some(measured) =
                            measured.transpose().filter(|_| !interrupt::requested())
                        else {
                            writeln!(io.out, "{INTERRUPTED}").into_diagnostic()?;
                            return Ok(Exit::Interrupted);
                        };
                        runs.push(measured?);
                    }
                    let m = &runs[0];
                    if reduction == Reduction::None {
                        full_states = m.states;
                        full_complete = m.complete;
                    }
                    let (seconds, _, _) = spread(runs.iter().map(|r| r.seconds).collect());
                    let (base, _, _) = spread(runs.iter().map(|r| r.baseline_seconds).collect());
                    let (peak, _, _) = spread(runs.iter().map(|r| r.peak_kib as f64).collect());
                    let per_state = (peak - baseline.peak_kib as f64).max(0.0) * 1024.0
                        / m.states.max(1) as f64;
                    let ratio = with_spread(
                        runs.iter()
                            .map(|r| r.baseline_seconds / r.seconds.max(1e-9))
                            .collect(),
                        2,
                    );
                    let (fewer, full_base) = match reduction {
                        Reduction::None => ("-".to_string(), "-".to_string()),
                        Reduction::Por => (
                            // Against a cut-short full search: a lower bound.
                            format!(
                                "{}{:.1}x",
                                if full_complete { "" } else { ">" },
                                full_states as f64 / m.states.max(1) as f64
                            ),
                            with_spread(
                                runs.iter()
                                    .map(|r| {
                                        r.full_baseline_seconds.unwrap_or(r.baseline_seconds)
                                            / r.seconds.max(1e-9)
                                    })
                                    .collect(),
                                2,
                            ),
                        ),
                    };
                    writeln!(
                        io.out,
                        "{:<22} {:>5} {:>4} {:>4} {:>10} {:>8.3} {:>10.0} {:>10.0} {:>18} {:>7.1} {:>8} {:>18}{}",
                        name,
                        key.to_string(),
                        jobs,
                        match reduction {
                            Reduction::None => "none",
                            Reduction::Por => "por",
                        },
                        m.states,
                        seconds,
                        m.states as f64 / seconds.max(1e-9),
                        m.states as f64 / base.max(1e-9),
                        ratio,
                        per_state,
                        fewer,
                        full_base,
                        if m.complete { "" } else { "  PARTIAL" }
                    )
                    .into_diagnostic()?;
                    // Each line as it is measured: a long run shows its progress.
                    io.out.flush().into_diagnostic()?;
                    if !m.complete {
                        exit = exit.max(Exit::Partial);
                    }
                }
            }
        }
    }
    Ok(exit)
}

/// The text of the test read from standard input, if `paths` names `-`
/// (at most once: [`files::expand`] refuses it twice).
pub(super) fn read_stdin_once(paths: &[PathBuf]) -> Result<Option<String>, miette::Report> {
    match paths.iter().find(|p| p.as_os_str() == files::STDIN) {
        Some(path) => Ok(Some(files::read(path)?.text)),
        None => Ok(None),
    }
}

/// Runs one measurement in a child process, with `stdin` (the test read
/// from standard input, when `file` is `-`) as its standard input. `None`
/// when Ctrl-C ended the child: the terminal sends it to this process too,
/// but this process's handler runs on a thread of its own, which may not
/// yet have raised the flag when the child's end is seen here.
fn child(
    file: &str,
    stdin: Option<&str>,
    model: &str,
    jobs: usize,
    max_states: u64,
    reduction: Reduction,
    full_states: u64,
) -> Result<Option<Measurement>, miette::Report> {
    let reduction = match reduction {
        Reduction::None => "none",
        Reduction::Por => "por",
    };
    child_with(file, stdin, model, jobs, max_states, reduction, full_states)
}

/// [`child`] with the search named as the child reads it: `none`, `por`
/// (the stateful explorer) or `mcr` (the stateless one).
pub(super) fn child_with(
    file: &str,
    stdin: Option<&str>,
    model: &str,
    jobs: usize,
    max_states: u64,
    reduction: &str,
    full_states: u64,
) -> Result<Option<Measurement>, miette::Report> {
    let exe = std::env::current_exe().into_diagnostic()?;
    let mut child = Command::new(exe)
        .env(
            ONE,
            format!("{file}|{model}|{jobs}|{max_states}|{reduction}|{full_states}"),
        )
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .into_diagnostic()?;
    if let (Some(text), Some(mut pipe)) = (stdin, child.stdin.take()) {
        // The child reads all of its input before it writes anything, so
        // this cannot fill both pipes at once. A child that fails first
        // closes the pipe: its status and standard error say why.
        let _ = pipe.write_all(text.as_bytes());
    }
    let output = child.wait_with_output().into_diagnostic()?;
    if ended_by_ctrl_c(&output.status) {
        return Ok(None);
    }
    if !output.status.success() {
        miette::bail!(
            "benchmark of {file} under {model} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    serde_json::from_slice(&output.stdout)
        .map(Some)
        .into_diagnostic()
}

/// Did SIGINT end the child? (It installs no handler: Ctrl-C ends it.)
#[cfg(unix)]
fn ended_by_ctrl_c(status: &std::process::ExitStatus) -> bool {
    use std::os::unix::process::ExitStatusExt;
    status.signal() == Some(2)
}

#[cfg(not(unix))]
fn ended_by_ctrl_c(status: &std::process::ExitStatus) -> bool {
    status.code() == Some(i32::from(Exit::Interrupted.code()))
}

/// The child's side: explore, then time the baseline, then print the
/// measurement as JSON.
pub fn run_one(spec: &str, io: &mut Io<'_>) -> Result<(), miette::Report> {
    let mut parts = spec.split('|');
    let (file, model, jobs, max_states) = (
        parts.next().unwrap_or_default(),
        parts.next().unwrap_or_default(),
        parts.next().and_then(|j| j.parse().ok()).unwrap_or(1),
        parts.next().and_then(|m| m.parse().ok()).unwrap_or(0),
    );
    let search = parts.next();
    let reduction = match search {
        Some("none") => Reduction::None,
        _ => Reduction::Por,
    };
    let full_states: u64 = parts.next().and_then(|m| m.parse().ok()).unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .into_diagnostic()?;
    let (states, transitions, seconds, complete, width) = if file.is_empty() {
        (0, 0, 0.0, true, 1)
    } else {
        let source = files::read(std::path::Path::new(file))?;
        let program = load::program(&source)?;
        let key =
            ModelKey::from_name(model).ok_or_else(|| miette::miette!("unknown model {model}"))?;
        load::check_model(&program, key, &source)?;
        // Measure the model's exploration alone, without the non-SC marking run.
        let settings = Settings {
            max_states,
            mark_non_sc: false,
            reduction,
            search: match search {
                Some("mcr") => engine::Search::Mcr,
                _ => engine::Search::Exhaustive,
            },
            ..Settings::default()
        };
        let started = Instant::now();
        let table = pool.install(|| engine::run(&program, key, &settings))?;
        let seconds = started.elapsed().as_secs_f64();
        (
            table.stats.states,
            table.stats.transitions,
            seconds,
            table.complete(),
            // The explorer's row: one id per thread, one for memory.
            program.threads.len() + 1,
        )
    };
    // Before the baseline, whose table would count in the peak.
    let peak_kib = peak_kib();
    let baseline_seconds = pool
        .install(|| hash_baseline(states, width, jobs))
        .as_secs_f64();
    let full_baseline_seconds = (full_states > 0).then(|| {
        pool.install(|| hash_baseline(full_states, width, jobs))
            .as_secs_f64()
    });
    let m = Measurement {
        states,
        transitions,
        seconds,
        peak_kib,
        complete,
        baseline_seconds,
        full_baseline_seconds,
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

#[cfg(test)]
mod tests {
    use std::path::Path;

    #[test]
    fn the_long_benchmarks_run_only_when_named() {
        let tests = super::default_tests().unwrap();
        assert!(tests
            .iter()
            .any(|p| p == Path::new("litmus/bench/bench-IRIW3x3.litmus")));
        assert!(
            !tests.iter().any(|p| p.starts_with(super::LONG)),
            "{tests:?}"
        );
        let long = crate::files::expand(&[super::LONG.into()]).unwrap();
        assert!(!long.is_empty(), "no long benchmark in {}", super::LONG);
    }
}
