//! The bounds of an exploration that depend on the world, as the CLI sets
//! them (`relaxlab_semantics::budget`): Ctrl-C ([`crate::interrupt`]),
//! `--timeout` (a deadline set when each exploration starts) and
//! `--max-memory` (a ceiling on the process's resident memory, measured
//! here: the semantics crate does no I/O; by default four fifths of the
//! machine's memory).
//!
//! Reading the memory from `/proc` costs tens of microseconds a file, as
//! much as judging a small test: a reading stands for [`PROBE_EVERY`],
//! and under the default ceiling the first is taken that long after the
//! command's budget was set, and the ceiling itself computed then. A run
//! shorter than that reads no system file for its ceiling; none can have
//! grown by gigabytes in so short a time, and a later reading finds it if
//! it did (book: cli.md, Bounds, time, memory and Ctrl-C).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

use relaxlab_semantics::budget::{Budget, CeilingBytes, MemoryCeiling};

use crate::cli::EngineArgs;

/// The budget of the explorations of one command: the Ctrl-C flag and the
/// memory ceiling. The deadline of `--timeout` is set per exploration
/// (`engine::run_detailed`), like `--max-states`, which bounds each
/// exploration and not the command.
pub fn budget(args: &EngineArgs) -> Budget {
    MEMORY_BY_DEFAULT.store(args.max_memory.is_none(), Ordering::Relaxed);
    let memory = match args.max_memory {
        Some(bytes) => MemoryCeiling {
            bytes: bytes.into(),
            baseline: 0,
            probe: resident_bytes_recent,
        },
        None => {
            let _ = START.get_or_init(Instant::now);
            MemoryCeiling {
                bytes: CeilingBytes::AtFirstReading(default_max_memory_once),
                baseline: 0,
                probe: resident_bytes_after_a_while,
            }
        }
    };
    Budget {
        interrupt: crate::interrupt::flag(),
        deadline: None,
        memory: Some(memory),
        progress: None,
    }
}

/// Whether the command's `--max-memory` is the default (set by
/// [`budget`]), for messages that name the bound.
static MEMORY_BY_DEFAULT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Was `--max-memory` left to its default ([`default_max_memory`])?
pub fn memory_by_default() -> bool {
    MEMORY_BY_DEFAULT.load(Ordering::Relaxed)
}

/// When the process first set a budget or read its memory: the clock of
/// [`resident_bytes_recent`] and [`resident_bytes_after_a_while`].
static START: OnceLock<Instant> = OnceLock::new();

/// Microseconds since [`START`].
fn now_micros() -> u64 {
    START.get_or_init(Instant::now).elapsed().as_micros() as u64
}

/// [`resident_bytes_recent`], but nothing (no reading, so no check) until
/// [`PROBE_EVERY`] after the first budget was set: the probe of the
/// default ceiling.
fn resident_bytes_after_a_while() -> Option<u64> {
    if now_micros() < PROBE_EVERY {
        return None;
    }
    resident_bytes_recent()
}

/// [`default_max_memory`], computed once per process.
fn default_max_memory_once() -> Option<u64> {
    static CEILING: OnceLock<Option<u64>> = OnceLock::new();
    *CEILING.get_or_init(default_max_memory)
}

/// [`resident_bytes`], read at most once every [`PROBE_EVERY`]: searches
/// poll their budget thousands of times a second (a sampled run every 256
/// moves), and reading `/proc` costs tens of microseconds.
pub fn resident_bytes_recent() -> Option<u64> {
    /// The last reading (`u64::MAX`: none) and when it was taken, in
    /// microseconds since `START`.
    static LAST: AtomicU64 = AtomicU64::new(u64::MAX);
    static AT: AtomicU64 = AtomicU64::new(0);
    let now = now_micros();
    let last = LAST.load(Ordering::Relaxed);
    if last != u64::MAX && now.saturating_sub(AT.load(Ordering::Relaxed)) < PROBE_EVERY {
        return Some(last);
    }
    let read = resident_bytes()?;
    LAST.store(read, Ordering::Relaxed);
    AT.store(now, Ordering::Relaxed);
    Some(read)
}

/// How long a reading of the resident memory stands, in microseconds.
const PROBE_EVERY: u64 = 10_000;

/// The ceiling when `--max-memory` is not given: four fifths of the memory
/// this process may use (the machine's, or its control group's limit if
/// lower), so that a search too large for the machine stops with what it
/// found, marked partial, instead of being killed by the system with
/// nothing printed. `None` where the system does not tell.
pub fn default_max_memory() -> Option<u64> {
    let total = physical_bytes()?;
    let limit = cgroup_limit_bytes().map_or(total, |c| c.min(total));
    Some(limit / 5 * 4)
}

/// `MemTotal` of `/proc/meminfo`.
fn physical_bytes() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 = info
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    kib.checked_mul(1024)
}

/// The memory limit of this process's control group, if it has one:
/// cgroup v2's `memory.max`, or v1's `memory.limit_in_bytes` (whose "no
/// limit" is a huge number, which the caller's minimum drops).
fn cgroup_limit_bytes() -> Option<u64> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let read =
        |file: String| -> Option<u64> { std::fs::read_to_string(file).ok()?.trim().parse().ok() };
    let v1 = own.lines().find_map(|l| {
        let (_, rest) = l.split_once(':')?;
        let (controllers, path) = rest.split_once(':')?;
        controllers
            .split(',')
            .any(|c| c == "memory")
            .then_some(path)
    });
    if let Some(path) = v1 {
        let dir = format!("/sys/fs/cgroup/memory{}", path.trim_end_matches('/'));
        if let Some(limit) = read(format!("{dir}/memory.limit_in_bytes")) {
            return Some(limit);
        }
    }
    let v2 = own.lines().find_map(|l| l.strip_prefix("0::"))?;
    read(format!(
        "/sys/fs/cgroup{}/memory.max",
        v2.trim_end_matches('/')
    ))
}

/// The resident memory of this process (`VmRSS` of `/proc/self/status`),
/// or `None` where the system does not tell (then `--max-memory` has no
/// effect, and relaxlab warns).
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_default_ceiling_is_below_the_machine() {
        if cfg!(target_os = "linux") {
            let ceiling = super::default_max_memory().unwrap();
            let total = super::physical_bytes().unwrap();
            assert!(ceiling > 0 && ceiling < total);
        }
    }

    #[test]
    fn resident_memory_is_measured_on_linux() {
        if cfg!(target_os = "linux") {
            let bytes = super::resident_bytes().unwrap();
            assert!(bytes > 0);
        }
    }
}
