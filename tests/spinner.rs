//! Box2D v3's `spinner` benchmark as shipped (`scenes/spinner.ron`): what
//! the scene makes, and how it runs: the clockwise chain loop holds the
//! bodies inside the 40 m circle, nothing blows up, and the motor of
//! unlimited torque holds the paddle at 5 rad/s under the load. Each test
//! prints the figures it measured.
//!
//! Box2D itself (v3 at 617d32a, one worker, a C program linked against it)
//! after 300 steps: no centre outside the circle, the farthest point of any
//! body 40.25 m from the centre (steps 10 to 300, sampled every 10), the
//! paddle between 4.972 and 5.002 rad/s after step 60. Here too no body
//! gets out; the crowd that the paddle drives into the wall sinks a little
//! deeper (to 40.30 m at step 300, 40.35 m sampled every 10 steps). Before
//! 2026-11-26, 9 bodies got out: continuous collision pinned bodies pressed
//! into the wall at their core's depth, let go of any whose centre came
//! within the core's radius of the line, and did not sweep slow bodies, so
//! a slow step carried their centre behind the one-sided segment
//! (docs/2026-11-26-spinner-escapes.md).

use minkowski::scene::{Scene, ShapeSpec};
use minkowski::world::WorldEvent;
use minkowski::{Body, BodyKind, SupportMap, Vec2};

/// Centre and radius of the chain loop (m).
const CENTRE: Vec2 = Vec2::new(0.0, 32.0);
const RADIUS: f32 = 40.0;

#[test]
fn the_spinner_scene_makes_box2ds_bodies() {
    let scene = Scene::builtin("spinner").unwrap();
    let (bodies, joints) = scene.expand();
    assert_eq!(bodies.len(), 6_078, "ground, paddle, 2 × 3,038 bodies");
    assert_eq!(joints.len(), 1);
    let ShapeSpec::Chain { points, closed } = &bodies[0].shape else {
        panic!("the ground is a chain");
    };
    assert!(*closed);
    assert_eq!(points.len(), 360);
    assert_eq!(bodies[0].kind, BodyKind::Static);
    // Every point on the 40 m circle; the turn from each point to the next
    // is clockwise (negative cross product about the centre), which puts the
    // solid side of the one-sided edges outside, holding bodies in.
    for (i, p) in points.iter().enumerate() {
        let r = (*p - CENTRE).length();
        assert!((r - RADIUS).abs() < 1e-3, "point {i} at {r} m");
        let q = points[(i + 1) % points.len()];
        let turn = (*p - CENTRE).perp_dot(q - CENTRE);
        if i + 1 < points.len() {
            assert!(turn < 0.0, "edge {i} turns counter-clockwise");
        } else {
            // Box2D's approximate −1° turns the points 366.3° round: the
            // closing edge runs back, counter-clockwise, over the first six.
            assert!(turn > 0.0, "the closing edge turns clockwise");
        }
    }
    assert_eq!(
        bodies[1].shape,
        ShapeSpec::RoundedRect {
            hx: 0.4,
            hy: 20.0,
            radius: 0.2
        }
    );
    let mut kinds = [0usize; 3];
    for b in &bodies[2..] {
        assert_eq!((b.density, b.friction, b.restitution), (0.25, 0.1, 0.1));
        match b.shape {
            ShapeSpec::Capsule { .. } => kinds[0] += 1,
            ShapeSpec::Circle { .. } => kinds[1] += 1,
            ShapeSpec::Rect { .. } => kinds[2] += 1,
            ref other => panic!("unexpected shape {other:?}"),
        }
    }
    assert_eq!(kinds, [2_026, 2_025, 2_025]);
    // Box2D's grid: x from −23 by 0.5 while below 23, so 92 a row; the last
    // body is the fourth of row 66 (6,076 = 66 · 92 + 4; y = 2 + 66 · 0.5).
    assert_eq!(bodies[2].pos, Vec2::new(-23.0, 2.0));
    assert_eq!(bodies[2 + 92].pos, Vec2::new(-23.0, 2.5));
    assert_eq!(bodies[6_077].pos, Vec2::new(-21.5, 35.0));

    let world = scene.build().unwrap();
    assert_eq!(world.body_count(), 6_078);
    let ground = world.bodies().next().unwrap().1;
    assert_eq!(ground.colliders().len(), 360, "one segment per edge");
}

/// The farthest any point of the body reaches from the loop's centre, along
/// the line from the centre through the body (m).
fn reach_from_centre(body: &Body) -> f32 {
    let xf = body.transform();
    let dir = (body.center_of_mass() - CENTRE).normalize();
    body.colliders()
        .iter()
        .map(|c| {
            let pose = c.pose(&xf);
            let local = pose.rot.apply_inv(dir);
            let far = pose.apply(c.shape().local_support(local));
            (far - CENTRE).length()
        })
        .fold(0.0, f32::max)
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "6,078 bodies for 300 steps: run with cargo test --release"
)]
fn the_loop_holds_every_body_and_the_motor_holds_its_speed() {
    let mut world = Scene::builtin("spinner").unwrap().build().unwrap();
    let ids: Vec<_> = world.bodies().map(|(id, _)| id).collect();
    let paddle = ids[1];
    let mut speeds = Vec::new();
    for _ in 0..300 {
        world.step();
        speeds.push(world.body(paddle).unwrap().angular_velocity());
    }
    let events = world.take_events();
    let frozen = events
        .iter()
        .filter(|e| matches!(e, WorldEvent::BodyFrozen { .. }))
        .count();
    let buried = events
        .iter()
        .filter(|e| matches!(e, WorldEvent::BodyBuried { .. }))
        .count();
    assert_eq!(frozen, 0);
    let mut worst = (0.0f32, 0usize);
    let mut outside = 0;
    for (k, id) in ids.iter().enumerate().skip(2) {
        let b = world.body(*id).unwrap();
        assert!(!b.is_frozen(), "body {k} frozen");
        assert!(b.transform().is_finite(), "body {k} not finite");
        if (b.center_of_mass() - CENTRE).length() > RADIUS {
            outside += 1;
            continue;
        }
        let r = reach_from_centre(b);
        if r > worst.0 {
            worst = (r, k);
        }
    }
    let late = &speeds[60..];
    let (lo, hi) = late
        .iter()
        .fold((f32::MAX, f32::MIN), |(lo, hi), &w| (lo.min(w), hi.max(w)));
    let mean = late.iter().sum::<f32>() / late.len() as f32;
    println!(
        "spinner, 300 steps: centres outside the circle {outside}; farthest \
         reach of a body inside {:.4} m (body {}); paddle ω over steps \
         61..300: mean {mean:.4}, min {lo:.4}, max {hi:.4} rad/s; buried reports {buried}",
        worst.0, worst.1
    );
    assert_eq!(outside, 0, "{outside} bodies fell out of the loop");
    assert!(
        worst.0 < RADIUS + 0.5,
        "a body inside reaches {} m",
        worst.0
    );
    assert!(lo > 4.8 && hi < 5.2, "ω from {lo} to {hi} rad/s");
}
