//! The repository's cat files for the semantics tests: `cat/NAME.cat`
//! compiled, its `include`s read from the same directory.

// Each test binary uses a different part.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use relaxlab_grammar::cat::{compile, CatLoader, Loaded, NotFound};
use relaxlab_semantics::axiomatic::cat::CatModel;

/// Reads cat files from one directory of the repository.
pub struct Dir(pub PathBuf);

impl CatLoader for Dir {
    fn load(&mut self, name: &str, _from: &str) -> Result<Loaded, NotFound> {
        let path = self.0.join(name);
        match std::fs::read_to_string(&path) {
            Ok(text) => Ok(Loaded {
                key: path.display().to_string(),
                display: format!("cat/{name}"),
                text,
            }),
            Err(_) => Err(NotFound {
                searched: vec![self.0.display().to_string()],
            }),
        }
    }
}

/// The repository's `cat/NAME.cat`, compiled.
pub fn cat_model(name: &str) -> Arc<CatModel> {
    cat_model_in("cat", name)
}

/// The model `DIR/NAME.cat` of the repository, compiled.
pub fn cat_model_in(dir: &str, name: &str) -> Arc<CatModel> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(dir);
    let path = dir.join(format!("{name}.cat"));
    let text = std::fs::read_to_string(&path).unwrap();
    let root = Loaded {
        key: path.display().to_string(),
        display: format!("cat/{name}.cat"),
        text,
    };
    compile(root, name, &mut Dir(dir.clone()))
        .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.render(80)))
        .model
}
