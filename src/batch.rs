//! Corpus batches: the files of a `run` or a `check` are worked on in
//! parallel, and their results printed in the order of the files
//! (book: cli.md, Corpus-scale runs).
//!
//! The files are handed to the worker pool in order, one task each, never
//! more than a window ahead of the first file not yet printed. A file's
//! result is printed as soon as every earlier file's is, so the output
//! streams, and only the results of the files inside the window are held
//! in memory, whatever the size of the batch. While a slow file holds the
//! window, workers that have nothing left to start help it: an operational
//! explorer splits its work over the same pool.
//!
//! With one worker (`--jobs 1`), the pool's worker is the calling thread
//! itself ([`crate::commands::common::pool`]), and the files are worked
//! on and printed one after the other on it: no result crosses threads.
//!
//! The output does not depend on `--jobs`: the order is the files', and a
//! file's result does not depend on the worker that made it. On a
//! terminal, a batch of several files shows a progress line counting the
//! files printed ([`crate::progress`]), erased before each file's output
//! and at the end.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use crate::progress::{self, ProgressAfterASecond};

/// Files started beyond the first one not yet printed, per worker.
const AHEAD_PER_WORKER: usize = 8;

/// What the printer says after a file: go on, or print no further file
/// (after Ctrl-C, at the first file that was not started).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Go,
    Stop,
}

/// Runs `work` on the files `0..count` on `pool`, and `print` on each
/// file's results in file order. `work(i, part)` may hand its results
/// over in parts, by `part`, as it makes them, and returns its last one;
/// `print(i, result, last)` prints them. The parts of the first file not
/// yet printed are printed as they come, those of later files once every
/// earlier file is printed. `print` runs on the calling thread, with the
/// progress line erased (when `progress` and more than one file; the line
/// counts the files printed). An error of `print` stops the batch: no
/// further file starts, and the error is returned once the files started
/// have ended.
pub fn in_order<T, E, W, P>(
    pool: &rayon::ThreadPool,
    count: usize,
    progress: bool,
    work: W,
    mut print: P,
) -> Result<(), E>
where
    T: Send,
    W: Fn(usize, &dyn Fn(T)) -> T + Sync,
    P: FnMut(usize, T, bool) -> Result<Flow, E>,
{
    let bar = (progress && count > 1).then(|| ProgressAfterASecond::files(count as u64));
    on_pool(pool, 0, count, &bar, &work, &mut print)
}

/// [`in_order`] for work that uses no worker pool of its own (the
/// axiomatic engine): the files run on the calling thread, one after the
/// other, as long as the mean time of the files done since the first,
/// times the files left, promises less than [`WORTH_A_POOL`] of work;
/// from then on on the pool `pool()` makes, which a small batch never
/// starts. The first file is left out of the mean: it pays for the first
/// run of the code (its pages read in, its tables built), several times
/// a later file's time. The output is the same either way.
pub fn in_order_pool_if_worth_it<T, E, W, P>(
    pool: impl FnOnce() -> Result<Arc<rayon::ThreadPool>, E>,
    count: usize,
    progress: bool,
    work: W,
    mut print: P,
) -> Result<(), E>
where
    T: Send,
    W: Fn(usize, &dyn Fn(T)) -> T + Sync,
    P: FnMut(usize, T, bool) -> Result<Flow, E>,
{
    let bar = (progress && count > 1).then(|| ProgressAfterASecond::files(count as u64));
    // When the first file ended.
    let warm = std::cell::Cell::new(None::<Instant>);
    let worth_a_pool = |done: usize| {
        let files = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        match warm.get() {
            None => {
                if done == 1 {
                    warm.set(Some(Instant::now()));
                }
                false
            }
            Some(since) => {
                let mean = since.elapsed() / files(done - 1);
                mean.saturating_mul(files(count - done)) >= WORTH_A_POOL
            }
        }
    };
    match one_after_another(0..count, &bar, &work, &mut print, worth_a_pool)? {
        Ended::At(next) => on_pool(&*pool()?, next, count, &bar, &work, &mut print),
        Ended::All | Ended::Stopped => Ok(()),
    }
}

/// The work left, estimated from the files done, from which
/// [`in_order_pool_if_worth_it`] starts the pool: starting the workers
/// and handing every file and result between threads cost about a
/// millisecond on a two-core machine, and a batch of 3 ms of work ran as
/// fast on one thread as on two (book: herd.md, Speed).
const WORTH_A_POOL: Duration = Duration::from_millis(2);

