//! Reasons outside a search to stop it early: an interruption (Ctrl-C), a
//! deadline (`--timeout`) and a memory ceiling (`--max-memory`).
//!
//! The state bound (`--max-states`), the candidate bound and the step
//! bound of sampled runs are properties of the search and live in each
//! engine's options. A [`Budget`] holds the bounds that depend on the
//! world: the engines poll it between units of work (a chunk of the
//! breadth-first frontier, a chunk of sampled runs) and, once it is
//! exhausted, stop and report the [`BoundHit`] it names, like any other
//! bound (README.md, Architecture, invariant 4). What was found before the stop is
//! kept: the table is partial and says so.
//!
//! This crate does no I/O (invariant 1): the caller supplies the flag a
//! signal handler sets and the probe that reads the process's memory use.
//! Polling costs an atomic load, a clock read and, with a ceiling, one
//! probe call per unit of work, so units are a few milliseconds long or
//! more. A run that hits one of these bounds is not deterministic (where it
//! stops depends on the clock or on when the user pressed Ctrl-C); every
//! run that does not hit one is unaffected.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::outcome::BoundHit;

/// Reports the memory the process uses now, in bytes, or `None` when it
/// cannot tell.
pub type MemoryProbe = fn() -> Option<u64>;

/// The bounds of a search that depend on the world (see the module docs).
/// The default budget never runs out.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Set by the caller (a SIGINT handler) to ask the search to stop:
    /// [`BoundHit::Interrupted`].
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Stop at this instant: [`BoundHit::Timeout`], which reports the
    /// duration the caller gave.
    pub deadline: Option<Deadline>,
    /// Stop once the process uses more than this: [`BoundHit::MaxMemory`].
    pub memory: Option<MemoryCeiling>,
    /// Told how far the search has got each time it polls the budget (the
    /// axiomatic engine: the candidate executions counted so far), for a
    /// progress line; it cannot change the result.
    pub progress: Option<ProgressHook>,
}

/// What a search calls with its progress ([`Budget::progress`]).
#[derive(Clone)]
pub struct ProgressHook(pub Arc<dyn Fn(u64) + Send + Sync>);

impl std::fmt::Debug for ProgressHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressHook")
    }
}

/// A point in time to stop at, and the duration it was given as.
#[derive(Clone, Copy, Debug)]
pub struct Deadline {
    pub at: Instant,
    pub after: Duration,
}

impl Deadline {
    /// The deadline `after` from now.
    pub fn after(after: Duration) -> Deadline {
        let now = Instant::now();
        Deadline {
            at: now
                .checked_add(after)
                .unwrap_or(now + Duration::from_secs(u32::MAX.into())),
            after,
        }
    }
}

/// A ceiling on the process's memory use, and how to measure it: the
/// search stops once the probe reads more than `baseline + bytes`.
#[derive(Clone, Copy, Debug)]
pub struct MemoryCeiling {
    /// The memory the search may use above `baseline`.
    pub bytes: CeilingBytes,
    /// The memory the process already used, as the probe read it, when
    /// the budget was set: 0 for a ceiling on the whole process (`run
    /// --max-memory`), the reading at a request's start for a budget per
    /// request (`serve --max-memory`).
    pub baseline: u64,
    pub probe: MemoryProbe,
}

/// The size of a [`MemoryCeiling`]: given, or computed by the caller's
/// function the first time the probe reads the memory in use (the CLI's
/// default, a share of the machine's memory, costs reading system files:
/// a search that ends before its first reading never reads them). The
/// function is called at every reading, so it keeps what it computed;
/// `None` (the system does not tell) leaves the search without a ceiling.
#[derive(Clone, Copy, Debug)]
pub enum CeilingBytes {
    Given(u64),
    AtFirstReading(fn() -> Option<u64>),
}

impl CeilingBytes {
    /// The number of bytes, computed if it is not given.
    pub fn get(self) -> Option<u64> {
        match self {
            CeilingBytes::Given(bytes) => Some(bytes),
            CeilingBytes::AtFirstReading(compute) => compute(),
        }
    }
}

impl From<u64> for CeilingBytes {
    fn from(bytes: u64) -> CeilingBytes {
        CeilingBytes::Given(bytes)
    }
}

