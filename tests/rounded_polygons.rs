//! Rounded polygons (a convex core grown by a radius) against oracles that
//! share no code with the library: mass properties by row-by-row integration,
//! ray casts, containment and bounds from the f64 distance to the core
//! (`common`), on seeded random shapes.

mod common;

use common::{log_uniform, point_in_polygon, point_segment_distance, random_polygon};
use glam::DVec2;
use minkowski::{Iso, Shape, Vec2};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random rounded polygon: a random core (0.1–3 m, aspect up to 8) and a
/// radius from 1% of the core's size to twice its size.
fn random_rounded(rng: &mut ChaCha8Rng) -> (Vec<DVec2>, f64, Shape) {
    let Shape::Polygon(core) = random_polygon(rng) else {
        unreachable!("random_polygon gives polygons")
    };
    let size = core.bounding_radius();
    let radius = log_uniform(rng, 0.01 * size, 2.0 * size);
    let verts = core.vertices().iter().map(|v| common::d(*v)).collect();
    (verts, radius as f64, Shape::RoundedPolygon { core, radius })
}

/// f64 distance from `p` to the convex counter-clockwise polygon (0 inside).
fn distance_to_core(p: DVec2, core: &[DVec2]) -> f64 {
    if point_in_polygon(p, core) {
        return 0.0;
    }
    (0..core.len())
        .map(|i| point_segment_distance(p, core[i], core[(i + 1) % core.len()]))
        .fold(f64::INFINITY, f64::min)
}

/// The minimiser of a convex function on `[lo, hi]` (ternary search).
fn convex_min(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..200 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if f(m1) <= f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    0.5 * (lo + hi)
}

/// The root of `f` in `[lo, hi]` where `f(lo)` and `f(hi)` differ in sign.
fn root(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    let neg_lo = f(lo) <= 0.0;
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if (f(mid) <= 0.0) == neg_lo {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Area, centroid and polar moment about the centroid of the points within
/// `r` of `core`, integrated row by row: each row's chord is found by
/// bisection on the convex `x ↦ dist((x, y), core) − r`, then integrated
/// exactly in x; the rows are summed by the midpoint rule in y.
fn integrate(core: &[DVec2], r: f64, rows: usize) -> (f64, DVec2, f64) {
    let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
    for v in core {
        lo = lo.min(*v);
        hi = hi.max(*v);
    }
    // A margin beyond the shape in x, so that the ends of every chord are
    // roots strictly inside the bracket. Not in y: the rows must span exactly
    // the shape's height, where a flat top or bottom makes the chord jump.
    let pad = DVec2::new(r + 0.01 * (hi - lo).length(), r);
    let (lo, hi) = (lo - pad, hi + pad);
    let h = (hi.y - lo.y) / rows as f64;
    let (mut area, mut mx, mut my, mut j) = (0.0, 0.0, 0.0, 0.0);
    for k in 0..rows {
        let y = lo.y + (k as f64 + 0.5) * h;
        let g = |x: f64| distance_to_core(DVec2::new(x, y), core) - r;
        let xm = convex_min(g, lo.x, hi.x);
        if g(xm) > 0.0 {
            continue;
        }
        let (x0, x1) = (root(g, lo.x, xm), root(g, xm, hi.x));
        let w = x1 - x0;
        area += w * h;
        mx += 0.5 * (x1 * x1 - x0 * x0) * h;
        my += w * y * h;
        j += ((x1.powi(3) - x0.powi(3)) / 3.0 + w * y * y) * h;
    }
    let c = DVec2::new(mx, my) / area;
    (area, c, j - area * c.length_squared())
}

#[test]
fn mass_properties_match_numerical_integration() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x0b0d);
    let cases = if cfg!(debug_assertions) { 3 } else { 24 };
    let mut worst = 0.0f64;
    for _ in 0..cases {
        let (core, r, shape) = random_rounded(&mut rng);
        let mp = shape.mass_properties(2.0);
        let (area, c, i) = integrate(&core, r, 6000);
        let size = core.iter().map(|v| v.length()).fold(0.0, f64::max) + r;
        let rel = |a: f64, b: f64| (a - b).abs() / b.abs();
        worst = worst
            .max(rel(mp.mass as f64, 2.0 * area))
            .max((common::d(mp.centroid) - c).length() / size)
            .max(rel(mp.inertia as f64, 2.0 * i));
        assert!(
            rel(mp.mass as f64, 2.0 * area) < 1e-5,
            "mass {} vs {} for {shape:?}",
            mp.mass,
            2.0 * area
        );
        assert!(
            (common::d(mp.centroid) - c).length() < 1e-5 * size,
            "centroid {} vs {c} for {shape:?}",
            mp.centroid
        );
        assert!(
            rel(mp.inertia as f64, 2.0 * i) < 1e-5,
            "inertia {} vs {} for {shape:?}",
            mp.inertia,
            2.0 * i
        );
    }
    println!("mass properties: worst relative error {worst:.2e} over {cases} shapes");
}

