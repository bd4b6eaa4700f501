//! The scheduled constraints of a step, in bundles of four, and the passes
//! over them.
//!
//! The wavefront order (see `schedule`) groups constraints into levels whose
//! members share no responding body. Each level is cut into bundles of four
//! consecutive constraints (the last one of a level padded with copies of its
//! first constraint), stored lane by lane (structure of arrays), and every
//! pass visits the bundles in order. The four lanes of a bundle are
//! independent, so solving them at once in four-lane arithmetic (`lanes`)
//! gives each body the same operations in the same order as solving the
//! constraints one by one: bit-identical results, about three times fewer
//! instructions.
//!
//! The lane kernels cover the common case of stacking polygons: two-point
//! manifolds on a face (features [`FeatureKind::PlaneA`] or `PlaneB`),
//! including points beyond the end of their face and turning pairs (the
//! second-order term of the predicted separation). A bundle with any other
//! constraint (a single point, a rounded or point–point feature) keeps its
//! constraints in scalar lists, and every pass solves them one by one with the
//! scalar routines of [`super`]. A planar bundle whose block matrix is
//! singular in some lane for a substep runs that substep's velocity passes on
//! copies of its lanes. Padding lanes are computed but never stored to
//! bodies, poses or contacts.

use super::{
    position_one, restitution_one, solve_one, update_one, warm_one, ConstraintInfo,
    ContactConstraints, ContactGeometry, SolverParams, VelocityConstraint, VelocityPoint,
    TURNING_SPIN,
};
use crate::dynamics::lanes::{
    clamp, cross, cross_sv, ge, gt, inv_or_zero, le, lt, max, select, BodyW, PoseW, RotW, F, V2,
};
use crate::dynamics::schedule::Wavefront;
use crate::dynamics::solver_body::{SolverBody, SolverPose};
use crate::narrowphase::manifold::FeatureKind;

/// Lanes per bundle.
const LANES: usize = 4;

/// One contact point of four lanes, as [`VelocityPoint`].
#[derive(Clone, Copy, Debug, Default)]
struct PointW {
    normal: V2,
    arm_na: F,
    arm_nb: F,
    arm_ta: F,
    arm_tb: F,
    bias: F,
    mass: F,
    tangent_mass: F,
    normal_impulse: F,
    tangent_impulse: F,
    max_normal_impulse: F,
}

/// Four constraints' data for the velocity passes, as [`VelocityConstraint`]
/// without rolling resistance, which acts on single points only.
#[derive(Clone, Copy, Debug, Default)]
struct VelocityBundle {
    a: [u32; LANES],
    b: [u32; LANES],
    /// Lanes in use (1 to 4); the others repeat lane 0.
    fill: u8,
    /// Where this bundle's constraints start in the scalar lists, when they
    /// are not all planar two-point manifolds: the passes then solve them one
    /// by one with the scalar routines, and the lanes are unused.
    scalar: Option<u32>,
    /// Every lane is solved by the block solver this substep (set with the
    /// anchors).
    all_block: bool,
    /// The next bundle is of the same level: the two share no responding
    /// body, and the velocity pass may solve them side by side.
    independent_of_next: bool,
    /// The lanes whose bodies are stored back (see [`Writes`]).
    writes: Writes,
    /// The bodies' inverse masses and inertias (fixed through the step),
    /// stored when the bundle is built so that the passes gather only
    /// velocities. The geometry bundle keeps the same values for the
    /// position pass, which reads only that list.
    inv_mass_a: F,
    inv_inertia_a: F,
    inv_mass_b: F,
    inv_inertia_b: F,
    count: [u8; LANES],
    /// The lanes (bit `l` for lane `l`) whose block matrix is well
    /// conditioned this substep.
    block_ok: u8,
    friction: F,
    k11: F,
    k12: F,
    k22: F,
    inv_det: F,
    points: [PointW; 2],
}

/// One feature point of four lanes, as [`FeaturePoint`]; `plane_a` is set
/// (all ones) in the lanes whose face is A's.
#[derive(Clone, Copy, Debug, Default)]
struct FeatureW {
    ab: V2,
    fa: V2,
    fb: V2,
    fnormal: V2,
    flength: F,
    radius: F,
    point_radius: F,
    plane_a: F,
}

/// Four constraints' geometry, as [`ContactGeometry`].
#[derive(Clone, Copy, Debug, Default)]
struct GeometryBundle {
    a: [u32; LANES],
    b: [u32; LANES],
    fill: u8,
    /// As [`VelocityBundle::scalar`]: `None` for the bundles of planar
    /// two-point manifolds, whose anchor update and position pass run in
    /// lanes.
    scalar: Option<u32>,
    /// As [`VelocityBundle::independent_of_next`].
    independent_of_next: bool,
    /// As [`VelocityBundle::writes`].
    writes: Writes,
    /// On whose faces the points lie ([`FACES_A`], [`FACES_B`],
    /// [`FACES_MIXED`]), set when the bundle is built.
    faces: u8,
    /// The bodies' inverse masses and inertias, which the position pass
    /// reads (fixed through the step), stored with the bundle when it is
    /// built so that the pass need not gather them.
    inv_mass_a: F,
    inv_inertia_a: F,
    inv_mass_b: F,
    inv_inertia_b: F,
    points: [FeatureW; 2],
}

/// Per body side (A, B) of a bundle, one bit per lane: the lane is in use and
/// its body responds to impulses, so the passes store it back. A static or
/// kinematic body, which several lanes may share, is never written (see
/// `super::write_back`); the masks are set once per step, when the bundle is
/// built, so the passes need not read the bodies' masses to know.
#[derive(Clone, Copy, Debug, Default)]
struct Writes {
    a: u8,
    b: u8,
}

impl Writes {
    fn new(a: &[u32; LANES], b: &[u32; LANES], fill: u8, bodies: &[SolverBody]) -> Writes {
        let mask = |idx: &[u32; LANES]| {
            (0..fill as usize)
                .filter(|&l| bodies[idx[l] as usize].responds())
                .fold(0u8, |m, l| m | 1 << l)
        };
        Writes {
            a: mask(a),
            b: mask(b),
        }
    }
}

