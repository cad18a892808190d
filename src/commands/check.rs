//! `relaxlab check`: verify every `expect` entry of litmus files.
//!
//! Each model named by a file's expectations runs once; every entry is then
//! compared with the result. A result cut short by a bound never confirms
//! an expectation: it fails, saying which bound. Files are checked in
//! parallel and reported in the order given, one line per file, then
//! `N passed, N failed`.
//!
//! Exit codes: 1 when an expectation does not hold; 2 when a file cannot
//! be checked (it cannot be read, is not UTF-8, does not parse, a model it
//! names refuses it or needs `--unroll`): an input error, as for every
//! command; 130 after Ctrl-C (files not reached are not listed).
//!
//! Entries about cat models (`cat "x.cat": never`, a path relative to the
//! litmus file; `cat.KEY: never`, a key of the `[cat]` table of
//! `relaxlab.toml`) run the model once per file; a model that does not
//! compile is an input error. `--only` restricts to hand-written models
//! and skips them.
//!
//! herd C tests state their verdict in a comment, as the Linux kernel's
//! do: `Result: Never`, `Result: Sometimes DATARACE`. With herd7's
//! configuration (`--conf linux-kernel.cfg`, and `--bell`, `--macros`,
//! `--variant`), that comment is an expectation of the configuration's
//! model: the verdict must match, and the model must raise its
//! `data-race` flag exactly when the comment says `DATARACE`, as the
//! kernel's `judgelitmus.sh` judges herd7's output. Without a
//! configuration, a test that names a kernel primitive cannot be read; it
//! is listed as skipped, with the flag that checks it (book: The
//! Linux-kernel memory model, Checking Result comments).

use std::collections::BTreeMap;

use miette::IntoDiagnostic;
use relaxlab_semantics::ir::{Expectation, ModelKey, Subject, Verdict};
use relaxlab_semantics::outcome::OutcomeTable;

use super::common;
use crate::batch::Flow;
use crate::cli::{CheckArgs, CheckFormat};
use crate::engine::{self, Settings};
use crate::exit::{Exit, Outcome};
use crate::model::Model;
use crate::render::json::{CheckLine, CheckTotals, CheckedFile, PartHeader};
use crate::render::plural;
use crate::render::table::describe_bound;
use crate::{files, interrupt, load, Io};

/// The result of checking one file.
enum FileResult {
    /// Every expectation held.
    Passed { expectations: usize },
    /// Some did not, or could not be checked: one line each, and whether
    /// one could not be checked (an input error).
    Failed {
        expectations: usize,
        problems: Vec<String>,
        input_error: bool,
    },
    /// The file could not be read or loaded at all.
    Error(miette::Report),
    /// Ctrl-C came before this file was checked.
    Skipped,
    /// Ctrl-C cut a run of this file short: what its expectations say
    /// was not all checked. The problems found in the runs that ended.
    Cut {
        expectations: usize,
        problems: Vec<String>,
    },
    /// A cat model it names cannot be read or does not compile.
    BadModel(miette::Report),
    /// A kernel test checked without herd's configuration: why.
    NeedsConf(String),
}

/// Where cat models are found: the `[cat]` table and the include path.
struct CatContext {
    keys: std::collections::BTreeMap<String, std::path::PathBuf>,
    search: Vec<std::path::PathBuf>,
    /// The models compiled so far, by canonical path: files are checked in parallel
    /// and many name the same model, which is compiled once and whose
    /// warnings are printed once, after the run.
    loaded: std::sync::Mutex<BTreeMap<std::path::PathBuf, std::sync::Arc<crate::cat::CatFile>>>,
}

impl CatContext {
    /// The model in `path`, compiled on first use. Models are known by
    /// their canonical path, so that two spellings of one file
    /// (`../m.cat`, `../../cats/m.cat`) compile it once.
    fn load(
        &self,
        path: &std::path::Path,
    ) -> Result<std::sync::Arc<crate::cat::CatFile>, miette::Report> {
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let lock = || self.loaded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(cat) = lock().get(&key) {
            return Ok(cat.clone());
        }
        // Compiled outside the lock; a model two threads compile at once
        // is kept once.
        let cat = crate::cat::load(path, &self.search).map_err(miette::Report::new)?;
        Ok(lock()
            .entry(key)
            .or_insert_with(|| std::sync::Arc::new(cat))
            .clone())
    }
}

