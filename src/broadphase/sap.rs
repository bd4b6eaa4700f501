//! The incremental sweep-and-prune: bodies, regions, and the per-step pair refresh.
//!
//! Pipeline stage: broadphase, between velocity integration and the GJK narrowphase.
//! See the module notes in [`crate::broadphase`] for the algorithm and its costs.
//! Sources: D. Baraff, "Dynamic simulation of non-penetrating rigid bodies" (1992),
//! for incremental sort-and-sweep under coherence; P. Terdiman, "Box pruning
//! revisited" (2017), for the lower-endpoint-only layout; the multi-SAP regions
//! follow the idea of Bullet's `btMultiSapBroadphase`.

use super::fat::{canon_box, make_fat, needs_remake};
use super::pairs::{self, Pair};
use super::region::{self, Change, Entry};
use super::SapConfig;
use crate::math::Aabb;
use crate::math::Vec2;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A box spanning more bands than this is kept in the large list instead.
const MAX_BANDS: i64 = 8;
/// Band height as a multiple of the mean fat-box extent on the cross axis.
const BAND_FACTOR: f64 = 2.0;
/// A box longer on the sweep axis than this many mean extents goes to the large list,
/// so one long box (a ground plane) cannot widen every region's scan window.
const LARGE_FACTOR: f64 = 8.0;
/// The other axis must have this much more variance before the sweep axis flips,
/// so a scene near the balance point does not rebuild back and forth.
const AXIS_HYSTERESIS: f64 = 1.25;
/// Band indices are clamped to ±2³⁰; any monotone mapping keeps the result exact.
const BAND_LIMIT: f64 = (1u32 << 30) as f64;

/// The axis along which the endpoints are sorted and swept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SweepAxis {
    /// Sweep along x; regions are bands of y.
    X,
    /// Sweep along y; regions are bands of x.
    Y,
}

/// Where a body's entries live in the structure.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
struct Placed {
    /// First band the box covers.
    lo: i32,
    /// Last band the box covers.
    hi: i32,
    /// Sort key of its entries (m).
    s0: f32,
    /// `true` when it lives in the large list rather than in the bands.
    large: bool,
}

/// Per-id state, indexed densely by id.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize)]
struct Body {
    /// The id is in use.
    present: bool,
    /// The current fat box (m); `None` while the body is parked on an invalid box.
    fat: Option<Aabb>,
    /// Where the structure holds it, as of the last refresh.
    placed: Option<Placed>,
}

/// Reused buffers; rebuilt on demand, so they are not part of a snapshot.
#[derive(Clone, Debug, Default)]
struct Scratch {
    changes: Vec<(i32, Change)>,
    group: Vec<Change>,
    entries: Vec<Entry>,
    found: Vec<Pair>,
    next: Vec<Pair>,
    old: Vec<Pair>,
}

/// A growable bitset over body ids.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Bits(Vec<u64>);

impl Bits {
    #[inline]
    fn get(&self, id: u32) -> bool {
        self.0
            .get(id as usize / 64)
            .is_some_and(|w| w >> (id % 64) & 1 == 1)
    }

    #[inline]
    fn set(&mut self, id: u32) {
        let w = id as usize / 64;
        if w >= self.0.len() {
            self.0.resize(w + 1, 0);
        }
        self.0[w] |= 1 << (id % 64);
    }

    #[inline]
    fn assign(&mut self, id: u32, on: bool) {
        if on {
            self.set(id);
        } else {
            self.clear(id);
        }
    }

    #[inline]
    fn clear(&mut self, id: u32) {
        if let Some(w) = self.0.get_mut(id as usize / 64) {
            *w &= !(1 << (id % 64));
        }
    }
}

