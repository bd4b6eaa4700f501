//! Shape casts and the GJK ray cast: the first time two shapes moving by
//! translation come within a target distance of each other.
//!
//! Conservative advancement on the Minkowski difference, as in Box2D v3's
//! `b2ShapeCast`: the cast runs in A's frame, where B moves by the relative
//! translation `r` over the fraction `λ ∈ [0, 1]`. With `d(λ)` the distance
//! between the cores and `n` GJK's unit normal (A → B) at `λ`,
//!
//! ```text
//!   d'(λ) = n · r                      (the distance's exact derivative)
//!   λ ← λ + (d(λ) − target) / (−n · r)  (a Newton step on d(λ) = target)
//! ```
//!
//! `d` is convex in `λ` (the distance from a moving point, the origin, to a
//! fixed convex set, B − A), so the Newton steps approach the first root from
//! below without passing it: every `λ` visited is contact-free. The loop stops
//! when `d` is within the tolerance of the target, when `n · r ≥ 0` (moving
//! apart: a miss), past `max_fraction`, or when `λ` no longer changes in f32
//! (the root found to rounding). Polygons converge in one or two steps once
//! the right feature is found, curved shapes quadratically.
//!
//! Rounded shapes run on their cores with the radii added to the target.
//! Cores that already overlap at `λ = 0` take EPA's normal.
//!
//! The GJK ray cast is the cast of a point against a shape: a fallback for any
//! [`SupportMap`], and an independent check of [`crate::Shape::ray_cast`].

use super::epa;
use super::gjk::{CoreDistance, Pair};
use crate::math::{Iso, Rot, Vec2};
use crate::shape::{PointShape, RayHit, SupportMap};

/// Most Newton steps (GJK distance queries) of a cast.
pub const MAX_ITERATIONS: usize = 32;

/// Default tolerance (m): the cast stops when the shapes are closer than
/// `target + tolerance`. One micrometre is a few f32 units of rounding for
/// coordinates of about ten metres.
pub const DEFAULT_TOLERANCE: f32 = 1.0e-6;

/// What a shape cast looks for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastOptions {
    /// Distance between the shapes at which the cast stops (m, ≥ 0): 0 for
    /// touching, a linear slop to stop just short of contact.
    pub target: f32,
    /// How far above `target` still counts as reached (m, > 0).
    pub tolerance: f32,
    /// The cast covers the fractions `[0, max_fraction]` of the translations.
    pub max_fraction: f32,
}

impl Default for CastOptions {
    fn default() -> Self {
        CastOptions {
            target: 0.0,
            tolerance: DEFAULT_TOLERANCE,
            max_fraction: 1.0,
        }
    }
}

/// Where and when a shape cast stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastHit {
    /// Fraction of the translations at the hit, in `[0, max_fraction]`; 0
    /// when the shapes start within the target.
    pub fraction: f32,
    /// The contact point on A's surface at the hit (world); for shapes that
    /// start overlapping, the midpoint of the deepest points.
    pub point: Vec2,
    /// Unit normal from A toward B at the hit (world). For shapes that start
    /// overlapping, the direction that separates them fastest (EPA's normal).
    pub normal: Vec2,
    /// Distance between the shapes at the hit (m), negative when they start
    /// overlapping.
    pub distance: f32,
    /// GJK queries used.
    pub iterations: u32,
}

