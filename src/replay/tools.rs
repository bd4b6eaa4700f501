//! The sandbox's joint tools as recordable inputs: each names world points,
//! and the bodies under them are found when the input is applied, so a
//! replay makes the same joints.

use crate::dynamics::joint::{Distance, JointKind, Motor, Revolute, Weld};
use crate::dynamics::BodyKind;
use crate::math::Vec2;
use crate::world::World;
use serde::{Deserialize, Serialize};

/// A joint tool of the sandbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum JointTool {
    /// Pins the body under `b` to the world with a hinge at `b`.
    Pin,
    /// Hinges the body under `a` (or the world) to the body under `b`, at `b`.
    Hinge,
    /// Ties a rope from `a` to `b`, as long as the two are apart.
    Rope,
    /// Hangs a spring (2 Hz, damping ratio 0.2) from `a` to `b`, at rest
    /// at their distance.
    Spring,
    /// Welds the body under `a` (or the world) to the body under `b`, at `b`.
    Weld,
}

/// Frequency of the spring tool's springs (Hz).
pub const SPRING_HERTZ: f32 = 2.0;
/// Damping ratio of the spring tool's springs.
pub const SPRING_DAMPING: f32 = 0.2;
/// Speed of a motor turned on with the motor tool (rad/s).
pub const MOTOR_SPEED: f32 = 2.0;
/// Torque cap of a motor turned on with the motor tool, per kilogram of the
/// driven body (N·m/kg).
pub const MOTOR_TORQUE_PER_KG: f32 = 100.0;

/// Applies a joint tool; does nothing when the points hold no suitable
/// bodies (the same body twice, or nothing that can move).
pub fn apply_joint_tool(world: &mut World, tool: JointTool, a: Vec2, b: Vec2) {
    if !(a.is_finite() && b.is_finite()) {
        return;
    }
    let body_b = world.body_at(b);
    let body_a = match tool {
        JointTool::Pin => None,
        _ => world.body_at(a),
    };
    let moves = |w: &World, id: Option<crate::BodyId>| {
        id.and_then(|id| w.body(id))
            .is_some_and(|b| b.kind() == BodyKind::Dynamic)
    };
    // Body B must be dynamic; swap the ends when only A is.
    let (body_a, body_b, pa, pb) = if moves(world, body_b) {
        (body_a, body_b, a, b)
    } else if moves(world, body_a) {
        (body_b, body_a, b, a)
    } else {
        return;
    };
    let Some(body_b) = body_b else {
        return;
    };
    if body_a == Some(body_b) {
        return;
    }
    let length = (pb - pa).length();
    let (kind, at_a, at_b) = match tool {
        JointTool::Pin | JointTool::Hinge => (JointKind::Revolute(Revolute::default()), pb, pb),
        JointTool::Weld => (JointKind::Weld(Weld::default()), pb, pb),
        JointTool::Rope => (JointKind::Distance(Distance::rope(length)), pa, pb),
        JointTool::Spring => (
            JointKind::Distance(Distance::spring(length, SPRING_HERTZ, SPRING_DAMPING)),
            pa,
            pb,
        ),
    };
    if let Ok(def) = world.joint_def(body_a, body_b, at_a, at_b, kind) {
        let _ = world.add_joint(def);
    }
}

/// Turns the motor of the hinge (or wheel) nearest `at` within `radius` on
/// (at [`MOTOR_SPEED`]) or off.
pub fn toggle_motor(world: &mut World, at: Vec2, radius: f32) {
    if !(at.is_finite() && radius.is_finite()) {
        return;
    }
    let Some(id) = world.joint_at(at, radius.clamp(0.0, 10.0)) else {
        return;
    };
    let Some(j) = world.joint(id) else {
        return;
    };
    let current = match j.kind() {
        JointKind::Revolute(r) => r.motor,
        JointKind::Wheel(w) => w.motor,
        _ => return,
    };
    let mass = world.body(j.def().body_b).map_or(1.0, |b| b.mass());
    let motor = match current {
        Some(_) => None,
        None => Some(Motor {
            speed: MOTOR_SPEED,
            max_effort: MOTOR_TORQUE_PER_KG * mass,
        }),
    };
    world.set_joint_motor(id, motor);
}

/// Removes the joint nearest `at` within `radius`.
pub fn cut_joint(world: &mut World, at: Vec2, radius: f32) {
    if !(at.is_finite() && radius.is_finite()) {
        return;
    }
    if let Some(id) = world.joint_at(at, radius.clamp(0.0, 10.0)) {
        world.remove_joint(id);
    }
}
