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
//! the geometry at the poses the current velocities lead to), so a turning face
//! or a corner sliding over a curve does not dig in during the substep; that
//! penetration would otherwise be removed by the position pass, which moves
//! mass that carries velocity and so changes angular momentum. Two-point
//! manifolds are solved as 2×2 blocks, in the velocity pass and in the position
//! pass alike, on the current normals.
//!
//! The velocity pass carries no Baumgarte bias: penetration is removed by the
//! position pass alone. References: E. Catto, "Iterative Dynamics with Temporal
//! Coherence" (2005), "Solver2D" (2024); Box2D v2.4 `b2ContactSolver` (NGS).

use super::body::Body;
use crate::collision::manifold::{FeatureKind, Manifold, PointFeature};
use crate::math::{cross, cross_sv, Rot, Vec2};

/// Velocity and pose change of a body during a step.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SolverBody {
    pub v: Vec2,
    pub w: f32,
    /// Translation of the centre of mass since the step began.
    pub dp: Vec2,
    /// Rotation since the step began.
    pub dq: Rot,
    pub inv_mass: f32,
    pub inv_inertia: f32,
}

impl SolverBody {
    /// A body that never moves (static, sleeping, frozen or an empty slot).
    pub fn default_static() -> SolverBody {
        SolverBody::default()
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct ConstraintPoint {
    ra: Vec2,
    rb: Vec2,
    tangent_mass: f32,
    normal_impulse: f32,
    tangent_impulse: f32,
    max_normal_impulse: f32,
    /// Normal relative velocity at step start (negative = approaching).
    approach: f32,
    /// This substep's separation and anchors (see [`current_point`]), cached by
    /// [`update_anchors`]: poses do not change during velocity iterations.
    sep: f32,
    /// Second-order change of the separation over the substep (m), see
    /// [`update_anchors`].
    curve: f32,
    cn: Vec2,
    cmass: f32,
    cra: Vec2,
    crb: Vec2,
    /// Contact geometry for the position pass: the feature kind, the feature
    /// points relative to A's and B's centres and the face normal (step-start
    /// orientation), and the sum of the rounding radii.
    kind: FeatureKind,
    fa: Vec2,
    fb: Vec2,
    fnormal: Vec2,
    flength: f32,
    radius: f32,
    point_radius: f32,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct ContactConstraint {
    a: u32,
    b: u32,
    friction: f32,
    restitution: f32,
    points: [ConstraintPoint; 2],
    count: usize,
    /// Rolling resistance: torque cap per unit normal impulse (m), and the
    /// relative angular effective mass and accumulated angular impulse.
    rolling_arm: f32,
    angular_mass: f32,
    rolling_impulse: f32,
    /// Effective-mass matrix of a two-point manifold: (k11, k12, k22).
    k: [f32; 3],
    /// The matrix is well conditioned enough for the block solver.
    block_ok: bool,
    /// Index of the contact it came from, to store impulses back.
    pub contact: u32,
}

/// Tunables the solver needs from the world settings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SolverParams {
    pub h: f32,
    pub linear_slop: f32,
    pub position_correction: f32,
    pub max_correction: f32,
    pub restitution_threshold: f32,
}

impl ContactConstraint {
    /// Builds a constraint from a manifold between bodies `a` and `b`.
    #[allow(clippy::too_many_arguments)] // one call site, each argument distinct
    pub fn new(
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
    ) -> ContactConstraint {
        let n = m.normal;
        let t = Vec2::new(n.y, -n.x);
        let mut points = [ConstraintPoint::default(); 2];
        for ((cp, mp), f) in points.iter_mut().zip(m.points()).zip(features) {
            let ra = mp.point - body_a.center;
            let rb = mp.point - body_b.center;
            let rta = cross(ra, t);
            let rtb = cross(rb, t);
            let kt =
                sa.inv_mass + sb.inv_mass + sa.inv_inertia * rta * rta + sb.inv_inertia * rtb * rtb;
            let dv = sb.v + cross_sv(sb.w, rb) - sa.v - cross_sv(sa.w, ra);
            // Approach speed for restitution. A speculative contact (gap s > 0)
            // is met part-way through the step; extrapolate the approach across
            // the gap under the pair's relative gravity (v² = v₀² - 2·a·s), or a
            // falling body would bounce with the speed it had a few cm earlier.
            let mut approach = dv.dot(n);
            let gravity_of = |b: &Body| {
                if b.kind == super::BodyKind::Dynamic {
                    b.gravity_scale
                } else {
                    0.0
                }
            };
            let a_n = gravity.dot(n) * (gravity_of(body_b) - gravity_of(body_a));
            if approach < 0.0 && mp.separation > 0.0 && a_n < 0.0 {
                approach = -libm::sqrtf(approach * approach - 2.0 * a_n * mp.separation);
            }
            *cp = ConstraintPoint {
                ra,
                rb,
                tangent_mass: if kt > 0.0 { 1.0 / kt } else { 0.0 },
                normal_impulse: mp.normal_impulse,
                tangent_impulse: mp.tangent_impulse,
                max_normal_impulse: 0.0,
                approach,
                sep: mp.separation,
                curve: 0.0,
                cn: n,
                cmass: 0.0,
                cra: ra,
                crb: rb,
                kind: f.kind,
                fa: f.pa - body_a.center,
                fb: f.pb - body_b.center,
                fnormal: f.normal,
                flength: f.length,
                radius: f.radius,
                point_radius: f.point_radius,
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
        ContactConstraint {
            rolling_arm,
            angular_mass: if ii > 0.0 { 1.0 / ii } else { 0.0 },
            rolling_impulse: 0.0,
            // Built on the current normals by `update_anchors`.
            k: [0.0; 3],
            block_ok: false,
            a,
            b,
            friction,
            restitution,
            points,
            count: m.count,
            contact,
        }
    }

    /// Copies the accumulated impulses back into the manifold.
    pub fn store(&self, m: &mut Manifold) {
        for (mp, cp) in m.points[..m.count].iter_mut().zip(&self.points) {
            mp.normal_impulse = cp.normal_impulse;
            mp.tangent_impulse = cp.tangent_impulse;
        }
    }
}

#[inline]
fn pair_mut(bodies: &mut [SolverBody], a: u32, b: u32) -> (SolverBody, SolverBody) {
    (bodies[a as usize], bodies[b as usize])
}

#[inline]
fn write_back(bodies: &mut [SolverBody], a: u32, b: u32, ba: SolverBody, bb: SolverBody) {
    // Bodies with zero inverse mass and inertia (static, kinematic) never change
    // here; skipping the write keeps a shared static body untouched.
    if ba.inv_mass > 0.0 || ba.inv_inertia > 0.0 {
        bodies[a as usize] = ba;
    }
    if bb.inv_mass > 0.0 || bb.inv_inertia > 0.0 {
        bodies[b as usize] = bb;
    }
}

/// Applies the accumulated impulses (start of each substep).
pub(crate) fn warm_start(constraints: &[ContactConstraint], bodies: &mut [SolverBody]) {
    for c in constraints {
        let (mut ba, mut bb) = pair_mut(bodies, c.a, c.b);
        for p in &c.points[..c.count] {
            let n = p.cn;
            let t = Vec2::new(n.y, -n.x);
            apply(
                &mut ba,
                &mut bb,
                p.cra,
                p.crb,
                p.normal_impulse * n + p.tangent_impulse * t,
            );
        }
        write_back(bodies, c.a, c.b, ba, bb);
    }
}

/// Below this relative spin (rad/s) a two-point manifold's second-order
/// separation change over a substep (about ½·h²·ω²·r, under 1e-8 m here) is
/// not worth its cost, and is left out.
const TURNING_SPIN: f32 = 0.05;

/// Recomputes every point's separation, normal, anchors and effective mass
/// from the current poses (start of each substep, and before restitution), by
/// the point's feature geometry ([`current_geometry`]): a face normal turns
/// with its body, a point–point normal follows its two core points. The
/// anchor is one world point for both bodies, so every impulse conserves
/// angular momentum exactly, however far the bodies moved during the step.
/// Velocity iterations change velocities only, so these hold for the whole
/// substep. A two-point manifold's block matrix is rebuilt on the new normals.
///
/// With `h > 0` each point also gets its second-order separation change over
/// the substep at the current velocities (`curve`: a turning face, a point
/// sliding over a curve), so the velocity pass can keep the predicted
/// separation at the end of the substep from going negative. A penetration
/// that the velocity pass lets through would be removed by the position pass,
/// which moves mass that carries velocity and so changes angular momentum.
pub(crate) fn update_anchors(constraints: &mut [ContactConstraint], bodies: &[SolverBody], h: f32) {
    for c in constraints.iter_mut() {
        let (ba, bb) = (&bodies[c.a as usize], &bodies[c.b as usize]);
        let curved = h > 0.0 && (c.count == 1 || ba.w.abs() + bb.w.abs() > TURNING_SPIN);
        for p in &mut c.points[..c.count] {
            let (s, n, ra, ab) = current_geometry(p, ba, bb);
            let rb = ra - ab;
            p.sep = s;
            p.cn = n;
            p.curve = 0.0;
            if curved {
                // The predicted separation minus its linear part.
                let ahead = |b: &SolverBody| SolverBody {
                    dp: b.dp + h * b.v,
                    dq: b.dq.integrate(h * b.w),
                    ..*b
                };
                let (s1, ..) = current_geometry(p, &ahead(ba), &ahead(bb));
                let dv = bb.v + cross_sv(bb.w, rb) - ba.v - cross_sv(ba.w, ra);
                p.curve = s1 - s - h * dv.dot(n);
            }
            let (rna, rnb) = (cross(ra, n), cross(rb, n));
            let k =
                ba.inv_mass + bb.inv_mass + ba.inv_inertia * rna * rna + bb.inv_inertia * rnb * rnb;
            p.cmass = if k > 0.0 { 1.0 / k } else { 0.0 };
            p.cra = ra;
            p.crb = rb;
        }
        if c.count == 2 {
            (c.k, c.block_ok) = block_matrix(&c.points[0], &c.points[1], ba, bb);
        }
    }
}

/// The effective-mass matrix `(k11, k12, k22)` of a two-point manifold on its
/// points' current normals and anchors, and whether it is well enough
/// conditioned for the block solver. Nearly coincident points make it
/// singular; those fall back to sequential impulses (as Box2D).
#[inline]
fn block_matrix(
    p1: &ConstraintPoint,
    p2: &ConstraintPoint,
    ba: &SolverBody,
    bb: &SolverBody,
) -> ([f32; 3], bool) {
    const MAX_CONDITION: f32 = 1000.0;
    let (n1, n2) = (p1.cn, p2.cn);
    let (a1, b1) = (cross(p1.cra, n1), cross(p1.crb, n1));
    let (a2, b2) = (cross(p2.cra, n2), cross(p2.crb, n2));
    let im = ba.inv_mass + bb.inv_mass;
    let k11 = im + ba.inv_inertia * a1 * a1 + bb.inv_inertia * b1 * b1;
    let k22 = im + ba.inv_inertia * a2 * a2 + bb.inv_inertia * b2 * b2;
    let k12 = im * n1.dot(n2) + ba.inv_inertia * a1 * a2 + bb.inv_inertia * b1 * b2;
    let ok = k11 > 0.0 && k22 > 0.0 && k11 * k11 < MAX_CONDITION * (k11 * k22 - k12 * k12);
    ([k11, k12, k22], ok)
}

/// One velocity pass over all contacts.
pub(crate) fn solve_velocities(
    constraints: &mut [ContactConstraint],
    bodies: &mut [SolverBody],
    prm: &SolverParams,
) {
    let inv_h = 1.0 / prm.h;
    for c in constraints.iter_mut() {
        let (mut ba, mut bb) = pair_mut(bodies, c.a, c.b);
        let count = c.count;
        // Friction first, bounded by the load of the previous pass (as Box2D
        // v3): the normal impulses then have the last word, so a pass ends
        // with the non-penetration constraints satisfied. Solving friction
        // last lets its impulses, applied at two anchors, leave a residual
        // approach at the points; over the 100 rows of Box2D's large pyramid
        // that residual slid the edge boxes 0.2 m (0.75 m at the top).
        for p in &mut c.points[..count] {
            let (n, ra, rb) = (p.cn, p.cra, p.crb);
            let t = Vec2::new(n.y, -n.x);
            let dv = bb.v + cross_sv(bb.w, rb) - ba.v - cross_sv(ba.w, ra);
            let vt = dv.dot(t);
            let max_f = c.friction * p.normal_impulse;
            let new = (p.tangent_impulse - p.tangent_mass * vt).clamp(-max_f, max_f);
            let delta = new - p.tangent_impulse;
            p.tangent_impulse = new;
            apply(&mut ba, &mut bb, ra, rb, delta * t);
        }
        if count == 2 && c.block_ok {
            solve_normal_block(c, &mut ba, &mut bb, inv_h);
        } else {
            for p in &mut c.points[..count] {
                let (s, n, ra, rb) = (p.sep, p.cn, p.cra, p.crb);
                // Speculative: a gap may be closed this substep, but no faster.
                // The separation at the end of the substep is predicted to second
                // order, s + h·vn + curve: a gap may close, a penetration may
                // not grow (removing it is the position pass's job).
                let bias = (s.max(0.0) + p.curve) * inv_h;
                let dv = bb.v + cross_sv(bb.w, rb) - ba.v - cross_sv(ba.w, ra);
                let vn = dv.dot(n);
                let mass = p.cmass;
                let new = (p.normal_impulse - mass * (vn + bias)).max(0.0);
                let delta = new - p.normal_impulse;
                p.normal_impulse = new;
                p.max_normal_impulse = p.max_normal_impulse.max(new);
                apply(&mut ba, &mut bb, ra, rb, delta * n);
            }
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
fn solve_normal_block(
    c: &mut ContactConstraint,
    ba: &mut SolverBody,
    bb: &mut SolverBody,
    inv_h: f32,
) {
    let [p1, p2] = &mut c.points;
    let (n1, ra1, rb1) = (p1.cn, p1.cra, p1.crb);
    let (n2, ra2, rb2) = (p2.cn, p2.cra, p2.crb);
    // As for single points: a gap may close this substep, a penetration may
    // not grow, both predicted to second order.
    let bias1 = (p1.sep.max(0.0) + p1.curve) * inv_h;
    let bias2 = (p2.sep.max(0.0) + p2.curve) * inv_h;
    let vn1 = (bb.v + cross_sv(bb.w, rb1) - ba.v - cross_sv(ba.w, ra1)).dot(n1) + bias1;
    let vn2 = (bb.v + cross_sv(bb.w, rb2) - ba.v - cross_sv(ba.w, ra2)).dot(n2) + bias2;
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
    apply(ba, bb, ra1, rb1, d.x * n1);
    apply(ba, bb, ra2, rb2, d.y * n2);
}

/// A contact point's separation, normal (A → B) and anchor from the bodies'
/// current poses, by its feature geometry (see `manifold`): the face normal
/// turns with its body and a point–point normal follows the two core points.
/// The anchor (relative to A's current centre; B's is `ra - ab`) lies on the
/// line of action through the incident point, the same world point for both
/// bodies.
#[inline(always)]
fn current_geometry(
    p: &ConstraintPoint,
    ba: &SolverBody,
    bb: &SolverBody,
) -> (f32, Vec2, Vec2, Vec2) {
    // Current centre of B relative to the current centre of A.
    let ab = (p.ra - p.rb) + (bb.dp - ba.dp);
    let pa = ba.dq.apply(p.fa);
    let pb = ab + bb.dq.apply(p.fb);
    // The anchor is midway between the two surfaces, on the normal through
    // the point-carrying core point (friction acts there, at the surface).
    match p.kind {
        FeatureKind::PlaneA => {
            let n = ba.dq.apply(p.fnormal);
            let (s, n) = match face_to_point(pa, n, p.flength, pb) {
                Some(e) => points(e, pb, p.radius, n),
                None => (n.dot(pb - pa) - p.radius, n),
            };
            (s, n, pb - (p.point_radius + 0.5 * s) * n, ab)
        }
        FeatureKind::PlaneB => {
            let n = bb.dq.apply(p.fnormal);
            let (s, n) = match face_to_point(pb, n, p.flength, pa) {
                Some(e) => points(pa, e, p.radius, -n),
                None => (n.dot(pa - pb) - p.radius, -n),
            };
            (s, n, pa + (p.point_radius + 0.5 * s) * n, ab)
        }
        FeatureKind::Points => {
            let (s, n) = points(pa, pb, p.radius, ba.dq.apply(p.fnormal));
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
/// [`current_geometry`]). Returns the deepest separation seen (m).
///
/// Each point's target is to remove `β·(s + slop)` of its penetration, at most
/// `max_correction`. A two-point manifold is corrected as a block (both
/// pseudo-impulses from one 2×2 solve, kept non-negative): correcting its
/// points one after the other turns the body a little at every pass, which
/// over a 100-box column adds up to a lean and a collapse; the block solve
/// lifts a level box level.
pub(crate) fn solve_positions(
    constraints: &[ContactConstraint],
    bodies: &mut [SolverBody],
    prm: &SolverParams,
) -> f32 {
    let mut min_sep = 0.0f32;
    let target =
        |s: f32| (prm.position_correction * (s + prm.linear_slop)).clamp(-prm.max_correction, 0.0);
    for c in constraints {
        let (mut ba, mut bb) = pair_mut(bodies, c.a, c.b);
        if c.count == 2 {
            let g1 = position_point(&c.points[0], &ba, &bb);
            let g2 = position_point(&c.points[1], &ba, &bb);
            min_sep = min_sep.min(g1.s).min(g2.s);
            let (c1, c2) = (target(g1.s), target(g2.s));
            if c1 < 0.0 || c2 < 0.0 {
                let [l1, l2] = block_correction(&g1, &g2, c1, c2, &ba, &bb);
                push_apart(&mut ba, &mut bb, &g1, l1);
                push_apart(&mut ba, &mut bb, &g2, l2);
                write_back(bodies, c.a, c.b, ba, bb);
            }
            continue;
        }
        for p in &c.points[..c.count] {
            let g = position_point(p, &ba, &bb);
            min_sep = min_sep.min(g.s);
            let correction = target(g.s);
            if correction >= 0.0 {
                continue;
            }
            let (rna, rnb) = (cross(g.ra, g.n), cross(g.rb, g.n));
            let k =
                ba.inv_mass + bb.inv_mass + ba.inv_inertia * rna * rna + bb.inv_inertia * rnb * rnb;
            if k > 0.0 {
                push_apart(&mut ba, &mut bb, &g, -correction / k);
            }
        }
        write_back(bodies, c.a, c.b, ba, bb);
    }
    min_sep
}

/// A point's current separation, normal and anchors, for the position pass.
struct PositionPoint {
    s: f32,
    n: Vec2,
    ra: Vec2,
    rb: Vec2,
}

#[inline(always)]
fn position_point(p: &ConstraintPoint, ba: &SolverBody, bb: &SolverBody) -> PositionPoint {
    let (s, n, ra, ab) = current_geometry(p, ba, bb);
    PositionPoint {
        s,
        n,
        ra,
        rb: ra - ab,
    }
}

/// Moves and turns both bodies by a pseudo-impulse `lambda` along the point's
/// normal: positions only, no velocity (and so no energy) is added.
#[inline(always)]
fn push_apart(ba: &mut SolverBody, bb: &mut SolverBody, g: &PositionPoint, lambda: f32) {
    if lambda <= 0.0 {
        return;
    }
    let impulse = lambda * g.n;
    ba.dp -= ba.inv_mass * impulse;
    ba.dq = ba.dq.integrate(-ba.inv_inertia * cross(g.ra, impulse));
    bb.dp += bb.inv_mass * impulse;
    bb.dq = bb.dq.integrate(bb.inv_inertia * cross(g.rb, impulse));
}

/// The two pseudo-impulses `λ ≥ 0` of a two-point manifold's position
/// correction: `K·λ = -c` on the points that push (`c ≤ 0` is each point's
/// target change of separation), by the same case enumeration as the
/// velocity block solver. A point whose target is met by its partner's push
/// gets none.
#[inline(always)]
fn block_correction(
    g1: &PositionPoint,
    g2: &PositionPoint,
    c1: f32,
    c2: f32,
    ba: &SolverBody,
    bb: &SolverBody,
) -> [f32; 2] {
    let (a1, b1) = (cross(g1.ra, g1.n), cross(g1.rb, g1.n));
    let (a2, b2) = (cross(g2.ra, g2.n), cross(g2.rb, g2.n));
    let im = ba.inv_mass + bb.inv_mass;
    let k11 = im + ba.inv_inertia * a1 * a1 + bb.inv_inertia * b1 * b1;
    let k22 = im + ba.inv_inertia * a2 * a2 + bb.inv_inertia * b2 * b2;
    let k12 = im * g1.n.dot(g2.n) + ba.inv_inertia * a1 * a2 + bb.inv_inertia * b1 * b2;
    if k11 <= 0.0 || k22 <= 0.0 {
        return [0.0; 2];
    }
    let (r1, r2) = (-c1, -c2);
    // Both points push (a well-conditioned K only: nearly coincident points
    // fall through to one point pushing).
    let det = k11 * k22 - k12 * k12;
    if det > 1e-3 * k11 * k22 {
        let l1 = (k22 * r1 - k12 * r2) / det;
        let l2 = (k11 * r2 - k12 * r1) / det;
        if l1 >= 0.0 && l2 >= 0.0 {
            return [l1, l2];
        }
    }
    // One point pushes, and the other's target is met by it.
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

/// Restitution: bounce points whose approach speed exceeded the threshold and
/// that carried load this step.
pub(crate) fn apply_restitution(
    constraints: &mut [ContactConstraint],
    bodies: &mut [SolverBody],
    prm: &SolverParams,
) {
    for c in constraints.iter_mut() {
        if c.restitution == 0.0 {
            continue;
        }
        let (mut ba, mut bb) = pair_mut(bodies, c.a, c.b);
        let count = c.count;
        for p in &mut c.points[..count] {
            if p.approach > -prm.restitution_threshold || p.max_normal_impulse == 0.0 {
                continue;
            }
            let (n, ra, rb) = (p.cn, p.cra, p.crb);
            let dv = bb.v + cross_sv(bb.w, rb) - ba.v - cross_sv(ba.w, ra);
            let vn = dv.dot(n);
            let new = (p.normal_impulse - p.cmass * (vn + c.restitution * p.approach)).max(0.0);
            let delta = new - p.normal_impulse;
            p.normal_impulse = new;
            p.max_normal_impulse = p.max_normal_impulse.max(new);
            apply(&mut ba, &mut bb, ra, rb, delta * n);
        }
        write_back(bodies, c.a, c.b, ba, bb);
    }
}
