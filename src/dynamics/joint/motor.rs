//! The motor joint: drives B's anchor toward an offset from A's anchor (in
//! A's frame) and B's angle toward an offset from A's, with a bounded force
//! and torque. It has no rigid part, so no position pass: the drive closes a
//! fraction `correction` of the pose error per substep through its velocity
//! target (Box2D v3 `b2SolveMotorJoint`).

use super::def::MotorJoint;
use super::frame::{accumulate_clamped, relative_velocity, solve2, Frame, JointImpulses};
use super::JointParams;
use crate::dynamics::solver_body::{SolverBody, SolverPose};
use crate::math::Vec2;

/// A motor joint prepared for one step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MotorConstraint {
    /// The linear offset in world orientation at step start.
    offset0: Vec2,
    max_force: f32,
    max_torque: f32,
    correction: f32,
}

impl MotorConstraint {
    pub fn new(def: &MotorJoint, offset0: Vec2) -> MotorConstraint {
        MotorConstraint {
            offset0,
            max_force: def.max_force,
            max_torque: def.max_torque,
            correction: def.correction,
        }
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
        f.apply_linear(ba, bb, ra, rb, imp.linear);
        f.apply_angular(ba, bb, imp.angular);
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
        let rate = prm.inv_h * self.correction;
        let cdot = bb.w - ba.w + rate * f.angle(qa, qb);
        let l = -f.axial_mass() * cdot;
        let l = accumulate_clamped(&mut imp.angular, l, prm.h * self.max_torque);
        f.apply_angular(ba, bb, l);

        let (ra, rb) = f.anchors(qa, qb);
        let c = f.separation(qa, qb, ra, rb) - qa.dq.apply(self.offset0);
        let cdot = relative_velocity(ba, bb, ra, rb) + rate * c;
        let (k11, k12, k22) = f.point_matrix(ra, rb);
        let old = imp.linear;
        let mut acc = old - solve2(k11, k12, k22, cdot);
        let max = prm.h * self.max_force;
        if acc.length_squared() > max * max {
            acc = acc.normalize_or_zero() * max;
        }
        imp.linear = acc;
        f.apply_linear(ba, bb, ra, rb, acc - old);
    }

    /// Reaction on B: force (N) and torque (N·m).
    pub fn reaction(&self, imp: &JointImpulses, inv_h: f32) -> (Vec2, f32) {
        (imp.linear * inv_h, imp.angular * inv_h)
    }
}
