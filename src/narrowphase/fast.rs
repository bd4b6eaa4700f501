//! Shape-pair fast paths behind the generic queries.
//!
//! [`crate::geometry::gjk::intersects`], [`crate::geometry::gjk::distance`] and
//! [`crate::geometry::epa::penetration`] stay generic over [`crate::SupportMap`]; when both
//! sides are known [`Shape`]s (see [`crate::SupportMap::as_shape`]) they first ask
//! this module, which answers the pairs it has a cheaper exact routine for and
//! returns `None` ("no fast path") for everything else:
//!
//! | pair | intersects | distance | penetration |
//! |---|---|---|---|
//! | small polygons (n, m ≤ 8, n·m ≤ 24) | SAT with early exit | SAT, then certified nearby features, else vertex–edge brute force | — |
//! | other polygons with n, m ≤ 16 (octagons) | — | SAT in O(n + m) by walking ([`polygons_distance_walk`]), then the same | — |
//! | centred parallelograms (boxes) | closed-form SAT on 2 + 2 axes | same, closed-form SAT | — |
//! | circle / polygon (either order) | point projection | point projection | — |
//! | circle / circle | closed form | closed form | closed form |
//! | circle / capsule (either order) | — | point–segment | — |
//! | ellipse / polygon, circle, capsule (either order) | scaled edge–disc test, point–ellipse solve | certified edge/vertex walk ([`super::ellipse`]) | polygon only: SAT on the polygon's normals plus the vertices' normal-foot roots ([`super::ellipse`]) |
//!
//! (— : the generic GJK/EPA path. The ellipse routines hand the pairs they
//! cannot certify back to GJK/EPA.)
//!
//! Every answer follows the same contract as the generic path (unit normal A→B,
//! points on the surfaces, the same `None` rules) and is exact up to f32 rounding,
//! so the oracle suites, which call the public API, cover these routines. Each
//! routine is compared with the generic GJK/EPA path in the unit tests below.

use crate::geometry::epa::Penetration;
use crate::geometry::gjk::Closest;
use crate::math::{Iso, Vec2};
use crate::shape::{Polygon, Shape};

/// Largest vertex count of either polygon on the small-polygon paths (the
/// stack buffers' size).
const SMALL: usize = 8;
/// SAT `intersects` is used when `n · m` is at most this. Measured with
/// `cargo bench --bench narrowphase`: SAT with early exit beats GJK for boxes;
/// for octagons (n · m = 64) GJK's few O(n + m) iterations win.
const SAT_INTERSECTS_MAX_PRODUCT: usize = 24;
/// The vertex–edge brute-force distance is used when `n · m` is at most this
/// (boxes and triangles); larger pairs keep GJK.
const BRUTE_DISTANCE_MAX_PRODUCT: usize = 24;

/// Largest vertex count of either polygon on the O(n + m) walking-SAT distance
/// path ([`polygons_distance_walk`]), used for the pairs above
/// `BRUTE_DISTANCE_MAX_PRODUCT` (octagons: about twice as fast as GJK); larger
/// polygons keep GJK.
const WALK_MAX: usize = 16;

fn small_pair(a: &Polygon, b: &Polygon, max_product: usize) -> bool {
    let (n, m) = (a.vertices().len(), b.vertices().len());
    n <= SMALL && m <= SMALL && n * m <= max_product
}

/// `Some(answer)` when a fast path exists for this pair.
pub(crate) fn intersects(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) -> Option<bool> {
    match (a, b) {
        (Shape::Polygon(pa), Shape::Polygon(pb))
            if small_pair(pa, pb, SAT_INTERSECTS_MAX_PRODUCT) =>
        {
            let xf = xa.inv_mul(xb);
            Some(match (parallelogram(pa), parallelogram(pb)) {
                (Some(ha), Some(hb)) => parallelogram_sat(pa, ha, pb, hb, &xf).0.sep <= 0.0,
                _ => polygons_intersect(pa, pb, &xf),
            })
        }
        (Shape::Circle { radius: ra }, Shape::Circle { radius: rb }) => {
            let r = ra + rb;
            Some((xb.translation - xa.translation).length_squared() <= r * r)
        }
        (Shape::Circle { radius }, Shape::Polygon(p)) => Some(
            circle_polygon_core(p, xb.apply_inv(xa.translation)).is_none_or(|c| c.0 <= *radius),
        ),
        (Shape::Polygon(p), Shape::Circle { radius }) => Some(
            circle_polygon_core(p, xa.apply_inv(xb.translation)).is_none_or(|c| c.0 <= *radius),
        ),
        (Shape::Ellipse { .. }, _) | (_, Shape::Ellipse { .. }) => {
            super::ellipse::intersects(a, xa, b, xb)
        }
        _ => None,
    }
}

/// `Some(answer)` when a fast path exists for this pair.
pub(crate) fn distance(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) -> Option<Option<Closest>> {
    match (a, b) {
        (Shape::Polygon(pa), Shape::Polygon(pb))
            if small_pair(pa, pb, BRUTE_DISTANCE_MAX_PRODUCT) =>
        {
            Some(polygons_distance_sat(pa, xa, pb, xb))
        }
        (Shape::Polygon(pa), Shape::Polygon(pb))
            if pa.vertices().len() <= WALK_MAX && pb.vertices().len() <= WALK_MAX =>
        {
            Some(polygons_distance_walk(pa, xa, pb, xb))
        }
        (Shape::Circle { radius: ra }, Shape::Circle { radius: rb }) => {
            let diff = xb.translation - xa.translation;
            let len = diff.length();
            let distance = len - ra - rb;
            if !(len > 0.0 && distance > 0.0 && distance.is_finite()) {
                return Some(None);
            }
            let normal = diff / len;
            Some(Some(Closest {
                distance,
                point_a: xa.translation + *ra * normal,
                point_b: xb.translation - *rb * normal,
                normal,
            }))
        }
        (Shape::Circle { radius }, Shape::Polygon(p)) => {
            // Core answer in B's frame, normal from the polygon toward the centre.
            Some(
                circle_polygon_core(p, xb.apply_inv(xa.translation)).and_then(|(core, q, n)| {
                    rounded_closest(
                        core,
                        *radius,
                        xa.translation,
                        -xb.rot.apply(n),
                        xb.apply(q),
                        0.0,
                    )
                }),
            )
        }
        (Shape::Polygon(p), Shape::Circle { radius }) => Some(
            circle_polygon_core(p, xa.apply_inv(xb.translation)).and_then(|(core, q, n)| {
                rounded_closest(
                    core,
                    0.0,
                    xa.apply(q),
                    xa.rot.apply(n),
                    xb.translation,
                    *radius,
                )
            }),
        ),
        (
            Shape::Circle { radius },
            Shape::Capsule {
                half_height,
                radius: rc,
            },
        ) => {
            let (core, q, n) = point_segment(*half_height, xb.apply_inv(xa.translation));
            Some(rounded_closest(
                core,
                *radius,
                xa.translation,
                -xb.rot.apply(n),
                xb.apply(q),
                *rc,
            ))
        }
        (
            Shape::Capsule {
                half_height,
                radius: rc,
            },
            Shape::Circle { radius },
        ) => {
            let (core, q, n) = point_segment(*half_height, xa.apply_inv(xb.translation));
            Some(rounded_closest(
                core,
                *rc,
                xa.apply(q),
                xa.rot.apply(n),
                xb.translation,
                *radius,
            ))
        }
        (Shape::Ellipse { .. }, _) | (_, Shape::Ellipse { .. }) => {
            super::ellipse::distance(a, xa, b, xb)
        }
        _ => None,
    }
}

