//! The distance joint: the anchors are held at a length, rigidly (a rod), or
//! through a spring toward a rest length with hard stops at a minimum and a
//! maximum (a spring, or a rope when the spring has no stiffness and the
//! minimum is 0).
//!
//! Along the unit axis `u = d/|d|` between the anchors, the length's rate is
//! `u·(vB + ωB×rB − vA − ωA×rA)`, with effective mass
//! `1 / (mA + mB + iA (rA×u)² + iB (rB×u)²)`. Velocity pass (Box2D v3
//! `b2SolveDistanceJoint`): a rigid joint holds the rate at 0; a soft one
//! applies its spring, then the one-sided stops (speculative). Position pass
//! (NGS): the rigid length, or the violated stop.

use super::def::Distance;
use super::frame::{
    accumulate_nonnegative, limit_bias, relative_velocity, soft_impulse, Frame, JointImpulses,
    Softness,
};
use super::JointParams;
use crate::dynamics::solver_body::{SolverBody, SolverPose};
use crate::math::{cross, Vec2};

/// A distance joint prepared for one step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DistanceConstraint {
    length: f32,
    min_length: f32,
    max_length: f32,
    /// `None` for a rigid joint; a 0 Hz spring for a rope.
    spring: Option<Softness>,
}

/// The axis between the anchors, the length and the effective mass along it,
/// at the current poses; `None` when the anchors coincide (no direction).
#[inline(always)]
fn axis(f: &Frame, qa: &SolverPose, qb: &SolverPose) -> Option<(Vec2, f32, Vec2, Vec2, f32)> {
    let (ra, rb) = f.anchors(qa, qb);
    let d = f.separation(qa, qb, ra, rb);
    let length = d.length();
    if length.is_nan() || length <= 1e-6 {
        return None;
    }
    let u = d / length;
    let (cra, crb) = (cross(ra, u), cross(rb, u));
    let k = f.ma + f.mb + f.ia * cra * cra + f.ib * crb * crb;
    let mass = if k > 0.0 { 1.0 / k } else { 0.0 };
    Some((u, length, ra, rb, mass))
}

impl DistanceConstraint {
    pub fn new(def: &Distance, h: f32) -> DistanceConstraint {
        let soft = def.min_length < def.max_length;
        DistanceConstraint {
            length: def.length.clamp(def.min_length, def.max_length),
            min_length: def.min_length,
            max_length: def.max_length,
            spring: def
                .spring
                .filter(|_| soft)
                .map(|s| Softness::new(s.hertz, s.damping_ratio, h)),
        }
    }

    /// The total impulse along the axis.
    fn axial(imp: &JointImpulses) -> f32 {
        imp.spring + imp.lower - imp.upper
    }

    pub fn warm_start(
        &self,
        f: &Frame,
        imp: &JointImpulses,
        ba: &mut SolverBody,
        bb: &mut SolverBody,
        qa: &SolverPose,
        qb: &SolverPose,
    ) {
        if let Some((u, _, ra, rb, _)) = axis(f, qa, qb) {
            f.apply_linear(ba, bb, ra, rb, Self::axial(imp) * u);
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub fn solve_velocity(
        &self,
        f: &Frame,
        imp: &mut JointImpulses,
        ba: &mut SolverBody,
        bb: &mut SolverBody,
        qa: &SolverPose,
        qb: &SolverPose,
        prm: &JointParams,
    ) {
        let Some((u, length, ra, rb, mass)) = axis(f, qa, qb) else {
            return;
        };
        let speed = |ba: &SolverBody, bb: &SolverBody| u.dot(relative_velocity(ba, bb, ra, rb));
        let Some(s) = &self.spring else {
            let l = -mass * speed(ba, bb);
            imp.spring += l;
            f.apply_linear(ba, bb, ra, rb, l * u);
            return;
        };
        let l = soft_impulse(s, mass, speed(ba, bb), length - self.length, imp.spring);
        imp.spring += l;
        f.apply_linear(ba, bb, ra, rb, l * u);
        if self.min_length > 0.0 {
            let c = length - self.min_length;
            let l = -mass * (speed(ba, bb) + limit_bias(c, prm.inv_h));
            let l = accumulate_nonnegative(&mut imp.lower, l);
            f.apply_linear(ba, bb, ra, rb, l * u);
        }
        if self.max_length < f32::MAX {
            let c = self.max_length - length;
            let l = -mass * (-speed(ba, bb) + limit_bias(c, prm.inv_h));
            let l = accumulate_nonnegative(&mut imp.upper, l);
            f.apply_linear(ba, bb, ra, rb, -l * u);
        }
    }

    pub fn solve_position(
        &self,
        f: &Frame,
        qa: &mut SolverPose,
        qb: &mut SolverPose,
        prm: &JointParams,
    ) {
        let Some((u, length, ra, rb, mass)) = axis(f, qa, qb) else {
            return;
        };
        let c = if self.spring.is_none() {
            length - self.length
        } else if length < self.min_length {
            length - self.min_length
        } else if length > self.max_length {
            length - self.max_length
        } else {
            return;
        };
        let l = -mass * c.clamp(-prm.max_linear, prm.max_linear);
        f.push_linear(qa, qb, ra, rb, l * u);
    }

    /// Reaction on B: the force along the axis (N); no torque.
    pub fn reaction(
        &self,
        f: &Frame,
        imp: &JointImpulses,
        qa: &SolverPose,
        qb: &SolverPose,
        inv_h: f32,
    ) -> (Vec2, f32) {
        let u = axis(f, qa, qb).map_or(Vec2::ZERO, |a| a.0);
        (Self::axial(imp) * inv_h * u, 0.0)
    }
}
