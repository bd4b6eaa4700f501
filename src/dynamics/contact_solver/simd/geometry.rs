//! A contact point's current separation, normal and anchor in lanes,
//! as `super::super::current_geometry` (`narrowphase::manifold::measure`)
//! computes it for one: for a face of A or of B, and for two core points.
//!
//! Two core points `pa`, `pb` are measured as a face of B through `pb` of
//! which `pa` lies beyond an end, the end being `pb` itself: the direction
//! `g = (pa - pb)/|pa - pb|` is the negated scalar normal `(pb - pa)/|…|`
//! bit for bit (negation is exact), and so is the anchor `pa - k·g` the
//! scalar's `pa + k·n`. The scalar falls back to A's turned face normal when
//! the points coincide; the lane stores that normal negated, and turning a
//! negated vector gives the negated turned vector bit for bit.

use super::*;

/// [`GeometryBundle::faces`]: every lane's face is A's.
pub(super) const FACES_A: u8 = 1;
/// Every lane's face is B's.
pub(super) const FACES_B: u8 = 2;
/// Some lanes' faces are A's, others B's.
pub(super) const FACES_MIXED: u8 = 0;
/// Some lane is two core points (any others faces).
pub(super) const FACES_ANY: u8 = 3;

/// Which body's faces a bundle's points lie on ([`FACES_A`], [`FACES_B`] or
/// [`FACES_MIXED`]), from the lanes' `plane_a` bits, or [`FACES_ANY`] when
/// some lane is two core points (`core_points`).
pub(super) fn faces_of(plane_a: [u8; 2], core_points: [u8; 2], fill: u8) -> u8 {
    let used = lanes_mask(fill);
    if core_points.iter().any(|&p| p & used != 0) {
        return FACES_ANY;
    }
    let masks = plane_a.map(|m| m & used);
    if masks.iter().all(|&m| m == used) {
        FACES_A
    } else if masks.iter().all(|&m| m == 0) {
        FACES_B
    } else {
        FACES_MIXED
    }
}

/// A contact point of a bundle's lanes from the current poses, as
/// `super::super::current_geometry`: separation, normal (A → B), anchor
/// relative to A's centre, and B's centre relative to A's. `FACES` says
/// what kinds the lanes' features are: the mixed cases pick per lane, the
/// others need no picking (the same values, fewer instructions; in stacks
/// of boxes every bundle has all its faces on A).
#[inline(always)]
pub(super) fn lane_geometry<const FACES: u8>(
    g: &GeometryBundle,
    k: usize,
    qa: &PoseW,
    qb: &PoseW,
) -> (F, V2, V2, V2) {
    let p = &g.points[k];
    // The kinds' lane masks (the cases that need no picking need none).
    let (plane_a, core_points) = match FACES {
        FACES_A | FACES_B => (F::ZERO, F::ZERO),
        _ => (bits_mask(g.plane_a[k]), bits_mask(g.core_points[k])),
    };
    let ab = p.ab + (qb.dp - qa.dp);
    let pa = qa.dq.apply(p.fa);
    let pb = ab + qb.dq.apply(p.fb);
    let (m, face, other) = match FACES {
        FACES_A => (qa.dq.apply(p.fnormal), pa, pb),
        FACES_B => (qb.dq.apply(p.fnormal), pb, pa),
        FACES_MIXED => (
            RotW::select(plane_a, qa.dq, qb.dq).apply(p.fnormal),
            V2::select(plane_a, pa, pb),
            V2::select(plane_a, pb, pa),
        ),
        // Two core points: a face of B, whose normal turns with A.
        _ => (
            RotW::select(plane_a | core_points, qa.dq, qb.dq).apply(p.fnormal),
            V2::select(plane_a, pa, pb),
            V2::select(plane_a, pb, pa),
        ),
    };
    let d = other - face;
    let t = V2::new(-m.y, m.x);
    let u = t.dot(d);
    let md = m.dot(d);
    // `manifold::measure`: beyond an end of its face, the point is
    // measured from that end, along the line between them.
    let mut beyond = ge(p.flength, F::ZERO) & gt(md, F::ZERO) & (lt(u, F::ZERO) | gt(u, p.flength));
    if FACES == FACES_ANY {
        beyond |= core_points;
    }
    // The direction `g` from the face to the point (the normal up to sign),
    // and the separation.
    let (g, s) = if beyond.any() {
        let mut end = face + clamp(u, F::ZERO, p.flength) * t;
        if FACES == FACES_ANY {
            end = V2::select(core_points, face, end);
        }
        let w = other - end;
        let len = w.dot(w).sqrt();
        let g = V2::select(gt(len, F::ZERO), V2::new(w.x / len, w.y / len), m);
        (
            V2::select(beyond, g, m),
            select(beyond, len - p.radius, md - p.radius),
        )
    } else {
        (m, md - p.radius)
    };
    let n = match FACES {
        FACES_A => g,
        FACES_B => -g,
        _ => V2::select(plane_a, g, -g),
    };
    let anchor = other - (p.point_radius + F::splat(0.5) * s) * g;
    (s, n, anchor, ab)
}