/// The scheduled contact constraints of one step, in bundles of four.
#[derive(Clone, Debug, Default)]
pub(crate) struct ContactBundles {
    velocity: Vec<VelocityBundle>,
    geometry: Vec<GeometryBundle>,
    /// Per bundle and lane: restitution inputs and the contact.
    info: Vec<[ConstraintInfo; LANES]>,
    /// Per bundle: some lane has restitution.
    bouncy: Vec<bool>,
    /// The constraints of the bundles solved one by one (see
    /// [`VelocityBundle::scalar`]), in order.
    scalar_velocity: Vec<VelocityConstraint>,
    scalar_geometry: Vec<ContactGeometry>,
    /// Scratch: one level's constraints before they are cut into bundles.
    level: Vec<u32>,
}

impl ContactBundles {
    /// Removes every constraint, keeping the allocations.
    pub fn clear(&mut self) {
        self.velocity.clear();
        self.geometry.clear();
        self.info.clear();
        self.bouncy.clear();
        self.scalar_velocity.clear();
        self.scalar_geometry.clear();
    }

    /// Moves the constraints of `block` (built in the solver's order) to the
    /// end of this list in wavefront order (see `schedule`), four
    /// independent ones to a bundle; leaves `block` empty.
    pub fn append_scheduled(
        &mut self,
        block: &mut ContactConstraints,
        wavefront: &mut Wavefront,
        bodies: &[SolverBody],
    ) {
        let pairs = block.velocity.iter().map(|c| (c.a, c.b));
        let (order, with_next) = wavefront.order_block(bodies, pairs);
        let mut level = std::mem::take(&mut self.level);
        level.clear();
        for (&i, &same_level_next) in order.iter().zip(with_next) {
            level.push(i);
            if level.len() == LANES || !same_level_next {
                self.push_bundle(block, &level, bodies);
                level.clear();
                // Whether the next bundle continues this level, sharing no
                // responding body with this one.
                let last = self.velocity.last_mut().expect("just pushed");
                last.independent_of_next = same_level_next;
                let last = self.geometry.last_mut().expect("just pushed");
                last.independent_of_next = same_level_next;
            }
        }
        self.level = level;
        block.clear();
    }

    /// Packs the constraints `lanes` (1 to 4, independent) of `block` into a
    /// bundle, padding with copies of the first.
    fn push_bundle(&mut self, block: &ContactConstraints, lanes: &[u32], bodies: &[SolverBody]) {
        let fill = lanes.len() as u8;
        let planar = lanes.iter().all(|&i| {
            let g = &block.geometry[i as usize];
            g.count == 2
                && g.points
                    .iter()
                    .all(|p| matches!(p.kind, FeatureKind::PlaneA | FeatureKind::PlaneB))
        });
        let mut info = [block.info[lanes[0] as usize]; LANES];
        let mut bouncy = false;
        for (l, slot) in info.iter_mut().enumerate() {
            let i = lanes.get(l).copied().unwrap_or(lanes[0]) as usize;
            *slot = block.info[i];
            bouncy |= l < lanes.len() && block.info[i].restitution != 0.0;
        }
        self.info.push(info);
        self.bouncy.push(bouncy);
        if !planar {
            self.velocity.push(VelocityBundle {
                fill,
                scalar: Some(self.scalar_velocity.len() as u32),
                ..Default::default()
            });
            self.geometry.push(GeometryBundle {
                fill,
                scalar: Some(self.scalar_velocity.len() as u32),
                ..Default::default()
            });
            for &i in lanes {
                self.scalar_velocity.push(block.velocity[i as usize]);
                self.scalar_geometry.push(block.geometry[i as usize]);
            }
            return;
        }
        self.velocity.push(VelocityBundle {
            fill,
            ..Default::default()
        });
        self.geometry.push(GeometryBundle {
            fill,
            ..Default::default()
        });
        let (v, g) = (
            self.velocity.last_mut().expect("just pushed"),
            self.geometry.last_mut().expect("just pushed"),
        );
        for l in 0..LANES {
            let i = lanes.get(l).copied().unwrap_or(lanes[0]) as usize;
            v.set_lane(l, &block.velocity[i]);
            g.set_lane(l, &block.geometry[i]);
        }
        v.writes = Writes::new(&v.a, &v.b, fill, bodies);
        g.writes = v.writes;
        g.faces = faces_of(&g.points, fill);
        g.set_masses(bodies);
        (v.inv_mass_a, v.inv_inertia_a) = (g.inv_mass_a, g.inv_inertia_a);
        (v.inv_mass_b, v.inv_inertia_b) = (g.inv_mass_b, g.inv_inertia_b);
    }

    /// Calls `f(contact, normal impulses, tangent impulses, count)` for every
    /// constraint, to store its impulses for next step's warm start.
    pub fn for_each_impulses(&self, mut f: impl FnMut(u32, [f32; 2], [f32; 2], usize)) {
        for (v, info) in self.velocity.iter().zip(&self.info) {
            for (l, info) in info.iter().enumerate().take(v.fill as usize) {
                if let Some(start) = v.scalar {
                    let c = &self.scalar_velocity[start as usize + l];
                    let [p1, p2] = &c.points;
                    let normal = [p1.normal_impulse, p2.normal_impulse];
                    let tangent = [p1.tangent_impulse, p2.tangent_impulse];
                    f(info.contact, normal, tangent, c.count as usize);
                    continue;
                }
                let [p1, p2] = &v.points;
                f(
                    info.contact,
                    [get(&p1.normal_impulse, l), get(&p2.normal_impulse, l)],
                    [get(&p1.tangent_impulse, l), get(&p2.tangent_impulse, l)],
                    v.count[l] as usize,
                );
            }
        }
    }
}

/// `f32` lane `l` of `x`.
#[inline(always)]
fn get(x: &F, l: usize) -> f32 {
    x.as_array()[l]
}

/// Sets lane `l` of `x`.
#[inline(always)]
fn put(x: &mut F, l: usize, v: f32) {
    x.as_mut_array()[l] = v;
}

impl VelocityBundle {
    /// Lane `l` as a scalar constraint.
    fn lane(&self, l: usize) -> VelocityConstraint {
        let point = |p: &PointW| VelocityPoint {
            normal: p.normal.lane(l),
            arm_na: get(&p.arm_na, l),
            arm_nb: get(&p.arm_nb, l),
            arm_ta: get(&p.arm_ta, l),
            arm_tb: get(&p.arm_tb, l),
            bias: get(&p.bias, l),
            mass: get(&p.mass, l),
            tangent_mass: get(&p.tangent_mass, l),
            normal_impulse: get(&p.normal_impulse, l),
            tangent_impulse: get(&p.tangent_impulse, l),
            max_normal_impulse: get(&p.max_normal_impulse, l),
        };
        VelocityConstraint {
            a: self.a[l],
            b: self.b[l],
            friction: get(&self.friction, l),
            count: self.count[l],
            block_ok: self.block_ok & (1 << l) != 0,
            k: [
                get(&self.k11, l),
                get(&self.k12, l),
                get(&self.k22, l),
                get(&self.inv_det, l),
            ],
            // Rolling resistance acts on single points only.
            rolling_arm: 0.0,
            angular_mass: 0.0,
            rolling_impulse: 0.0,
            points: [point(&self.points[0]), point(&self.points[1])],
        }
    }

