//! The lane kernels of one contact point, shared by the bundles of two-point
//! manifolds (`velocity`, `position`) and of one-point manifolds (`single`):
//! a point's anchor update, speeds and impulses along a direction, friction,
//! and the position pass's push and its target.

use super::*;

/// What the anchor update of a substep reads for a bundle: the bodies, their
/// poses, the poses the current velocities lead to (`None` when no lane
/// needs the second-order term), the lanes that take that term (`curved`)
/// and those that start the substep without the warm start (`fresh`).
pub(super) struct Substep<'a> {
    /// The lanes' bodies A and B (velocities, inverse masses).
    pub ba: &'a BodyW,
    pub bb: &'a BodyW,
    /// Their pose changes since the step began.
    pub qa: &'a PoseW,
    pub qb: &'a PoseW,
    /// Their poses after `h` at the current velocities.
    pub predicted: Option<&'a (PoseW, PoseW)>,
    /// Lane masks: second-order term; no warm start.
    pub curved: F,
    pub fresh: F,
    /// The substep (s), its inverse (1/s, 0 for `h = 0`) and the cap on a
    /// separating target (m/s).
    pub h: F,
    pub inv_h: F,
    pub max_push: F,
}

/// One point's anchors, normal, effective masses and bias from the current
/// poses, as the loop body of `super::super::update_one`; returns the
/// normal's lever arms and the normal, for the block matrix, and the
/// separation and the anchor about A's and B's centres.
#[inline(always)]
pub(super) fn point_anchors<const FACES: u8>(
    p: &mut PointW,
    q: &mut PointS,
    g: &GeometryBundle,
    k: usize,
    st: &Substep,
) -> (F, F, V2, F, V2, V2) {
    let (ba, bb) = (st.ba, st.bb);
    p.normal_impulse = select(st.fresh, F::ZERO, p.normal_impulse);
    p.tangent_impulse = select(st.fresh, F::ZERO, p.tangent_impulse);
    let (s, n, ra, ab) = lane_geometry::<FACES>(g, k, st.qa, st.qb);
    let rb = ra - ab;
    let mut curve = F::ZERO;
    if let Some((qa1, qb1)) = st.predicted {
        let (s1, ..) = lane_geometry::<FACES>(g, k, qa1, qb1);
        let dv = relative_velocity(ba, bb, ra, rb);
        curve = select(st.curved, s1 - s - st.h * dv.dot(n), F::ZERO);
    }
    let im = ba.inv_mass + bb.inv_mass;
    let (rna, rnb) = (cross(ra, n), cross(rb, n));
    let k = im + ba.inv_inertia * rna * rna + bb.inv_inertia * rnb * rnb;
    q.mass = inv_or_zero(k);
    q.bias = max((max(s, F::ZERO) + curve) * st.inv_h, -st.max_push);
    p.normal = n;
    let t = tangent(n);
    (p.arm_na, p.arm_nb) = (rna, rnb);
    (p.arm_ta, p.arm_tb) = (cross(ra, t), cross(rb, t));
    let kt = im + ba.inv_inertia * p.arm_ta * p.arm_ta + bb.inv_inertia * p.arm_tb * p.arm_tb;
    q.tangent_mass = select(st.fresh, inv_or_zero(kt), q.tangent_mass);
    (rna, rnb, n, s, ra, rb)
}

/// `super::super::tangent` in lanes.
#[inline(always)]
pub(super) fn tangent(n: V2) -> V2 {
    V2::new(n.y, -n.x)
}

/// `super::super::speed` in lanes.
#[inline(always)]
pub(super) fn speed(ba: &BodyW, bb: &BodyW, dir: V2, arm_a: F, arm_b: F) -> F {
    (bb.v - ba.v).dot(dir) + (bb.w * arm_b - ba.w * arm_a)
}

/// `super::super::apply` in lanes.
#[inline(always)]
pub(super) fn apply(ba: &mut BodyW, bb: &mut BodyW, dir: V2, arm_a: F, arm_b: F, lambda: F) {
    let impulse = lambda * dir;
    ba.v = ba.v - ba.inv_mass * impulse;
    ba.w -= ba.inv_inertia * (lambda * arm_a);
    bb.v = bb.v + bb.inv_mass * impulse;
    bb.w += bb.inv_inertia * (lambda * arm_b);
}

/// Relative velocity at a point, as in the scalar anchor update.
#[inline(always)]
pub(super) fn relative_velocity(ba: &BodyW, bb: &BodyW, ra: V2, rb: V2) -> V2 {
    bb.v + cross_sv(bb.w, rb) - ba.v - cross_sv(ba.w, ra)
}

