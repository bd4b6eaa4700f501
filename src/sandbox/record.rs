//! Recording and replay of user input, in the `.replay.ron` format of
//! `minkowski::replay`: the scene plus every world-changing action keyed by the
//! step it was applied before, with state-hash checkpoints.
//!
//! Recording always starts from the freshly built scene (F5 resets first), since
//! a recording replays from the scene file. Replays are checked against their
//! checkpoints as they play; a divergence is reported on screen.

use super::actions::Action;
use minkowski::replay::{apply_input, Recorder, Recording};
use minkowski::scene::Scene;
use minkowski::World;
use std::path::{Path, PathBuf};

/// Where F5 recordings go (made when the first one is saved).
pub const RECORDINGS_DIR: &str = "recordings";
/// `false` in the web build, which has no files to save to.
pub const CAN_SAVE: bool = cfg!(not(target_arch = "wasm32"));

/// An active recording.
pub struct Session {
    path: PathBuf,
    rec: Recorder,
}

impl Session {
    /// Starts recording a world freshly built from `scene`; the file will be
    /// `recordings/<name>-NNN.replay.ron`, the first number not taken.
    pub fn start(scene: &Scene, name: &str) -> Session {
        let stem: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let stem = if stem.is_empty() {
            "scene".to_string()
        } else {
            stem
        };
        let dir = Path::new(RECORDINGS_DIR);
        let path = (1..10_000)
            .map(|i| dir.join(format!("{stem}-{i:03}.replay.ron")))
            .find(|p| !p.exists())
            .unwrap_or_else(|| dir.join(format!("{stem}.replay.ron")));
        Session {
            path,
            rec: Recorder::new(scene.clone()),
        }
    }

    /// Where it will be saved.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Notes an action applied before step `step`.
    pub fn record(&mut self, step: u64, action: &Action) {
        self.rec.record(step, action.clone());
    }

    /// Notes the world after a step (checkpoints).
    pub fn after_step(&mut self, world: &World) {
        self.rec.after_step(world);
    }

    /// The recording so far.
    #[cfg(test)]
    pub fn recording(&self) -> &minkowski::replay::Recording {
        self.rec.recording()
    }

    /// Stops and writes the file (making its folder if need be).
    pub fn finish(self) -> Result<PathBuf, String> {
        let recording = self.rec.finish();
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        recording
            .save(&self.path)
            .map_err(|e| format!("{}: {e}", self.path.display()))?;
        Ok(self.path)
    }
}

/// A recording being played back.
pub struct Player {
    events: Vec<(u64, Action)>,
    checkpoints: Vec<(u64, u64)>,
    cursor: usize,
    /// The step the recording runs to.
    pub last_step: u64,
}

impl Player {
    /// Loads a `.replay.ron` file: its scene and the player.
    pub fn load(path: &Path) -> Result<(Scene, Player), String> {
        let rec = Recording::load(path).map_err(|e| e.to_string())?;
        let last_step = rec.end_step();
        Ok((
            rec.scene,
            Player {
                events: rec.events,
                checkpoints: rec.checkpoints,
                cursor: 0,
                last_step,
            },
        ))
    }

    /// Applies the events due before the world's next step; returns how
    /// many bodies `Remove` events took out (the kill plane's, recorded).
    pub fn apply_due(&mut self, world: &mut World) -> usize {
        let mut removed = 0;
        while let Some((k, ev)) = self.events.get(self.cursor) {
            if *k > world.step_index() {
                break;
            }
            if *k == world.step_index() {
                let before = world.body_count();
                apply_input(world, ev);
                if matches!(ev, Action::Remove { .. }) {
                    removed += before - world.body_count();
                }
            }
            self.cursor += 1;
        }
        removed
    }

    /// After a step: a message if the world's state hash differs from the
    /// recording's checkpoint for this step.
    pub fn check(&self, world: &World) -> Option<String> {
        let k = world.step_index();
        let i = self.checkpoints.partition_point(|(s, _)| *s < k);
        match self.checkpoints.get(i) {
            Some(&(s, h)) if s == k && h != world.state_hash() => Some(format!(
                "replay diverged at step {k}: state hash {:016x}, recorded {h:016x}",
                world.state_hash()
            )),
            _ => None,
        }
    }

    /// Repositions after a rewind or reset to the world's step.
    pub fn seek(&mut self, step: u64) {
        self.cursor = self.events.partition_point(|(k, _)| *k < step);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recordings_go_to_their_folder_under_a_safe_name() {
        let scene = Scene::builtin("bounce").unwrap();
        let s = Session::start(&scene, "my scene: v2");
        let p = s.path();
        assert_eq!(p.parent(), Some(Path::new(RECORDINGS_DIR)));
        let name = p.file_name().unwrap().to_str().unwrap();
        assert!(name.starts_with("my_scene__v2-"), "{name}");
        assert!(name.ends_with(".replay.ron"), "{name}");
    }
}
