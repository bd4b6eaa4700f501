//! The velocity pass of a contact, one constraint at a time: warm start, the
//! anchors' update at each substep, the normal impulses (one point, or two as a
//! 2×2 block) and friction.

use super::*;

#[inline]
pub(super) fn pair(bodies: &[SolverBody], a: u32, b: u32) -> (SolverBody, SolverBody) {
    (bodies[a as usize], bodies[b as usize])
}

#[inline]
pub(super) fn write_back(
    bodies: &mut [SolverBody],
    a: u32,
    b: u32,
    ba: SolverBody,
    bb: SolverBody,
) {
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
#[cfg(test)]
pub(super) fn warm_one(c: &VelocityConstraint, bodies: &mut [SolverBody]) {
    let (mut ba, mut bb) = pair(bodies, c.a, c.b);
    for p in &c.points[..c.count as usize] {
        let (n, t) = (p.normal, tangent(p.normal));
        let impulse = p.normal_impulse * n + p.tangent_impulse * t;
        ba.v -= ba.inv_mass * impulse;
        ba.w -= ba.inv_inertia * (p.normal_impulse * p.arm_na + p.tangent_impulse * p.arm_ta);
        bb.v += bb.inv_mass * impulse;
        bb.w += bb.inv_inertia * (p.normal_impulse * p.arm_nb + p.tangent_impulse * p.arm_tb);
    }
    if c.rolling_arm > 0.0 {
        ba.w -= ba.inv_inertia * c.rolling_impulse;
        bb.w += bb.inv_inertia * c.rolling_impulse;
    }
    write_back(bodies, c.a, c.b, ba, bb);
}

/// Below this spin of either body (rad/s) a two-point manifold's second-order
/// separation change over a substep (about ½·h²·ω²·r, under 1e-8 m here) is
/// left out, to spare its cost on resting stacks.
pub(super) const TURNING_SPIN: f32 = 0.05;

/// Turn (rad) of a pair within one substep, `h·(|ωa| + |ωb|)`, from which
/// its contacts start the substep afresh instead of warm started: last
/// substep's impulses were found at levers that have since swung far.
pub(crate) const FAST_TURN: f32 = 0.25;

/// How an anchor update treats the constraints resting quietly.
///
/// A two-point manifold whose pair turns slowly (no second-order term, no
/// fresh start) keeps the first substep's anchors, normals, masses and
/// biases for the rest of the step, as Box2D v3 keeps a contact's for the
/// whole step, when each of its points is steady: deeper than a quarter of
/// the linear slop (its bias is zero, and stays so unless the pair
/// separates at about 0.1 m/s or more; a separating pair takes no impulse),
/// or moving along the normal so slowly that its separation changes by
/// less than that depth over the step (the bias, its gap over `h`, stays
/// right to that depth). Slow turning moves the normals by under 1e-3 rad
/// per step. Resting stacks and piles are most of a large scene's contacts,
/// and the update was about a sixth of their solver's instructions (10.5 M
/// of 59 M a step on the large pyramid).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Quiet {
    /// The first substep: every constraint is updated, and those resting
    /// quietly are marked: `depth` (m), and `span` (s), the time left in
    /// the step after this substep.
    Mark { depth: f32, span: f32 },
    /// A later substep: the marked constraints keep their anchors.
    Keep,
    /// Every constraint is updated, the marks left as they are (before
    /// restitution).
    All,
}

/// Of the linear slop, the depth past which both points of a quietly
/// resting pair must be for [`Quiet::Mark`].
pub(crate) const QUIET_DEPTH: f32 = 0.25;

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
#[cfg(test)]
#[allow(clippy::too_many_arguments)] // the step's parameters of the update
pub(super) fn update_one(
    c: &mut VelocityConstraint,
    g: &ContactGeometry,
    bodies: &[SolverBody],
    poses: &[SolverPose],
    h: f32,
    inv_h: f32,
    max_push: f32,
    quiet: Quiet,
) {
    if quiet == Quiet::Keep && c.quiet {
        return;
    }
    let (ba, bb) = (&bodies[g.a as usize], &bodies[g.b as usize]);
    let (qa, qb) = (&poses[g.a as usize], &poses[g.b as usize]);
    let curved = h > 0.0 && (g.count == 1 || ba.w.abs() + bb.w.abs() > TURNING_SPIN);
    // A pair turning fast within the substep has moved its anchors far from
    // where last substep's impulses were found: applied at the new levers
    // they would be a wrong guess that can add energy, so it starts afresh.
    let fresh = c.impact || h * (ba.w.abs() + bb.w.abs()) > FAST_TURN;
    if fresh {
        c.rolling_impulse = 0.0;
    }
    let mut steady = true;
    for (p, f) in c.points.iter_mut().zip(&g.points[..g.count as usize]) {
        if fresh {
            p.normal_impulse = 0.0;
            p.tangent_impulse = 0.0;
        }
        let (s, n, ra, ab) = current_geometry(f, qa, qb);
        let rb = ra - ab;
        if let Quiet::Mark { depth, span } = quiet {
            let dv = bb.v + cross_sv(bb.w, rb) - ba.v - cross_sv(ba.w, ra);
            steady &= s < -depth || dv.dot(n).abs() * span < depth;
        }
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
        if fresh {
            // The levers have swung since the step began: the tangent mass
            // follows them, as the normal mass always does.
            let kt = ba.inv_mass
                + bb.inv_mass
                + ba.inv_inertia * p.arm_ta * p.arm_ta
                + bb.inv_inertia * p.arm_tb * p.arm_tb;
            p.tangent_mass = if kt > 0.0 { 1.0 / kt } else { 0.0 };
        }
    }
    if g.count == 2 {
        (c.k, c.block_ok) = block_matrix(&c.points[0], &c.points[1], ba, bb);
    }
    if let Quiet::Mark { .. } = quiet {
        c.quiet = g.count == 2 && !curved && !fresh && steady;
    }
}

