//! Relations as rows of bits, for the evaluator: a relation over the `n`
//! events of one execution is a slice of `n` `u128` rows (bit `b` of row
//! `a` is the pair `(a, b)`), an event set one `u128`. These work on
//! slices of the evaluator's arena, so evaluating a model allocates
//! nothing per execution.

/// The set of every event `0..n`.
#[inline]
pub(crate) fn full(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

#[inline]
pub(crate) fn bit(e: usize) -> u128 {
    1u128 << e
}

/// Iterates the members of a set in increasing order.
pub(crate) fn members(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let e = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(e)
    })
}

/// `dst = a ; b`.
pub(crate) fn seq(dst: &mut [u128], a: &[u128], b: &[u128]) {
    for (d, row) in dst.iter_mut().zip(a) {
        let mut acc = 0;
        for k in members(*row) {
            acc |= b[k];
        }
        *d = acc;
    }
}

/// `dst = a^-1`.
pub(crate) fn inverse(dst: &mut [u128], a: &[u128]) {
    dst.fill(0);
    for (i, row) in a.iter().enumerate() {
        for j in members(*row) {
            dst[j] |= bit(i);
        }
    }
}

/// `r = r+` in place (Warshall's algorithm on rows).
pub(crate) fn plus_in_place(r: &mut [u128]) {
    for k in 0..r.len() {
        let rk = r[k];
        if rk == 0 {
            continue;
        }
        let kb = bit(k);
        for row in r.iter_mut() {
            if *row & kb != 0 {
                *row |= rk;
            }
        }
    }
}

/// Adds the identity on every event.
pub(crate) fn add_identity(r: &mut [u128]) {
    for (i, row) in r.iter_mut().enumerate() {
        *row |= bit(i);
    }
}

/// `[S]`.
pub(crate) fn id_on(dst: &mut [u128], set: u128) {
    for (i, row) in dst.iter_mut().enumerate() {
        *row = set & bit(i);
    }
}

/// `S * T`.
pub(crate) fn cartesian(dst: &mut [u128], s: u128, t: u128) {
    for (i, row) in dst.iter_mut().enumerate() {
        *row = if s & bit(i) != 0 { t } else { 0 };
    }
}

/// The events some pair starts from.
pub(crate) fn domain(a: &[u128]) -> u128 {
    a.iter()
        .enumerate()
        .filter(|(_, r)| **r != 0)
        .fold(0, |acc, (i, _)| acc | bit(i))
}

/// The events some pair ends at.
pub(crate) fn range(a: &[u128]) -> u128 {
    a.iter().fold(0, |acc, r| acc | r)
}

pub(crate) fn is_empty(a: &[u128]) -> bool {
    a.iter().all(|r| *r == 0)
}

pub(crate) fn is_irreflexive(a: &[u128]) -> bool {
    a.iter().enumerate().all(|(i, r)| r & bit(i) == 0)
}

/// Is the relation acyclic? Peels off, round after round, the events
/// with no successor left: what remains lies on or leads to a cycle.
pub(crate) fn is_acyclic(a: &[u128]) -> bool {
    let mut alive = domain(a);
    loop {
        let mut sinks = 0;
        for i in members(alive) {
            if a[i] & alive == 0 {
                sinks |= bit(i);
            }
        }
        if sinks == 0 {
            return alive == 0;
        }
        alive &= !sinks;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(n: usize, pairs: &[(usize, usize)]) -> Vec<u128> {
        let mut r = vec![0; n];
        for &(a, b) in pairs {
            r[a] |= bit(b);
        }
        r
    }

    #[test]
    fn operations_on_rows() {
        let r = rel(4, &[(0, 1), (1, 2), (2, 3)]);
        let mut p = r.clone();
        plus_in_place(&mut p);
        assert_eq!(p[0], bit(1) | bit(2) | bit(3));
        let mut s = vec![0; 4];
        seq(&mut s, &r, &r);
        assert_eq!(s, rel(4, &[(0, 2), (1, 3)]));
        inverse(&mut s, &r);
        assert_eq!(s, rel(4, &[(1, 0), (2, 1), (3, 2)]));
        assert!(is_acyclic(&r));
        assert!(!is_acyclic(&rel(4, &[(0, 1), (1, 2), (2, 1), (3, 0)])));
        assert!(!is_acyclic(&rel(2, &[(1, 1)])));
        assert!(is_acyclic(&rel(3, &[(0, 1), (0, 2), (1, 2)])));
        assert_eq!(domain(&r), 0b0111);
        assert_eq!(range(&r), 0b1110);
        let mut c = vec![0; 3];
        cartesian(&mut c, 0b011, 0b100);
        assert_eq!(c, rel(3, &[(0, 2), (1, 2)]));
        assert!(!is_irreflexive(&rel(3, &[(2, 2)])));
    }

    #[test]
    fn full_width() {
        assert_eq!(full(128), u128::MAX);
        assert_eq!(full(3), 0b111);
        let mut r = vec![0u128; 128];
        r[127] = bit(0);
        r[0] = bit(127);
        assert!(!is_acyclic(&r));
    }
}
