//! Broadphase benchmarks: time per step (every body's `update` plus `update_pairs`)
//! at 1k, 10k and 100k boxes in three motions, with brute force for reference.
//!
//! - `walk`: boxes 0.5–1.5 m wide, one per 4 m², each taking a random step of up to
//!   ±2 cm per axis per step (coherent motion).
//! - `pile`: a settled pyramid of touching 1 m boxes on a static ground, dense on both
//!   axes. Every box jitters by ±5 mm about its rest pose; each step 1 % of the boxes
//!   are knocked 0.3 m off it for one step, so about 2 % of fat boxes are re-made.
//! - `teleport`: the walk, but each step 10 % of the bodies jump to a random place.
//! - `brute`: the walk with an O(n²) pair test of every fat box each step.
//! - `pile_one_region`: the pile with `regions: false`, to measure multi-SAP.
//! - `pile_build`: inserting the whole pile and the first `update_pairs`, with and
//!   without regions (the step where every body is new).
//!
//! The motion of each step is generated outside the timed region.
//! Run: `cargo bench --bench broadphase`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use minkowski::broadphase::{SapConfig, SweepAndPrune};
use minkowski::{Aabb, Vec2};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// SplitMix64: a tiny seeded generator, fast enough to draw 100k moves per step.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [a, b).
    fn range(&mut self, a: f32, b: f32) -> f32 {
        a + (b - a) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Motion {
    Walk,
    Pile,
    Teleport,
}

struct Scene {
    motion: Motion,
    rng: Mix,
    side: f32,
    rest: Vec<Aabb>,
    tight: Vec<Aabb>,
    disp: Vec<Vec2>,
}

impl Scene {
    fn new(motion: Motion, n: usize) -> Scene {
        let mut rng = Mix(0x5EED ^ n as u64);
        let side = (n as f32 * 4.0).sqrt();
        let rest: Vec<Aabb> = match motion {
            Motion::Pile => pyramid(n),
            _ => (0..n)
                .map(|_| {
                    let c = Vec2::new(rng.range(0.0, side), rng.range(0.0, side));
                    let h = Vec2::new(rng.range(0.25, 0.75), rng.range(0.25, 0.75));
                    Aabb::from_center(c, h)
                })
                .collect(),
        };
        Scene {
            motion,
            rng,
            side,
            tight: rest.clone(),
            rest,
            disp: vec![Vec2::ZERO; n],
        }
    }

    /// Moves every body one step (untimed).
    fn advance(&mut self) {
        for i in 0..self.tight.len() {
            let old = self.tight[i];
            let new = match self.motion {
                Motion::Walk => {
                    let d = Vec2::new(self.rng.range(-0.02, 0.02), self.rng.range(-0.02, 0.02));
                    Aabb::new(old.min + d, old.max + d)
                }
                Motion::Teleport if self.rng.range(0.0, 1.0) < 0.1 => {
                    let c = Vec2::new(
                        self.rng.range(0.0, self.side),
                        self.rng.range(0.0, self.side),
                    );
                    Aabb::from_center(c, old.half_extents())
                }
                Motion::Teleport => {
                    let d = Vec2::new(self.rng.range(-0.02, 0.02), self.rng.range(-0.02, 0.02));
                    Aabb::new(old.min + d, old.max + d)
                }
                Motion::Pile => {
                    let knock = if self.rng.range(0.0, 1.0) < 0.01 {
                        0.3
                    } else {
                        0.0
                    };
                    let j = Vec2::new(
                        self.rng.range(-0.005, 0.005) + knock,
                        self.rng.range(-0.005, 0.005),
                    );
                    let r = self.rest[i];
                    Aabb::new(r.min + j, r.max + j)
                }
            };
            let teleported = (new.min - old.min).length() > 1.0;
            self.disp[i] = if teleported {
                Vec2::ZERO
            } else {
                new.min - old.min
            };
            self.tight[i] = new;
        }
    }

    /// One broadphase step (timed). Returns the number of fat boxes re-made.
    fn step(&self, sap: &mut SweepAndPrune) -> usize {
        let mut remade = 0;
        for (i, (t, d)) in self.tight.iter().zip(&self.disp).enumerate() {
            remade += sap.update(i as u32, *t, *d) as usize;
        }
        sap.update_pairs();
        remade
    }

    fn build(&self, config: SapConfig) -> SweepAndPrune {
        let mut sap = SweepAndPrune::new(config);
        for (i, t) in self.tight.iter().enumerate() {
            sap.insert(i as u32, *t, false);
        }
        if self.motion == Motion::Pile {
            let w = self.rest.iter().fold(0.0f32, |m, b| m.max(b.max.x));
            let ground = Aabb::new(Vec2::new(-10.0, -1.0), Vec2::new(w + 10.0, 0.0));
            sap.insert(self.tight.len() as u32, ground, true);
        }
        sap.update_pairs();
        sap
    }
}

/// A pyramid of touching unit boxes, each row offset by half a box, filled to `n`.
fn pyramid(n: usize) -> Vec<Aabb> {
    let mut base = 1;
    while base * (base + 1) / 2 < n {
        base += 1;
    }
    let mut out = Vec::with_capacity(n);
    'rows: for row in 0..base {
        for k in 0..base - row {
            if out.len() == n {
                break 'rows;
            }
            let min = Vec2::new(row as f32 * 0.5 + k as f32, row as f32);
            out.push(Aabb::new(min, min + Vec2::ONE));
        }
    }
    out
}