/// The block solver's limit on the condition number of a two-point
/// manifold's effective-mass matrix.
pub(super) const MAX_CONDITION: f32 = 1000.0;

/// The effective-mass matrix `(k11, k12, k22)` of a two-point manifold on its
/// points' normals and anchors, and whether it is well enough conditioned for
/// the block solver: nearly coincident points make it singular, and those
/// fall back to sequential impulses (as Box2D).
#[cfg(test)]
#[inline(always)]
pub(super) fn block_matrix(
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
    #[cfg(test)]
    /// A two-point manifold whose normal impulses the block solver finds.
    #[inline]
    fn is_block(&self) -> bool {
        self.count == 2 && self.block_ok
    }

    #[cfg(test)]
    /// The normal load that bounds the rolling resistance: the manifold's
    /// normal impulses, summed.
    #[inline]
    pub(super) fn rolling_load(&self) -> f32 {
        match self.count {
            1 => self.points[0].normal_impulse,
            _ => self.points[0].normal_impulse + self.points[1].normal_impulse,
        }
    }
}

#[cfg(test)]
/// One constraint of the velocity pass.
#[inline]
pub(super) fn solve_one(c: &mut VelocityConstraint, bodies: &mut [SolverBody]) {
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
        let max = c.rolling_arm * c.rolling_load();
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

#[cfg(test)]
/// Coulomb friction at one point, bounded by the point's normal impulse.
#[inline(always)]
pub(super) fn solve_friction(
    friction: f32,
    p: &mut VelocityPoint,
    ba: &mut SolverBody,
    bb: &mut SolverBody,
) {
    let t = tangent(p.normal);
    let vt = speed(ba, bb, t, p.arm_ta, p.arm_tb);
    let max_f = friction * p.normal_impulse;
    let new = clamp(p.tangent_impulse - p.tangent_mass * vt, -max_f, max_f);
    let delta = new - p.tangent_impulse;
    p.tangent_impulse = new;
    apply(ba, bb, t, p.arm_ta, p.arm_tb, delta);
}

#[cfg(test)]
/// `f32::clamp`'s result (the same tests in the same order), without its
/// panic on a NaN bound: a body blowing up mid-step must reach the
/// write-back, where it is frozen and reported, not abort the step.
#[inline(always)]
pub(super) fn clamp(x: f32, lo: f32, hi: f32) -> f32 {
    let x = if x < lo { lo } else { x };
    if x > hi {
        hi
    } else {
        x
    }
}

#[cfg(test)]
/// The contact tangent of normal `n`: `n` turned a quarter clockwise.
#[inline(always)]
pub(super) fn tangent(n: Vec2) -> Vec2 {
    Vec2::new(n.y, -n.x)
}

/// Speed of B relative to A along `dir` at a point whose anchors have the
/// lever arms `arm_a = rA × dir`, `arm_b = rB × dir`:
/// `(vB + ωB × rB - vA - ωA × rA)·dir`.
#[inline(always)]
pub(super) fn speed(ba: &SolverBody, bb: &SolverBody, dir: Vec2, arm_a: f32, arm_b: f32) -> f32 {
    (bb.v - ba.v).dot(dir) + (bb.w * arm_b - ba.w * arm_a)
}

/// Applies the impulse `lambda·dir` to B and its opposite to A, at a point
/// with lever arms `arm_a`, `arm_b` along `dir` (see [`speed`]).
#[inline(always)]
pub(super) fn apply(
    ba: &mut SolverBody,
    bb: &mut SolverBody,
    dir: Vec2,
    arm_a: f32,
    arm_b: f32,
    lambda: f32,
) {
    let impulse = lambda * dir;
    ba.v -= ba.inv_mass * impulse;
    ba.w -= ba.inv_inertia * (lambda * arm_a);
    bb.v += bb.inv_mass * impulse;
    bb.w += bb.inv_inertia * (lambda * arm_b);
}

#[cfg(test)]
/// Solves both normal impulses of a two-point manifold at once: the 2×2 mixed
/// linear complementarity problem `vn = K·x + b, x ≥ 0, vn ≥ 0, x·vn = 0`, by
/// enumerating its four cases (both active, only 1, only 2, none). Sequential
/// impulses on the two points would load one corner first and tip the body;
/// the block solve keeps stacks square (Box2D v2.4 `b2ContactSolver`).
#[inline(always)]
pub(super) fn solve_normal_block(
    c: &mut VelocityConstraint,
    ba: &mut SolverBody,
    bb: &mut SolverBody,
) {
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
