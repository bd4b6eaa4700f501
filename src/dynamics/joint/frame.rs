//! What every joint constraint shares during a step: the two bodies' solver
//! slots and inverse masses, the anchors at the start of the step, and the
//! helpers that measure the joint at the current poses and apply impulses to
//! velocities or pseudo-impulses to poses.
//!
//! Geometry is tracked through the substeps as Box2D v3 does: each anchor is
//! stored relative to its body's centre of mass in world orientation at step
//! start (`r₀`) and turned by the body's rotation since (`r = Δq·r₀`); the
//! anchors' separation is `d = (cB₀ − cA₀) + ΔpB − ΔpA + rB − rA`, with `Δp`,
//! `Δq` the pose change since step start. Nothing is read back from the
//! bodies mid-step.

use crate::dynamics::solver_body::{SolverBody, SolverPose};
use crate::math::{cross, cross_sv, Vec2};

/// Soft-constraint coefficients of a spring of frequency `hz` and damping
/// ratio `ζ` over a substep `h` (E. Catto, "Soft Constraints", GDC 2011;
/// Box2D v3 `b2MakeSoft`). With `ω = 2π·hz`, `a₁ = 2ζ + hω`, `a₂ = hω·a₁`:
/// `bias_rate = ω / a₁`, `mass_scale = a₂ / (1 + a₂)`,
/// `impulse_scale = 1 / (1 + a₂)`. The impulse of a soft constraint with
/// position error `C` and speed `Ċ` is
/// `−mass_scale · m · (Ċ + bias_rate · C) − impulse_scale · λ_accumulated`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Softness {
    pub bias_rate: f32,
    pub mass_scale: f32,
    pub impulse_scale: f32,
}

impl Softness {
    /// A spring of `hz` Hz and damping ratio `zeta` over substeps of `h` s.
    /// A spring of 0 Hz exerts no force: its accumulated impulse decays to
    /// zero (a rope's slack, a wheel without suspension stiffness).
    pub fn new(hz: f32, zeta: f32, h: f32) -> Softness {
        if hz <= 0.0 {
            return Softness {
                bias_rate: 0.0,
                mass_scale: 0.0,
                impulse_scale: 1.0,
            };
        }
        let omega = 2.0 * std::f32::consts::PI * hz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Softness {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }
}

/// Accumulated impulses of a joint over one substep (N·s, N·m·s), kept from
/// step to step for warm starting. Each kind uses the fields it needs:
/// `linear` for point (or perpendicular and angular) constraints,
/// `angular` for angular locks, and the axial `spring`, `motor`, `lower` and
/// `upper` impulses.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct JointImpulses {
    /// Point constraint (world frame), or (perpendicular, angular) for sliders.
    pub linear: Vec2,
    /// Angular lock.
    pub angular: f32,
    /// Spring along the joint's axis or angle.
    pub spring: f32,
    /// Motor.
    pub motor: f32,
    /// Lower limit (≥ 0).
    pub lower: f32,
    /// Upper limit (≥ 0).
    pub upper: f32,
}

impl JointImpulses {
    /// Adds `o` field by field.
    pub(crate) fn add(&mut self, o: &JointImpulses) {
        self.linear += o.linear;
        self.angular += o.angular;
        self.spring += o.spring;
        self.motor += o.motor;
        self.lower += o.lower;
        self.upper += o.upper;
    }
}

/// The bodies and anchors of one joint during a step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    /// Solver slots of A (the world slot for world joints) and B.
    pub a: u32,
    pub b: u32,
    pub ma: f32,
    pub mb: f32,
    pub ia: f32,
    pub ib: f32,
    /// Anchors relative to the centres of mass, world orientation, step start.
    pub ra0: Vec2,
    pub rb0: Vec2,
    /// `cB − cA` at step start.
    pub dc0: Vec2,
    /// Joint angle at step start: `θB − θA − reference`, in (−π, π]; 0 for
    /// the joints that never read their angle (see `constraint::reads_angle`).
    pub angle0: f32,
}

impl Frame {
    /// The anchors at the current poses (relative to the centres of mass).
    #[inline(always)]
    pub fn anchors(&self, qa: &SolverPose, qb: &SolverPose) -> (Vec2, Vec2) {
        (qa.dq.apply(self.ra0), qb.dq.apply(self.rb0))
    }

    /// Separation of the anchors, B's minus A's, at the current poses.
    #[inline(always)]
    pub fn separation(&self, qa: &SolverPose, qb: &SolverPose, ra: Vec2, rb: Vec2) -> Vec2 {
        self.dc0 + qb.dp - qa.dp + rb - ra
    }

    /// The joint angle at the current poses (rad).
    #[inline(always)]
    pub fn angle(&self, qa: &SolverPose, qb: &SolverPose) -> f32 {
        self.angle0 + qa.dq.inv_mul(qb.dq).angle()
    }

    /// `1 / (iA + iB)`, or 0 when neither body turns.
    #[inline(always)]
    pub fn axial_mass(&self) -> f32 {
        let k = self.ia + self.ib;
        if k > 0.0 {
            1.0 / k
        } else {
            0.0
        }
    }

    /// The point constraint's effective-mass matrix `K` (symmetric: k11, k12,
    /// k22) at anchors `ra`, `rb`.
    #[inline(always)]
    pub fn point_matrix(&self, ra: Vec2, rb: Vec2) -> (f32, f32, f32) {
        let m = self.ma + self.mb;
        let k11 = m + self.ia * ra.y * ra.y + self.ib * rb.y * rb.y;
        let k12 = -self.ia * ra.x * ra.y - self.ib * rb.x * rb.y;
        let k22 = m + self.ia * ra.x * ra.x + self.ib * rb.x * rb.x;
        (k11, k12, k22)
    }

