//! `c11t`'s states drawn for people ([`Describe`]): each atomic location's
//! stores as mo-graph nodes in the order they were performed, with their
//! `mo` constraint edges and rmw links (C11TESTER Sec. 4.1), and the
//! thread clocks as `c11r` draws them.

use crate::ir::{LocId, Program};
use crate::models::clocks::describe::{na_group, sc_group, store_cell, thread_groups};
use crate::picture::{loc_name, Cell, Describe, Group, MemoryPicture};

use super::state::{AtomicLoc, C11tState, Loc};
use super::C11t;

/// The stores of an atomic location, `#i` being node `i`, each with the
/// nodes it must precede in `mo`.
fn mo_graph_cells(program: &Program, at: &AtomicLoc) -> Vec<Cell> {
    (0..at.stores.len())
        .map(|i| {
            let node = at.graph.node(i as u32);
            let store = store_cell(program, at.store(i as u32));
            let mut notes = vec![store.note.unwrap_or_default()];
            if !node.succ.is_empty() {
                let succ: Vec<String> = node.succ.iter().map(|n| format!("#{n}")).collect();
                notes.push(format!("mo before {}", succ.join(" ")));
            }
            if let Some(p) = node.rmw_prev {
                notes.push(format!("rmw of #{p}"));
            }
            Cell::noted(format!("#{i}: {}", store.text), notes.join(", "))
        })
        .collect()
}

impl Describe for C11t {
    fn describe(&self, program: &Program, s: &C11tState) -> MemoryPicture {
        let mut shared: Vec<Group> = s
            .locs
            .iter()
            .enumerate()
            .map(|(a, loc)| {
                let name = loc_name(program, LocId::new(a));
                match loc {
                    Loc::Atomic(at) => Group::hinted(
                        format!("{name}: stores"),
                        if at.settled {
                            "performance order; mo settled, the last store fixed"
                        } else {
                            "performance order; mo is any order the edges allow"
                        },
                        mo_graph_cells(program, at),
                    ),
                    Loc::NonAtomic(na) => na_group(program, name, na),
                }
            })
            .collect();
        shared.extend(sc_group(program, &s.sf, &s.sw));
        MemoryPicture {
            shared,
            threads: s
                .threads
                .iter()
                .map(|th| thread_groups(program, th))
                .collect(),
        }
    }
}
