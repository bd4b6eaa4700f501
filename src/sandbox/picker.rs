//! The scene picker (F4): the shipped scenes and the `*.ron` files in
//! `scenes/`, as a grid of buttons. N and P walk the same list.
//!
//! A shipped scene opens from `scenes/NAME.ron` when that file is there (so
//! hot reload works) and from the copy compiled into the binary otherwise,
//! as in the web build, which has no files.

use super::theme;
use super::widgets::{Widgets, ROW_H};
use macroquad::prelude::*;
use minkowski::scene::BUILTIN_NAMES;
use std::path::{Path, PathBuf};

/// Where a scene comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The copy compiled into the binary.
    Builtin(&'static str),
    /// A file.
    File(PathBuf),
}

/// One scene in the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The name shown.
    pub label: String,
    /// Where it loads from.
    pub source: Source,
    /// A shipped scene (the first group).
    pub shipped: bool,
}

/// Every `*.ron` scene in `dir` (replays left out), sorted.
#[cfg(not(target_arch = "wasm32"))]
fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
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

/// The web build has no files.
#[cfg(target_arch = "wasm32")]
fn ron_files(_dir: &Path) -> Vec<PathBuf> {
    Vec::new()
}

/// `true` when two paths name the same file or folder (`scenes/x.ron` and
/// `/repo/scenes/x.ron` do).
pub fn same_path(a: &Path, b: &Path) -> bool {
    a == b
        || matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
}

/// The list: the shipped scenes in their curated order, then the other
/// files of `scenes/` and of `extra_dir` (the open scene's folder), sorted.
pub fn entries(scenes_dir: &Path, extra_dir: Option<&Path>) -> Vec<Entry> {
    let mut files = ron_files(scenes_dir);
    if let Some(d) = extra_dir.filter(|d| !d.as_os_str().is_empty() && !same_path(d, scenes_dir)) {
        files.extend(ron_files(d));
    }
    let mut out: Vec<Entry> = BUILTIN_NAMES
        .iter()
        .map(|&name| {
            let file = scenes_dir.join(format!("{name}.ron"));
            let source = if files.contains(&file) {
                Source::File(file)
            } else {
                Source::Builtin(name)
            };
            Entry {
                label: name.to_string(),
                source,
                shipped: true,
            }
        })
        .collect();
    for f in files {
        let listed = |e: &Entry| matches!(&e.source, Source::File(p) if same_path(p, &f));
        if out.iter().any(listed) {
            continue;
        }
        let label = f
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("?")
            .to_string();
        out.push(Entry {
            label,
            source: Source::File(f),
            shipped: false,
        });
    }
    out
}

/// The entry for the open scene: its file, or its shipped name.
pub fn index_of(entries: &[Entry], current: &Source) -> Option<usize> {
    entries.iter().position(|e| match (&e.source, current) {
        (Source::File(a), Source::File(b)) => same_path(a, b),
        (Source::Builtin(a), Source::Builtin(b)) => a == b,
        // A shipped scene opened from the binary, listed as its file.
        (Source::File(a), Source::Builtin(b)) => {
            e.shipped && a.file_stem().and_then(|s| s.to_str()) == Some(*b)
        }
        (Source::Builtin(a), Source::File(b)) => b.file_stem().and_then(|s| s.to_str()) == Some(*a),
    })
}

/// The entry `delta` places from `current` (wrapping); the first (or last)
/// when the open scene is not in the list.
pub fn neighbour(len: usize, current: Option<usize>, delta: i32) -> Option<usize> {
    if len == 0 {
        return None;
    }
    let n = len as i32;
    let i = current
        .map(|i| i as i32)
        .unwrap_or(if delta > 0 { -1 } else { 0 });
    Some((i + delta).rem_euclid(n) as usize)
}

const BUTTON_W: f32 = 170.0;

/// Columns of buttons: four, or fewer in a narrow window.
fn columns(screen: Vec2) -> usize {
    (((screen.x - 24.0) / (BUTTON_W + 6.0)) as usize).clamp(1, 4)
}

/// The panel's rectangle: centred.
pub fn rect(screen: Vec2, entries: &[Entry]) -> Rect {
    let cols = columns(screen);
    let shipped = entries.iter().filter(|e| e.shipped).count();
    let others = entries.len() - shipped;
    let rows = |n: usize| n.div_ceil(cols) as f32;
    let mut h = 44.0 + theme::LINE + rows(shipped) * (ROW_H + 6.0);
    if others > 0 {
        h += theme::LINE + 8.0 + rows(others) * (ROW_H + 6.0);
    }
    let w = cols as f32 * (BUTTON_W + 6.0) + 18.0;
    Rect::new(
        ((screen.x - w) * 0.5).max(0.0),
        ((screen.y - h) * 0.5 - 10.0).max(8.0),
        w,
        h + 8.0,
    )
}

