//! Manifold reuse: a polygon pair whose relative pose has barely changed since
//! its manifold was built keeps that manifold, moved rigidly with the bodies,
//! instead of running the narrowphase again (as rapier and PhysX do for
//! persistent manifolds). In a resting stack almost every pair qualifies.
//!
//! Reuse must never miss a contact, so the rule is a bound, not a heuristic.
//! A manifold is built with a margin `M` a little larger than the
//! speculative distance the pair needs, so it holds every contact within
//! `M`. Since then, B has moved in A's frame by a translation `Δt` and a
//! turn `Δθ`, which moves every point of B, relative to A, by at most
//!
//! ```text
//! D = |Δt| + r_B · 2|sin(Δθ/2)|        (r_B: B's bounding radius)
//! ```
//!
//! so every distance between the shapes has changed by at most `D`. While the
//! speculative distance needed now, plus `D`, is still within `M`, any pair of
//! features now closer than that distance was within `M` when the manifold was
//! built, and is in it. The manifold's points are then remeasured from their
//! features at the current poses ([`super::manifold::measure`], as the solver
//! does every substep), so separations and normals are exact for the tracked
//! features; only where a clipped point sits along its face drifts, by at most
//! `D`, so `D` is also held under 1 % of the distance between the two points
//! (5 mm on a metre-wide box, far less on a small sliver). A manifold that
//! found nothing within `M` is reused as empty by the same bound.
//!
//! Only polygon pairs (rounded or not: nothing above depends on the shapes
//! being sharp, and a rounded face's points are measured with its radius)
//! are reused, and only their empty manifolds and their two-point face–face
//! ones, where the incident face lies along the
//! reference face (within the clipping tolerance) and its two ends, or where
//! it is clipped, are the points. A single point stands for a corner, and a
//! polygon rocking on a corner brings a neighbouring vertex down as it turns,
//! which a rebuilt manifold follows at once; curved shapes' contact points
//! roll along their surfaces.

use super::manifold::{measure, FeatureKind, Manifold, PointFeature, CLIPPED_FEATURE};
use crate::math::Iso;
use serde::{Deserialize, Serialize};

/// The drift allowed, as a fraction of the distance between a manifold's two
/// points: a clipped point rides with its body instead of staying where the
/// faces' overlap ends, and must not wander far across the patch (5 mm on a
/// metre-wide box, a tenth of a millimetre on a 1 cm sliver).
const PATCH_FRACTION: f32 = 0.01;

/// The pose of the body that carries a feature's normal: B's for a face of
/// B, A's otherwise (a face of A, or the fallback direction of two points).
fn face_frame<'a>(f: &PointFeature, xa: &'a Iso, xb: &'a Iso) -> &'a Iso {
    if f.kind == FeatureKind::PlaneB {
        xb
    } else {
        xa
    }
}

/// A pair's last narrowphase result, kept in the bodies' own frames.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct ManifoldCache {
    /// Whether there is a result to reuse.
    valid: bool,
    /// The margin (m) the manifold was built with.
    margin: f32,
    /// The most the pair may drift (m) before its points, which slide with
    /// their bodies, stray too far across its contact patch.
    max_drift: f32,
    /// B's frame in A's frame when it was built.
    relative: Iso,
    /// Points (0 to 2) and their feature ids.
    count: u8,
    ids: [u32; 2],
    /// The points' features: `pa` in A's frame, `pb` in B's, the face normal
    /// in its face's body's frame.
    features: [PointFeature; 2],
}

impl ManifoldCache {
    /// Keeps a manifold built at poses `xa`, `xb` with `margin`, when it is
    /// one that may be reused (see the module header); otherwise leaves
    /// nothing to reuse.
    pub fn store(
        &mut self,
        m: &Manifold,
        features: &[PointFeature; 2],
        xa: &Iso,
        xb: &Iso,
        margin: f32,
    ) {
        let clipped = m.points().iter().all(|p| p.id & CLIPPED_FEATURE != 0);
        self.valid = m.count != 1 && clipped && margin.is_finite();
        if !self.valid {
            return;
        }
        self.margin = margin;
        self.max_drift = match m.count {
            2 => PATCH_FRACTION * (m.points[1].point - m.points[0].point).length(),
            _ => f32::INFINITY,
        };
        self.relative = xa.inv_mul(xb);
        self.count = m.count as u8;
        for (k, (p, f)) in m.points().iter().zip(features).enumerate() {
            self.ids[k] = p.id;
            let frame = face_frame(f, xa, xb);
            self.features[k] = PointFeature {
                pa: xa.apply_inv(f.pa),
                pb: xb.apply_inv(f.pb),
                normal: frame.rot.apply_inv(f.normal),
                ..*f
            };
        }
    }

