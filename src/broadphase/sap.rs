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
use super::tree::QueryTree;
use super::PairFilter;
use super::SapConfig;
use crate::math::Aabb;
use crate::math::Vec2;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

mod crowd;
mod maintain;
mod motion;
mod queries;

pub use crowd::{MAX_FOUND_PAIRS, MAX_PAIRS_PER_BODY};

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
    /// Its own fat-box margin (m), if it was given one at insertion; the
    /// configured margin otherwise.
    #[serde(default)]
    margin: Option<f32>,
    /// The last update's tight box, displacement (m) and refresh number,
    /// for [`SapConfig::relative_motion`] (see `motion`).
    #[serde(default)]
    motion: Option<(Aabb, Vec2, u32)>,
}

/// Reused buffers; rebuilt on demand, so they are not part of a snapshot.
#[derive(Clone, Debug, Default)]
struct Scratch {
    changes: Vec<(i32, Change)>,
    by_band: Vec<(i32, Change)>,
    band_counts: Vec<u32>,
    group: Vec<Change>,
    entries: Vec<Entry>,
    found: Vec<Pair>,
    next: Vec<Pair>,
    old: Vec<Pair>,
    crowd: crowd::Crowd,
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

    /// Replaces `out` by the set ids, ascending.
    fn ones(&self, out: &mut Vec<u32>) {
        out.clear();
        for (w, &word) in self.0.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                out.push(w as u32 * 64 + bits.trailing_zeros());
                bits &= bits - 1;
            }
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
/// - Pairs of two static bodies are never reported, nor pairs whose filters
///   ([`set_filter`](Self::set_filter)) refuse each other.
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
    /// Collision filters by id (absent: [`PairFilter::ALL`]).
    #[serde(default)]
    filters: Vec<PairFilter>,
    pairs: Vec<Pair>,
    added: Vec<Pair>,
    removed: Vec<Pair>,
    /// Bodies the crowd cap refused a pair in the last refresh.
    #[serde(default)]
    capped: usize,
    /// The pairs of overlapping fat boxes that the last refresh left out
    /// because their relative motion could not close them (see
    /// [`SapConfig::relative_motion`]), sorted: each refresh tests them
    /// again, unless a moved end looks for its pairs anyway.
    #[serde(default)]
    waiting: Vec<Pair>,
    /// Refreshes of the pair set so far (wrapping): the number of the one
    /// the next [`update`](Self::update) calls are for.
    #[serde(default)]
    refreshes: u32,
    #[serde(skip)]
    scratch: Scratch,
    /// The query tree over the current fat boxes, built by the first
    /// [`tree`](Self::tree) call after a change; any change empties it. A
    /// cache: not part of a snapshot, and not read by the step.
    #[serde(skip)]
    tree: OnceLock<QueryTree>,
    /// The same over the static-flagged bodies only, for
    /// [`query_static`](Self::query_static); a change to a static body
    /// empties it. Read by the step's continuous stage, which gives the
    /// same answers with or without it (it is a pure function of the boxes).
    #[serde(skip)]
    static_tree: OnceLock<QueryTree>,
}

