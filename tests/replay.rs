//! Replays: a scripted session (spawn, drag, delete) is recorded, saved, loaded
//! and re-simulated with every checkpoint matching; tampering is caught at the
//! first diverging checkpoint; corrupted and truncated files get clear errors.

use minkowski::replay::{
    apply_input, Divergence, InputEvent, Recorder, Recording, ReplayError, Replayer,
    CHECKPOINT_EVERY,
};
use minkowski::scene::{BodySpec, Scene, ShapeSpec};
use minkowski::{Vec2, World};
use proptest::prelude::*;
use std::path::PathBuf;

const STEPS: u64 = 200;

/// The script: (step, event).
fn script() -> Vec<(u64, InputEvent)> {
    let mut s = vec![
        (
            0,
            InputEvent::Spawn(BodySpec::new(
                ShapeSpec::Circle { r: 0.4 },
                Vec2::new(7.0, 3.0),
            )),
        ),
        (
            5,
            InputEvent::Spawn(BodySpec {
                name: None,
                filter: Default::default(),
                vel: Vec2::new(-3.0, 0.0),
                restitution: 0.3,
                ..BodySpec::new(ShapeSpec::Rect { hx: 0.3, hy: 0.6 }, Vec2::new(8.0, 6.0))
            }),
        ),
        // Grab the top box of the middle column and pull it up and right.
        (
            20,
            InputEvent::DragStart {
                at: Vec2::new(0.1, 9.5),
            },
        ),
    ];
    for k in 21..60 {
        let t = (k - 20) as f32 / 40.0;
        s.push((
            k,
            InputEvent::DragMove {
                target: Vec2::new(3.0 * t, 9.5 + 3.0 * t),
            },
        ));
    }
    s.push((60, InputEvent::DragEnd));
    // Knock out the bottom box of the left column, twice in one step (the second
    // finds the box that fell into its place, or nothing).
    s.push((
        90,
        InputEvent::Delete {
            at: Vec2::new(-4.0, 0.5),
        },
    ));
    s.push((
        90,
        InputEvent::Delete {
            at: Vec2::new(-4.0, 0.5),
        },
    ));
    // Points with nothing there, and a drag move with no drag: no-ops.
    s.push((
        100,
        InputEvent::Delete {
            at: Vec2::new(50.0, 50.0),
        },
    ));
    s.push((
        100,
        InputEvent::DragStart {
            at: Vec2::new(50.0, 50.0),
        },
    ));
    s.push((
        101,
        InputEvent::DragMove {
            target: Vec2::new(1.0, 1.0),
        },
    ));
    s.push((102, InputEvent::DragEnd));
    s
}

/// Plays the script live, recording it. Returns the recording, the final world
/// and every step's hash.
fn record() -> (Recording, World, Vec<u64>) {
    let scene = Scene::builtin("stack").expect("shipped");
    let mut world = scene.build().expect("builds");
    let mut rec = Recorder::new(scene);
    let script = script();
    let mut next = 0;
    let mut hashes = Vec::new();
    for _ in 0..STEPS {
        while next < script.len() && script[next].0 == world.step_index() {
            apply_input(&mut world, &script[next].1);
            rec.record(world.step_index(), script[next].1.clone());
            next += 1;
        }
        world.step();
        rec.after_step(&world);
        hashes.push(world.state_hash());
    }
    (rec.finish(), world, hashes)
}

fn tmp(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name)
}

#[test]
fn scripted_replay_round_trips() {
    let (rec, world, hashes) = record();
    // Checkpoints every 60 steps, plus the final step.
    let steps: Vec<u64> = rec.checkpoints.iter().map(|c| c.0).collect();
    assert_eq!(steps, vec![60, 120, 180, 200]);
    assert_eq!(CHECKPOINT_EVERY, 60);
    for &(k, h) in &rec.checkpoints {
        assert_eq!(h, hashes[k as usize - 1]);
    }
    // The events did something: spawned two, deleted one or two.
    let untouched = Scene::builtin("stack")
        .unwrap()
        .build()
        .unwrap()
        .body_count();
    assert!(
        world.body_count() == untouched + 1 || world.body_count() == untouched,
        "{}",
        world.body_count()
    );

    assert_eq!(rec.verify(), Ok(STEPS));

    let path = tmp("scripted.replay.ron");
    rec.save(&path).expect("save");
    let loaded = Recording::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded, rec);
    assert_eq!(loaded.verify(), Ok(STEPS));

    // Step by step, the replayer sees the live run's hashes.
    let mut player = Replayer::new(loaded).expect("builds");
    let mut i = 0;
    while !player.finished() {
        player.step().expect("no divergence");
        assert_eq!(player.world().state_hash(), hashes[i], "step {}", i + 1);
        i += 1;
    }
    assert_eq!(i as u64, STEPS);
    assert_eq!(player.world().state_hash(), world.state_hash());
}

