//! `minkowski run` and `minkowski check`.

use super::{hex, json, load_scene, EXIT_BAD_INPUT};
use minkowski::{BodyKind, World};

/// Arguments of `minkowski run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// Scene file, or the name of a shipped scene (e.g. `pyramid`).
    pub scene: String,
    /// Number of steps to run.
    #[arg(long)]
    pub steps: u64,
    /// Print one JSON object with the final state of every body.
    #[arg(long)]
    pub json: bool,
    /// Also print the state hash every K steps.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub hash_every: Option<u64>,
}

/// Arguments of `minkowski check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Scene file, or the name of a shipped scene.
    pub scene: String,
}

/// Runs a scene headless; returns the exit code.
pub fn run(args: &RunArgs) -> i32 {
    let scene = match load_scene(&args.scene) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let mut world = match scene.build() {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    let mut hashes = Vec::new();
    for _ in 0..args.steps {
        world.step();
        if let Some(k) = args.hash_every {
            if world.step_index() % k == 0 {
                let h = world.state_hash();
                if args.json {
                    hashes.push((world.step_index(), h));
                } else {
                    println!("step {} hash {}", world.step_index(), hex(h));
                }
            }
        }
    }
    for ev in world.take_events() {
        eprintln!("warning: {ev:?}");
    }
    if args.json {
        println!(
            "{}",
            state_json(&scene.name, &world, args.hash_every.map(|_| &hashes[..]))
        );
    } else {
        let sleeping = world
            .bodies()
            .filter(|(_, b)| b.kind() != BodyKind::Static && !b.is_awake())
            .count();
        println!(
            "scene {}: {} bodies ({} asleep) after {} steps, hash {}",
            scene.name,
            world.body_count(),
            sleeping,
            world.step_index(),
            hex(world.state_hash())
        );
    }
    0
}

/// The `--json` object of `minkowski run`.
pub fn state_json(name: &str, world: &World, hashes: Option<&[(u64, u64)]>) -> String {
    json::line(&json::RunReport {
        scene: name,
        steps: world.step_index(),
        hash: hex(world.state_hash()),
        hashes: hashes.map(|hs| {
            hs.iter()
                .map(|&(step, h)| json::StepHash { step, hash: hex(h) })
                .collect()
        }),
        bodies: world
            .bodies()
            .map(|(id, b)| {
                let (p, v) = (b.position(), b.linear_velocity());
                json::BodyState {
                    id: id.index,
                    pos: [p.x, p.y],
                    angle: b.angle(),
                    vel: [v.x, v.y],
                    angvel: b.angular_velocity(),
                    sleeping: b.kind() != BodyKind::Static && !b.is_awake(),
                }
            })
            .collect(),
    })
}

/// Validates a scene without running it; returns the exit code.
pub fn check(args: &CheckArgs) -> i32 {
    match load_scene(&args.scene) {
        Ok(scene) => {
            let generated = scene.body_count() - scene.bodies.len();
            println!(
                "ok: {}: {} bodies ({} explicit, {} generated)",
                scene.name,
                scene.body_count(),
                scene.bodies.len(),
                generated
            );
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_BAD_INPUT
        }
    }
}
