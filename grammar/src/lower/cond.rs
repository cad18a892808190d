//! Lowering the final condition, the filter, the observed columns and the
//! expectations.
//!
//! A condition names a thread by name or by number (its index in
//! `Program::threads`: top-level threads first, then forked ones) and one
//! of that thread's registers; or a declared location. Names that do not
//! exist are errors with "did you mean".
//!
//! Observed columns (book: language.md, Outcomes and observe):
//! the observables of the condition, then of the filter, then of
//! `observe`/`locations`, in order of appearance and without duplicates;
//! when that list is empty, every register of every thread and then every
//! location.

use relaxlab_semantics::ir::{
    CmpOp, Condition, Expectation, LocId, ModelKey, Observable, Prop, RegId, Subject, ThreadId,
    Verdict,
};

use super::program::Lowerer;
use crate::ast::{self, ObsItem, PropKind, ThreadRef};
use crate::diag::{did_you_mean, sspan, LowerError};

/// Every `expect` key without the `.assert` suffix.
fn model_keys() -> Vec<String> {
    use relaxlab_semantics::ir::{AxModel, OpModel};
    OpModel::ALL
        .iter()
        .map(|m| ModelKey::Op(*m).to_string())
        .chain(AxModel::ALL.iter().map(|m| ModelKey::Ax(*m).to_string()))
        .collect()
}

/// A conjunction or disjunction of `ps` (in order) as a balanced tree of
/// binary nodes: `/\` and `\/` are associative and their operands pure, so
/// the grouping does not change the meaning, and a chain of `n` operands
/// nests `log2 n` deep (a left-leaning tree for two or three operands, as
/// the text groups them).
fn balanced(mut ps: Vec<Prop>, node: fn(Box<Prop>, Box<Prop>) -> Prop) -> Prop {
    // Pair neighbours until one is left; each round halves the list.
    while ps.len() > 1 {
        let mut next = Vec::with_capacity(ps.len().div_ceil(2));
        let mut it = ps.into_iter();
        while let Some(a) = it.next() {
            match it.next() {
                Some(b) => next.push(node(Box::new(a), Box::new(b))),
                None => next.push(a),
            }
        }
        ps = next;
    }
    ps.pop().unwrap_or(Prop::True)
}