    /// Stores a scalar constraint into lane `l`.
    fn set_lane(&mut self, l: usize, c: &VelocityConstraint) {
        self.a[l] = c.a;
        self.b[l] = c.b;
        put(&mut self.friction, l, c.friction);
        self.count[l] = c.count;
        self.block_ok = self.block_ok & !(1 << l) | (c.block_ok as u8) << l;
        put(&mut self.k11, l, c.k[0]);
        put(&mut self.k12, l, c.k[1]);
        put(&mut self.k22, l, c.k[2]);
        put(&mut self.inv_det, l, c.k[3]);
        debug_assert_eq!(c.rolling_arm, 0.0, "a two-point manifold rolls");
        for (p, s) in self.points.iter_mut().zip(&c.points) {
            p.normal.set_lane(l, s.normal);
            put(&mut p.arm_na, l, s.arm_na);
            put(&mut p.arm_nb, l, s.arm_nb);
            put(&mut p.arm_ta, l, s.arm_ta);
            put(&mut p.arm_tb, l, s.arm_tb);
            put(&mut p.bias, l, s.bias);
            put(&mut p.mass, l, s.mass);
            put(&mut p.tangent_mass, l, s.tangent_mass);
            put(&mut p.normal_impulse, l, s.normal_impulse);
            put(&mut p.tangent_impulse, l, s.tangent_impulse);
            put(&mut p.max_normal_impulse, l, s.max_normal_impulse);
        }
    }

    /// The lanes in use.
    #[inline(always)]
    fn used(&self) -> std::ops::Range<usize> {
        0..self.fill as usize
    }

    /// Loads the bundle's bodies.
    #[inline(always)]
    fn gather(&self, bodies: &[SolverBody]) -> (BodyW, BodyW) {
        (
            BodyW::gather_velocities(bodies, &self.a, self.inv_mass_a, self.inv_inertia_a),
            BodyW::gather_velocities(bodies, &self.b, self.inv_mass_b, self.inv_inertia_b),
        )
    }

    /// Stores the bundle's bodies back.
    #[inline(always)]
    fn scatter(&self, ba: &BodyW, bb: &BodyW, bodies: &mut [SolverBody]) {
        ba.scatter(bodies, &self.a, self.writes.a);
        bb.scatter(bodies, &self.b, self.writes.b);
    }
}

impl GeometryBundle {
    /// Stores the lanes' bodies' inverse masses and inertias.
    fn set_masses(&mut self, bodies: &[SolverBody]) {
        let (a, b) = (
            BodyW::gather(bodies, &self.a),
            BodyW::gather(bodies, &self.b),
        );
        (self.inv_mass_a, self.inv_inertia_a) = (a.inv_mass, a.inv_inertia);
        (self.inv_mass_b, self.inv_inertia_b) = (b.inv_mass, b.inv_inertia);
    }

    /// The lanes' bodies with their inverse masses (velocities zero), for
    /// the position pass.
    #[inline(always)]
    fn masses(&self) -> (BodyW, BodyW) {
        let body = |inv_mass, inv_inertia| BodyW {
            v: V2::default(),
            w: F::ZERO,
            inv_mass,
            inv_inertia,
        };
        (
            body(self.inv_mass_a, self.inv_inertia_a),
            body(self.inv_mass_b, self.inv_inertia_b),
        )
    }

    /// Stores scalar geometry into lane `l`.
    fn set_lane(&mut self, l: usize, g: &ContactGeometry) {
        self.a[l] = g.a;
        self.b[l] = g.b;
        for (p, s) in self.points.iter_mut().zip(&g.points) {
            p.ab.set_lane(l, s.ab);
            p.fa.set_lane(l, s.fa);
            p.fb.set_lane(l, s.fb);
            p.fnormal.set_lane(l, s.fnormal);
            put(&mut p.flength, l, s.flength);
            put(&mut p.radius, l, s.radius);
            put(&mut p.point_radius, l, s.point_radius);
            let plane_a = if s.kind == FeatureKind::PlaneA {
                f32::from_bits(u32::MAX)
            } else {
                0.0
            };
            put(&mut p.plane_a, l, plane_a);
        }
    }
}

/// [`GeometryBundle::faces`]: every lane's face is A's.
const FACES_A: u8 = 1;
/// Every lane's face is B's.
const FACES_B: u8 = 2;
/// Some lanes' faces are A's, others B's.
const FACES_MIXED: u8 = 0;

/// Which body's faces a bundle's points lie on ([`FACES_A`], [`FACES_B`] or
/// [`FACES_MIXED`]), from the lanes' `plane_a` masks.
fn faces_of(points: &[FeatureW; 2], fill: u8) -> u8 {
    let used = (1 << fill) - 1;
    let masks = points.map(|p| p.plane_a.to_bitmask() as u8 & used);
    if masks.iter().all(|&m| m == used) {
        FACES_A
    } else if masks.iter().all(|&m| m == 0) {
        FACES_B
    } else {
        FACES_MIXED
    }
}

/// A contact point of four lanes from the current poses, as
/// `super::current_geometry` for face features: separation, normal (A → B),
/// anchor relative to A's centre, and B's centre relative to A's. `FACES`
/// says on whose faces the lanes' points lie: the mixed case picks per lane,
/// the others need no picking (the same values, fewer instructions; in
/// stacks of boxes every bundle has all its faces on A).
#[inline(always)]
fn planar_geometry<const FACES: u8>(p: &FeatureW, qa: &PoseW, qb: &PoseW) -> (F, V2, V2, V2) {
    let ab = p.ab + (qb.dp - qa.dp);
    let pa = qa.dq.apply(p.fa);
    let pb = ab + qb.dq.apply(p.fb);
    let (m, face, other) = match FACES {
        FACES_A => (qa.dq.apply(p.fnormal), pa, pb),
        FACES_B => (qb.dq.apply(p.fnormal), pb, pa),
        _ => (
            RotW::select(p.plane_a, qa.dq, qb.dq).apply(p.fnormal),
            V2::select(p.plane_a, pa, pb),
            V2::select(p.plane_a, pb, pa),
        ),
    };
    let d = other - face;
    let t = V2::new(-m.y, m.x);
    let u = t.dot(d);
    let md = m.dot(d);
    // `manifold::measure`: beyond an end of its face, the point is
    // measured from that end, along the line between them.
    let beyond = ge(p.flength, F::ZERO) & gt(md, F::ZERO) & (lt(u, F::ZERO) | gt(u, p.flength));
    // The direction `g` from the face to the point (the normal up to sign),
    // and the separation.
    let (g, s) = if beyond.any() {
        let end = face + clamp(u, F::ZERO, p.flength) * t;
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
        _ => V2::select(p.plane_a, g, -g),
    };
    let anchor = other - (p.point_radius + F::splat(0.5) * s) * g;
    (s, n, anchor, ab)
}

