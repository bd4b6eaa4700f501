//! The position pass of a contact: its current separation from the bodies'
//! poses (by feature geometry), the nonlinear Gauss–Seidel push apart (one
//! point, or two as a block), and the restitution pass.

use super::*;

/// A contact point's separation, normal (A → B) and anchor from the bodies'
/// current poses, by its feature geometry (see `manifold`): the face normal
/// turns with its body and a point–point normal follows the two core points.
/// The anchor (relative to A's current centre; B's is `ra - ab`) lies on the
/// line of action through the incident point, the same world point for both
/// bodies.
#[cfg(test)]
#[inline(always)]
pub(super) fn current_geometry(
    p: &FeaturePoint,
    qa: &SolverPose,
    qb: &SolverPose,
) -> (f32, Vec2, Vec2, Vec2) {
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
#[cfg(test)]
pub(super) struct PositionPoint {
    s: f32,
    n: Vec2,
    ra: Vec2,
    rb: Vec2,
}

#[cfg(test)]
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
/// Each point's target is to remove `β·(s + slop)` of its penetration, and
/// half the rest of what lies past `deep_penetration`, at most
/// `max_correction`. A two-point manifold is corrected as a block (both
/// pseudo-impulses from one 2×2 solve, kept non-negative): corrected point by
/// point, a box turns a little at every pass, and over a column of 100 boxes
/// that added up to a lean and a collapse; the block solve lifts a level box
/// level.
#[cfg(test)]
#[inline(always)]
pub(super) fn position_constraint(
    g: &ContactGeometry,
    ba: &SolverBody,
    bb: &SolverBody,
    qa: &mut SolverPose,
    qb: &mut SolverPose,
    prm: &SolverParams,
) {
    let target = |s: f32| {
        let excess = (-(s + prm.deep_penetration)).max(0.0);
        let beta = prm.position_correction;
        (beta * (s + prm.linear_slop) - 0.5 * (1.0 - beta) * excess).clamp(-prm.max_correction, 0.0)
    };
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
#[cfg(test)]
#[inline(always)]
pub(super) fn push_apart(
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
#[cfg(test)]
#[inline(always)]
pub(super) fn block_correction(
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
#[cfg(test)]
pub(super) fn position_one(
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
pub(super) fn restitution_one(
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
