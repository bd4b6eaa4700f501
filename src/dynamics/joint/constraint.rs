//! A joint prepared for one step ([`JointConstraint`]), and the passes over
//! it: each dispatches to its kind's routine with the two bodies' solver
//! state, and writes back only the bodies that respond (a static or sleeping
//! body's solver slot is never written).

use super::def::{JointKind, Revolute};
use super::distance::DistanceConstraint;
use super::frame::{relative_velocity, Frame, JointImpulses};
use super::motor::MotorConstraint;
use super::mouse::MouseConstraint;
use super::prismatic::PrismaticConstraint;
use super::revolute::RevoluteConstraint;
use super::weld::WeldConstraint;
use super::wheel::WheelConstraint;
use super::{Joint, JointParams};
use crate::dynamics::solver_body::{SolverBody, SolverPose};
use crate::math::{Rot, Vec2};

/// The kind-specific part of a prepared joint.
#[derive(Clone, Copy, Debug)]
enum Prepared {
    Revolute(RevoluteConstraint),
    Prismatic(PrismaticConstraint),
    Distance(DistanceConstraint),
    Weld(WeldConstraint),
    Wheel(WheelConstraint),
    Motor(MotorConstraint),
    Mouse(MouseConstraint),
}

/// One end of a joint at step start: the body's solver slot, centre of
/// mass, rotation and anchor relative to the centre (world orientation).
#[derive(Clone, Copy, Debug)]
pub(crate) struct End {
    pub slot: u32,
    pub center: Vec2,
    pub rot: Rot,
    pub anchor: Vec2,
}

/// A joint prepared for one step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointConstraint {
    /// The joint's slot in the world.
    pub joint: u32,
    frame: Frame,
    pub impulses: JointImpulses,
    /// The impulses of the step's finished substeps, summed.
    sum: JointImpulses,
    kind: Prepared,
}

/// Whether a joint of `kind` reads its angle (`Frame::angle`): a hinge only
/// for its limits or spring; distance, wheel and mouse joints never.
fn reads_angle(kind: &JointKind) -> bool {
    match kind {
        JointKind::Revolute(r) => r.limits.is_some() || r.spring.is_some_and(|s| s.hertz > 0.0),
        JointKind::Distance(_) | JointKind::Wheel(_) | JointKind::Mouse(_) => false,
        JointKind::Prismatic(_) | JointKind::Weld(_) | JointKind::Motor(_) => true,
    }
}

/// The angle in (−π, π].
fn unwind(a: f32) -> f32 {
    let pi = std::f32::consts::PI;
    if a > pi {
        a - 2.0 * pi
    } else if a <= -pi {
        a + 2.0 * pi
    } else {
        a
    }
}

impl JointConstraint {
    /// Prepares `joint` (slot `index`) between ends `a` and `b` for substeps
    /// of `h` seconds.
    pub fn new(
        index: u32,
        joint: &Joint,
        a: End,
        b: End,
        bodies: &[SolverBody],
        h: f32,
    ) -> JointConstraint {
        let (sa, sb) = (&bodies[a.slot as usize], &bodies[b.slot as usize]);
        let reference = match &joint.def.kind {
            JointKind::Revolute(Revolute {
                reference_angle, ..
            }) => *reference_angle,
            JointKind::Prismatic(p) => p.reference_angle,
            JointKind::Weld(w) => w.reference_angle,
            JointKind::Motor(m) => m.angular_offset,
            JointKind::Distance(_) | JointKind::Wheel(_) | JointKind::Mouse(_) => 0.0,
        };
        let frame = Frame {
            a: a.slot,
            b: b.slot,
            ma: sa.inv_mass,
            mb: sb.inv_mass,
            ia: sa.inv_inertia,
            ib: sb.inv_inertia,
            ra0: a.anchor,
            rb0: b.anchor,
            dc0: b.center - a.center,
            // The kinds that never read the joint angle skip its atan2.
            angle0: if reads_angle(&joint.def.kind) {
                unwind(a.rot.inv_mul(b.rot).angle() - reference)
            } else {
                0.0
            },
        };
        let axis0 = |axis: Vec2| a.rot.apply(axis.normalize_or_zero());
        let kind = match &joint.def.kind {
            JointKind::Revolute(r) => Prepared::Revolute(RevoluteConstraint::new(r, h)),
            JointKind::Prismatic(p) => {
                Prepared::Prismatic(PrismaticConstraint::new(p, axis0(p.axis), h))
            }
            JointKind::Distance(d) => Prepared::Distance(DistanceConstraint::new(d, h)),
            JointKind::Weld(w) => Prepared::Weld(WeldConstraint::new(w, h)),
            JointKind::Wheel(w) => Prepared::Wheel(WheelConstraint::new(w, axis0(w.axis), h)),
            JointKind::Motor(m) => {
                Prepared::Motor(MotorConstraint::new(m, a.rot.apply(m.linear_offset)))
            }
            JointKind::Mouse(m) => Prepared::Mouse(MouseConstraint::new(m, b.center, h)),
        };
        JointConstraint {
            joint: index,
            frame,
            impulses: joint.impulses,
            sum: JointImpulses::default(),
            kind,
        }
    }

