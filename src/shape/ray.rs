//! Ray casts against every shape, in closed form: the ray is taken into the
//! shape's frame, and
//!
//! * a circle solves `|o + t·d|² = r²`;
//! * an ellipse is scaled to the unit circle (the scaling keeps `t`);
//! * a polygon clips the ray by its edge lines (Cyrus–Beck);
//! * a capsule takes the nearest of its two side faces and two end caps;
//! * a rounded polygon takes the nearest of its offset edges and corner
//!   circles;
//! * a segment meets the ray's line where `n·(p - a) = 0` (`segment.rs`);
//!   a chain segment only from its front.
//!
//! Shapes are solid: a ray that starts inside hits at `t = 0`, with the
//! normal against the ray.

use super::{Polygon, Shape};
use crate::math::{Iso, Vec2};

/// Where a ray meets a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    /// Distance along the ray (m, the direction being a unit vector).
    pub t: f32,
    /// The point hit (world).
    pub point: Vec2,
    /// The outward surface normal there (world, unit).
    pub normal: Vec2,
}

/// The smallest `t ≥ 0` with `|o + t·d|² = r²`, for a ray starting outside.
/// The root is taken from the line's closest point to the centre, so a
/// small circle seen from afar keeps its precision (the textbook
/// discriminant `b² − a·c` cancels to a few digits there).
fn circle_enter(o: Vec2, d: Vec2, r: f32) -> Option<f32> {
    let a = d.length_squared();
    if a <= 0.0 {
        return None;
    }
    let t0 = -o.dot(d) / a;
    let closest = o + t0 * d;
    let h2 = r * r - closest.length_squared();
    if h2 < 0.0 {
        return None;
    }
    let t = t0 - (h2 / a).sqrt();
    (t >= 0.0).then_some(t)
}

/// The first entry of the ray `o + t·d` (shape frame, `d` unit, `o` outside
/// the shape) into the polygon `core` grown by `r`, and the outward normal
/// there.
///
/// The region is the union of the core and, for each edge, the capsule of
/// that edge and radius `r`. A ray from outside enters the union first on its
/// boundary, which is made of the offset edges (an edge moved out by `r`
/// along its normal) and arcs of the corner circles (radius `r` about each
/// vertex); every point of those lies in the region. So the entry is the
/// nearest of: each offset edge line `n·x = n·v + r` crossed inward within the
/// edge's extent (normal `n`), and each corner circle (normal from its
/// vertex).
fn rounded_enter(core: &Polygon, r: f32, o: Vec2, d: Vec2) -> Option<(f32, Vec2)> {
    let (vs, ns) = (core.vertices(), core.normals());
    let mut best: Option<(f32, Vec2)> = None;
    let mut keep = |t: f32, n: Vec2| {
        if best.is_none_or(|(bt, _)| t < bt) {
            best = Some((t, n));
        }
    };
    for (i, (v, n)) in vs.iter().zip(ns).enumerate() {
        let den = n.dot(d);
        if den < 0.0 {
            let t = (n.dot(*v - o) + r) / den;
            let e = vs[(i + 1) % vs.len()] - *v;
            let u = (o + t * d - *v).dot(e);
            if t >= 0.0 && u >= 0.0 && u <= e.length_squared() {
                keep(t, *n);
            }
        }
        if let Some(t) = circle_enter(o - *v, d, r) {
            keep(t, (o + t * d - *v).normalize_or_zero());
        }
    }
    best
}

impl Shape {
    /// The first point where the ray from `origin` along the unit `dir`
    /// meets the shape placed at `xf`, within `max_t` metres; `None` when it
    /// misses. A ray starting inside hits at `t = 0`.
    pub fn ray_cast(&self, xf: &Iso, origin: Vec2, dir: Vec2, max_t: f32) -> Option<RayHit> {
        if max_t.is_nan() || max_t < 0.0 {
            return None;
        }
        let o = xf.apply_inv(origin);
        let d = xf.rot.apply_inv(dir);
        if self.contains_point(xf, origin) {
            return Some(RayHit {
                t: 0.0,
                point: origin,
                normal: -dir,
            });
        }
        let (t, local_normal) = match self {
            Shape::Circle { radius } => {
                let t = circle_enter(o, d, *radius)?;
                (t, (o + t * d).normalize_or_zero())
            }
            Shape::Ellipse { rx, ry } => {
                let scale = Vec2::new(1.0 / rx, 1.0 / ry);
                let t = circle_enter(o * scale, d * scale, 1.0)?;
                let p = o + t * d;
                (t, (p * scale * scale).normalize_or_zero())
            }
            Shape::Polygon(poly) => {
                let (mut lower, mut upper) = (0.0f32, f32::INFINITY);
                let mut normal = None;
                for (v, n) in poly.vertices().iter().zip(poly.normals()) {
                    let num = n.dot(*v - o);
                    let den = n.dot(d);
                    if den == 0.0 {
                        if num < 0.0 {
                            return None;
                        }
                    } else if den < 0.0 {
                        // Entering this edge's half-plane.
                        let t = num / den;
                        if t > lower {
                            lower = t;
                            normal = Some(*n);
                        }
                    } else {
                        upper = upper.min(num / den);
                    }
                    if upper < lower {
                        return None;
                    }
                }
                (lower, normal?)
            }
            Shape::Capsule {
                half_height,
                radius,
            } => {
                let (h, r) = (*half_height, *radius);
                let mut best: Option<(f32, Vec2)> = None;
                let mut keep = |t: f32, n: Vec2| {
                    if best.is_none_or(|(bt, _)| t < bt) {
                        best = Some((t, n));
                    }
                };
                // Side faces x = ±r, for |y| ≤ h.
                for side in [-1.0f32, 1.0] {
                    if d.x * side < 0.0 {
                        let t = (side * r - o.x) / d.x;
                        let y = o.y + t * d.y;
                        if t >= 0.0 && y.abs() <= h {
                            keep(t, Vec2::new(side, 0.0));
                        }
                    }
                }
                // End caps.
                for cy in [-h, h] {
                    let c = Vec2::new(0.0, cy);
                    if let Some(t) = circle_enter(o - c, d, r) {
                        let p = o + t * d;
                        // Only the cap's outer half belongs to the surface.
                        if (p.y - cy) * cy.signum() >= 0.0 || h == 0.0 {
                            keep(t, (p - c).normalize_or_zero());
                        }
                    }
                }
                best?
            }
            Shape::RoundedPolygon { core, radius } => rounded_enter(core, *radius, o, d)?,
            Shape::Segment { a, b } => super::segment::ray(*a, *b, o, d, false)?,
            Shape::ChainSegment { a, b, .. } => super::segment::ray(*a, *b, o, d, true)?,
        };
        if t > max_t || !t.is_finite() {
            return None;
        }
        Some(RayHit {
            t,
            point: origin + t * dir,
            normal: xf.rot.apply(local_normal),
        })
    }
}