#[test]
fn mass_of_a_rounded_box_in_closed_form() {
    // A 2a × 2b box grown by r: area 4ab + 4(a + b)r + πr² (core, four
    // rectangles, four quarter discs making one disc).
    let (a, b, r) = (0.4f32, 20.0f32, 0.2f32);
    let mp = Shape::rounded_rect(a, b, r).mass_properties(1.0);
    let area = 4.0 * a * b + 4.0 * (a + b) * r + std::f32::consts::PI * r * r;
    assert!((mp.mass - area).abs() < 1e-5 * area);
    assert!(mp.centroid.length() < 1e-5);
    // A radius of 0 is the plain box, bit for bit.
    assert_eq!(Shape::rounded_rect(a, b, 0.0), Shape::rect(a, b));
}

/// The first `t ≥ 0` where `o + t·d` is within `r` of `core`, and the outward
/// normal there (from the nearest core point), or `None` on a miss.
fn ray_oracle(core: &[DVec2], r: f64, o: DVec2, d: DVec2, max: f64) -> Option<(f64, DVec2)> {
    let g = |t: f64| distance_to_core(o + d * t, core) - r;
    if g(0.0) <= 0.0 {
        return Some((0.0, -d));
    }
    let tm = convex_min(g, 0.0, max);
    if g(tm) > 0.0 {
        return None;
    }
    let t = root(g, 0.0, tm);
    let p = o + d * t;
    // The nearest core point: the closest over the edges.
    let q = (0..core.len())
        .map(|i| common::closest_on_segment(p, core[i], core[(i + 1) % core.len()]))
        .min_by(|a, b| (p - *a).length().total_cmp(&(p - *b).length()))
        .unwrap();
    Some((t, (p - q).normalize()))
}

#[test]
fn ray_casts_match_the_oracle() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5a7);
    let cases = if cfg!(debug_assertions) {
        2_000
    } else {
        40_000
    };
    let (mut hits, mut checked) = (0, 0);
    for _ in 0..cases {
        let (core, r, shape) = random_rounded(&mut rng);
        let xf = Iso::new(
            Vec2::new(rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0)),
            rng.random_range(-3.2..3.2),
        );
        let world_core: Vec<DVec2> = core
            .iter()
            .map(|v| common::apply(&xf, Vec2::new(v.x as f32, v.y as f32)))
            .collect();
        let reach = shape.bounding_radius();
        let a = rng.random_range(0.0..std::f32::consts::TAU);
        let o = xf.translation + Vec2::new(libm::cosf(a), libm::sinf(a)) * reach * 1.5;
        // Aim at a random point near the shape: about half the rays hit.
        let aim = xf.translation
            + Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)) * reach * 1.2;
        let dir = (aim - o).normalize();
        let max = 4.0 * reach;
        let got = shape.ray_cast(&xf, o, dir, max);
        let want = ray_oracle(&world_core, r, common::d(o), common::d(dir), max as f64);
        // Grazing rays (the closest approach within rounding of the surface)
        // may go either way.
        let g = |t: f64| distance_to_core(common::d(o) + common::d(dir) * t, &world_core) - r;
        let closest = g(convex_min(g, 0.0, max as f64));
        if closest.abs() < 1e-4 * reach as f64 {
            continue;
        }
        checked += 1;
        match (got, want) {
            (None, None) => {}
            (Some(h), Some((t, n))) => {
                hits += 1;
                assert!(
                    (h.t as f64 - t).abs() < 1e-5 * reach as f64,
                    "t {} vs {t}: {shape:?} at {xf:?}, ray {o} {dir}",
                    h.t
                );
                assert!(
                    common::angle_between(common::d(h.normal), n) < 1e-3,
                    "normal {} vs {n}: {shape:?} at {xf:?}, ray {o} {dir}",
                    h.normal
                );
                assert!((h.point - (o + h.t * dir)).length() < 1e-5 * reach);
            }
            (g, w) => panic!("ray {g:?} vs oracle {w:?}: {shape:?} at {xf:?}, ray {o} {dir}"),
        }
    }
    assert!(
        hits > checked / 4 && hits < checked * 3 / 4,
        "{hits} of {checked}"
    );
}

