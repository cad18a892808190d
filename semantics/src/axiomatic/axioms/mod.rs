//! The axioms of the built-in axiomatic models: the hardware models'
//! (`hardware`), the C11 models' (`c11`) and the SC order search the C11
//! models share (`sc_order`), and release/acquire's (`ra`).

pub(crate) mod c11;
pub(crate) mod hardware;
pub(crate) mod ra;
pub(super) mod sc_order;
