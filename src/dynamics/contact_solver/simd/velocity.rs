//! The velocity passes over the bundles: the anchors' update at each
//! substep, warm starting and the normal and friction impulses, a bundle at
//! a time.

use super::point::{
    apply, point_anchors, relative_velocity, solve_friction, solve_point_normal, solve_rolling,
    speed, tangent, Substep,
};
use super::*;

/// At the start of a substep `h`, recomputes every point's anchors, normal,
/// effective mass and velocity bias from the current poses, with separating
/// targets capped at `max_push` (m/s) (see `super::update_one`), and applies
/// the accumulated impulses (the warm start), in one pass over the bundles:
/// each bundle is updated and warm started while its lanes are in cache,
/// instead of the bundles being streamed once for each. The anchors read
/// the bodies' velocities from `before`, a copy of `bodies` taken before
/// the pass, as a pass of updates ahead of every warm start would read
/// them, so the results are those two passes' bit for bit.
pub(crate) fn update_and_warm_start(
    constraints: &mut ContactBundles,
    before: &[SolverBody],
    bodies: &mut [SolverBody],
    poses: &[SolverPose],
    h: f32,
    max_push: f32,
    quiet: Quiet,
) {
    let (single, still) = (&constraints.single, &mut constraints.still);
    let n = constraints.len;
    let (cs, ss, gs) = (
        &mut constraints.velocity[..n],
        &mut constraints.solve[..n],
        &constraints.geometry[..n],
    );
    // The bundles whose anchors a later substep keeps, marked as the first
    // one sets them (`update_bundle`): those read no geometry then, nor the
    // part of their velocity data that only the velocity iterations read
    // (see `VelocityBundle`).
    let marking = matches!(quiet, Quiet::Mark { .. });
    if marking {
        still.clear();
        still.resize(cs.len(), false);
    }
    let keeping = quiet == Quiet::Keep && still.len() == cs.len();
    for i in 0..cs.len() {
        let ahead = i + super::ahead::AHEAD;
        if let Some(next) = gs.get(ahead) {
            let single = single[ahead];
            if !(keeping && still[ahead]) {
                next.prefetch(single);
                ss[ahead].prefetch(single);
            }
            cs[ahead].prefetch(single);
        }
        let (c, s, g) = (&mut cs[i], &mut ss[i], &gs[i]);
        debug_assert!(
            !keeping || still[i] == (!c.single && s.quiet == lanes_mask(c.fill)),
            "a still bundle's mark out of date"
        );
        // A still bundle keeps every lane's anchors: its update would
        // change nothing.
        if !(keeping && still[i]) {
            update_bundle(c, s, g, before, poses, h, max_push, quiet);
        }
        if marking {
            still[i] = !c.single && s.quiet == lanes_mask(c.fill);
        }
        warm_start_bundle(c, bodies);
    }
}

/// The anchor update of one bundle (see [`update_and_warm_start`]); `h = 0`
/// (before restitution) leaves no bias.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // the scalar routine's arguments, spread
pub(super) fn update_bundle(
    c: &mut VelocityBundle,
    s: &mut SolveBundle,
    g: &GeometryBundle,
    bodies: &[SolverBody],
    poses: &[SolverPose],
    h: f32,
    max_push: f32,
    quiet: Quiet,
) {
    let inv_h = if h > 0.0 { 1.0 / h } else { 0.0 };
    let step = (h, inv_h, max_push);
    if c.single {
        // One-point manifolds are never quiet.
        super::single::update_single(c, s, g, bodies, poses, step);
        return;
    }
    let keep = if quiet == Quiet::Keep { s.quiet } else { 0 };
    if keep == 0 {
        update_block(c, s, g, bodies, poses, step, quiet);
    } else if keep != lanes_mask(c.fill) {
        let (old, old_s) = (*c, *s);
        update_block(c, s, g, bodies, poses, step, quiet);
        c.keep_lanes(s, &old, &old_s, keep);
    }
}

/// The anchor update of a two-point bundle in lanes, every lane (the
/// caller puts back the quiet ones; see [`update_bundle`]).
/// `step`: the substep, its inverse and the cap on a separating target.
#[inline(always)]
pub(super) fn update_block(
    c: &mut VelocityBundle,
    s: &mut SolveBundle,
    g: &GeometryBundle,
    bodies: &[SolverBody],
    poses: &[SolverPose],
    step: (f32, f32, f32),
    quiet: Quiet,
) {
    let (c, g, b, q) = (c, g, bodies, poses);
    match g.faces {
        FACES_A => update_block_on::<FACES_A>(c, s, g, b, q, step, quiet),
        FACES_B => update_block_on::<FACES_B>(c, s, g, b, q, step, quiet),
        FACES_MIXED => update_block_on::<FACES_MIXED>(c, s, g, b, q, step, quiet),
        _ => update_block_on::<FACES_ANY>(c, s, g, b, q, step, quiet),
    }
}

