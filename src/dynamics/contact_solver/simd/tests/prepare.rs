//! The build in lanes against the scalar build, bit for bit: random
//! contacts of one or two points, of every feature kind, rounded or not,
//! with static partners, bouncing or not, rolling or not, approaching fast
//! enough to be impacts or slowly, and bundles filled partly (padding).

use super::super::super::{build, Source};
use super::*;
use crate::narrowphase::manifold::{Manifold, ManifoldPoint, PointFeature};

/// One contact's inputs (what a `Source` borrows).
struct Input {
    a: u32,
    b: u32,
    center_a: Vec2,
    center_b: Vec2,
    gravity_a: f32,
    gravity_b: f32,
    manifold: Manifold,
    features: [PointFeature; 2],
    friction: f32,
    restitution: f32,
    rolling_arm: f32,
}

impl Input {
    fn source(&self, at: u32) -> Source<'_> {
        Source {
            contact: at,
            slot: 1000 + at,
            a: self.a,
            b: self.b,
            center_a: self.center_a,
            center_b: self.center_b,
            gravity_a: self.gravity_a,
            gravity_b: self.gravity_b,
            manifold: &self.manifold,
            features: &self.features,
            friction: self.friction,
            restitution: self.restitution,
            rolling_arm: self.rolling_arm,
        }
    }
}

fn input(g: &mut Gen, l: u32, count: usize) -> Input {
    let (mut a, mut b) = (2 * l, 2 * l + 1);
    if g.coin(0.2) {
        b = STATIC;
    } else if g.coin(0.2) {
        a = STATIC;
    }
    let angle = g.f(-3.1, 3.1);
    let normal = Vec2::new(libm::cosf(angle), libm::sinf(angle));
    let rounded = g.coin(0.4);
    let feature = |g: &mut Gen| PointFeature {
        kind: match g.f(0.0, 3.0) as u32 {
            0 => FeatureKind::PlaneA,
            1 => FeatureKind::PlaneB,
            _ => FeatureKind::Points,
        },
        pa: g.v(3.0),
        pb: g.v(3.0),
        normal: Vec2::new(normal.y, -normal.x),
        length: if g.coin(0.1) { -1.0 } else { g.f(0.0, 0.6) },
        radius: if rounded { g.f(0.01, 0.2) } else { 0.0 },
        point_radius: if rounded { g.f(0.0, 0.1) } else { 0.0 },
    };
    let features = [feature(g), feature(g)];
    let point = |g: &mut Gen| ManifoldPoint {
        point: g.v(3.0),
        // Speculative points (a gap) as well as touching ones.
        separation: g.f(-0.02, 0.05),
        id: 0,
        normal_impulse: g.f(0.0, 5.0),
        tangent_impulse: g.f(-1.0, 1.0),
    };
    let manifold = Manifold {
        normal,
        points: [point(g), point(g)],
        count,
        rolling_impulse: g.f(-0.01, 0.01),
    };
    let gravity = |g: &mut Gen, body: u32| {
        if body == STATIC {
            0.0
        } else if g.coin(0.7) {
            1.0
        } else {
            g.f(-1.0, 2.0)
        }
    };
    Input {
        a,
        b,
        center_a: g.v(3.0),
        center_b: g.v(3.0),
        gravity_a: gravity(g, a),
        gravity_b: gravity(g, b),
        manifold,
        features,
        friction: g.f(0.0, 1.0),
        restitution: if g.coin(0.3) { g.f(0.0, 1.0) } else { 0.0 },
        rolling_arm: if g.coin(0.5) { g.f(0.0, 0.05) } else { 0.0 },
    }
}

/// The scalar build's constraints stored into a bundle's lanes, as the
/// solver stored them before it built in lanes.
fn scalar_bundle(
    inputs: &[Input],
    fill: usize,
    bodies: &[SolverBody],
    gravity: Vec2,
) -> (
    VelocityBundle,
    SolveBundle,
    GeometryBundle,
    [ConstraintInfo; LANES],
    bool,
) {
    let built: Vec<_> = (0..LANES)
        .map(|l| {
            let at = if l < fill { l } else { 0 };
            let i = &inputs[at];
            let (sa, sb) = (&bodies[i.a as usize], &bodies[i.b as usize]);
            build(&i.source(at as u32), sa, sb, gravity)
        })
        .collect();
    let single = built[0].velocity.count == 1;
    let mut v = VelocityBundle {
        fill: fill as u8,
        single,
        independent_of_next: true,
        ..Default::default()
    };
    let mut g = GeometryBundle {
        single,
        independent_of_next: true,
        ..Default::default()
    };
    let mut s = SolveBundle::default();
    for (l, c) in built.iter().enumerate() {
        v.set_new_lane(&mut s, l, &c.velocity);
        g.set_lane(l, &c.geometry);
    }
    finish(&mut v, &mut g, fill, bodies);
    let info = std::array::from_fn(|l| built[l].info);
    let bouncy = built[..fill].iter().any(|c| c.info.restitution != 0.0);
    (v, s, g, info, bouncy)
}

