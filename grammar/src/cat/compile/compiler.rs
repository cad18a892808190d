//! The compiler's state and its driver: the public entry points
//! ([`compile`], [`compile_with`]), the run of the prelude, of the bell
//! file and of the model's instructions in order, `include` (a file is
//! read through the caller's [`CatLoader`] and its instructions run where
//! it is included), and the diagnostics located in the file they concern.
//!
//! book: cat.md, Includes

use std::collections::HashSet;
use std::rc::Rc;
use std::sync::Arc;

use relaxlab_semantics::axiomatic::cat::{Arch, CatBuilder, CatModel, NodeId, RelPrim};

use super::builtins;
use super::value::{Env, Val};
use crate::cat::ast::{self, Ins, InsKind, Span, TitleWord};
use crate::cat::error::{CatError, Fail};
use crate::cat::parser::parse;

/// The files of herd7's library that relaxlab builds in: its prelude
/// defines what they define (its candidate executions carry `co`;
/// `cross.cat`'s `generate_orders` and `generate_cos` are a primitive and
/// a prelude function; `cos-opt.cat` chooses `co` as herd7's does), so
/// including one runs that part of the prelude, and a model needs no file
/// of herd7's library.
pub const BUILT_IN_FILES: &[&str] = &["stdlib.cat", "cos.cat", "cross.cat", "cos-opt.cat"];

/// What a model is compiled with besides its files: herd7's variants
/// (`-variant`, a `.cfg`'s `variant`) and its bell file (`-bell`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompileOptions {
    /// The variants set, compared without case.
    pub variants: Vec<String>,
    /// The bell file: its annotation declarations give the tag sets, and
    /// its instructions run before the model's.
    pub bell: Option<Loaded>,
}

/// A file the loader found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// What identifies the file (a canonical path), for include cycles and
    /// include-once.
    pub key: String,
    /// The name diagnostics show.
    pub display: String,
    pub text: String,
}

/// A file the loader did not find, and where it looked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotFound {
    pub searched: Vec<String>,
}

/// Finds included files: the CLI looks beside the including file, then in
/// the directories of `--cat-path` and `RELAXLAB_CAT_PATH`.
pub trait CatLoader {
    /// The file `name` included from the file `from` (a [`Loaded::key`]).
    fn load(&mut self, name: &str, from: &str) -> Result<Loaded, NotFound>;
}

/// A compiled model and the warnings about it.
#[derive(Debug)]
pub struct Compiled {
    pub model: Arc<CatModel>,
    /// What compiled but may not do what its author meant (an unnamed
    /// `flag`), in file order, each once.
    pub warnings: Vec<CatError>,
}

/// Compiles the model in `root`; `stem` names it when its title does
/// not.
pub fn compile(root: Loaded, stem: &str, loader: &mut dyn CatLoader) -> Result<Compiled, CatError> {
    compile_with(root, stem, loader, &CompileOptions::default())
}

/// [`compile`] with variants and a bell file.
pub fn compile_with(
    root: Loaded,
    stem: &str,
    loader: &mut dyn CatLoader,
    options: &CompileOptions,
) -> Result<Compiled, CatError> {
    let mut c = Compiler {
        variants: options
            .variants
            .iter()
            .map(|v| v.to_ascii_lowercase())
            .collect(),
        preludes: Vec::new(),
        with_co: None,
        b: CatBuilder::new(),
        arch: Arch::C,
        files: Vec::new(),
        loader,
        stack: Vec::new(),
        included: HashSet::new(),
        shows: Vec::new(),
        depth: 0,
        tags: HashSet::new(),
        defining: Vec::new(),
        warnings: Vec::new(),
    };
    match c.run(root, stem, options.bell.clone()) {
        Ok(model) => {
            let mut warnings = std::mem::take(&mut c.warnings);
            // A procedure's body is compiled at each call: warn once.
            warnings.sort_by_key(|w| (w.span.file, w.span.start));
            warnings.dedup_by_key(|w| w.span);
            Ok(Compiled {
                model,
                warnings: warnings
                    .into_iter()
                    .map(|w| c.locate(w).into_warning())
                    .collect(),
            })
        }
        Err(fail) => Err(c.locate(fail)),
    }
}

