//! The persistent pair set and its per-step difference.
//!
//! Pipeline stage: broadphase output, read by the narrowphase. Pairs are
//! `(lower id, higher id)` and every list is sorted, so the narrowphase visits them
//! in the same order on every machine. Only the pairs of bodies whose fat box changed
//! ("dirty" bodies) can change in a step, so a step splits the old set into the
//! untouched pairs and the dirty ones, diffs the dirty ones against the freshly found
//! ones, and merges the fresh ones into the untouched ones: O(pairs) with no sorting
//! of the full set (the merge itself is fused into the refresh in `sap.rs`).
//! The freshly found pairs are sorted by [`sort_pairs`], a radix sort: the
//! pairs are distinct, so any correct sort gives the same list.

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

/// Below this many pairs the comparison sort is as quick as the radix sort.
const RADIX_MIN: usize = 256;
/// Bits sorted per radix pass.
const DIGIT: u32 = 11;

/// Sorts `v` ascending; `scratch` is reused memory of the same length.
/// A least-significant-digit radix sort on the key `(a << bits) | b`, where
/// `bits` covers the largest id present: about three passes of O(n) for
/// ids below 2¹⁶, where a comparison sort does about log₂ n of them.
pub(crate) fn sort_pairs(v: &mut Vec<Pair>, scratch: &mut Vec<Pair>) {
    if v.len() < RADIX_MIN {
        v.sort_unstable();
        return;
    }
    let top = v.iter().fold(0, |m, &(a, b)| m | a | b);
    let bits = u32::BITS - top.leading_zeros();
    let key = |p: &Pair| ((p.0 as u64) << bits) | p.1 as u64;
    let passes = (2 * bits).div_ceil(DIGIT);
    scratch.clear();
    scratch.resize(v.len(), (0, 0));
    let mut counts = [0usize; 1 << DIGIT];
    let mask = (1u64 << DIGIT) - 1;
    for pass in 0..passes {
        let shift = pass * DIGIT;
        counts.fill(0);
        for p in v.iter() {
            counts[(key(p) >> shift & mask) as usize] += 1;
        }
        let mut sum = 0;
        for c in counts.iter_mut() {
            let n = *c;
            *c = sum;
            sum += n;
        }
        for p in v.iter() {
            let d = (key(p) >> shift & mask) as usize;
            scratch[counts[d]] = *p;
            counts[d] += 1;
        }
        std::mem::swap(v, scratch);
    }
}

/// Appends to `out` the sorted union of the sorted `a` and `b`, which
/// share no pair.
pub(crate) fn merge_sorted(a: &[Pair], b: &[Pair], out: &mut Vec<Pair>) {
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
    fn merging_matches_sorting_the_union() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % m) as u32
        };
        for case in 0..200 {
            let mut all: Vec<Pair> = (0..next(60)).map(|_| (next(20), next(20))).collect();
            all.sort_unstable();
            all.dedup();
            // Dealt at random into two sorted, disjoint lists.
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for &p in &all {
                if next(2) == 0 {
                    a.push(p)
                } else {
                    b.push(p)
                }
            }
            let mut out = vec![(7, 7)];
            merge_sorted(&a, &b, &mut out);
            assert_eq!(out[0], (7, 7), "case {case}: appended");
            assert_eq!(out[1..], all[..], "case {case}");
        }
    }

    #[test]
    fn radix_sort_matches_comparison_sort() {
        // A SplitMix-like sequence of ids over several magnitudes, so one,
        // two and three passes are all met, plus the comparison-sort cut-off.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for (n, max) in [
            (10, 50),
            (300, 7),
            (1000, 3000),
            (5000, 1 << 20),
            (4000, u32::MAX),
        ] {
            let mut v: Vec<Pair> = (0..n)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let a = ((x >> 33) % max as u64) as u32;
                    let b = ((x >> 7) % max as u64) as u32;
                    (a.min(b), a.max(b))
                })
                .collect();
            let mut want = v.clone();
            want.sort_unstable();
            sort_pairs(&mut v, &mut Vec::new());
            assert_eq!(v, want, "n {n}, max {max}");
        }
    }

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
