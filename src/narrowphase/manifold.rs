//! Contact manifolds: up to two contact points sharing one normal.
//!
//! The normal comes from the narrowphase: EPA's penetration normal when the
//! shapes overlap, GJK's closest-point normal when they are apart but within the
//! speculative distance. Points then come from the features facing that normal:
//!
//! * When a flat face (a polygon edge or a capsule's side) lies within ~0.8° of the
//!   normal, the face best aligned with it is the *reference* face (A's unless B's
//!   is clearly better, for stable choices frame to frame), the other shape's most
//!   anti-parallel face is the *incident* face, and the incident face is clipped to
//!   the reference face's side planes (Sutherland–Hodgman on a segment). Each point
//!   that survives within the speculative distance becomes a contact.
//! * Otherwise (circles, ellipses, vertex-to-vertex) one point between the two
//!   witness points of GJK/EPA.
//!
//! ```text
//!        incident face  w1 ●━━━━━━━━━━━━━━━━━━━━━━━━● w2
//!                            ↓ clipped         ↓ kept
//!   reference face   v1 ●───────────────────────● v2     n ↑ (reference normal)
//!                       |<- side plane   side plane ->|
//! ```
//!
//! Every point carries a feature id so the solver can match it to last step's
//! point and warm-start its impulses. A clipped point's id is the pair of facing
//! vertices (one of A, one of B), as in Box2D v3: it does not depend on which
//! face is the reference nor on whether the vertex was clipped, both of which
//! flicker between faces that touch flush (a row of boxes; the 100-row pyramid
//! lost the warm start of 200–2,000 points a step to them).
//!
//! Each point also records its contact *geometry* (`PointFeature`: a face
//! against a point, or two points) so that the solver's position pass can
//! recompute separation and normal from the bodies' current poses instead of
//! along the step-start normal:
//!
//! * *face–point*: a flat face (polygon edge or capsule side, a segment `q₁q₂`;
//!   or, where two cores meet too deep for a direction between them, the
//!   unbounded tangent plane at a witness point) carried by one body, and a
//!   core point `p` carried by the other:
//!   `s = n·(p - q₁) - r` with `n` turning with the face's body, or, once `p`
//!   has moved past an end of the face while outside it, the point–point
//!   distance to that end;
//! * *point–point*: two core points (polygon vertices, circle centres, capsule
//!   end points, an ellipse's centre of curvature at the contact) with the sum
//!   of their rounding radii: `s = |pB - pA| - r`, `n = (pB - pA)/|pB - pA|`,
//!   so a corner sliding over a rounded end follows the curved surface instead
//!   of cutting under its tangent, and a rolling ellipse follows its
//!   osculating circle.
//!
//! With [`crate::WorldSettings::polygon_sat`] (the default), two overlapping polygons skip
//! GJK/EPA: the separating-axis test over both polygons' edge normals gives the
//! same minimum-translation normal and depth directly (a polygon pair's minimum
//! translation is always along an edge normal). Separated polygons still go
//! through GJK for the exact distance.
//!
//! Reference: E. Catto, "Contact Manifolds" (GDC 2007); Box2D `manifold.c`.

use crate::geometry::gjk::SimplexCache;
use crate::geometry::{epa, sat};
use crate::math::{Iso, Vec2};
use crate::shape::Shape;
use crate::shape::{Polygon, SupportMap};
use serde::{Deserialize, Serialize};

/// `1 - cos(angle)` below which a face counts as aligned with the normal (about 2.6°).
const FACE_ALIGNMENT_TOLERANCE: f32 = 1e-3;
/// Bias toward keeping A's face as reference: B's must be better by this much.
const REFERENCE_HYSTERESIS: f32 = 1e-4;
/// Feature id of a single-point (smooth) contact.
pub const SMOOTH_FEATURE: u32 = 1 << 30;
/// Tag of the feature ids of clipped (face–face) points.
pub(crate) const CLIPPED_FEATURE: u32 = 1 << 28;

/// One contact point.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ManifoldPoint {
    /// Contact point, midway between the two surfaces (world, m).
    pub point: Vec2,
    /// Signed gap along the normal (m): negative when penetrating.
    pub separation: f32,
    /// Feature id for matching across steps.
    pub id: u32,
    /// Accumulated normal impulse (N·s), carried over for warm starting.
    pub normal_impulse: f32,
    /// Accumulated friction impulse (N·s).
    pub tangent_impulse: f32,
}

/// Up to two contact points with a shared normal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Manifold {
    /// Unit normal from A toward B (world).
    pub normal: Vec2,
    /// Contact points; the first `count` are meaningful.
    pub points: [ManifoldPoint; 2],
    /// Number of points (0 to 2).
    pub count: usize,
}

