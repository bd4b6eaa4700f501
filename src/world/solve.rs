//! Stages 5–7 of the step: the substepped solver over contacts and joints,
//! then the write-back of the new state (freezing any body whose state
//! stopped being finite).
//!
//! ```text
//! per substep: gravity and damping
//!              warm start: joints, then contacts, each contact bundle's
//!                anchors updated just before its warm start (kept after
//!                the first substep by those resting quietly, see
//!                `contact_solver::Quiet`)
//!              velocity iterations: joints, then contacts
//!              integrate positions
//!              position pass (NGS): joints, then contacts (a contact's
//!                lower body held where it supports the upper one; the
//!                contacts of unjointed bodies on alternate substeps)
//!              velocity the position passes held back removed (in
//!                islands anchored to the world, see `solver_body::Anchors`)
//! then:        restitution; joint reactions (and breaking)
//! ```

use super::joints::{JOINT_MAX_ANGULAR, JOINT_MAX_LINEAR};
use super::timer::{SolverTimings, Stopwatch};
use super::world::{Banked, World, WorldEvent};
use crate::dynamics::contact_solver::{
    self, Pending, PositionPass, Quiet, SolverParams, Source, QUIET_DEPTH,
};
use crate::dynamics::joint::JointParams;
use crate::dynamics::schedule::BLOCK;
use crate::dynamics::solver_body::{
    drop_resisted_velocity, Integration, SlotFacts, SolverBody, SolverPose,
};
use crate::dynamics::BodyKind;
use crate::math::{is_finite_vec, Vec2};

