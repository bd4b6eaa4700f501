//! EPA: penetration depth and normal of overlapping convex shapes.
//!
//! Starts from GJK's final simplex on the cores and grows a polytope inside the
//! Minkowski difference B − A, always expanding the edge nearest the origin (kept
//! in a small binary heap, so each expansion costs O(log n) rather than a scan).
//! The nearest edge's distance is a lower bound on the depth and the support value
//! along its normal an upper bound; the loop stops when they agree to a relative
//! tolerance, when the support point repeats a vertex, or at an iteration cap,
//! which returns the tightest separating direction found.
//!
//! Degenerate starts are normal here: a point simplex (the cores touch at a
//! vertex), a segment (the origin on an edge; it becomes a two-edge polygon, the
//! fix described in the EPA tutorial), and zero-area cores (circles and capsules
//! have point and segment cores).
//!
//! Rounded shapes: when the cores are apart but within the sum of the radii, the
//! depth is `radii − core distance` straight from GJK and EPA does not run.

use super::gjk::{Pair, SimplexCache};
use super::simplex::{Simplex, SimplexVertex};
use crate::math::{cross, Iso, Rot, Vec2};
use crate::shape::SupportMap;

/// Most polytope expansions before the best answer so far is returned.
pub const MAX_ITERATIONS: usize = 64;
/// Relative tolerance between the depth's upper and lower bounds.
pub const REL_TOLERANCE: f32 = 1e-6;
const CAPACITY: usize = MAX_ITERATIONS + 4;

/// Penetration of two overlapping shapes (world frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration {
    /// Overlap depth (m), ≥ 0.
    pub depth: f32,
    /// Unit vector from A toward B: translating B by `depth * normal` separates the shapes.
    pub normal: Vec2,
    /// Deepest point of A inside B (on A's surface).
    pub point_a: Vec2,
    /// Deepest point of B inside A (on B's surface); `point_a - point_b = depth * normal`.
    pub point_b: Vec2,
}

/// One EPA expansion, recorded for the sandbox's inspector (world orientation,
/// Minkowski-difference coordinates B − A).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EpaStep {
    /// The polytope's vertices in counter-clockwise order.
    pub polytope: Vec<Vec2>,
    /// The edge nearest the origin.
    pub edge: (Vec2, Vec2),
    /// Its outward normal.
    pub normal: Vec2,
    /// Its distance from the origin.
    pub distance: f32,
    /// The support point found along `normal`.
    pub support: Vec2,
}

/// Core-level result in A's frame (depth of the cores only, radii not added).
#[derive(Clone, Copy, Debug)]
pub struct CorePenetration {
    /// Depth of the cores' overlap (m).
    pub depth: f32,
    /// Unit normal from A toward B, A's frame.
    pub normal: Vec2,
    /// Deepest point of A's core, A's frame.
    pub point_a: Vec2,
    /// Deepest point of B's core, A's frame.
    pub point_b: Vec2,
    /// Expansions used.
    pub iterations: usize,
}

#[derive(Clone, Copy, Debug, Default)]
struct Edge {
    distance: f32,
    normal: Vec2,
    i: u8,
    j: u8,
    seq: u16,
}

impl Edge {
    #[inline]
    fn before(&self, other: &Edge) -> bool {
        // Strict order for determinism: nearer first, then older first.
        self.distance < other.distance || (self.distance == other.distance && self.seq < other.seq)
    }
}

/// Fixed-capacity binary min-heap of edges (no allocation per query).
struct EdgeHeap {
    items: [Edge; 2 * CAPACITY],
    len: usize,
}

impl EdgeHeap {
    fn new() -> Self {
        EdgeHeap {
            items: [Edge::default(); 2 * CAPACITY],
            len: 0,
        }
    }

    fn push(&mut self, e: Edge) {
        if self.len == self.items.len() {
            return; // Cannot happen within MAX_ITERATIONS; dropping is safe.
        }
        let mut k = self.len;
        self.items[k] = e;
        self.len += 1;
        while k > 0 {
            let parent = (k - 1) / 2;
            if self.items[k].before(&self.items[parent]) {
                self.items.swap(k, parent);
                k = parent;
            } else {
                break;
            }
        }
    }

