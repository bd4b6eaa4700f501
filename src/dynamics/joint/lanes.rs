//! Plain hinges solved side by side, one per lane.
//!
//! A revolute joint with no spring, motor or limits (every joint of Box2D's
//! `joint_grid`, most links of a chain) is only its point constraint: a 2×2
//! solve per velocity pass and one per position pass. Solved one at a time,
//! each joint waits on its own chain of divisions and square roots, and the
//! passes read the whole joint (184 bytes) to use 48 of them.
//!
//! The joint passes visit the joints in wavefront order (`schedule`), where
//! consecutive positions of one level share no body that responds. Each run
//! of two or more such plain hinges becomes a bundle of up to [`LANES`]
//! joints, whose frames (bodies, inverse masses, anchors, centre offset) are
//! copied once per step into lane vectors; the passes solve a bundle at once
//! and the other joints one by one, in the same visiting order. Each body
//! therefore sees the same operations on the same values in the same order
//! as in the scalar passes, and every lane operation is the twin of the
//! scalar one (`dynamics::simd`): the results are bit-identical (the golden
//! hashes and the test below check it).
//!
//! The bundles keep the point impulses and their sum over the substeps
//! during the step, and write them back to their joints at its end
//! ([`JointLanes::finish`]). When the joint forest holds joints this step,
//! it reads and adds to those impulses between passes, so no bundle is made.

use super::constraint::JointConstraint;
use super::frame::Frame;
use super::JointParams;
use crate::dynamics::simd::{cross, cross_sv, BodyW, PoseW, F, LANES, V2};
use crate::dynamics::solver_body::{SolverBody, SolverPose};
use crate::math::Vec2;

/// A plain hinge as a bundle takes it: its joint, frame, and point impulse
/// with its sum so far.
type Hinge = (u32, Frame, (Vec2, Vec2));

/// One entry of the joint passes' visit: a joint alone, or a bundle.
#[derive(Clone, Copy, Debug)]
enum Visit {
    One(u32),
    Lanes(u32),
}

/// Up to [`LANES`] plain hinges that share no responding body. Unused lanes
/// repeat lane 0 and are never written.
#[derive(Clone, Copy, Debug)]
struct Bundle {
    joints: [u32; LANES],
    /// Lanes in use.
    fill: u8,
    a: [u32; LANES],
    b: [u32; LANES],
    /// The lanes (bit `l` for lane `l`) whose body A, B is written: lanes in
    /// use whose body responds to impulses, as the scalar passes write.
    writes_a: u8,
    writes_b: u8,
    ma: F,
    mb: F,
    ia: F,
    ib: F,
    ra0: V2,
    rb0: V2,
    dc0: V2,
    /// The point's accumulated impulse, and its sum over finished substeps.
    linear: V2,
    sum: V2,
}

/// The step's visit of the joint passes and its bundles.
#[derive(Clone, Debug, Default)]
pub(crate) struct JointLanes {
    visits: Vec<Visit>,
    bundles: Vec<Bundle>,
    /// Scratch: the run of hinges being gathered into a bundle.
    run: Vec<Hinge>,
}

impl JointLanes {
    /// The visit of `joints` in `order` (with `with_next`, from
    /// `Wavefront::order_all`), bundling runs of independent plain hinges
    /// when `bundle` (the joint forest is empty).
    pub fn build(
        &mut self,
        joints: &[JointConstraint],
        order: &[u32],
        with_next: &[bool],
        bundle: bool,
    ) {
        self.visits.clear();
        self.bundles.clear();
        let plain = |p: usize| {
            let j = &joints[order[p] as usize];
            j.plain_hinge().map(|f| (order[p], *f, j.point_impulses()))
        };
        let run = &mut self.run;
        let mut p = 0;
        while p < order.len() {
            run.clear();
            if bundle {
                while p + run.len() < order.len() && run.len() < LANES {
                    let Some(hinge) = plain(p + run.len()) else {
                        break;
                    };
                    run.push(hinge);
                    if !with_next[p + run.len() - 1] {
                        break;
                    }
                }
            }
            if run.len() < 2 {
                self.visits.push(Visit::One(order[p]));
                p += 1;
                continue;
            }
            self.visits.push(Visit::Lanes(self.bundles.len() as u32));
            self.bundles.push(Bundle::new(run));
            p += run.len();
        }
    }