    /// Forgets the stored result.
    pub fn clear(&mut self) {
        self.valid = false;
    }

    /// Refreshes the pair's manifold `m` and its `features`, built with this
    /// cache, at poses `xa`, `xb`: remeasures its points, keeping their
    /// impulses, and returns `true`, if the pair needs contacts within
    /// `speculative` (m) and has moved little enough since the manifold was
    /// built for it to hold them all; `radius_b` bounds B's points' distance
    /// from its frame's origin. Otherwise returns `false` and changes
    /// nothing: the pair needs the narrowphase.
    pub fn refresh(
        &self,
        xa: &Iso,
        xb: &Iso,
        radius_b: f32,
        speculative: f32,
        m: &mut Manifold,
        features: &mut [PointFeature; 2],
    ) -> bool {
        if !self.valid || !self.holds(m) {
            return false;
        }
        let now = xa.inv_mul(xb);
        let turn = self.relative.rot.inv_mul(now.rot);
        // |R(Δθ) - I| = 2|sin(Δθ/2)|, the chord of the turn.
        let chord = ((1.0 - turn.cos) * (1.0 - turn.cos) + turn.sin * turn.sin).sqrt();
        let drift = (now.translation - self.relative.translation).length() + radius_b * chord;
        // NaN poses are rebuilt (and rejected) by the narrowphase.
        let within = speculative + drift <= self.margin && drift <= self.max_drift;
        if !within {
            return false;
        }
        let count = m.count;
        for (k, (f, out)) in self.features[..count].iter().zip(features).enumerate() {
            let frame = face_frame(f, xa, xb);
            let w = PointFeature {
                pa: xa.apply(f.pa),
                pb: xb.apply(f.pb),
                normal: frame.rot.apply(f.normal),
                ..*f
            };
            let (separation, _, point) = measure(
                w.kind,
                w.pa,
                w.pb,
                w.normal,
                w.length,
                w.radius,
                w.point_radius,
            );
            m.points[k].point = point;
            m.points[k].separation = separation;
            // A clipped manifold's normal is its reference face's (A → B).
            m.normal = if w.kind == FeatureKind::PlaneB {
                -w.normal
            } else {
                w.normal
            };
            *out = w;
        }
        true
    }

