//! One region of the multi-SAP: a band of the world along the cross axis with its
//! own array of sweep-axis endpoints, kept sorted from step to step.
//!
//! Pipeline stage: broadphase. Each entry is the lower endpoint of a fat box on the
//! sweep axis, with the rest of the box stored inline so the sweep reads one
//! contiguous array (Terdiman's "box pruning" layout). The upper endpoints need no
//! array of their own: every entry's sweep extent is at most the structure's
//! `max_len`, so the boxes that reach a point `s` all start in `[s - max_len, s]`.
//!
//! Changes are applied in one of two ways, whichever is cheaper:
//! - few changes: each moved entry is shifted to its new place by insertion, which
//!   costs the number of entries it passes (O(swaps) under coherent motion);
//! - many changes (teleports, a rebuild): the changed entries are filtered out and
//!   the new ones merged back in, O(len + c log c).

use serde::{Deserialize, Serialize};

/// One box in one region, keyed by `(s0, id)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Entry {
    /// Lower end on the sweep axis (m); the sort key.
    pub s0: f32,
    /// Upper end on the sweep axis (m).
    pub s1: f32,
    /// Lower end on the cross axis (m).
    pub p0: f32,
    /// Upper end on the cross axis (m).
    pub p1: f32,
    /// Body id.
    pub id: u32,
    /// First region (band index) the body occupies; used to report a pair only in
    /// the first band that both boxes share.
    pub lo: i32,
}

impl Entry {
    /// `true` when `self` sorts before the key `(s0, id)`. Stored values are finite
    /// and free of `-0.0`, so `<` on `f32` is a total order here.
    #[inline]
    pub fn before(&self, s0: f32, id: u32) -> bool {
        self.s0 < s0 || (self.s0 == s0 && self.id < id)
    }
}

/// A change to one region: the old key to take out and/or the new entry to put in.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Change {
    /// Body id.
    pub id: u32,
    /// Sort key `s0` of the entry now stored, if any.
    pub old: Option<f32>,
    /// Entry to store, if any.
    pub new: Option<Entry>,
}

/// Position of the entry with key `(s0, id)`, if present.
#[inline]
fn find(v: &[Entry], s0: f32, id: u32) -> Option<usize> {
    let p = v.partition_point(|e| e.before(s0, id));
    match v.get(p) {
        Some(e) if e.id == id => Some(p),
        _ => None,
    }
}

/// Replaces the entry at `p` by `e` and shifts `e` to its sorted place, scanning
/// from `p` in the direction it moved: an insertion-sort step.
fn shift_into_place(v: &mut [Entry], p: usize, e: Entry) {
    let mut q = p;
    if v[p].before(e.s0, e.id) {
        while q + 1 < v.len() && v[q + 1].before(e.s0, e.id) {
            q += 1;
        }
        v[p..=q].rotate_left(1);
    } else {
        while q > 0 && !v[q - 1].before(e.s0, e.id) {
            q -= 1;
        }
        v[q..=p].rotate_right(1);
    }
    v[q] = e;
}

/// Applies `changes` (sorted by id, at most one per id) to the sorted region `v`.
/// `scratch` is reused memory for the merge path.
pub(crate) fn apply(v: &mut Vec<Entry>, changes: &[Change], scratch: &mut Vec<Entry>) {
    // Insertion pays about one shift per entry passed; a merge pays the whole array.
    // Sixteen changes per array length is where the merge starts to win for
    // incoherent (teleporting) bodies, and coherent ones rarely get there.
    if changes.len() * 16 <= v.len() {
        for c in changes {
            let at = c.old.and_then(|s0| find(v, s0, c.id));
            match (at, c.new) {
                (Some(p), Some(e)) => shift_into_place(v, p, e),
                (Some(p), None) => {
                    v.remove(p);
                }
                (None, Some(e)) => {
                    let q = v.partition_point(|x| x.before(e.s0, e.id));
                    v.insert(q, e);
                }
                (None, None) => {}
            }
        }
        return;
    }
    // Every id in `changes` leaves with its old key; the survivors keep their order.
    v.retain(|e| {
        changes
            .binary_search_by_key(&e.id, |c| c.id)
            .map(|i| changes[i].old.is_none())
            .unwrap_or(true)
    });
    scratch.clear();
    scratch.extend(changes.iter().filter_map(|c| c.new));
    scratch.sort_unstable_by(|a, b| a.s0.total_cmp(&b.s0).then(a.id.cmp(&b.id)));
    merge_back(v, scratch);
}

