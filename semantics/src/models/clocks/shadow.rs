//! Non-atomic accesses and their data-race checks: the vector-clock
//! (FastTrack) checks of TSAN11 Sec. 2.2.
//!
//! For a non-atomic location `x` the shadow keeps the last write `W_x =
//! c@u` (with its instruction) and the last read of each thread `R_x(v)`.
//! A thread `t` with clock `C_t` accessing `x`:
//!
//! - **write-write**: a write races with `W_x` unless `c <= C_t(u)`;
//! - **read-write**: a write races with every recorded read `R_x(v)` not
//!   covered by `C_t` (`R_x(v) > C_t(v)`);
//! - **write-read**: a read races with `W_x` unless `c <= C_t(u)`.
//!
//! A race is reported by the access that executes second, with both
//! instructions ([`Race`]: `earlier` executed first), so a pair that can
//! execute in both orders shows up in both orientations over all
//! executions (the axiomatic engine lists each pair once). The execution
//! continues with the newest value: a non-atomic location holds one value,
//! the last one written in execution order. The init write has epoch 0 and
//! never races.
//!
//! Unlike FastTrack, a write does not clear the read shadow: a read that
//! races with a later write is reported even when that write's own
//! predecessor was already racy, so more distinct race pairs are listed.
//! Only the last read per thread is kept: an earlier read of the same
//! thread is `sb`-before it, so if the last read happens before a write so
//! does the earlier one.

use super::vclock::{Epoch, VClock};
use crate::ir::{LocId, ThreadId, Value};
use crate::model::{Race, Site};

/// A non-atomic access remembered by the race shadow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Access {
    pub(crate) epoch: Epoch,
    /// The instruction; `None` for the init write.
    pub(crate) site: Option<Site>,
}

/// A non-atomic location: its value and race shadow (FastTrack, TSAN11
/// Sec. 2.2).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct NaLoc {
    pub(crate) value: Value,
    /// `W_x`: the last write (epoch 0 for the init write).
    pub(crate) last_write: Access,
    /// The writer of `last_write`.
    pub(crate) writer: ThreadId,
    /// `R_x`: the last read of each thread, sorted by thread.
    pub(crate) reads: Vec<(ThreadId, Access)>,
}

impl NaLoc {
    /// The location after its init write (epoch 0, no reads).
    pub(crate) fn initial(value: Value) -> Self {
        NaLoc {
            value,
            last_write: Access {
                epoch: 0,
                site: None,
            },
            writer: ThreadId(0),
            reads: Vec::new(),
        }
    }
}

/// The write-read check and read record of a non-atomic read on one location's
/// shadow, for a reader whose clock is `c` (`c11r` and `c11t`).
pub(crate) fn read_shadow(n: &mut NaLoc, c: &VClock, site: Site, loc: LocId) -> (Value, Vec<Race>) {
    let t = site.thread;
    let epoch = c.get(t);
    let mut races = Vec::new();
    // write-read: W_x = c@u must happen before the read.
    if !c.covers(n.writer, n.last_write.epoch) {
        if let Some(earlier) = n.last_write.site {
            races.push(Race {
                loc,
                earlier,
                later: site,
            });
        }
    }
    let access = Access {
        epoch,
        site: Some(site),
    };
    match n.reads.binary_search_by_key(&t, |(u, _)| *u) {
        Ok(i) => n.reads[i].1 = access,
        Err(i) => n.reads.insert(i, (t, access)),
    }
    (n.value, races)
}

/// The write-write and read-write checks and write record of a non-atomic
/// write on one location's shadow, for a writer whose clock is `c` (`c11r` and `c11t`).
pub(crate) fn write_shadow(
    n: &mut NaLoc,
    c: &VClock,
    site: Site,
    loc: LocId,
    value: Value,
) -> Vec<Race> {
    let t = site.thread;
    let epoch = c.get(t);
    let mut races = Vec::new();
    // write-write: W_x must happen before the write.
    if !c.covers(n.writer, n.last_write.epoch) {
        if let Some(earlier) = n.last_write.site {
            races.push(Race {
                loc,
                earlier,
                later: site,
            });
        }
    }
    // read-write: every recorded read must happen before the write.
    for (u, r) in &n.reads {
        if !c.covers(*u, r.epoch) {
            if let Some(earlier) = r.site {
                races.push(Race {
                    loc,
                    earlier,
                    later: site,
                });
            }
        }
    }
    n.value = value;
    n.writer = t;
    n.last_write = Access {
        epoch,
        site: Some(site),
    };
    races
}
