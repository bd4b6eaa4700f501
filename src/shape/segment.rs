//! Segments and chains: shapes without area, for terrain and walls.
//!
//! A [`Shape::Segment`] is a two-sided line segment `a`..`b`. A chain (a
//! polyline, open or closed) is stored as one [`Shape::ChainSegment`] per
//! edge: the edge `a`→`b` plus its neighbours' far ends, the *ghost
//! vertices* `ghost1` (before `a`) and `ghost2` (after `b`). A chain segment
//! is one-sided: it collides only with what lies on the right of `a`→`b`
//! (its *front*, along [`right_normal`]), which is the outside of a
//! counter-clockwise loop. The ghosts tell the narrowphase the shape of the
//! chain around the edge, so that a body sliding across an inner vertex
//! meets one smooth surface instead of the edge's end
//! (`narrowphase/pair/chain.rs`). This follows Box2D v3's chain shape
//! (`shape.c`, `b2CreateChain`: an open chain's end ghosts extrapolate its
//! end segments).
//!
//! ```text
//!   ghost1 ●- - - -● a ━━━━━━━━━━━━━━━● b - - - -● ghost2
//!                          ↑ front (right of a→b when a→b runs right to left)
//! ```

use super::{Shape, ShapeError, MAX_COORDINATE};
use crate::math::Vec2;

/// Shortest segment accepted (m): consecutive chain points closer than this
/// are refused, as Box2D's `b2_linearSlop` check in `b2CreateChain`.
pub const MIN_SEGMENT_LENGTH: f32 = 0.005;

/// The unit normal on the right of `a`→`b`, `(e.y, -e.x)` for the direction
/// `e`: the front of a chain segment, and the outward normal of the edge
/// `a`→`b` of a counter-clockwise polygon. Zero when `a == b`.
#[inline]
pub fn right_normal(a: Vec2, b: Vec2) -> Vec2 {
    let e = (b - a).normalize_or_zero();
    Vec2::new(e.y, -e.x)
}

/// A point of a segment or chain: finite and within ±[`MAX_COORDINATE`].
fn check_point(index: usize, p: Vec2) -> Result<(), ShapeError> {
    if !(p.x.is_finite() && p.y.is_finite()) {
        Err(ShapeError::NonFiniteVertex { index })
    } else if p.x.abs() > MAX_COORDINATE || p.y.abs() > MAX_COORDINATE {
        Err(ShapeError::VertexOutOfRange {
            index,
            max: MAX_COORDINATE,
        })
    } else {
        Ok(())
    }
}

/// The segment from point `from` to point `to` must be at least
/// [`MIN_SEGMENT_LENGTH`] long.
fn check_length(from: usize, to: usize, a: Vec2, b: Vec2) -> Result<(), ShapeError> {
    if a.distance(b) >= MIN_SEGMENT_LENGTH {
        Ok(())
    } else {
        Err(ShapeError::ShortSegment { from, to })
    }
}

/// Checks a segment's or chain segment's points (`ghosts` empty for a plain
/// segment): all finite and bounded, `a`..`b` not too short.
pub(super) fn check(a: Vec2, b: Vec2, ghosts: &[Vec2]) -> Result<(), ShapeError> {
    check_point(0, a)?;
    check_point(1, b)?;
    for (k, g) in ghosts.iter().enumerate() {
        check_point(2 + k, *g)?;
    }
    check_length(0, 1, a, b)
}

/// The first crossing of the ray `o + t·d` (shape frame, `d` unit) with the
/// segment `a`..`b`, and the normal there: against the ray for a two-sided
/// segment; for a `one_sided` one only rays arriving from the front hit.
/// Rays parallel to the segment miss (as Box2D's `b2RayCastSegment`).
///
/// With `n` the unit right normal: `n·(o + t·d - a) = 0` gives
/// `t = n·(a - o) / n·d`; the point lies on the segment when its coordinate
/// along `a`→`b` is within `[0, |b - a|]`.
pub(super) fn ray(a: Vec2, b: Vec2, o: Vec2, d: Vec2, one_sided: bool) -> Option<(f32, Vec2)> {
    let e = b - a;
    let len = e.length();
    if len == 0.0 {
        return None;
    }
    let u = e / len;
    let n = Vec2::new(u.y, -u.x);
    let den = n.dot(d);
    if den == 0.0 || (one_sided && den > 0.0) {
        return None;
    }
    let t = n.dot(a - o) / den;
    let s = u.dot(o + t * d - a);
    if !(t >= 0.0 && (0.0..=len).contains(&s)) {
        return None;
    }
    Some((t, if den > 0.0 { -n } else { n }))
}

impl Shape {
    /// A two-sided segment from `a` to `b` (body frame, m). It has no area:
    /// a body made only of segments must be static or kinematic. Use
    /// [`Shape::validate`] on untrusted input.
    pub fn segment(a: Vec2, b: Vec2) -> Shape {
        Shape::Segment { a, b }
    }

