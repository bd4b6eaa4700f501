//! The lane kernels against the scalar routines, bit for bit, on random
//! planar bundles: turning and resting pairs, static partners, points
//! inside and beyond their faces, bounded and unbounded faces.

use super::super::FeaturePoint;
use super::position::{position_planar, scatter_poses};
use super::velocity::{solve_bundle, update_planar, warm_start_bundle};
use super::*;
use crate::math::{Rot, Vec2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

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

const STATIC: u32 = 8;

/// Nine bodies (lane `l` owns bodies `2l` and `2l + 1`; body 8 is static
/// and shared), their poses, and four planar constraints.
#[allow(clippy::type_complexity)]
fn case(
    g: &mut Gen,
) -> (
    Vec<SolverBody>,
    Vec<SolverPose>,
    [VelocityConstraint; 4],
    [ContactGeometry; 4],
) {
    let spin = g.coin(0.5);
    let mut bodies: Vec<SolverBody> = (0..8)
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
    bodies.push(SolverBody::default());
    let poses: Vec<SolverPose> = (0..9)
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
    let mut velocity = [None; 4];
    let mut geometry = [None; 4];
    for l in 0..4 {
        let (mut a, mut b) = (2 * l as u32, 2 * l as u32 + 1);
        if g.coin(0.2) {
            b = STATIC;
        } else if g.coin(0.2) {
            a = STATIC;
        }
        let kind = if g.coin(0.5) {
            FeatureKind::PlaneA
        } else {
            FeatureKind::PlaneB
        };
        let radius = if g.coin(0.5) { 0.0 } else { g.f(0.0, 0.1) };
        let mut feature = || {
            let angle = g.f(-3.1, 3.1);
            FeaturePoint {
                ab: g.v(1.0),
                fa: g.v(0.5),
                fb: g.v(0.5),
                fnormal: Vec2::new(libm::cosf(angle), libm::sinf(angle)),
                flength: if g.coin(0.1) { -1.0 } else { g.f(0.0, 0.6) },
                radius,
                point_radius: radius * g.f(0.0, 1.0),
                kind,
            }
        };
        let points = [feature(), feature()];
        geometry[l] = Some(ContactGeometry {
            a,
            b,
            count: 2,
            points,
        });
        let mut point = || VelocityPoint {
            tangent_mass: g.f(0.1, 1.0),
            normal_impulse: g.f(0.0, 5.0),
            tangent_impulse: g.f(-1.0, 1.0),
            ..Default::default()
        };
        let points = [point(), point()];
        velocity[l] = Some(VelocityConstraint {
            a,
            b,
            friction: g.f(0.0, 1.0),
            count: 2,
            block_ok: false,
            k: [0.0; 4],
            rolling_arm: 0.0,
            angular_mass: 0.0,
            rolling_impulse: 0.0,
            impact: false,
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
    v: &[VelocityConstraint; 4],
    g: &[ContactGeometry; 4],
    bodies: &[SolverBody],
) -> (VelocityBundle, GeometryBundle) {
    let mut vb = VelocityBundle {
        fill: 4,
        ..Default::default()
    };
    let mut gb = GeometryBundle {
        fill: 4,
        ..Default::default()
    };
    for l in 0..4 {
        vb.set_lane(l, &v[l]);
        gb.set_lane(l, &g[l]);
    }
    vb.writes = Writes::new(&vb.a, &vb.b, 4, bodies);
    gb.writes = vb.writes;
    gb.faces = faces_of(&gb.points, 4);
    gb.set_masses(bodies);
    (vb.inv_mass_a, vb.inv_inertia_a) = (gb.inv_mass_a, gb.inv_inertia_a);
    (vb.inv_mass_b, vb.inv_inertia_b) = (gb.inv_mass_b, gb.inv_inertia_b);
    (vb, gb)
}

fn constraint_bits(c: &VelocityConstraint) -> Vec<u32> {
    let mut bits = vec![c.block_ok as u32];
    bits.extend(c.k.iter().map(|x| x.to_bits()));
    for p in &c.points {
        for x in [
            p.arm_na,
            p.arm_nb,
            p.arm_ta,
            p.arm_tb,
            p.normal.x,
            p.normal.y,
            p.bias,
            p.mass,
            p.normal_impulse,
            p.tangent_impulse,
            p.max_normal_impulse,
        ] {
            bits.push(x.to_bits());
        }
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

#[test]
fn lane_kernels_match_the_scalar_routines_bit_for_bit() {
    let mut g = Gen(ChaCha8Rng::seed_from_u64(0x5eed));
    let prm = SolverParams {
        max_push_speed: TEST_PUSH,
        linear_slop: 0.005,
        position_correction: 0.2,
        max_correction: 0.2,
        restitution_threshold: 1.0,
    };
    // A low cap, so that random turning pairs reach it.
    const TEST_PUSH: f32 = 0.01;
    let (mut solved_in_lanes, mut pushed, mut capped) = (0, 0, 0);
    // Bundles per `faces` (mixed, all on A, all on B).
    let mut faces = [0; 3];
    for _ in 0..3000 {
        let (bodies, poses, mut vc, gc) = case(&mut g);
        let (mut vb, gb) = bundle(&vc, &gc, &bodies);
        faces[gb.faces as usize] += 1;
        for h in [1.0 / 240.0, 0.0] {
            // Anchor update.
            let inv_h = if h > 0.0 { 1.0 / h } else { 0.0 };
            for l in 0..4 {
                update_one(&mut vc[l], &gc[l], &bodies, &poses, h, inv_h, TEST_PUSH);
            }
            update_planar(&mut vb, &gb, &bodies, &poses, h, inv_h, TEST_PUSH);
            for (l, c) in vc.iter().enumerate() {
                assert_eq!(constraint_bits(&vb.lane(l)), constraint_bits(c), "update");
                let count = c.count as usize;
                capped += c.points[..count]
                    .iter()
                    .filter(|p| p.bias == -TEST_PUSH)
                    .count();
            }
            assert_eq!(vb.all_block, vc.iter().all(|c| c.block_ok));
        }
        // Warm start and two velocity passes.
        let (mut scalar, mut lanes) = (bodies.clone(), bodies.clone());
        for c in &vc {
            warm_one(c, &mut scalar);
        }
        warm_start_bundle(&vb, &mut lanes);
        assert_eq!(body_bits(&lanes), body_bits(&scalar), "warm start");
        if vb.in_lanes() {
            solved_in_lanes += 1;
            for _ in 0..2 {
                for c in &mut vc {
                    solve_one(c, &mut scalar);
                }
                solve_bundle(&mut vb, &mut lanes);
                assert_eq!(body_bits(&lanes), body_bits(&scalar), "velocity");
                for (l, c) in vc.iter().enumerate() {
                    assert_eq!(constraint_bits(&vb.lane(l)), constraint_bits(c));
                }
            }
        }
        // Position pass.
        let (mut scalar, mut lanes) = (poses.clone(), poses.clone());
        for c in &gc {
            position_one(c, &bodies, &mut scalar, &prm);
        }
        let (qa, qb) = (PoseW::gather(&lanes, &gb.a), PoseW::gather(&lanes, &gb.b));
        let moved = position_planar(&gb, qa, qb, &prm);
        pushed += moved.is_some() as u32;
        scatter_poses(&gb, moved, &mut lanes);
        assert_eq!(pose_bits(&lanes), pose_bits(&scalar), "position");
    }
    // The kernels' interesting paths were exercised.
    assert!(solved_in_lanes > 1000, "{solved_in_lanes} bundles in lanes");
    assert!(pushed > 1000, "{pushed} bundles pushed");
    assert!(capped > 100, "{capped} points at the push cap");
    assert!(
        faces.iter().all(|&n| n > 100),
        "bundles per faces {faces:?}"
    );
}
