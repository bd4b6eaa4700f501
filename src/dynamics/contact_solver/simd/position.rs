//! The position and restitution passes over the bundles, a bundle at a
//! time.

use super::point::{push_apart, Fraction};
use super::*;

/// Which contacts a substep's position pass corrects, and how strongly.
///
/// The contacts of bodies with joints are corrected on every substep, as
/// the joints' own position pass moves those bodies on every substep. The
/// other contacts are corrected on alternate substeps, the last one
/// included, with the fraction of their error that two corrections would
/// remove: `1 - (1 - β)²` for the step's `β`. That halves the cost of the
/// pass where nothing is jointed (a settled pile or stack needs no more;
/// see `docs/2026-11-28-alternate-position-passes.md`). Correcting the
/// jointed bodies' contacts on alternate substeps too left fewer ragdoll
/// piles asleep (12 of 16 instead of 14). The choice is made lane by lane,
/// so that a contact is treated the same in bundles of four and of eight.
#[derive(Clone, Copy, Debug)]
pub(crate) enum PositionPass<'a> {
    /// Every contact: the alternate ones with `alternate`'s parameters.
    All { alternate: &'a SolverParams },
    /// Only the contacts with a jointed body.
    Jointed,
}

/// One NGS position pass; see `super::position_constraint`. `prm` are the
/// parameters of the contacts corrected on every substep (see
/// [`PositionPass`]).
pub(crate) fn solve_positions(
    constraints: &ContactBundles,
    poses: &mut [SolverPose],
    prm: &SolverParams,
    pass: PositionPass,
) {
    let gs = &constraints.geometry[..constraints.len];
    let (held, alternate) = (&constraints.held[..], &constraints.alternate[..]);
    let (free, single) = (&constraints.free[..], &constraints.single[..]);
    let (every, deep) = (
        F::splat(prm.position_correction),
        F::splat(prm.deep_penetration),
    );
    // Bundle `i`'s correction per lane and its holds, or `None` when this
    // pass corrects none of its lanes. On a substep that skips some lanes,
    // they are held on both sides: they move nothing and are not stored.
    let plan = |i: usize| {
        let (mask, h) = (alternate[i], held[i]);
        let deep = select(bits_mask(free[i]), deep, F::splat(f32::INFINITY));
        match pass {
            PositionPass::All { alternate } => {
                let alternate = F::splat(alternate.position_correction);
                let beta = select(bits_mask(mask), alternate, every);
                Some((Fraction { beta, deep }, h))
            }
            PositionPass::Jointed if mask == lanes_mask(LANES as u8) => None,
            PositionPass::Jointed => {
                Some((Fraction { beta: every, deep }, [h[0] | mask, h[1] | mask]))
            }
        }
    };
    // The bundles this pass corrects are asked for ahead (those it skips
    // are not read).
    let wanted = |i: usize| match pass {
        PositionPass::All { .. } => true,
        PositionPass::Jointed => alternate[i] != lanes_mask(LANES as u8),
    };
    let mut i = 0;
    let mut asked = 0;
    while i < gs.len() {
        while asked < (i + 2 + super::ahead::AHEAD).min(gs.len()) {
            if wanted(asked) {
                gs[asked].prefetch(single[asked]);
            }
            asked += 1;
        }
        let g1 = &gs[i];
        let Some((fraction1, h1)) = plan(i) else {
            i += 1;
            continue;
        };
        let next = gs.get(i + 1).filter(|_| g1.independent_of_next);
        if let Some((g2, (fraction2, h2))) = next.and_then(|g2| Some((g2, plan(i + 1)?))) {
            // Two independent bundles side by side, as in the velocity
            // pass.
            let (qa1, qb1) = (PoseW::gather(poses, &g1.a), PoseW::gather(poses, &g1.b));
            let (qa2, qb2) = (PoseW::gather(poses, &g2.a), PoseW::gather(poses, &g2.b));
            let moved1 = position_bundle(g1, h1, qa1, qb1, fraction1, prm);
            let moved2 = position_bundle(g2, h2, qa2, qb2, fraction2, prm);
            scatter_poses(g1, h1, moved1, poses);
            scatter_poses(g2, h2, moved2, poses);
            i += 2;
            continue;
        }
        let (qa, qb) = (PoseW::gather(poses, &g1.a), PoseW::gather(poses, &g1.b));
        let moved = position_bundle(g1, h1, qa, qb, fraction1, prm);
        scatter_poses(g1, h1, moved, poses);
        i += 1;
    }
}

/// The position correction of a bundle in lanes, from its bodies' poses
/// `qa`, `qb`, with the bodies `held` holds still and each lane's
/// `fraction` (in place of `prm`'s): the corrected poses, or `None` when no
/// lane pushes.
#[inline(always)]
pub(super) fn position_bundle(
    g: &GeometryBundle,
    held: Held,
    qa: PoseW,
    qb: PoseW,
    fraction: Fraction,
    prm: &SolverParams,
) -> Option<(PoseW, PoseW)> {
    if g.single {
        super::single::position_single(g, held, qa, qb, fraction, prm)
    } else {
        position_block(g, held, qa, qb, fraction, prm)
    }
}

/// Stores a bundle's corrected poses, if any, but for the bodies `held`
/// holds.
#[inline(always)]
pub(super) fn scatter_poses(
    g: &GeometryBundle,
    held: Held,
    moved: Option<(PoseW, PoseW)>,
    poses: &mut [SolverPose],
) {
    if let Some((qa, qb)) = moved {
        qa.scatter(poses, &g.a, g.writes.a & !held[0]);
        qb.scatter(poses, &g.b, g.writes.b & !held[1]);
    }
}