/// Merges the sorted `add` into the sorted `v`, in place from the back.
fn merge_back(v: &mut Vec<Entry>, add: &[Entry]) {
    let Some(&fill) = add.first() else {
        return;
    };
    let mut i = v.len();
    let mut j = add.len();
    v.resize(i + j, fill);
    let mut w = v.len();
    while j > 0 {
        let a = add[j - 1];
        if i > 0 && !v[i - 1].before(a.s0, a.id) {
            v[w - 1] = v[i - 1];
            i -= 1;
        } else {
            v[w - 1] = a;
            j -= 1;
        }
        w -= 1;
    }
}

/// The entries whose sweep interval may reach `[s0, s1]` (m): those whose lower end
/// lies in `[s0 - max_len, s1]`, widened by a relative slack that covers the rounding
/// of `s1 - s0` when `max_len` was measured. The first is searched for from `hint`
/// (galloping, then a binary search), which is left at it: probes met in sweep order
/// find it in a step or two, others in about two binary searches' compares.
#[inline]
pub(crate) fn window<'a>(
    v: &'a [Entry],
    s0: f32,
    s1: f32,
    max_len: f32,
    hint: &mut usize,
) -> impl Iterator<Item = &'a Entry> {
    let lo = s0 as f64 - max_len as f64 * (1.0 + 1e-6) - (s0 as f64).abs() * 1e-6;
    // `x < lo` for an f32 `x` is `x < t`, `t` the least f32 not below `lo`:
    // the same entries, compared without widening each key.
    let mut t = lo as f32;
    if (t as f64) < lo {
        t = next_up(t);
    }
    let start = crate::math::gallop(v, *hint, |e| e.s0 < t);
    *hint = start;
    v[start..].iter().take_while(move |e| e.s0 <= s1)
}

/// The least f32 above `x`, for `x` neither NaN nor +∞ (`f32::next_up`,
/// stable only after this crate's minimum Rust version).
#[inline]
fn next_up(x: f32) -> f32 {
    let bits = x.to_bits();
    if x == 0.0 {
        f32::from_bits(1)
    } else if x > 0.0 {
        f32::from_bits(bits + 1)
    } else {
        f32::from_bits(bits - 1)
    }
}

