//! Convex shapes, each a core plus a rounding radius.
//!
//! | shape    | core                              | radius |
//! |----------|-----------------------------------|--------|
//! | circle   | the point (0, 0)                  | r      |
//! | capsule  | the segment (0, -h)..(0, h)       | r      |
//! | polygon  | the polygon (boxes included)      | 0      |
//! | rounded polygon | a polygon                  | r > 0  |
//! | ellipse  | the ellipse, by its support only  | 0      |
//! | segment, chain segment | the segment `a`..`b`  | 0      |
//!
//! Segments and chain segments have no area (see `segment.rs`): they give no
//! mass, contain no point, and a chain segment collides on one side only.
//!
//! All geometry is in the body's local frame; [`Iso`] places it in the world.

mod decompose;
mod error;
mod mass;
mod polygon;
mod ray;
mod rounded;
mod segment;
mod support;

pub use decompose::{decompose, MAX_OUTLINE_VERTICES, MAX_PIECE_VERTICES};
pub use error::ShapeError;
pub use mass::MassProperties;
pub use polygon::Polygon;
pub use ray::RayHit;
pub use segment::{right_normal, MIN_SEGMENT_LENGTH};
pub use support::{PointShape, SupportMap};

use crate::math::Aabb;
use crate::math::{Iso, Vec2};
use serde::{Deserialize, Serialize};

/// Most vertices a polygon may have. Sixty-four covers every practical body and
/// keeps the linear-scan support function and the contact clipper cheap.
pub const MAX_POLYGON_VERTICES: usize = 64;

/// Largest absolute coordinate accepted in a polygon's local vertices (m).
/// f32 keeps about 0.1 mm of resolution out to here.
pub const MAX_COORDINATE: f32 = 1.0e4;

/// A convex collision shape in its local frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    /// A disc of the given radius centred on the origin.
    Circle {
        /// Radius (m).
        radius: f32,
    },
    /// The set of points within `radius` of the segment (0, -half_height)..(0, half_height).
    Capsule {
        /// Half the length of the core segment (m).
        half_height: f32,
        /// Rounding radius (m).
        radius: f32,
    },
    /// A strictly convex polygon (boxes included).
    Polygon(Polygon),
    /// The points within `radius` of a strictly convex polygon: the polygon
    /// grown by a disc (a Minkowski sum), with straight sides and round
    /// corners. Box2D's polygon radius (`b2MakePolygon(&hull, radius)`,
    /// `b2MakeRoundedBox`). A radius of 0 is a [`Shape::Polygon`].
    RoundedPolygon {
        /// The polygon core.
        core: Polygon,
        /// Rounding radius (m), > 0.
        radius: f32,
    },
    /// An axis-aligned ellipse centred on the origin with semi-axes `rx`, `ry`.
    Ellipse {
        /// Semi-axis along local x (m).
        rx: f32,
        /// Semi-axis along local y (m).
        ry: f32,
    },
    /// A two-sided line segment from `a` to `b` (local frame, m): no area,
    /// no mass. See [`Shape::segment`].
    Segment {
        /// First end (m).
        a: Vec2,
        /// Second end (m).
        b: Vec2,
    },
    /// One edge `a`→`b` of a chain (see [`Shape::chain`]): collides only
    /// with what lies on its right (its front, along [`right_normal`]);
    /// `ghost1` and `ghost2` are the chain's points before `a` and after
    /// `b`, which let bodies slide across `a` and `b` without snagging.
    /// Local frame, m; no area, no mass.
    ChainSegment {
        /// The chain point before `a` (m).
        ghost1: Vec2,
        /// Start of the edge (m).
        a: Vec2,
        /// End of the edge (m).
        b: Vec2,
        /// The chain point after `b` (m).
        ghost2: Vec2,
    },
}

fn check_dim(what: &'static str, value: f32) -> Result<f32, ShapeError> {
    if value.is_finite() && value > 0.0 && value <= MAX_COORDINATE {
        Ok(value)
    } else {
        Err(ShapeError::BadDimension { what, value })
    }
}

