//! Scripted worlds: cues that act at given steps (spawn a batch of bodies,
//! recycle the oldest batch, apply an impulse, set gravity, remove a body), and
//! kinematic bodies that follow a motion profile (a sine or keyframes).
//!
//! The script runs at the start of [`World::step`], before anything moves, so
//! every driver of a world (the CLI, the sandbox, replays, sweeps) plays it
//! the same way, and a snapshot of the world carries the script's state.
//!
//! * Cues fire in list order. A cue fires at step `at`, then every `every`
//!   steps (`every == 0`: once), at most `times` times (`None`: forever).
//! * A kinematic body with a motion is given, each step, the velocity that
//!   takes it from its pose to the profile's pose at the end of the step (as
//!   Box2D's `b2Body_SetTargetTransform`), so it never drifts from the profile.

use super::World;
use crate::dynamics::joint::JointDef;
use crate::dynamics::{BodyDef, BodyId, BodyKind, JointId};
use crate::math::{Rot, Vec2};
use serde::{Deserialize, Serialize};
use std::f32::consts::PI;

/// A batch of bodies and the joints between them, added at once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Prefab {
    /// The bodies, at their first spawn's poses.
    pub bodies: Vec<BodyDef>,
    /// The joints, naming the batch's bodies by index.
    pub joints: Vec<PrefabJoint>,
}

/// A joint of a [`Prefab`]. The body ids in `def` are ignored: `a` and `b`
/// name the batch's bodies (`a == None`: the world frame).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PrefabJoint {
    /// Body A's index in the batch, or `None` for the world frame.
    pub a: Option<u32>,
    /// Body B's index in the batch.
    pub b: u32,
    /// The joint, anchors in the bodies' frames (A's anchor in the world frame
    /// when A is the world).
    pub def: JointDef,
}

/// What a cue does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Action {
    /// Adds a copy of prefab `prefab`, moved by `shift × n` at the cue's n-th
    /// firing (n from 0).
    Spawn {
        /// Index into [`Script::prefabs`].
        prefab: u32,
        /// Displacement per firing (m).
        shift: Vec2,
    },
    /// Removes the oldest live copy of prefab `prefab` (its bodies and joints)
    /// and spawns it again where that copy was spawned. Nothing happens when
    /// no copy is alive.
    Recycle {
        /// Index into [`Script::prefabs`].
        prefab: u32,
    },
    /// Applies an impulse (N·s) at a world point (`None`: the centre of mass).
    Impulse {
        /// The body.
        body: BodyId,
        /// The impulse (N·s).
        impulse: Vec2,
        /// Where (world, m).
        point: Option<Vec2>,
    },
    /// Sets the world's gravity (m/s²).
    Gravity(Vec2),
    /// Removes a body (and its joints).
    Remove(BodyId),
}

/// An action at a step, maybe repeated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cue {
    /// The first step it fires at (0: before the first step).
    pub at: u64,
    /// Steps between firings; 0 fires once.
    pub every: u64,
    /// Most firings; `None` fires for ever (only with `every > 0`).
    pub times: Option<u64>,
    /// What it does.
    pub action: Action,
}

impl Cue {
    /// Which firing (from 0) this step is, if the cue fires at `step`.
    fn firing(&self, step: u64) -> Option<u64> {
        let since = step.checked_sub(self.at)?;
        let n = match self.every {
            0 if since == 0 => 0,
            0 => return None,
            every if since % every == 0 => since / every,
            _ => return None,
        };
        match self.times {
            Some(t) if n >= t => None,
            _ => Some(n),
        }
    }
}

/// One point of a keyframed motion.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Keyframe {
    /// Time (s).
    pub t: f32,
    /// Position of the body origin (m).
    pub pos: Vec2,
    /// Angle (rad).
    pub angle: f32,
}

/// Where a kinematic body should be at time `t`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Motion {
    /// `pos = center + amplitude · sin(ω t + phase)` and
    /// `angle = angle + angular_amplitude · sin(ω t + phase)`.
    Sine {
        /// Mid position (m).
        center: Vec2,
        /// Linear amplitude (m).
        amplitude: Vec2,
        /// Mid angle (rad).
        angle: f32,
        /// Angular amplitude (rad).
        angular_amplitude: f32,
        /// Angular frequency ω (rad/s).
        omega: f32,
        /// Phase (rad).
        phase: f32,
    },
    /// Straight lines between keyframes (times strictly increasing); held at
    /// the ends, or repeated with period = the last key's time when `repeat`.
    Keyframes {
        /// The keys, at least one.
        keys: Vec<Keyframe>,
        /// Whether the sequence repeats.
        repeat: bool,
    },
}

