//! The core behind a contact's witness point: the point (and rounding
//! radius) the solver tracks a curved or rounded surface by.

use crate::math::{Iso, Vec2};
use crate::shape::{ellipse_support, Shape, SupportMap};

/// The core point behind a shape's surface point `p`, where its outward
/// normal is `out` (the shape placed at `xf`, both in A's frame), and the
/// radius from the core out to the surface. Rounded shapes have their
/// skeleton as core (a circle's centre, a capsule's segment, a polygon
/// itself, radius 0). An ellipse's core is its centre of curvature at its
/// surface point whose normal is `out` (its support point along `out`), with
/// the radius of curvature `ρ = (rx·ry)² / h³`, `h` its support distance
/// along `out`: the osculating circle, which follows the surface to second
/// order as the ellipse rolls. (A contact that tracked the material point
/// `p` instead would see it rise as the ellipse turns, let a rocking ellipse
/// sink into its support and be pushed back up each swing, and pump energy
/// into the rocking.)
pub(super) fn core_behind(shape: &Shape, xf: &Iso, p: Vec2, out: Vec2) -> (Vec2, f32) {
    match shape {
        Shape::Ellipse { rx, ry } => {
            let d = xf.rot.apply_inv(out);
            let h2 = rx * rx * d.x * d.x + ry * ry * d.y * d.y;
            let rho = (rx * ry) * (rx * ry) / (h2 * h2.sqrt());
            // Behind the support point along `out` (closed form), not the
            // witness `p`: GJK converges on the distance, which hardly moves
            // with the witness along a flat curve (warm started, witnesses
            // fell 2 cm from the contact of a 0.2 × 0.1 m ellipse); that
            // lever's torque tipped a rocking ellipse and kept it rocking.
            let support = xf.apply(ellipse_support(*rx, *ry, d));
            if rho.is_finite() && support.is_finite() {
                (support - rho * out, rho)
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

#[cfg(test)]
mod tests {
    use crate::geometry::gjk::SimplexCache;
    use crate::math::{Iso, Vec2};
    use crate::narrowphase::dispatch::collide_with_features;
    use crate::shape::Shape;
    use rand::{RngExt, SeedableRng};

    /// An ellipse rocking on a box, one GJK cache per sequence as in the
    /// world: the core the solver tracks must be the centre of curvature at
    /// the true contact (the lowest point), whatever the warm-started
    /// witness. It was up to 2 cm off along the surface before the core was
    /// placed behind the closed-form support point.
    #[test]
    fn a_rocking_ellipse_core_is_the_centre_of_curvature_at_the_contact() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(15);
        let ground = Shape::rect(50.0, 1.0);
        let xg = Iso::new(Vec2::new(0.0, -1.0), 0.0);
        let mut worst = 0.0f32;
        for _ in 0..200 {
            let rx = rng.random_range(0.1f32..1.0);
            let ry = rx * rng.random_range(0.2f32..1.0);
            let ellipse = Shape::ellipse(rx, ry);
            let amplitude = rng.random_range(0.02f32..0.6);
            let phase = rng.random_range(0.0f32..6.0);
            let mut cache = SimplexCache::default();
            for k in 0..120 {
                let th = amplitude * libm::sinf(phase + 0.1 * k as f32);
                let (s, c) = (libm::sinf(th), libm::cosf(th));
                // The support distance downwards, and the lowest point.
                let h = (rx * rx * s * s + ry * ry * c * c).sqrt();
                let gap = rng.random_range(-5e-4f32..5e-4);
                let centre = Vec2::new(0.01 * k as f32, h + gap);
                let xe = Iso::new(centre, th);
                let (m, f) =
                    collide_with_features(&ground, &xg, &ellipse, &xe, 0.02, &mut cache, true);
                assert_eq!(m.count, 1);
                // Support along world -y in the ellipse's frame: d = (-s, -c).
                let local = Vec2::new(-rx * rx * s, -ry * ry * c) / h;
                let low = xe.apply(local);
                let rho = (rx * ry) * (rx * ry) / (h * h * h);
                let expected = low + Vec2::new(0.0, rho);
                let err = (f[0].pb - expected).length() / rx;
                worst = worst.max(err);
                assert!(
                    err < 1e-4,
                    "core {:?}, expected {expected:?} (rx {rx}, ry {ry}, θ {th})",
                    f[0].pb
                );
                assert!((f[0].point_radius - rho).abs() <= 1e-4 * rho);
            }
        }
        println!("worst core error {worst:.2e} of rx");
    }
}
