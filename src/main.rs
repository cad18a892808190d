//! `relaxlab`: can this outcome happen under this memory model, and why?

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut err = stderr.lock();
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
        Err(_) => relaxlab::run_cli(std::env::args_os(), &mut io),
    };
    let _ = out.flush();
    exit.into()
}
