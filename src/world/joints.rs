//! The world's joints: adding, removing and reading them, the pairs they stop
//! from colliding, and their part of the step (waking, the solver's joint
//! constraints, reactions and breaking).

use super::world::{JointSlot, World, WorldEvent};
use crate::dynamics::joint::{
    End, Joint, JointConstraint, JointDef, JointError, JointKind, Motor, Mouse, Spring,
};
use crate::dynamics::solver_body::SolverBody;
use crate::dynamics::{BodyId, BodyKind, JointId};
use crate::math::{Rot, Vec2};

/// Largest linear correction of one joint position pass (m).
pub(crate) const JOINT_MAX_LINEAR: f32 = 0.2;
/// Largest angular correction of one joint position pass (rad, 8°).
pub(crate) const JOINT_MAX_ANGULAR: f32 = 8.0 * std::f32::consts::PI / 180.0;

impl World {
    /// Adds a joint. Fails, without changing the world, on a bad number
    /// (non-finite, out of range, limits the wrong way round, a zero axis), a
    /// stale body handle, a body jointed to itself, or two ends that cannot
    /// move. Both bodies wake.
    pub fn add_joint(&mut self, def: JointDef) -> Result<JointId, JointError> {
        def.validate()?;
        let kind_of = |id: BodyId| -> Result<BodyKind, JointError> {
            self.body(id)
                .map(|b| b.kind())
                .ok_or(JointError::NoSuchBody(id))
        };
        let kb = kind_of(def.body_b)?;
        let ka = match def.body_a {
            Some(a) => {
                if a == def.body_b {
                    return Err(JointError::SelfJoint(a));
                }
                kind_of(a)?
            }
            None => BodyKind::Static,
        };
        let is_mouse = matches!(def.kind, JointKind::Mouse(_));
        if kb != BodyKind::Dynamic && (ka != BodyKind::Dynamic || is_mouse) {
            return Err(JointError::BothStatic);
        }
        let index = match self.joint_free.pop() {
            Some(i) => i,
            None => {
                self.joints.push(JointSlot {
                    generation: 0,
                    joint: None,
                });
                (self.joints.len() - 1) as u32
            }
        };
        let slot = &mut self.joints[index as usize];
        slot.joint = Some(Joint::new(def));
        let id = JointId {
            index,
            generation: slot.generation,
        };
        self.joint_ends_changed(&def, true);
        Ok(id)
    }

    /// Removes a joint; its bodies wake. Returns `false` for a stale id.
    pub fn remove_joint(&mut self, id: JointId) -> bool {
        let Some(slot) = self.joints.get_mut(id.index as usize) else {
            return false;
        };
        if slot.generation != id.generation {
            return false;
        }
        let Some(joint) = slot.joint.take() else {
            return false;
        };
        slot.generation = slot.generation.wrapping_add(1);
        self.joint_free.push(id.index);
        self.joint_ends_changed(&joint.def, false);
        true
    }

    /// The joint, if the handle is live.
    pub fn joint(&self, id: JointId) -> Option<&Joint> {
        let slot = self.joints.get(id.index as usize)?;
        if slot.generation != id.generation {
            return None;
        }
        slot.joint.as_ref()
    }

