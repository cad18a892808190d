//! `c11r`'s states drawn for people ([`Describe`]): each atomic location's
//! store list `SE_a` in modification order (TSAN11 Fig. 10), each
//! non-atomic location's value and last write, the global SC clocks, and
//! each thread's vector clocks (TSAN11 Figs. 6 and 13), drawn by
//! [`crate::models::clocks::describe`] as `c11t` draws its own.

use crate::ir::Program;
use crate::picture::{loc_name, Describe, Group, MemoryPicture};

use super::state::{C11State, Loc};
use super::{C11r, ScRaces};
use crate::models::clocks::describe::{na_group, sc_group, store_cell, thread_groups};

impl Describe for C11r {
    fn describe(&self, program: &Program, s: &C11State) -> MemoryPicture {
        picture(program, s)
    }
}

/// SC memory with C11's clocks draws as `c11r`: its store lists hold the
/// newest store alone.
impl Describe for ScRaces {
    fn describe(&self, program: &Program, s: &C11State) -> MemoryPicture {
        picture(program, s)
    }
}

fn picture(program: &Program, s: &C11State) -> MemoryPicture {
    let mut shared: Vec<Group> = s
        .locs
        .iter()
        .enumerate()
        .map(|(a, loc)| {
            let name = loc_name(program, crate::ir::LocId::new(a));
            match loc {
                Loc::Atomic(at) => Group::hinted(
                    format!("{name}: store list"),
                    "modification order, oldest first",
                    at.stores.iter().map(|e| store_cell(program, e)).collect(),
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
