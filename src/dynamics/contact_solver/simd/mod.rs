//! The scheduled constraints of a step, in bundles of [`LANES`] (four, or
//! eight in AVX2 builds), and the passes over them.
//!
//! The packing (see `schedule`, [`Wavefront::pack_block`]) puts the
//! constraints into bundles of up to `LANES` whose members share no
//! responding body and have the same point count, each constraint in the
//! first bundle after every bundle that holds an earlier constraint of one
//! of its bodies (a partly filled bundle is padded with copies of its first
//! constraint). The bundles are stored lane by lane (structure of arrays),
//! and every pass visits them in order, so each body meets its constraints
//! in the solver's order: solving a bundle's lanes at once in lane
//! arithmetic (`dynamics::simd`) gives each body the same operations in the
//! same order as solving the constraints one by one: bit-identical results,
//! about three times fewer instructions.
//!
//! Every constraint is solved in lanes. Two-point manifolds (`velocity`,
//! `position`) are solved as 2×2 blocks; one-point manifolds (`single`),
//! with their rolling resistance, point by point. Any feature is measured in
//! lanes (`geometry`): a face of A or of B ([`FeatureKind::PlaneA`],
//! `PlaneB`), with points beyond the end of their face, and two core points
//! (`Points`), rounded or not, turning or resting. In a two-point bundle,
//! the lanes whose block matrix is ill-conditioned for a substep solve their
//! normal impulses point after point, in lanes too. Restitution (few
//! contacts bounce) runs the scalar routine of [`super`] on copies of a
//! bundle's lanes. Padding lanes are
//! computed but never stored to bodies, poses or contacts.

#[cfg(test)]
use super::ContactGeometry;
use super::{
    restitution_one, ConstraintInfo, Pending, SolverParams, Source, VelocityConstraint,
    VelocityPoint, TURNING_SPIN,
};
use crate::dynamics::schedule::Wavefront;
use crate::dynamics::simd::{
    bits_mask, clamp, cross, cross_sv, ge, gt, inv_or_zero, lanes_mask, le, lt, max, select, BodyW,
    PoseW, RotW, F, LANES, V2,
};
use crate::dynamics::solver_body::{SolverBody, SolverPose};
use crate::math::Vec2;
use crate::narrowphase::manifold::FeatureKind;

mod ahead;
mod bundle;
mod geometry;
mod point;
mod position;
mod prepare;
mod rows;
mod single;
mod velocity;

use super::velocity::Quiet;
use geometry::{faces_of, lane_geometry, FACES_A, FACES_ANY, FACES_B, FACES_MIXED};
pub(crate) use position::{apply_restitution, solve_positions, PositionPass};
pub(crate) use rows::{NormalRows, RowsAt};
pub(crate) use velocity::{solve_velocities, update_and_warm_start};

/// One contact point of a bundle's lanes, as [`VelocityPoint`]: what the
/// warm start reads (the rest is in [`PointS`]).
#[derive(Clone, Copy, Debug, Default)]
struct PointW {
    normal: V2,
    arm_na: F,
    arm_nb: F,
    arm_ta: F,
    arm_tb: F,
    normal_impulse: F,
    tangent_impulse: F,
}

/// The rest of a contact point of a bundle's lanes (see [`PointW`]): what
/// only the anchor update, the velocity iterations and restitution read.
#[derive(Clone, Copy, Debug, Default)]
struct PointS {
    bias: F,
    mass: F,
    tangent_mass: F,
    max_normal_impulse: F,
}