    /// Every joint with its handle, in slot order.
    pub fn joints(&self) -> impl Iterator<Item = (JointId, &Joint)> + '_ {
        self.joints.iter().enumerate().filter_map(|(i, s)| {
            s.joint.as_ref().map(|j| {
                (
                    JointId {
                        index: i as u32,
                        generation: s.generation,
                    },
                    j,
                )
            })
        })
    }

    /// Number of joints.
    pub fn joint_count(&self) -> usize {
        self.joints.iter().filter(|s| s.joint.is_some()).count()
    }

    /// A joint definition from anchors given in world coordinates at the
    /// bodies' current poses (`a` = `None`: the world frame, whose anchor
    /// stays where it is).
    pub fn joint_def(
        &self,
        a: Option<BodyId>,
        b: BodyId,
        world_anchor_a: Vec2,
        world_anchor_b: Vec2,
        kind: JointKind,
    ) -> Result<JointDef, JointError> {
        let local = |id: BodyId, p: Vec2| -> Result<Vec2, JointError> {
            let body = self.body(id).ok_or(JointError::NoSuchBody(id))?;
            Ok(body.transform().apply_inv(p))
        };
        let anchor_a = match a {
            Some(a) => local(a, world_anchor_a)?,
            None => world_anchor_a,
        };
        let anchor_b = local(b, world_anchor_b)?;
        Ok(JointDef::new(a, b, anchor_a, anchor_b, kind))
    }

    /// The joint's anchors in world coordinates (A's, then B's), if the
    /// handle is live.
    pub fn joint_anchors(&self, id: JointId) -> Option<(Vec2, Vec2)> {
        let j = self.joint(id)?;
        let a = match j.def.body_a {
            Some(a) => self.body(a)?.transform().apply(j.def.local_anchor_a),
            None => j.def.local_anchor_a,
        };
        let b = self
            .body(j.def.body_b)?
            .transform()
            .apply(j.def.local_anchor_b);
        Some((a, b))
    }

    /// The joint with an anchor nearest to `p`, within `radius` (m); ties go
    /// to the lower slot.
    pub fn joint_at(&self, p: Vec2, radius: f32) -> Option<JointId> {
        let mut best: Option<(f32, JointId)> = None;
        for (id, _) in self.joints() {
            let Some((a, b)) = self.joint_anchors(id) else {
                continue;
            };
            let d = (a - p).length().min((b - p).length());
            if d <= radius && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, id));
            }
        }
        best.map(|(_, id)| id)
    }

    /// Sets or clears the motor of a revolute, prismatic or wheel joint and
    /// wakes its bodies. Returns `false` for a stale id, another kind, or a
    /// motor with a non-finite or negative number.
    pub fn set_joint_motor(&mut self, id: JointId, motor: Option<Motor>) -> bool {
        if let Some(m) = motor {
            if !(m.speed.is_finite() && m.max_effort.is_finite() && m.max_effort >= 0.0) {
                return false;
            }
        }
        let Some(slot) = self.joints.get_mut(id.index as usize) else {
            return false;
        };
        let Some(joint) = slot
            .joint
            .as_mut()
            .filter(|_| slot.generation == id.generation)
        else {
            return false;
        };
        match &mut joint.def.kind {
            JointKind::Revolute(r) => r.motor = motor,
            JointKind::Prismatic(p) => p.motor = motor,
            JointKind::Wheel(w) => w.motor = motor,
            _ => return false,
        }
        let def = joint.def;
        self.wake_joint_ends(&def);
        true
    }

    /// Moves a mouse joint's target and wakes its body. Returns `false` for a
    /// stale id, another kind or a non-finite target.
    pub fn set_mouse_target(&mut self, id: JointId, target: Vec2) -> bool {
        if !target.is_finite() {
            return false;
        }
        let Some(slot) = self.joints.get_mut(id.index as usize) else {
            return false;
        };
        let Some(joint) = slot
            .joint
            .as_mut()
            .filter(|_| slot.generation == id.generation)
        else {
            return false;
        };
        let JointKind::Mouse(m) = &mut joint.def.kind else {
            return false;
        };
        m.target = target;
        let body = joint.def.body_b;
        self.wake(body.index);
        true
    }

    fn wake_joint_ends(&mut self, def: &JointDef) {
        self.wake(def.body_b.index);
        if let Some(a) = def.body_a {
            self.wake(a.index);
        }
    }

    /// After a joint came (`added`) or went: wake its bodies. A joint that
    /// keeps its bodies apart changes whether their pair collides: a new one
    /// drops the pair's contacts at once (the contact list then stays what a
    /// merge would give), and a removed one lets the next step judge every
    /// pair again, since theirs may now collide.
    fn joint_ends_changed(&mut self, def: &JointDef, added: bool) {
        self.wake_joint_ends(def);
        self.scratch.joined_pairs_valid = false;
        let (Some(a), false) = (def.body_a, def.collide_connected) else {
            return;
        };
        if !added {
            self.scratch.contacts_in_sync = false;
        } else if self.have_contacts(a.index, def.body_b.index) {
            let key = ordered(a.index, def.body_b.index);
            self.drop_contacts(|c| ordered(c.body_a, c.body_b) != key);
        }
    }

    /// Whether the contact list holds a contact between the two bodies,
    /// found by their shapes' proxy pairs (the list's keys) rather than by a
    /// walk over every contact: spawning a ragdoll adds ten joints between
    /// bodies that have no contact yet. Bodies with many shapes each are
    /// answered `true`, leaving it to the walk.
    fn have_contacts(&self, a: u32, b: u32) -> bool {
        let body = |i: u32| self.slots.get(i as usize).and_then(|s| s.body.as_ref());
        let (Some(ba), Some(bb)) = (body(a), body(b)) else {
            return false;
        };
        if ba.colliders.len() * bb.colliders.len() > 64 {
            return true;
        }
        let keys = self.contacts.keys();
        ba.colliders.iter().any(|ca| {
            bb.colliders
                .iter()
                .any(|cb| keys.binary_search(&ordered(ca.proxy, cb.proxy)).is_ok())
        })
    }

    /// Rebuilds the sorted list of jointed pairs that must not collide, if a
    /// joint came or went.
    pub(crate) fn refresh_joined_pairs(&mut self) {
        if self.scratch.joined_pairs_valid {
            return;
        }
        let pairs = &mut self.scratch.joined_pairs;
        pairs.clear();
        for j in self.joints.iter().filter_map(|s| s.joint.as_ref()) {
            if let (Some(a), false) = (j.def.body_a, j.def.collide_connected) {
                pairs.push(ordered(a.index, j.def.body_b.index));
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        self.scratch.joined_pairs_valid = true;
    }

    /// Whether a joint keeps the two body slots (`a < b`) from colliding
    /// (after [`World::refresh_joined_pairs`]).
    pub(crate) fn joined_no_collide(&self, a: u32, b: u32) -> bool {
        !self.scratch.joined_pairs.is_empty()
            && self.scratch.joined_pairs.binary_search(&(a, b)).is_ok()
    }

    /// Wakes the sleeping end of every joint whose other end moves, so that
    /// a joint always has both bodies in the solve or neither.
    pub(crate) fn wake_joined(&mut self) {
        if self.joints.is_empty() {
            return;
        }
        let mut wake = std::mem::take(&mut self.scratch.wake);
        wake.clear();
        for j in self.joints.iter().filter_map(|s| s.joint.as_ref()) {
            let Some(a) = j.def.body_a else {
                continue;
            };
            let (Some(ba), Some(bb)) = (self.body(a), self.body(j.def.body_b)) else {
                continue;
            };
            if ba.frozen || bb.frozen {
                continue;
            }
            let moves = |b: &crate::dynamics::Body| {
                b.awake && (b.kind == BodyKind::Dynamic || b.v != Vec2::ZERO || b.w != 0.0)
            };
            for (x, y) in [(ba, bb), (bb, ba)] {
                if !x.awake && x.kind == BodyKind::Dynamic && moves(y) {
                    wake.push(x.sleep_island);
                }
            }
        }
        if !wake.is_empty() {
            wake.sort_unstable();
            wake.dedup();
            self.wake_islands(&wake);
        }
        self.scratch.wake = wake;
    }

    /// Joins the sleep islands of jointed dynamic bodies; a body jointed to
    /// a moving kinematic body stays awake.
    pub(crate) fn join_islands(&mut self) {
        for j in self.joints.iter().filter_map(|s| s.joint.as_ref()) {
            let Some(a) = j.def.body_a else {
                continue;
            };
            let b = j.def.body_b;
            let (Some(ba), Some(bb)) = (
                self.slots[a.index as usize].body.as_ref(),
                self.slots[b.index as usize].body.as_ref(),
            ) else {
                continue;
            };
            let moving = |x: &crate::dynamics::Body| x.v != Vec2::ZERO || x.w != 0.0;
            match (ba.kind, bb.kind) {
                (BodyKind::Dynamic, BodyKind::Dynamic) => {
                    self.scratch.islands.union(a.index, b.index)
                }
                (BodyKind::Kinematic, BodyKind::Dynamic) if moving(ba) => {
                    self.scratch.island_rest[b.index as usize] = 0.0
                }
                (BodyKind::Dynamic, BodyKind::Kinematic) if moving(bb) => {
                    self.scratch.island_rest[a.index as usize] = 0.0
                }
                _ => {}
            }
        }
    }

    /// The joints of this step as solver constraints, in slot order: those
    /// with an awake, unfrozen body. `world_slot` is the solver slot of the
    /// world frame (a static body at the origin).
    pub(crate) fn prepare_joints(
        &self,
        bodies: &[SolverBody],
        world_slot: u32,
        h: f32,
        out: &mut Vec<JointConstraint>,
    ) {
        out.clear();
        for (k, slot) in self.joints.iter().enumerate() {
            let Some(j) = slot.joint.as_ref() else {
                continue;
            };
            let Some(bb) = self.body(j.def.body_b) else {
                continue;
            };
            let end = |index: u32, b: &crate::dynamics::Body, local: Vec2| End {
                slot: index,
                center: b.center,
                rot: b.xf.rot,
                anchor: b.xf.rot.apply(local) + b.xf.translation - b.center,
            };
            let eb = end(j.def.body_b.index, bb, j.def.local_anchor_b);
            let (ea, a_awake) = match j.def.body_a {
                Some(a) => {
                    let Some(ba) = self.body(a) else {
                        continue;
                    };
                    if ba.frozen {
                        continue;
                    }
                    (end(a.index, ba, j.def.local_anchor_a), ba.awake)
                }
                None => (
                    End {
                        slot: world_slot,
                        center: Vec2::ZERO,
                        rot: Rot::IDENTITY,
                        anchor: j.def.local_anchor_a,
                    },
                    false,
                ),
            };
            if bb.frozen || !(bb.awake || a_awake) {
                continue;
            }
            out.push(JointConstraint::new(k as u32, j, ea, eb, bodies, h));
        }
    }

    /// The sandbox's drag as a mouse joint from the world to the dragged
    /// body, if there is one and the body is not frozen.
    pub(crate) fn prepare_drag(
        &self,
        bodies: &[SolverBody],
        world_slot: u32,
        h: f32,
    ) -> Option<JointConstraint> {
        let d = self.drag?;
        let b = self.body(d.body)?;
        if b.frozen {
            return None;
        }
        let def = JointDef::new(
            None,
            d.body,
            Vec2::ZERO,
            d.local_anchor,
            JointKind::Mouse(Mouse {
                target: d.target,
                spring: Spring {
                    hertz: d.hertz,
                    damping_ratio: d.damping_ratio,
                },
                max_force: d.max_force,
            }),
        );
        let mut joint = Joint::new(def);
        joint.impulses.linear = d.impulse;
        let world = End {
            slot: world_slot,
            center: Vec2::ZERO,
            rot: Rot::IDENTITY,
            anchor: Vec2::ZERO,
        };
        let body = End {
            slot: d.body.index,
            center: b.center,
            rot: b.xf.rot,
            anchor: b.xf.apply(d.local_anchor) - b.center,
        };
        Some(JointConstraint::new(
            u32::MAX,
            &joint,
            world,
            body,
            bodies,
            h,
        ))
    }

    /// Stores each solved joint's impulses and reaction, and breaks the
    /// joints whose reaction passed their threshold.
    pub(crate) fn finish_joints(
        &mut self,
        solved: &[JointConstraint],
        poses: &[crate::dynamics::solver_body::SolverPose],
        inv_h: f32,
    ) {
        let step = self.step_index;
        let mut broken = Vec::new();
        for c in solved {
            let slot = &mut self.joints[c.joint as usize];
            let Some(j) = slot.joint.as_mut() else {
                continue;
            };
            let (force, torque) = c.reaction(poses, inv_h);
            j.impulses = c.impulses;
            j.force = force;
            j.torque = torque;
            let over_force = j.def.break_force.is_some_and(|f| force.length() > f);
            let over_torque = j.def.break_torque.is_some_and(|t| torque.abs() > t);
            if over_force || over_torque {
                broken.push((
                    JointId {
                        index: c.joint,
                        generation: slot.generation,
                    },
                    force,
                    torque,
                ));
            }
        }
        for (joint, force, torque) in broken {
            let Some(def) = self.joint(joint).map(|j| j.def) else {
                continue;
            };
            self.remove_joint(joint);
            self.events.push(WorldEvent::JointBroken {
                joint,
                def,
                step,
                force,
                torque,
            });
        }
    }
}

fn ordered(a: u32, b: u32) -> (u32, u32) {
    if a < b {
        (a, b)
    } else {
        (b, a)
    }
}