/// Every pair of fat boxes tested directly, the reference cost.
fn brute_pairs(tight: &[Aabb], margin: f32, fat: &mut Vec<Aabb>, out: &mut Vec<(u32, u32)>) {
    fat.clear();
    fat.extend(tight.iter().map(|t| t.expanded(margin)));
    out.clear();
    for i in 0..fat.len() {
        for j in i + 1..fat.len() {
            if fat[i].overlaps(&fat[j]) {
                out.push((i as u32, j as u32));
            }
        }
    }
}

fn label(n: usize) -> String {
    format!("{}k", n / 1000)
}

fn bench_steps(c: &mut Criterion, name: &str, motion: Motion, config: SapConfig, sizes: &[usize]) {
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    for &n in sizes {
        group.measurement_time(Duration::from_secs(if n >= 100_000 { 4 } else { 2 }));
        group.warm_up_time(Duration::from_secs(1));
        let mut scene = Scene::new(motion, n);
        let mut sap = scene.build(config);
        // Settle the fat boxes, then report the churn and pair count of this scene.
        let (mut remade, steps) = (0, 32);
        for _ in 0..steps {
            scene.advance();
            remade += scene.step(&mut sap);
        }
        eprintln!(
            "{name}/{}: {:.2} % of fat boxes re-made per step, {} pairs",
            label(n),
            100.0 * remade as f64 / (steps * n) as f64,
            sap.pairs().len()
        );
        group.bench_function(BenchmarkId::from_parameter(label(n)), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    scene.advance();
                    let start = Instant::now();
                    black_box(scene.step(&mut sap));
                    total += start.elapsed();
                }
                total
            })
        });
    }
    group.finish();
}

fn walk(c: &mut Criterion) {
    let sizes = [1_000, 10_000, 100_000];
    bench_steps(c, "walk", Motion::Walk, SapConfig::default(), &sizes);
}

fn pile(c: &mut Criterion) {
    let sizes = [1_000, 10_000, 100_000];
    bench_steps(c, "pile", Motion::Pile, SapConfig::default(), &sizes);
    let one = SapConfig {
        regions: false,
        ..SapConfig::default()
    };
    bench_steps(c, "pile_one_region", Motion::Pile, one, &[10_000, 100_000]);
}

fn teleport(c: &mut Criterion) {
    let sizes = [1_000, 10_000, 100_000];
    bench_steps(
        c,
        "teleport",
        Motion::Teleport,
        SapConfig::default(),
        &sizes,
    );
}

fn pile_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("pile_build");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(3));
    for n in [10_000, 100_000] {
        let scene = Scene::new(Motion::Pile, n);
        for regions in [true, false] {
            let config = SapConfig {
                regions,
                ..SapConfig::default()
            };
            let id = format!("{}{}", label(n), if regions { "" } else { "_one_region" });
            group.bench_function(id, |b| b.iter(|| black_box(scene.build(config))));
        }
    }
    group.finish();
}

fn brute(c: &mut Criterion) {
    let mut group = c.benchmark_group("brute");
    group.sample_size(10);
    for n in [1_000, 10_000] {
        group.measurement_time(Duration::from_secs(if n >= 10_000 { 5 } else { 2 }));
        let mut scene = Scene::new(Motion::Walk, n);
        let (mut fat, mut out) = (Vec::new(), Vec::new());
        group.bench_function(BenchmarkId::from_parameter(label(n)), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    scene.advance();
                    let start = Instant::now();
                    brute_pairs(&scene.tight, 0.1, &mut fat, &mut out);
                    black_box(out.len());
                    total += start.elapsed();
                }
                total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, walk, pile, teleport, pile_build, brute);
criterion_main!(benches);
