//! relaxlab-grammar's integration tests: one test binary, one module per
//! area (the language, diagnostics of malformed inputs, the formatter's
//! layout, the herd7 importers, property tests), with `common` holding the
//! helpers they share. Filter by module: `cargo test --release -p
//! relaxlab-grammar --test it layout::`. Diagnostic snapshots live in
//! `tests/it/snapshots/`; the inputs they render are the repository's
//! (`tests/bad/`, `tests/herd/`, `litmus/`).

mod common;

mod bad;
mod cat_properties;
mod herd_lookalike;
mod herd_translate;
mod language;
mod layout;
mod litmus_library;
mod properties;
