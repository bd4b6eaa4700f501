//! Where worlds come from: scene files (`minkowski::scene`), the shipped
//! scenes compiled into the library, and what `play SCENE` names.

use super::picker::Source;
use minkowski::scene::Scene;
use minkowski::World;
use std::path::{Path, PathBuf};

/// The folder of scene files, relative to the working directory.
pub const SCENES_DIR: &str = "scenes";

/// A freshly loaded scene and its world.
pub struct Loaded {
    /// The world at step 0.
    pub world: World,
    /// The scene's name for the HUD.
    pub name: String,
    /// The scene itself (recordings embed it).
    pub scene: Scene,
}

/// Loads and builds a scene from a file or the shipped copies.
/// Errors are ready to show: `file:line:col: message`.
pub fn load(source: &Source) -> Result<Loaded, String> {
    match source {
        Source::Builtin(name) => {
            let scene = Scene::builtin(name)
                .ok_or_else(|| format!("the built-in scene {name:?} is missing"))?;
            from_scene(scene, None)
        }
        Source::File(p) => {
            let scene = Scene::load(p).map_err(|e| e.to_string())?;
            from_scene(scene, Some(p))
        }
    }
}

/// Builds a scene's world.
pub fn from_scene(scene: Scene, path: Option<&Path>) -> Result<Loaded, String> {
    let world = scene.build().map_err(|e| e.to_string())?;
    let name = if !scene.name.is_empty() {
        scene.name.clone()
    } else {
        path.and_then(|p| p.file_stem())
            .and_then(|s| s.to_str())
            .unwrap_or("untitled")
            .to_string()
    };
    Ok(Loaded { world, name, scene })
}

/// What `play SCENE` names: a file; or a shipped scene by name, opened from
/// `scenes/NAME.ron` when that file exists (so hot reload works), else from
/// the copy compiled into the library.
pub fn resolve_arg(arg: &Path) -> Result<Source, String> {
    let bare = arg.components().count() == 1 && arg.extension().is_none() && !arg.exists();
    if !bare {
        return Ok(Source::File(arg.to_path_buf()));
    }
    let name = arg.to_string_lossy().to_string();
    let file = Path::new(SCENES_DIR).join(format!("{name}.ron"));
    if file.is_file() {
        return Ok(Source::File(file));
    }
    match minkowski::scene::BUILTIN_NAMES.iter().find(|n| **n == name) {
        Some(n) => Ok(Source::Builtin(n)),
        None => Err(format!(
            "{name}: no such file, and not a shipped scene (one of: {})",
            minkowski::scene::BUILTIN_NAMES.join(", ")
        )),
    }
}

/// The scene to open at start-up when none is named: `scenes/default.ron` if
/// it exists, otherwise the built-in copy.
pub fn default_source() -> Source {
    let p = PathBuf::from(SCENES_DIR).join("default.ron");
    if p.is_file() {
        Source::File(p)
    } else {
        Source::Builtin("default")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_default_scene_has_every_kind() {
        let w = load(&Source::Builtin("default")).unwrap().world;
        let mut kinds: Vec<&str> = w.bodies().map(|(_, b)| b.shape().kind_name()).collect();
        kinds.sort();
        kinds.dedup();
        assert_eq!(kinds, ["capsule", "circle", "ellipse", "polygon"]);
    }

    #[test]
    fn a_shipped_scene_by_name() {
        // From the repository root (cargo test's working directory) the
        // file is there; either way it is newtons_cradle.
        let s = resolve_arg(Path::new("newtons_cradle")).unwrap();
        let loaded = load(&s).unwrap();
        assert_eq!(loaded.scene, Scene::builtin("newtons_cradle").unwrap());
        assert!(resolve_arg(Path::new("no_such_scene"))
            .unwrap_err()
            .contains("not a shipped scene"));
    }
}
