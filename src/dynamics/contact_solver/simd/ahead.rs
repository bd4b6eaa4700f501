//! Asking for the bundles a pass will reach next (`math::prefetch`: a hint,
//! nothing computed changes).
//!
//! A large scene's bundles do not fit in the L2 cache: `washer`'s 3,800
//! bundles hold 4 MB of geometry and 5 MB of velocity data, streamed from
//! the L3 once per pass. The hardware's prefetchers did not keep up with the
//! anchor update, which reads a geometry bundle (1 KB) and writes part of a
//! velocity bundle for each few hundred instructions: asked for two bundles
//! ahead, the update and warm start of `washer` went from 20 % of its step
//! to 14 % (docs/2026-12-02-bundles-asked-ahead.md).
//!
//! Nothing here reads the bundle it asks for: whether a bundle has a second
//! point comes from a compact list ([`ContactBundles`]). Read from the
//! bundle, that flag was a load two bundles ahead that missed and held the
//! pass up (10 % of the anchor update's samples in `smash` sat on the
//! branch after it; docs/2026-12-02-loads-that-wait.md).

use super::*;

/// How many bundles ahead a pass asks for.
pub(super) const AHEAD: usize = 2;

impl FeatureW {
    /// Asks for every lane vector of this point's geometry.
    #[inline(always)]
    fn prefetch(&self) {
        for v in [&self.ab, &self.fa, &self.fb, &self.fnormal] {
            crate::math::prefetch(&v.x);
            crate::math::prefetch(&v.y);
        }
        for x in [&self.flength, &self.radius, &self.point_radius] {
            crate::math::prefetch(x);
        }
    }
}

impl GeometryBundle {
    /// Asks for every cache line of this bundle that the anchor update and
    /// the position pass read (all of it, for a two-point bundle;
    /// `prefetch_covers_every_line` checks the coverage). `single`: the
    /// bundle's flag, from the compact list ([`ContactBundles`]), not from
    /// the bundle, which is not loaded yet.
    #[inline(always)]
    pub(super) fn prefetch(&self, single: bool) {
        crate::math::prefetch(&self.a);
        crate::math::prefetch(&self.b);
        for x in [
            &self.inv_mass_a,
            &self.inv_inertia_a,
            &self.inv_mass_b,
            &self.inv_inertia_b,
        ] {
            crate::math::prefetch(x);
        }
        self.points[0].prefetch();
        if single {
            return;
        }
        self.points[1].prefetch();
    }
}

impl PointW {
    /// Asks for every lane vector of this point.
    #[inline(always)]
    fn prefetch(&self) {
        crate::math::prefetch(&self.normal.x);
        crate::math::prefetch(&self.normal.y);
        for x in [
            &self.arm_na,
            &self.arm_nb,
            &self.arm_ta,
            &self.arm_tb,
            &self.normal_impulse,
            &self.tangent_impulse,
        ] {
            crate::math::prefetch(x);
        }
    }
}

impl VelocityBundle {
    /// Asks for every cache line of this bundle that the velocity passes
    /// read (all of it, for a two-point bundle); `single` as for
    /// [`GeometryBundle::prefetch`].
    #[inline(always)]
    pub(super) fn prefetch(&self, single: bool) {
        crate::math::prefetch(&self.a);
        crate::math::prefetch(&self.b);
        crate::math::prefetch(&self.count);
        for x in [
            &self.inv_mass_a,
            &self.inv_inertia_a,
            &self.inv_mass_b,
            &self.inv_inertia_b,
            &self.rolling_arm,
            &self.rolling_impulse,
        ] {
            crate::math::prefetch(x);
        }
        self.points[0].prefetch();
        if single {
            return;
        }
        self.points[1].prefetch();
    }
}

