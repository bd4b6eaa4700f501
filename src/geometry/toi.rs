//! Time of impact of two moving, turning shapes: the first fraction of a time
//! step at which their distance drops to a target, for continuous collision.
//!
//! Each body moves along a [`Sweep`]: its centre of mass from `c0` to `c1` in a
//! straight line and its angle by a constant rate, both linear in the fraction
//! `t ∈ [0, 1]`. The search is conservative advancement with separating
//! functions, the method of Box2D v3's `b2TimeOfImpact`:
//!
//! 1. At the current time `t₁`, GJK gives the distance `d` of the cores and
//!    their normal `n`. Within tolerance of the target: a hit at `t₁`.
//! 2. Along the world axis `n`, the separating function
//!    `s(t) = n · (support_B(−n) − support_A(n))` at the poses of time `t` is a
//!    lower bound of the distance at every `t`, equal to it at `t₁`.
//! 3. The first root of `s(t) = target` after `t₁` is found, and becomes the
//!    new `t₁`; back to 1. If `s` stays above the target until `max_fraction`,
//!    the shapes are separated over the whole sweep.
//!
//! Box2D finds a root of `s` between `t₁` and the end of the sweep by
//! bisection and false position, which can step over a first root when
//! rotation makes `s` dip below the target and come back. Here the root
//! finder certifies every step instead. Each support point moves on a circle
//! about its centre of mass, so `s″(t) ≥ −K` with
//!
//! ```text
//!   K = Δθ_A² ρ_A + Δθ_B² ρ_B    (ρ: the core's reach from the centre of mass)
//! ```
//!
//! and `s(t) − K t²/2` is concave (a minimum of concave functions). Over an
//! interval `[t₁, t₂]`, `s` therefore lies above its chord minus
//! `K (t − t₁)(t₂ − t)/2`; a step to `t₂` is taken only when that parabola
//! stays above the target. Steps are proposed by a Newton step of the model
//! `s(t₁) + s′(t₁) h − K h²/2` (the slope `s′` is that of the current support
//! points, exact by the envelope theorem), halved until certified. Without
//! rotation `K = 0`, `s` is concave, and one certified step can cover the whole
//! remaining sweep.
//!
//! Everything runs relative to A's starting centre of mass, so bodies far from
//! the world origin keep their precision.

use super::epa;
use super::gjk::Pair;
use crate::math::{cross_sv, Iso, Rot, Vec2};
use crate::shape::SupportMap;

/// Most GJK distance queries (outer steps) before giving up.
pub const MAX_ITERATIONS: usize = 64;
/// Most separating-function evaluations per outer step.
pub const MAX_ROOT_ITERATIONS: usize = 64;
/// Default tolerance (m): a hit is reported once the distance is within this
/// of the target.
pub const DEFAULT_TOLERANCE: f32 = 2.0e-6;

/// The motion of a body over a step, as a function of the fraction
/// `t ∈ [0, 1]`: the centre of mass moves in a straight line, the body turns
/// at a constant rate about it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sweep {
    /// Centre of mass in the body's frame (m).
    pub local_center: Vec2,
    /// Centre of mass at `t = 0` (world, m).
    pub c0: Vec2,
    /// Centre of mass at `t = 1` (world, m).
    pub c1: Vec2,
    /// Rotation at `t = 0`.
    pub q0: Rot,
    /// Angle turned from `t = 0` to `t = 1` (rad, counter-clockwise; any
    /// size, several turns included).
    pub angle: f32,
}

impl Sweep {
    /// A body that does not move: its pose `xf` throughout.
    pub fn still(xf: &Iso, local_center: Vec2) -> Sweep {
        let c = xf.apply(local_center);
        Sweep {
            local_center,
            c0: c,
            c1: c,
            q0: xf.rot,
            angle: 0.0,
        }
    }

    /// From the pose `from` to the pose `to`, turning the short way (at most
    /// half a turn); use the fields for more.
    pub fn between(from: &Iso, to: &Iso, local_center: Vec2) -> Sweep {
        Sweep {
            local_center,
            c0: from.apply(local_center),
            c1: to.apply(local_center),
            q0: from.rot,
            angle: from.rot.inv_mul(to.rot).angle(),
        }
    }

