//! The progress line of long explorations, on standard error when it is a
//! terminal.
//!
//! It appears only once an exploration has run for about a second, so quick
//! runs print nothing extra, and it is cleared before anything else is
//! printed. A ticker thread redraws it every [`TICK`] from the count the
//! explorer reports (after every merged chunk of its frontier, or every
//! batch of candidate executions judged): nothing else may hold standard
//! error's lock meanwhile (see `main.rs`).
//!
//! The line is drawn as `\r` + text + erase-to-end-of-line, and cleared
//! with `\r` + erase-line. Its text never reaches the terminal's last two
//! columns: a line that fills the width leaves the cursor in the last
//! column, where the `^C` a terminal echoes when Ctrl-C is typed wraps to
//! a new line, and the erase that follows then clears that line instead
//! of the progress line, which stayed on the screen above the partial
//! output (as a line too long for a narrow terminal stayed in part). So
//! the text is cut to the width the terminal has when it is drawn.
//!
//! A batch of several files ([`crate::batch`]) shows one line for the
//! whole batch, counting the files printed (`37/10,000 files`), instead of
//! a line per exploration. Its output is printed while the batch runs:
//! each piece is printed by [`while_cleared`], which erases the line and
//! keeps the ticker from drawing it again until the piece is out.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How often the line is redrawn.
const TICK: Duration = Duration::from_millis(120);

/// How long an exploration runs before its line shows.
const QUIET: Duration = Duration::from_secs(1);

/// The spinner's frames.
const FRAMES: [char; 8] = ['⠁', '⠂', '⠄', '⡀', '⢀', '⠠', '⠐', '⠈'];

/// Is a progress line on the screen now (the Ctrl-C handler clears it
/// before it ends the process)?
static SHOWN: AtomicBool = AtomicBool::new(false);

/// Held while the line is drawn, and while output is printed under it.
static DRAWING: Mutex<()> = Mutex::new(());

/// Runs `print` with the progress line erased, and not drawn again until
/// `print` returns (which must flush what it wrote to standard output).
pub fn while_cleared<R>(print: impl FnOnce() -> R) -> R {
    let _drawing = DRAWING.lock().unwrap_or_else(|e| e.into_inner());
    clear_line();
    print()
}

/// Erases the progress line if one is on the screen; whether there was
/// one.
pub fn clear_line() -> bool {
    let shown = SHOWN.swap(false, Ordering::SeqCst);
    if shown {
        eprint!("\r\x1b[2K");
    }
    shown
}

struct Shared {
    what: String,
    unit: &'static str,
    /// The count the work reaches when done, for a line that counts files.
    total: Option<u64>,
    count: AtomicU64,
    started: Instant,
    done: Mutex<bool>,
    wake: Condvar,
}

/// A spinner with a count, hidden for its first second.
pub struct ProgressAfterASecond {
    shared: Arc<Shared>,
    ticker: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl ProgressAfterASecond {
    /// A line for an exploration under `what` (a model's name, and why),
    /// counting states.
    pub fn new(what: &str) -> Self {
        Self::counting(what, "states")
    }

    /// A line for work under `what` counting `unit` (`states`,
    /// `candidates`).
    pub fn counting(what: &str, unit: &'static str) -> Self {
        Self::start(Shared {
            what: what.to_string(),
            unit,
            total: None,
            count: AtomicU64::new(0),
            started: Instant::now(),
            done: Mutex::new(false),
            wake: Condvar::new(),
        })
    }

    /// A line for a batch of `total` files, counting the files done.
    pub fn files(total: u64) -> Self {
        Self::start(Shared {
            what: String::new(),
            unit: "files",
            total: Some(total),
            count: AtomicU64::new(0),
            started: Instant::now(),
            done: Mutex::new(false),
            wake: Condvar::new(),
        })
    }

    fn start(shared: Shared) -> Self {
        let shared = Arc::new(shared);
        let ticker = {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name("relaxlab-progress".into())
                .spawn(move || tick(&shared))
                .ok()
        };
        ProgressAfterASecond {
            shared,
            ticker: Mutex::new(ticker),
        }
    }

    /// The work has reached `count` (states stored, candidates judged).
    pub fn update(&self, count: u64) {
        self.shared.count.store(count, Ordering::Relaxed);
    }

    /// Erases the line (if it was drawn) and stops the ticker.
    pub fn finish(&self) {
        if let Ok(mut done) = self.shared.done.lock() {
            *done = true;
        }
        self.shared.wake.notify_all();
        let ticker = self.ticker.lock().ok().and_then(|mut t| t.take());
        if let Some(ticker) = ticker {
            let _ = ticker.join();
        }
    }
}

impl Drop for ProgressAfterASecond {
    fn drop(&mut self) {
        self.finish();
    }
}

impl std::fmt::Debug for ProgressAfterASecond {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressAfterASecond")
    }
}

/// The ticker: waits out the quiet second, then redraws every tick until
/// the work is done, and clears the line.
fn tick(shared: &Shared) {
    let Ok(mut done) = shared.done.lock() else {
        return;
    };
    let mut frame = 0;
    loop {
        let elapsed = shared.started.elapsed();
        let wait = if elapsed < QUIET {
            QUIET - elapsed
        } else {
            TICK
        };
        done = match shared.wake.wait_timeout(done, wait) {
            Ok((guard, _)) => guard,
            Err(_) => return,
        };
        if *done {
            break;
        }
        if shared.started.elapsed() >= QUIET {
            draw(shared, FRAMES[frame % FRAMES.len()]);
            frame += 1;
        }
    }
    clear_line();
}

/// The width of the terminal on standard error, in columns.
fn width() -> Option<usize> {
    console::Term::stderr()
        .size_checked()
        .map(|(_, columns)| usize::from(columns))
}

/// `1234567` as `1,234,567`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    // The digits left before the next comma.
    let mut left = (digits.len() + 2) % 3 + 1;
    for c in digits.chars() {
        if left == 0 {
            out.push(',');
            left = 3;
        }
        out.push(c);
        left -= 1;
    }
    out
}

/// `7s`, `1m 05s`, `2h 03m`.
fn duration(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
    }
}

/// Draws the line once, cut to the terminal's width.
fn draw(shared: &Shared, spinner: char) {
    let Some(width) = width() else {
        return;
    };
    let elapsed = shared.started.elapsed();
    let count = shared.count.load(Ordering::Relaxed);
    let rate = (count as f64 / elapsed.as_secs_f64().max(0.001)) as u64;
    let text = match shared.total {
        Some(total) => format!(
            "{spinner} {}/{} {} ({} {}/s, {})",
            grouped(count),
            grouped(total),
            shared.unit,
            grouped(rate),
            shared.unit,
            duration(elapsed)
        ),
        None => format!(
            "{spinner} exploring under {}: {} {} ({} {}/s, {})",
            shared.what,
            grouped(count),
            shared.unit,
            grouped(rate),
            shared.unit,
            duration(elapsed)
        ),
    };
    let room = width.saturating_sub(2);
    if room < 10 {
        return;
    }
    let shown: String = text.chars().take(room).collect();
    let _drawing = DRAWING.lock().unwrap_or_else(|e| e.into_inner());
    SHOWN.store(true, Ordering::SeqCst);
    eprint!("\r{shown}\x1b[K");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_times_read_as_people_write_them() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(7026248), "7,026,248");
        assert_eq!(duration(Duration::from_secs(7)), "7s");
        assert_eq!(duration(Duration::from_secs(65)), "1m 05s");
        assert_eq!(duration(Duration::from_secs(7380)), "2h 03m");
    }
}
