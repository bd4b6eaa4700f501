//! Joints as written in a scene file: the two bodies (by index or by name;
//! body A may be left out for the fixed world), the anchors in world
//! coordinates at the scene's start, and the kind's settings.
//!
//! ```ron
//! joints: [
//!   Revolute(a: "anchor", b: "bob", anchor: (0.0, 0.0)),
//!   Revolute(a: 2, b: 3, anchor: (1.0, 2.0), limits: (-0.5, 0.5), motor: (speed: 2.0, max_torque: 50.0)),
//!   Distance(a: "ceiling", b: "lamp", anchor_a: (0.0, 5.0), anchor_b: (0.0, 3.0), max_length: 2.0),
//! ]
//! ```

use super::error::FieldError;
use super::validate::{check, check_pos};
use crate::dynamics::joint::{
    Distance, JointDef, JointKind, Limits, Motor, MotorJoint, Prismatic, Revolute, Spring, Weld,
    Wheel,
};
use crate::dynamics::BodyId;
use crate::math::{Iso, Vec2};
use serde::{Deserialize, Serialize};

mod to_def;

/// A body named in a joint: its index in the scene's body order (explicit
/// bodies first, then generated ones) or its `name`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum BodyRef {
    /// Index in body order.
    Index(u32),
    /// A body's `name`.
    Name(String),
}

impl std::fmt::Display for BodyRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BodyRef::Index(i) => write!(f, "{i}"),
            BodyRef::Name(n) => write!(f, "\"{n}\""),
        }
    }
}

/// A spring: frequency (Hz) and damping ratio.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpringSpec {
    /// Frequency (Hz).
    pub hertz: f32,
    /// Damping ratio (1 = critical). Default 0.7.
    #[serde(default = "default_damping")]
    pub damping: f32,
}

fn default_damping() -> f32 {
    0.7
}

/// A rotation motor: target speed (rad/s) and torque cap (N·m).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TorqueMotorSpec {
    /// Target speed (rad/s).
    pub speed: f32,
    /// Largest torque (N·m).
    pub max_torque: f32,
}

/// A translation motor: target speed (m/s) and force cap (N).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForceMotorSpec {
    /// Target speed (m/s).
    pub speed: f32,
    /// Largest force (N).
    pub max_force: f32,
}

