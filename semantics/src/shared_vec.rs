//! [`SharedVec`]: the persistent sequence of the C11 models' states (their
//! locations, and `c11r`'s store lists).
//!
//! A vector of reference-counted elements: cloning a state copies one
//! pointer per element, and changing an element copies that element only
//! (`Arc::make_mut`), so successor states share every location (and every
//! store) they do not change. The programs relaxlab explores have a few
//! locations and a few stores per location, for which this beats a
//! chunked persistent vector (`imbl::Vector`), whose copy-on-write unit is
//! a 64-slot chunk: changing one location of three copied, and allocated,
//! a chunk of 64. Equality and hashing are by value, in order.

use std::ops::{Index, IndexMut};
use std::sync::Arc;

/// A persistent vector (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct SharedVec<T>(Vec<Arc<T>>);

impl<T: Clone> SharedVec<T> {
    /// The vector of one element.
    pub(crate) fn unit(x: T) -> Self {
        SharedVec(vec![Arc::new(x)])
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(crate) fn get(&self, i: usize) -> Option<&T> {
        self.0.get(i).map(|x| &**x)
    }

    /// The element `i`, unshared first if another state holds it.
    pub(crate) fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        self.0.get_mut(i).map(Arc::make_mut)
    }

    pub(crate) fn back(&self) -> Option<&T> {
        self.0.last().map(|x| &**x)
    }

    pub(crate) fn front_mut(&mut self) -> Option<&mut T> {
        self.get_mut(0)
    }

    pub(crate) fn push_back(&mut self, x: T) {
        self.0.push(Arc::new(x));
    }

    /// Keeps `[..at]`, returns `[at..]`.
    pub(crate) fn split_off(&mut self, at: usize) -> Self {
        SharedVec(self.0.split_off(at))
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &T> {
        self.0.iter().map(|x| &**x)
    }
}

impl<T> Index<usize> for SharedVec<T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        &self.0[i]
    }
}

impl<T: Clone> IndexMut<usize> for SharedVec<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        Arc::make_mut(&mut self.0[i])
    }
}

impl<T> FromIterator<T> for SharedVec<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        SharedVec(iter.into_iter().map(Arc::new).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::SharedVec;

    #[test]
    fn a_change_unshares_one_element_and_equality_is_by_value() {
        let a: SharedVec<Vec<u32>> = [vec![1], vec![2], vec![3]].into_iter().collect();
        let mut b = a.clone();
        b.get_mut(1).unwrap().push(9);
        assert_eq!(a[1], vec![2]);
        assert_eq!(b[1], vec![2, 9]);
        assert!(std::ptr::eq(&a[0], &b[0]), "untouched elements stay shared");
        b.get_mut(1).unwrap().pop();
        assert_eq!(a, b);
        let tail = b.split_off(1);
        assert_eq!(b.len(), 1);
        assert_eq!(
            tail.iter().cloned().collect::<Vec<_>>(),
            vec![vec![2], vec![3]]
        );
    }
}