    /// Applies the impulse `p` at the anchors (to B, `−p` to A).
    #[inline(always)]
    pub fn apply_linear(
        &self,
        ba: &mut SolverBody,
        bb: &mut SolverBody,
        ra: Vec2,
        rb: Vec2,
        p: Vec2,
    ) {
        ba.v -= self.ma * p;
        ba.w -= self.ia * cross(ra, p);
        bb.v += self.mb * p;
        bb.w += self.ib * cross(rb, p);
    }

    /// Applies the angular impulse `l` (to B, `−l` to A).
    #[inline(always)]
    pub fn apply_angular(&self, ba: &mut SolverBody, bb: &mut SolverBody, l: f32) {
        ba.w -= self.ia * l;
        bb.w += self.ib * l;
    }

    /// Applies the linear impulse `p` to B (`−p` to A) with the angular
    /// impulses `la` on A (negated) and `lb` on B: a constraint along an
    /// axis whose lever arms differ from the anchors (sliders, wheels).
    #[inline(always)]
    pub fn apply_general(
        &self,
        ba: &mut SolverBody,
        bb: &mut SolverBody,
        p: Vec2,
        la: f32,
        lb: f32,
    ) {
        ba.v -= self.ma * p;
        ba.w -= self.ia * la;
        bb.v += self.mb * p;
        bb.w += self.ib * lb;
    }

    /// [`Frame::apply_general`] on the poses: a pseudo-impulse.
    #[inline(always)]
    pub fn push_general(
        &self,
        qa: &mut SolverPose,
        qb: &mut SolverPose,
        p: Vec2,
        la: f32,
        lb: f32,
    ) {
        qa.dp -= self.ma * p;
        qa.dq = qa.dq.integrate(-self.ia * la);
        qb.dp += self.mb * p;
        qb.dq = qb.dq.integrate(self.ib * lb);
    }

    /// Moves the poses by the pseudo-impulse `p` at the anchors.
    #[inline(always)]
    pub fn push_linear(
        &self,
        qa: &mut SolverPose,
        qb: &mut SolverPose,
        ra: Vec2,
        rb: Vec2,
        p: Vec2,
    ) {
        qa.dp -= self.ma * p;
        qa.dq = qa.dq.integrate(-self.ia * cross(ra, p));
        qb.dp += self.mb * p;
        qb.dq = qb.dq.integrate(self.ib * cross(rb, p));
    }

    /// Turns the poses by the angular pseudo-impulse `l`.
    #[inline(always)]
    pub fn push_angular(&self, qa: &mut SolverPose, qb: &mut SolverPose, l: f32) {
        qa.dq = qa.dq.integrate(-self.ia * l);
        qb.dq = qb.dq.integrate(self.ib * l);
    }
}

/// Relative velocity of the anchors, B's minus A's.
#[inline(always)]
pub(crate) fn relative_velocity(ba: &SolverBody, bb: &SolverBody, ra: Vec2, rb: Vec2) -> Vec2 {
    bb.v + cross_sv(bb.w, rb) - ba.v - cross_sv(ba.w, ra)
}

/// Solves the symmetric 2×2 system `K·x = rhs`; zero when `K` is singular.
#[inline(always)]
pub(crate) fn solve2(k11: f32, k12: f32, k22: f32, rhs: Vec2) -> Vec2 {
    let det = k11 * k22 - k12 * k12;
    if det.abs() <= f32::EPSILON * (k11 * k22).abs() || det == 0.0 {
        return Vec2::ZERO;
    }
    let inv = 1.0 / det;
    Vec2::new(
        inv * (k22 * rhs.x - k12 * rhs.y),
        inv * (k11 * rhs.y - k12 * rhs.x),
    )
}

/// Adds `delta` to an accumulated one-sided impulse kept `≥ 0`, and returns
/// the part actually applied.
#[inline(always)]
pub(crate) fn accumulate_nonnegative(acc: &mut f32, delta: f32) -> f32 {
    let new = (*acc + delta).max(0.0);
    let applied = new - *acc;
    *acc = new;
    applied
}

/// Adds `delta` to an accumulated impulse kept within `±max`, and returns the
/// part actually applied.
#[inline(always)]
pub(crate) fn accumulate_clamped(acc: &mut f32, delta: f32, max: f32) -> f32 {
    let new = (*acc + delta).clamp(-max, max);
    let applied = new - *acc;
    *acc = new;
    applied
}

/// The impulse of a soft constraint (see [`Softness`]) with effective mass
/// `mass`, speed `cdot`, position error `c` and accumulated impulse `acc`.
#[inline(always)]
pub(crate) fn soft_impulse(s: &Softness, mass: f32, cdot: f32, c: f32, acc: f32) -> f32 {
    -s.mass_scale * mass * (cdot + s.bias_rate * c) - s.impulse_scale * acc
}

/// The velocity target of a one-sided limit whose position error is `c`
/// (`c ≥ 0` is inside the limit): a gap may close within the substep
/// (speculative, as Box2D), nothing more; a violation is removed by the
/// position pass.
#[inline(always)]
pub(crate) fn limit_bias(c: f32, inv_h: f32) -> f32 {
    if c > 0.0 {
        c * inv_h
    } else {
        0.0
    }
}
