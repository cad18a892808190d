//! The instructions of a cat model, run in order: `let` bindings and
//! patterns, checks (`acyclic`, `irreflexive`, `empty`, as `check`,
//! `flag` or `undefined_unless`), `show`, procedures and `call`, `with`,
//! `enum`, `if variant` and `match` over tags.
//!
//! book: cat.md, Instructions

use std::rc::Rc;

use relaxlab_semantics::axiomatic::cat::{Check, CheckKind, Choice, NodeId, Op, Test};

use super::compiler::{Compiler, MAX_DEPTH};
use super::failures::{no_match, self_reference, too_deep, type_error, unsupported};
use super::value::{self, Env, Procedure, Val};
use crate::cat::ast::{self, Ins, InsKind, Name, Pat, Span};
use crate::cat::error::Fail;

impl Compiler<'_> {
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
            // `show` only draws: as in herd7, a name that is not defined
            // (herd's `fences.cat` shows every architecture's fences) or an
            // expression that fails shows nothing.
            InsKind::ShowAs(e, name) => {
                if let Ok(node) = self.expr(e, env).and_then(|v| self.shown_node(v, e.span)) {
                    self.shows.retain(|(n, _)| *n != name.text);
                    self.shows.push((name.text.clone(), node));
                }
                Ok(())
            }
            InsKind::Show(names) => {
                for n in names {
                    let Some(v) = env.lookup(&n.text).cloned() else {
                        continue;
                    };
                    let Ok(node) = self.shown_node(v, n.span) else {
                        continue;
                    };
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
    /// before the `let`. A right-hand side that fails, or that names what
    /// this `let` defines and nothing defined before, makes a binding
    /// that fails where it is used ([`Val::Failed`]), as herd7 evaluates
    /// a binding only then.
    pub(crate) fn let_bindings(
        &mut self,
        bindings: &[ast::Binding],
        env: &Env,
    ) -> Result<Env, Fail> {
        let names: Vec<String> = bindings.iter().flat_map(|b| pat_names(&b.pat)).collect();
        let holds = |c: &ast::VariantCond| self.variant_holds(c);
        let self_references: Vec<Option<Fail>> = bindings
            .iter()
            .map(|b| {
                names
                    .iter()
                    .filter(|n| env.lookup(n).is_none())
                    .find_map(|n| mentions(&b.expr, n, &holds).map(|at| self_reference(n, at)))
            })
            .collect();
        let mut out = env.clone();
        for (b, self_reference) in bindings.iter().zip(self_references) {
            let v = match self_reference {
                Some(fail) => Err(fail),
                None => {
                    let saved = self.defining.len();
                    self.defining.extend(pat_names(&b.pat));
                    let v = self.expr_named(&b.expr, env, &b.pat);
                    self.defining.truncate(saved);
                    v
                }
            };
            out = match v {
                Ok(v) => self.bind_pat(&b.pat, v, b.expr.span, &out)?,
                // herd7 evaluates a binding when it is used: its failure
                // waits until then (`Val::Failed`).
                Err(fail) => {
                    let failed = Val::Failed(Rc::new(fail));
                    pat_names(&b.pat)
                        .iter()
                        .fold(out, |env, n| env.bind(n.as_str(), failed.clone()))
                }
            };
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
fn mentions(e: &ast::Expr, name: &str, holds: &dyn Fn(&ast::VariantCond) -> bool) -> Option<Span> {
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
            mentions(scrutinee, name, holds)
                .or_else(|| mentions(empty, name, holds))
                .or_else(|| (!bound).then(|| mentions(nonempty, name, holds)).flatten())
        }
        // Only the branch the variants choose is evaluated.
        IfVariant {
            cond,
            then,
            otherwise,
        } => mentions(if holds(cond) { then } else { otherwise }, name, holds),
        Tuple(items) | Set(items) => items.iter().find_map(|i| mentions(i, name, holds)),
        Unary(_, a) => mentions(a, name, holds),
        Binary(_, a, b) | App(a, b) => {
            mentions(a, name, holds).or_else(|| mentions(b, name, holds))
        }
        // `try e with d` is `d` when `e` names something undefined.
        Try(_, d) => mentions(d, name, holds),
        Fun(p, body) => (!binds(p)).then(|| mentions(body, name, holds)).flatten(),
        Let {
            rec,
            bindings,
            body,
        } => {
            let bound = bindings.iter().any(|b| binds(&b.pat));
            let in_rhs = if *rec && bound {
                None
            } else {
                bindings.iter().find_map(|b| mentions(&b.expr, name, holds))
            };
            in_rhs.or_else(|| (!bound).then(|| mentions(body, name, holds)).flatten())
        }
        MatchTag {
            scrutinee,
            clauses,
            default,
        } => mentions(scrutinee, name, holds)
            .or_else(|| clauses.iter().find_map(|(_, c)| mentions(c, name, holds)))
            .or_else(|| default.as_ref().and_then(|d| mentions(d, name, holds))),
    }
}
