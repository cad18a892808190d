//! The litmus library, embedded at build time (`build.rs`).

use std::sync::OnceLock;

use serde::Serialize;

include!(concat!(env!("OUT_DIR"), "/library.rs"));

/// The text of the bundled test at `path` (relative to `litmus/`).
pub(crate) fn find(path: &str) -> Option<&'static str> {
    LIBRARY
        .binary_search_by(|(p, _)| (*p).cmp(path))
        .ok()
        .map(|i| LIBRARY[i].1)
}

/// One bundled test as the page lists it.
#[derive(Debug, Serialize)]
pub(crate) struct Entry {
    /// The path under `litmus/`, e.g. `classic/SB.litmus`.
    path: &'static str,
    /// The test's name and its one-line description, when it loads.
    name: Option<String>,
    doc: Option<String>,
}

/// Every bundled test, by path, with its name and description (loaded
/// once).
pub(crate) fn index() -> &'static [Entry] {
    static INDEX: OnceLock<Vec<Entry>> = OnceLock::new();
    INDEX.get_or_init(|| {
        LIBRARY
            .iter()
            .map(|&(path, text)| {
                let file = crate::files::SourceFile {
                    path: path.to_string(),
                    text: text.to_string(),
                };
                let program = crate::load::program(&file).ok();
                Entry {
                    path,
                    name: program.as_ref().map(|p| p.name.clone()),
                    doc: program.and_then(|p| p.doc),
                }
            })
            .collect()
    })
}
