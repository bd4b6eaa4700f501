//! `minkowski bench`: per-step wall time of shipped or given scenes.

use super::stats::{median_p95, round6};
use super::{json, load_scene, lockstep, EXIT_BAD_INPUT, EXIT_FAILED};
use minkowski::world::{LaneUse, SolverTimings};
use std::time::Instant;

/// Scenes benchmarked when none are named.
pub const DEFAULT_SCENES: &[&str] = &["pyramid", "large_pyramid", "many_pyramids", "pit"];

/// Arguments of `minkowski bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Scene files or shipped scene names (default: pyramid large_pyramid many_pyramids pit).
    pub scenes: Vec<String>,
    /// Steps to time per scene.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
    pub steps: u64,
    /// One JSON object per line instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also print the mean time of each stage of the step (AABBs,
    /// broadphase, narrowphase, solver, sleep).
    #[arg(long)]
    pub profile: bool,
    /// Take turns with another engine's process on each scene instead,
    /// `--chunk` steps at a time, and print both engines' time per step
    /// over steps 2..N and their ratio. PROGRAM is started with the scene's
    /// name, prints `ready` after its untimed first step, then answers each
    /// line `K` with the time (ms) of its next K steps: tools/box2d-lockstep.c
    /// is Box2D v3's.
    #[arg(long, value_name = "PROGRAM")]
    pub lockstep: Option<String>,
    /// Be the peer of another `bench --lockstep` (one scene): take the
    /// first step, print `ready`, then answer each line `K` on stdin with
    /// the time (ms) of the next K steps.
    #[arg(long, conflicts_with_all = ["lockstep", "json", "profile"])]
    pub peer: bool,
    /// Steps per turn with `--lockstep`.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    pub chunk: u64,
}