#[test]
fn events_change_the_outcome() {
    let (rec, _, _) = record();
    let quiet = Recording {
        events: Vec::new(),
        ..rec.clone()
    };
    let d = quiet
        .verify()
        .expect_err("without the events the hashes differ");
    assert_eq!(d.step, 60);
}

#[test]
fn a_tampered_checkpoint_names_its_step() {
    let (mut rec, _, _) = record();
    rec.checkpoints[2].1 ^= 1;
    let expected = rec.checkpoints[2].1;
    let d: Divergence = rec.verify().expect_err("tampered");
    assert_eq!(d.step, 180);
    assert_eq!(d.expected, expected);
    assert_eq!(d.actual, expected ^ 1);
    assert!(
        d.to_string()
            .starts_with("diverged at step 180: expected hash 0x"),
        "{d}"
    );
}

#[test]
fn a_tampered_event_diverges_at_the_next_checkpoint() {
    let (mut rec, _, _) = record();
    for (step, ev) in rec.events.iter_mut() {
        if *step == 90 {
            *ev = InputEvent::Delete {
                at: Vec2::new(4.0, 0.5),
            };
        }
    }
    assert_eq!(rec.verify().expect_err("tampered").step, 120);
}

#[test]
fn truncated_and_corrupted_files_get_clear_errors() {
    let (rec, _, _) = record();
    let text = rec.to_ron_string();

    let cut = &text[..text.len() * 2 / 3];
    let err = Recording::from_ron_str(cut, "cut.replay.ron").expect_err("truncated");
    assert!(matches!(err, ReplayError::Syntax { .. }), "{err}");
    assert!(err.to_string().starts_with("cut.replay.ron:"), "{err}");
    assert!(err.to_string().contains("unexpected end of file"), "{err}");

    let garbage = text.replacen("checkpoints", "checkpoint5", 1);
    let err = Recording::from_ron_str(&garbage, "bad.replay.ron").expect_err("unknown field");
    assert!(
        err.to_string()
            .contains("Unexpected field named `checkpoint5`"),
        "{err}"
    );

    let err = Recording::from_ron_str("\u{0}\u{1}binary", "bin.replay.ron").expect_err("binary");
    assert!(err.to_string().starts_with("bin.replay.ron:1:1: "), "{err}");

    let err = Recording::load(&tmp("does-not-exist.replay.ron")).expect_err("missing");
    assert!(err.to_string().contains("cannot read the replay"), "{err}");
}

#[test]
fn out_of_order_and_invalid_recordings_are_rejected() {
    let (rec, _, _) = record();
    let mut events = rec.clone();
    events.events.swap(0, 5);
    let err = Recording::from_ron_str(&events.to_ron_string(), "r").expect_err("order");
    assert!(
        err.to_string().contains("events must be in step order"),
        "{err}"
    );

    let mut checks = rec.clone();
    checks.checkpoints.swap(0, 1);
    let err = Recording::from_ron_str(&checks.to_ron_string(), "r").expect_err("order");
    assert!(err.to_string().contains("not after checkpoint"), "{err}");

    let mut none = rec.clone();
    none.checkpoints.clear();
    let err = Recording::from_ron_str(&none.to_ron_string(), "r").expect_err("empty");
    assert!(err.to_string().contains("no checkpoints"), "{err}");

    let mut bad_scene = rec.clone();
    bad_scene.scene.settings.dt = -1.0;
    let err = Recording::from_ron_str(&bad_scene.to_ron_string(), "r").expect_err("scene");
    assert_eq!(
        err.to_string(),
        "r: embedded scene: field `dt`: must be > 0 and at most 1 s, got -1"
    );

    let mut far = rec;
    far.checkpoints.push((u64::MAX, 0));
    let err = Recording::from_ron_str(&far.to_ron_string(), "r").expect_err("cap");
    assert!(err.to_string().contains("beyond the cap"), "{err}");
}

