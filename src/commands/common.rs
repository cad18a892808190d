//! What the exploring commands share: settings from flags and
//! `relaxlab.toml`, model names, the worker pool.

use relaxlab_semantics::ir::{AxModel, ModelKey, OpModel};
use relaxlab_semantics::mapping::Mapping;

use crate::cli::{EngineArgs, MappingArg, ReductionArg, SearchArg};
use crate::config::Config;
use crate::engine::{Search, Settings};

/// The configuration of the current directory ([`Config::load`]).
pub fn config() -> Result<Config, miette::Report> {
    let cwd = std::env::current_dir()
        .map_err(|e| miette::miette!("cannot read the current directory: {e}"))?;
    Config::load(&cwd).map_err(|e| miette::Report::new(*e))
}

/// Engine settings: flags first, then `relaxlab.toml`, then defaults.
pub fn settings(args: &EngineArgs, config: &Config) -> Settings {
    let default = Settings::default();
    let mapping = match args.mapping.or(config.mapping) {
        Some(MappingArg::Plain) => Mapping::Plain,
        Some(MappingArg::Standard) | None => Mapping::Standard,
    };
    Settings {
        search: Search::Exhaustive,
        mapping,
        max_states: args
            .max_states
            .or(config.max_states())
            .unwrap_or(default.max_states),
        max_depth: args.max_depth.unwrap_or(default.max_depth),
        max_candidates: args
            .max_candidates
            .or(config.max_candidates())
            .unwrap_or(default.max_candidates),
        unroll: args.unroll.or(config.unroll()),
        sampling: None,
        mark_non_sc: true,
        progress: false,
        budget: crate::limits::budget(args),
        timeout: args.timeout,
        reduction: match args.reduction {
            ReductionArg::None => relaxlab_semantics::operational::Reduction::None,
            ReductionArg::Por => relaxlab_semantics::operational::Reduction::Por,
        },
    }
}

/// `--search`.
pub fn search(arg: Option<SearchArg>) -> Search {
    match arg {
        Some(SearchArg::Mcr) => Search::Mcr,
        Some(SearchArg::Exhaustive) | None => Search::Exhaustive,
    }
}

/// Is standard error a terminal (where the progress bar goes)?
pub fn stderr_is_terminal() -> bool {
    std::io::IsTerminal::is_terminal(&std::io::stderr())
}

/// The rayon pool exploration runs in: `--jobs`, else `jobs` of the
/// config, else every core. A pool of one worker is the calling thread
/// itself, so a batch at `--jobs 1` runs without handing its files and
/// results between threads ([`crate::batch`]); rayon keeps a thread's
/// place in such a pool for the life of the process, so the calling
/// thread builds it once and shares it.
pub fn pool(
    args: &EngineArgs,
    config: &Config,
) -> Result<std::sync::Arc<rayon::ThreadPool>, miette::Report> {
    // 0: rayon's default, one thread per core.
    let jobs = args.jobs.or(config.jobs()).unwrap_or(0);
    let workers = match jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    if workers == 1 {
        return this_thread_as_pool();
    }
    // The workers read tests with the command's herd configuration. The
    // number counted above, not 0: rayon would count the cores again, and
    // counting them reads the control group's files (tens of microseconds).
    let setup = crate::herd_conf::installed();
    rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .start_handler(move |_| crate::herd_conf::install(setup.clone()))
        .build()
        .map(std::sync::Arc::new)
        .map_err(|e| miette::miette!("cannot start {workers} worker threads: {e}"))
}

/// The pool of one worker that is the calling thread (which has the
/// command's herd configuration already).
fn this_thread_as_pool() -> Result<std::sync::Arc<rayon::ThreadPool>, miette::Report> {
    thread_local! {
        static POOL: std::cell::OnceCell<std::sync::Arc<rayon::ThreadPool>> =
            const { std::cell::OnceCell::new() };
    }
    POOL.with(|cell| {
        if let Some(pool) = cell.get() {
            return Ok(pool.clone());
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .use_current_thread()
            .build()
            .map(std::sync::Arc::new)
            .map_err(|e| miette::miette!("cannot make this thread a worker: {e}"))?;
        Ok(cell.get_or_init(|| pool).clone())
    })
}

/// An unknown model name.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{}", if name.is_empty() { format!("an empty {kind} model name") } else { format!("unknown {kind} model `{name}`") })]
#[diagnostic(code(relaxlab::model::unknown), help("{help}"))]
pub struct UnknownModel {
    kind: &'static str,
    name: String,
    help: String,
}

/// The help line of an unknown model name: the closest known name, if
/// any is close (a name in other case, `TSO`, is close), and the list. An
/// empty name comes from two commas in a row, or one at an end.
pub fn suggestion(name: &str, known: &[&str]) -> String {
    if name.trim().is_empty() {
        return format!(
            "a list of models has one comma between two names (`--model tso,pso`); the models are {}",
            known.join(", ")
        );
    }
    let lower = name.to_lowercase();
    let limit = lower.chars().count().div_ceil(3).max(1);
    let close = known
        .iter()
        .copied()
        .map(|k| (strsim::osa_distance(&lower, &k.to_lowercase()), k))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d);
    match close {
        Some((_, k)) => format!("did you mean `{k}`? The models are {}", known.join(", ")),
        None => format!("the models are {}", known.join(", ")),
    }
}