pub fn check(args: &CheckArgs, io: &mut Io<'_>) -> Outcome {
    let config = common::config()?;
    // Verdicts do not depend on the non-SC marks: skip the extra SC run.
    let settings = Settings {
        mark_non_sc: false,
        progress: common::stderr_is_terminal(),
        search: common::search(args.search),
        ..common::settings(&args.engine, &config)
    };
    let herd = args.herd();
    let configured = herd.conf.is_some()
        || herd.bell.is_some()
        || herd.macros.is_some()
        || !herd.variant.is_empty();
    // The configuration's model judges `Result:` comments; loading it
    // also sets the macro file and variants every test is read with,
    // before the workers start.
    let herd_model = if configured {
        crate::cat::load_for(&herd, io)?.into_iter().next()
    } else {
        None
    };
    let pool = common::pool(&args.engine, &config)?;
    let only: Option<Vec<ModelKey>> = if args.only.is_empty() {
        None
    } else {
        let mut keys = Vec::new();
        for name in &args.only {
            match ModelKey::from_name(name) {
                Some(k) => keys.push(k),
                None => {
                    common::op_models(std::slice::from_ref(name))?;
                }
            }
        }
        Some(keys)
    };
    let cats = CatContext {
        keys: config
            .cat
            .iter()
            .flatten()
            .map(|(k, p)| {
                let p = match &config.dir {
                    Some(dir) if p.is_relative() => dir.join(p),
                    _ => p.clone(),
                };
                (k.clone(), p)
            })
            .collect(),
        search: crate::cat::search_path(&args.cat_path),
        loaded: Default::default(),
    };
    let part = args.partition.unwrap_or(crate::values::Partition::WHOLE);
    let all = files::expand(&args.files)?;
    let paths: Vec<(usize, &std::path::Path)> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| part.holds(*i))
        .map(|(i, p)| (i, p.as_path()))
        .collect();
    // One file shows its explorations' progress; a batch counts files.
    let settings = Settings {
        progress: settings.progress && paths.len() == 1,
        ..settings
    };
    if args.format == CheckFormat::Jsonl {
        let header = PartHeader::new("check", part, all.len());
        writeln!(
            io.out,
            "{}",
            serde_json::to_string(&header).into_diagnostic()?
        )
        .into_diagnostic()?;
    }
    let mut printer = Printer {
        format: args.format,
        totals: CheckTotals::default(),
        exit: Exit::Ok,
        listed: 0,
    };
    // The batch looks at Ctrl-C between files: it must not end relaxlab.
    let watching = interrupt::interruptible();
    crate::batch::in_order(
        &pool,
        paths.len(),
        common::stderr_is_terminal(),
        |i, _| {
            let path = paths[i].1;
            let shown = path.display().to_string();
            if interrupt::requested() {
                return (shown, Vec::new(), FileResult::Skipped);
            }
            match files::read(path) {
                Ok(file) => {
                    let (result, warnings) = check_file(
                        &file,
                        &settings,
                        only.as_deref(),
                        &cats,
                        herd_model.as_ref(),
                    );
                    (file.path.clone(), warnings, result)
                }
                Err(e) => (shown, Vec::new(), FileResult::Error(e.into())),
            }
        },
        |i, (path, warnings, result), _| {
            printer.print(paths[i].0, &path, &warnings, result, io)?;
            Ok::<_, miette::Report>(Flow::Go)
        },
    )?;
    drop(watching);
    for cat in cats
        .loaded
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .values()
    {
        cat.report_warnings(io);
    }
    printer.finish(io)
}

/// Prints each file's result as it comes, in file order, and the summary
/// at the end.
struct Printer {
    format: CheckFormat,
    totals: CheckTotals,
    exit: Exit,
    /// The files listed so far (the elements of `--format json`'s array).
    listed: usize,
}

