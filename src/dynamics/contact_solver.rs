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
//! The velocity pass carries no Baumgarte bias: penetration is removed by the
//! position pass alone. References: E. Catto, "Iterative Dynamics with Temporal
//! Coherence" (2005), "Solver2D" (2024); Box2D v2.4 `b2ContactSolver` (NGS).

use super::body::Body;
use crate::collision::manifold::Manifold;
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
    /// Separation minus the anchors' normal offset at step start.
    base_separation: f32,
    normal_mass: f32,
    tangent_mass: f32,
    normal_impulse: f32,
    tangent_impulse: f32,
    max_normal_impulse: f32,
    /// Normal relative velocity at step start (negative = approaching).
    approach: f32,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct ContactConstraint {
    a: u32,
    b: u32,
    normal: Vec2,
    friction: f32,
    restitution: f32,
    points: [ConstraintPoint; 2],
    count: usize,
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
    pub fn new(
        contact: u32,
        a: u32,
        b: u32,
        body_a: &Body,
        body_b: &Body,
        sa: &SolverBody,
        sb: &SolverBody,
        m: &Manifold,
        friction: f32,
        restitution: f32,
    ) -> ContactConstraint {
        let n = m.normal;
        let t = Vec2::new(n.y, -n.x);
        let mut points = [ConstraintPoint::default(); 2];
        for (cp, mp) in points.iter_mut().zip(m.points()) {
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
            *cp = ConstraintPoint {
                ra,
                rb,
                base_separation: mp.separation - (rb - ra).dot(n),
                normal_mass: if kn > 0.0 { 1.0 / kn } else { 0.0 },
                tangent_mass: if kt > 0.0 { 1.0 / kt } else { 0.0 },
                normal_impulse: mp.normal_impulse,
                tangent_impulse: mp.tangent_impulse,
                max_normal_impulse: 0.0,
                approach: dv.dot(n),
            };
        }
        ContactConstraint {
            a,
            b,
            normal: n,
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
        let n = c.normal;
        let t = Vec2::new(n.y, -n.x);
        for p in &c.points[..c.count] {
            let impulse = p.normal_impulse * n + p.tangent_impulse * t;
            ba.v -= ba.inv_mass * impulse;
            ba.w -= ba.inv_inertia * cross(p.ra, impulse);
            bb.v += bb.inv_mass * impulse;
            bb.w += bb.inv_inertia * cross(p.rb, impulse);
        }
        write_back(bodies, c.a, c.b, ba, bb);
    }
}

/// Current separation of a point from the bodies' motion since step start.
#[inline]
fn current_separation(
    p: &ConstraintPoint,
    n: Vec2,
    ba: &SolverBody,
    bb: &SolverBody,
) -> (f32, Vec2, Vec2) {
    let ra = ba.dq.apply(p.ra);
    let rb = bb.dq.apply(p.rb);
    let d = (bb.dp - ba.dp) + (rb - ra);
    (d.dot(n) + p.base_separation, ra, rb)
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
        let n = c.normal;
        let t = Vec2::new(n.y, -n.x);
        let count = c.count;
        // Friction first: non-penetration matters more, so it has the last word.
        for p in &mut c.points[..count] {
            let dv = bb.v + cross_sv(bb.w, p.rb) - ba.v - cross_sv(ba.w, p.ra);
            let vt = dv.dot(t);
            let max_f = c.friction * p.normal_impulse;
            let new = (p.tangent_impulse - p.tangent_mass * vt).clamp(-max_f, max_f);
            let delta = new - p.tangent_impulse;
            p.tangent_impulse = new;
            let impulse = delta * t;
            ba.v -= ba.inv_mass * impulse;
            ba.w -= ba.inv_inertia * cross(p.ra, impulse);
            bb.v += bb.inv_mass * impulse;
            bb.w += bb.inv_inertia * cross(p.rb, impulse);
        }
        for p in &mut c.points[..count] {
            let (s, _, _) = current_separation(p, n, &ba, &bb);
            // Speculative: a gap may be closed this substep, but no faster.
            let bias = if s > 0.0 { s * inv_h } else { 0.0 };
            let dv = bb.v + cross_sv(bb.w, p.rb) - ba.v - cross_sv(ba.w, p.ra);
            let vn = dv.dot(n);
            let new = (p.normal_impulse - p.normal_mass * (vn + bias)).max(0.0);
            let delta = new - p.normal_impulse;
            p.normal_impulse = new;
            p.max_normal_impulse = p.max_normal_impulse.max(new);
            let impulse = delta * n;
            ba.v -= ba.inv_mass * impulse;
            ba.w -= ba.inv_inertia * cross(p.ra, impulse);
            bb.v += bb.inv_mass * impulse;
            bb.w += bb.inv_inertia * cross(p.rb, impulse);
        }
        write_back(bodies, c.a, c.b, ba, bb);
    }
}

/// One NGS position pass: pushes penetrating points apart along the normal,
/// recomputing the separation from the current poses. Returns the deepest
/// separation seen (m).
pub(crate) fn solve_positions(
    constraints: &[ContactConstraint],
    bodies: &mut [SolverBody],
    prm: &SolverParams,
) -> f32 {
    let mut min_sep = 0.0f32;
    for c in constraints {
        let (mut ba, mut bb) = pair_mut(bodies, c.a, c.b);
        let n = c.normal;
        for p in &c.points[..c.count] {
            let (s, ra, rb) = current_separation(p, n, &ba, &bb);
            min_sep = min_sep.min(s);
            let correction =
                (prm.position_correction * (s + prm.linear_slop)).clamp(-prm.max_correction, 0.0);
            if correction >= 0.0 {
                continue;
            }
            let rna = cross(ra, n);
            let rnb = cross(rb, n);
            let k =
                ba.inv_mass + bb.inv_mass + ba.inv_inertia * rna * rna + bb.inv_inertia * rnb * rnb;
            if k <= 0.0 {
                continue;
            }
            let impulse = (-correction / k) * n;
            ba.dp -= ba.inv_mass * impulse;
            ba.dq = ba.dq.integrate(-ba.inv_inertia * cross(ra, impulse));
            bb.dp += bb.inv_mass * impulse;
            bb.dq = bb.dq.integrate(bb.inv_inertia * cross(rb, impulse));
        }
        write_back(bodies, c.a, c.b, ba, bb);
    }
    min_sep
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
        let n = c.normal;
        let count = c.count;
        for p in &mut c.points[..count] {
            if p.approach > -prm.restitution_threshold || p.max_normal_impulse == 0.0 {
                continue;
            }
            let dv = bb.v + cross_sv(bb.w, p.rb) - ba.v - cross_sv(ba.w, p.ra);
            let vn = dv.dot(n);
            let new =
                (p.normal_impulse - p.normal_mass * (vn + c.restitution * p.approach)).max(0.0);
            let delta = new - p.normal_impulse;
            p.normal_impulse = new;
            p.max_normal_impulse = p.max_normal_impulse.max(new);
            let impulse = delta * n;
            ba.v -= ba.inv_mass * impulse;
            ba.w -= ba.inv_inertia * cross(p.ra, impulse);
            bb.v += bb.inv_mass * impulse;
            bb.w += bb.inv_inertia * cross(p.rb, impulse);
        }
        write_back(bodies, c.a, c.b, ba, bb);
    }
}
