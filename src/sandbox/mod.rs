//! The interactive sandbox (macroquad). Used only by `main.rs`; nothing in the
//! library imports macroquad.
//!
//! One concept per file: [`app`] owns the state and the frame loop, [`camera`]
//! maps metres to pixels, [`draw`] paints bodies, [`tools`] and [`actions`]
//! turn the mouse into world changes, [`overlays`], [`hud`], [`help`] and
//! [`inspector`] explain what the engine does, [`event_log`] and
//! [`event_panel`] list what it reports, [`rewind`], [`hot_reload`],
//! [`record`] and [`screenshot`] handle time and files, [`scenes`] loads worlds.

mod actions;
mod app;
mod camera;
mod draw;
mod event_log;
mod event_panel;
mod help;
mod hot_reload;
mod hud;
mod inspector;
mod joints;
mod kill;
mod overlays;
mod picker;
mod plots;
mod record;
mod rewind;
mod scenes;
mod screenshot;
mod settings;
mod theme;
mod tools;
mod widgets;

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

/// Command-line options of `minkowski play` (and of plain `minkowski`).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct PlayArgs {
    /// Scene file, or a shipped scene's name, to open (default:
    /// scenes/default.ron, or the built-in scene).
    pub scene: Option<PathBuf>,
    /// Render this many frames, then exit (with a fixed number of steps per frame).
    #[arg(long)]
    pub frames: Option<u32>,
    /// Write a PNG of the last frame here (needs --frames).
    #[arg(long, requires = "frames")]
    pub screenshot: Option<PathBuf>,
    /// Show a recorded replay instead of a scene.
    #[arg(long, conflicts_with = "scene")]
    pub replay: Option<PathBuf>,
    /// Simulation steps per frame in --frames mode (default 1).
    #[arg(long, value_name = "N")]
    pub steps_per_frame: Option<u32>,
    /// Overlays to turn on: aabbs, pairs, contacts, velocities, com, sleep, joints, all
    /// (comma-separated or repeated).
    #[arg(long, value_name = "LIST")]
    pub overlay: Vec<String>,
    /// Open the GJK/EPA inspector on two bodies, by slot index: `--inspect 3,17`.
    #[arg(long, value_name = "A,B")]
    pub inspect: Option<String>,
    /// Inspector iteration to show (0-based; default: the last).
    #[arg(long, value_name = "K", requires = "inspect")]
    pub inspect_step: Option<usize>,
    /// Window size in pixels (default 1280x720).
    #[arg(long, value_name = "WxH")]
    pub size: Option<String>,
    /// Show this world rectangle instead of fitting the scene: `--view x0,y0,x1,y1` (m).
    #[arg(long, value_name = "X0,Y0,X1,Y1", allow_hyphen_values = true)]
    pub view: Option<String>,
    /// Start paused.
    #[arg(long)]
    pub paused: bool,
    /// Show the help overlay at start-up.
    #[arg(long)]
    pub show_help: bool,
    /// Hide the HUD and toolbar.
    #[arg(long)]
    pub no_hud: bool,
    /// Seed of the random polygon spawner.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Panels to open at start-up: settings, plots, scenes, events
    /// (comma-separated or repeated).
    #[arg(long, value_name = "LIST")]
    pub panel: Vec<String>,
    /// Show the event log's row K (0: the newest shown) as hovered, its
    /// bodies outlined in the world, as the mouse would (for pictures).
    #[arg(long, value_name = "K")]
    pub hover_event: Option<usize>,
}

/// Parses `WxH`.
fn parse_size(s: &str) -> Result<(i32, i32), String> {
    let bad = || format!("--size {s:?}: expected WIDTHxHEIGHT, e.g. 1280x720");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: i32 = w.trim().parse().map_err(|_| bad())?;
    let h: i32 = h.trim().parse().map_err(|_| bad())?;
    if !(160..=8192).contains(&w) || !(120..=8192).contains(&h) {
        return Err(format!("--size {s:?}: each side must be 160..8192 px"));
    }
    Ok((w, h))
}

/// miniquad panics without an X display; say what to do instead.
fn check_display() -> Result<(), String> {
    if cfg!(target_os = "linux") && std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty()) {
        return Err(
            "no X display (DISPLAY is not set). To render without a screen, run under \
             xvfb-run -a -s \"-screen 0 1280x800x24\" minkowski play ..."
                .into(),
        );
    }
    Ok(())
}

/// Why the sandbox could not run: bad input (exit code 2) or anything else
/// (no display, a failed screenshot: exit code 1).
pub enum PlayError {
    /// A bad argument, scene or replay file.
    BadInput(String),
    /// Anything else.
    Other(String),
}

/// Opens the sandbox window.
pub fn run(args: PlayArgs) -> Result<(), PlayError> {
    let (w, h) = match &args.size {
        Some(s) => parse_size(s).map_err(PlayError::BadInput)?,
        None => (1280, 720),
    };
    // Everything that can fail on bad input fails here, before a window opens.
    let app = app::App::new(args).map_err(PlayError::BadInput)?;
    // The web build has no `Instant`: the stage timers read the browser's clock.
    minkowski::world::set_wall_clock(macroquad::miniquad::date::now);
    check_display().map_err(PlayError::Other)?;
    let capture = app.is_capture();
    let conf = macroquad::miniquad::conf::Conf {
        window_title: "Minkowski sandbox".to_string(),
        window_width: w,
        window_height: h,
        high_dpi: false,
        window_resizable: !capture,
        sample_count: 4,
        ..Default::default()
    };
    let result: Rc<RefCell<Result<(), String>>> = Rc::new(RefCell::new(Ok(())));
    let out = Rc::clone(&result);
    macroquad::Window::from_config(conf, async move {
        let r = app.run().await;
        *out.borrow_mut() = r;
    });
    let r = result.borrow().clone();
    r.map_err(PlayError::Other)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("640x360"), Ok((640, 360)));
        assert!(parse_size("640").is_err());
        assert!(parse_size("10x10").is_err());
    }
}
