//! Where worlds come from: scene files (and the built-in default scene used
//! when no file is given and `scenes/default.ron` is missing), plus the list of
//! scenes that N and P cycle through.

use minkowski::{BodyDef, BodyKind, Shape, Vec2, World, WorldSettings};
use std::path::{Path, PathBuf};

/// Name of the built-in scene.
pub const BUILTIN_NAME: &str = "default (built-in)";

/// The scene opened when none is named.
pub const DEFAULT_SCENE: &str = "scenes/default.ron";

/// A freshly loaded world and what to call it.
pub struct Loaded {
    /// The world at step 0.
    pub world: World,
    /// The scene's name for the HUD.
    pub name: String,
}

/// Loads a scene file, or the built-in default scene for `None`.
/// Errors are ready to show: `file:line:col: message`.
pub fn load(path: Option<&Path>) -> Result<Loaded, String> {
    match path {
        None => Ok(Loaded {
            world: builtin_default(),
            name: BUILTIN_NAME.to_string(),
        }),
        Some(p) => load_file(p),
    }
}

fn load_file(path: &Path) -> Result<Loaded, String> {
    // Scene files arrive with the scenes module; until then only the built-in
    // scene is available.
    Err(format!(
        "{}: scene files are not supported by this build yet",
        path.display()
    ))
}

/// The scene to open at start-up when none is named: `scenes/default.ron` if
/// it exists, otherwise the built-in scene.
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

/// The built-in lively scene: a ground with walls, a box pyramid, and a rain of
/// every shape kind above it.
pub fn builtin_default() -> World {
    let mut w = World::new(WorldSettings::default());
    let fixed = |s: Shape, x: f32, y: f32| BodyDef::new(s, Vec2::new(x, y)).kind(BodyKind::Static);
    let mut add = |d: BodyDef| {
        w.add_body(d).expect("built-in scene is valid");
    };
    add(fixed(Shape::rect(12.0, 0.5), 0.0, -0.5));
    add(fixed(Shape::rect(0.4, 6.0), -12.4, 5.0));
    add(fixed(Shape::rect(0.4, 6.0), 12.4, 5.0));
    // Pyramid of 10 rows of 0.6 m boxes on the left.
    let h = 0.3;
    for row in 0..10 {
        for i in 0..(10 - row) {
            let x = -6.0 + (i as f32 - (9 - row) as f32 * 0.5) * 2.0 * h * 1.02;
            let y = h + row as f32 * 2.0 * h;
            add(BodyDef::new(Shape::rect(h, h), Vec2::new(x, y)));
        }
    }
    // A ramp on the right, and a spinning kinematic paddle above it.
    add(BodyDef::new(Shape::rect(2.6, 0.15), Vec2::new(7.5, 3.2))
        .kind(BodyKind::Static)
        .angle(-0.35));
    add(BodyDef::new(Shape::rect(1.4, 0.12), Vec2::new(2.5, 5.5))
        .kind(BodyKind::Kinematic)
        .angular_velocity(1.2));
    // Rain: a grid of every shape kind, with a deterministic jitter.
    let mut k = 0u32;
    for row in 0..6 {
        for col in 0..12 {
            k += 1;
            let jitter = ((k.wrapping_mul(2654435761) >> 16) % 1000) as f32 / 1000.0;
            let x = -1.5 + col as f32 * 1.1 + jitter * 0.3;
            let y = 8.0 + row as f32 * 1.2;
            let s = 0.22 + 0.16 * jitter;
            let shape = match k % 5 {
                0 => Shape::circle(s),
                1 => Shape::rect(s, s * 0.7),
                2 => Shape::capsule(s * 0.8, s * 0.5),
                3 => Shape::ellipse(s * 1.3, s * 0.7),
                _ => {
                    let n = 3 + (k / 5 % 6) as usize;
                    let pts: Vec<Vec2> = (0..n)
                        .map(|i| {
                            let a = i as f32 / n as f32 * std::f32::consts::TAU + jitter;
                            Vec2::new(a.cos(), a.sin()) * s * 1.1
                        })
                        .collect();
                    Shape::polygon(&pts).expect("regular polygon")
                }
            };
            add(BodyDef::new(shape, Vec2::new(x, y))
                .angle(jitter * 3.0)
                .restitution(0.2));
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_scene_has_every_kind() {
        let w = builtin_default();
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