    /// Applies the accumulated impulses (start of each substep).
    pub fn warm_start(&self, bodies: &mut [SolverBody], poses: &[SolverPose]) {
        let f = &self.frame;
        let (mut ba, mut bb) = load(bodies, f);
        let (qa, qb) = (&poses[f.a as usize], &poses[f.b as usize]);
        let imp = &self.impulses;
        match &self.kind {
            Prepared::Revolute(c) => c.warm_start(f, imp, &mut ba, &mut bb, qa, qb),
            Prepared::Prismatic(c) => c.warm_start(f, imp, &mut ba, &mut bb, qa, qb),
            Prepared::Distance(c) => c.warm_start(f, imp, &mut ba, &mut bb, qa, qb),
            Prepared::Weld(c) => c.warm_start(f, imp, &mut ba, &mut bb, qa, qb),
            Prepared::Wheel(c) => c.warm_start(f, imp, &mut ba, &mut bb, qa, qb),
            Prepared::Motor(c) => c.warm_start(f, imp, &mut ba, &mut bb, qa, qb),
            Prepared::Mouse(c) => c.warm_start(f, imp, &mut bb, qb),
        }
        write_back(bodies, f, ba, bb);
    }

    /// One velocity pass over the joint.
    pub fn solve_velocity(
        &mut self,
        bodies: &mut [SolverBody],
        poses: &[SolverPose],
        prm: &JointParams,
    ) {
        let f = &self.frame;
        let (mut ba, mut bb) = load(bodies, f);
        let (qa, qb) = (&poses[f.a as usize], &poses[f.b as usize]);
        let imp = &mut self.impulses;
        let (ba_, bb_) = (&mut ba, &mut bb);
        match &self.kind {
            Prepared::Revolute(c) => c.solve_velocity(f, imp, ba_, bb_, qa, qb, prm),
            Prepared::Prismatic(c) => c.solve_velocity(f, imp, ba_, bb_, qa, qb, prm),
            Prepared::Distance(c) => c.solve_velocity(f, imp, ba_, bb_, qa, qb, prm),
            Prepared::Weld(c) => c.solve_velocity(f, imp, ba_, bb_, qa, qb, prm),
            Prepared::Wheel(c) => c.solve_velocity(f, imp, ba_, bb_, qa, qb, prm),
            Prepared::Motor(c) => c.solve_velocity(f, imp, ba_, bb_, qa, qb, prm),
            Prepared::Mouse(c) => c.solve_velocity(f, imp, bb_, qb),
        }
        write_back(bodies, f, ba, bb);
    }

    /// One position (NGS) pass over the joint's rigid parts.
    pub fn solve_position(&self, poses: &mut [SolverPose], prm: &JointParams) {
        let f = &self.frame;
        let (mut qa, mut qb) = (poses[f.a as usize], poses[f.b as usize]);
        match &self.kind {
            Prepared::Revolute(c) => c.solve_position(f, &mut qa, &mut qb, prm),
            Prepared::Prismatic(c) => c.solve_position(f, &mut qa, &mut qb, prm),
            Prepared::Distance(c) => c.solve_position(f, &mut qa, &mut qb, prm),
            Prepared::Weld(c) => c.solve_position(f, &mut qa, &mut qb, prm),
            Prepared::Wheel(c) => c.solve_position(f, &mut qa, &mut qb, prm),
            Prepared::Motor(_) | Prepared::Mouse(_) => return,
        }
        if f.ma > 0.0 || f.ia > 0.0 {
            poses[f.a as usize] = qa;
        }
        if f.mb > 0.0 || f.ib > 0.0 {
            poses[f.b as usize] = qb;
        }
    }

    /// Adds the finished substep's impulses to the step's total.
    pub fn end_substep(&mut self) {
        self.sum.add(&self.impulses);
    }

    /// The reaction on B over the step (`inv_h`: one over the step's
    /// duration): the mean force (N) and torque (N·m), at the final poses.
    pub fn reaction(&self, poses: &[SolverPose], inv_h: f32) -> (Vec2, f32) {
        let f = &self.frame;
        let (qa, qb) = (&poses[f.a as usize], &poses[f.b as usize]);
        let imp = &self.sum;
        match &self.kind {
            Prepared::Revolute(c) => c.reaction(imp, inv_h),
            Prepared::Prismatic(c) => c.reaction(imp, qa, inv_h),
            Prepared::Distance(c) => c.reaction(f, imp, qa, qb, inv_h),
            Prepared::Weld(c) => c.reaction(imp, inv_h),
            Prepared::Wheel(c) => c.reaction(imp, qa, inv_h),
            Prepared::Motor(c) => c.reaction(imp, inv_h),
            Prepared::Mouse(c) => c.reaction(imp, inv_h),
        }
    }
}