#[test]
fn containment_and_bounds_match_the_distance_to_the_core() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xc0e);
    let (mut inside, mut outside) = (0, 0);
    for _ in 0..if cfg!(debug_assertions) { 300 } else { 3_000 } {
        let (core, r, shape) = random_rounded(&mut rng);
        let xf = Iso::new(
            Vec2::new(rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0)),
            rng.random_range(-3.2..3.2),
        );
        let world_core: Vec<DVec2> = core
            .iter()
            .map(|v| common::apply(&xf, Vec2::new(v.x as f32, v.y as f32)))
            .collect();
        let reach = shape.bounding_radius();
        for _ in 0..50 {
            let p = xf.translation
                + Vec2::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0)) * reach;
            let dist = distance_to_core(common::d(p), &world_core) - r;
            if dist.abs() < 1e-5 * reach as f64 {
                continue;
            }
            assert_eq!(
                shape.contains_point(&xf, p),
                dist < 0.0,
                "{p} {shape:?} {xf:?}"
            );
            if dist < 0.0 {
                inside += 1;
            } else {
                outside += 1;
            }
        }
        // The bounds are tight: each side is the support along that axis.
        let bb = shape.aabb(&xf);
        let support = |n: DVec2| {
            world_core
                .iter()
                .map(|v| n.dot(*v))
                .fold(f64::MIN, f64::max)
                + r
        };
        let tol = 1e-5 * (reach as f64 + xf.translation.length() as f64);
        for (got, want) in [
            (bb.max.x, support(DVec2::X)),
            (bb.max.y, support(DVec2::Y)),
            (-bb.min.x, support(-DVec2::X)),
            (-bb.min.y, support(-DVec2::Y)),
        ] {
            assert!((got as f64 - want).abs() < tol, "{got} vs {want}");
        }
        // The bounding radius covers every point of the shape.
        let origin_far = world_core
            .iter()
            .map(|v| (*v - common::d(xf.translation)).length())
            .fold(0.0, f64::max)
            + r;
        assert!((shape.bounding_radius() as f64 - origin_far).abs() < tol);
    }
    assert!(
        inside > 10 * outside / 100 && outside > 10 * inside / 100,
        "{inside} {outside}"
    );
}

#[test]
fn construction_and_validation() {
    let pts = [
        Vec2::new(-0.1, -0.05),
        Vec2::new(0.1, -0.05),
        Vec2::new(0.1, 0.05),
        Vec2::new(-0.1, 0.05),
    ];
    let s = Shape::rounded_polygon(&pts, 0.015).unwrap();
    assert_eq!(s.kind_name(), "rounded polygon");
    assert!(s.validate().is_ok());
    // Radius 0 gives the plain polygon.
    assert_eq!(
        Shape::rounded_polygon(&pts, 0.0).unwrap(),
        Shape::polygon(&pts).unwrap()
    );
    for bad in [-0.01, f32::NAN, f32::INFINITY, 2.0e4] {
        let e = Shape::rounded_polygon(&pts, bad).unwrap_err();
        assert!(
            matches!(
                e,
                minkowski::ShapeError::BadDimension { what: "radius", .. }
            ),
            "{e:?}"
        );
        assert!(Shape::rounded_rect(1.0, 1.0, bad).validate().is_err());
    }
    // A bad core is reported as for a polygon.
    assert_eq!(
        Shape::rounded_polygon(&pts[..2], 0.1),
        Err(minkowski::ShapeError::TooFewVertices { count: 2 })
    );
    assert_eq!(
        Shape::rounded_polygon(&pts, -1.0).unwrap_err().to_string(),
        "radius must be finite, > 0 and at most 10000 m, got -1"
    );
}

