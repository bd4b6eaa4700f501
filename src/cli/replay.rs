//! `minkowski replay`.

use super::{hex, EXIT_BAD_INPUT, EXIT_FAILED};
use minkowski::replay::Recording;
use std::path::PathBuf;

/// Arguments of `minkowski replay`.
#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// A `.replay.ron` recording.
    pub file: PathBuf,
}

/// Re-simulates a recording and checks every checkpoint; returns the exit code.
pub fn replay(args: &ReplayArgs) -> i32 {
    let rec = match Recording::load(&args.file) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return EXIT_BAD_INPUT;
        }
    };
    match rec.verify() {
        Ok(steps) => {
            println!(
                "ok: {}: {} steps, {} events, {} checkpoints match",
                args.file.display(),
                steps,
                rec.events.len(),
                rec.checkpoints.len()
            );
            0
        }
        Err(d) => {
            eprintln!(
                "error: {}: diverged at step {}: expected hash {}, got {}",
                args.file.display(),
                d.step,
                hex(d.expected),
                hex(d.actual)
            );
            EXIT_FAILED
        }
    }
}
