//! The command line, as clap sees it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::names;
use crate::values::{self, Replay};

pub const EXIT_CODES: &str = "\
Exit codes:
  0    success: the command did what was asked and found nothing wrong
  1    a check failed: an expectation did not hold (check), a file is not
       formatted (fmt --check), a data race was found (races), an execution
       fails (a false assert, ...) and the test's expect block does not say
       MODEL.assert: sometimes (run, confirm)
  2    input error: a file that does not parse or fails a static check, an
       unknown model, a bad flag value or combination of flags
  3    partial result: a bound (--max-states, --max-depth, --max-candidates,
       --unroll, --max-steps, --timeout, --max-memory) cut a result short;
       the output says which
  4    standard output could not be written (a full disk, >/dev/full)
  130  interrupted (Ctrl-C): the output so far is printed, and says so
  141  standard output's reader went away (relaxlab ... | head): relaxlab
       stops quietly, with the status shells show for `yes | head`
Several files: the most severe code, in the order 0, 1, 3, 2, 130 (4 and
141 end relaxlab at the write that failed).";

/// relaxlab: can this outcome happen under this memory model, and why?
#[derive(Debug, Parser)]
#[command(name = "relaxlab", version, about, after_help = EXIT_CODES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run litmus tests under an operational or an axiomatic model.
    Run(RunArgs),
    /// Verify every `expect` entry of litmus tests.
    Check(CheckArgs),
    /// Parse and statically check litmus tests.
    Parse(ParseArgs),
    /// Print litmus tests in canonical layout.
    Fmt(FmtArgs),
    /// Operational models beside their axiomatic twins, with every disagreement explained.
    Compare(CompareArgs),
    /// Report the data races of a test under c11r, c11t or sc.
    Races(RacesArgs),
    /// RELAXER Phase I: predict potential happens-before cycles from SC runs.
    Predict(PredictArgs),
    /// RELAXER Phase II: try to create each predicted cycle under a relaxed model.
    Confirm(ConfirmArgs),
    /// Measure exploration speed and memory on the benchmark tests.
    Bench(BenchArgs),
    /// The fewest fences (or weakest orders) that make a test's condition hold, verified.
    Repair(RepairArgs),
    /// Serve the playground: relaxlab in a web browser, with a stepper.
    Serve(ServeArgs),
    /// Join the `--format jsonl` outputs of the parts of a `--partition` run or check into one.
    Merge(MergeArgs),
}

#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  relaxlab merge part1.jsonl part2.jsonl part3.jsonl > all.jsonl")]
pub struct MergeArgs {
    /// The parts' outputs (`run` or `check` with `--partition K/N
    /// --format jsonl`), every part of one run once, in any order.
    #[arg(required = true)]
    pub parts: Vec<PathBuf>,
}

/// Output formats of `run`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// A table for people.
    Table,
    /// JSON, one object per run (schema: book: cli.md, JSON: run).
    Json,
    /// herd7's output layout, for diffing against herd7.
    Herd,
    /// JSON Lines: a header line, then each run's JSON object on one line
    /// as it finishes, with its file's index (`relaxlab merge` joins the
    /// parts of a `--partition`).
    Jsonl,
}

/// `--mapping`: how hardware models treat C11 orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MappingArg {
    /// Fences around orders, as a compiler emits them (book: mapping.md).
    Standard,
    /// Ignore memory orders entirely.
    Plain,
}

/// `--strategy` of sampled runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StrategyArg {
    /// Every enabled choice equally likely.
    Uniform,
    /// RELAXER's delay bias: postpone buffer commits with P = 0.5.
    Delay,
    /// tsan11's preference for older values (Sec. 7.1): oldest 1/2, next 1/4, ...
    Old,
    /// C11Tester's scheduler (Sec. 3): consecutive rlx/rel stores of a thread run uninterrupted.
    #[value(name = "c11tester")]
    C11Tester,
}

