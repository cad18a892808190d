//! Fence repair: the fewest fences (or the weakest orders) that forbid an
//! outcome, verified by exhaustive runs.
//!
//! - [`site`]: the candidate sites (statement boundaries for fences,
//!   atomic accesses for orders), the options at each, their strength and
//!   cost.
//! - [`apply`]: a placement applied to a program.
//! - [`goal`]: what must go (the condition's forbidden outcomes and
//!   failures, or every non-SC behaviour; data races under C11).
//! - [`oracle`]: exhaustive runs (operational or axiomatic) and the
//!   happens-before cycles of bad executions (Shasha-Snir delays, RELAXER's
//!   Def. 1).
//! - [`hitting`]: exact minimum hitting sets.
//! - [`search`]: the implicit hitting-set loop that finds every minimum
//!   repair and proves nothing smaller works.

pub mod apply;
pub mod goal;
pub mod hitting;
pub mod oracle;
pub mod search;
pub mod site;

pub use crate::registry::Repairs;
pub use apply::{apply, Placement};
pub use goal::{Behaviour, Goal, GoalError, Judge};
pub use oracle::{Axiomatic, Operational, Oracle};
pub use search::{repair, Repair, RepairError, RepairOptions, Solution, Status, Trial};
pub use site::{candidate_sites, every_site, Anchor, Change, Site, SiteKind};
