//! Where worlds come from: scene files (`minkowski::scene`), the default scene
//! (`scenes/default.ron`, or the copy compiled into the library when the file
//! is not there), and the list of scenes that N and P cycle through.

use minkowski::scene::Scene;
use minkowski::World;
use std::path::{Path, PathBuf};

/// The scene opened when none is named.
pub const DEFAULT_SCENE: &str = "scenes/default.ron";

/// A freshly loaded scene and its world.
pub struct Loaded {
    /// The world at step 0.
    pub world: World,
    /// The scene's name for the HUD.
    pub name: String,
    /// The scene itself (recordings embed it).
    pub scene: Scene,
}

/// Loads and builds a scene file, or the built-in default scene for `None`.
/// Errors are ready to show: `file:line:col: message`.
pub fn load(path: Option<&Path>) -> Result<Loaded, String> {
    let scene = match path {
        None => Scene::builtin("default")
            .ok_or_else(|| "the built-in default scene is missing".to_string())?,
        Some(p) => Scene::load(p).map_err(|e| e.to_string())?,
    };
    from_scene(scene, path)
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
/// the copy compiled into the library. Returns the file, if any.
pub fn load_arg(arg: &Path) -> Result<(Loaded, Option<PathBuf>), String> {
    let bare = arg.components().count() == 1 && arg.extension().is_none() && !arg.exists();
    if !bare {
        return Ok((load(Some(arg))?, Some(arg.to_path_buf())));
    }
    let name = arg.to_string_lossy().to_string();
    let file = Path::new("scenes").join(format!("{name}.ron"));
    if file.is_file() {
        return Ok((load(Some(&file))?, Some(file)));
    }
    match Scene::builtin(&name) {
        Some(scene) => Ok((from_scene(scene, None)?, None)),
        None => Err(format!(
            "{name}: no such file, and not a shipped scene (one of: {})",
            minkowski::scene::BUILTIN_NAMES.join(", ")
        )),
    }
}

/// The scene to open at start-up when none is named: `scenes/default.ron` if
/// it exists, otherwise (`None`) the built-in copy.
pub fn default_path() -> Option<PathBuf> {
    let p = PathBuf::from(DEFAULT_SCENE);
    p.is_file().then_some(p)
}
/// Every `*.ron` scene in the directory of `current` (or `scenes/`), sorted by
/// name, without replays.
pub fn list(current: Option<&Path>) -> Vec<PathBuf> {
    let dir = current
        .and_then(|p| p.parent())
        .filter(|d| !d.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("scenes"));
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                    name.ends_with(".ron") && !name.ends_with(".replay.ron")
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// The neighbour of `current` in `list` (`delta` = +1 next, -1 previous), wrapping.
pub fn neighbour(list: &[PathBuf], current: Option<&Path>, delta: i32) -> Option<PathBuf> {
    if list.is_empty() {
        return None;
    }
    let n = list.len() as i32;
    let i = current
        .and_then(|c| {
            list.iter()
                .position(|p| p == c || p.file_name() == c.file_name())
        })
        .map(|i| i as i32)
        .unwrap_or(if delta > 0 { -1 } else { 0 });
    Some(list[(i + delta).rem_euclid(n) as usize].clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_default_scene_has_every_kind() {
        let w = load(None).unwrap().world;
        let mut kinds: Vec<&str> = w.bodies().map(|(_, b)| b.shape().kind_name()).collect();
        kinds.sort();
        kinds.dedup();
        assert_eq!(kinds, ["capsule", "circle", "ellipse", "polygon"]);
    }

    #[test]
    fn neighbour_wraps() {
        let l = vec![PathBuf::from("a.ron"), PathBuf::from("b.ron")];
        assert_eq!(
            neighbour(&l, Some(Path::new("b.ron")), 1),
            Some(PathBuf::from("a.ron"))
        );
        assert_eq!(
            neighbour(&l, Some(Path::new("a.ron")), -1),
            Some(PathBuf::from("b.ron"))
        );
        assert_eq!(neighbour(&l, None, 1), Some(PathBuf::from("a.ron")));
    }
}
