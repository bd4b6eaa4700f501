//! The polygon/polygon contact manifold on the separating-axis path: SAT
//! finds the deepest overlap, and polygons of at most seven vertices take a
//! fast path that reproduces the general manifold ([`from_contact`]) bit for
//! bit while placing each vertex once; apart within reach, it takes their
//! gap from the exact distance kernel instead of GJK.

use crate::geometry::gjk::{Closest, SimplexCache};
use crate::geometry::{epa, sat};
use crate::math::{Iso, Vec2};
use crate::narrowphase::manifold::{
    clip, from_contact, polygon_face, witness_manifold, Manifold, PointFeature,
    FACE_ALIGNMENT_TOLERANCE, REFERENCE_HYSTERESIS,
};
use crate::shape::{Polygon, Shape};

/// Largest vertex count of the polygon fast path. Up to 7 vertices,
/// [`sat::max_edge_separation`] takes each edge's minimum in vertex order (the
/// first of equal values wins), which the fast path reproduces; from 8 on the
/// compiler may reduce in another order, which can pick the other zero of ±0.
pub(crate) const SMALL_POLYGON: usize = 7;

/// The general manifold ([`polygon_overlap`], then [`from_contact`]) for two
/// overlapping polygons of at most
/// [`SMALL_POLYGON`] vertices, with the same results bit for bit: the
/// separating-axis test keeps the vertices it placed for the deepest-point
/// search, one relative transform serves every stage, and the face searches
/// skip the shape dispatch. Polygons a face axis shows apart beyond the
/// speculative distance get the empty manifold, as GJK would find. Apart
/// within it, their closest points come from `apart` (B's pose in A's frame
/// given; the dispatch's distance kernel, exact to rounding: SAT with
/// certified features, as Box2D v3 measures polygons), or from GJK where
/// that kernel has no answer; the manifold is then built from them as
/// [`from_contact`] builds it. GJK's cache is left as it was unless GJK runs.
#[allow(clippy::too_many_arguments)]
pub(crate) fn collide_small_polygons(
    a: &Shape,
    pa: &Polygon,
    xa: &Iso,
    b: &Shape,
    pb: &Polygon,
    xb: &Iso,
    speculative: f32,
    cache: &mut SimplexCache,
    apart: impl FnOnce(&Iso) -> Option<Option<Closest>>,
) -> (Manifold, [PointFeature; 2]) {
    let xf = xa.inv_mul(xb); // B in A's frame
    let contact = match small_polygon_overlap(pa, xa, pb, xb, &xf, speculative) {
        Ok(contact) => contact,
        // A face axis shows a gap wider than the speculative distance: the
        // distance is at least that gap, so the manifold is empty, without
        // measuring it. The margin covers the rounding by which GJK's
        // distance may fall short of the gap (at most a few ulps of the
        // coordinates), so the answer is the same as GJK's.
        Err(gap) if gap > speculative + GAP_ROUNDING * scale(pa, xa, pb, xb) => {
            return (Manifold::default(), Default::default())
        }
        // Apart within reach: the exact distance kernel's closest points,
        // in A's frame; GJK only where it has none.
        Err(_) => {
            let contact = match apart(&xf) {
                Some(Some(c)) => epa::CoreContact::Separated {
                    distance: c.distance,
                    normal: c.normal,
                    point_a: c.point_a,
                    point_b: c.point_b,
                },
                _ => epa::contact(a, xa, b, xb, Some(cache), None),
            };
            return from_contact(a, xa, b, xb, &contact, speculative);
        }
    };
    let mut m = Manifold::default();
    let mut features = [PointFeature::default(); 2];
    let sep = contact.separation();
    let n = contact.normal(); // A's frame, A → B
    if sep > speculative || !sep.is_finite() || !n.is_finite() {
        return (m, features);
    }
    // As `best_face(a, &Iso::IDENTITY, n)` and `best_face(b, &xf, -n)`.
    let fa = polygon_face(pa, &Iso::IDENTITY, Iso::IDENTITY.rot.apply_inv(n));
    let fb = polygon_face(pb, &xf, xf.rot.apply_inv(-n));
    let (align_a, align_b) = (fa.1, fb.1);
    let flip = align_b > align_a + REFERENCE_HYSTERESIS;
    let best_align = align_a.max(align_b);
    if best_align >= 1.0 - FACE_ALIGNMENT_TOLERANCE {
        // Incident face: reused when its search direction is the contact
        // normal's (see `from_contact`).
        let (reference, incident) = if flip {
            let dir = -fb.0.normal;
            let incident = if dir == n {
                fa.0
            } else {
                polygon_face(pa, &Iso::IDENTITY, Iso::IDENTITY.rot.apply_inv(dir)).0
            };
            (fb.0, incident)
        } else {
            let dir = -fa.0.normal;
            let incident = if dir == -n {
                fb.0
            } else {
                polygon_face(pb, &xf, xf.rot.apply_inv(dir)).0
            };
            (fa.0, incident)
        };
        clip(
            &mut m,
            &mut features,
            &reference,
            &incident,
            flip,
            speculative,
        );
        if m.count > 0 {
            for (p, f) in m.points[..m.count].iter_mut().zip(&mut features) {
                p.point = xa.apply(p.point);
                *f = f.to_world(xa);
            }
            m.normal = xa.rot.apply(if flip {
                -reference.normal
            } else {
                reference.normal
            });
            return (m, features);
        }
    }
    witness_manifold(a, xa, b, &xf, &contact, Some(fa), Some(fb))
}

