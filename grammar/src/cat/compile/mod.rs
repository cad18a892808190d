//! From cat syntax to a relation program (`relaxlab_semantics::axiomatic::cat`).
//!
//! The model is evaluated statically, in order, as herd7 runs it, except
//! that nothing here depends on an execution: event sets and relations
//! become nodes of the relation program; tags, tuples, functions and
//! procedures are evaluated away (a function is unfolded where it is
//! applied, a procedure where it is called); `include` reads the file and
//! runs its instructions; `if variant` takes its `else` branch (relaxlab
//! sets no variant); `try e with d` is `d` when `e` fails to compile
//! (herd7 catches any error of `e`). What is left is checks, in program
//! order, `let rec` fixed points and `with` choices.
//!
//! What is refused, always with a diagnostic naming it: pattern matching
//! on sets, explicit sets of values and `++`, recursive functions whose
//! unfolding does not end statically, `forall`, `if ... then ... else`,
//! `debug`, bell declarations (`instructions`, `default`), `let rec ...
//! when`, the herd7 primitives listed in `builtins`, and `with` over
//! anything but `linearisations(S, r)` and `generate_orders(S, r)` (herd7's
//! `cross.cat`, built in).

mod builtins;
mod expr;
mod value;

use std::collections::HashSet;
use std::rc::Rc;
use std::sync::Arc;

use relaxlab_semantics::axiomatic::cat::{
    Arch, CatBuilder, CatModel, Check, CheckKind, Choice, Kind, NodeId, Op, RelPrim, Test,
};

use super::ast::{self, Ins, InsKind, Name, Pat, Span, TitleWord};
use super::error::{CatError, Fail};
use super::parser::parse;
use value::{Env, Procedure, Val};

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
const MAX_DEPTH: usize = 200;

