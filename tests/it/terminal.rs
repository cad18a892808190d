//! relaxlab on a real pseudo-terminal, as a person runs it: a long
//! exploration shows a progress bar on standard error, clears it and
//! prints its table; Ctrl-C (the byte 0x03 typed into the terminal, which
//! the terminal turns into SIGINT) stops the exploration and prints what
//! was found so far, with exit code 130.
//!
//! The screen a person sees is what counts: [`Screen`] replays the bytes
//! written to the terminal as a terminal would (line wrap, cursor moves,
//! erases), so that a test can check what is left on it, in a wide and
//! in a 40-column terminal.
//!
//! Time limits here only catch a hang (a deadlock on the terminal is how
//! these tests failed before); nothing is asserted about how long a run
//! takes.

use crate::support;

use std::io::{Read, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use portable_pty::{native_pty_system, CommandBuilder, PtySize};

/// Long enough for any machine this runs on; reaching it means a hang.
const HANG: Duration = Duration::from_secs(600);

/// relaxlab running on a pseudo-terminal, its screen output collected.
struct Session {
    child: Box<dyn portable_pty::Child + Send + Sync>,
    writer: Box<dyn Write + Send>,
    output: mpsc::Receiver<Vec<u8>>,
    seen: Vec<u8>,
    // Keeps the terminal open while the child runs.
    _master: Box<dyn portable_pty::MasterPty + Send>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        Session::start_in(120, args)
    }

    /// relaxlab on a terminal `cols` columns wide.
    fn start_in(cols: u16, args: &[&str]) -> Session {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: 40,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_relaxlab"));
        cmd.args(args);
        cmd.cwd(support::root());
        cmd.env("TERM", "xterm-256color");
        let child = pair.slave.spawn_command(cmd).expect("relaxlab starts");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().unwrap();
        let writer = pair.master.take_writer().unwrap();
        let (tx, output) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            writer,
            output,
            seen: Vec::new(),
            _master: pair.master,
        }
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.seen).into_owned()
    }

    /// Reads the screen until `what` appears; panics if it never does.
    fn wait_for(&mut self, what: &str) {
        let start = Instant::now();
        while !self.text().contains(what) {
            assert!(
                start.elapsed() < HANG,
                "`{what}` never appeared on the terminal:\n{}",
                self.text()
            );
            if let Ok(chunk) = self.output.recv_timeout(Duration::from_millis(100)) {
                self.seen.extend(chunk);
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                self.drain();
                assert!(
                    self.text().contains(what),
                    "relaxlab ended ({status:?}) before `{what}` appeared:\n{}",
                    self.text()
                );
            }
        }
    }

    /// Types bytes into the terminal.
    fn type_bytes(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).unwrap();
        self.writer.flush().unwrap();
    }

    /// Types Ctrl-C after `pause` (a run that is still going then), and
    /// waits for relaxlab to end: [`Session::finish`].
    fn ctrl_c(&mut self, pause: Duration) -> (u32, String) {
        std::thread::sleep(pause);
        self.type_bytes(&[0x03]);
        self.finish()
    }

    /// Waits for relaxlab to end; its exit code, the whole screen output.
    fn finish(&mut self) -> (u32, String) {
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > HANG {
                let _ = self.child.kill();
                panic!("relaxlab hangs on a terminal:\n{}", self.text());
            }
            if let Ok(chunk) = self.output.recv_timeout(Duration::from_millis(100)) {
                self.seen.extend(chunk);
            }
        };
        self.drain();
        (status.exit_code(), self.text())
    }

    fn drain(&mut self) {
        while let Ok(chunk) = self.output.recv_timeout(Duration::from_millis(500)) {
            self.seen.extend(chunk);
        }
    }
}

impl Drop for Session {
    /// A failed assertion must not leave relaxlab running.
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
    }
}