/// Relative margin on a face-axis gap before it alone rules out contact:
/// about a hundred f32 ulps of the pair's coordinates ([`scale`]).
const GAP_ROUNDING: f32 = 1e-5;

/// The size of the pair's coordinates: the larger position's largest
/// component plus both bounding radii.
#[inline]
fn scale(a: &Polygon, xa: &Iso, b: &Polygon, xb: &Iso) -> f32 {
    let at = |x: &Iso| x.translation.abs().max_element();
    at(xa).max(at(xb)) + a.bounding_radius() + b.bounding_radius()
}

/// [`polygon_overlap`] for polygons of at most [`SMALL_POLYGON`] vertices, with
/// the same results bit for bit: each polygon's vertices are placed in the
/// other's frame once, for both the axis search and the deepest vertex.
/// Apart polygons give `Err` with the largest face-axis gap found, a lower
/// bound on their distance: A's gap alone when it exceeds `speculative`,
/// else the larger of both polygons' gaps.
#[inline]
fn small_polygon_overlap(
    a: &Polygon,
    xa: &Iso,
    b: &Polygon,
    xb: &Iso,
    xf: &Iso,
    speculative: f32,
) -> Result<epa::CoreContact, f32> {
    let mut placed_b = [Vec2::ZERO; SMALL_POLYGON];
    let placed_b = place(&mut placed_b, b, xf);
    let (sa, ea) = max_separation_in_order(a, placed_b);
    if sa > speculative {
        return Err(sa);
    }
    let xf_ba = xb.inv_mul(xa); // A in B's frame
    let mut placed_a = [Vec2::ZERO; SMALL_POLYGON];
    let placed_a = place(&mut placed_a, a, &xf_ba);
    let (sb, eb) = max_separation_in_order(b, placed_a);
    if sa > 0.0 || sb > 0.0 {
        return Err(sa.max(sb));
    }
    Ok(face_contact(
        a,
        b,
        xf,
        (sa, ea),
        (sb, eb),
        |v, n| deepest_point(placed_a, v, n),
        |v, n| deepest_point(placed_b, v, n),
    ))
}

/// `p`'s vertices mapped by `xf` into the front of `out`, which is returned.
#[inline]
fn place<'o>(out: &'o mut [Vec2], p: &Polygon, xf: &Iso) -> &'o [Vec2] {
    let out = &mut out[..p.vertices().len()];
    for (o, w) in out.iter_mut().zip(p.vertices()) {
        *o = xf.apply(*w);
    }
    out
}

