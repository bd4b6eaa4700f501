//! Convex decomposition of a simple polygon: a concave outline becomes a few
//! convex polygons whose union is the outline, for compound bodies.
//!
//! 1. **Checks.** Finite, in-range coordinates; no repeated vertex; no two
//!    edges that cross or touch (other than neighbours at their shared
//!    vertex): the error names the two edges, `i` being the edge from vertex
//!    `i` to vertex `i + 1` in the caller's order.
//! 2. **Clean-up.** Counter-clockwise order; vertices on the line through
//!    their neighbours are dropped (they bound no piece).
//! 3. **Ear clipping.** A vertex is an ear when it turns left and its
//!    triangle holds no other vertex; of all ears, the one whose smallest
//!    angle is largest is cut first (ties to the lowest index), which keeps
//!    slivers out. `n − 2` triangles.
//! 4. **Merging** (Hertel–Mehlhorn). Two pieces sharing a diagonal are merged
//!    while the result stays strictly convex and has at most
//!    [`MAX_PIECE_VERTICES`]; at most four times the optimal piece count.
//!
//! Cost: O(n²) for the checks, O(n³) at worst for the ears, with
//! n ≤ [`MAX_OUTLINE_VERTICES`].
//!
//! References: M. de Berg et al., *Computational Geometry* §3 (triangulation
//! by ears); S. Hertel, K. Mehlhorn, "Fast triangulation of simple polygons"
//! (1983), for the merge bound.

use super::error::ShapeError;
use super::polygon::Polygon;
use super::MAX_COORDINATE;
use crate::math::{cross, Vec2};

/// Most vertices of an outline given to [`decompose`].
pub const MAX_OUTLINE_VERTICES: usize = 256;
/// Most vertices of one convex piece: the narrowphase's small-polygon paths
/// take up to eight.
pub const MAX_PIECE_VERTICES: usize = 8;
/// Minimum sine of a turn for a vertex to count as strictly convex (as in
/// [`Polygon::new`]).
const MIN_TURN_SINE: f32 = 1e-5;

/// Splits a simple polygon, convex or not, given in either winding, into
/// convex polygons (one when it is already convex and small enough).
///
/// ```
/// use minkowski::shape::decompose;
/// use minkowski::Vec2;
/// // An L: two pieces.
/// let l = [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0)]
///     .map(|(x, y)| Vec2::new(x, y));
/// assert_eq!(decompose(&l).unwrap().len(), 2);
/// ```
pub fn decompose(points: &[Vec2]) -> Result<Vec<Polygon>, ShapeError> {
    let n = points.len();
    if n < 3 {
        return Err(ShapeError::TooFewVertices { count: n });
    }
    if n > MAX_OUTLINE_VERTICES {
        return Err(ShapeError::TooManyVertices {
            count: n,
            max: MAX_OUTLINE_VERTICES,
        });
    }
    for (index, p) in points.iter().enumerate() {
        if !(p.x.is_finite() && p.y.is_finite()) {
            return Err(ShapeError::NonFiniteVertex { index });
        }
        if p.x.abs() > MAX_COORDINATE || p.y.abs() > MAX_COORDINATE {
            return Err(ShapeError::VertexOutOfRange {
                index,
                max: MAX_COORDINATE,
            });
        }
    }
    let extent = points
        .iter()
        .fold(0.0f32, |m, p| m.max(p.x.abs()).max(p.y.abs()))
        .max(1e-3);
    let weld = 1e-5 * extent;
    for i in 1..n {
        for j in 0..i {
            if points[i].distance(points[j]) <= weld {
                return Err(ShapeError::DuplicateVertex { index: i, other: j });
            }
        }
    }
    check_crossings(points)?;
    let area2: f64 = (0..n)
        .map(|i| {
            let (a, b) = (points[i], points[(i + 1) % n]);
            a.x as f64 * b.y as f64 - b.x as f64 * a.y as f64
        })
        .sum();
    if area2.abs() <= 1e-6 * (extent as f64) * (extent as f64) {
        return Err(ShapeError::ZeroArea);
    }
    let mut ring: Vec<Vec2> = points.to_vec();
    if area2 < 0.0 {
        ring.reverse();
    }
    drop_collinear(&mut ring);
    if ring.len() < 3 {
        return Err(ShapeError::ZeroArea);
    }
    if ring.len() <= MAX_PIECE_VERTICES && (0..ring.len()).all(|i| turn(&ring, i) > 0.0) {
        return Ok(vec![Polygon::new(&ring)?]);
    }
    let triangles = ears(&ring);
    let pieces = merge(&ring, triangles);
    pieces
        .iter()
        .map(|p| Polygon::new(&p.iter().map(|&i| ring[i]).collect::<Vec<_>>()))
        .collect()
}

