//! Shipped scenes load, build, round-trip through RON, and follow the documented
//! defaults, id order and layouts (Box2D's benchmarks exactly).

use minkowski::scene::{
    builtin_source, BodySpec, Generator, Scene, ShapeKind, ShapeSpec, BUILTIN_NAMES, MAX_BODIES,
};
use minkowski::{BodyKind, Vec2, WorldSettings};
use std::collections::BTreeSet;
use std::path::PathBuf;

#[test]
fn every_shipped_scene_loads_builds_and_round_trips() {
    for name in BUILTIN_NAMES {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("scenes/{name}.ron"));
        let scene = Scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(scene.name, *name);
        assert_eq!(Scene::builtin(name).as_ref(), Some(&scene));
        let world = scene.build().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(world.body_count(), scene.body_count(), "{name}");
        assert_eq!(scene.body_specs().len(), scene.body_count(), "{name}");

        let text = scene.to_ron_string();
        assert!(text.starts_with("Scene(\n"), "{text}");
        let again = Scene::from_ron_str(&text, "rewritten")
            .unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(again, scene, "{name}");
        assert_eq!(
            again.build().unwrap().state_hash(),
            world.state_hash(),
            "{name}"
        );
    }
}

#[test]
fn every_file_in_scenes_is_shipped() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let on_disk: BTreeSet<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            let name = p.file_name()?.to_str()?.strip_suffix(".ron")?.to_string();
            Some(name)
        })
        .collect();
    let shipped: BTreeSet<String> = BUILTIN_NAMES.iter().map(|s| s.to_string()).collect();
    assert_eq!(on_disk, shipped);
    for name in BUILTIN_NAMES {
        assert!(builtin_source(name).is_some());
    }
}

#[test]
fn defaults() {
    let s = Scene::from_ron_str(
        "Scene(bodies: [(shape: Circle(r: 1.0), pos: (1.0, 2.0))])",
        "t",
    )
    .unwrap();
    assert_eq!(s.settings, WorldSettings::default());
    assert_eq!(s.seed, 0);
    assert_eq!(s.name, "");
    assert_eq!(
        s.bodies[0],
        BodySpec::new(ShapeSpec::Circle { r: 1.0 }, Vec2::new(1.0, 2.0))
    );
    let b = &s.bodies[0];
    assert_eq!(
        (
            b.kind,
            b.angle,
            b.vel,
            b.angvel,
            b.density,
            b.friction,
            b.restitution
        ),
        (BodyKind::Dynamic, 0.0, Vec2::ZERO, 0.0, 1.0, 0.6, 0.0)
    );
    let t = Scene::from_ron_str(
        "(dt: 0.01, substeps: 8, sleep: false, gravity: (1.0, 2.0))",
        "t",
    )
    .unwrap();
    assert_eq!(t.settings.dt, 0.01);
    assert_eq!(t.settings.substeps, 8);
    assert!(!t.settings.sleep);
    assert_eq!(t.settings.gravity, Vec2::new(1.0, 2.0));
    assert_eq!(t.body_count(), 0);
    assert_eq!(t.build().unwrap().body_count(), 0);
}

#[test]
fn ids_are_explicit_bodies_then_generators_in_order() {
    let text = "Scene(
        bodies: [
            (shape: Rect(hx: 10.0, hy: 0.5), kind: Static, pos: (0.0, -0.5)),
            (shape: Circle(r: 0.5), pos: (-20.0, 5.0)),
        ],
        generators: [
            Grid(shape: Circle(r: 0.25), columns: 3, rows: 2, origin: (30.0, 1.0), spacing: (1.0, 2.0)),
            Pyramid(base: 2, half: 0.5, origin: (-30.0, 0.0)),
        ],
    )";
    let scene = Scene::from_ron_str(text, "t").unwrap();
    let world = scene.build().unwrap();
    let pos: Vec<(f32, f32)> = world
        .bodies()
        .map(|(_, b)| (b.position().x, b.position().y))
        .collect();
    assert_eq!(
        pos,
        vec![
            (0.0, -0.5),
            (-20.0, 5.0),
            (30.0, 1.0),
            (31.0, 1.0),
            (32.0, 1.0),
            (30.0, 3.0),
            (31.0, 3.0),
            (32.0, 3.0),
            (-30.5, 0.5),
            (-29.5, 0.5),
            (-30.0, 1.5),
        ]
    );
    let ids: Vec<u32> = world.bodies().map(|(id, _)| id.index).collect();
    assert_eq!(ids, (0..11).collect::<Vec<u32>>());
}

fn rect_of(spec: &BodySpec) -> (f32, f32) {
    match spec.shape {
        ShapeSpec::Rect { hx, hy } => (hx, hy),
        ref other => panic!("not a rect: {other:?}"),
    }
}

