//! Embeds the litmus library (`litmus/**/*.litmus`) in the binary for
//! `relaxlab serve`, which reads no file at run time: writes
//! `$OUT_DIR/library.rs`, a sorted table of (path under `litmus/`,
//! contents) with one `include_str!` per test.
//!
//! On Linux it also links the `relaxlab` binary as a position-dependent
//! executable (`-no-pie`): a position-independent one of this size carries
//! about 12,000 relocations that the dynamic loader applies at every start,
//! writing to some forty pages of tables, which made a run on one small
//! file spend more time starting than working (book: herd.md, Speed).

use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "litmus") {
            out.push(path);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let litmus = root.join("litmus");
    println!("cargo:rerun-if-changed=litmus");
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    let mut files = Vec::new();
    walk(&litmus, &mut files);
    let mut entries: Vec<(String, PathBuf)> = files
        .into_iter()
        .filter_map(|p| {
            let rel = p.strip_prefix(&litmus).ok()?;
            let name = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            Some((name, p))
        })
        .collect();
    entries.sort();
    let mut code = String::from(
        "/// The litmus library: (path under `litmus/`, contents), sorted by path.\n\
         pub static LIBRARY: &[(&str, &str)] = &[\n",
    );
    for (name, path) in entries {
        code.push_str(&format!(
            "    ({name:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("library.rs");
    std::fs::write(out, code).expect("cannot write library.rs");
}