/// Options shared by the commands that explore.
#[derive(Debug, Args, Clone, Default)]
pub struct EngineArgs {
    /// Memory-model mapping of C11 orders on hardware models.
    #[arg(long, value_enum)]
    pub mapping: Option<MappingArg>,
    /// Worker threads (1 to 512; default: all cores). `run` and `check`
    /// work on several files at once and print them in file order; the
    /// output does not depend on it.
    #[arg(long, short = 'j', value_parser = values::jobs, allow_negative_numbers = true)]
    pub jobs: Option<usize>,
    /// Stop exhaustive exploration after storing this many states
    /// (default 10000000).
    #[arg(long, value_parser = values::whole::<u64, 1, { u64::MAX }>, allow_negative_numbers = true)]
    pub max_states: Option<u64>,
    /// Stop exhaustive exploration at executions this many steps long
    /// (default 100000): only a loop whose states never repeat, such as one
    /// that keeps growing a counter, gets that deep.
    #[arg(long, value_parser = values::whole::<u64, 1, { u64::MAX }>, allow_negative_numbers = true)]
    pub max_depth: Option<u64>,
    /// Unroll loops this many times, 0 to 64 (axiomatic models need
    /// loop-free code).
    #[arg(long, value_parser = values::whole::<u32, 0, { values::MAX_UNROLL as u64 }>, allow_negative_numbers = true)]
    pub unroll: Option<u32>,
    /// Stop the axiomatic engine after this many candidate executions
    /// (default 10000000).
    #[arg(long, value_parser = values::whole::<u64, 1, { u64::MAX }>, allow_negative_numbers = true)]
    pub max_candidates: Option<u64>,
    /// Partial-order reduction of exhaustive exploration: `por` explores
    /// fewer interleavings and reports the same outcomes, failures and
    /// races (a witness is then some execution, not always a shortest
    /// one); `none` explores every interleaving.
    #[arg(long, value_enum, default_value_t = ReductionArg::Por)]
    pub reduction: ReductionArg,
    /// Stop each exploration after this many seconds (decimals allowed),
    /// keeping what it found: a partial result, exit code 3.
    #[arg(long, value_name = "SECONDS", value_parser = values::timeout, allow_negative_numbers = true)]
    pub timeout: Option<std::time::Duration>,
    /// Stop exploring once relaxlab's resident memory exceeds SIZE (bytes,
    /// or with K, M, G, T: powers of 1024), keeping what was found.
    #[arg(long, value_name = "SIZE", value_parser = values::memory_size, allow_negative_numbers = true)]
    pub max_memory: Option<u64>,
}

/// `--search`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SearchArg {
    /// The stateful explorer: every state once (the default).
    Exhaustive,
    /// Stateless exploration with maximal causality reduction: one
    /// execution per combination of values the reads return (sc, tso,
    /// pso; loops unrolled, --unroll, default 2; --max-states bounds the
    /// executions).
    Mcr,
}

/// `--reduction`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ReductionArg {
    /// Explore every interleaving (shortest witnesses).
    None,
    /// Partial-order reduction.
    #[default]
    Por,
}

/// Output formats of `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// Text for people.
    Table,
    /// One JSON document (schema: book: cli.md, JSON: check, compare and races).
    Json,
    /// JSON Lines: a header line, then one JSON object per file on one
    /// line, with its file's index (`relaxlab merge` joins the parts of a
    /// `--partition`).
    Jsonl,
}

/// Output formats of `compare` and `races`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// Text for people.
    Table,
    /// One JSON document (schema: book: cli.md, JSON: check, compare and races).
    Json,
}

#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  relaxlab run litmus/classic/SB.litmus --model sc,tso --witness
  relaxlab run litmus/classic/SB.litmus --axiomatic tso,rc11 --format herd
  relaxlab run litmus/classic/SB.litmus --model tso --sample 1000 --seed 7
  relaxlab run litmus/classic/SB.litmus --model tso --replay 7:42
  relaxlab run litmus/classic/ --model pso --timeout 60 --max-memory 4G
  relaxlab run litmus/classic/MP.litmus --model tso --dot mp.dot
  relaxlab run corpus/ --axiomatic tso --partition 1/4 --format jsonl > part1.jsonl
  cat test.litmus | relaxlab run - --model c11r --format json")]
