//! Exact distance and intersection test between an ellipse and a point, segment
//! or polygon core (circles, capsules, polygons, rounded polygons), without GJK, and the exact
//! ellipse/polygon penetration without EPA ([`penetration::core_penetration`]: SAT on the
//! polygon's normals plus, per vertex, the roots of Eberly's normal-foot equation
//! on the other side of its pole; 5× faster than EPA on the bench's pool, and
//! exact where EPA stops early on the curved side).
//!
//! GJK converges only linearly against a smooth shape (every support point of an
//! ellipse is new, so the simplex creeps toward the closest point): reaching its
//! 1e-6 relative gap on the bench's ellipse/octagon pool takes 7.5 iterations on
//! average and up to 13. This module answers those pairs directly, in the
//! ellipse's frame (x²/rx² + y²/ry² = 1 at the origin, the other core placed by
//! `xf`):
//!
//! * **Edge candidates.** For a polygon edge with outward normal `n` the ellipse
//!   point nearest the edge's line is its support point along `−n` (closed form),
//!   and `s = n·(e − v)` is the separation along `n`: a lower bound on the
//!   distance. If that point projects onto the edge, the pair (point, its
//!   projection) is `s` apart, so `s` *is* the distance: exact, no iteration.
//! * **Vertex candidates.** The nearest ellipse point to a vertex solves one
//!   monotone equation in one unknown (D. Eberly, "Distance from a Point to an
//!   Ellipse", 2013), done here by Newton's method on a reformulation that is
//!   concave, so the iterates approach the root from below and converge
//!   quadratically (exact in one step for a circle). That pair's distance is an
//!   upper bound; the separation along its normal is a lower bound, and the two
//!   agree (to rounding) exactly when the vertex's normal cone holds the normal,
//!   i.e. when the pair is the true minimum.
//! * **The walk.** It starts on the edge of largest separation and moves along the
//!   polygon boundary, downhill in the distance to the ellipse: from an edge whose
//!   witness projects beyond an end to that end, from a vertex along the edge the
//!   pair's normal points down. Every step records its bounds; the answer is
//!   accepted when an edge certifies itself, or when the best pair found is within
//!   [`REL_TOLERANCE`] (plus rounding) of the best lower bound. Anything else (a
//!   vertex revisited, overlap without a vertex inside the ellipse, rounding at
//!   tiny distances, no certificate) returns `None`, and the caller runs the
//!   generic GJK.
//!
//! A vertex on or inside the ellipse proves contact (`Some(None)`).
//!
//! The intersection test needs no walk: after scaling by `1/rx`, `1/ry` the
//! ellipse is the unit disc, and a polygon meets it exactly when an edge meets the
//! disc or the ellipse's centre lies inside the polygon.

mod penetration;

pub(crate) use penetration::penetration;

use super::rounded_closest;
use crate::geometry::gjk::Closest;
use crate::math::{Iso, Vec2};
use crate::shape::Shape;

/// A vertex pair is accepted when its distance `d` (an upper bound) exceeds the
/// best lower bound by at most `REL_TOLERANCE · d + ROUNDING · scale`: GJK's own
/// stopping test (a 1e-6 relative gap), plus the rounding of the two bounds,
/// which are computed from coordinates of size `scale` (the distance, the core's
/// offset from the ellipse's centre, the vertex's offset in its own frame and the
/// larger semi-axis). Over the random tests below that rounding stays under
/// 1.1e-7 of the scale; `ROUNDING` is four machine epsilons, GJK's touch test.
pub const REL_TOLERANCE: f32 = 1e-6;
const ROUNDING: f32 = 4.0 * f32::EPSILON;
/// Newton iterations at most (the worst case seen in the tests is 5).
const MAX_NEWTON: usize = 12;
/// Newton stops once a step is below this fraction of `t + min(rx, ry)²`:
/// convergence is quadratic, so the remaining error is then below ~1e-8 of it.
const NEWTON_STOP: f32 = 1e-4;

/// The certified answer, in the ellipse's frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CoreHit {
    /// Distance from the ellipse to the core (> 0).
    pub distance: f32,
    /// Closest point on the ellipse.
    pub point_e: Vec2,
    /// Closest point on the core.
    pub point_c: Vec2,
    /// Unit normal from the ellipse toward the core.
    pub normal: Vec2,
}

