//! Scripted scenes: cues fire at their steps, spawned batches appear and are
//! recycled, kinematic bodies follow their motion profiles exactly, a
//! snapshot carries the script, bad cues are located errors, and the copies
//! of Box2D's scripted benchmarks (`rain`, `junkyard`) make the same bodies
//! over time as Box2D does.

use minkowski::scene::Scene;
use minkowski::{Vec2, World};

fn scene(text: &str) -> Scene {
    Scene::from_ron_str(text, "test.ron").unwrap_or_else(|e| panic!("{e}"))
}

fn build(text: &str) -> World {
    scene(text).build().unwrap_or_else(|e| panic!("{e}"))
}

fn error(text: &str) -> String {
    match Scene::from_ron_str(text, "test.ron").and_then(|s| s.build().map(|_| ())) {
        Ok(()) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

/// A world frame stand-in far away, so scenes have a static body.
const FLOOR: &str = "(shape: Rect(hx: 50.0, hy: 0.5), kind: Static, pos: (0.0, -100.0))";

#[test]
fn rain_makes_the_same_bodies_over_time_as_box2d() {
    // Box2D v3 (617d32a) body counts, ground included, measured with
    // tools/box2d-counts.c: `box2d-counts rain 400 100`.
    let box2d = [(100, 3576), (200, 6876), (300, 10451), (336, 11001)];
    let mut w = Scene::builtin("rain").unwrap().build().unwrap();
    for (step, count) in box2d {
        while w.step_index() < step {
            w.step();
        }
        assert_eq!(w.body_count(), count, "after {step} steps");
    }
    // 40 columns of 25 humans of 11 bones and 10 hinges, and the ground.
    assert_eq!(w.joint_count(), 40 * 25 * 10);
}

#[test]
fn junkyard_is_box2ds_bin_and_pusher() {
    let s = Scene::builtin("junkyard").unwrap();
    let w = s.build().unwrap();
    // Box2D: body 8002 / shape 8262 (`benchmark -b=junkyard -w=1`).
    assert_eq!(w.body_count(), 8002);
    let shapes: usize = w.bodies().map(|(_, b)| b.colliders().len()).sum();
    assert_eq!(shapes, 8262);
}

#[test]
fn a_sine_motion_is_followed_exactly() {
    let mut w = build(&format!(
        "Scene(gravity: (0.0, 0.0), bodies: [{FLOOR},
            (shape: Rect(hx: 2.0, hy: 4.0), kind: Kinematic, pos: (0.0, 4.0),
             motion: Sine(amplitude: (60.0, 0.0), omega: 0.2, angular_amplitude: 0.5)),
        ])"
    ));
    let id = w.bodies().nth(1).unwrap().0;
    let dt = w.settings().dt;
    let mut worst = 0.0f32;
    for n in 1..=600u32 {
        w.step();
        let t = n as f32 * dt;
        let b = w.body(id).unwrap();
        let s = (0.2 * t).sin();
        worst = worst
            .max((b.position() - Vec2::new(60.0 * s, 4.0)).length())
            .max((b.angle() - 0.5 * s).abs());
    }
    // 60 m of travel in f32 steps of up to 0.2 m: a few ulps of 60 m.
    assert!(worst < 5e-5, "worst deviation from the profile {worst}");
}

#[test]
fn keyframes_are_followed_and_held() {
    let mut w = build(&format!(
        "Scene(gravity: (0.0, 0.0), bodies: [{FLOOR},
            (shape: Circle(r: 0.5), kind: Kinematic, pos: (1.0, 2.0),
             motion: Keyframes(keys: [(0.0, (0.0, 0.0), 0.0), (1.0, (3.0, 0.0), 1.0), (2.0, (3.0, 3.0), 1.0)])),
        ])"
    ));
    let id = w.bodies().nth(1).unwrap().0;
    let pos_at = |w: &mut World, step: u64| {
        while w.step_index() < step {
            w.step();
        }
        let b = w.body(id).unwrap();
        (b.position(), b.angle())
    };
    let (p, a) = pos_at(&mut w, 30);
    assert!(
        (p - Vec2::new(2.5, 2.0)).length() < 1e-4 && (a - 0.5).abs() < 1e-4,
        "{p} {a}"
    );
    let (p, _) = pos_at(&mut w, 90);
    assert!((p - Vec2::new(4.0, 3.5)).length() < 1e-4, "{p}");
    let (p, a) = pos_at(&mut w, 300);
    assert!(
        (p - Vec2::new(4.0, 5.0)).length() < 1e-4 && (a - 1.0).abs() < 1e-4,
        "{p} {a}"
    );
}

const SPAWNER: &str = r#"Scene(
  bodies: [
    (shape: Rect(hx: 40.0, hy: 0.5), kind: Static, pos: (0.0, -0.5)),
    (name: "ball", shape: Circle(r: 0.5), pos: (-20.0, 0.5), density: 2.0),
  ],
  script: [
    (at: 0, every: 10, times: 4, do: Spawn(tag: "stack", shift: (4.0, 0.0),
        bodies: [
          (name: "base", shape: Rect(hx: 0.5, hy: 0.5), pos: (0.0, 3.0)),
          (shape: Circle(r: 0.3), pos: (0.0, 4.0)),
        ],
        joints: [Revolute(a: "base", b: 1, anchor: (0.0, 3.6))])),
    (at: 60, every: 20, times: 3, do: Recycle("stack")),
    (time: 0.5, do: Impulse(body: "ball", impulse: (4.0, 0.0))),
    (at: 100, do: Gravity((0.0, -5.0))),
    (at: 150, do: Remove("ball")),
  ],
)"#;

