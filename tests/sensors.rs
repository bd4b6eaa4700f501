//! Sensors and hits: a body passing through a sensor is reported entering
//! once and leaving once and is not deflected; sensors see only what their
//! filter accepts, never other sensors, and report a removed visitor as
//! leaving; a hit carries the approach speed; `sensor: true` in a scene file
//! and `run --events` write the same events.

use minkowski::dynamics::{Filter, ShapeDef};
use minkowski::scene::Scene;
use minkowski::world::WorldEvent;
use minkowski::{BodyDef, BodyKind, Shape, Vec2, World, WorldSettings};

fn zero_g() -> World {
    World::new(WorldSettings {
        gravity: Vec2::ZERO,
        ..WorldSettings::default()
    })
}

fn sensor_zone(w: &mut World, hx: f32) -> minkowski::BodyId {
    let zone = ShapeDef {
        sensor: true,
        ..ShapeDef::new(Shape::rect(hx, 1.0))
    };
    w.add_body(BodyDef::compound(vec![zone], Vec2::ZERO).kind(BodyKind::Static))
        .unwrap()
}

#[test]
fn a_body_passing_through_a_sensor_enters_once_and_leaves_once() {
    for shape in [
        Shape::circle(0.2),
        Shape::rect(0.3, 0.1),
        Shape::ellipse(0.4, 0.1),
    ] {
        let mut w = zero_g();
        let zone = sensor_zone(&mut w, 1.0);
        let ball = w
            .add_body(
                BodyDef::new(shape.clone(), Vec2::new(-4.0, 0.3)).velocity(Vec2::new(3.0, 0.0)),
            )
            .unwrap();
        let (mut begins, mut ends, mut inside_steps) = (Vec::new(), Vec::new(), 0);
        for _ in 0..240 {
            w.step();
            for e in w.take_events() {
                match e {
                    WorldEvent::SensorBegin {
                        sensor,
                        visitor,
                        step,
                        ..
                    } => {
                        assert_eq!((sensor, visitor), (zone, ball));
                        begins.push(step);
                    }
                    WorldEvent::SensorEnd {
                        sensor,
                        visitor,
                        step,
                        ..
                    } => {
                        assert_eq!((sensor, visitor), (zone, ball));
                        ends.push(step);
                    }
                    other => panic!("unexpected {other:?}"),
                }
            }
            let visitors = w.body(zone).unwrap().colliders()[0].visitor_count();
            inside_steps += visitors;
        }
        let b = w.body(ball).unwrap();
        println!(
            "{}: entered at step {begins:?}, left at {ends:?}, {inside_steps} steps inside",
            shape.kind_name()
        );
        assert_eq!((begins.len(), ends.len()), (1, 1));
        assert!(begins[0] < ends[0]);
        // Through 2 m of zone plus the body's width at 3 m/s, 60 steps a second.
        let expected = ((2.0 + 2.0 * shape.aabb(&minkowski::Iso::IDENTITY).half_extents().x) / 3.0
            * 60.0) as usize;
        assert!(
            inside_steps.abs_diff(expected) <= 1,
            "{inside_steps} vs {expected}"
        );
        // Not deflected: a sensor never collides.
        assert_eq!(b.linear_velocity(), Vec2::new(3.0, 0.0));
        assert!(w.contacts().next().is_none());
    }
}

#[test]
fn sensors_respect_filters_ignore_sensors_and_report_removed_visitors() {
    let mut w = zero_g();
    let zone = sensor_zone(&mut w, 2.0);
    // Another sensor inside the zone: never reported.
    let other = ShapeDef {
        sensor: true,
        ..ShapeDef::new(Shape::circle(0.3))
    };
    w.add_body(BodyDef::compound(vec![other], Vec2::new(0.5, 0.0)))
        .unwrap();
    // A body the zone's filter rejects (its mask leaves out category 2).
    let hidden = ShapeDef {
        filter: Filter {
            category: 2,
            ..Filter::default()
        },
        ..ShapeDef::new(Shape::circle(0.3))
    };
    w.add_body(BodyDef::compound(vec![hidden], Vec2::new(-0.5, 0.0)))
        .unwrap();
    let seen = w
        .add_body(BodyDef::new(Shape::circle(0.3), Vec2::new(1.0, 0.5)))
        .unwrap();
    // Restrict the zone: rebuild it with a mask without category 2.
    w.remove_body(zone);
    let masked = ShapeDef {
        sensor: true,
        filter: Filter {
            mask: !2,
            ..Filter::default()
        },
        ..ShapeDef::new(Shape::rect(2.0, 1.0))
    };
    let zone = w
        .add_body(BodyDef::compound(vec![masked], Vec2::ZERO).kind(BodyKind::Static))
        .unwrap();
    w.step();
    let events = w.take_events();
    let begins: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            WorldEvent::SensorBegin {
                sensor, visitor, ..
            } => Some((*sensor, *visitor)),
            _ => None,
        })
        .collect();
    assert_eq!(begins, vec![(zone, seen)], "{events:?}");
    w.remove_body(seen);
    let events = w.take_events();
    assert!(
        matches!(events.as_slice(), [WorldEvent::SensorEnd { sensor, visitor, .. }] if *sensor == zone && *visitor == seen),
        "{events:?}"
    );
    w.step();
    assert!(w.take_events().is_empty());
}