/// Nearest point of the ellipse `x²/rx² + y²/ry² = 1` to `p`, for `p` outside:
/// `(distance, point, unit outward normal there)`; `None` when `p` is inside or on
/// the ellipse.
///
/// With `p` reflected into the first quadrant, `(y₀, y₁) = (|pₓ|, |p_y|)`, the
/// nearest point is `xᵢ = aᵢ yᵢ / (t + aᵢ)` (`aᵢ` = squared semi-axes) for the
/// unique root `t > 0` of `Σ rᵢ(t)² = 1`, `rᵢ = eᵢ yᵢ / (t + aᵢ)` (Eberly). Newton
/// runs on `φ(t) = 1/|r(t)| − 1`, which is concave and increasing (`1/|r|` is a
/// power mean of exponent −2 of the `t + aᵢ`), so from the lower bound
/// `max(0, eᵢ yᵢ − aᵢ)` every iterate stays below the root and the convergence is
/// monotone and quadratic. The offset `p − x = t·(y₀/(t + a₀), y₁/(t + a₁))` and
/// the normal are computed from `t` without cancellation.
#[inline]
pub(crate) fn point_ellipse(rx: f32, ry: f32, p: Vec2) -> Option<(f32, Vec2, Vec2)> {
    let (y0, y1) = (p.x.abs(), p.y.abs());
    let (a0, a1) = (rx * rx, ry * ry);
    let (z0, z1) = (y0 / rx, y1 / ry);
    let z = z0 * z0 + z1 * z1;
    if z.is_nan() || z <= 1.0 {
        return None;
    }
    let (b0, b1) = (rx * y0, ry * y1);
    let amin = a0.min(a1);
    let mut t = (b0 - a0).max(b1 - a1).max(0.0);
    for _ in 0..MAX_NEWTON {
        // 1/(t + a₀) and 1/(t + a₁) from one division.
        let inv = 1.0 / ((t + a0) * (t + a1));
        let (i0, i1) = ((t + a1) * inv, (t + a0) * inv);
        let (r0, r1) = (b0 * i0, b1 * i1);
        let s2 = r0 * r0 + r1 * r1;
        let m = s2.sqrt();
        // −φ/φ' = (|r| − 1)·|r|² / Σ rᵢ²/(t + aᵢ).
        let dt = (m - 1.0) * s2 / (r0 * r0 * i0 + r1 * r1 * i1);
        if dt.is_nan() || dt <= 0.0 {
            break;
        }
        t += dt;
        if dt <= NEWTON_STOP * (t + amin) {
            break;
        }
    }
    let (i0, i1) = (1.0 / (t + a0), 1.0 / (t + a1));
    let w = Vec2::new(y0 * i0, y1 * i1);
    let len = (w.x * w.x + w.y * w.y).sqrt();
    let distance = t * len;
    if !(distance > 0.0 && distance.is_finite()) {
        return None;
    }
    let sx = if p.x < 0.0 { -1.0 } else { 1.0 };
    let sy = if p.y < 0.0 { -1.0 } else { 1.0 };
    let normal = Vec2::new(sx * w.x / len, sy * w.y / len);
    let point = Vec2::new(sx * a0 * w.x, sy * a1 * w.y);
    Some((distance, point, normal))
}

/// The ellipse's support value `h(d) = max over the ellipse of d·x`.
#[inline]
pub(super) fn support_value(a0: f32, a1: f32, d: Vec2) -> f32 {
    (a0 * d.x * d.x + a1 * d.y * d.y).sqrt()
}

/// What the walk is looking at.
#[derive(Clone, Copy)]
enum Feature {
    Edge(usize),
    Vertex(usize),
}

