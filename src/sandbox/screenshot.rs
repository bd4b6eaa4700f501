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

/// Writes what has been drawn this frame as a PNG (making its folder if
/// need be). Call after drawing and before `next_frame().await`.
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

/// Where F12 screenshots go (made on the first one).
#[cfg(not(target_arch = "wasm32"))]
pub const SCREENSHOTS_DIR: &str = "screenshots";

/// F12: saves this frame as `screenshots/screenshot-NNN.png`, the first
/// number not taken, and returns the path.
#[cfg(not(target_arch = "wasm32"))]
pub fn save_next() -> Result<PathBuf, String> {
    let dir = Path::new(SCREENSHOTS_DIR);
    let p = (1..10_000)
        .map(|i| dir.join(format!("screenshot-{i:03}.png")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| dir.join("screenshot.png"));
    save(&p).map(|()| p)
}

/// The web build has no files: the browser's own screenshot is the way.
#[cfg(target_arch = "wasm32")]
pub fn save_next() -> Result<PathBuf, String> {
    Err("the web build cannot save files: use the browser's screenshot".into())
}
