//! The solver's per-body state during a step, one entry per body slot, split by
//! the passes that use it: velocities and inverse masses ([`SolverBody`]: warm
//! start, velocity iterations, restitution) apart from the pose change since
//! step start ([`SolverPose`]: anchor updates, position pass). Each pass then
//! loads and stores only what it reads and writes.
//!
//! Slots that do not move this step (static, sleeping, frozen or empty) keep
//! zero velocity, zero inverse mass and the identity pose change; the contact
//! passes never write them. The per-substep body loops run over short lists of
//! the bodies that do move ([`Integration`], and the moving slots' indices)
//! instead of over every slot. [`SlotFacts`] holds, per slot, the little that
//! the contact loop and the constraint build read of the body.

use super::body::{Body, BodyKind};
use super::sleep::UnionFind;
use crate::math::{Rot, Vec2};

/// Velocity and inverse mass of a body during a step.
///
/// `repr(C)`: the lane kernels read and write the first four values (`v`,
/// `w`, `inv_mass`) as one row of contiguous floats.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(crate) struct SolverBody {
    pub v: Vec2,
    pub w: f32,
    pub inv_mass: f32,
    pub inv_inertia: f32,
}

impl SolverBody {
    /// Whether impulses can change this body's velocity. Bodies with zero
    /// inverse mass and inertia (static, kinematic, not moving this step) are
    /// never written by the contact passes, so one shared static body is never
    /// touched.
    #[inline]
    pub fn responds(&self) -> bool {
        self.inv_mass > 0.0 || self.inv_inertia > 0.0
    }
}

/// Pose change of a body since the step began.
///
/// `repr(C)`: the lane kernels read and write it as one row of contiguous
/// floats.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct SolverPose {
    /// Translation of the centre of mass since the step began.
    pub dp: Vec2,
    /// Rotation since the step began.
    pub dq: Rot,
}

impl Default for SolverPose {
    fn default() -> Self {
        SolverPose {
            dp: Vec2::ZERO,
            dq: Rot::IDENTITY,
        }
    }
}

impl SolverPose {
    /// Integrates the pose over `h` seconds at the body's velocities.
    #[inline]
    pub fn integrate(&self, b: &SolverBody, h: f32) -> SolverPose {
        SolverPose {
            dp: self.dp + h * b.v,
            dq: self.dq.integrate(h * b.w),
        }
    }
}

/// Gravity and damping of one awake dynamic body over one substep `h`,
/// computed once per step (implicit damping: `v ← (v + h·s·g) / (1 + h·c)`,
/// stable for any damping).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Integration {
    /// The body's slot.
    pub body: u32,
    /// Velocity change from gravity: `h · gravity_scale · g`.
    dv: Vec2,
    /// `1 + h · linear_damping`.
    linear: f32,
    /// `1 + h · angular_damping`.
    angular: f32,
    /// Whether the body flies free this step (no contact point, no joint):
    /// its position then follows the exact parabola (see [`Self::drift`]).
    pub free: bool,
}

impl Integration {
    pub fn new(
        body: u32,
        h: f32,
        gravity: Vec2,
        gravity_scale: f32,
        linear_damping: f32,
        angular_damping: f32,
    ) -> Integration {
        Integration {
            body,
            dv: h * gravity_scale * gravity,
            linear: 1.0 + h * linear_damping,
            angular: 1.0 + h * angular_damping,
            free: false,
        }
    }

    /// The position correction, after `x += h·v`, that makes a free,
    /// undamped body's substep exact under uniform gravity:
    /// `x += h·(v₀ + v₁)/2` rather than `h·v₁`, so `−h·dv/2`. Without it
    /// semi-implicit Euler takes `½·g²·h²` of energy per substep from every
    /// falling body (a ball bouncing for 10 s loses 4 %, and rebounds fall
    /// short by `v·h/2`). Bodies held by contacts or joints keep plain
    /// semi-implicit Euler, which the solver's resting equilibrium relies on.
    #[inline]
    pub fn drift(&self, h: f32) -> Option<Vec2> {
        (self.free && self.linear == 1.0 && self.dv != Vec2::ZERO).then(|| -0.5 * h * self.dv)
    }

    /// One substep of gravity and damping. An undamped body skips the
    /// divisions by 1, which change no bit (most bodies: about 1 % of
    /// `large_pyramid`'s step went to them).
    #[inline]
    pub fn apply(&self, b: &mut SolverBody) {
        b.v += self.dv;
        if self.linear != 1.0 {
            b.v /= self.linear;
        }
        if self.angular != 1.0 {
            b.w /= self.angular;
        }
    }
}