/// A terminal's screen, rebuilt from the bytes written to it: printable
/// characters (one column each), carriage return, line feed, the cursor
/// moves `ESC [ n A/B/C/D`, and the erases `ESC [ K` and `ESC [ 2 K`; a
/// character written past the last column wraps to the next line, as
/// xterm does (the cursor waits in the last column until then).
struct Screen {
    width: usize,
    lines: Vec<Vec<char>>,
    row: usize,
    col: usize,
    pending_wrap: bool,
}

impl Screen {
    fn of(bytes: &str, width: usize) -> Screen {
        let mut screen = Screen {
            width,
            lines: vec![vec![' '; width]],
            row: 0,
            col: 0,
            pending_wrap: false,
        };
        let mut chars = bytes.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\x1b' => {
                    if chars.peek() != Some(&'[') {
                        chars.next();
                        continue;
                    }
                    chars.next();
                    let mut arg = String::new();
                    let mut command = ' ';
                    for c in chars.by_ref() {
                        if c.is_ascii_alphabetic() || c == '~' {
                            command = c;
                            break;
                        }
                        arg.push(c);
                    }
                    screen.control(&arg, command);
                }
                '\r' => {
                    screen.col = 0;
                    screen.pending_wrap = false;
                }
                '\n' => screen.down(1),
                c if c.is_control() => {}
                c => screen.put(c),
            }
        }
        screen
    }

    fn down(&mut self, n: usize) {
        self.row += n;
        while self.lines.len() <= self.row {
            self.lines.push(vec![' '; self.width]);
        }
        self.pending_wrap = false;
    }

    fn put(&mut self, c: char) {
        if self.pending_wrap {
            self.down(1);
            self.col = 0;
        }
        self.lines[self.row][self.col] = c;
        if self.col + 1 == self.width {
            self.pending_wrap = true;
        } else {
            self.col += 1;
        }
    }

    fn control(&mut self, arg: &str, command: char) {
        if arg.starts_with('?') {
            return;
        }
        let n: usize = arg.parse().unwrap_or(1).max(1);
        match command {
            'A' => {
                self.row = self.row.saturating_sub(n);
                self.pending_wrap = false;
            }
            'B' => self.down(n),
            'C' => self.col = (self.col + n).min(self.width - 1),
            'D' => self.col = self.col.saturating_sub(n),
            'K' => {
                let from = if arg == "2" { 0 } else { self.col };
                for cell in &mut self.lines[self.row][from..] {
                    *cell = ' ';
                }
            }
            _ => {}
        }
    }

    /// The lines on the screen, trailing blanks removed.
    fn text(&self) -> Vec<String> {
        self.lines
            .iter()
            .map(|l| l.iter().collect::<String>().trim_end().to_string())
            .collect()
    }
}

/// What a person would see of a progress line at the end: every line of
/// the final screen that shows one, and every drawing of one that was
/// too wide for the terminal (it wraps, and its first line stays behind).
fn progress_left_on(screen: &str, width: usize) -> Vec<String> {
    lines_left_on(screen, width, "exploring under")
}

/// [`progress_left_on`] for the lines that contain `marker`.
fn lines_left_on(screen: &str, width: usize, marker: &str) -> Vec<String> {
    let mut left: Vec<String> = Screen::of(screen, width)
        .text()
        .into_iter()
        .filter(|l| l.contains(marker))
        .collect();
    for drawing in screen.split('\r').filter(|d| d.contains(marker)) {
        // The `^C` the terminal echoes after the line is not part of it:
        // the line leaves two columns for it, so a terminal does not wrap.
        let shown = drawing.split('\x1b').next().unwrap_or_default();
        let shown = shown.strip_suffix("^C").unwrap_or(shown);
        if shown.chars().count() + 2 > width {
            left.push(format!(
                "drawn {} columns wide: {shown}",
                shown.chars().count()
            ));
        }
    }
    left
}

/// The progress bar's last drawing is followed by an erase of its line
/// (`ESC [ 2K`) before `then` is printed.
fn bar_cleared_before(screen: &str, then: &str) -> bool {
    let Some(bar) = screen.rfind("exploring under") else {
        return false;
    };
    let rest = &screen[bar..];
    match (rest.find("\x1b[2K"), rest.find(then)) {
        (Some(clear), Some(table)) => clear < table,
        _ => false,
    }
}