/// Distance from the ellipse (semi-axes `rx`, `ry`, at the origin) to a convex
/// core given by its counter-clockwise vertices and outward edge normals (edge
/// `i` runs from vertex `i` to `i + 1`) in its own frame, placed by `xf` in the
/// ellipse's frame. One vertex is a point, two a segment (normals `±perp`).
///
/// `Some(Some(hit))`: certified answer; `Some(None)`: the core touches or enters
/// the ellipse (a vertex on or inside it); `None`: no certificate, use GJK.
pub(crate) fn core_distance(
    rx: f32,
    ry: f32,
    verts: &[Vec2],
    normals: &[Vec2],
    xf: &Iso,
) -> Option<Option<CoreHit>> {
    let n = verts.len();
    let sane = |r: f32| r > 0.0 && r.is_finite();
    if n == 0
        || n > 64
        || normals.len() != if n == 1 { 0 } else { n }
        || !xf.is_finite()
        || !(sane(rx) && sane(ry))
    {
        return None;
    }
    let (a0, a1) = (rx * rx, ry * ry);
    let next = |i: usize| if i + 1 == n { 0 } else { i + 1 };
    let prev = |i: usize| if i == 0 { n - 1 } else { i - 1 };
    let vertex = |i: usize| xf.apply(verts[i]);
    let rmax = rx.max(ry);

    // Best lower bound on the distance so far, and the best vertex pair.
    let mut lower = f32::NEG_INFINITY;
    let mut best: Option<CoreHit> = None;

    let mut feature = if n == 1 {
        Feature::Vertex(0)
    } else {
        // The edge of largest separation, s = −h(−n) − n·v = −h(n) − n·v, in
        // the core's frame: there the ellipse's centre is `c` and its support
        // value is √(nᵀ M n) with M = Rᵀ diag(rx², ry²) R.
        let (co, si) = (xf.rot.cos, xf.rot.sin);
        let c = xf.apply_inv(Vec2::ZERO);
        let m00 = a0 * co * co + a1 * si * si;
        let m11 = a0 * si * si + a1 * co * co;
        let m01 = 2.0 * (a1 - a0) * co * si;
        let mut bi = 0;
        for (i, (v, nl)) in verts.iter().zip(normals).enumerate() {
            let h = (m00 * nl.x * nl.x + m01 * nl.x * nl.y + m11 * nl.y * nl.y).sqrt();
            let s = -h - nl.dot(*v - c);
            if s > lower {
                lower = s;
                bi = i;
            }
        }
        if !lower.is_finite() {
            return None;
        }
        Feature::Edge(bi)
    };
    let mut visited = 0u64;
    // The vertex the walk last left, if it is on an edge now.
    let mut from = None;
    // Each vertex is solved at most once, so the walk ends within 2n steps.
    for _ in 0..2 * n + 1 {
        match feature {
            Feature::Edge(i) => {
                let nn = xf.rot.apply(normals[i]);
                let (v0, v1) = (vertex(i), vertex(next(i)));
                let h = support_value(a0, a1, nn);
                // The ellipse's support point along −n.
                let e = Vec2::new(-a0 * nn.x / h, -a1 * nn.y / h);
                let s = nn.dot(e - v0);
                let edge = v1 - v0;
                let along = (e - v0).dot(edge);
                let len2 = edge.length_squared();
                if s > 0.0 && along >= 0.0 && along <= len2 {
                    // Separating line through the edge, and a pair `s` apart.
                    return Some(Some(CoreHit {
                        distance: s,
                        point_e: e,
                        point_c: e - s * nn,
                        normal: -nn,
                    }));
                }
                lower = lower.max(s);
                feature = if from == Some(i) {
                    // Entered downhill from one end, and the minimum along the
                    // edge is not a certified interior point: the far end.
                    Feature::Vertex(next(i))
                } else if from == Some(next(i)) {
                    Feature::Vertex(i)
                } else if along < 0.5 * len2 {
                    // The start: beyond an end, that end; behind the edge within
                    // its span (its line cuts the ellipse), the nearer end, where
                    // the walk finds a vertex inside (contact) or goes downhill.
                    Feature::Vertex(i)
                } else {
                    Feature::Vertex(next(i))
                };
            }
            Feature::Vertex(k) => {
                if visited & (1u64 << k) != 0 {
                    break;
                }
                visited |= 1u64 << k;
                let p = vertex(k);
                let Some((d, q, u)) = point_ellipse(rx, ry, p) else {
                    // A vertex on or inside the ellipse: the shapes touch.
                    return Some(None);
                };
                // The separation along `u` bounds the distance from below.
                let ul = xf.rot.apply_inv(u);
                let min_along = verts.iter().fold(f32::INFINITY, |m, v| m.min(ul.dot(*v)))
                    + u.dot(xf.translation);
                lower = lower.max(min_along - support_value(a0, a1, u));
                if best.is_none_or(|b| d < b.distance) {
                    best = Some(CoreHit {
                        distance: d,
                        point_e: q,
                        point_c: p,
                        normal: u,
                    });
                }
                if n == 1 {
                    // A point: the nearest-point solve is the answer.
                    return Some(best);
                }
                let b = best.unwrap_or_else(|| unreachable!());
                // The size of the coordinates behind both bounds.
                let scale = b.distance + xf.translation.length() + verts[k].length() + rmax;
                if b.distance - lower <= REL_TOLERANCE * b.distance + ROUNDING * scale {
                    return Some(Some(b));
                }
                // Downhill along an adjacent edge: moving from `p` along `w − p`
                // changes the distance at the rate `u·(w − p)`.
                let (kn, kp) = (next(k), prev(k));
                let down_next = -u.dot(vertex(kn) - p);
                let down_prev = -u.dot(vertex(kp) - p);
                from = Some(k);
                feature = match (down_next > 0.0, down_prev > 0.0) {
                    (true, false) => Feature::Edge(k),
                    (false, true) => Feature::Edge(kp),
                    (true, true) => {
                        // Only for a segment (both neighbours are the other end)
                        // or when `u` points into the polygon: take the edge
                        // that faces the ellipse more.
                        let (nk, np) = (xf.rot.apply(normals[k]), xf.rot.apply(normals[kp]));
                        if nk.dot(u) <= np.dot(u) {
                            Feature::Edge(k)
                        } else {
                            Feature::Edge(kp)
                        }
                    }
                    (false, false) => break,
                };
            }
        }
    }
    let b = best?;
    let scale = b.distance + xf.translation.length() + xf.apply_inv(b.point_c).length() + rmax;
    (b.distance - lower <= REL_TOLERANCE * b.distance + ROUNDING * scale).then_some(Some(b))
}