pub struct RunArgs {
    /// Litmus files, or directories (their `*.litmus` files, recursively);
    /// `-` reads a test from standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[arg(long, short = 'm', visible_alias = "models", value_delimiter = ',', help = names::RUN_MODELS.as_str())]
    pub model: Vec<String>,
    #[arg(long, short = 'a', value_delimiter = ',', help = names::RUN_AXIOMATIC.as_str())]
    pub axiomatic: Vec<String>,
    #[command(flatten)]
    pub cat: CatArgs,
    /// How operational models are explored: `exhaustive` (the stateful
    /// explorer, the default) or `mcr` (stateless, maximal causality
    /// reduction: sc, tso and pso).
    #[arg(long, value_enum, conflicts_with_all = ["sample", "replay"])]
    pub search: Option<SearchArg>,
    /// Sample this many random runs instead of exploring exhaustively
    /// (operational models only).
    #[arg(long, value_name = "N", value_parser = values::whole::<u64, 1, { u64::MAX }>, allow_negative_numbers = true)]
    pub sample: Option<u64>,
    /// Seed of sampled runs (default 0).
    #[arg(long, requires = "sample")]
    pub seed: Option<u64>,
    /// Scheduling strategy of sampled and replayed runs (default uniform).
    #[arg(long, value_enum)]
    pub strategy: Option<StrategyArg>,
    /// Step bound of one sampled or replayed run (default 10000).
    #[arg(long, value_parser = values::whole::<u64, 1, { u64::MAX }>, allow_negative_numbers = true)]
    pub max_steps: Option<u64>,
    /// Print the trace of sampled run I of seed S.
    #[arg(long, value_name = "S:I", value_parser = values::replay, conflicts_with_all = ["sample", "witness", "format", "dot", "axiomatic"])]
    pub replay: Option<Replay>,
    /// Print a witness trace under every outcome and failure.
    #[arg(long, short = 'w')]
    pub witness: bool,
    /// Output format.
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<Format>,
    /// With `--format herd`: also print herd's `Time` and `Hash` lines.
    #[arg(long)]
    pub herd_time: bool,
    /// Run part K of N only (`2/4`): the files the arguments expand to are
    /// dealt out in turn, file I to part I mod N + 1, the same way on every
    /// machine; `relaxlab merge` joins the parts' `--format jsonl` outputs.
    #[arg(long, value_name = "K/N", value_parser = values::partition)]
    pub partition: Option<values::Partition>,
    /// Write the witness execution graph of every outcome as Graphviz DOT
    /// (operational models: the witness trace lifted to an execution;
    /// axiomatic models: a consistent execution), one graph per test,
    /// model and outcome; `-` prints them after the tables (with
    /// `--format json`: inside each run's object).
    #[arg(long, value_name = "FILE")]
    pub dot: Option<PathBuf>,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  relaxlab check litmus/
  relaxlab check litmus/classic/SB.litmus --only tso,ax.rc11
  relaxlab check litmus/ --max-states 100000 --format json
  relaxlab check corpus/ --partition 2/4 --format jsonl > part2.jsonl
  relaxlab check litmus/kernel/ --conf cat/linux/linux-kernel.cfg")]
pub struct CheckArgs {
    /// Litmus files or directories; `-` reads a test from standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Check part K of N only (`2/4`): the files the arguments expand to
    /// are dealt out in turn, file I to part I mod N + 1; `relaxlab merge`
    /// joins the parts' `--format jsonl` outputs.
    #[arg(long, value_name = "K/N", value_parser = values::partition)]
    pub partition: Option<values::Partition>,
    /// Only check the expectations of these models (default: all), as
    /// `expect` names them: tso, ax.rc11, ...
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = CheckFormat::Table)]
    pub format: CheckFormat,
    /// Where `include`s of cat models are looked for after the including
    /// file's directory (repeatable; then RELAXLAB_CAT_PATH).
    #[arg(long, value_name = "DIR")]
    pub cat_path: Vec<PathBuf>,
    /// How the expectations of operational models are checked:
    /// `exhaustive` (the default) or `mcr` (stateless, sc, tso and pso).
    #[arg(long, value_enum)]
    pub search: Option<SearchArg>,
    /// herd7's configuration file (herd's -conf), such as the Linux
    /// kernel's linux-kernel.cfg: the `Result:` comment of a herd C test
    /// (`Result: Never`, `Result: Sometimes DATARACE`) is checked against
    /// its model, as the kernel's scripts check herd7's output.
    #[arg(long, value_name = "FILE")]
    pub conf: Option<PathBuf>,
    /// herd7's bell file (herd's -bell), with --conf.
    #[arg(long, value_name = "FILE")]
    pub bell: Option<PathBuf>,
    /// herd7's macro file (herd's -macros), with --conf.
    #[arg(long, value_name = "FILE")]
    pub macros: Option<PathBuf>,
    /// herd7's variants (herd's -variant), comma separated.
    #[arg(long, value_delimiter = ',', value_name = "VARIANT")]
    pub variant: Vec<String>,
    #[command(flatten)]
    pub engine: EngineArgs,
}

