//! Which kernel answers each shape pair.

use super::fast;
use crate::geometry::epa::{self, Penetration};
use crate::geometry::gjk::{self, Closest};
use crate::math::Iso;
use crate::shape::Shape;

/// `true` when the shapes touch or overlap.
pub fn intersects(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) -> bool {
    fast::intersects(a, xa, b, xb).unwrap_or_else(|| gjk::intersects(a, xa, b, xb))
}

/// Distance and closest points, or `None` when the shapes touch or overlap.
pub fn distance(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) -> Option<Closest> {
    fast::distance(a, xa, b, xb).unwrap_or_else(|| gjk::distance(a, xa, b, xb))
}

/// Penetration depth and normal, or `None` when the shapes are apart.
pub fn penetration(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) -> Option<Penetration> {
    fast::penetration(a, xa, b, xb).unwrap_or_else(|| epa::penetration(a, xa, b, xb))
}
