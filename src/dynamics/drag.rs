//! The sandbox's mouse drag: a body point pulled toward a target by a soft
//! spring with a force cap. The world keeps it apart from the joints (it is
//! not listed or reported with them) and solves it as a mouse joint
//! (`joint::mouse`), once per substep.

use super::id::BodyId;
use crate::math::Vec2;
use serde::{Deserialize, Serialize};

/// A body point pulled toward a target.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DragJoint {
    /// The dragged body.
    pub body: BodyId,
    /// Grabbed point in the body frame (m).
    pub local_anchor: Vec2,
    /// Where the point is pulled (world, m).
    pub target: Vec2,
    /// Spring frequency (Hz).
    pub hertz: f32,
    /// Damping ratio (1 = critical).
    pub damping_ratio: f32,
    /// Force cap (N).
    pub max_force: f32,
    /// Accumulated impulse (N·s), for warm starting.
    pub impulse: Vec2,
}
