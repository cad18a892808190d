//! `relaxlab races`: the data races of a test, each distinct pair of
//! accesses once, as a diagnostic with both accesses labelled in the source
//! and a witness trace (a shortest one with `--reduction none`).
//!
//! `--model c11r` explores the restricted C11 model, `--model c11t`
//! C11Tester's fragment; `--model sc` explores
//! every sequentially consistent interleaving with C11 happens-before (the
//! Java RaceFinder question: if no SC execution races, DRF-SC says every
//! execution is SC).

use miette::{IntoDiagnostic, NamedSource, SourceSpan};
use relaxlab_semantics::ir::{ModelKey, OpModel, Program};
use relaxlab_semantics::model::Site;
use relaxlab_semantics::operational::Reduction;
use relaxlab_semantics::registry::Races;

use super::common;
use crate::cli::{RacesArgs, ReportFormat};
use crate::engine;
use crate::exit::{Exit, Outcome};
use crate::render::table::{describe_bound_of, flag_origin};
use crate::render::{json, trace, words};
use crate::{files, flags, interrupt, load, Io};

/// One data race, rendered against the source.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("data race on `{location}`: {first_text} (thread {first_thread}) and {second_text} (thread {second_thread})")]
#[diagnostic(
    code(relaxlab::race),
    severity(Warning),
    help("order the two accesses with happens-before (a release store and an acquire load that reads it), or make `{location}` atomic")
)]
pub struct RaceDiagnostic {
    location: String,
    first_text: String,
    first_thread: String,
    second_text: String,
    second_thread: String,
    #[source_code]
    src: NamedSource<String>,
    #[label("this access by {first_thread}")]
    first: SourceSpan,
    #[label("races with this access by {second_thread}")]
    second: SourceSpan,
}

/// `--model` of `races` is not one that tracks happens-before.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("`races` runs under {}, not `{name}`", words::listed(&race_models(), "or"))]
#[diagnostic(code(relaxlab::races::model))]
pub struct RaceModelError {
    name: String,
    #[help]
    help: String,
}

impl RaceModelError {
    fn new(name: String) -> Self {
        let flags: Vec<String> = race_models()
            .iter()
            .map(|m| format!("`--model {m}`"))
            .collect();
        RaceModelError {
            name,
            help: format!("use {}", words::listed(&flags, "or")),
        }
    }
}

/// The models `races` runs under (their registry rows' `races`): those
/// that track happens-before themselves, then those explored with C11's
/// clocks over their memory.
fn race_models() -> Vec<&'static str> {
    let with = |r: Races| {
        OpModel::ALL
            .into_iter()
            .filter(move |m| m.row().races == r)
            .map(OpModel::name)
    };
    with(Races::Own).chain(with(Races::ScClocks)).collect()
}