/// [`update_block`] for bundles whose features are as `FACES` says.
#[inline(always)]
pub(super) fn update_block_on<const FACES: u8>(
    c: &mut VelocityBundle,
    s: &mut SolveBundle,
    g: &GeometryBundle,
    bodies: &[SolverBody],
    poses: &[SolverPose],
    (h, inv_h, max_push): (f32, f32, f32),
    quiet: Quiet,
) {
    let (ba, bb) = (
        BodyW::gather_velocities(bodies, &g.a, g.inv_mass_a, g.inv_inertia_a),
        BodyW::gather_velocities(bodies, &g.b, g.inv_mass_b, g.inv_inertia_b),
    );
    let (qa, qb) = (PoseW::gather(poses, &g.a), PoseW::gather(poses, &g.b));
    // Turning pairs get the second-order term of the predicted separation.
    let curved = if h > 0.0 {
        gt(ba.w.abs() + bb.w.abs(), F::splat(TURNING_SPIN))
    } else {
        F::ZERO
    };
    let predicted = curved.any().then(|| {
        (
            qa.integrate(&ba, F::splat(h)),
            qb.integrate(&bb, F::splat(h)),
        )
    });
    let inv_h = F::splat(inv_h);
    let max_push = F::splat(max_push);
    // See `super::super::velocity::update_one`: fast-turning pairs start
    // the substep without the warm start.
    let fresh = gt(
        F::splat(h) * (ba.w.abs() + bb.w.abs()),
        F::splat(super::super::velocity::FAST_TURN),
    ) | gt(s.impact, F::splat(0.5));
    c.rolling_impulse = select(fresh, F::ZERO, c.rolling_impulse);
    let step = Substep {
        ba: &ba,
        bb: &bb,
        qa: &qa,
        qb: &qb,
        predicted: predicted.as_ref(),
        curved,
        fresh,
        h: F::splat(h),
        inv_h,
        max_push,
    };
    let anchors =
        |p: &mut PointW, q: &mut PointS, k: usize| point_anchors::<FACES>(p, q, g, k, &step);
    let ([p1, p2], [q1, q2]) = (&mut c.points, &mut s.points);
    let (a1, b1, n1, s1, ra1, rb1) = anchors(p1, q1, 0);
    let (a2, b2, n2, s2, ra2, rb2) = anchors(p2, q2, 1);
    if let Quiet::Mark { depth, span } = quiet {
        let (depth, span) = (F::splat(depth), F::splat(span));
        let steady = |s: F, n: V2, ra: V2, rb: V2| {
            let vn = relative_velocity(&ba, &bb, ra, rb).dot(n);
            lt(s, -depth) | lt(vn.abs() * span, depth)
        };
        let steady = steady(s1, n1, ra1, rb1) & steady(s2, n2, ra2, rb2);
        let resting = !curved & !fresh & steady;
        s.quiet = resting.to_bitmask() as u8 & lanes_mask(c.fill);
    }
    // `super::block_matrix` in lanes.
    let im = ba.inv_mass + bb.inv_mass;
    let k11 = im + ba.inv_inertia * a1 * a1 + bb.inv_inertia * b1 * b1;
    let k22 = im + ba.inv_inertia * a2 * a2 + bb.inv_inertia * b2 * b2;
    let k12 = im * n1.dot(n2) + ba.inv_inertia * a1 * a2 + bb.inv_inertia * b1 * b2;
    let det = k11 * k22 - k12 * k12;
    let condition = F::splat(super::super::MAX_CONDITION) * det;
    let ok = gt(k11, F::ZERO) & gt(k22, F::ZERO) & lt(k11 * k11, condition);
    (s.k11, s.k12, s.k22, s.inv_det) = (k11, k12, k22, F::ONE / det);
    s.block_ok = ok.to_bitmask() as u8;
    let used = lanes_mask(c.fill);
    s.all_block = s.block_ok & used == used;
}

