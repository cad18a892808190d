//! `let rec`: recursive functions, unfolded where they are applied, and
//! the least fixed point of equations over event sets and relations,
//! which becomes a group of the relation program iterated from empty.
//! The unknowns' kinds are inferred from the equations' shapes; a group
//! that is not monotone runs as in herd7, with a warning.
//!
//! book: cat.md, Recursive definitions

use std::collections::HashSet;
use std::rc::Rc;

use relaxlab_semantics::axiomatic::cat::{Kind, NodeId, Op};

use super::compiler::Compiler;
use super::failures::unsupported;
use super::value::{self, Env, Val};
use crate::cat::ast::{self, Name, Pat, Span};
use crate::cat::error::Fail;

impl Compiler<'_> {
    /// `let rec`: recursive functions, or the least fixed point of
    /// equations over sets and relations.
    pub(super) fn let_rec(
        &mut self,
        bindings: &[ast::Binding],
        env: &Env,
        span: Span,
    ) -> Result<Env, Fail> {
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
