//! What the world reports after a step: the events, in one enum.

use crate::dynamics::joint::JointDef;
use crate::dynamics::{BodyId, JointId};
use crate::math::Vec2;
use serde::{Deserialize, Serialize};

/// Something the world reports after a step. Serialized with a `type`
/// field naming the variant (`{"type":"Hit","speed":3.2,…}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum WorldEvent {
    /// A body's state became non-finite or absurd; it was frozen at its last good
    /// pose and removed from collision. The rest of the world goes on.
    BodyFrozen {
        /// The body.
        body: BodyId,
        /// Step index at which it failed.
        step: u64,
        /// What was wrong.
        reason: String,
    },
    /// A dynamic body was pushed deeper than the burial limit into a static or
    /// kinematic body ([`crate::world::BURIED_DEPTH`]): crushed under a heavy
    /// stack, or driven into a wall. Reported once when it happens; again only
    /// after the body has come back out to half the limit.
    BodyBuried {
        /// The buried body.
        body: BodyId,
        /// The static or kinematic body it is buried in.
        by: BodyId,
        /// Its deepest penetration into `by` (m).
        depth: f32,
        /// Step index.
        step: u64,
    },
    /// Two shapes started touching (their manifold gained its first point);
    /// reported when contact events are on ([`crate::World::set_contact_events`]).
    ContactBegin {
        /// Body A.
        body_a: BodyId,
        /// The index of the shape in body A.
        shape_a: u32,
        /// Body B.
        body_b: BodyId,
        /// The index of the shape in body B.
        shape_b: u32,
        /// The first contact point (world).
        point: Vec2,
        /// The normal, from A to B.
        normal: Vec2,
        /// Step index.
        step: u64,
    },
    /// Two shapes started touching at an approach speed of at least
    /// [`crate::WorldSettings::hit_speed`]; follows their `ContactBegin` (contact
    /// events must be on).
    Hit {
        /// Body A.
        body_a: BodyId,
        /// The index of the shape in body A.
        shape_a: u32,
        /// Body B.
        body_b: BodyId,
        /// The index of the shape in body B.
        shape_b: u32,
        /// The first contact point (world).
        point: Vec2,
        /// The normal, from A to B.
        normal: Vec2,
        /// The speed at which the shapes approached along the normal (m/s).
        speed: f32,
        /// Step index.
        step: u64,
    },
    /// A shape started overlapping a sensor shape (reported at the end of
    /// the step, from the poses it ends with).
    SensorBegin {
        /// The sensor's body.
        sensor: BodyId,
        /// The sensor shape's index in its body.
        sensor_shape: u32,
        /// The body that entered.
        visitor: BodyId,
        /// The index of its shape.
        visitor_shape: u32,
        /// Step index.
        step: u64,
    },
    /// A shape stopped overlapping a sensor shape, or went away.
    SensorEnd {
        /// The sensor's body.
        sensor: BodyId,
        /// The sensor shape's index in its body.
        sensor_shape: u32,
        /// The body that left.
        visitor: BodyId,
        /// The index of its shape.
        visitor_shape: u32,
        /// Step index.
        step: u64,
    },
    /// Two shapes stopped touching (their manifold lost its last point, or
    /// one of them went away).
    ContactEnd {
        /// Body A.
        body_a: BodyId,
        /// The index of the shape in body A.
        shape_a: u32,
        /// Body B.
        body_b: BodyId,
        /// The index of the shape in body B.
        shape_b: u32,
        /// Step index.
        step: u64,
    },
    /// A joint's reaction passed its break force or torque: it was removed
    /// at the end of the step.
    JointBroken {
        /// The joint (no longer valid).
        joint: JointId,
        /// What it was.
        def: JointDef,
        /// Step index at which it broke.
        step: u64,
        /// Its reaction force on body B in that step (N).
        force: Vec2,
        /// Its reaction torque on body B in that step (N·m).
        torque: f32,
    },
}