/// Calls `f(id)` for every entry of region `band` whose box overlaps `probe`'s box,
/// skipping the pairs that an earlier band shared by both boxes already reports.
/// The window covers the sweep axis (searched from `hint`, see [`window`]); the test
/// confirms the sweep axis's upper end and the cross axis. Closed intervals: touching
/// counts.
#[inline]
pub(crate) fn overlapping(
    v: &[Entry],
    band: i32,
    probe: &Entry,
    max_len: f32,
    hint: &mut usize,
    mut f: impl FnMut(u32),
) {
    for e in window(v, probe.s0, probe.s1, max_len, hint) {
        // Every test evaluated (`&`, not `&&`): one branch an entry, on
        // their conjunction, which is mostly false; short-circuited, each
        // test was a branch of its own that the boxes' order makes
        // unpredictable.
        let hit = (e.s1 >= probe.s0)
            & (e.p0 <= probe.p1)
            & (probe.p0 <= e.p1)
            & (probe.lo.max(e.lo) == band);
        if hit {
            f(e.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(s0: f32, id: u32) -> Entry {
        Entry {
            s0,
            s1: s0 + 1.0,
            p0: 0.0,
            p1: 1.0,
            id,
            lo: 0,
        }
    }

    fn sorted(v: &[Entry]) -> bool {
        v.windows(2).all(|w| w[0].before(w[1].s0, w[1].id))
    }

    #[test]
    fn insertion_and_merge_agree() {
        let base: Vec<Entry> = (0..64).map(|i| e((i % 7) as f32, i)).collect();
        let mut base = base;
        base.sort_by(|a, b| a.s0.total_cmp(&b.s0).then(a.id.cmp(&b.id)));
        let few = [
            Change {
                id: 3,
                old: Some(3.0),
                new: Some(e(-1.0, 3)),
            },
            Change {
                id: 10,
                old: Some(3.0),
                new: None,
            },
            Change {
                id: 100,
                old: None,
                new: Some(e(2.0, 100)),
            },
        ];
        let mut a = base.clone();
        let mut scratch = Vec::new();
        apply(&mut a, &few, &mut scratch);
        assert!(sorted(&a));
        // The same changes through the merge path, forced by a short array.
        let mut b = base.clone();
        b.truncate(64);
        let mut many: Vec<Change> = few.to_vec();
        for id in [20u32, 30, 40, 50] {
            many.push(Change {
                id,
                old: Some((id % 7) as f32),
                new: Some(e((id % 7) as f32, id)),
            });
        }
        many.sort_by_key(|c| c.id);
        apply(&mut b, &many, &mut scratch);
        assert!(sorted(&b));
        assert_eq!(a, b);
    }

    #[test]
    fn window_finds_reaching_entries() {
        let v: Vec<Entry> = (0..10).map(|i| e(i as f32, i)).collect();
        for from in [0, 3, 4, 5, 9, 10, 99] {
            let mut hint = from;
            let ids: Vec<u32> = window(&v, 4.5, 5.0, 1.0, &mut hint).map(|x| x.id).collect();
            assert_eq!((ids, hint), (vec![4, 5], 4), "from {from}");
        }
    }

    #[test]
    fn next_up_is_the_next_float() {
        let cases = [
            (-1.5f32, f32::from_bits(0xbfbf_ffff)),
            (-f32::MIN_POSITIVE, -f32::from_bits(0x007f_ffff)),
            (-0.0, f32::from_bits(1)),
            (0.0, f32::from_bits(1)),
            (f32::from_bits(1), f32::from_bits(2)),
            (1.0, 1.000_000_1),
            (f32::MIN, f32::from_bits(0xff7f_fffe)),
            (f32::NEG_INFINITY, f32::MIN),
        ];
        for (x, want) in cases {
            assert_eq!(next_up(x).to_bits(), want.to_bits(), "{x}");
        }
        // Above `x`, with no f32 strictly between (the f64 midpoint rounds
        // to one of the two), over many bit patterns.
        let mut bits = 0x1234_5678u32;
        for _ in 0..100_000 {
            bits = bits.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let x = f32::from_bits(bits);
            if x.is_nan() || x == f32::INFINITY || x == f32::MAX {
                continue;
            }
            let y = next_up(x);
            let mid = ((x as f64 + y as f64) / 2.0) as f32;
            assert!(y > x && (mid == x || mid == y), "{x:e}");
        }
    }

    /// The galloping search gives the binary search's index from any start,
    /// and the f32 threshold the f64 comparison's window, on keys with
    /// repeats, near the threshold's rounding, and at the ends.
    #[test]
    fn gallop_and_threshold_match_the_plain_search() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..400 {
            let n = (next() % 40) as usize;
            let scale = [1e-3f32, 1.0, 1e3, 1e6][case % 4];
            let mut keys: Vec<f32> = (0..n)
                .map(|_| ((next() % 2001) as f32 - 1000.0) * scale / 100.0)
                .collect();
            keys.sort_by(f32::total_cmp);
            let v: Vec<Entry> = keys
                .iter()
                .enumerate()
                .map(|(i, &k)| e(k, i as u32))
                .collect();
            for _ in 0..20 {
                let s0 = match keys.get((next() % 41) as usize) {
                    Some(&k) if next() % 2 == 0 => k,
                    _ => ((next() % 2001) as f32 - 1000.0) * scale / 100.0,
                };
                let max_len = [0.0f32, 1e-3, 0.5, 3.0][(next() % 4) as usize] * scale;
                let lo = s0 as f64 - max_len as f64 * (1.0 + 1e-6) - (s0 as f64).abs() * 1e-6;
                let want = v.partition_point(|e| (e.s0 as f64) < lo);
                for from in [0, want, want.saturating_sub(1), want + 1, n / 2, n, 1000] {
                    let mut hint = from;
                    let got: Vec<u32> = window(&v, s0, f32::INFINITY, max_len, &mut hint)
                        .map(|x| x.id)
                        .collect();
                    assert_eq!(hint, want, "case {case} from {from}");
                    assert_eq!(got.len(), n - want);
                }
            }
        }
    }
}
