//! GJK: boolean intersection, distance and closest points between convex cores.
//!
//! Works on the Minkowski difference B − A of the two *cores* in A's local frame
//! (B is brought in with `xa⁻¹ · xb`), then adds the rounding radii. Termination:
//! a repeated support point, a relative progress tolerance, or an iteration cap
//! that returns the best answer so far. No loop can run forever and no NaN escapes:
//! every division is guarded.
//!
//! References: Gilbert, Johnson, Keerthi (1988); G. van den Bergen (1999) for the
//! relative termination test; E. Catto, "Computing Distance using GJK" (GDC 2010).

use super::simplex::{Simplex, SimplexVertex};
use crate::math::{Iso, Vec2};
use crate::shape::SupportMap;

/// Most GJK iterations before the best answer so far is returned.
pub const MAX_ITERATIONS: usize = 64;
/// Relative progress tolerance: stop when the upper bound on the distance (the
/// simplex's distance `|v|`) and the lower bound (`v̂·w` for the new support
/// point `w`) differ by at most `REL_TOLERANCE · |v|`.
pub const REL_TOLERANCE: f32 = 1e-6;
/// When the simplex is within `4ε` of its own scale from the origin, the origin is
/// taken to lie on the simplex (the cores touch or overlap).
const TOUCH_EPSILON: f32 = 4.0 * f32::EPSILON;

/// Closest points between two separated shapes (world frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Closest {
    /// Distance between the shapes (m), > 0.
    pub distance: f32,
    /// Closest point on A's surface.
    pub point_a: Vec2,
    /// Closest point on B's surface.
    pub point_b: Vec2,
    /// Unit vector from A toward B.
    pub normal: Vec2,
}

/// Warm-start data for [`query`]: the last simplex's support points, stored in
/// each body's own frame so they stay valid points of the shapes as the bodies move.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SimplexCache {
    /// Number of cached vertices (0 = cold start).
    pub count: u8,
    /// Support points on A's core, A's local frame.
    pub local_a: [Vec2; 3],
    /// Support points on B's core, B's local frame.
    pub local_b: [Vec2; 3],
}

/// Result of a core-level GJK query, in A's local frame.
#[derive(Clone, Copy, Debug)]
pub struct CoreDistance {
    /// Distance between the cores (0 when they touch or overlap).
    pub distance: f32,
    /// Closest point on A's core (A's frame).
    pub point_a: Vec2,
    /// Closest point on B's core (A's frame).
    pub point_b: Vec2,
    /// Unit vector from A toward B (A's frame); meaningful when `distance > 0`.
    pub normal: Vec2,
    /// The final simplex; a triangle holding the origin on overlap.
    pub simplex: Simplex,
    /// Iterations used.
    pub iterations: usize,
}

/// One GJK iteration, recorded for the sandbox's inspector (world orientation,
/// Minkowski-difference coordinates B − A).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GjkStep {
    /// Simplex vertices after the Voronoi reduction.
    pub simplex: Vec<Vec2>,
    /// Closest point of the simplex to the origin.
    pub closest: Vec2,
    /// Search direction toward the origin (zero when the origin is enclosed).
    pub direction: Vec2,
    /// The support point found along `direction`, if one was fetched.
    pub support: Option<Vec2>,
}

/// The pair of cores seen from A's frame.
pub(crate) struct Pair<'s, A: ?Sized, B: ?Sized> {
    pub a: &'s A,
    pub b: &'s B,
    /// B's pose in A's frame.
    pub xf: Iso,
}

impl<'s, A: SupportMap + ?Sized, B: SupportMap + ?Sized> Pair<'s, A, B> {
    pub fn new(a: &'s A, xa: &Iso, b: &'s B, xb: &Iso) -> Self {
        Pair {
            a,
            b,
            xf: xa.inv_mul(xb),
        }
    }

    /// Support point of B − A along `d` (A's frame).
    #[inline]
    pub fn support(&self, d: Vec2) -> SimplexVertex {
        let wa = self.a.local_core_support(-d);
        let wb = self
            .xf
            .apply(self.b.local_core_support(self.xf.rot.apply_inv(d)));
        SimplexVertex::new(wa, wb)
    }

    fn initial_simplex(&self, cache: Option<&SimplexCache>) -> Simplex {
        let mut s = Simplex::default();
        if let Some(c) = cache.filter(|c| c.count > 0) {
            for i in 0..c.count as usize {
                s.v[i] = SimplexVertex::new(c.local_a[i], self.xf.apply(c.local_b[i]));
            }
            s.count = c.count as usize;
            return s;
        }
        // Start from the support along the direction that points from B − A's
        // reference point (B's origin minus A's) back to the origin.
        let d = -self.xf.translation;
        let d = if d.length_squared() > 0.0 { d } else { Vec2::X };
        s.v[0] = self.support(d);
        s.count = 1;
        s
    }

