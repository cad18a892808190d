//! `c11r`'s states drawn for people ([`Describe`]): each atomic location's
//! store list `SE_a` in modification order (TSAN11 Fig. 10), each
//! non-atomic location's value and last write, the global SC clocks, and
//! each thread's vector clocks (TSAN11 Figs. 6 and 13). `c11t` draws its
//! thread clocks with the same functions.

use crate::ir::{Program, ThreadId};
use crate::picture::{loc_name, thread_name, Cell, Describe, Group, MemoryPicture};

use super::state::{Access, C11State, Loc, NaLoc, ScWrite, StoreElem, ThreadClocks};
use super::C11r;
use crate::models::clocks::vclock::{Epoch, VClock};

/// `[P0:2 P1:1]`, the non-zero entries of a clock; `⊥` for the bottom
/// clock.
pub(crate) fn clock_text(program: &Program, c: &VClock) -> String {
    let entries: Vec<String> = (0..program.threads.len())
        .map(ThreadId::new)
        .filter(|&t| c.get(t) != 0)
        .map(|t| format!("{}:{}", thread_name(program, t), c.get(t)))
        .collect();
    if entries.is_empty() {
        "⊥".to_string()
    } else {
        format!("[{}]", entries.join(" "))
    }
}

/// `P0@2`: an event of `t` at epoch `e`.
pub(crate) fn event_text(program: &Program, t: ThreadId, e: Epoch) -> String {
    format!("{}@{e}", thread_name(program, t))
}

/// A thread's clocks: `C` always, the fence and SC clocks when they are
/// not `⊥` (TSAN11 Figs. 6 and 13 name them).
pub(crate) fn thread_groups(program: &Program, th: &ThreadClocks) -> Vec<Group> {
    let mut cells = vec![Cell::noted(
        format!("C = {}", clock_text(program, &th.c)),
        "what happens before its next event",
    )];
    for (name, clock) in [
        ("F_rel", &th.frel),
        ("F_acq", &th.facq),
        ("S_F", &th.sf),
        ("S_W", &th.sw),
        ("S_R", &th.sr),
    ] {
        if *clock != VClock::bottom() {
            cells.push(Cell::plain(format!(
                "{name} = {}",
                clock_text(program, clock)
            )));
        }
    }
    vec![Group::new("clocks", cells)]
}

/// The global SC clocks `S_F` and `S_W` (TSAN11 Fig. 13), when not `⊥`.
pub(crate) fn sc_group(program: &Program, sf: &VClock, sw: &VClock) -> Option<Group> {
    let cells: Vec<Cell> = [("S_F", sf), ("S_W", sw)]
        .into_iter()
        .filter(|(_, c)| **c != VClock::bottom())
        .map(|(name, c)| Cell::plain(format!("{name} = {}", clock_text(program, c))))
        .collect();
    (!cells.is_empty()).then(|| Group::new("SC clocks", cells))
}

/// One store element: its value, then who wrote it, whether it was an SC
/// write, the loads that read it and its release clock.
pub(crate) fn store_cell(program: &Program, s: &StoreElem) -> Cell {
    let mut notes = vec![if s.epoch == 0 {
        "init".to_string()
    } else {
        format!("by {}", event_text(program, s.writer, s.epoch))
    }];
    if s.sc == ScWrite::Yes {
        notes.push("sc".to_string());
    }
    if !s.loads.is_empty() {
        let readers: Vec<String> = s
            .loads
            .iter()
            .map(|l| event_text(program, l.thread, l.epoch))
            .collect();
        notes.push(format!("read by {}", readers.join(" ")));
    }
    if s.clock != VClock::bottom() {
        notes.push(format!("releases {}", clock_text(program, &s.clock)));
    }
    Cell::noted(s.value.to_string(), notes.join(", "))
}

/// A non-atomic location: its value, its last write and the reads the race
/// shadow remembers (FastTrack, TSAN11 Sec. 2.2).
pub(crate) fn na_group(program: &Program, name: String, na: &NaLoc) -> Group {
    let access = |t: ThreadId, a: &Access| match a.site {
        None => "init".to_string(),
        Some(_) => event_text(program, t, a.epoch),
    };
    let mut notes = vec![format!("last write {}", access(na.writer, &na.last_write))];
    if !na.reads.is_empty() {
        let reads: Vec<String> = na.reads.iter().map(|(t, a)| access(*t, a)).collect();
        notes.push(format!("reads {}", reads.join(" ")));
    }
    Group::hinted(
        name,
        "non-atomic",
        vec![Cell::noted(na.value.to_string(), notes.join(", "))],
    )
}

impl Describe for C11r {
    fn describe(&self, program: &Program, s: &C11State) -> MemoryPicture {
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
}
