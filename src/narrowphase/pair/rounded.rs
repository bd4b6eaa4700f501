//! Rounded polygon kernels: the polygon kernels run on the cores, and the
//! radii are added afterwards (Box2D works on its rounded polygons the same
//! way). Growing both shapes by discs of radii `ra`, `rb` grows their
//! Minkowski difference by a disc of `ra + rb`, so
//!
//! * the shapes meet exactly when the cores are at most `ra + rb` apart;
//! * apart, the distance is the cores' minus `ra + rb`, along the cores'
//!   normal, each closest point moved out by its radius;
//! * overlapping, the depth is the cores' overlap plus `ra + rb` along the
//!   same normal (their separating-axis depth once the cores overlap; while
//!   they are apart, `ra + rb` minus their distance, which GJK answers).
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

/// Penetration of rounded polygons whose cores overlap: the cores'
/// separating-axis depth plus the radii, along the same edge normal;
/// `None` when the cores are apart, which EPA answers from GJK's core
/// distance.
///
/// (The core distance kernels would answer those too, but their normal
/// between two nearly parallel faces can be the other face's, or the
/// direction between two points a rounding error off: exact for the
/// distance, it tilts the depth's axis, and across a face a few metres long
/// a tilt of 1e-5 rad is a depth short by 5e-5 m; the adversarial
/// "near-parallel" pairs found such cases. GJK's normal there is the face's.)
pub(crate) fn penetration(
    (a, ra): (&Polygon, f32),
    xa: &Iso,
    (b, rb): (&Polygon, f32),
    xb: &Iso,
) -> Option<Option<Penetration>> {
    match polygon_manifold::polygon_overlap(a, xa, b, xb)? {
        CoreContact::Penetrating {
            depth,
            normal,
            point_a,
            point_b,
        } => Some(Some(Penetration {
            depth: depth + ra + rb,
            normal: xa.rot.apply(normal),
            point_a: xa.apply(point_a + ra * normal),
            point_b: xa.apply(point_b - rb * normal),
        })),
        CoreContact::Separated { .. } => None,
    }
}
