//! Lowering a syntax tree to the IR: the whole program.
//!
//! The order of the work, and why:
//! 1. locations from `init` (a duplicate is an error pointing at the first);
//! 2. the thread table: top-level threads in the order written, then every
//!    `fork` in source order (preorder: an outer fork before the forks of
//!    its body), so that a `Fork` instruction knows its child's id before
//!    the child is lowered;
//! 3. each thread's code ([`super::stmt`]);
//! 4. location atomicity from the uses seen in 3;
//! 5. condition, filter, observed columns and expectations
//!    ([`super::cond`]), which need the registers found in 3.
//!
//! Every error is collected; nothing stops at the first.

use std::collections::{BTreeMap, HashMap};

use relaxlab_semantics::ir::{
    Array, Atomicity, Condition, InstrId, LocId, Location, Program, Span, ThreadCode, ThreadId,
    ThreadKind,
};

use crate::ast::{self, Stmt, StmtKind};
use crate::diag::{sspan, Error, Errors, LowerError};
use crate::fmt::condition_text;

/// How a location has been accessed so far.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Uses {
    pub(super) atomic: bool,
    pub(super) non_atomic: bool,
}

/// A thread to lower: its name, body and where it comes from.
#[derive(Debug)]
pub(super) struct ThreadSlot<'t> {
    pub(super) name: &'t ast::Ident,
    pub(super) body: &'t ast::Block,
    pub(super) span: Span,
    /// `None` for a top-level thread; the parent of a forked one.
    pub(super) parent: Option<ThreadId>,
}

/// The state of lowering one test.
#[derive(Debug)]
pub(super) struct Lowerer<'t> {
    pub(super) test: &'t ast::Test,
    pub(super) errors: Vec<Error>,
    pub(super) locations: Vec<Location>,
    pub(super) loc_ids: BTreeMap<&'t str, LocId>,
    /// The arrays of `init`, their cells among `locations`.
    pub(super) arrays: Vec<Array>,
    pub(super) array_ids: BTreeMap<&'t str, usize>,
    pub(super) uses: Vec<Uses>,
    pub(super) slots: Vec<ThreadSlot<'t>>,
    /// The first slot of each thread name (looked up, never iterated).
    pub(super) slot_ids: BTreeMap<&'t str, usize>,
    /// The id of each forked thread, keyed by the address of its `fork`
    /// statement (looked up, never iterated).
    pub(super) fork_ids: HashMap<*const Stmt, ThreadId>,
    /// Where each forked thread is forked: filled while lowering parents.
    pub(super) fork_sites: Vec<Option<(ThreadId, InstrId)>>,
    pub(super) threads: Vec<ThreadCode>,
}

/// The most threads (top-level and forked) a test may have. Every engine
/// enumerates interleavings or orders whose number grows exponentially
/// with the threads; and a state of the exhaustive explorer holds a word
/// per thread, so one with 10^5 threads and 10^5 successors would need
/// 40 GB before any bound could stop it.
pub(crate) const MAX_THREADS: usize = 1024;

