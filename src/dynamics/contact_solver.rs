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
//! Data layout: the constraints of a step are first built one by one in
//! contact order ([`ContactConstraints`], three arrays split by the passes
//! that read them: the velocity passes' data, the feature geometry that the
//! anchor update and the position pass recompute the contact from, and what
//! is read once per step). They are then scheduled into bundles of four
//! independent constraints stored lane by lane ([`ContactBundles`], see
//! `bundles`), which the passes solve four at a time with bit-identical
//! results; this file holds the scalar routine of each pass, for one
//! constraint, which is the reference the lane kernels reproduce and the path
//! of the bundles they do not cover.

use super::body::Body;
use super::solver_body::{SolverBody, SolverPose};
use crate::math::{cross, cross_sv, Vec2};
use crate::narrowphase::manifold::{measure, FeatureKind, Manifold, PointFeature};

mod bundles;

pub(crate) use bundles::{
    apply_restitution, solve_positions, solve_velocities, update_anchors, warm_start,
    ContactBundles,
};

/// A contact point's data for the velocity passes.
#[derive(Clone, Copy, Debug, Default)]
struct VelocityPoint {
    /// This substep's normal (A → B) and the lever arms of the anchor about
    /// A's and B's current centres along it and along the tangent
    /// (`rA × n`, `rB × n`, `rA × t`, `rB × t`), from the point's feature
    /// geometry, set by [`update_anchors`]: poses do not change during
    /// velocity iterations. A speed along a direction and an impulse's turn
    /// then take a product each instead of a cross product.
    normal: Vec2,
    arm_na: f32,
    arm_nb: f32,
    arm_ta: f32,
    arm_tb: f32,
    /// Velocity bias of the non-penetration target this substep: the
    /// separation predicted at the end of the substep, `(max(s, 0) + curve)/h`
    /// (see [`update_anchors`]).
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
    /// k22, 1/det), set with the anchors ([`update_one`]).
    k: [f32; 4],
    /// Rolling resistance: torque cap per unit normal impulse (m), and the
    /// relative angular effective mass and accumulated angular impulse.
    rolling_arm: f32,
    angular_mass: f32,
    rolling_impulse: f32,
    points: [VelocityPoint; 2],
}

/// A contact point's geometry for the anchor update and the position pass:
/// the feature kind, the feature points relative to A's and B's centres and
/// the face normal (step-start orientation), and the sum of the rounding radii.
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
    /// Index of the contact it came from, to store impulses back.
    contact: u32,
    restitution: f32,
    /// Normal relative velocity at step start (negative = approaching).
    approach: [f32; 2],
}

/// The contact constraints of one step: three arrays, one entry per constraint
/// in the same order, split by the passes that read them.
#[derive(Clone, Debug, Default)]
pub(crate) struct ContactConstraints {
    /// Warm start, velocity iterations, restitution.
    velocity: Vec<VelocityConstraint>,
    /// Anchor updates and the position pass.
    geometry: Vec<ContactGeometry>,
    /// Restitution and storing the impulses.
    info: Vec<ConstraintInfo>,
}

/// Tunables the solver needs from the world settings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverParams {
    pub max_push_speed: f32,
    pub linear_slop: f32,
    pub position_correction: f32,
    pub max_correction: f32,
    pub restitution_threshold: f32,
}

impl ContactConstraints {
    /// Removes every constraint, keeping the allocations.
    pub fn clear(&mut self) {
        self.velocity.clear();
        self.geometry.clear();
        self.info.clear();
    }

    /// Number of constraints.
    pub fn len(&self) -> usize {
        self.velocity.len()
    }

