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

use crate::geometry::epa;
use crate::math::{Iso, Vec2};
use crate::shape::Polygon;
use crate::shape::Shape;
use serde::{Deserialize, Serialize};

mod core;
use core::core_behind;

/// `1 - cos(angle)` below which a face counts as aligned with the normal (about 2.6°).
pub(crate) const FACE_ALIGNMENT_TOLERANCE: f32 = 1e-3;
/// Bias toward keeping A's face as reference: B's must be better by this much.
pub(crate) const REFERENCE_HYSTERESIS: f32 = 1e-4;
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
    /// Accumulated rolling-resistance torque impulse (N·m·s) of a one-point
    /// contact, carried over for warm starting.
    #[serde(default)]
    pub rolling_impulse: f32,
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
    pub(crate) fn to_world(self, xa: &Iso) -> PointFeature {
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

/// A flat face in A's frame: a segment with its outward normal and the rounding
/// radius of the shape it belongs to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Face {
    v1: Vec2,
    v2: Vec2,
    pub(crate) normal: Vec2,
    radius: f32,
    id1: u8,
    id2: u8,
}

/// The edge of `p` (placed at `xf`, in A's frame) whose normal best matches
/// `local` (a unit direction in `p`'s own frame), with its alignment `n · local`.
/// The first of equally aligned edges wins.
#[inline(always)]
pub(crate) fn polygon_face(p: &Polygon, xf: &Iso, local: Vec2) -> (Face, f32) {
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
        Shape::RoundedPolygon { core, radius } => {
            let (face, align) = polygon_face(core, xf, local);
            Some((
                Face {
                    radius: *radius,
                    ..face
                },
                align,
            ))
        }
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
        // A segment's face is the side facing `dir`; a chain segment has
        // only its front.
        Shape::Segment { a, b } | Shape::ChainSegment { a, b, .. } => {
            let n = crate::shape::right_normal(*a, *b);
            let front = local.dot(n) >= 0.0 || matches!(shape, Shape::ChainSegment { .. });
            let (v1, v2, n, id1, id2) = if front {
                (a, b, n, 0, 1)
            } else {
                (b, a, -n, 1, 0)
            };
            let face = Face {
                v1: xf.apply(*v1),
                v2: xf.apply(*v2),
                normal: xf.rot.apply(n),
                radius: 0.0,
                id1,
                id2,
            };
            Some((face, local.dot(n)))
        }
        Shape::Circle { .. } | Shape::Ellipse { .. } => None,
    }
}

/// The manifold of two placed shapes from their closest points or deepest
/// penetration (`contact`, in A's frame): clipped face points where a face of
/// either shape lies along the normal, else the single witness point. Points
/// farther apart than `speculative` (m) are dropped.
pub(crate) fn from_contact(
    a: &Shape,
    xa: &Iso,
    b: &Shape,
    xb: &Iso,
    contact: &epa::CoreContact,
    speculative: f32,
) -> (Manifold, [PointFeature; 2]) {
    let mut features = [PointFeature::default(); 2];
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
    witness_manifold(a, xa, b, &xf, contact, fa, fb)
}

/// The single-point manifold on the witness points of `contact` (A's frame),
/// when no face pair gives clipped points; `xf` is B's frame in A's, `fa`
/// and `fb` are the faces found along the contact normal, with their
/// alignments.
pub(crate) fn witness_manifold(
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

/// Clips the incident face against the reference face's side planes and keeps
/// the points within `speculative` of the reference face. Points are written in
/// A's frame.
pub(crate) fn clip(
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

#[cfg(test)]
mod tests;