impl Budget {
    /// The bound that has run out, if any: an interruption first, then the
    /// deadline, then memory.
    pub fn exhausted(&self) -> Option<BoundHit> {
        if let Some(flag) = &self.interrupt {
            if flag.load(Ordering::Relaxed) {
                return Some(BoundHit::Interrupted);
            }
        }
        if let Some(d) = self.deadline {
            if Instant::now() >= d.at {
                return Some(BoundHit::Timeout {
                    millis: u64::try_from(d.after.as_millis()).unwrap_or(u64::MAX),
                });
            }
        }
        if let Some(m) = self.memory {
            // The probe first: the ceiling is computed only once there is
            // a reading to compare with it.
            if let Some(used) = (m.probe)() {
                if let Some(bytes) = m.bytes.get() {
                    if used.saturating_sub(m.baseline) > bytes {
                        return Some(BoundHit::MaxMemory {
                            bytes,
                            baseline: m.baseline,
                        });
                    }
                }
            }
        }
        None
    }

    /// Reports that the search has got to `count` (candidates, ...) to the
    /// progress hook, if any.
    pub fn report(&self, count: u64) {
        if let Some(ProgressHook(hook)) = &self.progress {
            hook(count);
        }
    }

    /// Does this budget never run out?
    pub fn is_unlimited(&self) -> bool {
        self.interrupt.is_none() && self.deadline.is_none() && self.memory.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_budget_never_runs_out() {
        assert!(Budget::default().is_unlimited());
        assert_eq!(Budget::default().exhausted(), None);
    }

    #[test]
    fn interruption_wins_over_the_other_bounds() {
        let flag = Arc::new(AtomicBool::new(false));
        let budget = Budget {
            interrupt: Some(flag.clone()),
            deadline: Some(Deadline::after(Duration::ZERO)),
            memory: Some(MemoryCeiling {
                bytes: 0.into(),
                baseline: 0,
                probe: || Some(1),
            }),
            progress: None,
        };
        assert_eq!(budget.exhausted(), Some(BoundHit::Timeout { millis: 0 }));
        flag.store(true, Ordering::Relaxed);
        assert_eq!(budget.exhausted(), Some(BoundHit::Interrupted));
    }

    #[test]
    fn memory_ceiling_uses_the_probe() {
        let over = Budget {
            memory: Some(MemoryCeiling {
                bytes: 10.into(),
                baseline: 0,
                probe: || Some(11),
            }),
            ..Budget::default()
        };
        assert_eq!(
            over.exhausted(),
            Some(BoundHit::MaxMemory {
                bytes: 10,
                baseline: 0
            })
        );
        let within = Budget {
            memory: Some(MemoryCeiling {
                bytes: 10.into(),
                baseline: 1,
                probe: || Some(11),
            }),
            ..Budget::default()
        };
        assert_eq!(within.exhausted(), None);
        let unknown = Budget {
            memory: Some(MemoryCeiling {
                bytes: 10.into(),
                baseline: 0,
                probe: || None,
            }),
            ..Budget::default()
        };
        assert_eq!(unknown.exhausted(), None);
    }

    #[test]
    fn a_computed_ceiling_is_computed_only_once_read() {
        use std::sync::atomic::AtomicUsize;
        static COMPUTED: AtomicUsize = AtomicUsize::new(0);
        fn ceiling() -> Option<u64> {
            COMPUTED.fetch_add(1, Ordering::Relaxed);
            Some(10)
        }
        let not_read = Budget {
            memory: Some(MemoryCeiling {
                bytes: CeilingBytes::AtFirstReading(ceiling),
                baseline: 0,
                probe: || None,
            }),
            ..Budget::default()
        };
        assert_eq!(not_read.exhausted(), None);
        assert_eq!(COMPUTED.load(Ordering::Relaxed), 0);
        let over = Budget {
            memory: Some(MemoryCeiling {
                bytes: CeilingBytes::AtFirstReading(ceiling),
                baseline: 0,
                probe: || Some(11),
            }),
            ..Budget::default()
        };
        assert_eq!(
            over.exhausted(),
            Some(BoundHit::MaxMemory {
                bytes: 10,
                baseline: 0
            })
        );
        assert_eq!(COMPUTED.load(Ordering::Relaxed), 1);
        let unknown = Budget {
            memory: Some(MemoryCeiling {
                bytes: CeilingBytes::AtFirstReading(|| None),
                baseline: 0,
                probe: || Some(u64::MAX),
            }),
            ..Budget::default()
        };
        assert_eq!(unknown.exhausted(), None);
    }
}
