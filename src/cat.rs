//! Cat models on the command line: `--cat FILE` (run, compare),
//! loaded and compiled here and run as any model is ([`crate::model`]);
//! `--cat-path DIR` and `RELAXLAB_CAT_PATH` (where includes are looked
//! for), `expect { cat "x.cat": ...; }` and the `[cat]` table of
//! `relaxlab.toml` (check).
//!
//! An `include "f.cat"` is looked for beside the including file, then in
//! each `--cat-path` directory in the order given, then in each directory
//! of `RELAXLAB_CAT_PATH` (separated like `PATH`). herd7's `stdlib.cat`
//! and `cos.cat` are built in (see `relaxlab_grammar::cat::BUILT_IN_FILES`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use relaxlab_grammar::cat::{self, CatError, CatLoader, Loaded, NotFound};
use relaxlab_semantics::axiomatic::cat::CatModel;

use crate::Io;

/// The environment variable listing directories to search for includes.
pub const PATH_VAR: &str = "RELAXLAB_CAT_PATH";

/// A compiled model and the file it came from.
#[derive(Clone, Debug)]
pub struct CatFile {
    pub path: PathBuf,
    pub model: Arc<CatModel>,
    /// Warnings from compiling it (an unnamed `flag`); see
    /// [`CatFile::report_warnings`].
    pub warnings: Vec<CatError>,
}

impl CatFile {
    /// Prints the model's warnings on standard error.
    pub fn report_warnings(&self, io: &mut Io<'_>) {
        for w in &self.warnings {
            io.report(&miette::Report::new(w.clone()));
        }
    }
}

/// Where includes are looked for after the including file's directory:
/// the `--cat-path` directories, then those of `RELAXLAB_CAT_PATH`.
pub fn search_path(flags: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = flags.to_vec();
    if let Some(var) = std::env::var_os(PATH_VAR) {
        out.extend(std::env::split_paths(&var).filter(|p| !p.as_os_str().is_empty()));
    }
    out
}

/// Reads included files from disk.
#[derive(Debug)]
struct FsLoader {
    search: Vec<PathBuf>,
    /// The path each file was read at, by key: includes are looked for
    /// beside it, so diagnostics show paths as the user wrote them.
    paths: std::collections::HashMap<String, PathBuf>,
}

fn key_of(path: &Path) -> String {
    std::fs::canonicalize(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .display()
        .to_string()
}

impl CatLoader for FsLoader {
    fn load(&mut self, name: &str, from: &str) -> Result<Loaded, NotFound> {
        let wanted = Path::new(name);
        let mut dirs = Vec::new();
        let from_path = self
            .paths
            .get(from)
            .cloned()
            .unwrap_or_else(|| PathBuf::from(from));
        if let Some(dir) = from_path.parent() {
            // A file named without a directory is in the current one,
            // which the message names `.`.
            dirs.push(if dir.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                dir.to_path_buf()
            });
        }
        dirs.extend(self.search.iter().cloned());
        let candidates: Vec<PathBuf> = if wanted.is_absolute() {
            vec![wanted.to_path_buf()]
        } else {
            dirs.iter().map(|d| d.join(wanted)).collect()
        };
        for c in &candidates {
            if let Ok(text) = read_text(c) {
                let key = key_of(c);
                self.paths.insert(key.clone(), c.clone());
                return Ok(Loaded {
                    key,
                    display: c.display().to_string(),
                    text,
                });
            }
        }
        Err(NotFound {
            searched: if wanted.is_absolute() {
                vec![name.to_string()]
            } else {
                dirs.iter().map(|d| d.display().to_string()).collect()
            },
        })
    }
}

/// The text of a cat file, as [`crate::files::read`] reads a litmus file:
/// a regular file of at most [`crate::files::MAX_BYTES`], UTF-8, a leading
/// byte order mark dropped.
fn read_text(path: &Path) -> std::io::Result<String> {
    let bytes = crate::files::read_bytes(path)?;
    String::from_utf8(bytes)
        .map(crate::files::without_bom)
        .map_err(|_| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "stream did not contain valid UTF-8",
            )
        })
}

/// Reads and compiles the model in `path`.
pub fn load(path: &Path, search: &[PathBuf]) -> Result<CatFile, CatError> {
    load_with(path, search, &crate::herd_conf::HerdSetup::default())
}

/// Reads and compiles the model in `path` with herd7's configuration: its
/// bell file and variants.
pub fn load_with(
    path: &Path,
    search: &[PathBuf],
    setup: &crate::herd_conf::HerdSetup,
) -> Result<CatFile, CatError> {
    let text = read_text(path).map_err(|e| {
        CatError::unlocated(
            "relaxlab::cat::io",
            format!("cannot read {}: {e}", path.display()),
            "check that the cat file exists and is readable",
        )
    })?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "cat".to_string());
    let root = Loaded {
        key: key_of(path),
        display: path.display().to_string(),
        text,
    };
    let mut loader = FsLoader {
        search: search.to_vec(),
        paths: [(root.key.clone(), path.to_path_buf())]
            .into_iter()
            .collect(),
    };
    let bell = match &setup.bell {
        Some(b) => Some(Loaded {
            key: key_of(b),
            display: b.display().to_string(),
            text: read_text(b).map_err(|e| {
                CatError::unlocated(
                    "relaxlab::cat::io",
                    format!("cannot read {}: {e}", b.display()),
                    "check that the bell file exists and is readable",
                )
            })?,
        }),
        None => None,
    };
    if let Some(b) = &bell {
        loader
            .paths
            .insert(b.key.clone(), PathBuf::from(&b.display));
    }
    let options = cat::CompileOptions {
        variants: setup.variants.clone(),
        bell,
    };
    let compiled = cat::compile_with(root, &stem, &mut loader, &options)?;
    Ok(CatFile {
        path: path.to_path_buf(),
        model: compiled.model,
        warnings: compiled.warnings,
    })
}

