//! Keeping the sweep-and-prune current: the choice of sweep axis and bands,
//! re-placing moved boxes, rebuilding, and finding the new pairs of dirty
//! (moved or inserted) boxes.

use super::crowd::{push_pair, Crowd};
use super::*;

impl SweepAndPrune {
    pub(super) fn mark(&mut self, id: u32) {
        if !self.dirty_bits.get(id) {
            self.dirty_bits.set(id);
            self.dirty.push(id);
        }
    }

    /// `(sweep min, sweep max, cross min, cross max)` of a box (m).
    #[inline]
    pub(super) fn split(&self, b: &Aabb) -> (f32, f32, f32, f32) {
        match self.axis {
            SweepAxis::X => (b.min.x, b.max.x, b.min.y, b.max.y),
            SweepAxis::Y => (b.min.y, b.max.y, b.min.x, b.max.x),
        }
    }

    /// The band holding cross-axis coordinate `p` (m). Monotone in `p`, which is all
    /// the exactness of the pair search needs.
    #[inline]
    pub(super) fn band_of(&self, p: f32) -> i32 {
        if !self.config.regions {
            return 0;
        }
        let b = (p as f64 / self.band_height as f64).floor();
        b.clamp(-BAND_LIMIT, BAND_LIMIT) as i32
    }

    pub(super) fn placement(&self, id: u32, fat: &Aabb) -> (Placed, Entry) {
        let (s0, s1, p0, p1) = self.split(fat);
        let (lo, hi) = (self.band_of(p0), self.band_of(p1));
        let large = s1 - s0 > self.large_len || (hi as i64 - lo as i64) >= MAX_BANDS;
        let placed = Placed { lo, hi, s0, large };
        let entry = Entry {
            s0,
            s1,
            p0,
            p1,
            id,
            lo,
        };
        (placed, entry)
    }

    pub(super) fn should_reevaluate(&self) -> bool {
        !self.built
            || self.steps_since_eval >= self.config.reevaluate_interval
            || self.count.abs_diff(self.count_at_eval) * 2 > self.count_at_eval
            || self.too_many_large()
    }

    /// More than a quarter of the bodies in the large list means the thresholds are
    /// stale. Fresh ones cannot do that (a quarter of the boxes eight mean lengths long
    /// would make the mean twice itself), so a rebuild settles it.
    pub(super) fn too_many_large(&self) -> bool {
        self.large.len() > self.count / 4 + 16
    }

    /// Chooses the sweep axis (larger variance of box centres), the band height and
    /// the large-box threshold from the current fat boxes. Rebuilds the regions when
    /// the axis flips, the band height drifts by more than a factor of two, or `force`;
    /// returns `true` if it rebuilt. The pair set is unaffected: it depends on fat
    /// boxes only.
    pub(super) fn reevaluate(&mut self, force: bool) -> bool {
        self.steps_since_eval = 0;
        self.count_at_eval = self.count;
        let mut n = 0.0f64;
        let mut origin = None;
        let (mut sum, mut sum_sq, mut ext) = ([0.0f64; 2], [0.0f64; 2], [0.0f64; 2]);
        for b in self.bodies.iter().filter(|b| b.present) {
            let Some(f) = b.fat else { continue };
            let c = [
                0.5 * (f.min.x as f64 + f.max.x as f64),
                0.5 * (f.min.y as f64 + f.max.y as f64),
            ];
            // Centring on the first body keeps E[x²] − E[x]² accurate far from 0.
            let o = *origin.get_or_insert(c);
            for k in 0..2 {
                let d = c[k] - o[k];
                sum[k] += d;
                sum_sq[k] += d * d;
            }
            ext[0] += f.max.x as f64 - f.min.x as f64;
            ext[1] += f.max.y as f64 - f.min.y as f64;
            n += 1.0;
        }
        if n == 0.0 {
            self.built = true;
            return false;
        }
        let var = |k: usize| sum_sq[k] / n - (sum[k] / n) * (sum[k] / n);
        let axis = match (self.built, self.axis) {
            (false, _) if var(1) > var(0) => SweepAxis::Y,
            (false, _) => SweepAxis::X,
            (true, SweepAxis::X) if var(1) > var(0) * AXIS_HYSTERESIS => SweepAxis::Y,
            (true, SweepAxis::Y) if var(0) > var(1) * AXIS_HYSTERESIS => SweepAxis::X,
            (true, a) => a,
        };
        let (k_sweep, k_cross) = match axis {
            SweepAxis::X => (0, 1),
            SweepAxis::Y => (1, 0),
        };
        let mut height = (BAND_FACTOR * ext[k_cross] / n) as f32;
        if !(height.is_finite() && height > 0.0) {
            height = 1.0;
        }
        let large = (LARGE_FACTOR * ext[k_sweep] / n) as f32;
        self.large_len = if large.is_finite() {
            large
        } else {
            f32::INFINITY
        };
        let ratio = height / self.band_height;
        let rebuild = force || !self.built || axis != self.axis || !(0.5..=2.0).contains(&ratio);
        if rebuild {
            self.axis = axis;
            self.band_height = height;
            self.rebuild();
        } else {
            // Removals never shrink `max_len`; tighten it back to the true bound.
            self.max_len = self
                .bands
                .values()
                .flatten()
                .map(|e| e.s1 - e.s0)
                .fold(0.0, f32::max);
        }
        self.built = true;
        rebuild
    }

