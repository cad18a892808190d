//! A memory state drawn for people: what the playground's stepper shows
//! beside the threads (store buffers, load histories, C11 store lists and
//! clocks, memory).
//!
//! Each operational model draws its own state through [`Describe`]. The
//! picture is model-neutral data (titled groups of cells), so whoever shows
//! it (the web page, a golden test) needs no knowledge of any model, and
//! the models need no knowledge of how it is shown. Names of locations and
//! threads come from the [`Program`] (the IR), never from the syntax.
//!
//! Every model draws the state it explores, with nothing left out, so a
//! student sees exactly what the next transition depends on. The one
//! choice a model makes for people is the order of its groups: shared
//! memory first, then each thread's private part.

use serde::Serialize;

use crate::ir::{LocId, Program, ThreadId, Value};
use crate::model::MemoryModel;

/// One cell of a group: a store, a buffered entry, a clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cell {
    /// The cell's main text (`x = 1`, `1 by P0`).
    pub text: String,
    /// A remark in smaller print (`read by P1`, `release clock [P0:1]`).
    pub note: Option<String>,
}

impl Cell {
    /// A cell with no remark.
    pub fn plain(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            note: None,
        }
    }

    /// A cell with a remark.
    pub fn noted(text: impl Into<String>, note: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            note: Some(note.into()),
        }
    }
}

/// A titled row of cells, e.g. a store buffer, oldest entry first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Group {
    /// What the row is (`memory`, `store buffer`, `x: store list (mo order)`).
    pub title: String,
    /// How to read the row (`oldest first`), if it needs saying.
    pub hint: Option<String>,
    pub cells: Vec<Cell>,
}

impl Group {
    /// A group with no reading hint.
    pub fn new(title: impl Into<String>, cells: Vec<Cell>) -> Group {
        Group {
            title: title.into(),
            hint: None,
            cells,
        }
    }

    /// A group with a reading hint.
    pub fn hinted(title: impl Into<String>, hint: impl Into<String>, cells: Vec<Cell>) -> Group {
        Group {
            title: title.into(),
            hint: Some(hint.into()),
            cells,
        }
    }
}

/// A memory state as people see it.
///
/// Invariant: `threads` has one entry per thread of the program, indexed
/// by [`ThreadId`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MemoryPicture {
    /// What every thread shares: memory, C11 store lists.
    pub shared: Vec<Group>,
    /// Each thread's private part: its store buffers, load histories,
    /// clocks.
    pub threads: Vec<Vec<Group>>,
}

/// A memory model that can draw its states.
pub trait Describe: MemoryModel {
    /// The picture of `state`, a state of this model running `program`.
    fn describe(&self, program: &Program, state: &Self::State) -> MemoryPicture;
}

/// The name of location `l` (`L<n>` for an id the program lacks, which
/// only a bug could produce; a picture is no place to panic).
pub(crate) fn loc_name(program: &Program, l: LocId) -> String {
    program
        .locations
        .get(l.index())
        .map(|x| x.name.clone())
        .unwrap_or_else(|| format!("L{}", l.0))
}

/// The name of thread `t` (`T<n>` for an id the program lacks).
pub(crate) fn thread_name(program: &Program, t: ThreadId) -> String {
    program
        .threads
        .get(t.index())
        .map(|x| x.name.clone())
        .unwrap_or_else(|| format!("T{}", t.0))
}

/// `x = 0, y = 1`: one cell per location of a flat memory array.
pub(crate) fn memory_cells(program: &Program, memory: &[Value]) -> Vec<Cell> {
    memory
        .iter()
        .enumerate()
        .map(|(a, v)| Cell::plain(format!("{} = {v}", loc_name(program, LocId::new(a)))))
        .collect()
}