    /// Adds a constraint built from a manifold between bodies `a` and `b`.
    #[allow(clippy::too_many_arguments)] // one call site, each argument distinct
    pub fn push(
        &mut self,
        contact: u32,
        a: u32,
        b: u32,
        body_a: &Body,
        body_b: &Body,
        sa: &SolverBody,
        sb: &SolverBody,
        m: &Manifold,
        features: &[PointFeature; 2],
        friction: f32,
        restitution: f32,
        gravity: Vec2,
        rolling_resistance: f32,
    ) {
        let n = m.normal;
        let t = Vec2::new(n.y, -n.x);
        let mut points = [VelocityPoint::default(); 2];
        let mut geometry = [FeaturePoint::default(); 2];
        let mut approach = [0.0; 2];
        for (i, (mp, f)) in m.points().iter().zip(features).enumerate() {
            let ra = mp.point - body_a.center;
            let rb = mp.point - body_b.center;
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
            let mut vn0 = 0.0;
            if restitution != 0.0 {
                let dv = sb.v + cross_sv(sb.w, rb) - sa.v - cross_sv(sa.w, ra);
                vn0 = dv.dot(n);
                let gravity_of = |b: &Body| {
                    if b.kind == super::BodyKind::Dynamic {
                        b.gravity_scale
                    } else {
                        0.0
                    }
                };
                let a_n = gravity.dot(n) * (gravity_of(body_b) - gravity_of(body_a));
                if vn0 < 0.0 && mp.separation > 0.0 && a_n < 0.0 {
                    vn0 = -libm::sqrtf(vn0 * vn0 - 2.0 * a_n * mp.separation);
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
                fa: f.pa - body_a.center,
                fb: f.pb - body_b.center,
                fnormal: f.normal,
                flength: f.length,
                radius: f.radius,
                point_radius: f.point_radius,
                kind: f.kind,
            };
        }
        let ii = sa.inv_inertia + sb.inv_inertia;
        let rolling_arm = if m.count == 1 && ii > 0.0 {
            rolling_resistance
                * body_a
                    .shape
                    .bounding_radius()
                    .min(body_b.shape.bounding_radius())
        } else {
            0.0
        };
        self.velocity.push(VelocityConstraint {
            a,
            b,
            friction,
            count: m.count as u8,
            // Built on the current normals by `update_anchors`.
            block_ok: false,
            k: [0.0; 4],
            rolling_arm,
            angular_mass: if ii > 0.0 { 1.0 / ii } else { 0.0 },
            rolling_impulse: 0.0,
            points,
        });
        self.geometry.push(ContactGeometry {
            a,
            b,
            count: m.count as u8,
            points: geometry,
        });
        self.info.push(ConstraintInfo {
            contact,
            restitution,
            approach,
        });
    }
}

#[inline]
fn pair(bodies: &[SolverBody], a: u32, b: u32) -> (SolverBody, SolverBody) {
    (bodies[a as usize], bodies[b as usize])
}

#[inline]
fn write_back(bodies: &mut [SolverBody], a: u32, b: u32, ba: SolverBody, bb: SolverBody) {
    // Bodies that do not respond (static, kinematic) never change here;
    // skipping the write keeps a shared static body untouched.
    if ba.responds() {
        bodies[a as usize] = ba;
    }
    if bb.responds() {
        bodies[b as usize] = bb;
    }
}

/// Applies one constraint's accumulated impulses (start of each substep).
fn warm_one(c: &VelocityConstraint, bodies: &mut [SolverBody]) {
    let (mut ba, mut bb) = pair(bodies, c.a, c.b);
    for p in &c.points[..c.count as usize] {
        let (n, t) = (p.normal, tangent(p.normal));
        let impulse = p.normal_impulse * n + p.tangent_impulse * t;
        ba.v -= ba.inv_mass * impulse;
        ba.w -= ba.inv_inertia * (p.normal_impulse * p.arm_na + p.tangent_impulse * p.arm_ta);
        bb.v += bb.inv_mass * impulse;
        bb.w += bb.inv_inertia * (p.normal_impulse * p.arm_nb + p.tangent_impulse * p.arm_tb);
    }
    write_back(bodies, c.a, c.b, ba, bb);
}

/// Below this spin of either body (rad/s) a two-point manifold's second-order
/// separation change over a substep (about ½·h²·ω²·r, under 1e-8 m here) is
/// left out, to spare its cost on resting stacks.
const TURNING_SPIN: f32 = 0.05;

/// Recomputes a constraint's anchors (kept as their lever arms along the
/// normal and the tangent), normals, effective masses and velocity biases
/// from the current poses (start of each substep with the substep `h`, and
/// before restitution with `h = 0`, which leaves no bias), by the point's
/// feature geometry ([`current_geometry`]): a face normal turns with its body,
/// a point–point normal follows its two core points. The anchor is one world
/// point for both bodies, so every impulse conserves angular momentum exactly,
/// however far the bodies moved during the step. A two-point manifold's block
/// matrix is rebuilt on the new normals. Velocity iterations change velocities
/// only, so all of this holds for the whole substep.
///
/// The bias is the separation predicted at the end of the substep to second
/// order, `s + h·vn + curve` (`curve` from the geometry at the poses the
/// current velocities lead to: a turning face, a point sliding over a curve):
/// a gap may close, a penetration may not grow. A penetration let through
/// would be removed by the position pass, which moves mass that carries
/// velocity and so changes angular momentum.
fn update_one(
    c: &mut VelocityConstraint,
    g: &ContactGeometry,
    bodies: &[SolverBody],
    poses: &[SolverPose],
    h: f32,
    inv_h: f32,
    max_push: f32,
) {
    let (ba, bb) = (&bodies[g.a as usize], &bodies[g.b as usize]);
    let (qa, qb) = (&poses[g.a as usize], &poses[g.b as usize]);
    let curved = h > 0.0 && (g.count == 1 || ba.w.abs() + bb.w.abs() > TURNING_SPIN);
    for (p, f) in c.points.iter_mut().zip(&g.points[..g.count as usize]) {
        let (s, n, ra, ab) = current_geometry(f, qa, qb);
        let rb = ra - ab;
        let mut curve = 0.0;
        if curved {
            // The predicted separation minus its linear part.
            let (s1, ..) = current_geometry(f, &qa.integrate(ba, h), &qb.integrate(bb, h));
            let dv = bb.v + cross_sv(bb.w, rb) - ba.v - cross_sv(ba.w, ra);
            curve = s1 - s - h * dv.dot(n);
        }
        let (rna, rnb) = (cross(ra, n), cross(rb, n));
        let k = ba.inv_mass + bb.inv_mass + ba.inv_inertia * rna * rna + bb.inv_inertia * rnb * rnb;
        p.mass = if k > 0.0 { 1.0 / k } else { 0.0 };
        // A separating target (the curve predicts a dig-in larger than the
        // gap) is capped at `max_push` (m/s).
        p.bias = ((s.max(0.0) + curve) * inv_h).max(-max_push);
        p.normal = n;
        let t = tangent(n);
        (p.arm_na, p.arm_nb) = (rna, rnb);
        (p.arm_ta, p.arm_tb) = (cross(ra, t), cross(rb, t));
    }
    if g.count == 2 {
        (c.k, c.block_ok) = block_matrix(&c.points[0], &c.points[1], ba, bb);
    }
}

/// The block solver's limit on the condition number of a two-point
/// manifold's effective-mass matrix.
const MAX_CONDITION: f32 = 1000.0;

/// The effective-mass matrix `(k11, k12, k22)` of a two-point manifold on its
/// points' normals and anchors, and whether it is well enough conditioned for
/// the block solver: nearly coincident points make it singular, and those
/// fall back to sequential impulses (as Box2D).
#[inline(always)]
fn block_matrix(
    p1: &VelocityPoint,
    p2: &VelocityPoint,
    ba: &SolverBody,
    bb: &SolverBody,
) -> ([f32; 4], bool) {
    let (n1, n2) = (p1.normal, p2.normal);
    let (a1, b1) = (p1.arm_na, p1.arm_nb);
    let (a2, b2) = (p2.arm_na, p2.arm_nb);
    let im = ba.inv_mass + bb.inv_mass;
    let k11 = im + ba.inv_inertia * a1 * a1 + bb.inv_inertia * b1 * b1;
    let k22 = im + ba.inv_inertia * a2 * a2 + bb.inv_inertia * b2 * b2;
    let k12 = im * n1.dot(n2) + ba.inv_inertia * a1 * a2 + bb.inv_inertia * b1 * b2;
    let det = k11 * k22 - k12 * k12;
    let ok = k11 > 0.0 && k22 > 0.0 && k11 * k11 < MAX_CONDITION * det;
    ([k11, k12, k22, 1.0 / det], ok)
}

impl VelocityConstraint {
    /// A two-point manifold solved by the block solver (no rolling resistance).
    #[inline]
    fn is_block(&self) -> bool {
        self.count == 2 && self.block_ok
    }
}

/// One constraint of the velocity pass.
#[inline]
fn solve_one(c: &mut VelocityConstraint, bodies: &mut [SolverBody]) {
    let (mut ba, mut bb) = pair(bodies, c.a, c.b);
    let count = c.count as usize;
    // Friction first, bounded by the load of the previous pass (as Box2D v3):
    // the normal impulses then have the last word, so a pass ends with the
    // non-penetration constraints met. Solved last, friction impulses applied
    // at two anchors left a residual approach at the points; over the 100 rows
    // of Box2D's large pyramid that slid the edge boxes 0.2 m.
    for p in &mut c.points[..count] {
        solve_friction(c.friction, p, &mut ba, &mut bb);
    }
    if c.is_block() {
        solve_normal_block(c, &mut ba, &mut bb);
    } else {
        for p in &mut c.points[..count] {
            let vn = speed(&ba, &bb, p.normal, p.arm_na, p.arm_nb);
            let new = (p.normal_impulse - p.mass * (vn + p.bias)).max(0.0);
            let delta = new - p.normal_impulse;
            p.normal_impulse = new;
            p.max_normal_impulse = p.max_normal_impulse.max(new);
            apply(&mut ba, &mut bb, p.normal, p.arm_na, p.arm_nb, delta);
        }
    }
    if c.rolling_arm > 0.0 {
        let max = c.rolling_arm * c.points[0].normal_impulse;
        let new = clamp(
            c.rolling_impulse - c.angular_mass * (bb.w - ba.w),
            -max,
            max,
        );
        let delta = new - c.rolling_impulse;
        c.rolling_impulse = new;
        ba.w -= ba.inv_inertia * delta;
        bb.w += bb.inv_inertia * delta;
    }
    write_back(bodies, c.a, c.b, ba, bb);
}

/// Coulomb friction at one point, bounded by the point's normal impulse.
#[inline(always)]
fn solve_friction(friction: f32, p: &mut VelocityPoint, ba: &mut SolverBody, bb: &mut SolverBody) {
    let t = tangent(p.normal);
    let vt = speed(ba, bb, t, p.arm_ta, p.arm_tb);
    let max_f = friction * p.normal_impulse;
    let new = clamp(p.tangent_impulse - p.tangent_mass * vt, -max_f, max_f);
    let delta = new - p.tangent_impulse;
    p.tangent_impulse = new;
    apply(ba, bb, t, p.arm_ta, p.arm_tb, delta);
}

/// `f32::clamp`'s result (the same tests in the same order), without its
/// panic on a NaN bound: a body blowing up mid-step must reach the
/// write-back, where it is frozen and reported, not abort the step.
#[inline(always)]
fn clamp(x: f32, lo: f32, hi: f32) -> f32 {
    let x = if x < lo { lo } else { x };
    if x > hi {
        hi
    } else {
        x
    }
}

/// The contact tangent of normal `n`: `n` turned a quarter clockwise.
#[inline(always)]
fn tangent(n: Vec2) -> Vec2 {
    Vec2::new(n.y, -n.x)
}

/// Speed of B relative to A along `dir` at a point whose anchors have the
/// lever arms `arm_a = rA × dir`, `arm_b = rB × dir`:
/// `(vB + ωB × rB - vA - ωA × rA)·dir`.
#[inline(always)]
fn speed(ba: &SolverBody, bb: &SolverBody, dir: Vec2, arm_a: f32, arm_b: f32) -> f32 {
    (bb.v - ba.v).dot(dir) + (bb.w * arm_b - ba.w * arm_a)
}

/// Applies the impulse `lambda·dir` to B and its opposite to A, at a point
/// with lever arms `arm_a`, `arm_b` along `dir` (see [`speed`]).
#[inline(always)]
fn apply(ba: &mut SolverBody, bb: &mut SolverBody, dir: Vec2, arm_a: f32, arm_b: f32, lambda: f32) {
    let impulse = lambda * dir;
    ba.v -= ba.inv_mass * impulse;
    ba.w -= ba.inv_inertia * (lambda * arm_a);
    bb.v += bb.inv_mass * impulse;
    bb.w += bb.inv_inertia * (lambda * arm_b);
}

/// Solves both normal impulses of a two-point manifold at once: the 2×2 mixed
/// linear complementarity problem `vn = K·x + b, x ≥ 0, vn ≥ 0, x·vn = 0`, by
/// enumerating its four cases (both active, only 1, only 2, none). Sequential
/// impulses on the two points would load one corner first and tip the body;
/// the block solve keeps stacks square (Box2D v2.4 `b2ContactSolver`).
#[inline(always)]
fn solve_normal_block(c: &mut VelocityConstraint, ba: &mut SolverBody, bb: &mut SolverBody) {
    let [p1, p2] = &mut c.points;
    let vn1 = speed(ba, bb, p1.normal, p1.arm_na, p1.arm_nb) + p1.bias;
    let vn2 = speed(ba, bb, p2.normal, p2.arm_na, p2.arm_nb) + p2.bias;
    let [k11, k12, k22, inv_det] = c.k;
    let a = Vec2::new(p1.normal_impulse, p2.normal_impulse);
    // b = vn - K·a, so that vn(x) = K·x + b.
    let b = Vec2::new(vn1 - (k11 * a.x + k12 * a.y), vn2 - (k12 * a.x + k22 * a.y));
    // The reciprocals come from the anchor update, once per substep: 1/k11
    // and 1/k22 are the points' normal masses.
    let x = 'found: {
        // Both points active: x = -K⁻¹ b.
        let x = Vec2::new(
            -(k22 * b.x - k12 * b.y) * inv_det,
            -(k11 * b.y - k12 * b.x) * inv_det,
        );
        if x.x >= 0.0 && x.y >= 0.0 {
            break 'found x;
        }
        // Only point 1 active.
        let x1 = -b.x * p1.mass;
        if x1 >= 0.0 && k12 * x1 + b.y >= 0.0 {
            break 'found Vec2::new(x1, 0.0);
        }
        // Only point 2 active.
        let x2 = -b.y * p2.mass;
        if x2 >= 0.0 && k12 * x2 + b.x >= 0.0 {
            break 'found Vec2::new(0.0, x2);
        }
        // Neither: both separating.
        if b.x >= 0.0 && b.y >= 0.0 {
            break 'found Vec2::ZERO;
        }
        // No case fits (rounding): keep the impulses.
        a
    };
    let d = x - a;
    p1.normal_impulse = x.x;
    p2.normal_impulse = x.y;
    p1.max_normal_impulse = p1.max_normal_impulse.max(x.x);
    p2.max_normal_impulse = p2.max_normal_impulse.max(x.y);
    apply(ba, bb, p1.normal, p1.arm_na, p1.arm_nb, d.x);
    apply(ba, bb, p2.normal, p2.arm_na, p2.arm_nb, d.y);
}