impl Printer {
    fn print(
        &mut self,
        index: usize,
        path: &str,
        warnings: &[miette::Report],
        result: FileResult,
        io: &mut Io<'_>,
    ) -> Result<(), miette::Report> {
        for warning in warnings {
            io.report(warning);
        }
        let text = self.format == CheckFormat::Table;
        let entry = |status, expectations: usize, problems| CheckedFile {
            file: path.to_string(),
            status,
            expectations: expectations as u64,
            problems,
        };
        let totals = &mut self.totals;
        let entry = match result {
            // A file without `expect` entries checks nothing: it is not
            // counted as passed ("ok (0 expectations)" read like a pass).
            FileResult::Passed { expectations: 0 } => {
                totals.unchecked += 1;
                if text {
                    writeln!(io.out, "none  {path}: no `expect` entry, nothing checked")
                        .into_diagnostic()?;
                }
                entry("unchecked", 0, Vec::new())
            }
            FileResult::Passed { expectations: n } => {
                totals.passed += 1;
                totals.expectations += n as u64;
                if text {
                    writeln!(io.out, "ok    {path} ({})", plural(n as u64, "expectation"))
                        .into_diagnostic()?;
                }
                entry("passed", n, Vec::new())
            }
            FileResult::Failed {
                expectations: n,
                problems,
                input_error,
            } => {
                totals.failed += 1;
                self.exit = self.exit.max(if input_error {
                    Exit::InputError
                } else {
                    Exit::CheckFailed
                });
                if text {
                    writeln!(io.out, "FAIL  {path}").into_diagnostic()?;
                    for p in &problems {
                        writeln!(io.out, "        {p}").into_diagnostic()?;
                    }
                }
                let status = if input_error { "error" } else { "failed" };
                entry(status, n, problems)
            }
            FileResult::Error(error) => {
                totals.failed += 1;
                self.exit = self.exit.max(Exit::InputError);
                if text {
                    writeln!(io.out, "FAIL  {path}: cannot be checked").into_diagnostic()?;
                }
                io.report(&error);
                entry("error", 0, vec![error.to_string()])
            }
            FileResult::Skipped => return Ok(()),
            FileResult::Cut {
                expectations: n,
                problems,
            } => {
                totals.cut += 1;
                if text {
                    writeln!(
                        io.out,
                        "cut   {path}: Ctrl-C stopped a run before its expectations were checked"
                    )
                    .into_diagnostic()?;
                    for p in &problems {
                        writeln!(io.out, "        {p}").into_diagnostic()?;
                    }
                }
                entry("interrupted", n, problems)
            }
            FileResult::NeedsConf(why) => {
                totals.skipped += 1;
                if text {
                    writeln!(io.out, "skip  {path}: {why}").into_diagnostic()?;
                }
                entry("skipped", 0, vec![why])
            }
            FileResult::BadModel(error) => {
                totals.failed += 1;
                self.exit = self.exit.max(Exit::InputError);
                if text {
                    writeln!(io.out, "FAIL  {path}: a cat model it names: {error}")
                        .into_diagnostic()?;
                }
                io.report(&error);
                entry("error", 0, vec![error.to_string()])
            }
        };
        match self.format {
            CheckFormat::Table => {}
            CheckFormat::Json => {
                // The report streams: `{"files": [` before the first file.
                let before = if self.listed == 0 {
                    "{\n  \"files\": [\n"
                } else {
                    ",\n"
                };
                let element = crate::batch::pretty_element(&entry, 2).into_diagnostic()?;
                write!(io.out, "{before}{element}").into_diagnostic()?;
            }
            CheckFormat::Jsonl => {
                let line = CheckLine {
                    file_index: index,
                    file: &entry,
                };
                let line = serde_json::to_string(&line).into_diagnostic()?;
                writeln!(io.out, "{line}").into_diagnostic()?;
            }
        }
        self.listed += 1;
        io.out.flush().into_diagnostic()?;
        Ok(())
    }