/// Times `World::step` only (the world is built first); returns the exit code.
pub fn bench(args: &BenchArgs) -> i32 {
    let names: Vec<String> = if args.scenes.is_empty() {
        DEFAULT_SCENES.iter().map(|s| s.to_string()).collect()
    } else {
        args.scenes.clone()
    };
    // Load everything first, so a bad name fails before minutes of timing.
    let mut scenes = Vec::new();
    for name in &names {
        match load_scene(name) {
            Ok(s) => scenes.push(s),
            Err(e) => {
                eprintln!("error: {e}");
                return EXIT_BAD_INPUT;
            }
        }
    }
    if args.peer && scenes.len() != 1 {
        eprintln!("error: --peer takes one scene");
        return EXIT_BAD_INPUT;
    }
    if cfg!(debug_assertions) {
        eprintln!(
            "warning: this is a debug build; time a release build (cargo run --release -- bench)"
        );
    }
    for scene in &scenes {
        let mut world = match scene.build() {
            Ok(w) => w,
            Err(e) => {
                eprintln!("error: {e}");
                return EXIT_BAD_INPUT;
            }
        };
        if args.peer {
            if let Err(e) = lockstep::serve(&mut world) {
                eprintln!("error: {e}");
                return EXIT_FAILED;
            }
            return 0;
        }
        if let Some(program) = &args.lockstep {
            match lockstep::run(&mut world, &scene.name, program, args.steps, args.chunk) {
                Ok(t) => lockstep::print(
                    &scene.name,
                    world.body_count(),
                    args.steps,
                    args.chunk,
                    &t,
                    args.json,
                ),
                Err(lockstep::Failure::Start(e)) => {
                    eprintln!("error: {e}");
                    return EXIT_BAD_INPUT;
                }
                Err(lockstep::Failure::Peer(e)) => {
                    eprintln!("error: {e}");
                    return EXIT_FAILED;
                }
            }
            continue;
        }
        let mut ms = Vec::with_capacity(args.steps.min(1 << 20) as usize);
        let mut stages = [0.0f64; 5];
        let mut parts = [0.0f64; 6];
        let (mut constraints, mut bundles, mut width) = (0usize, 0usize, 0usize);
        for _ in 0..args.steps {
            let t = Instant::now();
            world.step();
            ms.push(t.elapsed().as_secs_f64() * 1e3);
            if args.profile {
                let lanes = world.lane_use();
                constraints += lanes.constraints;
                bundles += lanes.bundles;
                width = lanes.width;
            }
            let s = world.timings();
            for (acc, v) in stages.iter_mut().zip([
                s.update_aabbs,
                s.broadphase,
                s.narrowphase,
                s.solver,
                s.sleep,
            ]) {
                *acc += v;
            }
            let p = s.solver_parts;
            for (acc, v) in parts.iter_mut().zip([
                p.prepare,
                p.warm_start,
                p.velocity,
                p.positions,
                p.finish,
                p.continuous,
            ]) {
                *acc += v;
            }
        }
        let n = args.steps as f64;
        let profile = args.profile.then(|| stages.map(|v| round6(v / n)));
        let parts = args.profile.then(|| parts.map(|v| round6(v / n)));
        let lanes = args.profile.then(|| {
            let all = LaneUse {
                constraints,
                bundles,
                width,
            };
            json::Lanes {
                constraints: round6(constraints as f64 / n),
                bundles: round6(bundles as f64 / n),
                width,
                fill: round6(all.fill()),
            }
        });
        let total_s: f64 = ms.iter().sum::<f64>() / 1e3;
        let after_first_s: f64 = ms.iter().skip(1).sum::<f64>() / 1e3;
        let (median, p95) = median_p95(&mut ms);
        if args.json {
            let line = json::BenchLine {
                scene: &scene.name,
                bodies: world.body_count(),
                steps: args.steps,
                ms_per_step_median: round6(median),
                ms_per_step_p95: round6(p95),
                total_s: round6(total_s),
                after_first_s: round6(after_first_s),
                stages_ms: profile.map(|p| json::Stages {
                    aabbs: p[0],
                    broadphase: p[1],
                    narrowphase: p[2],
                    solver: p[3],
                    sleep: p[4],
                }),
                solver_ms: parts.map(|p| SolverTimings {
                    prepare: p[0],
                    warm_start: p[1],
                    velocity: p[2],
                    positions: p[3],
                    finish: p[4],
                    continuous: p[5],
                }),
                lanes,
            };
            println!("{}", json::line(&line));
        } else {
            println!(
                "{:<16} bodies {:>6}  steps {:>5}  median {:>9.3} ms  p95 {:>9.3} ms  {:>9.1} steps/s",
                scene.name,
                world.body_count(),
                args.steps,
                median,
                p95,
                args.steps as f64 / total_s
            );
            if let Some(p) = profile {
                let total: f64 = p.iter().sum();
                let pct = |v: f64| if total > 0.0 { 100.0 * v / total } else { 0.0 };
                println!(
                    "  stages (mean ms): aabbs {:.3} ({:.0} %)  broadphase {:.3} ({:.0} %)  narrowphase {:.3} ({:.0} %)  solver {:.3} ({:.0} %)  sleep {:.3} ({:.0} %)",
                    p[0], pct(p[0]), p[1], pct(p[1]), p[2], pct(p[2]), p[3], pct(p[3]), p[4], pct(p[4])
                );
            }
            if let Some(p) = parts {
                println!(
                    "  solver (mean ms): prepare {:.3}  warm start {:.3}  velocity {:.3}  positions {:.3}  finish {:.3}  continuous {:.3}",
                    p[0], p[1], p[2], p[3], p[4], p[5]
                );
            }
            if let Some(l) = lanes {
                println!(
                    "  contact lanes (mean per step): {:.0} constraints in {:.0} bundles of {}, {:.0} % full",
                    l.constraints,
                    l.bundles,
                    l.width,
                    100.0 * l.fill
                );
            }
        }
    }
    0
}
