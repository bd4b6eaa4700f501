//! Axis-aligned bounding boxes.

use crate::math::Vec2;
use serde::{Deserialize, Serialize};

/// Where a segment enters a box ([`Aabb::ray_cast`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AabbRayHit {
    /// Fraction of the segment at the entry, in `[0, 1]`.
    pub fraction: f32,
    /// The entry point.
    pub point: Vec2,
    /// Outward unit normal of the face entered.
    pub normal: Vec2,
}

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

    /// Where the segment from `p1` to `p2` enters the box: the fraction of
    /// the way along it (in `[0, 1]`), the point and the outward unit normal
    /// of the face crossed. `None` when it misses, falls short, or starts
    /// inside (a segment running along a face counts as entering it). The
    /// slab test, as Box2D's `b2AABB_RayCast`.
    pub fn ray_cast(&self, p1: Vec2, p2: Vec2) -> Option<AabbRayHit> {
        let d = p2 - p1;
        let (mut t_in, mut t_out) = (f32::NEG_INFINITY, f32::INFINITY);
        let mut normal = Vec2::ZERO;
        for axis in 0..2 {
            let (p, d, lo, hi) = (p1[axis], d[axis], self.min[axis], self.max[axis]);
            if d == 0.0 {
                // Parallel to this slab: inside it or a miss.
                if p < lo || p > hi {
                    return None;
                }
                continue;
            }
            let (mut t1, mut t2) = ((lo - p) / d, (hi - p) / d);
            let mut n = -1.0;
            if t1 > t2 {
                std::mem::swap(&mut t1, &mut t2);
                n = 1.0;
            }
            if t1 > t_in {
                t_in = t1;
                normal = Vec2::ZERO;
                normal[axis] = n;
            }
            t_out = t_out.min(t2);
            if t_in > t_out {
                return None;
            }
        }
        if !(0.0..=1.0).contains(&t_in) {
            return None;
        }
        Some(AabbRayHit {
            fraction: t_in,
            point: p1 + t_in * d,
            normal,
        })
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
