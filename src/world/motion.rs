//! What the narrowphase needs to know of a body slot this step, one byte a
//! slot (see `dormant.rs`).

use crate::dynamics::{Body, BodyKind};
use crate::math::Vec2;

/// What the narrowphase needs to know of a body slot, one byte a slot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Motion(u8);

impl Motion {
    /// The body moves this step: awake, not frozen, and dynamic or moving.
    const MOVES: u8 = 1;
    /// No body in the slot, or a frozen one: its contacts are not collided.
    const BARRED: u8 = 2;

    /// An empty slot.
    pub const EMPTY: Motion = Motion(Self::BARRED);

    /// Whether body `b` moves this step: awake, not frozen, and dynamic
    /// or with a velocity.
    #[inline(always)]
    pub fn moves(b: &Body) -> bool {
        b.awake && !b.frozen && (b.kind == BodyKind::Dynamic || b.v != Vec2::ZERO || b.w != 0.0)
    }

    /// The motion of body `b`.
    #[inline]
    pub fn of(b: &Body) -> Motion {
        Motion(if b.frozen {
            Self::BARRED
        } else {
            Self::moves(b) as u8
        })
    }

    /// Whether a contact between bodies of motions `a` and `b` is collided.
    #[inline(always)]
    pub fn collides(a: Motion, b: Motion) -> bool {
        let both = a.0 | b.0;
        both & Self::BARRED == 0 && both & Self::MOVES != 0
    }
}