impl Shape {
    /// A circle of radius `r` (m). Use [`Shape::validate`] on untrusted input.
    pub fn circle(r: f32) -> Shape {
        Shape::Circle { radius: r }
    }

    /// A capsule whose core segment runs along local y from -`half_height` to
    /// `half_height`, rounded by `r`.
    pub fn capsule(half_height: f32, r: f32) -> Shape {
        Shape::Capsule {
            half_height,
            radius: r,
        }
    }

    /// A box with half extents `hx`, `hy` (m), centred on the origin. Use
    /// [`Shape::validate`] on untrusted input.
    pub fn rect(hx: f32, hy: f32) -> Shape {
        Shape::Polygon(Polygon::rect(hx, hy))
    }

    /// A box of half extents `hx`, `hy` (m) rounded by `r`: its core is
    /// [`Shape::rect`]`(hx, hy)`, so the outline measures `2(hx + r)` by
    /// `2(hy + r)`, as Box2D's `b2MakeRoundedBox`. Use [`Shape::validate`] on
    /// untrusted input (it checks `hx`, `hy` and `r`); `r = 0` gives the
    /// plain box.
    pub fn rounded_rect(hx: f32, hy: f32, r: f32) -> Shape {
        if r == 0.0 {
            Shape::rect(hx, hy)
        } else {
            Shape::RoundedPolygon {
                core: Polygon::rect(hx, hy),
                radius: r,
            }
        }
    }

    /// An ellipse with semi-axes `rx` (local x) and `ry` (local y).
    pub fn ellipse(rx: f32, ry: f32) -> Shape {
        Shape::Ellipse { rx, ry }
    }

    /// A convex polygon from its vertices in either winding (stored counter-clockwise).
    /// See [`Polygon::new`] for what is rejected.
    ///
    /// ```
    /// use minkowski::{Shape, ShapeError, Vec2};
    /// let tri = Shape::polygon(&[Vec2::ZERO, Vec2::X, Vec2::Y]).unwrap();
    /// let dart = Shape::polygon(&[
    ///     Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), Vec2::new(1.0, 0.5), Vec2::new(1.0, 2.0),
    /// ]);
    /// assert_eq!(dart, Err(ShapeError::ReflexVertex { index: 2 }));
    /// # let _ = tri;
    /// ```
    pub fn polygon(points: &[Vec2]) -> Result<Shape, ShapeError> {
        Polygon::new(points).map(Shape::Polygon)
    }

    /// A convex polygon from its vertices (see [`Polygon::new`]) grown by the
    /// radius `r` (m): every point within `r` of it. `r = 0` gives the plain
    /// polygon; a negative, non-finite or too large `r` (beyond
    /// [`MAX_COORDINATE`]) is a [`ShapeError::BadDimension`].
    ///
    /// ```
    /// use minkowski::{Shape, Vec2};
    /// let foot = [Vec2::new(-0.1, -0.05), Vec2::new(0.1, -0.05), Vec2::new(0.1, 0.05), Vec2::new(-0.1, 0.05)];
    /// let s = Shape::rounded_polygon(&foot, 0.015).unwrap();
    /// assert!(s.contains_point(&minkowski::Iso::IDENTITY, Vec2::new(0.11, 0.06)));
    /// assert!(Shape::rounded_polygon(&foot, -0.01).is_err());
    /// ```
    pub fn rounded_polygon(points: &[Vec2], r: f32) -> Result<Shape, ShapeError> {
        let core = Polygon::new(points)?;
        if r == 0.0 {
            return Ok(Shape::Polygon(core));
        }
        check_dim("radius", r)?;
        Ok(Shape::RoundedPolygon { core, radius: r })
    }

    /// The convex hull of a point cloud as a polygon. See [`Polygon::convex_hull`].
    pub fn convex_hull(points: &[Vec2]) -> Result<Shape, ShapeError> {
        Polygon::convex_hull(points).map(Shape::Polygon)
    }