impl Manifold {
    /// The meaningful points.
    pub fn points(&self) -> &[ManifoldPoint] {
        &self.points[..self.count]
    }

    /// The deepest (most negative) separation, or `f32::INFINITY` when empty.
    pub fn min_separation(&self) -> f32 {
        self.points()
            .iter()
            .fold(f32::INFINITY, |m, p| m.min(p.separation))
    }
}

/// How a contact point's separation is recomputed from the bodies' poses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum FeatureKind {
    /// A face of A (through `pa`, normal `normal`) against a core point `pb` of B.
    #[default]
    PlaneA,
    /// A face of B (through `pb`, normal `normal`, pointing toward A) against a
    /// core point `pa` of A.
    PlaneB,
    /// Core points `pa` and `pb`; the normal is their direction.
    Points,
}

/// The geometry of one contact point at the poses it was built from (world
/// frame): see the module header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct PointFeature {
    pub kind: FeatureKind,
    /// Point on A: a point of A's face (`PlaneA`) or A's core point.
    pub pa: Vec2,
    /// Point on B: B's core point, or a point of B's face (`PlaneB`).
    pub pb: Vec2,
    /// Face normal (unit, outward from the face's body); unused for `Points`.
    pub normal: Vec2,
    /// Length of the face from its point along `(-normal.y, normal.x)` (the
    /// face's counter-clockwise direction), or negative for an unbounded
    /// tangent plane.
    pub length: f32,
    /// Sum of the rounding radii around the core features (m).
    pub radius: f32,
    /// Rounding radius around the point that carries the anchor: `pb` for
    /// `PlaneA`, `pa` otherwise (m).
    pub point_radius: f32,
}

impl PointFeature {
    /// Maps a feature from A's frame to the world.
    fn to_world(self, xa: &Iso) -> PointFeature {
        PointFeature {
            pa: xa.apply(self.pa),
            pb: xa.apply(self.pb),
            normal: xa.rot.apply(self.normal),
            ..self
        }
    }
}

/// A contact point's separation, normal (A → B) and anchor, midway between
/// the two surfaces, from its feature geometry at some poses (see the module
/// header): the face `pa`/`pb` with normal `n` and `length` against the other
/// core point, or two core points (`n` is then the fallback direction for
/// coincident points). The narrowphase's reused manifolds and the solver's
/// per-substep update measure contacts with this one routine.
#[inline(always)]
pub(crate) fn measure(
    kind: FeatureKind,
    pa: Vec2,
    pb: Vec2,
    n: Vec2,
    length: f32,
    radius: f32,
    point_radius: f32,
) -> (f32, Vec2, Vec2) {
    match kind {
        FeatureKind::PlaneA => {
            let (s, n) = match face_to_point(pa, n, length, pb) {
                Some(e) => points(e, pb, radius, n),
                None => (n.dot(pb - pa) - radius, n),
            };
            (s, n, pb - (point_radius + 0.5 * s) * n)
        }
        FeatureKind::PlaneB => {
            let (s, n) = match face_to_point(pb, n, length, pa) {
                Some(e) => points(pa, e, radius, -n),
                None => (n.dot(pa - pb) - radius, -n),
            };
            (s, n, pa + (point_radius + 0.5 * s) * n)
        }
        FeatureKind::Points => {
            let (s, n) = points(pa, pb, radius, n);
            (s, n, pa + (point_radius + 0.5 * s) * n)
        }
    }
}

/// The end of a face (start `q`, outward normal `n`, length `len`, negative for
/// an unbounded plane) nearest to point `p` when `p` lies outside the face and
/// beyond one of its ends: there the face's nearest feature is that end.
#[inline(always)]
fn face_to_point(q: Vec2, n: Vec2, len: f32, p: Vec2) -> Option<Vec2> {
    if len < 0.0 {
        return None;
    }
    let d = p - q;
    let t = Vec2::new(-n.y, n.x);
    let u = t.dot(d);
    if n.dot(d) > 0.0 && (u < 0.0 || u > len) {
        Some(q + u.clamp(0.0, len) * t)
    } else {
        None
    }
}

/// Separation and normal of two core points `pa`, `pb` with rounding
/// `radius`; `fallback` is the normal when they coincide.
#[inline(always)]
fn points(pa: Vec2, pb: Vec2, radius: f32, fallback: Vec2) -> (f32, Vec2) {
    let d = pb - pa;
    let len = d.length();
    let n = if len > 0.0 { d / len } else { fallback };
    (len - radius, n)
}

