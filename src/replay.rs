//! Recorded replays: a scene, every input event with its step index, and a
//! checkpoint hash every [`CHECKPOINT_EVERY`] steps. A replay file
//! (`.replay.ron`) is a [`Recording`] in RON.
//!
//! # Order within a step
//!
//! Let `k = world.step_index()` (the number of `World::step` calls so far).
//!
//! 1. Events recorded with step index `k` are applied, in recording order, just
//!    before the `k`-th call to `World::step()` (counting from 0), that is while
//!    `world.step_index() == k`. An event at step 0 applies to the freshly built
//!    world.
//! 2. `World::step()` runs; now `step_index() == k + 1`.
//! 3. When `step_index()` is a multiple of [`CHECKPOINT_EVERY`], the checkpoint
//!    `(step_index(), state_hash())` is taken. [`Recorder::finish`] adds one
//!    more checkpoint for the last step seen, if it was not one already.
//!
//! A replay re-runs until `step_index()` reaches [`Recording::end_step`]: the
//! later of the last checkpoint and one step past the last event (so that
//! every event is applied and stepped once).
//!
//! # Events
//!
//! Points are in world coordinates. `DragStart` and `Delete` pick the body under
//! the point with [`World::body_at`] and do nothing when there is none;
//! `DragMove` and `DragEnd` act on the current drag, if any; `Spawn` adds a body
//! and does nothing when its spec is invalid; `Tune` changes a setting
//! (gravity, substeps, sleep) and `Remove` takes a body out by slot index.
//! [`apply_input`] never panics.
//!
//! ```
//! use minkowski::replay::{InputEvent, Recorder};
//! use minkowski::scene::Scene;
//! use minkowski::Vec2;
//! let scene = Scene::builtin("bounce").unwrap();
//! let mut world = scene.build().unwrap();
//! let mut rec = Recorder::new(scene);
//! for step in 0..120u64 {
//!     if step == 10 {
//!         let ev = InputEvent::Delete { at: Vec2::new(0.0, 7.8) };
//!         minkowski::replay::apply_input(&mut world, &ev);
//!         rec.record(step, ev);
//!     }
//!     world.step();
//!     rec.after_step(&world);
//! }
//! let recording = rec.finish();
//! assert_eq!(recording.checkpoints.len(), 2);
//! assert_eq!(recording.verify(), Ok(120));
//! ```

mod tools;
mod tuning;

use crate::math::Vec2;
use crate::scene::{BodySpec, Scene, SceneError};
use crate::world::World;
use serde::{Deserialize, Serialize};
use std::path::Path;
use thiserror::Error;
pub use tools::{
    apply_joint_tool, cut_joint, toggle_motor, JointTool, MOTOR_SPEED, MOTOR_TORQUE_PER_KG,
    SPRING_DAMPING, SPRING_HERTZ,
};
pub use tuning::Tuning;

/// Steps between checkpoint hashes.
pub const CHECKPOINT_EVERY: u64 = 60;

/// One user input, as recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum InputEvent {
    /// Adds a body.
    Spawn(BodySpec),
    /// Starts dragging the body under `at` (world point), if any.
    DragStart {
        /// World point (m).
        at: Vec2,
    },
    /// Moves the drag target.
    DragMove {
        /// World point (m).
        target: Vec2,
    },
    /// Releases the drag.
    DragEnd,
    /// Removes the body under `at`, if any.
    Delete {
        /// World point (m).
        at: Vec2,
    },
    /// A joint tool from `a` to `b` (see [`JointTool`]).
    Joint {
        /// Which tool.
        tool: JointTool,
        /// Where the gesture started (world, m).
        a: Vec2,
        /// Where it ended (world, m).
        b: Vec2,
    },
    /// Turns the motor of the hinge nearest `at` (within `radius`) on or off.
    ToggleMotor {
        /// World point (m).
        at: Vec2,
        /// Pick radius (m).
        radius: f32,
    },
    /// Removes the joint nearest `at` (within `radius`).
    CutJoint {
        /// World point (m).
        at: Vec2,
        /// Pick radius (m).
        radius: f32,
    },
    /// An explosion at `at`: the full `impulse` (N·s) within `radius` (m),
    /// fading to nothing over `radius` more (see `World::explode`).
    Explode {
        /// World point (m).
        at: Vec2,
        /// Radius of the full push (m).
        radius: f32,
        /// Impulse at full push (N·s).
        impulse: f32,
    },
    /// Changes a world setting (see [`Tuning`]).
    Tune(Tuning),
    /// Removes the body in slot `index`, if there is one (the sandbox's kill
    /// plane: bodies far outside the scene).
    Remove {
        /// Slot index (`BodyId::index`).
        index: u32,
    },
}

