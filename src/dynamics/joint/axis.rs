//! The geometry of a joint along an axis fixed in body A (prismatic and
//! wheel joints), at the current poses, and the axial constraints they share:
//! a spring, a motor and limits on the translation along the axis.
//!
//! With `d` the anchors' separation and `u` the axis (turning with A), the
//! translation is `t = u·d` and its rate `ṫ = u·(vB − vA) + a₂ωB − a₁ωA`,
//! with lever arms `a₁ = (d + rA) × u`, `a₂ = rB × u` (the derivative of `u`
//! turning with A is folded into `a₁`, Box2D v3 `prismatic_joint.c`). The
//! perpendicular `p = u⊥` gives the lateral constraint the same way, with
//! `s₁ = (d + rA) × p`, `s₂ = rB × p`.

use super::def::{Limits, Motor};
use super::frame::{
    accumulate_clamped, accumulate_nonnegative, limit_bias, soft_impulse, Frame, JointImpulses,
    Softness,
};
use super::JointParams;
use crate::dynamics::solver_body::{SolverBody, SolverPose};
use crate::math::{cross, Vec2};

/// Axis, perpendicular and lever arms at the current poses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AxisGeometry {
    pub axis: Vec2,
    pub perp: Vec2,
    /// Anchor separation, B's minus A's.
    pub d: Vec2,
    pub translation: f32,
    pub a1: f32,
    pub a2: f32,
    pub s1: f32,
    pub s2: f32,
}

impl AxisGeometry {
    /// The geometry of the axis `axis0` (world, step start) at poses `qa`, `qb`.
    #[inline(always)]
    pub fn new(f: &Frame, axis0: Vec2, qa: &SolverPose, qb: &SolverPose) -> AxisGeometry {
        let (ra, rb) = f.anchors(qa, qb);
        let d = f.separation(qa, qb, ra, rb);
        let axis = qa.dq.apply(axis0);
        let perp = axis.perp();
        AxisGeometry {
            axis,
            perp,
            d,
            translation: axis.dot(d),
            a1: cross(d + ra, axis),
            a2: cross(rb, axis),
            s1: cross(d + ra, perp),
            s2: cross(rb, perp),
        }
    }

    /// Effective mass along the axis.
    #[inline(always)]
    pub fn axial_mass(&self, f: &Frame) -> f32 {
        let k = f.ma + f.mb + f.ia * self.a1 * self.a1 + f.ib * self.a2 * self.a2;
        if k > 0.0 {
            1.0 / k
        } else {
            0.0
        }
    }

    /// Effective mass across the axis.
    #[inline(always)]
    pub fn perp_mass(&self, f: &Frame) -> f32 {
        let k = f.ma + f.mb + f.ia * self.s1 * self.s1 + f.ib * self.s2 * self.s2;
        if k > 0.0 {
            1.0 / k
        } else {
            0.0
        }
    }

    /// Rate of the translation along the axis.
    #[inline(always)]
    pub fn axial_speed(&self, ba: &SolverBody, bb: &SolverBody) -> f32 {
        self.axis.dot(bb.v - ba.v) + self.a2 * bb.w - self.a1 * ba.w
    }

    /// Rate of the offset across the axis.
    #[inline(always)]
    pub fn perp_speed(&self, ba: &SolverBody, bb: &SolverBody) -> f32 {
        self.perp.dot(bb.v - ba.v) + self.s2 * bb.w - self.s1 * ba.w
    }

    /// Applies `l` along the axis (to B; `−l` to A).
    #[inline(always)]
    pub fn apply_axial(&self, f: &Frame, ba: &mut SolverBody, bb: &mut SolverBody, l: f32) {
        f.apply_general(ba, bb, l * self.axis, l * self.a1, l * self.a2);
    }

    /// Applies `l` across the axis (to B; `−l` to A).
    #[inline(always)]
    pub fn apply_perp(&self, f: &Frame, ba: &mut SolverBody, bb: &mut SolverBody, l: f32) {
        f.apply_general(ba, bb, l * self.perp, l * self.s1, l * self.s2);
    }
}

/// The axial spring, motor and limits of a slider or wheel.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AxialParts {
    pub spring: Option<Softness>,
    /// A translation motor (prismatic only; a wheel's motor turns it).
    pub motor: Option<Motor>,
    pub limits: Option<Limits>,
}

impl AxialParts {
    /// The velocity pass of the axial parts, in Box2D v3's order.
    #[allow(clippy::too_many_arguments)]
    pub fn solve_velocity(
        &self,
        f: &Frame,
        g: &AxisGeometry,
        imp: &mut JointImpulses,
        ba: &mut SolverBody,
        bb: &mut SolverBody,
        prm: &JointParams,
    ) {
        if self.spring.is_none() && self.motor.is_none() && self.limits.is_none() {
            return;
        }
        let mass = g.axial_mass(f);
        if let Some(s) = &self.spring {
            let l = soft_impulse(s, mass, g.axial_speed(ba, bb), g.translation, imp.spring);
            imp.spring += l;
            g.apply_axial(f, ba, bb, l);
        }
        if let Some(m) = &self.motor {
            let l = -mass * (g.axial_speed(ba, bb) - m.speed);
            let l = accumulate_clamped(&mut imp.motor, l, m.max_effort * prm.h);
            g.apply_axial(f, ba, bb, l);
        }
        if let Some(lim) = &self.limits {
            let c = g.translation - lim.lower;
            let l = -mass * (g.axial_speed(ba, bb) + limit_bias(c, prm.inv_h));
            let l = accumulate_nonnegative(&mut imp.lower, l);
            g.apply_axial(f, ba, bb, l);
            let c = lim.upper - g.translation;
            let l = -mass * (-g.axial_speed(ba, bb) + limit_bias(c, prm.inv_h));
            let l = accumulate_nonnegative(&mut imp.upper, l);
            g.apply_axial(f, ba, bb, -l);
        }
    }

    /// The position pass of the limits: the violated bound, removed by a
    /// pseudo-impulse along the axis (at most `max_linear` per pass).
    pub fn solve_position(
        &self,
        f: &Frame,
        axis0: Vec2,
        qa: &mut SolverPose,
        qb: &mut SolverPose,
        prm: &JointParams,
    ) {
        let Some(lim) = &self.limits else {
            return;
        };
        let g = AxisGeometry::new(f, axis0, qa, qb);
        let c = if g.translation < lim.lower {
            g.translation - lim.lower
        } else if g.translation > lim.upper {
            g.translation - lim.upper
        } else {
            return;
        };
        let l = -g.axial_mass(f) * c.clamp(-prm.max_linear, prm.max_linear);
        f.push_general(qa, qb, l * g.axis, l * g.a1, l * g.a2);
    }

    /// The axial impulse (spring, motor, limits) along the axis.
    pub fn axial_impulse(imp: &JointImpulses) -> f32 {
        imp.spring + imp.motor + imp.lower - imp.upper
    }
}
