//! Axis-aligned bounding boxes.

use crate::math::Vec2;
use serde::{Deserialize, Serialize};

/// An axis-aligned box `[min, max]` in world space (m). Boxes that merely touch
/// count as overlapping: [`Aabb::overlaps`] uses closed intervals.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Aabb {
    /// Lower corner.
    pub min: Vec2,
    /// Upper corner.
    pub max: Vec2,
}

impl Aabb {
    /// A box from its corners.
    #[inline]
    pub fn new(min: Vec2, max: Vec2) -> Aabb {
        Aabb { min, max }
    }

    /// A box from its centre and half extents.
    #[inline]
    pub fn from_center(center: Vec2, half: Vec2) -> Aabb {
        Aabb::new(center - half, center + half)
    }

    /// Closed-interval overlap test: touching boxes overlap.
    #[inline]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
    }

    /// `true` when `other` lies inside `self` (boundaries included).
    #[inline]
    pub fn contains(&self, other: &Aabb) -> bool {
        self.min.x <= other.min.x
            && self.min.y <= other.min.y
            && other.max.x <= self.max.x
            && other.max.y <= self.max.y
    }

    /// `true` when the point lies inside (or on) the box.
    #[inline]
    pub fn contains_point(&self, p: Vec2) -> bool {
        self.min.x <= p.x && p.x <= self.max.x && self.min.y <= p.y && p.y <= self.max.y
    }

    /// The box grown by `margin` on every side.
    #[inline]
    pub fn expanded(&self, margin: f32) -> Aabb {
        Aabb::new(
            self.min - Vec2::splat(margin),
            self.max + Vec2::splat(margin),
        )
    }

    /// The smallest box containing both.
    #[inline]
    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb::new(self.min.min(other.min), self.max.max(other.max))
    }

    /// Centre point.
    #[inline]
    pub fn center(&self) -> Vec2 {
        0.5 * (self.min + self.max)
    }

    /// Half extents.
    #[inline]
    pub fn half_extents(&self) -> Vec2 {
        0.5 * (self.max - self.min)
    }

    /// `true` when all coordinates are finite and `min <= max`.
    #[inline]
    pub fn is_valid(&self) -> bool {
        self.min.is_finite()
            && self.max.is_finite()
            && self.min.x <= self.max.x
            && self.min.y <= self.max.y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn touching_boxes_overlap() {
        let a = Aabb::new(Vec2::ZERO, Vec2::ONE);
        let b = Aabb::new(Vec2::new(1.0, 0.0), Vec2::new(2.0, 1.0));
        assert!(a.overlaps(&b) && b.overlaps(&a));
        let c = Aabb::new(Vec2::new(1.0001, 0.0), Vec2::new(2.0, 1.0));
        assert!(!a.overlaps(&c));
    }
}