/// The ellipse's core-distance answer against `other` (placed by `xf` in the
/// ellipse's frame) and `other`'s rounding radius; `None` for pairs this module
/// does not handle or could not certify.
fn against(rx: f32, ry: f32, other: &Shape, xf: &Iso) -> Option<(Option<CoreHit>, f32)> {
    match other {
        Shape::Polygon(p) => core_distance(rx, ry, p.vertices(), p.normals(), xf).map(|h| (h, 0.0)),
        Shape::RoundedPolygon { core, radius } => {
            core_distance(rx, ry, core.vertices(), core.normals(), xf).map(|h| (h, *radius))
        }
        Shape::Circle { radius } => {
            core_distance(rx, ry, &[Vec2::ZERO], &[], xf).map(|h| (h, *radius))
        }
        Shape::Capsule {
            half_height,
            radius,
        } => {
            let h = *half_height;
            core_distance(
                rx,
                ry,
                &[Vec2::new(0.0, -h), Vec2::new(0.0, h)],
                &[Vec2::X, -Vec2::X],
                xf,
            )
            .map(|hit| (hit, *radius))
        }
        Shape::Ellipse { .. } | Shape::Segment { .. } | Shape::ChainSegment { .. } => None,
    }
}

/// `true` when the segment `p0`..`p1` meets the closed unit disc.
#[inline]
fn segment_meets_unit_disc(p0: Vec2, p1: Vec2) -> bool {
    let d = p1 - p0;
    let along = -p0.dot(d);
    let len2 = d.length_squared();
    if along <= 0.0 {
        p0.length_squared() <= 1.0
    } else if along >= len2 {
        p1.length_squared() <= 1.0
    } else {
        // Squared distance of the origin from the line, times |d|².
        let c = p0.perp_dot(d);
        c * c <= len2
    }
}

