//! Loads asked for ahead of use: the narrowphase and the solver visit
//! contacts, bodies and shapes scattered over large arrays, and in a large
//! scene each visit would wait on a cache miss. Each of these asks the CPU
//! for a record's cache lines a few visits early (`math::prefetch`). They
//! are hints: nothing computed reads them, so no result can change.

use super::contact_pool::{Contact, Touch};
use super::motion::Visit;
use super::world::World;
use crate::dynamics::Body;
use crate::math::prefetch;

/// How many contacts ahead (in list order) the narrowphase asks for a
/// contact's record; see `World::prefetch_pairs_ahead`.
const PAIR_AHEAD: usize = 8;

impl World {
    /// Asks the CPU to load, ahead of the narrowphase's visit, what the
    /// visit of contact `i` (in list order) and later ones reads and would
    /// miss in a large scene, from the contacts scattered over the pool:
    /// the contact `PAIR_AHEAD` on, the bodies of the one half as far on
    /// (its record loaded by then), and the shapes of the next one (its
    /// bodies loaded). Hints only: nothing computed changes.
    #[inline(always)]
    pub(super) fn prefetch_pairs_ahead(&self, i: usize) {
        let order = self.contacts.order();
        if let Some(&k) = order.get(i + PAIR_AHEAD) {
            // A contact the stage may pass over needs one line of its record
            // to be sure, and one at rest none (see `dormant.rs`); the others
            // need all of it.
            let c = &self.contacts[k as usize];
            match self.scratch.dormant[i + PAIR_AHEAD] {
                Visit::Collide => c.prefetch(),
                Visit::Dormant => prefetch(&c.manifold.count),
                Visit::Resting => {}
            }
        }
        let body = |at: u32| self.slots.get(at as usize).and_then(|s| s.body.as_ref());
        let passed = |j: usize| j < order.len() && self.passes_over(j);
        if let Some(&k) = order
            .get(i + PAIR_AHEAD / 2)
            .filter(|_| !passed(i + PAIR_AHEAD / 2))
        {
            let c = &self.contacts[k as usize];
            for at in [c.body_a, c.body_b] {
                if let Some(slot) = self.slots.get(at as usize) {
                    prefetch(slot);
                    if let Some(b) = slot.body.as_ref() {
                        prefetch_body(b);
                    }
                }
            }
        }
        if let Some(&k) = order.get(i + 1).filter(|_| !passed(i + 1)) {
            let c = &self.contacts[k as usize];
            for (at, child) in [(c.body_a, c.child_a), (c.body_b, c.child_b)] {
                if let Some(s) = body(at).and_then(|b| b.colliders.get(child as usize)) {
                    prefetch(&s.shape);
                    prefetch(&s.local);
                }
            }
        }
    }
}

/// The fields the narrowphase reads of a body.
#[inline(always)]
fn prefetch_body(b: &Body) {
    prefetch(&b.colliders);
    prefetch(&b.xf);
    prefetch(&b.v);
    prefetch(&b.awake);
    prefetch(&b.sleep_island);
}

impl Contact {
    /// Asks for the parts of this record that the narrowphase reads.
    #[inline(always)]
    pub(crate) fn prefetch(&self) {
        prefetch(&self.body_a);
        prefetch(&self.manifold.points[0]);
        prefetch(&self.manifold.points[1]);
        prefetch(&self.features[0]);
        prefetch(&self.features[1]);
        prefetch(&self.cache);
        prefetch(&self.reuse);
        prefetch(&self.friction);
    }
}

impl Touch {
    /// Asks for this record's cache lines: one field every 64 bytes or
    /// less, first and last included (`prefetch_covers_every_line` checks
    /// it), for the solver's build, which visits the touching list out of
    /// order.
    #[inline(always)]
    pub(crate) fn prefetch(&self) {
        prefetch(&self.features[0]);
        prefetch(&self.features[1]);
        prefetch(&self.manifold.points[1]);
        prefetch(&self.slot);
        prefetch(&self.lever);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrowphase::manifold::{Manifold, PointFeature};

    /// `Touch::prefetch` asks for a field at most every 64 bytes through
    /// the record, so every cache line it spans is asked for wherever it
    /// starts.
    #[test]
    fn prefetch_covers_every_line() {
        use crate::narrowphase::manifold::ManifoldPoint;
        use std::mem::{offset_of, size_of};
        let manifold = offset_of!(Touch, manifold) + offset_of!(Manifold, points);
        let mut probes = [
            offset_of!(Touch, features),
            offset_of!(Touch, features) + size_of::<PointFeature>(),
            manifold + size_of::<ManifoldPoint>(),
            offset_of!(Touch, slot),
            offset_of!(Touch, lever),
        ];
        probes.sort_unstable();
        assert_eq!(probes[0], 0, "{probes:?}");
        assert!(probes.windows(2).all(|w| w[1] - w[0] <= 64), "{probes:?}");
        assert!(size_of::<Touch>() - 1 - probes[4] < 64, "{probes:?}");
    }
}
