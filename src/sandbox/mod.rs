//! The interactive sandbox (macroquad). Used only by `main.rs`; nothing in the
//! library imports macroquad. PLACEHOLDER until the sandbox branch lands.

use std::path::PathBuf;

/// Command-line options of `minkowski play` (and of plain `minkowski`).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct PlayArgs {
    /// Scene file to open (default: scenes/default.ron).
    pub scene: Option<PathBuf>,
    /// Render this many frames, then exit (with a fixed number of steps per frame).
    #[arg(long)]
    pub frames: Option<u32>,
    /// Write a PNG of the last frame here (needs --frames).
    #[arg(long)]
    pub screenshot: Option<PathBuf>,
    /// Show a recorded replay instead of a scene.
    #[arg(long)]
    pub replay: Option<PathBuf>,
}

/// Opens the sandbox window. Returns an error message for the CLI to print.
pub fn run(args: PlayArgs) -> Result<(), String> {
    let _ = args;
    Err("the sandbox is not built yet".into())
}