#[test]
fn the_build_in_lanes_equals_the_scalar_build_bit_for_bit() {
    let mut g = Gen(ChaCha8Rng::seed_from_u64(41));
    let gravity = Vec2::new(0.0, -10.0);
    let (mut impacts, mut bounces, mut rolls, mut padded) = (0, 0, 0, 0);
    for case_no in 0..3000 {
        let count = 1 + case_no % 2;
        let fill = if g.coin(0.3) {
            1 + (g.f(0.0, LANES as f32) as usize).min(LANES - 1)
        } else {
            LANES
        };
        let mut bodies: Vec<SolverBody> = (0..2 * LANES)
            .map(|_| {
                let speed = if g.coin(0.1) { 30.0 } else { 2.0 };
                SolverBody {
                    v: g.v(speed),
                    w: g.f(-5.0, 5.0),
                    inv_mass: g.f(0.1, 2.0),
                    inv_inertia: if g.coin(0.1) { 0.0 } else { g.f(0.1, 6.0) },
                }
            })
            .collect();
        bodies.push(SolverBody::default());
        let inputs: Vec<Input> = (0..fill as u32).map(|l| input(&mut g, l, count)).collect();
        let (v, s, gb, info, bouncy) = scalar_bundle(&inputs, fill, &bodies, gravity);

        let mut lanes = ContactBundles::default();
        let at: Vec<u32> = (0..fill as u32).collect();
        lanes.push_bundle(&at, &bodies, gravity, &mut |i| inputs[i as usize].source(i));
        // Debug prints every field, floats in shortest round-trip form,
        // which tells apart any two values (and the signs of zeros).
        assert_eq!(
            format!("{:?}", lanes.velocity[0]),
            format!("{v:?}"),
            "case {case_no}"
        );
        assert_eq!(
            format!("{:?}", lanes.solve[0]),
            format!("{s:?}"),
            "case {case_no}"
        );
        assert_eq!(
            format!("{:?}", lanes.geometry[0]),
            format!("{gb:?}"),
            "case {case_no}"
        );
        assert_eq!(
            format!("{:?}", lanes.info[0]),
            format!("{info:?}"),
            "case {case_no}"
        );
        assert_eq!(lanes.bouncy[0], bouncy, "case {case_no}");
        built_over_old_matches(&lanes, &at, &bodies, gravity, &inputs, case_no);

        impacts += (0..fill).filter(|&l| get(&s.impact, l) > 0.5).count();
        bounces += info[..fill]
            .iter()
            .filter(|i| i.approach.iter().any(|&a| a != 0.0))
            .count();
        rolls += (0..fill).filter(|&l| get(&v.rolling_arm, l) > 0.0).count();
        padded += (fill < LANES) as usize;
    }
    // The cases reach every branch of the build.
    assert!(impacts > 100, "impacts: {impacts}");
    assert!(bounces > 100, "bounces: {bounces}");
    assert!(rolls > 100, "rolling lanes: {rolls}");
    assert!(padded > 100, "padded bundles: {padded}");
}

/// A bundle built over an old one (as every step builds over the last
/// step's, see `ContactBundles::velocity`), here one holding NaN in every
/// float, is after the anchor update what a bundle built new is, bit for
/// bit: every field the build leaves as it was is written before it is
/// read.
fn built_over_old_matches(
    new: &ContactBundles,
    at: &[u32],
    bodies: &[SolverBody],
    gravity: Vec2,
    inputs: &[Input],
    case_no: usize,
) {
    let nan = f32::NAN;
    let point = VelocityPoint {
        normal: Vec2::new(nan, nan),
        arm_na: nan,
        arm_nb: nan,
        arm_ta: nan,
        arm_tb: nan,
        bias: nan,
        mass: nan,
        tangent_mass: nan,
        normal_impulse: nan,
        tangent_impulse: nan,
        max_normal_impulse: nan,
    };
    let poison = VelocityConstraint {
        a: 0,
        b: 0,
        friction: nan,
        count: 2,
        block_ok: true,
        k: [nan; 4],
        rolling_arm: nan,
        angular_mass: nan,
        rolling_impulse: nan,
        impact: true,
        quiet: true,
        points: [point; 2],
    };
    let mut old = new.clone();
    for l in 0..LANES {
        old.velocity[0].set_lane(&mut old.solve[0], l, &poison);
        old.solve[0].all_block = true;
    }
    for p in &mut old.geometry[0].points {
        p.ab = V2::new(F::splat(nan), F::splat(nan));
        p.fnormal = p.ab;
        (p.flength, p.radius, p.point_radius) = (F::splat(nan), F::splat(nan), F::splat(nan));
    }
    old.clear();
    old.push_bundle(at, bodies, gravity, &mut |i| inputs[i as usize].source(i));
    assert_eq!(old.len, 1);
    let poses: Vec<SolverPose> = bodies.iter().map(|_| SolverPose::default()).collect();
    let mut fresh = new.clone();
    for b in [&mut fresh, &mut old] {
        let (v, s, g) = (&mut b.velocity[0], &mut b.solve[0], &b.geometry[0]);
        let quiet = Quiet::Mark {
            depth: 0.001,
            span: 0.01,
        };
        super::super::velocity::update_bundle(v, s, g, bodies, &poses, 1.0 / 240.0, 3.0, quiet);
    }
    assert_eq!(
        format!("{:?}", old.velocity[0]),
        format!("{:?}", fresh.velocity[0]),
        "case {case_no}: built over an old bundle"
    );
    assert_eq!(
        format!("{:?}", old.solve[0]),
        format!("{:?}", fresh.solve[0]),
        "case {case_no}: built over an old bundle"
    );
    assert_eq!(
        format!("{:?}", old.geometry[0]),
        format!("{:?}", fresh.geometry[0]),
        "case {case_no}: built over an old bundle"
    );
}
