//! `relaxlab.toml`: project defaults for the command line.
//!
//! The file is looked up in the current directory and then in each parent;
//! the first one found is used. Every key is optional, and a flag given on
//! the command line always wins over the file. A file that cannot be read
//! (bad syntax, a bad value) stops every command run below it, so the
//! environment variable `RELAXLAB_CONFIG` chooses another: `none` runs
//! without one, a path reads that file and looks for no other
//! (book: cli.md, relaxlab.toml); every error about the file says so.
//!
//! ```toml
//! models = ["sc", "tso"]        # run: operational models when no --model
//! axiomatic = ["rc11"]          # run: axiomatic models when no --axiomatic
//! format = "table"              # run: table | json
//! mapping = "standard"          # standard | plain
//! jobs = 2                      # worker threads
//! max_states = 10000000         # exhaustive exploration bound
//! max_candidates = 1000000      # axiomatic engine bound
//! unroll = 2                    # loop unrolling for the axiomatic engine
//!
//! [cat]                         # check: `expect { cat.tso: never; }`
//! tso = "models/tso.cat"        # paths relative to this file
//! ```
//!
//! Values are checked as the flags are (model names, ranges, a model named
//! twice), and an error points into the file.

use std::path::{Path, PathBuf};

use relaxlab_semantics::ir::{AxModel, OpModel};
use serde::Deserialize;
use toml::Spanned;

use crate::cli::{Format, MappingArg};
use crate::values;

/// The contents of `relaxlab.toml`; each value keeps where it was written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub models: Option<Vec<Spanned<String>>>,
    pub axiomatic: Option<Vec<Spanned<String>>>,
    pub format: Option<Format>,
    pub mapping: Option<MappingArg>,
    pub jobs: Option<Spanned<usize>>,
    pub max_states: Option<Spanned<u64>>,
    pub max_candidates: Option<Spanned<u64>>,
    pub unroll: Option<Spanned<u32>>,
    /// Cat models by key, for `cat.KEY` expectations.
    pub cat: Option<std::collections::BTreeMap<String, PathBuf>>,
    /// The directory of the file read (the `[cat]` paths are relative to
    /// it).
    #[serde(skip)]
    pub dir: Option<PathBuf>,
}

impl Config {
    pub fn models(&self) -> Option<Vec<String>> {
        names(&self.models)
    }
    pub fn axiomatic(&self) -> Option<Vec<String>> {
        names(&self.axiomatic)
    }
    pub fn jobs(&self) -> Option<usize> {
        self.jobs.as_ref().map(|v| *v.get_ref())
    }
    pub fn max_states(&self) -> Option<u64> {
        self.max_states.as_ref().map(|v| *v.get_ref())
    }
    pub fn max_candidates(&self) -> Option<u64> {
        self.max_candidates.as_ref().map(|v| *v.get_ref())
    }
    pub fn unroll(&self) -> Option<u32> {
        self.unroll.as_ref().map(|v| *v.get_ref())
    }

    /// The first value out of range or naming no model: its span, what is
    /// wrong, and a help line.
    fn invalid(&self) -> Option<(std::ops::Range<usize>, String, String)> {
        let op: Vec<&str> = OpModel::ALL.iter().map(|m| m.name()).collect();
        let ax: Vec<&str> = AxModel::ALL.iter().map(|m| m.name()).collect();
        let unknown = |list: &Option<Vec<Spanned<String>>>, known: &[&str], kind: &str| {
            list.iter().flatten().find_map(|name| {
                let written = name.get_ref().as_str();
                let bare = match kind {
                    "axiomatic" => written.strip_prefix("ax.").unwrap_or(written),
                    _ => written,
                };
                (!known.contains(&bare)).then(|| {
                    (
                        name.span(),
                        format!("unknown {kind} model `{}`", name.get_ref()),
                        crate::commands::common::suggestion(bare, known),
                    )
                })
            })
        };
        let out_of = |span: std::ops::Range<usize>, key: &str, min: u64, max: u64| {
            Some((
                span,
                format!("`{key}` must be {}", values::range(min, max)),
                format!(
                    "`{key}` takes a whole number {}, as `--{}` does",
                    values::of_range(min, max),
                    key.replace('_', "-")
                ),
            ))
        };
        if let Some(e) = unknown(&self.models, &op, "operational") {
            return Some(e);
        }
        if let Some(e) = unknown(&self.axiomatic, &ax, "axiomatic") {
            return Some(e);
        }
        if let Some(j) = &self.jobs {
            if !(1..=values::MAX_JOBS).contains(j.get_ref()) {
                return out_of(j.span(), "jobs", 1, values::MAX_JOBS as u64);
            }
        }
        for (key, bound) in [
            ("max_states", &self.max_states),
            ("max_candidates", &self.max_candidates),
        ] {
            if let Some(bound) = bound.as_ref().filter(|b| *b.get_ref() == 0) {
                return out_of(bound.span(), key, 1, u64::MAX);
            }
        }
        if let Some(u) = &self.unroll {
            if *u.get_ref() > values::MAX_UNROLL {
                return out_of(u.span(), "unroll", 0, u64::from(values::MAX_UNROLL));
            }
        }
        None
    }

