//! Static evaluation of cat expressions: operators on event sets and
//! relations become nodes; applications are unfolded.

use std::rc::Rc;

use relaxlab_semantics::axiomatic::cat::{Choice, Kind, NodeId, Op, SetPrim};

use super::builtins;
use super::compiler::{Compiler, MAX_DEPTH};
use super::failures::{no_match, too_deep, type_error, unsupported};
use super::value::{Closure, Env, Member, Prim, Val};
use crate::cat::ast::{BinOp, Expr, ExprKind, Pat, Span, UnOp};
use crate::cat::error::Fail;

impl Compiler<'_> {
    /// The value of a name.
    pub(crate) fn var(&mut self, name: &str, span: Span, env: &Env) -> Result<Val, Fail> {
        if let Some(v) = env.lookup(name) {
            return Ok(v.clone());
        }
        if self.defining.iter().any(|d| d == name) {
            return Err(super::failures::self_reference(name, span));
        }
        if let Some(why) = builtins::other_arch_tag(self.arch, name) {
            return Err(Fail::new(
                "relaxlab::cat::unknown",
                span,
                format!("`{name}` is not defined for this model's architecture"),
                "not defined here",
                format!("`{name}` is {why}"),
            ));
        }
        let names = env.names();
        let help = match crate::diag::suggest(name, names.iter().map(|n| &**n)) {
            Some(s) => format!("did you mean `{s}`?"),
            None => "define it with `let`, or include the file that defines it".to_string(),
        };
        Err(Fail::new(
            "relaxlab::cat::unknown",
            span,
            format!("unknown identifier `{name}`"),
            "not defined",
            help,
        ))
    }

    /// The tag an expression evaluates to.
    pub(crate) fn tag_value(&mut self, e: &Expr, env: &Env) -> Result<Rc<str>, Fail> {
        match self.expr(e, env)? {
            Val::Tag(t) => Ok(t),
            other => Err(type_error(e.span, "`match`", "a tag", &other)),
        }
    }

    pub(crate) fn expr(&mut self, e: &Expr, env: &Env) -> Result<Val, Fail> {
        match &e.kind {
            ExprKind::Empty => Ok(Val::Empty),
            ExprKind::Universe => Ok(Val::Set(self.b.node(Op::Set(SetPrim::All)))),
            ExprKind::Var(name) => match self.var(name, e.span, env)? {
                Val::Missing(why) => Err(missing(why, e.span)),
                Val::Failed(fail) => Err((*fail).clone()),
                v => Ok(v),
            },
            ExprKind::Tag(t) => {
                if self.tags.contains(t) {
                    Ok(Val::Tag(t.as_str().into()))
                } else {
                    Err(Fail::new(
                        "relaxlab::cat::unknown",
                        e.span,
                        format!("tag '{t} is not declared"),
                        "undeclared tag",
                        "declare tags with `enum NAME = 'a || 'b`",
                    ))
                }
            }
            ExprKind::Tuple(items) => {
                let mut vals = Vec::new();
                for i in items {
                    vals.push(self.expr(i, env)?);
                }
                Ok(Val::Tuple(Rc::new(vals)))
            }
            ExprKind::Set(items) if items.is_empty() => Ok(Val::Empty),
            ExprKind::Set(items) => self.explicit_set(items, env, e.span),
            ExprKind::Unary(op, a) => {
                let v = self.expr(a, env)?;
                self.unary(*op, v, a.span)
            }
            ExprKind::Binary(op, a, b) => {
                let va = self.expr(a, env)?;
                let vb = self.expr(b, env)?;
                self.binary(*op, va, a.span, vb, b.span)
            }
            ExprKind::App(f, a) => {
                let fv = self.expr(f, env)?;
                let av = self.expr(a, env)?;
                self.apply(fv, f.span, av, a.span, e.span)
            }
            ExprKind::Fun(param, body) => Ok(Val::Func(Rc::new(Closure {
                name: "fun".into(),
                param: param.clone(),
                body: body.clone(),
                env: env.clone(),
                recs: None,
            }))),
            ExprKind::Let {
                rec: false,
                bindings,
                body,
            } => {
                let inner = self.let_bindings(bindings, env)?;
                self.expr(body, &inner)
            }
            ExprKind::Let {
                rec: true,
                bindings,
                body,
            } => {
                let inner = self.let_rec_expr(bindings, env, e.span)?;
                self.expr(body, &inner)
            }
            ExprKind::MatchTag {
                scrutinee,
                clauses,
                default,
            } => {
                let tag = self.tag_value(scrutinee, env)?;
                match clauses.iter().find(|(t, _)| *t.text == *tag) {
                    Some((_, body)) => self.expr(body, env),
                    None => match default {
                        Some(d) => self.expr(d, env),
                        None => Err(no_match(&tag, scrutinee.span)),
                    },
                }
            }
            ExprKind::MatchSet {
                scrutinee,
                empty,
                elem,
                rest,
                nonempty,
            } => self.match_set(scrutinee, empty, elem, rest, nonempty, env),
            ExprKind::IfVariant {
                cond,
                then,
                otherwise,
            } => {
                if self.variant_holds(cond) {
                    self.expr(then, env)
                } else {
                    self.expr(otherwise, env)
                }
            }
            ExprKind::If => Err(unsupported(
                "`if` on values of an execution (`=`, `subset`, `in`)",
                e.span,
            )),
            // TRY: herd7 evaluates `d` when `e` fails; here, when `e`
            // cannot be compiled (an unknown name, a missing primitive, a
            // type error).
            ExprKind::Try(a, d) => {
                let saved = self.defining.clone();
                match self.expr(a, env) {
                    Ok(v) => Ok(v),
                    Err(_) => {
                        self.defining = saved;
                        self.expr(d, env)
                    }
                }
            }
        }
    }

    fn let_rec_expr(
        &mut self,
        bindings: &[crate::cat::ast::Binding],
        env: &Env,
        span: Span,
    ) -> Result<Env, Fail> {
        // The same as the instruction: recursive functions or a fixed point.
        let ins = crate::cat::ast::Ins {
            kind: crate::cat::ast::InsKind::Let {
                rec: true,
                bindings: bindings.to_vec(),
            },
            span,
        };
        let mut inner = env.clone();
        self.instructions(std::slice::from_ref(&ins), &mut inner)?;
        Ok(inner)
    }

    /// A value as a node of `kind` (the empty value becomes the empty set
    /// or relation).
    pub(crate) fn as_kind(
        &mut self,
        v: Val,
        kind: Kind,
        span: Span,
        what: &str,
    ) -> Result<NodeId, Fail> {
        match (v, kind) {
            (Val::Set(n), Kind::Set) | (Val::Rel(n), Kind::Rel) => Ok(n),
            (Val::Empty, Kind::Set) => Ok(self.b.node(Op::EmptySet)),
            (Val::Empty, Kind::Rel) => Ok(self.b.node(Op::EmptyRel)),
            (v, Kind::Set) => Err(type_error(span, what, "an event set", &v)),
            (v, Kind::Rel) => Err(type_error(span, what, "a relation", &v)),
            (v, Kind::Family) => Err(type_error(span, what, "a set of sets", &v)),
        }
    }

    fn rel(&mut self, v: Val, span: Span, what: &str) -> Result<NodeId, Fail> {
        self.as_kind(v, Kind::Rel, span, what)
    }

    fn set(&mut self, v: Val, span: Span, what: &str) -> Result<NodeId, Fail> {
        self.as_kind(v, Kind::Set, span, what)
    }

    fn unary(&mut self, op: UnOp, v: Val, span: Span) -> Result<Val, Fail> {
        let what = match op {
            UnOp::Compl => "`~`",
            UnOp::Plus => "`+`",
            UnOp::Star => "`*`",
            UnOp::Opt => "`?`",
            UnOp::Inv => "`^-1`",
            UnOp::ToId => "`[...]`",
        };
        match (op, v) {
            (UnOp::Compl, Val::Set(n)) => Ok(Val::Set(self.b.node(Op::SetCompl(n)))),
            (UnOp::Compl, v) => {
                let n = self.rel(v, span, what)?;
                Ok(Val::Rel(self.b.node(Op::Compl(n))))
            }
            (UnOp::ToId, Val::Empty) => Ok(Val::Empty),
            (UnOp::ToId, v) => {
                let s = self.set(v, span, what)?;
                Ok(Val::Rel(self.b.node(Op::IdOn(s))))
            }
            (UnOp::Plus | UnOp::Inv, Val::Empty) => Ok(Val::Empty),
            (op, v) => {
                let r = self.rel(v, span, what)?;
                Ok(Val::Rel(self.b.node(match op {
                    UnOp::Plus => Op::Plus(r),
                    UnOp::Star => Op::Star(r),
                    UnOp::Opt => Op::Opt(r),
                    _ => Op::Inverse(r),
                })))
            }
        }
    }

    fn binary(&mut self, op: BinOp, a: Val, sa: Span, b: Val, sb: Span) -> Result<Val, Fail> {
        let what = format!("`{}`", op.symbol());
        match op {
            // `x ++ S`: an element added to a set (herd7's `++`).
            BinOp::Add => match (a, b) {
                (Val::Event(e), Val::Empty) => Ok(Val::Set(e)),
                (Val::Event(e), Val::Set(s)) => Ok(Val::Set(self.b.node(Op::SetUnion(e, s)))),
                (Val::Pair(p), Val::Empty) => Ok(Val::Rel(p)),
                (Val::Pair(p), Val::Rel(r)) => Ok(Val::Rel(self.b.node(Op::Union(p, r)))),
                (Val::Tag(t), Val::Tags(ts)) => {
                    let mut v = ts.as_ref().clone();
                    if !v.contains(&t) {
                        v.insert(0, t);
                    }
                    Ok(Val::Tags(Rc::new(v)))
                }
                (Val::Tag(t), Val::Empty) => Ok(Val::Tags(Rc::new(vec![t]))),
                (a @ (Val::Event(_) | Val::Pair(_) | Val::Tag(_)), b) => Err(type_error(
                    sb,
                    &what,
                    match a {
                        Val::Event(_) => "an event set on its right",
                        Val::Pair(_) => "a relation on its right",
                        _ => "a set of tags on its right",
                    },
                    &b,
                )),
                (a, _) => Err(type_error(
                    sa,
                    &what,
                    "an element (an event, a pair or a tag) on its left",
                    &a,
                )),
            },
            BinOp::Cart => {
                if matches!(a, Val::Empty) || matches!(b, Val::Empty) {
                    self.set(a, sa, &what)?;
                    self.set(b, sb, &what)?;
                    return Ok(Val::Empty);
                }
                let s = self.set(a, sa, &what)?;
                let t = self.set(b, sb, &what)?;
                Ok(Val::Rel(self.b.node(Op::Cartesian(s, t))))
            }
            BinOp::Seq => {
                if matches!(a, Val::Empty) || matches!(b, Val::Empty) {
                    self.rel(a, sa, &what)?;
                    self.rel(b, sb, &what)?;
                    return Ok(Val::Empty);
                }
                let r = self.rel(a, sa, &what)?;
                let s = self.rel(b, sb, &what)?;
                Ok(Val::Rel(self.b.node(Op::Seq(r, s))))
            }
            BinOp::Union | BinOp::Inter | BinOp::Diff => {
                let kind = match (&a, &b) {
                    (Val::Empty, Val::Empty) => return Ok(Val::Empty),
                    (Val::Set(_), _) | (Val::Empty, Val::Set(_)) => Kind::Set,
                    (Val::Rel(_), _) | (Val::Empty, Val::Rel(_)) => Kind::Rel,
                    (Val::Empty, other) => {
                        return Err(type_error(sb, &what, "event sets or relations", other))
                    }
                    (other, _) => {
                        return Err(type_error(sa, &what, "event sets or relations", other))
                    }
                };
                // The empty value is neutral for `|`, absorbing for `&`.
                let (a_empty, b_empty) = (matches!(a, Val::Empty), matches!(b, Val::Empty));
                match (op, a_empty, b_empty) {
                    (BinOp::Union, true, _) => {
                        let n = self.as_kind(b, kind, sb, &what)?;
                        return Ok(wrap(kind, n));
                    }
                    (BinOp::Union | BinOp::Diff, _, true) => {
                        let n = self.as_kind(a, kind, sa, &what)?;
                        return Ok(wrap(kind, n));
                    }
                    (BinOp::Inter, true, _) | (BinOp::Inter, _, true) | (BinOp::Diff, true, _) => {
                        self.as_kind(a, kind, sa, &what)?;
                        self.as_kind(b, kind, sb, &what)?;
                        return Ok(Val::Empty);
                    }
                    _ => {}
                }
                let x = self.as_kind(a, kind, sa, &what)?;
                let y = self.as_kind(b, kind, sb, &what)?;
                let node = match (op, kind) {
                    (BinOp::Union, Kind::Set) => Op::SetUnion(x, y),
                    (BinOp::Inter, Kind::Set) => Op::SetInter(x, y),
                    (_, Kind::Set) => Op::SetDiff(x, y),
                    (BinOp::Union, Kind::Rel) => Op::Union(x, y),
                    (BinOp::Inter, Kind::Rel) => Op::Inter(x, y),
                    (_, Kind::Rel) => Op::Diff(x, y),
                    (_, Kind::Family) => unreachable!("no family kind here"),
                };
                Ok(wrap(kind, self.b.node(node)))
            }
        }
    }

    /// APPLICATION: unfolds a function on its argument.
    pub(crate) fn apply(
        &mut self,
        f: Val,
        sf: Span,
        arg: Val,
        sa: Span,
        span: Span,
    ) -> Result<Val, Fail> {
        match f {
            Val::Func(c) => {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    self.depth -= 1;
                    return Err(too_deep(&c.name, span));
                }
                let result = self.unfold(&c, arg, sa);
                self.depth -= 1;
                result
            }
            Val::Prim(Prim::Domain | Prim::Range) => {
                let Val::Empty = arg else {
                    let r = self.rel(arg, sa, "`domain`/`range`")?;
                    let op = match f {
                        Val::Prim(Prim::Domain) => Op::Domain(r),
                        _ => Op::Range(r),
                    };
                    return Ok(Val::Set(self.b.node(op)));
                };
                Ok(Val::Empty)
            }
            Val::Prim(p @ (Prim::Linearisations | Prim::GenerateOrders)) => {
                let what = match p {
                    Prim::Linearisations => "`linearisations`",
                    _ => "`generate_orders`",
                };
                let items = match &arg {
                    Val::Tuple(t) if t.len() == 2 => t.as_ref().clone(),
                    other => {
                        let example = match p {
                            Prim::Linearisations => "linearisations(M, po)",
                            _ => "generate_orders(W, co0)",
                        };
                        let mut fail = type_error(sa, what, "a pair (event set, relation)", other);
                        fail.help = format!(
                            "give it the events to order and a relation every order must contain, as in `{example}`"
                        );
                        return Err(fail);
                    }
                };
                let set = self.set(items[0].clone(), sa, what)?;
                let rel = self.rel(items[1].clone(), sa, what)?;
                Ok(Val::Choices(match p {
                    Prim::Linearisations => Choice::Linearisations { set, rel },
                    _ => Choice::PerLocation { set, rel },
                }))
            }
            Val::Prim(Prim::Map) => Ok(Val::MapWith(Rc::new(arg))),
            Val::MapWith(f) => self.map(f.as_ref().clone(), sf, arg, sa),
            Val::Prim(Prim::DifferentValues) => match arg {
                Val::Empty => Ok(Val::Empty),
                arg => {
                    let r = self.rel(arg, sa, "`different-values`")?;
                    Ok(Val::Rel(self.b.node(Op::DifferentValues(r))))
                }
            },
            Val::Prim(Prim::ClassesLoc) => {
                let s = match arg {
                    Val::Empty => self.b.node(Op::EmptySet),
                    arg => self.set(arg, sa, "`classes-loc`")?,
                };
                Ok(Val::Family(
                    self.b.node(Op::ClassesLoc(s)),
                    Rc::new(Member::Set),
                ))
            }
            Val::Prim(Prim::Cross) => {
                let family = match &arg {
                    Val::Family(f, m) => match &**m {
                        Member::Family(inner) if !matches!(**inner, Member::Family(_)) => Some(*f),
                        _ => None,
                    },
                    _ => None,
                };
                match family {
                    Some(f) => Ok(Val::Family(
                        self.b.node(Op::Cross(f)),
                        Rc::new(Member::Rel),
                    )),
                    None => Err(type_error(
                        sa,
                        "`cross`",
                        "a set of sets of relations (such as `map f S` where f gives sets of relations)",
                        &arg,
                    )),
                }
            }
            Val::Missing(why) => Err(missing(why, sf)),
            Val::Failed(fail) => Err((*fail).clone()),
            other => Err(type_error(sf, "an application", "a function", &other)),
        }
    }

    /// `map f X`: over a set or relation of the execution, a family built
    /// on the element; over a set of tags, known at once (a set of the
    /// values `f` gives).
    fn map(&mut self, f: Val, sf: Span, source: Val, sa: Span) -> Result<Val, Fail> {
        let (node, kind) = match source {
            Val::Set(n) => (n, Kind::Set),
            Val::Rel(n) => (n, Kind::Rel),
            Val::Empty => {
                // Nothing to go through: the empty family.
                let n = self.b.node(Op::EmptySet);
                (n, Kind::Set)
            }
            other => {
                return Err(type_error(
                    sa,
                    "`map`",
                    "an event set or a relation to go through",
                    &other,
                ))
            }
        };
        let param = self.b.map_param(kind);
        let elem = match kind {
            Kind::Set => Val::Event(param),
            _ => Val::Pair(param),
        };
        let body = self.apply(f, sf, elem, sa, sf.to(sa))?;
        let (body, member) = match body {
            Val::Set(n) => (n, Member::Set),
            Val::Rel(n) => (n, Member::Rel),
            Val::Empty => (self.b.node(Op::EmptyRel), Member::Rel),
            Val::Family(n, m) => (n, Member::Family(m)),
            other => {
                return Err(type_error(
                    sf,
                    "the function given to `map`",
                    "to return an event set, a relation or a set of them",
                    &other,
                ))
            }
        };
        Ok(Val::Family(self.b.map(param, node, body), Rc::new(member)))
    }

    /// `{ e1, ..., en }`: events (inside a `map`), pairs, or tags.
    fn explicit_set(&mut self, items: &[Expr], env: &Env, span: Span) -> Result<Val, Fail> {
        let mut vals = Vec::new();
        for i in items {
            vals.push((self.expr(i, env)?, i.span));
        }
        if vals.iter().all(|(v, _)| matches!(v, Val::Tag(_))) {
            let mut tags: Vec<Rc<str>> = Vec::new();
            for (v, _) in vals {
                if let Val::Tag(t) = v {
                    if !tags.contains(&t) {
                        tags.push(t);
                    }
                }
            }
            return Ok(Val::Tags(Rc::new(tags)));
        }
        let mut acc: Option<Val> = None;
        for (v, s) in vals {
            let part = match v {
                Val::Event(n) => Val::Set(n),
                Val::Pair(n) => Val::Rel(n),
                other => {
                    return Err(type_error(
                        s,
                        "an explicit set `{ ... }`",
                        "events, pairs of events or tags",
                        &other,
                    ))
                }
            };
            acc = Some(match acc {
                None => part,
                Some(a) => self.binary(BinOp::Union, a, span, part, s)?,
            });
        }
        Ok(acc.unwrap_or(Val::Empty))
    }

    /// `match S with {} -> e1 || x ++ rest -> e2 end` on a set of tags:
    /// known at once. On a set of an execution it would need the
    /// execution: refused, `map` being the way to go through one.
    #[allow(clippy::too_many_arguments)]
    fn match_set(
        &mut self,
        scrutinee: &Expr,
        empty: &Expr,
        elem: &Option<crate::cat::ast::Name>,
        rest: &Option<crate::cat::ast::Name>,
        nonempty: &Expr,
        env: &Env,
    ) -> Result<Val, Fail> {
        let (first, tail) = match self.expr(scrutinee, env)? {
            Val::Empty => return self.expr(empty, env),
            Val::Tags(ts) if ts.is_empty() => return self.expr(empty, env),
            Val::Tags(ts) => (Val::Tag(ts[0].clone()), Val::Tags(Rc::new(ts[1..].to_vec()))),
            _ => {
                return Err(Fail::new(
                    "relaxlab::cat::unsupported",
                    scrutinee.span,
                    "a match on the events of an execution is not supported",
                    "a set of an execution",
                    "relaxlab compiles models before any execution exists: go through a set or a relation with `map f S` (and `cross` of herd7's cross.cat), which relaxlab computes on each execution",
                ))
            }
        };
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(too_deep("match", scrutinee.span));
        }
        let mut inner = env.clone();
        if let Some(n) = elem {
            inner = inner.bind(n.text.as_str(), first);
        }
        if let Some(n) = rest {
            inner = inner.bind(n.text.as_str(), tail);
        }
        let r = self.expr(nonempty, &inner);
        self.depth -= 1;
        r
    }

    fn unfold(&mut self, c: &Closure, arg: Val, sa: Span) -> Result<Val, Fail> {
        let mut env = c.env.clone();
        if let Some(recs) = &c.recs {
            for f in recs.iter() {
                env = env.bind(
                    f.name.clone(),
                    Val::Func(Rc::new(Closure {
                        name: f.name.clone(),
                        param: f.param.clone(),
                        body: f.body.clone(),
                        env: c.env.clone(),
                        recs: Some(recs.clone()),
                    })),
                );
            }
        }
        // A one-name parameter takes the whole argument, a tuple pattern
        // destructures it.
        let env = match &c.param {
            Pat::Tuple(names) if names.len() == 1 => {
                self.bind_pat(&Pat::Var(names[0].clone()), arg, sa, &env)?
            }
            p => self.bind_pat(p, arg, sa, &env)?,
        };
        let saved = std::mem::take(&mut self.defining);
        let result = self.expr(&c.body, &env);
        self.defining = saved;
        result
    }
}

fn wrap(kind: Kind, n: NodeId) -> Val {
    match kind {
        Kind::Set => Val::Set(n),
        Kind::Rel => Val::Rel(n),
        Kind::Family => Val::Family(n, Rc::new(Member::Rel)),
    }
}

fn missing(why: &str, span: Span) -> Fail {
    Fail::new(
        "relaxlab::cat::unsupported",
        span,
        why.to_string(),
        "not provided by relaxlab",
        "what relaxlab provides: book: cat.md, Predefined names",
    )
}