/// The core point behind a shape's surface point `p`, where its outward
/// normal is `out` (the shape placed at `xf`, both in A's frame), and the
/// radius from the core out to the surface. Rounded shapes have their
/// skeleton as core (a circle's centre, a capsule's segment, a polygon
/// itself, radius 0). An ellipse's core is its centre of curvature at `p`,
/// with the radius of curvature `ρ = (rx·ry)² / h³`, `h` its support distance
/// along `out`: the osculating circle, which follows the surface to second
/// order as the ellipse rolls. (A contact that tracked the material point
/// `p` instead would see it rise as the ellipse turns, let a rocking ellipse
/// sink into its support and be pushed back up each swing, and pump energy
/// into the rocking.)
fn core_behind(shape: &Shape, xf: &Iso, p: Vec2, out: Vec2) -> (Vec2, f32) {
    match shape {
        Shape::Ellipse { rx, ry } => {
            let d = xf.rot.apply_inv(out);
            let h2 = rx * rx * d.x * d.x + ry * ry * d.y * d.y;
            let rho = (rx * ry) * (rx * ry) / (h2 * h2.sqrt());
            if rho.is_finite() {
                (p - rho * out, rho)
            } else {
                (p, 0.0)
            }
        }
        _ => {
            let r = shape.core_radius();
            (p - r * out, r)
        }
    }
}

/// A flat face in A's frame: a segment with its outward normal and the rounding
/// radius of the shape it belongs to.
#[derive(Clone, Copy, Debug)]
struct Face {
    v1: Vec2,
    v2: Vec2,
    normal: Vec2,
    radius: f32,
    id1: u8,
    id2: u8,
}

/// The edge of `p` (placed at `xf`, in A's frame) whose normal best matches
/// `local` (a unit direction in `p`'s own frame), with its alignment `n · local`.
/// The first of equally aligned edges wins.
#[inline(always)]
fn polygon_face(p: &Polygon, xf: &Iso, local: Vec2) -> (Face, f32) {
    let normals = p.normals();
    let mut best = 0;
    let mut best_d = normals[0].dot(local);
    for (i, n) in normals.iter().enumerate().skip(1) {
        let d = n.dot(local);
        if d > best_d {
            best = i;
            best_d = d;
        }
    }
    let verts = p.vertices();
    let j = (best + 1) % verts.len();
    (
        Face {
            v1: xf.apply(verts[best]),
            v2: xf.apply(verts[j]),
            normal: xf.rot.apply(normals[best]),
            radius: 0.0,
            id1: best as u8,
            id2: j as u8,
        },
        best_d,
    )
}

/// The face of `shape` (placed at `xf`, in A's frame) whose normal best matches
/// `dir`, with its alignment `n · dir` (`dir` unit).
fn best_face(shape: &Shape, xf: &Iso, dir: Vec2) -> Option<(Face, f32)> {
    let local = xf.rot.apply_inv(dir);
    match shape {
        Shape::Polygon(p) => Some(polygon_face(p, xf, local)),
        Shape::Capsule {
            half_height,
            radius,
        } => {
            let lo = Vec2::new(0.0, -half_height);
            let hi = Vec2::new(0.0, *half_height);
            // Counter-clockwise: the right side runs upward, the left side downward.
            let (v1, v2, n, id1, id2) = if local.x >= 0.0 {
                (lo, hi, Vec2::X, 0, 1)
            } else {
                (hi, lo, -Vec2::X, 1, 0)
            };
            Some((
                Face {
                    v1: xf.apply(v1),
                    v2: xf.apply(v2),
                    normal: xf.rot.apply(n),
                    radius: *radius,
                    id1,
                    id2,
                },
                local.x.abs(),
            ))
        }
        Shape::Circle { .. } | Shape::Ellipse { .. } => None,
    }
}

/// Builds the manifold of two placed shapes. Points farther apart than
/// `speculative` (m) are dropped. `cache` warm-starts GJK.
pub fn collide(
    a: &Shape,
    xa: &Iso,
    b: &Shape,
    xb: &Iso,
    speculative: f32,
    cache: &mut SimplexCache,
) -> Manifold {
    collide_with_features(a, xa, b, xb, speculative, cache, false).0
}