/// In a 40-column terminal the progress line used to wrap, and its first
/// line stayed on the screen after the table: it is now cut to the width,
/// and erased before the table.
#[test]
fn a_long_exploration_on_a_terminal_shows_and_clears_its_progress_bar_and_finishes() {
    // 7,026,248 states under tso without reduction, about 6 s on one
    // worker: well past the second after which the bar shows. (2+2W4x4,
    // once several seconds, took about one by 2026-11-25, and the bar no
    // longer showed on an idle machine.)
    let mut session = Session::start_in(
        40,
        &[
            "run",
            "litmus/bench/bench-IRIW3x3.litmus",
            "--model",
            "tso",
            "--reduction",
            "none",
            "-j",
            "1",
        ],
    );
    let (code, screen) = session.finish();
    assert_eq!(code, 0, "{screen}");
    assert!(
        screen.contains("exploring under tso"),
        "no progress bar:\n{screen}"
    );
    assert!(
        bar_cleared_before(&screen, "under tso (exhaustive)"),
        "the progress bar is not cleared before the table:\n{screen:?}"
    );
    assert!(screen.contains("220 outcomes"), "{screen}");
    assert_eq!(
        progress_left_on(&screen, 40),
        Vec::<String>::new(),
        "{screen:?}"
    );
}

#[test]
fn check_and_races_show_the_progress_bar_of_a_long_exploration() {
    // They ran their explorations without a bar: seconds of silence on a
    // terminal. IRIW3x3 under sc and 2+2W4x4 under c11r, both without
    // reduction on one worker, take about 3 s each here.
    let mut session = Session::start(&[
        "check",
        "litmus/bench/bench-IRIW3x3.litmus",
        "--only",
        "sc",
        "--reduction",
        "none",
        "-j",
        "1",
    ]);
    let (code, screen) = session.finish();
    assert_eq!(code, 0, "{screen}");
    assert!(
        screen.contains("exploring under sc"),
        "no progress bar:\n{screen}"
    );
    assert!(
        bar_cleared_before(&screen, "ok    litmus/bench/bench-IRIW3x3.litmus"),
        "the progress bar is not cleared before the result:\n{screen:?}"
    );
    let mut session = Session::start(&[
        "races",
        "litmus/bench/bench-2+2W4x4.litmus",
        "--model",
        "c11r",
        "--reduction",
        "none",
        "-j",
        "1",
    ]);
    let (code, screen) = session.finish();
    assert_eq!(code, 0, "{screen}");
    assert!(
        screen.contains("exploring under c11r (races)"),
        "no progress bar:\n{screen}"
    );
}

/// Ctrl-C used to leave the progress line on the screen above the partial
/// table: the line filled the terminal's width, so the `^C` the terminal
/// echoes wrapped to a new line, and the erase that followed cleared that
/// line instead. Wide and 40 columns alike.
#[test]
fn ctrl_c_stops_the_exploration_and_prints_the_partial_table_with_exit_130() {
    // About 6 s under tso without reduction on one worker: interrupted
    // as soon as the bar shows, after the first second.
    for cols in [120u16, 40] {
        let mut session = Session::start_in(
            cols,
            &[
                "run",
                "litmus/bench/bench-IRIW3x3.litmus",
                "--model",
                "tso",
                "--reduction",
                "none",
                "-j",
                "1",
            ],
        );
        session.wait_for("exploring under tso");
        let (code, screen) = session.ctrl_c(Duration::ZERO);
        assert_eq!(code, 130, "{screen}");
        assert!(
            screen.contains("under tso (exhaustive)") && screen.contains("(PARTIAL)"),
            "no partial table:\n{screen}"
        );
        assert!(
            screen.contains("PARTIAL: interrupted (Ctrl-C)"),
            "the table does not say it was interrupted:\n{screen}"
        );
        assert!(
            bar_cleared_before(&screen, "under tso (exhaustive)"),
            "the progress bar is not cleared before the table:\n{screen:?}"
        );
        assert_eq!(
            progress_left_on(&screen, cols.into()),
            Vec::<String>::new(),
            "{cols} columns: {screen:?}"
        );
    }
}

