//! The revolute joint (hinge): the anchors coincide; the bodies turn freely
//! about them, within optional angle limits, driven by an optional motor and
//! held toward angle 0 by an optional torsional spring.
//!
//! Velocity pass, in Box2D v3's order: spring (soft), motor (bounded
//! torque), lower and upper limits (one-sided, speculative), then the point
//! constraint `vB + ωB×rB − vA − ωA×rA = 0` as a 2×2 solve. Position pass
//! (NGS): the limit violated by more than [`ANGULAR_SLOP`], then the anchors'
//! separation, both removed by pseudo-impulses on the poses (Box2D v2.4
//! `b2RevoluteJoint::SolvePositionConstraints`).

use super::def::{Limits, Motor, Revolute};
use super::frame::{
    accumulate_clamped, accumulate_nonnegative, limit_bias, relative_velocity, soft_impulse,
    solve2, Frame, JointImpulses, Softness,
};
use super::JointParams;
use crate::dynamics::solver_body::{SolverBody, SolverPose};
use crate::math::Vec2;

/// How far past a limit (rad, 2°) the position pass leaves a hinge, as the
/// linear slop is how deep it leaves a contact (Box2D v2.4's angular slop).
/// Violations within it are left to the velocity pass, which stops them
/// growing. Corrected to the limit itself, a hinge loaded past it (a limb
/// pressed by a neighbour) had its position pass undo the contacts' every
/// substep, and the two passes' fight kept ragdoll piles moving: 870 of
/// 1024 starts slept within 20 s with no slop, 904 with it (see
/// `docs/2026-11-28-hinge-limits-and-rolling-landed.md`).
pub(crate) const ANGULAR_SLOP: f32 = 2.0 * std::f32::consts::PI / 180.0;

/// A revolute joint prepared for one step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RevoluteConstraint {
    spring: Option<Softness>,
    motor: Option<Motor>,
    limits: Option<Limits>,
}

impl RevoluteConstraint {
    pub fn new(def: &Revolute, h: f32) -> RevoluteConstraint {
        RevoluteConstraint {
            spring: def
                .spring
                .filter(|s| s.hertz > 0.0)
                .map(|s| Softness::new(s.hertz, s.damping_ratio, h)),
            motor: def.motor,
            limits: def.limits,
        }
    }

    /// No spring, motor or limits: only the point constraint, which the
    /// lane passes solve (`lanes`).
    pub fn is_plain(&self) -> bool {
        self.spring.is_none() && self.motor.is_none() && self.limits.is_none()
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
        let (ra, rb) = f.anchors(qa, qb);
        let axial = imp.spring + imp.motor + imp.lower - imp.upper;
        f.apply_linear(ba, bb, ra, rb, imp.linear);
        f.apply_angular(ba, bb, axial);
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
        let axial_mass = f.axial_mass();
        let needs_angle = self.spring.is_some() || self.limits.is_some();
        let angle = if needs_angle { f.angle(qa, qb) } else { 0.0 };
        let angle_lim = self.limits.map_or(angle, |lim| toward_limits(angle, &lim));
        if let Some(s) = &self.spring {
            let l = soft_impulse(s, axial_mass, bb.w - ba.w, angle, imp.spring);
            imp.spring += l;
            f.apply_angular(ba, bb, l);
        }
        if let Some(m) = &self.motor {
            let l = -axial_mass * (bb.w - ba.w - m.speed);
            let l = accumulate_clamped(&mut imp.motor, l, m.max_effort * prm.h);
            f.apply_angular(ba, bb, l);
        }
        if let Some(lim) = &self.limits {
            let c = angle_lim - lim.lower;
            let l = -axial_mass * (bb.w - ba.w + limit_bias(c, prm.inv_h));
            let l = accumulate_nonnegative(&mut imp.lower, l);
            f.apply_angular(ba, bb, l);
            let c = lim.upper - angle_lim;
            let l = -axial_mass * (ba.w - bb.w + limit_bias(c, prm.inv_h));
            let l = accumulate_nonnegative(&mut imp.upper, l);
            f.apply_angular(ba, bb, -l);
        }
        let (ra, rb) = f.anchors(qa, qb);
        let cdot = relative_velocity(ba, bb, ra, rb);
        let (k11, k12, k22) = f.point_matrix(ra, rb);
        let p = -solve2(k11, k12, k22, cdot);
        imp.linear += p;
        f.apply_linear(ba, bb, ra, rb, p);
    }

    pub fn solve_position(
        &self,
        f: &Frame,
        qa: &mut SolverPose,
        qb: &mut SolverPose,
        prm: &JointParams,
    ) {
        if let Some(lim) = &self.limits {
            let angle = toward_limits(f.angle(qa, qb), lim);
            // A range narrower than two slops (a locked hinge) is held
            // exactly.
            let slop = if lim.upper - lim.lower < 2.0 * ANGULAR_SLOP {
                0.0
            } else {
                ANGULAR_SLOP
            };
            let c = if angle < lim.lower - slop {
                angle - lim.lower + slop
            } else if angle > lim.upper + slop {
                angle - lim.upper - slop
            } else {
                0.0
            };
            if c != 0.0 {
                let c = c.clamp(-prm.max_angular, prm.max_angular);
                f.push_angular(qa, qb, -f.axial_mass() * c);
            }
        }
        point_position(f, qa, qb, prm);
    }

    /// Reaction on B: force (N) and torque (N·m).
    pub fn reaction(&self, imp: &JointImpulses, inv_h: f32) -> (Vec2, f32) {
        (
            imp.linear * inv_h,
            (imp.spring + imp.motor + imp.lower - imp.upper) * inv_h,
        )
    }
}

/// The joint angle as the limits read it. The angle is known on the circle
/// only (in (−π, π] at the step's start), so an angle outside the limits is
/// taken as past the nearer of the two: the forbidden arc is split at its
/// middle, opposite the range's centre. Read as is, a hinge whose upper
/// limit is near π and which turned past it would be taken as far below its
/// lower limit, held there by the velocity pass and driven the long way
/// round by the position pass. Angles within π of the range's centre (every
/// angle within the limits) are returned unchanged.
#[inline]
pub(crate) fn toward_limits(angle: f32, lim: &Limits) -> f32 {
    use std::f32::consts::{PI, TAU};
    let centre = 0.5 * (lim.lower + lim.upper);
    if angle - centre > PI {
        angle - TAU
    } else if angle - centre < -PI {
        angle + TAU
    } else {
        angle
    }
}

/// Removes the anchors' separation by a pseudo-impulse on the poses (at most
/// `max_linear` per pass): shared by the revolute and weld joints.
#[inline]
pub(crate) fn point_position(
    f: &Frame,
    qa: &mut SolverPose,
    qb: &mut SolverPose,
    prm: &JointParams,
) {
    let (ra, rb) = f.anchors(qa, qb);
    let mut c = f.separation(qa, qb, ra, rb);
    let len = c.length();
    if len > prm.max_linear {
        c *= prm.max_linear / len;
    }
    if c == Vec2::ZERO {
        return;
    }
    let (k11, k12, k22) = f.point_matrix(ra, rb);
    let p = -solve2(k11, k12, k22, c);
    f.push_linear(qa, qb, ra, rb, p);
}
