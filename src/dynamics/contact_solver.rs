//! The contact solver: substepped sequential impulses with warm starting,
//! Coulomb friction and restitution, followed in each substep by a nonlinear
//! Gauss–Seidel (NGS) projection that removes penetration along the EPA normals.
//!
//! Per step, with `h = dt / substeps`:
//!
//! ```text
//! prepare: anchors rA, rB (from the centres of mass), effective masses,
//!          approach speed for restitution, impulses carried over by feature id
//! repeat substeps times:
//!     integrate velocities (gravity, damping)
//!     warm start: apply the accumulated impulses
//!     velocity pass: friction then non-penetration, impulses clamped
//!                    (λn ≥ 0, |λt| ≤ μ λn); a speculative gap s > 0 lets the
//!                    bodies close it this substep (target vn ≥ -s/h), nothing more
//!     integrate positions
//!     position pass (NGS): recompute each point's separation from the current
//!                    poses, push apart by β·(s + slop), capped, as a pseudo-impulse
//!                    on positions only, so no velocity (energy) is added
//!                    (contacts without a jointed body: on alternate substeps,
//!                    the last included, removing 1 - (1 - β)² of the error)
//! restitution: where the approach speed exceeded the threshold, target -e·vn₀
//! store the impulses for next step's warm start
//! ```
//!
//! Contact geometry is tracked through the step: each point carries its
//! features (a face and a core point, or two core points; see
//! `collision::manifold`), and once per substep its separation, normal and
//! anchor are recomputed from the current poses. A face's normal turns with its
//! body; a point–point normal follows the two core points (a corner sliding over
//! a rounded end follows the curve). Each impulse acts at one world point for
//! both bodies, midway between the surfaces, so impulses conserve angular
//! momentum exactly. The non-penetration target uses the separation predicted
//! at the end of the substep to second order (`s + h·vn + curve`, `curve` from
//! the geometry at the poses the current velocities lead to; a target that
//! asks the bodies to separate is capped at the contact push speed), so a
//! turning face or a corner sliding over a curve does not dig in during the
//! substep; that penetration would otherwise be removed by the position pass,
//! which moves mass that carries velocity and so changes angular momentum. Two-point
//! manifolds are solved as 2×2 blocks, in the velocity pass and in the position
//! pass alike, on the current normals.
//!
//! The velocity pass carries no Baumgarte bias: penetration is removed by the
//! position pass alone. References: E. Catto, "Iterative Dynamics with Temporal
//! Coherence" (2005), "Solver2D" (2024); Box2D v2.4 `b2ContactSolver` (NGS).
//!
//! Data layout: the touching contacts of a step are scheduled into bundles
//! of four (eight in AVX2 builds) independent constraints stored lane by
//! lane ([`ContactBundles`], see `simd`), and each bundle is built in place
//! from its contacts ([`Source`]; `simd::prepare` computes in lanes what
//! `build`, the tests' reference, computes for one): the velocity passes'
//! data, the feature geometry that the anchor update and the position pass
//! recompute the contact from, and what is read once per step. The passes
//! solve a bundle at a time with bit-identical results; this file holds the
//! scalar routine of each pass, for one constraint, which is the reference
//! the lane kernels reproduce (the tests compare them bit for bit). The step
//! runs only the restitution routine in scalar, on the points that bounce.

use super::solver_body::SolverBody;
#[cfg(test)]
use super::solver_body::SolverPose;
use crate::math::Vec2;
#[cfg(test)]
use crate::math::{cross, cross_sv};
#[cfg(test)]
use crate::narrowphase::manifold::measure;
#[cfg(test)]
use crate::narrowphase::manifold::FeatureKind;
use crate::narrowphase::manifold::{Manifold, PointFeature};

mod forest;
mod position;
mod simd;
mod velocity;

use position::restitution_one;
#[cfg(test)]
use position::{current_geometry, position_one};
use velocity::{apply, pair, speed, write_back, MAX_CONDITION, TURNING_SPIN};
#[cfg(test)]
use velocity::{solve_one, update_one, warm_one};
pub(crate) use velocity::{Quiet, QUIET_DEPTH};

pub(crate) use forest::ContactForest;
#[cfg(test)]
pub(crate) use forest::MAX_ISLAND_CONTACTS;
pub(crate) use simd::{
    apply_restitution, solve_positions, solve_velocities, update_and_warm_start, ContactBundles,
    PositionPass,
};