/// `super::super::solve_friction` in lanes.
#[inline(always)]
pub(super) fn solve_friction(
    friction: F,
    p: &mut PointW,
    q: &PointS,
    ba: &mut BodyW,
    bb: &mut BodyW,
) {
    let t = tangent(p.normal);
    let vt = speed(ba, bb, t, p.arm_ta, p.arm_tb);
    let max_f = friction * p.normal_impulse;
    let new = clamp(p.tangent_impulse - q.tangent_mass * vt, -max_f, max_f);
    let delta = new - p.tangent_impulse;
    p.tangent_impulse = new;
    apply(ba, bb, t, p.arm_ta, p.arm_tb, delta);
}

/// One point's normal impulse, clamped at zero (`super::super::solve_one`'s
/// point-by-point step, and a one-point manifold's normal solve) in lanes.
#[inline(always)]
pub(super) fn solve_point_normal(p: &mut PointW, q: &mut PointS, ba: &mut BodyW, bb: &mut BodyW) {
    let vn = speed(ba, bb, p.normal, p.arm_na, p.arm_nb);
    let new = max(p.normal_impulse - q.mass * (vn + q.bias), F::ZERO);
    let delta = new - p.normal_impulse;
    p.normal_impulse = new;
    q.max_normal_impulse = max(q.max_normal_impulse, new);
    apply(ba, bb, p.normal, p.arm_na, p.arm_nb, delta);
}

/// Rolling resistance in the lanes that have some (see
/// `super::super::solve_one`): a torque impulse bounded by the rolling arm
/// times `load`, the manifold's normal impulse.
#[inline(always)]
pub(super) fn solve_rolling(
    c: &mut VelocityBundle,
    s: &SolveBundle,
    load: F,
    ba: &mut BodyW,
    bb: &mut BodyW,
) {
    let rolls = gt(c.rolling_arm, F::ZERO);
    if !rolls.any() {
        return;
    }
    let cap = c.rolling_arm * load;
    let new = clamp(
        c.rolling_impulse - s.angular_mass * (bb.w - ba.w),
        -cap,
        cap,
    );
    let delta = new - c.rolling_impulse;
    c.rolling_impulse = select(rolls, new, c.rolling_impulse);
    // Lanes without resistance keep their spins bit for bit (adding a zero
    // would turn a spin of -0 into +0).
    ba.w = select(rolls, ba.w - ba.inv_inertia * delta, ba.w);
    bb.w = select(rolls, bb.w + bb.inv_inertia * delta, bb.w);
}

/// `super::super::push_apart` in lanes: lanes with `lambda ≤ 0` keep their poses.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // the scalar routine's arguments, spread
pub(super) fn push_apart(
    ba: &BodyW,
    bb: &BodyW,
    qa: &mut PoseW,
    qb: &mut PoseW,
    n: V2,
    ra: V2,
    rb: V2,
    lambda: F,
) {
    let push = gt(lambda, F::ZERO);
    if !push.any() {
        return;
    }
    let (a, b) = PoseW::pushed(
        qa,
        qb,
        (ba.inv_mass, ba.inv_inertia),
        (bb.inv_mass, bb.inv_inertia),
        (ra, rb),
        lambda * n,
    );
    if push.all() {
        (*qa, *qb) = (a, b);
    } else {
        *qa = PoseW::select(push, &a, qa);
        *qb = PoseW::select(push, &b, qb);
    }
}

/// How much of a lane's penetration one correction removes: the fraction
/// `beta` of its error past the slop, and of what lies deeper than `deep`
/// (m) also half the rest; see `super::super::position_constraint`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fraction {
    pub beta: F,
    pub deep: F,
}

impl Fraction {
    /// The fraction of `prm`, in every lane.
    #[cfg(test)]
    #[inline(always)]
    pub(crate) fn of(prm: &SolverParams) -> Fraction {
        Fraction {
            beta: F::splat(prm.position_correction),
            deep: F::splat(prm.deep_penetration),
        }
    }

    /// A lane's target change of separation at separation `s` (`≤ 0`),
    /// at most `max_correction`.
    #[inline(always)]
    pub(super) fn target(self, s: F, prm: &SolverParams) -> F {
        let excess = max(F::ZERO, -(s + self.deep));
        clamp(
            self.beta * (s + F::splat(prm.linear_slop))
                - F::splat(0.5) * (F::ONE - self.beta) * excess,
            F::splat(-prm.max_correction),
            F::ZERO,
        )
    }
}
