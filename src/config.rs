//! `relaxlab.toml`: project defaults for the command line.
//!
//! The file is looked up in the current directory and then in each parent;
//! the first one found is used. Every key is optional, and a flag given on
//! the command line always wins over the file.
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

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::cli::{Format, MappingArg};

/// The contents of `relaxlab.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub models: Option<Vec<String>>,
    pub axiomatic: Option<Vec<String>>,
    pub format: Option<Format>,
    pub mapping: Option<MappingArg>,
    pub jobs: Option<usize>,
    pub max_states: Option<u64>,
    pub max_candidates: Option<u64>,
    pub unroll: Option<u32>,
    /// Cat models by key, for `cat.KEY` expectations.
    pub cat: Option<std::collections::BTreeMap<String, PathBuf>>,
    /// The directory of the file read (the `[cat]` paths are relative to
    /// it).
    #[serde(skip)]
    pub dir: Option<PathBuf>,
}

/// A `relaxlab.toml` that could not be read.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum ConfigError {
    #[error("cannot read {path}")]
    #[diagnostic(code(relaxlab::config::io))]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} is not a valid relaxlab.toml")]
    #[diagnostic(
        code(relaxlab::config::syntax),
        help("the keys are models, axiomatic, format, mapping, jobs, max_states, max_candidates, unroll, and the [cat] table")
    )]
    Syntax {
        path: PathBuf,
        #[source_code]
        src: miette::NamedSource<String>,
        #[label("{message}")]
        span: Option<miette::SourceSpan>,
        message: String,
    },
}

impl Config {
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
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Io {
            path: path.to_owned(),
            source,
        })?;
        let parsed: Result<Config, _> = toml::from_str(&text);
        parsed
            .map(|mut c| {
                c.dir = path.parent().map(Path::to_path_buf);
                c
            })
            .map_err(|e| {
                Box::new(ConfigError::Syntax {
                    path: path.to_owned(),
                    span: e.span().map(Into::into),
                    message: e.message().to_owned(),
                    src: miette::NamedSource::new(path.display().to_string(), text.clone()),
                })
            })
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
        assert_eq!(c.models.as_deref(), Some(&["tso".to_string()][..]));
        assert_eq!(c.format, Some(Format::Json));
        assert_eq!(c.mapping, Some(MappingArg::Plain));
        assert_eq!(c.jobs, Some(1));
        assert!(toml::from_str::<Config>("modles = []").is_err());
    }
}
