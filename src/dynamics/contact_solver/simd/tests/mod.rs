//! The lane kernels against the scalar routines, bit for bit, on random
//! bundles of two-point and of one-point manifolds: turning and resting
//! pairs, static partners, impacts, points inside and beyond their faces,
//! bounded and unbounded faces, faces of A, of B and two core points
//! (apart or coinciding), rounded or not, with and without rolling
//! resistance. `plan`: which contacts a substep's position pass corrects,
//! with which parameters.

use super::super::FeaturePoint;
use super::point::Fraction;
use super::position::{position_bundle, scatter_poses};
use super::single::solve_single;
use super::velocity::{solve_bundle, update_bundle, warm_start_bundle};
use super::*;
use crate::dynamics::contact_solver::{position_one, solve_one, update_one, warm_one};
use crate::math::{Rot, Vec2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

mod plan;
mod prepare;

struct Gen(ChaCha8Rng);

impl Gen {
    fn f(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.0.next_u32() >> 8) as f32 / 16_777_216.0)
    }
    fn coin(&mut self, p: f32) -> bool {
        self.f(0.0, 1.0) < p
    }
    fn v(&mut self, r: f32) -> Vec2 {
        Vec2::new(self.f(-r, r), self.f(-r, r))
    }
    fn rot(&mut self, max: f32) -> Rot {
        Rot::from_angle(self.f(-max, max))
    }
}

const STATIC: u32 = 2 * LANES as u32;

