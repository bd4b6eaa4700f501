//! `cargo bench --bench step`: wall time of one `World::step` (single thread,
//! release) on the scenes of issue 4: Box2D's base-20 pyramid, a 1,000-body
//! mixed pile (boxes, circles, capsules, ellipses, hexagons), and the base-100
//! pyramid (5,050 boxes, sleep off) that Box2D v3 and rapier2d are compared on.
//! The base-100 pyramid is also run with `polygon_sat` off (every polygon
//! pair through GJK/EPA) for comparison.
//! Each scene is pre-stepped so the contacts are warm and the pile has settled
//! into contact; sleep is off so every body is simulated in every step, but
//! in `sleeping_piles_21000`: 100 base-20 pyramids stepped until every box
//! sleeps, the cost of a world at rest.

use criterion::{criterion_group, criterion_main, Criterion};
use minkowski::{BodyDef, BodyKind, Shape, Vec2, World, WorldSettings};
use std::hint::black_box;

fn settings() -> WorldSettings {
    WorldSettings {
        sleep: false,
        ..WorldSettings::default()
    }
}

fn pyramid(base: usize) -> World {
    pyramid_with(base, settings())
}

fn pyramid_with(base: usize, settings: WorldSettings) -> World {
    let mut world = World::new(settings);
    world
        .add_body(
            BodyDef::new(Shape::rect(base as f32 + 20.0, 1.0), Vec2::new(0.0, -1.0))
                .kind(BodyKind::Static),
        )
        .unwrap();
    for i in 0..base {
        let y = (2 * i + 1) as f32 * 0.5;
        for j in i..base {
            let x = (i + 1) as f32 * 0.5 + (j - i) as f32 - base as f32 * 0.5;
            world
                .add_body(BodyDef::new(Shape::rect(0.5, 0.5), Vec2::new(x, y)))
                .unwrap();
        }
    }
    world
}

/// 1,000 bodies of five kinds on a 40 × 40 m lattice in a walled pit.
fn mixed_pile() -> World {
    let mut world = World::new(settings());
    let wall = |w: &mut World, hx: f32, hy: f32, x: f32, y: f32| {
        w.add_body(BodyDef::new(Shape::rect(hx, hy), Vec2::new(x, y)).kind(BodyKind::Static))
            .unwrap();
    };
    wall(&mut world, 22.0, 1.0, 0.0, -1.0);
    wall(&mut world, 1.0, 40.0, -21.0, 39.0);
    wall(&mut world, 1.0, 40.0, 21.0, 39.0);
    let hexagon: Vec<Vec2> = (0..6)
        .map(|k| {
            let a = k as f32 * std::f32::consts::FRAC_PI_3;
            0.4 * Vec2::new(libm::cosf(a), libm::sinf(a))
        })
        .collect();
    for k in 0..1000 {
        let (i, j) = (k % 40, k / 40);
        let p = Vec2::new(-19.5 + i as f32, 0.6 + j as f32 * 1.0);
        let shape = match k % 5 {
            0 => Shape::rect(0.4, 0.3),
            1 => Shape::circle(0.4),
            2 => Shape::capsule(0.2, 0.25),
            3 => Shape::ellipse(0.45, 0.3),
            _ => Shape::polygon(&hexagon).unwrap(),
        };
        world
            .add_body(BodyDef::new(shape, p).angle(0.1 * (k % 7) as f32))
            .unwrap();
    }
    world
}

/// 100 pyramids of base 20 (21,000 boxes) on one ground, stepped until
/// every box sleeps: what a world of sleeping piles costs a step.
fn sleeping_piles() -> World {
    let mut world = World::new(WorldSettings::default());
    world
        .add_body(
            BodyDef::new(Shape::rect(1200.0, 1.0), Vec2::new(0.0, -1.0)).kind(BodyKind::Static),
        )
        .unwrap();
    for p in 0..100 {
        let x0 = -1100.0 + 22.0 * p as f32;
        for i in 0..20 {
            for j in i..20 {
                let x = x0 + (i + 1) as f32 * 0.5 + (j - i) as f32 - 10.0;
                let at = Vec2::new(x, (2 * i + 1) as f32 * 0.5);
                world
                    .add_body(BodyDef::new(Shape::rect(0.5, 0.5), at))
                    .unwrap();
            }
        }
    }
    for _ in 0..2000 {
        world.step();
        if world
            .bodies()
            .all(|(_, b)| b.kind() != BodyKind::Dynamic || !b.is_awake())
        {
            return world;
        }
    }
    panic!("the piles did not fall asleep in 2,000 steps");
}

fn bench_scene(c: &mut Criterion, name: &str, mut world: World, warmup: usize, samples: usize) {
    for _ in 0..warmup {
        world.step();
    }
    let mut group = c.benchmark_group("step");
    group.sample_size(samples);
    group.bench_function(name, |b| {
        b.iter(|| {
            world.step();
            black_box(world.step_index())
        })
    });
    group.finish();
}

fn step_benches(c: &mut Criterion) {
    bench_scene(c, "pyramid_base_20", pyramid(20), 60, 100);
    bench_scene(c, "mixed_pile_1000", mixed_pile(), 300, 50);
    bench_scene(c, "large_pyramid_base_100", pyramid(100), 30, 10);
    bench_scene(c, "sleeping_piles_21000", sleeping_piles(), 0, 50);
    // The same with every polygon pair through GJK/EPA (no separating-axis path).
    let epa = WorldSettings {
        polygon_sat: false,
        ..settings()
    };
    bench_scene(
        c,
        "large_pyramid_base_100_epa",
        pyramid_with(100, epa),
        30,
        10,
    );
}

criterion_group!(benches, step_benches);
criterion_main!(benches);