/// [`collide`], with the geometry of each point for the solver, and optionally
/// the separating-axis fast path for overlapping polygons (`polygon_sat`).
pub(crate) fn collide_with_features(
    a: &Shape,
    xa: &Iso,
    b: &Shape,
    xb: &Iso,
    speculative: f32,
    cache: &mut SimplexCache,
    polygon_sat: bool,
) -> (Manifold, [PointFeature; 2]) {
    if polygon_sat {
        if let (Shape::Polygon(pa), Shape::Polygon(pb)) = (a, b) {
            if pa.vertices().len() <= SMALL_POLYGON && pb.vertices().len() <= SMALL_POLYGON {
                return collide_small_polygons(a, pa, xa, b, pb, xb, speculative, cache);
            }
        }
    }
    collide_generic(a, xa, b, xb, speculative, cache, polygon_sat)
}

/// [`collide_with_features`] for any pair of shapes: the reference that the
/// polygon fast path ([`collide_small_polygons`]) reproduces bit for bit.
fn collide_generic(
    a: &Shape,
    xa: &Iso,
    b: &Shape,
    xb: &Iso,
    speculative: f32,
    cache: &mut SimplexCache,
    polygon_sat: bool,
) -> (Manifold, [PointFeature; 2]) {
    let mut features = [PointFeature::default(); 2];
    let sat_overlap = match (a, b) {
        (Shape::Polygon(pa), Shape::Polygon(pb)) if polygon_sat => polygon_overlap(pa, xa, pb, xb),
        _ => None,
    };
    let contact = sat_overlap.unwrap_or_else(|| epa::contact(a, xa, b, xb, Some(cache), None));
    let mut m = Manifold::default();
    let sep = contact.separation();
    if sep > speculative || !sep.is_finite() || !contact.normal().is_finite() {
        return (m, features);
    }
    let n = contact.normal(); // A's frame, A → B
    let xf = xa.inv_mul(xb);
    let fa = best_face(a, &Iso::IDENTITY, n);
    let fb = best_face(b, &xf, -n);
    let align_a = fa.map_or(f32::NEG_INFINITY, |f| f.1);
    let align_b = fb.map_or(f32::NEG_INFINITY, |f| f.1);
    let flip = align_b > align_a + REFERENCE_HYSTERESIS;
    let best_align = align_a.max(align_b);
    if best_align >= 1.0 - FACE_ALIGNMENT_TOLERANCE {
        // The incident face is the other shape's best face against the
        // reference normal. That normal is often the contact normal itself
        // (SAT's axis is an edge normal), whose search was just done: reuse it.
        // (Directions equal as floats give the same face: they can differ only
        // in the sign of a zero component, which no comparison in the search
        // sees.)
        let (reference, incident) = if flip {
            let dir = -fb.map_or(n, |f| f.0.normal);
            let incident = if dir == n {
                fa
            } else {
                best_face(a, &Iso::IDENTITY, dir)
            };
            (fb.map(|f| f.0), incident)
        } else {
            let dir = -fa.map_or(n, |f| f.0.normal);
            let incident = if dir == -n {
                fb
            } else {
                best_face(b, &xf, dir)
            };
            (fa.map(|f| f.0), incident)
        };
        if let (Some(r), Some(i)) = (reference, incident) {
            clip(&mut m, &mut features, &r, &i.0, flip, speculative);
            for (p, f) in m.points[..m.count].iter_mut().zip(&mut features) {
                p.point = xa.apply(p.point);
                *f = f.to_world(xa);
            }
            m.normal = xa.rot.apply(if flip { -r.normal } else { r.normal });
            if m.count > 0 {
                return (m, features);
            }
            // Clipping can drop every point when the faces barely overlap along the
            // reference side planes; the witness point below is still valid.
        }
    }
    witness_manifold(a, xa, b, &xf, &contact, fa, fb)
}

