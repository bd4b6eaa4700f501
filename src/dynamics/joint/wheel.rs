//! The wheel joint: B's anchor stays on an axis fixed in A (the suspension),
//! sprung and optionally limited along it, while B turns freely, optionally
//! driven by a motor. Two of them and a chassis make a car.
//!
//! Velocity pass (Box2D v3 `b2SolveWheelJoint`'s order): the motor on
//! `ωB − ωA`, the suspension spring and the travel limits along the axis,
//! then the lateral constraint `p·(vB − vA) + s₂ωB − s₁ωA = 0`. Position pass
//! (NGS): the violated travel limit, then the lateral offset `p·d`.

use super::axis::{AxialParts, AxisGeometry};
use super::def::{Motor, Wheel};
use super::frame::{accumulate_clamped, Frame, JointImpulses, Softness};
use super::JointParams;
use crate::dynamics::solver_body::{SolverBody, SolverPose};
use crate::math::Vec2;

/// A wheel joint prepared for one step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WheelConstraint {
    /// The suspension axis in world orientation at step start.
    axis0: Vec2,
    /// The suspension's spring and limits (no translation motor).
    parts: AxialParts,
    motor: Option<Motor>,
}

impl WheelConstraint {
    pub fn new(def: &Wheel, axis0: Vec2, h: f32) -> WheelConstraint {
        WheelConstraint {
            axis0,
            parts: AxialParts {
                spring: def
                    .spring
                    .filter(|s| s.hertz > 0.0)
                    .map(|s| Softness::new(s.hertz, s.damping_ratio, h)),
                motor: None,
                limits: def.limits,
            },
            motor: def.motor,
        }
    }

    /// The suspension's impulse along the axis (the motor turns, it does not push).
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
        let g = AxisGeometry::new(f, self.axis0, qa, qb);
        let axial = Self::axial(imp);
        let p = imp.linear.x * g.perp + axial * g.axis;
        let la = imp.linear.x * g.s1 + axial * g.a1 + imp.motor;
        let lb = imp.linear.x * g.s2 + axial * g.a2 + imp.motor;
        f.apply_general(ba, bb, p, la, lb);
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
        if let Some(m) = &self.motor {
            let l = -f.axial_mass() * (bb.w - ba.w - m.speed);
            let l = accumulate_clamped(&mut imp.motor, l, m.max_effort * prm.h);
            f.apply_angular(ba, bb, l);
        }
        let g = AxisGeometry::new(f, self.axis0, qa, qb);
        self.parts.solve_velocity(f, &g, imp, ba, bb, prm);
        let l = -g.perp_mass(f) * g.perp_speed(ba, bb);
        imp.linear.x += l;
        g.apply_perp(f, ba, bb, l);
    }

    pub fn solve_position(
        &self,
        f: &Frame,
        qa: &mut SolverPose,
        qb: &mut SolverPose,
        prm: &JointParams,
    ) {
        self.parts.solve_position(f, self.axis0, qa, qb, prm);
        let g = AxisGeometry::new(f, self.axis0, qa, qb);
        let c = g.perp.dot(g.d).clamp(-prm.max_linear, prm.max_linear);
        if c == 0.0 {
            return;
        }
        let l = -g.perp_mass(f) * c;
        f.push_general(qa, qb, l * g.perp, l * g.s1, l * g.s2);
    }

    /// Reaction on B: force (N) and torque (N·m).
    pub fn reaction(&self, imp: &JointImpulses, qa: &SolverPose, inv_h: f32) -> (Vec2, f32) {
        let axis = qa.dq.apply(self.axis0);
        let force = imp.linear.x * axis.perp() + Self::axial(imp) * axis;
        (force * inv_h, imp.motor * inv_h)
    }
}