/// [`in_order`] of the files `first..count`, on `pool`.
fn on_pool<T, E, W, P>(
    pool: &rayon::ThreadPool,
    first: usize,
    count: usize,
    bar: &Option<ProgressAfterASecond>,
    work: &W,
    print: &mut P,
) -> Result<(), E>
where
    T: Send,
    W: Fn(usize, &dyn Fn(T)) -> T + Sync,
    P: FnMut(usize, T, bool) -> Result<Flow, E>,
{
    if pool.current_thread_index().is_some() {
        // The calling thread is the pool's worker: nothing else would run
        // a task spawned, so the files run here, in order.
        return one_after_another(first..count, bar, work, print, |_| false).map(|_| ());
    }
    let window = pool.current_num_threads().max(1) * AHEAD_PER_WORKER;
    let (tx, rx) = mpsc::channel::<(usize, Made<T>)>();
    pool.in_place_scope_fifo(|scope| {
        let mut next = first;
        let mut printed = first;
        // The parts of later files, and whether each has ended.
        let mut held: BTreeMap<usize, (Vec<T>, bool)> = BTreeMap::new();
        let mut stopped = false;
        let mut result = Ok(());
        let mut print_one = |file: usize, t: T, last: bool, stopped: &mut bool| {
            if *stopped {
                return;
            }
            match progress::while_cleared(|| print(file, t, last)) {
                Ok(Flow::Go) => {}
                Ok(Flow::Stop) => *stopped = true,
                Err(e) => {
                    result = Err(e);
                    *stopped = true;
                }
            }
        };
        while printed < count && !stopped {
            while next < count && next < printed + window {
                let tx = tx.clone();
                let file = next;
                scope.spawn_fifo(move |_| {
                    let part = |t: T| {
                        let _ = tx.send((file, Made::Part(t)));
                    };
                    let made = match catch_unwind(AssertUnwindSafe(|| work(file, &part))) {
                        Ok(t) => Made::Last(t),
                        Err(panic) => Made::Panic(panic),
                    };
                    let _ = tx.send((file, made));
                });
                next += 1;
            }
            // The sender kept here never closes the channel: each task
            // started ends with its last result.
            let Ok((file, made)) = rx.recv() else { break };
            let (t, last) = match made {
                Made::Part(t) => (t, false),
                Made::Last(t) => (t, true),
                Made::Panic(panic) => resume_unwind(panic),
            };
            if file != printed {
                let entry = held.entry(file).or_default();
                entry.0.push(t);
                entry.1 = last;
                continue;
            }
            print_one(file, t, last, &mut stopped);
            if !last {
                continue;
            }
            // The file has ended: print the next ones as far as they came.
            loop {
                printed += 1;
                if let Some(bar) = bar {
                    bar.update(printed as u64);
                }
                let Some((parts, ended)) = held.remove(&printed) else {
                    break;
                };
                let n = parts.len();
                for (k, t) in parts.into_iter().enumerate() {
                    print_one(printed, t, ended && k + 1 == n, &mut stopped);
                }
                if !ended {
                    break;
                }
            }
        }
        // The scope waits for the files started; their results are not
        // printed.
        if let Some(bar) = bar {
            bar.finish();
        }
        result
    })
}

/// How [`one_after_another`] ended.
enum Ended {
    /// Every file is printed.
    All,
    /// The printer said stop.
    Stopped,
    /// At this file, which is not started: the caller goes on from it.
    At(usize),
}

/// [`in_order`] of the files `files` on the calling thread: each file's
/// parts are printed as `work` makes them. Before each file,
/// `hand_over(files done)` may end the loop there.
fn one_after_another<T, E, W, P>(
    files: std::ops::Range<usize>,
    bar: &Option<ProgressAfterASecond>,
    work: &W,
    print: &mut P,
    hand_over: impl Fn(usize) -> bool,
) -> Result<Ended, E>
where
    W: Fn(usize, &dyn Fn(T)) -> T,
    P: FnMut(usize, T, bool) -> Result<Flow, E>,
{
    // `part` is a shared closure: the printer and its verdict sit in a cell.
    let printer = std::cell::RefCell::new((print, Ok(Flow::Go)));
    let print_one = |file: usize, t: T, last: bool| {
        let (print, flow) = &mut *printer.borrow_mut();
        if matches!(flow, Ok(Flow::Go)) {
            *flow = progress::while_cleared(|| print(file, t, last));
        }
    };
    for file in files {
        if hand_over(file) {
            return Ok(Ended::At(file));
        }
        let t = work(file, &|t| print_one(file, t, false));
        print_one(file, t, true);
        if let Some(bar) = bar {
            bar.update(file as u64 + 1);
        }
        if !matches!(printer.borrow().1, Ok(Flow::Go)) {
            break;
        }
    }
    match printer.into_inner().1? {
        Flow::Go => Ok(Ended::All),
        Flow::Stop => Ok(Ended::Stopped),
    }
}