/// The single-point manifold on the witness points of `contact` (A's frame),
/// when no face pair gives clipped points; `xf` is B's frame in A's, `fa`
/// and `fb` are the faces found along the contact normal, with their
/// alignments.
fn witness_manifold(
    a: &Shape,
    xa: &Iso,
    b: &Shape,
    xf: &Iso,
    contact: &epa::CoreContact,
    fa: Option<(Face, f32)>,
    fb: Option<(Face, f32)>,
) -> (Manifold, [PointFeature; 2]) {
    let mut m = Manifold::default();
    let mut features = [PointFeature::default(); 2];
    let sep = contact.separation();
    let n = contact.normal();
    let (pa, pb) = contact.points();
    m.normal = xa.rot.apply(n);
    m.points[0] = ManifoldPoint {
        point: xa.apply(0.5 * (pa + pb)),
        separation: sep,
        id: SMOOTH_FEATURE,
        ..Default::default()
    };
    m.count = 1;
    // The witness points lie on the surfaces; the core points are a radius in.
    let (ca, ra) = core_behind(a, &Iso::IDENTITY, pa, n);
    let (cb, rb) = core_behind(b, xf, pb, -n);
    // A face aligned with the normal (a polygon edge or capsule side facing a
    // circle or ellipse) carries the point; otherwise the witnesses are core
    // points (vertices, rounded ends, an ellipse's centre of curvature).
    let aligned = |f: Option<(Face, f32)>| f.filter(|f| f.1 >= 1.0 - FACE_ALIGNMENT_TOLERANCE);
    // Point–point needs a rounded side and cores clearly apart (a deep overlap
    // has no meaningful centre-to-centre direction).
    let cores_apart = (cb - ca).dot(n) > 1e-3 * (ra + rb);
    features[0] = if let Some((f, _)) = aligned(fa) {
        PointFeature {
            kind: FeatureKind::PlaneA,
            pa: f.v1,
            pb: cb,
            normal: f.normal,
            length: (f.v2 - f.v1).length(),
            radius: f.radius + rb,
            point_radius: rb,
        }
    } else if let Some((f, _)) = aligned(fb) {
        PointFeature {
            kind: FeatureKind::PlaneB,
            pa: ca,
            pb: f.v1,
            normal: f.normal,
            length: (f.v2 - f.v1).length(),
            radius: f.radius + ra,
            point_radius: ra,
        }
    } else if ra + rb > 0.0 && cores_apart {
        PointFeature {
            kind: FeatureKind::Points,
            pa: ca,
            pb: cb,
            normal: n,
            length: 0.0,
            radius: ra + rb,
            point_radius: ra,
        }
    } else {
        PointFeature {
            kind: FeatureKind::PlaneA,
            pa,
            pb: cb,
            normal: n,
            length: -1.0,
            radius: rb,
            point_radius: rb,
        }
    }
    .to_world(xa);
    (m, features)
}

/// Largest vertex count of the polygon fast path. Up to 7 vertices,
/// [`sat::max_edge_separation`] takes each edge's minimum in vertex order (the
/// first of equal values wins), which the fast path reproduces; from 8 on the
/// compiler may reduce in another order, which can pick the other zero of ±0.
const SMALL_POLYGON: usize = 7;

