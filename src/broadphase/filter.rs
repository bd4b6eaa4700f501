//! Which shapes may pair: the collision filter's rule, in the broadphase so
//! that refused pairs are dropped where the sweep finds them.

use serde::{Deserialize, Serialize};

/// A shape's collision filter as the broadphase keeps it, with Box2D's
/// semantics (the shape filter of the dynamics layer uses this rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairFilter {
    /// The categories the shape belongs to.
    pub category: u32,
    /// The categories it pairs with.
    pub mask: u32,
    /// Same non-zero group: always (positive) or never (negative) pairs.
    pub group: i32,
}

impl PairFilter {
    /// Pairs with everything (the default).
    pub const ALL: PairFilter = PairFilter {
        category: 1,
        mask: u32::MAX,
        group: 0,
    };
    /// Pairs with nothing (a sensor, which never makes a contact).
    pub const NONE: PairFilter = PairFilter {
        category: 0,
        mask: 0,
        group: 0,
    };

    /// Whether shapes with these filters may pair.
    #[inline]
    pub fn accepts(&self, other: &PairFilter) -> bool {
        if self.group == other.group && self.group != 0 {
            return self.group > 0;
        }
        (self.mask & other.category) != 0 && (self.category & other.mask) != 0
    }
}

impl Default for PairFilter {
    fn default() -> Self {
        PairFilter::ALL
    }
}