    /// The body's pose at fraction `t`.
    pub fn at(&self, t: f32) -> Iso {
        let rot = self.q0 * Rot::from_angle(t * self.angle);
        let c = self.c0 + t * (self.c1 - self.c0);
        Iso::from_parts(c - rot.apply(self.local_center), rot)
    }

    fn shifted(&self, origin: Vec2) -> Sweep {
        Sweep {
            c0: self.c0 - origin,
            c1: self.c1 - origin,
            ..*self
        }
    }

    /// Velocity (per unit of `t`) of the body's point that is at `p` at time `t`.
    fn velocity(&self, t: f32, p: Vec2) -> Vec2 {
        let c = self.c0 + t * (self.c1 - self.c0);
        (self.c1 - self.c0) + cross_sv(self.angle, p - c)
    }

    fn is_finite(&self) -> bool {
        self.local_center.is_finite()
            && self.c0.is_finite()
            && self.c1.is_finite()
            && self.q0.cos.is_finite()
            && self.q0.sin.is_finite()
            && self.angle.is_finite()
    }
}

/// What a time-of-impact query looks for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToiOptions {
    /// Distance between the shapes to stop at (m, ≥ 0): 0 for touching, a
    /// linear slop to stop just short of contact.
    pub target: f32,
    /// How far above `target` still counts as reached (m, > 0).
    pub tolerance: f32,
    /// The query covers `t ∈ [0, max_fraction]`.
    pub max_fraction: f32,
}

impl Default for ToiOptions {
    fn default() -> Self {
        ToiOptions {
            target: 0.0,
            tolerance: DEFAULT_TOLERANCE,
            max_fraction: 1.0,
        }
    }
}

/// How a time-of-impact query ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToiState {
    /// The distance reaches the target at `fraction`.
    Hit,
    /// The distance stays above the target up to `max_fraction` (proved along
    /// a separating axis).
    Separated,
    /// At `t = 0` the shapes are already closer than `target − tolerance`.
    Overlapped,
    /// An iteration cap was reached (or an input was not finite): `fraction`
    /// is a time up to which the shapes are proved apart, not a contact.
    Failed,
}

/// The answer of [`time_of_impact`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Toi {
    /// How the query ended.
    pub state: ToiState,
    /// `Hit`: the time of impact; `Separated`: `max_fraction`; `Overlapped`:
    /// 0; `Failed`: the last time proved contact-free.
    pub fraction: f32,
    /// Midpoint of the closest points at `fraction` (world; deepest points
    /// for `Overlapped`).
    pub point: Vec2,
    /// Unit normal from A toward B at `fraction` (world); zero for
    /// `Separated`.
    pub normal: Vec2,
    /// Distance between the shapes at `fraction` (m; negative when they
    /// overlap).
    pub distance: f32,
    /// GJK distance queries used.
    pub iterations: u32,
}