#[test]
fn apply_input_never_panics_on_odd_events() {
    let mut world = Scene::builtin("bounce").unwrap().build().unwrap();
    let odd = [
        InputEvent::Spawn(BodySpec::new(ShapeSpec::Circle { r: f32::NAN }, Vec2::ZERO)),
        InputEvent::Spawn(BodySpec::new(ShapeSpec::Polygon(vec![]), Vec2::ZERO)),
        InputEvent::Spawn(BodySpec::new(
            ShapeSpec::Circle { r: 1.0 },
            Vec2::new(f32::INFINITY, 0.0),
        )),
        InputEvent::DragStart {
            at: Vec2::new(f32::NAN, 0.0),
        },
        InputEvent::DragMove {
            target: Vec2::new(f32::NAN, f32::INFINITY),
        },
        InputEvent::Delete {
            at: Vec2::new(f32::NEG_INFINITY, 0.0),
        },
        InputEvent::DragEnd,
        InputEvent::DragEnd,
        // Drag the ground (static): nothing happens.
        InputEvent::DragStart {
            at: Vec2::new(0.0, -0.5),
        },
        InputEvent::DragMove {
            target: Vec2::new(0.0, 100.0),
        },
    ];
    let n = world.body_count();
    for ev in &odd {
        apply_input(&mut world, ev);
        world.step();
    }
    assert_eq!(world.body_count(), n);
    assert!(world.drag().is_none());
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x4d4b_0005),
        ..ProptestConfig::default()
    })]

    /// Random byte edits of a replay file: never a panic; what still loads verifies
    /// to a result (match or divergence).
    #[test]
    fn mutated_replays_never_panic(edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..4)) {
        let text = small_recording().to_ron_string();
        let mut bytes = text.into_bytes();
        for (i, b) in edits {
            let n = bytes.len();
            bytes[i % n] = b;
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(rec) = Recording::from_ron_str(&text, "m.replay.ron") {
            if rec.end_step() <= 400 && rec.scene.body_count() <= 100 {
                let _ = rec.verify();
            }
        }
    }
}

fn small_recording() -> Recording {
    let scene = Scene::builtin("bounce").unwrap();
    let mut world = scene.build().unwrap();
    let mut rec = Recorder::new(scene);
    for k in 0..130u64 {
        if k == 3 {
            let ev = InputEvent::DragStart {
                at: Vec2::new(0.0, 8.0),
            };
            apply_input(&mut world, &ev);
            rec.record(k, ev);
        }
        if k == 40 {
            let ev = InputEvent::Delete {
                at: Vec2::new(4.0, 7.0),
            };
            apply_input(&mut world, &ev);
            rec.record(k, ev);
        }
        world.step();
        rec.after_step(&world);
    }
    rec.finish()
}

