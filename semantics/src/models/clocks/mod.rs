//! Vector clocks and the thread-level rules the C11 models share.

pub(crate) mod threads;
pub(crate) mod vclock;
