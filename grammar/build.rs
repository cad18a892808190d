//! Runs lalrpop on `src/parser.lalrpop`, writing the parser to `OUT_DIR`.
fn main() {
    lalrpop::Configuration::new()
        .use_cargo_dir_conventions()
        .emit_rerun_directives(true)
        .process()
        .expect("relaxlab internal error: lalrpop failed on the grammar");
}