    /// Runs GJK on the cores. `early_out` (if set) stops as soon as the cores are
    /// proven farther apart than it, or closer than it.
    pub fn run(
        &self,
        cache: Option<&mut SimplexCache>,
        early_out: Option<f32>,
        mut trace: Option<&mut Vec<GjkStep>>,
        rot_a: crate::math::Rot,
    ) -> (CoreDistance, Option<bool>) {
        let mut simplex = self.initial_simplex(cache.as_deref());
        let mut verdict = None;
        let mut iterations = 0;
        let mut overlap = false;
        while iterations < MAX_ITERATIONS {
            iterations += 1;
            let saved = simplex;
            if !simplex.solve() {
                overlap = true;
                if let Some(t) = trace.as_deref_mut() {
                    t.push(step(&simplex, Vec2::ZERO, None, rot_a));
                }
                break;
            }
            // Distance and unit normal of the current simplex, from its geometry
            // (see `separation_of`): the barycentric closest point `v` carries an
            // absolute rounding error of about ε·|w|, which at small distances is
            // larger than the progress the tests below must detect.
            let (dist, n) = separation_of(&simplex);
            let scale_sq = simplex
                .vertices()
                .iter()
                .fold(0.0f32, |m, p| m.max(p.w.length_squared()));
            if dist * dist <= TOUCH_EPSILON * TOUCH_EPSILON * scale_sq || n == Vec2::ZERO {
                // The origin lies on the simplex (to rounding): the cores touch.
                overlap = true;
                if let Some(t) = trace.as_deref_mut() {
                    t.push(step(&simplex, Vec2::ZERO, None, rot_a));
                }
                break;
            }
            if let Some(limit) = early_out {
                // `dist` bounds the core distance from above.
                if dist <= limit {
                    verdict = Some(true);
                }
            }
            let d = -n;
            let w = self.support(d);
            if let Some(t) = trace.as_deref_mut() {
                t.push(step(&simplex, d, Some(w.w), rot_a));
            }
            // `n·w` bounds it from below: the whole difference lies beyond the
            // line through `w` perpendicular to `n`. The gap between the bounds is
            // `n·(w₁ − w)`, computed from a difference of nearby points so that it
            // stays accurate when both bounds are tiny.
            let gap = n.dot(simplex.v[0].w - w.w);
            if let Some(limit) = early_out {
                if dist - gap > limit {
                    verdict = Some(false);
                }
            }
            if verdict.is_some() {
                break;
            }
            // A repeated support point means no progress is possible.
            let repeated = saved
                .vertices()
                .iter()
                .any(|p| p.wa == w.wa && p.wb == w.wb);
            if repeated || gap <= REL_TOLERANCE * dist {
                break;
            }
            simplex.v[simplex.count] = w;
            simplex.count += 1;
        }
        if iterations == MAX_ITERATIONS && !overlap {
            // Cap reached right after adding a vertex: reduce once more so the
            // weights describe the best simplex.
            overlap = !simplex.solve();
        }
        if let Some(c) = cache {
            c.count = simplex.count as u8;
            let inv = self.xf;
            for (i, v) in simplex.vertices().iter().enumerate() {
                c.local_a[i] = v.wa;
                c.local_b[i] = inv.apply_inv(v.wb);
            }
        }
        let (pa, pb) = simplex.witness_points();
        let (distance, normal) = if overlap {
            (0.0, Vec2::ZERO)
        } else {
            separation_of(&simplex)
        };
        (
            CoreDistance {
                distance,
                point_a: pa,
                point_b: pb,
                normal,
                simplex,
                iterations,
            },
            verdict,
        )
    }
}

/// Distance and unit normal (A → B) from a solved, non-enclosing simplex.
///
/// The normal is taken from the simplex's geometry rather than from the difference
/// of the witness points: for a segment it is the segment's perpendicular, whose
/// direction is accurate to rounding of the segment itself however close the
/// origin is, whereas `p_b − p_a` loses all its relative precision as the distance
/// shrinks toward the rounding error of the coordinates (at a gap of 0.01 between
/// shapes of size 2 the witness difference already turns the normal by ~1e-5 rad,
/// and the contact query used to hand such near-touching rounded pairs to EPA
/// with a simplex that did not hold the origin).
fn separation_of(simplex: &Simplex) -> (f32, Vec2) {
    if simplex.count == 2 {
        let (w1, w2) = (simplex.v[0].w, simplex.v[1].w);
        let n = (w2 - w1).perp().normalize_or_zero();
        if n != Vec2::ZERO {
            // Average the two ends' offsets: both equal the distance exactly.
            let d = 0.5 * (n.dot(w1) + n.dot(w2));
            if d > 0.0 {
                return (d, n);
            } else if d < 0.0 {
                return (-d, -n);
            }
        }
    }
    let v = simplex.closest();
    let dist = v.length();
    if dist > 0.0 && dist.is_finite() {
        (dist, v / dist)
    } else {
        (0.0, Vec2::ZERO)
    }
}

fn step(s: &Simplex, d: Vec2, support: Option<Vec2>, rot: crate::math::Rot) -> GjkStep {
    GjkStep {
        simplex: s.vertices().iter().map(|v| rot.apply(v.w)).collect(),
        closest: rot.apply(s.closest()),
        direction: rot.apply(d),
        support: support.map(|w| rot.apply(w)),
    }
}

