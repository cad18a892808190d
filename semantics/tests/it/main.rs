//! relaxlab-semantics' integration tests: one test binary, one module per
//! area, named by prefix: `op_*` the operational engine and models, `ax_*`
//! the axiomatic engine, `c11_*` and `c11t_*` the C11 models, `cat_*`
//! compiled cat models, `ra_*` release/acquire, `relaxer_*` RELAXER's
//! analyses. The shared helpers are modules too: `ax_builder` (an IR
//! builder and the random program generator of the differential tests),
//! `c11_support`, `cat_support`, `op_util` and `relaxer_support`. Filter by module: `cargo test
//! --release -p relaxlab-semantics --test it op_reduction::`.

mod ax_builder;
mod c11_support;
mod cat_support;
mod op_util;
mod relaxer_support;

mod ax_budget;
mod ax_differential;
mod ax_lift;
mod ax_mixed;
mod ax_models;
mod ax_split;
mod ax_unroll;
mod c11_explore;
mod c11_litmus;
mod c11_races;
mod c11_random;
mod c11_sc;
mod c11_vs_ax;
mod c11t_corpus;
mod c11t_differential;
mod c11t_litmus;
mod cat_budget;
mod cat_differential;
mod cat_semantics;
mod op_engine;
mod op_inclusion;
mod op_mcr;
mod op_models;
mod op_reduction;
mod op_sample;
mod op_strategy_c11tester;
mod ra_differential;
mod relaxer_lift;
mod relaxer_predict_exhaustive;
mod relaxer_random;
mod relaxer_seeds;