/// Draws the picker; returns the entry clicked.
pub fn draw(
    ui: &mut Widgets,
    screen: Vec2,
    entries: &[Entry],
    current: Option<usize>,
) -> Option<usize> {
    let r = rect(screen, entries);
    let cols = columns(screen);
    draw_rectangle(r.x, r.y, r.w, r.h, Color::new(0.035, 0.04, 0.055, 0.97));
    draw_rectangle_lines(r.x, r.y, r.w, r.h, 1.0, theme::PANEL_BORDER);
    let x = r.x + 12.0;
    let mut y = r.y + 10.0;
    let hint = if cols >= 3 {
        "click to open · N / P: next / previous · F4 or Esc closes"
    } else {
        "F4 or Esc closes"
    };
    theme::panel_header("Scenes", hint, x, r.x + r.w - 12.0, y);
    y += theme::LINE + 10.0;
    let mut picked = None;
    for shipped in [true, false] {
        let group: Vec<usize> = (0..entries.len())
            .filter(|&i| entries[i].shipped == shipped)
            .collect();
        if group.is_empty() {
            continue;
        }
        let title = match (shipped, cols >= 3) {
            (true, true) => "shipped (from scenes/ when the file is there, else built in)",
            (true, false) => "shipped",
            (false, _) => "other files",
        };
        theme::text(title, x, y, theme::FONT_SMALL, theme::TEXT_DIM);
        y += theme::LINE + 2.0;
        for (k, &i) in group.iter().enumerate() {
            let bx = x + (k % cols) as f32 * (BUTTON_W + 6.0);
            let by = y + (k / cols) as f32 * (ROW_H + 6.0);
            if ui.button(
                Rect::new(bx, by, BUTTON_W, ROW_H),
                &entries[i].label,
                current == Some(i),
            ) {
                picked = Some(i);
            }
        }
        y += group.len().div_ceil(cols) as f32 * (ROW_H + 6.0) + 8.0;
    }
    picked
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo_scenes() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes")
    }

    #[test]
    fn lists_every_shipped_scene_once_from_its_file() {
        let e = entries(&repo_scenes(), None);
        assert_eq!(
            e.len(),
            BUILTIN_NAMES.len(),
            "scenes/ holds only shipped scenes"
        );
        for (entry, name) in e.iter().zip(BUILTIN_NAMES) {
            assert_eq!(entry.label, *name);
            assert_eq!(
                entry.source,
                Source::File(repo_scenes().join(format!("{name}.ron")))
            );
        }
        let i = index_of(&e, &Source::Builtin("newtons_cradle")).unwrap();
        assert_eq!(e[i].label, "newtons_cradle");
        // The open scene's folder named another way is the same folder: no
        // scene twice, and the open file is found.
        let rel = Path::new("scenes");
        let e2 = entries(rel, Some(&repo_scenes()));
        assert_eq!(e2.len(), BUILTIN_NAMES.len());
        let open = Source::File(repo_scenes().join("pendulum.ron"));
        assert_eq!(e2[index_of(&e2, &open).unwrap()].label, "pendulum");
    }

    #[test]
    fn without_a_scenes_folder_the_built_in_copies_and_other_files() {
        let dir = std::env::temp_dir().join(format!("mk-picker-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("mine.ron"), "Scene()").unwrap();
        std::fs::write(dir.join("take.replay.ron"), "").unwrap();
        let e = entries(Path::new("no/such/scenes"), Some(&dir));
        assert_eq!(e.len(), BUILTIN_NAMES.len() + 1);
        assert_eq!(e[0].source, Source::Builtin("default"));
        let last = e.last().unwrap();
        assert_eq!((last.label.as_str(), last.shipped), ("mine", false));
        assert_eq!(
            index_of(&e, &Source::File(dir.join("mine.ron"))),
            Some(e.len() - 1)
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn neighbour_wraps() {
        assert_eq!(neighbour(3, Some(2), 1), Some(0));
        assert_eq!(neighbour(3, Some(0), -1), Some(2));
        assert_eq!(neighbour(3, None, 1), Some(0));
        assert_eq!(neighbour(3, None, -1), Some(2));
        assert_eq!(neighbour(0, None, 1), None);
    }
}