    /// Whether `m` is the manifold this cache was stored from (same points).
    fn holds(&self, m: &Manifold) -> bool {
        m.count == self.count as usize
            && m.points().iter().zip(&self.ids).all(|(p, &id)| p.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::gjk::SimplexCache;
    use crate::math::{Iso, Vec2};
    use crate::narrowphase::dispatch::collide_with_features;
    use crate::shape::Shape;

    fn boxes() -> (Shape, Shape) {
        (Shape::rect(2.0, 0.5), Shape::rect(0.5, 0.5))
    }

    /// A manifold, its features and its cache, built at `xa`, `xb`.
    struct Kept(ManifoldCache, Manifold, [PointFeature; 2]);

    impl Kept {
        /// [`ManifoldCache::refresh`] on a copy of the kept manifold.
        fn recall(&self, xa: &Iso, xb: &Iso, radius_b: f32, speculative: f32) -> Option<Manifold> {
            let (mut m, mut f) = (self.1, self.2);
            self.0
                .refresh(xa, xb, radius_b, speculative, &mut m, &mut f)
                .then_some(m)
        }
    }

    fn build(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso, margin: f32) -> Kept {
        let (m, f) =
            collide_with_features(a, xa, b, xb, margin, &mut SimplexCache::default(), true);
        let mut c = ManifoldCache::default();
        c.store(&m, &f, xa, xb, margin);
        Kept(c, m, f)
    }

    #[test]
    fn an_unmoved_pair_gets_its_manifold_back() {
        let (a, b) = boxes();
        let xa = Iso::new(Vec2::new(0.3, -0.2), 0.4);
        let xb = xa.mul(&Iso::new(Vec2::new(0.7, 0.99), 0.0));
        let (mut m, f) =
            collide_with_features(&a, &xa, &b, &xb, 0.03, &mut SimplexCache::default(), true);
        assert_eq!(m.count, 2);
        m.points[0].normal_impulse = 1.5;
        m.points[1].tangent_impulse = -0.5;
        let mut c = ManifoldCache::default();
        c.store(&m, &f, &xa, &xb, 0.03);
        let (mut r, mut rf) = (m, f);
        assert!(c.refresh(&xa, &xb, b.bounding_radius(), 0.02, &mut r, &mut rf));
        assert_eq!(r.count, 2);
        assert!((r.normal - m.normal).length() < 1e-6);
        for k in 0..2 {
            assert_eq!(r.points[k].id, m.points[k].id);
            assert!((r.points[k].point - m.points[k].point).length() < 1e-5);
            assert!((r.points[k].separation - m.points[k].separation).abs() < 1e-5);
            assert_eq!(r.points[k].normal_impulse, m.points[k].normal_impulse);
            assert_eq!(r.points[k].tangent_impulse, m.points[k].tangent_impulse);
            assert_eq!(rf[k].kind, f[k].kind);
            assert!((rf[k].pa - f[k].pa).length() < 1e-5);
        }
        // Another manifold than the one stored is never refreshed.
        let mut other = m;
        other.points[1].id ^= 1;
        assert!(!c.refresh(&xa, &xb, b.bounding_radius(), 0.02, &mut other, &mut rf));
    }

    #[test]
    fn moving_beyond_the_margin_rebuilds() {
        let (a, b) = boxes();
        let xa = Iso::IDENTITY;
        let xb = Iso::new(Vec2::new(0.0, 1.0), 0.0);
        let c = build(&a, &xa, &b, &xb, 0.025);
        // 4 mm of slide is within the 5 mm budget; 6 mm is not.
        assert!(c
            .recall(&xa, &Iso::new(Vec2::new(0.004, 1.0), 0.0), 0.71, 0.02)
            .is_some());
        assert!(c
            .recall(&xa, &Iso::new(Vec2::new(0.006, 1.0), 0.0), 0.71, 0.02)
            .is_none());
        // A turn counts at B's radius: 0.005 rad × 0.71 m > 3 mm.
        assert!(c
            .recall(&xa, &Iso::new(Vec2::new(0.0, 1.0), 0.005), 0.71, 0.02)
            .is_some());
        assert!(c
            .recall(&xa, &Iso::new(Vec2::new(0.0, 1.0), 0.008), 0.71, 0.02)
            .is_none());
        // A pair that needs a longer reach (it moves faster) rebuilds.
        assert!(c.recall(&xa, &xb, 0.71, 0.026).is_none());
        // A small patch allows a small drift: 1 % of its width.
        let chip = Shape::rect(0.01, 0.01);
        let on = Iso::new(Vec2::new(0.0, 0.51), 0.0);
        let c2 = build(&a, &xa, &chip, &on, 0.025);
        let slid = |dx: f32| Iso::new(Vec2::new(dx, 0.51), 0.0);
        assert!(c2.recall(&xa, &slid(0.0001), 0.015, 0.02).is_some());
        assert!(c2.recall(&xa, &slid(0.0003), 0.015, 0.02).is_none());
        // Moving both bodies together changes nothing.
        let shift = Iso::new(Vec2::new(5.0, -3.0), 1.1);
        assert!(c
            .recall(&shift.mul(&xa), &shift.mul(&xb), 0.71, 0.02)
            .is_some());
    }

    #[test]
    fn single_point_manifolds_are_not_kept() {
        // A box on its corner: one point; a turn brings a neighbour down.
        let (a, b) = boxes();
        let xb = Iso::new(Vec2::new(0.0, 0.5 + 0.5 * 2f32.sqrt() - 0.001), 0.785);
        let c = build(&a, &Iso::IDENTITY, &b, &xb, 0.025);
        assert!(c.recall(&Iso::IDENTITY, &xb, 0.71, 0.02).is_none());
    }

    #[test]
    fn nan_poses_are_never_reused() {
        let (a, b) = boxes();
        let xb = Iso::new(Vec2::new(0.0, 1.0), 0.0);
        let c = build(&a, &Iso::IDENTITY, &b, &xb, 0.025);
        let bad = Iso::new(Vec2::new(f32::NAN, 1.0), 0.0);
        assert!(c.recall(&Iso::IDENTITY, &bad, 0.71, 0.02).is_none());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 2000,
            rng_seed: proptest::test_runner::RngSeed::Fixed(0x4d4b_0001),
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// The bound's promise, against the narrowphase itself: whenever a
        /// manifold is reused after a random small motion, every contact a
        /// fresh narrowphase finds within the speculative distance is in it,
        /// with the same feature id (or, where two features meet, at the
        /// same place) and nearly the same separation, and the reused
        /// normal is the fresh one to within the turn. Seeded, so that every
        /// run tries the same cases; cases it found are kept as tests below.
        #[test]
        fn reuse_never_misses_a_contact(
            hx in 0.1f32..2.0, hy in 0.1f32..2.0, bx in 0.1f32..1.0, by in 0.1f32..1.0,
            u in -1.0f32..1.0, gap in -0.01f32..0.04, tilt in -0.03f32..0.03,
            dx in -0.01f32..0.01, dy in -0.01f32..0.01, dt in -0.01f32..0.01,
            angle in -3.2f32..3.2, tri in proptest::bool::ANY,
            round in 0..4u8, ra in 0.005f32..0.2, rb in 0.005f32..0.2,
            fine in proptest::bool::ANY,
        ) {
            reuse_case(hx, hy, bx, by, u, gap, tilt, dx, dy, dt, angle, tri, round, ra, rb, fine)?;
        }
    }

    /// One case of `reuse_never_misses_a_contact` (see there).
    #[allow(clippy::too_many_arguments)]
    fn reuse_case(
        hx: f32,
        hy: f32,
        bx: f32,
        by: f32,
        u: f32,
        gap: f32,
        tilt: f32,
        dx: f32,
        dy: f32,
        dt: f32,
        angle: f32,
        tri: bool,
        round: u8,
        ra: f32,
        rb: f32,
        fine: bool,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        // Half the motions ten times smaller, so that more are reused.
        let k = if fine { 0.1 } else { 1.0 };
        let (dx, dy, dt) = (k * dx, k * dy, k * dt);
        // Rounded A and/or B three times in four.
        let (ra, rb) = match round {
            0 => (0.0, 0.0),
            1 => (ra, 0.0),
            2 => (0.0, rb),
            _ => (ra, rb),
        };
        let a = Shape::rounded_rect(hx, hy, ra);
        let b = if tri {
            Shape::rounded_polygon(
                &[Vec2::new(-bx, -by), Vec2::new(bx, -by), Vec2::new(0.0, by)],
                rb,
            )
            .unwrap()
        } else {
            Shape::rounded_rect(bx, by, rb)
        };
        // B resting on A's top face, somewhere along it, slightly tilted.
        let below = match &b {
            Shape::Polygon(p) | Shape::RoundedPolygon { core: p, .. } => -p
                .vertices()
                .iter()
                .map(|v| v.y)
                .fold(f32::INFINITY, f32::min),
            _ => by,
        } + ra
            + rb;
        let xa = Iso::new(Vec2::new(1.0, 2.0), angle);
        let rel0 = Iso::new(Vec2::new(u * hx, hy + below + gap), tilt);
        let xb0 = xa.mul(&rel0);
        let (margin, speculative) = (0.025, 0.02);
        let c = build(&a, &xa, &b, &xb0, margin);
        let rel1 = Iso::new(rel0.translation + Vec2::new(dx, dy), tilt + dt);
        let xb1 = xa.mul(&rel1);
        let Some(reused) = c.recall(&xa, &xb1, b.bounding_radius(), speculative) else {
            return Ok(());
        };
        let (fresh, _) = collide_with_features(
            &a,
            &xa,
            &b,
            &xb1,
            speculative,
            &mut SimplexCache::default(),
            true,
        );
        let drift = Vec2::new(dx, dy).length() + b.bounding_radius() * dt.abs();
        for p in fresh.points() {
            // The same feature id; or, where the fresh point sits where
            // two features meet (the end of A's flat face, where its
            // rounded corner begins), the reused manifold may name the
            // same contact by the neighbouring feature: then a point
            // within the drift of it, with its separation (below).
            let q = reused.points().iter().find(|q| q.id == p.id).or_else(|| {
                reused
                    .points()
                    .iter()
                    .find(|q| (q.point - p.point).length() <= drift + 1e-4)
            });
            proptest::prop_assert!(q.is_some(), "fresh point {:?} missing from {:?}", p, reused);
            let q = q.unwrap();
            proptest::prop_assert!(
                (q.separation - p.separation).abs() <= drift + 1e-4,
                "separation {} vs fresh {}",
                q.separation,
                p.separation
            );
        }
        if fresh.count > 0 {
            proptest::prop_assert!(
                reused.normal.dot(fresh.normal) >= (dt.abs() + 0.03).cos() - 1e-4
            );
        }
        Ok(())
    }

    /// A case the property test found: B's corner over the end of A's flat
    /// face, where A's rounded corner begins. The fresh narrowphase names
    /// the contact by the corner, the reused manifold by the face, 0.7 mm
    /// apart with the same separation.
    #[test]
    fn reuse_at_a_face_end_keeps_the_contact() {
        reuse_case(
            0.47174788,
            0.1,
            0.1,
            0.41308567,
            0.97291785,
            0.019799117,
            -0.013598207,
            0.0041719005,
            0.0040016347,
            0.00596881,
            0.0,
            false,
            1,
            0.087784365,
            0.005,
            true,
        )
        .unwrap();
    }
}