/// Lowers `test` to a [`Program`], or reports every static error.
pub(crate) fn lower(test: &ast::Test) -> Result<Program, Errors> {
    let mut l = Lowerer {
        test,
        errors: Vec::new(),
        locations: Vec::new(),
        loc_ids: BTreeMap::new(),
        arrays: Vec::new(),
        array_ids: BTreeMap::new(),
        uses: Vec::new(),
        slots: Vec::new(),
        slot_ids: BTreeMap::new(),
        fork_ids: HashMap::new(),
        fork_sites: Vec::new(),
        threads: Vec::new(),
    };
    l.declare_locations();
    l.declare_threads();
    if let Some(extra) = l.slots.get(MAX_THREADS) {
        // Nothing past this is worth checking: no engine takes the test.
        let err = LowerError::TooManyThreads {
            count: l.slots.len(),
            max: MAX_THREADS,
            span: sspan(extra.name.span),
        };
        return Err(Errors::new(vec![err.into()]));
    }
    for t in 0..l.slots.len() {
        let code = l.lower_thread(ThreadId::new(t));
        l.threads.push(code);
    }
    l.set_fork_sites();
    l.infer_atomicity();
    let condition = test.condition.as_ref().map(|c| Condition {
        quantifier: match c.quantifier {
            ast::Quantifier::Exists => relaxlab_semantics::ir::Quantifier::Exists,
            ast::Quantifier::NotExists => relaxlab_semantics::ir::Quantifier::NotExists,
            ast::Quantifier::Forall => relaxlab_semantics::ir::Quantifier::Forall,
        },
        prop: l.lower_prop(&c.prop),
        text: condition_text(c),
    });
    let filter = test.filter.as_ref().map(|p| l.lower_prop(p));
    let (observed, filter_only) = l.observed(condition.as_ref(), filter.as_ref());
    let expectations = l.expectations();
    if !l.errors.is_empty() {
        return Err(Errors::new(l.errors));
    }
    let toplevel = test.threads.len();
    Ok(Program {
        c: None,
        herd_reading: None,
        arrays: l.arrays,
        name: test.name.name.clone(),
        doc: test.doc.clone(),
        locations: l.locations,
        threads: l.threads,
        toplevel,
        condition,
        filter,
        filter_only,
        observed,
        expectations,
    })
}

impl<'t> Lowerer<'t> {
    /// INIT: one location per entry, in order, and one per cell of an
    /// array; a missing value is 0.
    fn declare_locations(&mut self) {
        for e in &self.test.init {
            let first = self
                .loc_ids
                .get(e.loc.name.as_str())
                .map(|&l| self.locations[l.index()].span)
                .or_else(|| {
                    self.array_ids
                        .get(e.loc.name.as_str())
                        .map(|&a| self.locations[self.arrays[a].cells[0].index()].span)
                });
            if let Some(first) = first {
                self.errors.push(
                    LowerError::DuplicateLocation {
                        name: e.loc.name.clone(),
                        span: sspan(e.loc.span),
                        first: sspan(first),
                    }
                    .into(),
                );
                continue;
            }
            if let Some(array) = &e.array {
                self.declare_array(e, array);
                continue;
            }
            self.loc_ids
                .insert(e.loc.name.as_str(), LocId::new(self.locations.len()));
            self.locations.push(Location {
                name: e.loc.name.clone(),
                init: e.value.unwrap_or(0),
                atomicity: Atomicity::Atomic,
                span: e.loc.span,
            });
            self.uses.push(Uses::default());
        }
    }

    /// An array: one location per cell, named `t[0]`, `t[1]`, ...
    fn declare_array(&mut self, e: &'t ast::InitEntry, array: &'t ast::ArrayInit) {
        let mut cells = Vec::with_capacity(array.len);
        for (i, cell) in array.cells.iter().enumerate() {
            let id = LocId::new(self.locations.len());
            self.loc_ids.insert(cell.as_str(), id);
            cells.push(id);
            self.locations.push(Location {
                name: cell.clone(),
                init: array
                    .values
                    .as_ref()
                    .and_then(|v| v.get(i).copied())
                    .unwrap_or(0),
                atomicity: Atomicity::Atomic,
                span: e.loc.span,
            });
            self.uses.push(Uses::default());
        }
        self.array_ids
            .insert(e.loc.name.as_str(), self.arrays.len());
        self.arrays.push(Array {
            name: e.loc.name.clone(),
            cells,
            observed_whole: false,
            observed_cells: Vec::new(),
        });
    }

    /// THREAD TABLE: top-level threads, then forks in source order. Every
    /// thread name is unique.
    fn declare_threads(&mut self) {
        for t in &self.test.threads {
            self.add_slot(ThreadSlot {
                name: &t.name,
                body: &t.body,
                span: t.span,
                parent: None,
            });
        }
        let toplevel = self.slots.len();
        for t in 0..toplevel {
            let body = self.slots[t].body;
            self.declare_forks(body, ThreadId::new(t));
        }
    }