/// The warm start of one bundle in lanes.
#[inline(always)]
pub(super) fn warm_start_bundle(c: &VelocityBundle, bodies: &mut [SolverBody]) {
    let (mut ba, mut bb) = c.gather(bodies);
    let points = if c.single { 1 } else { 2 };
    for p in &c.points[..points] {
        let (n, t) = (p.normal, tangent(p.normal));
        let impulse = p.normal_impulse * n + p.tangent_impulse * t;
        ba.v = ba.v - ba.inv_mass * impulse;
        ba.w -= ba.inv_inertia * (p.normal_impulse * p.arm_na + p.tangent_impulse * p.arm_ta);
        bb.v = bb.v + bb.inv_mass * impulse;
        bb.w += bb.inv_inertia * (p.normal_impulse * p.arm_nb + p.tangent_impulse * p.arm_tb);
    }
    // The rolling resistance's torque impulse, in the lanes that have some
    // (the others keep their spins bit for bit).
    let rolls = gt(c.rolling_arm, F::ZERO);
    if rolls.any() {
        ba.w = select(rolls, ba.w - ba.inv_inertia * c.rolling_impulse, ba.w);
        bb.w = select(rolls, bb.w + bb.inv_inertia * c.rolling_impulse, bb.w);
    }
    c.scatter(&ba, &bb, bodies);
}

/// One velocity pass over all contacts; see `super::solve_one`. Two
/// independent bundles in a row are solved side by side, which lets the CPU
/// overlap their dependency chains; each body still sees the same
/// operations in the same order.
pub(crate) fn solve_velocities(constraints: &mut ContactBundles, bodies: &mut [SolverBody]) {
    let n = constraints.len;
    let (cs, ss, single) = (
        &mut constraints.velocity[..n],
        &mut constraints.solve[..n],
        &constraints.single,
    );
    let mut i = 0;
    let mut asked = 0;
    while i < cs.len() {
        // The bundles this step and the next will reach, asked for ahead.
        while asked < (i + 2 + super::ahead::AHEAD).min(cs.len()) {
            cs[asked].prefetch(single[asked]);
            ss[asked].prefetch(single[asked]);
            asked += 1;
        }
        if let ([c1, c2, ..], [s1, s2, ..]) = (&mut cs[i..], &mut ss[i..]) {
            if c1.independent_of_next && c1.single == c2.single {
                if c1.single {
                    super::single::solve_single_pair((c1, s1), (c2, s2), bodies);
                } else {
                    solve_pair((c1, s1), (c2, s2), bodies);
                }
                i += 2;
                continue;
            }
        }
        let (c, s) = (&mut cs[i], &mut ss[i]);
        if c.single {
            super::single::solve_single(c, s, bodies);
        } else {
            solve_bundle(c, s, bodies);
        }
        i += 1;
    }
}

/// The velocity pass of one bundle in lanes: friction at both points, then
/// the normal impulses.
#[inline(always)]
pub(super) fn solve_bundle(c: &mut VelocityBundle, s: &mut SolveBundle, bodies: &mut [SolverBody]) {
    let (mut ba, mut bb) = c.gather(bodies);
    let friction = s.friction;
    let ([p1, p2], [q1, q2]) = (&mut c.points, &s.points);
    solve_friction(friction, p1, q1, &mut ba, &mut bb);
    solve_friction(friction, p2, q2, &mut ba, &mut bb);
    solve_normal(c, s, &mut ba, &mut bb);
    solve_rolling_two(c, s, &mut ba, &mut bb);
    c.scatter(&ba, &bb, bodies);
}

/// A two-point bundle's rolling resistance, bounded by both points' load.
#[inline(always)]
fn solve_rolling_two(c: &mut VelocityBundle, s: &SolveBundle, ba: &mut BodyW, bb: &mut BodyW) {
    let load = c.points[0].normal_impulse + c.points[1].normal_impulse;
    solve_rolling(c, s, load, ba, bb);
}

/// The normal impulses of a two-point bundle, as `super::solve_one`: the
/// 2×2 block in the lanes whose block matrix is well conditioned this
/// substep, point after point in the others. A bundle with lanes of both
/// kinds computes both in every lane and keeps each lane's own (the
/// discarded lanes may hold anything, even NaN; nothing of them is kept).
#[inline(always)]
fn solve_normal(c: &mut VelocityBundle, s: &mut SolveBundle, ba: &mut BodyW, bb: &mut BodyW) {
    if s.all_block {
        solve_normal_block(c, s, ba, bb);
        return;
    }
    let (mut sa, mut sb, mut points, mut rest) = (*ba, *bb, c.points, s.points);
    for (p, q) in points.iter_mut().zip(&mut rest) {
        solve_point_normal(p, q, &mut sa, &mut sb);
    }
    if s.block_ok == 0 {
        (*ba, *bb) = (sa, sb);
        for (p, x) in c.points.iter_mut().zip(&points) {
            p.normal_impulse = x.normal_impulse;
        }
        for (q, x) in s.points.iter_mut().zip(&rest) {
            q.max_normal_impulse = x.max_normal_impulse;
        }
        return;
    }
    solve_normal_block(c, s, ba, bb);
    let block = lanes_of(s.block_ok);
    *ba = BodyW::select(block, ba, &sa);
    *bb = BodyW::select(block, bb, &sb);
    for (p, x) in c.points.iter_mut().zip(&points) {
        p.normal_impulse = select(block, p.normal_impulse, x.normal_impulse);
    }
    for (q, x) in s.points.iter_mut().zip(&rest) {
        q.max_normal_impulse = select(block, q.max_normal_impulse, x.max_normal_impulse);
    }
}

