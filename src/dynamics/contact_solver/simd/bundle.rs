//! Moving constraints into and out of the lanes of a bundle, and loading and
//! storing a bundle's bodies.

use super::*;

impl VelocityBundle {
    /// Lane `l` as a scalar constraint, with the rest of its data, `s`.
    pub(super) fn lane(&self, s: &SolveBundle, l: usize) -> VelocityConstraint {
        let point = |p: &PointW, q: &PointS| VelocityPoint {
            normal: p.normal.lane(l),
            arm_na: get(&p.arm_na, l),
            arm_nb: get(&p.arm_nb, l),
            arm_ta: get(&p.arm_ta, l),
            arm_tb: get(&p.arm_tb, l),
            bias: get(&q.bias, l),
            mass: get(&q.mass, l),
            tangent_mass: get(&q.tangent_mass, l),
            normal_impulse: get(&p.normal_impulse, l),
            tangent_impulse: get(&p.tangent_impulse, l),
            max_normal_impulse: get(&q.max_normal_impulse, l),
        };
        VelocityConstraint {
            a: self.a[l],
            b: self.b[l],
            friction: get(&s.friction, l),
            count: self.count[l],
            block_ok: s.block_ok & (1 << l) != 0,
            k: [
                get(&s.k11, l),
                get(&s.k12, l),
                get(&s.k22, l),
                get(&s.inv_det, l),
            ],
            rolling_arm: get(&self.rolling_arm, l),
            angular_mass: get(&s.angular_mass, l),
            rolling_impulse: get(&self.rolling_impulse, l),
            impact: get(&s.impact, l) > 0.5,
            quiet: s.quiet >> l & 1 == 1,
            points: [
                point(&self.points[0], &s.points[0]),
                point(&self.points[1], &s.points[1]),
            ],
        }
    }

    /// Stores a scalar constraint into lane `l` (and the rest of its data
    /// into `s`): what [`VelocityBundle::set_new_lane`] stores, and what the
    /// anchor update sets.
    pub(super) fn set_lane(&mut self, s: &mut SolveBundle, l: usize, c: &VelocityConstraint) {
        self.set_new_lane(s, l, c);
        s.block_ok = s.block_ok & !(1 << l) | (c.block_ok as u8) << l;
        put(&mut s.k11, l, c.k[0]);
        put(&mut s.k12, l, c.k[1]);
        put(&mut s.k22, l, c.k[2]);
        put(&mut s.inv_det, l, c.k[3]);
        let points = self.points.iter_mut().zip(&mut s.points);
        for ((p, q), c) in points.zip(&c.points) {
            p.normal.set_lane(l, c.normal);
            put(&mut p.arm_na, l, c.arm_na);
            put(&mut p.arm_nb, l, c.arm_nb);
            put(&mut p.arm_ta, l, c.arm_ta);
            put(&mut p.arm_tb, l, c.arm_tb);
            put(&mut q.bias, l, c.bias);
            put(&mut q.mass, l, c.mass);
        }
    }

    /// Stores a constraint that was just built into lane `l` of a bundle
    /// that was just made (all zero), leaving out what the anchor update
    /// sets before anything reads it (normal, arms, bias, masses along the
    /// normal, the block matrix): [`VelocityBundle::set_lane`] with those
    /// stores saved.
    pub(super) fn set_new_lane(&mut self, s: &mut SolveBundle, l: usize, c: &VelocityConstraint) {
        self.a[l] = c.a;
        self.b[l] = c.b;
        put(&mut s.friction, l, c.friction);
        self.count[l] = c.count;
        put(&mut s.impact, l, if c.impact { 1.0 } else { 0.0 });
        s.quiet = s.quiet & !(1 << l) | (c.quiet as u8) << l;
        put(&mut self.rolling_arm, l, c.rolling_arm);
        put(&mut s.angular_mass, l, c.angular_mass);
        put(&mut self.rolling_impulse, l, c.rolling_impulse);
        let points = self.points.iter_mut().zip(&mut s.points);
        for ((p, q), c) in points.zip(&c.points) {
            put(&mut q.tangent_mass, l, c.tangent_mass);
            put(&mut p.normal_impulse, l, c.normal_impulse);
            put(&mut p.tangent_impulse, l, c.tangent_impulse);
            put(&mut q.max_normal_impulse, l, c.max_normal_impulse);
        }
    }

    /// Puts back, in the lanes of `lanes` (bit `l` for lane `l`), what the
    /// anchor update changed since `old` (this part) and `old_s` (the rest,
    /// now `s`): the quiet lanes keep their anchors (see [`Quiet`]).
    pub(super) fn keep_lanes(
        &mut self,
        s: &mut SolveBundle,
        old: &VelocityBundle,
        old_s: &SolveBundle,
        lanes: u8,
    ) {
        let m = bits_mask(lanes);
        let keep = |x: &mut F, o: F| *x = select(m, o, *x);
        keep(&mut s.k11, old_s.k11);
        keep(&mut s.k12, old_s.k12);
        keep(&mut s.k22, old_s.k22);
        keep(&mut s.inv_det, old_s.inv_det);
        keep(&mut self.rolling_impulse, old.rolling_impulse);
        s.block_ok = s.block_ok & !lanes | old_s.block_ok & lanes;
        let used = lanes_mask(self.fill);
        s.all_block = s.block_ok & used == used;
        for (p, o) in self.points.iter_mut().zip(&old.points) {
            keep(&mut p.normal.x, o.normal.x);
            keep(&mut p.normal.y, o.normal.y);
            keep(&mut p.arm_na, o.arm_na);
            keep(&mut p.arm_nb, o.arm_nb);
            keep(&mut p.arm_ta, o.arm_ta);
            keep(&mut p.arm_tb, o.arm_tb);
            keep(&mut p.normal_impulse, o.normal_impulse);
            keep(&mut p.tangent_impulse, o.tangent_impulse);
        }
        for (q, o) in s.points.iter_mut().zip(&old_s.points) {
            keep(&mut q.bias, o.bias);
            keep(&mut q.mass, o.mass);
            keep(&mut q.tangent_mass, o.tangent_mass);
        }
    }