/// [`collide_generic`] for two overlapping polygons of at most
/// [`SMALL_POLYGON`] vertices, with the same results bit for bit: the
/// separating-axis test keeps the vertices it placed for the deepest-point
/// search, one relative transform serves every stage, and the face searches
/// skip the shape dispatch. Apart polygons go through GJK as before.
#[allow(clippy::too_many_arguments)]
fn collide_small_polygons(
    a: &Shape,
    pa: &Polygon,
    xa: &Iso,
    b: &Shape,
    pb: &Polygon,
    xb: &Iso,
    speculative: f32,
    cache: &mut SimplexCache,
) -> (Manifold, [PointFeature; 2]) {
    let xf = xa.inv_mul(xb); // B in A's frame
    let Some(contact) = small_polygon_overlap(pa, xa, pb, xb, &xf) else {
        return collide_generic(a, xa, b, xb, speculative, cache, false);
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
        // normal's (see `collide_generic`).
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

/// [`polygon_overlap`] for polygons of at most [`SMALL_POLYGON`] vertices, with
/// the same results bit for bit: each polygon's vertices are placed in the
/// other's frame once, for both the axis search and the deepest vertex.
#[inline]
fn small_polygon_overlap(
    a: &Polygon,
    xa: &Iso,
    b: &Polygon,
    xb: &Iso,
    xf: &Iso,
) -> Option<epa::CoreContact> {
    let mut placed_b = [Vec2::ZERO; SMALL_POLYGON];
    let placed_b = place(&mut placed_b, b, xf);
    let (sa, ea) = max_separation_in_order(a, placed_b);
    if sa > 0.0 {
        return None;
    }
    let xf_ba = xb.inv_mul(xa); // A in B's frame
    let mut placed_a = [Vec2::ZERO; SMALL_POLYGON];
    let placed_a = place(&mut placed_a, a, &xf_ba);
    let (sb, eb) = max_separation_in_order(b, placed_a);
    if sb > 0.0 {
        return None;
    }
    Some(face_contact(
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
fn polygon_overlap(a: &Polygon, xa: &Iso, b: &Polygon, xb: &Iso) -> Option<epa::CoreContact> {
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

/// Clips the incident face against the reference face's side planes and keeps
/// the points within `speculative` of the reference face. Points are written in
/// A's frame.
fn clip(
    m: &mut Manifold,
    features: &mut [PointFeature; 2],
    r: &Face,
    inc: &Face,
    flip: bool,
    speculative: f32,
) {
    let t = (r.v2 - r.v1).normalize_or_zero();
    if t == Vec2::ZERO {
        return;
    }
    let lower = t.dot(r.v1);
    let upper = t.dot(r.v2);
    // (point, incident vertex id, clipped-by side: 0 none, 1 lower, 2 upper)
    let mut pts = [(inc.v1, inc.id1, 0u8), (inc.v2, inc.id2, 0u8)];
    // The reference vertex facing each incident vertex (the faces run in opposite
    // directions): inc.v1 meets r.v2, inc.v2 meets r.v1.
    let facing = [r.id2, r.id1];
    for (side, bound, sign) in [(1u8, lower, 1.0f32), (2u8, upper, -1.0f32)] {
        let d0 = sign * (t.dot(pts[0].0) - bound);
        let d1 = sign * (t.dot(pts[1].0) - bound);
        if d0 < 0.0 && d1 < 0.0 {
            return; // the faces do not overlap along the reference face
        }
        if d0 < 0.0 || d1 < 0.0 {
            let k = d0 / (d0 - d1);
            let p = pts[0].0 + k * (pts[1].0 - pts[0].0);
            if d0 < 0.0 {
                pts[0] = (p, pts[0].1, side);
            } else {
                pts[1] = (p, pts[1].1, side);
            }
        }
    }
    let radii = r.radius + inc.radius;
    let face_length = t.dot(r.v2 - r.v1);
    for ((p, vid, _), rid) in pts.into_iter().zip(facing) {
        let separation = r.normal.dot(p - r.v1) - radii;
        if separation > speculative {
            continue;
        }
        // Midway between the incident surface (p - r_inc·n) and the reference surface.
        let on_incident = p - inc.radius * r.normal;
        let point = on_incident - 0.5 * separation * r.normal;
        // Feature id: (vertex of A, vertex of B) of the facing pair, whichever
        // face is the reference (as Box2D v3): the id survives a flip of the
        // reference face and the clipping of a vertex at a face end, both of
        // which flicker between faces that touch flush (rows of boxes).
        let (va, vb) = if flip { (vid, rid) } else { (rid, vid) };
        let id = CLIPPED_FEATURE | (va as u32) << 8 | vb as u32;
        m.points[m.count] = ManifoldPoint {
            point,
            separation,
            id,
            ..Default::default()
        };
        // Plane of the reference face against the incident core point.
        features[m.count] = if flip {
            PointFeature {
                kind: FeatureKind::PlaneB,
                pa: p,
                pb: r.v1,
                normal: r.normal,
                length: face_length,
                radius: radii,
                point_radius: inc.radius,
            }
        } else {
            PointFeature {
                kind: FeatureKind::PlaneA,
                pa: r.v1,
                pb: p,
                normal: r.normal,
                length: face_length,
                radius: radii,
                point_radius: inc.radius,
            }
        };
        m.count += 1;
    }
}

/// The contact query of the pipeline without a cache, for tools and tests.
pub fn collide_uncached(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso, speculative: f32) -> Manifold {
    collide(a, xa, b, xb, speculative, &mut SimplexCache::default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Rot;

    #[test]
    fn box_resting_on_box_gives_two_points() {
        let ground = Shape::rect(5.0, 0.5);
        let bx = Shape::rect(0.5, 0.5);
        let m = collide_uncached(
            &ground,
            &Iso::IDENTITY,
            &bx,
            &Iso::new(Vec2::new(0.3, 0.99), 0.0),
            0.02,
        );
        assert_eq!(m.count, 2);
        assert!((m.normal - Vec2::Y).length() < 1e-6);
        for p in m.points() {
            assert!((p.separation + 0.01).abs() < 1e-5, "{}", p.separation);
            assert!((p.point.y - 0.495).abs() < 1e-5);
        }
        let xs: Vec<f32> = m.points().iter().map(|p| p.point.x).collect();
        assert!(
            xs.iter().any(|x| (x + 0.2).abs() < 1e-5) && xs.iter().any(|x| (x - 0.8).abs() < 1e-5)
        );
    }

    #[test]
    fn speculative_points_within_margin_only() {
        let ground = Shape::rect(5.0, 0.5);
        let bx = Shape::rect(0.5, 0.5);
        let m = collide_uncached(
            &ground,
            &Iso::IDENTITY,
            &bx,
            &Iso::new(Vec2::new(0.0, 1.01), 0.0),
            0.02,
        );
        assert_eq!(m.count, 2);
        assert!(m
            .points()
            .iter()
            .all(|p| (p.separation - 0.01).abs() < 1e-5));
        let far = collide_uncached(
            &ground,
            &Iso::IDENTITY,
            &bx,
            &Iso::new(Vec2::new(0.0, 1.05), 0.0),
            0.02,
        );
        assert_eq!(far.count, 0);
        // A tilted box touches with one corner only.
        let tilted = collide_uncached(
            &ground,
            &Iso::IDENTITY,
            &bx,
            &Iso::new(Vec2::new(0.0, 1.16), 0.4),
            0.02,
        );
        assert_eq!(tilted.count, 1);
    }

    #[test]
    fn capsule_on_its_side_gives_two_points() {
        let ground = Shape::rect(5.0, 0.5);
        let cap = Shape::capsule(0.5, 0.25);
        let xb = Iso::new(Vec2::new(0.0, 0.74), std::f32::consts::FRAC_PI_2);
        let m = collide_uncached(&ground, &Iso::IDENTITY, &cap, &xb, 0.02);
        assert_eq!(m.count, 2);
        for p in m.points() {
            assert!((p.separation + 0.01).abs() < 1e-5);
        }
    }

    #[test]
    fn circle_gives_one_point_with_epa_normal() {
        let ground = Shape::rect(5.0, 0.5);
        let ball = Shape::circle(0.5);
        let m = collide_uncached(
            &ground,
            &Iso::IDENTITY,
            &ball,
            &Iso::new(Vec2::new(1.0, 0.95), 0.0),
            0.02,
        );
        assert_eq!(m.count, 1);
        assert!((m.points[0].separation + 0.05).abs() < 1e-5);
        assert!((m.normal - Vec2::Y).length() < 1e-5);
    }

    #[test]
    fn feature_ids_are_stable_under_small_motion() {
        let ground = Shape::rect(5.0, 0.5);
        let bx = Shape::rect(0.5, 0.5);
        let m1 = collide_uncached(
            &ground,
            &Iso::IDENTITY,
            &bx,
            &Iso::new(Vec2::new(0.0, 0.99), 0.001),
            0.02,
        );
        let m2 = collide_uncached(
            &ground,
            &Iso::IDENTITY,
            &bx,
            &Iso::new(Vec2::new(0.01, 0.995), -0.001),
            0.02,
        );
        let ids1: Vec<u32> = m1.points().iter().map(|p| p.id).collect();
        let ids2: Vec<u32> = m2.points().iter().map(|p| p.id).collect();
        assert_eq!(ids1, ids2);
    }

    /// Every float of a manifold and its features as bits (NaN payloads and
    /// signed zeros included), and the ids and counts.
    fn manifold_bits(r: &(Manifold, [PointFeature; 2])) -> Vec<u32> {
        let (m, features) = r;
        let mut out = vec![m.normal.x.to_bits(), m.normal.y.to_bits(), m.count as u32];
        for p in &m.points {
            out.extend([p.point.x, p.point.y, p.separation].map(f32::to_bits));
            out.extend([
                p.id,
                p.normal_impulse.to_bits(),
                p.tangent_impulse.to_bits(),
            ]);
        }
        for f in features {
            out.push(f.kind as u32);
            let floats = [f.pa.x, f.pa.y, f.pb.x, f.pb.y, f.normal.x, f.normal.y];
            out.extend(floats.map(f32::to_bits));
            out.extend([f.length, f.radius, f.point_radius].map(f32::to_bits));
        }
        out
    }

    #[test]
    fn small_polygon_fast_path_matches_generic_bit_for_bit() {
        let mut seed = 987654321u32;
        let mut rnd = move || {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        let ngon = |k: usize, r: f32, phase: f32| {
            let pts: Vec<Vec2> = (0..k)
                .map(|i| {
                    let a = phase + i as f32 * std::f32::consts::TAU / k as f32;
                    r * Vec2::new(libm::cosf(a), libm::sinf(a))
                })
                .collect();
            Shape::polygon(&pts).unwrap()
        };
        let shapes = [
            Shape::rect(0.5, 0.5),
            Shape::rect(1.0, 0.2),
            Shape::rect(0.25, 0.5),
            ngon(3, 0.6, 0.1),
            ngon(5, 0.5, 0.0),
            ngon(6, 0.4, 0.0),
            ngon(7, 0.45, 0.3),
            // Vertices with zero and negative-zero coordinates.
            Shape::polygon(&[
                Vec2::new(-0.0, -0.5),
                Vec2::new(0.5, 0.0),
                Vec2::new(0.0, 0.5),
                Vec2::new(-0.5, -0.0),
            ])
            .unwrap(),
        ];
        // Exact rotations (a box grid at rest) as well as generic ones.
        let exact = [
            Rot { cos: 1.0, sin: 0.0 },
            Rot {
                cos: 1.0,
                sin: -0.0,
            },
            Rot { cos: 0.0, sin: 1.0 },
            Rot {
                cos: -1.0,
                sin: 0.0,
            },
            Rot {
                cos: -0.0,
                sin: -1.0,
            },
        ];
        let rot = |r: f32, small: bool| {
            if r < 0.4 {
                exact[(r * 12.5) as usize % exact.len()]
            } else if small {
                Rot::from_angle((r - 0.7) * 1e-3)
            } else {
                Rot::from_angle(20.0 * r)
            }
        };
        let mut compared = [0usize; 3];
        for k in 0..60_000 {
            let a = &shapes[(rnd() * shapes.len() as f32) as usize % shapes.len()];
            let b = &shapes[(rnd() * shapes.len() as f32) as usize % shapes.len()];
            let small = k % 2 == 0;
            let xa = Iso::from_parts(
                Vec2::new((rnd() * 4.0).round() * 0.5, (rnd() * 4.0).round() * 0.5),
                rot(rnd(), small),
            );
            // Offsets on a grid (flush faces, zero separations) or anywhere near.
            let offset = if k % 3 == 0 {
                Vec2::new(
                    (rnd() * 8.0).round() * 0.25 - 1.0,
                    (rnd() * 8.0).round() * 0.25 - 1.0,
                )
            } else {
                Vec2::new(rnd() * 2.4 - 1.2, rnd() * 2.4 - 1.2)
            };
            let xb = Iso::from_parts(xa.translation + offset, rot(rnd(), small));
            let speculative = [0.0, 0.02, 0.5][k % 3];
            let (Shape::Polygon(pa), Shape::Polygon(pb)) = (a, b) else {
                unreachable!()
            };
            let mut cache_fast = SimplexCache::default();
            let mut cache_ref = SimplexCache::default();
            let fast = collide_small_polygons(a, pa, &xa, b, pb, &xb, speculative, &mut cache_fast);
            let reference = collide_generic(a, &xa, b, &xb, speculative, &mut cache_ref, true);
            assert_eq!(
                manifold_bits(&fast),
                manifold_bits(&reference),
                "{a:?} at {xa:?} against {b:?} at {xb:?}: {fast:?} vs {reference:?}"
            );
            assert_eq!(cache_fast, cache_ref);
            compared[fast.0.count] += 1;
        }
        assert!(compared.iter().all(|&c| c > 1000), "{compared:?}");
    }

    #[test]
    fn polygon_sat_overlap_matches_epa() {
        // Deterministic pseudo-random boxes and hexagons at random overlapping poses.
        let mut seed = 12345u32;
        let mut rnd = move || {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        let hexagon: Vec<Vec2> = (0..6)
            .map(|k| {
                let a = k as f32 * std::f32::consts::FRAC_PI_3;
                0.4 * Vec2::new(libm::cosf(a), libm::sinf(a))
            })
            .collect();
        let shapes = [
            Shape::rect(0.5, 0.5),
            Shape::rect(1.0, 0.2),
            Shape::polygon(&hexagon).unwrap(),
        ];
        let mut checked = 0;
        for _ in 0..2000 {
            let a = &shapes[(rnd() * 3.0) as usize % 3];
            let b = &shapes[(rnd() * 3.0) as usize % 3];
            let xa = Iso::new(Vec2::new(rnd(), rnd()), 6.0 * rnd());
            let xb = Iso::new(Vec2::new(rnd(), rnd()) * 1.5, 6.0 * rnd());
            let (Shape::Polygon(pa), Shape::Polygon(pb)) = (a, b) else {
                unreachable!()
            };
            let Some(sat) = polygon_overlap(pa, &xa, pb, &xb) else {
                continue;
            };
            let epa = epa::contact(a, &xa, b, &xb, None, None);
            let (d1, d2) = (sat.separation(), epa.separation());
            assert!((d1 - d2).abs() < 1e-4, "depth {d1} vs {d2}");
            if d1 < -1e-3 {
                // Unique minimum axis (ties aside): the normals agree.
                let dot = sat.normal().dot(epa.normal());
                assert!(dot > 0.999 || (d1 - d2).abs() < 1e-4, "normal {dot}");
            }
            let (pa_, pb_) = sat.points();
            assert!((pa_ - pb_ + sat.separation() * sat.normal()).length() < 1e-4);
            checked += 1;
        }
        assert!(checked > 200, "{checked}");
    }
}
