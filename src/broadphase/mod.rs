//! Broadphase: an incremental sweep-and-prune over fat AABBs, split into regions.
//!
//! Pipeline stage: after velocity integration, before the GJK narrowphase. It turns
//! n bodies into the short list of pairs whose fat boxes overlap.
//!
//! # Algorithm
//!
//! - **Fat boxes.** Each stored box is the tight box grown by
//!   [`SapConfig::margin`] and stretched along the step's displacement
//!   ([`SapConfig::velocity_stretch`]), and a little further ahead
//!   ([`SapConfig::lead`]). [`SweepAndPrune::update`] re-makes it only when
//!   the tight box swept by the step's displacement leaves it (or it has become
//!   far too large), so a slow body leaves the structure untouched for many steps.
//! - **Persistent sorted endpoints.** The sweep axis's lower endpoints live in sorted
//!   arrays that persist between steps. A body whose fat box was re-made has its
//!   entries shifted into place by insertion (cost: the entries it passes), or, when a
//!   region receives many changes at once (teleports), the region is filtered and
//!   merged in O(len + c log c). Upper endpoints are implied: every stored box is at
//!   most `max_len` long on the sweep axis, so the boxes reaching a point `s` all start
//!   in `[s − max_len, s]`; boxes longer than 8 mean lengths (a ground plane) or
//!   spanning more than 8 regions go to a short "large" list tested directly.
//! - **Incremental pairs.** A pair can only change if one of its boxes changed, so
//!   [`SweepAndPrune::update_pairs`] sweeps only around the d changed ("dirty")
//!   bodies and diffs their pairs against the old ones: O(d·(log n + k) + pairs)
//!   per step rather than O(n + k·n) for a sweep over everything.
//! - **Axis choice.** The sweep axis is the one with the larger variance of box
//!   centres (with 25 % hysteresis), re-evaluated every
//!   [`SapConfig::reevaluate_interval`] refreshes and when the body count changes by
//!   half. Candidates are confirmed on the other axis.
//! - **Dense piles: multi-SAP regions.** In a pile many intervals overlap on the sweep
//!   axis, so every scan window holds k ≈ a whole column of boxes. The world is cut
//!   along the cross axis into bands of twice the mean box height, each with its own
//!   sorted array; a box is stored in each band it touches (usually one or two) and a
//!   pair is reported only in the first band both share, so no de-duplication is
//!   needed. A window then holds only the boxes of one band. Measured with
//!   `cargo bench --bench broadphase` on a settled 100k-box pyramid with about 2 % of
//!   its fat boxes re-made per step: 4.3 ms per step with regions against 12.6 ms
//!   with one sweep (`regions: false`), and 43 ms against 146 ms to build the pile
//!   from scratch, where every box is new (2-core machine; `docs/broadphase.md`).
//!   Bands were chosen over a grid of 2D cells because they keep the sorted 1D sweep
//!   inside each region and need no hashing.
//!
//! # Costs
//!
//! Per step, with n bodies, d of them re-made, k boxes per scan window and P pairs:
//! O(n) for the `update` calls, O(d·(log n + swaps + k)) to re-sort and re-query,
//! O(P) to merge the pair set. A re-evaluation costs O(n) every
//! `reevaluate_interval` steps and O(n log n) when it rebuilds (axis flip or band
//! height off by 2×). Memory: about 40 bytes per id up to the largest id, plus
//! 24 bytes per region entry and 8 bytes per pair.
//!
//! # Guarantees
//!
//! - Pairs are `(lower id, higher id)`; [`SweepAndPrune::pairs`],
//!   [`SweepAndPrune::added`] and [`SweepAndPrune::removed`] are sorted. Output
//!   depends only on the sequence of calls: no hashing, no randomness, no threads.
//! - **Touching boxes overlap**: intervals are closed, as in [`crate::Aabb::overlaps`].
//! - Static–static pairs are never reported, nor pairs whose [`PairFilter`]s
//!   (set with [`SweepAndPrune::set_filter`]) refuse each other: they are
//!   dropped where the sweep finds them, before they are sorted, merged or
//!   counted against the crowd cap (as Box2D's pair query does).
//! - Invalid boxes (non-finite, or `min > max`) park a body without a panic: it keeps
//!   its id but has no fat box and no pairs until a valid box arrives.

mod fat;
mod filter;
mod pairs;
mod region;
mod sap;
mod tree;

use serde::{Deserialize, Serialize};

pub use filter::PairFilter;
pub use pairs::Pair;
pub use sap::{SweepAndPrune, SweepAxis, MAX_FOUND_PAIRS, MAX_PAIRS_PER_BODY};
pub use tree::{QueryTree, TreeRay, LEAF_SIZE};

/// Settings of [`SweepAndPrune`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SapConfig {
    /// Distance each fat box extends beyond the tight box on every side (m).
    /// Default 0.1.
    pub margin: f32,
    /// Look-ahead along the displacement (unitless multiple of the displacement passed
    /// to [`SweepAndPrune::update`]): the fat box also covers the tight box moved by
    /// `displacement * velocity_stretch`. Default 1.0 (one step ahead).
    pub velocity_stretch: f32,
    /// Further look-ahead along the displacement (unitless, in steps),
    /// capped on each axis at one margin a step: the fat box also covers
    /// the tight box moved on by `clamp(displacement · lead, ±lead · margin)`
    /// beyond the stretch. A body at cruising speed then keeps its fat box
    /// (and its place in the sorted arrays) for about `lead` more steps,
    /// while a fast body's box grows by at most `lead` margins, so that it
    /// does not widen every scan window. Default 0; worlds use
    /// [`WORLD_LEAD`].
    #[serde(default)]
    pub lead: f32,
    /// Number of [`SweepAndPrune::update_pairs`] calls between re-evaluations of the
    /// sweep axis and region size (steps). Default 32.
    pub reevaluate_interval: u32,
    /// Split the world into regions, each with its own sweep (multi-SAP). `false`
    /// keeps one sweep for the whole world, for comparison. Default `true`.
    pub regions: bool,
    /// Bound the pairs of bodies piled on one another (see
    /// [`MAX_PAIRS_PER_BODY`]). `false` reports every overlapping pair, as the
    /// brute-force oracle of the tests does. Default `true`.
    #[serde(default = "yes")]
    pub crowd_cap: bool,
    /// Report only the pairs whose boxes, grown by their margins, can meet
    /// this step as the two bodies move relative to each other. The fat
    /// boxes are stretched along each body's own displacement, so bodies
    /// that fall or drift side by side overlap there without ever closing
    /// in; with this on, such pairs are left out until their relative
    /// motion can bring them together. `false` reports every pair of
    /// overlapping fat boxes, as the brute-force oracle of the tests does.
    /// Default `false`; worlds turn it on.
    #[serde(default)]
    pub relative_motion: bool,
}

/// The [`SapConfig::lead`] of a world's broadphase. In Box2D v3's
/// `tumbler`, 82 % of the boxes re-made their fat box every step without
/// it (the box must hold the next step's sweep, and one step's stretch
/// plus a 4 cm margin is spent in a step or two at tumbling speeds); with
/// 2 it is 47 %, and the broadphase's share of the step falls from 24 %
/// to 21 % (docs/2026-12-03-fat-box-lead.md).
pub const WORLD_LEAD: f32 = 2.0;

fn yes() -> bool {
    true
}

impl Default for SapConfig {
    fn default() -> Self {
        SapConfig {
            margin: 0.1,
            velocity_stretch: 1.0,
            lead: 0.0,
            reevaluate_interval: 32,
            regions: true,
            crowd_cap: true,
            relative_motion: false,
        }
    }
}
