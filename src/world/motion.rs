//! What the narrowphase needs to know of a body slot this step, one byte a
//! slot, and what it does with a contact (see `dormant.rs`).

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
    /// The body is reported buried (see `buried.rs`): its deep contacts
    /// are read every step, so its contacts are never passed over unread.
    const BURIED: u8 = 4;

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
            Self::moves(b) as u8 | ((b.buried as u8) * Self::BURIED)
        })
    }

    /// Whether a contact between bodies of motions `a` and `b` is collided.
    #[inline(always)]
    pub fn collides(a: Motion, b: Motion) -> bool {
        let both = a.0 | b.0;
        both & Self::BARRED == 0 && both & Self::MOVES != 0
    }

    /// What the narrowphase does with a contact between bodies of motions
    /// `a` and `b` ([`Motion::collides`], [`Motion::rests`]), looked up
    /// without a branch.
    #[inline(always)]
    pub fn visit(a: Motion, b: Motion) -> Visit {
        use Visit::{Collide as C, Dormant as D, Resting as R};
        // By the bits of `a | b`: MOVES, BARRED, BURIED.
        const TABLE: [Visit; 8] = [R, C, D, D, D, C, D, D];
        TABLE[((a.0 | b.0) & 7) as usize]
    }

    /// Whether a contact between bodies of motions `a` and `b` rests: both
    /// bodies are present, neither moves, is frozen or is reported buried.
    /// Such a contact is not collided, and while its bodies sleep nothing
    /// of the step reads it (see `dormant.rs`).
    #[inline(always)]
    pub fn rests(a: Motion, b: Motion) -> bool {
        a.0 | b.0 == 0
    }
}

/// What the narrowphase does with a contact this step (see `dormant.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Visit {
    /// One of its bodies moves: collided.
    Collide,
    /// Not collided; its points, if any, are read.
    Dormant,
    /// Not collided and not read: both bodies rest.
    Resting,
}

#[cfg(test)]
mod tests {
    use super::{Motion, Visit};

    /// The table agrees with the tests it stands for, for every pair of
    /// motions.
    #[test]
    fn the_visit_table_is_the_tests() {
        for a in 0..8u8 {
            for b in 0..8u8 {
                let (a, b) = (Motion(a), Motion(b));
                let expected = if Motion::rests(a, b) {
                    Visit::Resting
                } else if Motion::collides(a, b) {
                    Visit::Collide
                } else {
                    Visit::Dormant
                };
                assert_eq!(Motion::visit(a, b), expected, "{a:?} {b:?}");
            }
        }
    }
}
