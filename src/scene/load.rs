//! Reading, checking, writing and building scenes.

use super::error::{FieldError, SceneError};
use super::format::Scene;
use super::generators::Generator;
use super::joint_spec::JointSpec;
use super::resolve::{add_joints, check_joints, check_names};
use super::script_spec::make_script;
use super::spec::BodySpec;
use super::validate::check;
use super::{BUILTIN, MAX_BODIES};
use crate::world::{World, MAX_START_OVERLAPS};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// Most substeps a scene may ask for.
pub const MAX_SUBSTEPS: u32 = 64;

impl Scene {
    /// Parses a scene from RON text and validates everything: settings, every
    /// body, every generator and the body cap. `origin` (usually the file path)
    /// starts every error message. Never panics, whatever the input.
    ///
    /// ```
    /// use minkowski::scene::Scene;
    /// let scene = Scene::from_ron_str("Scene(bodies: [(shape: Circle(r: 0.5), pos: (0.0, 2.0))])", "inline").unwrap();
    /// assert_eq!(scene.body_count(), 1);
    /// let err = Scene::from_ron_str("Scene(bodies: [(shape: Circle(r: -1.0), pos: (0.0, 2.0))])", "inline").unwrap_err();
    /// assert_eq!(err.to_string(), "inline: body 0, field `shape.r`: must be > 0 and at most 10000 m, got -1");
    /// ```
    pub fn from_ron_str(text: &str, origin: &str) -> Result<Scene, SceneError> {
        let scene: Scene = ron_options()
            .from_str(text)
            .map_err(|e| SceneError::from_ron(origin, text, e))?;
        scene.validate(origin)?;
        Ok(scene)
    }

