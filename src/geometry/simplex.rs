//! The GJK simplex: up to three points of the Minkowski difference B − A, with the
//! Voronoi-region solver that finds the simplex point closest to the origin.
//!
//! Each vertex keeps the two support points it came from (`wa` on A, `wb` on B),
//! so the barycentric coordinates of the closest point give the closest points on
//! the shapes themselves. All coordinates are in A's local frame.
//!
//! Reference: G. van den Bergen, "Collision Detection in Interactive 3D
//! Environments", §4.3; E. Catto, "Computing Distance using GJK" (GDC 2010).

use crate::math::{cross, Vec2};

/// One vertex of the simplex.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SimplexVertex {
    /// Support point on A's core.
    pub wa: Vec2,
    /// Support point on B's core.
    pub wb: Vec2,
    /// `wb - wa`, a point of the Minkowski difference B − A.
    pub w: Vec2,
    /// Barycentric weight of this vertex in the closest point.
    pub weight: f32,
}

impl SimplexVertex {
    /// A vertex from the two support points.
    #[inline]
    pub fn new(wa: Vec2, wb: Vec2) -> SimplexVertex {
        SimplexVertex {
            wa,
            wb,
            w: wb - wa,
            weight: 1.0,
        }
    }
}

/// A point, segment or triangle of the Minkowski difference.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Simplex {
    /// Vertices; only the first `count` are meaningful.
    pub v: [SimplexVertex; 3],
    /// Number of vertices (1 to 3).
    pub count: usize,
}

impl Simplex {
    /// The meaningful vertices.
    #[inline]
    pub fn vertices(&self) -> &[SimplexVertex] {
        &self.v[..self.count]
    }

    /// The closest point of the simplex to the origin (after [`Simplex::solve`]).
    #[inline]
    pub fn closest(&self) -> Vec2 {
        self.vertices().iter().map(|v| v.weight * v.w).sum()
    }

    /// The closest points on the two cores (after [`Simplex::solve`]).
    #[inline]
    pub fn witness_points(&self) -> (Vec2, Vec2) {
        let mut a = Vec2::ZERO;
        let mut b = Vec2::ZERO;
        for v in self.vertices() {
            a += v.weight * v.wa;
            b += v.weight * v.wb;
        }
        (a, b)
    }

    /// Direction from the simplex toward the origin. For a segment it is the
    /// segment's perpendicular, which is far more accurate than negating the
    /// closest point when the origin is nearly on the segment's line.
    #[inline]
    pub fn search_direction(&self) -> Vec2 {
        match self.count {
            1 => -self.v[0].w,
            2 => {
                let e = self.v[1].w - self.v[0].w;
                if cross(e, -self.v[0].w) > 0.0 {
                    e.perp() // origin to the left
                } else {
                    -e.perp()
                }
            }
            _ => Vec2::ZERO,
        }
    }

    /// Reduces the simplex to the smallest sub-simplex whose Voronoi region holds
    /// the origin and sets barycentric weights. Returns `false` for a triangle that
    /// contains the origin (overlap).
    pub fn solve(&mut self) -> bool {
        match self.count {
            1 => {
                self.v[0].weight = 1.0;
                true
            }
            2 => {
                self.solve2();
                true
            }
            _ => self.solve3(),
        }
    }

    // Segment w1 w2. With e12 = w2 - w1, the origin projects at parameter
    // t = -w1·e12 / |e12|². Unnormalised weights: u1 = w2·e12, u2 = -w1·e12.
    fn solve2(&mut self) {
        let w1 = self.v[0].w;
        let w2 = self.v[1].w;
        let e12 = w2 - w1;
        let d12_2 = -w1.dot(e12);
        if d12_2 <= 0.0 {
            self.v[0].weight = 1.0;
            self.count = 1;
            return;
        }
        let d12_1 = w2.dot(e12);
        if d12_1 <= 0.0 {
            self.v[0] = self.v[1];
            self.v[0].weight = 1.0;
            self.count = 1;
            return;
        }
        let inv = 1.0 / (d12_1 + d12_2);
        self.v[0].weight = d12_1 * inv;
        self.v[1].weight = d12_2 * inv;
    }

