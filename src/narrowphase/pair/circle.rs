//! Circle kernels: circle/circle in closed form, and a circle against a
//! polygon (rounded or not) or a capsule by projecting its centre onto the
//! other core.

use super::rounded_closest;
use crate::geometry::epa::Penetration;
use crate::geometry::gjk::Closest;
use crate::math::{Iso, Vec2};
use crate::shape::Polygon;

/// Distance from the point `p` (the polygon's frame) to the polygon, the closest
/// point on it and the unit normal from it toward `p`; `None` when `p` is inside
/// or on the boundary.
///
/// The edge of largest separation `nᵢ·(p − vᵢ)` is the one the closest feature
/// lies on: either its interior (the separation is then the distance) or one of
/// its ends (found by the Voronoi test along the edge). For a point in the
/// region of vertex `vₖ` the largest separation belongs to an edge adjacent to
/// `vₖ`, since the other normals are turned farther from `p − vₖ` and their
/// edges lie strictly behind `vₖ`.
fn circle_polygon_core(poly: &Polygon, p: Vec2) -> Option<(f32, Vec2, Vec2)> {
    let (vs, ns) = (poly.vertices(), poly.normals());
    let mut best = f32::NEG_INFINITY;
    let mut bi = 0;
    for (i, (v, n)) in vs.iter().zip(ns).enumerate() {
        let s = n.dot(p - *v);
        if s > best {
            best = s;
            bi = i;
        }
    }
    if best.is_nan() || best <= 0.0 {
        return None;
    }
    let v1 = vs[bi];
    let v2 = vs[if bi + 1 == vs.len() { 0 } else { bi + 1 }];
    let e = v2 - v1;
    let vertex = if (p - v1).dot(e) <= 0.0 {
        Some(v1)
    } else if (p - v2).dot(e) >= 0.0 {
        Some(v2)
    } else {
        None
    };
    match vertex {
        Some(q) => {
            let diff = p - q;
            let len = diff.length();
            (len > 0.0).then(|| (len, q, diff / len))
        }
        None => {
            let n = ns[bi];
            Some((best, p - best * n, n))
        }
    }
}

/// Distance from the point `p` (the capsule's frame) to the core segment
/// (0, −h)..(0, h), the closest point on it and the unit normal toward `p`
/// (zero when `p` is on the segment, which the caller's `None` rule catches).
fn point_segment(h: f32, p: Vec2) -> (f32, Vec2, Vec2) {
    if p.y > -h && p.y < h {
        // Beside the segment: the normal is exactly ±x.
        let n = Vec2::new(if p.x >= 0.0 { 1.0 } else { -1.0 }, 0.0);
        return (p.x.abs(), Vec2::new(0.0, p.y), n);
    }
    let q = Vec2::new(0.0, p.y.clamp(-h, h));
    let diff = p - q;
    let len = diff.length();
    let n = if len > 0.0 { diff / len } else { Vec2::ZERO };
    (len, q, n)
}

/// Circle/circle overlap test in closed form.
pub(crate) fn circles_intersect(ra: f32, xa: &Iso, rb: f32, xb: &Iso) -> bool {
    let r = ra + rb;
    (xb.translation - xa.translation).length_squared() <= r * r
}

/// Circle/circle distance in closed form; `None` when they touch or overlap.
pub(crate) fn circles_distance(ra: f32, xa: &Iso, rb: f32, xb: &Iso) -> Option<Closest> {
    let diff = xb.translation - xa.translation;
    let len = diff.length();
    let distance = len - ra - rb;
    if !(len > 0.0 && distance > 0.0 && distance.is_finite()) {
        return None;
    }
    let normal = diff / len;
    Some(Closest {
        distance,
        point_a: xa.translation + ra * normal,
        point_b: xb.translation - rb * normal,
        normal,
    })
}

/// Circle/circle penetration in closed form: `Some(None)` when apart, `None`
/// for concentric circles, whose normal is arbitrary (the generic path
/// chooses it).
pub(crate) fn circles_penetration(
    ra: f32,
    xa: &Iso,
    rb: f32,
    xb: &Iso,
) -> Option<Option<Penetration>> {
    let diff = xb.translation - xa.translation;
    let len = diff.length();
    if !(len > 0.0 && len.is_finite()) {
        return None;
    }
    let depth = ra + rb - len;
    if depth < 0.0 {
        return Some(None);
    }
    let normal = diff / len;
    Some(Some(Penetration {
        depth,
        normal,
        point_a: xa.translation + ra * normal,
        point_b: xb.translation - rb * normal,
    }))
}

/// `true` when the circle (radius `radius` at `xc`) touches the polygon; a
/// rounded polygon passes its core and the sum of the radii.
pub(crate) fn circle_meets_polygon(radius: f32, xc: &Iso, p: &Polygon, xp: &Iso) -> bool {
    circle_polygon_core(p, xp.apply_inv(xc.translation)).is_none_or(|c| c.0 <= radius)
}

/// Circle (A) to polygon (B, its core `p` rounded by `rp`, 0 for a plain
/// polygon) distance; `None` when they touch.
pub(crate) fn circle_polygon_distance(
    radius: f32,
    xa: &Iso,
    p: &Polygon,
    rp: f32,
    xb: &Iso,
) -> Option<Closest> {
    // Core answer in B's frame, normal from the polygon toward the centre.
    circle_polygon_core(p, xb.apply_inv(xa.translation)).and_then(|(core, q, n)| {
        rounded_closest(
            core,
            radius,
            xa.translation,
            -xb.rot.apply(n),
            xb.apply(q),
            rp,
        )
    })
}

/// Polygon (A, its core `p` rounded by `rp`, 0 for a plain polygon) to
/// circle (B) distance; `None` when they touch.
pub(crate) fn polygon_circle_distance(
    p: &Polygon,
    rp: f32,
    xa: &Iso,
    radius: f32,
    xb: &Iso,
) -> Option<Closest> {
    circle_polygon_core(p, xa.apply_inv(xb.translation)).and_then(|(core, q, n)| {
        rounded_closest(
            core,
            rp,
            xa.apply(q),
            xa.rot.apply(n),
            xb.translation,
            radius,
        )
    })
}

/// Circle (A) to capsule (B) distance; `None` when they touch.
pub(crate) fn circle_capsule_distance(
    radius: f32,
    xa: &Iso,
    half_height: f32,
    rc: f32,
    xb: &Iso,
) -> Option<Closest> {
    let (core, q, n) = point_segment(half_height, xb.apply_inv(xa.translation));
    rounded_closest(
        core,
        radius,
        xa.translation,
        -xb.rot.apply(n),
        xb.apply(q),
        rc,
    )
}

/// Capsule (A) to circle (B) distance; `None` when they touch.
pub(crate) fn capsule_circle_distance(
    half_height: f32,
    rc: f32,
    xa: &Iso,
    radius: f32,
    xb: &Iso,
) -> Option<Closest> {
    let (core, q, n) = point_segment(half_height, xa.apply_inv(xb.translation));
    rounded_closest(
        core,
        rc,
        xa.apply(q),
        xa.rot.apply(n),
        xb.translation,
        radius,
    )
}
