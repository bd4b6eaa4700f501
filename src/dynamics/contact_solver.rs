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
//! a rounded end follows the curve). Single-point contacts use that normal in
//! every pass; two-point manifolds keep their shared step-start normal for the
//! velocity passes (the 2×2 block solver's effective masses are built on it).
//! Each impulse acts at one world point for both bodies, midway between the
//! surfaces, so impulses conserve angular momentum exactly. A single point's
//! non-penetration target uses the separation predicted at the end of the
//! substep to second order (`s + h·vn + curve`, `curve` from the geometry at the
//! poses the current velocities lead to), so a turning face or a corner sliding
//! over a curve does not dig in during the substep; that penetration would
//! otherwise be removed by the position pass, which moves mass that carries
//! velocity and so changes angular momentum.
//!
//! The velocity pass carries no Baumgarte bias: penetration is removed by the
//! position pass alone. References: E. Catto, "Iterative Dynamics with Temporal
//! Coherence" (2005), "Solver2D" (2024); Box2D v2.4 `b2ContactSolver` (NGS).
//!
//! Data layout: the constraints of a step live in three arrays in the same
//! order (see [`ContactConstraints`]), split by the passes that read them, so
//! each pass streams only its own data: the velocity passes' working set (128
//! bytes a constraint), the feature geometry that the anchor update and the
//! position pass recompute the contact from, and what is read once per step
//! (restitution inputs, the contact to store the impulses into).

use super::body::Body;
use super::schedule::Wavefront;
use super::solver_body::{SolverBody, SolverPose};
use crate::collision::manifold::{FeatureKind, Manifold, PointFeature};
use crate::math::{cross, cross_sv, Vec2};

/// A contact point's data for the velocity passes.
#[derive(Clone, Copy, Debug, Default)]
struct VelocityPoint {
    /// This substep's anchors from A's and B's current centres (see
    /// [`current_point`]), set by [`update_anchors`]: poses do not change
    /// during velocity iterations.
    ra: Vec2,
    rb: Vec2,
    /// Velocity bias of the non-penetration target this substep: the
    /// separation predicted at the end of the substep, `(max(s, 0) + curve)/h`
    /// (see [`update_anchors`]).
    bias: f32,
    /// Normal effective mass along the constraint's current normal.
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
    /// The normal the points' impulses act along: a two-point manifold's
    /// shared step-start normal (the block solver's effective masses are built
    /// on it), or a single point's current normal, set by [`update_anchors`].
    normal: Vec2,
    friction: f32,
    count: u8,
    /// The two-point effective-mass matrix is well conditioned enough for the
    /// block solver.
    block_ok: bool,
    /// The next constraint shares no responding body with this one (see
    /// `schedule`): the velocity pass may solve the two side by side.
    independent_of_next: bool,
    /// Effective-mass matrix of a two-point manifold: (k11, k12, k22).
    k: [f32; 3],
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
    /// As [`VelocityConstraint::independent_of_next`].
    independent_of_next: bool,
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
    /// Normal effective mass along the step-start normal.
    normal_mass: [f32; 2],
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
        let mut normal_mass = [0.0; 2];
        let mut anchors = [(Vec2::ZERO, Vec2::ZERO); 2];
        for (i, (mp, f)) in m.points().iter().zip(features).enumerate() {
            let ra = mp.point - body_a.center;
            let rb = mp.point - body_b.center;
            let rna = cross(ra, n);
            let rnb = cross(rb, n);
            let kn =
                sa.inv_mass + sb.inv_mass + sa.inv_inertia * rna * rna + sb.inv_inertia * rnb * rnb;
            let rta = cross(ra, t);
            let rtb = cross(rb, t);
            let kt =
                sa.inv_mass + sb.inv_mass + sa.inv_inertia * rta * rta + sb.inv_inertia * rtb * rtb;
            let dv = sb.v + cross_sv(sb.w, rb) - sa.v - cross_sv(sa.w, ra);
            // Approach speed for restitution. A speculative contact (gap s > 0)
            // is met part-way through the step; extrapolate the approach across
            // the gap under the pair's relative gravity (v² = v₀² - 2·a·s), or a
            // falling body would bounce with the speed it had a few cm earlier.
            let mut vn0 = dv.dot(n);
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
            let nm = if kn > 0.0 { 1.0 / kn } else { 0.0 };
            anchors[i] = (ra, rb);
            approach[i] = vn0;
            normal_mass[i] = nm;
            points[i] = VelocityPoint {
                ra,
                rb,
                bias: 0.0,
                mass: nm,
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
        let (mut k, mut block_ok) = ([0.0; 3], false);
        if m.count == 2 {
            let [(ra1, rb1), (ra2, rb2)] = anchors;
            let (rn1a, rn1b) = (cross(ra1, n), cross(rb1, n));
            let (rn2a, rn2b) = (cross(ra2, n), cross(rb2, n));
            let im = sa.inv_mass + sb.inv_mass;
            let k11 = im + sa.inv_inertia * rn1a * rn1a + sb.inv_inertia * rn1b * rn1b;
            let k22 = im + sa.inv_inertia * rn2a * rn2a + sb.inv_inertia * rn2b * rn2b;
            let k12 = im + sa.inv_inertia * rn1a * rn2a + sb.inv_inertia * rn1b * rn2b;
            // Condition-number guard (as Box2D): nearly coincident points make K
            // singular; those fall back to sequential impulses.
            const MAX_CONDITION: f32 = 1000.0;
            k = [k11, k12, k22];
            block_ok =
                k11 > 0.0 && k22 > 0.0 && k11 * k11 < MAX_CONDITION * (k11 * k22 - k12 * k12);
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
            normal: n,
            friction,
            count: m.count as u8,
            block_ok,
            independent_of_next: false,
            k,
            rolling_arm,
            angular_mass: if ii > 0.0 { 1.0 / ii } else { 0.0 },
            rolling_impulse: 0.0,
            points,
        });
        self.geometry.push(ContactGeometry {
            a,
            b,
            count: m.count as u8,
            independent_of_next: false,
            points: geometry,
        });
        self.info.push(ConstraintInfo {
            contact,
            restitution,
            approach,
            normal_mass,
        });
    }

