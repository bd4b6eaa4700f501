//! The sandbox's mouse drag: a soft point constraint (a critically damped spring
//! solved as a constraint) pulling a body point toward a target, with a force cap.
//!
//! Soft constraint coefficients for stiffness ω = 2π·hz and damping ratio ζ over a
//! substep h (E. Catto, "Soft Constraints", GDC 2011; Box2D v3 `b2MakeSoft`):
//! `bias_rate = ω / (2ζ + hω)`, `mass_scale = hω(2ζ + hω) / (1 + hω(2ζ + hω))`,
//! `impulse_scale = 1 / (1 + hω(2ζ + hω))`.

use super::id::BodyId;
use super::solver_body::{SolverBody, SolverPose};
use crate::math::{cross, cross_sv, Vec2};
use serde::{Deserialize, Serialize};

/// A body point pulled toward a target.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DragJoint {
    /// The dragged body.
    pub body: BodyId,
    /// Grabbed point in the body frame (m).
    pub local_anchor: Vec2,
    /// Where the point is pulled (world, m).
    pub target: Vec2,
    /// Spring frequency (Hz).
    pub hertz: f32,
    /// Damping ratio (1 = critical).
    pub damping_ratio: f32,
    /// Force cap (N).
    pub max_force: f32,
    /// Accumulated impulse (N·s), for warm starting.
    pub impulse: Vec2,
}

/// Per-step solver data for the drag joint.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DragConstraint {
    pub body: u32,
    /// Anchor relative to the centre of mass at step start (world orientation).
    r0: Vec2,
    center0: Vec2,
    target: Vec2,
    bias_rate: f32,
    mass_scale: f32,
    impulse_scale: f32,
    max_impulse: f32,
    pub impulse: Vec2,
}

impl DragConstraint {
    pub fn new(j: &DragJoint, body: u32, center: Vec2, anchor_world: Vec2, h: f32) -> Self {
        let omega = 2.0 * std::f32::consts::PI * j.hertz;
        let a1 = 2.0 * j.damping_ratio + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        DragConstraint {
            body,
            r0: anchor_world - center,
            center0: center,
            target: j.target,
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
            max_impulse: j.max_force * h,
            impulse: j.impulse,
        }
    }

    pub fn warm_start(&self, b: &mut SolverBody, q: &SolverPose) {
        let r = q.dq.apply(self.r0);
        b.v += b.inv_mass * self.impulse;
        b.w += b.inv_inertia * cross(r, self.impulse);
    }

    pub fn solve(&mut self, b: &mut SolverBody, q: &SolverPose) {
        let r = q.dq.apply(self.r0);
        let c = self.center0 + q.dp + r - self.target;
        let cdot = b.v + cross_sv(b.w, r);
        let (im, ii) = (b.inv_mass, b.inv_inertia);
        // K = im·I + ii·[r⊥ r⊥ᵀ], inverted in closed form.
        let k11 = im + ii * r.y * r.y;
        let k12 = -ii * r.x * r.y;
        let k22 = im + ii * r.x * r.x;
        let det = k11 * k22 - k12 * k12;
        if det <= 0.0 {
            return;
        }
        let rhs = cdot + self.bias_rate * c;
        let solved = Vec2::new(k22 * rhs.x - k12 * rhs.y, k11 * rhs.y - k12 * rhs.x) / det;
        let impulse = -self.mass_scale * solved - self.impulse_scale * self.impulse;
        let old = self.impulse;
        let mut acc = old + impulse;
        let len = acc.length();
        if len > self.max_impulse {
            acc *= self.max_impulse / len;
        }
        let delta = acc - old;
        self.impulse = acc;
        b.v += im * delta;
        b.w += ii * cross(r, delta);
    }
}
