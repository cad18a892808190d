//! The playground's stepper: one execution of an operational model, taken
//! one transition at a time by a person.
//!
//! A walk is a list of *choices* (each the index of a move in the
//! interpreter's successor order, as the exhaustive explorer's witnesses
//! record them) and a position in it: the state shown is the one after the
//! first `position` choices, and the choices after it are kept so that
//! "back" can be undone. Every view is rebuilt by replaying the choices
//! from the initial state with the operational [`Runner`], which lists
//! *every* enabled move: the stepper never applies a reduction, so each
//! transition of the model is there to click. Replaying costs a few
//! microseconds per step on litmus-sized programs, and keeps the walk
//! plain data that a server can store or a page can hold.
//!
//! Each move is labelled with the witness lines of its trace steps
//! ([`crate::operational::describe_trace`]), so the labels of a run taken
//! by hand read exactly like the witness of the same run, and a witness
//! can be followed move by move ([`witness_choices`]).
//!
//! The memory side of a state is drawn by the model itself
//! ([`crate::picture::Describe`]). `c11r` runs here without pruning
//! unreadable store elements (its exploration prunes them; pruning merges
//! states and changes no move), so a student sees every store of a
//! location.
//!
//! [`Runner`]: crate::operational

mod view;
mod walk;

pub use view::{MoveView, RunEnd, RunStatus, StepView, ThreadState, ThreadView};
pub use walk::{view, witness_choices, StepError};