/// `Some(answer)` when a fast path exists for this pair.
pub(crate) fn penetration(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) -> Option<Option<Penetration>> {
    match (a, b) {
        (Shape::Circle { radius: ra }, Shape::Circle { radius: rb }) => {
            let diff = xb.translation - xa.translation;
            let len = diff.length();
            if !(len > 0.0 && len.is_finite()) {
                // Concentric: the normal is arbitrary; leave it to the generic path.
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
                point_a: xa.translation + *ra * normal,
                point_b: xb.translation - *rb * normal,
            }))
        }
        (Shape::Ellipse { .. }, _) | (_, Shape::Ellipse { .. }) => {
            super::ellipse::penetration(a, xa, b, xb)
        }
        _ => None,
    }
}

/// Closest points of two rounded shapes from their cores' closest points (world
/// frame): `core` apart, `ca` on A's core, `cb` on B's core, `normal` A→B.
pub(super) fn rounded_closest(
    core: f32,
    ra: f32,
    ca: Vec2,
    normal: Vec2,
    cb: Vec2,
    rb: f32,
) -> Option<Closest> {
    let distance = core - ra - rb;
    if !(core > 0.0 && distance > 0.0 && distance.is_finite()) {
        return None;
    }
    Some(Closest {
        distance,
        point_a: ca + ra * normal,
        point_b: cb - rb * normal,
        normal,
    })
}

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

/// B's vertices and normals in A's frame (`xf` = B's pose in A's frame), in
/// buffers of `N` (at least B's vertex count).
fn placed<const N: usize>(b: &Polygon, xf: &Iso) -> ([Vec2; N], [Vec2; N]) {
    let mut vs = [Vec2::ZERO; N];
    let mut ns = [Vec2::ZERO; N];
    for (i, (v, n)) in b.vertices().iter().zip(b.normals()).enumerate() {
        vs[i] = xf.apply(*v);
        ns[i] = xf.rot.apply(*n);
    }
    (vs, ns)
}

/// Smallest signed distance of the points from the line through `v` with unit
/// normal `n`.
#[inline]
fn min_offset(points: &[Vec2], v: Vec2, n: Vec2) -> f32 {
    points
        .iter()
        .fold(f32::INFINITY, |m, p| m.min(n.dot(*p - v)))
}

/// SAT over both polygons' edge normals with early exit on the first separating
/// axis, in A's frame. Touching (separation exactly 0) counts as intersecting.
fn polygons_intersect(a: &Polygon, b: &Polygon, xf: &Iso) -> bool {
    let m = b.vertices().len();
    let (bv, bn) = placed::<SMALL>(b, xf);
    let bv = &bv[..m];
    for (v, n) in a.vertices().iter().zip(a.normals()) {
        if min_offset(bv, *v, *n) > 0.0 {
            return false;
        }
    }
    for (v, n) in bv.iter().zip(&bn[..m]) {
        if min_offset(a.vertices(), *v, *n) > 0.0 {
            return false;
        }
    }
    true
}

/// Deepest vertex of `points` below the line through `v` with unit normal `n`:
/// (smallest offset `n·(p − v)`, its index; the first on ties).
#[inline]
fn min_offset_index(points: &[Vec2], v: Vec2, n: Vec2) -> (f32, usize) {
    let mut best = (f32::INFINITY, 0);
    for (j, p) in points.iter().enumerate() {
        let s = n.dot(*p - v);
        if s < best.0 {
            best = (s, j);
        }
    }
    best
}

/// Exact distance between two small polygons, SAT first.
///
/// The axis of largest separation `s` (an edge of one polygon, with the other's
/// deepest vertex `p` along it) bounds the distance from below. When `p` projects
/// onto the interior of that edge, the pair (p, its projection) is `s` apart, so
/// `s` is the distance and the answer is exact; otherwise (a vertex–vertex or a
/// tie case) the vertex–edge brute force decides.
fn polygons_distance_sat(a: &Polygon, xa: &Iso, b: &Polygon, xb: &Iso) -> Option<Closest> {
    let xf = xa.inv_mul(xb);
    if let (Some(ha), Some(hb)) = (parallelogram(a), parallelogram(b)) {
        let (axis, [rb0, rb1, m0, m1]) = parallelogram_sat(a, ha, b, hb, &xf);
        if axis.sep.is_nan() || axis.sep <= 0.0 {
            return None;
        }
        let t = xf.translation;
        let bv = [t + rb0, t + rb1, t - rb0, t - rb1];
        let bn = [m0, m1, -m0, -m1];
        return face_answer(&axis, a.vertices(), a.normals(), &bv, &bn, xa, false)
            .or_else(|| polygons_distance(a, xa, b, xb));
    }
    let (n, m) = (a.vertices().len(), b.vertices().len());
    let (bv, bn) = placed::<SMALL>(b, &xf);
    let (bv, bn) = (&bv[..m], &bn[..m]);
    let (av, an) = (a.vertices(), a.normals());
    let mut best = Axis {
        sep: f32::NEG_INFINITY,
        on_a: true,
        edge: 0,
        vertex: 0,
    };
    for i in 0..n {
        let (s, j) = min_offset_index(bv, av[i], an[i]);
        if s > best.sep {
            best = Axis {
                sep: s,
                on_a: true,
                edge: i,
                vertex: j,
            };
        }
    }
    for j in 0..m {
        let (s, i) = min_offset_index(av, bv[j], bn[j]);
        if s > best.sep {
            best = Axis {
                sep: s,
                on_a: false,
                edge: j,
                vertex: i,
            };
        }
    }
    if best.sep.is_nan() || best.sep <= 0.0 {
        return None;
    }
    face_answer(&best, av, an, bv, bn, xa, false).or_else(|| polygons_distance(a, xa, b, xb))
}

