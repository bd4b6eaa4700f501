//! Scripted scenes as written in a file: a `script: [...]` list of cues, and
//! the `motion:` of kinematic bodies. [`make_script`] turns them into the
//! world's [`Script`].
//!
//! ```ron
//! script: [
//!   // A column of ragdolls every 8 steps, 40 times, each 6.25 m right of the last.
//!   (at: 0, every: 8, times: 40, do: Spawn(tag: "column", shift: (6.25, 0.0),
//!       generators: [Humans(origin: (-121.875, 40.0), count: 5)])),
//!   // Then every 8 steps the oldest column is removed and dropped again.
//!   (at: 320, every: 8, do: Recycle("column")),
//!   (time: 2.0, do: Impulse(body: "ball", impulse: (0.0, 5.0))),
//!   (at: 100, do: Gravity((0.0, -5.0))),
//!   (at: 200, do: Remove("ball")),
//! ]
//! ```

use super::error::{FieldError, SceneError};
use super::generators::Generator;
use super::joint_spec::{BodyRef, JointSpec};
use super::resolve::{ends_of, name_map};
use super::spec::{BodySpec, MotionSpec};
use super::validate::{check, check_pos};
use super::MAX_BODIES;
use crate::dynamics::BodyId;
use crate::math::{Iso, Vec2};
use crate::world::{Action, Cue, Keyframe, Motion, Prefab, PrefabJoint, Script};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Most cues a scene may have.
pub const MAX_CUES: usize = 1024;

/// The world's motion for a body placed at `pos`, `angle`.
fn to_motion(m: &MotionSpec, pos: Vec2, angle: f32) -> Motion {
    match m {
        MotionSpec::Sine {
            amplitude,
            angular_amplitude,
            omega,
            phase,
        } => Motion::Sine {
            center: pos,
            amplitude: *amplitude,
            angle,
            angular_amplitude: *angular_amplitude,
            omega: *omega,
            phase: *phase,
        },
        MotionSpec::Keyframes { keys, repeat } => Motion::Keyframes {
            keys: keys
                .iter()
                .map(|&(t, p, a)| Keyframe {
                    t,
                    pos: pos + p,
                    angle: angle + a,
                })
                .collect(),
            repeat: *repeat,
        },
    }
}

/// One cue: when, how often, and what.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Cue", deny_unknown_fields)]
pub struct CueSpec {
    /// The step it first fires at (0: before the first step). Give `at` or `time`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<u64>,
    /// The time (s) it first fires at, rounded to a step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<f32>,
    /// Steps between firings (0: once).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub every: u64,
    /// Most firings (default: for ever when `every` > 0; spawns must say).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub times: Option<u64>,
    /// What it does.
    #[serde(rename = "do")]
    pub action: ActionSpec,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What a cue does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Action")]
pub enum ActionSpec {
    /// Adds bodies, generators and joints (joints name this batch's bodies by
    /// index or name), moved by `shift × n` at the n-th firing.
    Spawn {
        /// A name for `Recycle`.
        #[serde(default)]
        tag: String,
        /// Displacement per firing (m).
        #[serde(default)]
        shift: Vec2,
        /// Explicit bodies.
        #[serde(default)]
        bodies: Vec<BodySpec>,
        /// Generators (drawing from the scene's random stream, after the
        /// scene's own generators).
        #[serde(default)]
        generators: Vec<Generator>,
        /// Joints within the batch.
        #[serde(default)]
        joints: Vec<JointSpec>,
    },
    /// Removes the oldest live batch spawned under this tag and spawns it
    /// again where it was.
    Recycle(String),
    /// An impulse (N·s) at a world point (default: the centre of mass).
    Impulse {
        /// The body.
        body: BodyRef,
        /// The impulse.
        impulse: Vec2,
        /// Where (world, m).
        #[serde(default)]
        point: Option<Vec2>,
    },
    /// Sets gravity (m/s²).
    Gravity(Vec2),
    /// Removes a body of the scene (and its joints).
    Remove(BodyRef),
}

impl ActionSpec {
    fn kind_name(&self) -> &'static str {
        match self {
            ActionSpec::Spawn { .. } => "Spawn",
            ActionSpec::Recycle(_) => "Recycle",
            ActionSpec::Impulse { .. } => "Impulse",
            ActionSpec::Gravity(_) => "Gravity",
            ActionSpec::Remove(_) => "Remove",
        }
    }
}