impl SolveBundle {
    /// Asks for every cache line of this bundle (of its first point's, for
    /// a one-point bundle); `single` as for [`GeometryBundle::prefetch`].
    #[inline(always)]
    pub(super) fn prefetch(&self, single: bool) {
        crate::math::prefetch(&self.block_ok);
        for x in [
            &self.impact,
            &self.friction,
            &self.k11,
            &self.k12,
            &self.k22,
            &self.inv_det,
            &self.angular_mass,
        ] {
            crate::math::prefetch(x);
        }
        let points = if single { 1 } else { 2 };
        for p in &self.points[..points] {
            for x in [&p.bias, &p.mass, &p.tangent_mass, &p.max_normal_impulse] {
                crate::math::prefetch(x);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    /// Offsets of the fields `prefetch` asks for in a two-point bundle.
    fn feature_probes(base: usize) -> Vec<usize> {
        let v2 = |o: usize| [o + offset_of!(V2, x), o + offset_of!(V2, y)];
        let mut probes = Vec::new();
        for o in [
            offset_of!(FeatureW, ab),
            offset_of!(FeatureW, fa),
            offset_of!(FeatureW, fb),
            offset_of!(FeatureW, fnormal),
        ] {
            probes.extend(v2(base + o));
        }
        probes.extend(
            [
                offset_of!(FeatureW, flength),
                offset_of!(FeatureW, radius),
                offset_of!(FeatureW, point_radius),
            ]
            .map(|o| base + o),
        );
        probes
    }

    fn point_probes(base: usize) -> Vec<usize> {
        let normal = offset_of!(PointW, normal);
        let mut probes = vec![
            base + normal + offset_of!(V2, x),
            base + normal + offset_of!(V2, y),
        ];
        probes.extend(
            [
                offset_of!(PointW, arm_na),
                offset_of!(PointW, arm_nb),
                offset_of!(PointW, arm_ta),
                offset_of!(PointW, arm_tb),
                offset_of!(PointW, normal_impulse),
                offset_of!(PointW, tangent_impulse),
            ]
            .map(|o| base + o),
        );
        probes
    }

    /// Every 64-byte line of a struct of `size` bytes holds a probe,
    /// wherever the struct starts: probes at most 64 bytes apart, from the
    /// first byte to within 64 bytes of the last.
    fn assert_covers(mut probes: Vec<usize>, size: usize) {
        probes.sort_unstable();
        probes.dedup();
        assert_eq!(probes[0], 0, "{probes:?}");
        assert!(probes.windows(2).all(|w| w[1] - w[0] <= 64), "{probes:?}");
        assert!(size - 1 - probes[probes.len() - 1] < 64, "{probes:?}");
    }

    /// The fields the prefetches of a two-point bundle name (listed here as
    /// in `prefetch`) reach every cache line the bundle spans, whatever
    /// order the compiler gives its fields. Fields added to a bundle but
    /// not to `prefetch` fail this once they leave a line unreached.
    #[test]
    fn prefetch_covers_every_line() {
        let points = offset_of!(GeometryBundle, points);
        let mut probes = vec![
            offset_of!(GeometryBundle, a),
            offset_of!(GeometryBundle, b),
            offset_of!(GeometryBundle, inv_mass_a),
            offset_of!(GeometryBundle, inv_inertia_a),
            offset_of!(GeometryBundle, inv_mass_b),
            offset_of!(GeometryBundle, inv_inertia_b),
        ];
        for k in 0..2 {
            probes.extend(feature_probes(points + k * size_of::<FeatureW>()));
        }
        assert_covers(probes, size_of::<GeometryBundle>());

        let points = offset_of!(VelocityBundle, points);
        let mut probes = vec![
            offset_of!(VelocityBundle, a),
            offset_of!(VelocityBundle, b),
            offset_of!(VelocityBundle, count),
            offset_of!(VelocityBundle, inv_mass_a),
            offset_of!(VelocityBundle, inv_inertia_a),
            offset_of!(VelocityBundle, inv_mass_b),
            offset_of!(VelocityBundle, inv_inertia_b),
            offset_of!(VelocityBundle, rolling_arm),
            offset_of!(VelocityBundle, rolling_impulse),
        ];
        for k in 0..2 {
            probes.extend(point_probes(points + k * size_of::<PointW>()));
        }
        assert_covers(probes, size_of::<VelocityBundle>());

        let points = offset_of!(SolveBundle, points);
        let mut probes = vec![
            offset_of!(SolveBundle, block_ok),
            offset_of!(SolveBundle, impact),
            offset_of!(SolveBundle, friction),
            offset_of!(SolveBundle, k11),
            offset_of!(SolveBundle, k12),
            offset_of!(SolveBundle, k22),
            offset_of!(SolveBundle, inv_det),
            offset_of!(SolveBundle, angular_mass),
        ];
        for k in 0..2 {
            let base = points + k * size_of::<PointS>();
            probes.extend(
                [
                    offset_of!(PointS, bias),
                    offset_of!(PointS, mass),
                    offset_of!(PointS, tangent_mass),
                    offset_of!(PointS, max_normal_impulse),
                ]
                .map(|o| base + o),
            );
        }
        assert_covers(probes, size_of::<SolveBundle>());
    }
}