    /// The warm start of every joint, in the visit's order.
    pub fn warm_start(
        &self,
        joints: &[JointConstraint],
        bodies: &mut [SolverBody],
        poses: &[SolverPose],
    ) {
        for v in &self.visits {
            match *v {
                Visit::One(k) => joints[k as usize].warm_start(bodies, poses),
                Visit::Lanes(i) => self.bundles[i as usize].warm_start(bodies, poses),
            }
        }
    }

    /// One velocity pass over every joint, in the visit's order.
    pub fn solve_velocity(
        &mut self,
        joints: &mut [JointConstraint],
        bodies: &mut [SolverBody],
        poses: &[SolverPose],
        prm: &JointParams,
    ) {
        for v in &self.visits {
            match *v {
                Visit::One(k) => joints[k as usize].solve_velocity(bodies, poses, prm),
                Visit::Lanes(i) => self.bundles[i as usize].solve_velocity(bodies, poses),
            }
        }
    }

    /// The end of a substep: each joint banks its impulses and makes its
    /// position pass, in the visit's order.
    pub fn end_substep(
        &mut self,
        joints: &mut [JointConstraint],
        poses: &mut [SolverPose],
        prm: &JointParams,
    ) {
        for v in &self.visits {
            match *v {
                Visit::One(k) => {
                    let j = &mut joints[k as usize];
                    j.end_substep();
                    j.solve_position(poses, prm);
                }
                Visit::Lanes(i) => {
                    let b = &mut self.bundles[i as usize];
                    b.sum = b.sum + b.linear;
                    b.solve_position(poses, prm);
                }
            }
        }
    }

    /// Writes the bundles' impulses back to their joints (end of the step).
    pub fn finish(&self, joints: &mut [JointConstraint]) {
        for b in &self.bundles {
            for (l, &k) in b.joints[..b.fill as usize].iter().enumerate() {
                joints[k as usize].set_point_impulses(b.linear.lane(l), b.sum.lane(l));
            }
        }
    }
}

/// `Frame::point_matrix` in lanes: `K`'s (k11, k12, k22).
#[inline(always)]
fn point_matrix(b: &Bundle, ra: V2, rb: V2) -> (F, F, F) {
    let m = b.ma + b.mb;
    let k11 = m + b.ia * ra.y * ra.y + b.ib * rb.y * rb.y;
    let k12 = -b.ia * ra.x * ra.y - b.ib * rb.x * rb.y;
    let k22 = m + b.ia * ra.x * ra.x + b.ib * rb.x * rb.x;
    (k11, k12, k22)
}

/// `frame::solve2` in lanes: `K·x = rhs`, zero where `K` is singular.
#[inline(always)]
fn solve2(k11: F, k12: F, k22: F, rhs: V2) -> V2 {
    let det = k11 * k22 - k12 * k12;
    let singular = det
        .abs()
        .simd_le(F::splat(f32::EPSILON) * (k11 * k22).abs())
        | det.simd_eq(F::ZERO);
    let inv = F::ONE / det;
    let x = V2::new(
        inv * (k22 * rhs.x - k12 * rhs.y),
        inv * (k11 * rhs.y - k12 * rhs.x),
    );
    V2::select(singular, V2::default(), x)
}