impl SweepAndPrune {
    /// An empty broadphase. Negative or non-finite `margin` and `velocity_stretch`
    /// are taken as 0, and a `reevaluate_interval` of 0 as 1.
    pub fn new(config: SapConfig) -> Self {
        let sane = |v: f32| if v.is_finite() && v > 0.0 { v } else { 0.0 };
        let config = SapConfig {
            margin: sane(config.margin),
            velocity_stretch: sane(config.velocity_stretch),
            lead: sane(config.lead),
            reevaluate_interval: config.reevaluate_interval.max(1),
            regions: config.regions,
            crowd_cap: config.crowd_cap,
            relative_motion: config.relative_motion,
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
            filters: Vec::new(),
            pairs: Vec::new(),
            added: Vec::new(),
            removed: Vec::new(),
            capped: 0,
            waiting: Vec::new(),
            refreshes: 0,
            scratch: Scratch::default(),
            tree: OnceLock::new(),
            static_tree: OnceLock::new(),
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
        self.insert_with_margin(id, tight, is_static, None);
    }

    /// [`insert`](Self::insert) with the body's own fat-box margin (m), kept
    /// for every later [`update`](Self::update); `None` uses the configured
    /// margin. A negative or non-finite margin is taken as 0.
    pub fn insert_with_margin(
        &mut self,
        id: u32,
        tight: Aabb,
        is_static: bool,
        margin: Option<f32>,
    ) {
        let i = id as usize;
        if i >= self.bodies.len() {
            self.bodies.resize(i + 1, Body::default());
        }
        let own = margin.map(|m| if m.is_finite() && m > 0.0 { m } else { 0.0 });
        let margin = own.unwrap_or(self.config.margin);
        let b = &mut self.bodies[i];
        if !b.present {
            self.count += 1;
        }
        b.present = true;
        b.margin = own;
        b.fat = tight
            .is_valid()
            .then(|| make_fat(&tight, Vec2::ZERO, margin, 0.0, 0.0));
        b.motion = tight
            .is_valid()
            .then_some((tight, Vec2::ZERO, self.refreshes));
        self.static_bits.assign(id, is_static);
        if let Some(f) = self.filters.get_mut(i) {
            *f = PairFilter::ALL;
        }
        self.mark(id);
        self.tree.take();
        // It may have been static before, or be now.
        self.static_tree.take();
    }

    /// Sets the collision filter of body `id` (default [`PairFilter::ALL`];
    /// [`insert`](Self::insert) resets it): pairs the filters refuse are
    /// never reported. Unknown ids are ignored.
    pub fn set_filter(&mut self, id: u32, filter: PairFilter) {
        let i = id as usize;
        if !self.bodies.get(i).is_some_and(|b| b.present) {
            return;
        }
        if i >= self.filters.len() {
            if filter == PairFilter::ALL {
                return;
            }
            self.filters.resize(i + 1, PairFilter::ALL);
        }
        if self.filters[i] != filter {
            self.filters[i] = filter;
            self.mark(id);
        }
    }

    /// Gives body `id` its new tight box (m) and its displacement this step
    /// (velocity·dt, m), used to stretch the fat box. Returns `true` when the fat box
    /// had to be re-made: the tight box left it, it had grown far larger than needed,
    /// or the body was parked or un-parked by an invalid or valid box. Unknown ids are
    /// ignored (returns `false`).
    pub fn update(&mut self, id: u32, tight: Aabb, displacement: Vec2) -> bool {
        let (config_margin, stretch, lead) = (
            self.config.margin,
            self.config.velocity_stretch,
            self.config.lead,
        );
        let refreshes = self.refreshes;
        let Some(b) = self.bodies.get_mut(id as usize).filter(|b| b.present) else {
            return false;
        };
        let margin = b.margin.unwrap_or(config_margin);
        b.motion = tight.is_valid().then_some((tight, displacement, refreshes));
        if !tight.is_valid() {
            if b.fat.take().is_none() {
                return false;
            }
        } else {
            let fresh = make_fat(&tight, displacement, margin, stretch, lead);
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
        // The query trees hold the old box: they are rebuilt on the next query.
        self.tree.take();
        if self.static_bits.get(id) {
            self.static_tree.take();
        }
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
            self.tree.take();
            if self.static_bits.get(id) {
                self.static_tree.take();
            }
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
            self.static_tree.take();
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

    /// How many bodies the crowd cap refused a pair in the last refresh
    /// (0 unless bodies are piled on one another; see [`MAX_PAIRS_PER_BODY`]).
    pub fn capped(&self) -> usize {
        self.capped
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
        self.refresh_pairs();
        self.refreshes = self.refreshes.wrapping_add(1);
    }

    /// [`update_pairs`](Self::update_pairs) but for counting the refresh.
    fn refresh_pairs(&mut self) {
        self.added.clear();
        self.removed.clear();
        self.steps_since_eval = self.steps_since_eval.saturating_add(1);
        let rebuilt = self.should_reevaluate() && self.reevaluate(self.too_many_large());
        if self.dirty.is_empty() && self.waiting.is_empty() {
            return;
        }
        // The dirty ids, ascending: read off the bitset (n/64 words) when
        // many bodies moved, as in a pour where most do every step; sorted
        // when few did. The same list either way.
        if self.dirty_bits.0.len() <= self.dirty.len() * 8 {
            self.dirty_bits.ones(&mut self.dirty);
        } else {
            self.dirty.sort_unstable();
        }
        let mut found = std::mem::take(&mut self.scratch.found);
        found.clear();
        self.scratch.crowd.enabled = self.config.crowd_cap;
        self.scratch.crowd.begin(self.bodies.len());
        if !rebuilt {
            self.apply_dirty(&mut found);
        }
        let mut crowd = std::mem::take(&mut self.scratch.crowd);
        self.find_other_pairs(rebuilt, &mut crowd, &mut found);
        self.retest_waiting(&mut crowd, &mut found);
        pairs::sort_pairs(&mut found, &mut self.scratch.next);
        found.dedup();
        self.merge_pairs(&found);
        self.scratch.found = found;
        for &id in &self.dirty {
            self.dirty_bits.clear(id);
        }
        self.dirty.clear();
        // Bodies the crowd cap refused a pair look for their pairs again at
        // the next refresh.
        let capped = crowd.finish();
        self.capped = capped.len();
        for id in capped {
            self.mark(id);
        }
        crowd.take_waiting(&mut self.waiting, &mut self.scratch.next);
        self.scratch.crowd = crowd;
    }

    /// The query tree over the current fat boxes of all registered, unparked
    /// bodies (see [`QueryTree`]). Built here on the first call after any
    /// insert, remove, or re-made fat box (O(n log n)), then reused: steps in
    /// which no fat box is re-made keep it, and steps that never ask for it
    /// never build it. `&self`: the cache is a [`OnceLock`], so the broadphase
    /// stays `Send` and `Sync`, and the tree, a pure function of the fat boxes,
    /// is the same whenever it is built.
    pub fn tree(&self) -> &QueryTree {
        self.tree.get_or_init(|| {
            QueryTree::build(
                self.bodies
                    .iter()
                    .enumerate()
                    .filter_map(|(i, b)| b.fat.filter(|_| b.present).map(|f| (i as u32, f))),
            )
        })
    }

    /// `true` when the query tree is built and current (for tests and
    /// benchmarks: a step that nobody queries must not build it).
    pub fn tree_is_built(&self) -> bool {
        self.tree.get().is_some()
    }
}

#[cfg(test)]
mod tests;
