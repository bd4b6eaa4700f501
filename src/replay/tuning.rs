//! Settings changes as recordable inputs: the sandbox's settings panel
//! changes the world through these, so a replay changes it at the same step.

use crate::math::Vec2;
use crate::scene::MAX_SUBSTEPS;
use crate::world::{World, WorldSettings};
use serde::{Deserialize, Serialize};

/// One change to the world's settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Tuning {
    /// Gravity (m/s²); wakes every body. Ignored when not finite.
    Gravity(Vec2),
    /// Substeps per step, clamped to 1..=[`MAX_SUBSTEPS`].
    Substeps(u32),
    /// Sleep on or off (off wakes every body).
    Sleep(bool),
    /// The sleep thresholds: the speed (m/s) under which a body rests and
    /// the time (s) an island must rest to fall asleep. Ignored unless both
    /// are finite and non-negative.
    SleepThresholds {
        /// `WorldSettings::sleep_velocity` (m/s).
        velocity: f32,
        /// `WorldSettings::time_to_sleep` (s).
        time: f32,
    },
}

impl Tuning {
    /// Applies the change. Never panics; invalid values change nothing.
    pub fn apply(&self, world: &mut World) {
        match *self {
            Tuning::Gravity(g) => world.set_gravity(g),
            Tuning::Substeps(n) => world.set_substeps(n.clamp(1, MAX_SUBSTEPS)),
            Tuning::Sleep(on) => world.set_sleep_enabled(on),
            Tuning::SleepThresholds { velocity, time } => {
                world.set_sleep_thresholds(velocity, time)
            }
        }
    }

    /// The changes that take the tunable settings of `from` to those of
    /// `to`, in a fixed order (empty when they agree).
    pub fn diff(from: &WorldSettings, to: &WorldSettings) -> Vec<Tuning> {
        let mut out = Vec::new();
        if from.gravity != to.gravity {
            out.push(Tuning::Gravity(to.gravity));
        }
        if from.substeps != to.substeps {
            out.push(Tuning::Substeps(to.substeps));
        }
        if from.sleep != to.sleep {
            out.push(Tuning::Sleep(to.sleep));
        }
        if from.sleep_velocity != to.sleep_velocity || from.time_to_sleep != to.time_to_sleep {
            out.push(Tuning::SleepThresholds {
                velocity: to.sleep_velocity,
                time: to.time_to_sleep,
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_then_apply_reaches_the_target() {
        let from = WorldSettings::default();
        let to = WorldSettings {
            gravity: Vec2::new(2.0, -3.0),
            substeps: 9,
            sleep: false,
            sleep_velocity: 0.2,
            time_to_sleep: 1.5,
            ..from
        };
        let mut w = World::new(from);
        let changes = Tuning::diff(&from, &to);
        assert_eq!(changes.len(), 4);
        for t in &changes {
            t.apply(&mut w);
        }
        assert_eq!(*w.settings(), to);
        assert!(Tuning::diff(&to, &to).is_empty());
    }

    #[test]
    fn bad_values_change_nothing_or_are_clamped() {
        let mut w = World::new(WorldSettings::default());
        Tuning::Gravity(Vec2::new(f32::NAN, 0.0)).apply(&mut w);
        Tuning::SleepThresholds {
            velocity: -1.0,
            time: 1.0,
        }
        .apply(&mut w);
        assert_eq!(*w.settings(), WorldSettings::default());
        Tuning::Substeps(0).apply(&mut w);
        assert_eq!(w.settings().substeps, 1);
        Tuning::Substeps(u32::MAX).apply(&mut w);
        assert_eq!(w.settings().substeps, MAX_SUBSTEPS);
    }
}
