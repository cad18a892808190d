//! Ctrl-C: the first one asks every exploration to stop and print what it
//! found (the tables say `interrupted`, exit code 130); a second one ends
//! the process at once, also with 130.
//!
//! Only an exploration that polls its budget can stop early with what it
//! found; such explorations (the operational explorers and the axiomatic
//! engine, RELAXER's Phase II, and `bench`'s parent waiting for its
//! children) run inside an [`Interruptible`] guard. A Ctrl-C while none
//! runs (parsing, RELAXER's Phase I) ends the process at once, as
//! if no handler were installed, so that Ctrl-C never seems to be ignored.
//!
//! The handler is installed by `main` only, so that tests running the CLI
//! in-process never touch the process's signal disposition. The
//! explorers poll the flag through their [`Budget`] between units of work
//! (`relaxlab_semantics::budget`); the CLI itself checks it between runs,
//! so that no further test or model starts after an interruption.
//!
//! [`Budget`]: relaxlab_semantics::budget::Budget

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use crate::Exit;

static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// How many explorations that poll the flag are running.
static INTERRUPTIBLE: AtomicUsize = AtomicUsize::new(0);

/// Marks an exploration that stops at Ctrl-C with a partial result, while
/// it lives.
#[derive(Debug)]
pub struct Interruptible(());

/// Enters an exploration that polls the Ctrl-C flag.
pub fn interruptible() -> Interruptible {
    INTERRUPTIBLE.fetch_add(1, Ordering::SeqCst);
    Interruptible(())
}

impl Drop for Interruptible {
    fn drop(&mut self) {
        INTERRUPTIBLE.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Installs the SIGINT handler (once per process).
pub fn install() -> Result<(), ctrlc::Error> {
    let flag = Arc::new(AtomicBool::new(false));
    let seen = flag.clone();
    ctrlc::set_handler(move || {
        let again = seen.swap(true, Ordering::SeqCst);
        if again || INTERRUPTIBLE.load(Ordering::SeqCst) == 0 {
            // Erase the progress line if one is drawn (the `^C` the
            // terminal echoed is on it), else end the line the echo is on,
            // so that the shell's prompt starts on a line of its own.
            if !crate::progress::clear_line() {
                eprintln!();
            }
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