impl CheckArgs {
    /// The herd configuration flags, as `run` takes them.
    pub fn herd(&self) -> CatArgs {
        CatArgs {
            cat: Vec::new(),
            cat_path: self.cat_path.clone(),
            conf: self.conf.clone(),
            bell: self.bell.clone(),
            macros: self.macros.clone(),
            variant: self.variant.clone(),
        }
    }
}

#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  relaxlab parse litmus/classic/
  relaxlab parse litmus/classic/SB.litmus --ir")]
pub struct ParseArgs {
    /// Litmus files or directories; `-` reads a test from standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print the lowered program (the IR) instead of a summary.
    #[arg(long)]
    pub ir: bool,
}

#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  relaxlab fmt litmus/classic/SB.litmus
  relaxlab fmt --check litmus/
  relaxlab fmt --write my-test.litmus
  relaxlab fmt --to herd-c litmus/classic/MP+rel+acq.litmus
  relaxlab fmt --to relaxlab litmus/herd/c/MP+rel+acq.litmus")]
pub struct FmtArgs {
    /// Litmus files or directories; `-` reads a test from standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Do not print; exit 1 if a file is not in canonical layout.
    #[arg(long)]
    pub check: bool,
    /// Rewrite the files in place.
    #[arg(long, conflicts_with = "check")]
    pub write: bool,
    /// The syntax to print: relaxlab's own (the default for relaxlab
    /// tests; a herd7 test is translated only when this is given), or
    /// herd7's C litmus format for a test within the C subset.
    #[arg(long, value_enum)]
    pub to: Option<FmtTarget>,
}

/// `fmt --to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FmtTarget {
    /// relaxlab's own syntax.
    Relaxlab,
    /// herd7's C litmus format.
    HerdC,
}

#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  relaxlab compare litmus/classic/SB+fences.ss.litmus
  relaxlab compare litmus/c11/ --models c11r,c11t --dot disagreements.dot
  relaxlab compare litmus/classic/SB.litmus --models tso --format json
  relaxlab compare --herd-logs herd7.log relaxlab.log")]
pub struct CompareArgs {
    /// Litmus files or directories; `-` reads a test from standard input.
    /// With `--herd-logs`: two or more logs.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Compare logs in herd7's format (herd7's, litmus7's, `run --format
    /// herd`'s) test by test instead, as mcompare7 does: one column per
    /// log, and the states only some logs list.
    #[arg(long, conflicts_with_all = [
        "models", "format", "dot", "cat", "cat_path", "mapping", "jobs", "max_states",
        "max_depth",
        "unroll", "max_candidates", "reduction", "timeout", "max_memory",
    ])]
    pub herd_logs: bool,
    /// With `--herd-logs`: tests whose logs differ only in their Positive
    /// and Negative counts agree (an operational run counts outcomes where
    /// herd7 counts executions).
    #[arg(long, requires = "herd_logs")]
    pub ignore_counts: bool,
    #[arg(
        long,
        short = 'm',
        visible_alias = "model",
        value_delimiter = ',',
        default_value = names::COMPARE_DEFAULT.as_str(),
        help = names::COMPARE_MODELS.as_str()
    )]
    pub models: Vec<String>,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = ReportFormat::Table)]
    pub format: ReportFormat,
    /// Write as Graphviz DOT a consistent execution of every axiomatic-only
    /// outcome and the lifted witness of every operational-only one.
    #[arg(long, value_name = "FILE")]
    pub dot: Option<PathBuf>,
    #[command(flatten)]
    pub cat: CatArgs,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// User-defined axiomatic models in herd7's cat language.