#[test]
fn ctrl_c_stops_an_axiomatic_run_and_prints_its_partial_table_with_exit_130() {
    // ax.sc first, then seconds of ax.rc11 candidates: Ctrl-C typed once
    // the first table is on the screen lands in the second run.
    let mut session = Session::start(&[
        "run",
        "litmus/bench/bench-2+2W4x4.litmus",
        "--axiomatic",
        "sc,rc11",
        "--max-candidates",
        "1000000000",
    ]);
    // The time line follows the whole ax.sc table (a long table may still
    // be on its way to the terminal when its first line shows).
    session.wait_for("(ax.sc in ");
    // ax.rc11 runs for seconds (about 5 s in all): its progress line,
    // counting candidates, shows after the first one, and Ctrl-C typed
    // then lands inside the run. Axiomatic runs used to show no line.
    session.wait_for("exploring under ax.rc11: ");
    let (code, screen) = session.ctrl_c(Duration::ZERO);
    assert_eq!(code, 130, "{screen}");
    assert!(screen.contains(" candidates ("), "{screen}");
    assert!(
        screen.contains("under ax.rc11 (axiomatic)") && screen.contains("(PARTIAL)"),
        "no partial table:\n{screen}"
    );
    assert!(
        screen.contains("PARTIAL: interrupted (Ctrl-C)"),
        "the table does not say it was interrupted:\n{screen}"
    );
    assert!(
        bar_cleared_before(&screen, "under ax.rc11 (axiomatic)"),
        "the progress line is not cleared before the table:\n{screen:?}"
    );
    assert_eq!(progress_left_on(&screen, 120), Vec::<String>::new());
}

#[test]
fn ctrl_c_stops_a_repair_which_says_so_with_exit_130() {
    // A strong c11r placement of IRIW has millions of states: the search
    // runs for tens of seconds, and prints nothing until it ends.
    let mut session = Session::start(&[
        "repair",
        "litmus/c11/IRIW+fences.sc.litmus",
        "--model",
        "c11r",
        "-j",
        "1",
    ]);
    let (code, screen) = session.ctrl_c(Duration::from_millis(1500));
    assert_eq!(code, 130, "{screen}");
    assert!(
        screen.contains("STOPPED") && screen.contains("interrupted (Ctrl-C)"),
        "the report does not say it was interrupted:\n{screen}"
    );
    assert!(
        screen.contains("relaxlab: interrupted (Ctrl-C); the search stopped"),
        "{screen}"
    );
}

#[test]
fn ctrl_c_stops_confirm_which_prints_what_it_has_and_says_so_with_exit_130() {
    // Phase I and II take a fraction of a second; the unreduced ground
    // truth of IRIW3x3's first cycle runs for seconds. Confirm used to
    // run it outside the interruptible mechanism: Ctrl-C ended relaxlab at
    // once, and the buffered header was lost.
    let mut session = Session::start(&[
        "confirm",
        "litmus/bench/bench-IRIW3x3.litmus",
        "--model",
        "tso",
        "--reduction",
        "none",
        "-j",
        "1",
    ]);
    let (code, screen) = session.ctrl_c(Duration::from_millis(1500));
    assert_eq!(code, 130, "{screen}");
    assert!(screen.contains("9 cycles predicted"), "{screen}");
    assert!(
        screen.contains("PARTIAL: interrupted (Ctrl-C)"),
        "the table does not say it was interrupted:\n{screen}"
    );
    assert!(
        screen.contains("relaxlab: interrupted (Ctrl-C)"),
        "no interrupted notice:\n{screen}"
    );
    assert!(!screen.contains("   no  "), "{screen}");
}

