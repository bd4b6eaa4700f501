//! The mouse joint: a soft spring pulling B's anchor toward a world target,
//! with a force cap: the sandbox's drag. Body A is the world and takes no
//! part. A soft constraint (see `frame::Softness`) solved on B alone:
//! `λ = −mass_scale · K⁻¹ (Ċ + bias_rate · C) − impulse_scale · λ_acc`,
//! the accumulated impulse then capped at `max_force · h`
//! (Box2D v3 `b2SolveMouseJoint`).

use super::def::Mouse;
use super::frame::{Frame, JointImpulses, Softness};
use crate::dynamics::solver_body::{SolverBody, SolverPose};
use crate::math::{cross, cross_sv, Vec2};

/// A mouse joint prepared for one step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MouseConstraint {
    /// B's centre of mass at step start.
    center0: Vec2,
    target: Vec2,
    soft: Softness,
    max_impulse: f32,
}

impl MouseConstraint {
    pub fn new(def: &Mouse, center0: Vec2, h: f32) -> MouseConstraint {
        MouseConstraint {
            center0,
            target: def.target,
            soft: Softness::new(def.spring.hertz, def.spring.damping_ratio, h),
            max_impulse: def.max_force * h,
        }
    }

    pub fn warm_start(&self, f: &Frame, imp: &JointImpulses, b: &mut SolverBody, q: &SolverPose) {
        let r = q.dq.apply(f.rb0);
        b.v += b.inv_mass * imp.linear;
        b.w += b.inv_inertia * cross(r, imp.linear);
    }

    pub fn solve_velocity(
        &self,
        f: &Frame,
        imp: &mut JointImpulses,
        b: &mut SolverBody,
        q: &SolverPose,
    ) {
        let r = q.dq.apply(f.rb0);
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
        let rhs = cdot + self.soft.bias_rate * c;
        let solved = Vec2::new(k22 * rhs.x - k12 * rhs.y, k11 * rhs.y - k12 * rhs.x) / det;
        let impulse = -self.soft.mass_scale * solved - self.soft.impulse_scale * imp.linear;
        let old = imp.linear;
        let mut acc = old + impulse;
        let len = acc.length();
        if len > self.max_impulse {
            acc *= self.max_impulse / len;
        }
        let delta = acc - old;
        imp.linear = acc;
        b.v += im * delta;
        b.w += ii * cross(r, delta);
    }

    /// Reaction on B: the pull (N).
    pub fn reaction(&self, imp: &JointImpulses, inv_h: f32) -> (Vec2, f32) {
        (imp.linear * inv_h, 0.0)
    }
}