/// `2·LANES + 1` bodies (lane `l` owns bodies `2l` and `2l + 1`; the last
/// is static and shared), their poses, and one constraint per lane of `count` points each,
/// on faces only (`planar`) or of any feature kind.
#[allow(clippy::type_complexity)]
fn case(
    g: &mut Gen,
    count: u8,
    planar: bool,
) -> (
    Vec<SolverBody>,
    Vec<SolverPose>,
    [VelocityConstraint; LANES],
    [ContactGeometry; LANES],
) {
    let spin = g.coin(0.5);
    let mut bodies: Vec<SolverBody> = (0..2 * LANES)
        .map(|_| SolverBody {
            v: g.v(2.0),
            w: if spin {
                g.f(-3.0, 3.0)
            } else {
                g.f(-0.02, 0.02)
            },
            inv_mass: g.f(0.1, 2.0),
            inv_inertia: g.f(0.1, 6.0),
        })
        .collect();
    for b in &mut bodies {
        // A body that does not turn, at a spin of -0: its spin must keep
        // that sign wherever the scalar routine leaves it alone.
        if g.coin(0.1) {
            (b.w, b.inv_inertia) = (-0.0, 0.0);
        }
    }
    bodies.push(SolverBody::default());
    let mut poses: Vec<SolverPose> = (0..=2 * LANES)
        .map(|i| {
            if i == STATIC as usize {
                SolverPose::default()
            } else {
                SolverPose {
                    dp: g.v(0.01),
                    dq: g.rot(0.02),
                }
            }
        })
        .collect();
    let mut velocity = [None; LANES];
    let mut geometry = [None; LANES];
    // Bundles with every face on A, every face on B, and mixed, in about
    // equal numbers, however many lanes (random kinds per lane would
    // almost never give a uniform bundle of eight).
    // Bundles whose lanes all have two coinciding points (a singular block
    // matrix, solved point by point), and such lanes here and there.
    let all_twins = g.coin(0.05);
    let uniform = match g.f(0.0, 3.0) as u32 {
        0 => Some(FeatureKind::PlaneA),
        1 => Some(FeatureKind::PlaneB),
        _ => None,
    };
    for l in 0..LANES {
        let (mut a, mut b) = (2 * l as u32, 2 * l as u32 + 1);
        if g.coin(0.2) {
            b = STATIC;
        } else if g.coin(0.2) {
            a = STATIC;
        }
        let kinds = if planar { 2.0 } else { 3.0 };
        let kind = match g.f(0.0, kinds) as u32 {
            0 => FeatureKind::PlaneA,
            1 => FeatureKind::PlaneB,
            _ => FeatureKind::Points,
        };
        let kind = match uniform {
            Some(k) if planar => k,
            _ => kind,
        };
        let radius = if g.coin(0.5) { 0.0 } else { g.f(0.0, 0.1) };
        // Core points that coincide at the current poses (the normal then
        // comes from the fallback), sometimes: the lane's bodies unmoved,
        // the points on a grid, where the sums are exact.
        let coincide = kind == FeatureKind::Points && g.coin(0.15);
        if coincide {
            poses[a as usize] = SolverPose::default();
            poses[b as usize] = SolverPose::default();
        }
        let mut feature = || {
            let angle = g.f(-3.1, 3.1);
            let grid = |g: &mut Gen| Vec2::new(g.f(-32.0, 32.0), g.f(-32.0, 32.0)).round() / 64.0;
            let (ab, fa, fb) = if coincide {
                let (fa, fb) = (grid(g), grid(g));
                (fa - fb, fa, fb)
            } else {
                (g.v(1.0), g.v(0.5), g.v(0.5))
            };
            FeaturePoint {
                ab,
                fa,
                fb,
                fnormal: Vec2::new(libm::cosf(angle), libm::sinf(angle)),
                flength: if g.coin(0.1) { -1.0 } else { g.f(0.0, 0.6) },
                radius,
                point_radius: radius * g.f(0.0, 1.0),
                kind,
            }
        };
        let (first, second) = (feature(), feature());
        let twins = all_twins || g.coin(0.02);
        let points = [first, if twins { first } else { second }];
        geometry[l] = Some(ContactGeometry {
            a,
            b,
            count,
            points,
        });
        let mut point = || VelocityPoint {
            tangent_mass: g.f(0.1, 1.0),
            normal_impulse: g.f(0.0, 5.0),
            tangent_impulse: g.f(-1.0, 1.0),
            ..Default::default()
        };
        let points = [point(), point()];
        let rolls = g.coin(0.7);
        velocity[l] = Some(VelocityConstraint {
            a,
            b,
            friction: g.f(0.0, 1.0),
            count,
            block_ok: false,
            k: [0.0; 4],
            rolling_arm: if rolls { g.f(0.0, 0.05) } else { 0.0 },
            angular_mass: if rolls { g.f(0.05, 1.0) } else { 0.0 },
            rolling_impulse: if rolls { g.f(-0.01, 0.01) } else { 0.0 },
            impact: g.coin(0.05),
            quiet: false,
            points,
        });
    }
    (
        bodies,
        poses,
        velocity.map(|c| c.expect("built")),
        geometry.map(|c| c.expect("built")),
    )
}

fn bundle(
    v: &[VelocityConstraint; LANES],
    g: &[ContactGeometry; LANES],
    bodies: &[SolverBody],
) -> (VelocityBundle, SolveBundle, GeometryBundle) {
    let single = v[0].count == 1;
    let mut vb = VelocityBundle {
        fill: LANES as u8,
        single,
        ..Default::default()
    };
    let mut gb = GeometryBundle {
        single,
        ..Default::default()
    };
    let mut sb = SolveBundle::default();
    for l in 0..LANES {
        vb.set_lane(&mut sb, l, &v[l]);
        gb.set_lane(l, &g[l]);
    }
    finish(&mut vb, &mut gb, LANES, bodies);
    (vb, sb, gb)
}

/// What the build sets once a bundle's lanes are stored: the write masks,
/// the feature kinds and the bodies' masses.
fn finish(vb: &mut VelocityBundle, gb: &mut GeometryBundle, fill: usize, bodies: &[SolverBody]) {
    vb.writes = Writes::new(&vb.a, &vb.b, fill as u8, bodies);
    gb.writes = vb.writes;
    gb.faces = faces_of(gb.plane_a, gb.core_points, fill as u8);
    gb.set_masses(bodies);
    (vb.inv_mass_a, vb.inv_inertia_a) = (gb.inv_mass_a, gb.inv_inertia_a);
    (vb.inv_mass_b, vb.inv_inertia_b) = (gb.inv_mass_b, gb.inv_inertia_b);
}