    fn pop(&mut self) -> Option<Edge> {
        if self.len == 0 {
            return None;
        }
        let top = self.items[0];
        self.len -= 1;
        self.items[0] = self.items[self.len];
        let mut k = 0;
        loop {
            let (l, r) = (2 * k + 1, 2 * k + 2);
            let mut m = k;
            if l < self.len && self.items[l].before(&self.items[m]) {
                m = l;
            }
            if r < self.len && self.items[r].before(&self.items[m]) {
                m = r;
            }
            if m == k {
                break;
            }
            self.items.swap(k, m);
            k = m;
        }
        Some(top)
    }
}

struct Polytope {
    verts: [SimplexVertex; CAPACITY],
    /// `next[i]`: the vertex after `i` counter-clockwise (for tracing).
    next: [u8; CAPACITY],
    len: usize,
    heap: EdgeHeap,
    seq: u16,
}

impl Polytope {
    fn add_vertex(&mut self, v: SimplexVertex) -> u8 {
        self.verts[self.len] = v;
        self.len += 1;
        (self.len - 1) as u8
    }

    fn add_edge(&mut self, i: u8, j: u8) {
        self.next[i as usize] = j;
        let (a, b) = (self.verts[i as usize].w, self.verts[j as usize].w);
        let e = b - a;
        let len = e.length();
        if len <= f32::EPSILON * a.length().max(b.length()).max(f32::MIN_POSITIVE) {
            return; // A zero-length edge has no normal; its neighbours cover it.
        }
        // Outward normal of a counter-clockwise edge is its right perpendicular.
        let normal = Vec2::new(e.y, -e.x) / len;
        self.seq = self.seq.wrapping_add(1);
        self.heap.push(Edge {
            distance: normal.dot(a),
            normal,
            i,
            j,
            seq: self.seq,
        });
    }

    fn ccw_points(&self, start: u8, rot: Rot) -> Vec<Vec2> {
        let mut out = Vec::with_capacity(self.len);
        let mut k = start;
        for _ in 0..self.len {
            out.push(rot.apply(self.verts[k as usize].w));
            k = self.next[k as usize];
            if k == start {
                break;
            }
        }
        out
    }
}

