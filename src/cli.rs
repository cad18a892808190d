//! The command line, as clap sees it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

pub const EXIT_CODES: &str = "\
Exit codes:
  0  success: the command did what was asked and found nothing wrong
  1  a check failed: an expectation did not hold (check), a file is not
     formatted (fmt --check), a data race was found (races)
  2  input error: a file that does not parse or fails a static check, an
     unknown model, an impossible combination of flags
  3  partial result: a bound (--max-states, --max-candidates, --unroll,
     --max-steps) cut exploration short; the output says which
  101 internal error (a bug in relaxlab: please report it)";

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
}

/// Output formats of `run`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// A table for people.
    Table,
    /// JSON, one object per run (schema in the book's CLI chapter).
    Json,
    /// herd7's output layout, for diffing against herd7.
    Herd,
}

/// `--mapping`: how hardware models treat C11 orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MappingArg {
    /// The compilation scheme of MODELS.md 2.5 (fences around orders).
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
    /// Worker threads for exhaustive exploration (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Stop exhaustive exploration after storing this many states.
    #[arg(long)]
    pub max_states: Option<u64>,
    /// Unroll loops this many times (axiomatic models need loop-free code).
    #[arg(long)]
    pub unroll: Option<u32>,
    /// Stop the axiomatic engine after this many candidate executions.
    #[arg(long)]
    pub max_candidates: Option<u64>,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Litmus files, or directories (their `*.litmus` files, recursively).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Operational models, comma separated: sc, tso, pso, pslo, c11r.
    #[arg(long, short = 'm', value_delimiter = ',')]
    pub model: Vec<String>,
    /// Axiomatic models, comma separated: sc, tso, pso, pslo, c11, rc11, c11r, c11t.
    #[arg(long, short = 'a', value_delimiter = ',')]
    pub axiomatic: Vec<String>,
    /// Sample this many random runs instead of exploring exhaustively.
    #[arg(long)]
    pub sample: Option<u64>,
    /// Seed of sampled runs.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Scheduling strategy of sampled runs.
    #[arg(long, value_enum, default_value_t = StrategyArg::Uniform)]
    pub strategy: StrategyArg,
    /// Step bound of one sampled run.
    #[arg(long, default_value_t = 10_000)]
    pub max_steps: u64,
    /// Print the trace of sampled run I of seed S (`--replay S:I`).
    #[arg(long, value_name = "S:I")]
    pub replay: Option<String>,
    /// Print a witness trace under every outcome and failure.
    #[arg(long, short = 'w')]
    pub witness: bool,
    /// Output format.
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<Format>,
    /// With `--format herd`: also print herd's `Time` and `Hash` lines.
    #[arg(long)]
    pub herd_time: bool,
    /// Write the witness execution graph of every outcome as Graphviz DOT
    /// (operational models: the witness trace lifted to an execution;
    /// axiomatic models: a consistent execution); `-` prints it after the
    /// tables.
    #[arg(long, value_name = "FILE")]
    pub dot: Option<PathBuf>,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Litmus files or directories.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Only check the expectations of these models (default: all).
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(Debug, Args)]
pub struct ParseArgs {
    /// Litmus files or directories.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print the lowered program (the IR) instead of a summary.
    #[arg(long)]
    pub ir: bool,
}

#[derive(Debug, Args)]
pub struct FmtArgs {
    /// Litmus files or directories.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Do not print; exit 1 if a file is not in canonical layout.
    #[arg(long)]
    pub check: bool,
    /// Rewrite the files in place.
    #[arg(long, conflicts_with = "check")]
    pub write: bool,
    /// The syntax to print: relaxlab's own (herd tests are translated), or
    /// herd7's C litmus format for a test within the C subset.
    #[arg(long, value_enum, default_value_t = FmtTarget::Relaxlab)]
    pub to: FmtTarget,
}

/// `fmt --to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FmtTarget {
    Relaxlab,
    HerdC,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Litmus files or directories.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Operational models to compare with their axiomatic twins.
    #[arg(
        long,
        short = 'm',
        value_delimiter = ',',
        default_value = "sc,tso,pso,pslo,c11r,c11t"
    )]
    pub models: Vec<String>,
    /// Write as Graphviz DOT a consistent execution of every axiomatic-only
    /// outcome and the lifted witness of every operational-only one.
    #[arg(long, value_name = "FILE")]
    pub dot: Option<PathBuf>,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(Debug, Args)]
pub struct RacesArgs {
    /// Litmus files or directories.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// c11r (restricted C11 executions) or sc (every SC interleaving).
    #[arg(long, short = 'm', default_value = "c11r")]
    pub model: String,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(Debug, Args)]
pub struct PredictArgs {
    /// Litmus files or directories.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Cycle length (2k statements over k threads).
    #[arg(long, default_value_t = 4)]
    pub length: usize,
    /// SC runs to learn from.
    #[arg(long, default_value_t = 100)]
    pub runs: u64,
    /// Seed of the SC runs.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Learn from every SC execution (exhaustive exploration) instead of
    /// sampled runs.
    #[arg(long, conflicts_with_all = ["runs", "seed"])]
    pub exhaustive: bool,
    /// With `--exhaustive`: stop after storing this many states.
    #[arg(long, requires = "exhaustive")]
    pub max_states: Option<u64>,
}

#[derive(Debug, Args)]
pub struct ConfirmArgs {
    /// Litmus files or directories.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Relaxed models, comma separated: tso, pso, pslo.
    #[arg(
        long,
        short = 'm',
        value_delimiter = ',',
        default_value = "tso,pso,pslo"
    )]
    pub model: Vec<String>,
    /// Biased runs per predicted cycle.
    #[arg(long, default_value_t = 100)]
    pub trials: u64,
    /// Seed of the prediction and of the biased runs.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Cycle length (2k statements over k threads).
    #[arg(long, default_value_t = 4)]
    pub length: usize,
    /// SC runs for the prediction.
    #[arg(long, default_value_t = 100)]
    pub runs: u64,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Benchmark tests (default: litmus/bench).
    pub files: Vec<PathBuf>,
    /// Models to measure.
    #[arg(long, short = 'm', value_delimiter = ',', default_value = "tso")]
    pub model: Vec<String>,
    /// Worker-thread counts to measure.
    #[arg(long, value_delimiter = ',', default_value = "1,2")]
    pub jobs: Vec<usize>,
    #[arg(long)]
    pub max_states: Option<u64>,
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
pub struct RepairArgs {
    /// A litmus file.
    pub file: PathBuf,
    /// The model: tso, pso, pslo, c11r, c11t, or axiomatic (ax.tso, ax.rc11, ...).
    #[arg(long, short = 'm')]
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
    #[arg(long, default_value_t = 200)]
    pub max_candidates: usize,
    /// List at most this many minimum repairs.
    #[arg(long, default_value_t = 32)]
    pub max_solutions: usize,
    /// Memory-model mapping of C11 orders on hardware models.
    #[arg(long, value_enum)]
    pub mapping: Option<MappingArg>,
    /// Worker threads of each exploration (default: all cores).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// Stop each exploration after storing this many states (default: the
    /// program as written gets the usual bound, later runs 64 times the
    /// states it stored, at least 20,000); a run stopped by it leaves its
    /// placement undecided.
    #[arg(long)]
    pub max_states: Option<u64>,
    /// Unroll loops this many times (axiomatic models).
    #[arg(long)]
    pub unroll: Option<u32>,
}
