//! relaxlab's integration tests: one test binary, one module per area.
//!
//! Every test binary links the whole dependency graph (the CLI, the
//! playground's server, the browser driver), so the crate builds one: its
//! modules are the areas (`cli`, `golden`, `repair`, ...), and `support`
//! holds the helpers they share. Filter by module: `cargo test --release
//! --test it golden::`. The data the tests read stays beside this folder
//! (`tests/golden/`, `tests/inputs/`, `tests/bad/`, `tests/herd/`, ...);
//! snapshots named by insta's defaults live in `tests/it/snapshots/`.

mod support;

mod ax_fig6;
mod book;
mod book_playground;
mod cat;
mod cat_lazy;
mod citations;
mod cli;
mod cli_doc;
mod corpus;
mod exit_codes;
mod flags;
mod formats;
mod front_end;
mod golden;
mod herd;
mod herd_logs;
mod lift;
mod lkmm;
mod messages;
mod playground_browser;
mod predict;
mod reduction;
mod relaxer;
mod relaxer_golden;
mod repair;
mod repair_brute;
mod serve_api;
mod stepper;
mod terminal;