/// The warning for a model that reads `rmw` in no check, and does not
/// judge read-modify-writes as one event (a C model that never reads
/// `rmw` does: book: cat.md, One event per read-modify-write): a
/// read-modify-write is then a read and a write joined by `rmw`, so
/// nothing in such a model stops another thread's write from falling
/// between the two: it admits outcomes no RMW gives. Labelled on the
/// title line.
fn rmw_unused(text: &str) -> Fail {
    let first = text.lines().next().unwrap_or("");
    let len = first.trim_end().len();
    Fail::new(
        "relaxlab::cat::rmw_unused",
        Span::new(1, 0, len),
        "no check of this model uses `rmw`, so it does not keep read-modify-writes atomic",
        "this model",
        "this model sees an RMW as a read and a write joined by `rmw` (book: cat.md, One event per read-modify-write): state atomicity with it over the model's coherence order, as herd7's x86tso.cat does with `empty rmw & (fre; coe)`",
    )
}

/// The deepest unfolding of functions and procedures: a recursion that
/// goes deeper does not end statically.
pub(super) const MAX_DEPTH: usize = 200;

pub(crate) struct Compiler<'l> {
    /// The variants set, in lower case.
    pub(crate) variants: Vec<String>,
    /// The prelude's parts (stdlib, cos, cross): file and body, run again
    /// where a model includes the herd7 file they stand for.
    preludes: Vec<(u32, Rc<Vec<Ins>>)>,
    /// Where the model chooses `co` (`with co from ...`).
    pub(super) with_co: Option<Span>,
    pub(crate) b: CatBuilder,
    pub(crate) arch: Arch,
    /// Every file read: its key, display name and text (file 0 is the
    /// prelude).
    files: Vec<(String, String, Rc<str>)>,
    loader: &'l mut dyn CatLoader,
    /// The files being included, innermost last (indices into `files`).
    stack: Vec<usize>,
    /// The keys of the files already included.
    included: HashSet<String>,
    pub(super) shows: Vec<(String, NodeId)>,
    /// Functions and procedures being unfolded.
    pub(crate) depth: usize,
    /// Tags declared by `enum`.
    pub(crate) tags: HashSet<String>,
    /// The names a non-recursive `let` is defining.
    pub(crate) defining: Vec<String>,
    /// Warnings, located when compilation ends.
    pub(super) warnings: Vec<Fail>,
}

const PRELUDE: &str = include_str!("../prelude.cat");
const PRELUDE_COS: &str = include_str!("../prelude-cos.cat");
const PRELUDE_CROSS: &str = include_str!("../prelude-cross.cat");
const PRELUDE_COS_OPT: &str = include_str!("../prelude-cos-opt.cat");