fn constraint_bits(c: &VelocityConstraint) -> Vec<u32> {
    let mut bits = vec![
        c.block_ok as u32,
        c.quiet as u32,
        c.rolling_impulse.to_bits(),
    ];
    bits.extend(c.k.iter().map(|x| x.to_bits()));
    for p in &c.points[..c.count as usize] {
        for x in [
            p.arm_na,
            p.arm_nb,
            p.arm_ta,
            p.arm_tb,
            p.normal.x,
            p.normal.y,
            p.bias,
            p.mass,
            p.tangent_mass,
            p.normal_impulse,
            p.tangent_impulse,
        ] {
            bits.push(x.to_bits());
        }
        // Read only as `== 0` (did the point carry load?), and `f32::max`
        // leaves the sign of a zero maximum unspecified.
        let m = p.max_normal_impulse;
        bits.push(if m == 0.0 { 0 } else { m.to_bits() });
    }
    bits
}

fn body_bits(bodies: &[SolverBody]) -> Vec<u32> {
    bodies
        .iter()
        .flat_map(|b| [b.v.x, b.v.y, b.w].map(f32::to_bits))
        .collect()
}

fn pose_bits(poses: &[SolverPose]) -> Vec<u32> {
    poses
        .iter()
        .flat_map(|q| [q.dp.x, q.dp.y, q.dq.cos, q.dq.sin].map(f32::to_bits))
        .collect()
}

/// Paths the kernels took over a run of [`compare`].
#[derive(Debug, Default)]
struct Seen {
    /// Bundles with some lanes quiet, and with all lanes quiet, at a later
    /// substep's anchor update.
    quiet: u32,
    all_quiet: u32,
    /// Bundles solved in lanes, bundles pushed by the position pass, points
    /// whose bias reached the push cap, points that rolled against their
    /// cap, points of two core points.
    /// Two-point bundles with some lanes block-solved and some point by
    /// point, and with every lane point by point.
    mixed: u32,
    pointwise: u32,
    pushed: u32,
    capped: u32,
    rolled: u32,
    core_points: u32,
    /// Core points that coincide at the current poses.
    coincident: u32,
    /// Bundles per `faces` (mixed, all on A, all on B, any).
    faces: [u32; 4],
    /// Lanes' bodies held in the position pass.
    held: u32,
}