// ---------------------------------------------------------------------------
// Contacts and physics.

use minkowski::{narrowphase, BodyDef, BodyId, BodyKind, World, WorldSettings};

/// The manifold of a rounded box lying flat on each kind of flat support has
/// two points, at the analytic separation, both orders, tilted or not.
#[test]
fn flat_contacts_have_two_points() {
    let rb = Shape::rounded_rect(0.5, 0.25, 0.1);
    // Supports whose top face is the line y = 0 (A's frame).
    let supports = [
        (Shape::rect(5.0, 0.5), Iso::new(Vec2::new(0.0, -0.5), 0.0)),
        (
            Shape::rounded_rect(5.0, 0.4, 0.1),
            Iso::new(Vec2::new(0.0, -0.5), 0.0),
        ),
        (
            Shape::capsule(5.0, 0.5),
            Iso::new(Vec2::new(0.0, -0.5), std::f32::consts::FRAC_PI_2),
        ),
        (
            Shape::rounded_rect(0.7, 0.25, 0.1),
            Iso::new(Vec2::new(0.3, -0.35), 0.0),
        ),
    ];
    for (ground, xg) in &supports {
        for tilt in [0.0f32, 0.005, -0.02] {
            for gap in [0.01f32, 0.0, -0.005, -0.2] {
                // The box's lowest core corner is then `gap + 0.1` above y = 0.
                let half_drop = 0.5 * tilt.abs().sin() + 0.25 * tilt.cos();
                let xb = Iso::new(Vec2::new(0.1, gap + 0.1 + half_drop), tilt);
                for swap in [false, true] {
                    let m = if swap {
                        narrowphase::collide_uncached(&rb, &xb, ground, xg, 0.05)
                    } else {
                        narrowphase::collide_uncached(ground, xg, &rb, &xb, 0.05)
                    };
                    let ctx = format!("{ground:?} tilt {tilt} gap {gap} swap {swap}: {m:?}");
                    assert_eq!(m.count, 2, "{ctx}");
                    // The lowest corner is `gap` from the support; the other
                    // is raised by the tilt across the 1 m face.
                    let raised = gap + 1.0 * tilt.abs().sin();
                    let mut seps: Vec<f32> = m.points().iter().map(|p| p.separation).collect();
                    seps.sort_by(f32::total_cmp);
                    assert!((seps[0] - gap).abs() < 1e-4, "{ctx}");
                    assert!((seps[1] - raised).abs() < 2e-3, "{ctx}");
                    let up = if swap { -Vec2::Y } else { Vec2::Y };
                    assert!(m.normal.dot(up) > 0.999, "{ctx}");
                }
            }
        }
    }
}

fn ground(world: &mut World, shape: Shape, at: Iso) -> BodyId {
    world
        .add_body(
            BodyDef::new(shape, at.translation)
                .angle(at.rot.angle())
                .kind(BodyKind::Static),
        )
        .unwrap()
}

