//! `cargo bench --bench stages`: the broadphase stage (sweep-and-prune refresh
//! plus the contact-list merge) and the narrowphase stage of `World::step`, on
//! Box2D v3's benchmark scenes, measured apart from the solver.
//!
//! Each scene is built from its shipped definition and pre-stepped so that the
//! pile is in motion; then each sample steps the whole world and adds up only
//! the chosen stage's time from [`minkowski::World::timings`] (the solver runs
//! but is not counted). `joint_grid` has 30,000 broadphase pairs of which none
//! may collide (category and mask filters), so its broadphase time is the cost
//! of filtered pairs; `washer` and `compounds` re-make most fat boxes every
//! step. See `docs/2026-11-26-broadphase-speed.md`.

use criterion::{criterion_group, criterion_main, Criterion};
use minkowski::scene::Scene;
use minkowski::World;
use std::time::Duration;

/// The scene `name`, built and stepped `warmup` times.
fn warm(name: &str, warmup: usize) -> World {
    let scene = Scene::builtin(name).expect("shipped scene");
    let mut world = scene.build().expect("scene builds");
    for _ in 0..warmup {
        world.step();
    }
    world
}

fn stage_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("stages");
    group.sample_size(20);
    for (name, warmup) in [("washer", 60), ("compounds", 60), ("joint_grid", 60)] {
        let mut world = warm(name, warmup);
        group.bench_function(format!("{name}/broadphase"), |b| {
            b.iter_custom(|iters| {
                let mut ms = 0.0;
                for _ in 0..iters {
                    world.step();
                    ms += world.timings().broadphase;
                }
                Duration::from_secs_f64(ms / 1000.0)
            })
        });
        let mut world = warm(name, warmup);
        group.bench_function(format!("{name}/narrowphase"), |b| {
            b.iter_custom(|iters| {
                let mut ms = 0.0;
                for _ in 0..iters {
                    world.step();
                    ms += world.timings().narrowphase;
                }
                Duration::from_secs_f64(ms / 1000.0)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, stage_benches);
criterion_main!(benches);