    /// The first model named twice in `models` or `axiomatic` (`rc11` and
    /// `ax.rc11` are one model), which would run twice: where it was named
    /// first, where again, and its name.
    fn named_twice(&self) -> Option<(Span, Span, String)> {
        let twice = |list: &Option<Vec<Spanned<String>>>, prefix: &str| {
            let list = list.as_deref().unwrap_or_default();
            let bare = |n: &Spanned<String>| {
                let written = n.get_ref().as_str();
                written.strip_prefix(prefix).unwrap_or(written).to_string()
            };
            list.iter().enumerate().find_map(|(i, again)| {
                list[..i]
                    .iter()
                    .find(|first| bare(first) == bare(again))
                    .map(|first| (first.span(), again.span(), again.get_ref().clone()))
            })
        };
        twice(&self.models, "").or_else(|| twice(&self.axiomatic, "ax."))
    }
}

/// A byte range of `relaxlab.toml`.
type Span = std::ops::Range<usize>;

fn names(list: &Option<Vec<Spanned<String>>>) -> Option<Vec<String>> {
    list.as_ref()
        .map(|l| l.iter().map(|n| n.get_ref().clone()).collect())
}

/// A `relaxlab.toml` that could not be read.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum ConfigError {
    #[error("cannot read {}", path.display())]
    #[diagnostic(
        code(relaxlab::config::io),
        help("RELAXLAB_CONFIG=none runs without a relaxlab.toml, RELAXLAB_CONFIG=FILE reads FILE instead")
    )]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{} is not a valid relaxlab.toml: {message}", path.display())]
    #[diagnostic(
        code(relaxlab::config::syntax),
        help("the keys and their values: models = [\"sc\", \"tso\"] and axiomatic = [\"rc11\"] (lists of names), format = \"table\" and mapping = \"standard\" (strings), jobs, max_states, max_candidates and unroll (whole numbers), and a [cat] table of names = \"FILE.cat\" (book: cli.md, relaxlab.toml); RELAXLAB_CONFIG=none runs without a relaxlab.toml, RELAXLAB_CONFIG=FILE reads FILE instead")
    )]
    Syntax {
        path: PathBuf,
        #[source_code]
        src: miette::NamedSource<String>,
        #[label("here")]
        span: Option<miette::SourceSpan>,
        message: String,
    },
    #[error("{}: {message}", path.display())]
    #[diagnostic(code(relaxlab::config::value), help("{help}"))]
    Value {
        path: PathBuf,
        #[source_code]
        src: miette::NamedSource<String>,
        #[label("{message}")]
        span: miette::SourceSpan,
        message: String,
        help: String,
    },
    /// A model named twice in `models` or `axiomatic` (as `--model sc,sc`
    /// is refused: its table would be printed twice).
    #[error("{}: model `{name}` is named twice", path.display())]
    #[diagnostic(
        code(relaxlab::model::twice),
        help("name each model once; RELAXLAB_CONFIG=none runs without a relaxlab.toml, RELAXLAB_CONFIG=FILE reads FILE instead")
    )]
    ModelTwice {
        path: PathBuf,
        #[source_code]
        src: miette::NamedSource<String>,
        #[label(primary, "named again here")]
        again: miette::SourceSpan,
        #[label("first named here")]
        first: miette::SourceSpan,
        name: String,
    },
}

/// `span`, or, when it is empty at the end of `text` (an unclosed array
/// or string), the last character that is not blank, so the label has
/// something to point at.
fn visible(text: &str, span: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let end = text.trim_end().len();
    if span.start < end {
        return span;
    }
    let last = text[..end].chars().next_back().map_or(0, char::len_utf8);
    end - last..end
}

/// How to run past a file that does not read, as the help lines say it.
const BYPASS: &str =
    "RELAXLAB_CONFIG=none runs without a relaxlab.toml, RELAXLAB_CONFIG=FILE reads FILE instead";