impl Compiler<'_> {
    fn run(
        &mut self,
        root: Loaded,
        stem: &str,
        bell: Option<Loaded>,
    ) -> Result<Arc<CatModel>, Fail> {
        self.files.push((
            "<prelude>".into(),
            "relaxlab prelude".into(),
            PRELUDE.into(),
        ));
        self.files.push((
            root.key.clone(),
            root.display.clone(),
            root.text.as_str().into(),
        ));
        let model = parse(1, &root.text)?;
        if let Some(other) = other_architecture(&model.title) {
            let at = root.text.find(other).unwrap_or(0);
            return Err(Fail::new(
                "relaxlab::cat::architecture",
                Span::new(1, at, at + other.len()),
                format!("this model is written for {other}, an architecture relaxlab does not model"),
                "the title names the architecture",
                "relaxlab's executions are its own language's and those of herd's C, X86 and X86_64 tests; herd7 also refuses to run a test under a model of another architecture (book: cat.md, Supported and refused)",
            ));
        }
        let (arch, name) = title(&model.title, stem);
        self.arch = arch;
        let mut env = builtins::initial_env(&mut self.b, arch);
        // The bell file's annotations are event sets from the start, as
        // herd7 adds them to the initial environment.
        let bell = match bell {
            Some(bell) => {
                let id = self.files.len() as u32;
                self.files.push((
                    bell.key.clone(),
                    bell.display.clone(),
                    bell.text.as_str().into(),
                ));
                let parsed = parse(id, &bell.text)?;
                for tag in self.bell_annotations(&parsed.body)? {
                    let set = self.b.tag_set(&tag);
                    env = env.bind(builtins::tag_set_name(&tag), Val::Set(set));
                }
                Some((id, bell.key, parsed))
            }
            None => None,
        };
        let prelude = parse(0, PRELUDE)?;
        self.preludes.push((0, Rc::new(prelude.body)));
        for (text, display) in [
            (PRELUDE_COS, "relaxlab prelude (cos.cat)"),
            (PRELUDE_CROSS, "relaxlab prelude (cross.cat)"),
        ] {
            let id = self.files.len() as u32;
            self.files
                .push(("<prelude>".into(), display.into(), text.into()));
            self.preludes.push((id, Rc::new(parse(id, text)?.body)));
        }
        // stdlib, cos and cross run before every model; cos-opt (which
        // chooses co) only where a model includes it, and is read then
        // ([`Compiler::run_prelude`]).
        for k in 0..3 {
            self.run_prelude(k, &mut env)?;
        }
        if let Some((id, key, parsed)) = bell {
            self.included.insert(key);
            self.stack.push(id as usize);
            self.instructions(&parsed.body, &mut env)?;
            self.stack.pop();
        }
        self.included.insert(root.key.clone());
        self.stack.push(1);
        self.instructions(&model.body, &mut env)?;
        self.stack.pop();
        if self.with_co.is_some() {
            self.b.set_chooses_co();
        }
        let shows = std::mem::take(&mut self.shows);
        let b = std::mem::take(&mut self.b);
        let model = b.finish(name, arch, shows).map_err(|e| {
            Fail::new(
                "relaxlab::cat::too_big",
                Span::new(1, 0, 0),
                e.to_string(),
                "",
                "split the model or use fewer `let rec` groups",
            )
        })?;
        if !model.checks_use(RelPrim::Rmw) && !model.one_event_rmws() {
            self.warnings.push(rmw_unused(&root.text));
        }
        if let Some(span) = self.with_co {
            if model.uses_candidate_co() {
                return Err(Fail::new(
                    "relaxlab::cat::co_twice",
                    span,
                    "this model chooses `co` here, and also uses the candidate's coherence order",
                    "`co` chosen here",
                    "when a model chooses co (`with co from ...`), the candidates have none: define what is derived from co (fr, coe, ...) after this `with`, as herd7's cos.cat does, rather than using the prelude's",
                ));
            }
        }
        Ok(model)
    }

    /// Runs part `k` of the prelude (stdlib, cos, cross, cos-opt) in
    /// `env`. cos-opt is read the first time a model includes it: most
    /// models never do, and reading it cost as much as compiling a small
    /// model.
    fn run_prelude(&mut self, k: usize, env: &mut Env) -> Result<(), Fail> {
        if k == self.preludes.len() && k == 3 {
            let id = self.files.len() as u32;
            self.files.push((
                "<prelude>".into(),
                "relaxlab prelude (cos-opt.cat)".into(),
                PRELUDE_COS_OPT.into(),
            ));
            self.preludes
                .push((id, Rc::new(parse(id, PRELUDE_COS_OPT)?.body)));
        }
        let (id, body) = self.preludes[k].clone();
        self.stack.push(id as usize);
        let result = self.instructions(&body, env);
        self.stack.pop();
        result
    }

    /// The annotations a bell file declares (herd7's `BellModel`
    /// `all_events`): the tags of the `enum`s and tag sets its
    /// `instructions` declarations give the event kinds R, W, F, RMW, B,
    /// CALL and SRCU, in the order they appear.
    fn bell_annotations(&mut self, body: &[Ins]) -> Result<Vec<String>, Fail> {
        let mut enums: Vec<(String, Vec<String>)> = Vec::new();
        let mut out: Vec<String> = Vec::new();
        let mut stack: Vec<&Ins> = body.iter().rev().collect();
        while let Some(ins) = stack.pop() {
            match &ins.kind {
                InsKind::Enum(name, tags) => enums.push((
                    name.text.clone(),
                    tags.iter().map(|t| t.text.clone()).collect(),
                )),
                InsKind::IfVariant {
                    cond,
                    then,
                    otherwise,
                } => {
                    let branch = if self.variant_holds(cond) {
                        then
                    } else {
                        otherwise
                    };
                    stack.extend(branch.iter().rev());
                }
                InsKind::Events { kind, args, .. } => {
                    const KINDS: &[&str] = &["R", "W", "F", "RMW", "B", "CALL", "SRCU"];
                    if !KINDS.contains(&kind.text.as_str()) {
                        return Err(Fail::new(
                            "relaxlab::cat::bell",
                            kind.span,
                            format!("`{}` is not a kind of event a bell file can annotate", kind.text),
                            "unknown event kind",
                            "herd7's bell files declare the annotations of R, W, F, RMW, B, CALL and SRCU events",
                        ));
                    }
                    for a in args {
                        let tags: Vec<String> = match &a.kind {
                            ast::ExprKind::Var(v) => match enums.iter().find(|(n, _)| n == v) {
                                Some((_, tags)) => tags.clone(),
                                None => {
                                    return Err(Fail::new(
                                        "relaxlab::cat::bell",
                                        a.span,
                                        format!("`{v}` is not an enum of this bell file"),
                                        "not an enum",
                                        "declare it first: `enum Name = 'a || 'b`",
                                    ))
                                }
                            },
                            ast::ExprKind::Tag(t) => vec![t.clone()],
                            ast::ExprKind::Set(items) => items
                                .iter()
                                .filter_map(|i| match &i.kind {
                                    ast::ExprKind::Tag(t) => Some(t.clone()),
                                    _ => None,
                                })
                                .collect(),
                            _ => {
                                return Err(Fail::new(
                                    "relaxlab::cat::bell",
                                    a.span,
                                    "an annotation declaration takes enums, tags or sets of tags",
                                    "not an annotation",
                                    "write `instructions R[Accesses]` with `enum Accesses = 'once || ...`",
                                ))
                            }
                        };
                        for t in tags {
                            if !out.contains(&t) {
                                out.push(t);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(out)
    }

    /// Does a variant condition hold for the variants set?
    pub(crate) fn variant_holds(&self, c: &ast::VariantCond) -> bool {
        match c {
            ast::VariantCond::Is(v, _) => self.variants.contains(&v.to_ascii_lowercase()),
            ast::VariantCond::Not(a) => !self.variant_holds(a),
            ast::VariantCond::And(a, b) => self.variant_holds(a) && self.variant_holds(b),
            ast::VariantCond::Or(a, b) => self.variant_holds(a) || self.variant_holds(b),
        }
    }

    /// The diagnostic of a failure, with its file.
    fn locate(&self, fail: Fail) -> CatError {
        match self.files.get(fail.span.file as usize) {
            Some((_, display, text)) => CatError::located(fail, display, text),
            None => CatError::unlocated(fail.code, fail.message, fail.help),
        }
    }

    /// The source text of a span (for default check names).
    pub(super) fn text_of(&self, span: Span) -> String {
        let Some((_, _, text)) = self.files.get(span.file as usize) else {
            return String::new();
        };
        let (s, e) = (span.start as usize, (span.end as usize).min(text.len()));
        text.get(s..e)
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// INCLUDE: reads the file (once; a file including itself, directly
    /// or not, is an error) and runs its instructions. Its title line is
    /// ignored.
    pub(super) fn include(&mut self, file: &str, span: Span, env: &mut Env) -> Result<(), Fail> {
        let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
        if let Some(k) = BUILT_IN_FILES.iter().position(|f| *f == base) {
            return self.run_prelude(k, env);
        }
        let from = self
            .stack
            .last()
            .map(|&i| self.files[i].0.clone())
            .unwrap_or_default();
        let loaded = self.loader.load(file, &from).map_err(|nf| {
            let searched = if nf.searched.is_empty() {
                String::new()
            } else {
                format!("looked in {}; ", nf.searched.join(", "))
            };
            Fail::new(
                "relaxlab::cat::include_missing",
                span,
                format!(
                    "cannot find included file \"{}\"",
                    crate::clip::escaped(file)
                ),
                "not found",
                format!(
                    "{searched}add a directory with --cat-path DIR or the RELAXLAB_CAT_PATH variable"
                ),
            )
        })?;
        if let Some(pos) = self
            .stack
            .iter()
            .position(|&i| self.files[i].0 == loaded.key)
        {
            let chain: Vec<String> = self.stack[pos..]
                .iter()
                .map(|&i| self.files[i].1.clone())
                .chain(std::iter::once(loaded.display.clone()))
                .collect();
            return Err(Fail::new(
                "relaxlab::cat::include_cycle",
                span,
                format!("include cycle: {}", chain.join(" includes ")),
                "this include leads back to a file being included",
                "remove one of the includes of the cycle",
            ));
        }
        // herd7 runs a file again at each include (its interpreter only
        // warns, in verbose mode, that it includes a file another time).
        self.included.insert(loaded.key.clone());
        let id = self.files.len() as u32;
        self.files
            .push((loaded.key, loaded.display, loaded.text.as_str().into()));
        let model = parse(id, &loaded.text)?;
        self.stack.push(id as usize);
        let result = self.instructions(&model.body, env);
        self.stack.pop();
        result
    }
}

/// The architectures herd7 reads in a title (`Archs.parse`) whose
/// executions relaxlab does not build: all but C, X86 and X86_64 (and
/// C++, whose memory model is C's).
const OTHER_ARCHITECTURES: &[&str] = &[
    "AArch64", "ARM", "BPF", "MIPS", "PPC", "RISCV", "RISC-V", "LISA", "Bell", "JAVA", "Java",
    "ASL",
];

/// The other architecture a title names, as herd7 reads it: the first
/// name of `ARCH NAME`, `ARCH "NAME"` or `ARCH`, or a string alone.
fn other_architecture(words: &[TitleWord]) -> Option<&str> {
    let word = match words {
        [TitleWord::Name(a), ..] | [TitleWord::Str(a)] => a.as_str(),
        _ => return None,
    };
    OTHER_ARCHITECTURES.contains(&word).then_some(word)
}

/// The architecture and name of a model from its title line: herd7's
/// `ARCH NAME`, `ARCH "NAME"`, `NAME` or `"NAME"`.
fn title(words: &[TitleWord], stem: &str) -> (Arch, String) {
    let text = |w: &TitleWord| match w {
        TitleWord::Name(s) | TitleWord::Str(s) => s.clone(),
    };
    // A quoted title names its architecture by its first word, in any
    // case: herd7's `x86tso-mixed.cat` is `"x86 TSO Mixed"`.
    let arch = match words.first() {
        Some(TitleWord::Name(a)) => Arch::from_title(a),
        Some(TitleWord::Str(s)) => s
            .split_whitespace()
            .next()
            .and_then(|w| Arch::from_title(&w.to_uppercase())),
        None => None,
    };
    let name = match words {
        [] => stem.to_string(),
        [only] => text(only),
        [TitleWord::Str(s), ..] => s.clone(),
        [_, second, ..] => text(second),
    };
    (arch.unwrap_or(Arch::C), name)
}