/// Exact distance between two convex polygons of up to [`WALK_MAX`] vertices,
/// SAT in O(n + m) by walking, then the features of the best axis.
///
/// *The walk.* Along A's edges in order (CCW), the edge normal `nᵢ` turns CCW,
/// and so does the direction `−nᵢ` whose support on B is B's deepest vertex
/// below edge `i`. On the way from `−nᵢ₋₁` to `−nᵢ` (a turn of less than π) the
/// offsets `nᵢ·(bⱼ − aᵢ)` fall strictly along B's boundary, CCW from the
/// previous deepest vertex, to the new one (a convex polygon's vertex offsets
/// along a direction are unimodal around the boundary, and the previous deepest
/// vertex lies on the falling side). So after one full scan for edge 0 each
/// edge costs one offset more than the steps it advances, and the steps total at
/// most one lap of B; the same for B's edges against A. The result is SAT's
/// largest separation, the distance's lower bound.
///
/// *The answer.* The best axis is the edge of the Minkowski difference B − A
/// with the largest separation from the origin, and that edge holds the
/// closest point of B − A to the origin: either in its interior (the deepest
/// vertex projects onto the edge's interior; the separation is the distance) or
/// at one of its ends, a vertex–vertex pair (the argument of
/// [`circle_polygon_core`], applied to B − A). [`face_answer`] and
/// [`near_features`] take these, with the vertex–edge or vertex–vertex cases of
/// parallel edges, each only with its optimality certificate: both points'
/// normal cones hold the connecting direction, which for convex sets is
/// sufficient for the global minimum whatever the walk did.
///
/// *Exactness under rounding.* Every offset the walk reports is some vertex's
/// offset, so a rounding slip can only overstate an axis's separation: a
/// largest separation that is not positive proves overlap or touching (`None`),
/// and any positive one is used only through the certified answers above. When
/// none is certified (ties of parallel edges, slips in the walk), the
/// vertex–edge brute force [`brute_distance`] decides.
fn polygons_distance_walk(a: &Polygon, xa: &Iso, b: &Polygon, xb: &Iso) -> Option<Closest> {
    let m = b.vertices().len();
    let (bv, bn) = placed::<WALK_MAX>(b, &xa.inv_mul(xb));
    let (bv, bn) = (&bv[..m], &bn[..m]);
    let (av, an) = (a.vertices(), a.normals());
    let (sa, ea, va) = walk_axis(av, an, bv);
    let (sb, eb, vb) = walk_axis(bv, bn, av);
    let best = if sb > sa {
        Axis {
            sep: sb,
            on_a: false,
            edge: eb,
            vertex: vb,
        }
    } else {
        Axis {
            sep: sa,
            on_a: true,
            edge: ea,
            vertex: va,
        }
    };
    if best.sep.is_nan() || best.sep <= 0.0 {
        return None;
    }
    face_answer(&best, av, an, bv, bn, xa, true).or_else(|| brute_distance(av, an, bv, bn, xa))
}

/// The walk of [`polygons_distance_walk`]: the largest over X's edges of the
/// smallest offset of Y's vertices from the edge's line, as (separation, X's
/// edge, Y's deepest vertex).
#[inline]
fn walk_axis(xv: &[Vec2], xn: &[Vec2], yv: &[Vec2]) -> (f32, usize, usize) {
    let k = yv.len();
    let (s0, mut j) = min_offset_index(yv, xv[0], xn[0]);
    let mut best = (s0, 0, j);
    for i in 1..xv.len() {
        let (v, nrm) = (xv[i], xn[i]);
        let mut s = nrm.dot(yv[j] - v);
        // Strictly falling offsets cannot cycle, so this ends (NaN stops it too).
        loop {
            let next = if j + 1 == k { 0 } else { j + 1 };
            let sn = nrm.dot(yv[next] - v);
            if sn < s {
                s = sn;
                j = next;
            } else {
                break;
            }
        }
        if s > best.0 {
            best = (s, i, j);
        }
    }
    best
}

/// A SAT axis: the separation along an edge normal, whether the edge is A's,
/// its index, and the index of the other polygon's deepest vertex along it.
struct Axis {
    sep: f32,
    on_a: bool,
    edge: usize,
    vertex: usize,
}

/// The exact answer when the axis of largest separation (`sep > 0`) has its
/// deepest vertex projecting onto the interior of its edge; `None` otherwise.
/// `av`, `an`: A's vertices and normals; `bv`, `bn`: B's, in A's frame.
/// With `certify`, the face answer also requires the deepest vertex to pass its
/// own test (the edge's inward normal in its normal cone, so that it is the
/// other polygon's minimum along the axis); callers whose `axis.vertex` comes
/// from a full scan need not ask.
fn face_answer(
    axis: &Axis,
    av: &[Vec2],
    an: &[Vec2],
    bv: &[Vec2],
    bn: &[Vec2],
    xa: &Iso,
    certify: bool,
) -> Option<Closest> {
    let (verts, norms, others) = if axis.on_a {
        (av, an, bv)
    } else {
        (bv, bn, av)
    };
    let edge = axis.edge;
    let (v0, v1, nrm, p) = (
        verts[edge],
        verts[if edge + 1 == verts.len() { 0 } else { edge + 1 }],
        norms[edge],
        others[axis.vertex],
    );
    let e = v1 - v0;
    let t = (p - v0).dot(e);
    if !(t > 0.0 && t < e.length_squared()) {
        // The deepest vertex is beyond an end of the edge: try the features
        // around that end, each with its optimality certificate.
        let (others_n, qi) = (
            if axis.on_a { bn } else { an },
            if t <= 0.0 {
                edge
            } else {
                (edge + 1) % verts.len()
            },
        );
        let (d, px, py, n) = near_features(verts, norms, others, others_n, qi, axis.vertex)?;
        let (pa, pb, normal) = if axis.on_a { (px, py, n) } else { (py, px, -n) };
        return Some(Closest {
            distance: d,
            point_a: xa.apply(pa),
            point_b: xa.apply(pb),
            normal: xa.rot.apply(normal),
        });
    }
    if certify && !in_cone(others, axis.vertex, -nrm) {
        return None;
    }
    let q = p - axis.sep * nrm;
    let (pa, pb, normal) = if axis.on_a { (q, p, nrm) } else { (p, q, -nrm) };
    Some(Closest {
        distance: axis.sep,
        point_a: xa.apply(pa),
        point_b: xa.apply(pb),
        normal: xa.rot.apply(normal),
    })
}