/// Runs `cases` random bundles of `count`-point constraints (faces only
/// when `planar`) through every pass, lanes against the scalar routines.
fn compare(seed: u64, cases: usize, count: u8, planar: bool) -> Seen {
    let mut g = Gen(ChaCha8Rng::seed_from_u64(seed));
    let prm = SolverParams {
        max_push_speed: TEST_PUSH,
        linear_slop: 0.005,
        position_correction: 0.2,
        max_correction: 0.2,
        deep_penetration: 0.05,
        restitution_threshold: 1.0,
    };
    // A low cap, so that random turning pairs reach it.
    const TEST_PUSH: f32 = 0.01;
    let mut seen = Seen::default();
    for _ in 0..cases {
        let (bodies, poses, mut vc, gc) = case(&mut g, count, planar);
        let (mut vb, mut sb, gb) = bundle(&vc, &gc, &bodies);
        seen.faces[gb.faces as usize] += 1;
        for c in &gc {
            let kinds = c.points[..c.count as usize].iter().map(|p| p.kind);
            seen.core_points += kinds.filter(|&k| k == FeatureKind::Points).count() as u32;
            let (qa, qb) = (&poses[c.a as usize], &poses[c.b as usize]);
            for f in &c.points[..c.count as usize] {
                let pa = qa.dq.apply(f.fa);
                let pb = f.ab + (qb.dp - qa.dp) + qb.dq.apply(f.fb);
                seen.coincident += (f.kind == FeatureKind::Points && pa == pb) as u32;
            }
        }
        // The poses of a later substep: every body moved and turned a little.
        // (A stream of its own, so the cases are those of the other checks.)
        let mut q = Gen(ChaCha8Rng::seed_from_u64(g.0.next_u64()));
        let later: Vec<SolverPose> = poses
            .iter()
            .map(|p| SolverPose {
                dp: p.dp + q.v(0.002),
                dq: p.dq * q.rot(0.002),
            })
            .collect();
        // Marks some lanes quiet (a depth from 3 cm of gap to 3 cm deep, or
        // any separation under 1 m), keeps them on the later poses, then
        // updates them all.
        let depth = if q.coin(0.3) { -1.0 } else { q.f(-0.03, 0.03) };
        let span = q.f(0.0, 0.02);
        let updates = [
            (1.0 / 240.0, Quiet::Mark { depth, span }, &poses),
            (1.0 / 240.0, Quiet::Keep, &later),
            (0.0, Quiet::All, &poses),
        ];
        for (h, quiet, poses) in updates {
            // Anchor update.
            let inv_h = if h > 0.0 { 1.0 / h } else { 0.0 };
            for l in 0..LANES {
                update_one(
                    &mut vc[l], &gc[l], &bodies, poses, h, inv_h, TEST_PUSH, quiet,
                );
            }
            update_bundle(&mut vb, &mut sb, &gb, &bodies, poses, h, TEST_PUSH, quiet);
            if quiet == Quiet::Keep {
                let lanes = vc.iter().filter(|c| c.quiet).count();
                seen.quiet += (lanes > 0) as u32;
                seen.all_quiet += (lanes == LANES) as u32;
            }
            for (l, c) in vc.iter().enumerate() {
                assert_eq!(
                    constraint_bits(&vb.lane(&sb, l)),
                    constraint_bits(c),
                    "update {quiet:?}"
                );
                let count = c.count as usize;
                seen.capped += c.points[..count]
                    .iter()
                    .filter(|p| p.bias == -TEST_PUSH)
                    .count() as u32;
            }
            if count == 2 {
                assert_eq!(sb.all_block, vc.iter().all(|c| c.block_ok));
            }
        }
        // Warm start and two velocity passes.
        let (mut scalar, mut lanes) = (bodies.clone(), bodies.clone());
        for c in &vc {
            warm_one(c, &mut scalar);
        }
        warm_start_bundle(&vb, &mut lanes);
        assert_eq!(body_bits(&lanes), body_bits(&scalar), "warm start");
        {
            // Two-point bundles whose lanes are not all block-solved: some
            // lanes point by point (`mixed`), or all of them.
            let blocks = vc.iter().filter(|c| c.block_ok).count();
            if !vb.single && blocks < LANES {
                seen.mixed += (blocks > 0) as u32;
                seen.pointwise += (blocks == 0) as u32;
            }
            for _ in 0..2 {
                for c in &mut vc {
                    solve_one(c, &mut scalar);
                }
                if vb.single {
                    solve_single(&mut vb, &mut sb, &mut lanes);
                } else {
                    solve_bundle(&mut vb, &mut sb, &mut lanes);
                }
                assert_eq!(body_bits(&lanes), body_bits(&scalar), "velocity");
                for (l, c) in vc.iter().enumerate() {
                    assert_eq!(constraint_bits(&vb.lane(&sb, l)), constraint_bits(c));
                    let cap = c.rolling_arm * c.rolling_load();
                    seen.rolled += (cap > 0.0 && c.rolling_impulse.abs() == cap) as u32;
                }
            }
        }
        // Position pass.
        let (mut scalar, mut lanes) = (poses.clone(), poses.clone());
        for c in &gc {
            position_one(c, &bodies, &mut scalar, &prm);
        }
        let (qa, qb) = (PoseW::gather(&lanes, &gb.a), PoseW::gather(&lanes, &gb.b));
        let fraction = Fraction::of(&prm);
        let moved = position_bundle(&gb, [0; 2], qa, qb, fraction, &prm);
        seen.pushed += moved.is_some() as u32;
        scatter_poses(&gb, [0; 2], moved, &mut lanes);
        assert_eq!(pose_bits(&lanes), pose_bits(&scalar), "position");
        // The position pass with some lanes' lower body held (shock
        // propagation): the scalar routine with that body's masses zero.
        // A held body is never written, so its pose stays bit for bit.
        let (mut held_bodies, mut held) = (bodies.clone(), [0u8; 2]);
        for (l, c) in gc.iter().enumerate() {
            let pick = g.f(0.0, 3.0);
            let (a, b) = (pick < 1.0, (1.0..2.0).contains(&pick));
            held[0] |= (a as u8) << l;
            held[1] |= (b as u8) << l;
            for (is_held, body) in [(a, c.a), (b, c.b)] {
                if is_held {
                    held_bodies[body as usize] = SolverBody::default();
                    seen.held += 1;
                }
            }
        }
        let (mut scalar, mut lanes) = (poses.clone(), poses.clone());
        for c in &gc {
            position_one(c, &held_bodies, &mut scalar, &prm);
        }
        let (qa, qb) = (PoseW::gather(&lanes, &gb.a), PoseW::gather(&lanes, &gb.b));
        let moved = position_bundle(&gb, held, qa, qb, fraction, &prm);
        scatter_poses(&gb, held, moved, &mut lanes);
        assert_eq!(pose_bits(&lanes), pose_bits(&scalar), "position, held");
        for (i, (b, held)) in bodies.iter().zip(&held_bodies).enumerate() {
            if b.responds() && !held.responds() {
                assert_eq!(lanes[i].dp, poses[i].dp, "a held body moved");
                assert_eq!(lanes[i].dq, poses[i].dq, "a held body turned");
            }
        }
    }
    seen
}