    /// Checks that every dimension is finite, positive and not absurd
    /// (at most [`MAX_COORDINATE`]): sizes, radii, and a box's half extents
    /// ([`Shape::rect`] and [`Shape::rounded_rect`] take them on trust).
    /// Other polygons are validated when built.
    pub fn validate(&self) -> Result<(), ShapeError> {
        match *self {
            Shape::Circle { radius } => check_dim("radius", radius).map(|_| ()),
            Shape::Capsule {
                half_height,
                radius,
            } => {
                check_dim("half_height", half_height)?;
                check_dim("radius", radius).map(|_| ())
            }
            Shape::Ellipse { rx, ry } => {
                check_dim("rx", rx)?;
                check_dim("ry", ry).map(|_| ())
            }
            Shape::Polygon(ref p) => check_core(p),
            Shape::RoundedPolygon { ref core, radius } => {
                check_core(core)?;
                check_dim("radius", radius).map(|_| ())
            }
            Shape::Segment { a, b } => segment::check(a, b, &[]),
            Shape::ChainSegment {
                ghost1,
                a,
                b,
                ghost2,
            } => segment::check(a, b, &[ghost1, ghost2]),
        }
    }

    /// A short lowercase name of the shape kind ("circle", "capsule", "polygon",
    /// "rounded polygon", "ellipse", "segment", "chain segment").
    pub fn kind_name(&self) -> &'static str {
        match self {
            Shape::Circle { .. } => "circle",
            Shape::Capsule { .. } => "capsule",
            Shape::Polygon(_) => "polygon",
            Shape::RoundedPolygon { .. } => "rounded polygon",
            Shape::Ellipse { .. } => "ellipse",
            Shape::Segment { .. } => "segment",
            Shape::ChainSegment { .. } => "chain segment",
        }
    }

    /// The tight axis-aligned bounding box of the shape placed at `xf`.
    pub fn aabb(&self, xf: &Iso) -> Aabb {
        match self {
            Shape::Circle { radius } => {
                let r = Vec2::splat(*radius);
                Aabb::new(xf.translation - r, xf.translation + r)
            }
            Shape::Capsule {
                half_height,
                radius,
            } => {
                let a = xf.apply(Vec2::new(0.0, -half_height));
                let b = xf.apply(Vec2::new(0.0, *half_height));
                let r = Vec2::splat(*radius);
                Aabb::new(a.min(b) - r, a.max(b) + r)
            }
            Shape::Polygon(p) => polygon_aabb(p, xf),
            Shape::RoundedPolygon { core, radius } => {
                let bb = polygon_aabb(core, xf);
                let r = Vec2::splat(*radius);
                Aabb::new(bb.min - r, bb.max + r)
            }
            Shape::Ellipse { rx, ry } => {
                // The support along world x of an ellipse rotated by θ is
                // sqrt(rx² cos²θ + ry² sin²θ); likewise for y. Exact.
                let (c, s) = (xf.rot.cos, xf.rot.sin);
                let ex = (rx * rx * c * c + ry * ry * s * s).sqrt();
                let ey = (rx * rx * s * s + ry * ry * c * c).sqrt();
                let e = Vec2::new(ex, ey);
                Aabb::new(xf.translation - e, xf.translation + e)
            }
            Shape::Segment { a, b } | Shape::ChainSegment { a, b, .. } => {
                let (a, b) = (xf.apply(*a), xf.apply(*b));
                Aabb::new(a.min(b), a.max(b))
            }
        }
    }

    /// Mass, centroid (local frame) and rotational inertia about the centroid for
    /// a uniform `density` (kg/m²).
    pub fn mass_properties(&self, density: f32) -> MassProperties {
        mass::compute(self, density)
    }

    /// Half the thickness of the shape's thinnest direction (m): what a
    /// step may move it without it skipping through a thin wall (0 for a
    /// segment, which has no thickness).
    pub fn thinnest(&self) -> f32 {
        let polygon = |p: &Polygon| {
            let v = p.vertices();
            let c = v.iter().copied().sum::<Vec2>() / v.len().max(1) as f32;
            p.normals()
                .iter()
                .zip(v)
                .map(|(n, a)| n.dot(*a - c))
                .fold(f32::INFINITY, f32::min)
                .max(0.0)
        };
        match self {
            Shape::Circle { radius } | Shape::Capsule { radius, .. } => *radius,
            Shape::Polygon(p) => polygon(p),
            Shape::RoundedPolygon { core, radius } => polygon(core) + radius,
            Shape::Ellipse { rx, ry } => rx.min(*ry),
            Shape::Segment { .. } | Shape::ChainSegment { .. } => 0.0,
        }
    }

    /// Radius of the smallest origin-centred disc containing the shape (m).
    pub fn bounding_radius(&self) -> f32 {
        match self {
            Shape::Circle { radius } => *radius,
            Shape::Capsule {
                half_height,
                radius,
            } => half_height + radius,
            Shape::Polygon(p) => p.bounding_radius(),
            Shape::RoundedPolygon { core, radius } => core.bounding_radius() + radius,
            Shape::Ellipse { rx, ry } => rx.max(*ry),
            Shape::Segment { a, b } | Shape::ChainSegment { a, b, .. } => {
                a.length().max(b.length())
            }
        }
    }

    /// `true` when the world point `p` lies inside (or on) the shape placed at `xf`.
    pub fn contains_point(&self, xf: &Iso, p: Vec2) -> bool {
        let local = xf.apply_inv(p);
        match self {
            Shape::Circle { radius } => local.length_squared() <= radius * radius,
            Shape::Capsule {
                half_height,
                radius,
            } => {
                let y = local.y.clamp(-half_height, *half_height);
                local.distance_squared(Vec2::new(0.0, y)) <= radius * radius
            }
            Shape::Polygon(poly) => poly
                .vertices()
                .iter()
                .zip(poly.normals())
                .all(|(v, n)| n.dot(local - *v) <= 0.0),
            Shape::RoundedPolygon { core, radius } => rounded::contains(core, *radius, local),
            Shape::Ellipse { rx, ry } => {
                let q = Vec2::new(local.x / rx, local.y / ry);
                q.length_squared() <= 1.0
            }
            // No area: a point can lie on a segment but never inside it.
            Shape::Segment { .. } | Shape::ChainSegment { .. } => false,
        }
    }
}