/// A model named twice: its results would be printed twice.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("model `{0}` is named twice")]
#[diagnostic(code(relaxlab::model::twice), help("name each model once"))]
pub struct ModelTwice(pub String);

/// Refuses a list of models that names one twice.
pub fn distinct(keys: &[ModelKey]) -> Result<(), ModelTwice> {
    for (i, k) in keys.iter().enumerate() {
        if keys[..i].contains(k) {
            return Err(ModelTwice(k.to_string()));
        }
    }
    Ok(())
}

/// Parses `--model` names.
pub fn op_models(names: &[String]) -> Result<Vec<ModelKey>, UnknownModel> {
    let known: Vec<&str> = OpModel::ALL.iter().map(|m| m.name()).collect();
    names
        .iter()
        .map(|n| {
            OpModel::from_name(n)
                .map(ModelKey::Op)
                .ok_or_else(|| UnknownModel {
                    kind: "operational",
                    name: n.clone(),
                    help: axiomatic_hint(n).unwrap_or_else(|| suggestion(n, &known)),
                })
        })
        .collect()
}

/// The help line for an axiomatic model's name (`ax.rc11`, as tables
/// name them) given to `--model`: it goes to `--axiomatic`.
fn axiomatic_hint(name: &str) -> Option<String> {
    let bare = name.strip_prefix("ax.")?;
    AxModel::from_name(bare)?;
    Some(format!(
        "`{name}` is an axiomatic model: name it with `--axiomatic {bare}` (`-a {bare}`)"
    ))
}

/// Parses `--axiomatic` names (with or without the `ax.` prefix).
pub fn ax_models(names: &[String]) -> Result<Vec<ModelKey>, UnknownModel> {
    let known: Vec<&str> = AxModel::ALL.iter().map(|m| m.name()).collect();
    names
        .iter()
        .map(|n| {
            let bare = n.strip_prefix("ax.").unwrap_or(n);
            AxModel::from_name(bare)
                .map(ModelKey::Ax)
                .ok_or_else(|| UnknownModel {
                    kind: "axiomatic",
                    name: n.clone(),
                    help: suggestion(bare, &known),
                })
        })
        .collect()
}

/// Every program named by `paths` (directories expanded), each with its
/// file. A file that does not load is reported on `io` and skipped, and
/// `exit` records the input error; an unreadable path stops the command.
pub fn programs(
    paths: &[std::path::PathBuf],
    io: &mut crate::Io<'_>,
    exit: &mut crate::Exit,
) -> Result<Vec<(crate::files::SourceFile, relaxlab_semantics::ir::Program)>, miette::Report> {
    let corpus = corpus(paths, crate::values::Partition::WHOLE, io, exit)?;
    Ok(corpus
        .programs
        .into_iter()
        .map(|(_, f, p)| (f, p))
        .collect())
}

/// The programs of one part of a corpus (`--partition`).
#[derive(Debug)]
pub struct Corpus {
    /// How many files the arguments expand to, in all parts.
    pub files: usize,
    /// The part's programs, each with its index among all the files.
    pub programs: Vec<(
        usize,
        crate::files::SourceFile,
        relaxlab_semantics::ir::Program,
    )>,
}

/// The programs of part `part` of the files `paths` name (directories
/// expanded in name order): only that part's files are read and loaded.
/// A file that does not load is reported on `io` and skipped, and `exit`
/// records the input error; an unreadable path stops the command.
pub fn corpus(
    paths: &[std::path::PathBuf],
    part: crate::values::Partition,
    io: &mut crate::Io<'_>,
    exit: &mut crate::Exit,
) -> Result<Corpus, miette::Report> {
    let all = crate::files::expand(paths)?;
    let mut out = Vec::new();
    for (index, path) in all.iter().enumerate() {
        if !part.holds(index) {
            continue;
        }
        let file = crate::files::read(path)?;
        match crate::load::program_and_warnings(&file) {
            Ok((program, warnings)) => {
                for warning in warnings {
                    io.report(&warning);
                }
                out.push((index, file, program))
            }
            Err(report) => {
                io.report(&report);
                *exit = (*exit).max(crate::Exit::InputError);
            }
        }
    }
    Ok(Corpus {
        files: all.len(),
        programs: out,
    })
}
