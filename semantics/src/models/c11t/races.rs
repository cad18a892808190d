//! Non-atomic accesses under `c11t`: one value per location and the
//! FastTrack race shadow of TSAN11 Sec. 2.2, exactly as `c11r` does it:
//! the checks are `clocks::shadow::{read_shadow, write_shadow}`; only the state
//! type differs.

use super::state::{C11tState, Loc};
use crate::ir::{LocId, Value};
use crate::model::{Race, Site};
use crate::models::clocks::shadow::{read_shadow, write_shadow, NaLoc};
use crate::models::clocks::threads::ThreadClockState;

fn na_mut(s: &mut C11tState, loc: LocId) -> &mut NaLoc {
    match s.locs.get_mut(loc.index()) {
        Some(Loc::NonAtomic(n)) => n,
        _ => unreachable!("relaxlab internal error: non-atomic rule on an atomic location"),
    }
}

/// NON-ATOMIC READ (write-read check): returns the value and the races
/// found, and records the read in `R_x(t)`.
pub(crate) fn na_read(s: &mut C11tState, site: Site, loc: LocId) -> (Value, Vec<Race>) {
    let c = s.thread(site.thread).c.clone();
    read_shadow(na_mut(s, loc), &c, site, loc)
}

/// NON-ATOMIC WRITE (write-write and read-write checks): writes `value`,
/// returns the races found and records the write as `W_x`.
pub(crate) fn na_write(s: &mut C11tState, site: Site, loc: LocId, value: Value) -> Vec<Race> {
    let c = s.thread(site.thread).c.clone();
    write_shadow(na_mut(s, loc), &c, site, loc, value)
}