/// The first fraction `λ ∈ [0, max_fraction]` at which shape A at `xa`
/// translated by `λ·da` and shape B at `xb` translated by `λ·db` come within
/// `options.target` of each other, or `None` if they do not (or an input is
/// not finite). Shapes that start within the target hit at `λ = 0`.
///
/// ```
/// use minkowski::geometry::cast::{shape_cast, CastOptions};
/// use minkowski::{Iso, Shape, Vec2};
/// // A unit circle thrown 10 m to the right at a box whose left face is at x = 4.
/// let wall = Shape::rect(1.0, 2.0);
/// let ball = Shape::circle(1.0);
/// let hit = shape_cast(
///     &wall, &Iso::new(Vec2::new(5.0, 0.0), 0.0), Vec2::ZERO,
///     &ball, &Iso::IDENTITY, Vec2::new(10.0, 0.0),
///     &CastOptions::default(),
/// ).unwrap();
/// assert!((hit.fraction - 0.3).abs() < 1e-6);
/// assert!((hit.normal + Vec2::X).length() < 1e-6); // out of the wall, toward the ball
/// assert!((hit.point - Vec2::new(4.0, 0.0)).length() < 1e-5);
/// ```
#[allow(clippy::too_many_arguments)]
pub fn shape_cast<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    xa: &Iso,
    da: Vec2,
    b: &B,
    xb: &Iso,
    db: Vec2,
    options: &CastOptions,
) -> Option<CastHit> {
    let CastOptions {
        target,
        tolerance,
        max_fraction,
    } = *options;
    let finite = xa.is_finite() && xb.is_finite() && da.is_finite() && db.is_finite();
    if !(finite && target >= 0.0 && tolerance > 0.0 && max_fraction >= 0.0) {
        return None;
    }
    let (ra, rb) = (a.core_radius(), b.core_radius());
    let core_target = target + ra + rb;
    // Distances of cores this far apart are only known to a few f32 units.
    let tolerance = tolerance.max(4.0 * f32::EPSILON * core_target);
    // Everything in A's frame at λ = 0; A stays put, B moves by `r`.
    let start = xa.inv_mul(xb);
    let r = xa.rot.apply_inv(db - da);
    let mut pair = Pair { a, b, xf: start };
    // The core distance and normal at λ (`None` when the cores touch).
    let mut eval = |lambda: f32| {
        pair.xf.translation = start.translation + lambda * r;
        let (core, _) = pair.run(None, None, None, Rot::IDENTITY);
        (core.distance > 0.0).then_some(core)
    };
    let hit = |lambda: f32, core: &CoreDistance, it: usize| {
        let xa_now = Iso::from_parts(xa.translation + lambda * da, xa.rot);
        Some(CastHit {
            fraction: lambda,
            point: xa_now.apply(core.point_a + ra * core.normal),
            normal: xa.rot.apply(core.normal),
            distance: core.distance - ra - rb,
            iterations: it as u32,
        })
    };
    // The last λ known to be short of the target, and its core result.
    let mut lo: Option<(f32, CoreDistance)> = None;
    let mut lambda = 0.0f32;
    for it in 1..=MAX_ITERATIONS {
        let core = eval(lambda);
        let gap = core
            .as_ref()
            .map_or(-core_target, |c| c.distance - core_target);
        if gap < tolerance {
            return match (core, lo) {
                // At λ = 0: the shapes start within the target.
                (Some(c), None) => hit(lambda, &c, it),
                (None, None) => start_overlapping(a, b, &start, xa, it),
                (Some(c), Some(_)) if gap >= -tolerance => hit(lambda, &c, it),
                // Sharp cores with no target land exactly on each other: a
                // hit where B's witness point has moved to.
                (None, Some((l, c))) if core_target < tolerance => {
                    hit(lambda, &touching(&c, l, lambda, r), it)
                }
                // Past the root: the normal's rounding (curved shapes, long
                // casts) made a step too long. The root is bracketed.
                (_, Some(l)) => {
                    let (lambda, c, it) =
                        bracket(&mut eval, l, (lambda, core), r, core_target, tolerance, it);
                    hit(lambda, &c, it)
                }
            };
        }
        // (A `None` has a negative gap and returned above.)
        let core = core?;
        let closing = -core.normal.dot(r);
        if closing <= 0.0 {
            return None;
        }
        let next = lambda + gap / closing;
        if next > max_fraction || !next.is_finite() {
            return None;
        }
        if next <= lambda {
            // The root is found to f32 resolution of λ.
            return hit(lambda, &core, it);
        }
        lo = Some((lambda, core));
        lambda = next;
    }
    // Iteration cap: the last λ short of the target is a contact-free lower
    // bound of the root, within a few tolerances of it; report it.
    let (lambda, core) = lo?;
    hit(lambda, &core, MAX_ITERATIONS)
}