impl World {
    /// Stages 5–7: substepped velocity solve, position integration and NGS
    /// positional resolution, then restitution. Writes the new state back and
    /// freezes any body whose state stopped being finite.
    pub(super) fn solve(&mut self) {
        let mut sw = Stopwatch::start();
        let mut timings = SolverTimings::default();
        let s = self.settings;
        let substeps = s.substeps.max(1);
        let h = s.dt / substeps as f32;
        let max_spin = s.max_rotation / s.dt;
        let params = SolverParams {
            max_push_speed: s.max_push_speed,
            linear_slop: s.linear_slop,
            position_correction: s.position_correction,
            max_correction: s.max_correction,
            // Negative or NaN: off (it would push bodies that do not touch).
            deep_penetration: if s.deep_penetration >= 0.0 {
                s.deep_penetration
            } else {
                f32::INFINITY
            },
            restitution_threshold: s.restitution_threshold,
        };
        // The correction of the contacts corrected on alternate substeps:
        // what two corrections of the step's fraction remove.
        let kept = 1.0 - s.position_correction;
        let alternate = SolverParams {
            position_correction: 1.0 - kept * kept,
            ..params
        };

        // Solver bodies, one per slot; non-moving ones keep zero velocity, zero
        // inverse mass and the identity pose change. The moving ones are also
        // listed, so the per-substep body loops skip the others.
        let mut bodies = std::mem::take(&mut self.scratch.solver_bodies);
        let mut poses = std::mem::take(&mut self.scratch.solver_poses);
        let mut moving = std::mem::take(&mut self.scratch.moving);
        let mut integration = std::mem::take(&mut self.scratch.integration);
        let mut before = std::mem::take(&mut self.scratch.before_passes);
        let mut pre_warm = std::mem::take(&mut self.scratch.pre_warm);
        bodies.clear();
        poses.clear();
        moving.clear();
        integration.clear();
        poses.resize(self.slots.len(), SolverPose::default());
        let mut start = std::mem::take(&mut self.scratch.step_start);
        start.clear();
        let mut facts = std::mem::take(&mut self.scratch.slot_facts);
        facts.clear();
        for (i, slot) in self.slots.iter().enumerate() {
            facts.push(SlotFacts::of(slot.body.as_ref()));
            start.push(
                slot.body
                    .as_ref()
                    .map_or((Vec2::ZERO, crate::math::Rot::IDENTITY), |b| {
                        (b.center, b.xf.rot)
                    }),
            );
            match slot.body.as_ref() {
                Some(b) if b.awake && !b.frozen => {
                    bodies.push(SolverBody {
                        v: b.v,
                        w: b.w,
                        inv_mass: b.inv_mass,
                        inv_inertia: b.inv_inertia,
                    });
                    moving.push(i as u32);
                    if b.kind == BodyKind::Dynamic {
                        integration.push(Integration::new(
                            i as u32,
                            h,
                            s.gravity,
                            b.gravity_scale,
                            b.linear_damping,
                            b.angular_damping,
                        ));
                    }
                }
                _ => bodies.push(SolverBody::default()),
            }
        }

        // Constraints are built in contact order, a block at a time, and each
        // block is appended as packed into bundles: independent constraints
        // side by side, bit-identical results (see `schedule`).
        let mut constraints = std::mem::take(&mut self.scratch.constraints);
        let mut block = std::mem::take(&mut self.scratch.block);
        let mut wavefront = std::mem::take(&mut self.scratch.wavefront);
        constraints.clear();
        block.clear();
        wavefront.reset(bodies.len());
        // Which bodies fly free this step: no contact point, no joint, not
        // dragged. The touching contacts mark theirs here, on the one pass
        // that reads them.
        let mut held = std::mem::take(&mut self.scratch.held);
        held.clear();
        held.resize(bodies.len(), false);
        let mut levels = std::mem::take(&mut self.scratch.stack_levels);
        let mut anchors = std::mem::take(&mut self.scratch.anchors);
        // One per body slot: a joint to the world frame anchors its body
        // (`Anchors::anchor`) and never links the frame's slot.
        anchors.begin(bodies.len());
        levels.begin(self.scratch.touching.len(), bodies.len());
        let up = -s.gravity.normalize_or_zero();
        // A constraint is known by its contact's position in the touching
        // list, which is list order (the mass-ratio forest sorts by it).
        // The loop below lists the contacts to solve; each block of them is
        // scheduled, then built into its bundles' lanes from what this
        // gives.
        let touching = &self.scratch.touching;
        let source = |at: u32| {
            let c = &touching[at as usize];
            let (fa, fb) = (&facts[c.body_a as usize], &facts[c.body_b as usize]);
            // The rolling resistance's lever: the smaller shape's radius
            // (only where a rounded surface may roll), which the
            // narrowphase read while the shapes were in cache.
            let lever = if c.features[0].radius > 0.0 {
                c.lever
            } else {
                0.0
            };
            Source {
                contact: at,
                slot: c.slot,
                a: c.body_a,
                b: c.body_b,
                center_a: start[c.body_a as usize].0,
                center_b: start[c.body_b as usize].0,
                gravity_a: fa.gravity,
                gravity_b: fb.gravity,
                manifold: &c.manifold,
                features: &c.features,
                friction: c.friction,
                restitution: c.restitution,
                rolling_arm: s.rolling_resistance * lever,
            }
        };
        // Loads a contact's record ahead of its use (a prefetch: nothing
        // computed changes).
        let warm = |at: u32| touching[at as usize].prefetch();
        let keys = &self.scratch.touch_keys;
        debug_assert_eq!(keys.len(), touching.len(), "touch keys out of step");
        for (at, c) in keys.iter().enumerate() {
            held[c.body_a as usize] = true;
            held[c.body_b as usize] = true;
            let (fa, fb) = (&facts[c.body_a as usize], &facts[c.body_b as usize]);
            if !(fa.live && fb.live) || !(fa.active || fb.active) || fa.frozen || fb.frozen {
                continue;
            }
            levels.add(at, c.body_a, c.body_b, c.normal, up);
            let (a, b) = (c.body_a, c.body_b);
            match (bodies[a as usize].responds(), bodies[b as usize].responds()) {
                (true, true) => anchors.link(a, b),
                (true, false) if !fb.sleeping => anchors.anchor(a),
                (false, true) if !fa.sleeping => anchors.anchor(b),
                _ => {}
            }
            block.push(Pending {
                at: at as u32,
                a: c.body_a,
                b: c.body_b,
                single: c.single,
            });
            if block.len() == BLOCK {
                constraints.append_scheduled(
                    &mut block,
                    &mut wavefront,
                    &bodies,
                    s.gravity,
                    source,
                    warm,
                );
            }
        }
        constraints.append_scheduled(&mut block, &mut wavefront, &bodies, s.gravity, source, warm);
        self.scratch.block = block;
        self.scratch.wavefront = wavefront;
        let mut contact_forest = std::mem::take(&mut self.scratch.contact_forest);
        contact_forest.build(&constraints, &bodies, |i| facts[i as usize].sleeping);
        self.scratch.slot_facts = facts;

        // Joints, in slot order; the world frame is one more static slot.
        let mut joints = std::mem::take(&mut self.scratch.joint_constraints);
        let world_slot = self.slots.len() as u32;
        if !self.joints.is_empty() || self.drag.is_some() {
            bodies.push(SolverBody::default());
            poses.push(SolverPose::default());
        }
        self.prepare_joints(&bodies, world_slot, h, &mut joints);
        // The joint passes visit the joints in wavefront order: each body
        // sees its joints in slot order, as before, bit for bit, while
        // neighbours in the visit share no body.
        let mut joint_order = std::mem::take(&mut self.scratch.joint_order);
        let mut with_next = std::mem::take(&mut self.scratch.joint_with_next);
        self.scratch.joint_wavefront.order_all(
            &bodies,
            &joints,
            |j| j.bodies(),
            &mut joint_order,
            &mut with_next,
        );
        let mut forest = std::mem::take(&mut self.scratch.joint_forest);
        forest.build(&joints, &bodies);
        // Runs of independent plain hinges are solved in lanes (the forest,
        // when it holds joints, works on their impulses between passes).
        let mut joint_lanes = std::mem::take(&mut self.scratch.joint_lanes);
        joint_lanes.build(&joints, &joint_order, &with_next, forest.is_empty());
        let joint_params = JointParams {
            h,
            inv_h: 1.0 / h,
            max_linear: JOINT_MAX_LINEAR,
            max_angular: JOINT_MAX_ANGULAR,
        };

        // The sandbox's drag: a mouse joint, solved once per substep.
        let mut drag = self.prepare_drag(&bodies, world_slot, h);

        // The joints' and the drag's bodies are held too (the world slot
        // pushed above is not integrated, so its flag is never read).
        held.resize(bodies.len(), false);
        let facts = &self.scratch.slot_facts;
        let sleeping = |i: u32| facts[i as usize].sleeping;
        for j in self.joints.iter().filter_map(|s| s.joint.as_ref()) {
            let b = j.def.body_b.index;
            held[b as usize] = true;
            levels.jointed(b);
            let Some(a) = j.def.body_a.map(|a| a.index) else {
                anchors.anchor(b);
                continue;
            };
            held[a as usize] = true;
            levels.jointed(a);
            match (bodies[a as usize].responds(), bodies[b as usize].responds()) {
                (true, true) => anchors.link(a, b),
                (true, false) if !sleeping(b) => anchors.anchor(a),
                (false, true) if !sleeping(a) => anchors.anchor(b),
                _ => {}
            }
        }
        if let Some(d) = self.drag.as_ref() {
            held[d.body.index as usize] = true;
            anchors.anchor(d.body.index);
        }
        anchors.finish();
        // The moving bodies that can be held back (see `Anchors`).
        let mut resisted = std::mem::take(&mut self.scratch.resisted);
        resisted.clear();
        resisted.extend(moving.iter().copied().filter(|&i| anchors.anchored(i)));
        for g in &mut integration {
            g.free = !held[g.body as usize];
        }
        self.scratch.held = held;

        // Shock propagation in the position pass (see `stack_levels`).
        levels.build(&bodies);
        // A contact's bodies share an island; a body that does not respond
        // is in none.
        let free = |a: u32, b: u32| {
            let a = if bodies[a as usize].responds() { a } else { b };
            !anchors.anchored(a)
        };
        let jointed = |a: u32, b: u32| levels.jointed_body(a) || levels.jointed_body(b);
        constraints.plan_position_pass(|at| levels.held(at), jointed, free);
        self.scratch.anchors = anchors;
        self.scratch.stack_levels = levels;

        timings.prepare = sw.lap();
        for substep in 0..substeps {
            // Gravity and damping (awake dynamic bodies).
            for g in &integration {
                g.apply(&mut bodies[g.body as usize]);
            }
            if let Some(d) = drag.as_ref() {
                d.warm_start(&mut bodies, &poses);
            }
            joint_lanes.warm_start(&joints, &mut bodies, &poses);
            let quiet = if substep == 0 {
                Quiet::Mark {
                    depth: QUIET_DEPTH * s.linear_slop,
                    span: (substeps - 1) as f32 * h,
                }
            } else {
                Quiet::Keep
            };
            let push = s.max_push_speed;
            // The velocities before the warm start, which the anchor update
            // reads (no constraint, nothing read: a world at rest copies
            // nothing).
            pre_warm.clear();
            if !constraints.is_empty() {
                pre_warm.extend_from_slice(&bodies);
            }
            contact_solver::update_and_warm_start(
                &mut constraints,
                &pre_warm,
                &mut bodies,
                &poses,
                h,
                push,
                quiet,
            );
            contact_forest.prepare(&constraints, &bodies);
            if let Some(d) = drag.as_mut() {
                d.solve_velocity(&mut bodies, &poses, &joint_params);
            }
            forest.prepare(&joints, &bodies, &poses);
            timings.warm_start += sw.lap();
            for _ in 0..s.velocity_iterations.max(1) {
                joint_lanes.solve_velocity(&mut joints, &mut bodies, &poses, &joint_params);
                forest.solve_velocity(&mut joints, &mut bodies, &poses);
                contact_solver::solve_velocities(&mut constraints, &mut bodies);
                contact_forest.solve_velocity(&mut constraints, &mut bodies);
            }
            timings.velocity += sw.lap();
            // Integrate positions (bodies that do not move stay put exactly).
            // A dynamic body's turn per substep is capped: spinning faster,
            // its corners would sweep through what the contacts guard.
            for &i in &moving {
                let i = i as usize;
                let b = &mut bodies[i];
                if b.inv_inertia > 0.0 && b.w.abs() > max_spin {
                    b.w = max_spin.copysign(b.w);
                }
                poses[i] = poses[i].integrate(&bodies[i], h);
            }
            for g in &integration {
                if let Some(d) = g.drift(h) {
                    poses[g.body as usize].dp += d;
                }
            }
            before.clear();
            before.extend(resisted.iter().map(|&i| poses[i as usize].dp));
            // Each joint banks the substep's impulses as its position pass
            // visits it (`joint_order` holds every joint once).
            joint_lanes.end_substep(&mut joints, &mut poses, &joint_params);
            // The contacts of unjointed bodies on alternate substeps, the
            // last one included (see `contact_solver::PositionPass`).
            let pass = if (substeps - 1 - substep) % 2 == 0 {
                PositionPass::All {
                    alternate: &alternate,
                }
            } else {
                PositionPass::Jointed
            };
            contact_solver::solve_positions(&constraints, &mut poses, &params, pass);
            drop_resisted_velocity(&mut bodies, &poses, &resisted, &before, 1.0 / h);
            timings.positions += sw.lap();
        }
        contact_solver::apply_restitution(&mut constraints, &mut bodies, &poses, &params);
        joint_lanes.finish(&mut joints);

        // The impulses, banked beside the pool for the next narrowphase to
        // store (see `Banked`).
        let mut bank = self.contacts.open_bank();
        constraints.for_each_impulses(&mut bank, |bank, slot, normal, tangent, rolling, count| {
            let b = Banked {
                normal,
                tangent,
                rolling,
                count: count as u32,
            };
            bank.put(slot, b);
        });
        if let (Some(d), Some(j)) = (drag, self.drag.as_mut()) {
            j.impulse = d.impulses.linear;
        }
        self.write_back(&moving, &bodies, &poses);
        if !joints.is_empty() {
            self.finish_joints(&joints, &poses, 1.0 / s.dt);
        }
        self.scratch.joint_constraints = joints;
        self.scratch.joint_order = joint_order;
        self.scratch.joint_with_next = with_next;
        self.scratch.joint_lanes = joint_lanes;
        self.scratch.joint_forest = forest;
        self.scratch.contact_forest = contact_forest;
        self.scratch.solver_bodies = bodies;
        self.scratch.solver_poses = poses;
        self.scratch.moving = moving;
        self.scratch.integration = integration;
        self.scratch.before_passes = before;
        self.scratch.pre_warm = pre_warm;
        self.scratch.resisted = resisted;
        self.scratch.constraints = constraints;
        self.scratch.step_start = start;
        timings.finish = sw.lap();
        self.timings.solver_parts = timings;
    }