/// The first fraction `t ∈ [0, max_fraction]` at which shape A moving along
/// `sweep_a` and shape B along `sweep_b` come within `options.target`.
///
/// For continuous collision of a body against a static one, give the static
/// one [`Sweep::still`]:
///
/// ```
/// use minkowski::geometry::toi::{time_of_impact, Sweep, ToiOptions, ToiState};
/// use minkowski::{Iso, Shape, Vec2};
/// let ground = Shape::rect(10.0, 0.5); // top face at y = 0
/// let ground_at = Iso::new(Vec2::new(0.0, -0.5), 0.0);
/// let bullet = Shape::rect(0.5, 0.1);
/// // From 3 m up to 2 m below the ground top in one step, turning a quarter turn.
/// let sweep = Sweep::between(
///     &Iso::new(Vec2::new(0.0, 3.0), 0.0),
///     &Iso::new(Vec2::new(0.0, -2.0), std::f32::consts::FRAC_PI_2),
///     Vec2::ZERO,
/// );
/// let toi = time_of_impact(
///     &ground, &Sweep::still(&ground_at, Vec2::ZERO), &bullet, &sweep, &ToiOptions::default(),
/// );
/// assert_eq!(toi.state, ToiState::Hit);
/// assert!(toi.fraction > 0.4 && toi.fraction < 0.6);
/// assert!(toi.distance.abs() < 1e-5);
/// ```
pub fn time_of_impact<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    a: &A,
    sweep_a: &Sweep,
    b: &B,
    sweep_b: &Sweep,
    options: &ToiOptions,
) -> Toi {
    let ToiOptions {
        target,
        tolerance,
        max_fraction,
    } = *options;
    let mut out = Toi {
        state: ToiState::Failed,
        fraction: 0.0,
        point: Vec2::ZERO,
        normal: Vec2::ZERO,
        distance: 0.0,
        iterations: 0,
    };
    let sane = sweep_a.is_finite() && sweep_b.is_finite() && max_fraction.is_finite();
    if !(sane && target >= 0.0 && tolerance > 0.0 && max_fraction >= 0.0) {
        return out;
    }
    let origin = sweep_a.c0;
    let (sa, sb) = (sweep_a.shifted(origin), sweep_b.shifted(origin));
    let (ra, rb) = (a.core_radius(), b.core_radius());
    let tau = target + ra + rb;
    let curvature = sa.angle * sa.angle * a.core_extent(sa.local_center)
        + sb.angle * sb.angle * b.core_extent(sb.local_center);
    let sep = Separation {
        a,
        b,
        sa: &sa,
        sb: &sb,
    };
    let mut t1 = 0.0f32;
    for it in 1..=MAX_ITERATIONS {
        out.iterations = it as u32;
        let (xa, xb) = (sa.at(t1), sb.at(t1));
        let pair = Pair::new(a, &xa, b, &xb);
        // Cold starts: a warm cache round-trips its points through the
        // poses each time, and over tens of queries they drift off the
        // shapes by more than the tolerance.
        let (core, _) = pair.run(None, None, None, xa.rot);
        let normal = xa.rot.apply(core.normal);
        let (pa, pb) = (xa.apply(core.point_a), xa.apply(core.point_b));
        let finish = |mut out: Toi, state| {
            out.state = state;
            out.fraction = t1;
            out.normal = normal;
            out.point = origin + 0.5 * (pa + ra * normal + pb - rb * normal);
            out.distance = core.distance - ra - rb;
            out
        };
        if core.distance <= 0.0 || (t1 == 0.0 && core.distance < tau - tolerance) {
            if t1 > 0.0 {
                // Only rounding can take a certified advance into contact.
                return finish(out, ToiState::Hit);
            }
            return overlapped(out, a, &xa, b, &xb, origin);
        }
        if core.distance - tau < tolerance {
            return finish(out, ToiState::Hit);
        }
        match sep.first_root(normal, t1, max_fraction, tau, tolerance, curvature) {
            Root::Found(t) if t > t1 => t1 = t,
            // The separating function is at the target where GJK is not
            // (their tolerances differ): a hit to within both.
            Root::Found(_) => return finish(out, ToiState::Hit),
            Root::Separated => {
                out.state = ToiState::Separated;
                out.fraction = max_fraction;
                return out;
            }
            Root::Stuck(t) => {
                out.fraction = t;
                return out;
            }
        }
    }
    out.fraction = t1;
    out
}

/// `Overlapped` at `t = 0`, with EPA's normal when the cores overlap.
fn overlapped<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    mut out: Toi,
    a: &A,
    xa: &Iso,
    b: &B,
    xb: &Iso,
    origin: Vec2,
) -> Toi {
    let c = epa::contact(a, xa, b, xb, None, None);
    let (pa, pb) = c.points();
    out.state = ToiState::Overlapped;
    out.fraction = 0.0;
    out.normal = xa.rot.apply(c.normal());
    out.point = origin + xa.apply(0.5 * (pa + pb));
    out.distance = c.separation();
    out
}

enum Root {
    Found(f32),
    Separated,
    Stuck(f32),
}

/// The separating function along a fixed world axis.
struct Separation<'s, A: ?Sized, B: ?Sized> {
    a: &'s A,
    b: &'s B,
    sa: &'s Sweep,
    sb: &'s Sweep,
}

