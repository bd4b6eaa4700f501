//! World settings and the engine's tuning constants (SI units).

use crate::math::Vec2;
use serde::{Deserialize, Serialize};

/// Default number of substeps per step.
pub const DEFAULT_SUBSTEPS: u32 = 4;

/// Settings of a [`crate::World`]. `Default` gives Box2D-like values: dt = 1/60 s,
/// gravity (0, -10) m/s², 4 substeps.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WorldSettings {
    /// Gravity (m/s²).
    pub gravity: Vec2,
    /// Fixed time step (s).
    pub dt: f32,
    /// Substeps per step: velocities and positions are integrated this many times
    /// per step, with one velocity iteration and one position projection each.
    pub substeps: u32,
    /// Velocity iterations per substep.
    pub velocity_iterations: u32,
    /// Rolling resistance at contacts of a rounded surface
    /// (dimensionless): the contact resists relative spin with a torque up
    /// to `rolling_resistance · N · r`, r being the smaller body's bounding
    /// radius, in every substep. Stops rocking ellipses and rolling balls as
    /// real surfaces do; 0 turns it off.
    pub rolling_resistance: f32,
    /// Whether resting islands fall asleep.
    pub sleep: bool,
    /// Base speculative distance (m): contacts are built this far before touching.
    /// Fast pairs extend it by their relative motion over one step.
    pub speculative_distance: f32,
    /// Allowed penetration (m) left alone by positional resolution, so resting
    /// contacts do not flicker.
    pub linear_slop: f32,
    /// Fastest separation (m/s) the velocity pass may demand at a contact, as
    /// Box2D's contact push speed. The target is a separating speed when a
    /// turning pair is predicted to dig in deeper than its gap within the
    /// substep; in a violent collision of fast-spinning bodies that
    /// prediction can ask for tens of m/s, which the impulse then delivers.
    pub max_push_speed: f32,
    /// Fraction of the remaining penetration removed per position projection.
    pub position_correction: f32,
    /// Largest positional correction per projection (m).
    pub max_correction: f32,
    /// Penetration (m) past which the position pass corrects harder the
    /// contacts of unjointed bodies in islands that nothing anchors (no
    /// static or kinematic body, joint to the world or drag): of the
    /// penetration past it, each correction also removes half of what
    /// `position_correction` leaves. A crowd crushed into itself by an
    /// impact then comes apart in tens of steps instead of hundreds, with no
    /// velocity added. In anchored islands the position pass's pushes are
    /// also taken out of the velocity (see `dynamics::solver_body::Anchors`),
    /// and harder ones there slowed `spinner`'s motor; jointed bodies keep
    /// the gentle correction that their joints' position pass is tuned
    /// with. `f32::INFINITY` (or any negative value) turns it off.
    pub deep_penetration: f32,
    /// Approach speed (m/s) below which restitution is ignored.
    pub restitution_threshold: f32,
    /// A body may sleep while its fastest point moves slower than this (m/s):
    /// `|v| + extent·|ω|`, extent being the farthest the shape reaches from
    /// its centre of mass (scale-aware, as in Box2D v3). `v` and `ω` are the
    /// motion the body really made over the last steps (its pose change,
    /// smoothed over 0.1 s), not the solver's velocity.
    pub sleep_velocity: f32,
    /// Time (s) an island must rest before it sleeps.
    pub time_to_sleep: f32,
    /// Largest broadphase fat-box margin (m). A shape's fat box is its tight
    /// box grown by the speculative distance plus the smaller of this and an
    /// eighth of its bounding radius (Box2D v3's rule), so small shapes in a
    /// crowd see fewer neighbours (`world::settings::fat_margin`).
    pub aabb_margin: f32,
    /// Speed (m/s) beyond which a body counts as numerically blown up and is frozen.
    pub max_speed: f32,
    /// Overlapping polygon pairs take their normal and depth from the
    /// separating-axis test instead of GJK + EPA: the same minimum-translation
    /// axis and depth (to rounding), about 2.4× faster narrowphase on box
    /// stacks. On by default; off runs every pair through GJK/EPA.
    pub polygon_sat: bool,
    /// Extra reach (m) of polygon pairs' manifolds, which lets a pair keep
    /// its manifold from step to step while its relative pose drifts by
    /// less than this, instead of running the narrowphase again (see
    /// `collision::reuse`: the bound never misses a contact). 0 turns reuse
    /// off.
    pub reuse_margin: f32,
    /// Approach speed (m/s) from which a contact's beginning is also
    /// reported as a `Hit` event (with contact events on). Default 1.
    pub hit_speed: f32,
    /// Continuous collision: a dynamic body that moved farther in a step
    /// than half its thinnest part is swept back to its first time of impact
    /// with a static or kinematic shape, so it cannot tunnel (Box2D v3's
    /// continuous stage). On by default.
    pub continuous: bool,
    /// Largest turn (rad) a dynamic body may make in one step: its spin is
    /// clamped to `max_rotation / dt` before each substep's position
    /// update, as Box2D v3 does (its `B2_MAX_ROTATION`). Contacts hold their
    /// anchors through the step; a body turning farther swings its corners
    /// past what they guard. Default π/4: 47 rad/s at 60 Hz.
    pub max_rotation: f32,
}

impl Default for WorldSettings {
    fn default() -> Self {
        WorldSettings {
            gravity: Vec2::new(0.0, -10.0),
            dt: 1.0 / 60.0,
            substeps: DEFAULT_SUBSTEPS,
            velocity_iterations: 2,
            rolling_resistance: 0.01,
            sleep: true,
            speculative_distance: 0.02,
            linear_slop: 0.0005,
            max_push_speed: 3.0,
            position_correction: 0.2,
            max_correction: 0.2,
            deep_penetration: 0.05,
            restitution_threshold: 1.0,
            sleep_velocity: 0.05,
            time_to_sleep: 0.5,
            aabb_margin: 0.05,
            max_speed: 1.0e4,
            polygon_sat: true,
            reuse_margin: 0.005,
            hit_speed: 1.0,
            continuous: true,
            max_rotation: 0.25 * std::f32::consts::PI,
        }
    }
}

/// The fat-box margin (m) of a shape of this bounding radius (m): the
/// speculative distance, so that a pair is found before its contact could
/// begin, plus room to move, `min(aabb_margin, radius / 8)`, before the box
/// must be re-made. Negative or non-finite parts count as 0.
pub fn fat_margin(settings: &WorldSettings, bounding_radius: f32) -> f32 {
    let sane = |v: f32| if v.is_finite() && v > 0.0 { v } else { 0.0 };
    sane(settings.speculative_distance)
        + sane(settings.aabb_margin).min(sane(bounding_radius) / 8.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Box2D's rule: the speculative distance, plus an eighth of the
    /// bounding radius up to `aabb_margin`.
    #[test]
    fn the_fat_margin_follows_the_shape_size() {
        let s = WorldSettings::default();
        let close = |a: f32, b: f32| (a - b).abs() < 1e-7;
        // A 0.25 m box (radius 0.177): 0.02 + 0.0221.
        assert!(close(fat_margin(&s, 0.125 * 2f32.sqrt()), 0.02 + 0.022_097));
        // Large shapes stop at the cap.
        assert!(close(fat_margin(&s, 10.0), 0.02 + s.aabb_margin));
        assert!(close(fat_margin(&s, f32::NAN), 0.02));
        let odd = WorldSettings {
            speculative_distance: -1.0,
            aabb_margin: f32::INFINITY,
            ..s
        };
        assert_eq!(fat_margin(&odd, 0.8), 0.0, "an infinite cap counts as 0");
    }
}
