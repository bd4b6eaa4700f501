//! Joint definitions: what a user asks for. Each kind's parameters, the
//! shared spring, motor and limit settings, and [`JointDef`], which joins two
//! bodies at anchors given in their own frames.
//!
//! Units: lengths in m, angles in rad, speeds in m/s or rad/s, forces in N,
//! torques in N·m, spring frequencies in Hz. Angles and translations are
//! measured from the pose the joint was made in (its reference): a revolute
//! joint's angle is `θB − θA − reference_angle`.

use crate::dynamics::BodyId;
use crate::math::Vec2;
use serde::{Deserialize, Serialize};

/// A soft spring: natural frequency and damping ratio (1 = critical).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spring {
    /// Natural frequency (Hz). 0 makes the spring exert no force (a free
    /// joint along that axis, still bounded by its limits).
    pub hertz: f32,
    /// Damping ratio (dimensionless; 1 is critical damping).
    pub damping_ratio: f32,
}

/// A velocity motor with a bounded effort.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Motor {
    /// Target relative speed: rad/s for rotation, m/s for translation.
    pub speed: f32,
    /// Largest torque (N·m) or force (N) the motor may apply.
    pub max_effort: f32,
}

/// Bounds on a joint coordinate: an angle (rad) or a translation (m).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// Lower bound.
    pub lower: f32,
    /// Upper bound (≥ `lower`).
    pub upper: f32,
}

/// A hinge: the anchors coincide, the bodies turn freely about them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Revolute {
    /// `θB − θA` at which the joint angle is zero (rad).
    pub reference_angle: f32,
    /// Angle limits (rad), within (−π, π).
    pub limits: Option<Limits>,
    /// A motor driving the joint angle's rate (rad/s, N·m).
    pub motor: Option<Motor>,
    /// A torsional spring toward angle 0.
    pub spring: Option<Spring>,
}

/// A slider: B moves along an axis fixed in A and does not turn relative to A.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Prismatic {
    /// Unit axis in A's frame.
    pub axis: Vec2,
    /// `θB − θA` that the joint holds (rad).
    pub reference_angle: f32,
    /// Translation limits along the axis (m).
    pub limits: Option<Limits>,
    /// A motor driving the translation rate (m/s, N).
    pub motor: Option<Motor>,
    /// A spring toward translation 0.
    pub spring: Option<Spring>,
}

/// Keeps the anchors at a distance: rigid, a rope, or a spring.
///
/// Without a spring the distance is held at `length`. With one, `length`
/// is its rest length (a spring of 0 Hz exerts no force: a rope when
/// `min_length` is 0). `min_length` and `max_length` are hard stops either way.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Distance {
    /// Rest length (m).
    pub length: f32,
    /// Shortest allowed length (m).
    pub min_length: f32,
    /// Longest allowed length (m).
    pub max_length: f32,
    /// Soft behaviour toward `length`; `None` holds it rigidly.
    pub spring: Option<Spring>,
}

impl Distance {
    /// A rigid rod of the given length.
    pub fn rod(length: f32) -> Distance {
        Distance {
            length,
            min_length: length,
            max_length: length,
            spring: None,
        }
    }

    /// A rope: slack below `length`, taut at it.
    pub fn rope(length: f32) -> Distance {
        Distance {
            length,
            min_length: 0.0,
            max_length: length,
            spring: Some(Spring {
                hertz: 0.0,
                damping_ratio: 0.0,
            }),
        }
    }

    /// A spring of rest length `length`, with no hard stops.
    pub fn spring(length: f32, hertz: f32, damping_ratio: f32) -> Distance {
        Distance {
            length,
            min_length: 0.0,
            max_length: f32::MAX,
            spring: Some(Spring {
                hertz,
                damping_ratio,
            }),
        }
    }
}

/// Glues two bodies: rigid, or soft along either part.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Weld {
    /// `θB − θA` that the joint holds (rad).
    pub reference_angle: f32,
    /// Soft linear part; `None` is rigid.
    pub linear: Option<Spring>,
    /// Soft angular part; `None` is rigid.
    pub angular: Option<Spring>,
}