/// Recomputes every point's anchors, normal, effective mass and velocity
/// bias from the current poses, at the start of a substep `h`, with
/// separating targets capped at `max_push` (m/s); see `super::update_one`.
pub(crate) fn update_anchors(
    constraints: &mut ContactBundles,
    bodies: &[SolverBody],
    poses: &[SolverPose],
    h: f32,
    max_push: f32,
) {
    let (sv, sg) = (
        &mut constraints.scalar_velocity[..],
        &constraints.scalar_geometry[..],
    );
    for (c, g) in constraints.velocity.iter_mut().zip(&constraints.geometry) {
        update_bundle(c, g, (&mut *sv, sg), bodies, poses, h, max_push);
    }
}

/// [`update_anchors`] of one bundle; `h = 0` (before restitution) leaves no
/// bias.
#[inline(always)]
fn update_bundle(
    c: &mut VelocityBundle,
    g: &GeometryBundle,
    scalar: (&mut [VelocityConstraint], &[ContactGeometry]),
    bodies: &[SolverBody],
    poses: &[SolverPose],
    h: f32,
    max_push: f32,
) {
    let inv_h = if h > 0.0 { 1.0 / h } else { 0.0 };
    match c.scalar {
        Some(start) => {
            let range = start as usize..start as usize + c.fill as usize;
            for (s, sg) in scalar.0[range.clone()].iter_mut().zip(&scalar.1[range]) {
                update_one(s, sg, bodies, poses, h, inv_h, max_push);
            }
        }
        None => update_planar(c, g, bodies, poses, h, inv_h, max_push),
    }
}

/// [`update_anchors`] of a planar bundle in lanes.
#[inline(always)]
fn update_planar(
    c: &mut VelocityBundle,
    g: &GeometryBundle,
    bodies: &[SolverBody],
    poses: &[SolverPose],
    h: f32,
    inv_h: f32,
    max_push: f32,
) {
    match g.faces {
        FACES_A => update_planar_on::<FACES_A>(c, g, bodies, poses, h, inv_h, max_push),
        FACES_B => update_planar_on::<FACES_B>(c, g, bodies, poses, h, inv_h, max_push),
        _ => update_planar_on::<FACES_MIXED>(c, g, bodies, poses, h, inv_h, max_push),
    }
}

/// [`update_planar`] for bundles whose faces lie as `FACES` says.
#[inline(always)]
fn update_planar_on<const FACES: u8>(
    c: &mut VelocityBundle,
    g: &GeometryBundle,
    bodies: &[SolverBody],
    poses: &[SolverPose],
    h: f32,
    inv_h: f32,
    max_push: f32,
) {
    let (ba, bb) = (
        BodyW::gather_velocities(bodies, &g.a, g.inv_mass_a, g.inv_inertia_a),
        BodyW::gather_velocities(bodies, &g.b, g.inv_mass_b, g.inv_inertia_b),
    );
    let (qa, qb) = (PoseW::gather(poses, &g.a), PoseW::gather(poses, &g.b));
    // Turning pairs get the second-order term of the predicted separation.
    let curved = if h > 0.0 {
        gt(ba.w.abs() + bb.w.abs(), F::splat(TURNING_SPIN))
    } else {
        F::ZERO
    };
    let predicted = curved.any().then(|| {
        (
            qa.integrate(&ba, F::splat(h)),
            qb.integrate(&bb, F::splat(h)),
        )
    });
    let inv_h = F::splat(inv_h);
    let max_push = F::splat(max_push);
    let im = ba.inv_mass + bb.inv_mass;
    let anchors = |p: &mut PointW, f: &FeatureW| {
        let (s, n, ra, ab) = planar_geometry::<FACES>(f, &qa, &qb);
        let rb = ra - ab;
        let mut curve = F::ZERO;
        if let Some((qa1, qb1)) = &predicted {
            let (s1, ..) = planar_geometry::<FACES>(f, qa1, qb1);
            let dv = relative_velocity(&ba, &bb, ra, rb);
            curve = select(curved, s1 - s - F::splat(h) * dv.dot(n), F::ZERO);
        }
        let (rna, rnb) = (cross(ra, n), cross(rb, n));
        let k = im + ba.inv_inertia * rna * rna + bb.inv_inertia * rnb * rnb;
        p.mass = inv_or_zero(k);
        p.bias = max((max(s, F::ZERO) + curve) * inv_h, -max_push);
        p.normal = n;
        let t = tangent(n);
        (p.arm_na, p.arm_nb) = (rna, rnb);
        (p.arm_ta, p.arm_tb) = (cross(ra, t), cross(rb, t));
        (rna, rnb, n)
    };
    let [p1, p2] = &mut c.points;
    let (a1, b1, n1) = anchors(p1, &g.points[0]);
    let (a2, b2, n2) = anchors(p2, &g.points[1]);
    // `super::block_matrix` in lanes.
    let k11 = im + ba.inv_inertia * a1 * a1 + bb.inv_inertia * b1 * b1;
    let k22 = im + ba.inv_inertia * a2 * a2 + bb.inv_inertia * b2 * b2;
    let k12 = im * n1.dot(n2) + ba.inv_inertia * a1 * a2 + bb.inv_inertia * b1 * b2;
    let det = k11 * k22 - k12 * k12;
    let condition = F::splat(super::MAX_CONDITION) * det;
    let ok = gt(k11, F::ZERO) & gt(k22, F::ZERO) & lt(k11 * k11, condition);
    (c.k11, c.k12, c.k22, c.inv_det) = (k11, k12, k22, F::ONE / det);
    c.block_ok = ok.to_bitmask() as u8;
    let used = (1u8 << c.fill) - 1;
    c.all_block = c.block_ok & used == used;
}