/// A box ([`Shape::rect`], [`Shape::rounded_rect`]) takes its half extents
/// on trust: they must be finite, > 0 and at most [`MAX_COORDINATE`]. (Both
/// negative is the same box, listed from another corner, as
/// [`Polygon::new`] may store a valid box.) Other polygons are valid when
/// built.
fn check_core(p: &Polygon) -> Result<(), ShapeError> {
    match p.box_half_extents() {
        Some(h) if !(h.x < 0.0 && h.y < 0.0) => {
            check_dim("hx", h.x)?;
            check_dim("hy", h.y).map(|_| ())
        }
        _ => Ok(()),
    }
}

/// The tight bounds of a polygon's vertices placed at `xf`.
fn polygon_aabb(p: &Polygon, xf: &Iso) -> Aabb {
    let first = xf.apply(p.vertices()[0]);
    let (lo, hi) = p.vertices()[1..]
        .iter()
        .fold((first, first), |(lo, hi), v| {
            let w = xf.apply(*v);
            (lo.min(w), hi.max(w))
        });
    Aabb::new(lo, hi)
}

/// Support point of the ellipse x²/rx² + y²/ry² = 1 along `d`: the boundary point
/// whose outward normal is parallel to `d`. With the normal at (x, y) proportional
/// to (x/rx², y/ry²), that point is (rx² dx, ry² dy) / sqrt(rx² dx² + ry² dy²).
#[inline]
pub fn ellipse_support(rx: f32, ry: f32, d: Vec2) -> Vec2 {
    let a = Vec2::new(rx * rx * d.x, ry * ry * d.y);
    let k = (rx * rx * d.x * d.x + ry * ry * d.y * d.y).sqrt();
    if k > 0.0 {
        a / k
    } else {
        Vec2::new(rx, 0.0)
    }
}