/// One joint of a scene. Anchors and axes are world coordinates at the
/// scene's start; angles are measured from the bodies' starting angles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Joint", deny_unknown_fields)]
pub enum JointSpec {
    /// A hinge at `anchor`.
    Revolute {
        /// Body A (or the world when left out).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        a: Option<BodyRef>,
        /// Body B.
        b: BodyRef,
        /// The hinge (world, m).
        anchor: Vec2,
        /// Angle limits (rad), relative to the starting angle.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limits: Option<(f32, f32)>,
        /// A motor.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        motor: Option<TorqueMotorSpec>,
        /// A torsional spring toward the joint angle 0.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spring: Option<SpringSpec>,
        /// The angle of B relative to A (rad) at which the joint angle is 0
        /// (limits and the spring are measured from it). Default: the
        /// starting relative angle.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reference_angle: Option<f32>,
        /// Whether A and B collide. Default false.
        #[serde(default, skip_serializing_if = "is_false")]
        collide_connected: bool,
        /// Breaks above this reaction force (N).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        break_force: Option<f32>,
        /// Breaks above this reaction torque (N·m).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        break_torque: Option<f32>,
    },
    /// A slider along `axis` through `anchor`.
    Prismatic {
        /// Body A (or the world when left out).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        a: Option<BodyRef>,
        /// Body B.
        b: BodyRef,
        /// A point on the axis (world, m).
        anchor: Vec2,
        /// The axis direction (world; normalised).
        axis: Vec2,
        /// Translation limits (m) from the starting position.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limits: Option<(f32, f32)>,
        /// A motor.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        motor: Option<ForceMotorSpec>,
        /// A spring toward the starting position.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spring: Option<SpringSpec>,
        /// Whether A and B collide. Default false.
        #[serde(default, skip_serializing_if = "is_false")]
        collide_connected: bool,
        /// Breaks above this reaction force (N).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        break_force: Option<f32>,
        /// Breaks above this reaction torque (N·m).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        break_torque: Option<f32>,
    },
    /// A rod, rope or spring between `anchor_a` and `anchor_b`.
    Distance {
        /// Body A (or the world when left out).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        a: Option<BodyRef>,
        /// Body B.
        b: BodyRef,
        /// Anchor on A (world, m).
        anchor_a: Vec2,
        /// Anchor on B (world, m).
        anchor_b: Vec2,
        /// Rest length (m); default: the anchors' starting distance.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        length: Option<f32>,
        /// Shortest length (m); default the rest length (0 with a spring).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min_length: Option<f32>,
        /// Longest length (m); default the rest length (none with a spring).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_length: Option<f32>,
        /// A spring toward the rest length; `hertz: 0` makes a rope.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spring: Option<SpringSpec>,
        /// Whether A and B collide. Default false.
        #[serde(default, skip_serializing_if = "is_false")]
        collide_connected: bool,
        /// Breaks above this reaction force (N).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        break_force: Option<f32>,
    },
    /// A rope: slack below `length`, taut at it (a distance joint with only a
    /// maximum).
    Rope {
        /// Body A (or the world when left out).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        a: Option<BodyRef>,
        /// Body B.
        b: BodyRef,
        /// Anchor on A (world, m).
        anchor_a: Vec2,
        /// Anchor on B (world, m).
        anchor_b: Vec2,
        /// Longest length (m); default the anchors' starting distance.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        length: Option<f32>,
        /// Whether A and B collide. Default false.
        #[serde(default, skip_serializing_if = "is_false")]
        collide_connected: bool,
        /// Breaks above this tension (N).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        break_force: Option<f32>,
    },
    /// Glue at `anchor`, rigid or soft.
    Weld {
        /// Body A (or the world when left out).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        a: Option<BodyRef>,
        /// Body B.
        b: BodyRef,
        /// The weld point (world, m).
        anchor: Vec2,
        /// A soft linear part.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        linear_spring: Option<SpringSpec>,
        /// A soft angular part.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        angular_spring: Option<SpringSpec>,
        /// Whether A and B collide. Default false.
        #[serde(default, skip_serializing_if = "is_false")]
        collide_connected: bool,
        /// Breaks above this reaction force (N).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        break_force: Option<f32>,
        /// Breaks above this reaction torque (N·m).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        break_torque: Option<f32>,
    },
    /// A wheel B on a suspension along `axis` of A, at `anchor` (the wheel's
    /// centre).
    Wheel {
        /// The chassis (or the world when left out).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        a: Option<BodyRef>,
        /// The wheel.
        b: BodyRef,
        /// The wheel's axle (world, m).
        anchor: Vec2,
        /// Suspension axis (world; normalised). Default (0, 1).
        #[serde(default = "up", skip_serializing_if = "is_up")]
        axis: Vec2,
        /// Suspension spring.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spring: Option<SpringSpec>,
        /// Suspension travel limits (m).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limits: Option<(f32, f32)>,
        /// Drive motor on the wheel's rotation.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        motor: Option<TorqueMotorSpec>,
        /// Whether A and B collide. Default false.
        #[serde(default, skip_serializing_if = "is_false")]
        collide_connected: bool,
        /// Breaks above this reaction force (N).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        break_force: Option<f32>,
    },
    /// Drives B's pose relative to A toward its starting offset (plus
    /// `linear_offset`, `angular_offset`), with bounded force and torque.
    Motor {
        /// Body A (or the world when left out).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        a: Option<BodyRef>,
        /// Body B.
        b: BodyRef,
        /// Extra target offset of B from its start, in A's frame (m).
        #[serde(default = "zero", skip_serializing_if = "is_zero_vec")]
        linear_offset: Vec2,
        /// Extra target angle of B relative to A (rad).
        #[serde(default, skip_serializing_if = "is_zero")]
        angular_offset: f32,
        /// Largest force (N).
        max_force: f32,
        /// Largest torque (N·m).
        max_torque: f32,
        /// Fraction of the error corrected per substep (0..=1). Default 0.3.
        #[serde(default = "default_correction")]
        correction: f32,
        /// Whether A and B collide. Default false.
        #[serde(default, skip_serializing_if = "is_false")]
        collide_connected: bool,
    },
}

fn is_false(b: &bool) -> bool {
    !*b
}
fn is_zero(x: &f32) -> bool {
    x.to_bits() == 0
}
fn is_zero_vec(v: &Vec2) -> bool {
    is_zero(&v.x) && is_zero(&v.y)
}
fn zero() -> Vec2 {
    Vec2::ZERO
}
fn up() -> Vec2 {
    Vec2::Y
}
fn is_up(v: &Vec2) -> bool {
    *v == Vec2::Y
}
fn default_correction() -> f32 {
    0.3
}

impl JointSpec {
    /// The kind's name, as written in the file.
    pub fn kind_name(&self) -> &'static str {
        match self {
            JointSpec::Revolute { .. } => "Revolute",
            JointSpec::Prismatic { .. } => "Prismatic",
            JointSpec::Distance { .. } => "Distance",
            JointSpec::Rope { .. } => "Rope",
            JointSpec::Weld { .. } => "Weld",
            JointSpec::Wheel { .. } => "Wheel",
            JointSpec::Motor { .. } => "Motor",
        }
    }

    /// The two ends.
    pub fn ends(&self) -> (Option<&BodyRef>, &BodyRef) {
        match self {
            JointSpec::Revolute { a, b, .. }
            | JointSpec::Prismatic { a, b, .. }
            | JointSpec::Distance { a, b, .. }
            | JointSpec::Rope { a, b, .. }
            | JointSpec::Weld { a, b, .. }
            | JointSpec::Wheel { a, b, .. }
            | JointSpec::Motor { a, b, .. } => (a.as_ref(), b),
        }
    }
}