/// `true` when `u` lies in the normal cone of the polygon at vertex `i`
/// (between the normals of the two edges that meet there).
#[inline]
fn in_cone(v: &[Vec2], i: usize, u: Vec2) -> bool {
    let k = v.len();
    let (prev, cur, next) = (
        v[if i == 0 { k - 1 } else { i - 1 }],
        v[i],
        v[if i + 1 == k { 0 } else { i + 1 }],
    );
    u.dot(cur - prev) >= 0.0 && u.dot(next - cur) <= 0.0
}

/// Closest features of two separated convex polygons X and Y near a guess: the
/// vertex `qi` of X and the vertex `pi` of Y. Tries vertex–vertex, then `p`
/// against X's two edges at `q`, then `q` against Y's two edges at `p`; a
/// candidate is accepted only with its optimality certificate (each side's
/// closest point has the connecting direction in its normal cone, which for
/// convex sets is sufficient for a global minimum). Returns (distance, point on
/// X, point on Y, unit normal X→Y), or `None` when no candidate is certified.
fn near_features(
    xv: &[Vec2],
    xn: &[Vec2],
    yv: &[Vec2],
    yn: &[Vec2],
    qi: usize,
    pi: usize,
) -> Option<(f32, Vec2, Vec2, Vec2)> {
    let (q, p) = (xv[qi], yv[pi]);
    let u = p - q;
    if in_cone(xv, qi, u) && in_cone(yv, pi, -u) {
        let len = u.length();
        return (len > 0.0).then(|| (len, q, p, u / len));
    }
    let (kx, ky) = (xv.len(), yv.len());
    for j in [(qi + kx - 1) % kx, qi] {
        let (v0, v1, n) = (xv[j], xv[(j + 1) % kx], xn[j]);
        let (s, e) = (n.dot(p - v0), v1 - v0);
        let t = (p - v0).dot(e);
        if s > 0.0 && t > 0.0 && t < e.length_squared() && in_cone(yv, pi, -n) {
            return Some((s, p - s * n, p, n));
        }
    }
    for j in [(pi + ky - 1) % ky, pi] {
        let (w0, w1, m) = (yv[j], yv[(j + 1) % ky], yn[j]);
        let (s, e) = (m.dot(q - w0), w1 - w0);
        let t = (q - w0).dot(e);
        if s > 0.0 && t > 0.0 && t < e.length_squared() && in_cone(xv, qi, -m) {
            return Some((s, q, q - s * m, -m));
        }
    }
    None
}

/// Half-diagonals `(v0, v1)` of a parallelogram centred on its own origin (boxes
/// from [`Shape::rect`]): four vertices `v0, v1, −v0, −v1`, exactly.
#[inline]
fn parallelogram(p: &Polygon) -> Option<(Vec2, Vec2)> {
    let v = p.vertices();
    (v.len() == 4 && v[2] == -v[0] && v[3] == -v[1]).then(|| (v[0], v[1]))
}

/// SAT for two origin-centred parallelograms in A's frame (`xf` = B's pose in
/// it). Opposite edges share an axis, so each polygon contributes two: along
/// A's normal `n` of edge `k`, the separation of B from edge `k` or its opposite
/// `k + 2` (whichever faces B) is `|n·t| − n·a_k − max(|n·R b₀|, |n·R b₁|)`,
/// `t` and `R` placing B. Indices refer to the polygons' own vertex arrays.
/// Also returns B's half-diagonals and first two normals rotated into A's frame.
#[inline(always)]
fn parallelogram_sat(
    a: &Polygon,
    (a0, a1): (Vec2, Vec2),
    b: &Polygon,
    (b0, b1): (Vec2, Vec2),
    xf: &Iso,
) -> (Axis, [Vec2; 4]) {
    let t = xf.translation;
    let (rb0, rb1) = (xf.rot.apply(b0), xf.rot.apply(b1));
    let mut best = Axis {
        sep: f32::NEG_INFINITY,
        on_a: true,
        edge: 0,
        vertex: 0,
    };
    // Separation along the axis `n` of the edge pair (k, k + 2) owned by one
    // polygon (half-thickness `h`, offset `c` of the other's centre along `n`),
    // with the other's half-diagonals `o0`, `o1` (same frame as `n`).
    let mut offer = |on_a: bool, k: usize, n: Vec2, h: f32, c: f32, o0: Vec2, o1: Vec2| {
        let (p0, p1) = (n.dot(o0), n.dot(o1));
        let (i, p) = if p1.abs() > p0.abs() {
            (1, p1)
        } else {
            (0, p0)
        };
        let sep = c.abs() - h - p.abs();
        if sep > best.sep {
            let sigma_pos = c >= 0.0;
            // The deepest vertex along the facing normal ±n is ∓sign(p)·o_i.
            let vertex = if (p > 0.0) == sigma_pos { i + 2 } else { i };
            best = Axis {
                sep,
                on_a,
                edge: if sigma_pos { k } else { k + 2 },
                vertex,
            };
        }
    };
    let (an, bn) = (a.normals(), b.normals());
    offer(true, 0, an[0], an[0].dot(a0), an[0].dot(t), rb0, rb1);
    offer(true, 1, an[1], an[1].dot(a1), an[1].dot(t), rb0, rb1);
    let (m0, m1) = (xf.rot.apply(bn[0]), xf.rot.apply(bn[1]));
    offer(false, 0, m0, bn[0].dot(b0), -m0.dot(t), a0, a1);
    offer(false, 1, m1, bn[1].dot(b1), -m1.dot(t), a0, a1);
    (best, [rb0, rb1, m0, m1])
}

