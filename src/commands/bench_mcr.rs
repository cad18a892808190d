//! `relaxlab bench --search mcr`: the stateless explorer (book: mcr.md)
//! measured beside the stateful one.
//!
//! Every measurement runs in its own child process, as `relaxlab bench`'s
//! do ([`super::bench`]), so that its peak resident memory (`VmHWM`) is its
//! own; memory is reported above the peak of a child that explores
//! nothing. For each test and model:
//! - the stateless explorer: executions, seconds, executions per second,
//!   peak memory;
//! - the stateful explorer without and with partial-order reduction: states
//!   and seconds to the same full table, and the stateless explorer's time
//!   over each (`mcr/none`, `mcr/por`: below 1, the stateless explorer is
//!   faster).
//!
//! Then the memory of the stateless explorer as the executions grow: the
//! same test (`litmus/bench/mcr/MCR-growth.litmus`, 184,756 executions) stopped
//! after 10^3, 10^4 and 10^5 executions (`--max-states`), its peak memory
//! above the baseline at each. The stateless explorer is sequential, so
//! every measurement runs on one worker thread. With `--repeat N` the
//! median is printed with the range. Figures are printed, never asserted.

use std::path::{Path, PathBuf};

use miette::IntoDiagnostic;

use super::bench::{child_with, read_stdin_once, with_spread, Measurement, INTERRUPTED};
use super::common;
use crate::cli::BenchArgs;
use crate::engine::Settings;
use crate::exit::{Exit, Outcome};
use crate::{files, interrupt, Io};

/// The tests measured by default.
pub(super) const TESTS: &str = "litmus/bench/mcr";
/// The test whose memory is measured as the executions grow.
const GROWTH: &str = "litmus/bench/mcr/MCR-growth.litmus";
/// The execution bounds of the growth measurement.
const BOUNDS: [u64; 3] = [1_000, 10_000, 100_000];

/// Runs `repeat` measurements of one kind; `None` after Ctrl-C.
fn measure(
    file: &str,
    stdin: Option<&str>,
    model: &str,
    max: u64,
    search: &str,
    repeat: u64,
) -> Result<Option<Vec<Measurement>>, miette::Report> {
    let mut runs = Vec::new();
    for _ in 0..repeat {
        // Ctrl-C reaches the child too: nothing more is started.
        let m = child_with(file, stdin, model, 1, max, search, 0);
        let Some(m) = m.transpose().filter(|_| !interrupt::requested()) else {
            return Ok(None);
        };
        runs.push(m?);
    }
    Ok(Some(runs))
}

fn seconds(runs: &[Measurement]) -> String {
    with_spread(runs.iter().map(|r| r.seconds).collect(), 3)
}

fn median(xs: Vec<f64>) -> f64 {
    super::bench::spread(xs).0
}