/// Removes the part of each moving body's velocity that the substep's
/// position passes just moved it against: `before` holds the bodies'
/// translations (in `moving` order) before the passes.
///
/// A body whose passes moved it by `d` while its velocity `v` points against
/// `d` was held back: a contact or a joint would not let it go where `v`
/// takes it. Left alone, that velocity survives every substep (the passes
/// change poses, not velocities), and a body wedged in a jam, or a column
/// of boxes pressed together by its own ringing, keeps moving in the velocity
/// pass and going nowhere, which feeds the next fight. The component of `v`
/// along `d` is reduced by at most `|d| / h`, the speed of the correction
/// itself, and never past zero: velocity is only removed, never added or
/// turned round, so no energy comes from it. Position-based dynamics sets
/// the velocity to the whole correction over `h` (pushing bodies apart
/// at that speed); this keeps only the half of that rule that slows.
///
/// The step passes only the bodies of islands anchored to the world (see
/// [`Anchors`]): in an island that floats free nothing holds a body back,
/// and the removal, which is not equal and opposite, would destroy momentum.
///
/// Translation only. Removing spin as well (alone, or with translation in the
/// bodies' mass metric) let more ragdoll piles sleep, but set a still,
/// loaded chain wobbling or left some random piles turning for good (see
/// `docs/2026-11-27-velocity-held-back.md`).
pub(crate) fn drop_resisted_velocity(
    bodies: &mut [SolverBody],
    poses: &[SolverPose],
    moving: &[u32],
    before: &[Vec2],
    inv_h: f32,
) {
    for (&i, &p0) in moving.iter().zip(before) {
        let d = poses[i as usize].dp - p0;
        let b = &mut bodies[i as usize];
        let along = b.v.dot(d);
        if along < 0.0 {
            // A correction too small for its length to be represented
            // (under about 1e-19 m) is left alone, not divided by zero.
            let len = d.length();
            if len > 0.0 {
                let removed = (-along / len).min(len * inv_h);
                b.v += removed * (d / len);
            }
        }
    }
}

/// Which bodies belong to an island anchored to the world this step: linked
/// through contacts and joints to a static or kinematic body, a joint to
/// the world frame, or the sandbox's drag.
///
/// Only such a body can be held back (see [`drop_resisted_velocity`]). In
/// an island that floats free, every correction of the position passes
/// moves its two bodies apart by equal and opposite amounts of momentum:
/// nothing holds a body back, and removing its velocity along its own
/// correction would destroy momentum (a 512 kg box at 40 m/s into loose
/// boxes in zero gravity, Box2D's `smash`, lost 97 % of it). A sleeping
/// body anchors nothing: every contact point a moving body has with a
/// sleeping one wakes it before the solve (see `World::collide`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Anchors {
    islands: UnionFind,
    /// Bodies found anchored before the unions were all made.
    found: Vec<u32>,
    /// Per island root, after [`Anchors::finish`].
    anchored: Vec<bool>,
}

impl Anchors {
    /// Starts a step of `n` body slots, none linked.
    pub fn begin(&mut self, n: usize) {
        self.islands.reset(n);
        self.found.clear();
        self.anchored.clear();
    }

    /// A contact or joint between two bodies that both respond.
    pub fn link(&mut self, a: u32, b: u32) {
        self.islands.union(a, b);
    }

    /// A contact or joint that ties `body` to the world.
    pub fn anchor(&mut self, body: u32) {
        self.found.push(body);
    }

    /// Resolves the anchors found to their islands (after every link).
    pub fn finish(&mut self) {
        self.anchored.resize(self.islands.len(), false);
        for i in 0..self.found.len() {
            let root = self.islands.find(self.found[i]);
            self.anchored[root as usize] = true;
        }
    }

