//! Contact manifolds of a chain segment (one-sided, with ghost vertices)
//! against any shape with area: bodies slide across a chain's inner
//! vertices without catching on them.
//!
//! The generic query (GJK, or EPA on overlap) against the edge `a`→`b`
//! alone sees the edge's ends as corners. A box sliding along a flat chain
//! sinks a little into the next edge, whose end then looks like a wall a
//! fraction of a millimetre deep: EPA answers with a sideways normal and the
//! box stops dead (a "ghost collision"). The ghost vertices say what the
//! chain does beyond each end, and the contact normal is judged against it
//! (the Gauss map of the chain around the edge; E. Catto, "Ghost
//! Collisions", box2d.org 2020; Box2D v3 `manifold.c`,
//! `b2CollideChainSegmentAndPolygon`, whose classification this follows):
//!
//! ```text
//!        n0   n1   n2          convex vertex a: normals from n1 round to n0
//!         ↖    ↑    ↗          belong to a; past n0 they are the previous
//!   ghost1 ●── a ━━━━━━━ b ──● ghost2    edge's, skipped here.
//!                              flat or concave vertex: only n1 is admitted;
//!                              a normal leaning toward it is snapped to n1.
//! ```
//!
//! 1. *One-sided*: the other shape's centroid behind the edge (and behind
//!    the convex neighbours) means no contact.
//! 2. The generic query gives the normal `n` (chain → other). When the
//!    shapes overlap (or the centroid is behind this edge), a convex
//!    neighbour whose normal separates the shapes more owns the contact.
//! 3. `n` is *admitted* (the generic manifold stands), *skipped* (a
//!    neighbour answers) or *snapped* to the edge normal `n1`: the other
//!    shape's deepest point along `-n1` and its face against the edge,
//!    clipped to the edge, with the edge taken as an unbounded plane (it
//!    continues into its neighbours) for the solver's re-measurement.

use super::super::manifold::{self, FeatureKind, Manifold, PointFeature, SMOOTH_FEATURE};
use crate::geometry::epa::{self, CoreContact};
use crate::geometry::gjk::SimplexCache;
use crate::math::{cross, Iso, Vec2};
use crate::shape::{Shape, SupportMap};

/// A vertex turning by less than this (sine of the angle) counts as flat.
const CONVEX_TOLERANCE: f32 = 0.01;
/// A normal this far (sine) beyond a convex vertex's neighbour normal
/// belongs to the neighbour.
const SIN_TOLERANCE: f32 = 0.01;

/// What to do with a contact normal at a chain segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NormalType {
    /// Beyond a convex vertex: the neighbouring edge answers.
    Skip,
    /// Within the edge's cone of normals: keep it.
    Admit,
    /// Toward a flat or concave vertex: use the edge normal instead.
    Snap,
}

/// The edge and its neighbours, in the chain's frame.
struct Around {
    e1: Vec2,
    n0: Vec2,
    n1: Vec2,
    n2: Vec2,
    convex1: bool,
    convex2: bool,
}

impl Around {
    fn new(ghost1: Vec2, a: Vec2, b: Vec2, ghost2: Vec2) -> Around {
        let right = |e: Vec2| Vec2::new(e.y, -e.x);
        let e0 = (a - ghost1).normalize_or_zero();
        let e1 = (b - a).normalize_or_zero();
        let e2 = (ghost2 - b).normalize_or_zero();
        Around {
            e1,
            n0: right(e0),
            n1: right(e1),
            n2: right(e2),
            convex1: cross(e0, e1) >= CONVEX_TOLERANCE,
            convex2: cross(e1, e2) >= CONVEX_TOLERANCE,
        }
    }

    /// The normal's place in the chain's Gauss map around this edge.
    fn classify(&self, n: Vec2) -> NormalType {
        if n.dot(self.e1) <= 0.0 {
            // Toward the start `a`.
            if !self.convex1 {
                NormalType::Snap
            } else if cross(n, self.n0) > SIN_TOLERANCE {
                NormalType::Skip
            } else {
                NormalType::Admit
            }
        } else if !self.convex2 {
            NormalType::Snap
        } else if cross(self.n2, n) > SIN_TOLERANCE {
            NormalType::Skip
        } else {
            NormalType::Admit
        }
    }
}

fn empty() -> (Manifold, [PointFeature; 2]) {
    (Manifold::default(), [PointFeature::default(); 2])
}