#[derive(Debug, Args, Clone, Default)]
pub struct CatArgs {
    /// A herd7 cat model, repeatable; each gives a table named by the
    /// model's title line (or file name). With `compare`, it stands in for
    /// the axiomatic twin of each operational model.
    #[arg(long = "cat", value_name = "FILE")]
    pub cat: Vec<PathBuf>,
    /// Where `include`s of cat models are looked for after the including
    /// file's directory (repeatable; then RELAXLAB_CAT_PATH).
    #[arg(long, value_name = "DIR")]
    pub cat_path: Vec<PathBuf>,
    /// herd7's configuration file (herd's -conf), such as the Linux
    /// kernel's linux-kernel.cfg: its `model` runs as a --cat model, with
    /// its `bell`, `macros` and `variant`.
    #[arg(long, value_name = "FILE")]
    pub conf: Option<PathBuf>,
    /// herd7's bell file (herd's -bell): its annotations are event sets of
    /// the cat models, and its checks run before theirs.
    #[arg(long, value_name = "FILE")]
    pub bell: Option<PathBuf>,
    /// herd7's macro file (herd's -macros), such as linux-kernel.def: herd
    /// C tests are read with their primitives expanded by it, in herd's C
    /// semantics.
    #[arg(long, value_name = "FILE")]
    pub macros: Option<PathBuf>,
    /// herd7's variants (herd's -variant), comma separated: `if "v"` in
    /// cat models, and herd's semantics (`lkmmv2`).
    #[arg(long, value_delimiter = ',', value_name = "VARIANT")]
    pub variant: Vec<String>,
}

#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  relaxlab races litmus/c11/MP+na+rlx.litmus
  relaxlab races litmus/c11/ --model c11t
  relaxlab races litmus/c11/MP+na+rlx.litmus --model sc --format json")]
pub struct RacesArgs {
    /// Litmus files or directories; `-` reads a test from standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// c11r (restricted C11 executions), c11t (C11Tester's fragment) or sc
    /// (every SC interleaving).
    #[arg(long, short = 'm', visible_alias = "models", default_value = "c11r")]
    pub model: String,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = ReportFormat::Table)]
    pub format: ReportFormat,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  relaxlab predict litmus/seeds/RELAXER-fig2.litmus
  relaxlab predict litmus/seeds/RELAXER-fig2.litmus --runs 1000 --seed 3
  relaxlab predict --exhaustive litmus/seeds/RELAXER-fig13.litmus --length 6")]
pub struct PredictArgs {
    /// Litmus files or directories; `-` reads a test from standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Cycle length: 2k statements over k threads, an even number from 4
    /// to 32.
    #[arg(long, default_value_t = 4, value_parser = values::cycle_length, allow_negative_numbers = true)]
    pub length: usize,
    /// SC runs to learn from (1 to 1000000).
    #[arg(long, default_value_t = 100, value_parser = values::whole::<u64, 1, MAX_RUNS>, allow_negative_numbers = true)]
    pub runs: u64,
    /// Seed of the SC runs.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Learn from every SC execution (exhaustive exploration) instead of
    /// sampled runs.
    #[arg(long, conflicts_with_all = ["runs", "seed"])]
    pub exhaustive: bool,
    /// With `--exhaustive`: stop after storing this many states.
    #[arg(long, requires = "exhaustive", value_parser = values::whole::<u64, 1, { u64::MAX }>, allow_negative_numbers = true)]
    pub max_states: Option<u64>,
}

/// The most SC runs `predict`/`confirm --runs` and biased trials
/// `confirm --trials` accept: neither is interruptible yet.
pub const MAX_RUNS: u64 = 1_000_000;

#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  relaxlab confirm litmus/seeds/RELAXER-fig2.litmus
  relaxlab confirm litmus/seeds/RELAXER-fig2.litmus --model pso --trials 500 --seed 1")]