/// The root of `d(λ) = target` between `lo` (short of it) and `hi` (past it,
/// with its core result), by false position alternating with bisection. Returns the λ
/// of the hit and a core result there: sharp cores with no target that land
/// exactly on each other get the last separated result with B's witness
/// moved along. At the cap, the last λ short of the target.
fn bracket(
    eval: &mut impl FnMut(f32) -> Option<CoreDistance>,
    lo: (f32, CoreDistance),
    hi: (f32, Option<CoreDistance>),
    r: Vec2,
    core_target: f32,
    tolerance: f32,
    mut it: usize,
) -> (f32, CoreDistance, usize) {
    let gap = |c: &Option<CoreDistance>| {
        c.as_ref()
            .map_or(-core_target, |c| c.distance - core_target)
    };
    let (mut l, mut best) = lo;
    let mut g_lo = best.distance - core_target;
    let (mut h, mut c_hi) = hi;
    let mut g_hi = gap(&c_hi);
    for k in 0..MAX_ITERATIONS {
        it += 1;
        let mut m = l + (h - l) * g_lo / (g_lo - g_hi);
        if k % 2 == 1 || m <= l || m >= h {
            m = 0.5 * (l + h);
        }
        if m <= l || m >= h {
            // l and h are neighbours in f32: the end nearer the target.
            return match c_hi {
                Some(c) if -g_hi < g_lo => (h, c, it),
                _ => (l, best, it),
            };
        }
        let core = eval(m);
        let g = gap(&core);
        match core {
            Some(c) if g.abs() < tolerance => return (m, c, it),
            Some(c) if g > 0.0 => (l, best, g_lo) = (m, c, g),
            None if core_target < tolerance => return (m, touching(&best, l, m, r), it),
            _ => (h, c_hi, g_hi) = (m, core, g),
        }
    }
    (l, best, it)
}

/// The contact of sharp cores at `lambda`, from the separated result `c` at
/// `l`: B's witness point carried along the cast lies on A's surface there.
fn touching(c: &CoreDistance, l: f32, lambda: f32, r: Vec2) -> CoreDistance {
    CoreDistance {
        point_a: c.point_b + (lambda - l) * r,
        distance: 0.0,
        ..*c
    }
}

/// The hit at λ = 0 for cores that already overlap: EPA's normal and the
/// midpoint of the deepest points.
fn start_overlapping<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    b: &B,
    xf_ab: &Iso,
    xa: &Iso,
    iterations: usize,
) -> Option<CastHit> {
    let c = epa::contact(a, &Iso::IDENTITY, b, xf_ab, None, None);
    let (pa, pb) = c.points();
    let normal = c.normal();
    let normal = if normal.is_finite() && normal != Vec2::ZERO {
        normal
    } else {
        Vec2::X
    };
    Some(CastHit {
        fraction: 0.0,
        point: xa.apply(0.5 * (pa + pb)),
        normal: xa.rot.apply(normal),
        distance: c.separation(),
        iterations: iterations as u32,
    })
}

