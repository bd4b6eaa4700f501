//! Keeping the contact list in step with the broadphase's pairs.
//!
//! Pipeline stage: the end of the broadphase (stage 2 of `World::step`). The
//! contact list (`contact_pool.rs`) is the broadphase's sorted pair list less
//! the pairs that may not collide (same body, two non-dynamic bodies,
//! sensors, filters, joints), each surviving pair keeping its manifold for
//! the warm start. Two ways to rebuild it, with the same result:
//!
//! - [`World::merge_all_pairs`] walks every pair and asks
//!   [`World::pair_shapes`] about each one that has no contact: needed after
//!   anything that edits the list or could change a pair's verdict (a body or
//!   joint removed or added, a body frozen), and costly in a scene full of
//!   pairs that never collide (`joint_grid`: 30,000 pairs, no contact).
//! - [`World::merge_pair_changes`] applies only the step's added and removed
//!   pairs. Between two such edits a pair's verdict cannot change (a shape's
//!   body, kind, filter and sensor flag are fixed at creation, and joints
//!   changing clear `contacts_in_sync`), so the pairs kept from the last merge
//!   need no new look. Unchanged stretches of the order are copied in bulk.

use super::step::Side;
use super::world::{Contact, World};
use crate::dynamics::material::{mix_friction, mix_restitution};
use crate::narrowphase::manifold::Manifold;

impl World {
    /// The contact for the new pair of proxies `a < b` of the two given
    /// sides: an empty manifold and the mixed material.
    fn new_contact(&self, a: u32, b: u32, (_, ca): Side<'_>, (_, cb): Side<'_>) -> Contact {
        let (pa, pb) = (self.proxies[a as usize], self.proxies[b as usize]);
        Contact {
            a,
            b,
            body_a: pa.body,
            body_b: pb.body,
            child_a: pa.child,
            child_b: pb.child,
            manifold: Manifold::default(),
            features: Default::default(),
            cache: Default::default(),
            reuse: Default::default(),
            friction: mix_friction(ca.material.friction, cb.material.friction),
            restitution: mix_restitution(ca.material.restitution, cb.material.restitution),
        }
    }

    /// The contact for a pair the broadphase found, when its shapes may
    /// collide.
    fn verdict(&self, a: u32, b: u32) -> Option<Contact> {
        let (sa, sb) = self.pair_shapes(a, b)?;
        Some(self.new_contact(a, b, sa, sb))
    }

    /// Rebuilds the contact list from every broadphase pair: surviving pairs
    /// keep their contact, the others are asked [`World::pair_shapes`].
    /// Touching contacts whose pair went are pushed onto `ended`. Cost:
    /// O(pairs) verdicts.
    pub(super) fn merge_all_pairs(&mut self, ended: &mut Vec<Contact>) {
        let mut list = std::mem::take(&mut self.contacts);
        let mut buf = std::mem::take(&mut self.scratch.merge);
        let events = self.contact_events;
        let pairs = self.broadphase.pairs();
        list.merge_all(pairs, |a, b| self.verdict(a, b), events, ended, &mut buf);
        list.compact(&mut buf);
        self.contacts = list;
        self.scratch.merge = buf;
    }

    /// Rebuilds the contact list from the last one and the broadphase's
    /// added and removed pairs, when the list is in sync with the previous
    /// pairs (see the module notes). Touching contacts whose pair went are
    /// pushed onto `ended`, in list order. Cost: one pass over the order,
    /// copied in bulk between the changes, plus a verdict per added pair.
    pub(super) fn merge_pair_changes(&mut self, ended: &mut Vec<Contact>) {
        let mut list = std::mem::take(&mut self.contacts);
        let mut buf = std::mem::take(&mut self.scratch.merge);
        let events = self.contact_events;
        let (added, removed) = (self.broadphase.added(), self.broadphase.removed());
        list.merge_changes(
            added,
            removed,
            |a, b| self.verdict(a, b),
            events,
            ended,
            &mut buf,
        );
        list.compact(&mut buf);
        self.contacts = list;
        self.scratch.merge = buf;
    }
}
