//! Static evaluation of cat expressions: operators on event sets and
//! relations become nodes; applications are unfolded.

use std::rc::Rc;

use relaxlab_semantics::axiomatic::cat::{Choice, Kind, NodeId, Op, SetPrim};

use super::value::{Closure, Env, Prim, Val};
use super::{builtins, no_match, too_deep, type_error, unsupported, Compiler, MAX_DEPTH};
use crate::cat::ast::{BinOp, Expr, ExprKind, Pat, Span, UnOp};
use crate::cat::error::Fail;

impl Compiler<'_> {
    /// The value of a name.
    pub(crate) fn var(&mut self, name: &str, span: Span, env: &Env) -> Result<Val, Fail> {
        if let Some(v) = env.lookup(name) {
            return Ok(v.clone());
        }
        if self.defining.iter().any(|d| d == name) {
            return Err(super::self_reference(name, span));
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
            ExprKind::Set(_) => Err(unsupported("an explicit set of values `{ ... }`", e.span)),
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
            ExprKind::MatchSet => Err(unsupported(
                "pattern matching on sets (`match ... with {} -> ...`)",
                e.span,
            )),
            ExprKind::If => Err(unsupported("`if ... then ... else`", e.span)),
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
            BinOp::Add => Err(unsupported("set addition `++`", sa.to(sb))),
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
            Val::Missing(why) => Err(missing(why, sf)),
            other => Err(type_error(sf, "an application", "a function", &other)),
        }
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