/// Applies the accumulated impulses (start of each substep).
pub(crate) fn warm_start(constraints: &ContactBundles, bodies: &mut [SolverBody]) {
    for c in &constraints.velocity {
        match c.scalar {
            Some(start) => {
                let start = start as usize;
                for s in &constraints.scalar_velocity[start..start + c.fill as usize] {
                    warm_one(s, bodies);
                }
            }
            None => warm_start_bundle(c, bodies),
        }
    }
}

/// The warm start of one bundle in lanes.
#[inline(always)]
fn warm_start_bundle(c: &VelocityBundle, bodies: &mut [SolverBody]) {
    let (mut ba, mut bb) = c.gather(bodies);
    for p in &c.points {
        let (n, t) = (p.normal, tangent(p.normal));
        let impulse = p.normal_impulse * n + p.tangent_impulse * t;
        ba.v = ba.v - ba.inv_mass * impulse;
        ba.w -= ba.inv_inertia * (p.normal_impulse * p.arm_na + p.tangent_impulse * p.arm_ta);
        bb.v = bb.v + bb.inv_mass * impulse;
        bb.w += bb.inv_inertia * (p.normal_impulse * p.arm_nb + p.tangent_impulse * p.arm_tb);
    }
    c.scatter(&ba, &bb, bodies);
}

/// One velocity pass over all contacts; see `super::solve_one`. Two
/// independent bundles in a row are solved side by side, which lets the CPU
/// overlap their dependency chains; each body still sees the same
/// operations in the same order.
pub(crate) fn solve_velocities(constraints: &mut ContactBundles, bodies: &mut [SolverBody]) {
    let cs = &mut constraints.velocity[..];
    let mut i = 0;
    while i < cs.len() {
        if let [c1, c2, ..] = &mut cs[i..] {
            if c1.independent_of_next && c1.in_lanes() && c2.in_lanes() {
                solve_pair(c1, c2, bodies);
                i += 2;
                continue;
            }
        }
        let c = &mut cs[i];
        if let Some(start) = c.scalar {
            let start = start as usize;
            for s in &mut constraints.scalar_velocity[start..start + c.fill as usize] {
                solve_one(s, bodies);
            }
        } else if c.in_lanes() {
            solve_bundle(c, bodies);
        } else {
            for l in c.used() {
                let mut s = c.lane(l);
                solve_one(&mut s, bodies);
                c.set_lane(l, &s);
            }
        }
        i += 1;
    }
}

impl VelocityBundle {
    /// Whether the velocity pass solves this bundle in lanes: every lane a
    /// planar two-point manifold, block-solved this substep.
    #[inline(always)]
    fn in_lanes(&self) -> bool {
        self.scalar.is_none() && self.all_block
    }
}

/// The velocity pass of one bundle in lanes: friction at both points, then
/// the normal block.
#[inline(always)]
fn solve_bundle(c: &mut VelocityBundle, bodies: &mut [SolverBody]) {
    let (mut ba, mut bb) = c.gather(bodies);
    let friction = c.friction;
    let [p1, p2] = &mut c.points;
    solve_friction(friction, p1, &mut ba, &mut bb);
    solve_friction(friction, p2, &mut ba, &mut bb);
    solve_normal_block(c, &mut ba, &mut bb);
    c.scatter(&ba, &bb, bodies);
}

/// [`solve_bundle`] on two independent bundles, interleaved step by step.
#[inline(always)]
fn solve_pair(c1: &mut VelocityBundle, c2: &mut VelocityBundle, bodies: &mut [SolverBody]) {
    let (mut a1, mut b1) = c1.gather(bodies);
    let (mut a2, mut b2) = c2.gather(bodies);
    let (f1, f2) = (c1.friction, c2.friction);
    {
        let ([p11, p12], [p21, p22]) = (&mut c1.points, &mut c2.points);
        solve_friction(f1, p11, &mut a1, &mut b1);
        solve_friction(f2, p21, &mut a2, &mut b2);
        solve_friction(f1, p12, &mut a1, &mut b1);
        solve_friction(f2, p22, &mut a2, &mut b2);
    }
    solve_normal_block(c1, &mut a1, &mut b1);
    solve_normal_block(c2, &mut a2, &mut b2);
    c1.scatter(&a1, &b1, bodies);
    c2.scatter(&a2, &b2, bodies);
}

/// `super::tangent` in lanes.
#[inline(always)]
fn tangent(n: V2) -> V2 {
    V2::new(n.y, -n.x)
}

/// `super::speed` in lanes.
#[inline(always)]
fn speed(ba: &BodyW, bb: &BodyW, dir: V2, arm_a: F, arm_b: F) -> F {
    (bb.v - ba.v).dot(dir) + (bb.w * arm_b - ba.w * arm_a)
}

/// `super::apply` in lanes.
#[inline(always)]
fn apply(ba: &mut BodyW, bb: &mut BodyW, dir: V2, arm_a: F, arm_b: F, lambda: F) {
    let impulse = lambda * dir;
    ba.v = ba.v - ba.inv_mass * impulse;
    ba.w -= ba.inv_inertia * (lambda * arm_a);
    bb.v = bb.v + bb.inv_mass * impulse;
    bb.w += bb.inv_inertia * (lambda * arm_b);
}

/// Relative velocity at a point, as in the scalar anchor update.
#[inline(always)]
fn relative_velocity(ba: &BodyW, bb: &BodyW, ra: V2, rb: V2) -> V2 {
    bb.v + cross_sv(bb.w, rb) - ba.v - cross_sv(ba.w, ra)
}

/// `super::solve_friction` in lanes.
#[inline(always)]
fn solve_friction(friction: F, p: &mut PointW, ba: &mut BodyW, bb: &mut BodyW) {
    let t = tangent(p.normal);
    let vt = speed(ba, bb, t, p.arm_ta, p.arm_tb);
    let max_f = friction * p.normal_impulse;
    let new = clamp(p.tangent_impulse - p.tangent_mass * vt, -max_f, max_f);
    let delta = new - p.tangent_impulse;
    p.tangent_impulse = new;
    apply(ba, bb, t, p.arm_ta, p.arm_tb, delta);
}