impl SupportMap for Shape {
    #[inline]
    fn local_core_support(&self, d: Vec2) -> Vec2 {
        match self {
            Shape::Circle { .. } => Vec2::ZERO,
            Shape::Capsule { half_height, .. } => {
                // Ties (d ⟂ segment) pick the lower end, deterministically.
                Vec2::new(
                    0.0,
                    if d.y > 0.0 {
                        *half_height
                    } else {
                        -half_height
                    },
                )
            }
            Shape::Polygon(p) | Shape::RoundedPolygon { core: p, .. } => {
                p.vertices()[p.support_index(d)]
            }
            Shape::Ellipse { rx, ry } => ellipse_support(*rx, *ry, d),
            // Ties (d ⟂ segment) pick `a`, deterministically.
            Shape::Segment { a, b } | Shape::ChainSegment { a, b, .. } => {
                if d.dot(*b - *a) > 0.0 {
                    *b
                } else {
                    *a
                }
            }
        }
    }

    #[inline]
    fn core_radius(&self) -> f32 {
        match self {
            Shape::Circle { radius }
            | Shape::Capsule { radius, .. }
            | Shape::RoundedPolygon { radius, .. } => *radius,
            Shape::Polygon(_)
            | Shape::Ellipse { .. }
            | Shape::Segment { .. }
            | Shape::ChainSegment { .. } => 0.0,
        }
    }