impl Motion {
    /// The pose (origin, angle) at time `t`.
    pub fn pose(&self, t: f32) -> (Vec2, f32) {
        match self {
            Motion::Sine {
                center,
                amplitude,
                angle,
                angular_amplitude,
                omega,
                phase,
            } => {
                let s = libm::sinf(omega * t + phase);
                (*center + *amplitude * s, angle + angular_amplitude * s)
            }
            Motion::Keyframes { keys, repeat } => keyframe_pose(keys, *repeat, t),
        }
    }
}

fn keyframe_pose(keys: &[Keyframe], repeat: bool, t: f32) -> (Vec2, f32) {
    let (Some(first), Some(last)) = (keys.first(), keys.last()) else {
        return (Vec2::ZERO, 0.0);
    };
    let mut t = t;
    if repeat && last.t > 0.0 {
        t = t.rem_euclid(last.t);
    }
    if t <= first.t {
        return (first.pos, first.angle);
    }
    for w in keys.windows(2) {
        let (k0, k1) = (w[0], w[1]);
        if t <= k1.t {
            let s = (t - k0.t) / (k1.t - k0.t);
            return (
                k0.pos + (k1.pos - k0.pos) * s,
                k0.angle + (k1.angle - k0.angle) * s,
            );
        }
    }
    (last.pos, last.angle)
}

/// A live copy of a prefab.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Instance {
    prefab: u32,
    shift: Vec2,
    bodies: Vec<BodyId>,
    joints: Vec<JointId>,
}

/// A world's script: cues, the prefabs they spawn, and the kinematic motions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Script {
    /// Cues, fired in this order within a step.
    pub cues: Vec<Cue>,
    /// Batches the cues spawn.
    pub prefabs: Vec<Prefab>,
    /// Kinematic bodies and the profiles they follow.
    pub motions: Vec<(BodyId, Motion)>,
    /// Live copies, oldest first.
    live: Vec<Instance>,
}

impl Script {
    /// Whether the script does nothing.
    pub fn is_empty(&self) -> bool {
        self.cues.is_empty() && self.motions.is_empty()
    }
}

/// The angle `a` wrapped into (-π, π].
fn wrap(a: f32) -> f32 {
    let w = a.rem_euclid(2.0 * PI);
    if w > PI {
        w - 2.0 * PI
    } else {
        w
    }
}

impl World {
    /// Installs a script (replacing any); it runs from the next step.
    pub fn set_script(&mut self, script: Script) {
        self.script = if script.is_empty() {
            None
        } else {
            Some(Box::new(script))
        };
    }

    /// The world's script, if it has one.
    pub fn script(&self) -> Option<&Script> {
        self.script.as_deref()
    }

    /// Runs the cues due at this step and sets the kinematic motions'
    /// velocities. Called at the start of [`World::step`].
    pub(crate) fn run_script(&mut self) {
        let Some(mut script) = self.script.take() else {
            return;
        };
        let step = self.step_index;
        for c in 0..script.cues.len() {
            if let Some(n) = script.cues[c].firing(step) {
                let action = script.cues[c].action.clone();
                self.act(&mut script, &action, n);
            }
        }
        let dt = self.settings.dt;
        let t_end = (step + 1) as f32 * dt;
        for (id, motion) in &script.motions {
            self.follow(*id, motion, t_end, dt);
        }
        self.script = Some(script);
    }

    fn act(&mut self, script: &mut Script, action: &Action, n: u64) {
        match *action {
            Action::Spawn { prefab, shift } => {
                self.spawn(script, prefab, shift * n as f32);
            }
            Action::Recycle { prefab } => {
                let Some(k) = script.live.iter().position(|i| i.prefab == prefab) else {
                    return;
                };
                let old = script.live.remove(k);
                // Their joints go with them.
                self.remove_bodies(&old.bodies);
                self.spawn(script, prefab, old.shift);
            }
            Action::Impulse {
                body,
                impulse,
                point,
            } => {
                if let Some(b) = self.body(body) {
                    let at = point.unwrap_or(b.center_of_mass());
                    // Checked when the script was made; a body removed since is skipped.
                    let _ = self.apply_impulse(body, impulse, at);
                }
            }
            Action::Gravity(g) => self.set_gravity(g),
            Action::Remove(body) => {
                self.remove_body(body);
            }
        }
    }

