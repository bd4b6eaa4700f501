//! Joints: constraints between two bodies (or a body and the world frame),
//! solved in the same substepped solver as contacts.
//!
//! | kind | holds | optional |
//! |---|---|---|
//! | revolute | anchors together | angle limits, motor (rad/s, N·m), torsional spring |
//! | prismatic | B on an axis of A, no relative turn | limits, motor (m/s, N), spring |
//! | distance | anchors at a length | rope (max only), spring with min/max stops |
//! | weld | anchors together, no relative turn | soft linear / angular parts |
//! | wheel | B on an axis of A (suspension) | spring, travel limits, rotation motor |
//! | motor | drives B's pose relative to A | force and torque caps |
//! | mouse | pulls B toward a world target | (the sandbox's drag) |
//!
//! In each substep, as for contacts (and before them):
//!
//! ```text
//! warm start      apply last substep's accumulated impulses
//! velocity pass   springs (soft), motors (bounded), limits (one-sided,
//!                 speculative), then the rigid part with no bias
//!                 (every velocity iteration)
//! integrate positions
//! position pass   NGS: the rigid parts' position error (anchor separation,
//!                 angle, lateral offset, violated limits) removed by
//!                 pseudo-impulses on the poses, so no energy is added
//! ```
//!
//! The passes visit the joints in wavefront order (`schedule`); runs of
//! independent plain hinges (no spring, motor or limits) are solved side by
//! side in SIMD lanes, bit for bit as one by one (`lanes`).
//!
//! Rigid parts are rigid (no softness, no bias velocity): drift is removed on
//! positions only, as the contact solver removes penetration. Springs are
//! soft constraints (`frame::Softness`). Each joint reports its reaction on
//! B (the last substep's impulses over the substep) and may break above a
//! force or torque threshold; the world then removes it and reports it.
//!
//! References: E. Catto, "Modeling and Solving Constraints" (GDC 2009),
//! "Soft Constraints" (GDC 2011); Box2D v3 `joint.c` and one file per kind;
//! Box2D v2.4 `b2*Joint::SolvePositionConstraints` for the NGS pass.

mod axis;
mod constraint;
mod def;
mod distance;
mod forest;
mod frame;
mod lanes;
mod motor;
mod mouse;
mod prismatic;
mod revolute;
mod validate;
mod weld;
mod wheel;

pub(crate) use constraint::{End, JointConstraint};
pub use def::{
    Distance, JointDef, JointKind, Limits, Motor, MotorJoint, Mouse, Prismatic, Revolute, Spring,
    Weld, Wheel,
};
pub(crate) use forest::JointForest;
pub use frame::JointImpulses;
pub(crate) use lanes::JointLanes;
pub use validate::JointError;

use crate::math::Vec2;
use serde::{Deserialize, Serialize};

/// Per-step solver settings of the joint passes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JointParams {
    /// Substep (s) and its inverse.
    pub h: f32,
    pub inv_h: f32,
    /// Largest linear correction per position pass (m).
    pub max_linear: f32,
    /// Largest angular correction per position pass (rad).
    pub max_angular: f32,
}

/// A joint owned by a [`crate::World`]: its definition, the impulses it
/// carries from step to step, and its last reaction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Joint {
    pub(crate) def: JointDef,
    pub(crate) impulses: JointImpulses,
    /// Reaction on B over the last step's final substep (N, N·m).
    pub(crate) force: Vec2,
    pub(crate) torque: f32,
}

impl Joint {
    pub(crate) fn new(def: JointDef) -> Joint {
        Joint {
            def,
            impulses: JointImpulses::default(),
            force: Vec2::ZERO,
            torque: 0.0,
        }
    }

    /// The definition the joint was made from (the mouse joint's target and
    /// the motors' settings follow later changes).
    pub fn def(&self) -> &JointDef {
        &self.def
    }

    /// The kind and its parameters.
    pub fn kind(&self) -> &JointKind {
        &self.def.kind
    }

    /// Reaction force on B (N, world frame) in the last step; A feels the
    /// opposite.
    pub fn reaction_force(&self) -> Vec2 {
        self.force
    }

    /// Reaction torque on B (N·m) in the last step, about B's anchor.
    pub fn reaction_torque(&self) -> f32 {
        self.torque
    }

    /// The accumulated impulses, as used for warm starting.
    pub fn impulses(&self) -> &JointImpulses {
        &self.impulses
    }
}