/// Orientation of `c` relative to the line `a → b`: twice the signed area.
fn orient(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    cross(b - a, c - a)
}

/// Whether segments `p1p2` and `q1q2` cross or touch.
fn segments_meet(p1: Vec2, p2: Vec2, q1: Vec2, q2: Vec2) -> bool {
    let (d1, d2) = (orient(q1, q2, p1), orient(q1, q2, p2));
    let (d3, d4) = (orient(p1, p2, q1), orient(p1, p2, q2));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    let on = |a: Vec2, b: Vec2, c: Vec2, d: f32| {
        d == 0.0
            && c.x >= a.x.min(b.x)
            && c.x <= a.x.max(b.x)
            && c.y >= a.y.min(b.y)
            && c.y <= a.y.max(b.y)
    };
    on(q1, q2, p1, d1) || on(q1, q2, p2, d2) || on(p1, p2, q1, d3) || on(p1, p2, q2, d4)
}

/// Fails on the first pair of non-adjacent edges that cross or touch.
fn check_crossings(points: &[Vec2]) -> Result<(), ShapeError> {
    let n = points.len();
    for i in 0..n {
        for j in i + 1..n {
            let adjacent = j == i + 1 || (i == 0 && j == n - 1);
            if adjacent {
                continue;
            }
            let (p1, p2) = (points[i], points[(i + 1) % n]);
            let (q1, q2) = (points[j], points[(j + 1) % n]);
            if segments_meet(p1, p2, q1, q2) {
                return Err(ShapeError::CrossingEdges {
                    edge_a: i,
                    edge_b: j,
                });
            }
        }
    }
    Ok(())
}

/// Sine of the turn at vertex `i` of a ring (positive: left).
fn turn(ring: &[Vec2], i: usize) -> f32 {
    let n = ring.len();
    let (a, b, c) = (ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]);
    let (e0, e1) = (b - a, c - b);
    cross(e0, e1) / (e0.length() * e1.length())
}

/// Drops the vertices that lie on the line through their neighbours.
fn drop_collinear(ring: &mut Vec<Vec2>) {
    let mut i = 0;
    while ring.len() >= 3 && i < ring.len() {
        let n = ring.len();
        let (a, b, c) = (ring[(i + n - 1) % n], ring[i], ring[(i + 1) % n]);
        let straight = turn(ring, i).abs() < MIN_TURN_SINE && (b - a).dot(c - b) > 0.0;
        if straight {
            ring.remove(i);
            i = i.saturating_sub(1);
        } else {
            i += 1;
        }
    }
}

/// The smallest angle of a triangle (its quality as an ear).
fn min_angle(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    let ang = |p: Vec2, q: Vec2, r: Vec2| {
        let (u, v) = (q - p, r - p);
        libm::atan2f(cross(u, v).abs(), u.dot(v))
    };
    ang(a, b, c).min(ang(b, c, a)).min(ang(c, a, b))
}

/// Ear clipping: triangles as triples of ring indices, counter-clockwise.
fn ears(ring: &[Vec2]) -> Vec<[usize; 3]> {
    let mut live: Vec<usize> = (0..ring.len()).collect();
    let mut out = Vec::with_capacity(ring.len() - 2);
    while live.len() > 3 {
        let m = live.len();
        let mut best: Option<(f32, usize)> = None;
        for k in 0..m {
            let (ia, ib, ic) = (live[(k + m - 1) % m], live[k], live[(k + 1) % m]);
            let (a, b, c) = (ring[ia], ring[ib], ring[ic]);
            if orient(a, b, c) <= 0.0 {
                continue;
            }
            let blocked = live.iter().any(|&j| {
                j != ia
                    && j != ib
                    && j != ic
                    && orient(a, b, ring[j]) >= 0.0
                    && orient(b, c, ring[j]) >= 0.0
                    && orient(c, a, ring[j]) >= 0.0
            });
            if blocked {
                continue;
            }
            let q = min_angle(a, b, c);
            if best.is_none_or(|(bq, _)| q > bq) {
                best = Some((q, k));
            }
        }
        // A simple polygon always has an ear; rounding can hide it, and then
        // the most convex vertex is cut.
        let k = best.map(|b| b.1).unwrap_or_else(|| {
            (0..m)
                .max_by(|&x, &y| {
                    let t = |k: usize| {
                        orient(
                            ring[live[(k + m - 1) % m]],
                            ring[live[k]],
                            ring[live[(k + 1) % m]],
                        )
                    };
                    t(x).total_cmp(&t(y)).then(y.cmp(&x))
                })
                .unwrap_or(0)
        });
        out.push([live[(k + m - 1) % m], live[k], live[(k + 1) % m]]);
        live.remove(k);
    }
    out.push([live[0], live[1], live[2]]);
    out
}

