//! The `--json` outputs of the CLI, as plain serde structures written by
//! serde_json (one object per line; non-finite numbers become `null`).

use serde::Serialize;

/// `minkowski run --json`: the final state of a run.
#[derive(Serialize)]
pub struct RunReport<'a> {
    /// The scene's name.
    pub scene: &'a str,
    /// Steps taken.
    pub steps: u64,
    /// The world's state hash, `0x` and 16 hex digits.
    pub hash: String,
    /// The hashes taken every `--hash-every` steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hashes: Option<Vec<StepHash>>,
    /// Every body's final state.
    pub bodies: Vec<BodyState>,
    /// Every joint: those still in the world, then those that broke.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<JointState>,
}

/// One joint's state.
#[derive(Serialize)]
pub struct JointState {
    /// The joint's index.
    pub id: u32,
    /// Its kind (`revolute`, `weld`, …).
    pub kind: &'static str,
    /// Body A's index, or `null` for the world.
    pub a: Option<u32>,
    /// Body B's index.
    pub b: u32,
    /// Reaction force on B in the last step it acted (N).
    pub force: [f32; 2],
    /// Reaction torque on B in the last step it acted (N·m).
    pub torque: f32,
    /// Whether it broke during the run.
    pub broken: bool,
}

/// A state hash at one step.
#[derive(Serialize)]
pub struct StepHash {
    /// The step index.
    pub step: u64,
    /// The hash, `0x` and 16 hex digits.
    pub hash: String,
}

/// One body's state.
#[derive(Serialize)]
pub struct BodyState {
    /// The body's index.
    pub id: u32,
    /// Position (m).
    pub pos: [f32; 2],
    /// Angle (rad).
    pub angle: f32,
    /// Linear velocity (m/s).
    pub vel: [f32; 2],
    /// Angular velocity (rad/s).
    pub angvel: f32,
    /// `true` for a dynamic or kinematic body that is asleep.
    pub sleeping: bool,
}

/// `minkowski bench --json`: one scene's timing.
#[derive(Serialize)]
pub struct BenchLine<'a> {
    /// The scene's name.
    pub scene: &'a str,
    /// Bodies in the world.
    pub bodies: usize,
    /// Steps timed.
    pub steps: u64,
    /// Median step time (ms).
    pub ms_per_step_median: f64,
    /// 95th percentile step time (ms).
    pub ms_per_step_p95: f64,
    /// Total time of the timed steps (s).
    pub total_s: f64,
    /// Total time of the timed steps after the first (s): Box2D's
    /// benchmark times steps 2 to N, leaving out the first, which makes
    /// every contact.
    pub after_first_s: f64,
    /// Mean time of each stage (ms), with `--profile`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stages_ms: Option<Stages>,
    /// Mean time of each part of the solver stage (ms), with `--profile`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solver_ms: Option<minkowski::world::SolverTimings>,
    /// How the contact constraints filled the solver's SIMD bundles, with
    /// `--profile`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lanes: Option<Lanes>,
}

/// `minkowski bench SCENE --lockstep PROGRAM --json`: both engines' mean
/// time per step over steps 2..N, taken in turns.
#[derive(Serialize)]
pub struct LockstepLine<'a> {
    /// The scene's name.
    pub scene: &'a str,
    /// Bodies in this engine's world.
    pub bodies: usize,
    /// Steps taken by each engine (the first untimed).
    pub steps: u64,
    /// Steps per turn.
    pub chunk: u64,
    /// This engine's mean time per step (ms).
    pub ms_per_step: f64,
    /// The peer's mean time per step (ms).
    pub peer_ms_per_step: f64,
    /// `ms_per_step / peer_ms_per_step`.
    pub ratio: f64,
    /// The median over the turns of each turn's ratio (the two engines ran
    /// the same steps a moment apart).
    pub median_turn_ratio: f64,
    /// Every turn, in order.
    pub turns: &'a [Turn],
}

/// One turn of a lockstep run: steps `first_step..first_step + steps`
/// (1-based; the first step of all is untimed), and the time each engine
/// took for them (ms).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Turn {
    pub first_step: u64,
    pub steps: u64,
    pub ms: f64,
    pub peer_ms: f64,
}

/// Mean contact constraints and bundles per step, the lanes per bundle, and
/// the share of the lanes in use.
#[derive(Serialize)]
pub struct Lanes {
    pub constraints: f64,
    pub bundles: f64,
    pub width: usize,
    pub fill: f64,
}

/// Mean time of each stage of the step (ms).
#[derive(Serialize)]
pub struct Stages {
    /// Tight and fat boxes.
    pub aabbs: f64,
    /// Sweep-and-prune and the contact list.
    pub broadphase: f64,
    /// GJK/EPA and manifolds.
    pub narrowphase: f64,
    /// Joints and contacts, integration, restitution.
    pub solver: f64,
    /// Islands and sleep.
    pub sleep: f64,
}

/// One line of JSON.
pub fn line<T: Serialize>(value: &T) -> String {
    // Structs of numbers, strings, bools and arrays always serialize.
    serde_json::to_string(value).expect("plain data serializes to JSON")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_numbers_are_null_and_strings_escaped() {
        let b = BodyState {
            id: 3,
            pos: [f32::NAN, 0.5],
            angle: f32::INFINITY,
            vel: [-0.0, 1e-7],
            angvel: 0.0,
            sleeping: true,
        };
        assert_eq!(
            line(&b),
            r#"{"id":3,"pos":[null,0.5],"angle":null,"vel":[-0.0,1e-7],"angvel":0.0,"sleeping":true}"#
        );
        let s = StepHash {
            step: 1,
            hash: "a\"b\\c\nd\u{1}é".to_string(),
        };
        assert_eq!(line(&s), r#"{"step":1,"hash":"a\"b\\c\nd\u0001é"}"#);
    }
}
