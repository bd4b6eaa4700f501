//! Fat boxes: the enlarged boxes that the broadphase stores instead of the tight ones.
//!
//! Pipeline stage: broadphase, called from [`super::SweepAndPrune::update`] once per
//! body per step. A fat box is the tight box grown by a margin on every side and
//! stretched along the body's displacement, so that a slowly moving body stays inside
//! it for many steps and the sorted structure is left untouched (the "fat AABB" of
//! Box2D's dynamic tree and Bullet's broadphase, here applied to sweep-and-prune).

use crate::math::Aabb;
use crate::math::Vec2;

/// Replaces `-0.0` by `+0.0`. With no negative zeros and no NaNs stored, the plain
/// `<` on `f32` is a total order, which the sorted endpoint arrays rely on.
#[inline]
pub(crate) fn canon(v: f32) -> f32 {
    v + 0.0
}

/// The box with both corners passed through [`canon`].
#[inline]
pub(crate) fn canon_box(b: &Aabb) -> Aabb {
    Aabb::new(
        Vec2::new(canon(b.min.x), canon(b.min.y)),
        Vec2::new(canon(b.max.x), canon(b.max.y)),
    )
}

/// The fat box for `tight` (m): grown by `margin` (m) and stretched so it also covers
/// `tight` moved by `displacement * stretch` (displacement in m, stretch unitless)
/// and then on by `clamp(displacement * lead, ±lead * margin)` on each axis
/// (lead unitless, in steps; see [`super::SapConfig::lead`]).
/// `tight` must be valid. When the growth would overflow `f32`, the tight box is used
/// as it is, so the result is always finite and always contains `tight`.
pub(crate) fn make_fat(
    tight: &Aabb,
    displacement: Vec2,
    margin: f32,
    stretch: f32,
    lead: f32,
) -> Aabb {
    let mut d = displacement * stretch;
    if !d.is_finite() {
        d = Vec2::ZERO;
    }
    // (`clamp` would turn a NaN into the lower bound: tested first.)
    let ahead = displacement * lead;
    if ahead.is_finite() {
        let cap = Vec2::splat(lead * margin);
        d += ahead.clamp(-cap, cap);
    }
    // Rounding is monotone, so adding a non-positive amount to `min` can never move
    // it above the tight `min`: the result contains `tight` whenever it is finite.
    let min = tight.min + d.min(Vec2::ZERO) - Vec2::splat(margin);
    let max = tight.max + d.max(Vec2::ZERO) + Vec2::splat(margin);
    let fat = canon_box(&Aabb::new(min, max));
    if fat.is_valid() && fat.contains(tight) {
        fat
    } else {
        canon_box(tight)
    }
}

/// `true` when the stored fat box must be re-made: the tight box swept by this
/// step's displacement (`tight` here) has left it, or the
/// fat box has grown to more than twice the freshly needed size plus four margins on
/// some axis (a body that was fast and has stopped must not keep a long stretched box
/// that keeps reporting far-away pairs).
#[inline]
pub(crate) fn needs_remake(fat: &Aabb, tight: &Aabb, fresh: &Aabb, margin: f32) -> bool {
    if !fat.contains(tight) {
        return true;
    }
    let have = fat.max - fat.min;
    let need = fresh.max - fresh.min;
    let limit = 2.0 * need + Vec2::splat(4.0 * margin);
    have.x > limit.x || have.y > limit.y
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fat_covers_margin_and_displacement() {
        let t = Aabb::new(Vec2::ZERO, Vec2::ONE);
        let f = make_fat(&t, Vec2::new(0.5, -0.25), 0.1, 1.0, 0.0);
        assert_eq!(f, Aabb::new(Vec2::new(-0.1, -0.35), Vec2::new(1.6, 1.1)));
        assert!(f.contains(&t));
    }

    #[test]
    fn the_lead_looks_ahead_at_most_lead_margins() {
        let t = Aabb::new(Vec2::ZERO, Vec2::ONE);
        // x: 0.01 m a step, led on by 2 steps (0.02 m, under the cap);
        // y: 0.5 m a step, led on by the cap, 2 margins (0.2 m).
        let f = make_fat(&t, Vec2::new(0.01, -0.5), 0.1, 1.0, 2.0);
        let want = Aabb::new(Vec2::new(-0.1, -0.8), Vec2::new(1.13, 1.1));
        assert!((f.min - want.min).abs().max_element() < 1e-6, "{f:?}");
        assert!((f.max - want.max).abs().max_element() < 1e-6, "{f:?}");
        // No lead, or no motion: the plain fat box.
        let plain = make_fat(&t, Vec2::new(0.01, -0.5), 0.1, 1.0, 0.0);
        assert_eq!(
            plain,
            Aabb::new(Vec2::new(-0.1, -0.6), Vec2::new(1.11, 1.1))
        );
        assert_eq!(
            make_fat(&t, Vec2::ZERO, 0.1, 1.0, 2.0),
            make_fat(&t, Vec2::ZERO, 0.1, 1.0, 0.0)
        );
        // A non-finite displacement leads nowhere.
        assert_eq!(
            make_fat(&t, Vec2::NAN, 0.1, 1.0, 2.0),
            make_fat(&t, Vec2::ZERO, 0.1, 1.0, 0.0)
        );
    }

    #[test]
    fn slow_body_stays_inside() {
        let t = Aabb::new(Vec2::ZERO, Vec2::ONE);
        let f = make_fat(&t, Vec2::ZERO, 0.1, 1.0, 0.0);
        let moved = Aabb::new(t.min + Vec2::splat(0.05), t.max + Vec2::splat(0.05));
        let fresh = make_fat(&moved, Vec2::splat(0.05), 0.1, 1.0, 0.0);
        assert!(!needs_remake(&f, &moved, &fresh, 0.1));
        let far = Aabb::new(t.min + Vec2::splat(0.2), t.max + Vec2::splat(0.2));
        assert!(needs_remake(&f, &far, &fresh, 0.1));
    }

    #[test]
    fn stopped_body_shrinks_its_box() {
        let t = Aabb::new(Vec2::ZERO, Vec2::ONE);
        let f = make_fat(&t, Vec2::new(10.0, 0.0), 0.1, 1.0, 0.0);
        let fresh = make_fat(&t, Vec2::ZERO, 0.1, 1.0, 0.0);
        assert!(needs_remake(&f, &t, &fresh, 0.1));
    }

    #[test]
    fn overflow_falls_back_to_tight() {
        let t = Aabb::new(Vec2::splat(-f32::MAX), Vec2::splat(f32::MAX));
        let f = make_fat(&t, Vec2::new(f32::MAX, 0.0), 1.0, 1.0, 0.0);
        assert_eq!(f, t);
        let n = make_fat(&Aabb::new(Vec2::ZERO, Vec2::ONE), Vec2::NAN, 0.0, 1.0, 0.0);
        assert_eq!(n, Aabb::new(Vec2::ZERO, Vec2::ONE));
    }

    #[test]
    fn negative_zero_is_canonical() {
        let t = Aabb::new(Vec2::splat(-0.0), Vec2::splat(-0.0));
        let f = make_fat(&t, Vec2::ZERO, 0.0, 0.0, 0.0);
        assert!(f.min.x.is_sign_positive() && f.max.y.is_sign_positive());
    }
}