    /// Writes the solved state back to the `moving` bodies (the awake,
    /// unfrozen ones, in slot order; no other body's state changed).
    fn write_back(&mut self, moving: &[u32], bodies: &[SolverBody], poses: &[SolverPose]) {
        let max_speed = self.settings.max_speed;
        let step = self.step_index;
        let mut froze = false;
        for &i in moving {
            let i = i as usize;
            let (slot, sb, q) = (&mut self.slots[i], &bodies[i], &poses[i]);
            let Some(b) = slot.body.as_mut() else {
                continue;
            };
            if !b.awake || b.frozen || b.kind == BodyKind::Static {
                continue;
            }
            let center = b.center + q.dp;
            let rot = b.xf.rot * q.dq;
            let bad = if !(is_finite_vec(sb.v)
                && sb.w.is_finite()
                && is_finite_vec(center)
                && rot.cos.is_finite()
                && rot.sin.is_finite())
            {
                Some("non-finite state".to_string())
            } else if sb.v.length() + b.extent * sb.w.abs() > max_speed {
                // The fastest point's speed: a small disc struck hard may
                // rightly spin at thousands of rad/s.
                Some(format!(
                    "speed beyond {max_speed} (v = {}, w = {})",
                    sb.v.length(),
                    sb.w
                ))
            } else if center.abs().max_element() > super::MAX_POSITION {
                Some("left the world (|position| > 1e6 m)".to_string())
            } else {
                None
            };
            if let Some(reason) = bad {
                // Keep the last good pose, stop the body, take it out of collision.
                b.frozen = true;
                froze = true;
                b.awake = false;
                b.v = Vec2::ZERO;
                b.w = 0.0;
                for c in &b.colliders {
                    self.broadphase.remove(c.proxy);
                }
                self.events.push(WorldEvent::BodyFrozen {
                    body: super::BodyId {
                        index: i as u32,
                        generation: slot.generation,
                    },
                    step,
                    reason,
                });
                continue;
            }
            b.v = sb.v;
            b.w = sb.w;
            b.center = center;
            b.xf.rot = rot;
            b.sync_transform();
        }
        if froze {
            let frozen: Vec<u32> = (0..self.slots.len() as u32)
                .filter(|&i| {
                    self.slots[i as usize]
                        .body
                        .as_ref()
                        .is_some_and(|b| b.frozen)
                })
                .collect();
            self.drop_contacts(|c| !frozen.contains(&c.body_a) && !frozen.contains(&c.body_b));
            self.scratch.contacts_in_sync = false;
            if self.drag.is_some_and(|d| frozen.contains(&d.body.index)) {
                self.drag = None;
            }
        }
    }
}
