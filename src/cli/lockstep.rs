//! `minkowski bench SCENE --lockstep PROGRAM`: this engine and another take
//! turns on one scene, a few steps each, so that a change in the host's load
//! lands on both instead of on whichever ran while it lasted.
//!
//! The other engine is a child process that speaks one line at a time:
//! started with the scene's name as its one argument, it builds the scene,
//! takes its first step untimed and prints `ready`; then, for each line `K`
//! it reads, it takes its next K steps and prints their wall time in ms.
//! `tools/box2d-lockstep.c` is Box2D v3's, `tools/rapier-bench --peer`
//! rapier2d's, and `minkowski bench SCENE --peer` this engine's own (to set
//! two builds side by side). Both sides time steps 2..N, as Box2D's
//! `benchmark` app does; the order within a turn alternates (A B, then B A),
//! so neither side always runs first after a change of load.

use super::json;
use super::stats::{median_p95, round6};
use minkowski::world::World;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

/// Why a lockstep run stopped.
pub enum Failure {
    /// The peer program could not be started (a bad argument).
    Start(String),
    /// The peer broke the protocol or ended early.
    Peer(String),
}

/// The other engine's process and its two pipes.
struct Peer {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    program: String,
}

impl Peer {
    fn start(program: &str, scene: &str) -> Result<Self, Failure> {
        let mut child = Command::new(program)
            .arg(scene)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| Failure::Start(format!("cannot start {program}: {e}")))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(Failure::Start(format!("{program}: no pipes")));
        };
        let mut peer = Self {
            child,
            input,
            output: BufReader::new(output),
            program: program.to_string(),
        };
        let first = peer.line().map_err(Failure::Peer)?;
        if first != "ready" {
            return Err(Failure::Peer(format!(
                "{program}: expected `ready`, got `{first}`"
            )));
        }
        Ok(peer)
    }

    /// The next line of the peer's output, trimmed.
    fn line(&mut self) -> Result<String, String> {
        let mut s = String::new();
        match self.output.read_line(&mut s) {
            Ok(0) => Err(format!("{}: ended early", self.program)),
            Ok(_) => Ok(s.trim().to_string()),
            Err(e) => Err(format!("{}: {e}", self.program)),
        }
    }

    /// Asks the peer for `k` steps; returns their time (ms).
    fn steps(&mut self, k: u64) -> Result<f64, String> {
        // A peer that has exited closed its end: writing fails.
        writeln!(self.input, "{k}")
            .and_then(|_| self.input.flush())
            .map_err(|e| format!("{}: ended early ({e})", self.program))?;
        let s = self.line()?;
        s.parse::<f64>()
            .ok()
            .filter(|ms| ms.is_finite() && *ms >= 0.0)
            .ok_or_else(|| format!("{}: expected a time in ms, got `{s}`", self.program))
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        // Stopped in whatever state it is in (its work is done, or the
        // run failed), so that no process outlives the command.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Both engines' times (ms) over steps 2..`steps`, taken in turns of
/// `chunk` steps.
pub struct Turns {
    pub ours_ms: f64,
    pub theirs_ms: f64,
    /// Each turn: its first step (1-based), its step count, and this
    /// engine's and the peer's time for those steps (ms). Both ran the same
    /// steps of the same scene a moment apart, so a turn's ratio says where
    /// in the scene's life one engine gains on the other.
    pub turns: Vec<json::Turn>,
}

/// Runs `world` (freshly built from `scene`) and the peer `program` in turns.
pub fn run(
    world: &mut World,
    scene: &str,
    program: &str,
    steps: u64,
    chunk: u64,
) -> Result<Turns, Failure> {
    let mut peer = Peer::start(program, scene)?;
    world.step();
    let mut left = steps.saturating_sub(1);
    let mut out = Turns {
        ours_ms: 0.0,
        theirs_ms: 0.0,
        turns: Vec::new(),
    };
    while left > 0 {
        let k = chunk.min(left);
        let ours = |w: &mut World| {
            let t = Instant::now();
            for _ in 0..k {
                w.step();
            }
            t.elapsed().as_secs_f64() * 1e3
        };
        let (a, b) = if out.turns.len() % 2 == 0 {
            let a = ours(world);
            (a, peer.steps(k).map_err(Failure::Peer)?)
        } else {
            let b = peer.steps(k).map_err(Failure::Peer)?;
            (ours(world), b)
        };
        out.ours_ms += a;
        out.theirs_ms += b;
        out.turns.push(json::Turn {
            first_step: steps - left + 1,
            steps: k,
            ms: round6(a),
            peer_ms: round6(b),
        });
        left -= k;
    }
    Ok(out)
}

/// The peer's side of the protocol, for `minkowski bench SCENE --peer`:
/// the first step untimed, `ready`, then the time (ms) of the next K steps
/// for each line `K` read from stdin, until stdin ends.
pub fn serve(world: &mut World) -> Result<(), String> {
    let io = |e: std::io::Error| format!("--peer: {e}");
    world.step();
    let mut out = std::io::stdout().lock();
    writeln!(out, "ready")
        .and_then(|_| out.flush())
        .map_err(io)?;
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(io)?;
        let k: u64 = line
            .trim()
            .parse()
            .map_err(|_| format!("--peer: expected a step count, got `{}`", line.trim()))?;
        let t = Instant::now();
        for _ in 0..k {
            world.step();
        }
        let ms = t.elapsed().as_secs_f64() * 1e3;
        writeln!(out, "{ms:.6}")
            .and_then(|_| out.flush())
            .map_err(io)?;
    }
    Ok(())
}

/// Prints one scene's result, as text or as a JSON line.
pub fn print(scene: &str, bodies: usize, steps: u64, chunk: u64, t: &Turns, as_json: bool) {
    let n = steps.saturating_sub(1).max(1) as f64;
    let (ours, theirs) = (t.ours_ms / n, t.theirs_ms / n);
    let ratio = if theirs > 0.0 {
        ours / theirs
    } else {
        f64::NAN
    };
    // A turn the peer took in no time (a scene at rest) has no ratio.
    let mut finite: Vec<f64> = t
        .turns
        .iter()
        .map(|turn| turn.ms / turn.peer_ms)
        .filter(|r| r.is_finite())
        .collect();
    let median = median_p95(&mut finite).0;
    if as_json {
        let line = json::LockstepLine {
            scene,
            bodies,
            steps,
            chunk,
            ms_per_step: round6(ours),
            peer_ms_per_step: round6(theirs),
            ratio: round6(ratio),
            median_turn_ratio: round6(median),
            turns: &t.turns,
        };
        println!("{}", json::line(&line));
    } else {
        println!(
            "{scene:<16} bodies {bodies:>6}  steps 2..{steps}  in turns of {chunk}: minkowski {ours:>8.3} ms/step  peer {theirs:>8.3} ms/step  ratio {ratio:.3}  median turn {median:.3}"
        );
    }
}
