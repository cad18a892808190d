//! `relaxlab`: can this outcome happen under this memory model, and why?
//!
//! Standard error is not locked for the whole run: the progress bar and
//! Ctrl-C's handler write to it from other threads, and a lock held here
//! would deadlock them.

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(QuietPipe(stdout.lock()));
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

/// Standard output that ends relaxlab quietly (exit code 0, as `grep` and
/// `rg` do) once its reader has gone: `relaxlab run litmus/ | head`.
struct QuietPipe<W>(W);

impl<W: Write> Write for QuietPipe<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf).map_err(quiet)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush().map_err(quiet)
    }
}

fn quiet(e: std::io::Error) -> std::io::Error {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    e
}