    /// Places every body afresh: O(n log n).
    pub(super) fn rebuild(&mut self) {
        self.bands.clear();
        self.large.clear();
        self.max_len = 0.0;
        let mut all: Vec<(i32, Entry)> = Vec::with_capacity(self.count);
        for i in 0..self.bodies.len() {
            let b = self.bodies[i];
            let placed = match b.fat.filter(|_| b.present) {
                Some(fat) => {
                    let (p, e) = self.placement(i as u32, &fat);
                    if p.large {
                        self.large.push(i as u32);
                    } else {
                        self.max_len = self.max_len.max(e.s1 - e.s0);
                        all.extend((p.lo..=p.hi).map(|band| (band, e)));
                    }
                    Some(p)
                }
                None => None,
            };
            self.bodies[i].placed = placed;
        }
        all.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0)
                .then(a.1.s0.total_cmp(&b.1.s0))
                .then(a.1.id.cmp(&b.1.id))
        });
        for chunk in all.chunk_by(|a, b| a.0 == b.0) {
            let v = chunk.iter().map(|&(_, e)| e).collect();
            self.bands.insert(chunk[0].0, v);
        }
    }

    /// Moves the entries of every dirty body (sorted ids) to their new places and,
    /// region by region while the region is still in cache, pushes onto `found` the
    /// pairs each moved entry makes within that region.
    pub(super) fn apply_dirty(&mut self, found: &mut Vec<Pair>) {
        let mut changes = std::mem::take(&mut self.scratch.changes);
        changes.clear();
        for k in 0..self.dirty.len() {
            let id = self.dirty[k];
            let b = self.bodies[id as usize];
            let old = b.placed;
            let new = b.fat.filter(|_| b.present).map(|f| self.placement(id, &f));
            if old.is_some_and(|p| p.large) {
                if let Ok(at) = self.large.binary_search(&id) {
                    self.large.remove(at);
                }
            }
            let old_bands = old.filter(|p| !p.large).map(|p| (p.lo, p.hi, p.s0));
            let new_bands = new.filter(|(p, _)| !p.large).map(|(p, e)| (p.lo, p.hi, e));
            if let Some((lo, hi, s0)) = old_bands {
                for band in lo..=hi {
                    let e = new_bands.filter(|n| (n.0..=n.1).contains(&band));
                    let c = Change {
                        id,
                        old: Some(s0),
                        new: e.map(|n| n.2),
                    };
                    changes.push((band, c));
                }
            }
            if let Some((lo, hi, e)) = new_bands {
                self.max_len = self.max_len.max(e.s1 - e.s0);
                for band in lo..=hi {
                    if old_bands.is_some_and(|o| (o.0..=o.1).contains(&band)) {
                        continue;
                    }
                    let c = Change {
                        id,
                        old: None,
                        new: Some(e),
                    };
                    changes.push((band, c));
                }
            }
            if new.is_some_and(|(p, _)| p.large) {
                if let Err(at) = self.large.binary_search(&id) {
                    self.large.insert(at, id);
                }
            }
            self.bodies[id as usize].placed = new.map(|(p, _)| p);
        }
        group_by_band(
            &mut changes,
            &mut self.scratch.by_band,
            &mut self.scratch.band_counts,
        );
        let mut group = std::mem::take(&mut self.scratch.group);
        for chunk in changes.chunk_by(|a, b| a.0 == b.0) {
            let band = chunk[0].0;
            group.clear();
            group.extend(chunk.iter().map(|&(_, c)| c));
            let v = self.bands.entry(band).or_default();
            region::apply(v, &group, &mut self.scratch.entries);
            // Every region now holds its final boxes and `max_len` bounds them all, so
            // this region's pairs can be read off before moving to the next one.
            // `self.motion()`, field by field: the region is borrowed.
            let on = self.config.relative_motion;
            let motion = on.then_some((&self.bodies[..], self.config.margin, self.refreshes));
            let flags = (
                &self.static_bits,
                &self.dirty_bits,
                &self.filters[..],
                motion,
            );
            let crowd = &mut self.scratch.crowd;
            // Each probe's window is searched from the last one's: probes
            // in id order are often neighbours.
            let mut hint = v.len() / 2;
            for e in group.iter().filter_map(|c| c.new.as_ref()) {
                region::overlapping(v, band, e, self.max_len, &mut hint, |o| {
                    push_pair(flags, crowd, e.id, o, found);
                });
            }
            if v.is_empty() {
                self.bands.remove(&band);
            }
        }
        self.scratch.changes = changes;
        self.scratch.group = group;
    }

    /// Calls `f(id)` once for every stored body whose box overlaps `fat`, where
    /// `lo..=hi` are the bands `fat` covers. A pair met in several bands is reported
    /// only in the first band both cover, so nothing needs de-duplicating.
    pub(super) fn visit(&self, fat: &Aabb, lo: i32, hi: i32, mut f: impl FnMut(u32)) {
        let (s0, s1, p0, p1) = self.split(fat);
        let id = u32::MAX;
        let probe = Entry {
            s0,
            s1,
            p0,
            p1,
            id,
            lo,
        };
        for (&band, v) in self.bands.range(lo..=hi) {
            region::overlapping(v, band, &probe, self.max_len, &mut (v.len() / 2), &mut f);
        }
        for &l in &self.large {
            if self.bodies[l as usize].fat.is_some_and(|b| b.overlaps(fat)) {
                f(l);
            }
        }
    }

    /// Pushes onto `found` the pairs of dirty bodies not found region by region: all
    /// pairs after a rebuild, and otherwise those involving a large body.
    pub(super) fn find_other_pairs(&self, rebuilt: bool, crowd: &mut Crowd, found: &mut Vec<Pair>) {
        for &d in &self.dirty {
            let b = self.bodies[d as usize];
            let (Some(fat), Some(p)) = (b.fat.filter(|_| b.present), b.placed) else {
                continue;
            };
            let flags = (
                &self.static_bits,
                &self.dirty_bits,
                &self.filters[..],
                self.motion(),
            );
            if rebuilt || p.large {
                self.visit(&fat, p.lo, p.hi, |o| push_pair(flags, crowd, d, o, found));
                continue;
            }
            for &l in &self.large {
                if self.bodies[l as usize]
                    .fat
                    .is_some_and(|f| f.overlaps(&fat))
                {
                    push_pair(flags, crowd, d, l, found);
                }
            }
        }
    }

    /// Replaces the dirty bodies' pairs by `found` (sorted) and records the difference.
    pub(super) fn merge_pairs(&mut self, found: &[Pair]) {
        // One pass over the old set: pairs with a dirty end go to `old` for the diff,
        // the rest are merged with the fresh ones into the new set.
        let mut next = std::mem::take(&mut self.scratch.next);
        let mut old = std::mem::take(&mut self.scratch.old);
        next.clear();
        old.clear();
        next.reserve(self.pairs.len() + found.len());
        let mut j = 0;
        for &p in &self.pairs {
            if self.dirty_bits.get(p.0) || self.dirty_bits.get(p.1) {
                old.push(p);
                continue;
            }
            while j < found.len() && found[j] < p {
                next.push(found[j]);
                j += 1;
            }
            next.push(p);
        }
        next.extend_from_slice(&found[j..]);
        pairs::diff(&old, found, &mut self.added, &mut self.removed);
        self.scratch.next = std::mem::replace(&mut self.pairs, next);
        self.scratch.old = old;
    }
}