/// A cue's error, located.
fn cue_error(origin: &str, index: usize, cue: &CueSpec, e: FieldError) -> SceneError {
    SceneError::Cue {
        origin: origin.to_string(),
        index,
        kind: cue.action.kind_name(),
        field: e.field,
        message: e.message,
    }
}

/// Bodies the script can add beyond the scene's own (spawns × batch size).
pub(crate) fn spawned_bodies(script: &[CueSpec]) -> u64 {
    script
        .iter()
        .map(|c| match &c.action {
            ActionSpec::Spawn {
                bodies, generators, ..
            } => {
                let batch = generators
                    .iter()
                    .fold(bodies.len() as u64, |n, g| n.saturating_add(g.body_count()));
                batch.saturating_mul(firings(c).unwrap_or(u64::MAX))
            }
            _ => 0,
        })
        .fold(0u64, u64::saturating_add)
}

/// How many times a cue fires, `None` for ever.
fn firings(c: &CueSpec) -> Option<u64> {
    match (c.every, c.times) {
        (0, Some(t)) => Some(t.min(1)),
        (0, None) => Some(1),
        (_, t) => t,
    }
}

/// Builds the world's script. `ids` are the world's ids of the scene's bodies
/// (`specs`, in order), or `None` when only checking; `rng` continues the
/// scene's stream.
pub(crate) fn make_script(
    origin: &str,
    dt: f32,
    cues: &[CueSpec],
    specs: &[BodySpec],
    ids: Option<&[BodyId]>,
    rng: &mut ChaCha8Rng,
) -> Result<Script, SceneError> {
    let mut script = Script::default();
    for (index, s) in specs.iter().enumerate() {
        if let (Some(m), Some(ids)) = (&s.motion, ids) {
            script
                .motions
                .push((ids[index], to_motion(m, s.pos, s.angle)));
        }
    }
    if cues.len() > MAX_CUES {
        return Err(SceneError::Setting {
            origin: origin.to_string(),
            field: "script".into(),
            message: format!("has {} cues; at most {MAX_CUES} are allowed", cues.len()),
        });
    }
    let names = name_map(origin, specs)?;
    let mut tags: Vec<(&str, u32)> = Vec::new();
    for (index, c) in cues.iter().enumerate() {
        let fail = |e: FieldError| cue_error(origin, index, c, e);
        let at = match (c.at, c.time) {
            (Some(at), None) => at,
            (None, Some(t)) => {
                check("time", t, 0.0, 1e7, "between 0 and 1e7 s").map_err(fail)?;
                libm::roundf(t / dt) as u64
            }
            _ => {
                return Err(fail(FieldError::new(
                    "at",
                    "give one of `at` (a step) or `time` (s)",
                )))
            }
        };
        let body = |r: &BodyRef| -> Result<BodyId, SceneError> {
            let i = super::resolve::find_body("body", r, specs, &names).map_err(fail)?;
            Ok(ids.map_or(
                BodyId {
                    index: i as u32,
                    generation: 0,
                },
                |ids| ids[i],
            ))
        };
        let action = match &c.action {
            ActionSpec::Spawn {
                tag,
                shift,
                bodies,
                generators,
                joints,
            } => {
                let Some(n) = firings(c) else {
                    return Err(fail(FieldError::new(
                        "times",
                        "a spawn must say how many times it fires (`times: N`)",
                    )));
                };
                check_pos("shift", *shift).map_err(fail)?;
                check_pos("shift", *shift * n.saturating_sub(1) as f32).map_err(fail)?;
                let prefab =
                    make_prefab(shift, n, bodies, generators, joints, rng).map_err(fail)?;
                let p = script.prefabs.len() as u32;
                script.prefabs.push(prefab);
                if !tag.is_empty() {
                    if tags.iter().any(|(t, _)| t == tag) {
                        return Err(fail(FieldError::new(
                            "tag",
                            format!("tag \"{tag}\" is used twice"),
                        )));
                    }
                    tags.push((tag.as_str(), p));
                }
                Action::Spawn {
                    prefab: p,
                    shift: *shift,
                }
            }
            ActionSpec::Recycle(tag) => {
                let Some(&(_, p)) = tags.iter().find(|(t, _)| t == tag) else {
                    return Err(fail(FieldError::new(
                        "tag",
                        format!("no earlier Spawn has tag \"{tag}\""),
                    )));
                };
                Action::Recycle { prefab: p }
            }
            ActionSpec::Impulse {
                body: r,
                impulse,
                point,
            } => {
                check("impulse.x", impulse.x, -1e9, 1e9, "within ±1e9 N·s").map_err(fail)?;
                check("impulse.y", impulse.y, -1e9, 1e9, "within ±1e9 N·s").map_err(fail)?;
                if let Some(p) = point {
                    check_pos("point", *p).map_err(fail)?;
                }
                Action::Impulse {
                    body: body(r)?,
                    impulse: *impulse,
                    point: *point,
                }
            }
            ActionSpec::Gravity(g) => {
                check("gravity.x", g.x, -1e4, 1e4, "within ±10000 m/s²").map_err(fail)?;
                check("gravity.y", g.y, -1e4, 1e4, "within ±10000 m/s²").map_err(fail)?;
                Action::Gravity(*g)
            }
            ActionSpec::Remove(r) => Action::Remove(body(r)?),
        };
        script.cues.push(Cue {
            at,
            every: c.every,
            times: c.times,
            action,
        });
    }
    let total = (specs.len() as u64).saturating_add(spawned_bodies(cues));
    if total > MAX_BODIES as u64 {
        return Err(SceneError::TooManyBodies {
            origin: origin.to_string(),
            count: total,
            max: MAX_BODIES,
        });
    }
    Ok(script)
}