/// Runs EPA on the cores from GJK's final simplex. Returns the core penetration in
/// A's frame.
pub(crate) fn expand<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    pair: &Pair<'_, A, B>,
    simplex: &Simplex,
    mut trace: Option<&mut Vec<EpaStep>>,
    rot_a: Rot,
) -> CorePenetration {
    let mut poly = Polytope {
        verts: [SimplexVertex::default(); CAPACITY],
        next: [0; CAPACITY],
        len: 0,
        heap: EdgeHeap::new(),
        seq: 0,
    };
    let mut start = *simplex;
    if start.count == 1 {
        // The origin sits on a support point. Grow a segment along any axis the
        // difference extends into; if none, the difference is a single point
        // (e.g. two circle cores at one spot) and any normal is a valid answer.
        let p = start.v[0];
        let second = [Vec2::X, -Vec2::X, Vec2::Y, -Vec2::Y]
            .into_iter()
            .map(|d| pair.support(d))
            .find(|w| {
                (w.w - p.w).length_squared()
                    > f32::EPSILON * f32::EPSILON * p.w.length_squared().max(1.0)
            });
        match second {
            Some(w) => {
                start.v[1] = w;
                start.count = 2;
            }
            None => {
                return CorePenetration {
                    depth: 0.0,
                    normal: Vec2::Y,
                    point_a: p.wa,
                    point_b: p.wb,
                    iterations: 0,
                }
            }
        }
    }
    if start.count == 2 {
        // Two-edge polygon: the segment traversed both ways.
        let a = poly.add_vertex(start.v[0]);
        let b = poly.add_vertex(start.v[1]);
        poly.add_edge(a, b);
        poly.add_edge(b, a);
    } else {
        let (mut v0, mut v1, v2) = (start.v[0], start.v[1], start.v[2]);
        if cross(v1.w - v0.w, v2.w - v0.w) < 0.0 {
            std::mem::swap(&mut v0, &mut v1);
        }
        let a = poly.add_vertex(v0);
        let b = poly.add_vertex(v1);
        let c = poly.add_vertex(v2);
        poly.add_edge(a, b);
        poly.add_edge(b, c);
        poly.add_edge(c, a);
    }

    // Best separating direction seen: the smallest support value along a normal.
    let mut best: Option<(f32, Edge)> = None;
    let mut iterations = 0;
    let mut result_edge: Option<Edge> = None;
    while let Some(edge) = poly.heap.pop() {
        iterations += 1;
        let w = pair.support(edge.normal);
        let upper = w.w.dot(edge.normal);
        if let Some(t) = trace.as_deref_mut() {
            t.push(EpaStep {
                polytope: poly.ccw_points(edge.i, rot_a),
                edge: (
                    rot_a.apply(poly.verts[edge.i as usize].w),
                    rot_a.apply(poly.verts[edge.j as usize].w),
                ),
                normal: rot_a.apply(edge.normal),
                distance: edge.distance,
                support: rot_a.apply(w.w),
            });
        }
        if best.is_none_or(|(u, _)| upper < u) {
            best = Some((upper, edge));
        }
        let (vi, vj) = (poly.verts[edge.i as usize], poly.verts[edge.j as usize]);
        let repeated = (w.wa == vi.wa && w.wb == vi.wb) || (w.wa == vj.wa && w.wb == vj.wb);
        let scale = edge
            .distance
            .abs()
            .max(f32::EPSILON * vi.w.length().max(vj.w.length()));
        if repeated
            || upper - edge.distance <= REL_TOLERANCE * scale
            || iterations >= MAX_ITERATIONS
            || poly.len >= CAPACITY
        {
            result_edge = Some(if iterations >= MAX_ITERATIONS {
                best.map(|b| b.1).unwrap_or(edge)
            } else {
                edge
            });
            break;
        }
        let k = poly.add_vertex(w);
        poly.add_edge(edge.i, k);
        poly.add_edge(k, edge.j);
    }
    let edge = match result_edge.or(best.map(|b| b.1)) {
        Some(e) => e,
        None => {
            // Every edge was degenerate: the difference has no extent near the origin.
            let p = start.v[0];
            return CorePenetration {
                depth: 0.0,
                normal: Vec2::Y,
                point_a: p.wa,
                point_b: p.wb,
                iterations,
            };
        }
    };
    let (vi, vj) = (poly.verts[edge.i as usize], poly.verts[edge.j as usize]);
    // Project the origin on the edge for the witness points.
    let e = vj.w - vi.w;
    let ee = e.length_squared();
    let t = if ee > 0.0 {
        (-vi.w.dot(e) / ee).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let point_a = vi.wa + t * (vj.wa - vi.wa);
    let point_b = vi.wb + t * (vj.wb - vi.wb);
    CorePenetration {
        depth: edge.distance.max(0.0),
        // The edge normal points out of B − A; B must move the other way.
        normal: -edge.normal,
        point_a,
        point_b,
        iterations,
    }
}

/// Result of the full contact query on cores, in A's frame: either separated
/// (distance of the rounded shapes > 0) or penetrating.
#[derive(Clone, Copy, Debug)]
pub enum CoreContact {
    /// Rounded shapes apart by `distance` (> 0).
    Separated {
        /// Gap between the rounded surfaces (m).
        distance: f32,
        /// Unit normal A → B (A's frame).
        normal: Vec2,
        /// Closest point on A's surface (A's frame).
        point_a: Vec2,
        /// Closest point on B's surface (A's frame).
        point_b: Vec2,
    },
    /// Rounded shapes overlap by `depth` (≥ 0).
    Penetrating {
        /// Overlap (m).
        depth: f32,
        /// Unit normal A → B (A's frame).
        normal: Vec2,
        /// Deepest point of A (A's frame).
        point_a: Vec2,
        /// Deepest point of B (A's frame).
        point_b: Vec2,
    },
}

impl CoreContact {
    /// Signed separation: distance when apart, minus the depth when overlapping.
    pub fn separation(&self) -> f32 {
        match *self {
            CoreContact::Separated { distance, .. } => distance,
            CoreContact::Penetrating { depth, .. } => -depth,
        }
    }

    /// Unit normal from A to B (A's frame).
    pub fn normal(&self) -> Vec2 {
        match *self {
            CoreContact::Separated { normal, .. } | CoreContact::Penetrating { normal, .. } => {
                normal
            }
        }
    }

    /// Witness points on A's and B's surfaces (A's frame).
    pub fn points(&self) -> (Vec2, Vec2) {
        match *self {
            CoreContact::Separated {
                point_a, point_b, ..
            }
            | CoreContact::Penetrating {
                point_a, point_b, ..
            } => (point_a, point_b),
        }
    }
}

/// GJK then, only if the cores overlap, EPA: the pipeline's contact query.
/// `cache` warm-starts GJK. `trace` records both algorithms for the inspector.
pub fn contact<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    xa: &Iso,
    b: &B,
    xb: &Iso,
    cache: Option<&mut SimplexCache>,
    trace: Option<(&mut Vec<super::gjk::GjkStep>, &mut Vec<EpaStep>)>,
) -> CoreContact {
    let pair = Pair::new(a, xa, b, xb);
    let (gjk_trace, epa_trace) = match trace {
        Some((g, e)) => (Some(g), Some(e)),
        None => (None, None),
    };
    let (core, _) = pair.run(cache, None, gjk_trace, xa.rot);
    let (ra, rb) = (a.core_radius(), b.core_radius());
    // EPA runs only when GJK found the cores touching or overlapping, i.e. when
    // its simplex holds the origin (to rounding). Cores that are apart, however
    // slightly, are answered by GJK: its normal comes from the simplex geometry
    // (see `gjk::separation_of`) and stays accurate as the gap goes to zero, while
    // EPA started from a simplex that does not hold the origin has no meaning.
    if core.distance > 0.0 {
        let n = core.normal;
        let gap = core.distance - ra - rb;
        let (pa, pb) = (core.point_a + ra * n, core.point_b - rb * n);
        return if gap > 0.0 {
            CoreContact::Separated {
                distance: gap,
                normal: n,
                point_a: pa,
                point_b: pb,
            }
        } else {
            CoreContact::Penetrating {
                depth: -gap,
                normal: n,
                point_a: pa,
                point_b: pb,
            }
        };
    }
    let pen = expand(&pair, &core.simplex, epa_trace, xa.rot);
    let n = pen.normal;
    CoreContact::Penetrating {
        depth: pen.depth + ra + rb,
        normal: n,
        point_a: pen.point_a + ra * n,
        point_b: pen.point_b - rb * n,
    }
}

