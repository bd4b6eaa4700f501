//! `cargo bench --bench queries`: 10,000 closest-hit ray casts through
//! `World::ray_cast` in `many_pyramids` (22,020 boxes, as built, not
//! stepped). The boxes and rays come from `benches/common/rays.rs`, which
//! `tools/rapier-bench --rays` includes too, so rapier2d's query pipeline
//! casts the very same rays at the very same boxes. Also the cost of
//! building the query tree those casts walk.

use criterion::{criterion_group, criterion_main, Criterion};
use minkowski::scene::Scene;
use minkowski::Vec2;
use std::hint::black_box;

#[allow(dead_code)]
mod rays {
    include!("common/rays.rs");
}

fn ray_casts(c: &mut Criterion) {
    let world = Scene::builtin("many_pyramids").unwrap().build().unwrap();
    // The shared layout is the scene's, box for box.
    let boxes = rays::many_pyramids_boxes();
    let mut placed: Vec<(f32, f32)> = world
        .bodies()
        .map(|(_, b)| (b.transform().translation.x, b.transform().translation.y))
        .collect();
    let mut want: Vec<(f32, f32)> = boxes.iter().map(|b| (b.0, b.1)).collect();
    placed.sort_by(|a, b| a.partial_cmp(b).unwrap());
    want.sort_by(|a, b| a.partial_cmp(b).unwrap());
    assert_eq!(
        placed, want,
        "benches/common/rays.rs no longer matches many_pyramids"
    );
    let rays = rays::rays(10_000, 0x5241_5953);
    let hits = rays
        .iter()
        .filter(|(o, d, r)| {
            world
                .ray_cast(Vec2::from(*o), Vec2::from(*d), *r, u32::MAX)
                .is_some()
        })
        .count();
    println!(
        "many_pyramids: {} bodies, {hits} of {} rays hit",
        placed.len(),
        rays.len()
    );
    c.bench_function("ray_cast/many_pyramids/10k", |b| {
        b.iter(|| {
            let mut sum = 0.0f32;
            for (o, d, r) in &rays {
                if let Some(h) = world.ray_cast(Vec2::from(*o), Vec2::from(*d), *r, u32::MAX) {
                    sum += h.distance;
                }
            }
            black_box(sum)
        })
    });
}

/// What the first query after a change pays: building the query tree over
/// many_pyramids' 22,020 boxes, grown by the default 0.1 m margin as the
/// broadphase's fat boxes are.
fn tree_build(c: &mut Criterion) {
    use minkowski::broadphase::QueryTree;
    use minkowski::Aabb;
    let boxes: Vec<(u32, Aabb)> = rays::many_pyramids_boxes()
        .iter()
        .enumerate()
        .map(|(i, &(x, y, hx, hy))| {
            let half = Vec2::new(hx + 0.1, hy + 0.1);
            (i as u32, Aabb::from_center(Vec2::new(x, y), half))
        })
        .collect();
    c.bench_function("query_tree/build/many_pyramids", |b| {
        b.iter(|| black_box(QueryTree::build(boxes.iter().copied())).len())
    });
}

criterion_group!(benches, ray_casts, tree_build);
criterion_main!(benches);