/// A contact point's data for the velocity passes.
#[derive(Clone, Copy, Debug, Default)]
struct VelocityPoint {
    /// This substep's normal (A → B) and the lever arms of the anchor about
    /// A's and B's current centres along it and along the tangent
    /// (`rA × n`, `rB × n`, `rA × t`, `rB × t`), from the point's feature
    /// geometry, set by [`update_and_warm_start`]: poses do not change during
    /// velocity iterations. A speed along a direction and an impulse's turn
    /// then take a product each instead of a cross product.
    normal: Vec2,
    arm_na: f32,
    arm_nb: f32,
    arm_ta: f32,
    arm_tb: f32,
    /// Velocity bias of the non-penetration target this substep: the
    /// separation predicted at the end of the substep, `(max(s, 0) + curve)/h`
    /// (see [`update_and_warm_start`]).
    bias: f32,
    /// Normal effective mass along the point's current normal.
    mass: f32,
    tangent_mass: f32,
    normal_impulse: f32,
    tangent_impulse: f32,
    max_normal_impulse: f32,
}

/// The velocity passes' data of one constraint.
#[derive(Clone, Copy, Debug)]
struct VelocityConstraint {
    a: u32,
    b: u32,
    friction: f32,
    count: u8,
    /// The two-point effective-mass matrix is well conditioned enough for the
    /// block solver.
    block_ok: bool,
    /// Effective-mass matrix of a two-point manifold on the points' current
    /// normals and anchors, and the inverse of its determinant: (k11, k12,
    /// k22, 1/det), set with the anchors (`velocity::update_one`).
    k: [f32; 4],
    /// Rolling resistance: torque cap per unit normal impulse (m), and the
    /// relative angular effective mass and accumulated angular impulse.
    rolling_arm: f32,
    angular_mass: f32,
    rolling_impulse: f32,
    /// The pair approached faster than [`IMPACT_SPEED`] at step start: an
    /// impact, whose impulses are not carried from substep to substep.
    impact: bool,
    /// Resting quietly this step: the later substeps keep the anchors of
    /// the first (see [`Quiet`]).
    quiet: bool,
    points: [VelocityPoint; 2],
}

/// Normal approach speed (m/s) from which a contact is an impact for the
/// step: each substep then solves it from zero instead of warm starting it.
/// An impact's impulse stops the approach in the first substep; applied
/// again at the next substep's levers (the bodies have turned), it would be
/// a wrong guess that the clamped iterations cannot always take back, and a
/// hard strike of a thin body gained energy that way. Resting and slow
/// contacts keep their warm start.
pub(crate) const IMPACT_SPEED: f32 = 10.0;

/// A contact point's geometry for the anchor update and the position pass:
/// the feature kind, the feature points relative to A's and B's centres and
/// the face normal (step-start orientation), and the sum of the rounding radii.
#[cfg(test)]
#[derive(Clone, Copy, Debug, Default)]
struct FeaturePoint {
    /// B's centre relative to A's at step start, as seen from this point
    /// (`rA - rB` of the step-start anchors).
    ab: Vec2,
    fa: Vec2,
    fb: Vec2,
    fnormal: Vec2,
    flength: f32,
    radius: f32,
    point_radius: f32,
    kind: FeatureKind,
}

/// The geometry of one constraint.
#[cfg(test)]
#[derive(Clone, Copy, Debug)]
struct ContactGeometry {
    a: u32,
    b: u32,
    count: u8,
    points: [FeaturePoint; 2],
}

/// What one constraint needs once per step: restitution inputs and the contact
/// it came from.
#[derive(Clone, Copy, Debug)]
struct ConstraintInfo {
    /// The contact's position in the step's touching list (which orders
    /// constraints independently of how they were bundled).
    contact: u32,
    /// The contact's slot in the pool, to store impulses back without
    /// reading the touching list again.
    slot: u32,
    restitution: f32,
    /// Normal relative velocity at step start (negative = approaching).
    approach: [f32; 2],
}

/// What one contact constraint is built from: its contact's manifold and
/// features, and the few facts about its bodies that the build reads.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Source<'a> {
    /// The contact's position in the step's touching list.
    pub contact: u32,
    /// The contact's slot in the pool.
    pub slot: u32,
    pub a: u32,
    pub b: u32,
    /// The bodies' centres of mass at step start.
    pub center_a: Vec2,
    pub center_b: Vec2,
    /// The bodies' gravity scales (0 for a body that is not dynamic).
    pub gravity_a: f32,
    pub gravity_b: f32,
    pub manifold: &'a Manifold,
    pub features: &'a [PointFeature; 2],
    pub friction: f32,
    pub restitution: f32,
    /// The rolling resistance's torque cap per unit normal impulse, before
    /// the test whether the contact can roll at all (see `build`).
    pub rolling_arm: f32,
}

/// One constraint as [`build`] makes it, the scalar reference of the
/// bundles' build in lanes (`simd::prepare`).
#[cfg(test)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Built {
    velocity: VelocityConstraint,
    geometry: ContactGeometry,
    info: ConstraintInfo,
}

/// A touching contact waiting to be built: the bodies and the point count
/// that schedule it (see `simd::ContactBundles::append_scheduled`), and its
/// position in the step's touching list, which the builder reads it from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pending {
    pub at: u32,
    pub a: u32,
    pub b: u32,
    pub single: bool,
}