#[test]
fn large_pyramid_is_box2ds() {
    let scene = Scene::builtin("large_pyramid").unwrap();
    assert!(!scene.settings.sleep);
    let specs = scene.body_specs();
    assert_eq!(specs.len(), 1 + 5050);
    assert_eq!(specs[0].kind, BodyKind::Static);
    assert_eq!(specs[0].pos, Vec2::new(0.0, -1.0));
    assert_eq!(rect_of(&specs[0]), (100.0, 1.0));
    let mut k = 1;
    for i in 0..100 {
        for j in i..100 {
            let b = &specs[k];
            assert_eq!(rect_of(b), (0.5, 0.5));
            assert_eq!(b.kind, BodyKind::Dynamic);
            let y = (2 * i + 1) as f32 * 0.5;
            let x = (i + 1) as f32 * 0.5 + (j - i) as f32 - 50.0;
            assert_eq!(b.pos, Vec2::new(x, y), "row {i}, box {j}");
            k += 1;
        }
    }
}

#[test]
fn many_pyramids_is_box2ds() {
    let scene = Scene::builtin("many_pyramids").unwrap();
    let specs = scene.body_specs();
    let (ground, boxes): (Vec<_>, Vec<_>) = specs.iter().partition(|b| b.kind == BodyKind::Static);
    assert_eq!(ground.len(), 20);
    assert_eq!(boxes.len(), 22_000);
    for (i, g) in ground.iter().enumerate() {
        let (hx, hy) = rect_of(g);
        assert_eq!(2.0 * hx, 220.0);
        assert_eq!(g.pos.x, 0.0);
        assert!(
            (g.pos.y + hy - 11.0 * i as f32).abs() < 1e-4,
            "ground row {i} top"
        );
    }
    // Box2D: CreateSmallPyramid(base 10, extent 0.5, centerX = -110 + 11·c + 0.5, baseY = 11·r)
    // puts box (i, j) at x = (i+1)·e + 2(j−i)·e + centerX − 0.5, y = (2i+1)·e + baseY.
    let mut expected = Vec::new();
    for r in 0..20 {
        for c in 0..20 {
            let center_x = -110.0 + 11.0 * c as f32 + 0.5;
            for i in 0..10 {
                for j in i..10 {
                    let x = (i + 1) as f32 * 0.5 + 2.0 * (j - i) as f32 * 0.5 + center_x - 0.5;
                    let y = (2 * i + 1) as f32 * 0.5 + 11.0 * r as f32;
                    expected.push((x, y));
                }
            }
        }
    }
    for (b, (x, y)) in boxes.iter().zip(expected) {
        assert_eq!(rect_of(b), (0.5, 0.5));
        assert!(
            (b.pos.x - x).abs() < 1e-4 && (b.pos.y - y).abs() < 1e-4,
            "{:?} vs {:?}",
            b.pos,
            (x, y)
        );
    }
}

fn kind_of(s: &ShapeSpec) -> ShapeKind {
    match s {
        ShapeSpec::Circle { .. } => ShapeKind::Circle,
        ShapeSpec::Rect { .. } => ShapeKind::Rect,
        ShapeSpec::Polygon(_) => ShapeKind::Polygon,
        ShapeSpec::Ellipse { .. } => ShapeKind::Ellipse,
        ShapeSpec::Capsule { .. } => ShapeKind::Capsule,
        ShapeSpec::Concave(_) => ShapeKind::Polygon,
        ShapeSpec::RoundedRect { .. } => ShapeKind::Rect,
        ShapeSpec::RoundedPolygon { .. } => ShapeKind::Polygon,
        ShapeSpec::Segment { .. } | ShapeSpec::Chain { .. } => {
            panic!("the rain generator makes no segments")
        }
    }
}

#[test]
fn pit_has_every_shape_kind_and_follows_the_seed() {
    let scene = Scene::builtin("pit").unwrap();
    let specs = scene.body_specs();
    let kinds: BTreeSet<String> = specs
        .iter()
        .map(|b| format!("{:?}", kind_of(&b.shape)))
        .collect();
    assert_eq!(kinds.len(), 5, "{kinds:?}");
    let Generator::Rain { min, max, size, .. } = &scene.generators[0] else {
        panic!("rain generator")
    };
    for b in &specs[3..] {
        assert!(b.pos.x >= min.x && b.pos.x < max.x && b.pos.y >= min.y && b.pos.y < max.y);
        assert!(b.shape.to_shape().is_ok());
        if let ShapeSpec::Circle { r } = b.shape {
            assert!(r >= size.0 && r <= size.1);
        }
    }
    // Same seed, same bodies; another seed, other bodies.
    assert_eq!(scene.body_specs(), specs);
    let other = Scene {
        seed: 8,
        ..scene.clone()
    };
    assert_ne!(other.body_specs(), specs);
    assert_eq!(other.body_specs().len(), specs.len());
}