/// Applies one input to the world. Deterministic; never panics; invalid input
/// (a bad spawn spec, a non-finite point, nothing under the point) does nothing.
pub fn apply_input(world: &mut World, ev: &InputEvent) {
    let finite = |p: Vec2| p.x.is_finite() && p.y.is_finite();
    match ev {
        InputEvent::Spawn(spec) => {
            if let Ok(def) = spec.to_def() {
                let _ = world.add_body(def);
            }
        }
        InputEvent::DragStart { at } => {
            if finite(*at) {
                if let Some(id) = world.body_at(*at) {
                    let _ = world.drag_start(id, *at);
                }
            }
        }
        InputEvent::DragMove { target } => world.drag_move(*target),
        InputEvent::DragEnd => world.drag_end(),
        InputEvent::Delete { at } => {
            if finite(*at) {
                if let Some(id) = world.body_at(*at) {
                    world.remove_body(id);
                }
            }
        }
        InputEvent::Joint { tool, a, b } => apply_joint_tool(world, *tool, *a, *b),
        InputEvent::ToggleMotor { at, radius } => toggle_motor(world, *at, *radius),
        InputEvent::CutJoint { at, radius } => cut_joint(world, *at, *radius),
        InputEvent::Explode {
            at,
            radius,
            impulse,
        } => {
            world.explode(&crate::world::Explosion {
                center: *at,
                radius: *radius,
                falloff: *radius,
                impulse: *impulse,
            });
        }
        InputEvent::Tune(t) => t.apply(world),
        InputEvent::Remove { index } => {
            let id = world
                .bodies()
                .find(|(id, _)| id.index == *index)
                .map(|(id, _)| id);
            if let Some(id) = id {
                world.remove_body(id);
            }
        }
    }
}

/// A recorded run: the `.replay.ron` file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recording {
    /// The scene, embedded.
    pub scene: Scene,
    /// `(step index, event)`, in the order applied; step indices never decrease.
    pub events: Vec<(u64, InputEvent)>,
    /// `(step index, state hash)`, step indices strictly increasing.
    pub checkpoints: Vec<(u64, u64)>,
}

/// The first checkpoint whose hash differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("diverged at step {step}: expected hash {expected:#018x}, got {actual:#018x}")]
pub struct Divergence {
    /// Step index of the checkpoint.
    pub step: u64,
    /// Hash stored in the recording.
    pub expected: u64,
    /// Hash of the re-simulation (0 when the scene could not be built).
    pub actual: u64,
}