#[test]
fn ctrl_c_stops_a_benchmark_which_says_so_with_exit_130() {
    // The unreduced IRIW3x3 row takes seconds in its child process; the
    // parent used to die at Ctrl-C before it could say that it stopped.
    let mut session = Session::start(&[
        "bench",
        "litmus/bench/bench-IRIW3x3.litmus",
        "--model",
        "tso",
        "--jobs",
        "1",
    ]);
    session.wait_for("full/base");
    let (code, screen) = session.ctrl_c(Duration::from_millis(300));
    assert_eq!(code, 130, "{screen}");
    assert!(
        screen.contains("interrupted (Ctrl-C): the benchmark stops here"),
        "{screen}"
    );
}

/// `compare` of IRIW3x3 under sc and tso, unreduced, with `extra` flags:
/// sc and ax.sc take seconds, tso about 6 s. Ctrl-C once the tso bar
/// shows (after 1 s).
fn interrupted_compare(extra: &[&str], format: &str) -> (u32, String) {
    let mut args = vec![
        "compare",
        "litmus/bench/bench-IRIW3x3.litmus",
        "--models",
        "sc,tso",
        "--reduction",
        "none",
        "-j",
        "1",
        "--format",
        format,
    ];
    args.extend_from_slice(extra);
    let mut session = Session::start(&args);
    session.wait_for("exploring under tso");
    session.ctrl_c(Duration::ZERO)
}

/// The JSON array on a terminal screen.
fn json_on(screen: &str) -> serde_json::Value {
    let json = &screen[screen.find("[\r\n").expect("a JSON array")..];
    let json = &json[..=json.rfind(']').unwrap()];
    serde_json::from_str(&json.replace("\r\n", "\n")).expect("JSON")
}

#[test]
fn ctrl_c_during_compare_prints_the_finished_columns_marked_interrupted() {
    // The interrupted test used to be thrown away (the table printed only
    // the notice on standard error, JSON printed `[]`).
    let (code, screen) = interrupted_compare(&[], "table");
    assert_eq!(code, 130, "{screen}");
    assert!(
        screen.contains("bench-IRIW3x3: operational vs axiomatic"),
        "{screen}"
    );
    assert!(
        screen.contains("PARTIAL: tso: interrupted (Ctrl-C)"),
        "{screen}"
    );
    assert!(
        screen.contains("ax.tso: not run (interrupted (Ctrl-C) before it started)"),
        "{screen}"
    );
    // The sc and ax.sc columns finished: their cells are there.
    assert!(screen.contains("yes      yes"), "{screen}");
    assert!(!screen.contains("UNEXPECTED"), "{screen}");
    assert!(
        screen.contains("relaxlab: interrupted (Ctrl-C)"),
        "{screen}"
    );

    assert_interrupted_json(&[], "ax.tso");
}

/// The same with `--cat`, after another test: `compare --cat` used to run
/// every later column at Ctrl-C (each stopped at once), call the missing
/// outcomes `differs` (220 of them), go on to the next test and exit 3.
#[test]
fn ctrl_c_during_compare_cat_prints_the_finished_columns_marked_interrupted() {
    let cat = ["--cat", "cat/pso.cat", "litmus/classic/SB.litmus"];
    let (code, screen) = interrupted_compare(&cat, "table");
    assert_eq!(code, 130, "{screen}");
    assert!(
        screen.contains("bench-IRIW3x3: operational vs cat models"),
        "{screen}"
    );
    assert!(
        screen.contains("PARTIAL: tso: interrupted (Ctrl-C)"),
        "{screen}"
    );
    assert!(
        screen.contains("cat:pso: not run (interrupted (Ctrl-C) before it started)"),
        "{screen}"
    );
    // The sc column finished: its cells are there.
    assert!(screen.contains("yes        -      n/a"), "{screen}");
    assert!(!screen.contains("differs"), "{screen}");
    assert!(
        screen.contains("no disagreement found (PARTIAL)"),
        "{screen}"
    );
    // No further test starts.
    assert!(
        !screen.contains("SB: operational vs cat models"),
        "{screen}"
    );
    assert!(
        screen.contains("relaxlab: interrupted (Ctrl-C)"),
        "{screen}"
    );

    assert_interrupted_json(&cat, "cat:pso");
}

