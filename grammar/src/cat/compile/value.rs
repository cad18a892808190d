//! Values of the static evaluation of a cat model, and environments.
//!
//! Event sets and relations are nodes of the relation program the
//! evaluator runs per execution; everything else (tags, tuples,
//! functions, procedures) is known before any execution exists and is
//! evaluated away here: functions are unfolded where they are applied.

use std::rc::Rc;

use relaxlab_semantics::axiomatic::cat::{Choice, NodeId};

use crate::cat::ast::{Expr, Ins, Pat};
use crate::cat::error::Fail;

/// A static value.
#[derive(Clone, Debug)]
pub(crate) enum Val {
    Set(NodeId),
    Rel(NodeId),
    /// `0` or `{}`: the empty set and the empty relation at once.
    Empty,
    Tag(Rc<str>),
    /// `()` and tuples.
    Tuple(Rc<Vec<Val>>),
    Func(Rc<Closure>),
    Prim(Prim),
    Proc(Rc<Procedure>),
    /// A set of relations `with` can choose from.
    Choices(Choice),
    /// A set of tags: an `enum`'s, or `{'a, 'b}`.
    Tags(Rc<Vec<Rc<str>>>),
    /// An event: the element `map` binds when it goes through a set (the
    /// node is the singleton set holding it).
    Event(NodeId),
    /// A pair of events: the element `map` binds when it goes through a
    /// relation (the node is the singleton relation).
    Pair(NodeId),
    /// A family computed on the execution (herd7's set of sets): what its
    /// members are.
    Family(NodeId, Rc<Member>),
    /// `map f`, waiting for the set or relation to go through.
    MapWith(Rc<Val>),
    /// A name herd7 defines that relaxlab does not provide: refused where
    /// used, with this explanation.
    Missing(&'static str),
    /// A `let` binding whose right-hand side failed: herd7 evaluates a
    /// binding only when it is used, so the failure is reported where the
    /// binding is used, and not at all if it never is.
    /// (book: cat.md, Lazy bindings)
    Failed(Rc<Fail>),
}

impl Val {
    /// What the value is, for messages.
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Val::Set(_) => "an event set",
            Val::Rel(_) => "a relation",
            Val::Empty => "the empty set",
            Val::Tag(_) => "a tag",
            Val::Tuple(t) if t.is_empty() => "the empty tuple",
            Val::Tuple(_) => "a tuple",
            Val::Func(_) | Val::Prim(_) => "a function",
            Val::Proc(_) => "a procedure",
            Val::Choices(_) => "a set of relations",
            Val::Tags(_) => "a set of tags",
            Val::Event(_) => "an event",
            Val::Pair(_) => "a pair of events",
            Val::Family(_, m) => match **m {
                Member::Set => "a set of event sets",
                Member::Rel => "a set of relations",
                Member::Family(_) => "a set of sets",
            },
            Val::MapWith(_) => "a function",
            Val::Missing(_) => "a herd7 primitive relaxlab does not provide",
            Val::Failed(_) => "a binding that failed",
        }
    }
}

/// What the members of a family are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Member {
    Set,
    Rel,
    Family(Rc<Member>),
}

/// Primitive functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Prim {
    /// `map f X`: `f e` for each element e of X.
    Map,
    /// herd7's `different-values(r)`.
    DifferentValues,
    /// herd7's `classes-loc(S)`: S's events grouped by location.
    ClassesLoc,
    /// `cross(F)` of herd7's `cross.cat`: every union of one member of each
    /// family of F.
    Cross,
    /// `domain(r)`: the events some pair of r starts from.
    Domain,
    /// `range(r)`: the events some pair of r ends at.
    Range,
    /// `linearisations(S, r)`: the strict total orders of S extending r.
    Linearisations,
    /// `generate_orders(S, r)` (herd7's `cross.cat`): the relations that
    /// order the events of S at each location, extending r.
    GenerateOrders,
}

/// A function value: its parameter, body and the environment it was
/// defined in (static scoping); `recs` are the functions of its `let
/// rec` group, bound again around each unfolding.
#[derive(Debug)]
pub(crate) struct Closure {
    pub name: Rc<str>,
    pub param: Pat,
    pub body: Rc<Expr>,
    pub env: Env,
    pub recs: Option<Rc<Vec<RecFun>>>,
}

/// One function of a `let rec f x = ... and g y = ...`.
#[derive(Debug)]
pub(crate) struct RecFun {
    pub name: Rc<str>,
    pub param: Pat,
    pub body: Rc<Expr>,
}

/// A procedure: instructions run by `call`.
#[derive(Debug)]
pub(crate) struct Procedure {
    pub name: Rc<str>,
    pub param: Pat,
    pub body: Rc<Vec<Ins>>,
    pub env: Env,
}

/// An environment: a persistent list of bindings, the latest first.
#[derive(Clone, Debug, Default)]
pub(crate) struct Env(Option<Rc<Binding>>);

#[derive(Debug)]
pub(crate) struct Binding {
    name: Rc<str>,
    val: Val,
    next: Env,
}

impl Drop for Binding {
    /// Unlinks the list iteratively: a long environment must not be
    /// dropped by recursion.
    fn drop(&mut self) {
        let mut next = self.next.0.take();
        while let Some(rc) = next {
            match Rc::try_unwrap(rc) {
                Ok(mut b) => next = b.next.0.take(),
                Err(_) => break,
            }
        }
    }
}

impl Env {
    pub(crate) fn lookup(&self, name: &str) -> Option<&Val> {
        let mut cur = self.0.as_deref();
        while let Some(b) = cur {
            if &*b.name == name {
                return Some(&b.val);
            }
            cur = b.next.0.as_deref();
        }
        None
    }

    pub(crate) fn bind(&self, name: impl Into<Rc<str>>, val: Val) -> Env {
        Env(Some(Rc::new(Binding {
            name: name.into(),
            val,
            next: self.clone(),
        })))
    }

    /// Every bound name, latest first (for "did you mean").
    pub(crate) fn names(&self) -> Vec<Rc<str>> {
        let mut out = Vec::new();
        let mut cur = self.0.as_deref();
        while let Some(b) = cur {
            out.push(b.name.clone());
            cur = b.next.0.as_deref();
        }
        out
    }
}