/// Tunables the solver needs from the world settings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverParams {
    pub max_push_speed: f32,
    pub linear_slop: f32,
    pub position_correction: f32,
    pub max_correction: f32,
    /// Penetration (m) past which a correction also removes half of what
    /// `position_correction` leaves of the excess (`f32::INFINITY`: never;
    /// applied to some lanes only, see `WorldSettings::deep_penetration`).
    pub deep_penetration: f32,
    pub restitution_threshold: f32,
}

/// The constraint of one contact, in scalar: the reference that the build
/// in lanes reproduces bit for bit.
#[cfg(test)]
pub(crate) fn build(src: &Source, sa: &SolverBody, sb: &SolverBody, gravity: Vec2) -> Built {
    let Source {
        contact,
        slot,
        a,
        b,
        center_a,
        center_b,
        gravity_a,
        gravity_b,
        manifold: m,
        features,
        friction,
        restitution,
        rolling_arm,
    } = *src;
    let n = m.normal;
    let t = Vec2::new(n.y, -n.x);
    let mut points = [VelocityPoint::default(); 2];
    let mut geometry = [FeaturePoint::default(); 2];
    let mut approach = [0.0; 2];
    let mut impact = false;
    for (i, (mp, f)) in m.points().iter().zip(features).enumerate() {
        let ra = mp.point - center_a;
        let rb = mp.point - center_b;
        let rta = cross(ra, t);
        let rtb = cross(rb, t);
        let kt =
            sa.inv_mass + sb.inv_mass + sa.inv_inertia * rta * rta + sb.inv_inertia * rtb * rtb;
        // Approach speed for restitution (needed only where there is
        // some). A speculative contact (gap s > 0) is met part-way
        // through the step; extrapolate the approach across the gap
        // under the pair's relative gravity (v² = v₀² - 2·a·s), or a
        // falling body would bounce with the speed it had a few cm
        // earlier.
        let dv = sb.v + cross_sv(sb.w, rb) - sa.v - cross_sv(sa.w, ra);
        impact |= dv.dot(n) < -IMPACT_SPEED;
        let mut vn0 = 0.0;
        if restitution != 0.0 {
            vn0 = dv.dot(n);
            let a_n = gravity.dot(n) * (gravity_b - gravity_a);
            if vn0 < 0.0 && mp.separation > 0.0 && a_n < 0.0 {
                vn0 = -(vn0 * vn0 - 2.0 * a_n * mp.separation).sqrt();
            }
        }
        approach[i] = vn0;
        points[i] = VelocityPoint {
            // Normal, arms, normal mass and bias are set from the
            // feature geometry at the start of every substep.
            normal: n,
            arm_na: 0.0,
            arm_nb: 0.0,
            arm_ta: 0.0,
            arm_tb: 0.0,
            bias: 0.0,
            mass: 0.0,
            tangent_mass: if kt > 0.0 { 1.0 / kt } else { 0.0 },
            normal_impulse: mp.normal_impulse,
            tangent_impulse: mp.tangent_impulse,
            max_normal_impulse: 0.0,
        };
        geometry[i] = FeaturePoint {
            ab: ra - rb,
            fa: f.pa - center_a,
            fb: f.pb - center_b,
            fnormal: f.normal,
            flength: f.length,
            radius: f.radius,
            point_radius: f.point_radius,
            kind: f.kind,
        };
    }
    let ii = sa.inv_inertia + sb.inv_inertia;
    // Rolling resistance acts where a rounded surface rolls: a contact
    // with a rounding radius, of one point or two (a face rocking on a
    // capsule's end keeps a speculative second point). A polygon's
    // corner on a face has nothing to roll on, and a body wedged between
    // several corners would only have its contacts' couples fight one
    // another.
    let rolls = features[0].radius > 0.0;
    let rolling_arm = if rolls && ii > 0.0 { rolling_arm } else { 0.0 };
    let velocity = VelocityConstraint {
        a,
        b,
        friction,
        count: m.count as u8,
        // Built on the current normals by `update_and_warm_start`.
        block_ok: false,
        k: [0.0; 4],
        rolling_arm,
        angular_mass: if ii > 0.0 { 1.0 / ii } else { 0.0 },
        rolling_impulse: if rolling_arm > 0.0 {
            m.rolling_impulse
        } else {
            0.0
        },
        impact,
        quiet: false,
        points,
    };
    let geometry = ContactGeometry {
        a,
        b,
        count: m.count as u8,
        points: geometry,
    };
    let info = ConstraintInfo {
        contact,
        slot,
        restitution,
        approach,
    };
    Built {
        velocity,
        geometry,
        info,
    }
}

#[cfg(test)]
mod tests;
