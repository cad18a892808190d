//! Non-atomic accesses under `c11t`: one value per location and the
//! FastTrack race shadow of TSAN11 Sec. 2.2, exactly as `c11r` does it
//! (`c11::races`, whose module docs give the checks); only the state type
//! differs.

use super::state::{C11tState, Loc};
use crate::c11::state::{Access, NaLoc};
use crate::ir::{LocId, Value};
use crate::model::{Race, Site};

fn na_mut(s: &mut C11tState, loc: LocId) -> &mut NaLoc {
    match s.locs.get_mut(loc.index()) {
        Some(Loc::NonAtomic(n)) => n,
        _ => unreachable!("relaxlab internal error: non-atomic rule on an atomic location"),
    }
}

/// NON-ATOMIC READ (write-read check): returns the value and the races
/// found, and records the read in `R_x(t)`.
pub(crate) fn na_read(s: &mut C11tState, site: Site, loc: LocId) -> (Value, Vec<Race>) {
    let t = site.thread;
    let c = s.thread(t).c.clone();
    let epoch = c.get(t);
    let n = na_mut(s, loc);
    let mut races = Vec::new();
    // write-read: W_x must happen before the read.
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

/// NON-ATOMIC WRITE (write-write and read-write checks): writes `value`,
/// returns the races found and records the write as `W_x`.
pub(crate) fn na_write(s: &mut C11tState, site: Site, loc: LocId, value: Value) -> Vec<Race> {
    let t = site.thread;
    let c = s.thread(t).c.clone();
    let epoch = c.get(t);
    let n = na_mut(s, loc);
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