    // Triangle w1 w2 w3: test vertex regions, then edge regions (edge test plus the
    // sign of the triangle's barycentric coordinate opposite the edge), else inside.
    fn solve3(&mut self) -> bool {
        let w1 = self.v[0].w;
        let w2 = self.v[1].w;
        let w3 = self.v[2].w;

        let e12 = w2 - w1;
        let d12_1 = w2.dot(e12);
        let d12_2 = -w1.dot(e12);

        let e13 = w3 - w1;
        let d13_1 = w3.dot(e13);
        let d13_2 = -w1.dot(e13);

        let e23 = w3 - w2;
        let d23_1 = w3.dot(e23);
        let d23_2 = -w2.dot(e23);

        // Signed areas of the sub-triangles, oriented by the whole triangle.
        let n123 = cross(e12, e13);
        let d123_1 = n123 * cross(w2, w3);
        let d123_2 = n123 * cross(w3, w1);
        let d123_3 = n123 * cross(w1, w2);

        if d12_2 <= 0.0 && d13_2 <= 0.0 {
            self.v[0].weight = 1.0;
            self.count = 1;
            return true;
        }
        if d12_1 > 0.0 && d12_2 > 0.0 && d123_3 <= 0.0 {
            let inv = 1.0 / (d12_1 + d12_2);
            self.v[0].weight = d12_1 * inv;
            self.v[1].weight = d12_2 * inv;
            self.count = 2;
            return true;
        }
        if d13_1 > 0.0 && d13_2 > 0.0 && d123_2 <= 0.0 {
            let inv = 1.0 / (d13_1 + d13_2);
            self.v[0].weight = d13_1 * inv;
            self.v[2].weight = d13_2 * inv;
            self.v[1] = self.v[2];
            self.count = 2;
            return true;
        }
        if d12_1 <= 0.0 && d23_2 <= 0.0 {
            self.v[0] = self.v[1];
            self.v[0].weight = 1.0;
            self.count = 1;
            return true;
        }
        if d13_1 <= 0.0 && d23_1 <= 0.0 {
            self.v[0] = self.v[2];
            self.v[0].weight = 1.0;
            self.count = 1;
            return true;
        }
        if d23_1 > 0.0 && d23_2 > 0.0 && d123_1 <= 0.0 {
            let inv = 1.0 / (d23_1 + d23_2);
            self.v[1].weight = d23_1 * inv;
            self.v[2].weight = d23_2 * inv;
            self.v[0] = self.v[2];
            self.count = 2;
            return true;
        }
        let sum = d123_1 + d123_2 + d123_3;
        if sum <= 0.0 || !sum.is_finite() {
            // Degenerate (zero-area) triangle that still passed the region tests:
            // keep the longest edge as a segment, which is always well defined.
            let (i, j) = [(0, 1), (0, 2), (1, 2)]
                .into_iter()
                .max_by(|&(a, b), &(c, d)| {
                    let l0 = (self.v[a].w - self.v[b].w).length_squared();
                    let l1 = (self.v[c].w - self.v[d].w).length_squared();
                    l0.total_cmp(&l1)
                })
                .unwrap_or((0, 1));
            let (vi, vj) = (self.v[i], self.v[j]);
            self.v[0] = vi;
            self.v[1] = vj;
            self.count = 2;
            self.solve2();
            return true;
        }
        let inv = 1.0 / sum;
        self.v[0].weight = d123_1 * inv;
        self.v[1].weight = d123_2 * inv;
        self.v[2].weight = d123_3 * inv;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vx(x: f32, y: f32) -> SimplexVertex {
        SimplexVertex::new(Vec2::ZERO, Vec2::new(x, y))
    }

    #[test]
    fn segment_regions() {
        let mut s = Simplex {
            v: [vx(1.0, -1.0), vx(1.0, 1.0), vx(0.0, 0.0)],
            count: 2,
        };
        assert!(s.solve());
        assert_eq!(s.count, 2);
        assert!((s.closest() - Vec2::new(1.0, 0.0)).length() < 1e-6);
        // A vertical segment works (no slopes involved).
        let mut s = Simplex {
            v: [vx(2.0, 1.0), vx(2.0, 3.0), vx(0.0, 0.0)],
            count: 2,
        };
        s.solve();
        assert_eq!(s.count, 1);
        assert_eq!(s.closest(), Vec2::new(2.0, 1.0));
    }

    #[test]
    fn triangle_contains_origin() {
        let mut s = Simplex {
            v: [vx(-1.0, -1.0), vx(1.0, -1.0), vx(0.0, 1.0)],
            count: 3,
        };
        assert!(!s.solve());
        let sum: f32 = s.vertices().iter().map(|v| v.weight).sum();
        assert!((sum - 1.0).abs() < 1e-6);
        assert!(s.closest().length() < 1e-6);
    }

    #[test]
    fn triangle_edge_region() {
        let mut s = Simplex {
            v: [vx(1.0, -1.0), vx(1.0, 1.0), vx(3.0, 0.0)],
            count: 3,
        };
        assert!(s.solve());
        assert_eq!(s.count, 2);
        assert!((s.closest() - Vec2::new(1.0, 0.0)).length() < 1e-6);
    }
}
