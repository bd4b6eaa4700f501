//! Contacts the narrowphase may pass over without loading them.
//!
//! Pipeline stage: the narrowphase (stage 3). A contact is collided only
//! when one of its bodies moves (awake, not frozen, and dynamic or with a
//! velocity) and neither is frozen. A scene woken a corner at a time, like
//! Box2D's `smash` (9,600 boxes born asleep, about 37,800 contacts between
//! neighbours, diagonals included), spent 1.2–1.4 ms of narrowphase a step
//! before its first impact visiting contacts it could not collide (0.35 ms
//! now, on the same loaded host, 2026-12-03): each visit loaded the
//! contact's record (about 350 bytes), both bodies and both shapes. Box2D
//! v3 keeps sleeping contacts out of its awake set; here they stay in the
//! list (its order is the solver's), and the stage reads,
//! for each, two entries of compact per-proxy and per-slot arrays
//! ([`Motion`], set by the first stage), and the one cache line of the
//! record that holds its point count: a contact without points between
//! bodies that cannot be collided produces nothing (no touch, no deep
//! contact, no event, and no impulses were banked for it).

use super::motion::Motion;
use super::world::World;

impl World {
    /// Marks, for every contact in list order, whether it is not collided
    /// this step (whatever its points), from the compact arrays alone:
    /// `scratch.dormant`, read by [`World::passes_over`] and the
    /// narrowphase's prefetches.
    pub(super) fn mark_dormant(&mut self) {
        let mut dormant = std::mem::take(&mut self.scratch.dormant);
        dormant.clear();
        let motion = &self.scratch.motion;
        let body = |p: u32| self.proxies[p as usize].body as usize;
        dormant.extend(
            self.contacts
                .keys()
                .iter()
                .map(|&(a, b)| !Motion::collides(motion[body(a)], motion[body(b)])),
        );
        self.scratch.dormant = dormant;
    }

    /// Whether the contact at position `i` of the list is not collided this
    /// step and has no points: the narrowphase passes over it (see the
    /// module notes). Reads the record's point count only if it is
    /// dormant.
    #[inline(always)]
    pub(super) fn passes_over(&self, i: usize) -> bool {
        self.scratch.dormant[i]
            && self.contacts[self.contacts.order()[i] as usize]
                .manifold
                .count
                == 0
    }

    /// Whether the mark of the contact at `i` was read from its own bodies
    /// (a debug check: the marks read them through the proxies).
    pub(super) fn dormant_matches(&self, i: usize) -> bool {
        let c = &self.contacts[self.contacts.order()[i] as usize];
        let motion = &self.scratch.motion;
        (c.a, c.b) == self.contacts.keys()[i]
            && self.scratch.dormant[i]
                != Motion::collides(motion[c.body_a as usize], motion[c.body_b as usize])
    }
}

#[cfg(test)]
mod tests {
    use crate::dynamics::{BodyDef, BodyKind};
    use crate::math::Vec2;
    use crate::shape::Shape;
    use crate::world::{World, WorldSettings};

    /// The marks as the pairs' bodies' states give them, per contact in
    /// list order: (bodies, dormant, point count).
    fn marks(w: &World) -> Vec<((u32, u32), bool, usize)> {
        w.contacts
            .iter()
            .zip(&w.scratch.dormant)
            .map(|(c, &d)| ((c.body_a, c.body_b), d, c.manifold.count))
            .collect()
    }

    /// A row of boxes born asleep, touching, on no ground and without
    /// gravity, is marked step after step (its contacts get no points),
    /// until a moving ball strikes its end: the pair it strikes is
    /// collided, the struck box wakes, and its contact with the next one is
    /// collided from then on, as the wake spreads. (Passing over is
    /// bit-identical to visiting, so this checks the marks; the goldens
    /// check that nothing else changed.)
    #[test]
    fn sleeping_contacts_are_passed_over_until_the_wake_reaches_them() {
        let mut w = World::new(WorldSettings {
            gravity: Vec2::ZERO,
            ..WorldSettings::default()
        });
        let ids: Vec<_> = (0..4)
            .map(|i| {
                let def = BodyDef::new(Shape::rect(0.5, 0.5), Vec2::new(i as f32 * 0.5, 0.0));
                w.add_body(def.awake(false)).unwrap()
            })
            .collect();
        let sleeping: Vec<u32> = ids.iter().map(|id| id.index).collect();
        let ball = BodyDef::new(Shape::circle(0.2), Vec2::new(-2.0, 0.0))
            .kind(BodyKind::Dynamic)
            .velocity(Vec2::new(6.0, 0.0));
        let ball = w.add_body(ball).unwrap().index;
        w.step();
        let row = |m: &[((u32, u32), bool, usize)]| {
            m.iter()
                .filter(|((a, b), ..)| sleeping.contains(a) && sleeping.contains(b))
                .map(|&(_, d, n)| (d, n))
                .collect::<Vec<_>>()
        };
        let first = row(&marks(&w));
        assert!(first.len() >= 3, "{:?}", marks(&w));
        assert!(first.iter().all(|&x| x == (true, 0)), "{:?}", marks(&w));
        // Until the ball arrives, nothing of the row is collided.
        let mut woke_at = None;
        for step in 1..60 {
            w.step();
            let m = marks(&w);
            let struck = m
                .iter()
                .any(|&((a, b), d, _)| (a == ball || b == ball) && !d);
            let row_now = row(&m);
            if woke_at.is_none() {
                assert!(row_now.iter().all(|&(d, n)| d && n == 0), "{step}: {m:?}");
                if struck && w.body(ids[0]).unwrap().is_awake() {
                    woke_at = Some(step);
                }
            } else if row_now[0].0 {
                panic!("{step}: the struck box's contact is still passed over: {m:?}");
            }
        }
        assert!(woke_at.is_some(), "the ball never woke the row");
        assert!(ids.iter().all(|&id| w.body(id).unwrap().is_awake()));
    }
}
