//! The region of a node of the exploration tree: the executions it stands
//! for, as constraints on the values reads return (book: mcr.md, The optimality fix).
//!
//! A read is named by its thread and its position among that thread's
//! reads. Two executions in which a thread's first `k` reads return the
//! same values run the same instructions up to its `k+1`st read (local
//! determinism, MCR Sec. 2.1), so `(thread, values of the reads before)`
//! identifies one read across executions. A region is
//! - `must`: for each thread, the values its first reads must return (a
//!   prefix, so every read it names exists);
//! - `cubes`: pairs (a read named by the values before it, a value it must
//!   not return), one per sibling explored before this node and per such
//!   sibling of every ancestor.
//!
//! The observer (the last "thread", index `threads`) reads the final value
//! of every observed location after every thread has finished; its reads
//! name the final state, so two executions with different final memory are
//! told apart as MCR tells reads apart.
//!
//! [`Guide`] compiles a region into one trie per thread that a search
//! walks read by read: the cursor of a thread is a trie node, or [`OFF`]
//! once the thread's values have left every constrained prefix.

use crate::ir::Value;

/// A read that must not return `value`: the `past.len()`-th read of
/// `thread` (counting from 0) when its earlier reads returned `past`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Cube {
    pub thread: usize,
    pub past: Vec<Value>,
    pub value: Value,
}

/// The constraints of one node (module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Region {
    /// Per thread and for the observer (last): the values its first reads
    /// return.
    pub must: Vec<Vec<Value>>,
    pub cubes: Vec<Cube>,
}

impl Region {
    /// The region of every execution: nothing required or forbidden.
    pub(crate) fn everything(threads: usize) -> Region {
        Region {
            must: vec![Vec::new(); threads + 1],
            cubes: Vec::new(),
        }
    }

    /// Is `read` (thread, position) one whose value the region fixes?
    pub(crate) fn fixes(&self, thread: usize, position: usize) -> bool {
        position < self.must[thread].len()
    }

    /// Does the region forbid the read named by `(thread, past)` to return
    /// `value`?
    pub(crate) fn forbids(&self, thread: usize, past: &[Value], value: Value) -> bool {
        self.cubes
            .iter()
            .any(|c| c.thread == thread && c.value == value && c.past == past)
    }
}

/// The cursor of a thread whose reads have left every constrained prefix.
pub(crate) const OFF: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
struct Node {
    /// The value the next read must return (on the `must` prefix).
    must: Option<Value>,
    /// Values the next read must not return (cubes ending here).
    forbid: Vec<Value>,
    /// The node after the next read returned a value.
    next: Vec<(Value, u32)>,
}

/// A region compiled for searching (module docs).
#[derive(Clone, Debug)]
pub(crate) struct Guide {
    tries: Vec<Vec<Node>>,
}

impl Guide {
    pub(crate) fn new(region: &Region) -> Guide {
        let mut tries: Vec<Vec<Node>> = vec![vec![Node::default()]; region.must.len()];
        for (t, must) in region.must.iter().enumerate() {
            let trie = &mut tries[t];
            let mut at = 0usize;
            for &v in must {
                trie[at].must = Some(v);
                at = child(trie, at, v);
            }
        }
        for c in &region.cubes {
            let trie = &mut tries[c.thread];
            let mut at = 0usize;
            for &v in &c.past {
                at = child(trie, at, v);
            }
            if !trie[at].forbid.contains(&c.value) {
                trie[at].forbid.push(c.value);
            }
        }
        Guide { tries }
    }

    /// Every thread's cursor before its first read.
    pub(crate) fn start(&self) -> Vec<u32> {
        vec![0; self.tries.len()]
    }

    /// The cursor of `thread` after a read at `at` returned `v`, or `None`
    /// when the region forbids it.
    #[inline]
    pub(crate) fn read(&self, thread: usize, at: u32, v: Value) -> Option<u32> {
        if at == OFF {
            return Some(OFF);
        }
        let node = &self.tries[thread][at as usize];
        if node.must.is_some_and(|m| m != v) || node.forbid.contains(&v) {
            return None;
        }
        Some(
            node.next
                .iter()
                .find(|(x, _)| *x == v)
                .map_or(OFF, |&(_, n)| n),
        )
    }

    /// Does a thread whose reads stopped at `at` leave a read the region
    /// requires undone?
    pub(crate) fn pending(&self, thread: usize, at: u32) -> bool {
        at != OFF && self.tries[thread][at as usize].must.is_some()
    }
}

/// The node after reading `v` at `at`, created if new.
fn child(trie: &mut Vec<Node>, at: usize, v: Value) -> usize {
    if let Some(&(_, n)) = trie[at].next.iter().find(|(x, _)| *x == v) {
        return n as usize;
    }
    trie.push(Node::default());
    let n = trie.len() - 1;
    trie[at].next.push((v, n as u32));
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guide_requires_the_prefix_and_forbids_the_cubes() {
        let region = Region {
            must: vec![vec![1, 2], vec![]],
            cubes: vec![
                Cube {
                    thread: 0,
                    past: vec![1, 2],
                    value: 0,
                },
                Cube {
                    thread: 1,
                    past: vec![],
                    value: 7,
                },
            ],
        };
        let g = Guide::new(&region);
        let at = g.start();
        assert_eq!(g.read(0, at[0], 0), None);
        let a = g.read(0, at[0], 1).unwrap();
        assert!(g.pending(0, a));
        let b = g.read(0, a, 2).unwrap();
        assert!(!g.pending(0, b));
        assert_eq!(g.read(0, b, 0), None);
        assert_eq!(g.read(0, b, 5), Some(OFF));
        assert_eq!(g.read(1, at[1], 7), None);
        assert_eq!(g.read(1, at[1], 6), Some(OFF));
        assert_eq!(g.read(1, OFF, 7), Some(OFF));
    }
}