/// A rounded box dropped with a tilt and a spin onto each flat support lands
/// on a face, rests without rocking, and falls asleep.
#[test]
fn a_rounded_box_comes_to_rest_and_sleeps() {
    let supports = [
        (
            "box",
            Shape::rect(10.0, 0.5),
            Iso::new(Vec2::new(0.0, -0.5), 0.0),
        ),
        (
            "rounded box",
            Shape::rounded_rect(10.0, 0.4, 0.1),
            Iso::new(Vec2::new(0.0, -0.5), 0.0),
        ),
        (
            "capsule",
            Shape::capsule(10.0, 0.5),
            Iso::new(Vec2::new(0.0, -0.5), std::f32::consts::FRAC_PI_2),
        ),
    ];
    for (name, shape, at) in supports {
        let mut world = World::new(WorldSettings::default());
        ground(&mut world, shape.clone(), at);
        let (hx, hy, r) = (0.5, 0.25, 0.05);
        let id = world
            .add_body(
                BodyDef::new(Shape::rounded_rect(hx, hy, r), Vec2::new(0.0, 1.0))
                    .angle(0.3)
                    .angular_velocity(2.0),
            )
            .unwrap();
        let mut steps = 0;
        while world.body(id).unwrap().is_awake() && steps < 600 {
            world.step();
            steps += 1;
        }
        let b = world.body(id).unwrap();
        let (y, a) = (b.position().y, b.angle());
        println!("rounded box on a {name}: asleep after {steps} steps at y = {y:.5}, angle {a:.5}");
        assert!(!b.is_awake(), "{name}: still awake after {steps} steps");
        // Flat on its long face: y = hy + r, angle a multiple of π.
        assert!(libm::sinf(a).abs() < 1e-3, "{name}: angle {a}");
        assert!((y - (hy + r)).abs() < 0.01, "{name}: y {y}");
        // At rest, the manifold holds both corners of the face.
        let m = narrowphase::collide_uncached(&shape, &at, b.shape(), &b.transform(), 0.02);
        assert_eq!(m.count, 2, "{name}: {m:?}");

        // The same without sleep: from 2 s to 5 s the box does not rock
        // (no spin, no bounce), which sleeping could hide.
        let mut world = World::new(WorldSettings {
            sleep: false,
            ..WorldSettings::default()
        });
        ground(&mut world, shape.clone(), at);
        let id = world
            .add_body(
                BodyDef::new(Shape::rounded_rect(hx, hy, r), Vec2::new(0.0, 1.0))
                    .angle(0.3)
                    .angular_velocity(2.0),
            )
            .unwrap();
        let (mut spin, mut speed, mut heights) = (0.0f32, 0.0f32, (f32::MAX, f32::MIN));
        for step in 0..300 {
            world.step();
            if step >= 120 {
                let b = world.body(id).unwrap();
                spin = spin.max(b.angular_velocity().abs());
                speed = speed.max(b.linear_velocity().length());
                heights = (heights.0.min(b.position().y), heights.1.max(b.position().y));
            }
        }
        println!(
            "  without sleep, 2 s to 5 s: spin at most {spin:.2e} rad/s, speed {speed:.2e} m/s, \
             height within {:.2e} m",
            heights.1 - heights.0
        );
        assert!(spin < 1e-3 && speed < 1e-3, "{name}: rocking");
        assert!(heights.1 - heights.0 < 1e-4, "{name}: bouncing");
    }
}

/// Ten rounded boxes stacked exactly touching stand for 10 s: the top one
/// neither drifts nor sinks.
#[test]
fn a_stack_of_ten_rounded_boxes_stands() {
    let mut world = World::new(WorldSettings::default());
    ground(
        &mut world,
        Shape::rect(20.0, 1.0),
        Iso::new(Vec2::new(0.0, -1.0), 0.0),
    );
    // Core 0.8 m, radius 0.1 m: each box is 1 m tall, set off sideways by up
    // to 5 cm (seeded) so that the stack is not symmetric.
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    let boxes: Vec<(BodyId, Vec2)> = (0..10)
        .map(|i| {
            let at = Vec2::new(rng.random_range(-0.05..0.05), 0.5 + i as f32);
            let def = BodyDef::new(Shape::rounded_rect(0.4, 0.4, 0.1), at);
            (world.add_body(def).unwrap(), at)
        })
        .collect();
    let (mut drift, mut sink, mut tilt) = (0.0f32, 0.0f32, 0.0f32);
    for _ in 0..600 {
        world.step();
        for (id, at) in &boxes {
            let b = world.body(*id).unwrap();
            drift = drift.max((b.position().x - at.x).abs());
            sink = sink.max(at.y - b.position().y);
            tilt = tilt.max(b.angle().abs());
        }
    }
    let asleep = boxes
        .iter()
        .all(|(id, _)| !world.body(*id).unwrap().is_awake());
    println!(
        "stack of 10 rounded boxes over 10 s: drift at most {drift:.2e} m, sink {sink:.4} m, \
         tilt {tilt:.2e} rad, asleep {asleep}"
    );
    assert!(drift < 0.01, "drift {drift}");
    assert!(sink < 0.05, "sink {sink}");
    assert!(tilt < 0.01, "tilt {tilt}");
    assert!(asleep);
}