/// Incremental sweep-and-prune over fat AABBs, split into regions (multi-SAP).
///
/// Usage per step: [`update`](Self::update) every moving body, then
/// [`update_pairs`](Self::update_pairs), then read [`pairs`](Self::pairs),
/// [`added`](Self::added) and [`removed`](Self::removed).
///
/// - Ids are small dense integers chosen by the caller; storage grows to the largest
///   id used (about 40 bytes per id).
/// - Pairs are between fat boxes and touching boxes count as overlapping (closed
///   intervals, as in [`Aabb::overlaps`]).
/// - A box that is not [valid](Aabb::is_valid) (NaN, infinite, or `min > max`) parks
///   the body: it stays registered but has no fat box and no pairs until a valid box
///   arrives. Nothing panics and the rest of the structure is unaffected.
/// - Pairs of two static bodies are never reported.
///
/// ```
/// use minkowski::broadphase::{SapConfig, SweepAndPrune};
/// use minkowski::{Aabb, Vec2};
/// let mut sap = SweepAndPrune::new(SapConfig::default());
/// sap.insert(0, Aabb::new(Vec2::ZERO, Vec2::ONE), false);
/// sap.insert(7, Aabb::new(Vec2::new(1.1, 0.0), Vec2::new(2.0, 1.0)), false);
/// sap.update_pairs();
/// assert_eq!(sap.pairs(), &[(0, 7)]); // fat boxes (margin 0.1) overlap
/// sap.update(7, Aabb::new(Vec2::new(5.0, 0.0), Vec2::new(6.0, 1.0)), Vec2::ZERO);
/// sap.update_pairs();
/// assert!(sap.pairs().is_empty());
/// assert_eq!(sap.removed(), &[(0, 7)]);
/// ```
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SweepAndPrune {
    config: SapConfig,
    bodies: Vec<Body>,
    count: usize,
    axis: SweepAxis,
    /// Height of one region on the cross axis (m).
    band_height: f32,
    /// Sweep-axis length above which a box goes to the large list (m).
    large_len: f32,
    /// Upper bound on the sweep-axis length of every entry in the regions (m).
    max_len: f32,
    built: bool,
    steps_since_eval: u32,
    count_at_eval: usize,
    /// Regions by band index; a BTreeMap so any walk over them is ordered.
    bands: BTreeMap<i32, Vec<Entry>>,
    /// Ids of large bodies, sorted.
    large: Vec<u32>,
    /// Ids whose fat box, presence or static flag changed since the last refresh
    /// (unsorted until the refresh).
    dirty: Vec<u32>,
    /// The same ids as a bitset: the pair refresh tests every old pair against it,
    /// and one bit per body stays in L1 cache where a field of `Body` would not.
    dirty_bits: Bits,
    /// Static flags by id, a bitset for the same reason.
    static_bits: Bits,
    pairs: Vec<Pair>,
    added: Vec<Pair>,
    removed: Vec<Pair>,
    #[serde(skip)]
    scratch: Scratch,
}

impl SweepAndPrune {
    /// An empty broadphase. Negative or non-finite `margin` and `velocity_stretch`
    /// are taken as 0, and a `reevaluate_interval` of 0 as 1.
    pub fn new(config: SapConfig) -> Self {
        let sane = |v: f32| if v.is_finite() && v > 0.0 { v } else { 0.0 };
        let config = SapConfig {
            margin: sane(config.margin),
            velocity_stretch: sane(config.velocity_stretch),
            reevaluate_interval: config.reevaluate_interval.max(1),
            regions: config.regions,
        };
        SweepAndPrune {
            config,
            bodies: Vec::new(),
            count: 0,
            axis: SweepAxis::X,
            band_height: 1.0,
            large_len: f32::INFINITY,
            max_len: 0.0,
            built: false,
            steps_since_eval: 0,
            count_at_eval: 0,
            bands: BTreeMap::new(),
            large: Vec::new(),
            dirty: Vec::new(),
            dirty_bits: Bits::default(),
            static_bits: Bits::default(),
            pairs: Vec::new(),
            added: Vec::new(),
            removed: Vec::new(),
            scratch: Scratch::default(),
        }
    }

    /// The configuration in use (after sanitising).
    pub fn config(&self) -> &SapConfig {
        &self.config
    }

    /// The current sweep axis (chosen by the variance of box centres).
    pub fn sweep_axis(&self) -> SweepAxis {
        self.axis
    }