/// `true` when the shapes touch or overlap.
///
/// Stops early as soon as a support point proves a separating axis, or the
/// current simplex comes within the sum of the rounding radii.
pub fn intersects<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    xa: &Iso,
    b: &B,
    xb: &Iso,
) -> bool {
    let radius = a.core_radius() + b.core_radius();
    let pair = Pair::new(a, xa, b, xb);
    let (core, verdict) = pair.run(None, Some(radius), None, xa.rot);
    verdict.unwrap_or(core.distance <= radius)
}

/// GJK on the cores with an optional warm-start cache (the pipeline's variant).
/// The result is in A's local frame.
pub fn query<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    xa: &Iso,
    b: &B,
    xb: &Iso,
    cache: Option<&mut SimplexCache>,
) -> CoreDistance {
    Pair::new(a, xa, b, xb).run(cache, None, None, xa.rot).0
}

/// Like [`query`], recording every iteration for visualisation.
pub fn query_traced<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    xa: &Iso,
    b: &B,
    xb: &Iso,
    trace: &mut Vec<GjkStep>,
) -> CoreDistance {
    Pair::new(a, xa, b, xb)
        .run(None, None, Some(trace), xa.rot)
        .0
}

/// Distance and closest points between two shapes, or `None` when they touch
/// or overlap.
///
/// ```
/// use minkowski::{gjk, Iso, Shape, Vec2};
/// let a = Shape::circle(1.0);
/// let b = Shape::rect(0.5, 0.5);
/// let c = gjk::distance(&a, &Iso::IDENTITY, &b, &Iso::new(Vec2::new(3.0, 0.0), 0.0)).unwrap();
/// assert!((c.distance - 1.5).abs() < 1e-6);
/// assert!((c.normal - Vec2::X).length() < 1e-6);
/// ```
pub fn distance<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    xa: &Iso,
    b: &B,
    xb: &Iso,
) -> Option<Closest> {
    let core = query(a, xa, b, xb, None);
    let (ra, rb) = (a.core_radius(), b.core_radius());
    let distance = core.distance - ra - rb;
    if core.distance <= 0.0 || distance <= 0.0 || !distance.is_finite() {
        return None;
    }
    let normal = xa.rot.apply(core.normal);
    Some(Closest {
        distance,
        point_a: xa.apply(core.point_a) + ra * normal,
        point_b: xa.apply(core.point_b) - rb * normal,
        normal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;

    #[test]
    fn vertical_edges_are_fine() {
        // The tutorial's slope-based point-to-line distance divides by zero here.
        let a = Shape::rect(1.0, 1.0);
        let b = Shape::rect(1.0, 1.0);
        let c = distance(&a, &Iso::IDENTITY, &b, &Iso::new(Vec2::new(2.5, 0.3), 0.0)).unwrap();
        assert!((c.distance - 0.5).abs() < 1e-6);
        assert!((c.normal - Vec2::X).length() < 1e-6);
    }

    #[test]
    fn rounded_shapes_add_radii() {
        let a = Shape::capsule(1.0, 0.25);
        let b = Shape::circle(0.5);
        let xb = Iso::new(Vec2::new(2.0, 0.5), 0.0);
        let c = distance(&a, &Iso::IDENTITY, &b, &xb).unwrap();
        assert!((c.distance - 1.25).abs() < 1e-6);
        assert!((c.point_a - Vec2::new(0.25, 0.5)).length() < 1e-6);
        assert!((c.point_b - Vec2::new(1.5, 0.5)).length() < 1e-6);
        assert!(intersects(
            &a,
            &Iso::IDENTITY,
            &b,
            &Iso::new(Vec2::new(0.7, 0.5), 0.0)
        ));
        assert!(!intersects(
            &a,
            &Iso::IDENTITY,
            &b,
            &Iso::new(Vec2::new(0.76, 0.5), 0.0)
        ));
    }

    #[test]
    fn warm_start_converges_in_one_iteration_when_nothing_moved() {
        let a = Shape::rect(1.0, 0.5);
        let b = Shape::polygon(&[
            Vec2::new(-0.5, -0.5),
            Vec2::new(0.6, -0.4),
            Vec2::new(0.0, 0.7),
        ])
        .unwrap();
        let xa = Iso::new(Vec2::new(0.1, 0.2), 0.3);
        let xb = Iso::new(Vec2::new(3.0, 1.0), -0.8);
        let mut cache = SimplexCache::default();
        let cold = query(&a, &xa, &b, &xb, Some(&mut cache));
        let warm = query(&a, &xa, &b, &xb, Some(&mut cache));
        assert!(warm.iterations <= 2, "{} iterations", warm.iterations);
        assert!((cold.distance - warm.distance).abs() < 1e-6);
    }

    #[test]
    fn ellipse_distance_converges() {
        let a = Shape::ellipse(2.0, 0.5);
        let b = Shape::circle(0.5);
        let c = distance(&a, &Iso::IDENTITY, &b, &Iso::new(Vec2::new(0.0, 2.0), 0.0)).unwrap();
        assert!((c.distance - 1.0).abs() < 1e-5, "{}", c.distance);
    }
}