#[test]
fn cues_fire_at_their_steps() {
    let mut w = build(SPAWNER);
    let ball = w.bodies().nth(1).unwrap().0;
    let counts: Vec<(u64, usize, usize)> = (0..45)
        .map(|_| {
            w.step();
            (w.step_index(), w.body_count(), w.joint_count())
        })
        .filter(|(s, _, _)| s % 10 == 1)
        .collect();
    assert_eq!(
        counts,
        vec![(1, 4, 1), (11, 6, 2), (21, 8, 3), (31, 10, 4), (41, 10, 4)]
    );
    // The impulse fires before step 30 (0.5 s): 4 N·s on 2π·0.25 kg... on a
    // 2 kg/m² disc of radius 0.5 (mass π/2 kg).
    let mut w = build(SPAWNER);
    for _ in 0..30 {
        w.step();
    }
    let v_before = w.body(ball).unwrap().linear_velocity().x;
    w.step();
    let v_after = w.body(ball).unwrap().linear_velocity().x;
    let expected = 4.0 / (2.0 * std::f32::consts::PI * 0.25);
    assert!(
        (v_after - v_before - expected).abs() < 0.05 * expected,
        "impulse gave {} m/s, expected {expected}",
        v_after - v_before
    );
    while w.step_index() < 101 {
        w.step();
    }
    assert_eq!(w.settings().gravity, Vec2::new(0.0, -5.0));
    while w.step_index() < 151 {
        w.step();
    }
    assert!(w.body(ball).is_none(), "the ball was removed at step 150");
}

#[test]
fn a_recycled_batch_is_dropped_again_where_it_was_spawned() {
    let mut w = build(SPAWNER);
    for _ in 0..60 {
        w.step();
    }
    // Before the first recycle the first batch (x = 0) has fallen to the floor.
    let lowest_at_0 = |w: &World| {
        w.bodies()
            .filter(|(_, b)| b.position().x.abs() < 1.0 && b.position().y > 0.0)
            .map(|(_, b)| b.position().y)
            .fold(f32::INFINITY, f32::min)
    };
    assert!(lowest_at_0(&w) < 1.0);
    w.step();
    // Step 60 recycled it: back at its spawn height, and the count is unchanged.
    assert_eq!(w.body_count(), 10);
    assert!(lowest_at_0(&w) > 2.5, "{}", lowest_at_0(&w));
}

fn snapshot(world: &World) -> World {
    World::from_snapshot(&world.snapshot()).expect("a snapshot restores")
}

#[test]
fn a_snapshot_carries_the_script() {
    let mut w = build(SPAWNER);
    for _ in 0..55 {
        w.step();
    }
    let mut r = snapshot(&w);
    for i in 0..120 {
        w.step();
        r.step();
        assert_eq!(
            r.state_hash(),
            w.state_hash(),
            "diverged {} steps after",
            i + 1
        );
        assert_eq!(r.body_count(), w.body_count());
    }
    // Two runs agree too.
    let run = || {
        let mut w = build(SPAWNER);
        (0..200)
            .map(|_| {
                w.step();
                w.state_hash()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(run(), run());
}

#[test]
fn bad_cues_are_located_errors() {
    let with = |cue: &str| format!("Scene(bodies: [{FLOOR}], script: [{cue}])");
    let cases = [
        (
            "(at: 0, do: Recycle(\"nope\"))",
            "script cue 0 (Recycle), field `tag`: no earlier Spawn has tag \"nope\"",
        ),
        (
            "(at: 0, every: 5, do: Spawn(bodies: [(shape: Circle(r: 1.0), pos: (0.0, 0.0))]))",
            "a spawn must say how many times it fires",
        ),
        ("(do: Gravity((0.0, -1.0)))", "give one of `at` (a step) or `time` (s)"),
        ("(at: 1, time: 1.0, do: Gravity((0.0, -1.0)))", "give one of `at`"),
        ("(at: 1, do: Remove(7))", "there is no body 7"),
        ("(at: 1, do: Impulse(body: \"ghost\", impulse: (1.0, 0.0)))", "no body is named \"ghost\""),
        ("(at: 1, do: Gravity((0.0, inf)))", "gravity.y"),
        (
            "(at: 0, every: 1, times: 100000, do: Spawn(bodies: [(shape: Circle(r: 1.0), pos: (0.0, 0.0))]))",
            "at most 100000 are allowed",
        ),
        (
            "(at: 0, every: 1, times: 3, do: Spawn(shift: (1e6, 0.0), bodies: [(shape: Circle(r: 1.0), pos: (0.0, 0.0))]))",
            "shift",
        ),
    ];
    for (cue, expected) in cases {
        let e = error(&with(cue));
        assert!(
            e.contains(expected),
            "{cue}\n  gave: {e}\n  expected: {expected}"
        );
    }
    let e = error(
        "Scene(bodies: [(shape: Circle(r: 1.0), pos: (0.0, 0.0), motion: Sine(omega: 1.0))])",
    );
    assert!(e.contains("only a kinematic body follows a motion"), "{e}");
    let e = error(
        "Scene(bodies: [(shape: Circle(r: 1.0), kind: Kinematic, pos: (0.0, 0.0),
           motion: Keyframes(keys: [(1.0, (0.0, 0.0), 0.0), (1.0, (1.0, 0.0), 0.0)]))])",
    );
    assert!(e.contains("times must increase"), "{e}");
    // A syntax error in a cue names the line and column.
    let e = error(&with("(at: 0, do: Teleport((1.0, 2.0)))"));
    assert!(e.starts_with("test.ron:1:"), "{e}");
}

#[test]
fn a_scene_with_a_script_round_trips_through_ron() {
    let s = scene(SPAWNER);
    let again = scene(&s.to_ron_string());
    assert_eq!(s, again);
}
