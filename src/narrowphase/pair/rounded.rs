//! Rounded polygon kernels: the polygon kernels run on the cores, and the
//! radii are added afterwards (Box2D works on its rounded polygons the same
//! way). Growing both shapes by discs of radii `ra`, `rb` grows their
//! Minkowski difference by a disc of `ra + rb`, so
//!
//! * the shapes meet exactly when the cores are at most `ra + rb` apart;
//! * apart, the distance is the cores' minus `ra + rb`, along the cores'
//!   normal, each closest point moved out by its radius;
//! * overlapping, the depth is the cores' overlap plus `ra + rb` along the
//!   same normal: the cores' distance subtracted from the radii while the
//!   cores are apart, their separating-axis depth once they overlap.
//!
//! A plain polygon is a core of radius 0, so the same kernels answer a
//! rounded polygon against a polygon, in either order.

use super::{polygon, polygon_manifold, rounded_closest};
use crate::geometry::epa::{CoreContact, Penetration};
use crate::geometry::gjk::Closest;
use crate::math::Iso;
use crate::shape::{Polygon, Shape};

/// A polygon-cored shape's core and radius: a polygon is its own core with
/// radius 0; `None` for the other shapes.
pub(crate) fn polygon_core(s: &Shape) -> Option<(&Polygon, f32)> {
    match s {
        Shape::Polygon(p) => Some((p, 0.0)),
        Shape::RoundedPolygon { core, radius } => Some((core, *radius)),
        _ => None,
    }
}

/// Largest ratio of a pair's reach (the larger core and the farther pose
/// from the origin) to the smaller core's size that the exact kernels take.
const MAX_SCALE_RATIO: f32 = 1.0e4;

/// The exact distance of two polygon cores (world frame), by the small-pair
/// separating-axis kernel for `small` pairs and by the O(n + m) walk up to
/// [`polygon::WALK_MAX`] vertices: `Some(None)` when the cores touch or
/// overlap, `None` for larger polygons (GJK then answers).
fn core_distance(
    a: &Polygon,
    xa: &Iso,
    b: &Polygon,
    xb: &Iso,
    small: bool,
) -> Option<Option<Closest>> {
    // A core far smaller than the other, or far from the origin compared
    // with its size, sits below f32's resolution of the other's edges: a
    // separating axis found there can be rounding (a 2 mm core 200 m inside
    // a 700 m polygon was once called touching). GJK/EPA answers those.
    let (ra, rb) = (a.bounding_radius(), b.bounding_radius());
    let reach = ra.max(rb) + xa.translation.length().max(xb.translation.length());
    if reach > MAX_SCALE_RATIO * ra.min(rb) {
        return None;
    }
    if small {
        Some(polygon::polygons_distance_sat(a, xa, b, xb))
    } else if a.vertices().len() <= polygon::WALK_MAX && b.vertices().len() <= polygon::WALK_MAX {
        Some(polygon::polygons_distance_walk(a, xa, b, xb))
    } else {
        None
    }
}

/// Whether the rounded polygons (cores `a`, `b`, radii `ra`, `rb`) touch or
/// overlap; `None` for cores too large for the exact kernels.
pub(crate) fn meet(
    (a, ra): (&Polygon, f32),
    xa: &Iso,
    (b, rb): (&Polygon, f32),
    xb: &Iso,
    small: bool,
) -> Option<bool> {
    core_distance(a, xa, b, xb, small).map(|c| c.is_none_or(|c| c.distance <= ra + rb))
}

/// Distance and closest points of the rounded polygons; `Some(None)` when
/// they touch or overlap, `None` for cores too large for the exact kernels.
pub(crate) fn distance(
    (a, ra): (&Polygon, f32),
    xa: &Iso,
    (b, rb): (&Polygon, f32),
    xb: &Iso,
    small: bool,
) -> Option<Option<Closest>> {
    core_distance(a, xa, b, xb, small).map(|c| {
        c.and_then(|c| rounded_closest(c.distance, ra, c.point_a, c.normal, c.point_b, rb))
    })
}

/// Penetration of the rounded polygons: `Some(None)` when they are apart,
/// `None` for cores too large for the exact kernels or when the kernels
/// disagree at touching (the cores' distance says they touch, the
/// separating-axis test that they are apart): EPA then answers.
pub(crate) fn penetration(
    (a, ra): (&Polygon, f32),
    xa: &Iso,
    (b, rb): (&Polygon, f32),
    xb: &Iso,
    small: bool,
) -> Option<Option<Penetration>> {
    let r = ra + rb;
    match core_distance(a, xa, b, xb, small)? {
        Some(c) if c.distance > r => Some(None),
        Some(c) => Some(Some(Penetration {
            depth: r - c.distance,
            normal: c.normal,
            point_a: c.point_a + ra * c.normal,
            point_b: c.point_b - rb * c.normal,
        })),
        None => match polygon_manifold::polygon_overlap(a, xa, b, xb)? {
            CoreContact::Penetrating {
                depth,
                normal,
                point_a,
                point_b,
            } => Some(Some(Penetration {
                depth: depth + r,
                normal: xa.rot.apply(normal),
                point_a: xa.apply(point_a + ra * normal),
                point_b: xa.apply(point_b - rb * normal),
            })),
            CoreContact::Separated { .. } => None,
        },
    }
}