/// [`interrupted_compare`] in JSON: one report (no further test starts),
/// marked interrupted, with the finished sc column, the interrupted tso
/// one as a bound, and `not_run` first.
fn assert_interrupted_json(extra: &[&str], not_run: &str) {
    let (code, screen) = interrupted_compare(extra, "json");
    assert_eq!(code, 130, "{screen}");
    let reports = json_on(&screen);
    assert_eq!(reports.as_array().map(Vec::len), Some(1), "{reports}");
    let report = &reports[0];
    assert_eq!(report["interrupted"], true, "{report}");
    assert_eq!(report["columns"][0], "sc", "{report}");
    assert_eq!(report["bounds"][0]["kind"], "interrupted", "{report}");
    assert_eq!(report["not_run"][0]["model"], not_run, "{report}");
}

#[test]
fn ctrl_c_stops_a_stateless_exploration_after_its_progress_bar_with_exit_130() {
    // MCR-growth's 184,756 executions take about a minute: the bar counts
    // executions after the first second, and Ctrl-C leaves the partial
    // table with the executions explored so far.
    let mut session = Session::start(&[
        "run",
        "litmus/bench/mcr/MCR-growth.litmus",
        "--model",
        "tso",
        "--search",
        "mcr",
    ]);
    session.wait_for("executions/s");
    let (code, screen) = session.ctrl_c(Duration::ZERO);
    assert_eq!(code, 130, "{screen}");
    assert!(
        screen.contains("MCR-growth under tso (stateless, mcr): ") && screen.contains("(PARTIAL)"),
        "no partial table:\n{screen}"
    );
    assert!(screen.contains("PARTIAL: interrupted (Ctrl-C)"), "{screen}");
    assert!(
        bar_cleared_before(&screen, "MCR-growth under tso"),
        "the progress bar is not cleared before the table:\n{screen:?}"
    );
    assert_eq!(
        progress_left_on(&screen, 120),
        Vec::<String>::new(),
        "{screen:?}"
    );
}

/// `compare`'s axiomatic columns showed no progress line: seconds of
/// silence on a terminal. 2+2W4x4 with a reader of `a` added: tso takes
/// a few hundredths of a second, ax.tso seconds (4.8 s on an idle 2-core
/// machine; 2+2W4x4 alone took about 1 s there, about as long as the line
/// waits before it shows). Ctrl-C once the line shows.
#[test]
fn compare_shows_the_progress_of_its_axiomatic_columns() {
    let bench =
        std::fs::read_to_string(support::root().join("litmus/bench/bench-2+2W4x4.litmus")).unwrap();
    let exists = bench.find("exists").unwrap();
    let test = format!(
        "{}thread P4 {{\n  r0 = load(a, rlx);\n}}\n\nexists (a = 1 /\\ b = 1 /\\ c = 1 /\\ d = 1)\n",
        &bench[..exists]
    );
    let file = support::scratch("compare-progress").join("2+2W4x4+R.litmus");
    std::fs::write(&file, test).unwrap();
    let file = file.to_string_lossy().into_owned();
    let mut session = Session::start(&["compare", &file, "--models", "tso"]);
    session.wait_for("exploring under ax.tso: ");
    let (code, screen) = session.ctrl_c(Duration::ZERO);
    assert_eq!(code, 130, "{screen}");
    assert!(
        screen.contains("PARTIAL: ax.tso: interrupted (Ctrl-C)"),
        "{screen}"
    );
    assert_eq!(
        progress_left_on(&screen, 120),
        Vec::<String>::new(),
        "{screen:?}"
    );
}

/// A batch of three files: a quick one, one that explores for seconds
/// (IRIW3x3 under tso without reduction, about 6 s on one worker), and a
/// quick one.
const BATCH: [&str; 3] = [
    "litmus/classic/SB.litmus",
    "litmus/bench/bench-IRIW3x3.litmus",
    "litmus/classic/MP.litmus",
];

/// The files line of a batch: what it says, and that it is erased.
const FILES_LINE: &str = "/3 files (";

