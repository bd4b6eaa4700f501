//! The prismatic joint (slider): B moves along an axis fixed in A and keeps
//! its angle relative to A; optional translation limits, motor and spring.
//!
//! Velocity pass: the axial spring, motor and limits (see `axis`), then the
//! lateral and angular locks together as a 2×2 block:
//! `[p·(vB − vA) + s₂ωB − s₁ωA, ωB − ωA] = 0` (Box2D v3
//! `b2SolvePrismaticJoint`). Position pass (NGS): the violated limit, then
//! the lateral offset and the angle, as one 2×2 pseudo-impulse.

use super::axis::{AxialParts, AxisGeometry};
use super::def::Prismatic;
use super::frame::{solve2, Frame, JointImpulses, Softness};
use super::JointParams;
use crate::dynamics::solver_body::{SolverBody, SolverPose};
use crate::math::Vec2;

/// A prismatic joint prepared for one step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PrismaticConstraint {
    /// The axis in world orientation at step start.
    axis0: Vec2,
    parts: AxialParts,
}

impl PrismaticConstraint {
    pub fn new(def: &Prismatic, axis0: Vec2, h: f32) -> PrismaticConstraint {
        PrismaticConstraint {
            axis0,
            parts: AxialParts {
                spring: def
                    .spring
                    .filter(|s| s.hertz > 0.0)
                    .map(|s| Softness::new(s.hertz, s.damping_ratio, h)),
                motor: def.motor,
                limits: def.limits,
            },
        }
    }

    /// The lateral-and-angular block's matrix.
    #[inline(always)]
    fn block(f: &Frame, g: &AxisGeometry) -> (f32, f32, f32) {
        let k11 = f.ma + f.mb + f.ia * g.s1 * g.s1 + f.ib * g.s2 * g.s2;
        let k12 = f.ia * g.s1 + f.ib * g.s2;
        let k22 = f.ia + f.ib;
        // Neither body turns: the angular row is idle; keep K invertible.
        (k11, k12, if k22 == 0.0 { 1.0 } else { k22 })
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
        let axial = AxialParts::axial_impulse(imp);
        let p = imp.linear.x * g.perp + axial * g.axis;
        let la = imp.linear.x * g.s1 + imp.linear.y + axial * g.a1;
        let lb = imp.linear.x * g.s2 + imp.linear.y + axial * g.a2;
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
        let g = AxisGeometry::new(f, self.axis0, qa, qb);
        self.parts.solve_velocity(f, &g, imp, ba, bb, prm);
        let cdot = Vec2::new(g.perp_speed(ba, bb), bb.w - ba.w);
        let (k11, k12, k22) = Self::block(f, &g);
        let l = -solve2(k11, k12, k22, cdot);
        imp.linear += l;
        f.apply_general(ba, bb, l.x * g.perp, l.x * g.s1 + l.y, l.x * g.s2 + l.y);
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
        let c = Vec2::new(
            g.perp.dot(g.d).clamp(-prm.max_linear, prm.max_linear),
            f.angle(qa, qb).clamp(-prm.max_angular, prm.max_angular),
        );
        if c == Vec2::ZERO {
            return;
        }
        let (k11, k12, k22) = Self::block(f, &g);
        let l = -solve2(k11, k12, k22, c);
        f.push_general(qa, qb, l.x * g.perp, l.x * g.s1 + l.y, l.x * g.s2 + l.y);
    }

    /// Reaction on B: force (N) and torque (N·m), along the axis at `qa`.
    pub fn reaction(&self, imp: &JointImpulses, qa: &SolverPose, inv_h: f32) -> (Vec2, f32) {
        let axis = qa.dq.apply(self.axis0);
        let force = imp.linear.x * axis.perp() + AxialParts::axial_impulse(imp) * axis;
        (force * inv_h, imp.linear.y * inv_h)
    }
}
