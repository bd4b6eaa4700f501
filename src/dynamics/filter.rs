//! Collision filtering per shape, with Box2D's semantics: a category a shape
//! belongs to, a mask of the categories it collides with, and a group that
//! overrides both for shapes sharing it.
//!
//! Two shapes collide when they share a non-zero group index that is
//! positive (always), not when it is negative (never), and otherwise when
//! each one's category is in the other's mask (Box2D `b2ShouldShapesCollide`).
//! Shapes of one body never collide with each other, and the shapes of two
//! bodies joined by a joint only when the joint asks for it.

use crate::broadphase::PairFilter;
use serde::{Deserialize, Serialize};

/// Which shapes a shape collides with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Filter {
    /// The categories this shape belongs to (usually one bit). Default 1.
    pub category: u32,
    /// The categories this shape collides with. Default: all.
    pub mask: u32,
    /// Shapes with the same non-zero group always collide (positive) or
    /// never collide (negative), whatever their categories. Default 0.
    pub group: i32,
}

impl Default for Filter {
    fn default() -> Self {
        Filter {
            category: 1,
            mask: u32::MAX,
            group: 0,
        }
    }
}

impl Filter {
    /// Whether shapes with these filters collide.
    ///
    /// ```
    /// use minkowski::dynamics::Filter;
    /// let player = Filter { category: 0b01, mask: 0b10, group: 0 };
    /// let wall = Filter { category: 0b10, ..Filter::default() };
    /// assert!(player.collides_with(&wall));
    /// assert!(!player.collides_with(&player));
    /// let ragdoll = Filter { group: -1, ..Filter::default() };
    /// assert!(!ragdoll.collides_with(&ragdoll));
    /// ```
    #[inline]
    pub fn collides_with(&self, other: &Filter) -> bool {
        self.pair_filter().accepts(&other.pair_filter())
    }

    /// The filter as the broadphase keeps it (one rule for both).
    #[inline]
    pub fn pair_filter(&self) -> PairFilter {
        PairFilter {
            category: self.category,
            mask: self.mask,
            group: self.group,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box2d_semantics() {
        let d = Filter::default();
        assert!(d.collides_with(&d));
        // A positive group overrides masks that exclude each other.
        let a = Filter {
            category: 1,
            mask: 0,
            group: 3,
        };
        assert!(a.collides_with(&a));
        // A negative group overrides masks that include each other.
        let b = Filter {
            group: -3,
            ..Filter::default()
        };
        assert!(!b.collides_with(&b));
        // Different groups fall back to the masks.
        let c = Filter {
            group: -4,
            ..Filter::default()
        };
        assert!(b.collides_with(&c));
        // One-way masks do not collide.
        let e = Filter {
            category: 2,
            mask: 1,
            group: 0,
        };
        let f = Filter {
            category: 1,
            mask: 1,
            group: 0,
        };
        assert!(!e.collides_with(&f) && !f.collides_with(&e));
    }
}
