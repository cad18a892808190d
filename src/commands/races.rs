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

use super::common;
use crate::cli::RacesArgs;
use crate::engine;
use crate::exit::{Exit, Outcome};
use crate::render::{table::describe_bound, trace};
use crate::{files, load, Io};

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
#[error("`races` runs under c11r, c11t or sc, not `{0}`")]
#[diagnostic(
    code(relaxlab::races::model),
    help("use `--model c11r`, `--model c11t` or `--model sc`")
)]
pub struct RaceModelError(String);

pub fn races(args: &RacesArgs, io: &mut Io<'_>) -> Outcome {
    let config = common::config()?;
    let settings = common::settings(&args.engine, &config);
    let pool = common::pool(&args.engine, &config)?;
    let model = match args.model.as_str() {
        "c11r" => OpModel::C11r,
        "c11t" => OpModel::C11t,
        "sc" => OpModel::Sc,
        other => return Err(RaceModelError(other.to_string()).into()),
    };
    let mut exit = Exit::Ok;
    for (file, program) in common::programs(&args.files, io, &mut exit)? {
        // Race detection needs C11 accesses: the same static check as c11r.
        load::check_model(&program, ModelKey::Op(OpModel::C11r), &file)?;
        let result = pool.install(|| engine::races(&program, model, &settings))?;
        if result.table.races.is_empty() {
            writeln!(io.out, "{}: no data race under {}", file.path, model.name())
                .into_diagnostic()?;
        }
        for (race, witness) in &result.races {
            exit = exit.max(Exit::CheckFailed);
            let diag = diagnostic(&program, race.loc, race.earlier, race.later, &file);
            writeln!(io.out, "{:?}", miette::Report::new(diag)).into_diagnostic()?;
            if let Some(witness) = witness {
                let which = match settings.reduction {
                    Reduction::None => "witness",
                    Reduction::Por => "a witness, from the reduced search",
                };
                writeln!(io.out, "  {which} ({} steps):", witness.steps.len())
                    .into_diagnostic()?;
                for line in trace::lines(&result.program, ModelKey::Op(model), witness) {
                    writeln!(io.out, "    {line}").into_diagnostic()?;
                }
            }
            writeln!(io.out).into_diagnostic()?;
        }
        for bound in &result.table.bounds {
            exit = exit.max(Exit::Partial);
            writeln!(io.out, "PARTIAL: {}", describe_bound(bound)).into_diagnostic()?;
        }
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
        src: NamedSource::new(&file.path, file.text.clone()),
        first: span(ia.span),
        second: span(ib.span),
    }
}