/// The position correction of a two-point bundle in lanes, from its bodies'
/// poses `qa`, `qb`: the corrected poses, or `None` when no lane pushes.
#[inline(always)]
pub(super) fn position_block(
    g: &GeometryBundle,
    held: Held,
    qa: PoseW,
    qb: PoseW,
    fraction: Fraction,
    prm: &SolverParams,
) -> Option<(PoseW, PoseW)> {
    match g.faces {
        FACES_A => position_block_on::<FACES_A>(g, held, qa, qb, fraction, prm),
        FACES_B => position_block_on::<FACES_B>(g, held, qa, qb, fraction, prm),
        FACES_MIXED => position_block_on::<FACES_MIXED>(g, held, qa, qb, fraction, prm),
        _ => position_block_on::<FACES_ANY>(g, held, qa, qb, fraction, prm),
    }
}

/// [`position_block`] for bundles whose features are as `FACES` says.
#[inline(always)]
pub(super) fn position_block_on<const FACES: u8>(
    g: &GeometryBundle,
    held: Held,
    mut qa: PoseW,
    mut qb: PoseW,
    fraction: Fraction,
    prm: &SolverParams,
) -> Option<(PoseW, PoseW)> {
    let (s1, n1, ra1, ab1) = lane_geometry::<FACES>(g, 0, &qa, &qb);
    let (s2, n2, ra2, ab2) = lane_geometry::<FACES>(g, 1, &qa, &qb);
    let (c1, c2) = (fraction.target(s1, prm), fraction.target(s2, prm));
    let active = lt(c1, F::ZERO) | lt(c2, F::ZERO);
    if !active.any() {
        return None;
    }
    let (ba, bb) = g.masses(held);
    let (rb1, rb2) = (ra1 - ab1, ra2 - ab2);
    // `super::block_correction` in lanes.
    let (a1, b1) = (cross(ra1, n1), cross(rb1, n1));
    let (a2, b2) = (cross(ra2, n2), cross(rb2, n2));
    let im = ba.inv_mass + bb.inv_mass;
    let k11 = im + ba.inv_inertia * a1 * a1 + bb.inv_inertia * b1 * b1;
    let k22 = im + ba.inv_inertia * a2 * a2 + bb.inv_inertia * b2 * b2;
    let k12 = im * n1.dot(n2) + ba.inv_inertia * a1 * a2 + bb.inv_inertia * b1 * b2;
    let zero = F::ZERO;
    let singular = le(k11, zero) | le(k22, zero);
    let (r1, r2) = (-c1, -c2);
    let det = k11 * k22 - k12 * k12;
    let both_l1 = (k22 * r1 - k12 * r2) / det;
    let both_l2 = (k11 * r2 - k12 * r1) / det;
    let both = gt(det, F::splat(1e-3) * k11 * k22) & ge(both_l1, zero) & ge(both_l2, zero);
    let la = r1 / k11;
    let only1 = ge(la, zero) & ge(k12 * la, r2);
    let lb = r2 / k22;
    let only2 = ge(lb, zero) & ge(k12 * lb, r1);
    let deeper1 = le(c1, c2);
    let mut l1 = select(deeper1, max(la, zero), zero);
    let mut l2 = select(deeper1, zero, max(lb, zero));
    l1 = select(only2, zero, l1);
    l2 = select(only2, lb, l2);
    l1 = select(only1, la, l1);
    l2 = select(only1, zero, l2);
    l1 = select(both, both_l1, l1);
    l2 = select(both, both_l2, l2);
    let skip = singular | !active;
    l1 = select(skip, zero, l1);
    l2 = select(skip, zero, l2);
    push_apart(&ba, &bb, &mut qa, &mut qb, n1, ra1, rb1, l1);
    push_apart(&ba, &bb, &mut qa, &mut qb, n2, ra2, rb2, l2);
    Some((qa, qb))
}

/// Restitution, after the substeps: bounce points whose approach speed
/// exceeded the threshold and that carried load this step, lane by lane (few
/// contacts bounce). Only the bundles with restitution need their anchors on
/// the final poses (with `h = 0` the update reads poses and masses only, so
/// it may be done bundle by bundle, just before each one's restitution). A
/// bundle none of whose points bounces skips the update: of what it
/// changes, only the impulses outlive the step (stored for the next warm
/// start), and of those only the impacts', which it starts afresh.
pub(crate) fn apply_restitution(
    constraints: &mut ContactBundles,
    bodies: &mut [SolverBody],
    poses: &[SolverPose],
    prm: &SolverParams,
) {
    let n = constraints.len;
    let bundles = constraints.velocity[..n]
        .iter_mut()
        .zip(&mut constraints.solve[..n])
        .zip(&constraints.geometry[..n]);
    let bundles = bundles.zip(&constraints.info).zip(&constraints.bouncy);
    for ((((c, cs), g), info), _) in bundles.filter(|(_, &bouncy)| bouncy) {
        // `super::super::restitution_one`'s test, before the update (which
        // leaves the approach and the peak impulse alone).
        let bounces = c.used().any(|l| {
            let info = &info[l];
            let mut points = cs.points[..c.count[l] as usize].iter().zip(&info.approach);
            info.restitution != 0.0
                && points.any(|(p, &approach)| {
                    let skip = approach > -prm.restitution_threshold
                        || get(&p.max_normal_impulse, l) == 0.0;
                    !skip
                })
        });
        if !bounces {
            c.forget_impacts(cs);
            continue;
        }
        let all = super::Quiet::All;
        let push = prm.max_push_speed;
        super::velocity::update_bundle(c, cs, g, bodies, poses, 0.0, push, all);
        for l in c.used() {
            if info[l].restitution == 0.0 {
                continue;
            }
            let mut s = c.lane(cs, l);
            restitution_one(&mut s, &info[l], bodies, prm);
            c.set_lane(cs, l, &s);
        }
    }
}