/// A contact point's separation, normal (A → B) and anchor from the bodies'
/// current poses, by its feature geometry (see `manifold`): the face normal
/// turns with its body and a point–point normal follows the two core points.
/// The anchor (relative to A's current centre; B's is `ra - ab`) lies on the
/// line of action through the incident point, the same world point for both
/// bodies.
#[inline(always)]
fn current_geometry(p: &FeaturePoint, qa: &SolverPose, qb: &SolverPose) -> (f32, Vec2, Vec2, Vec2) {
    // Current centre of B relative to the current centre of A.
    let ab = p.ab + (qb.dp - qa.dp);
    let pa = qa.dq.apply(p.fa);
    let pb = ab + qb.dq.apply(p.fb);
    // The face normal turns with the face's body (a point–point normal falls
    // back to A's turn when the points coincide).
    let q = if p.kind == FeatureKind::PlaneB {
        qb.dq
    } else {
        qa.dq
    };
    let n = q.apply(p.fnormal);
    let (s, n, anchor) = measure(p.kind, pa, pb, n, p.flength, p.radius, p.point_radius);
    (s, n, anchor, ab)
}

/// A point's current separation, normal and anchors, for the position pass.
struct PositionPoint {
    s: f32,
    n: Vec2,
    ra: Vec2,
    rb: Vec2,
}