pub struct ConfirmArgs {
    /// Litmus files or directories; `-` reads a test from standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[arg(
        long,
        short = 'm',
        visible_alias = "models",
        value_delimiter = ',',
        default_value = names::CONFIRM_DEFAULT.as_str(),
        help = names::CONFIRM_MODELS.as_str()
    )]
    pub model: Vec<String>,
    /// Biased runs per predicted cycle (1 to 1000000).
    #[arg(long, default_value_t = 100, value_parser = values::whole::<u64, 1, MAX_RUNS>, allow_negative_numbers = true)]
    pub trials: u64,
    /// Seed of the prediction and of the biased runs.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Cycle length: 2k statements over k threads, an even number from 4
    /// to 32.
    #[arg(long, default_value_t = 4, value_parser = values::cycle_length, allow_negative_numbers = true)]
    pub length: usize,
    /// SC runs for the prediction (1 to 1000000).
    #[arg(long, default_value_t = 100, value_parser = values::whole::<u64, 1, MAX_RUNS>, allow_negative_numbers = true)]
    pub runs: u64,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  relaxlab bench
  relaxlab bench litmus/bench/bench-SB4x4.litmus --model tso,pso --jobs 1,2,4
  relaxlab bench --axiomatic rc11
  relaxlab bench --axiomatic rc11,c11 litmus/bench/c11-fig6 --repeat 10")]
pub struct BenchArgs {
    /// Benchmark tests (default: litmus/bench without litmus/bench/long).
    pub files: Vec<PathBuf>,
    /// Models to measure, comma separated.
    #[arg(
        long,
        short = 'm',
        visible_alias = "models",
        value_delimiter = ',',
        default_value = "tso"
    )]
    pub model: Vec<String>,
    /// Worker-thread counts to measure, comma separated (each 1 to 512).
    #[arg(long, value_delimiter = ',', default_value = "1,2", value_parser = values::jobs, allow_negative_numbers = true)]
    pub jobs: Vec<usize>,
    /// Stop each exploration after storing this many states (default
    /// 10000000).
    #[arg(long, value_parser = values::whole::<u64, 1, { u64::MAX }>, allow_negative_numbers = true)]
    pub max_states: Option<u64>,
    /// Measure these axiomatic models instead, comma separated: time per
    /// test and in total, candidates enumerated against consistent (default
    /// files: litmus/, loop-free tests the models accept).
    #[arg(long, short = 'a', value_delimiter = ',')]
    pub axiomatic: Vec<String>,
    /// Take each measurement this many times; print the median and the
    /// range (default 1; with --axiomatic, 5).
    #[arg(long, value_parser = values::whole::<u64, 1, 1000>, allow_negative_numbers = true)]
    pub repeat: Option<u64>,
    /// `mcr`: measure the stateless explorer instead (executions per
    /// second, peak memory, time to the full table beside the stateful
    /// explorer with and without partial-order reduction, and memory at
    /// 10^3, 10^4 and 10^5 executions; default files: litmus/bench/mcr).
    #[arg(long, value_enum, conflicts_with = "axiomatic")]
    pub search: Option<SearchArg>,
}

/// `repair --goal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GoalArg {
    /// The condition holds as its quantifier asks (`exists`: never), and
    /// no execution fails.
    Condition,
    /// No outcome or failure SC does not have.
    Sc,
}

/// `repair --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RepairFormat {
    Table,
    Json,
}

#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  relaxlab repair litmus/classic/SB.litmus --model tso
  relaxlab repair litmus/c11/MP+rlx+rlx.litmus --model c11r --format json
  relaxlab repair litmus/algorithms/seqlock-broken.litmus --model pso --goal sc -o seqlock-pso.litmus")]
