//! The progress bar of long explorations, on standard error when it is a
//! terminal.
//!
//! It appears only once an exploration has run for about a second, so quick
//! runs print nothing extra, and it is cleared before the table is printed.
//! The explorer reports from a worker thread (after every merged chunk of
//! its frontier); nothing else may hold standard error's lock meanwhile
//! (see `main.rs`). A steady tick keeps the spinner turning when chunks are
//! slow.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A spinner with a state count, hidden for its first second.
pub struct ProgressAfterASecond {
    bar: indicatif::ProgressBar,
    started: Instant,
    shown: AtomicBool,
}

impl ProgressAfterASecond {
    /// A bar for an exploration under `what` (a model's name, and why).
    pub fn new(what: &str) -> Self {
        Self::counting(what, "states")
    }

    /// A bar for an exploration under `what` counting `unit` (`states`,
    /// or `executions` for the stateless explorer).
    pub fn counting(what: &str, unit: &str) -> Self {
        let bar = indicatif::ProgressBar::hidden();
        bar.set_style(
            indicatif::ProgressStyle::with_template(&format!(
                "{{spinner}} exploring under {{prefix}}: {{human_pos}} {unit} ({{rate}} {unit}/s, {{elapsed}})"
            ))
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner())
            .with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}", indicatif::HumanCount(state.per_sec() as u64));
                },
            ),
        );
        bar.set_prefix(what.to_string());
        ProgressAfterASecond {
            bar,
            started: Instant::now(),
            shown: false.into(),
        }
    }

    /// The explorer has stored `states` states (or run that many
    /// executions).
    pub fn update(&self, states: u64) {
        if !self.shown.load(Ordering::Relaxed) && self.started.elapsed() > Duration::from_secs(1) {
            self.shown.store(true, Ordering::Relaxed);
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
            self.bar.enable_steady_tick(Duration::from_millis(120));
        }
        self.bar.set_position(states);
    }

    /// Erases the bar (if it was drawn).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for ProgressAfterASecond {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

impl std::fmt::Debug for ProgressAfterASecond {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressAfterASecond")
    }
}