#[test]
fn a_run_of_several_files_shows_a_line_counting_them_and_erases_it() {
    // The long file stops at its timeout, after the line has shown.
    let mut args = vec!["run"];
    args.extend(BATCH);
    args.extend([
        "--model",
        "tso",
        "--reduction",
        "none",
        "-j",
        "1",
        "--timeout",
        "2.5",
    ]);
    for cols in [120u16, 40] {
        let mut session = Session::start_in(cols, &args);
        let (code, screen) = session.finish();
        assert_eq!(code, 3, "{screen}");
        assert!(screen.contains("1/3 files ("), "no files line:\n{screen}");
        assert!(
            !screen.contains("exploring under"),
            "a batch shows no exploration's line:\n{screen}"
        );
        let text = &screen;
        for name in ["SB under tso", "IRIW3x3 under tso", "MP under tso"] {
            assert!(text.contains(name), "{name}:\n{text}");
        }
        assert!(text.find("SB under").unwrap() < text.find("IRIW3x3 under").unwrap());
        assert!(text.find("IRIW3x3 under").unwrap() < text.find("MP under").unwrap());
        assert!(text.contains("(--timeout)"), "{text}");
        assert_eq!(
            lines_left_on(&screen, cols.into(), FILES_LINE),
            Vec::<String>::new(),
            "{cols} columns: {screen:?}"
        );
    }
}

/// The screen of a batch of [`BATCH`]'s three files that Ctrl-C stops
/// once the first is printed: it exits with 130 and leaves no progress
/// line behind.
fn batch_stopped_by_ctrl_c(args: &[&str]) -> String {
    let mut session = Session::start_in(60, args);
    session.wait_for("1/3 files (");
    let (code, screen) = session.ctrl_c(Duration::ZERO);
    assert_eq!(code, 130, "{screen}");
    assert_eq!(
        lines_left_on(&screen, 60, FILES_LINE),
        Vec::<String>::new(),
        "{screen:?}"
    );
    screen
}

#[test]
fn ctrl_c_stops_a_run_of_several_files_after_the_files_it_started() {
    let mut args = vec!["run"];
    args.extend(BATCH);
    args.extend(["--model", "tso", "--reduction", "none", "-j", "1"]);
    let text = &batch_stopped_by_ctrl_c(&args);
    assert!(text.contains("SB under tso"), "{text}");
    assert!(
        text.contains("IRIW3x3 under tso") && text.contains("PARTIAL: interrupted (Ctrl-C)"),
        "no partial table:\n{text}"
    );
    // One worker: MP had not started.
    assert!(!text.contains("MP under"), "{text}");
    assert!(text.contains("relaxlab: interrupted (Ctrl-C)"), "{text}");
}

#[test]
fn check_of_several_files_counts_them_and_stops_at_ctrl_c() {
    let mut args = vec!["check"];
    args.extend(BATCH);
    args.extend(["--only", "sc,tso", "--reduction", "none", "-j", "1"]);
    let text = &batch_stopped_by_ctrl_c(&args);
    assert!(text.contains("ok    litmus/classic/SB.litmus"), "{text}");
    // IRIW3x3's run is cut short: it is neither passed nor failed.
    assert!(
        text.contains("cut   litmus/bench/bench-IRIW3x3.litmus"),
        "{text}"
    );
    assert!(!text.contains("FAIL"), "{text}");
    assert!(text.contains("1 passed, 0 failed, 1 cut"), "{text}");
    assert!(text.contains("interrupted (Ctrl-C)"), "{text}");
    assert!(!text.contains("MP.litmus"), "{text}");
    // The same in JSON: the file's status says it.
    args.extend(["--format", "json"]);
    let screen = batch_stopped_by_ctrl_c(&args);
    let text: String = screen.split_whitespace().collect();
    assert!(
        text.contains(r#""file":"litmus/bench/bench-IRIW3x3.litmus","status":"interrupted""#),
        "{screen}"
    );
    assert!(text.contains(r#""cut":1,"#), "{screen}");
}