    /// The chain through `points` (body frame, m) as one
    /// [`Shape::ChainSegment`] per edge, with the ghost vertices set from the
    /// neighbours. `closed` joins the last point to the first. An open
    /// chain's end ghosts extrapolate its end segments, so its ends behave
    /// as flat. Collision is on the right of each edge: list terrain points
    /// from right to left (or a loop clockwise) to keep bodies above (or
    /// inside) it.
    ///
    /// Refused: fewer than 2 points (3 for a loop), a non-finite or too
    /// large coordinate, two consecutive points (the last and first of a
    /// loop included) less than [`MIN_SEGMENT_LENGTH`] apart.
    ///
    /// ```
    /// use minkowski::{Shape, ShapeError, Vec2};
    /// let ground = Shape::chain(&[Vec2::new(2.0, 0.0), Vec2::ZERO, Vec2::new(-2.0, 0.0)], false).unwrap();
    /// assert_eq!(ground.len(), 2);
    /// let bad = Shape::chain(&[Vec2::ZERO, Vec2::X, Vec2::X], false);
    /// assert_eq!(bad, Err(ShapeError::ShortSegment { from: 1, to: 2 }));
    /// ```
    pub fn chain(points: &[Vec2], closed: bool) -> Result<Vec<Shape>, ShapeError> {
        let n = points.len();
        let min = if closed { 3 } else { 2 };
        if n < min {
            return Err(ShapeError::ChainTooFewPoints { count: n, min });
        }
        for (i, p) in points.iter().enumerate() {
            check_point(i, *p)?;
        }
        let edges = if closed { n } else { n - 1 };
        for i in 0..edges {
            let j = (i + 1) % n;
            check_length(i, j, points[i], points[j])?;
        }
        let at = |i: isize| -> Vec2 {
            if closed {
                points[i.rem_euclid(n as isize) as usize]
            } else if i < 0 {
                2.0 * points[0] - points[1]
            } else if i >= n as isize {
                2.0 * points[n - 1] - points[n - 2]
            } else {
                points[i as usize]
            }
        };
        Ok((0..edges as isize)
            .map(|i| Shape::ChainSegment {
                ghost1: at(i - 1),
                a: at(i),
                b: at(i + 1),
                ghost2: at(i + 2),
            })
            .collect())
    }

    /// `true` for shapes that enclose area (all but segments and chain
    /// segments): only these give a body mass.
    pub fn has_area(&self) -> bool {
        !matches!(self, Shape::Segment { .. } | Shape::ChainSegment { .. })
    }

    /// The centroid of the shape in its local frame (m): the centre of
    /// area, or a segment's midpoint.
    pub fn local_centroid(&self) -> Vec2 {
        match self {
            Shape::Polygon(p) => p.area_centroid_moment().1,
            Shape::Segment { a, b } | Shape::ChainSegment { a, b, .. } => 0.5 * (*a + *b),
            other => other.mass_properties(1.0).centroid,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_chain_ghosts_extrapolate_and_loops_wrap() {
        let p = [
            Vec2::new(2.0, 0.0),
            Vec2::new(0.0, 1.0),
            Vec2::new(-2.0, 0.0),
        ];
        let open = Shape::chain(&p, false).unwrap();
        assert_eq!(
            open[0],
            Shape::ChainSegment {
                ghost1: Vec2::new(4.0, -1.0),
                a: p[0],
                b: p[1],
                ghost2: p[2],
            }
        );
        assert_eq!(
            open[1],
            Shape::ChainSegment {
                ghost1: p[0],
                a: p[1],
                b: p[2],
                ghost2: Vec2::new(-4.0, -1.0),
            }
        );
        let closed = Shape::chain(&p, true).unwrap();
        assert_eq!(closed.len(), 3);
        assert_eq!(
            closed[2],
            Shape::ChainSegment {
                ghost1: p[1],
                a: p[2],
                b: p[0],
                ghost2: p[1],
            }
        );
    }

    #[test]
    fn chain_errors_name_the_points() {
        let two = [Vec2::ZERO, Vec2::X];
        assert_eq!(
            Shape::chain(&two, true),
            Err(ShapeError::ChainTooFewPoints { count: 2, min: 3 })
        );
        assert_eq!(
            Shape::chain(&two[..1], false),
            Err(ShapeError::ChainTooFewPoints { count: 1, min: 2 })
        );
        let back = [Vec2::ZERO, Vec2::X, Vec2::Y, Vec2::new(0.0, 0.001)];
        assert_eq!(
            Shape::chain(&back, true),
            Err(ShapeError::ShortSegment { from: 3, to: 0 })
        );
        assert!(Shape::chain(&back, false).is_ok());
        let nan = [Vec2::ZERO, Vec2::new(f32::NAN, 1.0)];
        assert_eq!(
            Shape::chain(&nan, false),
            Err(ShapeError::NonFiniteVertex { index: 1 })
        );
        assert!(Shape::segment(Vec2::ZERO, Vec2::ZERO).validate().is_err());
        assert!(Shape::segment(Vec2::ZERO, Vec2::new(2e4, 0.0))
            .validate()
            .is_err());
    }

    #[test]
    fn ray_hits_from_the_front_only_when_one_sided() {
        let (a, b) = (Vec2::new(1.0, 0.0), Vec2::new(-1.0, 0.0)); // front: +y
        let down = ray(a, b, Vec2::new(0.5, 2.0), -Vec2::Y, true).unwrap();
        assert_eq!(down, (2.0, Vec2::Y));
        assert!(ray(a, b, Vec2::new(0.5, -2.0), Vec2::Y, true).is_none());
        let up = ray(a, b, Vec2::new(0.5, -2.0), Vec2::Y, false).unwrap();
        assert_eq!(up, (2.0, -Vec2::Y));
        assert!(ray(a, b, Vec2::new(1.5, 2.0), -Vec2::Y, false).is_none());
        assert!(ray(a, b, Vec2::new(3.0, 0.0), -Vec2::X, false).is_none());
    }
}