/// The first point where the ray from `origin` along the unit `dir` meets the
/// shape placed at `xf`, within `max_t` metres, found by GJK (a shape cast of
/// the point): any [`SupportMap`] works. Same contract as
/// [`crate::Shape::ray_cast`]: `None` on a miss, `t = 0` with the normal
/// against the ray for a ray that starts inside.
///
/// ```
/// use minkowski::geometry::cast::ray_cast;
/// use minkowski::{Iso, Shape, Vec2};
/// let ellipse = Shape::ellipse(2.0, 0.5);
/// let at = Iso::new(Vec2::new(1.0, 2.0), 0.0);
/// let hit = ray_cast(&ellipse, &at, Vec2::new(6.0, 2.0), -Vec2::X, 10.0).unwrap();
/// assert!((hit.t - 3.0).abs() < 1e-5);
/// assert!((hit.normal - Vec2::X).length() < 1e-5);
/// ```
pub fn ray_cast<S: SupportMap + ?Sized>(
    shape: &S,
    xf: &Iso,
    origin: Vec2,
    dir: Vec2,
    max_t: f32,
) -> Option<RayHit> {
    if !(max_t >= 0.0 && max_t.is_finite() && origin.is_finite() && dir.is_finite()) {
        return None;
    }
    let point = PointShape(Vec2::ZERO);
    let from = Iso::from_parts(origin, Rot::IDENTITY);
    let hit = shape_cast(
        shape,
        xf,
        Vec2::ZERO,
        &point,
        &from,
        dir * max_t,
        &CastOptions::default(),
    )?;
    if hit.fraction == 0.0 {
        return Some(RayHit {
            t: 0.0,
            point: origin,
            normal: -dir,
        });
    }
    let t = hit.fraction * max_t;
    Some(RayHit {
        t,
        point: origin + t * dir,
        normal: hit.normal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;

    #[test]
    fn boxes_meet_face_to_face() {
        // B: a unit box 5 m to the right, thrown 8 m left; A moves 2 m right.
        // The gap of 3 m closes at λ = 3 / 10.
        let a = Shape::rect(1.0, 1.0);
        let b = Shape::rect(1.0, 1.0);
        let xb = Iso::new(Vec2::new(5.0, 0.5), 0.0);
        let hit = shape_cast(
            &a,
            &Iso::IDENTITY,
            Vec2::new(2.0, 0.0),
            &b,
            &xb,
            Vec2::new(-8.0, 0.0),
            &CastOptions::default(),
        )
        .unwrap();
        assert!((hit.fraction - 0.3).abs() < 1e-6, "{hit:?}");
        assert!((hit.normal - Vec2::X).length() < 1e-6);
        assert!((hit.point.x - 1.6).abs() < 1e-5, "{hit:?}");
        assert!(hit.distance.abs() < 2e-6);
    }

    #[test]
    fn a_target_stops_short() {
        let a = Shape::circle(0.5);
        let b = Shape::circle(0.5);
        let opts = CastOptions {
            target: 0.25,
            ..CastOptions::default()
        };
        let xb = Iso::new(Vec2::new(0.0, 4.0), 0.0);
        let hit = shape_cast(
            &a,
            &Iso::IDENTITY,
            Vec2::ZERO,
            &b,
            &xb,
            -4.0 * Vec2::Y,
            &opts,
        )
        .unwrap();
        // Centres 1.25 apart: B has moved 2.75 of 4 m.
        assert!((hit.fraction - 2.75 / 4.0).abs() < 1e-6, "{hit:?}");
        assert!((hit.distance - 0.25).abs() < 2e-6);
    }

    #[test]
    fn misses_and_departures() {
        let a = Shape::rect(1.0, 1.0);
        let b = Shape::circle(0.5);
        let opts = CastOptions::default();
        let xb = Iso::new(Vec2::new(3.0, 0.0), 0.0);
        // Moving away, passing above, falling short.
        for db in [
            Vec2::new(1.0, 0.0),
            Vec2::new(-6.0, 6.0),
            Vec2::new(-1.0, 0.0),
        ] {
            assert!(shape_cast(&a, &Iso::IDENTITY, Vec2::ZERO, &b, &xb, db, &opts).is_none());
        }
        // Reaching with a longer max fraction.
        let long = CastOptions {
            max_fraction: 2.0,
            ..opts
        };
        let hit = shape_cast(&a, &Iso::IDENTITY, Vec2::ZERO, &b, &xb, -Vec2::X, &long).unwrap();
        assert!((hit.fraction - 1.5).abs() < 1e-6);
    }

    #[test]
    fn overlapping_shapes_hit_at_zero_with_epa_normal() {
        let a = Shape::rect(1.0, 1.0);
        let b = Shape::rect(1.0, 1.0);
        let xb = Iso::new(Vec2::new(1.5, 0.2), 0.0);
        let hit = shape_cast(
            &a,
            &Iso::IDENTITY,
            Vec2::ZERO,
            &b,
            &xb,
            Vec2::new(-1.0, 0.0),
            &CastOptions::default(),
        )
        .unwrap();
        assert_eq!(hit.fraction, 0.0);
        assert!((hit.normal - Vec2::X).length() < 1e-5, "{hit:?}");
        assert!((hit.distance + 0.5).abs() < 1e-5, "{hit:?}");
    }

    #[test]
    fn gjk_ray_cast_agrees_with_closed_form() {
        let shapes = [
            Shape::circle(0.7),
            Shape::capsule(1.0, 0.3),
            Shape::rect(1.0, 0.4),
            Shape::ellipse(1.5, 0.4),
        ];
        let xf = Iso::new(Vec2::new(0.5, -0.3), 0.7);
        for s in &shapes {
            for k in 0..32 {
                let a = k as f32 / 32.0 * std::f32::consts::TAU;
                let o = xf.translation + 5.0 * Vec2::new(libm::cosf(a), libm::sinf(a));
                let d = (xf.translation + Vec2::new(0.2, 0.1) - o).normalize();
                let closed = s.ray_cast(&xf, o, d, 10.0).unwrap();
                let gjk = ray_cast(s, &xf, o, d, 10.0).unwrap();
                assert!((closed.t - gjk.t).abs() < 1e-5, "{s:?} {closed:?} {gjk:?}");
                assert!((closed.normal - gjk.normal).length() < 1e-3, "{s:?}");
            }
        }
        // From inside.
        let h = ray_cast(&shapes[0], &xf, xf.translation, Vec2::X, 3.0).unwrap();
        assert_eq!((h.t, h.normal), (0.0, -Vec2::X));
    }
}
