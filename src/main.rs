//! The `minkowski` binary: the interactive sandbox, and the headless command line.

#![forbid(unsafe_code)]

mod sandbox;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(name = "minkowski", version, about = "2D rigid-body physics sandbox")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Open the sandbox on a scene.
    Play(sandbox::PlayArgs),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        None => sandbox::run(sandbox::PlayArgs::default()),
        Some(Command::Play(args)) => sandbox::run(args),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
