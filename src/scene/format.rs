//! The serde types of a scene file (RON). See `docs/scenes.md` for the reference.
//!
//! [`Scene`] serializes through a private flat form ([`SceneFile`]) so that the
//! file lists `gravity`, `dt`, `substeps` and `sleep` at the top level while the
//! in-memory scene carries a whole [`WorldSettings`]. World settings other than
//! those four are the engine's defaults and are not stored in scene files.

use super::generators::Generator;
use super::joint_spec::JointSpec;
use super::script_spec::CueSpec;
use super::spec::BodySpec;
use crate::math::Vec2;
use crate::world::{WorldSettings, DEFAULT_SUBSTEPS};
use serde::{Deserialize, Serialize};

/// A scene: world settings, explicit bodies, body generators and joints.
///
/// Body ids follow file order: the explicit `bodies` first, then each generator's
/// bodies in generator order. Generators draw from one `ChaCha8Rng` seeded by
/// `seed`. Parse and validate with [`Scene::from_ron_str`] or [`Scene::load`],
/// then make a world with [`Scene::build`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "SceneFile", into = "SceneFile")]
pub struct Scene {
    /// Display name.
    pub name: String,
    /// World settings. Only `gravity`, `dt`, `substeps` and `sleep` are stored in
    /// scene files; the other fields keep the engine's defaults when loading.
    pub settings: WorldSettings,
    /// Seed of the generators' random stream.
    pub seed: u64,
    /// Explicit bodies, in id order.
    pub bodies: Vec<BodySpec>,
    /// Generators, expanded after the explicit bodies, in order.
    pub generators: Vec<Generator>,
    /// Joints between the scene's bodies, by index or name; the generators'
    /// joints follow them.
    pub joints: Vec<JointSpec>,
    /// Timed actions (see `script_spec`).
    pub script: Vec<CueSpec>,
}

/// The on-disk shape of [`Scene`]: flat settings, every field but `bodies`
/// optional.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename = "Scene", deny_unknown_fields)]
struct SceneFile {
    #[serde(default)]
    name: String,
    #[serde(default = "default_gravity")]
    gravity: Vec2,
    #[serde(default = "default_dt")]
    dt: f32,
    #[serde(default = "default_substeps")]
    substeps: u32,
    #[serde(default)]
    seed: u64,
    #[serde(default = "default_true")]
    sleep: bool,
    #[serde(default)]
    bodies: Vec<BodySpec>,
    #[serde(default)]
    generators: Vec<Generator>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    joints: Vec<JointSpec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    script: Vec<CueSpec>,
}

fn default_gravity() -> Vec2 {
    WorldSettings::default().gravity
}
fn default_dt() -> f32 {
    WorldSettings::default().dt
}
fn default_substeps() -> u32 {
    DEFAULT_SUBSTEPS
}
fn default_true() -> bool {
    true
}

impl From<SceneFile> for Scene {
    fn from(f: SceneFile) -> Scene {
        Scene {
            name: f.name,
            settings: WorldSettings {
                gravity: f.gravity,
                dt: f.dt,
                substeps: f.substeps,
                sleep: f.sleep,
                ..WorldSettings::default()
            },
            seed: f.seed,
            bodies: f.bodies,
            generators: f.generators,
            joints: f.joints,
            script: f.script,
        }
    }
}

impl From<Scene> for SceneFile {
    fn from(s: Scene) -> SceneFile {
        SceneFile {
            name: s.name,
            gravity: s.settings.gravity,
            dt: s.settings.dt,
            substeps: s.settings.substeps,
            seed: s.seed,
            sleep: s.settings.sleep,
            bodies: s.bodies,
            generators: s.generators,
            joints: s.joints,
            script: s.script,
        }
    }
}