// ---------------------------------------------------------------------------
// Scene files.

use minkowski::scene::Scene;

/// A test scene: a rounded box, a rounded foot (Box2D's ragdoll foot is a
/// four-point hull with a radius), a compound with a rounded part, and a
/// radius of 0, which is the plain box.
const SCENE: &str = r#"Scene(
  name: "rounded",
  bodies: [
    (shape: Rect(hx: 20.0, hy: 0.5), kind: Static, pos: (0.0, -0.5)),
    (shape: RoundedRect(hx: 0.4, hy: 2.0, radius: 0.2), pos: (-4.0, 2.5)),
    (shape: RoundedPolygon(points: [(-0.06, -0.015), (0.12, -0.015), (0.12, 0.015), (-0.06, 0.015)], radius: 0.015), pos: (0.0, 0.5)),
    (shape: Circle(r: 0.3), pos: (4.0, 1.0),
     shapes: [(shape: RoundedRect(hx: 0.5, hy: 0.1, radius: 0.1), offset: (0.0, -0.5))]),
    (shape: RoundedRect(hx: 0.5, hy: 0.5, radius: 0.0), pos: (8.0, 0.5)),
  ],
)"#;

#[test]
fn scenes_write_rounded_shapes_and_round_trip() {
    let scene = Scene::from_ron_str(SCENE, "rounded").unwrap_or_else(|e| panic!("{e}"));
    let world = scene.build().unwrap_or_else(|e| panic!("{e}"));
    let shapes: Vec<Vec<Shape>> = world
        .bodies()
        .map(|(_, b)| b.colliders().iter().map(|c| c.shape().clone()).collect())
        .collect();
    assert_eq!(shapes[1], vec![Shape::rounded_rect(0.4, 2.0, 0.2)]);
    let foot = [
        Vec2::new(-0.06, -0.015),
        Vec2::new(0.12, -0.015),
        Vec2::new(0.12, 0.015),
        Vec2::new(-0.06, 0.015),
    ];
    assert_eq!(
        shapes[2],
        vec![Shape::rounded_polygon(&foot, 0.015).unwrap()]
    );
    assert_eq!(shapes[3][1], Shape::rounded_rect(0.5, 0.1, 0.1));
    assert_eq!(shapes[4], vec![Shape::rect(0.5, 0.5)]);
    // Written and read back: the same scene and the same world.
    let text = scene.to_ron_string();
    assert!(
        text.contains("RoundedRect(hx: 0.4, hy: 2.0, radius: 0.2)"),
        "{text}"
    );
    let again = Scene::from_ron_str(&text, "again").unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(again, scene);
    assert_eq!(again.build().unwrap().state_hash(), world.state_hash());

    // Everything comes to rest on the ground.
    let mut world = world;
    let mut steps = 0;
    while world.awake_count() > 0 && steps < 1200 {
        world.step();
        steps += 1;
    }
    println!("rounded scene: asleep after {steps} steps");
    assert_eq!(world.awake_count(), 0, "awake after {steps} steps");
    // Resting heights: the half height of each outline above the ground
    // (core plus radius), within the contact slop.
    let heights = [(1, 2.2), (2, 0.03), (3, 0.7), (4, 0.5)];
    let bodies: Vec<_> = world.bodies().map(|(_, b)| b).collect();
    for (k, want) in heights {
        let (p, a) = (bodies[k].position(), bodies[k].angle());
        assert!(
            (p.y - want).abs() < 0.01 && a.abs() < 1e-3,
            "body {k} at {p}, angle {a}"
        );
    }
}

