//! Polygon/polygon kernels: the separating-axis intersection test and the
//! exact distance (SAT with certified nearby features, the O(n + m) walk, and
//! the vertex–edge brute force they fall back to).

use crate::geometry::gjk::Closest;
use crate::math::{Iso, Vec2};
use crate::shape::Polygon;

/// Largest vertex count of either polygon on the small-polygon paths (the
/// stack buffers' size).
pub(crate) const SMALL: usize = 8;

/// Largest vertex count of either polygon on the O(n + m) walking-SAT distance
/// path ([`polygons_distance_walk`]); larger polygons keep GJK.
pub(crate) const WALK_MAX: usize = 16;

/// `true` when the polygons (at most [`SMALL`] vertices each) touch or
/// overlap: closed-form SAT on 2 + 2 axes for two centred parallelograms
/// (boxes), SAT with early exit otherwise.
pub(crate) fn polygons_meet(a: &Polygon, xa: &Iso, b: &Polygon, xb: &Iso) -> bool {
    let xf = xa.inv_mul(xb);
    match (parallelogram(a), parallelogram(b)) {
        (Some(ha), Some(hb)) => parallelogram_sat(a, ha, b, hb, &xf).0.sep <= 0.0,
        _ => polygons_intersect(a, b, &xf),
    }
}

/// B's vertices and normals in A's frame (`xf` = B's pose in A's frame), in
/// buffers of `N` (at least B's vertex count).
pub(crate) fn placed<const N: usize>(b: &Polygon, xf: &Iso) -> ([Vec2; N], [Vec2; N]) {
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
pub(crate) fn polygons_distance_sat(
    a: &Polygon,
    xa: &Iso,
    b: &Polygon,
    xb: &Iso,
) -> Option<Closest> {
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
/// `circle::circle_polygon_core`, applied to B − A). [`face_answer`] and
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
pub(crate) fn polygons_distance_walk(
    a: &Polygon,
    xa: &Iso,
    b: &Polygon,
    xb: &Iso,
) -> Option<Closest> {
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
/// from [`crate::shape::Shape::rect`]): four vertices `v0, v1, −v0, −v1`, exactly.
#[inline]
pub(crate) fn parallelogram(p: &Polygon) -> Option<(Vec2, Vec2)> {
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
pub(crate) fn brute_distance(
    av: &[Vec2],
    an: &[Vec2],
    bv: &[Vec2],
    bn: &[Vec2],
    xa: &Iso,
) -> Option<Closest> {
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