impl PositionPoint {
    #[inline(always)]
    fn new(p: &FeaturePoint, qa: &SolverPose, qb: &SolverPose) -> PositionPoint {
        let (s, n, ra, ab) = current_geometry(p, qa, qb);
        PositionPoint {
            s,
            n,
            ra,
            rb: ra - ab,
        }
    }
}

/// The NGS position correction of one constraint, on poses `qa`, `qb`: pushes
/// penetrating points apart along their current normals, recomputing
/// separation and normal from the current poses (see [`current_geometry`]).
///
/// Each point's target is to remove `β·(s + slop)` of its penetration, at most
/// `max_correction`. A two-point manifold is corrected as a block (both
/// pseudo-impulses from one 2×2 solve, kept non-negative): corrected point by
/// point, a box turns a little at every pass, and over a column of 100 boxes
/// that added up to a lean and a collapse; the block solve lifts a level box
/// level.
#[inline(always)]
fn position_constraint(
    g: &ContactGeometry,
    ba: &SolverBody,
    bb: &SolverBody,
    qa: &mut SolverPose,
    qb: &mut SolverPose,
    prm: &SolverParams,
) {
    let target =
        |s: f32| (prm.position_correction * (s + prm.linear_slop)).clamp(-prm.max_correction, 0.0);
    if g.count == 2 {
        let p1 = PositionPoint::new(&g.points[0], qa, qb);
        let p2 = PositionPoint::new(&g.points[1], qa, qb);
        let (c1, c2) = (target(p1.s), target(p2.s));
        if c1 < 0.0 || c2 < 0.0 {
            let [l1, l2] = block_correction(&p1, &p2, c1, c2, ba, bb);
            push_apart(ba, bb, qa, qb, &p1, l1);
            push_apart(ba, bb, qa, qb, &p2, l2);
        }
        return;
    }
    for f in &g.points[..g.count as usize] {
        let p = PositionPoint::new(f, qa, qb);
        let correction = target(p.s);
        if correction >= 0.0 {
            continue;
        }
        let (rna, rnb) = (cross(p.ra, p.n), cross(p.rb, p.n));
        let k = ba.inv_mass + bb.inv_mass + ba.inv_inertia * rna * rna + bb.inv_inertia * rnb * rnb;
        if k > 0.0 {
            push_apart(ba, bb, qa, qb, &p, -correction / k);
        }
    }
}

