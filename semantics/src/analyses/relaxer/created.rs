//! Whether a trace creates a predicted cycle (RELAXER Sec. 4.3): events
//! `e1, ..., e2k` with `l(ej) = lj`, `e2q-1 ->p e2q` and `e2q ->c e2q+1
//! (mod 2k)`.
//!
//! The events are those of [`super::lift`], matched to the cycle's
//! statements (thread, label, location, access); the two events of a pair
//! are distinct (see [`super::predict`]). Conflict edges compare commit
//! indices. A store still buffered when the run ends (a failed assertion
//! ends it at once) can only reach memory later, after every write that
//! did: its index is taken as infinite ([`super::lift::UNCOMMITTED`]), as in
//! [`super::feasible`].

use super::lift::{Access, LiftedEvent, Position};
use super::predict::{PredictedCycle, Statement};

/// `x ->c y` by commit index, both placed.
fn edge(x: &LiftedEvent, y: &LiftedEvent) -> bool {
    let (px, py): (Position, Position) = (x.position, y.position);
    match (x.access, y.access) {
        (_, Access::Store) => px < py,
        (Access::Store, Access::Load) => px <= py,
        (Access::Load, Access::Load) => false,
    }
}

fn matches(e: &LiftedEvent, s: &Statement) -> bool {
    e.thread == s.thread && e.line == s.line && e.loc == s.loc && e.access == s.access
}

/// Does the lifted trace `events` contain the cycle?
pub fn creates(events: &[LiftedEvent], cycle: &PredictedCycle) -> bool {
    let el = &cycle.elements;
    let k = el.len() / 2;
    if k < 2 || el.len() & 1 == 1 {
        return false;
    }
    // Candidate (first, second) events of each pair, in program order.
    let pairs: Vec<Vec<(usize, usize)>> = (0..k)
        .map(|q| {
            let firsts: Vec<usize> = (0..events.len())
                .filter(|&i| matches(&events[i], &el[2 * q]))
                .collect();
            let seconds: Vec<usize> = (0..events.len())
                .filter(|&i| matches(&events[i], &el[2 * q + 1]))
                .collect();
            let mut out = Vec::new();
            for &a in &firsts {
                for &b in &seconds {
                    if events[a].index < events[b].index {
                        out.push((a, b));
                    }
                }
            }
            out
        })
        .collect();
    let mut chosen: Vec<(usize, usize)> = Vec::with_capacity(k);
    search(events, &pairs, &mut chosen)
}

/// Depth-first choice of one candidate pair per cycle pair, checking each
/// conflict edge as soon as both its ends are chosen.
fn search(
    events: &[LiftedEvent],
    pairs: &[Vec<(usize, usize)>],
    chosen: &mut Vec<(usize, usize)>,
) -> bool {
    let q = chosen.len();
    if q == pairs.len() {
        let (first, last) = (chosen[0], chosen[q - 1]);
        return edge(&events[last.1], &events[first.0]);
    }
    for &p in &pairs[q] {
        if q > 0 && !edge(&events[chosen[q - 1].1], &events[p.0]) {
            continue;
        }
        chosen.push(p);
        if search(events, pairs, chosen) {
            return true;
        }
        chosen.pop();
    }
    false
}
