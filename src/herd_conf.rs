//! herd7's configuration on the command line: `--conf FILE` (a herd
//! `.cfg` file, such as the Linux kernel's `linux-kernel.cfg`), `--bell`,
//! `--macros` and `--variant`, herd7's `-conf`, `-bell`, `-macros` and
//! `-variant`.
//!
//! A `.cfg` file holds `key value` lines; relaxlab acts on `model` (a cat
//! model, run as if given with `--cat`), `bell`, `macros`, `variant`
//! (comma or space separated) and `include` (a directory where files are
//! looked for), and ignores herd7's drawing options (`graph`,
//! `showevents`, ...). A file a configuration names is looked for as named,
//! beside the configuration, in its `include` directories, then on the cat
//! path (`--cat-path`, `RELAXLAB_CAT_PATH`). The book's chapter on the
//! Linux-kernel memory model shows it at work.
//!
//! The macro file and the variants decide how herd C tests are read, so
//! the command sets them for the files it loads ([`set`]); everything that
//! loads a test then uses them ([`current`]).

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use miette::Report;
use relaxlab_grammar::herd::kernel::{Macros, Semantics};

use crate::cli::CatArgs;

/// What herd7's configuration says, resolved.
#[derive(Clone, Debug, Default)]
pub struct HerdSetup {
    /// The cat model a `.cfg` names.
    pub model: Option<PathBuf>,
    pub bell: Option<PathBuf>,
    /// The macro file and its macros.
    pub macros: Option<(PathBuf, Arc<Macros>)>,
    /// The variants, as given.
    pub variants: Vec<String>,
    /// Where files are looked for: the `.cfg`'s directory and `include`s.
    pub search: Vec<PathBuf>,
}

impl HerdSetup {
    /// herd's C semantics options.
    pub fn semantics(&self) -> Semantics {
        Semantics {
            lkmmv2: self
                .variants
                .iter()
                .any(|v| v.eq_ignore_ascii_case("lkmmv2")),
            ..Semantics::default()
        }
    }
}

std::thread_local! {
    /// The setup of the command this thread runs (or works for): a
    /// thread-local, so that commands run side by side in one process
    /// (the tests, the playground) never read tests with each other's
    /// macro files. [`crate::commands::common::pool`] hands it to the
    /// worker threads of the command.
    static CURRENT: RefCell<Option<Arc<HerdSetup>>> = const { RefCell::new(None) };
}

/// Makes `setup` the one tests are read with, on this thread and the
/// workers it starts afterwards.
pub fn set(setup: HerdSetup) {
    install(Some(Arc::new(setup)));
}

/// Forgets this thread's setup: each command starts from herd7's
/// defaults.
pub fn reset() {
    install(None);
}

/// Makes `setup` this thread's setup, as it is (a worker takes its
/// command's).
pub fn install(setup: Option<Arc<HerdSetup>>) {
    CURRENT.with(|c| *c.borrow_mut() = setup);
}

/// This thread's setup as set, if any (for the workers).
pub fn installed() -> Option<Arc<HerdSetup>> {
    CURRENT.with(|c| c.borrow().clone())
}

/// The setup tests are read with (none set: herd7's defaults).
pub fn current() -> Arc<HerdSetup> {
    installed().unwrap_or_default()
}

/// herd7's options a `.cfg` may hold that only change its pictures or its
/// output, which relaxlab ignores.
const DRAWING: &[&str] = &[
    "graph",
    "squished",
    "showevents",
    "movelabel",
    "fontsize",
    "xscale",
    "yscale",
    "arrowsize",
    "showinitrf",
    "showfinalrf",
    "showinitwrites",
    "splines",
    "pad",
    "edgeattr",
    "showfr",
    "showpoloc",
    "unshow",
    "doshow",
    "symetric",
    "showraw",
    "edgemerge",
    "scale",
    "local-conf",
    "show",
    "nshow",
    "dotmode",
    "dotcom",
    "gv",
    "evince",
    "showthread",
    "showlegend",
    "oneinit",
    "initpos",
    "showpo",
    "labelinit",
];

/// Reads the configuration the flags give: `--conf`, then `--bell`,
/// `--macros` and `--variant` (which override the file's).
pub fn from_args(args: &CatArgs) -> Result<HerdSetup, Report> {
    let mut setup = HerdSetup::default();
    let search_extra = crate::cat::search_path(&args.cat_path);
    let mut bell_name = None;
    let mut macros_name = None;
    if let Some(conf) = &args.conf {
        let text = std::fs::read_to_string(conf).map_err(|e| {
            miette::miette!(
                code = "relaxlab::conf::io",
                help = "--conf takes herd7's configuration file, such as linux-kernel.cfg",
                "cannot read {}: {e}",
                conf.display()
            )
        })?;
        let dir = conf.parent().map(Path::to_path_buf).unwrap_or_default();
        setup.search.push(dir.clone());
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let (key, value) = match line.split_once(char::is_whitespace) {
                Some((k, v)) => (k.trim(), v.trim()),
                None => (line, ""),
            };
            match key {
                "model" => setup.model = Some(PathBuf::from(value)),
                "bell" => bell_name = Some(PathBuf::from(value)),
                "macros" => macros_name = Some(PathBuf::from(value)),
                "variant" => setup.variants.extend(
                    value
                        .split([',', ' '])
                        .filter(|v| !v.is_empty())
                        .map(str::to_string),
                ),
                "include" => {
                    setup.search.push(PathBuf::from(value));
                    setup.search.push(dir.join(value));
                }
                k if DRAWING.contains(&k) => {}
                other => {
                    return Err(miette::miette!(
                        code = "relaxlab::conf::key",
                        help = "relaxlab reads a configuration's model, bell, macros, variant and include lines, and skips herd7's drawing options",
                        "{}:{}: unknown herd7 option `{other}`",
                        conf.display(),
                        n + 1
                    ))
                }
            }
        }
    }
    setup.search.extend(search_extra);
    if let Some(b) = &args.bell {
        bell_name = Some(b.clone());
    }
    if let Some(m) = &args.macros {
        macros_name = Some(m.clone());
    }
    setup.variants.extend(args.variant.iter().cloned());
    if let Some(model) = setup.model.take() {
        setup.model = Some(find(&model, &setup.search, "model")?);
    }
    if let Some(b) = bell_name {
        setup.bell = Some(find(&b, &setup.search, "bell")?);
    }
    if let Some(m) = macros_name {
        let path = find(&m, &setup.search, "macros")?;
        let text = std::fs::read_to_string(&path).map_err(|e| {
            miette::miette!(
                code = "relaxlab::conf::io",
                "cannot read {}: {e}",
                path.display()
            )
        })?;
        let macros = Macros::parse(&text).map_err(|errors| {
            relaxlab_grammar::report(
                relaxlab_grammar::herd::HerdErrors::new(errors),
                path.display().to_string(),
                &text,
            )
        })?;
        setup.macros = Some((path, Arc::new(macros)));
    }
    Ok(setup)
}

/// The file `name` as it is, or in the first search directory holding it.
fn find(name: &Path, search: &[PathBuf], what: &str) -> Result<PathBuf, Report> {
    if name.is_absolute() || name.is_file() {
        return Ok(name.to_path_buf());
    }
    search
        .iter()
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            miette::miette!(
                code = "relaxlab::conf::missing",
                help = "add the directory holding it with --cat-path DIR",
                "cannot find the {what} file {}; looked in {}",
                name.display(),
                search
                    .iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}
