//! Box2D's large pyramid (5 050 boxes of half 0.5 on a 200 m ground, sleep
//! off, 1/60 s steps, rapier's default solver settings) in rapier2d 0.36,
//! printing the per-step median and p95 in the format of `minkowski bench`;
//! or, with `--peer large_pyramid`, taking turns with `minkowski bench
//! --lockstep` (see `peer`).

use rapier2d::prelude::*;
use std::time::Instant;

#[allow(dead_code)]
mod rays {
    include!("../../../benches/common/rays.rs");
}

/// The large pyramid's world and the boxes' start positions.
struct Pyramid {
    bodies: RigidBodySet,
    colliders: ColliderSet,
    impulse_joints: ImpulseJointSet,
    multibody_joints: MultibodyJointSet,
    soft_bodies: SoftBodySet,
    pipeline: PhysicsPipeline,
    broad_phase: BroadPhaseBvh,
    narrow_phase: NarrowPhase,
    islands: IslandManager,
    ccd: CCDSolver,
    params: IntegrationParameters,
    boxes: Vec<(RigidBodyHandle, Vector)>,
}

impl Pyramid {
    fn new() -> Self {
        let mut bodies = RigidBodySet::new();
        let mut colliders = ColliderSet::new();
        let mut params = IntegrationParameters::default();
        params.dt = 1.0 / 60.0;

        // Ground: fixed body, cuboid half extents (100, 1) at (0, -1).
        let ground = bodies.insert(RigidBodyBuilder::fixed().translation(Vector::new(0.0, -1.0)));
        colliders.insert_with_parent(ColliderBuilder::cuboid(100.0, 1.0), ground, &mut bodies);

        // Box2D "large pyramid": 100 rows, 5050 boxes.
        let base = 100usize;
        let h: Real = 0.5;
        let mut boxes = Vec::with_capacity(base * (base + 1) / 2);
        for i in 0..base {
            let y = (2.0 * i as Real + 1.0) * h;
            for j in i..base {
                let x = (i as Real + 1.0) * h + 2.0 * (j - i) as Real * h - h * base as Real;
                let start = Vector::new(x, y);
                let handle = bodies.insert(
                    RigidBodyBuilder::dynamic()
                        .translation(start)
                        .can_sleep(false),
                );
                colliders.insert_with_parent(
                    ColliderBuilder::cuboid(h, h)
                        .density(1.0)
                        .friction(0.6)
                        .restitution(0.0),
                    handle,
                    &mut bodies,
                );
                boxes.push((handle, start));
            }
        }
        Self {
            bodies,
            colliders,
            impulse_joints: ImpulseJointSet::new(),
            multibody_joints: MultibodyJointSet::new(),
            soft_bodies: SoftBodySet::new(),
            pipeline: PhysicsPipeline::new(),
            broad_phase: BroadPhaseBvh::new(),
            narrow_phase: NarrowPhase::new(),
            islands: IslandManager::new(),
            ccd: CCDSolver::new(),
            params,
            boxes,
        }
    }

    fn step(&mut self) {
        self.pipeline.step(
            Vector::new(0.0, -10.0),
            &self.params,
            &mut self.islands,
            &mut self.broad_phase,
            &mut self.narrow_phase,
            &mut self.bodies,
            &mut self.colliders,
            &mut self.impulse_joints,
            &mut self.multibody_joints,
            &mut self.soft_bodies,
            &mut self.ccd,
            &(),
            &(),
        );
    }
}

