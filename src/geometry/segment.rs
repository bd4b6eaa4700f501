//! Closest points of two segments, in closed form: the primitive behind
//! capsule–capsule distance and, later, segment shapes.
//!
//! With `p(s) = p1 + s·d1` and `q(t) = p2 + t·d2`, `s, t ∈ [0, 1]`, the
//! squared distance is a convex quadratic in `(s, t)`. Its unconstrained
//! minimum solves the 2 × 2 normal equations; clamping `s`, solving `t` for
//! it, clamping `t` and solving `s` again gives the constrained minimum
//! (C. Ericson, "Real-Time Collision Detection", §5.1.9). Degenerate segments
//! (points) and parallel ones are handled on their own.

use crate::math::Vec2;

/// Closest points of two segments.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SegmentDistance {
    /// Closest point on the first segment.
    pub closest1: Vec2,
    /// Closest point on the second segment.
    pub closest2: Vec2,
    /// Where `closest1` lies on the first segment, in `[0, 1]`.
    pub fraction1: f32,
    /// Where `closest2` lies on the second segment, in `[0, 1]`.
    pub fraction2: f32,
    /// Squared distance between them (m²).
    pub distance_squared: f32,
}

/// Closest points between the segments `p1 q1` and `p2 q2`.
///
/// ```
/// use minkowski::geometry::segment::segment_distance;
/// use minkowski::Vec2;
/// let r = segment_distance(Vec2::new(-1.0, -1.0), Vec2::new(-1.0, 1.0), Vec2::new(2.0, 0.0), Vec2::new(1.0, 0.0));
/// assert_eq!((r.fraction1, r.fraction2, r.distance_squared), (0.5, 1.0, 4.0));
/// ```
pub fn segment_distance(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> SegmentDistance {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (dd1, dd2, rd2) = (d1.dot(d1), d2.dot(d2), r.dot(d2));
    const TINY: f32 = f32::EPSILON * f32::EPSILON;
    let (s, t) = if dd1 < TINY && dd2 < TINY {
        (0.0, 0.0)
    } else if dd1 < TINY {
        // The first is a point.
        (0.0, (rd2 / dd2).clamp(0.0, 1.0))
    } else {
        let rd1 = r.dot(d1);
        if dd2 < TINY {
            // The second is a point.
            ((-rd1 / dd1).clamp(0.0, 1.0), 0.0)
        } else {
            let d12 = d1.dot(d2);
            let denom = dd1 * dd2 - d12 * d12;
            // Parallel segments (denom 0): any s works; take the start.
            let s = if denom > 0.0 {
                ((d12 * rd2 - rd1 * dd2) / denom).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let t = (d12 * s + rd2) / dd2;
            if t < 0.0 {
                ((-rd1 / dd1).clamp(0.0, 1.0), 0.0)
            } else if t > 1.0 {
                (((d12 - rd1) / dd1).clamp(0.0, 1.0), 1.0)
            } else {
                (s, t)
            }
        }
    };
    let (c1, c2) = (p1 + s * d1, p2 + t * d2);
    SegmentDistance {
        closest1: c1,
        closest2: c2,
        fraction1: s,
        fraction2: t,
        distance_squared: c1.distance_squared(c2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force over a fine grid of both parameters.
    fn brute(p1: Vec2, q1: Vec2, p2: Vec2, q2: Vec2) -> f32 {
        let n = 400;
        let mut best = f32::INFINITY;
        for i in 0..=n {
            let a = p1.lerp(q1, i as f32 / n as f32);
            for j in 0..=n {
                best = best.min(a.distance_squared(p2.lerp(q2, j as f32 / n as f32)));
            }
        }
        best
    }

    #[test]
    fn matches_brute_force() {
        let pts = [
            (
                Vec2::new(0.0, 0.0),
                Vec2::new(1.0, 0.0),
                Vec2::new(0.5, 1.0),
                Vec2::new(0.5, 0.2),
            ),
            (
                Vec2::new(0.0, 0.0),
                Vec2::new(2.0, 0.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(3.0, 1.0),
            ),
            (
                Vec2::new(0.0, 0.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(1.0, 0.0),
                Vec2::new(0.0, 1.0),
            ),
            (
                Vec2::new(0.0, 0.0),
                Vec2::new(0.0, 0.0),
                Vec2::new(-1.0, 2.0),
                Vec2::new(1.0, 2.0),
            ),
            (
                Vec2::new(3.0, 3.0),
                Vec2::new(4.0, 5.0),
                Vec2::new(0.0, 0.0),
                Vec2::new(0.0, 0.0),
            ),
            (
                Vec2::new(-2.0, 0.3),
                Vec2::new(-1.0, 0.1),
                Vec2::new(1.0, -0.5),
                Vec2::new(2.0, 0.7),
            ),
        ];
        for (p1, q1, p2, q2) in pts {
            let r = segment_distance(p1, q1, p2, q2);
            let b = brute(p1, q1, p2, q2);
            assert!(
                r.distance_squared <= b + 1e-6 && r.distance_squared >= b - 1e-4,
                "{r:?} {b}"
            );
            assert!((r.closest1.distance_squared(r.closest2) - r.distance_squared).abs() < 1e-6);
        }
    }
}