impl<A: SupportMap + ?Sized, B: SupportMap + ?Sized> Separation<'_, A, B> {
    /// `s(t)` along the unit world axis `n` and its slope at `t` (per unit `t`).
    fn eval(&self, n: Vec2, t: f32) -> (f32, f32) {
        let (xa, xb) = (self.sa.at(t), self.sb.at(t));
        let pa = xa.apply(self.a.local_core_support(xa.rot.apply_inv(n)));
        let pb = xb.apply(self.b.local_core_support(xb.rot.apply_inv(-n)));
        let slope = n.dot(self.sb.velocity(t, pb) - self.sa.velocity(t, pa));
        (n.dot(pb - pa), slope)
    }

    /// The first `t` after `t1` where `s` comes within `tol` of `tau`, every
    /// step certified by the curvature bound `k`.
    fn first_root(&self, n: Vec2, t1: f32, t_max: f32, tau: f32, tol: f32, k: f32) -> Root {
        let (mut lo, (mut s_lo, mut slope)) = (t1, self.eval(n, t1));
        let mut h = t_max - lo;
        for _ in 0..MAX_ROOT_ITERATIONS {
            let gap = s_lo - tau;
            if gap < tol {
                return Root::Found(lo);
            }
            if lo >= t_max {
                return Root::Separated;
            }
            // Newton step of the lower model gap + slope·h − k h²/2 toward
            // half the tolerance above the target.
            let aim = gap - 0.5 * tol;
            // The positive root of k h²/2 − slope·h − aim = 0, in the form
            // that does not cancel.
            let root = (slope * slope + 2.0 * k * aim).sqrt();
            let model = if slope < 0.0 {
                2.0 * aim / (root - slope)
            } else if k > 0.0 {
                (slope + root) / k
            } else {
                f32::INFINITY
            };
            h = h.min(model).min(t_max - lo);
            let hi = lo + h;
            if hi <= lo || h.is_nan() {
                // No representable step left: the root is at `lo` to f32
                // resolution of t.
                return Root::Found(lo);
            }
            let (s_hi, slope_hi) = self.eval(n, hi);
            if certified(s_lo, s_hi, h, k, tau) {
                (lo, s_lo, slope) = (hi, s_hi, slope_hi);
                // Let the next step be larger again.
                h = (4.0 * h).max(f32::EPSILON);
            } else if s_hi < s_lo {
                // Shrink, toward the chord's root when that is closer.
                let chord = h * aim / (s_lo - s_hi);
                h = (0.5 * h).min(chord);
            } else {
                h *= 0.5;
            }
        }
        Root::Stuck(lo)
    }
}

