//! Stage 8 of the step: islands of touching dynamic bodies that have all
//! rested long enough fall asleep together.

use super::world::World;
use crate::dynamics::BodyKind;
use crate::math::Vec2;

/// How far (as a fraction of the sleep velocity) a resting body's smoothed
/// motion may speed up, or change while turning back, from what it was when
/// its rest began before the rest starts afresh. The jitter of a settled
/// pile stays well inside it; a steady acceleration does not.
const REST_DRIFT: f32 = 0.25;

/// Time constant (s) of the smoothing of a body's realized motion that the
/// sleep stage reads.
const MOTION_SMOOTHING: f32 = 0.1;

impl World {
    /// Stage 8: islands of touching dynamic bodies sleep together once all of
    /// them have rested for `time_to_sleep`.
    pub(super) fn update_sleep(&mut self) {
        if !self.settings.sleep {
            return;
        }
        let s = self.settings;
        let n = self.slots.len();
        let dragged = self.drag.map(|d| d.body.index);
        let start = &self.scratch.step_start;
        // Whether any body has rested long enough to sleep: an island sleeps
        // only when every body in it has, so without one no island can, and
        // the islands are not built (bodies that never rest, as in a turning
        // drum, pay only this loop). With no time to wait, every body has.
        let mut ready = s.time_to_sleep <= 0.0;
        // Only the bodies the solver moved (awake and unfrozen at its start,
        // in slot order) can be awake now: a sleeping pile costs nothing here.
        let moving = std::mem::take(&mut self.scratch.moving);
        for &i in &moving {
            let i = i as usize;
            let Some(b) = self.slots[i].body.as_mut() else {
                continue;
            };
            if !b.awake || b.kind != BodyKind::Dynamic {
                continue;
            }
            // Rest is judged by the body's realized motion, not the solver's
            // velocity: a body wedged in a jam keeps a velocity that each
            // substep's position passes undo (or the continuous stage takes
            // back), and goes nowhere. The motion is smoothed over about
            // `MOTION_SMOOTHING` seconds, so a jam's jitter averages out.
            let (c0, r0) = start.get(i).copied().unwrap_or((b.center, b.xf.rot));
            let v = (b.center - c0) / s.dt;
            // The step's turn; its sine where the turn is under a quarter
            // turn (equal to the angle to 1e-7 rad at the sleep velocity,
            // and no trigonometry for every awake body).
            let dq = r0.inv_mul(b.xf.rot);
            let turn = if dq.cos > 0.0 { dq.sin } else { dq.angle() };
            let w = turn / s.dt;
            let k = (s.dt / MOTION_SMOOTHING).min(1.0);
            b.moved_v += k * (v - b.moved_v);
            b.moved_w += k * (w - b.moved_w);
            let point_speed = b.moved_v.length() + b.extent * b.moved_w.abs();
            let threshold = b.sleep_threshold.unwrap_or(s.sleep_velocity);
            let resting = point_speed <= threshold && dragged != Some(i as u32);
            if !resting {
                b.sleep_time = 0.0;
                continue;
            }
            // Slow is not at rest while the motion grows or turns back. A
            // body that speeds up (sliding or rolling away) or reverses (a
            // nearly round body rocking slowly through a turning point)
            // starts its rest afresh, or it would freeze mid-swing. A body
            // that creeps on at a steady pace, or slows, keeps its rest: the
            // limbs of a settling ragdoll pile creep at a few cm/s, and
            // restarting on every change of their pace kept piles awake
            // (docs/2026-11-28-margins-and-contact-churn.md).
            let limit = REST_DRIFT * threshold;
            let drift = (b.moved_v - b.rest_v).length() + b.extent * (b.moved_w - b.rest_w).abs();
            let rest_speed = b.rest_v.length() + b.extent * b.rest_w.abs();
            let reversed = b.moved_v.dot(b.rest_v) < 0.0 || b.moved_w * b.rest_w < 0.0;
            let faster = point_speed - rest_speed > limit;
            if b.sleep_time == 0.0 || (drift > limit && (reversed || faster)) {
                b.sleep_time = 0.0;
                b.rest_v = b.moved_v;
                b.rest_w = b.moved_w;
            }
            b.sleep_time += s.dt;
            ready |= b.sleep_time >= s.time_to_sleep;
        }
        self.scratch.moving = moving;
        if !ready {
            return;
        }
        let uf = &mut self.scratch.islands;
        uf.reset(n);
        let rest = &mut self.scratch.island_rest;
        rest.clear();
        rest.resize(n, f32::INFINITY);
        for c in &self.scratch.touching {
            let (Some(ba), Some(bb)) = (
                self.slots[c.body_a as usize].body.as_ref(),
                self.slots[c.body_b as usize].body.as_ref(),
            ) else {
                continue;
            };
            match (ba.kind, bb.kind) {
                (BodyKind::Dynamic, BodyKind::Dynamic) => uf.union(c.body_a, c.body_b),
                // Resting on a moving kinematic body keeps an island awake.
                (BodyKind::Kinematic, BodyKind::Dynamic) if ba.v != Vec2::ZERO || ba.w != 0.0 => {
                    rest[c.body_b as usize] = 0.0
                }
                (BodyKind::Dynamic, BodyKind::Kinematic) if bb.v != Vec2::ZERO || bb.w != 0.0 => {
                    rest[c.body_a as usize] = 0.0
                }
                _ => {}
            }
        }
        self.join_islands();
        let (uf, rest) = (&mut self.scratch.islands, &mut self.scratch.island_rest);
        for i in 0..n {
            if let Some(b) = self.slots[i].body.as_ref() {
                if b.awake && b.kind == BodyKind::Dynamic {
                    let r = uf.find(i as u32) as usize;
                    rest[r] = rest[r].min(b.sleep_time).min(rest[i]);
                }
            }
        }
        let island_base = self.next_island;
        let mut used = false;
        for i in 0..n {
            let r = uf.find(i as u32) as usize;
            let Some(b) = self.slots[i].body.as_mut() else {
                continue;
            };
            if b.awake && b.kind == BodyKind::Dynamic && rest[r] >= s.time_to_sleep {
                b.awake = false;
                b.v = Vec2::ZERO;
                b.w = 0.0;
                b.moved_v = Vec2::ZERO;
                b.moved_w = 0.0;
                b.sleep_time = 0.0;
                b.sleep_island = island_base.wrapping_add(r as u32);
                used = true;
            }
        }
        if used {
            self.next_island = island_base.wrapping_add(n as u32);
        }
    }
}
