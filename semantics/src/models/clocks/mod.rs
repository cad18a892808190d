//! What the two C11 models (`c11r`, `c11t`) share: vector clocks
//! ([`vclock`], TSAN11 Sec. 2.2), the per-thread clocks with the rules of
//! fences, SC accesses, fork, join and thread end ([`threads`], TSAN11
//! Figs. 6 and 13), the store element with its release clock ([`store`]),
//! the FastTrack race shadow of non-atomic locations ([`shadow`]), and how
//! all of them are drawn ([`describe`]).

pub(crate) mod describe;
pub(crate) mod shadow;
pub(crate) mod store;
pub(crate) mod threads;
pub(crate) mod vclock;