/// Moves and turns both bodies by a pseudo-impulse `lambda ≥ 0` along the
/// point's normal: poses only, so no velocity (energy) is added.
#[inline(always)]
fn push_apart(
    ba: &SolverBody,
    bb: &SolverBody,
    qa: &mut SolverPose,
    qb: &mut SolverPose,
    p: &PositionPoint,
    lambda: f32,
) {
    if lambda <= 0.0 {
        return;
    }
    let impulse = lambda * p.n;
    qa.dp -= ba.inv_mass * impulse;
    qa.dq = qa.dq.integrate(-ba.inv_inertia * cross(p.ra, impulse));
    qb.dp += bb.inv_mass * impulse;
    qb.dq = qb.dq.integrate(bb.inv_inertia * cross(p.rb, impulse));
}

/// The two pseudo-impulses `λ ≥ 0` of a two-point manifold's position
/// correction: `K·λ = -c` on the points that push (`c ≤ 0` is each point's
/// target change of separation), by the same case enumeration as the velocity
/// block solver. A point whose target its partner's push already meets gets
/// none.
#[inline(always)]
fn block_correction(
    p1: &PositionPoint,
    p2: &PositionPoint,
    c1: f32,
    c2: f32,
    ba: &SolverBody,
    bb: &SolverBody,
) -> [f32; 2] {
    let (a1, b1) = (cross(p1.ra, p1.n), cross(p1.rb, p1.n));
    let (a2, b2) = (cross(p2.ra, p2.n), cross(p2.rb, p2.n));
    let im = ba.inv_mass + bb.inv_mass;
    let k11 = im + ba.inv_inertia * a1 * a1 + bb.inv_inertia * b1 * b1;
    let k22 = im + ba.inv_inertia * a2 * a2 + bb.inv_inertia * b2 * b2;
    let k12 = im * p1.n.dot(p2.n) + ba.inv_inertia * a1 * a2 + bb.inv_inertia * b1 * b2;
    if k11 <= 0.0 || k22 <= 0.0 {
        return [0.0; 2];
    }
    let (r1, r2) = (-c1, -c2);
    // Both points push, when K is well conditioned (nearly coincident points
    // fall through to one point pushing).
    let det = k11 * k22 - k12 * k12;
    if det > 1e-3 * k11 * k22 {
        let l1 = (k22 * r1 - k12 * r2) / det;
        let l2 = (k11 * r2 - k12 * r1) / det;
        if l1 >= 0.0 && l2 >= 0.0 {
            return [l1, l2];
        }
    }
    // One point pushes, and its push meets the other's target.
    let l1 = r1 / k11;
    if l1 >= 0.0 && k12 * l1 >= r2 {
        return [l1, 0.0];
    }
    let l2 = r2 / k22;
    if l2 >= 0.0 && k12 * l2 >= r1 {
        return [0.0, l2];
    }
    // Rounding left no consistent case: the deeper point alone.
    if c1 <= c2 {
        [l1.max(0.0), 0.0]
    } else {
        [0.0, l2.max(0.0)]
    }
}