/// Closest pair found so far: squared distance, points on A and B (A's frame),
/// and the edge normal (A→B) when the pair is vertex-to-edge-interior.
struct Best {
    d2: f32,
    pa: Vec2,
    pb: Vec2,
    face: Option<(f32, Vec2)>,
}

/// Offers the vertex `p` against the edge `v0`..`v1` (outward unit normal `n`)
/// of the other polygon, given `s = n·(p − v0) > 0`. Returns (closest point on
/// the edge, squared distance, face distance if interior).
#[inline]
fn vertex_edge(p: Vec2, v0: Vec2, v1: Vec2, n: Vec2, s: f32) -> (Vec2, f32, Option<f32>) {
    let e = v1 - v0;
    let t = (p - v0).dot(e);
    if t <= 0.0 {
        (v0, (p - v0).length_squared(), None)
    } else if t >= e.length_squared() {
        (v1, (p - v1).length_squared(), None)
    } else {
        (p - s * n, s * s, Some(s))
    }
}

/// Exact distance between two small polygons: a SAT check for overlap, then the
/// minimum over every vertex–edge pair both ways (the closest points of two
/// disjoint convex polygons are a vertex of one and a point of an edge of the
/// other). The signed offsets `n·(p − v)` serve both: their per-edge minimum is
/// SAT's separation, and an offset that is not positive, or whose square is not
/// below the best squared distance so far, cannot belong to the closest pair.
fn polygons_distance(a: &Polygon, xa: &Iso, b: &Polygon, xb: &Iso) -> Option<Closest> {
    let m = b.vertices().len();
    let (bv, bn) = placed::<SMALL>(b, &xa.inv_mul(xb));
    brute_distance(a.vertices(), a.normals(), &bv[..m], &bn[..m], xa)
}

/// [`polygons_distance`] on A's vertices and normals (`av`, `an`) and B's
/// (`bv`, `bn`), all in A's frame; `xa` places the answer in the world.
fn brute_distance(av: &[Vec2], an: &[Vec2], bv: &[Vec2], bn: &[Vec2], xa: &Iso) -> Option<Closest> {
    let mut best = Best {
        d2: f32::INFINITY,
        pa: Vec2::ZERO,
        pb: Vec2::ZERO,
        face: None,
    };
    // B's vertices against A's edges, then A's vertices against B's edges.
    let sep_a = edges_against_vertices(av, an, bv, false, &mut best);
    let sep_b = edges_against_vertices(bv, bn, av, true, &mut best);
    let max_sep = sep_a.max(sep_b);
    if max_sep.is_nan() || max_sep <= 0.0 || !best.d2.is_finite() {
        return None;
    }
    let (distance, normal) = match best.face {
        Some(f) => f,
        None => {
            let diff = best.pb - best.pa;
            let len = diff.length();
            if len.is_nan() || len <= 0.0 {
                return None;
            }
            (len, diff / len)
        }
    };
    Some(Closest {
        distance,
        point_a: xa.apply(best.pa),
        point_b: xa.apply(best.pb),
        normal: xa.rot.apply(normal),
    })
}