/// `--peer large_pyramid`: the peer's side of `minkowski bench
/// large_pyramid --lockstep PROGRAM` (PROGRAM a one-line script that runs
/// `rapier-bench --peer "$1"`): the first step untimed, `ready`, then the
/// time (ms) of the next K steps for each line `K` on stdin.
fn peer(scene: &str) {
    use std::io::{BufRead, Write};
    if scene != "large_pyramid" {
        eprintln!("rapier-bench --peer: only large_pyramid, not {scene}");
        std::process::exit(2);
    }
    let mut world = Pyramid::new();
    world.step();
    let mut out = std::io::stdout().lock();
    writeln!(out, "ready")
        .and_then(|_| out.flush())
        .expect("stdout");
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let Ok(k) = line.trim().parse::<u64>() else {
            eprintln!(
                "rapier-bench --peer: expected a step count, got `{}`",
                line.trim()
            );
            std::process::exit(1);
        };
        let t = Instant::now();
        for _ in 0..k {
            world.step();
        }
        writeln!(out, "{:.6}", t.elapsed().as_secs_f64() * 1e3)
            .and_then(|_| out.flush())
            .expect("stdout");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("--rays") => return ray_bench(),
        Some("--peer") => return peer(args.get(2).map_or("", String::as_str)),
        _ => {}
    }
    let mut steps: usize = 300;
    let mut i = 1;
    while i < args.len() {
        match args[i].as_str() {
            "--steps" => {
                steps = args
                    .get(i + 1)
                    .and_then(|s| s.parse().ok())
                    .filter(|&n: &usize| n > 0)
                    .unwrap_or_else(|| {
                        eprintln!("usage: rapier-bench [--steps N]  (N >= 1)");
                        std::process::exit(2)
                    });
                i += 2;
            }
            _ => {
                eprintln!(
                    "usage: rapier-bench [--steps N] | rapier-bench --rays | rapier-bench --peer large_pyramid"
                );
                std::process::exit(2);
            }
        }
    }

    let mut world = Pyramid::new();
    let nbodies = world.bodies.len();

    let mut times = Vec::with_capacity(steps);
    let total_start = Instant::now();
    for _ in 0..steps {
        let t0 = Instant::now();
        world.step();
        times.push(t0.elapsed().as_secs_f64());
    }
    let total = total_start.elapsed().as_secs_f64();

    let mut sorted = times.clone();
    sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = sorted.len();
    let median = if n % 2 == 1 {
        sorted[n / 2]
    } else {
        0.5 * (sorted[n / 2 - 1] + sorted[n / 2])
    };
    // p95: nearest-rank.
    let rank = ((0.95 * n as f64).ceil() as usize).clamp(1, n);
    let p95 = sorted[rank - 1];

    println!(
        "rapier_large_pyramid bodies {} steps {} median {:.3} ms p95 {:.3} ms {:.1} steps/s",
        nbodies,
        steps,
        median * 1e3,
        p95 * 1e3,
        steps as f64 / total
    );

    let mut max_disp: f64 = 0.0;
    let mut worst = (Vector::ZERO, Vector::ZERO);
    for (handle, start) in &world.boxes {
        let p = world.bodies[*handle].translation();
        let d = (p - *start).length() as f64;
        if d > max_disp {
            max_disp = d;
            worst = (*start, p - *start);
        }
    }
    eprintln!(
        "max box displacement after {} steps: {:.6} m (box starting at ({:.2}, {:.2}), moved by ({:.4}, {:.4}))",
        steps, max_disp, worst.0.x, worst.0.y, worst.1.x, worst.1.y
    );
}

/// `--rays`: the 10,000 rays of `benches/common/rays.rs` through rapier's
/// query pipeline (BVH) at many_pyramids' 22,020 boxes, as fixed bodies;
/// closest hit with its normal, solid shapes. Prints the median of 30
/// rounds, in the units of `cargo bench --bench queries`.
fn ray_bench() {
    let mut bodies = RigidBodySet::new();
    let mut colliders = ColliderSet::new();
    for (x, y, hx, hy) in rays::many_pyramids_boxes() {
        let h = bodies.insert(RigidBodyBuilder::fixed().translation(Vector::new(x, y)));
        colliders.insert_with_parent(ColliderBuilder::cuboid(hx, hy), h, &mut bodies);
    }
    // One step puts every collider in the broad phase's BVH.
    let mut broad_phase = BroadPhaseBvh::new();
    let mut narrow_phase = NarrowPhase::new();
    PhysicsPipeline::new().step(
        Vector::new(0.0, -10.0),
        &IntegrationParameters::default(),
        &mut IslandManager::new(),
        &mut broad_phase,
        &mut narrow_phase,
        &mut bodies,
        &mut colliders,
        &mut ImpulseJointSet::new(),
        &mut MultibodyJointSet::new(),
        &mut SoftBodySet::new(),
        &mut CCDSolver::new(),
        &(),
        &(),
    );
    let query = broad_phase.as_query_pipeline(
        narrow_phase.query_dispatcher(),
        &bodies,
        &colliders,
        QueryFilter::default(),
    );
    let rays: Vec<(Ray, f32)> = rays::rays(10_000, 0x5241_5953)
        .into_iter()
        .map(|(o, d, r)| {
            (
                Ray::new(Vector::new(o[0], o[1]), Vector::new(d[0], d[1])),
                r,
            )
        })
        .collect();
    let cast = || {
        let (mut hits, mut sum) = (0usize, 0.0f32);
        for (ray, reach) in &rays {
            if let Some((_, h)) = query.cast_ray_and_get_normal(ray, *reach, true) {
                hits += 1;
                sum += h.time_of_impact;
            }
        }
        (hits, sum)
    };
    let (hits, _) = cast();
    let mut times: Vec<f64> = (0..30)
        .map(|_| {
            let t0 = Instant::now();
            std::hint::black_box(cast());
            t0.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "rapier_ray_cast many_pyramids bodies {} rays {} hits {} median {:.3} ms min {:.3} ms (30 rounds)",
        colliders.len(),
        rays.len(),
        hits,
        times[15] * 1e3,
        times[0] * 1e3
    );
}