/// `super::solve_normal_block` in lanes: the four cases of the 2×2 LCP are
/// all computed and the first that holds is selected, in the scalar order.
#[inline(always)]
fn solve_normal_block(c: &mut VelocityBundle, ba: &mut BodyW, bb: &mut BodyW) {
    let [p1, p2] = &mut c.points;
    let vn1 = speed(ba, bb, p1.normal, p1.arm_na, p1.arm_nb) + p1.bias;
    let vn2 = speed(ba, bb, p2.normal, p2.arm_na, p2.arm_nb) + p2.bias;
    let (k11, k12, k22) = (c.k11, c.k12, c.k22);
    let (ax, ay) = (p1.normal_impulse, p2.normal_impulse);
    let bx = vn1 - (k11 * ax + k12 * ay);
    let by = vn2 - (k12 * ax + k22 * ay);
    let zero = F::ZERO;
    // Both points active.
    let both_x = -(k22 * bx - k12 * by) * c.inv_det;
    let both_y = -(k11 * by - k12 * bx) * c.inv_det;
    let both = ge(both_x, zero) & ge(both_y, zero);
    // Only point 1, only point 2, neither.
    let x1 = -bx * p1.mass;
    let only1 = ge(x1, zero) & ge(k12 * x1 + by, zero);
    let x2 = -by * p2.mass;
    let only2 = ge(x2, zero) & ge(k12 * x2 + bx, zero);
    let none = ge(bx, zero) & ge(by, zero);
    // No case fits (rounding): keep the impulses.
    let mut x = select(none, zero, ax);
    let mut y = select(none, zero, ay);
    x = select(only2, zero, x);
    y = select(only2, x2, y);
    x = select(only1, x1, x);
    y = select(only1, zero, y);
    x = select(both, both_x, x);
    y = select(both, both_y, y);
    let (dx, dy) = (x - ax, y - ay);
    p1.normal_impulse = x;
    p2.normal_impulse = y;
    p1.max_normal_impulse = max(p1.max_normal_impulse, x);
    p2.max_normal_impulse = max(p2.max_normal_impulse, y);
    apply(ba, bb, p1.normal, p1.arm_na, p1.arm_nb, dx);
    apply(ba, bb, p2.normal, p2.arm_na, p2.arm_nb, dy);
}

/// One NGS position pass; see `super::position_constraint`.
pub(crate) fn solve_positions(
    constraints: &ContactBundles,
    bodies: &[SolverBody],
    poses: &mut [SolverPose],
    prm: &SolverParams,
) {
    let gs = &constraints.geometry[..];
    let mut i = 0;
    while i < gs.len() {
        let g1 = &gs[i];
        if let Some(g2) = gs.get(i + 1) {
            if g1.independent_of_next && g1.scalar.is_none() && g2.scalar.is_none() {
                // Two independent bundles side by side, as in the velocity
                // pass.
                let (qa1, qb1) = (PoseW::gather(poses, &g1.a), PoseW::gather(poses, &g1.b));
                let (qa2, qb2) = (PoseW::gather(poses, &g2.a), PoseW::gather(poses, &g2.b));
                let moved1 = position_planar(g1, qa1, qb1, prm);
                let moved2 = position_planar(g2, qa2, qb2, prm);
                scatter_poses(g1, moved1, poses);
                scatter_poses(g2, moved2, poses);
                i += 2;
                continue;
            }
        }
        match g1.scalar {
            Some(start) => {
                let start = start as usize;
                for sg in &constraints.scalar_geometry[start..start + g1.fill as usize] {
                    position_one(sg, bodies, poses, prm);
                }
            }
            None => {
                let (qa, qb) = (PoseW::gather(poses, &g1.a), PoseW::gather(poses, &g1.b));
                let moved = position_planar(g1, qa, qb, prm);
                scatter_poses(g1, moved, poses);
            }
        }
        i += 1;
    }
}

/// Stores a bundle's corrected poses, if any.
#[inline(always)]
fn scatter_poses(g: &GeometryBundle, moved: Option<(PoseW, PoseW)>, poses: &mut [SolverPose]) {
    if let Some((qa, qb)) = moved {
        qa.scatter(poses, &g.a, g.writes.a);
        qb.scatter(poses, &g.b, g.writes.b);
    }
}

/// The position correction of a planar bundle in lanes, from its bodies'
/// poses `qa`, `qb`: the corrected poses, or `None` when no lane pushes.
#[inline(always)]
fn position_planar(
    g: &GeometryBundle,
    qa: PoseW,
    qb: PoseW,
    prm: &SolverParams,
) -> Option<(PoseW, PoseW)> {
    match g.faces {
        FACES_A => position_planar_on::<FACES_A>(g, qa, qb, prm),
        FACES_B => position_planar_on::<FACES_B>(g, qa, qb, prm),
        _ => position_planar_on::<FACES_MIXED>(g, qa, qb, prm),
    }
}

/// [`position_planar`] for bundles whose faces lie as `FACES` says.
#[inline(always)]
fn position_planar_on<const FACES: u8>(
    g: &GeometryBundle,
    mut qa: PoseW,
    mut qb: PoseW,
    prm: &SolverParams,
) -> Option<(PoseW, PoseW)> {
    let (s1, n1, ra1, ab1) = planar_geometry::<FACES>(&g.points[0], &qa, &qb);
    let (s2, n2, ra2, ab2) = planar_geometry::<FACES>(&g.points[1], &qa, &qb);
    let target = |s: F| {
        clamp(
            F::splat(prm.position_correction) * (s + F::splat(prm.linear_slop)),
            F::splat(-prm.max_correction),
            F::ZERO,
        )
    };
    let (c1, c2) = (target(s1), target(s2));
    let active = lt(c1, F::ZERO) | lt(c2, F::ZERO);
    if !active.any() {
        return None;
    }
    let (ba, bb) = g.masses();
    let (rb1, rb2) = (ra1 - ab1, ra2 - ab2);
    // `super::block_correction` in lanes.
    let (a1, b1) = (cross(ra1, n1), cross(rb1, n1));
    let (a2, b2) = (cross(ra2, n2), cross(rb2, n2));
    let im = ba.inv_mass + bb.inv_mass;
    let k11 = im + ba.inv_inertia * a1 * a1 + bb.inv_inertia * b1 * b1;
    let k22 = im + ba.inv_inertia * a2 * a2 + bb.inv_inertia * b2 * b2;
    let k12 = im * n1.dot(n2) + ba.inv_inertia * a1 * a2 + bb.inv_inertia * b1 * b2;
    let zero = F::ZERO;
    let singular = le(k11, zero) | le(k22, zero);
    let (r1, r2) = (-c1, -c2);
    let det = k11 * k22 - k12 * k12;
    let both_l1 = (k22 * r1 - k12 * r2) / det;
    let both_l2 = (k11 * r2 - k12 * r1) / det;
    let both = gt(det, F::splat(1e-3) * k11 * k22) & ge(both_l1, zero) & ge(both_l2, zero);
    let la = r1 / k11;
    let only1 = ge(la, zero) & ge(k12 * la, r2);
    let lb = r2 / k22;
    let only2 = ge(lb, zero) & ge(k12 * lb, r1);
    let deeper1 = le(c1, c2);
    let mut l1 = select(deeper1, max(la, zero), zero);
    let mut l2 = select(deeper1, zero, max(lb, zero));
    l1 = select(only2, zero, l1);
    l2 = select(only2, lb, l2);
    l1 = select(only1, la, l1);
    l2 = select(only1, zero, l2);
    l1 = select(both, both_l1, l1);
    l2 = select(both, both_l2, l2);
    let skip = singular | !active;
    l1 = select(skip, zero, l1);
    l2 = select(skip, zero, l2);
    push_apart(&ba, &bb, &mut qa, &mut qb, n1, ra1, rb1, l1);
    push_apart(&ba, &bb, &mut qa, &mut qb, n2, ra2, rb2, l2);
    Some((qa, qb))
}