    /// The summary (the end of the JSON document; nothing in JSON Lines).
    fn finish(mut self, io: &mut Io<'_>) -> Outcome {
        let interrupted = interrupt::requested();
        if interrupted {
            self.exit = Exit::Interrupted;
        }
        let totals = CheckTotals {
            interrupted,
            ..self.totals
        };
        match self.format {
            CheckFormat::Jsonl => {
                if interrupted {
                    let _ = writeln!(
                        io.err,
                        "relaxlab: interrupted (Ctrl-C): the files with the status `interrupted` \
                         were not fully checked, and those without a line not at all"
                    );
                }
                return Ok(self.exit);
            }
            CheckFormat::Json => {
                let files = if self.listed == 0 {
                    "{\n  \"files\": [],\n"
                } else {
                    "\n  ],\n"
                };
                let rest = serde_json::to_string_pretty(&totals).into_diagnostic()?;
                // The counts' object without its opening brace.
                let rest = rest.strip_prefix("{\n").unwrap_or(&rest);
                writeln!(io.out, "{files}{rest}").into_diagnostic()?;
                return Ok(self.exit);
            }
            CheckFormat::Table => {}
        }
        writeln!(
            io.out,
            "\n{} held in the files that passed",
            plural(totals.expectations, "expectation")
        )
        .into_diagnostic()?;
        if interrupted {
            writeln!(
                io.out,
                "interrupted (Ctrl-C): the files marked `cut` were not fully checked, and the \
                 files not listed not at all"
            )
            .into_diagnostic()?;
        }
        let CheckTotals {
            passed,
            failed,
            unchecked,
            skipped,
            cut,
            ..
        } = totals;
        write!(io.out, "{passed} passed, {failed} failed").into_diagnostic()?;
        if unchecked > 0 {
            write!(io.out, ", {unchecked} with nothing to check").into_diagnostic()?;
        }
        if skipped > 0 {
            write!(io.out, ", {skipped} skipped").into_diagnostic()?;
        }
        if cut > 0 {
            write!(io.out, ", {cut} cut").into_diagnostic()?;
        }
        writeln!(io.out).into_diagnostic()?;
        Ok(self.exit)
    }
}

fn check_file(
    file: &files::SourceFile,
    settings: &Settings,
    only: Option<&[ModelKey]>,
    cats: &CatContext,
    herd_model: Option<&crate::cat::CatFile>,
) -> (FileResult, Vec<miette::Report>) {
    // The file is translated and parsed once for the program and its
    // warnings; a file that does not load still gets the warnings of its
    // syntax tree, if it has one.
    let (program, warnings) = match load::program_and_warnings(file) {
        Ok(loaded) => loaded,
        Err(report) if herd_model.is_none() && names_a_kernel_macro(&report) => {
            let why = "a kernel test (it names a macro of herd's .def file): check it with \
                       --conf linux-kernel.cfg";
            return (FileResult::NeedsConf(why.to_string()), load::warnings(file));
        }
        Err(report) => return (FileResult::Error(report), load::warnings(file)),
    };
    (
        judge_file(file, &program, settings, only, cats, herd_model),
        warnings,
    )
}

/// What the runs of a loaded file say of its expectations.
fn judge_file(
    file: &files::SourceFile,
    program: &relaxlab_semantics::ir::Program,
    settings: &Settings,
    only: Option<&[ModelKey]>,
    cats: &CatContext,
    herd_model: Option<&crate::cat::CatFile>,
) -> FileResult {
    let mut by_model: BTreeMap<ModelKey, Vec<&Expectation>> = BTreeMap::new();
    for e in &program.expectations {
        if only.is_none_or(|keys| keys.contains(&e.model)) {
            by_model.entry(e.model).or_default().push(e);
        }
    }
    let mut problems = Vec::new();
    let mut count = 0;
    let mut input_error = false;
    // Whether Ctrl-C cut a run short: its expectations are not judged.
    let mut cut = false;
    for (key, entries) in by_model {
        if let Err(report) = load::check_model(program, key, file) {
            problems.push(format!(
                "{key}: the program is outside this model: {report}"
            ));
            input_error = true;
            continue;
        }
        // `--search mcr` checks sc, tso and pso statelessly; the other
        // models as always.
        let exhaustive;
        let settings = match key {
            ModelKey::Op(m)
                if settings.search == engine::Search::Mcr
                    && !relaxlab_semantics::operational::mcr::supports(m) =>
            {
                exhaustive = Settings {
                    search: engine::Search::Exhaustive,
                    ..settings.clone()
                };
                &exhaustive
            }
            _ => settings,
        };
        let table = match engine::run(program, key, settings) {
            Ok(t) => t,
            Err(e) => {
                problems.push(format!("{key}: {e}"));
                input_error = true;
                continue;
            }
        };
        if cut_by_ctrl_c(&table) {
            cut = true;
            continue;
        }
        for e in entries {
            count += 1;
            if let Some(problem) = judge(&table, e) {
                problems.push(problem);
            }
        }
    }
    if only.is_none() {
        match check_cats(file, program, settings, cats, &mut problems, &mut cut) {
            Ok(n) => count += n,
            Err(report) => return FileResult::BadModel(report),
        }
        if let (Some(cat), Some(stated)) = (herd_model, herd_result(file)) {
            count += 1;
            match judge_herd_result(program, cat, &stated, settings) {
                Judged::Holds => {}
                Judged::Problem(problem) => problems.push(problem),
                Judged::Cut => cut = true,
            }
        }
    }
    if cut {
        FileResult::Cut {
            expectations: count,
            problems,
        }
    } else if problems.is_empty() {
        FileResult::Passed {
            expectations: count,
        }
    } else {
        FileResult::Failed {
            expectations: count,
            problems,
            input_error,
        }
    }
}