    fn core_extent(&self, center: Vec2) -> f32 {
        match self {
            Shape::Circle { .. } => center.length(),
            Shape::Capsule { half_height, .. } => {
                let h = Vec2::new(0.0, *half_height);
                center.distance(h).max(center.distance(-h))
            }
            Shape::Polygon(p) | Shape::RoundedPolygon { core: p, .. } => p
                .vertices()
                .iter()
                .fold(0.0f32, |m, v| m.max(v.distance(center))),
            // Every point of the ellipse is within max(rx, ry) of its centre.
            Shape::Ellipse { rx, ry } => center.length() + rx.max(*ry),
            Shape::Segment { a, b } | Shape::ChainSegment { a, b, .. } => {
                center.distance(*a).max(center.distance(*b))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Half the thinnest thickness, against its analytic value: a box's
    /// smaller half extent, a regular hexagon's apothem, a triangle's
    /// inradius measured from its centroid (a third of its height), the
    /// rounding radius added, and the curved shapes' smaller radius.
    #[test]
    fn thinnest_matches_analytic_half_thicknesses() {
        let close = |a: f32, b: f32| (a - b).abs() <= 1e-6 * b.max(1.0);
        assert!(close(Shape::rect(0.4, 0.1).thinnest(), 0.1));
        let hexagon: Vec<Vec2> = (0..6)
            .map(|k| {
                let a = k as f32 * std::f32::consts::TAU / 6.0;
                Vec2::new(libm::cosf(a), libm::sinf(a)) * 0.5
            })
            .collect();
        let apothem = 0.5 * libm::cosf(std::f32::consts::PI / 6.0);
        assert!(close(Shape::polygon(&hexagon).unwrap().thinnest(), apothem));
        // Base 0.6, height 0.3 on y = 0: the centroid is 0.1 above the base.
        let triangle = [
            Vec2::new(-0.3, 0.0),
            Vec2::new(0.3, 0.0),
            Vec2::new(0.0, 0.3),
        ];
        assert!(close(Shape::polygon(&triangle).unwrap().thinnest(), 0.1));
        let rounded = Shape::RoundedPolygon {
            core: Polygon::rect(0.4, 0.1),
            radius: 0.05,
        };
        assert!(close(rounded.thinnest(), 0.15));
        assert!(close(Shape::circle(0.3).thinnest(), 0.3));
        assert!(close(Shape::capsule(1.0, 0.2).thinnest(), 0.2));
        assert!(close(Shape::ellipse(0.5, 0.2).thinnest(), 0.2));
        let segment = Shape::Segment {
            a: Vec2::ZERO,
            b: Vec2::X,
        };
        assert_eq!(segment.thinnest(), 0.0);
    }

    #[test]
    fn ellipse_support_normal_is_parallel_to_direction() {
        let (rx, ry) = (2.0f32, 0.5f32);
        for k in 0..64 {
            let a = k as f32 / 64.0 * std::f32::consts::TAU;
            let d = Vec2::new(a.cos(), a.sin());
            let p = ellipse_support(rx, ry, d);
            // On the boundary...
            assert!(((p.x / rx).powi(2) + (p.y / ry).powi(2) - 1.0).abs() < 1e-5);
            // ...with the gradient (x/rx², y/ry²) parallel to d.
            let n = Vec2::new(p.x / (rx * rx), p.y / (ry * ry)).normalize();
            assert!(n.perp_dot(d).abs() < 1e-5 && n.dot(d) > 0.0);
        }
    }

    #[test]
    fn ellipse_aabb_is_exact() {
        let s = Shape::ellipse(2.0, 0.5);
        for k in 0..16 {
            let xf = Iso::new(Vec2::new(1.0, -3.0), k as f32 * 0.4);
            let bb = s.aabb(&xf);
            // Compare with the support along ±x, ±y.
            for (axis, hi) in [(Vec2::X, bb.max.x), (Vec2::Y, bb.max.y)] {
                let local = xf.rot.apply_inv(axis);
                let p = xf.apply(s.local_support(local));
                assert!((p.dot(axis) - hi).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn aabb_contains_support_points() {
        let shapes = [
            Shape::circle(0.5),
            Shape::capsule(1.0, 0.25),
            Shape::rect(1.0, 0.3),
            Shape::ellipse(0.7, 1.3),
        ];
        let xf = Iso::new(Vec2::new(-2.0, 5.0), 0.9);
        for s in &shapes {
            let bb = s.aabb(&xf);
            for k in 0..32 {
                let a = k as f32 / 32.0 * std::f32::consts::TAU;
                let d = Vec2::new(a.cos(), a.sin());
                let p = xf.apply(s.local_support(xf.rot.apply_inv(d)));
                assert!(bb.expanded(1e-5).contains_point(p), "{s:?} {p}");
            }
        }
    }

    #[test]
    fn validate_rejects_bad_dimensions() {
        assert!(Shape::circle(0.0).validate().is_err());
        assert!(Shape::circle(f32::NAN).validate().is_err());
        assert!(Shape::capsule(1.0, -1.0).validate().is_err());
        assert!(Shape::ellipse(1.0, f32::INFINITY).validate().is_err());
        assert!(Shape::ellipse(1.0, 2.0).validate().is_ok());
        // Boxes, rounded or not, name the bad half extent.
        let hx = |v: f32| ShapeError::BadDimension {
            what: "hx",
            value: v,
        };
        assert_eq!(Shape::rect(-1.0, 1.0).validate(), Err(hx(-1.0)));
        assert_eq!(Shape::rect(0.0, 1.0).validate(), Err(hx(0.0)));
        assert!(Shape::rect(1.0, f32::NAN).validate().is_err());
        assert!(Shape::rounded_rect(2.0e4, 1.0, 0.1).validate().is_err());
        assert!(Shape::rounded_rect(1.0, -1.0, 0.1).validate().is_err());
        assert!(Shape::rounded_rect(1.0, 1.0, -0.1).validate().is_err());
        assert!(Shape::rounded_rect(1e-6, 1e4, 1e4).validate().is_ok());
        // Built polygons are valid, boxes listed from any corner included.
        let tri = Shape::polygon(&[Vec2::ZERO, Vec2::X, Vec2::Y]).unwrap();
        assert!(tri.validate().is_ok());
        let corners = [(1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0)];
        let pts: Vec<Vec2> = corners.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
        assert!(Shape::polygon(&pts).unwrap().validate().is_ok());
    }

    #[test]
    fn point_containment() {
        let xf = Iso::new(Vec2::new(1.0, 1.0), 0.5);
        let cap = Shape::capsule(1.0, 0.2);
        assert!(cap.contains_point(&xf, xf.apply(Vec2::new(0.1, 1.1))));
        assert!(!cap.contains_point(&xf, xf.apply(Vec2::new(0.3, 0.0))));
        let bx = Shape::rect(1.0, 0.5);
        assert!(bx.contains_point(&xf, xf.apply(Vec2::new(0.9, 0.4))));
        assert!(!bx.contains_point(&xf, xf.apply(Vec2::new(0.9, 0.6))));
    }
}
