//! Exit codes (documented in `relaxlab --help`, the README and the book
//! (book: cli.md, Exit codes)).

use std::process::ExitCode;

/// How a command ended. Ordered by severity: when a command processes
/// several files, it exits with the most severe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// 0: success.
    Ok,
    /// 1: an expectation failed, a file is not formatted, a race was found,
    /// an execution failed (an `assert`, ...) and the test does not expect it.
    CheckFailed,
    /// 3: a bound cut a result short.
    Partial,
    /// 2: bad input (a file with a static error, an unknown model, bad flags).
    InputError,
    /// 130 (128 + SIGINT, as shells report a program Ctrl-C stopped): the
    /// user interrupted the command; what was found before is printed.
    Interrupted,
    /// 4: standard output could not be written (`>/dev/full`). Ends
    /// relaxlab at the write ([`crate::stdout`]); never returned by a
    /// command, so never weighed against the codes above.
    OutputError,
    /// 141 (128 + SIGPIPE, as shells report `yes | head`): standard
    /// output's reader went away; relaxlab ends quietly at the write
    /// ([`crate::stdout`]). Never returned by a command either.
    BrokenPipe,
}

impl Exit {
    pub fn code(self) -> u8 {
        match self {
            Exit::Ok => 0,
            Exit::CheckFailed => 1,
            Exit::InputError => 2,
            Exit::Partial => 3,
            Exit::Interrupted => 130,
            Exit::OutputError => 4,
            Exit::BrokenPipe => 141,
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e.code())
    }
}

/// What a command returns: its exit status, or an error that stops it
/// (reported as an input error).
pub type Outcome = Result<Exit, miette::Report>;
