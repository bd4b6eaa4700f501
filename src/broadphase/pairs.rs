//! The persistent pair set and its per-step difference.
//!
//! Pipeline stage: broadphase output, read by the narrowphase. Pairs are
//! `(lower id, higher id)` and every list is sorted, so the narrowphase visits them
//! in the same order on every machine. Only the pairs of bodies whose fat box changed
//! ("dirty" bodies) can change in a step, so a step splits the old set into the
//! untouched pairs and the dirty ones, diffs the dirty ones against the freshly found
//! ones, and merges the fresh ones into the untouched ones: O(pairs) with no sorting
//! of the full set (the merge itself is fused into the refresh in `sap.rs`).

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_reports_both_sides() {
        let old = [(0, 1), (0, 2), (3, 4)];
        let new = [(0, 2), (1, 5), (3, 4), (6, 7)];
        let (mut a, mut r) = (Vec::new(), Vec::new());
        diff(&old, &new, &mut a, &mut r);
        assert_eq!(a, vec![(1, 5), (6, 7)]);
        assert_eq!(r, vec![(0, 1)]);
    }
}
