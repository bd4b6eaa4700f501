//! The crowd cap: what keeps a pile of bodies dropped on one spot from making
//! a pair for every two of them.
//!
//! A crowd of c bodies overlapping one another makes c²/2 pairs, and every
//! pair becomes a contact the narrowphase and the solver keep: 1,000 bodies at
//! one point made 500,000 contacts and 550 MB, and many_pyramids with all its
//! pyramids on one spot (22,000 boxes, 400 deep) about 30 million, more than
//! the memory of the machine. The cap keeps the pairs bounded and lets the
//! solver push the crowd apart, a bounded number of neighbours at a time:
//!
//! - a pair of two moving bodies is accepted while either body has found fewer
//!   than [`MAX_PAIRS_PER_BODY`] such pairs in the refresh, and refused when
//!   both have; a pair with a static body is always accepted (the world
//!   inserts kinematic shapes as static too, so a kinematic drum keeps all of
//!   its pairs). Every accepted
//!   pair uses up one unit of an unsaturated body, so a refresh finds at most
//!   `MAX_PAIRS_PER_BODY` × (moving bodies) pairs, and a body with many small
//!   neighbours (a plank under pebbles) keeps them all, as the pebbles are not
//!   saturated;
//! - no refresh finds more than [`MAX_FOUND_PAIRS`] pairs in all;
//! - a body that refused a pair stays dirty, so its pairs are looked for again
//!   at the next refresh, and the missing ones appear as the crowd thins out.
//!
//! Ordinary scenes never reach the cap: bodies that do not overlap have a few
//! neighbours each, and the test `extreme.rs` checks that no shipped scene
//! but Box2D's spinner (bodies flung at up to 150 m/s, a 40 m paddle) is
//! ever capped (the most pairs one body has with moving bodies there is 252,
//! smash's big box, whose small neighbours are far from saturated). The cap
//! is deterministic: the pairs are visited in the refresh's fixed order.

use super::{Bits, Pair, PairFilter};

/// Pairs with other moving bodies a body may find in one refresh before it
/// counts as saturated.
pub const MAX_PAIRS_PER_BODY: u16 = 64;
/// Most pairs one refresh may find (about 1.2 GB of contacts at most).
pub const MAX_FOUND_PAIRS: usize = 1_000_000;

/// Per-refresh counts (scratch: all zero between refreshes).
#[derive(Clone, Debug, Default)]
pub(super) struct Crowd {
    /// The cap is on ([`super::SapConfig::crowd_cap`]).
    pub enabled: bool,
    /// Pairs found this refresh with another moving body, by id.
    count: Vec<u16>,
    /// Ids whose count is non-zero, to reset.
    touched: Vec<u32>,
    /// Whether an id had a pair refused this refresh, by id.
    refused: Vec<bool>,
    /// Ids that had a pair refused this refresh.
    capped: Vec<u32>,
}

impl Crowd {
    /// Sizes the per-id counts for ids below `ids`, once per refresh, so
    /// that the per-pair calls below index without growing.
    pub fn begin(&mut self, ids: usize) {
        if self.count.len() < ids {
            self.count.resize(ids, 0);
            self.refused.resize(ids, false);
        }
    }

    #[inline]
    fn get(&self, id: u32) -> u16 {
        self.count[id as usize]
    }

    #[inline]
    fn bump(&mut self, id: u32) {
        let n = &mut self.count[id as usize];
        if *n == 0 {
            self.touched.push(id);
        }
        *n = n.saturating_add(1);
    }

    fn refuse(&mut self, id: u32) {
        let i = id as usize;
        if !self.refused[i] {
            self.refused[i] = true;
            self.capped.push(id);
        }
    }

    /// Zeroes the counts and returns the capped ids, sorted.
    pub fn finish(&mut self) -> Vec<u32> {
        for &id in &self.touched {
            self.count[id as usize] = 0;
        }
        self.touched.clear();
        let mut capped = std::mem::take(&mut self.capped);
        for &id in &capped {
            self.refused[id as usize] = false;
        }
        capped.sort_unstable();
        capped
    }
}

/// Pushes the pair of dirty body `d` and body `o` unless it must not be
/// reported: the same body, two static bodies, a pair of two dirty bodies seen
/// from the higher id (it is found from both ends; the lower id's copy is
/// kept), a pair the filters refuse, or a pair the crowd cap refuses (the
/// cap counts only pairs the filters accept). `flags` are the static and the
/// dirty bitsets and the filters by id.
#[inline]
pub(super) fn push_pair(
    flags: (&Bits, &Bits, &[PairFilter]),
    crowd: &mut Crowd,
    d: u32,
    o: u32,
    found: &mut Vec<Pair>,
) {
    let (is_static, dirty, filters) = flags;
    let (sd, so) = (is_static.get(d), is_static.get(o));
    if o == d || (sd && so) || (o < d && dirty.get(o)) {
        return;
    }
    let filter = |id: u32| filters.get(id as usize).copied().unwrap_or_default();
    if !filter(d).accepts(&filter(o)) {
        return;
    }
    if crowd.enabled && !sd && !so {
        let full = crowd.get(d) >= MAX_PAIRS_PER_BODY && crowd.get(o) >= MAX_PAIRS_PER_BODY;
        if full || found.len() >= MAX_FOUND_PAIRS {
            crowd.refuse(d);
            crowd.refuse(o);
            return;
        }
        crowd.bump(d);
        crowd.bump(o);
    }
    found.push(if d < o { (d, o) } else { (o, d) });
}