/// Penetration depth, normal and deepest points of two shapes, or `None` when
/// they are separated. Touching shapes give `Some` with depth 0.
///
/// ```
/// use minkowski::{epa, Iso, Shape, Vec2};
/// let ground = Shape::rect(5.0, 0.5);
/// let ball = Shape::circle(0.5);
/// let p = epa::penetration(&ground, &Iso::IDENTITY, &ball, &Iso::new(Vec2::new(0.0, 0.9), 0.0)).unwrap();
/// assert!((p.depth - 0.1).abs() < 1e-5);
/// assert!((p.normal - Vec2::Y).length() < 1e-5);
/// ```
pub fn penetration<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    xa: &Iso,
    b: &B,
    xb: &Iso,
) -> Option<Penetration> {
    match contact(a, xa, b, xb, None, None) {
        CoreContact::Separated { .. } => None,
        CoreContact::Penetrating {
            depth,
            normal,
            point_a,
            point_b,
        } => {
            if !(depth.is_finite() && normal.is_finite()) {
                return None;
            }
            Some(Penetration {
                depth,
                normal: xa.rot.apply(normal),
                point_a: xa.apply(point_a),
                point_b: xa.apply(point_b),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;

    fn pen(a: &Shape, xa: Iso, b: &Shape, xb: Iso) -> Penetration {
        penetration(a, &xa, b, &xb).expect("overlap")
    }

    #[test]
    fn box_box_axis_aligned() {
        let a = Shape::rect(1.0, 1.0);
        let p = pen(&a, Iso::IDENTITY, &a, Iso::new(Vec2::new(1.7, 0.2), 0.0));
        assert!((p.depth - 0.3).abs() < 1e-5);
        assert!((p.normal - Vec2::X).length() < 1e-5);
        assert!((p.point_a - p.point_b - p.depth * p.normal).length() < 1e-5);
    }

    #[test]
    fn circles_at_same_centre() {
        let c = Shape::circle(0.5);
        let p = pen(&c, Iso::IDENTITY, &c, Iso::IDENTITY);
        assert!((p.depth - 1.0).abs() < 1e-6);
        assert!((p.normal.length() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn rounded_overlap_uses_core_distance() {
        let a = Shape::circle(1.0);
        let b = Shape::circle(1.0);
        let p = pen(&a, Iso::IDENTITY, &b, Iso::new(Vec2::new(1.5, 0.0), 0.0));
        assert!((p.depth - 0.5).abs() < 1e-6);
        assert!((p.normal - Vec2::X).length() < 1e-6);
    }

    #[test]
    fn separated_is_none() {
        let a = Shape::rect(1.0, 1.0);
        assert!(
            penetration(&a, &Iso::IDENTITY, &a, &Iso::new(Vec2::new(2.01, 0.0), 0.0)).is_none()
        );
    }
}