/// A wheel on a suspension: B slides along an axis fixed in A (sprung and
/// optionally limited) and turns freely, optionally driven by a motor.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Wheel {
    /// Unit suspension axis in A's frame.
    pub axis: Vec2,
    /// The suspension spring along the axis, toward translation 0.
    pub spring: Option<Spring>,
    /// Suspension travel limits (m).
    pub limits: Option<Limits>,
    /// A motor driving the wheel's rotation relative to A (rad/s, N·m).
    pub motor: Option<Motor>,
}

/// Drives B's pose relative to A toward an offset with bounded force and
/// torque (a top-down character's friction, a crane's grip).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MotorJoint {
    /// Target position of B's anchor relative to A's anchor, in A's frame (m).
    pub linear_offset: Vec2,
    /// Target `θB − θA` (rad).
    pub angular_offset: f32,
    /// Largest force (N).
    pub max_force: f32,
    /// Largest torque (N·m).
    pub max_torque: f32,
    /// Fraction of the pose error corrected per second, as a rate: the
    /// target speed is `correction · error / h` (0..=1).
    pub correction: f32,
}

/// Pulls B's anchor toward a world target through a soft spring with a force
/// cap: the sandbox's drag. Body A is ignored.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mouse {
    /// Where the anchor is pulled (world, m).
    pub target: Vec2,
    /// The pull's spring.
    pub spring: Spring,
    /// Force cap (N).
    pub max_force: f32,
}

/// The kinds of joint, each with its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum JointKind {
    /// A hinge.
    Revolute(Revolute),
    /// A slider.
    Prismatic(Prismatic),
    /// A rod, rope or spring between two points.
    Distance(Distance),
    /// Glue, rigid or soft.
    Weld(Weld),
    /// A sprung, driven wheel.
    Wheel(Wheel),
    /// A relative-pose motor.
    Motor(MotorJoint),
    /// A soft pull toward a world point.
    Mouse(Mouse),
}

impl JointKind {
    /// The kind's name, as written in scene files and reports.
    pub fn name(&self) -> &'static str {
        match self {
            JointKind::Revolute(_) => "revolute",
            JointKind::Prismatic(_) => "prismatic",
            JointKind::Distance(_) => "distance",
            JointKind::Weld(_) => "weld",
            JointKind::Wheel(_) => "wheel",
            JointKind::Motor(_) => "motor",
            JointKind::Mouse(_) => "mouse",
        }
    }
}

/// Everything needed to join two bodies.
///
/// Anchors are in each body's own frame (relative to its origin, like shape
/// vertices). [`crate::World::joint_def`] builds one from a world anchor at
/// the bodies' current poses.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct JointDef {
    /// Body A, or `None` for the fixed world frame.
    pub body_a: Option<BodyId>,
    /// Body B.
    pub body_b: BodyId,
    /// Anchor on A, A's frame (world frame when A is the world) (m).
    pub local_anchor_a: Vec2,
    /// Anchor on B, B's frame (m).
    pub local_anchor_b: Vec2,
    /// The kind and its parameters.
    pub kind: JointKind,
    /// Whether the two bodies still collide with each other. Default `false`.
    pub collide_connected: bool,
    /// The joint breaks when its reaction force exceeds this (N).
    pub break_force: Option<f32>,
    /// The joint breaks when its reaction torque exceeds this (N·m).
    pub break_torque: Option<f32>,
}

impl JointDef {
    /// A joint of `kind` between `a` (or the world) and `b`, anchors given
    /// in the bodies' frames, not colliding, unbreakable.
    pub fn new(
        body_a: Option<BodyId>,
        body_b: BodyId,
        local_anchor_a: Vec2,
        local_anchor_b: Vec2,
        kind: JointKind,
    ) -> JointDef {
        JointDef {
            body_a,
            body_b,
            local_anchor_a,
            local_anchor_b,
            kind,
            collide_connected: false,
            break_force: None,
            break_torque: None,
        }
    }

    /// Sets whether the joined bodies collide.
    pub fn collide_connected(mut self, on: bool) -> JointDef {
        self.collide_connected = on;
        self
    }

    /// Makes the joint break above a reaction force (N).
    pub fn break_force(mut self, force: f32) -> JointDef {
        self.break_force = Some(force);
        self
    }

    /// Makes the joint break above a reaction torque (N·m).
    pub fn break_torque(mut self, torque: f32) -> JointDef {
        self.break_torque = Some(torque);
        self
    }
}
