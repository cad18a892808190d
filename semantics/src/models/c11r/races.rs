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

use super::state::{Access, C11State, Loc, NaLoc};
use crate::ir::{LocId, Value};
use crate::model::{Race, Site};
use crate::models::clocks::threads::ThreadClockState;
use crate::models::clocks::vclock::VClock;

fn na_mut(s: &mut C11State, loc: LocId) -> &mut NaLoc {
    match s.locs.get_mut(loc.index()) {
        Some(Loc::NonAtomic(n)) => n,
        _ => unreachable!("relaxlab internal error: non-atomic rule on an atomic location"),
    }
}

/// NON-ATOMIC READ (FastTrack write-read check, TSAN11 Sec. 2.2): returns
/// the value and the races found, and records the read in `R_x(t)`.
pub(crate) fn na_read(s: &mut C11State, site: Site, loc: LocId) -> (Value, Vec<Race>) {
    let c = s.thread(site.thread).c.clone();
    read_shadow(na_mut(s, loc), &c, site, loc)
}

/// The write-read check and read record of [`na_read`] on one location's
/// shadow, for a reader whose clock is `c` (shared with `c11t`).
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

/// NON-ATOMIC WRITE (FastTrack write-write and read-write checks, TSAN11
/// Sec. 2.2): writes `value`, returns the races found and records the
/// write as `W_x`.
pub(crate) fn na_write(s: &mut C11State, site: Site, loc: LocId, value: Value) -> Vec<Race> {
    let c = s.thread(site.thread).c.clone();
    write_shadow(na_mut(s, loc), &c, site, loc, value)
}

/// The write-write and read-write checks and write record of [`na_write`]
/// on one location's shadow, for a writer whose clock is `c` (shared with
/// `c11t`).
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