pub(crate) struct Compiler<'l> {
    /// The variants set, in lower case.
    pub(crate) variants: Vec<String>,
    /// The prelude's parts (stdlib, cos, cross): file and body, run again
    /// where a model includes the herd7 file they stand for.
    preludes: Vec<(u32, Rc<Vec<Ins>>)>,
    /// Where the model chooses `co` (`with co from ...`).
    with_co: Option<Span>,
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
    shows: Vec<(String, NodeId)>,
    /// Functions and procedures being unfolded.
    pub(crate) depth: usize,
    /// Tags declared by `enum`.
    pub(crate) tags: HashSet<String>,
    /// The names a non-recursive `let` is defining.
    pub(crate) defining: Vec<String>,
    /// Warnings, located when compilation ends.
    warnings: Vec<Fail>,
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
    fn text_of(&self, span: Span) -> String {
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

    pub(crate) fn instructions(&mut self, body: &[Ins], env: &mut Env) -> Result<(), Fail> {
        for ins in body {
            self.instruction(ins, env)?;
        }
        Ok(())
    }

    fn instruction(&mut self, ins: &Ins, env: &mut Env) -> Result<(), Fail> {
        match &ins.kind {
            InsKind::Let {
                rec: false,
                bindings,
            } => {
                *env = self.let_bindings(bindings, env)?;
                Ok(())
            }
            InsKind::Let {
                rec: true,
                bindings,
            } => {
                *env = self.let_rec(bindings, env, ins.span)?;
                Ok(())
            }
            InsKind::Check {
                kind,
                negated,
                test,
                expr,
                name,
            } => self.check(*kind, *negated, *test, expr, name.as_ref(), None, env),
            InsKind::ShowAs(e, name) => {
                let v = self.expr(e, env)?;
                let node = self.shown_node(v, e.span)?;
                self.shows.retain(|(n, _)| *n != name.text);
                self.shows.push((name.text.clone(), node));
                Ok(())
            }
            InsKind::Show(names) => {
                for n in names {
                    let v = self.var(&n.text, n.span, env)?;
                    let node = self.shown_node(v, n.span)?;
                    self.shows.retain(|(s, _)| *s != n.text);
                    self.shows.push((n.text.clone(), node));
                }
                Ok(())
            }
            InsKind::Unshow(names) => {
                for n in names {
                    self.shows.retain(|(s, _)| *s != n.text);
                }
                Ok(())
            }
            InsKind::Include(file, span) => self.include(file, *span, env),
            InsKind::Procedure { name, param, body } => {
                let p = Procedure {
                    name: name.text.as_str().into(),
                    param: param.clone(),
                    body: body.clone(),
                    env: env.clone(),
                };
                *env = env.bind(name.text.as_str(), Val::Proc(Rc::new(p)));
                Ok(())
            }
            InsKind::Call { name, arg, label } => self.call(name, arg, label.as_ref(), env),
            InsKind::With(name, e) => {
                let choice = match self.expr(e, env)? {
                    Val::Choices(choice) => choice,
                    Val::Family(f, m) if *m == value::Member::Rel => Choice::Family(f),
                    _ => {
                        return Err(Fail::new(
                            "relaxlab::cat::unsupported",
                            e.span,
                            "`with` over this set is not supported",
                            "not a set of relations",
                            "`with` chooses from `linearisations(S, r)`, from `generate_orders(S, r)` or `generate_cos(r)` of herd7's cross.cat, or from a set of relations an execution gives (`cross(map f S)`)",
                        ))
                    }
                };
                let (with, var) = self.b.with_var();
                self.b.with(with, choice);
                // A model that chooses `co` leaves it out of the candidates.
                if name.text == "co" {
                    self.with_co.get_or_insert(ins.span);
                }
                *env = env.bind(name.text.as_str(), Val::Rel(var));
                Ok(())
            }
            InsKind::Enum(name, tags) => {
                for t in tags {
                    self.tags.insert(t.text.clone());
                }
                let set: Vec<Rc<str>> = tags.iter().map(|t| t.text.as_str().into()).collect();
                *env = env.bind(name.text.as_str(), Val::Tags(Rc::new(set)));
                Ok(())
            }
            InsKind::IfVariant {
                cond,
                then,
                otherwise,
            } => {
                if self.variant_holds(cond) {
                    self.instructions(then, env)
                } else {
                    self.instructions(otherwise, env)
                }
            }
            // Bell declarations were read before the model ran: herd7's
            // cat interpreter skips them.
            InsKind::Events { .. } => Ok(()),
            InsKind::Match {
                scrutinee,
                clauses,
                default,
            } => {
                let tag = self.tag_value(scrutinee, env)?;
                match clauses.iter().find(|(t, _)| *t.text == *tag) {
                    Some((_, body)) => self.instructions(body, env),
                    None => match default {
                        Some(body) => self.instructions(body, env),
                        None => Err(no_match(&tag, scrutinee.span)),
                    },
                }
            }
            InsKind::Unsupported(what) => Err(unsupported(what, ins.span)),
        }
    }

    /// A shown value as a node (a set is drawn as the identity on it).
    fn shown_node(&mut self, v: Val, span: Span) -> Result<NodeId, Fail> {
        match v {
            Val::Set(n) | Val::Rel(n) => Ok(n),
            Val::Empty => Ok(self.b.node(Op::EmptyRel)),
            other => Err(type_error(
                span,
                "`show`",
                "a relation or an event set",
                &other,
            )),
        }
    }

    /// `let x = e and ...`: every right-hand side sees the environment
    /// before the `let`.
    pub(crate) fn let_bindings(
        &mut self,
        bindings: &[ast::Binding],
        env: &Env,
    ) -> Result<Env, Fail> {
        let names: Vec<String> = bindings.iter().flat_map(|b| pat_names(&b.pat)).collect();
        for b in bindings {
            for n in &names {
                if env.lookup(n).is_none() {
                    if let Some(at) = mentions(&b.expr, n) {
                        return Err(self_reference(n, at));
                    }
                }
            }
        }
        let mut out = env.clone();
        for b in bindings {
            let saved = self.defining.len();
            self.defining.extend(pat_names(&b.pat));
            let v = self.expr_named(&b.expr, env, &b.pat);
            self.defining.truncate(saved);
            out = self.bind_pat(&b.pat, v?, b.expr.span, &out)?;
        }
        Ok(out)
    }

    /// A binding's value; a function is named after its binding.
    fn expr_named(&mut self, e: &ast::Expr, env: &Env, pat: &Pat) -> Result<Val, Fail> {
        match (&e.kind, pat) {
            (ast::ExprKind::Fun(param, body), Pat::Var(Some(name))) => {
                Ok(Val::Func(Rc::new(value::Closure {
                    name: name.text.as_str().into(),
                    param: param.clone(),
                    body: body.clone(),
                    env: env.clone(),
                    recs: None,
                })))
            }
            _ => self.expr(e, env),
        }
    }

    /// Binds a pattern to a value.
    pub(crate) fn bind_pat(
        &mut self,
        pat: &Pat,
        v: Val,
        span: Span,
        env: &Env,
    ) -> Result<Env, Fail> {
        match pat {
            Pat::Var(None) => Ok(env.clone()),
            Pat::Var(Some(n)) => Ok(env.bind(n.text.as_str(), v)),
            Pat::Tuple(names) => {
                let items: Vec<Val> = match &v {
                    Val::Tuple(items) => items.as_ref().clone(),
                    _ => Vec::new(),
                };
                if items.len() != names.len() {
                    let what = format!("a tuple of {} values", names.len());
                    return Err(type_error(span, "this pattern", &what, &v));
                }
                let mut out = env.clone();
                for (n, item) in names.iter().zip(items) {
                    if let Some(n) = n {
                        out = out.bind(n.text.as_str(), item);
                    }
                }
                Ok(out)
            }
        }
    }

    /// `let rec`: recursive functions, or the least fixed point of
    /// equations over sets and relations.
    fn let_rec(&mut self, bindings: &[ast::Binding], env: &Env, span: Span) -> Result<Env, Fail> {
        let funs = bindings
            .iter()
            .filter(|b| matches!(b.expr.kind, ast::ExprKind::Fun(..)))
            .count();
        if funs == bindings.len() {
            return self.rec_functions(bindings, env);
        }
        if funs > 0 {
            return Err(Fail::new(
                "relaxlab::cat::unsupported",
                span,
                "a `let rec` mixing functions and values is not supported",
                "functions and values in one group",
                "define the recursive functions and the fixed point in separate `let rec`s",
            ));
        }
        self.fixpoint(bindings, env)
    }

    fn rec_functions(&mut self, bindings: &[ast::Binding], env: &Env) -> Result<Env, Fail> {
        let mut recs = Vec::new();
        for b in bindings {
            let (Pat::Var(Some(name)), ast::ExprKind::Fun(param, body)) = (&b.pat, &b.expr.kind)
            else {
                return Err(unsupported("a tuple pattern in `let rec`", b.span));
            };
            recs.push(value::RecFun {
                name: name.text.as_str().into(),
                param: param.clone(),
                body: body.clone(),
            });
        }
        let recs = Rc::new(recs);
        let mut out = env.clone();
        for f in recs.iter() {
            out = out.bind(
                f.name.clone(),
                Val::Func(Rc::new(value::Closure {
                    name: f.name.clone(),
                    param: f.param.clone(),
                    body: f.body.clone(),
                    env: env.clone(),
                    recs: Some(recs.clone()),
                })),
            );
        }
        Ok(out)
    }

    /// LEAST FIXED POINT (herd7 manual, "Local bindings"): each unknown
    /// becomes a node of a `let rec` group. Unknowns are taken to be
    /// relations unless an equation says they are sets, in which case the
    /// equations are compiled again with set unknowns. The equations must
    /// be monotone in the unknowns (no unknown under `~` or on the right
    /// of `\`), so the fixed point is reached by iteration from empty.
    fn fixpoint(&mut self, bindings: &[ast::Binding], env: &Env) -> Result<Env, Fail> {
        let mut names = Vec::new();
        for b in bindings {
            match &b.pat {
                Pat::Var(Some(n)) => names.push(n.clone()),
                _ => return Err(unsupported("a tuple pattern in `let rec`", b.span)),
            }
        }
        // The kinds the equations' shapes give (an unknown defined as a
        // union of sets is a set, one defined with `;` a relation), the
        // others taken to be relations; when the equations do not compile
        // with them, all sets; then the kinds the equations give, once
        // more.
        let mut kinds = infer_kinds(bindings, &names, env);
        let all_rel = kinds.iter().all(|k| *k == Kind::Rel);
        let mut first_error = None;
        for attempt in 0..3 {
            let (group, vars) = self.b.open_group(&kinds);
            let mut inner = env.clone();
            for (n, (&v, &k)) in names.iter().zip(vars.iter().zip(&kinds)) {
                inner = inner.bind(n.text.as_str(), wrap_kind(k, v));
            }
            let mut values = Vec::new();
            let mut failed = None;
            for b in bindings {
                match self.expr(&b.expr, &inner) {
                    Ok(v) => values.push((v, b.expr.span)),
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
            }
            if let Some(e) = failed {
                let retry = attempt == 0 && all_rel;
                first_error.get_or_insert(e);
                if retry {
                    kinds = vec![Kind::Set; names.len()];
                    continue;
                }
                break;
            }
            let found: Vec<Kind> = values
                .iter()
                .zip(&kinds)
                .map(|((v, _), k)| match v {
                    Val::Set(_) => Kind::Set,
                    Val::Rel(_) => Kind::Rel,
                    _ => *k,
                })
                .collect();
            if found != kinds && attempt < 2 {
                kinds = found;
                continue;
            }
            let mut bodies = Vec::new();
            for ((v, span), &k) in values.into_iter().zip(&kinds) {
                bodies.push(self.as_kind(v, k, span, "a `let rec` equation")?);
            }
            // herd7 iterates every `let rec` from empty until a round
            // adds nothing, whether or not its equations are monotone (the
            // LKMM's matching of nested RCU critical sections is not); the
            // evaluator does too, and bounds the rounds of a group that is
            // not monotone.
            let antitone: Vec<(usize, usize)> = bodies
                .iter()
                .enumerate()
                .filter_map(|(i, &body)| self.antitone_use(body, &vars).map(|v| (i, v)))
                .collect();
            let monotone = antitone.is_empty();
            // herd's matching idiom (an unknown that keeps what it has,
            // `m = m | ...`, read under `\` by the others or reading them
            // so itself) settles where herd7 settles: no warning.
            let keeps = |c: &Self, j: usize| c.inflationary(bodies[j], vars[j]);
            if let Some(&(i, var)) = antitone
                .iter()
                .find(|&&(i, v)| !keeps(self, i) && !keeps(self, v))
            {
                self.warnings.push(not_monotone(
                    bindings[i].span,
                    &names[i].text,
                    &names[var].text,
                ));
            }
            self.b.close_group(group, bodies, monotone);
            let mut out = env.clone();
            for (n, (&v, &k)) in names.iter().zip(vars.iter().zip(&kinds)) {
                out = out.bind(n.text.as_str(), wrap_kind(k, v));
            }
            return Ok(out);
        }
        Err(first_error.unwrap_or_else(|| {
            Fail::new(
                "relaxlab::cat::type",
                bindings[0].span,
                "the unknowns of this `let rec` have no consistent type",
                "",
                "each unknown must be an event set or a relation throughout",
            )
        }))
    }

    /// Is `body`, the equation of the unknown `var`, `var | e` (in any
    /// order of the union's operands)? Such an unknown only grows as the
    /// iteration goes (herd's idiom for matching, as the LKMM's nested RCU
    /// critical sections are matched), so using it under `~` or on the
    /// right of `\` does not undo what it gathered.
    fn inflationary(&self, body: NodeId, var: NodeId) -> bool {
        let mut todo = vec![body];
        while let Some(n) = todo.pop() {
            if n == var {
                return true;
            }
            if let Op::Union(a, b) | Op::SetUnion(a, b) = self.b.op(n) {
                todo.push(a);
                todo.push(b);
            }
        }
        false
    }

    /// An unknown of `vars` that `node` uses antitonely, if any.
    fn antitone_use(&self, node: NodeId, vars: &[NodeId]) -> Option<usize> {
        let mut seen = HashSet::new();
        let mut todo = vec![(node, true)];
        while let Some((n, positive)) = todo.pop() {
            if !seen.insert((n, positive)) {
                continue;
            }
            if let Some(i) = vars.iter().position(|v| *v == n) {
                if !positive {
                    return Some(i);
                }
                continue;
            }
            let op = self.b.op(n);
            match op {
                Op::Diff(a, b) | Op::SetDiff(a, b) => {
                    todo.push((a, positive));
                    todo.push((b, !positive));
                }
                Op::Compl(a) | Op::SetCompl(a) => todo.push((a, !positive)),
                op => todo.extend(op.operands().map(|o| (o, positive))),
            }
        }
        None
    }

    /// Runs one check.
    #[allow(clippy::too_many_arguments)]
    fn check(
        &mut self,
        kind: ast::CheckKind,
        negated: bool,
        test: ast::TestKind,
        expr: &ast::Expr,
        name: Option<&Name>,
        label: Option<&Name>,
        env: &Env,
    ) -> Result<(), Fail> {
        let test = match test {
            ast::TestKind::Acyclic => Test::Acyclic,
            ast::TestKind::Irreflexive => Test::Irreflexive,
            ast::TestKind::Empty => Test::Empty,
        };
        let v = self.expr(expr, env)?;
        let node = match (v, test) {
            (Val::Rel(n), _) => n,
            (Val::Set(n), Test::Empty) => n,
            (Val::Empty, _) => self.b.node(Op::EmptyRel),
            (v, Test::Empty) => {
                return Err(type_error(
                    expr.span,
                    "`empty`",
                    "a relation or an event set",
                    &v,
                ))
            }
            (v, t) => {
                return Err(type_error(
                    expr.span,
                    &format!("`{}`", t.name()),
                    "a relation",
                    &v,
                ))
            }
        };
        // herd7 records a holding `flag` under its own `as NAME` only; an
        // unnamed one only warns ("this flagged test does not have a
        // name", herdtools7 lib/interpreter.ml), even inside a labelled
        // call. It is dropped here, with the warning at compile time.
        if kind == ast::CheckKind::Flag && name.is_none() {
            self.warnings.push(Fail::new(
                "relaxlab::cat::unnamed_flag",
                expr.span,
                "this `flag` has no name, so it is never reported",
                "an unnamed flag",
                "name it (`flag ... as NAME`): herd7 records only named flags, and so does relaxlab",
            ));
            return Ok(());
        }
        let name = match name.or(label) {
            Some(n) => n.text.clone(),
            None => {
                let text = self.text_of(expr.span);
                let mut s = format!("{}{} {}", if negated { "~" } else { "" }, test.name(), text);
                if s.len() > 60 {
                    s.truncate(s.char_indices().take(57).last().map_or(0, |(i, _)| i));
                    s.push_str("...");
                }
                s
            }
        };
        self.b.check(Check {
            kind: match kind {
                ast::CheckKind::Check => CheckKind::Check,
                ast::CheckKind::Flag => CheckKind::Flag,
                ast::CheckKind::UndefinedUnless => CheckKind::UndefinedUnless,
            },
            test,
            negated,
            node,
            name,
        });
        Ok(())
    }

    /// `call p arg`: runs the procedure's instructions; its bindings are
    /// dropped afterwards, its checks and shows kept.
    fn call(
        &mut self,
        name: &Name,
        arg: &ast::Expr,
        label: Option<&Name>,
        env: &Env,
    ) -> Result<(), Fail> {
        let proc = match self.var(&name.text, name.span, env)? {
            Val::Proc(p) => p,
            other => return Err(type_error(name.span, "`call`", "a procedure", &other)),
        };
        let v = self.expr(arg, env)?;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(too_deep(&proc.name, name.span));
        }
        let result = (|| {
            let mut inner = self.bind_pat(&proc.param, v, arg.span, &proc.env)?;
            for ins in proc.body.iter() {
                match &ins.kind {
                    InsKind::Check {
                        kind,
                        negated,
                        test,
                        expr,
                        name,
                    } => self.check(*kind, *negated, *test, expr, name.as_ref(), label, &inner)?,
                    _ => self.instruction(ins, &mut inner)?,
                }
            }
            Ok(())
        })();
        self.depth -= 1;
        result
    }

    /// INCLUDE: reads the file (once; a file including itself, directly
    /// or not, is an error) and runs its instructions. Its title line is
    /// ignored.
    fn include(&mut self, file: &str, span: Span, env: &mut Env) -> Result<(), Fail> {
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

/// The kinds of the unknowns of a `let rec` group as the shapes of their
/// equations give them, to a fixed point: a name of the environment or
/// an unknown of known kind has its kind; `;`, `*`, `[S]`, the closures
/// and `^-1` make relations; `domain` and `range` sets; `|`, `&`, `\`
/// and `~` keep their operands' kind. Unknowns still undecided are taken
/// to be relations.
fn infer_kinds(bindings: &[ast::Binding], names: &[Name], env: &Env) -> Vec<Kind> {
    use ast::{BinOp as B, ExprKind as K, UnOp as U};
    fn kind_of(e: &ast::Expr, names: &[Name], guess: &[Option<Kind>], env: &Env) -> Option<Kind> {
        match &e.kind {
            K::Var(v) => match names.iter().position(|n| n.text == *v) {
                Some(i) => guess[i],
                None => match env.lookup(v) {
                    Some(Val::Set(_)) => Some(Kind::Set),
                    Some(Val::Rel(_)) => Some(Kind::Rel),
                    _ => None,
                },
            },
            K::Universe => Some(Kind::Set),
            K::Unary(U::Compl, a) => kind_of(a, names, guess, env),
            K::Unary(_, _) => Some(Kind::Rel),
            K::Binary(B::Seq | B::Cart, _, _) => Some(Kind::Rel),
            K::Binary(_, a, b) => {
                kind_of(a, names, guess, env).or_else(|| kind_of(b, names, guess, env))
            }
            K::App(f, _) => match &f.kind {
                K::Var(v) if v == "domain" || v == "range" => Some(Kind::Set),
                _ => None,
            },
            K::Let { body, .. } => kind_of(body, names, guess, env),
            _ => None,
        }
    }
    let mut guess: Vec<Option<Kind>> = vec![None; names.len()];
    loop {
        let mut changed = false;
        for (i, b) in bindings.iter().enumerate() {
            if guess[i].is_none() {
                if let Some(k) = kind_of(&b.expr, names, &guess, env) {
                    guess[i] = Some(k);
                    changed = true;
                }
            }
        }
        if !changed {
            return guess.into_iter().map(|g| g.unwrap_or(Kind::Rel)).collect();
        }
    }
}

fn wrap_kind(k: Kind, n: NodeId) -> Val {
    match k {
        Kind::Set => Val::Set(n),
        Kind::Rel => Val::Rel(n),
        Kind::Family => Val::Family(n, Rc::new(value::Member::Rel)),
    }
}

/// The names a pattern binds.
fn pat_names(p: &Pat) -> Vec<String> {
    match p {
        Pat::Var(Some(n)) => vec![n.text.clone()],
        Pat::Var(None) => Vec::new(),
        Pat::Tuple(ns) => ns.iter().flatten().map(|n| n.text.clone()).collect(),
    }
}

/// Where `e` mentions `name` free, if it does.
fn mentions(e: &ast::Expr, name: &str) -> Option<Span> {
    use ast::ExprKind::*;
    let binds = |p: &Pat| pat_names(p).iter().any(|n| n == name);
    match &e.kind {
        Var(v) if v == name => Some(e.span),
        Var(_) | Empty | Universe | Tag(_) | If => None,
        MatchSet {
            scrutinee,
            empty,
            elem,
            rest,
            nonempty,
        } => {
            let bound = [elem, rest]
                .iter()
                .any(|n| n.as_ref().is_some_and(|n| n.text == name));
            mentions(scrutinee, name)
                .or_else(|| mentions(empty, name))
                .or_else(|| (!bound).then(|| mentions(nonempty, name)).flatten())
        }
        IfVariant {
            then, otherwise, ..
        } => mentions(then, name).or_else(|| mentions(otherwise, name)),
        Tuple(items) | Set(items) => items.iter().find_map(|i| mentions(i, name)),
        Unary(_, a) => mentions(a, name),
        Binary(_, a, b) | App(a, b) => mentions(a, name).or_else(|| mentions(b, name)),
        // `try e with d` is `d` when `e` names something undefined.
        Try(_, d) => mentions(d, name),
        Fun(p, body) => (!binds(p)).then(|| mentions(body, name)).flatten(),
        Let {
            rec,
            bindings,
            body,
        } => {
            let bound = bindings.iter().any(|b| binds(&b.pat));
            let in_rhs = if *rec && bound {
                None
            } else {
                bindings.iter().find_map(|b| mentions(&b.expr, name))
            };
            in_rhs.or_else(|| (!bound).then(|| mentions(body, name)).flatten())
        }
        MatchTag {
            scrutinee,
            clauses,
            default,
        } => mentions(scrutinee, name)
            .or_else(|| clauses.iter().find_map(|(_, c)| mentions(c, name)))
            .or_else(|| default.as_ref().and_then(|d| mentions(d, name))),
    }
}

pub(crate) fn self_reference(name: &str, at: Span) -> Fail {
    Fail::new(
        "relaxlab::cat::recursive",
        at,
        format!("`{name}` is used in its own definition"),
        format!("`{name}` is not defined yet"),
        format!("write `let rec {name} = ...` for a recursive definition (a least fixed point)"),
    )
}

pub(crate) fn unsupported(what: &str, span: Span) -> Fail {
    Fail::new(
        "relaxlab::cat::unsupported",
        span,
        format!("{what} is not supported by relaxlab"),
        "not supported",
        "what relaxlab supports: book: cat.md, Supported and refused",
    )
}

pub(crate) fn too_deep(name: &str, span: Span) -> Fail {
    Fail::new(
        "relaxlab::cat::unsupported",
        span,
        format!("the recursion of `{name}` does not end statically"),
        "unfolded too deeply here",
        "relaxlab unfolds functions before any execution exists: recursion over sets of an execution is not supported",
    )
}

pub(crate) fn no_match(tag: &str, span: Span) -> Fail {
    Fail::new(
        "relaxlab::cat::match",
        span,
        format!("no clause matches the tag '{tag}"),
        "matched here",
        "add a clause for it or a default clause `_ -> ...`",
    )
}

/// `what` needs `wanted`, got `got`.
pub(crate) fn type_error(span: Span, what: &str, wanted: &str, got: &Val) -> Fail {
    Fail::new(
        "relaxlab::cat::type",
        span,
        format!("{what} needs {wanted}, and this is {}", got.describe()),
        got.describe().to_string(),
        "turn an event set S into a relation with [S] (its identity) or S * T (a product); a relation r into a set with domain(r) or range(r)",
    )
}

/// The warning about a `let rec` group whose equations are not monotone
/// and which herd's matching idiom does not cover: the value computed is
/// herd7's, not necessarily a fixed point
/// (book: cat.md, Recursive definitions).
fn not_monotone(span: Span, name: &str, unknown: &str) -> Fail {
    Fail::new(
        "relaxlab::cat::not_monotone",
        span,
        format!(
            "the equation of `{name}` is not monotone in `{unknown}`: it runs as in herd7, whose value need not be a fixed point"
        ),
        "an unknown under `~` or on the right of `\\`",
        "the unknowns start empty and the equations are applied in turn until a round adds nothing to any unknown; that round's values are kept, a fixed point or not (`let rec x = po \\ x` ends with `x` empty), and an iteration that never settles leaves the execution undecided. Equations that only grow with the unknowns define a least fixed point",
    )
}
