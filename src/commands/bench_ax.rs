//! `relaxlab bench --axiomatic`: the axiomatic engine's time and work on a
//! batch of tests.
//!
//! Every loop-free test the models accept is checked `--repeat` times
//! (default 5) in this process, as `relaxlab run --axiomatic` checks it
//! (parsing excluded).
//! Per test and model: the candidates the engine enumerated (uniproc
//! candidates, observers' choices included) against the consistent ones,
//! the median time and the spread (fastest, slowest). The batch total is
//! measured per pass over the whole batch, then summarised the same way,
//! so it is a figure of one run, comparable with another tool timed on the
//! same files. Figures are printed, never asserted.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use miette::IntoDiagnostic;
use relaxlab_semantics::ir::{ModelKey, Program};

use super::common;
use crate::cli::BenchArgs;
use crate::engine::{self, Settings};
use crate::exit::{Exit, Outcome};
use crate::{interrupt, load, Io};

/// One test under one model, measured.
struct Row {
    name: String,
    key: ModelKey,
    candidates: u64,
    consistent: u64,
    complete: bool,
    times: Vec<Duration>,
}

/// The median, fastest and slowest of `times` (not empty).
fn spread(times: &[Duration]) -> (Duration, Duration, Duration) {
    let mut t = times.to_vec();
    t.sort();
    (t[t.len() / 2], t[0], t[t.len() - 1])
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

pub fn bench_axiomatic(args: &BenchArgs, io: &mut Io<'_>) -> Outcome {
    let paths = if args.files.is_empty() {
        vec![PathBuf::from("litmus")]
    } else {
        args.files.clone()
    };
    let models = common::ax_models(&args.axiomatic)?;
    common::distinct(&models)?;
    let settings = Settings {
        mark_non_sc: false,
        ..Settings::default()
    };
    let mut exit = Exit::Ok;
    // The tests each model accepts: loop-free (the engine refuses loops
    // without --unroll) and passing the model's static check.
    let mut batch: Vec<(String, Program, ModelKey)> = Vec::new();
    let mut skipped = 0usize;
    for (file, program) in common::programs(&paths, io, &mut exit)? {
        for &key in &models {
            if program.has_loops() || load::check_model(&program, key, &file).is_err() {
                skipped += 1;
                continue;
            }
            let name = std::path::Path::new(&file.path)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            batch.push((name, program.clone(), key));
        }
    }
    let mut rows: Vec<Row> = batch
        .iter()
        .map(|(name, _, key)| Row {
            name: name.clone(),
            key: *key,
            candidates: 0,
            consistent: 0,
            complete: true,
            times: Vec::new(),
        })
        .collect();
    let mut passes: Vec<Duration> = Vec::new();
    for _ in 0..args.repeat.unwrap_or(5) {
        let mut pass = Duration::ZERO;
        for ((_, program, key), row) in batch.iter().zip(&mut rows) {
            let started = Instant::now();
            let table = engine::run(program, *key, &settings)?;
            let took = started.elapsed();
            pass += took;
            row.times.push(took);
            row.candidates = table.stats.states;
            row.consistent = table.stats.transitions;
            row.complete = table.complete();
            if interrupt::requested() {
                writeln!(io.out, "interrupted (Ctrl-C): the benchmark stops here")
                    .into_diagnostic()?;
                return Ok(Exit::Interrupted);
            }
        }
        passes.push(pass);
    }
    writeln!(
        io.out,
        "{:<28} {:>8} {:>12} {:>12} {:>10} {:>21}",
        "test", "model", "candidates", "consistent", "median ms", "fastest-slowest ms"
    )
    .into_diagnostic()?;
    let (mut candidates, mut consistent) = (0u64, 0u64);
    for row in &rows {
        let (median, lo, hi) = spread(&row.times);
        candidates += row.candidates;
        consistent += row.consistent;
        writeln!(
            io.out,
            "{:<28} {:>8} {:>12} {:>12} {:>10.2} {:>21}{}",
            row.name,
            row.key.to_string(),
            row.candidates,
            row.consistent,
            ms(median),
            format!("{:.2}-{:.2}", ms(lo), ms(hi)),
            if row.complete { "" } else { "  PARTIAL" }
        )
        .into_diagnostic()?;
        if !row.complete {
            exit = exit.max(Exit::Partial);
        }
    }
    if let Some((median, lo, hi)) = (!passes.is_empty()).then(|| spread(&passes)) {
        writeln!(
            io.out,
            "total: {} checks ({} skipped: loops or refused by the model), \
             {candidates} candidates, {consistent} consistent; the batch {:.1} ms median \
             ({:.1}-{:.1} ms over {} runs)",
            rows.len(),
            skipped,
            ms(median),
            ms(lo),
            ms(hi),
            passes.len()
        )
        .into_diagnostic()?;
    }
    Ok(exit)
}
