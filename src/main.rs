//! The `minkowski` binary: the interactive sandbox, and the headless command line.
//!
//! ```text
//! minkowski                                  open the sandbox on scenes/default.ron
//! minkowski play SCENE                       open the sandbox on a scene file or shipped scene
//! minkowski run SCENE --steps N [--json] [--hash-every K]
//! minkowski check SCENE                      validate only
//! minkowski replay FILE.replay.ron           re-simulate and check every checkpoint
//! minkowski bench [SCENE...] [--steps N] [--json]
//! ```
//!
//! Exit codes: 0 success, 1 replay divergence (or, for `play`, no display), 2 bad
//! scene, replay file or arguments.
//!
//! Built for `wasm32` (the web build, `web/build.sh`) it is the sandbox alone.

#![forbid(unsafe_code)]

#[cfg(not(target_arch = "wasm32"))]
mod cli;
mod sandbox;

#[cfg(not(target_arch = "wasm32"))]
use clap::{Parser, Subcommand};

#[cfg(not(target_arch = "wasm32"))]
#[derive(Parser, Debug)]
#[command(name = "minkowski", version, about = "2D rigid-body physics sandbox")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[cfg(not(target_arch = "wasm32"))]
#[derive(Subcommand, Debug)]
enum Command {
    /// Open the sandbox on a scene.
    Play(sandbox::PlayArgs),
    /// Run a scene headless and print its final state hash (or state as JSON).
    Run(cli::RunArgs),
    /// Validate a scene without running it.
    Check(cli::CheckArgs),
    /// Re-simulate a recorded replay and check every checkpoint hash.
    Replay(cli::ReplayArgs),
    /// Time World::step on scenes: median and p95 ms per step.
    Bench(cli::BenchArgs),
    /// Run the cross product of scene values and seeds on all cores, one row of measures per run.
    Sweep(cli::SweepArgs),
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        None => sandbox::run(sandbox::PlayArgs::default()),
        Some(Command::Play(args)) => sandbox::run(args),
        Some(Command::Run(args)) => std::process::exit(cli::run(&args)),
        Some(Command::Check(args)) => std::process::exit(cli::check(&args)),
        Some(Command::Replay(args)) => std::process::exit(cli::replay(&args)),
        Some(Command::Bench(args)) => std::process::exit(cli::bench(&args)),
        Some(Command::Sweep(args)) => std::process::exit(cli::sweep(&args)),
    };
    match result {
        Ok(()) => {}
        Err(sandbox::PlayError::BadInput(e)) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
        Err(sandbox::PlayError::Other(e)) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}

/// The web build: the sandbox on the default scene (the shipped scenes are
/// compiled in; the picker and N / P reach the others).
#[cfg(target_arch = "wasm32")]
fn main() {
    if let Err(sandbox::PlayError::BadInput(e) | sandbox::PlayError::Other(e)) =
        sandbox::run(sandbox::PlayArgs::default())
    {
        macroquad::miniquad::error!("{e}");
    }
}
