//! `minkowski run` and `minkowski check`.

use super::trace::Trace;
use super::{hex, json, load_scene, EXIT_BAD_INPUT};
use minkowski::world::WorldEvent;
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
    /// Write a time series (energy, momentum, contacts, …) to FILE.csv or
    /// FILE.jsonl: step 0, then every `--every` steps.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<std::path::PathBuf>,
    /// Steps between trace rows.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
    /// Bodies whose pose and velocity the trace adds: indices or names,
    /// comma-separated.
    #[arg(long, value_name = "ID|NAME,...")]
    pub bodies: Option<String>,
    /// Write every event (contact begin and end, hits, sensor begin and end,
    /// broken joints, frozen and buried bodies) to FILE.jsonl, one JSON
    /// object per line with its `type` and `step`, in the world's order.
    /// Turns contact events on.
    #[arg(long, value_name = "FILE")]
    pub events: Option<std::path::PathBuf>,
    /// Change a scene value before running, e.g. `gravity=(0,-5)`,
    /// `bodies.3.restitution=0.9`, `generators.0.count=100`, `seed=7`
    /// (repeatable; checked as the file is).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

/// Arguments of `minkowski check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// Scene file, or the name of a shipped scene.
    pub scene: String,
    /// Change a scene value first (as `run --set`).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
}

/// Runs a scene headless; returns the exit code.
pub fn run(args: &RunArgs) -> i32 {
    let scene = match load_scene_with(&args.scene, &args.set) {
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
    let mut trace = match &args.trace {
        Some(path) => {
            match Trace::create(path, args.every, args.bodies.as_deref(), &scene, &world) {
                Ok(t) => Some(t),
                Err(e) => {
                    eprintln!("error: {e}");
                    return EXIT_BAD_INPUT;
                }
            }
        }
        None => None,
    };
    if let Some(t) = trace.as_mut() {
        if let Err(e) = t.sample(&world, 0.0) {
            eprintln!("error: trace: {e}");
            return 1;
        }
    }
    let mut log = match &args.events {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => {
                world.set_contact_events(true);
                Some(std::io::BufWriter::new(f))
            }
            Err(e) => {
                eprintln!("error: --events {}: {e}", path.display());
                return EXIT_BAD_INPUT;
            }
        },
        None => None,
    };
    let mut hashes = Vec::new();
    let mut events = Vec::new();
    for _ in 0..args.steps {
        let t0 = std::time::Instant::now();
        world.step();
        let step_ms = t0.elapsed().as_secs_f64() * 1e3;
        if let Some(t) = trace.as_mut() {
            if let Err(e) = t.sample(&world, step_ms) {
                eprintln!("error: trace: {e}");
                return 1;
            }
        }
        let new = world.take_events();
        if let Some(out) = log.as_mut() {
            if let Err(e) = write_events(out, &new) {
                eprintln!("error: --events: {e}");
                return 1;
            }
        }
        // The summary keeps what a reader of the output must see.
        events.extend(new.into_iter().filter(|e| {
            matches!(
                e,
                WorldEvent::JointBroken { .. }
                    | WorldEvent::BodyFrozen { .. }
                    | WorldEvent::BodyBuried { .. }
            )
        }));
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
    if let Some(mut out) = log {
        if let Err(e) = std::io::Write::flush(&mut out) {
            eprintln!("error: --events: {e}");
            return 1;
        }
    }
    if let Some(t) = trace {
        if let Err(e) = t.finish() {
            eprintln!("error: trace: {e}");
            return 1;
        }
    }
    let mut broken = Vec::new();
    for ev in events {
        match ev {
            WorldEvent::JointBroken {
                joint,
                def,
                step,
                force,
                torque,
            } => {
                if !args.json {
                    println!(
                        "step {step}: {} joint {} broke (force {} N, torque {} N·m)",
                        def.kind.name(),
                        joint.index,
                        force.length(),
                        torque
                    );
                }
                broken.push((
                    joint.index,
                    def.kind.name(),
                    def.body_a.map(|b| b.index),
                    def.body_b.index,
                    [force.x, force.y],
                    torque,
                ));
            }
            WorldEvent::BodyBuried {
                body,
                by,
                depth,
                step,
            } => eprintln!(
                "warning: step {step}: body {} buried {depth:.3} m deep in body {}",
                body.index, by.index,
            ),
            other => eprintln!("warning: {other:?}"),
        }
    }
    if args.json {
        let hashes = args.hash_every.map(|_| &hashes[..]);
        println!("{}", state_json(&scene.name, &world, hashes, &broken));
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

/// A joint that broke: index, kind, bodies, force and torque.
pub type BrokenJoint = (u32, &'static str, Option<u32>, u32, [f32; 2], f32);

/// The `--json` object of `minkowski run`.
pub fn state_json(
    name: &str,
    world: &World,
    hashes: Option<&[(u64, u64)]>,
    broken: &[BrokenJoint],
) -> String {
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
        joints: world
            .joints()
            .map(|(id, j)| json::JointState {
                id: id.index,
                kind: j.kind().name(),
                a: j.def().body_a.map(|b| b.index),
                b: j.def().body_b.index,
                force: [j.reaction_force().x, j.reaction_force().y],
                torque: j.reaction_torque(),
                broken: false,
            })
            .chain(
                broken
                    .iter()
                    .map(|&(id, kind, a, b, force, torque)| json::JointState {
                        id,
                        kind,
                        a,
                        b,
                        force,
                        torque,
                        broken: true,
                    }),
            )
            .collect(),
    })
}

/// Loads a scene and applies `--set` overrides in order.
pub fn load_scene_with(
    arg: &str,
    sets: &[String],
) -> Result<minkowski::scene::Scene, minkowski::scene::SceneError> {
    let mut scene = load_scene(arg)?;
    for s in sets {
        scene.set(s, arg)?;
    }
    Ok(scene)
}

/// Writes events as JSON lines.
fn write_events(out: &mut impl std::io::Write, events: &[WorldEvent]) -> std::io::Result<()> {
    for e in events {
        serde_json::to_writer(&mut *out, e)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Validates a scene without running it; returns the exit code.
pub fn check(args: &CheckArgs) -> i32 {
    // Building catches what only the whole world shows: joints between
    // generated bodies, and bodies piled on one another.
    match load_scene_with(&args.scene, &args.set).and_then(|s| s.build().map(|_| s)) {
        Ok(scene) => {
            let generated = scene.body_count() - scene.bodies.len();
            let joints =
                if scene.joints.is_empty() && !scene.generators.iter().any(|g| g.makes_joints()) {
                    String::new()
                } else {
                    match scene.expand().1.len() {
                        1 => ", 1 joint".to_string(),
                        n => format!(", {n} joints"),
                    }
                };
            let script = match scene.script.len() {
                0 => String::new(),
                n => format!(
                    ", a script of {n} cue{} spawning up to {} more",
                    if n == 1 { "" } else { "s" },
                    scene.spawned_body_count()
                ),
            };
            println!(
                "ok: {}: {} bodies ({} explicit, {} generated){joints}{script}",
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