    /// Number of bodies registered (parked ones included).
    pub fn len(&self) -> usize {
        self.count
    }

    /// `true` when no body is registered.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Registers body `id` with its tight box (m). Inserting an id that is already
    /// present **replaces** it (new box, new static flag), like a teleport. The fat
    /// box is the tight box grown by the margin. Takes effect at the next
    /// [`update_pairs`](Self::update_pairs).
    pub fn insert(&mut self, id: u32, tight: Aabb, is_static: bool) {
        let i = id as usize;
        if i >= self.bodies.len() {
            self.bodies.resize(i + 1, Body::default());
        }
        let margin = self.config.margin;
        let b = &mut self.bodies[i];
        if !b.present {
            self.count += 1;
        }
        b.present = true;
        b.fat = tight
            .is_valid()
            .then(|| make_fat(&tight, Vec2::ZERO, margin, 0.0));
        self.static_bits.assign(id, is_static);
        self.mark(id);
    }

    /// Gives body `id` its new tight box (m) and its displacement this step
    /// (velocity·dt, m), used to stretch the fat box. Returns `true` when the fat box
    /// had to be re-made: the tight box left it, it had grown far larger than needed,
    /// or the body was parked or un-parked by an invalid or valid box. Unknown ids are
    /// ignored (returns `false`).
    pub fn update(&mut self, id: u32, tight: Aabb, displacement: Vec2) -> bool {
        let (margin, stretch) = (self.config.margin, self.config.velocity_stretch);
        let Some(b) = self.bodies.get_mut(id as usize).filter(|b| b.present) else {
            return false;
        };
        if !tight.is_valid() {
            if b.fat.take().is_none() {
                return false;
            }
        } else {
            let fresh = make_fat(&tight, displacement, margin, stretch);
            // The fat box must hold where the body is and where it will be after
            // this step's displacement: speculative contacts for fast bodies need
            // their pair before the body arrives, not after it has tunnelled.
            let d = if displacement.is_finite() {
                displacement
            } else {
                Vec2::ZERO
            };
            let swept = Aabb::new(tight.min + d.min(Vec2::ZERO), tight.max + d.max(Vec2::ZERO));
            if let Some(fat) = b.fat {
                if !needs_remake(&fat, &swept, &fresh, margin) {
                    return false;
                }
            }
            b.fat = Some(fresh);
        }
        self.mark(id);
        true
    }

    /// Unregisters body `id`; its pairs appear in [`removed`](Self::removed) after the
    /// next refresh. Unknown ids are ignored.
    pub fn remove(&mut self, id: u32) {
        if let Some(b) = self.bodies.get_mut(id as usize).filter(|b| b.present) {
            b.present = false;
            b.fat = None;
            self.count -= 1;
            self.mark(id);
        }
    }

    /// Changes whether body `id` is static. Static bodies may move too (through
    /// [`update`](Self::update)); they cost the same as dynamic ones per move, but the
    /// world should expect it to be rare. Unknown ids are ignored.
    pub fn set_static(&mut self, id: u32, is_static: bool) {
        let present = self.bodies.get(id as usize).is_some_and(|b| b.present);
        if present && self.static_bits.get(id) != is_static {
            self.static_bits.assign(id, is_static);
            self.mark(id);
        }
    }

    /// The current fat box of body `id` (m), or `None` when it is absent or parked.
    pub fn fat_aabb(&self, id: u32) -> Option<Aabb> {
        self.bodies
            .get(id as usize)
            .filter(|b| b.present)
            .and_then(|b| b.fat)
    }

    /// All pairs whose fat boxes overlap, as of the last refresh: `(low, high)`, sorted.
    pub fn pairs(&self) -> &[(u32, u32)] {
        &self.pairs
    }

    /// Pairs that appeared in the last refresh, sorted.
    pub fn added(&self) -> &[(u32, u32)] {
        &self.added
    }

    /// Pairs that disappeared in the last refresh, sorted.
    pub fn removed(&self) -> &[(u32, u32)] {
        &self.removed
    }

