//! Rounded polygons in the world: flat contacts clip to two points, rounded
//! boxes rest, sleep, stack and pile like boxes, scene files write them, and
//! the world's queries see their outline. Figures are printed.

use minkowski::scene::Scene;
use minkowski::{narrowphase, BodyDef, BodyId, BodyKind, Iso, Shape, Vec2, World, WorldSettings};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

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
// Scene files and world queries.

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
