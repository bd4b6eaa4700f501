//! Contact events: when two shapes begin and stop touching, in the order of
//! the contact list (deterministic), reported through `World::take_events`
//! when asked for.

use super::world::{Contact, Touch, TouchKey, World, WorldEvent};

impl World {
    /// Turns contact begin and end events on or off (off by default: a busy
    /// world makes many, and they wait in the event list until taken).
    pub fn set_contact_events(&mut self, on: bool) {
        self.contact_events = on;
    }

    /// Whether contact events are on.
    pub fn contact_events(&self) -> bool {
        self.contact_events
    }

    pub(crate) fn contact_begin(&self, c: &Contact) -> WorldEvent {
        let p = c.manifold.points().first();
        WorldEvent::ContactBegin {
            body_a: self.id_of(c.body_a),
            shape_a: c.child_a,
            body_b: self.id_of(c.body_b),
            shape_b: c.child_b,
            point: p.map_or(crate::math::Vec2::ZERO, |p| p.point),
            normal: c.manifold.normal,
            step: self.step_index,
        }
    }

    /// The `Hit` that goes with a contact's beginning, if the shapes met
    /// fast enough: their relative velocity at the first point along the
    /// normal, before the solver acts.
    pub(crate) fn contact_hit(&self, c: &Contact) -> Option<WorldEvent> {
        let p = c.manifold.points().first()?;
        let a = self.slots[c.body_a as usize].body.as_ref()?;
        let b = self.slots[c.body_b as usize].body.as_ref()?;
        let speed = -(b.velocity_at(p.point) - a.velocity_at(p.point)).dot(c.manifold.normal);
        (speed >= self.settings.hit_speed).then(|| WorldEvent::Hit {
            body_a: self.id_of(c.body_a),
            shape_a: c.child_a,
            body_b: self.id_of(c.body_b),
            shape_b: c.child_b,
            point: p.point,
            normal: c.manifold.normal,
            speed,
            step: self.step_index,
        })
    }

    pub(crate) fn contact_end(&self, c: &Contact) -> WorldEvent {
        WorldEvent::ContactEnd {
            body_a: self.id_of(c.body_a),
            shape_a: c.child_a,
            body_b: self.id_of(c.body_b),
            shape_b: c.child_b,
            step: self.step_index,
        }
    }

    /// Drops the contacts `keep` refuses, reporting the touching ones as
    /// ended when contact events are on.
    pub(crate) fn drop_contacts(&mut self, keep: impl Fn(&Contact) -> bool) {
        // The step's scratch list of changed contacts is free here.
        let mut dropped = std::mem::take(&mut self.scratch.ended);
        dropped.clear();
        self.contacts.retain(keep, &mut dropped);
        if self.contact_events {
            for c in &dropped {
                self.events.push(self.contact_end(c));
            }
        }
        self.scratch.ended = dropped;
        let mut touching = std::mem::take(&mut self.scratch.touching);
        touching.clear();
        let list = &self.contacts;
        for &k in list.order() {
            let c = &list[k as usize];
            if c.manifold.count > 0 {
                let lever = self.lever(c.body_a, c.child_a, c.body_b, c.child_b);
                touching.push(Touch::of(k, c, lever));
            }
        }
        self.scratch.touch_keys.clear();
        self.scratch
            .touch_keys
            .extend(touching.iter().map(TouchKey::of));
        self.scratch.touching = touching;
    }
}
