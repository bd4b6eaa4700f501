//! EPA: penetration depth and normal of overlapping convex shapes.
//!
//! Starts from GJK's final simplex on the cores and grows a polytope inside the
//! Minkowski difference B − A, always expanding the edge nearest the origin (kept
//! in a small binary heap, so each expansion costs O(log n) rather than a scan).
//! The nearest edge's distance is a lower bound on the depth and the support value
//! along its normal an upper bound; the loop stops when they agree to a relative
//! tolerance (with a floor at the rounding of the support values, so shallow
//! contacts between curved shapes converge too), or when the support point
//! repeats a vertex.
//!
//! Each new support point replaces every side it lies beyond, not only the side
//! it was found from, so the polytope stays convex and keeps the origin even
//! when the start simplex holds points inside B − A (GJK warm-started from the
//! previous step's simplex).
//!
//! At the iteration cap, the answer is the smallest support value seen, an
//! upper bound on the depth (it always separates the pair), refined by a
//! golden-section search of the support function around its direction: the
//! case of two nearly round shapes, or identical ones at one pose, whose
//! difference is round about the origin.
//!
//! Degenerate starts are normal here: a point simplex (the cores touch at a
//! vertex), a segment (the origin on an edge; it becomes a two-edge polygon, the
//! fix described in the EPA tutorial), and zero-area cores (circles and capsules
//! have point and segment cores).
//!
//! Rounded shapes: when the cores are apart but within the sum of the radii, the
//! depth is `radii − core distance` straight from GJK and EPA does not run.

mod polytope;

use super::gjk::{Pair, SimplexCache};
use super::simplex::{Simplex, SimplexVertex};
use crate::math::{cross, Iso, Rot, Vec2};
use crate::shape::SupportMap;
use polytope::{Edge, EdgeHeap, Polytope};

/// Most polytope expansions before the best answer so far is returned.
pub const MAX_ITERATIONS: usize = 64;
/// Relative tolerance between the depth's upper and lower bounds.
pub const REL_TOLERANCE: f32 = 1e-6;
/// Absolute floor of that tolerance, in units of f32 rounding of the support
/// values (ε × the polytope's reach from the origin).
const ROUNDING_ULPS: f32 = 8.0;
const CAPACITY: usize = MAX_ITERATIONS + 4;
/// Golden-section steps of the search that finishes an unconverged expansion
/// (each shrinks the bracket by 0.618; forty take 1.5 rad below 1e-8 rad).
const REFINE_STEPS: usize = 40;

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
        prev: [0; CAPACITY],
        alive: [false; CAPACITY],
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

    // Best separating direction seen: the smallest support value along a
    // normal. Every support value is an upper bound on the depth (moving B that
    // far along the normal's opposite clears the pair), so the answer given
    // when the loop cannot converge is the smallest of them: too deep by at
    // most the remaining gap, never too shallow.
    let mut best: Option<(f32, Edge, SimplexVertex)> = None;
    let mut iterations = 0;
    let mut converged: Option<Edge> = None;
    while let Some(edge) = poly.heap.pop() {
        if !poly.is_side(&edge) {
            continue;
        }
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
        if best.is_none_or(|(u, _, _)| upper < u) {
            best = Some((upper, edge, w));
        }
        let (vi, vj) = (poly.verts[edge.i as usize], poly.verts[edge.j as usize]);
        let repeated = (w.wa == vi.wa && w.wb == vi.wb) || (w.wa == vj.wa && w.wb == vj.wb);
        // Converged when the bounds meet to a relative tolerance, or to the
        // rounding of the support values themselves: a curved difference seen
        // from just inside its boundary (a shallow contact between round shapes)
        // can never close a relative gap of a tiny depth, and would otherwise
        // spend every expansion on edges shorter than f32 can resolve.
        let reach = vi.w.length().max(vj.w.length()).max(w.w.length());
        let tolerance = REL_TOLERANCE * edge.distance.abs() + ROUNDING_ULPS * f32::EPSILON * reach;
        if repeated || upper - edge.distance <= tolerance {
            converged = Some(edge);
            break;
        }
        if iterations >= MAX_ITERATIONS || poly.len >= CAPACITY {
            break;
        }
        poly.insert(&edge, w);
    }
    if let Some(edge) = converged {
        let (vi, vj) = (poly.verts[edge.i as usize], poly.verts[edge.j as usize]);
        // Project the origin on the edge for the witness points.
        let e = vj.w - vi.w;
        let ee = e.length_squared();
        let t = if ee > 0.0 {
            (-vi.w.dot(e) / ee).clamp(0.0, 1.0)
        } else {
            0.0
        };
        return CorePenetration {
            depth: edge.distance.max(0.0),
            // The edge normal points out of B − A; B must move the other way.
            normal: -edge.normal,
            point_a: vi.wa + t * (vj.wa - vi.wa),
            point_b: vi.wb + t * (vj.wb - vi.wb),
            iterations,
        };
    }
    let Some((upper, edge, w)) = best else {
        // Every edge was degenerate: the difference has no extent near the origin.
        let p = start.v[0];
        return CorePenetration {
            depth: 0.0,
            normal: Vec2::Y,
            point_a: p.wa,
            point_b: p.wb,
            iterations,
        };
    };
    // Out of expansions: a curved difference near the origin (two nearly round
    // shapes, or identical ones at one pose, whose difference is round about the
    // origin) needs more edges than the cap to meet the relative tolerance. The
    // depth is the minimum of the support function over directions, so search it
    // directly around the best normal.
    let (vi, vj) = (poly.verts[edge.i as usize], poly.verts[edge.j as usize]);
    let spread = angle_between(edge.normal, vi.w).max(angle_between(edge.normal, vj.w));
    let (depth, n, w) = refine(
        pair,
        edge.normal,
        (2.0 * spread).clamp(1e-3, 1.5),
        (upper, w),
    );
    CorePenetration {
        depth: depth.max(0.0),
        normal: -n,
        point_a: w.wa,
        point_b: w.wa + depth.max(0.0) * n,
        iterations,
    }
}