impl Bundle {
    /// The bundle of `run`'s plain hinges (2 to `LANES`: joint, frame, and
    /// point impulse and its sum); unused lanes repeat the first.
    fn new(run: &[Hinge]) -> Bundle {
        let mut joints = [0; LANES];
        let (mut a, mut b) = ([0; LANES], [0; LANES]);
        let (mut writes_a, mut writes_b) = (0, 0);
        // Per lane: ma, mb, ia, ib, ra0 (x, y), rb0, dc0, linear, sum.
        let mut rows = [[0.0f32; LANES]; 14];
        for l in 0..LANES {
            let (k, f, (linear, sum)) = run[if l < run.len() { l } else { 0 }];
            joints[l] = k;
            (a[l], b[l]) = (f.a, f.b);
            if l < run.len() {
                writes_a |= u8::from(f.ma > 0.0 || f.ia > 0.0) << l;
                writes_b |= u8::from(f.mb > 0.0 || f.ib > 0.0) << l;
            }
            let values = [
                f.ma, f.mb, f.ia, f.ib, f.ra0.x, f.ra0.y, f.rb0.x, f.rb0.y, f.dc0.x, f.dc0.y,
                linear.x, linear.y, sum.x, sum.y,
            ];
            for (row, v) in rows.iter_mut().zip(values) {
                row[l] = v;
            }
        }
        let [ma, mb, ia, ib, rax, ray, rbx, rby, dcx, dcy, lx, ly, sx, sy] = rows.map(F::new);
        Bundle {
            joints,
            fill: run.len() as u8,
            a,
            b,
            writes_a,
            writes_b,
            ma,
            mb,
            ia,
            ib,
            ra0: V2::new(rax, ray),
            rb0: V2::new(rbx, rby),
            dc0: V2::new(dcx, dcy),
            linear: V2::new(lx, ly),
            sum: V2::new(sx, sy),
        }
    }

    /// The lanes' velocities, with the frames' inverse masses.
    #[inline(always)]
    fn velocities(&self, bodies: &[SolverBody]) -> (BodyW, BodyW) {
        (
            BodyW::gather_velocities(bodies, &self.a, self.ma, self.ia),
            BodyW::gather_velocities(bodies, &self.b, self.mb, self.ib),
        )
    }

    /// `Frame::apply_linear`: the impulse `p` at the anchors.
    #[inline(always)]
    fn apply_linear(&self, ba: &mut BodyW, bb: &mut BodyW, ra: V2, rb: V2, p: V2) {
        ba.v = ba.v - self.ma * p;
        ba.w -= self.ia * cross(ra, p);
        bb.v = bb.v + self.mb * p;
        bb.w += self.ib * cross(rb, p);
    }

    /// `RevoluteConstraint::warm_start` (its axial impulse is +0.0).
    fn warm_start(&self, bodies: &mut [SolverBody], poses: &[SolverPose]) {
        let (mut ba, mut bb) = self.velocities(bodies);
        let (qa, qb) = (PoseW::gather(poses, &self.a), PoseW::gather(poses, &self.b));
        let (ra, rb) = (qa.dq.apply(self.ra0), qb.dq.apply(self.rb0));
        self.apply_linear(&mut ba, &mut bb, ra, rb, self.linear);
        // `Frame::apply_angular` of the zero axial impulse: no change, except
        // that B's spin of −0.0 becomes +0.0, as in the scalar pass.
        ba.w -= self.ia * F::ZERO;
        bb.w += self.ib * F::ZERO;
        ba.scatter(bodies, &self.a, self.writes_a);
        bb.scatter(bodies, &self.b, self.writes_b);
    }

    /// `RevoluteConstraint::solve_velocity` with no spring, motor or limits.
    fn solve_velocity(&mut self, bodies: &mut [SolverBody], poses: &[SolverPose]) {
        let (mut ba, mut bb) = self.velocities(bodies);
        let (qa, qb) = (PoseW::gather(poses, &self.a), PoseW::gather(poses, &self.b));
        let (ra, rb) = (qa.dq.apply(self.ra0), qb.dq.apply(self.rb0));
        let cdot = bb.v + cross_sv(bb.w, rb) - ba.v - cross_sv(ba.w, ra);
        let (k11, k12, k22) = point_matrix(self, ra, rb);
        let p = -solve2(k11, k12, k22, cdot);
        self.linear = self.linear + p;
        self.apply_linear(&mut ba, &mut bb, ra, rb, p);
        ba.scatter(bodies, &self.a, self.writes_a);
        bb.scatter(bodies, &self.b, self.writes_b);
    }