/// Why a replay file could not be read.
#[derive(Debug, Error)]
pub enum ReplayError {
    /// The file could not be read.
    #[error("{origin}: cannot read the replay: {source}")]
    Io {
        /// The file.
        origin: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// Not a valid recording: bad syntax, truncated, unknown field or variant.
    #[error("{origin}:{line}:{col}: {message}")]
    Syntax {
        /// The file.
        origin: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What the parser expected or found.
        message: String,
    },
    /// The embedded scene is invalid.
    #[error("{0}")]
    Scene(#[from] SceneError),
    /// Events or checkpoints out of order, or nothing to check.
    #[error("{origin}: {message}")]
    Invalid {
        /// The file.
        origin: String,
        /// What is wrong.
        message: String,
    },
}

/// Most steps a replay may run (about 9 hours at 60 Hz), so a corrupted step
/// index cannot make `replay` run for ever.
pub const MAX_REPLAY_STEPS: u64 = 2_000_000;

impl Recording {
    /// Parses and checks a recording: the scene must be valid, event steps must
    /// not decrease, checkpoint steps must increase, and no step may exceed
    /// [`MAX_REPLAY_STEPS`]. Never panics.
    pub fn from_ron_str(text: &str, origin: &str) -> Result<Recording, ReplayError> {
        let rec: Recording =
            crate::scene::ron_options()
                .from_str(text)
                .map_err(|e| ReplayError::Syntax {
                    origin: origin.to_string(),
                    line: e.position.line,
                    col: e.position.col,
                    message: crate::scene::ron_message(text, &e),
                })?;
        rec.scene
            .validate(&format!("{origin}: embedded scene"))
            .map_err(ReplayError::Scene)?;
        let invalid = |message: String| ReplayError::Invalid {
            origin: origin.to_string(),
            message,
        };
        for (i, w) in rec.events.windows(2).enumerate() {
            if w[1].0 < w[0].0 {
                return Err(invalid(format!(
                    "event {} is at step {}, before event {} at step {}: events must be in step order",
                    i + 1,
                    w[1].0,
                    i,
                    w[0].0
                )));
            }
        }
        for (i, w) in rec.checkpoints.windows(2).enumerate() {
            if w[1].0 <= w[0].0 {
                return Err(invalid(format!(
                    "checkpoint {} is at step {}, not after checkpoint {} at step {}",
                    i + 1,
                    w[1].0,
                    i,
                    w[0].0
                )));
            }
        }
        if rec.checkpoints.first().is_some_and(|c| c.0 == 0) {
            return Err(invalid(
                "checkpoint 0 is at step 0: checkpoints are taken after a step".into(),
            ));
        }
        if rec.end_step() > MAX_REPLAY_STEPS {
            return Err(invalid(format!(
                "the replay runs to step {}, beyond the cap of {MAX_REPLAY_STEPS}",
                rec.end_step()
            )));
        }
        if rec.checkpoints.is_empty() {
            return Err(invalid(
                "the replay has no checkpoints, so there is nothing to verify".into(),
            ));
        }
        Ok(rec)
    }

    /// Reads and checks a `.replay.ron` file. Errors name the path.
    pub fn load(path: &Path) -> Result<Recording, ReplayError> {
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| ReplayError::Io {
            origin: origin.clone(),
            source,
        })?;
        Recording::from_ron_str(&text, &origin)
    }

    /// The recording as RON: the scene in the scene format, one event per
    /// line, and checkpoint hashes in hex (as `minkowski run` prints them).
    pub fn to_ron_string(&self) -> String {
        let inline = ron::ser::PrettyConfig::new()
            .struct_names(false)
            .depth_limit(0);
        let mut s = String::from("Recording(\n  scene: ");
        let scene = self.scene.to_ron_string();
        for (i, line) in scene.trim_end().lines().enumerate() {
            if i > 0 {
                s.push_str("\n  ");
            }
            s.push_str(line);
        }
        s.push_str(",\n  events: [\n");
        for (step, ev) in &self.events {
            match crate::scene::ron_options().to_string_pretty(ev, inline.clone()) {
                Ok(ev) => s.push_str(&format!("    ({step}, {ev}),\n")),
                Err(e) => s.push_str(&format!("    // cannot serialize an event: {e}\n")),
            }
        }
        s.push_str("  ],\n  checkpoints: [\n");
        for (step, hash) in &self.checkpoints {
            s.push_str(&format!("    ({step}, {hash:#018x}),\n"));
        }
        s.push_str("  ],\n)\n");
        s
    }

    /// Writes the recording to `path`.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        std::fs::write(path, self.to_ron_string())
    }

    /// The step the replay runs to: the later of the last checkpoint and one
    /// step past the last event.
    pub fn end_step(&self) -> u64 {
        let c = self.checkpoints.last().map_or(0, |c| c.0);
        let e = self.events.last().map_or(0, |e| e.0.saturating_add(1));
        c.max(e)
    }

