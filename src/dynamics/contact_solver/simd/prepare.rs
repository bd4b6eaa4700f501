//! Building a step's contact constraints straight into a bundle's lanes.
//!
//! The scalar reference is `super::super::build`, one constraint at a time;
//! this builds a bundle's `LANES` at once. What needs no arithmetic goes
//! straight into the bundle (bodies, counts, feature kinds and radii, and the
//! feature points made relative to the centres, one subtraction each, as the
//! scalar does); the rest is read lane by lane into lane vectors, each made
//! whole from its lanes at once (arrays that were zeroed, filled lane by
//! lane and read whole stalled on those stores). From those, levers, tangent
//! masses, the impact test and the rolling terms are computed in lane
//! arithmetic with the scalar's operations in the scalar's order, so every
//! lane holds the scalar's bits; only restitution's approach speed, in the
//! lanes that bounce, stays scalar. Nothing is built twice or copied on the
//! way: a bundle is written once, where the passes read it.

use super::super::{Source, IMPACT_SPEED};
use super::*;

impl ContactBundles {
    /// Builds the constraints `lanes` (1 to `LANES` positions in the
    /// touching list, independent, all with the same point count; `source`
    /// gives what each is built from) into a new bundle, padding with copies
    /// of the first.
    pub(super) fn push_bundle<'a>(
        &mut self,
        lanes: &[u32],
        bodies: &[SolverBody],
        gravity: Vec2,
        source: &mut impl FnMut(u32) -> Source<'a>,
    ) {
        let fill = lanes.len() as u8;
        let sources: [Source; LANES] =
            std::array::from_fn(|l| source(lanes.get(l).copied().unwrap_or(lanes[0])));
        let single = sources[0].manifold.count == 1;
        let count = if single { 1 } else { 2 };
        // Built over an old bundle (see `ContactBundles::velocity`): every
        // field is set below but those the anchor update sets first. The
        // caller says whether the next bundle is independent of this one
        // (see `Wavefront::pack_block`).
        let at = self.len;
        self.len += 1;
        if at == self.velocity.len() {
            self.velocity.push(VelocityBundle::default());
            self.solve.push(SolveBundle::default());
            self.geometry.push(GeometryBundle::default());
        }
        let (v, vs, g) = (
            &mut self.velocity[at],
            &mut self.solve[at],
            &mut self.geometry[at],
        );
        (v.fill, v.single, v.independent_of_next) = (fill, single, true);
        (g.single, g.independent_of_next) = (single, true);
        // Read before the anchor update writes them: the peak impulses
        // (a running maximum) and the marks of quiet and block-solved
        // lanes, which a one-point bundle never sets.
        (vs.all_block, vs.block_ok, vs.quiet) = (false, 0, 0);
        for p in &mut vs.points {
            p.max_normal_impulse = F::ZERO;
        }
        if single {
            // Nothing sets or reads a one-point bundle's second point and
            // block matrix but the scalar copies of its lanes; they are
            // kept as a new bundle's.
            v.points[1] = PointW::default();
            vs.points[1] = PointS::default();
            g.points[1] = FeatureW::default();
            (vs.k11, vs.k12, vs.k22, vs.inv_det) = (F::ZERO, F::ZERO, F::ZERO, F::ZERO);
        }

        // What each lane's contact gives without arithmetic goes straight
        // into the bundle, with its feature points relative to the centres
        // (the kinds' bits gathered here and stored once).
        let (mut plane_a, mut core_points) = ([0u8; 2], [0u8; 2]);
        for (l, src) in sources.iter().enumerate() {
            let m = src.manifold;
            debug_assert_eq!(m.count == 1, single, "mixed bundle");
            v.a[l] = src.a;
            v.b[l] = src.b;
            v.count[l] = m.count as u8;
            g.a[l] = src.a;
            g.b[l] = src.b;
            for (k, f) in src.features.iter().enumerate().take(count) {
                let p = &mut g.points[k];
                p.fa.set_lane(l, f.pa - src.center_a);
                p.fb.set_lane(l, f.pb - src.center_b);
                p.set_face(l, f.kind, f.normal, f.length, f.radius, f.point_radius);
                let (a, c) = bundle::kind_bits(f.kind, l);
                plane_a[k] |= a;
                core_points[k] |= c;
            }
        }
        if single {
            // The scalar's unused second point is the default feature, a
            // face of A.
            plane_a[1] = lanes_mask(LANES as u8);
        }
        // The rest, lane by lane, for the arithmetic (each array is made
        // whole from its lanes: nothing is zeroed first and read back).
        let lane = |f: &dyn Fn(&Source) -> f32| F::new(std::array::from_fn(|l| f(&sources[l])));
        // Rolling resistance acts where a rounded surface rolls (see
        // `build`): the flag here, the masses' test below.
        let rolls = lane(&|s| {
            if s.features[0].radius > 0.0 {
                f32::from_bits(u32::MAX)
            } else {
                0.0
            }
        });

        // The lane arithmetic, as the scalar's.
        let (sa, sb) = (BodyW::gather(bodies, &v.a), BodyW::gather(bodies, &v.b));
        let (ca, cb) = (
            V2::new(lane(&|s| s.center_a.x), lane(&|s| s.center_a.y)),
            V2::new(lane(&|s| s.center_b.x), lane(&|s| s.center_b.y)),
        );
        let n = V2::new(
            lane(&|s| s.manifold.normal.x),
            lane(&|s| s.manifold.normal.y),
        );
        let t = V2::new(n.y, -n.x);
        let mut impact = F::ZERO;
        let mut approach_speed = [F::ZERO; 2];
        for (k, approach) in approach_speed.iter_mut().enumerate().take(count) {
            let p = V2::new(
                lane(&|s| s.manifold.points[k].point.x),
                lane(&|s| s.manifold.points[k].point.y),
            );
            let ra = p - ca;
            let rb = p - cb;
            let rta = cross(ra, t);
            let rtb = cross(rb, t);
            let kt =
                sa.inv_mass + sb.inv_mass + sa.inv_inertia * rta * rta + sb.inv_inertia * rtb * rtb;
            let dv = sb.v + cross_sv(sb.w, rb) - sa.v - cross_sv(sa.w, ra);
            let vn = dv.dot(n);
            impact |= lt(vn, F::splat(-IMPACT_SPEED));
            *approach = vn;
            vs.points[k].tangent_mass = select(gt(kt, F::ZERO), F::ONE / kt, F::ZERO);
            let vp = &mut v.points[k];
            vp.normal_impulse = lane(&|s| s.manifold.points[k].normal_impulse);
            vp.tangent_impulse = lane(&|s| s.manifold.points[k].tangent_impulse);
            g.points[k].ab = ra - rb;
        }
        vs.impact = select(impact, F::ONE, F::ZERO);
        vs.friction = lane(&|s| s.friction);
        let ii = sa.inv_inertia + sb.inv_inertia;
        let has_ii = gt(ii, F::ZERO);
        v.rolling_arm = select(rolls & has_ii, lane(&|s| s.rolling_arm), F::ZERO);
        vs.angular_mass = select(has_ii, F::ONE / ii, F::ZERO);
        v.rolling_impulse = select(
            gt(v.rolling_arm, F::ZERO),
            lane(&|s| s.manifold.rolling_impulse),
            F::ZERO,
        );

        // Restitution's inputs, in the few lanes that bounce (see `build`).
        let mut info = [ConstraintInfo {
            contact: 0,
            slot: 0,
            restitution: 0.0,
            approach: [0.0; 2],
        }; LANES];
        let mut bouncy = false;
        for (l, (src, info)) in sources.iter().zip(&mut info).enumerate() {
            *info = ConstraintInfo {
                contact: src.contact,
                slot: src.slot,
                restitution: src.restitution,
                approach: [0.0; 2],
            };
            if src.restitution == 0.0 {
                continue;
            }
            bouncy |= l < lanes.len();
            let n = src.manifold.normal;
            for (k, mp) in src.manifold.points.iter().take(count).enumerate() {
                let mut vn0 = get(&approach_speed[k], l);
                let a_n = gravity.dot(n) * (src.gravity_b - src.gravity_a);
                if vn0 < 0.0 && mp.separation > 0.0 && a_n < 0.0 {
                    vn0 = -(vn0 * vn0 - 2.0 * a_n * mp.separation).sqrt();
                }
                info.approach[k] = vn0;
            }
        }
        self.info.push(info);
        self.bouncy.push(bouncy);
        self.single.push(single);
        self.held.push([0; 2]);
        self.alternate.push(0);
        self.free.push(0);
        self.pairs.push([v.a, v.b]);
        v.writes = Writes::new(&v.a, &v.b, fill, bodies);
        g.writes = v.writes;
        (g.plane_a, g.core_points) = (plane_a, core_points);
        g.faces = faces_of(plane_a, core_points, fill);
        (g.inv_mass_a, g.inv_inertia_a) = (sa.inv_mass, sa.inv_inertia);
        (g.inv_mass_b, g.inv_inertia_b) = (sb.inv_mass, sb.inv_inertia);
        (v.inv_mass_a, v.inv_inertia_a) = (sa.inv_mass, sa.inv_inertia);
        (v.inv_mass_b, v.inv_inertia_b) = (sb.inv_mass, sb.inv_inertia);
    }
}