/// The world's queries see the rounded outline: rays stop at the offset
/// faces and the corner arcs, points and shapes are tested against it, and
/// an explosion measures the distance to it.
#[test]
fn world_queries_see_the_rounded_outline() {
    use minkowski::world::Explosion;
    let mut world = World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    });
    // A 2 × 1 core grown by 0.25, centred at (1, 2): flat faces at
    // x = 1 ± 1.25 and y = 2 ± 0.75, corner arcs about (1 ± 1, 2 ± 0.5).
    let id = world
        .add_body(BodyDef::new(
            Shape::rounded_rect(1.0, 0.5, 0.25),
            Vec2::new(1.0, 2.0),
        ))
        .unwrap();
    let down = world
        .ray_cast(Vec2::new(1.5, 10.0), -Vec2::Y, 100.0, u32::MAX)
        .unwrap();
    assert_eq!(down.body, id);
    assert!((down.distance - 7.25).abs() < 1e-5 && (down.normal - Vec2::Y).length() < 1e-6);
    // Along the diagonal through the upper right corner's centre: the arc.
    let corner = Vec2::new(2.0, 2.5);
    let diag = Vec2::new(1.0, 1.0).normalize();
    let hit = world
        .ray_cast(corner + 3.0 * diag, -diag, 100.0, u32::MAX)
        .unwrap();
    assert!((hit.distance - 2.75).abs() < 1e-5, "{hit:?}");
    assert!((hit.point - (corner + 0.25 * diag)).length() < 1e-5);
    assert!((hit.normal - diag).length() < 1e-5);
    // Points just inside and just outside the arc (both in the bounding box).
    let inside = world.overlap_point(corner + 0.24 * diag, u32::MAX, |_| true);
    let outside = world.overlap_point(corner + 0.26 * diag, u32::MAX, |_| true);
    assert_eq!((inside.len(), outside.len()), (1, 0));
    // A disc of radius 0.1 whose centre is 0.34 or 0.36 from the corner.
    let probe = Shape::circle(0.1);
    for (gap, touches) in [(0.34f32, true), (0.36, false)] {
        let at = Iso::new(corner + gap * diag, 0.0);
        let found = world.overlap_shape(&probe, &at, u32::MAX, |_| true);
        assert_eq!(found.len(), touches as usize, "gap {gap}");
    }
    // An explosion 1 m beyond the corner arc pushes with the falloff's share.
    let e = Explosion {
        center: corner + 1.25 * diag,
        radius: 0.5,
        falloff: 1.0,
        impulse: 2.0,
    };
    assert_eq!(world.explode(&e), 1);
    let b = world.body(id).unwrap();
    let pushed = b.linear_velocity().length() * b.mass();
    // d = 1 m: the impulse falls linearly from 0.5 m to 1.5 m, to one half.
    assert!((pushed - 1.0).abs() < 1e-4, "impulse {pushed}");
}

/// Box2D's pyramid (base 20) of rounded boxes of the same outer size as its
/// 1 m boxes stands: no box moves 2 cm in 10 s (the box pyramid: under 2 cm,
/// `physics.rs`).
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "210 bodies for 600 steps: run with cargo test --release"
)]
fn a_pyramid_of_rounded_boxes_stands() {
    let mut world = World::new(WorldSettings::default());
    ground(
        &mut world,
        Shape::rect(40.0, 1.0),
        Iso::new(Vec2::new(0.0, -1.0), 0.0),
    );
    let base = 20;
    let mut boxes = Vec::new();
    for i in 0..base {
        let y = (2 * i + 1) as f32 * 0.5;
        for j in i..base {
            let x = (i + 1) as f32 * 0.5 + (j - i) as f32 - base as f32 * 0.5;
            let at = Vec2::new(x, y);
            let def = BodyDef::new(Shape::rounded_rect(0.4, 0.4, 0.1), at);
            boxes.push((world.add_body(def).unwrap(), at));
        }
    }
    for _ in 0..600 {
        world.step();
    }
    let moved = boxes
        .iter()
        .map(|(id, at)| world.body(*id).unwrap().position().distance(*at))
        .fold(0.0f32, f32::max);
    println!(
        "rounded pyramid base 20: max displacement after 600 steps {moved:.5} m, {} awake",
        world.awake_count()
    );
    assert!(moved < 0.02, "a box moved {moved} m");
}