/// Orders `changes` by `(band, id)`. They come in ascending id order (the
/// dirty ids are sorted, and each id gives at most one change per band), so a
/// stable counting sort on the band alone gives that order: O(changes +
/// bands) rather than a comparison sort's O(c log c), which was about a
/// sixth of the refresh's instructions in a pour (`compounds`), where most
/// bodies move every step. Falls back to the comparison sort for a few
/// changes, or when the bands are spread too thinly to count.
pub(super) fn group_by_band(
    changes: &mut Vec<(i32, Change)>,
    scratch: &mut Vec<(i32, Change)>,
    counts: &mut Vec<u32>,
) {
    let (Some(lo), Some(hi)) = (
        changes.iter().map(|c| c.0).min(),
        changes.iter().map(|c| c.0).max(),
    ) else {
        return;
    };
    let span = (hi as i64 - lo as i64) as usize + 1;
    if changes.len() < 64 || span > 4 * changes.len() {
        changes.sort_unstable_by_key(|(band, c)| (*band, c.id));
        return;
    }
    debug_assert!(changes.windows(2).all(|w| w[0].1.id <= w[1].1.id));
    counts.clear();
    counts.resize(span + 1, 0);
    for c in changes.iter() {
        counts[(c.0 - lo) as usize + 1] += 1;
    }
    for k in 1..counts.len() {
        counts[k] += counts[k - 1];
    }
    scratch.clear();
    scratch.resize(changes.len(), changes[0]);
    for &c in changes.iter() {
        let at = &mut counts[(c.0 - lo) as usize];
        scratch[*at as usize] = c;
        *at += 1;
    }
    std::mem::swap(changes, scratch);
}