/// Whether the ellipse (semi-axes `rx`, `ry`) meets the polygon placed by `xf`
/// in its frame. Two convex regions meet exactly when one's boundary meets the
/// other region or one contains the other: some edge meets the ellipse (in
/// coordinates scaled by `1/rx`, `1/ry`, a segment against the unit disc, which
/// also covers a polygon inside the ellipse), or the ellipse's centre is inside
/// the polygon (which covers an ellipse inside the polygon). Exact, no iteration.
pub(super) fn polygon_meets(rx: f32, ry: f32, verts: &[Vec2], normals: &[Vec2], xf: &Iso) -> bool {
    let c = xf.apply_inv(Vec2::ZERO);
    if verts.iter().zip(normals).all(|(v, n)| n.dot(c - *v) <= 0.0) {
        return true;
    }
    let scaled = |v: Vec2| {
        let p = xf.apply(v);
        Vec2::new(p.x / rx, p.y / ry)
    };
    let first = scaled(verts[0]);
    let mut p0 = first;
    for (i, _) in verts.iter().enumerate() {
        let p1 = if i + 1 == verts.len() {
            first
        } else {
            scaled(verts[i + 1])
        };
        if segment_meets_unit_disc(p0, p1) {
            return true;
        }
        p0 = p1;
    }
    false
}

/// The ellipse (semi-axes `rx`, `ry`) against `other` placed by `xf` in its
/// frame: `Some(touching or overlapping)`, `None` to leave it to GJK.
fn meets(rx: f32, ry: f32, other: &Shape, xf: &Iso) -> Option<bool> {
    if !(xf.is_finite() && rx > 0.0 && ry > 0.0 && rx.is_finite() && ry.is_finite()) {
        return None;
    }
    match other {
        Shape::Polygon(p) => Some(polygon_meets(rx, ry, p.vertices(), p.normals(), xf)),
        Shape::Circle { radius } => {
            Some(point_ellipse(rx, ry, xf.translation).is_none_or(|(d, ..)| d <= *radius))
        }
        Shape::Capsule { half_height, .. } => {
            let (p0, p1) = (
                xf.apply(Vec2::new(0.0, -half_height)),
                xf.apply(Vec2::new(0.0, *half_height)),
            );
            let s = |p: Vec2| Vec2::new(p.x / rx, p.y / ry);
            if segment_meets_unit_disc(s(p0), s(p1)) {
                return Some(true);
            }
            rounded_meets(rx, ry, other, xf)
        }
        Shape::RoundedPolygon { core, .. } => {
            if polygon_meets(rx, ry, core.vertices(), core.normals(), xf) {
                return Some(true);
            }
            rounded_meets(rx, ry, other, xf)
        }
        Shape::Ellipse { .. } | Shape::Segment { .. } | Shape::ChainSegment { .. } => None,
    }
}

/// For a rounded shape whose core misses the ellipse: whether the core's
/// distance is within the radius, when the distance routine certifies it.
fn rounded_meets(rx: f32, ry: f32, other: &Shape, xf: &Iso) -> Option<bool> {
    match against(rx, ry, other, xf)? {
        (Some(h), r) => Some(h.distance <= r),
        (None, _) => Some(true),
    }
}

/// `Some(answer)` when one shape is an ellipse and the other a polygon, circle,
/// capsule or rounded polygon (a capsule or rounded polygon whose core misses
/// the ellipse only when the distance routine certifies it).
pub(crate) fn intersects(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) -> Option<bool> {
    match (a, b) {
        (Shape::Ellipse { rx, ry }, other) => meets(*rx, *ry, other, &xa.inv_mul(xb)),
        (other, Shape::Ellipse { rx, ry }) => meets(*rx, *ry, other, &xb.inv_mul(xa)),
        _ => None,
    }
}

/// `Some(answer)` when one shape is an ellipse, the other a polygon, circle,
/// capsule or rounded polygon, and the exact routine certified its answer.
pub(crate) fn distance(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) -> Option<Option<Closest>> {
    match (a, b) {
        (Shape::Ellipse { rx, ry }, other) => {
            let (hit, radius) = against(*rx, *ry, other, &xa.inv_mul(xb))?;
            Some(hit.and_then(|h| {
                rounded_closest(
                    h.distance,
                    0.0,
                    xa.apply(h.point_e),
                    xa.rot.apply(h.normal),
                    xa.apply(h.point_c),
                    radius,
                )
            }))
        }
        (other, Shape::Ellipse { rx, ry }) => {
            let (hit, radius) = against(*rx, *ry, other, &xb.inv_mul(xa))?;
            Some(hit.and_then(|h| {
                rounded_closest(
                    h.distance,
                    radius,
                    xb.apply(h.point_c),
                    -xb.rot.apply(h.normal),
                    xb.apply(h.point_e),
                    0.0,
                )
            }))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;
