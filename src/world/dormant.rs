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
//! list (its order is the solver's), and the stage decides for each, from
//! two entries of compact per-proxy and per-slot arrays ([`Motion`], set
//! by the first stage), what to do with it ([`Visit`]):
//!
//! - a contact with a moving body is collided;
//! - a contact **at rest** (both bodies present, neither moving, frozen or
//!   reported buried: a sleeping pile's contacts, with each other and with
//!   the ground) is passed over without reading it. Its manifold was made
//!   before its bodies fell asleep and stays as it is; nothing of the step
//!   reads it while they sleep (the solver and the sleep stage skip pairs
//!   of resting bodies; a deep one cannot change a report that was made
//!   when it was last collided, and a buried body's contacts are never at
//!   rest). If one of its bodies wakes during the stage (touched by a
//!   moving body, or jointed to one), its touch goes back into the
//!   touching list at its place ([`World::restore_woken`]), so the solver
//!   sees the list it saw when every contact was read. 100 sleeping
//!   pyramids (21,000 boxes) cost 2.6–3.0 ms a step before this, 0.41 ms
//!   with it, the moving-bodies passes of the write-back and sleep, and no
//!   velocity copy for an empty solve (`docs/2026-12-04-piles-at-rest.md`);
//! - any other contact is not collided either (a frozen body's), and is
//!   passed over after reading the one cache line of its record that holds
//!   its point count when it has no points: it produces nothing (no touch,
//!   no deep contact, no event, and no impulses were banked for it). With
//!   points, it gives its touch and deep contact as it did before.

use super::contact_pool::Touch;
use super::motion::{Motion, Visit};
use super::world::World;

impl World {
    /// Marks, for every contact in list order, what the narrowphase does
    /// with it this step, from the compact arrays alone:
    /// `scratch.dormant`, read by [`World::passes_over`], the
    /// narrowphase's prefetches and [`World::restore_woken`].
    pub(super) fn mark_dormant(&mut self) {
        let mut dormant = std::mem::take(&mut self.scratch.dormant);
        dormant.clear();
        let motion = &self.scratch.motion;
        let body = |p: u32| self.proxies[p as usize].body as usize;
        #[cfg(not(test))]
        let pass_resting = true;
        #[cfg(test)]
        let pass_resting = !self.scratch.read_resting;
        dormant.extend(self.contacts.keys().iter().map(|&(a, b)| {
            match Motion::visit(motion[body(a)], motion[body(b)]) {
                Visit::Resting if !pass_resting => Visit::Dormant,
                v => v,
            }
        }));
        self.scratch.dormant = dormant;
        self.scratch.woken.clear();
    }

    /// Whether the contact at position `i` of the list is passed over:
    /// at rest, or not collided and without points (see the module notes).
    /// Reads the record's point count only if it is dormant.
    #[inline(always)]
    pub(super) fn passes_over(&self, i: usize) -> bool {
        match self.scratch.dormant[i] {
            Visit::Collide => false,
            Visit::Resting => true,
            Visit::Dormant => {
                self.contacts[self.contacts.order()[i] as usize]
                    .manifold
                    .count
                    == 0
            }
        }
    }

    /// Whether the mark of the contact at `i` was read from its own bodies
    /// (a debug check: the marks read them through the proxies).
    pub(super) fn dormant_matches(&self, i: usize) -> bool {
        let c = &self.contacts[self.contacts.order()[i] as usize];
        let motion = &self.scratch.motion;
        let (a, b) = (motion[c.body_a as usize], motion[c.body_b as usize]);
        (c.a, c.b) == self.contacts.keys()[i]
            && (self.scratch.dormant[i] == Visit::Collide) == Motion::collides(a, b)
            && (self.scratch.dormant[i] != Visit::Resting || Motion::rests(a, b))
    }

    /// The lever of a contact's rolling resistance: the smaller of its
    /// shapes' bounding radii (0 when a body or shape is gone).
    pub(super) fn lever(&self, body_a: u32, child_a: u32, body_b: u32, child_b: u32) -> f32 {
        let radius = |body: u32, child: u32| {
            self.slots[body as usize].body.as_ref().map_or(0.0, |b| {
                b.colliders
                    .get(child as usize)
                    .map_or(0.0, |c| c.shape.bounding_radius())
            })
        };
        radius(body_a, child_a).min(radius(body_b, child_b))
    }