    /// Re-simulates the recording headless and compares every checkpoint.
    /// Returns the number of steps run, or the first checkpoint that differs.
    /// A scene that cannot be built diverges at the first checkpoint (with
    /// `actual` 0).
    pub fn verify(&self) -> Result<u64, Divergence> {
        let mut player = match Replayer::new(self.clone()) {
            Ok(p) => p,
            Err(_) => {
                let (step, expected) = self.checkpoints.first().copied().unwrap_or((0, 0));
                return Err(Divergence {
                    step,
                    expected,
                    actual: 0,
                });
            }
        };
        while !player.finished() {
            player.step()?;
        }
        Ok(player.world().step_index())
    }
}

/// Plays a recording back one step at a time, applying its events and checking
/// its checkpoints (what `minkowski replay` and the sandbox use).
#[derive(Clone, Debug)]
pub struct Replayer {
    recording: Recording,
    world: World,
    next_event: usize,
    next_checkpoint: usize,
}

impl Replayer {
    /// Builds the scene's world (step 0, no event applied yet).
    pub fn new(recording: Recording) -> Result<Replayer, SceneError> {
        let world = recording.scene.build()?;
        Ok(Replayer {
            recording,
            world,
            next_event: 0,
            next_checkpoint: 0,
        })
    }

    fn apply_due_events(&mut self) {
        let k = self.world.step_index();
        while let Some((step, ev)) = self.recording.events.get(self.next_event) {
            if *step > k {
                break;
            }
            // Events for steps already passed cannot happen in a checked recording.
            if *step == k {
                apply_input(&mut self.world, ev);
            }
            self.next_event += 1;
        }
    }

    /// The world as it stands.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The recording being played.
    pub fn recording(&self) -> &Recording {
        &self.recording
    }

    /// `true` once the world has reached [`Recording::end_step`].
    pub fn finished(&self) -> bool {
        self.world.step_index() >= self.recording.end_step()
    }

    /// Unless finished: applies the events recorded for the current step, steps
    /// once, and checks the checkpoint due at the new step, if any.
    pub fn step(&mut self) -> Result<(), Divergence> {
        if self.finished() {
            return Ok(());
        }
        self.apply_due_events();
        self.world.step();
        let k = self.world.step_index();
        while let Some(&(step, expected)) = self.recording.checkpoints.get(self.next_checkpoint) {
            if step > k {
                break;
            }
            self.next_checkpoint += 1;
            if step == k {
                let actual = self.world.state_hash();
                if actual != expected {
                    return Err(Divergence {
                        step,
                        expected,
                        actual,
                    });
                }
            }
        }
        Ok(())
    }
}

/// Records a session: call [`Recorder::record`] for every input applied and
/// [`Recorder::after_step`] after every `World::step`.
#[derive(Clone, Debug)]
pub struct Recorder {
    recording: Recording,
    last: Option<(u64, u64)>,
}

impl Recorder {
    /// Starts a recording of a world freshly built from `scene`.
    pub fn new(scene: Scene) -> Recorder {
        Recorder {
            recording: Recording {
                scene,
                events: Vec::new(),
                checkpoints: Vec::new(),
            },
            last: None,
        }
    }

    /// Records an input applied while `world.step_index() == step`.
    pub fn record(&mut self, step: u64, ev: InputEvent) {
        self.recording.events.push((step, ev));
    }

    /// Call after each `World::step`: takes a checkpoint every
    /// [`CHECKPOINT_EVERY`] steps.
    pub fn after_step(&mut self, world: &World) {
        let k = world.step_index();
        let h = world.state_hash();
        self.last = Some((k, h));
        if k > 0
            && k % CHECKPOINT_EVERY == 0
            && self.recording.checkpoints.last().is_none_or(|c| c.0 < k)
        {
            self.recording.checkpoints.push((k, h));
        }
    }

    /// The recording so far.
    pub fn recording(&self) -> &Recording {
        &self.recording
    }

    /// Ends the recording, adding a checkpoint for the last step seen if it is
    /// not one already.
    pub fn finish(mut self) -> Recording {
        if let Some((k, h)) = self.last {
            if k > 0 && self.recording.checkpoints.last().is_none_or(|c| c.0 < k) {
                self.recording.checkpoints.push((k, h));
            }
        }
        self.recording
    }
}
