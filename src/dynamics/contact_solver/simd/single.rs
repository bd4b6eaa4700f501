//! One-point manifolds in lanes: a circle or a capsule's end on a face,
//! two rounded cores (`FeatureKind::Points`), a corner on a face. Each pass
//! is the one-point path of its scalar routine (`update_one`, `solve_one`,
//! `position_constraint`), with its rolling resistance: the same operations
//! in the same order in every lane, branches taken by selecting lanes.

use super::point::{
    point_anchors, push_apart, solve_friction, solve_point_normal, solve_rolling, Fraction, Substep,
};
use super::*;

/// The anchor update of a one-point bundle; see `super::super::update_one`,
/// which always takes the second-order term of a single point's predicted
/// separation. `step`: the substep, its inverse and the cap on a
/// separating target.
#[inline(always)]
pub(super) fn update_single(
    c: &mut VelocityBundle,
    s: &mut SolveBundle,
    g: &GeometryBundle,
    bodies: &[SolverBody],
    poses: &[SolverPose],
    step: (f32, f32, f32),
) {
    match g.faces {
        FACES_A => update_single_on::<FACES_A>(c, s, g, bodies, poses, step),
        FACES_B => update_single_on::<FACES_B>(c, s, g, bodies, poses, step),
        FACES_MIXED => update_single_on::<FACES_MIXED>(c, s, g, bodies, poses, step),
        _ => update_single_on::<FACES_ANY>(c, s, g, bodies, poses, step),
    }
}

/// [`update_single`] for bundles whose features are as `FACES` says.
#[inline(always)]
fn update_single_on<const FACES: u8>(
    c: &mut VelocityBundle,
    s: &mut SolveBundle,
    g: &GeometryBundle,
    bodies: &[SolverBody],
    poses: &[SolverPose],
    (h, inv_h, max_push): (f32, f32, f32),
) {
    let (ba, bb) = c.gather(bodies);
    let (qa, qb) = (PoseW::gather(poses, &g.a), PoseW::gather(poses, &g.b));
    let hw = F::splat(h);
    let predicted = (h > 0.0).then(|| (qa.integrate(&ba, hw), qb.integrate(&bb, hw)));
    let fresh = gt(
        hw * (ba.w.abs() + bb.w.abs()),
        F::splat(super::super::velocity::FAST_TURN),
    ) | gt(s.impact, F::splat(0.5));
    c.rolling_impulse = select(fresh, F::ZERO, c.rolling_impulse);
    let step = Substep {
        ba: &ba,
        bb: &bb,
        qa: &qa,
        qb: &qb,
        predicted: predicted.as_ref(),
        // Every lane, when there is a prediction.
        curved: F::splat(f32::from_bits(u32::MAX)),
        fresh,
        h: hw,
        inv_h: F::splat(inv_h),
        max_push: F::splat(max_push),
    };
    point_anchors::<FACES>(&mut c.points[0], &mut s.points[0], g, 0, &step);
}

/// The velocity pass of a one-point bundle in lanes: friction, the normal
/// impulse, rolling resistance (see `super::super::solve_one`).
#[inline(always)]
pub(super) fn solve_single(c: &mut VelocityBundle, s: &mut SolveBundle, bodies: &mut [SolverBody]) {
    let (mut ba, mut bb) = c.gather(bodies);
    solve_single_on(c, s, &mut ba, &mut bb);
    c.scatter(&ba, &bb, bodies);
}

/// [`solve_single`] on two independent bundles, side by side.
#[inline(always)]
pub(super) fn solve_single_pair(
    (c1, s1): (&mut VelocityBundle, &mut SolveBundle),
    (c2, s2): (&mut VelocityBundle, &mut SolveBundle),
    bodies: &mut [SolverBody],
) {
    let (mut a1, mut b1) = c1.gather(bodies);
    let (mut a2, mut b2) = c2.gather(bodies);
    solve_single_on(c1, s1, &mut a1, &mut b1);
    solve_single_on(c2, s2, &mut a2, &mut b2);
    c1.scatter(&a1, &b1, bodies);
    c2.scatter(&a2, &b2, bodies);
}

/// [`solve_single`] on gathered bodies.
#[inline(always)]
fn solve_single_on(c: &mut VelocityBundle, s: &mut SolveBundle, ba: &mut BodyW, bb: &mut BodyW) {
    let (p, q) = (&mut c.points[0], &mut s.points[0]);
    solve_friction(s.friction, p, q, ba, bb);
    solve_point_normal(p, q, ba, bb);
    let load = p.normal_impulse;
    solve_rolling(c, s, load, ba, bb);
}

/// The position correction of a one-point bundle in lanes, from its bodies'
/// poses `qa`, `qb` (see `super::super::position_constraint`): the
/// corrected poses, or `None` when no lane pushes.
#[inline(always)]
pub(super) fn position_single(
    g: &GeometryBundle,
    held: Held,
    qa: PoseW,
    qb: PoseW,
    fraction: Fraction,
    prm: &SolverParams,
) -> Option<(PoseW, PoseW)> {
    match g.faces {
        FACES_A => position_single_on::<FACES_A>(g, held, qa, qb, fraction, prm),
        FACES_B => position_single_on::<FACES_B>(g, held, qa, qb, fraction, prm),
        FACES_MIXED => position_single_on::<FACES_MIXED>(g, held, qa, qb, fraction, prm),
        _ => position_single_on::<FACES_ANY>(g, held, qa, qb, fraction, prm),
    }
}

/// [`position_single`] for bundles whose features are as `FACES` says.
#[inline(always)]
fn position_single_on<const FACES: u8>(
    g: &GeometryBundle,
    held: Held,
    mut qa: PoseW,
    mut qb: PoseW,
    fraction: Fraction,
    prm: &SolverParams,
) -> Option<(PoseW, PoseW)> {
    let (s, n, ra, ab) = lane_geometry::<FACES>(g, 0, &qa, &qb);
    let correction = fraction.target(s, prm);
    let active = lt(correction, F::ZERO);
    if !active.any() {
        return None;
    }
    let (ba, bb) = g.masses(held);
    let rb = ra - ab;
    let (rna, rnb) = (cross(ra, n), cross(rb, n));
    let k = ba.inv_mass + bb.inv_mass + ba.inv_inertia * rna * rna + bb.inv_inertia * rnb * rnb;
    let lambda = select(active & gt(k, F::ZERO), -correction / k, F::ZERO);
    push_apart(&ba, &bb, &mut qa, &mut qb, n, ra, rb, lambda);
    Some((qa, qb))
}