    /// Moves the constraints of `block` (built in the solver's order) to the
    /// end of this list in wavefront order (see `schedule`), marking which
    /// are independent of the next; leaves `block` empty.
    pub fn append_scheduled(
        &mut self,
        block: &mut ContactConstraints,
        wavefront: &mut Wavefront,
        bodies: &[SolverBody],
    ) {
        let pairs = block.velocity.iter().map(|c| (c.a, c.b));
        let (order, with_next) = wavefront.order_block(bodies, pairs);
        for (&i, &independent_of_next) in order.iter().zip(with_next) {
            let i = i as usize;
            self.velocity.push(VelocityConstraint {
                independent_of_next,
                ..block.velocity[i]
            });
            self.geometry.push(ContactGeometry {
                independent_of_next,
                ..block.geometry[i]
            });
            self.info.push(block.info[i]);
        }
        block.clear();
    }

    /// The contact constraint `i` came from.
    pub fn contact(&self, i: usize) -> u32 {
        self.info[i].contact
    }

    /// Copies constraint `i`'s accumulated impulses back into its manifold.
    pub fn store(&self, i: usize, m: &mut Manifold) {
        // The manifold has the constraint's points (built from it this step);
        // taking the count from the constraint spares reading the manifold.
        let c = &self.velocity[i];
        for (mp, cp) in m.points.iter_mut().zip(&c.points[..c.count as usize]) {
            mp.normal_impulse = cp.normal_impulse;
            mp.tangent_impulse = cp.tangent_impulse;
        }
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

/// Applies the accumulated impulses (start of each substep).
pub(crate) fn warm_start(constraints: &ContactConstraints, bodies: &mut [SolverBody]) {
    for c in &constraints.velocity {
        let (mut ba, mut bb) = pair(bodies, c.a, c.b);
        let n = c.normal;
        let t = Vec2::new(n.y, -n.x);
        for p in &c.points[..c.count as usize] {
            apply(
                &mut ba,
                &mut bb,
                p.ra,
                p.rb,
                p.normal_impulse * n + p.tangent_impulse * t,
            );
        }
        write_back(bodies, c.a, c.b, ba, bb);
    }
}

/// A contact point's state from the bodies' motion since step start: its
/// separation, its normal and its anchors from the current centres of mass.
///
/// The separation, normal and anchor come from the point's feature geometry
/// ([`current_geometry`]). The anchor is one world point for both bodies, so
/// every impulse conserves angular momentum exactly, however far the bodies
/// moved during the step; it lies on the line of action through the incident
/// core point, where the rate of change of the separation is the normal
/// relative velocity. Two-point manifolds keep their shared step-start normal
/// (`fixed`), the block solver's effective masses being built on it.
#[inline(always)]
fn current_point(
    p: &FeaturePoint,
    fixed: Option<Vec2>,
    qa: &SolverPose,
    qb: &SolverPose,
) -> (f32, Vec2, Vec2, Vec2) {
    let (s, n, ra, ab) = current_geometry(p, qa, qb);
    (s, fixed.unwrap_or(n), ra, ra - ab)
}

/// Recomputes every point's anchors, normal, effective mass and velocity bias
/// from the current poses (start of each substep with the substep `h`, and
/// before restitution with `h = 0`, which leaves no bias). Velocity iterations
/// change velocities only, so these hold for the whole substep.
pub(crate) fn update_anchors(
    constraints: &mut ContactConstraints,
    bodies: &[SolverBody],
    poses: &[SolverPose],
    h: f32,
) {
    let inv_h = if h > 0.0 { 1.0 / h } else { 0.0 };
    for (c, g) in constraints.velocity.iter_mut().zip(&constraints.geometry) {
        let (ba, bb) = (&bodies[g.a as usize], &bodies[g.b as usize]);
        let (qa, qb) = (&poses[g.a as usize], &poses[g.b as usize]);
        let fixed = (g.count == 2).then_some(c.normal);
        for (p, f) in c.points.iter_mut().zip(&g.points[..g.count as usize]) {
            let (s, n, ra, rb) = current_point(f, fixed, qa, qb);
            let mut curve = 0.0;
            if fixed.is_none() && h > 0.0 {
                // Second-order change of the separation over the substep at the
                // current velocities (a turning face, a point sliding over a
                // curve): the predicted separation minus its linear part.
                let (s1, ..) = current_geometry(f, &qa.integrate(ba, h), &qb.integrate(bb, h));
                let dv = bb.v + cross_sv(bb.w, rb) - ba.v - cross_sv(ba.w, ra);
                curve = s1 - s - h * dv.dot(n);
            }
            if fixed.is_none() {
                // A single point's normal turns, and its effective mass with it
                // (a two-point manifold keeps its step-start normal and mass).
                let (rna, rnb) = (cross(ra, n), cross(rb, n));
                let k = ba.inv_mass
                    + bb.inv_mass
                    + ba.inv_inertia * rna * rna
                    + bb.inv_inertia * rnb * rnb;
                p.mass = if k > 0.0 { 1.0 / k } else { 0.0 };
                c.normal = n;
            }
            // Speculative: a gap may be closed this substep, but no faster. The
            // separation at the end of the substep is predicted to second
            // order, s + h·vn + curve: a gap may close, a penetration may not
            // grow (removing it is the position pass's job).
            p.bias = if h > 0.0 {
                (s.max(0.0) + curve) * inv_h
            } else {
                0.0
            };
            p.ra = ra;
            p.rb = rb;
        }
    }
}

/// One velocity pass over all contacts. Two independent two-point
/// constraints in a row (see `schedule`) are solved side by side, so that the
/// CPU overlaps their dependency chains; each body still sees the same
/// operations in the same order.
pub(crate) fn solve_velocities(constraints: &mut ContactConstraints, bodies: &mut [SolverBody]) {
    let cs = &mut constraints.velocity[..];
    let mut i = 0;
    while i < cs.len() {
        if let [c1, c2, ..] = &mut cs[i..] {
            if c1.independent_of_next && c1.is_block() && c2.is_block() {
                solve_block_pair(c1, c2, bodies);
                i += 2;
                continue;
            }
        }
        solve_one(&mut cs[i], bodies);
        i += 1;
    }
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
    let n = c.normal;
    if c.is_block() {
        solve_normal_block(c, &mut ba, &mut bb);
    } else {
        for p in &mut c.points[..count] {
            let (ra, rb) = (p.ra, p.rb);
            let dv = bb.v + cross_sv(bb.w, rb) - ba.v - cross_sv(ba.w, ra);
            let vn = dv.dot(n);
            let new = (p.normal_impulse - p.mass * (vn + p.bias)).max(0.0);
            let delta = new - p.normal_impulse;
            p.normal_impulse = new;
            p.max_normal_impulse = p.max_normal_impulse.max(new);
            apply(&mut ba, &mut bb, ra, rb, delta * n);
        }
    }
    // Friction after the normal impulses, bounded by this iteration's load.
    for p in &mut c.points[..count] {
        solve_friction(c.friction, n, p, &mut ba, &mut bb);
    }
    if c.rolling_arm > 0.0 {
        let max = c.rolling_arm * c.points[0].normal_impulse;
        let new = (c.rolling_impulse - c.angular_mass * (bb.w - ba.w)).clamp(-max, max);
        let delta = new - c.rolling_impulse;
        c.rolling_impulse = new;
        ba.w -= ba.inv_inertia * delta;
        bb.w += bb.inv_inertia * delta;
    }
    write_back(bodies, c.a, c.b, ba, bb);
}

/// Two independent block constraints, interleaved step by step: the same
/// operations as [`solve_one`] on each, in the same order per body.
#[inline]
fn solve_block_pair(
    c1: &mut VelocityConstraint,
    c2: &mut VelocityConstraint,
    bodies: &mut [SolverBody],
) {
    let (mut a1, mut b1) = pair(bodies, c1.a, c1.b);
    let (mut a2, mut b2) = pair(bodies, c2.a, c2.b);
    solve_normal_block(c1, &mut a1, &mut b1);
    solve_normal_block(c2, &mut a2, &mut b2);
    let (f1, n1, f2, n2) = (c1.friction, c1.normal, c2.friction, c2.normal);
    let ([p11, p12], [p21, p22]) = (&mut c1.points, &mut c2.points);
    solve_friction(f1, n1, p11, &mut a1, &mut b1);
    solve_friction(f2, n2, p21, &mut a2, &mut b2);
    solve_friction(f1, n1, p12, &mut a1, &mut b1);
    solve_friction(f2, n2, p22, &mut a2, &mut b2);
    write_back(bodies, c1.a, c1.b, a1, b1);
    write_back(bodies, c2.a, c2.b, a2, b2);
}

/// Coulomb friction at one point, bounded by the point's current normal
/// impulse.
#[inline(always)]
fn solve_friction(
    friction: f32,
    n: Vec2,
    p: &mut VelocityPoint,
    ba: &mut SolverBody,
    bb: &mut SolverBody,
) {
    let t = Vec2::new(n.y, -n.x);
    let (ra, rb) = (p.ra, p.rb);
    let dv = bb.v + cross_sv(bb.w, rb) - ba.v - cross_sv(ba.w, ra);
    let vt = dv.dot(t);
    let max_f = friction * p.normal_impulse;
    let new = (p.tangent_impulse - p.tangent_mass * vt).clamp(-max_f, max_f);
    let delta = new - p.tangent_impulse;
    p.tangent_impulse = new;
    apply(ba, bb, ra, rb, delta * t);
}

#[inline]
fn apply(ba: &mut SolverBody, bb: &mut SolverBody, ra: Vec2, rb: Vec2, impulse: Vec2) {
    ba.v -= ba.inv_mass * impulse;
    ba.w -= ba.inv_inertia * cross(ra, impulse);
    bb.v += bb.inv_mass * impulse;
    bb.w += bb.inv_inertia * cross(rb, impulse);
}

/// Solves both normal impulses of a two-point manifold at once: the 2×2 mixed
/// linear complementarity problem `vn = K·x + b, x ≥ 0, vn ≥ 0, x·vn = 0`, by
/// enumerating its four cases (both active, only 1, only 2, none). Sequential
/// impulses on the two points would load one corner first and tip the body;
/// the block solve keeps stacks square (Box2D v2.4 `b2ContactSolver`).
#[inline(always)]
fn solve_normal_block(c: &mut VelocityConstraint, ba: &mut SolverBody, bb: &mut SolverBody) {
    let n = c.normal;
    let [p1, p2] = &mut c.points;
    let (ra1, rb1) = (p1.ra, p1.rb);
    let (ra2, rb2) = (p2.ra, p2.rb);
    let vn1 = (bb.v + cross_sv(bb.w, rb1) - ba.v - cross_sv(ba.w, ra1)).dot(n) + p1.bias;
    let vn2 = (bb.v + cross_sv(bb.w, rb2) - ba.v - cross_sv(ba.w, ra2)).dot(n) + p2.bias;
    let (k11, k12, k22) = (c.k[0], c.k[1], c.k[2]);
    let a = Vec2::new(p1.normal_impulse, p2.normal_impulse);
    // b = vn - K·a, so that vn(x) = K·x + b.
    let b = Vec2::new(vn1 - (k11 * a.x + k12 * a.y), vn2 - (k12 * a.x + k22 * a.y));
    let det = k11 * k22 - k12 * k12;
    let x = 'found: {
        // Both points active: x = -K⁻¹ b.
        let x = Vec2::new(
            -(k22 * b.x - k12 * b.y) / det,
            -(k11 * b.y - k12 * b.x) / det,
        );
        if x.x >= 0.0 && x.y >= 0.0 {
            break 'found x;
        }
        // Only point 1 active.
        let x1 = -b.x / k11;
        if x1 >= 0.0 && k12 * x1 + b.y >= 0.0 {
            break 'found Vec2::new(x1, 0.0);
        }
        // Only point 2 active.
        let x2 = -b.y / k22;
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
    apply(ba, bb, ra1, rb1, d.x * n);
    apply(ba, bb, ra2, rb2, d.y * n);
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
    // The anchor is midway between the two surfaces, on the normal through
    // the point-carrying core point (friction acts there, at the surface).
    match p.kind {
        FeatureKind::PlaneA => {
            let n = qa.dq.apply(p.fnormal);
            let (s, n) = match face_to_point(pa, n, p.flength, pb) {
                Some(e) => points(e, pb, p.radius, n),
                None => (n.dot(pb - pa) - p.radius, n),
            };
            (s, n, pb - (p.point_radius + 0.5 * s) * n, ab)
        }
        FeatureKind::PlaneB => {
            let n = qb.dq.apply(p.fnormal);
            let (s, n) = match face_to_point(pb, n, p.flength, pa) {
                Some(e) => points(pa, e, p.radius, -n),
                None => (n.dot(pa - pb) - p.radius, -n),
            };
            (s, n, pa + (p.point_radius + 0.5 * s) * n, ab)
        }
        FeatureKind::Points => {
            let (s, n) = points(pa, pb, p.radius, qa.dq.apply(p.fnormal));
            (s, n, pa + (p.point_radius + 0.5 * s) * n, ab)
        }
    }
}

/// The end of a face (start `q`, outward normal `n`, length `len`, negative for
/// an unbounded plane) nearest to point `p` when `p` lies outside the face and
/// beyond one of its ends: there the face's nearest feature is that end.
#[inline(always)]
fn face_to_point(q: Vec2, n: Vec2, len: f32, p: Vec2) -> Option<Vec2> {
    if len < 0.0 {
        return None;
    }
    let d = p - q;
    let t = Vec2::new(-n.y, n.x);
    let u = t.dot(d);
    if n.dot(d) > 0.0 && (u < 0.0 || u > len) {
        Some(q + u.clamp(0.0, len) * t)
    } else {
        None
    }
}

/// Separation and normal of two core points `pa`, `pb` with rounding
/// `radius`; `fallback` is the normal when they coincide.
#[inline(always)]
fn points(pa: Vec2, pb: Vec2, radius: f32, fallback: Vec2) -> (f32, Vec2) {
    let d = pb - pa;
    let len = d.length();
    let n = if len > 0.0 { d / len } else { fallback };
    (len - radius, n)
}

/// One NGS position pass: pushes penetrating points apart along their current
/// normals, recomputing separation and normal from the current poses (see
/// [`current_geometry`]). Returns the deepest separation seen (m). Two
/// independent constraints in a row (see `schedule`) are solved side by side,
/// point by point; each body still sees the same operations in the same order.
pub(crate) fn solve_positions(
    constraints: &ContactConstraints,
    bodies: &[SolverBody],
    poses: &mut [SolverPose],
    prm: &SolverParams,
) -> f32 {
    let mut min_sep = 0.0f32;
    let gs = &constraints.geometry[..];
    let mut i = 0;
    while i < gs.len() {
        let g1 = &gs[i];
        let (ba1, bb1) = pair(bodies, g1.a, g1.b);
        let (mut qa1, mut qb1) = (poses[g1.a as usize], poses[g1.b as usize]);
        match gs.get(i + 1).filter(|_| g1.independent_of_next) {
            Some(g2) => {
                let (ba2, bb2) = pair(bodies, g2.a, g2.b);
                let (mut qa2, mut qb2) = (poses[g2.a as usize], poses[g2.b as usize]);
                for k in 0..2 {
                    if k < g1.count as usize {
                        let s = position_point(&g1.points[k], &ba1, &bb1, &mut qa1, &mut qb1, prm);
                        min_sep = min_sep.min(s);
                    }
                    if k < g2.count as usize {
                        let s = position_point(&g2.points[k], &ba2, &bb2, &mut qa2, &mut qb2, prm);
                        min_sep = min_sep.min(s);
                    }
                }
                write_poses(poses, g1, &ba1, &bb1, qa1, qb1);
                write_poses(poses, g2, &ba2, &bb2, qa2, qb2);
                i += 2;
            }
            None => {
                for p in &g1.points[..g1.count as usize] {
                    let s = position_point(p, &ba1, &bb1, &mut qa1, &mut qb1, prm);
                    min_sep = min_sep.min(s);
                }
                write_poses(poses, g1, &ba1, &bb1, qa1, qb1);
                i += 1;
            }
        }
    }
    min_sep
}

/// The position correction of one point; returns its separation.
#[inline(always)]
fn position_point(
    p: &FeaturePoint,
    ba: &SolverBody,
    bb: &SolverBody,
    qa: &mut SolverPose,
    qb: &mut SolverPose,
    prm: &SolverParams,
) -> f32 {
    let (s, n, ra, ab) = current_geometry(p, qa, qb);
    let correction =
        (prm.position_correction * (s + prm.linear_slop)).clamp(-prm.max_correction, 0.0);
    if correction >= 0.0 {
        return s;
    }
    let rb = ra - ab;
    let rna = cross(ra, n);
    let rnb = cross(rb, n);
    let k = ba.inv_mass + bb.inv_mass + ba.inv_inertia * rna * rna + bb.inv_inertia * rnb * rnb;
    if k <= 0.0 {
        return s;
    }
    let impulse = (-correction / k) * n;
    qa.dp -= ba.inv_mass * impulse;
    qa.dq = qa.dq.integrate(-ba.inv_inertia * cross(ra, impulse));
    qb.dp += bb.inv_mass * impulse;
    qb.dq = qb.dq.integrate(bb.inv_inertia * cross(rb, impulse));
    s
}

/// Stores a constraint's two poses; as for velocities, a body that does not
/// respond is never written.
#[inline]
fn write_poses(
    poses: &mut [SolverPose],
    g: &ContactGeometry,
    ba: &SolverBody,
    bb: &SolverBody,
    qa: SolverPose,
    qb: SolverPose,
) {
    if ba.responds() {
        poses[g.a as usize] = qa;
    }
    if bb.responds() {
        poses[g.b as usize] = qb;
    }
}

/// Restitution: bounce points whose approach speed exceeded the threshold and
/// that carried load this step.
pub(crate) fn apply_restitution(
    constraints: &mut ContactConstraints,
    bodies: &mut [SolverBody],
    prm: &SolverParams,
) {
    for (c, info) in constraints.velocity.iter_mut().zip(&constraints.info) {
        if info.restitution == 0.0 {
            continue;
        }
        let (mut ba, mut bb) = pair(bodies, c.a, c.b);
        let count = c.count as usize;
        let n = c.normal;
        for ((p, &approach), &normal_mass) in c.points[..count]
            .iter_mut()
            .zip(&info.approach)
            .zip(&info.normal_mass)
        {
            if approach > -prm.restitution_threshold || p.max_normal_impulse == 0.0 {
                continue;
            }
            let (ra, rb) = (p.ra, p.rb);
            let dv = bb.v + cross_sv(bb.w, rb) - ba.v - cross_sv(ba.w, ra);
            let vn = dv.dot(n);
            let new =
                (p.normal_impulse - normal_mass * (vn + info.restitution * approach)).max(0.0);
            let delta = new - p.normal_impulse;
            p.normal_impulse = new;
            p.max_normal_impulse = p.max_normal_impulse.max(new);
            apply(&mut ba, &mut bb, ra, rb, delta * n);
        }
        write_back(bodies, c.a, c.b, ba, bb);
    }
}