#[test]
fn the_other_scenes_hold_what_they_promise() {
    let dynamic = |name: &str| -> Vec<BodySpec> {
        Scene::builtin(name)
            .unwrap()
            .body_specs()
            .into_iter()
            .filter(|b| b.kind == BodyKind::Dynamic)
            .collect()
    };
    assert_eq!(Scene::builtin("pyramid").unwrap().body_count(), 211);
    // shapes: ellipses and capsules.
    let kinds: BTreeSet<String> = dynamic("shapes")
        .iter()
        .map(|b| format!("{:?}", kind_of(&b.shape)))
        .collect();
    assert_eq!(
        kinds,
        BTreeSet::from(["Capsule".to_string(), "Ellipse".to_string()])
    );
    // tumbler (Box2D's): 2,025 boxes and a four-walled box of density 50 on
    // a motorised hinge.
    let tumbler = Scene::builtin("tumbler").unwrap();
    let (bodies, joints) = tumbler.expand();
    assert_eq!(bodies.len(), 2026);
    assert_eq!(bodies[0].shapes.len(), 3, "four walls");
    assert_eq!(bodies[0].density, 50.0);
    assert_eq!(joints.len(), 1);
    // The other Box2D copies: their body and joint counts.
    for (name, n, j) in [
        ("joint_grid", 10_000, 19_794),
        ("compounds", 3_001, 0),
        ("smash", 9_601, 0),
        ("washer", 8_101, 0),
        ("spinner", 6_078, 1),
    ] {
        let (b, js) = Scene::builtin(name).unwrap().expand();
        assert_eq!((b.len(), js.len()), (n, j), "{name}");
    }
    // bounce: a range of restitution; ramps: a range of friction.
    let e: BTreeSet<u32> = dynamic("bounce")
        .iter()
        .map(|b| (b.restitution * 100.0) as u32)
        .collect();
    assert_eq!(e.len(), 5);
    let f: BTreeSet<u32> = dynamic("ramps")
        .iter()
        .map(|b| (b.friction * 100.0) as u32)
        .collect();
    assert_eq!(f.len(), 5);
    // default: a pyramid plus a rain of every shape kind.
    let d = Scene::builtin("default").unwrap();
    assert!(matches!(d.generators[0], Generator::Pyramid { .. }));
    assert!(matches!(&d.generators[1], Generator::Rain { shapes, .. } if shapes.len() == 5));
}

#[test]
fn the_body_cap() {
    let at_cap = format!(
        "(generators: [Rain(count: {}, min: (0.0, 0.0), max: (100.0, 100.0), shapes: [Circle], size: (0.1, 0.1))])",
        MAX_BODIES
    );
    assert_eq!(
        Scene::from_ron_str(&at_cap, "t").unwrap().body_count(),
        MAX_BODIES
    );
    let over = at_cap.replace(
        &format!("count: {MAX_BODIES}"),
        &format!("count: {}", MAX_BODIES + 1),
    );
    assert_eq!(
        Scene::from_ron_str(&over, "t").unwrap_err().to_string(),
        "t: the scene makes 100001 bodies (explicit and generated); at most 100000 are allowed"
    );
}

#[test]
fn build_validates_programmatic_scenes() {
    let mut scene = Scene::builtin("bounce").unwrap();
    scene.bodies[2].restitution = 2.0;
    assert_eq!(
        scene.build().unwrap_err().to_string(),
        "bounce: body 2, field `restitution`: must be between 0 and 1, got 2"
    );
    scene.bodies[2].restitution = 0.5;
    scene.bodies[3].shape = ShapeSpec::Polygon(vec![
        Vec2::ZERO,
        Vec2::X,
        Vec2::new(0.5, 0.1),
        Vec2::new(0.5, 1.0),
    ]);
    let err = scene.build().unwrap_err().to_string();
    assert!(
        err.starts_with("bounce: body 3, field `shape`: vertex"),
        "{err}"
    );
}

#[test]
fn friction_orders_the_sliders() {
    // The frictionless box slides furthest down the ramp; the stickiest stays put.
    let scene = Scene::builtin("ramps").unwrap();
    let mut world = scene.build().unwrap();
    let start: Vec<Vec2> = world.bodies().map(|(_, b)| b.position()).collect();
    for _ in 0..40 {
        world.step();
    }
    let moved: Vec<f32> = world
        .bodies()
        .zip(&start)
        .map(|((_, b), s)| (b.position() - *s).length())
        .collect();
    assert!(moved[3] > moved[7] + 0.5, "{moved:?}");
    assert!(moved[7] < 0.1, "{moved:?}");
}

/// The README's scene example parses, builds and runs.
#[test]
fn the_readme_scene_example_builds() {
    let readme = include_str!("../README.md");
    let start = readme
        .find("```ron\nScene(")
        .expect("a RON scene in the README")
        + "```ron\n".len();
    let end = start + readme[start..].find("```").expect("closed");
    let scene =
        Scene::from_ron_str(&readme[start..end], "README.md").unwrap_or_else(|e| panic!("{e}"));
    let mut world = scene.build().unwrap();
    assert!(world.joint_count() > 0);
    for _ in 0..60 {
        world.step();
    }
}
