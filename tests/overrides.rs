//! `--set KEY=VALUE`: a value set to what it already is changes nothing, bit
//! for bit, in every shipped scene; set values reach the world; a bad key,
//! index or value is a located error (exit 2 from the CLI), and the scene is
//! unchanged.

use minkowski::scene::{Generator, Scene, BUILTIN_NAMES};
use minkowski::{BodyKind, Vec2};

fn hash_after(scene: &Scene, steps: usize) -> u64 {
    let mut w = scene.build().unwrap();
    for _ in 0..steps {
        w.step();
    }
    w.state_hash()
}

#[test]
fn setting_a_value_to_itself_changes_nothing() {
    for name in BUILTIN_NAMES {
        let scene = Scene::builtin(name).unwrap();
        let mut same = scene.clone();
        same.set(&format!("seed={}", scene.seed), name).unwrap();
        assert_eq!(same, scene, "{name}");
        assert_eq!(hash_after(&same, 10), hash_after(&scene, 10), "{name}");
    }
}

#[test]
fn set_values_reach_the_scene() {
    let mut s = Scene::builtin("pit").unwrap();
    s.set("gravity=(0, -5)", "pit").unwrap();
    s.set("generators.0.count=100", "pit").unwrap();
    s.set("bodies.0.restitution=0.9", "pit").unwrap();
    s.set("bodies.1.kind=Kinematic", "pit").unwrap();
    s.set("bodies.2.shape=Circle(r: 0.5)", "pit").unwrap();
    s.set("seed=7", "pit").unwrap();
    assert_eq!(s.settings.gravity, Vec2::new(0.0, -5.0));
    assert!(matches!(
        s.generators[0],
        Generator::Rain { count: 100, .. }
    ));
    assert_eq!(s.bodies[0].restitution, 0.9);
    assert_eq!(s.bodies[1].kind, BodyKind::Kinematic);
    assert_eq!(s.seed, 7);
    assert_eq!(s.body_count(), 103);
    assert_ne!(
        hash_after(&s, 5),
        hash_after(&Scene::builtin("pit").unwrap(), 5)
    );
}

#[test]
fn bad_overrides_are_located_errors_and_change_nothing() {
    let original = Scene::builtin("pit").unwrap();
    for (set, expect) in [
        ("gravity", "pit: --set gravity: expected KEY=VALUE"),
        (
            "generators.0.cont=100",
            "pit: --set generators.0.cont: unknown field `cont`",
        ),
        (
            "bodies.9.friction=1",
            "pit: --set bodies.9.friction: `bodies` has 3 entries: no index 9",
        ),
        (
            "bodies.x.friction=1",
            "pit: --set bodies.x.friction: `bodies` is a list: `x` is not an index",
        ),
        ("gravity=(0,", "pit: --set gravity: bad value `(0,`"),
        (
            "seed.x=1",
            "pit: --set seed.x: `seed` is a single value, not a list or a structure",
        ),
        ("bodies.0.friction=-1", "pit: body 0, field `friction`"),
        ("dt=0", "pit: field `dt`: must be > 0"),
    ] {
        let mut s = original.clone();
        let err = s.set(set, "pit").unwrap_err().to_string();
        assert!(err.starts_with(expect), "{set}: {err}");
        assert_eq!(s, original, "{set}");
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_minkowski"))
        .args(["run", "pit", "--steps", "1", "--set", "bodies.9.friction=1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let ok = std::process::Command::new(env!("CARGO_BIN_EXE_minkowski"))
        .args(["check", "pit", "--set", "generators.0.count=10"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&ok.stdout).contains("13 bodies"));
}
