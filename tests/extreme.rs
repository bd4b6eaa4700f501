//! Extreme scenes: crowds stay bounded, buried bodies are reported, and the
//! crowd cap never touches an ordinary scene.
//!
//! Times are not asserted here (speed is measured with `minkowski run` and
//! `minkowski bench`; see `docs/2026-11-25-hostile-geometry.md`); what is
//! asserted is what bounds memory: the number of pairs.

use minkowski::broadphase::{MAX_FOUND_PAIRS, MAX_PAIRS_PER_BODY};
use minkowski::scene::Scene;
use minkowski::world::WorldEvent;
use minkowski::{BodyDef, BodyKind, Shape, Vec2, World, WorldSettings};
use std::path::PathBuf;

fn scene(text: &str) -> World {
    let s: Scene = Scene::from_ron_str(text, "test").expect("scene parses");
    s.build().expect("scene builds")
}

/// The most pairs any dynamic body has with other dynamic bodies.
fn max_moving_pairs(world: &World) -> usize {
    let mut count = std::collections::BTreeMap::new();
    for (a, b) in world.pairs() {
        let moving = |id| {
            world
                .body(id)
                .is_some_and(|b| b.kind() == BodyKind::Dynamic)
        };
        if moving(a) && moving(b) {
            *count.entry(a).or_insert(0usize) += 1;
            *count.entry(b).or_insert(0usize) += 1;
        }
    }
    count.values().copied().max().unwrap_or(0)
}

#[test]
fn a_thousand_bodies_at_one_point_stay_bounded() {
    let mut world = scene(
        r#"Scene(name: "crowd", bodies: [(shape: Rect(hx: 50.0, hy: 0.5), kind: Static, pos: (0.0, -0.5))],
           generators: [Grid(shape: Circle(r: 0.25), columns: 1000, rows: 1, origin: (0.0, 5.0), spacing: (0.0, 0.0))])"#,
    );
    let mut worst = 0;
    let steps = if cfg!(debug_assertions) { 10 } else { 120 };
    for _ in 0..steps {
        world.step();
        worst = worst.max(world.pair_count());
        let frozen = world
            .take_events()
            .into_iter()
            .filter(|e| matches!(e, WorldEvent::BodyFrozen { .. }))
            .count();
        assert_eq!(frozen, 0, "nothing blows up");
    }
    println!(
        "1000 circles at one point: at most {worst} pairs in {steps} steps (499,500 uncapped)"
    );
    // 1000 moving bodies × the per-body cap, plus their pairs with the ground.
    assert!(worst <= 1000 * MAX_PAIRS_PER_BODY as usize + 1000);
    let spread = world
        .bodies()
        .filter(|(_, b)| b.kind() == BodyKind::Dynamic)
        .map(|(_, b)| (b.position() - Vec2::new(0.0, 5.0)).length())
        .fold(0.0f32, f32::max);
    assert!(spread.is_finite());
    if steps == 120 {
        assert!(spread > 2.0, "the crowd spreads out ({spread} m)");
    }
}

#[test]
fn the_crowd_cap_never_binds_in_shipped_scenes() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    names.sort();
    let steps = if cfg!(debug_assertions) { 5 } else { 120 };
    let mut report = Vec::new();
    for path in names {
        let s = Scene::load(&path).expect("shipped scene loads");
        let mut world = s.build().expect("shipped scene builds");
        let mut worst = 0;
        let mut pairs = 0;
        for k in 0..steps {
            world.step();
            // Box2D's spinner binds the cap on a few steps (23 of 500
            // since 2026-11-26, 16 before): bodies the paddle flings at 50-150
            // m/s have swept boxes over dozens of neighbours, and the 40 m
            // paddle's box holds hundreds of bodies (docs/scenes.md).
            if s.name != "spinner" {
                assert_eq!(world.crowded_shapes(), 0, "{}: step {k} was capped", s.name);
            }
            pairs = pairs.max(world.pair_count());
            if k % 10 == 0 || k + 1 == steps {
                worst = worst.max(max_moving_pairs(&world));
            }
        }
        report.push(format!("{} {worst}/{pairs}", s.name));
        assert!(pairs < MAX_FOUND_PAIRS / 4, "{}: {pairs} pairs", s.name);
    }
    println!(
        "most pairs of one dynamic body with dynamic bodies / pairs in all, over {steps} steps: {}",
        report.join(", ")
    );
}

#[test]
fn a_light_box_under_a_heavy_one_is_held_or_reported() {
    let mut world = World::new(WorldSettings::default());
    world
        .add_body(BodyDef::new(Shape::rect(5.0, 0.5), Vec2::new(0.0, -0.5)).kind(BodyKind::Static))
        .unwrap();
    let light = world
        .add_body(BodyDef::new(Shape::rect(0.5, 0.5), Vec2::new(0.0, 0.5)))
        .unwrap();
    world
        .add_body(BodyDef::new(Shape::rect(0.5, 0.5), Vec2::new(0.0, 1.5)).density(1e6))
        .unwrap();
    let mut reported = None;
    for _ in 0..500 {
        world.step();
        for e in world.take_events() {
            if let WorldEvent::BodyBuried { body, depth, .. } = e {
                assert_eq!(body, light);
                reported.get_or_insert(depth);
            }
        }
    }
    let bottom = world.body(light).unwrap().position().y - 0.5;
    println!("1 kg under 1e6 kg: bottom at {bottom:.3} m, reported at {reported:?} m");
    assert!(bottom > -0.1 || reported.is_some_and(|d| d > 0.1));
    assert!(world.body(light).unwrap().is_buried() || bottom > -0.05);
}

/// 100,000 bodies on one point would start with 5·10⁹ overlapping pairs:
/// `check` and `run` refuse the scene with exit 2, naming where the crowd is.
#[test]
fn a_crowd_too_dense_to_step_is_refused_with_its_place() {
    let dir = std::env::temp_dir().join(format!("minkowski-crowd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("crowd.ron");
    std::fs::write(
        &path,
        r#"Scene(name: "crowd", bodies: [(shape: Rect(hx: 50.0, hy: 0.5), kind: Static, pos: (0.0, -0.5))],
           generators: [Grid(shape: Circle(r: 0.25), columns: 99999, rows: 1, origin: (3.0, 5.0), spacing: (0.0, 0.0))])"#,
    )
    .unwrap();
    for args in [
        vec!["check", path.to_str().unwrap()],
        vec!["run", path.to_str().unwrap(), "--steps", "1"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_minkowski"))
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("piled on one another") && err.contains("around (3.00, 5.00)"),
            "{err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