/// A bundle's constraints' data for the velocity passes, as
/// [`VelocityConstraint`], in two parts: this one, which the warm start
/// reads, and a [`SolveBundle`] that only the anchor update, the velocity
/// iterations and restitution read. The substeps after the first warm
/// start most bundles of a settled scene without updating their anchors
/// (see `ContactBundles::still`), and stream this part alone: 800 bytes a
/// bundle of eight lanes, where both parts hold 1,312.
#[derive(Clone, Copy, Debug, Default)]
struct VelocityBundle {
    a: [u32; LANES],
    b: [u32; LANES],
    /// Lanes in use (1 to `LANES`); the others repeat lane 0.
    fill: u8,
    /// Every lane is a one-point manifold (else every lane has two points).
    single: bool,
    /// The next bundle shares no responding body with this one, and the
    /// passes may solve the two side by side.
    independent_of_next: bool,
    /// The lanes whose bodies are stored back (see [`Writes`]).
    writes: Writes,
    count: [u8; LANES],
    /// The bodies' inverse masses and inertias (fixed through the step),
    /// stored when the bundle is built so that the passes gather only
    /// velocities. The geometry bundle keeps the same values for the
    /// position pass, which reads only that list.
    inv_mass_a: F,
    inv_inertia_a: F,
    inv_mass_b: F,
    inv_inertia_b: F,
    /// Rolling resistance of one-point manifolds, as in
    /// [`VelocityConstraint`] (0 where there is none).
    rolling_arm: F,
    rolling_impulse: F,
    points: [PointW; 2],
}

/// The part of a bundle's velocity data that the warm start does not read
/// (see [`VelocityBundle`]).
#[derive(Clone, Copy, Debug, Default)]
struct SolveBundle {
    /// Every lane is solved by the block solver this substep (set with the
    /// anchors; two-point bundles only).
    all_block: bool,
    /// The lanes (bit `l` for lane `l`) whose block matrix is well
    /// conditioned this substep.
    block_ok: u8,
    /// The lanes resting quietly this step (see [`Quiet`]).
    quiet: u8,
    /// 1 in the lanes that are impacts this step (see `IMPACT_SPEED`), 0
    /// in the others.
    impact: F,
    friction: F,
    k11: F,
    k12: F,
    k22: F,
    inv_det: F,
    /// As [`VelocityConstraint`]'s, for the rolling resistance.
    angular_mass: F,
    points: [PointS; 2],
}

/// One feature point of a bundle's lanes, as `FeaturePoint` (the tests'
/// scalar form); its kind is in the bundle ([`GeometryBundle::plane_a`]).
/// Two core points' `fnormal` is stored negated (see `geometry`).
#[derive(Clone, Copy, Debug, Default)]
struct FeatureW {
    ab: V2,
    fa: V2,
    fb: V2,
    fnormal: V2,
    flength: F,
    radius: F,
    point_radius: F,
}

/// A bundle's constraints' geometry, as `ContactGeometry` (the tests' scalar form).
#[derive(Clone, Copy, Debug, Default)]
struct GeometryBundle {
    a: [u32; LANES],
    b: [u32; LANES],
    /// As [`VelocityBundle::single`].
    single: bool,
    /// As [`VelocityBundle::independent_of_next`].
    independent_of_next: bool,
    /// As [`VelocityBundle::writes`].
    writes: Writes,
    /// The lanes' feature kinds ([`FACES_A`], [`FACES_B`], [`FACES_MIXED`],
    /// [`FACES_ANY`]), set when the bundle is built.
    faces: u8,
    /// Per point, one bit per lane: the lane's face is A's (`PlaneA`), and
    /// the lane's features are two core points (`Points`). Bits, not lane
    /// masks, so that a point's geometry takes 16 bytes a lane fewer to
    /// stream (the masks are made when the passes need them, [`bits_mask`]).
    plane_a: [u8; 2],
    core_points: [u8; 2],
    /// The bodies' inverse masses and inertias, which the position pass
    /// reads (fixed through the step), stored with the bundle when it is
    /// built so that the pass need not gather them.
    inv_mass_a: F,
    inv_inertia_a: F,
    inv_mass_b: F,
    inv_inertia_b: F,
    points: [FeatureW; 2],
}

/// Per body side (A, B) of a bundle, one bit per lane: the position pass
/// holds that body still (it gets no mass in the pass and is not stored
/// back).
type Held = [u8; 2];

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