/// A session with every joint tool on the stack scene: pin, hinge, rope,
/// spring, weld, a motor switched on and off, and a joint cut.
#[test]
fn joint_tools_replay_exactly() {
    use minkowski::replay::JointTool;
    let scene = Scene::builtin("stack").expect("shipped");
    let mut world = scene.build().expect("builds");
    let boxes: Vec<Vec2> = world
        .bodies()
        .filter(|(_, b)| b.kind() == minkowski::BodyKind::Dynamic)
        .map(|(_, b)| b.position())
        .collect();
    assert!(boxes.len() >= 6);
    let (p0, p1, p2, p3, p4) = (boxes[0], boxes[1], boxes[2], boxes[3], boxes[5]);
    let script: Vec<(u64, InputEvent)> = vec![
        (
            5,
            InputEvent::Joint {
                tool: JointTool::Pin,
                a: p0,
                b: p0,
            },
        ),
        (
            10,
            InputEvent::Joint {
                tool: JointTool::Hinge,
                a: p1,
                b: p2,
            },
        ),
        (
            15,
            InputEvent::Joint {
                tool: JointTool::Rope,
                a: Vec2::new(0.0, 14.0),
                b: p3,
            },
        ),
        (
            20,
            InputEvent::Joint {
                tool: JointTool::Spring,
                a: p4,
                b: p2 + Vec2::new(0.1, 0.0),
            },
        ),
        (
            25,
            InputEvent::Joint {
                tool: JointTool::Weld,
                a: p3,
                b: p4,
            },
        ),
        (
            30,
            InputEvent::ToggleMotor {
                at: p0,
                radius: 0.3,
            },
        ),
        (
            90,
            InputEvent::ToggleMotor {
                at: p0,
                radius: 0.3,
            },
        ),
        (
            120,
            InputEvent::CutJoint {
                at: p2,
                radius: 0.3,
            },
        ),
    ];
    let mut rec = Recorder::new(scene);
    let mut next = 0;
    let mut most = 0;
    for _ in 0..240 {
        while next < script.len() && script[next].0 == world.step_index() {
            apply_input(&mut world, &script[next].1);
            rec.record(world.step_index(), script[next].1.clone());
            next += 1;
        }
        world.step();
        rec.after_step(&world);
        most = most.max(world.joint_count());
    }
    assert_eq!(most, 5, "every tool made its joint");
    assert_eq!(world.joint_count(), 4, "one joint was cut");
    let rec = rec.finish();
    assert_eq!(rec.verify(), Ok(240));
    let path = tmp("joint_tools.replay.ron");
    rec.save(&path).expect("save");
    let loaded = Recording::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded, rec);
    assert_eq!(loaded.verify(), Ok(240));
}

/// Settings changes and removals are inputs like any other: a session that
/// changes gravity, substeps and sleep mid-run and removes a body saves,
/// loads and re-simulates to the same bits; without the changes it diverges.
#[test]
fn settings_changes_and_removals_replay_exactly() {
    use minkowski::replay::Tuning;
    let scene = Scene::builtin("stack").expect("shipped");
    let mut world = scene.build().expect("builds");
    let mut rec = Recorder::new(scene);
    let script = [
        (10, InputEvent::Tune(Tuning::Gravity(Vec2::new(3.0, -4.0)))),
        (10, InputEvent::Tune(Tuning::Substeps(7))),
        (50, InputEvent::Tune(Tuning::Sleep(false))),
        (
            70,
            InputEvent::Tune(Tuning::SleepThresholds {
                velocity: 0.3,
                time: 0.2,
            }),
        ),
        (80, InputEvent::Tune(Tuning::Sleep(true))),
        (90, InputEvent::Remove { index: 3 }),
        // Nothing in that slot any more: does nothing.
        (91, InputEvent::Remove { index: 3 }),
        (95, InputEvent::Remove { index: 9999 }),
    ];
    let n = world.body_count();
    let mut next = 0;
    for _ in 0..150 {
        while next < script.len() && script[next].0 == world.step_index() {
            apply_input(&mut world, &script[next].1);
            rec.record(world.step_index(), script[next].1.clone());
            next += 1;
        }
        world.step();
        rec.after_step(&world);
    }
    assert_eq!(world.body_count(), n - 1);
    assert_eq!(world.settings().gravity, Vec2::new(3.0, -4.0));
    assert_eq!(world.settings().substeps, 7);
    assert_eq!(world.settings().sleep_velocity, 0.3);
    let rec = rec.finish();
    let path = tmp("tuned.replay.ron");
    rec.save(&path).expect("save");
    let loaded = Recording::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded, rec);
    assert_eq!(loaded.verify(), Ok(150));
    let mut player = Replayer::new(loaded).expect("builds");
    while !player.finished() {
        player.step().expect("no divergence");
    }
    assert_eq!(player.world().state_hash(), world.state_hash());
    assert_eq!(player.world().settings(), world.settings());
    // Each change matters: drop any one and the replay diverges.
    for skip in [0, 1, 5] {
        let mut events = rec.events.clone();
        events.remove(skip);
        let d = Recording {
            events,
            ..rec.clone()
        }
        .verify();
        assert!(d.is_err(), "event {skip} made no difference");
    }
}