/// Whether loading failed because the test names a kernel primitive,
/// which only herd's macro file defines.
fn names_a_kernel_macro(report: &miette::Report) -> bool {
    report
        .code()
        .is_some_and(|c| c.to_string() == "relaxlab::herd::unknown_macro")
        || report.related().into_iter().flatten().any(|r| {
            r.code()
                .is_some_and(|c| c.to_string() == "relaxlab::herd::unknown_macro")
        })
}

/// A herd C test's `Result:` comment: the verdict it states, and whether
/// it states a data race.
struct HerdResult {
    /// `None` for `Result: DEADLOCK`: no execution is consistent (herd7's
    /// `Never 0 0`), as when a lock can never be taken.
    verdict: Option<Verdict>,
    data_race: bool,
}

/// The `Result:` comment of a herd C test (`* Result: Sometimes DATARACE`),
/// if it has one naming a verdict.
fn herd_result(file: &files::SourceFile) -> Option<HerdResult> {
    use relaxlab_grammar::herd::{detect, Dialect};
    if detect(&file.text) != Dialect::HerdC {
        return None;
    }
    let line = file.text.lines().find_map(|l| {
        l.trim_start_matches([' ', '\t', '*', '('])
            .strip_prefix("Result:")
    })?;
    let mut words = line.split_whitespace();
    let verdict = match words.next()? {
        "Always" => Some(Verdict::Always),
        "Sometimes" => Some(Verdict::Sometimes),
        "Never" => Some(Verdict::Never),
        "DEADLOCK" => None,
        _ => return None,
    };
    Some(HerdResult {
        verdict,
        data_race: words.any(|w| w == "DATARACE"),
    })
}

/// Whether Ctrl-C cut the run that made `table` short.
fn cut_by_ctrl_c(table: &OutcomeTable) -> bool {
    table
        .bounds
        .contains(&relaxlab_semantics::outcome::BoundHit::Interrupted)
}

/// What the run of a `Result:` comment's model says of it.
enum Judged {
    Holds,
    Problem(String),
    /// Ctrl-C cut the run short.
    Cut,
}

/// What is wrong with a `Result:` comment under the configuration's
/// model, if anything: its verdict, then its data race.
fn judge_herd_result(
    program: &relaxlab_semantics::ir::Program,
    cat: &crate::cat::CatFile,
    stated: &HerdResult,
    settings: &Settings,
) -> Judged {
    let key = format!("Result: ({})", cat.model.name);
    let table = match crate::engine::run(program, cat, settings) {
        Ok(t) => t,
        Err(e) => return Judged::Problem(format!("{key}: {e}")),
    };
    if cut_by_ctrl_c(&table) {
        return Judged::Cut;
    }
    match herd_result_problem(&table, &key, stated) {
        Some(problem) => Judged::Problem(problem),
        None => Judged::Holds,
    }
}

