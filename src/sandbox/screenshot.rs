//! Screenshots: the `--frames N --screenshot out.png` capture mode (a fixed
//! number of steps per frame, no wall clock, no input, so the same command
//! gives the same picture) and F12 in the interactive sandbox.

use macroquad::prelude::*;
use std::path::{Path, PathBuf};

/// Capture-mode settings.
#[derive(Clone, Debug)]
pub struct Capture {
    /// Frames to render before exiting.
    pub frames: u32,
    /// Simulation steps per rendered frame.
    pub steps_per_frame: u32,
    /// Where to write the last frame.
    pub out: Option<PathBuf>,
}

/// Writes what has been drawn this frame as a PNG. Call after drawing and
/// before `next_frame().await`.
pub fn save(path: &Path) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    // `export_png` panics on I/O errors; find them first.
    std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let s = path
        .to_str()
        .ok_or_else(|| format!("{}: path is not UTF-8", path.display()))?;
    let mut img = get_screen_data();
    // The screen may carry alpha < 1 where translucent panels were blended;
    // a screenshot should be opaque.
    for px in img.bytes.chunks_exact_mut(4) {
        px[3] = 255;
    }
    img.export_png(s);
    Ok(())
}

/// A fresh name for an interactive screenshot: `screenshot-NNN.png` in the
/// current directory.
pub fn next_name() -> PathBuf {
    let dir = captures_dir();
    (1..10_000)
        .map(|i| dir.join(format!("screenshot-{i:03}.png")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| dir.join("screenshot.png"))
}

/// Where F5 recordings and F12 screenshots go: `captures/` (made on first
/// use; git ignores it), or the current directory if it cannot be made.
pub fn captures_dir() -> PathBuf {
    let dir = PathBuf::from("captures");
    if std::fs::create_dir_all(&dir).is_ok() {
        dir
    } else {
        PathBuf::from(".")
    }
}