/// `true` when `s(t) ≥ chord − k (t − t₁)(t₂ − t)/2 > tau` all over an interval
/// of length `h` with end values `s1`, `s2`.
fn certified(s1: f32, s2: f32, h: f32, k: f32, tau: f32) -> bool {
    if s1 <= tau || s2 <= tau {
        return false;
    }
    if k <= 0.0 {
        return true;
    }
    // With u ∈ [0, 1]: s1 + (s2 − s1) u − (k h²/2) u (1 − u), a convex parabola.
    let q = 0.5 * k * h * h;
    let u = (0.5 - (s2 - s1) / (2.0 * q)).clamp(0.0, 1.0);
    s1 + (s2 - s1) * u - q * u * (1.0 - u) > tau
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;

    #[test]
    fn sweep_interpolates_centre_and_angle() {
        let s = Sweep {
            local_center: Vec2::new(1.0, 0.0),
            c0: Vec2::ZERO,
            c1: Vec2::new(4.0, 0.0),
            q0: Rot::IDENTITY,
            angle: std::f32::consts::PI,
        };
        let x = s.at(0.5);
        // Centre at (2, 0), turned a quarter turn: the local centre (1, 0) sits
        // at (0, 1) from the body origin, so the origin is at (2, -1).
        assert!((x.translation - Vec2::new(2.0, -1.0)).length() < 1e-6);
        assert!((x.apply(s.local_center) - Vec2::new(2.0, 0.0)).length() < 1e-6);
        let between = Sweep::between(
            &Iso::new(Vec2::ONE, 3.0),
            &Iso::new(Vec2::ONE, -3.0),
            Vec2::ZERO,
        );
        // The short way from 3 rad to -3 rad is +0.28 rad, through π.
        assert!((between.angle - (std::f32::consts::TAU - 6.0)).abs() < 1e-5);
    }

    #[test]
    fn translation_only_matches_the_gap() {
        let a = Shape::rect(1.0, 1.0);
        let b = Shape::circle(0.5);
        let sa = Sweep::still(&Iso::IDENTITY, Vec2::ZERO);
        let sb = Sweep::between(
            &Iso::new(Vec2::new(5.0, 0.0), 0.0),
            &Iso::new(Vec2::new(-3.0, 0.0), 0.0),
            Vec2::ZERO,
        );
        let toi = time_of_impact(&a, &sa, &b, &sb, &ToiOptions::default());
        assert_eq!(toi.state, ToiState::Hit);
        // The gap of 3.5 m closes at 3.5 / 8.
        assert!((toi.fraction - 3.5 / 8.0).abs() < 1e-6, "{toi:?}");
        assert!((toi.normal - Vec2::X).length() < 1e-5);
        let slop = ToiOptions {
            target: 0.005,
            ..ToiOptions::default()
        };
        let toi = time_of_impact(&a, &sa, &b, &sb, &slop);
        assert!((toi.fraction - 3.495 / 8.0).abs() < 1e-6, "{toi:?}");
    }

    #[test]
    fn a_spinning_plank_is_caught_by_its_tip() {
        // A 4 m plank spinning half a turn about its centre, 1.5 m above a
        // static box: its tip reaches down 2 m, so it must hit on the way.
        let ground = Shape::rect(5.0, 0.5);
        let ga = Sweep::still(&Iso::new(Vec2::new(0.0, -0.5), 0.0), Vec2::ZERO);
        let plank = Shape::rect(2.0, 0.05);
        let sp = Sweep {
            local_center: Vec2::ZERO,
            c0: Vec2::new(0.0, 1.5),
            c1: Vec2::new(0.0, 1.5),
            q0: Rot::IDENTITY,
            angle: std::f32::consts::PI,
        };
        let toi = time_of_impact(&ground, &ga, &plank, &sp, &ToiOptions::default());
        assert_eq!(toi.state, ToiState::Hit, "{toi:?}");
        // Touching when the lower corner (-2, -0.05) turned by θ is 1.5 below
        // the centre: 2 sin θ + 0.05 cos θ = 1.5.
        let f = |th: f64| 2.0 * th.sin() + 0.05 * th.cos() - 1.5;
        let (mut lo, mut hi) = (0.0f64, std::f64::consts::FRAC_PI_2);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if f(mid) < 0.0 {
                lo = mid
            } else {
                hi = mid
            }
        }
        let want = lo / std::f64::consts::PI;
        assert!(
            (toi.fraction as f64 - want).abs() < 1e-5,
            "{toi:?} vs {want}"
        );
        // A plank far above never touches.
        let high = Sweep {
            c0: Vec2::new(0.0, 2.5),
            c1: Vec2::new(0.0, 2.5),
            ..sp
        };
        let toi = time_of_impact(&ground, &ga, &plank, &high, &ToiOptions::default());
        assert_eq!(toi.state, ToiState::Separated, "{toi:?}");
    }

    #[test]
    fn overlapped_and_bad_input() {
        let a = Shape::circle(1.0);
        let s = Sweep::still(&Iso::IDENTITY, Vec2::ZERO);
        let s2 = Sweep::still(&Iso::new(Vec2::new(1.5, 0.0), 0.0), Vec2::ZERO);
        let toi = time_of_impact(&a, &s, &a, &s2, &ToiOptions::default());
        assert_eq!(toi.state, ToiState::Overlapped);
        assert!((toi.distance + 0.5).abs() < 1e-5 && (toi.normal - Vec2::X).length() < 1e-5);
        let bad = Sweep {
            angle: f32::NAN,
            ..s2
        };
        let toi = time_of_impact(&a, &s, &a, &bad, &ToiOptions::default());
        assert_eq!(toi.state, ToiState::Failed);
    }
}
