//! Standard output as the `relaxlab` binary writes it. Every command
//! writes its results through [`Io::out`](crate::Io), which `main` points
//! at an [`ExitOnWriteError`] around standard output, so one place decides
//! what a failed write means:
//!
//! 1. The reader went away (`EPIPE`: `relaxlab run litmus | head`): relaxlab
//!    ends at once and quietly, with 141, the status a shell shows for a
//!    filter SIGPIPE killed (`yes | head`). Not 0: the command stopped
//!    before it was done, so it did not find that nothing was wrong (a
//!    `check` that stops has not checked every file). Rust ignores
//!    SIGPIPE, so relaxlab sees the error and chooses the status itself.
//! 2. Any other error (`ENOSPC` from `>/dev/full`, `EIO`, ...): relaxlab
//!    prints a [`StdoutError`] on standard error and ends with 4, rather
//!    than exit 0 with its results lost, or 2, which says the input was bad.
//!
//! Ending at the write, rather than returning the error, stops the command
//! before it computes results nobody can read, and holds however a command
//! treats the error (`clap`'s help is written with the error ignored).
//!
//! A closed standard output (`>&-`) is not an error relaxlab can see: the
//! Rust runtime reopens a closed descriptor 0, 1 or 2 on `/dev/null` before
//! `main`, so the results are discarded as with `>/dev/null`. The reopened
//! descriptor is readable and writable, as Python's `subprocess.DEVNULL`
//! and `daemon(3)` open `/dev/null` too, so it cannot be told apart from a
//! caller that discards the output on purpose.

use std::io::{ErrorKind, Write};

use crate::Exit;

/// Standard output could not be written.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("cannot write to standard output")]
#[diagnostic(
    code(relaxlab::io::stdout),
    help("the results are lost: check the file or device standard output goes to")
)]
pub struct StdoutError {
    #[source]
    pub source: std::io::Error,
}

/// A writer (standard output) that ends relaxlab at the first write or
/// flush that fails, as the module documentation says.
#[derive(Debug)]
pub struct ExitOnWriteError<W>(pub W);

impl<W: Write> Write for ExitOnWriteError<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf).map_err(exit_on_write_error)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush().map_err(exit_on_write_error)
    }
}

/// Ends relaxlab after a failed write to standard output: quietly with
/// [`Exit::BrokenPipe`] when the reader has gone, else with a diagnostic
/// and [`Exit::OutputError`]. Returns `e` only for an interrupted write,
/// which the caller retries.
fn exit_on_write_error(e: std::io::Error) -> std::io::Error {
    let exit = match e.kind() {
        ErrorKind::Interrupted => return e,
        ErrorKind::BrokenPipe => Exit::BrokenPipe,
        _ => {
            let report = miette::Report::new(StdoutError { source: e });
            let _ = writeln!(std::io::stderr(), "{report:?}");
            Exit::OutputError
        }
    };
    std::process::exit(i32::from(exit.code()))
}