    /// Zeroes the impulses of the lanes that are impacts (`s.impact`), as
    /// the anchor update does (`update_one`: an impact starts every substep
    /// afresh).
    pub(super) fn forget_impacts(&mut self, s: &SolveBundle) {
        let impact = gt(s.impact, F::splat(0.5));
        let points = if self.single { 1 } else { 2 };
        for p in &mut self.points[..points] {
            p.normal_impulse = select(impact, F::ZERO, p.normal_impulse);
            p.tangent_impulse = select(impact, F::ZERO, p.tangent_impulse);
        }
    }

    /// The lanes in use.
    #[inline(always)]
    pub(super) fn used(&self) -> std::ops::Range<usize> {
        0..self.fill as usize
    }

    /// Loads the bundle's bodies.
    #[inline(always)]
    pub(super) fn gather(&self, bodies: &[SolverBody]) -> (BodyW, BodyW) {
        (
            BodyW::gather_velocities(bodies, &self.a, self.inv_mass_a, self.inv_inertia_a),
            BodyW::gather_velocities(bodies, &self.b, self.inv_mass_b, self.inv_inertia_b),
        )
    }

    /// Stores the bundle's bodies back.
    #[inline(always)]
    pub(super) fn scatter(&self, ba: &BodyW, bb: &BodyW, bodies: &mut [SolverBody]) {
        ba.scatter(bodies, &self.a, self.writes.a);
        bb.scatter(bodies, &self.b, self.writes.b);
    }
}

impl GeometryBundle {
    /// Stores the lanes' bodies' inverse masses and inertias.
    #[cfg(test)]
    pub(super) fn set_masses(&mut self, bodies: &[SolverBody]) {
        let (a, b) = (
            BodyW::gather(bodies, &self.a),
            BodyW::gather(bodies, &self.b),
        );
        (self.inv_mass_a, self.inv_inertia_a) = (a.inv_mass, a.inv_inertia);
        (self.inv_mass_b, self.inv_inertia_b) = (b.inv_mass, b.inv_inertia);
    }

    /// The lanes' bodies with their inverse masses (velocities zero), for
    /// the position pass, with the bodies that `held` holds (see [`Held`])
    /// given none: to the pass they do not move.
    #[inline(always)]
    pub(super) fn masses(&self, held: Held) -> (BodyW, BodyW) {
        let body = |mut inv_mass: F, mut inv_inertia: F, bits: u8| {
            for l in (0..LANES).filter(|l| bits >> l & 1 == 1) {
                put(&mut inv_mass, l, 0.0);
                put(&mut inv_inertia, l, 0.0);
            }
            BodyW {
                v: V2::default(),
                w: F::ZERO,
                inv_mass,
                inv_inertia,
            }
        };
        (
            body(self.inv_mass_a, self.inv_inertia_a, held[0]),
            body(self.inv_mass_b, self.inv_inertia_b, held[1]),
        )
    }

    /// Stores scalar geometry into lane `l`.
    #[cfg(test)]
    pub(super) fn set_lane(&mut self, l: usize, g: &ContactGeometry) {
        self.a[l] = g.a;
        self.b[l] = g.b;
        for (p, s) in self.points.iter_mut().zip(&g.points) {
            p.ab.set_lane(l, s.ab);
            p.fa.set_lane(l, s.fa);
            p.fb.set_lane(l, s.fb);
        }
        for (k, s) in g.points.iter().enumerate() {
            self.points[k].set_face(l, s.kind, s.fnormal, s.flength, s.radius, s.point_radius);
            let (plane_a, core_points) = kind_bits(s.kind, l);
            self.plane_a[k] = self.plane_a[k] & !(1 << l) | plane_a;
            self.core_points[k] = self.core_points[k] & !(1 << l) | core_points;
        }
    }
}

/// Lane `l`'s bits of a feature kind in [`GeometryBundle::plane_a`] and
/// [`GeometryBundle::core_points`].
#[inline(always)]
pub(super) fn kind_bits(kind: FeatureKind, l: usize) -> (u8, u8) {
    (
        ((kind == FeatureKind::PlaneA) as u8) << l,
        ((kind == FeatureKind::Points) as u8) << l,
    )
}

impl FeatureW {
    /// Stores lane `l`'s face normal and length and rounding radii, for a
    /// feature of kind `kind` (whose bits the caller stores, [`kind_bits`];
    /// the feature points are stored by the caller too).
    pub(super) fn set_face(
        &mut self,
        l: usize,
        kind: FeatureKind,
        normal: Vec2,
        length: f32,
        radius: f32,
        point_radius: f32,
    ) {
        // Two core points' fallback normal turns with A, stored negated:
        // `geometry` measures them as a face of B (see there).
        let normal = if kind == FeatureKind::Points {
            -normal
        } else {
            normal
        };
        self.fnormal.set_lane(l, normal);
        put(&mut self.flength, l, length);
        put(&mut self.radius, l, radius);
        put(&mut self.point_radius, l, point_radius);
    }
}
