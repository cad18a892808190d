//! The C11 models' clocks, stores and race shadows drawn for people
//! ([`crate::picture`]): `c11r` and `c11t` draw their thread clocks, SC
//! clocks, store elements and non-atomic locations with these functions.

use crate::ir::{Program, ThreadId};
use crate::picture::{thread_name, Cell, Group};

use super::shadow::{Access, NaLoc};
use super::store::{ScWrite, StoreElem};
use super::threads::ThreadClocks;
use super::vclock::{Epoch, VClock};

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