#[test]
fn lane_kernels_match_the_scalar_routines_on_two_point_faces() {
    let seen = compare(0x5eed, 3000, 2, true);
    // The kernels' interesting paths were exercised.
    assert!(seen.mixed > 50 && seen.pointwise > 50, "{seen:?}");
    assert!(seen.rolled > 500, "{seen:?}");
    assert!(seen.pushed > 1000, "{seen:?}");
    assert!(seen.capped > 100, "{seen:?}");
    assert!(seen.faces[..3].iter().all(|&n| n > 100), "{seen:?}");
    assert!(seen.held > 1000, "{seen:?}");
    assert!(seen.quiet > 100 && seen.all_quiet > 20, "{seen:?}");
}

#[test]
fn lane_kernels_match_the_scalar_routines_on_two_points_of_any_kind() {
    let seen = compare(0x2b0b, 2000, 2, false);
    assert!(seen.mixed > 50 && seen.pointwise > 50, "{seen:?}");
    assert!(seen.rolled > 500, "{seen:?}");
    assert!(seen.pushed > 500, "{seen:?}");
    assert!(seen.core_points > 2000, "{seen:?}");
    assert!(seen.coincident > 50, "{seen:?}");
    assert!(seen.faces[FACES_ANY as usize] > 1000, "{seen:?}");
    assert!(seen.quiet > 100 && seen.all_quiet > 20, "{seen:?}");
}

#[test]
fn lane_kernels_match_the_scalar_routines_on_one_point_manifolds() {
    let faces = compare(0x0e1e, 2000, 1, true);
    let any = compare(0x0e1f, 2000, 1, false);
    for seen in [&faces, &any] {
        assert!(seen.pushed > 500, "{seen:?}");
        assert!(seen.capped > 50, "{seen:?}");
        assert!(seen.rolled > 500, "{seen:?}");
    }
    assert!(faces.faces[..3].iter().all(|&n| n > 100), "{faces:?}");
    assert!(any.core_points > 1000, "{any:?}");
    assert!(any.coincident > 50, "{any:?}");
    assert!(any.faces[FACES_ANY as usize] > 1000, "{any:?}");
}