/// The position correction of one constraint, on the stored poses; as for
/// velocities, a body that does not respond is never written.
fn position_one(
    g: &ContactGeometry,
    bodies: &[SolverBody],
    poses: &mut [SolverPose],
    prm: &SolverParams,
) {
    let (ba, bb) = pair(bodies, g.a, g.b);
    let (mut qa, mut qb) = (poses[g.a as usize], poses[g.b as usize]);
    position_constraint(g, &ba, &bb, &mut qa, &mut qb, prm);
    if ba.responds() {
        poses[g.a as usize] = qa;
    }
    if bb.responds() {
        poses[g.b as usize] = qb;
    }
}

/// Restitution of one constraint: bounces the points whose approach speed
/// exceeded the threshold and that carried load this step.
fn restitution_one(
    c: &mut VelocityConstraint,
    info: &ConstraintInfo,
    bodies: &mut [SolverBody],
    prm: &SolverParams,
) {
    let (mut ba, mut bb) = pair(bodies, c.a, c.b);
    let count = c.count as usize;
    for (p, &approach) in c.points[..count].iter_mut().zip(&info.approach) {
        if approach > -prm.restitution_threshold || p.max_normal_impulse == 0.0 {
            continue;
        }
        let vn = speed(&ba, &bb, p.normal, p.arm_na, p.arm_nb);
        let new = (p.normal_impulse - p.mass * (vn + info.restitution * approach)).max(0.0);
        let delta = new - p.normal_impulse;
        p.normal_impulse = new;
        p.max_normal_impulse = p.max_normal_impulse.max(new);
        apply(&mut ba, &mut bb, p.normal, p.arm_na, p.arm_nb, delta);
    }
    write_back(bodies, c.a, c.b, ba, bb);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nan_impulse_does_not_panic_the_velocity_pass() {
        // A body blowing up mid-step can leave NaN impulses; the step must go
        // on to the write-back, which freezes and reports the body.
        let point = VelocityPoint {
            normal: Vec2::Y,
            arm_na: 0.5,
            arm_nb: 0.5,
            arm_ta: 0.5,
            arm_tb: -0.5,
            mass: 1.0,
            tangent_mass: 1.0,
            normal_impulse: f32::NAN,
            ..Default::default()
        };
        let mut c = VelocityConstraint {
            a: 0,
            b: 1,
            friction: 0.6,
            count: 1,
            block_ok: false,
            k: [0.0; 4],
            rolling_arm: 0.1,
            angular_mass: 1.0,
            rolling_impulse: 0.0,
            points: [point, VelocityPoint::default()],
        };
        let body = SolverBody {
            v: Vec2::new(1.0, -1.0),
            w: 0.5,
            inv_mass: 1.0,
            inv_inertia: 6.0,
        };
        let mut bodies = vec![body, body];
        solve_one(&mut c, &mut bodies);
        assert!(bodies[0].v.x.is_nan() || bodies[1].v.x.is_nan());
    }
}