    fn declare_forks(&mut self, block: &'t ast::Block, parent: ThreadId) {
        for s in &block.stmts {
            match &s.kind {
                StmtKind::Fork { name, body, .. } => {
                    let id = ThreadId::new(self.slots.len());
                    self.fork_ids.insert(s as *const Stmt, id);
                    self.add_slot(ThreadSlot {
                        name,
                        body,
                        span: s.span,
                        parent: Some(parent),
                    });
                    self.declare_forks(body, id);
                }
                _ => {
                    for b in s.blocks() {
                        self.declare_forks(b, parent);
                    }
                }
            }
        }
    }

    fn add_slot(&mut self, slot: ThreadSlot<'t>) {
        let first = self.slot_ids.get(slot.name.name.as_str()).copied();
        if let Some(first) = first.and_then(|i| self.slots.get(i)) {
            let help = if slot.parent.is_some() {
                "a forked thread needs a name of its own: rename this one".to_string()
            } else {
                "rename one of the two threads".to_string()
            };
            self.errors.push(
                LowerError::DuplicateThread {
                    name: slot.name.name.clone(),
                    span: sspan(slot.name.span),
                    first: sspan(first.name.span),
                    help,
                }
                .into(),
            );
        }
        self.slot_ids
            .entry(slot.name.name.as_str())
            .or_insert(self.slots.len());
        self.slots.push(slot);
        self.fork_sites.push(None);
    }

    /// FORKED THREADS: each records the instruction that forks it.
    fn set_fork_sites(&mut self) {
        for (t, site) in self.fork_sites.iter().enumerate() {
            if let Some((parent, at)) = site {
                self.threads[t].kind = ThreadKind::Forked {
                    parent: *parent,
                    at: *at,
                };
            }
        }
    }

    /// ATOMICITY, inferred from the uses: `Mixed` when both kinds occur.
    fn infer_atomicity(&mut self) {
        for (loc, uses) in self.locations.iter_mut().zip(&self.uses) {
            loc.atomicity = match (uses.atomic, uses.non_atomic) {
                (true, true) => Atomicity::Mixed,
                (false, true) => Atomicity::NonAtomic,
                _ => Atomicity::Atomic,
            };
        }
    }

    /// The location a name denotes in a thread, if it is declared.
    pub(super) fn loc(&self, name: &str) -> Option<LocId> {
        self.loc_ids.get(name).copied()
    }

    /// An undeclared location, with "did you mean"; a whole array where a
    /// location is needed, a cell past an array's end, and a cell of a
    /// name that is no array are each told so.
    pub(super) fn undeclared(&mut self, ident: &ast::Ident) {
        if let Some(&a) = self.array_ids.get(ident.name.as_str()) {
            let n = self.arrays[a].cells.len();
            self.errors.push(
                LowerError::WholeArray {
                    name: ident.name.clone(),
                    span: sspan(ident.span),
                    help: format!(
                        "name one of its {n} cells, `{0}[0]` to `{0}[{1}]`; `observe {{ {0}; }}` shows the whole array",
                        ident.name,
                        n - 1
                    ),
                }
                .into(),
            );
            return;
        }
        if let Some((base, _)) = ident.name.split_once('[') {
            let help = match self.array_ids.get(base) {
                Some(&a) => {
                    let n = self.arrays[a].cells.len();
                    format!(
                        "array `{base}` has {n} cells: `{base}[0]` to `{base}[{}]`",
                        n - 1
                    )
                }
                None if self.loc_ids.contains_key(base) => {
                    format!("`{base}` is a location, not an array: name it alone, `{base}`")
                }
                None => format!(
                    "declare the array in the init block: `init {{ {base}[2] = {{0, 0}}; }}`"
                ),
            };
            self.errors.push(
                LowerError::NoSuchCell {
                    name: ident.name.clone(),
                    span: sspan(ident.span),
                    help,
                }
                .into(),
            );
            return;
        }
        let names: Vec<&str> = self.locations.iter().map(|l| l.name.as_str()).collect();
        let help = crate::diag::did_you_mean(&ident.name, names, || {
            format!(
                "declare it in the init block: `init {{ {} = 0; }}`",
                ident.name
            )
        });
        self.errors.push(
            LowerError::UndeclaredLocation {
                name: ident.name.clone(),
                span: sspan(ident.span),
                help,
            }
            .into(),
        );
    }
}