    /// Whether `body`'s island is anchored (after [`Anchors::finish`]).
    pub fn anchored(&mut self, body: u32) -> bool {
        let root = self.islands.find(body);
        self.anchored[root as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// Against a graph search: a body is anchored when a path of links
    /// leads from it to a body that was anchored, in whatever order the
    /// links and anchors came.
    #[test]
    fn anchored_islands_match_a_graph_search() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(15);
        let mut anchors = Anchors::default();
        let (mut some, mut none) = (0, 0);
        for _ in 0..500 {
            let n = rng.random_range(1..40usize);
            anchors.begin(n);
            let mut adjacent = vec![Vec::new(); n];
            let mut start = vec![false; n];
            for _ in 0..rng.random_range(0..2 * n) {
                if rng.random_bool(0.1) {
                    let x = rng.random_range(0..n);
                    anchors.anchor(x as u32);
                    start[x] = true;
                } else {
                    let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
                    anchors.link(a as u32, b as u32);
                    adjacent[a].push(b);
                    adjacent[b].push(a);
                }
            }
            anchors.finish();
            let mut reached = start.clone();
            let mut queue: Vec<usize> = (0..n).filter(|&i| start[i]).collect();
            while let Some(i) = queue.pop() {
                for &j in &adjacent[i] {
                    if !reached[j] {
                        reached[j] = true;
                        queue.push(j);
                    }
                }
            }
            for (i, &r) in reached.iter().enumerate() {
                assert_eq!(anchors.anchored(i as u32), r, "body {i} of {n}");
                some += r as u32;
                none += !r as u32;
            }
        }
        assert!(some > 1000 && none > 1000, "{some} anchored, {none} free");
    }

    fn moved(v: Vec2, d: Vec2, h: f32) -> Vec2 {
        let mut bodies = [SolverBody {
            v,
            w: 0.7,
            inv_mass: 1.0,
            inv_inertia: 1.0,
        }];
        let poses = [SolverPose {
            dp: d,
            dq: Rot::IDENTITY,
        }];
        drop_resisted_velocity(&mut bodies, &poses, &[0], &[Vec2::ZERO], 1.0 / h);
        assert_eq!(bodies[0].w, 0.7, "the spin is left alone");
        bodies[0].v
    }

    #[test]
    fn held_back_velocity_is_removed_up_to_the_corrections_speed() {
        let h = 0.01;
        // Falling at 1 m/s, pushed up 2 mm: 0.2 m/s of the fall removed.
        let v = moved(Vec2::new(0.5, -1.0), Vec2::new(0.0, 0.002), h);
        assert!((v - Vec2::new(0.5, -0.8)).length() < 1e-6, "{v}");
        // Pushed up 2 cm: the whole fall removed, never turned into a rise.
        let v = moved(Vec2::new(0.5, -1.0), Vec2::new(0.0, 0.02), h);
        assert!((v - Vec2::new(0.5, 0.0)).length() < 1e-6, "{v}");
        // Pushed along the motion, across it, or not at all: unchanged.
        // A correction whose length underflows (1e-25 m squared is 0 in f32).
        for d in [
            Vec2::new(0.0, -0.01),
            Vec2::new(0.01, 0.0),
            Vec2::ZERO,
            Vec2::new(0.0, 1e-25),
        ] {
            let v = moved(Vec2::new(0.0, -1.0), d, h);
            assert_eq!(v, Vec2::new(0.0, -1.0), "{d}");
        }
    }

    #[test]
    fn velocity_is_only_ever_slowed_along_the_correction() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let h = 1.0 / 240.0;
        for _ in 0..10_000 {
            let mut r = |s: f32| Vec2::new(rng.random_range(-s..s), rng.random_range(-s..s));
            let (v0, d) = (r(5.0), r(0.02));
            let v = moved(v0, d, h);
            // Kinetic energy never grows; the change lies along d, against
            // the motion, at most |d| / h, and v never turns round along d.
            assert!(v.length_squared() <= v0.length_squared() * (1.0 + 1e-6) + 1e-12);
            let dv = v - v0;
            assert!(dv.perp_dot(d).abs() <= 1e-5 * (1.0 + dv.length() * d.length()));
            assert!(dv.dot(d) >= -1e-9);
            assert!(dv.length() <= d.length() / h * (1.0 + 1e-5) + 1e-6);
            if v0.dot(d) < 0.0 {
                assert!(v.dot(d) <= 1e-5 * d.length() * (1.0 + v0.length()));
            } else {
                assert_eq!(v, v0);
            }
        }
    }
}

/// What the contact loop and the constraint build read of a body slot
/// (beside its step-start centre, which the solve keeps anyway), gathered
/// into one small array at the start of the solve, so that the loop over
/// the touching contacts reads neither the bodies nor their slots.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SlotFacts {
    /// The slot holds a body.
    pub live: bool,
    pub frozen: bool,
    /// Awake, not frozen, dynamic.
    pub active: bool,
    /// Dynamic and asleep (not frozen).
    pub sleeping: bool,
    /// The gravity scale, 0 for a body that is not dynamic.
    pub gravity: f32,
}

impl SlotFacts {
    /// The facts of a slot holding `body` (`None`: an empty slot).
    pub fn of(body: Option<&Body>) -> SlotFacts {
        body.map_or(SlotFacts::default(), |b| {
            let dynamic = b.kind == BodyKind::Dynamic;
            SlotFacts {
                live: true,
                frozen: b.frozen,
                active: b.awake && !b.frozen && dynamic,
                sleeping: !b.awake && !b.frozen && dynamic,
                gravity: if dynamic { b.gravity_scale } else { 0.0 },
            }
        })
    }
}
