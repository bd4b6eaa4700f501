//! Removing bodies, one or many at once. A batch costs one pass over the
//! contacts and joints however many bodies go, so a script that recycles
//! hundreds of bodies in a step does not pay for each one separately.

use super::*;

impl World {
    /// Removes a body; bodies resting on it wake up. Returns `false` for a stale id.
    pub fn remove_body(&mut self, id: BodyId) -> bool {
        self.remove_bodies(&[id]) == 1
    }

    /// Removes every live body of `ids` (stale ids and repeats are skipped)
    /// with their joints and contacts; the bodies they touched or were
    /// jointed to wake up. Returns how many were removed.
    pub fn remove_bodies(&mut self, ids: &[BodyId]) -> usize {
        let mut gone = vec![false; self.slots.len()];
        let mut indices = Vec::with_capacity(ids.len());
        for &id in ids {
            if self.body(id).is_some() && !gone[id.index as usize] {
                gone[id.index as usize] = true;
                indices.push(id.index);
            }
        }
        if indices.is_empty() {
            return 0;
        }
        let is_gone = |i: u32| gone.get(i as usize).copied().unwrap_or(false);

        // Wake what they touched: one pass over the contacts.
        let mut islands = Vec::new();
        for c in self.contacts.iter() {
            let other = match (is_gone(c.body_a), is_gone(c.body_b)) {
                (true, false) => c.body_b,
                (false, true) => c.body_a,
                _ => continue,
            };
            if let Some(b) = self.slots[other as usize].body.as_ref() {
                if !b.awake && b.kind == BodyKind::Dynamic {
                    islands.push(b.sleep_island);
                }
            }
        }
        if !islands.is_empty() {
            islands.sort_unstable();
            islands.dedup();
            self.wake_islands(&islands);
        }

        // Their joints: one pass; both ends wake (as when a joint is
        // removed on its own: a sleeping end wakes its island).
        let mut ends = Vec::new();
        let mut any_joint = false;
        for k in 0..self.joints.len() {
            let slot = &mut self.joints[k];
            let Some(j) = slot.joint.as_ref() else {
                continue;
            };
            let (a, b) = (j.def.body_a.map(|a| a.index), j.def.body_b.index);
            if !is_gone(b) && !a.is_some_and(is_gone) {
                continue;
            }
            ends.push(b);
            ends.extend(a);
            slot.joint = None;
            slot.generation = slot.generation.wrapping_add(1);
            self.joint_free.push(k as u32);
            any_joint = true;
        }
        for e in ends {
            self.wake(e);
        }
        if any_joint {
            self.scratch.joined_pairs_valid = false;
        }

        for &index in &indices {
            if let Some(b) = self.slots[index as usize].body.as_ref() {
                for c in &b.colliders {
                    self.broadphase.remove(c.proxy);
                    self.proxy_free.push(c.proxy);
                }
            }
        }
        self.drop_contacts(|c| !is_gone(c.body_a) && !is_gone(c.body_b));
        self.scratch.contacts_in_sync = false;
        self.buried.retain(|&b| !is_gone(b));
        for &index in &indices {
            self.forget_sensor_visitor(index);
            let slot = &mut self.slots[index as usize];
            slot.body = None;
            slot.generation = slot.generation.wrapping_add(1);
            self.free.push(index);
        }
        if self.drag.is_some_and(|d| is_gone(d.body.index)) {
            self.drag = None;
        }
        indices.len()
    }
}
