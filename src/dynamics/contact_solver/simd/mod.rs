//! The scheduled constraints of a step, in bundles of four, and the passes
//! over them.
//!
//! The wavefront order (see `schedule`) groups constraints into levels whose
//! members share no responding body. Each level is cut into bundles of four
//! consecutive constraints (the last one of a level padded with copies of its
//! first constraint), stored lane by lane (structure of arrays), and every
//! pass visits the bundles in order. The four lanes of a bundle are
//! independent, so solving them at once in four-lane arithmetic (`dynamics::simd`)
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
use crate::dynamics::schedule::Wavefront;
use crate::dynamics::simd::{
    clamp, cross, cross_sv, ge, gt, inv_or_zero, le, lt, max, select, BodyW, PoseW, RotW, F, V2,
};
use crate::dynamics::solver_body::{SolverBody, SolverPose};
use crate::narrowphase::manifold::FeatureKind;

mod position;
mod rows;
mod velocity;

pub(crate) use position::{apply_restitution, solve_positions};
pub(crate) use rows::{NormalRows, RowsAt};
pub(crate) use velocity::{solve_velocities, update_anchors, warm_start};

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
    /// 1 in the lanes that are impacts this step (see `IMPACT_SPEED`), 0
    /// in the others.
    impact: F,
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
            impact: get(&self.impact, l) > 0.5,
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
        put(&mut self.impact, l, if c.impact { 1.0 } else { 0.0 });
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

#[cfg(test)]
mod tests;