/// What is wrong with a `Result:` comment, judged on its model's table.
fn herd_result_problem(table: &OutcomeTable, key: &str, stated: &HerdResult) -> Option<String> {
    match stated.verdict {
        Some(verdict) => {
            if let Some(problem) = verdict_problem(table, key, Subject::Condition, verdict) {
                return Some(problem);
            }
        }
        None => {
            if let Some(bound) = table.bounds.first() {
                return Some(format!(
                    "{key}: expected DEADLOCK, but the result is partial: {}",
                    describe_bound(bound)
                ));
            }
            let executions: u64 = table.rows.iter().map(|r| r.count).sum();
            if executions > 0 {
                return Some(format!(
                    "{key}: expected DEADLOCK (no consistent execution), found {}",
                    plural(executions, "execution")
                ));
            }
        }
    }
    let raced = table.flags.iter().any(|f| f == "data-race");
    match (stated.data_race, raced) {
        (true, false) => Some(format!(
            "{key}: expected DATARACE, but no data race was flagged"
        )),
        (false, true) => Some(format!(
            "{key}: a data race was flagged, and the comment does not say DATARACE"
        )),
        _ => None,
    }
}

/// An expectation's key as written: `tso`, `ax.rc11`, `pso.assert`.
fn key_name(e: &Expectation) -> String {
    match e.subject {
        Subject::Condition => e.model.to_string(),
        Subject::Failure => format!("{}.assert", e.model),
    }
}

/// Checks the file's expectations about cat models; returns how many.
fn check_cats(
    file: &files::SourceFile,
    program: &relaxlab_semantics::ir::Program,
    settings: &Settings,
    cats: &CatContext,
    problems: &mut Vec<String>,
    cut: &mut bool,
) -> Result<usize, miette::Report> {
    use relaxlab_grammar::CatRef;
    let Ok((_, text)) = load::relaxlab_text(file) else {
        return Ok(0);
    };
    let Ok(ast) = relaxlab_grammar::parse(&text) else {
        return Ok(0);
    };
    let entries = relaxlab_grammar::cat_expectations(&ast);
    let mut by_model: BTreeMap<CatRef, Vec<&relaxlab_grammar::CatExpectation>> = BTreeMap::new();
    for e in &entries {
        by_model.entry(e.model.clone()).or_default().push(e);
    }
    let dir = std::path::Path::new(&file.path)
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    for (model, entries) in by_model {
        let path =
            match &model {
                CatRef::Path(p) => dir.join(p),
                CatRef::Key(k) => match cats.keys.get(k) {
                    Some(p) => p.clone(),
                    None => {
                        let known: Vec<&str> = cats.keys.keys().map(String::as_str).collect();
                        problems.push(format!(
                        "cat.{k}: no model `{k}` in the [cat] table of relaxlab.toml (it has: {})",
                        if known.is_empty() { "nothing".to_string() } else { known.join(", ") }
                    ));
                        continue;
                    }
                },
            };
        let cat = cats.load(&path)?;
        let model = Model::Cat(&cat);
        if let Err(report) = model.check(program, file) {
            problems.push(format!(
                "{}: the program is outside this model: {report}",
                entries[0].key
            ));
            continue;
        }
        let table = match engine::run(program, model, settings) {
            Ok(t) => t,
            Err(e) => {
                problems.push(format!("{}: {e}", entries[0].key));
                continue;
            }
        };
        if cut_by_ctrl_c(&table) {
            *cut = true;
            continue;
        }
        for e in &entries {
            if let Some(problem) = verdict_problem(&table, &e.key, e.subject, e.verdict) {
                problems.push(problem);
            }
        }
    }
    Ok(entries.len())
}

/// What is wrong with one expectation, if anything.
fn judge(table: &OutcomeTable, e: &Expectation) -> Option<String> {
    verdict_problem(table, &key_name(e), e.subject, e.verdict)
}

/// What is wrong with the expectation `key: verdict` of `table`, if
/// anything.
fn verdict_problem(
    table: &OutcomeTable,
    key: &str,
    subject: Subject,
    verdict: Verdict,
) -> Option<String> {
    let e = (subject, verdict);
    if let Some(bound) = table.bounds.first() {
        return Some(format!(
            "{key}: expected {}, but the result is partial: {}",
            e.1,
            describe_bound(bound)
        ));
    }
    let found = match e.0 {
        Subject::Condition => match table.verdict() {
            Some(v) => v,
            None => return Some(format!("{key}: the test has no final condition to judge")),
        },
        Subject::Failure => {
            if table.fails() {
                Verdict::Sometimes
            } else {
                Verdict::Never
            }
        }
    };
    (found != e.1).then(|| format!("{key}: expected {}, found {found}", e.1))
}
