//! Keeping the contact list in step with the broadphase's pairs.
//!
//! Pipeline stage: the end of the broadphase (stage 2 of `World::step`). The
//! contact list is the broadphase's sorted pair list less the pairs that may
//! not collide (same body, two non-dynamic bodies, sensors, filters, joints),
//! each surviving pair keeping its manifold for the warm start. Two ways to
//! rebuild it, with the same result:
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
//!   need no new look. Unchanged stretches of the list are copied in bulk,
//!   not contact by contact (a contact is about 350 bytes and the washer
//!   scene has 74,000 of them).
//!
//! Box2D v3 keeps its contacts in a pool with stable ids and filters pairs
//! as the broadphase finds them (`broadphase.c`, `contact.c`); here the list
//! order is the pair order, which the solver's results depend on, so the list
//! is rebuilt in that order.

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

    /// Rebuilds the contact list from every broadphase pair: surviving pairs
    /// keep their contact, the others are asked [`World::pair_shapes`].
    /// Touching contacts whose pair went are pushed onto `ended`. Cost:
    /// O(pairs) verdicts.
    pub(super) fn merge_all_pairs(&self, next: &mut Vec<Contact>, ended: &mut Vec<Contact>) {
        let old = &self.contacts;
        let events = self.contact_events;
        let mut i = 0;
        for &(a, b) in self.broadphase.pairs() {
            while i < old.len() && (old[i].a, old[i].b) < (a, b) {
                if events && old[i].manifold.count > 0 {
                    ended.push(old[i]);
                }
                i += 1;
            }
            if i < old.len() && (old[i].a, old[i].b) == (a, b) {
                next.push(old[i]);
                i += 1;
                continue;
            }
            if let Some((sa, sb)) = self.pair_shapes(a, b) {
                next.push(self.new_contact(a, b, sa, sb));
            }
        }
        if events {
            ended.extend(old[i..].iter().filter(|c| c.manifold.count > 0));
        }
    }

    /// Rebuilds the contact list from the last one and the broadphase's
    /// added and removed pairs, when the list is in sync with the previous
    /// pairs (see the module notes). Touching contacts whose pair went are
    /// pushed onto `ended`, in list order. Cost: one pass over the list, copied
    /// in bulk between the changes, plus a verdict per added pair.
    pub(super) fn merge_pair_changes(&self, next: &mut Vec<Contact>, ended: &mut Vec<Contact>) {
        let old = &self.contacts[..];
        let (added, removed) = (self.broadphase.added(), self.broadphase.removed());
        let events = self.contact_events;
        next.reserve(old.len() + added.len());
        let (mut i, mut na, mut nr) = (0, 0, 0);
        loop {
            // The next change in pair order; a pair is never both added and
            // removed in one refresh.
            let (key, is_added) = match (added.get(na), removed.get(nr)) {
                (Some(&p), Some(&q)) if p < q => (p, true),
                (_, Some(&q)) => (q, false),
                (Some(&p), None) => (p, true),
                (None, None) => break,
            };
            // A linear scan: the run is copied next anyway, and a binary
            // search would miss the cache at every probe.
            let start = i;
            while i < old.len() && (old[i].a, old[i].b) < key {
                i += 1;
            }
            next.extend_from_slice(&old[start..i]);
            if is_added {
                na += 1;
                debug_assert!(old.get(i).is_none_or(|c| (c.a, c.b) != key));
                if let Some((sa, sb)) = self.pair_shapes(key.0, key.1) {
                    next.push(self.new_contact(key.0, key.1, sa, sb));
                }
            } else {
                nr += 1;
                // A removed pair that never collided has no contact.
                if old.get(i).is_some_and(|c| (c.a, c.b) == key) {
                    if events && old[i].manifold.count > 0 {
                        ended.push(old[i]);
                    }
                    i += 1;
                }
            }
        }
        next.extend_from_slice(&old[i..]);
    }
}