    /// Re-sorts the endpoints of the bodies changed since the last call and refreshes
    /// the pair set. Cost: O(d·(log n + k)) for d changed bodies with about k boxes in
    /// a scan window each, plus O(pairs) to merge, plus an O(n) re-evaluation of the
    /// sweep axis every `reevaluate_interval` calls (O(n log n) if it rebuilds).
    pub fn update_pairs(&mut self) {
        self.added.clear();
        self.removed.clear();
        self.steps_since_eval = self.steps_since_eval.saturating_add(1);
        let rebuilt = self.should_reevaluate() && self.reevaluate(self.too_many_large());
        if self.dirty.is_empty() {
            return;
        }
        self.dirty.sort_unstable();
        let mut found = std::mem::take(&mut self.scratch.found);
        found.clear();
        if !rebuilt {
            self.apply_dirty(&mut found);
        }
        self.find_other_pairs(rebuilt, &mut found);
        found.sort_unstable();
        found.dedup();
        self.merge_pairs(&found);
        self.scratch.found = found;
        for &id in &self.dirty {
            self.dirty_bits.clear(id);
        }
        self.dirty.clear();
    }

    /// Writes into `out` (cleared first) the ids whose current fat box overlaps `aabb`
    /// (m), ascending. An invalid `aabb` gives no ids.
    pub fn query(&self, aabb: &Aabb, out: &mut Vec<u32>) {
        out.clear();
        if !aabb.is_valid() {
            return;
        }
        let q = canon_box(aabb);
        let (_, _, p0, p1) = self.split(&q);
        let (lo, hi) = (self.band_of(p0), self.band_of(p1));
        // The regions hold each body as of the last refresh; bodies changed since then
        // are skipped there and tested directly against their current fat box.
        self.visit(&q, lo, hi, |o| {
            if !self.dirty_bits.get(o) {
                out.push(o);
            }
        });
        for &d in &self.dirty {
            let b = &self.bodies[d as usize];
            if b.present && b.fat.is_some_and(|f| f.overlaps(&q)) {
                out.push(d);
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    fn mark(&mut self, id: u32) {
        if !self.dirty_bits.get(id) {
            self.dirty_bits.set(id);
            self.dirty.push(id);
        }
    }

    /// `(sweep min, sweep max, cross min, cross max)` of a box (m).
    #[inline]
    fn split(&self, b: &Aabb) -> (f32, f32, f32, f32) {
        match self.axis {
            SweepAxis::X => (b.min.x, b.max.x, b.min.y, b.max.y),
            SweepAxis::Y => (b.min.y, b.max.y, b.min.x, b.max.x),
        }
    }

    /// The band holding cross-axis coordinate `p` (m). Monotone in `p`, which is all
    /// the exactness of the pair search needs.
    #[inline]
    fn band_of(&self, p: f32) -> i32 {
        if !self.config.regions {
            return 0;
        }
        let b = (p as f64 / self.band_height as f64).floor();
        b.clamp(-BAND_LIMIT, BAND_LIMIT) as i32
    }

    fn placement(&self, id: u32, fat: &Aabb) -> (Placed, Entry) {
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

    fn should_reevaluate(&self) -> bool {
        !self.built
            || self.steps_since_eval >= self.config.reevaluate_interval
            || self.count.abs_diff(self.count_at_eval) * 2 > self.count_at_eval
            || self.too_many_large()
    }

    /// More than a quarter of the bodies in the large list means the thresholds are
    /// stale. Fresh ones cannot do that (a quarter of the boxes eight mean lengths long
    /// would make the mean twice itself), so a rebuild settles it.
    fn too_many_large(&self) -> bool {
        self.large.len() > self.count / 4 + 16
    }

    /// Chooses the sweep axis (larger variance of box centres), the band height and
    /// the large-box threshold from the current fat boxes. Rebuilds the regions when
    /// the axis flips, the band height drifts by more than a factor of two, or `force`;
    /// returns `true` if it rebuilt. The pair set is unaffected: it depends on fat
    /// boxes only.
    fn reevaluate(&mut self, force: bool) -> bool {
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
    fn rebuild(&mut self) {
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
    fn apply_dirty(&mut self, found: &mut Vec<Pair>) {
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
        changes.sort_unstable_by_key(|(band, c)| (*band, c.id));
        let mut group = std::mem::take(&mut self.scratch.group);
        for chunk in changes.chunk_by(|a, b| a.0 == b.0) {
            let band = chunk[0].0;
            group.clear();
            group.extend(chunk.iter().map(|&(_, c)| c));
            let v = self.bands.entry(band).or_default();
            region::apply(v, &group, &mut self.scratch.entries);
            // Every region now holds its final boxes and `max_len` bounds them all, so
            // this region's pairs can be read off before moving to the next one.
            let flags = (&self.static_bits, &self.dirty_bits);
            for e in group.iter().filter_map(|c| c.new.as_ref()) {
                region::overlapping(v, band, e, self.max_len, |o| {
                    push_pair(flags, e.id, o, found);
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
    fn visit(&self, fat: &Aabb, lo: i32, hi: i32, mut f: impl FnMut(u32)) {
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
            region::overlapping(v, band, &probe, self.max_len, &mut f);
        }
        for &l in &self.large {
            if self.bodies[l as usize].fat.is_some_and(|b| b.overlaps(fat)) {
                f(l);
            }
        }
    }

    /// Pushes onto `found` the pairs of dirty bodies not found region by region: all
    /// pairs after a rebuild, and otherwise those involving a large body.
    fn find_other_pairs(&self, rebuilt: bool, found: &mut Vec<Pair>) {
        for &d in &self.dirty {
            let b = self.bodies[d as usize];
            let (Some(fat), Some(p)) = (b.fat.filter(|_| b.present), b.placed) else {
                continue;
            };
            let flags = (&self.static_bits, &self.dirty_bits);
            if rebuilt || p.large {
                self.visit(&fat, p.lo, p.hi, |o| push_pair(flags, d, o, found));
                continue;
            }
            for &l in &self.large {
                if self.bodies[l as usize]
                    .fat
                    .is_some_and(|f| f.overlaps(&fat))
                {
                    push_pair(flags, d, l, found);
                }
            }
        }
    }

    /// Replaces the dirty bodies' pairs by `found` (sorted) and records the difference.
    fn merge_pairs(&mut self, found: &[Pair]) {
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

/// Pushes the pair of dirty body `d` and body `o` unless it must not be reported: the
/// same body, two static bodies, or a pair of two dirty bodies seen from the higher
/// id (it is found from both ends; the lower id's copy is kept).
/// `flags` are the static and the dirty bitsets.
#[inline]
fn push_pair(flags: (&Bits, &Bits), d: u32, o: u32, found: &mut Vec<Pair>) {
    let (is_static, dirty) = flags;
    if o == d || (is_static.get(d) && is_static.get(o)) || (o < d && dirty.get(o)) {
        return;
    }
    found.push(if d < o { (d, o) } else { (o, d) });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bx(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb {
        Aabb::new(Vec2::new(x0, y0), Vec2::new(x1, y1))
    }

    fn tight_config() -> SapConfig {
        SapConfig {
            margin: 0.0,
            velocity_stretch: 0.0,
            ..SapConfig::default()
        }
    }

    #[test]
    fn touching_boxes_pair() {
        let mut sap = SweepAndPrune::new(tight_config());
        sap.insert(0, bx(0.0, 0.0, 1.0, 1.0), false);
        sap.insert(1, bx(1.0, 0.0, 2.0, 1.0), false);
        sap.insert(2, bx(0.0, 1.0, 1.0, 2.0), false);
        sap.insert(3, bx(2.5, 2.5, 3.0, 3.0), false);
        sap.update_pairs();
        assert_eq!(sap.pairs(), &[(0, 1), (0, 2), (1, 2)]);
        assert_eq!(sap.added(), sap.pairs());
    }

    #[test]
    fn static_pairs_are_never_reported() {
        let mut sap = SweepAndPrune::new(tight_config());
        sap.insert(0, bx(0.0, 0.0, 1.0, 1.0), true);
        sap.insert(1, bx(0.5, 0.0, 2.0, 1.0), true);
        sap.insert(2, bx(0.5, 0.5, 2.0, 1.0), false);
        sap.update_pairs();
        assert_eq!(sap.pairs(), &[(0, 2), (1, 2)]);
        sap.set_static(1, false);
        sap.update_pairs();
        assert_eq!(sap.pairs(), &[(0, 1), (0, 2), (1, 2)]);
        assert_eq!(sap.added(), &[(0, 1)]);
    }

    #[test]
    fn invalid_boxes_park_the_body() {
        let mut sap = SweepAndPrune::new(SapConfig::default());
        sap.insert(0, bx(0.0, 0.0, 1.0, 1.0), false);
        sap.insert(1, bx(0.5, 0.5, 1.5, 1.5), false);
        sap.update_pairs();
        assert_eq!(sap.pairs(), &[(0, 1)]);
        let nan = bx(f32::NAN, 0.0, 1.0, 1.0);
        assert!(sap.update(1, nan, Vec2::ZERO));
        assert!(!sap.update(1, nan, Vec2::ZERO));
        sap.update_pairs();
        assert!(sap.pairs().is_empty());
        assert_eq!(sap.fat_aabb(1), None);
        assert_eq!(sap.len(), 2);
        sap.insert(2, bx(f32::INFINITY, 0.0, 1.0, 1.0), false);
        sap.update_pairs();
        assert!(sap.update(1, bx(0.5, 0.5, 1.5, 1.5), Vec2::ZERO));
        sap.update_pairs();
        assert_eq!(sap.pairs(), &[(0, 1)]);
    }

    #[test]
    fn insert_replaces_and_remove_reports() {
        let mut sap = SweepAndPrune::new(tight_config());
        sap.insert(3, bx(0.0, 0.0, 1.0, 1.0), false);
        sap.insert(5, bx(0.5, 0.5, 1.5, 1.5), false);
        sap.update_pairs();
        sap.insert(5, bx(10.0, 10.0, 11.0, 11.0), false);
        sap.update_pairs();
        assert_eq!(sap.len(), 2);
        assert!(sap.pairs().is_empty());
        assert_eq!(sap.removed(), &[(3, 5)]);
        sap.insert(5, bx(0.5, 0.5, 1.5, 1.5), false);
        sap.update_pairs();
        sap.remove(3);
        sap.remove(3);
        sap.update_pairs();
        assert_eq!(sap.removed(), &[(3, 5)]);
        assert_eq!(sap.len(), 1);
        assert!(!sap.update(3, bx(0.0, 0.0, 1.0, 1.0), Vec2::ZERO));
    }

    #[test]
    fn query_is_sorted_and_sees_pending_changes() {
        let mut sap = SweepAndPrune::new(tight_config());
        for i in 0..20u32 {
            let x = (19 - i) as f32;
            sap.insert(i, bx(x, 0.0, x + 0.5, 0.5), false);
        }
        sap.update_pairs();
        let mut out = Vec::new();
        sap.query(&bx(2.0, 0.0, 5.0, 1.0), &mut out);
        assert_eq!(out, vec![14, 15, 16, 17]);
        sap.update(0, bx(3.0, 0.2, 3.1, 0.3), Vec2::ZERO);
        sap.query(&bx(2.0, 0.0, 5.0, 1.0), &mut out);
        assert_eq!(out, vec![0, 14, 15, 16, 17]);
        sap.query(&bx(f32::NAN, 0.0, 5.0, 1.0), &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn axis_follows_the_spread() {
        let mut sap = SweepAndPrune::new(tight_config());
        for i in 0..50u32 {
            let y = i as f32 * 2.0;
            sap.insert(i, bx(0.0, y, 1.0, y + 1.0), false);
        }
        sap.update_pairs();
        assert_eq!(sap.sweep_axis(), SweepAxis::Y);
    }
}