/// Where a `--cat` model named `path` is: there when it exists (or is
/// absolute), else in the first directory of the search path (`--cat-path`,
/// then `RELAXLAB_CAT_PATH`) that holds it, as herd7 finds `-model
/// c11_partialSC.cat` in its library directory. When no directory holds
/// it, `path` itself, so the error names what was asked for.
fn on_search_path(path: &Path, search: &[PathBuf]) -> PathBuf {
    if path.is_absolute() || path.exists() {
        return path.to_path_buf();
    }
    search
        .iter()
        .map(|dir| dir.join(path))
        .find(|p| p.is_file())
        .unwrap_or_else(|| path.to_path_buf())
}

/// Loads the cat models the flags give (every `--cat`, then the model of
/// `--conf`), with herd7's configuration (`--conf`, `--bell`, `--macros`,
/// `--variant`), which it also sets for the tests this thread reads;
/// prints the models' warnings on `io`. The first that fails stops the
/// command.
pub fn load_for(
    args: &crate::cli::CatArgs,
    io: &mut Io<'_>,
) -> Result<Vec<CatFile>, miette::Report> {
    let setup = crate::herd_conf::from_args(args)?;
    let mut search = setup.search.clone();
    search.extend(search_path(&args.cat_path));
    let mut paths: Vec<PathBuf> = args.cat.clone();
    paths.extend(setup.model.iter().cloned());
    let out = paths
        .iter()
        .map(|p| {
            let file = load_with(&on_search_path(p, &search), &search, &setup)
                .map_err(miette::Report::new)?;
            file.report_warnings(io);
            Ok(file)
        })
        .collect();
    crate::herd_conf::set(setup);
    out
}

/// The project's cat models (`cat/`), built into the binary for the
/// playground: `(file name, text)`.
pub const BUNDLED: &[(&str, &str)] = &[
    ("sc.cat", include_str!("../cat/sc.cat")),
    ("tso.cat", include_str!("../cat/tso.cat")),
    ("pso.cat", include_str!("../cat/pso.cat")),
    ("pslo.cat", include_str!("../cat/pslo.cat")),
    ("c11.cat", include_str!("../cat/c11.cat")),
    ("rc11.cat", include_str!("../cat/rc11.cat")),
    ("c11r.cat", include_str!("../cat/c11r.cat")),
    ("c11t.cat", include_str!("../cat/c11t.cat")),
    ("hardware.cat", include_str!("../cat/hardware.cat")),
    ("c11-base.cat", include_str!("../cat/c11-base.cat")),
    ("c11-sc.cat", include_str!("../cat/c11-sc.cat")),
    ("c11-na.cat", include_str!("../cat/c11-na.cat")),
];

/// The bundled models a user can pick (those that are not only included
/// by others), by stem: `tso` for `cat/tso.cat`.
pub fn bundled_models() -> impl Iterator<Item = &'static str> {
    BUNDLED
        .iter()
        .map(|(file, _)| file.trim_end_matches(".cat"))
        .filter(|stem| !matches!(*stem, "hardware" | "c11-base" | "c11-sc" | "c11-na"))
}

/// Includes among the bundled files only: no file-system access.
struct BundledLoader;

impl CatLoader for BundledLoader {
    fn load(&mut self, name: &str, _from: &str) -> Result<Loaded, NotFound> {
        BUNDLED
            .iter()
            .find(|(file, _)| *file == name)
            .map(|(file, text)| Loaded {
                key: format!("cat/{file}"),
                display: format!("cat/{file}"),
                text: (*text).to_string(),
            })
            .ok_or_else(|| NotFound {
                searched: vec!["the models built into relaxlab".to_string()],
            })
    }
}

/// Compiles the bundled model `stem` (see [`bundled_models`]); `None` when
/// there is no such model.
pub fn bundled(stem: &str) -> Option<Result<CatFile, CatError>> {
    if !bundled_models().any(|s| s == stem) {
        return None;
    }
    let file = format!("{stem}.cat");
    let root = BundledLoader.load(&file, "").ok()?;
    Some(
        cat::compile(root, stem, &mut BundledLoader).map(|compiled| CatFile {
            path: PathBuf::from("cat").join(&file),
            model: compiled.model,
            warnings: compiled.warnings,
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_model_compiles_without_warnings() {
        for stem in bundled_models() {
            let file = bundled(stem)
                .expect("listed")
                .unwrap_or_else(|e| panic!("{stem}: {}", e.render(80)));
            let warnings: Vec<String> = file.warnings.iter().map(|w| w.render(80)).collect();
            assert!(warnings.is_empty(), "{stem}: {warnings:?}");
        }
    }
}