/// Expands a spawn into bodies and joints, checking every body at its first
/// and last shifted place.
fn make_prefab(
    shift: &Vec2,
    firings: u64,
    bodies: &[BodySpec],
    generators: &[Generator],
    joints: &[JointSpec],
    rng: &mut ChaCha8Rng,
) -> Result<Prefab, FieldError> {
    for (k, g) in generators.iter().enumerate() {
        g.validate()
            .map_err(|e| FieldError::new(format!("generators[{k}].{}", e.field), e.message))?;
    }
    let mut specs = bodies.to_vec();
    let mut joint_specs = joints.to_vec();
    for g in generators {
        g.generate(rng, &mut specs, &mut joint_specs);
    }
    let last = *shift * firings.saturating_sub(1) as f32;
    let mut defs = Vec::with_capacity(specs.len());
    for (k, s) in specs.iter().enumerate() {
        let at = |e: FieldError| FieldError::new(format!("body {k}.{}", e.field), e.message);
        if s.motion.is_some() {
            return Err(at(FieldError::new(
                "motion",
                "spawned bodies cannot have a motion",
            )));
        }
        let def = s.to_def().map_err(at)?;
        check_pos("pos", s.pos + last).map_err(at)?;
        defs.push(def);
    }
    let names = name_map("spawn", &specs).map_err(|e| FieldError::new("bodies", e.to_string()))?;
    let mut out = Vec::with_capacity(joint_specs.len());
    for (k, j) in joint_specs.iter().enumerate() {
        let at = |e: FieldError| FieldError::new(format!("joints[{k}].{}", e.field), e.message);
        let (a, b) = ends_of(j, &specs, &names).map_err(at)?;
        let pose = |i: usize| Iso::new(specs[i].pos, specs[i].angle);
        let placeholder = |i: usize| BodyId {
            index: i as u32,
            generation: 0,
        };
        let def = j
            .to_def(
                a.map(|i| (placeholder(i), pose(i))),
                (placeholder(b), pose(b)),
            )
            .map_err(at)?;
        def.validate()
            .map_err(|e| at(FieldError::new("joint", e.to_string())))?;
        out.push(PrefabJoint {
            a: a.map(|i| i as u32),
            b: b as u32,
            def,
        });
    }
    Ok(Prefab {
        bodies: defs,
        joints: out,
    })
}
