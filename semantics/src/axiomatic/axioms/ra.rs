//! `ax.ra`: release/acquire consistency (Lahav, Giannarakis and Vafeiadis,
//! POPL 2016; GenMC's RA), the axiomatic twin of the operational `ra`
//! ([`crate::models::ra`]; book: model-ra.md, The axiomatic twin).
//! Every write is a release and every read an acquire, whatever the program's orders, so happens-before is
//! `hb = (po | asw | rf)+`, and an execution is consistent when
//!
//! - `hb` is acyclic (no read takes a write that depends on it);
//! - `hb; eco` is irreflexive, with `eco = (rf | co | fr)+` (coherence: no
//!   event sees, through `rf`, `co` or `fr`, one that happens before it);
//! - `rmw & (fr; co)` is empty (atomicity: no write comes between an RMW's
//!   read and its write in `co`).
//!
//! `fence`s add nothing and `sc` is release/acquire: RA has no SC order.
//! It decides no data race (every access synchronises).

use crate::axiomatic::execution::{EventId, Execution, Rejection};
use crate::axiomatic::relation::members;
use crate::axiomatic::run::Accepted;

/// The axioms of `ax.ra` (module docs).
pub(crate) fn ra(ex: &Execution) -> Result<Accepted, Rejection> {
    let base = ex.po.union(&ex.asw).union(&ex.rf);
    base.acyclic()
        .map_err(|cycle| Rejection { axiom: "hb", cycle })?;
    let hb = base.plus();
    let fr = ex.fr();
    let eco = ex.rf.union(&ex.co).union(&fr).plus();
    if let Err(e) = hb.seq(&eco).irreflexive() {
        // `e` happens before an event that sees it again through `eco`.
        let back = eco.inverse().row(e) & hb.row(e);
        let f = members(back).next().unwrap_or(e);
        return Err(Rejection {
            axiom: "coherence",
            cycle: vec![EventId::new(e), EventId::new(f)],
        });
    }
    ex.rmw
        .inter(&fr.seq(&ex.co))
        .empty_or_pair()
        .map_err(|(r, w)| Rejection {
            axiom: "atomicity",
            cycle: vec![EventId::new(r), EventId::new(w)],
        })?;
    Ok(Accepted { sc: None, hb: None })
}
