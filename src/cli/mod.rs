//! The headless subcommands: `run`, `check`, `replay` and `bench`.
//!
//! Exit codes: 0 success; 1 a replay diverged, or a `bench --lockstep` peer
//! broke off (or output could not be written); 2 bad input (a scene or
//! replay that does not load, bad arguments).

mod bench;
mod json;
mod lockstep;
mod replay;
mod run;
mod stats;
mod sweep;
mod trace;

pub use bench::{bench, BenchArgs};
pub use replay::{replay, ReplayArgs};
pub use run::{check, run, CheckArgs, RunArgs};
pub use sweep::{sweep, SweepArgs};

use minkowski::scene::{Scene, SceneError, BUILTIN_NAMES};
use std::path::Path;

/// Exit code for bad input.
pub const EXIT_BAD_INPUT: i32 = 2;
/// Exit code for a failed check (replay divergence) or an output error.
pub const EXIT_FAILED: i32 = 1;

/// A scene argument: a path to a `.ron` file, or the name of a shipped scene
/// (`pyramid`, …) when no such file exists.
pub fn load_scene(arg: &str) -> Result<Scene, SceneError> {
    let path = Path::new(arg);
    if path.exists() || arg.contains('/') || arg.contains('\\') || arg.ends_with(".ron") {
        return Scene::load(path);
    }
    match minkowski::scene::builtin_source(arg) {
        Some(text) => Scene::from_ron_str(text, &format!("scenes/{arg}.ron (built in)")),
        None => Err(SceneError::Io {
            origin: arg.to_string(),
            source: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!(
                    "no such file, and not a shipped scene (one of: {})",
                    BUILTIN_NAMES.join(", ")
                ),
            ),
        }),
    }
}

/// Formats a state hash the way every command prints it.
pub fn hex(h: u64) -> String {
    format!("{h:#018x}")
}