/// The scheduled contact constraints of one step, in bundles.
#[derive(Clone, Debug, Default)]
pub(crate) struct ContactBundles {
    /// The bundles in use: the first `len` of `velocity`, `solve` and
    /// `geometry`.
    len: usize,
    /// The bundles, with the last step's beyond `len`: a bundle is built over
    /// an old one, each field it sets written once, and the fields the
    /// anchor update sets before anything reads them (normals, levers,
    /// masses, bias, block matrix) left to it. Built over a zeroed copy
    /// instead, the step wrote every bundle twice and streamed lines that
    /// the update fetches again.
    velocity: Vec<VelocityBundle>,
    solve: Vec<SolveBundle>,
    geometry: Vec<GeometryBundle>,
    /// Per bundle and lane: restitution inputs and the contact.
    info: Vec<[ConstraintInfo; LANES]>,
    /// Per bundle: some lane has restitution.
    bouncy: Vec<bool>,
    /// Per bundle: a one-point bundle (as [`VelocityBundle::single`]), in a
    /// compact list that the passes read to ask for a bundle ahead: read
    /// from the bundle itself, the flag was a load that missed and stalled
    /// the pass it was meant to spare (see `ahead`).
    single: Vec<bool>,
    /// Per bundle: every lane in use rests quietly this step, so the
    /// substeps after the first keep its anchors and read none of its
    /// geometry nor its [`SolveBundle`] in the warm start (set by the first
    /// substep's anchor update; see [`Quiet`]). The warm start asks ahead
    /// for those parts of the others only.
    still: Vec<bool>,
    /// Per bundle: the bodies the position pass holds (none unless
    /// [`ContactBundles::plan_position_pass`] says so).
    held: Vec<Held>,
    /// Per bundle, one bit per lane: the lane's contact has no jointed
    /// body, so the position pass corrects it on alternate substeps only
    /// (see [`PositionPass`]).
    alternate: Vec<u8>,
    /// Per bundle, one bit per lane: the lane's contact has no jointed body
    /// and is in an island that nothing anchors, where the position pass
    /// corrects penetration past `deep_penetration` harder (see
    /// [`point::Fraction`]).
    free: Vec<u8>,
    /// Per bundle: the lanes' bodies A and B, as the bundles hold them, in
    /// a compact list that the planning pass reads instead of the bundles.
    pairs: Vec<[[u32; LANES]; 2]>,
}

impl ContactBundles {
    /// The constraints built, and the bundles they fill (of `LANES` lanes
    /// each).
    pub fn lane_use(&self) -> (usize, usize) {
        let lanes = self.velocity().iter().map(|c| c.fill as usize).sum();
        (lanes, self.len)
    }

    /// The velocity bundles in use.
    fn velocity(&self) -> &[VelocityBundle] {
        &self.velocity[..self.len]
    }

    /// Removes every constraint, keeping the allocations (and the old
    /// bundles, to be built over).
    pub fn clear(&mut self) {
        self.len = 0;
        self.info.clear();
        self.bouncy.clear();
        self.single.clear();
        self.still.clear();
        self.held.clear();
        self.alternate.clear();
        self.free.clear();
        self.pairs.clear();
    }