/// Whether the ring of indices `p` is strictly convex.
fn convex(ring: &[Vec2], p: &[usize]) -> bool {
    let pts: Vec<Vec2> = p.iter().map(|&i| ring[i]).collect();
    (0..pts.len()).all(|i| turn(&pts, i) >= MIN_TURN_SINE)
}

/// Hertel–Mehlhorn: merges pieces across shared diagonals while convex.
fn merge(ring: &[Vec2], triangles: Vec<[usize; 3]>) -> Vec<Vec<usize>> {
    let mut pieces: Vec<Vec<usize>> = triangles.iter().map(|t| t.to_vec()).collect();
    loop {
        let mut merged = false;
        'search: for i in 0..pieces.len() {
            for j in i + 1..pieces.len() {
                if let Some(m) = join(&pieces[i], &pieces[j]) {
                    if m.len() <= MAX_PIECE_VERTICES && convex(ring, &m) {
                        pieces[i] = m;
                        pieces.remove(j);
                        merged = true;
                        break 'search;
                    }
                }
            }
        }
        if !merged {
            return pieces;
        }
    }
}

/// The union of two counter-clockwise pieces sharing an edge (`a → b` in
/// one, `b → a` in the other), or `None` when they share none.
fn join(p: &[usize], q: &[usize]) -> Option<Vec<usize>> {
    let (n, m) = (p.len(), q.len());
    for i in 0..n {
        let (a, b) = (p[i], p[(i + 1) % n]);
        for j in 0..m {
            if q[j] == b && q[(j + 1) % m] == a {
                // p from b around to a, then q from a around to b (exclusive).
                let mut out = Vec::with_capacity(n + m - 2);
                for k in 0..n {
                    out.push(p[(i + 1 + k) % n]);
                }
                for k in 2..m {
                    out.push(q[(j + k) % m]);
                }
                return Some(out);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32) -> Vec2 {
        Vec2::new(x, y)
    }

    fn area(p: &Polygon) -> f32 {
        p.area_centroid_moment().0
    }

    #[test]
    fn convex_input_is_one_piece() {
        let sq = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)];
        assert_eq!(decompose(&sq).unwrap().len(), 1);
    }

    #[test]
    fn l_shape_keeps_its_area() {
        let l = [
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(2.0, 1.0),
            v(1.0, 1.0),
            v(1.0, 2.0),
            v(0.0, 2.0),
        ];
        let pieces = decompose(&l).unwrap();
        let total: f32 = pieces.iter().map(area).sum();
        assert!((total - 3.0).abs() < 1e-5, "{total}");
        assert_eq!(pieces.len(), 2);
    }

    #[test]
    fn crossing_edges_are_named() {
        // A bow tie: edge 0 (0→1) crosses edge 2 (2→3).
        let bow = [v(0.0, 0.0), v(1.0, 1.0), v(1.0, 0.0), v(0.0, 1.0)];
        assert_eq!(
            decompose(&bow),
            Err(ShapeError::CrossingEdges {
                edge_a: 0,
                edge_b: 2
            })
        );
    }

    #[test]
    fn a_vertex_touching_an_edge_is_a_crossing() {
        // Vertex 3 lies on edge 0.
        let p = [
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(2.0, 2.0),
            v(1.0, 0.0),
            v(0.0, 2.0),
        ];
        assert!(matches!(
            decompose(&p),
            Err(ShapeError::CrossingEdges { .. })
        ));
    }
}