/// The manifold of the chain segment `chain` (placed at `xa`) against
/// `other` (at `xb`, a shape with area), normal from the chain to the other
/// shape; empty when `chain` is not a chain segment.
pub(crate) fn collide_chain(
    chain: &Shape,
    xa: &Iso,
    other: &Shape,
    xb: &Iso,
    speculative: f32,
    cache: &mut SimplexCache,
) -> (Manifold, [PointFeature; 2]) {
    let Shape::ChainSegment {
        ghost1,
        a: p1,
        b: p2,
        ghost2,
    } = *chain
    else {
        return empty();
    };
    let g = Around::new(ghost1, p1, p2, ghost2);
    let xf = xa.inv_mul(xb); // the other shape in the chain's frame
    let c = xf.apply(other.local_centroid());
    let behind1 = g.n1.dot(c - p1) < 0.0;
    let behind0 = !g.convex1 || g.n0.dot(c - p1) < 0.0;
    let behind2 = !g.convex2 || g.n2.dot(c - p2) < 0.0;
    if behind1 && behind0 && behind2 {
        return empty();
    }
    let contact = epa::contact(chain, xa, other, xb, Some(cache), None);
    let sep = contact.separation();
    if sep > speculative || !sep.is_finite() || !contact.normal().is_finite() {
        return empty();
    }
    // The other shape's surface point deepest along -n, and its separation
    // from the line through q with normal n.
    let deepest = |n: Vec2| xf.apply(other.local_support(xf.rot.apply_inv(-n)));
    let along = |n: Vec2, q: Vec2| n.dot(deepest(n) - q);
    if behind1 || sep <= 0.0 {
        let s1 = along(g.n1, p1);
        if (g.convex1 && along(g.n0, p1) > s1) || (g.convex2 && along(g.n2, p2) > s1) {
            return empty();
        }
    }
    match g.classify(contact.normal()) {
        NormalType::Skip => empty(),
        NormalType::Admit => manifold::from_contact(chain, xa, other, xb, &contact, speculative),
        NormalType::Snap => {
            let pb = deepest(g.n1);
            let s = g.n1.dot(pb - p1);
            if s > speculative {
                return empty();
            }
            let pa = pb - s * g.n1;
            let snapped = if s > 0.0 {
                CoreContact::Separated {
                    distance: s,
                    normal: g.n1,
                    point_a: pa,
                    point_b: pb,
                }
            } else {
                CoreContact::Penetrating {
                    depth: -s,
                    normal: g.n1,
                    point_a: pa,
                    point_b: pb,
                }
            };
            let (m, mut features) =
                manifold::from_contact(chain, xa, other, xb, &snapped, speculative);
            // A single witness point beyond the edge's ends is the
            // neighbour's to report.
            let u = g.e1.dot(pb - p1);
            if m.count == 1
                && m.points[0].id == SMOOTH_FEATURE
                && !(0.0..=p1.distance(p2)).contains(&u)
            {
                return empty();
            }
            for f in &mut features[..m.count] {
                if f.kind == FeatureKind::PlaneA {
                    f.length = -1.0;
                }
            }
            (m, features)
        }
    }
}

/// The manifold of `(b, a)` turned into that of `(a, b)`: the normal
/// reversed, each point's geometry with its sides swapped.
pub(crate) fn flip(
    (mut m, mut features): (Manifold, [PointFeature; 2]),
) -> (Manifold, [PointFeature; 2]) {
    m.normal = -m.normal;
    for f in &mut features[..m.count] {
        *f = match f.kind {
            FeatureKind::PlaneA => PointFeature {
                kind: FeatureKind::PlaneB,
                pa: f.pb,
                pb: f.pa,
                ..*f
            },
            FeatureKind::PlaneB => PointFeature {
                kind: FeatureKind::PlaneA,
                pa: f.pb,
                pb: f.pa,
                ..*f
            },
            FeatureKind::Points => PointFeature {
                pa: f.pb,
                pb: f.pa,
                normal: -f.normal,
                point_radius: f.radius - f.point_radius,
                ..*f
            },
        };
    }
    (m, features)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A flat chain along x, listed right to left so that its front is +y.
    fn flat(x0: f32, x1: f32) -> Shape {
        Shape::ChainSegment {
            ghost1: Vec2::new(x0 + 1.0, 0.0),
            a: Vec2::new(x0, 0.0),
            b: Vec2::new(x1, 0.0),
            ghost2: Vec2::new(x1 - 1.0, 0.0),
        }
    }

    #[test]
    fn a_box_sunk_at_an_inner_vertex_is_pushed_up_not_back() {
        // The edge 0..-1 (front +y); a box arriving from the previous edge
        // (x > 0), its left side 1 mm over this edge, sunk 5 mm: the edge's
        // end alone would push it sideways (1 mm beats 5 mm).
        let seg = flat(0.0, -1.0);
        let bx = Shape::rect(0.5, 0.5);
        let xb = Iso::new(Vec2::new(0.5 - 0.001, 0.495), 0.0);
        let plain = crate::narrowphase::dispatch::collide_uncached(
            &Shape::segment(Vec2::ZERO, Vec2::new(-1.0, 0.0)),
            &Iso::IDENTITY,
            &bx,
            &xb,
            0.02,
        );
        assert!(plain.normal.x.abs() > 0.99, "{plain:?}");
        let (m, _) = collide_chain(
            &seg,
            &Iso::IDENTITY,
            &bx,
            &xb,
            0.02,
            &mut SimplexCache::default(),
        );
        assert_eq!(m.normal, Vec2::Y);
        assert!(m.count >= 1);
        for p in m.points() {
            assert!((p.separation + 0.005).abs() < 1e-5, "{m:?}");
        }
    }

    #[test]
    fn behind_the_chain_nothing_collides() {
        let seg = flat(1.0, -1.0);
        let ball = Shape::circle(0.5);
        let xb = Iso::new(Vec2::new(0.0, -0.3), 0.0);
        let (m, _) = collide_chain(
            &seg,
            &Iso::IDENTITY,
            &ball,
            &xb,
            0.02,
            &mut SimplexCache::default(),
        );
        assert_eq!(m.count, 0);
        let xb = Iso::new(Vec2::new(0.0, 0.3), 0.0);
        let (m, _) = collide_chain(
            &seg,
            &Iso::IDENTITY,
            &ball,
            &xb,
            0.02,
            &mut SimplexCache::default(),
        );
        assert_eq!(m.count, 1);
        assert!((m.points[0].separation + 0.2).abs() < 1e-5);
    }

    #[test]
    fn flipping_twice_is_the_identity() {
        let seg = flat(1.0, -1.0);
        let bx = Shape::rect(0.3, 0.2);
        let xb = Iso::new(Vec2::new(0.1, 0.19), 0.05);
        let r = collide_chain(
            &seg,
            &Iso::IDENTITY,
            &bx,
            &xb,
            0.02,
            &mut SimplexCache::default(),
        );
        assert!(r.0.count > 0);
        assert_eq!(flip(flip(r)), r);
    }
}