pub struct RepairArgs {
    /// A litmus file.
    pub file: PathBuf,
    #[arg(long, short = 'm', help = names::REPAIR_MODEL.as_str())]
    pub model: String,
    /// What the repair must achieve.
    #[arg(long, value_enum, default_value_t = GoalArg::Condition)]
    pub goal: GoalArg,
    /// Write the first minimum repair's program to this file.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = RepairFormat::Table)]
    pub format: RepairFormat,
    /// Consider at most this many candidate sites (minimality is then
    /// proven among them only, and the exit code is 3).
    #[arg(long, default_value_t = 200, value_parser = values::whole::<u64, 1, { u64::MAX }>, allow_negative_numbers = true)]
    pub max_candidates: u64,
    /// List at most this many minimum repairs.
    #[arg(long, default_value_t = 32, value_parser = values::whole::<u64, 1, { u64::MAX }>, allow_negative_numbers = true)]
    pub max_solutions: u64,
    /// Memory-model mapping of C11 orders on hardware models.
    #[arg(long, value_enum)]
    pub mapping: Option<MappingArg>,
    /// Worker threads of each exploration (1 to 512; default: all cores).
    #[arg(long, short = 'j', value_parser = values::jobs, allow_negative_numbers = true)]
    pub jobs: Option<usize>,
    /// Stop each exploration after storing this many states (default: the
    /// program as written gets the usual bound, later runs 64 times the
    /// states it stored, at least 20,000); a run stopped by it leaves its
    /// placement undecided.
    #[arg(long, value_parser = values::whole::<u64, 1, { u64::MAX }>, allow_negative_numbers = true)]
    pub max_states: Option<u64>,
    /// Partial-order reduction of each exploration (`por` or `none`); the
    /// repairs found do not depend on it.
    #[arg(long, value_enum, default_value_t = ReductionArg::Por)]
    pub reduction: ReductionArg,
    /// Unroll loops this many times (axiomatic models).
    #[arg(long, value_parser = values::whole::<u32, 0, { values::MAX_UNROLL as u64 }>, allow_negative_numbers = true)]
    pub unroll: Option<u32>,
    /// Stop the whole repair after this many seconds (decimals allowed),
    /// reporting what was proven: a partial result, exit code 3.
    #[arg(long, value_name = "SECONDS", value_parser = values::timeout, allow_negative_numbers = true)]
    pub timeout: Option<std::time::Duration>,
    /// Stop once relaxlab's resident memory exceeds SIZE (bytes, or with
    /// K, M, G, T: powers of 1024), reporting what was proven.
    #[arg(long, value_name = "SIZE", value_parser = values::memory_size, allow_negative_numbers = true)]
    pub max_memory: Option<u64>,
}

/// `relaxlab serve`: the playground's server and its limits.
#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  relaxlab serve
  relaxlab serve --open
  relaxlab serve --port 0 --request-timeout 30 --max-states 5000000")]
pub struct ServeArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, short = 'p', default_value_t = 7878)]
    pub port: u16,
    /// The address to listen on. Anything but a loopback address lets
    /// other machines run tests on this one: relaxlab warns.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Open the playground in a web browser, if one can be found.
    #[arg(long)]
    pub open: bool,
    /// Time limit of one request's explorations, in seconds.
    #[arg(long, default_value_t = 10, value_parser = values::whole::<u64, 1, 86_400>)]
    pub request_timeout: u64,
    /// State bound of one operational exploration (a request may ask for
    /// fewer, never more).
    #[arg(long, default_value_t = 1_000_000, value_parser = values::whole::<u64, 1, { u64::MAX }>)]
    pub max_states: u64,
    /// Candidate bound of one axiomatic run (a request may ask for fewer).
    #[arg(long, default_value_t = 1_000_000, value_parser = values::whole::<u64, 1, { u64::MAX }>)]
    pub max_candidates: u64,
    /// Requests that explore at the same time (1 to 64); more wait their
    /// turn.
    #[arg(long, default_value_t = 2, value_parser = values::whole::<usize, 1, 64>)]
    pub max_running: usize,
    /// The largest request accepted, in bytes (at most 64 MiB).
    #[arg(long, default_value_t = 256 * 1024, value_parser = values::whole::<usize, 1, { 64 * 1024 * 1024 }>)]
    pub max_request_bytes: usize,
    /// Worker threads of exhaustive exploration, 1 to 512 (default: all
    /// cores).
    #[arg(long, short = 'j', value_parser = values::jobs, allow_negative_numbers = true)]
    pub jobs: Option<usize>,
    /// How much one request may grow the server's resident memory (bytes,
    /// or with K, M, G, T: powers of 1024); a request past it gets what
    /// was found, marked partial.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = values::memory_size, allow_negative_numbers = true)]
    pub max_memory: u64,
}