pub fn races(args: &RacesArgs, io: &mut Io<'_>) -> Outcome {
    let config = common::config()?;
    flags::operational_only(&args.engine, "races")?;
    let mut settings = common::settings(&args.engine, &config);
    settings.progress = common::stderr_is_terminal();
    let pool = common::pool(&args.engine, &config)?;
    let model = match OpModel::from_name(&args.model) {
        Some(m) if m.row().races != Races::None => m,
        _ => return Err(RaceModelError::new(args.model.clone()).into()),
    };
    flags::races_mapping(&args.engine, io);
    let json_format = args.format == ReportFormat::Json;
    let mut reports = Vec::new();
    let mut exit = Exit::Ok;
    for (file, program) in common::programs(&args.files, io, &mut exit)? {
        if interrupt::requested() {
            break;
        }
        // Race detection needs C11 accesses: the same static check as c11r.
        if let Err(report) = load::check_model(&program, ModelKey::Op(OpModel::C11r), &file) {
            io.report(&report);
            exit = exit.max(Exit::InputError);
            continue;
        }
        let result = pool.install(|| engine::races(&program, model, &settings))?;
        let key = ModelKey::Op(model);
        let lines = |w: &Option<relaxlab_semantics::outcome::Trace>| {
            w.as_ref().map(|w| trace::lines(&result.program, key, w))
        };
        let site = |s: Site| {
            let ins = program.instruction(s.thread, s.instr);
            format!(
                "{} line {}: {}",
                program.thread(s.thread).name,
                ins.line,
                ins.text
            )
        };
        if !result.races.is_empty() {
            exit = exit.max(Exit::CheckFailed);
        }
        if !result.table.complete() {
            exit = exit.max(Exit::Partial);
        }
        if json_format {
            reports.push(json::RaceReport {
                file: file.path.clone(),
                test: program.name.clone(),
                model: model.name().to_string(),
                races: result
                    .races
                    .iter()
                    .map(|(race, witness)| json::RaceFound {
                        location: program.location(race.loc).name.clone(),
                        first: site(race.earlier),
                        second: site(race.later),
                        witness: lines(witness),
                    })
                    .collect(),
                complete: result.table.complete(),
                bounds: result
                    .table
                    .bounds
                    .iter()
                    .map(|b| json::Bound::of(b, "races", &flag_origin))
                    .collect(),
            });
            continue;
        }
        if result.table.races.is_empty() {
            // A search cut short claims only what it saw.
            let none = if result.table.complete() {
                format!("no data race under {}", model.name())
            } else {
                format!(
                    "no data race found under {} in {} (PARTIAL)",
                    model.name(),
                    crate::render::plural(result.table.stats.states, "state")
                )
            };
            writeln!(io.out, "{}: {none}", file.path).into_diagnostic()?;
        }
        for (race, witness) in &result.races {
            let diag = diagnostic(&program, race.loc, race.earlier, race.later, &file);
            writeln!(io.out, "{:?}", miette::Report::new(diag)).into_diagnostic()?;
            if let Some(steps) = lines(witness) {
                let n = witness.as_ref().map_or(0, |w| w.steps.len() as u64);
                let which = match settings.reduction {
                    Reduction::None => "witness",
                    Reduction::Por => "a witness, from the reduced search",
                };
                writeln!(io.out, "  {which} ({}):", crate::render::plural(n, "step"))
                    .into_diagnostic()?;
                for line in steps {
                    writeln!(io.out, "    {line}").into_diagnostic()?;
                }
            }
            writeln!(io.out).into_diagnostic()?;
        }
        for bound in &result.table.bounds {
            writeln!(
                io.out,
                "PARTIAL: {}",
                describe_bound_of(bound, "races", &flag_origin)
            )
            .into_diagnostic()?;
        }
    }
    if json_format {
        serde_json::to_writer_pretty(&mut *io.out, &reports).into_diagnostic()?;
        writeln!(io.out).into_diagnostic()?;
    }
    if interrupt::requested() {
        exit = Exit::Interrupted;
    }
    Ok(exit)
}

fn diagnostic(
    program: &Program,
    loc: relaxlab_semantics::ir::LocId,
    a: Site,
    b: Site,
    file: &files::SourceFile,
) -> RaceDiagnostic {
    let ia = program.instruction(a.thread, a.instr);
    let ib = program.instruction(b.thread, b.instr);
    let span = |s: relaxlab_semantics::ir::Span| SourceSpan::from(s.start as usize..s.end as usize);
    RaceDiagnostic {
        location: program.location(loc).name.clone(),
        first_text: ia.text.clone(),
        first_thread: program.thread(a.thread).name.clone(),
        second_text: ib.text.clone(),
        second_thread: program.thread(b.thread).name.clone(),
        src: {
            // The spans are in the text relaxlab ran: a herd7 test's
            // translation, whose lines the race's `line N` also counts.
            let (name, text) = crate::load::relaxlab_text(file)
                .unwrap_or_else(|_| (file.path.clone(), file.text.clone()));
            NamedSource::new(name, relaxlab_grammar::printable(&text).into_owned())
        },
        first: span(ia.span),
        second: span(ib.span),
    }
}
