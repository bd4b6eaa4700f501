//! Pairs by relative motion ([`SapConfig::relative_motion`]).
//!
//! A fat box is stretched along its body's own displacement, so that a fast
//! body has its pair before it arrives. Two bodies that fall or drift side
//! by side overlap there without ever closing in: the columns of
//! `compounds` made 20,000 such pairs, each a contact visited every step
//! for nothing (leaving them out made the scene 4 % faster). With relative
//! motion on, a pair of overlapping fat boxes is reported only when the
//! pair's own motion can bring it together this step: one box, grown by
//! its margin and swept by the two bodies' relative displacement, overlaps
//! the other grown by its margin. A pair left out waits, and is tested again at every refresh
//! with that step's motion, until it is found or its fat boxes part. The
//! test itself, `Body::may_meet`, is in `crowd`, where the sweep's pairs
//! are filtered.

use super::crowd::{push_pair, Crowd, Motion};
use super::*;

impl SweepAndPrune {
    /// The [`Motion`] of this refresh when [`SapConfig::relative_motion`]
    /// is on.
    pub(super) fn motion(&self) -> Option<Motion<'_>> {
        let on = self.config.relative_motion;
        on.then_some((&self.bodies[..], self.config.margin, self.refreshes))
    }

    /// Tests again the pairs the last refresh left out for their motion
    /// (see [`SapConfig::relative_motion`]) and whose ends have not moved
    /// since (a moved end looks for its pairs anyway): each is found if its
    /// fat boxes still overlap and its motion now closes it, and waits
    /// again if they overlap but it does not.
    pub(super) fn retest_waiting(&self, crowd: &mut Crowd, found: &mut Vec<Pair>) {
        crowd.retesting();
        let flags = (
            &self.static_bits,
            &self.dirty_bits,
            &self.filters[..],
            self.motion(),
        );
        for &(a, b) in &self.waiting {
            if self.dirty_bits.get(a) || self.dirty_bits.get(b) {
                continue;
            }
            let fat = |id: u32| {
                let x = self.bodies.get(id as usize)?;
                x.fat.filter(|_| x.present)
            };
            let (Some(fa), Some(fb)) = (fat(a), fat(b)) else {
                continue;
            };
            // A waiting pair is never a pair: it was left out of the last
            // refresh, and no scan has found it since (neither end moved).
            debug_assert!(self.pairs.binary_search(&(a, b)).is_err());
            if fa.overlaps(&fb) {
                push_pair(flags, crowd, a, b, found);
            }
        }
    }
}
