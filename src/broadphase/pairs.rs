//! The persistent pair set and its per-step difference.
//!
//! Pipeline stage: broadphase output, read by the narrowphase. Pairs are
//! `(lower id, higher id)` and every list is sorted, so the narrowphase visits them
//! in the same order on every machine. Only the pairs of bodies whose fat box changed
//! ("dirty" bodies) can change in a step, so a step splits the old set into the
//! untouched pairs and the dirty ones, diffs the dirty ones against the freshly found
//! ones, and merges: O(pairs) with no sorting of the full set.

/// A candidate pair `(lower id, higher id)`.
pub type Pair = (u32, u32);

/// Sets `added = new \ old` and `removed = old \ new`; all inputs and outputs sorted.
pub(crate) fn diff(old: &[Pair], new: &[Pair], added: &mut Vec<Pair>, removed: &mut Vec<Pair>) {
    let (mut i, mut j) = (0, 0);
    while i < old.len() && j < new.len() {
        match old[i].cmp(&new[j]) {
            std::cmp::Ordering::Less => {
                removed.push(old[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                added.push(new[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    removed.extend_from_slice(&old[i..]);
    added.extend_from_slice(&new[j..]);
}

/// Writes the sorted union of the disjoint sorted lists `a` and `b` into `out`.
pub(crate) fn merge(a: &[Pair], b: &[Pair], out: &mut Vec<Pair>) {
    out.clear();
    out.reserve(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] < b[j] {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_and_merge() {
        let old = [(0, 1), (0, 2), (3, 4)];
        let new = [(0, 2), (1, 5), (3, 4), (6, 7)];
        let (mut a, mut r) = (Vec::new(), Vec::new());
        diff(&old, &new, &mut a, &mut r);
        assert_eq!(a, vec![(1, 5), (6, 7)]);
        assert_eq!(r, vec![(0, 1)]);
        let mut out = Vec::new();
        merge(&[(0, 3), (2, 9)], &[(0, 1), (5, 6)], &mut out);
        assert_eq!(out, vec![(0, 1), (0, 3), (2, 9), (5, 6)]);
    }
}