    /// Adds a copy of a prefab moved by `shift`. Its bodies and joints were
    /// validated when the script was made, and shifted positions checked
    /// against the world's bounds, so a refusal here is a bug in that check:
    /// it is skipped (the copy stays partial) rather than panicking.
    fn spawn(&mut self, script: &mut Script, prefab: u32, shift: Vec2) {
        let Some(p) = script.prefabs.get(prefab as usize) else {
            return;
        };
        let mut bodies = Vec::with_capacity(p.bodies.len());
        for def in &p.bodies {
            let mut def = def.clone();
            def.position += shift;
            if let Ok(id) = self.add_body(def) {
                bodies.push(id);
            }
        }
        let mut joints = Vec::with_capacity(p.joints.len());
        if bodies.len() == p.bodies.len() {
            for j in &p.joints {
                let mut def = j.def;
                def.body_a = j.a.map(|a| bodies[a as usize]);
                def.body_b = bodies[j.b as usize];
                if j.a.is_none() {
                    def.local_anchor_a += shift;
                }
                if let Ok(id) = self.add_joint(def) {
                    joints.push(id);
                }
            }
        }
        script.live.push(Instance {
            prefab,
            shift,
            bodies,
            joints,
        });
    }

    /// Gives a kinematic body the velocity that reaches `motion`'s pose at
    /// `t_end`, one step `dt` from now.
    fn follow(&mut self, id: BodyId, motion: &Motion, t_end: f32, dt: f32) {
        let Some(b) = self.body(id) else {
            return;
        };
        if b.kind() != BodyKind::Kinematic {
            return;
        }
        let (pos, angle) = motion.pose(t_end);
        let local_center = b.transform().apply_inv(b.center_of_mass());
        let target_center = pos + Rot::from_angle(angle).apply(local_center);
        let v = (target_center - b.center_of_mass()) / dt;
        let w = wrap(angle - b.angle()) / dt;
        let _ = self.set_velocity(id, v, w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cues_fire_at_their_steps() {
        let cue = |at, every, times| Cue {
            at,
            every,
            times,
            action: Action::Gravity(Vec2::ZERO),
        };
        let fired = |c: &Cue| {
            (0..40)
                .filter_map(|s| c.firing(s).map(|n| (s, n)))
                .collect::<Vec<_>>()
        };
        assert_eq!(fired(&cue(3, 0, None)), vec![(3, 0)]);
        assert_eq!(fired(&cue(0, 8, Some(3))), vec![(0, 0), (8, 1), (16, 2)]);
        assert_eq!(fired(&cue(30, 4, None)), vec![(30, 0), (34, 1), (38, 2)]);
    }

    #[test]
    fn keyframes_interpolate_hold_and_repeat() {
        let k = |t, x| Keyframe {
            t,
            pos: Vec2::new(x, 0.0),
            angle: 0.0,
        };
        let keys = vec![k(0.0, 0.0), k(1.0, 2.0), k(2.0, 0.0)];
        let once = Motion::Keyframes {
            keys: keys.clone(),
            repeat: false,
        };
        assert_eq!(once.pose(0.5).0.x, 1.0);
        assert_eq!(once.pose(1.5).0.x, 1.0);
        assert_eq!(once.pose(7.0).0.x, 0.0);
        let looped = Motion::Keyframes { keys, repeat: true };
        assert_eq!(looped.pose(2.5).0.x, 1.0);
        assert_eq!(looped.pose(3.0).0.x, 2.0);
    }

    #[test]
    fn wrap_is_into_minus_pi_pi() {
        for a in [-7.0f32, -3.2, -1.0, 0.0, 1.0, 3.2, 7.0] {
            let w = wrap(a);
            assert!(w > -PI - 1e-6 && w <= PI + 1e-6, "{a} -> {w}");
            assert!((libm::sinf(w) - libm::sinf(a)).abs() < 1e-5);
        }
    }
}