    /// `revolute::point_position`: the anchors' separation removed by a
    /// pseudo-impulse on the poses, at most `max_linear` per pass.
    fn solve_position(&self, poses: &mut [SolverPose], prm: &JointParams) {
        let (qa, qb) = (PoseW::gather(poses, &self.a), PoseW::gather(poses, &self.b));
        let (ra, rb) = (qa.dq.apply(self.ra0), qb.dq.apply(self.rb0));
        let c = self.dc0 + qb.dp - qa.dp + rb - ra;
        let len = (c.x * c.x + c.y * c.y).sqrt();
        let max = F::splat(prm.max_linear);
        let c = V2::select(len.simd_gt(max), (max / len) * c, c);
        // A pass with no separation changes nothing.
        let still = c.x.simd_eq(F::ZERO) & c.y.simd_eq(F::ZERO);
        let (k11, k12, k22) = point_matrix(self, ra, rb);
        let p = -solve2(k11, k12, k22, c);
        let mass = ((self.ma, self.ia), (self.mb, self.ib));
        let (pushed_a, pushed_b) = PoseW::pushed(&qa, &qb, mass.0, mass.1, (ra, rb), p);
        PoseW::select(still, &qa, &pushed_a).scatter(poses, &self.a, self.writes_a);
        PoseW::select(still, &qb, &pushed_b).scatter(poses, &self.b, self.writes_b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dynamics::joint::constraint::End;
    use crate::dynamics::joint::{Joint, JointDef, JointKind, Motor, Revolute};
    use crate::dynamics::BodyId;
    use crate::math::Rot;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Random bodies (some static, some with −0.0 spins), poses and joints:
    /// mostly plain hinges, with hinges driven by a motor and hinges with a
    /// leftover motor impulse mixed in (solved one by one), several joints
    /// on shared static bodies, and the last body the world slot.
    fn case(rng: &mut ChaCha8Rng) -> (Vec<SolverBody>, Vec<SolverPose>, Vec<JointConstraint>) {
        let n = 40;
        let mut bodies: Vec<SolverBody> = (0..n)
            .map(|i| {
                let fixed = i % 13 == 0 || i == n - 1;
                let mass = rng.random_range(0.2f32..5.0);
                SolverBody {
                    v: Vec2::new(rng.random_range(-2.0..2.0), rng.random_range(-2.0..2.0)),
                    w: if i % 5 == 0 {
                        -0.0
                    } else {
                        rng.random_range(-3.0..3.0)
                    },
                    inv_mass: if fixed { 0.0 } else { 1.0 / mass },
                    inv_inertia: if fixed { 0.0 } else { 6.0 / mass },
                }
            })
            .collect();
        for b in bodies.iter_mut().filter(|b| !b.responds()) {
            (b.v, b.w) = (Vec2::ZERO, 0.0);
        }
        let poses: Vec<SolverPose> = (0..n)
            .map(|i| SolverPose {
                dp: if bodies[i].responds() {
                    Vec2::new(rng.random_range(-0.01..0.01), rng.random_range(-0.01..0.01))
                } else {
                    Vec2::ZERO
                },
                dq: if bodies[i].responds() {
                    Rot::from_angle(rng.random_range(-0.05..0.05))
                } else {
                    Rot::IDENTITY
                },
            })
            .collect();
        let mut joints = Vec::new();
        for k in 0..300u32 {
            let a = rng.random_range(0..n as u32);
            let mut b = rng.random_range(0..n as u32);
            while b == a || (!bodies[a as usize].responds() && !bodies[b as usize].responds()) {
                b = rng.random_range(0..n as u32);
            }
            let motor = (k % 11 == 0).then_some(Motor {
                speed: 1.0,
                max_effort: 5.0,
            });
            let kind = JointKind::Revolute(Revolute {
                reference_angle: 0.0,
                limits: None,
                motor,
                spring: None,
            });
            let id = |index| BodyId {
                index,
                generation: 0,
            };
            let mut joint = Joint::new(JointDef::new(
                Some(id(a)),
                id(b),
                Vec2::ZERO,
                Vec2::ZERO,
                kind,
            ));
            // Some start with no impulse: their warm start leaves a spin of
            // −0.0 to the angular part's +0.0.
            if k % 7 != 0 {
                joint.impulses.linear =
                    Vec2::new(rng.random_range(-0.1..0.1), rng.random_range(-0.1..0.1));
            }
            if k % 17 == 0 {
                // A motor switched off keeps its impulse until it decays.
                joint.impulses.motor = 0.05;
            }
            let end = |slot: u32, rng: &mut ChaCha8Rng| End {
                slot,
                center: Vec2::new(rng.random_range(-5.0..5.0), rng.random_range(-5.0..5.0)),
                rot: Rot::from_angle(rng.random_range(-3.0..3.0)),
                anchor: Vec2::new(rng.random_range(-0.6..0.6), rng.random_range(-0.6..0.6)),
            };
            let (ea, eb) = (end(a, rng), end(b, rng));
            joints.push(JointConstraint::new(
                k,
                &joint,
                ea,
                eb,
                &bodies,
                1.0 / 240.0,
            ));
        }
        (bodies, poses, joints)
    }

    /// Three substeps of warm start, two velocity passes and the position
    /// pass, with or without lanes.
    fn run(
        bodies: &mut [SolverBody],
        poses: &mut [SolverPose],
        joints: &mut [JointConstraint],
        bundle: bool,
    ) -> usize {
        let mut wavefront = crate::dynamics::schedule::Wavefront::default();
        let (mut order, mut with_next) = (Vec::new(), Vec::new());
        wavefront.order_all(bodies, joints, |j| j.bodies(), &mut order, &mut with_next);
        let mut lanes = JointLanes::default();
        lanes.build(joints, &order, &with_next, bundle);
        let prm = JointParams {
            h: 1.0 / 240.0,
            inv_h: 240.0,
            max_linear: 0.2,
            max_angular: 0.1,
        };
        for _ in 0..3 {
            lanes.warm_start(joints, bodies, poses);
            for _ in 0..2 {
                lanes.solve_velocity(joints, bodies, poses, &prm);
            }
            for &i in &[1usize, 2, 3, 5, 8] {
                if bodies[i].responds() {
                    poses[i] = poses[i].integrate(&bodies[i], prm.h);
                }
            }
            lanes.end_substep(joints, poses, &prm);
        }
        lanes.finish(joints);
        lanes.bundles.len()
    }

    #[test]
    fn lanes_give_the_scalar_passes_bits() {
        let bits = |v: Vec2| (v.x.to_bits(), v.y.to_bits());
        let mut bundled = 0;
        for seed in 0..100 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let (bodies, poses, joints) = case(&mut rng);
            let (mut b1, mut q1, mut j1) = (bodies.clone(), poses.clone(), joints.clone());
            let (mut b2, mut q2, mut j2) = (bodies, poses, joints);
            assert_eq!(run(&mut b1, &mut q1, &mut j1, false), 0);
            bundled += run(&mut b2, &mut q2, &mut j2, true);
            for (x, y) in b1.iter().zip(&b2) {
                assert_eq!(
                    (bits(x.v), x.w.to_bits()),
                    (bits(y.v), y.w.to_bits()),
                    "seed {seed}"
                );
            }
            for (x, y) in q1.iter().zip(&q2) {
                assert_eq!(bits(x.dp), bits(y.dp), "seed {seed}");
                assert_eq!(
                    (x.dq.cos.to_bits(), x.dq.sin.to_bits()),
                    (y.dq.cos.to_bits(), y.dq.sin.to_bits()),
                    "seed {seed}"
                );
            }
            for (x, y) in j1.iter().zip(&j2) {
                assert_eq!(x.impulses, y.impulses, "seed {seed}");
                let (r1, r2) = (x.reaction(&q1, 60.0), y.reaction(&q2, 60.0));
                assert_eq!((bits(r1.0), r1.1.to_bits()), (bits(r2.0), r2.1.to_bits()));
            }
        }
        assert!(bundled > 100, "the cases need bundles ({bundled})");
    }
}
