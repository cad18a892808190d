//! Ctrl-C: the first one asks every exploration to stop and print what it
//! found (the tables say `interrupted`, exit code 130); a second one ends
//! the process at once, also with 130.
//!
//! The handler is installed by `main` only, so that tests running the CLI
//! in-process never touch the process's signal disposition. The
//! explorers poll the flag through their [`Budget`] between units of work
//! (`relaxlab_semantics::budget`); the CLI itself checks it between runs,
//! so that no further test or model starts after an interruption.
//!
//! [`Budget`]: relaxlab_semantics::budget::Budget

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use crate::Exit;

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// Installs the SIGINT handler (once per process).
pub fn install() -> Result<(), ctrlc::Error> {
    let flag = Arc::new(AtomicBool::new(false));
    let seen = flag.clone();
    ctrlc::set_handler(move || {
        if seen.swap(true, Ordering::SeqCst) {
            std::process::exit(i32::from(Exit::Interrupted.code()));
        }
    })?;
    let _ = FLAG.set(flag);
    Ok(())
}

/// The flag the handler sets, for a [`Budget`](relaxlab_semantics::budget::Budget);
/// `None` when no handler is installed.
pub fn flag() -> Option<Arc<AtomicBool>> {
    FLAG.get().cloned()
}

/// Has the user pressed Ctrl-C?
pub fn requested() -> bool {
    FLAG.get().is_some_and(|f| f.load(Ordering::SeqCst))
}
