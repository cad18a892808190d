//! The bounds every request of the playground runs within.

use std::time::Duration;

use crate::cli::ServeArgs;

/// The server's limits (`relaxlab serve --help` names the flags).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Time limit of one request's work.
    pub request_timeout: Duration,
    /// State bound of one operational exploration; a request may lower it.
    pub max_states: u64,
    /// Candidate bound of one axiomatic run; a request may lower it.
    pub max_candidates: u64,
    /// Sampled runs of one request.
    pub max_samples: u64,
    /// Steps of one sampled run.
    pub max_sample_steps: u64,
    /// Requests that explore at the same time.
    pub max_running: usize,
    /// The largest request body, in bytes.
    pub max_request_bytes: usize,
    /// Stepper sessions kept; the least recently used goes first.
    pub max_sessions: usize,
    /// Moves of one stepper walk.
    pub max_walk: usize,
    /// Worker threads of exhaustive exploration (0: all cores).
    pub jobs: usize,
    /// How much one request may grow the server's resident memory, in
    /// bytes, above what it was when the request's work started (the
    /// mechanism of `run --max-memory`, measured from that start): a
    /// request past it stops like any bound, with a partial table. The
    /// default, [`DEFAULT_MAX_MEMORY`], is about three times what one
    /// exploration of the default `max_states` needs at the ~300 bytes a
    /// state the book measures on the library's largest (C11) states
    /// (book: reduction.md, Measured).
    pub max_memory: u64,
}

/// The default of [`Limits::max_memory`]: 1 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 1 << 30;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            request_timeout: Duration::from_secs(10),
            max_states: 1_000_000,
            max_candidates: 1_000_000,
            max_samples: 100_000,
            max_sample_steps: 10_000,
            max_running: 2,
            max_request_bytes: 256 * 1024,
            max_sessions: 256,
            max_walk: 100_000,
            jobs: 0,
            max_memory: DEFAULT_MAX_MEMORY,
        }
    }
}

impl Limits {
    /// The limits the flags of `relaxlab serve` ask for.
    pub fn from_args(args: &ServeArgs) -> Limits {
        Limits {
            request_timeout: Duration::from_secs(args.request_timeout.max(1)),
            max_states: args.max_states,
            max_candidates: args.max_candidates,
            max_running: args.max_running.max(1),
            max_request_bytes: args.max_request_bytes,
            jobs: args.jobs.unwrap_or(0),
            max_memory: args.max_memory,
            ..Limits::default()
        }
    }
}
