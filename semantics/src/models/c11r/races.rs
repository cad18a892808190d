//! Non-atomic accesses of `c11r` and `ScRaces`: each reads or writes the
//! location's value and runs the FastTrack checks of its race shadow
//! ([`crate::models::clocks::shadow`], TSAN11 Sec. 2.2) with the
//! accessing thread's clock.

use super::state::{C11State, Loc, NaLoc};
use crate::ir::{LocId, Value};
use crate::model::{Race, Site};
use crate::models::clocks::shadow::{read_shadow, write_shadow};
use crate::models::clocks::threads::ThreadClockState;

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

/// NON-ATOMIC WRITE (FastTrack write-write and read-write checks, TSAN11
/// Sec. 2.2): writes `value`, returns the races found and records the
/// write as `W_x`.
pub(crate) fn na_write(s: &mut C11State, site: Site, loc: LocId, value: Value) -> Vec<Race> {
    let c = s.thread(site.thread).c.clone();
    write_shadow(na_mut(s, loc), &c, site, loc, value)
}