/// What a task sends: a part of its results, its last one, or its panic.
enum Made<T> {
    Part(T),
    Last(T),
    Panic(Box<dyn std::any::Any + Send>),
}

/// `value` as [`serde_json::to_string_pretty`] writes it as an element of
/// an array nested `depth` levels deep (each level indents by two spaces),
/// its first line indented too: the pieces of a pretty JSON document
/// written one element at a time.
pub fn pretty_element<S: serde::Serialize>(
    value: &S,
    depth: usize,
) -> Result<String, serde_json::Error> {
    let text = serde_json::to_string_pretty(value)?;
    let indent = "  ".repeat(depth);
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&indent);
        out.push_str(line);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_written_one_by_one_make_the_pretty_array() {
        let values = vec![
            serde_json::json!({"a": [1, 2], "b": {"c": "x\ny"}, "d": []}),
            serde_json::json!({}),
            serde_json::json!([{"e": null}]),
        ];
        let pieces: Vec<String> = values
            .iter()
            .map(|v| pretty_element(v, 1).unwrap())
            .collect();
        let joined = format!("[\n{}\n]", pieces.join(",\n"));
        assert_eq!(joined, serde_json::to_string_pretty(&values).unwrap());
    }

    #[test]
    fn results_are_printed_in_order_whatever_the_workers() {
        // 0: one worker that is the calling thread, as at `--jobs 1`.
        for threads in [0, 1, 2, 3] {
            let builder = rayon::ThreadPoolBuilder::new().num_threads(threads.max(1));
            let builder = if threads == 0 {
                builder.use_current_thread()
            } else {
                builder
            };
            let pool = builder.build().unwrap();
            let mut seen = Vec::new();
            // Later files finish first: each sleeps less than the last.
            let r: Result<(), ()> = in_order(
                &pool,
                40,
                false,
                |i, part| {
                    part(i * 10);
                    std::thread::sleep(std::time::Duration::from_micros((40 - i as u64) * 50));
                    part(i * 10 + 1);
                    i * 10 + 2
                },
                |i, t, last| {
                    assert_eq!(last, t % 10 == 2);
                    seen.push((i, t));
                    Ok(if i == 30 && last {
                        Flow::Stop
                    } else {
                        Flow::Go
                    })
                },
            );
            assert_eq!(r, Ok(()));
            let expected: Vec<_> = (0..=30)
                .flat_map(|i| [(i, i * 10), (i, i * 10 + 1), (i, i * 10 + 2)])
                .collect();
            assert_eq!(seen, expected);
        }
    }

    #[test]
    fn a_batch_that_starts_its_pool_late_prints_in_order() {
        // Files 0 to 9 are quick, 10 to 39 slow: the pool starts, if at
        // all, between two files; the output is the same either way.
        for threads in [1, 2, 3] {
            let mut seen = Vec::new();
            let r: Result<(), ()> = in_order_pool_if_worth_it(
                || {
                    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads);
                    Ok(std::sync::Arc::new(pool.build().unwrap()))
                },
                40,
                false,
                |i, part| {
                    part(i * 10);
                    if i >= 10 {
                        std::thread::sleep(std::time::Duration::from_micros((40 - i as u64) * 50));
                    }
                    i * 10 + 2
                },
                |i, t, last| {
                    assert_eq!(last, t % 10 == 2);
                    seen.push((i, t));
                    Ok(if i == 30 && last {
                        Flow::Stop
                    } else {
                        Flow::Go
                    })
                },
            );
            assert_eq!(r, Ok(()));
            let expected: Vec<_> = (0..=30)
                .flat_map(|i| [(i, i * 10), (i, i * 10 + 2)])
                .collect();
            assert_eq!(seen, expected);
        }
    }
}