pub fn bench_mcr(args: &BenchArgs, io: &mut Io<'_>) -> Outcome {
    let named = !args.files.is_empty();
    let paths = if named {
        args.files.clone()
    } else {
        vec![PathBuf::from(TESTS)]
    };
    let models = common::op_models(&args.model)?;
    common::distinct(&models)?;
    let max = args.max_states.unwrap_or(Settings::default().max_states);
    let repeat = args.repeat.unwrap_or(1);
    let paths: Vec<PathBuf> = files::expand(&paths)?
        .into_iter()
        .filter(|p| named || p != Path::new(GROWTH))
        .collect();
    let stdin = read_stdin_once(&paths)?;
    let _ctrl_c = interrupt::interruptible();
    let Some(base) = measure("", None, "sc", 0, "none", 1)? else {
        writeln!(io.out, "{INTERRUPTED}").into_diagnostic()?;
        return Ok(Exit::Interrupted);
    };
    let base_kib = base[0].peak_kib;
    writeln!(
        io.out,
        "baseline peak memory: {base_kib} KiB; one worker thread"
    )
    .into_diagnostic()?;
    writeln!(
        io.out,
        "mcr/none, mcr/por: the stateless explorer's time to the full table over the stateful explorer's{}",
        if repeat > 1 {
            format!("; median of {repeat} runs [min-max]")
        } else {
            String::new()
        }
    )
    .into_diagnostic()?;
    writeln!(
        io.out,
        "{:<22} {:>5} {:>10} {:>12} {:>9} {:>8} {:>9} {:>9} {:>8} {:>9} {:>9} {:>8}",
        "test",
        "model",
        "executions",
        "seconds",
        "exec/s",
        "KiB",
        "states",
        "none s",
        "mcr/none",
        "states",
        "por s",
        "mcr/por"
    )
    .into_diagnostic()?;
    let mut exit = Exit::Ok;
    for path in &paths {
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
            let model = key.to_string();
            let mut all = Vec::new();
            for search in ["mcr", "none", "por"] {
                match measure(&file, input, &model, max, search, repeat)? {
                    Some(runs) => all.push(runs),
                    None => {
                        writeln!(io.out, "{INTERRUPTED}").into_diagnostic()?;
                        return Ok(Exit::Interrupted);
                    }
                }
            }
            let (mcr, none, por) = (&all[0], &all[1], &all[2]);
            let ratio = |other: &[Measurement]| {
                with_spread(
                    mcr.iter()
                        .zip(other)
                        .map(|(a, b)| a.seconds / b.seconds.max(1e-9))
                        .collect(),
                    2,
                )
            };
            let mcr_s = median(mcr.iter().map(|r| r.seconds).collect());
            let kib = median(mcr.iter().map(|r| r.peak_kib as f64).collect()) - base_kib as f64;
            let partial = !(mcr[0].complete && none[0].complete && por[0].complete);
            writeln!(
                io.out,
                "{:<22} {:>5} {:>10} {:>12} {:>9.0} {:>8.0} {:>9} {:>9.3} {:>8} {:>9} {:>9.3} {:>8}{}",
                name,
                model,
                mcr[0].states,
                seconds(mcr),
                mcr[0].states as f64 / mcr_s.max(1e-9),
                kib.max(0.0),
                none[0].states,
                median(none.iter().map(|r| r.seconds).collect()),
                ratio(none),
                por[0].states,
                median(por.iter().map(|r| r.seconds).collect()),
                ratio(por),
                if partial { "  PARTIAL" } else { "" }
            )
            .into_diagnostic()?;
            io.out.flush().into_diagnostic()?;
            if partial {
                exit = exit.max(Exit::Partial);
            }
        }
    }
    if named || !Path::new(GROWTH).exists() {
        return Ok(exit);
    }
    let model = models
        .first()
        .map(ToString::to_string)
        .unwrap_or_else(|| "tso".to_string());
    writeln!(
        io.out,
        "\nmemory as the executions grow: {GROWTH} under {model}, stopped after N executions"
    )
    .into_diagnostic()?;
    writeln!(
        io.out,
        "{:>10} {:>12} {:>9} {:>12} {:>10}",
        "executions", "seconds", "exec/s", "KiB above", "B/exec"
    )
    .into_diagnostic()?;
    for bound in BOUNDS {
        let Some(runs) = measure(GROWTH, None, &model, bound, "mcr", repeat)? else {
            writeln!(io.out, "{INTERRUPTED}").into_diagnostic()?;
            return Ok(Exit::Interrupted);
        };
        let s = median(runs.iter().map(|r| r.seconds).collect());
        let kib =
            (median(runs.iter().map(|r| r.peak_kib as f64).collect()) - base_kib as f64).max(0.0);
        writeln!(
            io.out,
            "{:>10} {:>12} {:>9.0} {:>12.0} {:>10.1}",
            runs[0].states,
            seconds(&runs),
            runs[0].states as f64 / s.max(1e-9),
            kib,
            kib * 1024.0 / runs[0].states.max(1) as f64
        )
        .into_diagnostic()?;
        io.out.flush().into_diagnostic()?;
    }
    Ok(exit)
}