/// The lane mask (all ones in lane `l` where bit `l` is set) of `bits`.
#[inline(always)]
fn lanes_of(bits: u8) -> F {
    let on = f32::from_bits(u32::MAX);
    F::new(std::array::from_fn(|l| {
        if bits & (1 << l) != 0 {
            on
        } else {
            0.0
        }
    }))
}

/// [`solve_bundle`] on two independent bundles, interleaved step by step.
#[inline(always)]
pub(super) fn solve_pair(
    (c1, s1): (&mut VelocityBundle, &mut SolveBundle),
    (c2, s2): (&mut VelocityBundle, &mut SolveBundle),
    bodies: &mut [SolverBody],
) {
    let (mut a1, mut b1) = c1.gather(bodies);
    let (mut a2, mut b2) = c2.gather(bodies);
    let (f1, f2) = (s1.friction, s2.friction);
    {
        let ([p11, p12], [p21, p22]) = (&mut c1.points, &mut c2.points);
        let ([q11, q12], [q21, q22]) = (&s1.points, &s2.points);
        solve_friction(f1, p11, q11, &mut a1, &mut b1);
        solve_friction(f2, p21, q21, &mut a2, &mut b2);
        solve_friction(f1, p12, q12, &mut a1, &mut b1);
        solve_friction(f2, p22, q22, &mut a2, &mut b2);
    }
    solve_normal(c1, s1, &mut a1, &mut b1);
    solve_normal(c2, s2, &mut a2, &mut b2);
    solve_rolling_two(c1, s1, &mut a1, &mut b1);
    solve_rolling_two(c2, s2, &mut a2, &mut b2);
    c1.scatter(&a1, &b1, bodies);
    c2.scatter(&a2, &b2, bodies);
}

/// `super::solve_normal_block` in lanes: the four cases of the 2×2 LCP are
/// all computed and the first that holds is selected, in the scalar order.
#[inline(always)]
pub(super) fn solve_normal_block(
    c: &mut VelocityBundle,
    s: &mut SolveBundle,
    ba: &mut BodyW,
    bb: &mut BodyW,
) {
    let ([p1, p2], [q1, q2]) = (&mut c.points, &mut s.points);
    let vn1 = speed(ba, bb, p1.normal, p1.arm_na, p1.arm_nb) + q1.bias;
    let vn2 = speed(ba, bb, p2.normal, p2.arm_na, p2.arm_nb) + q2.bias;
    let (k11, k12, k22) = (s.k11, s.k12, s.k22);
    let (ax, ay) = (p1.normal_impulse, p2.normal_impulse);
    let bx = vn1 - (k11 * ax + k12 * ay);
    let by = vn2 - (k12 * ax + k22 * ay);
    let zero = F::ZERO;
    // Both points active.
    let both_x = -(k22 * bx - k12 * by) * s.inv_det;
    let both_y = -(k11 * by - k12 * bx) * s.inv_det;
    let both = ge(both_x, zero) & ge(both_y, zero);
    // Only point 1, only point 2, neither.
    let x1 = -bx * q1.mass;
    let only1 = ge(x1, zero) & ge(k12 * x1 + by, zero);
    let x2 = -by * q2.mass;
    let only2 = ge(x2, zero) & ge(k12 * x2 + bx, zero);
    let none = ge(bx, zero) & ge(by, zero);
    // No case fits (rounding): keep the impulses.
    let mut x = select(none, zero, ax);
    let mut y = select(none, zero, ay);
    x = select(only2, zero, x);
    y = select(only2, x2, y);
    x = select(only1, x1, x);
    y = select(only1, zero, y);
    x = select(both, both_x, x);
    y = select(both, both_y, y);
    let (dx, dy) = (x - ax, y - ay);
    p1.normal_impulse = x;
    p2.normal_impulse = y;
    q1.max_normal_impulse = max(q1.max_normal_impulse, x);
    q2.max_normal_impulse = max(q2.max_normal_impulse, y);
    apply(ba, bb, p1.normal, p1.arm_na, p1.arm_nb, dx);
    apply(ba, bb, p2.normal, p2.arm_na, p2.arm_nb, dy);
}
