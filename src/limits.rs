//! The bounds of an exploration that depend on the world, as the CLI sets
//! them (`relaxlab_semantics::budget`): Ctrl-C ([`crate::interrupt`]),
//! `--timeout` (a deadline set when each exploration starts) and
//! `--max-memory` (a ceiling on the process's resident memory, measured
//! here: the semantics crate does no I/O).

use relaxlab_semantics::budget::{Budget, MemoryCeiling};

use crate::cli::EngineArgs;

/// The budget of the explorations of one command: the Ctrl-C flag and the
/// memory ceiling. The deadline of `--timeout` is set per exploration
/// (`engine::run_detailed`), like `--max-states`, which bounds each
/// exploration and not the command.
pub fn budget(args: &EngineArgs) -> Budget {
    Budget {
        interrupt: crate::interrupt::flag(),
        deadline: None,
        memory: args.max_memory.map(|bytes| MemoryCeiling {
            bytes,
            baseline: 0,
            probe: resident_bytes,
        }),
    }
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
    fn resident_memory_is_measured_on_linux() {
        if cfg!(target_os = "linux") {
            let bytes = super::resident_bytes().unwrap();
            assert!(bytes > 0);
        }
    }
}
