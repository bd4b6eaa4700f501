//! Separating-axis test for convex polygons: the test oracle for GJK and EPA, and
//! a reference for contact generation.
//!
//! For convex polygons the only candidate axes are the edge normals of *both*
//! polygons. For each normal `n` of A's edge `i`, the separation is the smallest
//! signed distance of B's vertices from that edge's line. The largest separation
//! over all axes is positive iff the polygons are apart; when they overlap its
//! negation is the penetration depth and its axis the minimum translation vector.
//! (Projections are scalar dot products, never a coordinate of a projected point.)

use crate::math::{Iso, Vec2};
use crate::shape::{Polygon, MAX_POLYGON_VERTICES};

/// The axis of largest separation between two polygons.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Separation {
    /// Largest separation over all edge normals (m): > 0 apart, ≤ 0 overlapping
    /// (then `-separation` is the minimum translation distance). When apart this is
    /// a lower bound on the Euclidean distance, not the distance itself.
    pub separation: f32,
    /// Unit axis from A toward B (world frame).
    pub normal: Vec2,
    /// `true` when the axis is an edge normal of A, `false` when of B.
    pub on_a: bool,
    /// Index of the edge that owns the axis.
    pub edge: usize,
}

/// Largest separation of `b` (in `xf`, B's pose in A's frame) from any edge of `a`,
/// as (separation, edge index). Computed in A's frame.
pub fn max_edge_separation(a: &Polygon, b: &Polygon, xf: &Iso) -> (f32, usize) {
    // B's vertices placed in A's frame once, not once per edge of A (a small
    // buffer for the common small polygons).
    const SMALL: usize = 8;
    let m = b.vertices().len();
    if m <= SMALL {
        let mut placed = [Vec2::ZERO; SMALL];
        place(&mut placed, b, xf);
        max_separation_of(a, &placed[..m])
    } else {
        let mut placed = [Vec2::ZERO; MAX_POLYGON_VERTICES];
        place(&mut placed, b, xf);
        max_separation_of(a, &placed[..m])
    }
}

/// `b`'s vertices mapped by `xf` into the front of `out`.
#[inline]
fn place(out: &mut [Vec2], b: &Polygon, xf: &Iso) {
    for (p, w) in out.iter_mut().zip(b.vertices()) {
        *p = xf.apply(*w);
    }
}

/// Largest separation of the points from any edge of `a`, as (separation,
/// edge index).
#[inline]
fn max_separation_of(a: &Polygon, points: &[Vec2]) -> (f32, usize) {
    let mut best = (f32::NEG_INFINITY, 0);
    for (i, (v, n)) in a.vertices().iter().zip(a.normals()).enumerate() {
        // Deepest point along -n.
        let s = points
            .iter()
            .map(|w| n.dot(*w - *v))
            .fold(f32::INFINITY, f32::min);
        if s > best.0 {
            best = (s, i);
        }
    }
    best
}

/// Separation and minimum translation axis of two placed polygons.
pub fn separation(a: &Polygon, xa: &Iso, b: &Polygon, xb: &Iso) -> Separation {
    let xf_ab = xa.inv_mul(xb);
    let xf_ba = xb.inv_mul(xa);
    let (sa, ea) = max_edge_separation(a, b, &xf_ab);
    let (sb, eb) = max_edge_separation(b, a, &xf_ba);
    if sb > sa {
        Separation {
            separation: sb,
            normal: -xb.rot.apply(b.normals()[eb]),
            on_a: false,
            edge: eb,
        }
    } else {
        Separation {
            separation: sa,
            normal: xa.rot.apply(a.normals()[ea]),
            on_a: true,
            edge: ea,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn horizontal_normal_uses_scalar_projection() {
        // The tutorial compared projected y coordinates, which is wrong here.
        let a = Polygon::rect(1.0, 1.0);
        let s = separation(&a, &Iso::IDENTITY, &a, &Iso::new(Vec2::new(2.5, 0.0), 0.0));
        assert!((s.separation - 0.5).abs() < 1e-6);
        assert!((s.normal - Vec2::X).length() < 1e-6);
    }

    #[test]
    fn axis_from_second_polygon() {
        // A diamond's corner pokes into a box from above-right: the box's normal wins
        // or the diamond's; either way the depth matches the geometry.
        let a = Polygon::rect(1.0, 1.0);
        let b = Polygon::rect(0.5, 0.5);
        let s = separation(
            &a,
            &Iso::IDENTITY,
            &b,
            &Iso::new(Vec2::new(0.0, 1.4), std::f32::consts::FRAC_PI_4),
        );
        let corner = 1.4 - 0.5 * std::f32::consts::SQRT_2;
        assert!((s.separation - (corner - 1.0)).abs() < 1e-5);
        assert!((s.normal - Vec2::Y).length() < 1e-5);
    }
}