impl Lowerer<'_> {
    /// A proposition; an unknown name lowers to `false` after its error.
    pub(super) fn lower_prop(&mut self, p: &ast::Prop) -> Prop {
        match &p.kind {
            PropKind::True => Prop::True,
            PropKind::False => Prop::False,
            PropKind::Atom { obs, op, value } => match self.observable(obs) {
                Some(o) => Prop::Atom(o, *op, *value),
                None => Prop::Atom(Observable::Loc(LocId(0)), CmpOp::Eq, 0),
            },
            PropKind::Not(a) => Prop::Not(Box::new(self.lower_prop(a))),
            PropKind::And(ps) => {
                let ps: Vec<Prop> = ps.iter().map(|q| self.lower_prop(q)).collect();
                balanced(ps, Prop::And)
            }
            PropKind::Or(ps) => {
                let ps: Vec<Prop> = ps.iter().map(|q| self.lower_prop(q)).collect();
                balanced(ps, Prop::Or)
            }
            PropKind::Implies(a, b) => {
                Prop::Implies(Box::new(self.lower_prop(a)), Box::new(self.lower_prop(b)))
            }
        }
    }

    /// The thread a condition names.
    fn thread_ref(&mut self, t: &ThreadRef) -> Option<ThreadId> {
        let names: Vec<&str> = self.threads.iter().map(|t| t.name.as_str()).collect();
        match t {
            ThreadRef::Name(i) => {
                if let Some(k) = names.iter().position(|n| *n == i.name) {
                    return Some(ThreadId::new(k));
                }
                let help = did_you_mean(&i.name, names.iter().copied(), || {
                    format!("the threads are {}", names.join(", "))
                });
                self.errors.push(
                    LowerError::UnknownThread {
                        name: i.name.clone(),
                        span: sspan(i.span),
                        help,
                    }
                    .into(),
                );
                None
            }
            ThreadRef::Index(k, span) => {
                if (*k as usize) < names.len() {
                    return Some(ThreadId(*k));
                }
                self.errors.push(
                    LowerError::UnknownThread {
                        name: k.to_string(),
                        span: sspan(*span),
                        help: format!(
                            "threads are numbered from 0 to {} in the order written",
                            names.len().saturating_sub(1)
                        ),
                    }
                    .into(),
                );
                None
            }
        }
    }

    /// A register of a thread or a location, named in a condition or in
    /// `observe`.
    fn observable(&mut self, o: &ObsItem) -> Option<Observable> {
        match o {
            ObsItem::Reg { thread, reg } => {
                let t = self.thread_ref(thread)?;
                let code = &self.threads[t.index()];
                if let Some(r) = code.regs.iter().position(|r| *r == reg.name) {
                    return Some(Observable::Reg(t, RegId::new(r)));
                }
                let help = did_you_mean(&reg.name, code.regs.iter().map(String::as_str), || {
                    if code.regs.is_empty() {
                        format!("thread `{}` has no registers", code.name)
                    } else {
                        format!(
                            "the registers of `{}` are {}",
                            code.name,
                            code.regs.join(", ")
                        )
                    }
                });
                self.errors.push(
                    LowerError::UnknownRegister {
                        thread: code.name.clone(),
                        reg: reg.name.clone(),
                        span: sspan(reg.span),
                        help,
                    }
                    .into(),
                );
                None
            }
            ObsItem::Loc(l) => match self.loc(&l.name) {
                Some(id) => Some(Observable::Loc(id)),
                None => {
                    self.undeclared(l);
                    None
                }
            },
        }
    }

    /// OBSERVED COLUMNS: condition, filter, `observe`; or everything when
    /// none names anything and no `observe` block is written (an empty
    /// `observe { }` observes nothing: every execution ends in the one
    /// empty state, as herd7 prints a test whose condition names nothing).
    /// With them, what only the filter names.
    pub(super) fn observed(
        &mut self,
        condition: Option<&Condition>,
        filter: Option<&Prop>,
    ) -> (Vec<Observable>, Vec<Observable>) {
        let mut named = Vec::new();
        if let Some(c) = condition {
            c.prop.observables(&mut named);
        }
        let shown = named.len();
        if let Some(f) = filter {
            f.observables(&mut named);
        }
        let filter_end = named.len();
        // Cells the condition, the filter or `observe` name one by one.
        let mut alone: Vec<LocId> = named
            .iter()
            .filter_map(|o| match o {
                Observable::Loc(l) => Some(*l),
                Observable::Reg(..) => None,
            })
            .collect();
        for item in &self.test.observe {
            // A whole array: its cells, in order.
            if let ObsItem::Loc(l) = item {
                if let Some(&a) = self.array_ids.get(l.name.as_str()) {
                    self.arrays[a].observed_whole = true;
                    named.extend(self.arrays[a].cells.iter().map(|&c| Observable::Loc(c)));
                    continue;
                }
            }
            if let Some(o) = self.observable(item) {
                if let Observable::Loc(l) = o {
                    alone.push(l);
                }
                named.push(o);
            }
        }
        // What only the filter names: herd7 lists it in no state.
        let filter_only: Vec<Observable> = named[shown..filter_end]
            .iter()
            .filter(|o| !named[..shown].contains(o) && !named[filter_end..].contains(o))
            .copied()
            .collect();
        for a in &mut self.arrays {
            let mut cells: Vec<LocId> = Vec::new();
            for l in &alone {
                if a.cells.contains(l) && !cells.contains(l) {
                    cells.push(*l);
                }
            }
            a.observed_cells = cells;
        }
        let mut out: Vec<Observable> = Vec::new();
        for o in named {
            if !out.contains(&o) {
                out.push(o);
            }
        }
        if out.is_empty() && !self.test.observe_block {
            for (t, code) in self.threads.iter().enumerate() {
                for r in 0..code.regs.len() {
                    out.push(Observable::Reg(ThreadId::new(t), RegId::new(r)));
                }
            }
            out.extend((0..self.locations.len()).map(|l| Observable::Loc(LocId::new(l))));
        }
        (out, filter_only)
    }

    /// EXPECTATIONS: `MODEL: VERDICT` or `MODEL.assert: never|sometimes`,
    /// one per key.
    pub(super) fn expectations(&mut self) -> Vec<Expectation> {
        let mut out: Vec<Expectation> = Vec::new();
        let mut firsts: Vec<(ModelKey, Subject, ast::Span)> = Vec::new();
        for e in &self.test.expect {
            // Expectations about cat models are the CLI's
            // (`crate::cat_expectations`).
            if crate::is_cat_key(&e.key.name) {
                continue;
            }
            let (model_name, subject) = match e.key.name.strip_suffix(".assert") {
                Some(m) => (m, Subject::Failure),
                None => (e.key.name.as_str(), Subject::Condition),
            };
            let Some(model) = ModelKey::from_name(model_name) else {
                let keys = model_keys();
                let help = did_you_mean(model_name, keys.iter().map(String::as_str), || {
                    format!(
                        "a key is a model ({}), optionally followed by `.assert`",
                        keys.join(", ")
                    )
                });
                self.errors.push(
                    LowerError::UnknownExpectKey {
                        key: e.key.name.clone(),
                        span: sspan(e.key.span),
                        help,
                    }
                    .into(),
                );
                continue;
            };
            if subject == Subject::Failure && e.verdict == Verdict::Always {
                self.errors.push(
                    LowerError::AssertAlways {
                        key: e.key.name.clone(),
                        span: sspan(e.verdict_span),
                    }
                    .into(),
                );
                continue;
            }
            if let Some(&(_, _, first)) =
                firsts.iter().find(|(m, s, _)| *m == model && *s == subject)
            {
                self.errors.push(
                    LowerError::DuplicateExpect {
                        key: e.key.name.clone(),
                        span: sspan(e.key.span),
                        first: sspan(first),
                    }
                    .into(),
                );
                continue;
            }
            firsts.push((model, subject, e.key.span));
            out.push(Expectation {
                model,
                subject,
                verdict: e.verdict,
                span: e.span,
            });
        }
        out
    }
}