/// One half of [`brute_distance`]: every vertex `p` of one polygon against
/// every edge (`ev`, outward normals `en`) of the other, keeping in `best` the
/// closest vertex–edge pair so far. `edges_of_b` says the edges are B's (the
/// pair and the face normal are then stored the other way round). Returns the
/// largest per-edge minimum offset: SAT's separation over these edges.
#[inline(always)]
fn edges_against_vertices(
    ev: &[Vec2],
    en: &[Vec2],
    pv: &[Vec2],
    edges_of_b: bool,
    best: &mut Best,
) -> f32 {
    let n = ev.len();
    let mut max_sep = f32::NEG_INFINITY;
    for i in 0..n {
        let (v0, v1, nrm) = (ev[i], ev[if i + 1 == n { 0 } else { i + 1 }], en[i]);
        let mut min_s = f32::INFINITY;
        for p in pv {
            let s = nrm.dot(*p - v0);
            min_s = min_s.min(s);
            if s > 0.0 && s * s < best.d2 {
                let (q, d2, face) = vertex_edge(*p, v0, v1, nrm, s);
                if d2 < best.d2 {
                    *best = if edges_of_b {
                        Best {
                            d2,
                            pa: *p,
                            pb: q,
                            face: face.map(|s| (s, -nrm)),
                        }
                    } else {
                        Best {
                            d2,
                            pa: q,
                            pb: *p,
                            face: face.map(|s| (s, nrm)),
                        }
                    };
                }
            }
        }
        max_sep = max_sep.max(min_s);
    }
    max_sep
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{epa, gjk};
    use crate::narrowphase::dispatch;
    use crate::shape::SupportMap;

    /// Hides the shape so that the queries take the generic GJK/EPA path.
    struct Generic<'s>(&'s Shape);

    impl SupportMap for Generic<'_> {
        fn local_core_support(&self, d: Vec2) -> Vec2 {
            self.0.local_core_support(d)
        }
        fn core_radius(&self) -> f32 {
            self.0.core_radius()
        }
    }

    /// Overlap of the two shapes along the unit `n` (world frame): the
    /// translation of B along `n` that separates them.
    fn overlap_along(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso, n: Vec2) -> f32 {
        let h = |s: &Shape, x: &Iso, d: Vec2| {
            d.dot(x.apply(s.local_core_support(x.rot.apply_inv(d)))) + s.core_radius()
        };
        h(a, xa, n) + h(b, xb, -n)
    }

    /// Deterministic pseudo-random numbers in [0, 1) (a 64-bit LCG).
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> f32 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 40) as f32 / (1u64 << 24) as f32
        }
        fn range(&mut self, lo: f32, hi: f32) -> f32 {
            lo + (hi - lo) * self.next()
        }
    }

    /// A regular octagon of circumradius 1, vertices at odd multiples of π/8.
    fn octagon() -> Shape {
        let pts: Vec<Vec2> = (0..8)
            .map(|k| {
                let t = (k as f32 + 0.5) / 8.0 * std::f32::consts::TAU;
                Vec2::new(t.cos(), t.sin())
            })
            .collect();
        Shape::polygon(&pts).unwrap()
    }

    fn triangle() -> Shape {
        Shape::polygon(&[
            Vec2::new(-0.5, -0.4),
            Vec2::new(0.7, -0.3),
            Vec2::new(0.1, 0.6),
        ])
        .unwrap()
    }

    /// Runs every query on `n` random poses both ways and compares.
    fn compare(
        a: &Shape,
        b: &Shape,
        reach: f32,
        seed: u64,
        fast_hit: &dyn Fn(&Shape, &Shape) -> bool,
    ) {
        compare_points(a, b, reach, seed, fast_hit, 1e-4);
    }

    /// [`compare`] with the tolerance on the closest points.
    fn compare_points(
        a: &Shape,
        b: &Shape,
        reach: f32,
        seed: u64,
        fast_hit: &dyn Fn(&Shape, &Shape) -> bool,
        point_tol: f32,
    ) {
        assert!(fast_hit(a, b), "no fast path for {a:?} / {b:?}");
        let mut rng = Lcg(seed);
        let (mut separated, mut overlapping) = (0, 0);
        for _ in 0..2000 {
            let xa = Iso::new(
                Vec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)),
                rng.range(-3.2, 3.2),
            );
            let t = rng.range(0.0, std::f32::consts::TAU);
            let r = rng.range(0.0, 1.3) * reach;
            let xb = Iso::new(
                xa.translation + r * Vec2::new(t.cos(), t.sin()),
                rng.range(-3.2, 3.2),
            );
            let (ga, gb) = (Generic(a), Generic(b));
            let fast_d = dispatch::distance(a, &xa, b, &xb);
            let gen_d = gjk::distance(&ga, &xa, &gb, &xb);
            match (fast_d, gen_d) {
                (Some(f), Some(g)) => {
                    separated += 1;
                    assert!((f.distance - g.distance).abs() < 1e-5, "{f:?} {g:?}");
                    assert!((f.point_a - g.point_a).length() < point_tol, "{f:?} {g:?}");
                    assert!((f.point_b - g.point_b).length() < point_tol, "{f:?} {g:?}");
                    assert!((f.normal.length() - 1.0).abs() < 1e-5);
                    if g.distance > 1e-3 {
                        assert!(f.normal.angle_between(g.normal).abs() < 1e-3, "{f:?} {g:?}");
                    }
                }
                (None, None) => overlapping += 1,
                (f, g) => {
                    // Only within rounding of touching.
                    let d = f.or(g).map_or(0.0, |c| c.distance);
                    assert!(d < 1e-5, "fast {f:?} generic {g:?}");
                }
            }
            let hit = dispatch::intersects(a, &xa, b, &xb);
            let gen_hit = gjk::intersects(&ga, &xa, &gb, &xb);
            if hit != gen_hit {
                let d = fast_d.or(gen_d).map_or(0.0, |c| c.distance);
                assert!(d < 1e-5, "intersects {hit} vs {gen_hit}");
            }
            match (
                dispatch::penetration(a, &xa, b, &xb),
                epa::penetration(&ga, &xa, &gb, &xb),
            ) {
                (Some(f), Some(g)) => {
                    // The fast answer's overlap along its own normal is its
                    // depth, and no other direction (EPA's) overlaps less.
                    let (of, og) = (
                        overlap_along(a, &xa, b, &xb, f.normal),
                        overlap_along(a, &xa, b, &xb, g.normal),
                    );
                    let ctx = || format!("{f:?} {g:?} {a:?} {xa:?} {b:?} {xb:?}: {of} vs {og}");
                    // (Identical answers: both took the generic path.)
                    assert!(f == g || (of - f.depth).abs() < 2e-6, "{}", ctx());
                    assert!(of <= og + 2e-6, "{}", ctx());
                    // EPA reports its polytope's nearest edge, a lower bound; on
                    // a curved side it can stop (a repeated support point) with
                    // that bound more than 1e-5 low, and is then inconsistent:
                    // the overlap along its own normal is not its depth.
                    if (f.depth - g.depth).abs() >= 1e-5 {
                        assert!((og - g.depth).abs() >= 5e-6, "{}", ctx());
                    }
                    // EPA stops at a 1e-6 relative gap, where its normal on a
                    // curved surface can be ~sqrt(2·gap·depth / f'') off (f''
                    // the curvature of the overlap in the direction's angle);
                    // the check above covers those.
                    if g.depth > 1e-3
                        && !matches!(
                            (a, b),
                            (Shape::Ellipse { .. }, _) | (_, Shape::Ellipse { .. })
                        )
                    {
                        assert!(f.normal.angle_between(g.normal).abs() < 1e-3, "{}", ctx());
                    }
                }
                (None, None) => {}
                (f, g) => {
                    let d = f.or(g).map_or(0.0, |p| p.depth);
                    assert!(d < 1e-5, "fast {f:?} generic {g:?}");
                }
            }
        }
        assert!(
            separated > 200 && overlapping > 200,
            "{separated} {overlapping}"
        );
    }

    fn has_distance(a: &Shape, b: &Shape) -> bool {
        distance(a, &Iso::IDENTITY, b, &Iso::IDENTITY).is_some()
    }

    fn has_intersects(a: &Shape, b: &Shape) -> bool {
        intersects(a, &Iso::IDENTITY, b, &Iso::IDENTITY).is_some()
    }

    #[test]
    fn small_polygons_match_generic() {
        let bx = Shape::rect(1.0, 0.5);
        compare(&bx, &bx, 2.3, 1, &|a, b| {
            has_distance(a, b) && has_intersects(a, b)
        });
        let sq = Shape::rect(0.3, 0.3);
        compare(&bx, &sq, 1.6, 2, &has_distance);
        compare(&triangle(), &bx, 1.8, 3, &has_distance);
        compare(&triangle(), &triangle(), 1.4, 4, &has_distance);
        // A skewed parallelogram (its own centred-quad path) against a box and a triangle.
        let skew = Shape::polygon(&[
            Vec2::new(-1.0, -0.3),
            Vec2::new(0.6, -0.5),
            Vec2::new(1.0, 0.3),
            Vec2::new(-0.6, 0.5),
        ])
        .unwrap();
        let Shape::Polygon(p) = &skew else {
            unreachable!()
        };
        assert!(parallelogram(p).is_some());
        compare(&skew, &bx, 2.3, 12, &has_intersects);
        compare(&sq, &skew, 1.6, 13, &has_distance);
        compare(&skew, &triangle(), 1.8, 14, &has_distance);
    }

    #[test]
    fn circle_polygon_matches_generic() {
        let c = Shape::circle(0.4);
        let oct = octagon();
        compare(&c, &oct, 1.4, 5, &|a, b| {
            has_distance(a, b) && has_intersects(a, b)
        });
        compare(&oct, &c, 1.4, 6, &has_distance);
        compare(&c, &triangle(), 1.1, 7, &has_distance);
        compare(&Shape::rect(1.0, 0.2), &c, 1.5, 8, &has_distance);
    }

    #[test]
    fn round_pairs_match_generic() {
        let c = Shape::circle(0.4);
        let c2 = Shape::circle(0.25);
        let cap = Shape::capsule(0.8, 0.2);
        compare(&c, &c2, 0.65, 9, &|a, b| {
            has_distance(a, b)
                && has_intersects(a, b)
                && penetration(a, &Iso::IDENTITY, b, &Iso::new(Vec2::X * 0.1, 0.0)).is_some()
        });
        compare(&c, &cap, 1.4, 10, &has_distance);
        compare(&cap, &c, 1.4, 11, &has_distance);
    }

    #[test]
    fn ellipse_pairs_match_generic() {
        // The ellipse paths answer separated pairs (overlapping ones may go to
        // GJK): ask at a separated pose.
        let apart = |a: &Shape, b: &Shape| {
            let xb = Iso::new(Vec2::new(5.0, 0.3), 0.2);
            distance(a, &Iso::IDENTITY, b, &xb).is_some()
                && intersects(a, &Iso::IDENTITY, b, &xb).is_some()
        };
        // GJK stops at a 1e-6 relative gap, where its point on a curved surface
        // can still be ~sqrt(2·gap·curvature radius) off: up to ~5e-3 here (gap
        // 2e-6, radius 1.2²/0.3 = 4.8). The exact answers themselves are checked
        // in `ellipse.rs`.
        let cmp = |a: &Shape, b: &Shape, reach: f32, seed: u64| {
            compare_points(a, b, reach, seed, &apart, 1e-2)
        };
        let e = Shape::ellipse(1.0, 0.5);
        let oct = octagon();
        cmp(&e, &oct, 2.0, 15);
        cmp(&oct, &e, 2.0, 16);
        cmp(&Shape::ellipse(0.3, 1.2), &Shape::rect(1.0, 0.2), 2.2, 17);
        cmp(&triangle(), &Shape::ellipse(0.8, 0.2), 1.6, 18);
        cmp(&Shape::ellipse(0.6, 0.9), &Shape::circle(0.4), 1.3, 19);
        cmp(
            &Shape::capsule(0.8, 0.2),
            &Shape::ellipse(1.5, 0.4),
            2.5,
            20,
        );
    }

    #[test]
    fn generic_paths_stay_generic() {
        let oct: Vec<Vec2> = (0..8)
            .map(|k| {
                let t = k as f32 / 8.0 * std::f32::consts::TAU;
                Vec2::new(t.cos(), t.sin())
            })
            .collect();
        let oct = Shape::polygon(&oct).unwrap();
        assert!(has_distance(&oct, &oct) && !has_intersects(&oct, &oct));
        let big: Vec<Vec2> = (0..WALK_MAX + 1)
            .map(|k| {
                let t = k as f32 / (WALK_MAX + 1) as f32 * std::f32::consts::TAU;
                Vec2::new(t.cos(), t.sin())
            })
            .collect();
        let big = Shape::polygon(&big).unwrap();
        assert!(!has_distance(&big, &oct) && !has_distance(&oct, &big));
        let e = Shape::ellipse(1.0, 0.5);
        assert!(!has_distance(&e, &e) && !has_intersects(&e, &e));
    }

    /// f64 point–segment distance.
    fn point_segment_f64(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
        let (ex, ey) = (b[0] - a[0], b[1] - a[1]);
        let (px, py) = (p[0] - a[0], p[1] - a[1]);
        let t = ((px * ex + py * ey) / (ex * ex + ey * ey)).clamp(0.0, 1.0);
        (px - t * ex).hypot(py - t * ey)
    }

    /// The polygon's vertices in the world, in f64.
    fn world_f64(p: &Polygon, x: &Iso) -> Vec<[f64; 2]> {
        p.vertices()
            .iter()
            .map(|v| {
                let w = x.apply(*v);
                [w.x as f64, w.y as f64]
            })
            .collect()
    }

    /// Distance from `q` to the boundary of the polygon `w`.
    fn boundary_f64(w: &[[f64; 2]], q: [f64; 2]) -> f64 {
        (0..w.len())
            .map(|i| point_segment_f64(q, w[i], w[(i + 1) % w.len()]))
            .fold(f64::INFINITY, f64::min)
    }

    /// The oracle in f64: (largest SAT separation, the vertex–edge brute-force
    /// distance, whether the closest pair is vertex–vertex).
    fn oracle_f64(wa: &[[f64; 2]], wb: &[[f64; 2]]) -> (f64, f64, bool) {
        let sep = |x: &[[f64; 2]], y: &[[f64; 2]]| {
            (0..x.len())
                .map(|i| {
                    let (p, q) = (x[i], x[(i + 1) % x.len()]);
                    let n = [q[1] - p[1], p[0] - q[0]];
                    let l = n[0].hypot(n[1]);
                    y.iter()
                        .map(|v| (n[0] * (v[0] - p[0]) + n[1] * (v[1] - p[1])) / l)
                        .fold(f64::INFINITY, f64::min)
                })
                .fold(f64::NEG_INFINITY, f64::max)
        };
        let mut best = f64::INFINITY;
        for (x, y) in [(wa, wb), (wb, wa)] {
            for v in y {
                best = best.min(boundary_f64(x, *v));
            }
        }
        let mut vv = f64::INFINITY;
        for p in wa {
            for q in wb {
                vv = vv.min((p[0] - q[0]).hypot(p[1] - q[1]));
            }
        }
        (sep(wa, wb).max(sep(wb, wa)), best, vv <= best + 1e-9)
    }

    /// A random convex polygon of 3–16 vertices: regular (stretched, so with
    /// parallel edges when even), on a circle at random angles, or the hull of
    /// random points.
    fn random_convex(rng: &mut Lcg) -> Polygon {
        loop {
            let n = 3 + (rng.next() * 14.0) as usize;
            let size = rng.range(0.1, 2.0);
            let aspect = rng.range(1.0, 4.0);
            let kind = rng.next();
            let pts: Vec<Vec2> = if kind < 0.3 {
                let phase = rng.next();
                (0..n)
                    .map(|k| {
                        let t = (k as f32 + phase) / n as f32 * std::f32::consts::TAU;
                        Vec2::new(t.cos(), t.sin() / aspect) * size
                    })
                    .collect()
            } else if kind < 0.6 {
                let mut t: Vec<f32> = (0..n)
                    .map(|_| rng.range(0.0, std::f32::consts::TAU))
                    .collect();
                t.sort_by(f32::total_cmp);
                t.iter()
                    .map(|t| Vec2::new(t.cos(), t.sin() / aspect) * size)
                    .collect()
            } else {
                (0..n)
                    .map(|_| Vec2::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0) / aspect) * size)
                    .collect()
            };
            let p = if kind < 0.6 {
                Polygon::new(&pts)
            } else {
                Polygon::convex_hull(&pts)
            };
            if let Ok(p) = p {
                if p.vertices().len() <= WALK_MAX {
                    return p;
                }
            }
        }
    }

    /// The walking-SAT distance against the f64 vertex–edge brute force on
    /// 24 000 random pairs of 3–16-gons (random poses, near-touching, parallel
    /// edges facing), closest points and normal consistent, and swap symmetry.
    #[test]
    fn walk_distance_matches_brute_force() {
        let mut rng = Lcg(0x5eed_9090);
        let (mut separated, mut touching, mut near, mut parallel, mut vv) = (0, 0, 0, 0, 0);
        for trial in 0..24_000 {
            let (a, b) = (random_convex(&mut rng), random_convex(&mut rng));
            let xa = Iso::new(
                Vec2::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)),
                rng.range(-3.2, 3.2),
            );
            let dir = rng.range(0.0, std::f32::consts::TAU);
            let u = Vec2::new(dir.cos(), dir.sin());
            let mut xb = Iso::new(
                xa.translation + rng.range(0.0, 4.0) * u,
                rng.range(-3.2, 3.2),
            );
            match trial % 4 {
                // Parallel: one of B's edges faces one of A's, B pushed out along it.
                2 => {
                    let (i, j) = (
                        (rng.next() * a.vertices().len() as f32) as usize,
                        (rng.next() * b.vertices().len() as f32) as usize,
                    );
                    let na = xa.rot.apply(a.normals()[i]);
                    let nb = b.normals()[j];
                    let rot = (-na).y.atan2((-na).x) - nb.y.atan2(nb.x);
                    let shift = rng.range(-0.5, 0.5) * Vec2::new(-na.y, na.x);
                    xb = Iso::new(xa.apply(a.vertices()[i]) + shift + 2.5 * na, rot);
                    // Then slide B back so that the gap is small.
                    let (sep, d, _) = oracle_f64(&world_f64(&a, &xa), &world_f64(&b, &xb));
                    if sep > 0.0 {
                        let gap = [1e-3f64, 1e-2, 0.3][trial % 3];
                        xb.translation -= ((d - gap) as f32) * na;
                    }
                    parallel += 1;
                }
                // Near-touching: slide B toward A along the closest pair's normal.
                3 => {
                    let m = b.vertices().len();
                    let (bv, bn) = placed::<WALK_MAX>(&b, &xa.inv_mul(&xb));
                    let bf = brute_distance(a.vertices(), a.normals(), &bv[..m], &bn[..m], &xa);
                    if let Some(c) = bf {
                        let gap = [1e-4, 1e-3, 3e-2][trial % 3];
                        xb.translation -= (c.distance - gap) * c.normal;
                        near += 1;
                    }
                }
                _ => {}
            }
            let (wa, wb) = (world_f64(&a, &xa), world_f64(&b, &xb));
            let (sep, exact, is_vv) = oracle_f64(&wa, &wb);
            let got = polygons_distance_walk(&a, &xa, &b, &xb);
            let swapped = polygons_distance_walk(&b, &xb, &a, &xa);
            let ctx =
                || format!("{a:?} {xa:?} {b:?} {xb:?}: {got:?} {swapped:?} sep {sep} d {exact}");
            if sep <= 1e-6 {
                // Overlapping or within rounding of touching.
                for c in [got, swapped].into_iter().flatten() {
                    assert!(c.distance < 1e-5, "{}", ctx());
                }
                touching += 1;
                continue;
            }
            let (Some(c), Some(s)) = (got, swapped) else {
                assert!(exact < 1e-5, "{}", ctx());
                continue;
            };
            separated += 1;
            vv += is_vv as usize;
            assert!((c.distance as f64 - exact).abs() < 1e-5, "{}", ctx());
            assert!((s.distance - c.distance).abs() < 1e-6, "{}", ctx());
            for (p, w) in [
                (c.point_a, &wa),
                (c.point_b, &wb),
                (s.point_a, &wb),
                (s.point_b, &wa),
            ] {
                assert!(
                    boundary_f64(w, [p.x as f64, p.y as f64]) < 1e-5,
                    "{}",
                    ctx()
                );
            }
            for k in [c, s] {
                assert!(
                    ((k.point_b - k.point_a).length() - k.distance).abs() < 1e-5,
                    "{}",
                    ctx()
                );
                assert!((k.normal.length() - 1.0).abs() < 1e-5, "{}", ctx());
                assert!(
                    (k.normal.dot(k.point_b - k.point_a) - k.distance).abs() < 1e-5,
                    "{}",
                    ctx()
                );
            }
            // (Below 1e-3 the normal of a vertex–vertex pair is f32 rounding
            // over the gap.)
            if exact > 1e-3 {
                assert!((c.normal + s.normal).length() < 1e-3, "{}", ctx());
            }
        }
        assert!(
            separated > 12_000
                && touching > 1_000
                && near > 3_000
                && parallel > 3_000
                && vv > 1_000,
            "{separated} {touching} {near} {parallel} {vv}"
        );
    }
}