/// `super::push_apart` in lanes: lanes with `lambda ≤ 0` keep their poses.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // the scalar routine's arguments, spread
fn push_apart(
    ba: &BodyW,
    bb: &BodyW,
    qa: &mut PoseW,
    qb: &mut PoseW,
    n: V2,
    ra: V2,
    rb: V2,
    lambda: F,
) {
    let push = gt(lambda, F::ZERO);
    if !push.any() {
        return;
    }
    let impulse = lambda * n;
    let a = PoseW {
        dp: qa.dp - ba.inv_mass * impulse,
        dq: qa.dq.integrate(-ba.inv_inertia * cross(ra, impulse)),
    };
    let b = PoseW {
        dp: qb.dp + bb.inv_mass * impulse,
        dq: qb.dq.integrate(bb.inv_inertia * cross(rb, impulse)),
    };
    if push.all() {
        (*qa, *qb) = (a, b);
    } else {
        *qa = PoseW::select(push, &a, qa);
        *qb = PoseW::select(push, &b, qb);
    }
}

/// Restitution, after the substeps: bounce points whose approach speed
/// exceeded the threshold and that carried load this step, lane by lane (few
/// contacts bounce). Only the bundles with restitution need their anchors on
/// the final poses (with `h = 0` the update reads poses and masses only, so
/// it may be done bundle by bundle, just before each one's restitution).
pub(crate) fn apply_restitution(
    constraints: &mut ContactBundles,
    bodies: &mut [SolverBody],
    poses: &[SolverPose],
    prm: &SolverParams,
) {
    let bundles = constraints.velocity.iter_mut().zip(&constraints.geometry);
    let bundles = bundles.zip(&constraints.info).zip(&constraints.bouncy);
    let (sv, sg) = (
        &mut constraints.scalar_velocity[..],
        &constraints.scalar_geometry[..],
    );
    for (((c, g), info), _) in bundles.filter(|(_, &bouncy)| bouncy) {
        update_bundle(c, g, (&mut *sv, sg), bodies, poses, 0.0, prm.max_push_speed);
        for l in c.used() {
            if info[l].restitution == 0.0 {
                continue;
            }
            match c.scalar {
                Some(start) => restitution_one(&mut sv[start as usize + l], &info[l], bodies, prm),
                None => {
                    let mut s = c.lane(l);
                    restitution_one(&mut s, &info[l], bodies, prm);
                    c.set_lane(l, &s);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! The lane kernels against the scalar routines, bit for bit, on random
    //! planar bundles: turning and resting pairs, static partners, points
    //! inside and beyond their faces, bounded and unbounded faces.

    use super::super::FeaturePoint;
    use super::*;
    use crate::math::{Rot, Vec2};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    struct Gen(ChaCha8Rng);

    impl Gen {
        fn f(&mut self, lo: f32, hi: f32) -> f32 {
            lo + (hi - lo) * ((self.0.next_u32() >> 8) as f32 / 16_777_216.0)
        }
        fn coin(&mut self, p: f32) -> bool {
            self.f(0.0, 1.0) < p
        }
        fn v(&mut self, r: f32) -> Vec2 {
            Vec2::new(self.f(-r, r), self.f(-r, r))
        }
        fn rot(&mut self, max: f32) -> Rot {
            Rot::from_angle(self.f(-max, max))
        }
    }

    const STATIC: u32 = 8;

    /// Nine bodies (lane `l` owns bodies `2l` and `2l + 1`; body 8 is static
    /// and shared), their poses, and four planar constraints.
    #[allow(clippy::type_complexity)]
    fn case(
        g: &mut Gen,
    ) -> (
        Vec<SolverBody>,
        Vec<SolverPose>,
        [VelocityConstraint; 4],
        [ContactGeometry; 4],
    ) {
        let spin = g.coin(0.5);
        let mut bodies: Vec<SolverBody> = (0..8)
            .map(|_| SolverBody {
                v: g.v(2.0),
                w: if spin {
                    g.f(-3.0, 3.0)
                } else {
                    g.f(-0.02, 0.02)
                },
                inv_mass: g.f(0.1, 2.0),
                inv_inertia: g.f(0.1, 6.0),
            })
            .collect();
        bodies.push(SolverBody::default());
        let poses: Vec<SolverPose> = (0..9)
            .map(|i| {
                if i == STATIC as usize {
                    SolverPose::default()
                } else {
                    SolverPose {
                        dp: g.v(0.01),
                        dq: g.rot(0.02),
                    }
                }
            })
            .collect();
        let mut velocity = [None; 4];
        let mut geometry = [None; 4];
        for l in 0..4 {
            let (mut a, mut b) = (2 * l as u32, 2 * l as u32 + 1);
            if g.coin(0.2) {
                b = STATIC;
            } else if g.coin(0.2) {
                a = STATIC;
            }
            let kind = if g.coin(0.5) {
                FeatureKind::PlaneA
            } else {
                FeatureKind::PlaneB
            };
            let radius = if g.coin(0.5) { 0.0 } else { g.f(0.0, 0.1) };
            let mut feature = || {
                let angle = g.f(-3.1, 3.1);
                FeaturePoint {
                    ab: g.v(1.0),
                    fa: g.v(0.5),
                    fb: g.v(0.5),
                    fnormal: Vec2::new(libm::cosf(angle), libm::sinf(angle)),
                    flength: if g.coin(0.1) { -1.0 } else { g.f(0.0, 0.6) },
                    radius,
                    point_radius: radius * g.f(0.0, 1.0),
                    kind,
                }
            };
            let points = [feature(), feature()];
            geometry[l] = Some(ContactGeometry {
                a,
                b,
                count: 2,
                points,
            });
            let mut point = || VelocityPoint {
                tangent_mass: g.f(0.1, 1.0),
                normal_impulse: g.f(0.0, 5.0),
                tangent_impulse: g.f(-1.0, 1.0),
                ..Default::default()
            };
            let points = [point(), point()];
            velocity[l] = Some(VelocityConstraint {
                a,
                b,
                friction: g.f(0.0, 1.0),
                count: 2,
                block_ok: false,
                k: [0.0; 4],
                rolling_arm: 0.0,
                angular_mass: 0.0,
                rolling_impulse: 0.0,
                points,
            });
        }
        (
            bodies,
            poses,
            velocity.map(|c| c.expect("built")),
            geometry.map(|c| c.expect("built")),
        )
    }

    fn bundle(
        v: &[VelocityConstraint; 4],
        g: &[ContactGeometry; 4],
        bodies: &[SolverBody],
    ) -> (VelocityBundle, GeometryBundle) {
        let mut vb = VelocityBundle {
            fill: 4,
            ..Default::default()
        };
        let mut gb = GeometryBundle {
            fill: 4,
            ..Default::default()
        };
        for l in 0..4 {
            vb.set_lane(l, &v[l]);
            gb.set_lane(l, &g[l]);
        }
        vb.writes = Writes::new(&vb.a, &vb.b, 4, bodies);
        gb.writes = vb.writes;
        gb.faces = faces_of(&gb.points, 4);
        gb.set_masses(bodies);
        (vb.inv_mass_a, vb.inv_inertia_a) = (gb.inv_mass_a, gb.inv_inertia_a);
        (vb.inv_mass_b, vb.inv_inertia_b) = (gb.inv_mass_b, gb.inv_inertia_b);
        (vb, gb)
    }

    fn constraint_bits(c: &VelocityConstraint) -> Vec<u32> {
        let mut bits = vec![c.block_ok as u32];
        bits.extend(c.k.iter().map(|x| x.to_bits()));
        for p in &c.points {
            for x in [
                p.arm_na,
                p.arm_nb,
                p.arm_ta,
                p.arm_tb,
                p.normal.x,
                p.normal.y,
                p.bias,
                p.mass,
                p.normal_impulse,
                p.tangent_impulse,
                p.max_normal_impulse,
            ] {
                bits.push(x.to_bits());
            }
        }
        bits
    }

    fn body_bits(bodies: &[SolverBody]) -> Vec<u32> {
        bodies
            .iter()
            .flat_map(|b| [b.v.x, b.v.y, b.w].map(f32::to_bits))
            .collect()
    }

    fn pose_bits(poses: &[SolverPose]) -> Vec<u32> {
        poses
            .iter()
            .flat_map(|q| [q.dp.x, q.dp.y, q.dq.cos, q.dq.sin].map(f32::to_bits))
            .collect()
    }

    #[test]
    fn lane_kernels_match_the_scalar_routines_bit_for_bit() {
        let mut g = Gen(ChaCha8Rng::seed_from_u64(0x5eed));
        let prm = SolverParams {
            max_push_speed: TEST_PUSH,
            linear_slop: 0.005,
            position_correction: 0.2,
            max_correction: 0.2,
            restitution_threshold: 1.0,
        };
        // A low cap, so that random turning pairs reach it.
        const TEST_PUSH: f32 = 0.01;
        let (mut solved_in_lanes, mut pushed, mut capped) = (0, 0, 0);
        // Bundles per `faces` (mixed, all on A, all on B).
        let mut faces = [0; 3];
        for _ in 0..3000 {
            let (bodies, poses, mut vc, gc) = case(&mut g);
            let (mut vb, gb) = bundle(&vc, &gc, &bodies);
            faces[gb.faces as usize] += 1;
            for h in [1.0 / 240.0, 0.0] {
                // Anchor update.
                let inv_h = if h > 0.0 { 1.0 / h } else { 0.0 };
                for l in 0..4 {
                    update_one(&mut vc[l], &gc[l], &bodies, &poses, h, inv_h, TEST_PUSH);
                }
                update_planar(&mut vb, &gb, &bodies, &poses, h, inv_h, TEST_PUSH);
                for (l, c) in vc.iter().enumerate() {
                    assert_eq!(constraint_bits(&vb.lane(l)), constraint_bits(c), "update");
                    let count = c.count as usize;
                    capped += c.points[..count]
                        .iter()
                        .filter(|p| p.bias == -TEST_PUSH)
                        .count();
                }
                assert_eq!(vb.all_block, vc.iter().all(|c| c.block_ok));
            }
            // Warm start and two velocity passes.
            let (mut scalar, mut lanes) = (bodies.clone(), bodies.clone());
            for c in &vc {
                warm_one(c, &mut scalar);
            }
            warm_start_bundle(&vb, &mut lanes);
            assert_eq!(body_bits(&lanes), body_bits(&scalar), "warm start");
            if vb.in_lanes() {
                solved_in_lanes += 1;
                for _ in 0..2 {
                    for c in &mut vc {
                        solve_one(c, &mut scalar);
                    }
                    solve_bundle(&mut vb, &mut lanes);
                    assert_eq!(body_bits(&lanes), body_bits(&scalar), "velocity");
                    for (l, c) in vc.iter().enumerate() {
                        assert_eq!(constraint_bits(&vb.lane(l)), constraint_bits(c));
                    }
                }
            }
            // Position pass.
            let (mut scalar, mut lanes) = (poses.clone(), poses.clone());
            for c in &gc {
                position_one(c, &bodies, &mut scalar, &prm);
            }
            let (qa, qb) = (PoseW::gather(&lanes, &gb.a), PoseW::gather(&lanes, &gb.b));
            let moved = position_planar(&gb, qa, qb, &prm);
            pushed += moved.is_some() as u32;
            scatter_poses(&gb, moved, &mut lanes);
            assert_eq!(pose_bits(&lanes), pose_bits(&scalar), "position");
        }
        // The kernels' interesting paths were exercised.
        assert!(solved_in_lanes > 1000, "{solved_in_lanes} bundles in lanes");
        assert!(pushed > 1000, "{pushed} bundles pushed");
        assert!(capped > 100, "{capped} points at the push cap");
        assert!(
            faces.iter().all(|&n| n > 100),
            "bundles per faces {faces:?}"
        );
    }
}
