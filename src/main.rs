//! `relaxlab`: can this outcome happen under this memory model, and why?
//!
//! Standard error is not locked for the whole run: the progress bar and
//! Ctrl-C's handler write to it from other threads, and a lock held here
//! would deadlock them. A failed write to standard output ends relaxlab
//! ([`relaxlab::stdout`]).

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(relaxlab::stdout::ExitOnWriteError(stdout.lock()));
    let mut err = std::io::stderr();
    let mut io = relaxlab::Io {
        out: &mut out,
        err: &mut err,
    };
    // `relaxlab bench` measures each exploration in a child process.
    let exit = match std::env::var(relaxlab::commands::bench::ONE) {
        Ok(spec) => match relaxlab::commands::bench::run_one(&spec, &mut io) {
            Ok(()) => relaxlab::Exit::Ok,
            Err(report) => {
                io.report(&report);
                relaxlab::Exit::InputError
            }
        },
        Err(_) => {
            // Without the handler Ctrl-C still ends relaxlab, only without
            // the partial table.
            let _ = relaxlab::interrupt::install();
            relaxlab::run_cli(std::env::args_os(), &mut io)
        }
    };
    let _ = out.flush();
    exit.into()
}
