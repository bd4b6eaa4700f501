//! A world's whole state as text, and back: save a simulation and resume it
//! later, bit for bit.
//!
//! The text is RON, the world's serde form (the same one any serde format
//! gives). Restoring it gives a world that steps exactly as the saved one
//! would have (`tests/determinism.rs` checks every shipped scene), and a
//! snapshot written before a field was added still restores (the field
//! takes its default; `tests/continuous.rs`).
//!
//! These two functions are also the only place the library instantiates the
//! world's serde code for RON: a program (or test) that calls them, rather
//! than `ron` directly, does not compile that code again.

use super::world::World;
use thiserror::Error;

/// Why snapshot text could not be restored: where in the text (1-based line
/// and column) and what the parser found. `Display` gives `line:col: what`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{line}:{col}: {message}")]
pub struct SnapshotError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub col: usize,
    /// What the parser expected or found.
    pub message: String,
}

impl World {
    /// The world's whole state (settings, bodies, contacts with their
    /// warm-start impulses, joints, the broadphase, the step count and any
    /// script) as one line of RON; not the events still to be drained, nor
    /// the timings. [`World::from_snapshot`] reads it back.
    ///
    /// ```
    /// use minkowski::{BodyDef, Shape, Vec2, World, WorldSettings};
    /// let mut world = World::new(WorldSettings::default());
    /// world.add_body(BodyDef::new(Shape::circle(0.5), Vec2::new(0.0, 3.0))).unwrap();
    /// let text = world.snapshot();
    /// let mut copy = World::from_snapshot(&text).unwrap();
    /// world.step();
    /// copy.step();
    /// assert_eq!(world.state_hash(), copy.state_hash());
    /// ```
    pub fn snapshot(&self) -> String {
        // The world holds numbers, strings, sequences, options and plain
        // enums, each of which RON writes; nothing in it refuses to
        // serialize, so this cannot fail.
        // The last step's impulses may still be banked beside the contacts
        // (see `contact_pool::Banked`): a copy with them stored is written.
        let settled;
        let world = if self.contacts.is_banked() {
            let mut w = self.clone();
            w.contacts.settle_all();
            settled = w;
            &settled
        } else {
            self
        };
        ron::ser::to_string(world).expect("every part of a world serializes to RON")
    }

    /// A world from [`World::snapshot`]'s text, or where and why the text is
    /// not one. The text is checked against the world's types (fields,
    /// variants, numbers); a snapshot edited by hand so that its parts
    /// disagree (a contact naming a body that is not there, say) is not
    /// detected here.
    pub fn from_snapshot(text: &str) -> Result<World, SnapshotError> {
        ron::de::from_str(text).map_err(|e| SnapshotError {
            line: e.position.line,
            col: e.position.col,
            message: e.code.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BodyDef, Shape, Vec2, WorldSettings};

    #[test]
    fn bad_text_is_a_located_error() {
        let mut w = World::new(WorldSettings::default());
        w.add_body(BodyDef::new(Shape::circle(0.5), Vec2::new(0.0, 3.0)))
            .unwrap();
        let text = w.snapshot();
        // Cut short: the error is at the end of the text.
        let cut = &text[..text.len() / 2];
        let e = World::from_snapshot(cut).unwrap_err();
        assert_eq!((e.line, e.col), (1, cut.len() + 1), "{e}");
        // Not a world at all.
        let e = World::from_snapshot("\n  (nonsense: 3)").unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        assert!(e.to_string().starts_with("2:"), "{e}");
    }
}
