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

use super::{Aabb, Bits, Body, Pair, PairFilter, Vec2};

/// What [`push_pair`] needs to test a pair's motion: the bodies, the
/// configured margin, and the refresh under way.
pub(super) type Motion<'a> = (&'a [Body], f32, u32);

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
    /// Pairs whose relative motion cannot close them this step (see
    /// [`super::SapConfig::relative_motion`]), with repeats: they are
    /// tested again at the next refresh, with the motion of that step.
    waiting: Vec<Pair>,
    /// Where in `waiting` the retested pairs begin (see [`Crowd::retesting`]).
    retested_from: usize,
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

    /// Marks where the retest of the last refresh's waiting pairs begins
    /// (`SweepAndPrune::retest_waiting`): the pairs it leaves waiting again
    /// come in that list's sorted order, and none of them is one a scan
    /// found, as a scan's pairs have a dirty end and a retested pair has
    /// none.
    pub fn retesting(&mut self) {
        self.retested_from = self.waiting.len();
    }

    /// The pairs refused for their motion this refresh, sorted and without
    /// repeats (emptied): the scans' pairs sorted (by the pairs' radix
    /// sort, with `scratch` as its buffer, any memory: the refresh passes
    /// its replaced pair set), then merged with the retested ones, already
    /// in order. A pour leaves some 20,000 pairs waiting a step.
    pub fn take_waiting(&mut self, out: &mut Vec<Pair>, scratch: &mut Vec<Pair>) {
        let from = std::mem::take(&mut self.retested_from).min(self.waiting.len());
        out.clear();
        out.extend_from_slice(&self.waiting[..from]);
        super::pairs::sort_pairs(out, scratch);
        out.dedup();
        let retested = &self.waiting[from..];
        debug_assert!(retested.windows(2).all(|w| w[0] < w[1]));
        if !retested.is_empty() {
            scratch.clear();
            super::pairs::merge_sorted(out, retested, scratch);
            std::mem::swap(out, scratch);
        }
        self.waiting.clear();
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
/// cap counts only pairs the filters accept), or, with `motion` (when
/// [`super::SapConfig::relative_motion`] is on), a pair whose relative
/// motion cannot bring it together this step (it waits instead). `flags`
/// are the static and the dirty bitsets, the filters by id, and `motion`.
#[inline(always)]
pub(super) fn push_pair(
    flags: (&Bits, &Bits, &[PairFilter], Option<Motion>),
    crowd: &mut Crowd,
    d: u32,
    o: u32,
    found: &mut Vec<Pair>,
) {
    let (is_static, dirty, filters, motion) = flags;
    let (sd, so) = (is_static.get(d), is_static.get(o));
    if o == d || (sd && so) || (o < d && dirty.get(o)) {
        return;
    }
    let filter = |id: u32| filters.get(id as usize).copied().unwrap_or_default();
    if !filter(d).accepts(&filter(o)) {
        return;
    }
    let pair = if d < o { (d, o) } else { (o, d) };
    if let Some((bodies, margin, now)) = motion {
        // Tested from the lower id, so that both ends decide alike.
        let (a, b) = (&bodies[pair.0 as usize], &bodies[pair.1 as usize]);
        let (ma, mb) = (a.margin.unwrap_or(margin), b.margin.unwrap_or(margin));
        if !Body::may_meet(a, ma, b, mb, now) {
            // Decided on this step's motion: the pair is tested again at
            // the next refresh, and found once it starts closing in.
            crowd.waiting.push(pair);
            return;
        }
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
    found.push(pair);
}

impl Body {
    /// Whether bodies `a` and `b` (margins `ma`, `mb`, m) may meet within
    /// this step as they move relative to each other: `a`'s tight box grown
    /// by its margin and swept by the pair's relative displacement overlaps
    /// `b`'s grown by its own, in refresh `now`. A body not updated for
    /// this refresh (asleep, static, or never) counts as possibly meeting
    /// anything: a sleeping body must be woken by every contact a moving
    /// one has with it, even one that the moving body's motion at the start
    /// of the step cannot close (an impact behind it may speed it up).
    pub(super) fn may_meet(a: &Body, ma: f32, b: &Body, mb: f32, now: u32) -> bool {
        let (Some((ta, da, at)), Some((tb, db, bt))) = (a.motion, b.motion) else {
            return true;
        };
        if at != now || bt != now {
            return true;
        }
        let r = da - db;
        if !r.is_finite() {
            return true;
        }
        let swept = Aabb::new(
            ta.min + r.min(Vec2::ZERO) - Vec2::splat(ma),
            ta.max + r.max(Vec2::ZERO) + Vec2::splat(ma),
        );
        let other = Aabb::new(tb.min - Vec2::splat(mb), tb.max + Vec2::splat(mb));
        swept.overlaps(&other)
    }
}