impl JointConstraint {
    /// The frame of a plain hinge (a revolute joint with no spring, motor
    /// or limits) whose impulses other than the point's are zero (+0.0):
    /// what the lane passes solve (`lanes`). Every pass of such a joint
    /// only reads the frame and changes the point's impulse; the sum of the
    /// other impulses stays +0.0.
    pub(crate) fn plain_hinge(&self) -> Option<&Frame> {
        let i = &self.impulses;
        let zero = [i.angular, i.spring, i.motor, i.lower, i.upper]
            .iter()
            .all(|x| x.to_bits() == 0);
        match &self.kind {
            Prepared::Revolute(c) if c.is_plain() && zero => Some(&self.frame),
            _ => None,
        }
    }

    /// The point's accumulated impulse and its sum over the step's
    /// substeps, from the lane passes; the other impulses stay as they are.
    pub(crate) fn set_point_impulses(&mut self, linear: Vec2, sum: Vec2) {
        self.impulses.linear = linear;
        self.sum.linear = sum;
    }

    /// The point's accumulated impulse and its sum so far this step.
    pub(crate) fn point_impulses(&self) -> (Vec2, Vec2) {
        (self.impulses.linear, self.sum.linear)
    }

    /// The solver slots of A and B.
    pub fn bodies(&self) -> (u32, u32) {
        (self.frame.a, self.frame.b)
    }

    /// Which rigid rows the forest solves: (the point, the angle).
    pub fn rigid_rows(&self) -> (bool, bool) {
        match &self.kind {
            Prepared::Revolute(_) => (true, false),
            Prepared::Weld(w) => w.rigid_rows(),
            _ => (false, false),
        }
    }

    /// The anchors at the current poses, relative to the centres of mass.
    pub fn current_anchors(&self, poses: &[SolverPose]) -> (Vec2, Vec2) {
        let f = &self.frame;
        f.anchors(&poses[f.a as usize], &poses[f.b as usize])
    }

    /// The rigid rows' velocity error `J·v` (unused rows zero).
    pub fn rigid_velocity_error(&self, bodies: &[SolverBody], poses: &[SolverPose]) -> [f64; 3] {
        let f = &self.frame;
        let (ba, bb) = (&bodies[f.a as usize], &bodies[f.b as usize]);
        let (ra, rb) = self.current_anchors(poses);
        let rows = self.rigid_rows();
        let mut e = [0.0; 3];
        if rows.0 {
            let v = relative_velocity(ba, bb, ra, rb);
            e[0] = v.x as f64;
            e[1] = v.y as f64;
        }
        if rows.1 {
            e[2] = (bb.w - ba.w) as f64;
        }
        e
    }

    /// Applies the forest's impulses on the rigid rows and adds them to the
    /// joint's accumulated impulses.
    pub fn apply_rigid(&mut self, bodies: &mut [SolverBody], poses: &[SolverPose], x: [f64; 3]) {
        let f = self.frame;
        let (mut ba, mut bb) = load(bodies, &f);
        let (ra, rb) = self.current_anchors(poses);
        let rows = self.rigid_rows();
        if rows.0 {
            let p = Vec2::new(x[0] as f32, x[1] as f32);
            self.impulses.linear += p;
            f.apply_linear(&mut ba, &mut bb, ra, rb, p);
        }
        if rows.1 {
            let l = x[2] as f32;
            self.impulses.angular += l;
            f.apply_angular(&mut ba, &mut bb, l);
        }
        write_back(bodies, &f, ba, bb);
    }
}

/// The two bodies' velocities, with the step's inverse masses from the
/// frame (the same numbers the bodies hold).
///
/// A pass loads and stores only the velocities, field by field: one joint
/// often reads a body the joint before it has just written, and a load that
/// spans several earlier stores cannot be forwarded from them (on x86 it
/// waits for the stores to reach the cache, a fifth of the velocity pass's
/// time on `joint_grid`).
#[inline(always)]
fn load(bodies: &[SolverBody], f: &Frame) -> (SolverBody, SolverBody) {
    let (a, b) = (&bodies[f.a as usize], &bodies[f.b as usize]);
    (
        SolverBody {
            v: a.v,
            w: a.w,
            inv_mass: f.ma,
            inv_inertia: f.ia,
        },
        SolverBody {
            v: b.v,
            w: b.w,
            inv_mass: f.mb,
            inv_inertia: f.ib,
        },
    )
}

/// Stores the velocities of the bodies that respond to impulses.
#[inline(always)]
fn write_back(bodies: &mut [SolverBody], f: &Frame, ba: SolverBody, bb: SolverBody) {
    if ba.responds() {
        let t = &mut bodies[f.a as usize];
        t.v = ba.v;
        t.w = ba.w;
    }
    if bb.responds() {
        let t = &mut bodies[f.b as usize];
        t.v = bb.v;
        t.w = bb.w;
    }
}
