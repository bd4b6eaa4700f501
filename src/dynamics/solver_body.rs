//! The solver's per-body state during a step, one entry per body slot, split by
//! the passes that use it: velocities and inverse masses ([`SolverBody`]: warm
//! start, velocity iterations, restitution) apart from the pose change since
//! step start ([`SolverPose`]: anchor updates, position pass). Each pass then
//! loads and stores only what it reads and writes.
//!
//! Slots that do not move this step (static, sleeping, frozen or empty) keep
//! zero velocity, zero inverse mass and the identity pose change; the contact
//! passes never write them. The per-substep body loops run over short lists of
//! the bodies that do move ([`Integration`], and the moving slots' indices)
//! instead of over every slot.

use crate::math::{Rot, Vec2};

/// Velocity and inverse mass of a body during a step.
///
/// `repr(C)`: the lane kernels read and write the first four values (`v`,
/// `w`, `inv_mass`) as one row of contiguous floats.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct SolverBody {
    pub v: Vec2,
    pub w: f32,
    pub inv_mass: f32,
    pub inv_inertia: f32,
}

impl SolverBody {
    /// Whether impulses can change this body's velocity. Bodies with zero
    /// inverse mass and inertia (static, kinematic, not moving this step) are
    /// never written by the contact passes, so one shared static body is never
    /// touched.
    #[inline]
    pub fn responds(&self) -> bool {
        self.inv_mass > 0.0 || self.inv_inertia > 0.0
    }
}

/// Pose change of a body since the step began.
///
/// `repr(C)`: the lane kernels read and write it as one row of contiguous
/// floats.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct SolverPose {
    /// Translation of the centre of mass since the step began.
    pub dp: Vec2,
    /// Rotation since the step began.
    pub dq: Rot,
}

impl Default for SolverPose {
    fn default() -> Self {
        SolverPose {
            dp: Vec2::ZERO,
            dq: Rot::IDENTITY,
        }
    }
}

impl SolverPose {
    /// Integrates the pose over `h` seconds at the body's velocities.
    #[inline]
    pub fn integrate(&self, b: &SolverBody, h: f32) -> SolverPose {
        SolverPose {
            dp: self.dp + h * b.v,
            dq: self.dq.integrate(h * b.w),
        }
    }
}

/// Gravity and damping of one awake dynamic body over one substep `h`,
/// computed once per step (implicit damping: `v ← (v + h·s·g) / (1 + h·c)`,
/// stable for any damping).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Integration {
    /// The body's slot.
    pub body: u32,
    /// Velocity change from gravity: `h · gravity_scale · g`.
    dv: Vec2,
    /// `1 + h · linear_damping`.
    linear: f32,
    /// `1 + h · angular_damping`.
    angular: f32,
    /// Whether the body flies free this step (no contact point, no joint):
    /// its position then follows the exact parabola (see [`Self::drift`]).
    pub free: bool,
}

impl Integration {
    pub fn new(
        body: u32,
        h: f32,
        gravity: Vec2,
        gravity_scale: f32,
        linear_damping: f32,
        angular_damping: f32,
    ) -> Integration {
        Integration {
            body,
            dv: h * gravity_scale * gravity,
            linear: 1.0 + h * linear_damping,
            angular: 1.0 + h * angular_damping,
            free: false,
        }
    }

    /// The position correction, after `x += h·v`, that makes a free,
    /// undamped body's substep exact under uniform gravity:
    /// `x += h·(v₀ + v₁)/2` rather than `h·v₁`, so `−h·dv/2`. Without it
    /// semi-implicit Euler takes `½·g²·h²` of energy per substep from every
    /// falling body (a ball bouncing for 10 s loses 4 %, and rebounds fall
    /// short by `v·h/2`). Bodies held by contacts or joints keep plain
    /// semi-implicit Euler, which the solver's resting equilibrium relies on.
    #[inline]
    pub fn drift(&self, h: f32) -> Option<Vec2> {
        (self.free && self.linear == 1.0 && self.dv != Vec2::ZERO).then(|| -0.5 * h * self.dv)
    }

    /// One substep of gravity and damping.
    #[inline]
    pub fn apply(&self, b: &mut SolverBody) {
        b.v = (b.v + self.dv) / self.linear;
        b.w /= self.angular;
    }
}
