//! The weld joint: the anchors coincide and the relative angle is held,
//! rigidly or through a spring on either part (a soft weld bends like a
//! beam).
//!
//! Velocity pass (Box2D v3 `b2SolveWeldJoint`'s order): the angular part
//! `ωB − ωA`, then the point part as a 2×2 solve; a soft part adds its
//! spring's bias toward its position error. Position pass (NGS): the rigid
//! parts' angle, then separation.

use super::def::Weld;
use super::frame::{relative_velocity, soft_impulse, solve2, Frame, JointImpulses, Softness};
use super::revolute::point_position;
use super::JointParams;
use crate::dynamics::solver_body::{SolverBody, SolverPose};
use crate::math::Vec2;

/// A weld joint prepared for one step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WeldConstraint {
    /// `None`: rigid.
    linear: Option<Softness>,
    angular: Option<Softness>,
}

impl WeldConstraint {
    pub fn new(def: &Weld, h: f32) -> WeldConstraint {
        let soft = |s: Option<super::def::Spring>| {
            s.filter(|s| s.hertz > 0.0)
                .map(|s| Softness::new(s.hertz, s.damping_ratio, h))
        };
        WeldConstraint {
            linear: soft(def.linear),
            angular: soft(def.angular),
        }
    }

    /// Which parts are rigid: (the point, the angle).
    pub fn rigid_rows(&self) -> (bool, bool) {
        (self.linear.is_none(), self.angular.is_none())
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
        _prm: &JointParams,
    ) {
        let cdot = bb.w - ba.w;
        let l = match &self.angular {
            Some(s) => soft_impulse(s, f.axial_mass(), cdot, f.angle(qa, qb), imp.angular),
            None => -f.axial_mass() * cdot,
        };
        imp.angular += l;
        f.apply_angular(ba, bb, l);

        let (ra, rb) = f.anchors(qa, qb);
        let cdot = relative_velocity(ba, bb, ra, rb);
        let (k11, k12, k22) = f.point_matrix(ra, rb);
        let p = match &self.linear {
            Some(s) => {
                let c = f.separation(qa, qb, ra, rb);
                let b = solve2(k11, k12, k22, cdot + s.bias_rate * c);
                -s.mass_scale * b - s.impulse_scale * imp.linear
            }
            None => -solve2(k11, k12, k22, cdot),
        };
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
        if self.angular.is_none() {
            let c = f.angle(qa, qb).clamp(-prm.max_angular, prm.max_angular);
            if c != 0.0 {
                f.push_angular(qa, qb, -f.axial_mass() * c);
            }
        }
        if self.linear.is_none() {
            point_position(f, qa, qb, prm);
        }
    }

    /// Reaction on B: force (N) and torque (N·m).
    pub fn reaction(&self, imp: &JointImpulses, inv_h: f32) -> (Vec2, f32) {
        (imp.linear * inv_h, imp.angular * inv_h)
    }
}
