//! Dense ids for the outcomes of consistent executions, so that counting
//! one execution costs one small hash lookup rather than hashing its whole
//! outcome.
//!
//! An outcome is built in two parts ([`super::consistent`]): a *prefix*,
//! the outcome of a core with the columns of its last observer group left
//! as they are in the core (0), and a *tuple*, the values that group's
//! sources put in its columns. Prefixes change once per choice of the
//! earlier groups and tuples once per sequence of the last group, so both
//! are interned rarely; an execution only looks up the pair. Ids are not
//! canonical: two pairs may spell the same outcome (a column filled by an
//! observer in one core and by a read whose value the path fixed in
//! another). Consumers merge rows by [`OutcomeIds::values`].

use rustc_hash::FxHashMap;

use crate::ir::Value;

/// The tuple of an outcome without observer columns.
pub(crate) const NO_TUPLE: u32 = u32::MAX;

/// The interned prefixes, tuples and outcomes of one run.
#[derive(Debug, Default)]
pub(crate) struct OutcomeIds {
    prefixes: FxHashMap<Vec<Value>, u32>,
    prefix_values: Vec<Vec<Value>>,
    /// (columns, values) of a group.
    tuples: FxHashMap<(Vec<usize>, Vec<Value>), u32>,
    tuple_parts: Vec<(Vec<usize>, Vec<Value>)>,
    /// (prefix, tuple) to the outcome's id.
    outcomes: FxHashMap<u64, u32>,
    outcome_parts: Vec<(u32, u32)>,
}

impl OutcomeIds {
    /// The id of a prefix.
    pub(crate) fn prefix(&mut self, values: &[Value]) -> u32 {
        if let Some(&id) = self.prefixes.get(values) {
            return id;
        }
        let id = self.prefix_values.len() as u32;
        self.prefixes.insert(values.to_vec(), id);
        self.prefix_values.push(values.to_vec());
        id
    }

    /// The id of the tuple putting `values` in `columns`.
    pub(crate) fn tuple(&mut self, columns: &[usize], values: &[Value]) -> u32 {
        let key = (columns.to_vec(), values.to_vec());
        if let Some(&id) = self.tuples.get(&key) {
            return id;
        }
        let id = self.tuple_parts.len() as u32;
        self.tuple_parts.push(key.clone());
        self.tuples.insert(key, id);
        id
    }

    /// The id of the outcome of `prefix` with `tuple` ([`NO_TUPLE`]: none).
    #[inline]
    pub(crate) fn outcome(&mut self, prefix: u32, tuple: u32) -> u32 {
        let key = (u64::from(prefix) << 32) | u64::from(tuple);
        let next = self.outcome_parts.len() as u32;
        let id = *self.outcomes.entry(key).or_insert(next);
        if id == next {
            self.outcome_parts.push((prefix, tuple));
        }
        id
    }

    /// The values of outcome `id`, into `out`.
    pub(crate) fn values(&self, id: u32, out: &mut Vec<Value>) {
        let (prefix, tuple) = self.outcome_parts[id as usize];
        out.clone_from(&self.prefix_values[prefix as usize]);
        if tuple != NO_TUPLE {
            let (columns, values) = &self.tuple_parts[tuple as usize];
            for (&c, &v) in columns.iter().zip(values) {
                out[c] = v;
            }
        }
    }
}