/// Unsigned angle between two non-zero vectors (rad).
fn angle_between(a: Vec2, b: Vec2) -> f32 {
    libm::atan2f(cross(a, b).abs(), a.dot(b))
}

/// Golden-section search for the smallest support value of B − A over the
/// directions within `half_width` of `n0`. Returns the smallest value seen
/// (never above `start`'s, which is the caller's best), its direction, and its
/// support vertex. The support function of a convex set is smooth where the
/// set is curved and has a single minimum near the nearest boundary point, so
/// forty evaluations pin it to f32 rounding.
fn refine<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    pair: &Pair<'_, A, B>,
    n0: Vec2,
    half_width: f32,
    start: (f32, SimplexVertex),
) -> (f32, Vec2, SimplexVertex) {
    let dir = |phi: f32| Rot::from_angle(phi).apply(n0);
    let mut best = (start.0, n0, start.1);
    let mut eval = |phi: f32| -> f32 {
        let n = dir(phi);
        let w = pair.support(n);
        let h = w.w.dot(n);
        if h < best.0 {
            best = (h, n, w);
        }
        h
    };
    const G: f32 = 0.618_034;
    let (mut lo, mut hi) = (-half_width, half_width);
    let mut x1 = hi - G * (hi - lo);
    let mut x2 = lo + G * (hi - lo);
    let mut f1 = eval(x1);
    let mut f2 = eval(x2);
    for _ in 0..REFINE_STEPS {
        if f1 <= f2 {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - G * (hi - lo);
            f1 = eval(x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + G * (hi - lo);
            f2 = eval(x2);
        }
    }
    // The support direction n, as B − A's outward normal; B moves along −n.
    best
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
/// The answer agrees with [`super::gjk::intersects`] on every pair: `Some`
/// exactly when it says the shapes meet. (Near touching, the full query and the
/// early-out test can round to opposite sides of zero; the early-out test
/// decides, and a pair it calls touching gets depth 0 along the query's normal.)
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
    if !super::gjk::intersects(a, xa, b, xb) {
        return None;
    }
    let contact = contact(a, xa, b, xb, None, None);
    let (depth, normal, point_a, point_b) = match contact {
        CoreContact::Separated {
            normal, point_a, ..
        } => (0.0, normal, point_a, point_a),
        CoreContact::Penetrating {
            depth,
            normal,
            point_a,
            point_b,
        } => (depth, normal, point_a, point_b),
    };
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