/// The solver parameters of the tests of whole passes.
fn pass_params() -> SolverParams {
    SolverParams {
        max_push_speed: 3.0,
        linear_slop: 0.005,
        position_correction: 0.2,
        max_correction: 0.2,
        deep_penetration: 0.05,
        restitution_threshold: 1.0,
    }
}

#[test]
fn restitution_in_bundles_matches_the_scalar_routines() {
    let mut g = Gen(ChaCha8Rng::seed_from_u64(0xb0b0));
    let prm = pass_params();
    // Bundles where some point bounces, and bundles with restitution
    // where none does (their anchor update is skipped) but some lane is
    // an impact (whose impulses are forgotten all the same).
    let (mut bounced, mut skipped_impacts) = (0, 0);
    for _ in 0..3000 {
        let count = if g.coin(0.5) { 1 } else { 2 };
        let (bodies, poses, mut vc, gc) = case(&mut g, count, false);
        for c in &mut vc {
            for p in &mut c.points[..count as usize] {
                p.max_normal_impulse = if g.coin(0.3) { 0.0 } else { g.f(0.0, 5.0) };
            }
        }
        let info: [ConstraintInfo; LANES] = std::array::from_fn(|l| {
            let approach = |g: &mut Gen| {
                if g.coin(0.2) {
                    g.f(-3.0, -1.0)
                } else {
                    g.f(-1.0, 0.5)
                }
            };
            ConstraintInfo {
                contact: l as u32,
                slot: l as u32,
                restitution: if g.coin(0.5) { 0.0 } else { g.f(0.0, 1.0) },
                approach: [approach(&mut g), approach(&mut g)],
            }
        });
        let bouncy = info.iter().any(|i| i.restitution != 0.0);
        let (vb, sb, gb) = bundle(&vc, &gc, &bodies);
        let mut bundles = ContactBundles {
            len: 1,
            velocity: vec![vb],
            solve: vec![sb],
            geometry: vec![gb],
            info: vec![info],
            bouncy: vec![bouncy],
            ..Default::default()
        };
        // The scalar routines: every constraint of a bundle with restitution
        // gets its anchors on the final poses, then bounces.
        let mut scalar = bodies.clone();
        if bouncy {
            for (c, gc) in vc.iter_mut().zip(&gc) {
                update_one(
                    c,
                    gc,
                    &bodies,
                    &poses,
                    0.0,
                    0.0,
                    prm.max_push_speed,
                    Quiet::All,
                );
            }
            for (c, info) in vc.iter_mut().zip(&info) {
                if info.restitution != 0.0 {
                    restitution_one(c, info, &mut scalar, &prm);
                }
            }
        }
        let mut lanes = bodies.clone();
        apply_restitution(&mut bundles, &mut lanes, &poses, &prm);
        assert_eq!(body_bits(&lanes), body_bits(&scalar), "restitution");
        let mut stored = 0;
        bundles.for_each_impulses(&mut stored, |stored, l, normal, tangent, _, n| {
            let c = &vc[l as usize];
            for k in 0..n {
                let p = &c.points[k];
                assert_eq!(normal[k].to_bits(), p.normal_impulse.to_bits());
                assert_eq!(tangent[k].to_bits(), p.tangent_impulse.to_bits());
            }
            *stored += 1;
        });
        assert_eq!(stored, LANES);
        if body_bits(&scalar) != body_bits(&bodies) {
            bounced += 1;
        } else if bouncy && vc.iter().any(|c| c.impact) {
            skipped_impacts += 1;
        }
    }
    assert!(bounced > 300, "{bounced} bundles bounced");
    assert!(
        skipped_impacts > 100,
        "{skipped_impacts} impacts not bounced"
    );
}