    /// Puts back into the touching list, each at its place, the touches of
    /// the contacts passed over at rest whose bodies woke during the
    /// narrowphase or since (`scratch.woken`): read now, after the wakes,
    /// they are what the narrowphase would have listed had it read them.
    /// One pass over the compact marks, on a step that woke a body and
    /// passed over a contact at rest; nothing otherwise. `scratch.restored`
    /// holds this step's restored touches afterwards.
    pub(super) fn restore_woken(&mut self) {
        self.scratch.restored.clear();
        if self.scratch.resting == 0 || self.scratch.woken.is_empty() {
            return;
        }
        let mut woke = std::mem::take(&mut self.scratch.woke);
        woke.clear();
        woke.resize(self.slots.len(), false);
        for &b in &self.scratch.woken {
            woke[b as usize] = true;
        }
        let mut restored = std::mem::take(&mut self.scratch.restored);
        let body = |p: u32| self.proxies[p as usize].body as usize;
        let marks = self.scratch.dormant.iter().zip(self.contacts.keys());
        for (i, (&visit, &(a, b))) in marks.enumerate() {
            if visit != Visit::Resting || !(woke[body(a)] || woke[body(b)]) {
                continue;
            }
            let k = self.contacts.order()[i];
            let c = &self.contacts[k as usize];
            if c.manifold.count == 0 {
                continue;
            }
            let lever = self.lever(c.body_a, c.child_a, c.body_b, c.child_b);
            restored.push((i as u32, Touch::of(k, c, lever)));
        }
        self.scratch.woke = woke;
        if !restored.is_empty() {
            // The listed touches' positions, read off the list: the touches
            // are in its order, each known by its slot.
            let mut at = std::mem::take(&mut self.scratch.touch_at);
            at.clear();
            let mut next = self.scratch.touching.iter().map(|t| t.slot).peekable();
            for (i, &k) in self.contacts.order().iter().enumerate() {
                if next.peek() == Some(&k) {
                    at.push(i as u32);
                    next.next();
                }
            }
            debug_assert!(next.peek().is_none(), "a touch out of list order");
            self.scratch.touch_at = at;
            self.scratch.merge_touches(&restored);
        }
        self.scratch.restored = restored;
    }
}

#[cfg(test)]
mod tests {
    use crate::dynamics::{BodyDef, BodyKind};
    use crate::math::Vec2;
    use crate::shape::Shape;
    use crate::world::motion::Visit;
    use crate::world::{World, WorldSettings};

    /// The marks as the pairs' bodies' states give them, per contact in
    /// list order: (bodies, dormant, point count).
    fn marks(w: &World) -> Vec<((u32, u32), bool, usize)> {
        w.contacts
            .iter()
            .zip(&w.scratch.dormant)
            .map(|(c, &d)| ((c.body_a, c.body_b), d != Visit::Collide, c.manifold.count))
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

    /// Two small pyramids fall asleep on the ground; a ball dropped from
    /// high up then strikes one of them. The world that passes over the
    /// contacts at rest (unread while the pyramids sleep, put back as the
    /// struck one wakes) matches, bit for bit at every step, the world
    /// that reads them all.
    #[test]
    fn passing_over_resting_contacts_matches_reading_them() {
        let build = |read_resting: bool| {
            let mut w = World::new(WorldSettings::default());
            let ground = BodyDef::new(Shape::rect(20.0, 0.5), Vec2::new(0.0, -0.5));
            w.add_body(ground.kind(BodyKind::Static)).unwrap();
            for x0 in [-5.0f32, 5.0] {
                for row in 0..4 {
                    for i in 0..4 - row {
                        let x = x0 + (i as f32 - (3 - row) as f32 * 0.5) * 1.0;
                        let at = Vec2::new(x, 0.5 + row as f32);
                        w.add_body(BodyDef::new(Shape::rect(0.5, 0.5), at)).unwrap();
                    }
                }
            }
            let ball = BodyDef::new(Shape::circle(0.4), Vec2::new(5.2, 60.0)).density(4.0);
            w.add_body(ball).unwrap();
            w.scratch.read_resting = read_resting;
            w
        };
        let (mut passing, mut reading) = (build(false), build(true));
        let (mut slept, mut restored) = (false, false);
        for step in 0..420 {
            passing.step();
            reading.step();
            assert_eq!(passing.state_hash(), reading.state_hash(), "step {step}");
            assert_eq!(reading.scratch.resting, 0);
            let dynamic = || {
                passing
                    .bodies()
                    .map(|(_, b)| b)
                    .filter(|b| b.kind() == BodyKind::Dynamic)
            };
            let asleep = dynamic().filter(|b| !b.is_awake()).count();
            // Once asleep, the pyramid the ball misses sleeps on.
            if slept {
                let mut left = dynamic().filter(|b| b.position().x < 0.0);
                assert!(left.all(|b| !b.is_awake()), "step {step}");
            }
            slept |= asleep >= 20 && passing.scratch.resting > 0;
            restored |= !passing.scratch.restored.is_empty();
        }
        assert!(
            slept,
            "the pyramids never slept with their contacts passed over"
        );
        assert!(restored, "the struck pyramid's touches were never put back");
    }
}
