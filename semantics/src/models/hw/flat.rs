//! A flat, segmented vector of values: the memory state of the hardware
//! models in one allocation.
//!
//! Hardware memory states are small (a few locations, a few buffered
//! stores), and the exhaustive explorer interns every distinct one, so what
//! matters is that cloning, hashing and comparing one is cheap. A
//! persistent collection (`imbl`) pays off for large states shared between
//! many successors; here every successor changes one buffer and the whole
//! state fits in a cache line or two, so one boxed slice is both smaller
//! and faster.
//!
//! The slice is shared (`Arc`): a step that leaves memory unchanged (a load,
//! a fence) returns the same state without allocating.
//!
//! Layout of [`Segs`]: `[n, end_0, ..., end_{n-1}, data...]`, where segment
//! `i` is `data[end_{i-1}..end_i]` (with `end_{-1} = 0`).
//!
//! Invariant: `n >= 0`, the ends are non-decreasing and the last one equals
//! the data length.

use std::sync::Arc;

use crate::ir::Value;

/// A function that pushes a segment's new content, given the old one.
pub(crate) type SegEdit<'a> = dyn FnMut(&[Value], &mut Vec<Value>) + 'a;

/// A sequence of value segments in one boxed slice (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Segs(Arc<[Value]>);

impl Segs {
    /// Builds the segments from their contents, in order.
    pub(crate) fn from_segments<'a>(segments: impl ExactSizeIterator<Item = &'a [Value]>) -> Segs {
        let n = segments.len();
        let mut words = vec![0; n + 1];
        words[0] = n as Value;
        let mut end = 0;
        for (i, seg) in segments.enumerate() {
            end += seg.len();
            words[1 + i] = end as Value;
            words.extend_from_slice(seg);
        }
        Segs(words.into())
    }

    /// Are `self` and `other` one shared allocation (and so equal)?
    #[inline]
    pub(crate) fn ptr_eq(&self, other: &Segs) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The number of segments.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.0[0] as usize
    }

    /// The contents of segment `i`.
    #[inline]
    pub(crate) fn seg(&self, i: usize) -> &[Value] {
        let n = self.len();
        let start = if i == 0 { 0 } else { self.0[i] as usize };
        let end = self.0[1 + i] as usize;
        &self.0[1 + n + start..1 + n + end]
    }

    /// A copy in which every segment `i` is replaced by what `f(i, old,
    /// out)` pushes onto `out` (which holds only the data pushed so far,
    /// so segment 0's content starts at index 0). One allocation: the
    /// segments are built in a per-thread buffer, then copied into the
    /// shared slice.
    pub(crate) fn rebuild(&self, mut f: impl FnMut(usize, &[Value], &mut Vec<Value>)) -> Segs {
        thread_local! {
            static BUFFERS: std::cell::Cell<(Vec<Value>, Vec<Value>)> =
                const { std::cell::Cell::new((Vec::new(), Vec::new())) };
        }
        let n = self.len();
        // Taken out of the cell, so a (never expected) nested call only
        // allocates buffers of its own.
        let (mut ends, mut data) = BUFFERS.take();
        ends.clear();
        data.clear();
        ends.push(n as Value);
        for i in 0..n {
            f(i, self.seg(i), &mut data);
            ends.push(data.len() as Value);
        }
        let out = Segs(ends.iter().chain(data.iter()).copied().collect());
        BUFFERS.set((ends, data));
        debug_assert_eq!(
            out.len(),
            n,
            "relaxlab internal error: segment count changed"
        );
        out
    }

    /// A copy in which only the segments named in `edits` change, each to
    /// the content its function pushes. `edits` is sorted by segment.
    pub(crate) fn edit(&self, edits: &mut [(usize, &mut SegEdit<'_>)]) -> Segs {
        debug_assert!(edits.windows(2).all(|w| w[0].0 < w[1].0));
        let mut next = 0;
        self.rebuild(|i, old, out| {
            if next < edits.len() && edits[next].0 == i {
                (edits[next].1)(old, out);
                next += 1;
            } else {
                out.extend_from_slice(old);
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_round_trip_and_edit() {
        let s = Segs::from_segments([&[1, 2][..], &[], &[3]].into_iter());
        assert_eq!(s.len(), 3);
        assert_eq!(s.seg(0), &[1, 2]);
        assert_eq!(s.seg(1), &[] as &[Value]);
        assert_eq!(s.seg(2), &[3]);
        let t = s.edit(&mut [(1, &mut |_: &[Value], out: &mut Vec<Value>| out.push(9))]);
        assert_eq!(t.seg(0), &[1, 2]);
        assert_eq!(t.seg(1), &[9]);
        assert_eq!(t.seg(2), &[3]);
        let u = t.rebuild(|_, old, out| out.extend(old.iter().skip(1)));
        assert_eq!(u, Segs::from_segments([&[2][..], &[], &[]].into_iter()));
    }
}