    /// Builds the constraints of `block` (touching contacts in the solver's
    /// order; `source` gives what one is built from, by its position in the
    /// touching list; `gravity`: the world's) at
    /// the end of this list as the packing bundles them (see
    /// [`Wavefront::pack_block`]), up to `LANES` independent ones to a
    /// bundle, two-point and one-point manifolds in separate bundles; leaves
    /// `block` empty. Each constraint is built
    /// straight into its lane, so nothing is copied on the way; `warm(at)`
    /// is called a bundle ahead, for the caller to load that contact.
    pub fn append_scheduled<'a>(
        &mut self,
        block: &mut Vec<Pending>,
        wavefront: &mut Wavefront,
        bodies: &[SolverBody],
        gravity: Vec2,
        mut source: impl FnMut(u32) -> Source<'a>,
        warm: impl Fn(u32),
    ) {
        let items = block.iter().map(|c| (c.a, c.b, c.single));
        let packed = wavefront.pack_block(bodies, items);
        for (i, p) in packed.iter().enumerate() {
            // The next bundle's contacts are loaded while this one is built
            // (the packing visits the touching list out of order).
            if let Some(next) = packed.get(i + 1) {
                for &l in &next.lanes[..next.fill as usize] {
                    warm(block[l as usize].at);
                }
            }
            // The old bundle the one after next is built over (see
            // `ContactBundles::velocity`), asked for ahead of its stores.
            let old = self.len + ahead::AHEAD;
            if let (Some(v), Some(s), Some(g)) = (
                self.velocity.get(old),
                self.solve.get(old),
                self.geometry.get(old),
            ) {
                v.prefetch(false);
                s.prefetch(false);
                g.prefetch(false);
            }
            let lanes: [u32; LANES] = std::array::from_fn(|l| block[p.lanes[l] as usize].at);
            self.push_bundle(&lanes[..p.fill as usize], bodies, gravity, &mut source);
            let last = self.len - 1;
            self.velocity[last].independent_of_next = p.independent_of_next;
            self.geometry[last].independent_of_next = p.independent_of_next;
        }
        block.clear();
    }

    /// Whether no constraint was built this step.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Plans the position pass. It holds a body of some constraints still,
    /// so that only the other one moves (shock propagation, see
    /// `dynamics::stack_levels`): `hold(contact)` (the contact's position
    /// in the touching list) says which, A, B or neither. And it corrects
    /// the contacts without a jointed body (`jointed(a, b)` false, of the
    /// contact's bodies) on alternate substeps only (see [`PositionPass`]).
    /// Of these, the ones in islands that nothing anchors (`free(a, b)`)
    /// have their deep penetration corrected harder (see
    /// [`point::Fraction`]).
    pub fn plan_position_pass(
        &mut self,
        hold: impl Fn(u32) -> (bool, bool),
        jointed: impl Fn(u32, u32) -> bool,
        mut free: impl FnMut(u32, u32) -> bool,
    ) {
        // Padding lanes copy lane 0's contact, and so its holds: they are
        // never stored back, whatever their masses. The bodies come from
        // the compact list of the bundles' bodies, in order, rather than
        // from the contacts, which the bundles visit out of order (a cache
        // miss a lane in a large scene).
        let bundles = self.info.iter().zip(&self.pairs).zip(&mut self.held);
        let masks = self.alternate.iter_mut().zip(&mut self.free);
        for (((info, [body_a, body_b]), held), (alternate, free_lanes)) in bundles.zip(masks) {
            *held = [0; 2];
            *alternate = 0;
            *free_lanes = 0;
            for (l, info) in info.iter().enumerate() {
                let (a, b) = hold(info.contact);
                held[0] |= (a as u8) << l;
                held[1] |= (b as u8) << l;
                let (a, b) = (body_a[l], body_b[l]);
                let unjointed = !jointed(a, b);
                *alternate |= (unjointed as u8) << l;
                *free_lanes |= ((unjointed && free(a, b)) as u8) << l;
            }
        }
    }

    /// Calls `f(store, slot, normal impulses, tangent impulses, rolling
    /// impulse, count)` for every constraint, with its contact's slot in the
    /// pool, to store its impulses for next step's warm start in `store`,
    /// in the bundles' order.
    pub fn for_each_impulses<T>(
        &self,
        store: &mut T,
        mut f: impl FnMut(&mut T, u32, [f32; 2], [f32; 2], f32, usize),
    ) {
        let velocity = self.velocity();
        for (v, info) in velocity.iter().zip(&self.info) {
            for (l, info) in info.iter().enumerate().take(v.fill as usize) {
                let [p1, p2] = &v.points;
                f(
                    store,
                    info.slot,
                    [get(&p1.normal_impulse, l), get(&p2.normal_impulse, l)],
                    [get(&p1.tangent_impulse, l), get(&p2.tangent_impulse, l)],
                    get(&v.rolling_impulse, l),
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

#[cfg(test)]
mod tests;