/// The environment variable that chooses the configuration file: `none`
/// for none, or a path.
pub const CONFIG_VAR: &str = "RELAXLAB_CONFIG";

impl Config {
    /// The configuration for a command run in `start`: the file
    /// [`CONFIG_VAR`] names (none if it says `none`), else the nearest
    /// `relaxlab.toml` above `start`.
    pub fn load(start: &Path) -> Result<Config, Box<ConfigError>> {
        match std::env::var_os(CONFIG_VAR) {
            Some(v) if v == "none" => Ok(Config::default()),
            Some(v) if !v.is_empty() => Config::read(&start.join(v)),
            _ => Config::discover(start),
        }
    }

    /// Finds and reads the nearest `relaxlab.toml` above `start`.
    pub fn discover(start: &Path) -> Result<Config, Box<ConfigError>> {
        for dir in start.ancestors() {
            let path = dir.join("relaxlab.toml");
            if path.is_file() {
                return Config::read(&path);
            }
        }
        Ok(Config::default())
    }

    fn read(path: &Path) -> Result<Config, Box<ConfigError>> {
        let text = crate::files::read_bytes(path)
            .map_err(std::io::Error::from)
            .and_then(|bytes| {
                String::from_utf8(bytes).map_err(|_| {
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        "stream did not contain valid UTF-8",
                    )
                })
            })
            .map_err(|source| ConfigError::Io {
                path: path.to_owned(),
                source,
            })?;
        // What diagnostics show of the file: the same offsets, without
        // the control characters a terminal would obey.
        let shown = relaxlab_grammar::printable(&text).into_owned();
        let mut config: Config = toml::from_str(&text).map_err(|e| {
            Box::new(ConfigError::Syntax {
                path: path.to_owned(),
                span: e.span().map(|span| visible(&text, span).into()),
                message: e.message().to_owned(),
                src: miette::NamedSource::new(path.display().to_string(), shown.clone()),
            })
        })?;
        config.dir = path.parent().map(Path::to_path_buf);
        let src = || miette::NamedSource::new(path.display().to_string(), shown.clone());
        if let Some((span, message, help)) = config.invalid() {
            return Err(Box::new(ConfigError::Value {
                path: path.to_owned(),
                src: src(),
                span: span.into(),
                message,
                help: format!("{help}; {BYPASS}"),
            }));
        }
        if let Some((first, again, name)) = config.named_twice() {
            return Err(Box::new(ConfigError::ModelTwice {
                path: path.to_owned(),
                src: src(),
                again: again.into(),
                first: first.into(),
                name,
            }));
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_key_and_rejects_unknown_ones() {
        let c: Config = toml::from_str(
            "models = [\"tso\"]\nformat = \"json\"\nmapping = \"plain\"\njobs = 1\nmax_states = 5\n",
        )
        .unwrap();
        assert_eq!(c.models().as_deref(), Some(&["tso".to_string()][..]));
        assert_eq!(c.format, Some(Format::Json));
        assert_eq!(c.mapping, Some(MappingArg::Plain));
        assert_eq!(c.jobs(), Some(1));
        assert!(toml::from_str::<Config>("modles = []").is_err());
    }

    #[test]
    fn bad_values_are_located() {
        let c: Config = toml::from_str("models = [\"sc\", \"tos\"]\n").unwrap();
        let (span, message, help) = c.invalid().unwrap();
        assert_eq!(span, 16..21);
        assert_eq!(message, "unknown operational model `tos`");
        assert!(help.contains("did you mean `tso`"), "{help}");
        let c: Config = toml::from_str("axiomatic = [\"ax.rc11\"]\njobs = 0\n").unwrap();
        let (span, _, _) = c.invalid().unwrap();
        assert_eq!(span, 31..32);
    }

    #[test]
    fn a_model_named_twice_is_located_twice() {
        let c: Config = toml::from_str("models = [\"sc\", \"tso\", \"sc\"]\n").unwrap();
        assert_eq!(c.named_twice(), Some((10..14, 23..27, "sc".to_string())));
        let c: Config = toml::from_str("axiomatic = [\"rc11\", \"ax.rc11\"]\n").unwrap();
        assert_eq!(
            c.named_twice(),
            Some((13..19, 21..30, "ax.rc11".to_string()))
        );
        let c: Config = toml::from_str("models = [\"sc\"]\naxiomatic = [\"sc\"]\n").unwrap();
        assert_eq!(c.named_twice(), None);
    }
}
