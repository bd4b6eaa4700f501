//! The support-map abstraction: the one thing GJK and EPA need to know about a shape.
//!
//! A convex shape is described as a *core* (a convex set given by its support
//! function) inflated by a *rounding radius*. Circles are a point core plus a radius,
//! capsules a segment core plus a radius; polygons and ellipses have radius 0.
//! GJK and EPA run on the cores and add the radii afterwards, which keeps rounded
//! shapes exact (no tessellation) and fast (tiny cores).
//!
//! Any type implementing [`SupportMap`] plugs into the generic GJK and EPA of
//! the geometry layer.

use crate::math::Vec2;

/// A convex set known through its support function, in its own local frame.
pub trait SupportMap {
    /// The point of the core farthest along `dir` (local frame). `dir` need not be
    /// unit length but must be non-zero and finite. Ties may be broken arbitrarily
    /// but deterministically.
    fn local_core_support(&self, dir: Vec2) -> Vec2;

    /// The rounding radius added around the core (m). Zero for sharp shapes.
    fn core_radius(&self) -> f32 {
        0.0
    }

    /// An upper bound on the distance from the local point `center` to any
    /// point of the core (m): how far a core point can swing when the shape
    /// turns about `center`. The default bounds the core by its bounding box,
    /// found with four support queries (at most √2 times too large); shapes
    /// that know better override it.
    fn core_extent(&self, center: Vec2) -> f32 {
        let hi = Vec2::new(
            self.local_core_support(Vec2::X).x,
            self.local_core_support(Vec2::Y).y,
        );
        let lo = Vec2::new(
            self.local_core_support(-Vec2::X).x,
            self.local_core_support(-Vec2::Y).y,
        );
        let far = Vec2::new(
            (hi.x - center.x).abs().max((lo.x - center.x).abs()),
            (hi.y - center.y).abs().max((lo.y - center.y).abs()),
        );
        far.length()
    }

    /// The support point of the full (rounded) shape along `dir`, in the local frame.
    fn local_support(&self, dir: Vec2) -> Vec2 {
        let r = self.core_radius();
        let p = self.local_core_support(dir);
        if r > 0.0 {
            p + dir.normalize_or_zero() * r
        } else {
            p
        }
    }
}

/// A single point (a zero-radius core). Used for point queries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointShape(pub Vec2);

impl SupportMap for PointShape {
    fn local_core_support(&self, _dir: Vec2) -> Vec2 {
        self.0
    }

    fn core_extent(&self, center: Vec2) -> f32 {
        self.0.distance(center)
    }
}