/// [`sat::max_edge_separation`] of already placed points: for each edge of
/// `a`, the smallest `n · (w - v)` over the points taken in order (a later
/// point replaces the minimum only when strictly smaller), and the first edge
/// of strictly largest separation.
#[inline]
fn max_separation_in_order(a: &Polygon, points: &[Vec2]) -> (f32, usize) {
    let mut best = (f32::NEG_INFINITY, 0);
    for (i, (v, n)) in a.vertices().iter().zip(a.normals()).enumerate() {
        let mut s = f32::INFINITY;
        for w in points {
            let d = n.dot(*w - *v);
            if d < s {
                s = d;
            }
        }
        if s > best.0 {
            best = (s, i);
        }
    }
    best
}

/// The first of the points deepest below the face through `v` with normal `n`
/// (the origin when no distance compares below infinity).
#[inline]
fn deepest_point(points: &[Vec2], v: Vec2, n: Vec2) -> Vec2 {
    let mut best = (f32::INFINITY, Vec2::ZERO);
    for w in points {
        let d = n.dot(*w - v);
        if d < best.0 {
            best = (d, *w);
        }
    }
    best.1
}

/// Overlapping polygons, by the separating-axis test: when every edge normal of
/// both polygons shows overlap, the axis of largest separation is the minimum
/// translation direction, the same normal and depth EPA converges to, found
/// without building a polytope. `None` when the polygons are apart (GJK then
/// measures the true distance; SAT's would only be a lower bound).
pub(crate) fn polygon_overlap(
    a: &Polygon,
    xa: &Iso,
    b: &Polygon,
    xb: &Iso,
) -> Option<epa::CoreContact> {
    let xf = xa.inv_mul(xb); // B in A's frame
    let (sa, ea) = sat::max_edge_separation(a, b, &xf);
    if sa > 0.0 {
        return None;
    }
    let xf_ba = xb.inv_mul(xa); // A in B's frame
    let (sb, eb) = sat::max_edge_separation(b, a, &xf_ba);
    if sb > 0.0 {
        return None;
    }
    // The deepest vertex of `p` (placed by `x`) against the face (v, n), in the
    // face owner's frame.
    let deepest = |p: &Polygon, x: &Iso, v: Vec2, n: Vec2| {
        let mut best = (f32::INFINITY, Vec2::ZERO);
        for w in p.vertices() {
            let w = x.apply(*w);
            let d = n.dot(w - v);
            if d < best.0 {
                best = (d, w);
            }
        }
        best.1
    };
    Some(face_contact(
        a,
        b,
        &xf,
        (sa, ea),
        (sb, eb),
        |v, n| deepest(a, &xf_ba, v, n),
        |v, n| deepest(b, &xf, v, n),
    ))
}

/// The contact of two overlapping polygons from the separating-axis test's
/// largest separations `(s, edge)` of A's and of B's faces (A's frame, A
/// toward B): the face of least penetration is the reference, and the
/// incident polygon's deepest vertex against it (`deepest_a(v, n)` finds A's
/// vertex against B's face `(v, n)` in B's frame, `deepest_b` B's vertex
/// against A's face in A's frame) is the witness point.
#[inline(always)]
fn face_contact(
    a: &Polygon,
    b: &Polygon,
    xf: &Iso,
    (sa, ea): (f32, usize),
    (sb, eb): (f32, usize),
    deepest_a: impl FnOnce(Vec2, Vec2) -> Vec2,
    deepest_b: impl FnOnce(Vec2, Vec2) -> Vec2,
) -> epa::CoreContact {
    if sb > sa {
        // B's face: its normal, turned into A's frame and from A toward B.
        let (v, nb) = (b.vertices()[eb], b.normals()[eb]);
        let point_a = xf.apply(deepest_a(v, nb));
        let n = -xf.rot.apply(nb);
        epa::CoreContact::Penetrating {
            depth: -sb,
            normal: n,
            point_a,
            point_b: point_a + sb * n,
        }
    } else {
        let (v, n) = (a.vertices()[ea], a.normals()[ea]);
        let point_b = deepest_b(v, n);
        epa::CoreContact::Penetrating {
            depth: -sa,
            normal: n,
            point_a: point_b - sa * n,
            point_b,
        }
    }
}