    /// Reads and validates a scene file. Errors name the path.
    pub fn load(path: &Path) -> Result<Scene, SceneError> {
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| SceneError::Io {
            origin: origin.clone(),
            source,
        })?;
        Scene::from_ron_str(&text, &origin)
    }

    /// A shipped scene by name (`pyramid`, `rain`, …; see [`super::BUILTIN_NAMES`]),
    /// compiled into the library.
    pub fn builtin(name: &str) -> Option<Scene> {
        let text = super::builtin_source(name)?;
        Scene::from_ron_str(text, &format!("scenes/{name}.ron")).ok()
    }

    /// The scene as RON, in the documented format; [`Scene::from_ron_str`] reads
    /// it back to an equal scene (world settings other than gravity, dt,
    /// substeps and sleep are not stored).
    pub fn to_ron_string(&self) -> String {
        let config = ron::ser::PrettyConfig::new()
            .struct_names(false)
            .separate_tuple_members(false)
            .depth_limit(2)
            .indentor("  ".to_string());
        match ron_options().to_string_pretty(self, config) {
            // Name the top-level struct, as the shipped files do.
            Ok(s) => format!("Scene{s}\n"),
            // Serializing plain data cannot fail; keep the output well-formed anyway.
            Err(e) => format!("// cannot serialize the scene: {e}\nScene()\n"),
        }
    }

    /// Checks settings, bodies, generators and the body cap. Errors start with
    /// `origin`.
    pub fn validate(&self, origin: &str) -> Result<(), SceneError> {
        let setting = |e: FieldError| SceneError::Setting {
            origin: origin.to_string(),
            field: e.field,
            message: e.message,
        };
        let s = &self.settings;
        check("dt", s.dt, f32::MIN_POSITIVE, 1.0, "> 0 and at most 1 s").map_err(setting)?;
        check(
            "gravity.x",
            s.gravity.x,
            -1.0e4,
            1.0e4,
            "within ±10000 m/s²",
        )
        .map_err(setting)?;
        check(
            "gravity.y",
            s.gravity.y,
            -1.0e4,
            1.0e4,
            "within ±10000 m/s²",
        )
        .map_err(setting)?;
        if s.substeps == 0 || s.substeps > MAX_SUBSTEPS {
            return Err(setting(FieldError::new(
                "substeps",
                format!("must be between 1 and {MAX_SUBSTEPS}, got {}", s.substeps),
            )));
        }
        let count = self.body_count_u64();
        if count > MAX_BODIES as u64 {
            return Err(SceneError::TooManyBodies {
                origin: origin.to_string(),
                count,
                max: MAX_BODIES,
            });
        }
        for (index, b) in self.bodies.iter().enumerate() {
            b.validate()
                .map_err(|e| SceneError::body(origin, index, e))?;
        }
        for (index, g) in self.generators.iter().enumerate() {
            g.validate().map_err(|e| SceneError::Generator {
                origin: origin.to_string(),
                index,
                kind: g.kind_name(),
                field: e.field,
                message: e.message,
            })?;
        }
        if !self.joints.is_empty() || self.generators.iter().any(Generator::makes_joints) {
            let (bodies, joints) = self.expand();
            check_joints(origin, &bodies, &joints)?;
        } else {
            check_names(origin, &self.bodies)?;
        }
        if !self.script.is_empty() {
            // The spawns' random draws differ from the build's (which follow
            // the scene's generators), but not what is valid.
            let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
            let (bodies, _) = self.expand();
            make_script(origin, s.dt, &self.script, &bodies, None, &mut rng)?;
        }
        Ok(())
    }

    fn body_count_u64(&self) -> u64 {
        self.generators
            .iter()
            .fold(self.bodies.len() as u64, |n, g| {
                n.saturating_add(g.body_count())
            })
    }

    /// Bodies the scene's script can add over time (saturating).
    pub fn spawned_body_count(&self) -> u64 {
        super::script_spec::spawned_bodies(&self.script)
    }

    /// Number of bodies the scene makes, explicit and generated (saturating).
    pub fn body_count(&self) -> usize {
        usize::try_from(self.body_count_u64()).unwrap_or(usize::MAX)
    }

    /// Every body the scene makes, in id order: the explicit bodies, then each
    /// generator's (drawing from one `ChaCha8Rng::seed_from_u64(seed)`). Call on
    /// a validated scene: this does not check the body cap.
    pub fn body_specs(&self) -> Vec<BodySpec> {
        self.expand().0
    }

    /// Every body and joint the scene makes, in id order: the explicit ones,
    /// then each generator's. Call on a validated scene.
    pub fn expand(&self) -> (Vec<BodySpec>, Vec<JointSpec>) {
        let mut bodies = self.bodies.clone();
        let mut joints = self.joints.clone();
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        for g in &self.generators {
            g.generate(&mut rng, &mut bodies, &mut joints);
        }
        (bodies, joints)
    }

    /// Builds the world: validates, then adds the explicit bodies in order, then
    /// each generator's bodies in order, all generators drawing from one
    /// `ChaCha8Rng::seed_from_u64(seed)`. On error no world is returned. Errors
    /// start with the scene's name.
    pub fn build(&self) -> Result<World, SceneError> {
        let origin = if self.name.is_empty() {
            "scene"
        } else {
            self.name.as_str()
        };
        self.validate(origin)?;
        let mut world = World::new(self.settings);
        for (index, b) in self.bodies.iter().enumerate() {
            let def = b.to_def().map_err(|e| SceneError::body(origin, index, e))?;
            world.add_body(def).map_err(|e| {
                SceneError::body(origin, index, FieldError::new("body", e.to_string()))
            })?;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let mut specs = self.bodies.clone();
        let mut joints = self.joints.clone();
        for (index, g) in self.generators.iter().enumerate() {
            let first = specs.len();
            g.generate(&mut rng, &mut specs, &mut joints);
            for (k, spec) in specs[first..].iter().enumerate() {
                let fail = |e: String| SceneError::Generator {
                    origin: origin.to_string(),
                    index,
                    kind: g.kind_name(),
                    field: format!("generated body {k}"),
                    message: e,
                };
                let def = spec.to_def().map_err(|e| fail(e.to_string()))?;
                world.add_body(def).map_err(|e| fail(e.to_string()))?;
            }
        }
        add_joints(&mut world, origin, &specs, &joints)?;
        if !self.script.is_empty() || specs.iter().any(|s| s.motion.is_some()) {
            let ids: Vec<crate::world::BodyId> = world.bodies().map(|(id, _)| id).collect();
            let script = make_script(
                origin,
                self.settings.dt,
                &self.script,
                &specs,
                Some(&ids),
                &mut rng,
            )?;
            world.set_script(script);
        }
        let census = world.crowding(MAX_START_OVERLAPS);
        if census.pairs > MAX_START_OVERLAPS {
            let (body, n, at) = census.worst.unwrap_or((0, 0, crate::math::Vec2::ZERO));
            return Err(SceneError::Crowd {
                origin: origin.to_string(),
                max: MAX_START_OVERLAPS,
                crowd: n + 1,
                body,
                x: at.x,
                y: at.y,
            });
        }
        Ok(world)
    }
}

/// RON as scene files use it: an optional field is written as its value
/// (`limits: (-0.5, 0.5)`), `Some(…)` is accepted too.
pub(crate) fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// The RON text of a shipped scene.
pub fn builtin_source(name: &str) -> Option<&'static str> {
    BUILTIN
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}
