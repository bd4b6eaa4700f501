//! Recording and replay of user input, in the `.replay.ron` format of the
//! scenes-and-replays module: the scene plus every world-changing action keyed
//! by the step it was applied before.
//!
//! Until that module is part of the build, recording and replay report that
//! they are unavailable; everything they need already flows through
//! [`super::actions::apply`].

use super::actions::Action;
use minkowski::World;
use std::path::{Path, PathBuf};

/// An active recording.
pub struct Session {
    path: PathBuf,
    events: Vec<(u64, Action)>,
}

impl Session {
    /// Starts recording the scene at `scene` (its file), from the world's current step.
    pub fn start(scene: Option<&Path>, _world: &World) -> Result<Session, String> {
        let _ = scene;
        Err("recording needs the scenes-and-replays module, which this build lacks".into())
    }

    /// Where it will be saved.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Notes an action applied before step `step`.
    pub fn record(&mut self, step: u64, action: &Action) {
        self.events.push((step, action.clone()));
    }

    /// Notes the world after a step (checkpoints).
    pub fn after_step(&mut self, _world: &World) {}

    /// Stops and writes the file.
    pub fn finish(self) -> Result<PathBuf, String> {
        Err("recording needs the scenes-and-replays module".into())
    }
}

/// A recording being played back.
pub struct Player {
    events: Vec<(u64, Action)>,
    cursor: usize,
    /// Last step with an event.
    pub last_step: u64,
}

impl Player {
    /// Loads a `.replay.ron` file: the world at step 0, its name, and the player.
    pub fn load(path: &Path) -> Result<(World, String, Player), String> {
        Err(format!(
            "{}: replays need the scenes-and-replays module, which this build lacks",
            path.display()
        ))
    }

    /// Applies the events due before the world's next step.
    pub fn apply_due(&mut self, world: &mut World) {
        while let Some((k, ev)) = self.events.get(self.cursor) {
            if *k > world.step_index() {
                break;
            }
            if *k == world.step_index() {
                let _ = super::actions::apply(world, ev);
            }
            self.cursor += 1;
        }
    }

    /// Repositions after a rewind or reset to the world's step.
    pub fn seek(&mut self, step: u64) {
        self.cursor = self.events.partition_point(|(k, _)| *k < step);
    }
}