#[test]
fn a_hit_reports_the_approach_speed() {
    let mut w = World::new(WorldSettings::default());
    w.add_body(BodyDef::new(Shape::rect(5.0, 0.5), Vec2::new(0.0, -0.5)).kind(BodyKind::Static))
        .unwrap();
    // Dropped from 2 m (bottom at 2 m): it arrives at sqrt(2·10·2) = 6.32 m/s.
    w.add_body(BodyDef::new(Shape::circle(0.25), Vec2::new(0.0, 2.25)))
        .unwrap();
    w.set_contact_events(true);
    let mut hits = Vec::new();
    for _ in 0..120 {
        w.step();
        for e in w.take_events() {
            if let WorldEvent::Hit { speed, normal, .. } = e {
                hits.push((speed, normal));
            }
        }
    }
    println!("hits: {hits:?}");
    assert_eq!(hits.len(), 1, "{hits:?}");
    let (speed, normal) = hits[0];
    // The contact begins within the speculative reach, at most a step early.
    assert!((speed - 40f32.sqrt()).abs() < 10.0 / 60.0 + 1e-3, "{speed}");
    assert!((normal - Vec2::Y).length() < 1e-5);
}

#[test]
fn scene_sensors_and_the_events_file() {
    let text = r#"Scene(name: "zone", gravity: (0.0, 0.0), bodies: [
        (name: "zone", shape: Rect(hx: 1.0, hy: 1.0), kind: Static, pos: (0.0, 0.0), sensor: true),
        (shape: Circle(r: 0.2), pos: (-3.0, 0.0), vel: (4.0, 0.0)),
        (shape: Rect(hx: 0.5, hy: 0.5), kind: Static, pos: (5.0, 0.0), shapes: [(shape: Circle(r: 0.3), offset: (0.0, 2.0), sensor: true)]),
    ])"#;
    let mut w = Scene::from_ron_str(text, "zone").unwrap().build().unwrap();
    let mut kinds = Vec::new();
    for _ in 0..120 {
        w.step();
        kinds.extend(w.take_events().into_iter().map(|e| match e {
            WorldEvent::SensorBegin { sensor, .. } => format!("in{}", sensor.index),
            WorldEvent::SensorEnd { sensor, .. } => format!("out{}", sensor.index),
            WorldEvent::ContactBegin { .. } => "begin".into(),
            WorldEvent::ContactEnd { .. } => "end".into(),
            other => format!("{other:?}"),
        }));
    }
    // Through the zone, then into the box beside the second body's sensor part.
    assert_eq!(kinds, ["in0", "out0"], "{kinds:?}");

    let dir = std::env::temp_dir().join(format!("minkowski-sensors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scene = dir.join("zone.ron");
    let log = dir.join("events.jsonl");
    std::fs::write(&scene, text).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_minkowski"))
        .args([
            "run",
            scene.to_str().unwrap(),
            "--steps",
            "200",
            "--events",
            log.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = std::fs::read_to_string(&log).unwrap();
    let types: Vec<&str> = lines
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert!(v["step"].is_u64(), "{l}");
            match v["type"].as_str().unwrap() {
                "SensorBegin" => "in",
                "SensorEnd" => "out",
                "ContactBegin" => "begin",
                "ContactEnd" => "end",
                "Hit" => "hit",
                t => panic!("{t}"),
            }
        })
        .collect();
    // The ball passes the zone, then strikes the box at 4 m/s and stays.
    assert_eq!(types, ["in", "out", "begin", "hit"], "{lines}");
    std::fs::remove_dir_all(&dir).ok();
}
