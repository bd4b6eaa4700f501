//! Lane arithmetic for the contact passes: one lane per constraint of a
//! bundle of independent constraints (see `schedule`): eight lanes in a
//! build that targets AVX2, four otherwise. The project builds for the CPU
//! that compiles it (`.cargo/config.toml`), so eight wherever the CPU has
//! AVX2. On the project's machine (AMD EPYC, AVX-512) eight lanes took
//! 10–19 % off Box2D's large pyramid and 3–10 % off joint_grid, tumbler,
//! rain and spinner, and cost compounds 2–7 %
//! (docs/2026-11-28-eight-lanes-by-default.md; an earlier build measured
//! otherwise, docs/2026-11-27-lanes-eight-and-four.md).
//!
//! Every operation here is the lane-wise twin of the scalar one the solver
//! uses (`glam::Vec2`, `math::cross`, `Rot::apply`, `Rot::integrate`), with
//! the same operands in the same order and no fused multiply–add. IEEE 754
//! rounds each lane's `+ - * /` and square root exactly as it rounds the
//! scalar operation, so a bundle solved in lanes gives the same bits as its
//! constraints solved one by one, whatever the width: the schedule's levels
//! do not depend on it, only how they are cut into bundles.
//!
//! The lanes are `wide::f32x8` (AVX) or `wide::f32x4` (SSE2 on x86-64,
//! SIMD128 on wasm, NEON on aarch64, plain arrays elsewhere); all safe code.
//! Bodies and poses are loaded and stored four lanes at a time (one 4×4
//! transpose per quarter of the lanes), and the quarters joined into a lane
//! vector.

use super::solver_body::{SolverBody, SolverPose};
use crate::math::Vec2;
use std::ops::{Add, Mul, Neg, Sub};
use wide::f32x4;

/// The lanes: eight where the build targets AVX2.
#[cfg(target_feature = "avx2")]
pub(crate) type F = wide::f32x8;
/// The lanes: four without AVX2.
#[cfg(not(target_feature = "avx2"))]
pub(crate) type F = f32x4;

/// Integer lanes as wide as [`F`], for lane masks.
#[cfg(target_feature = "avx2")]
type I = wide::i32x8;
#[cfg(not(target_feature = "avx2"))]
type I = wide::i32x4;

/// Lanes per bundle.
pub(crate) const LANES: usize = std::mem::size_of::<F>() / 4;

/// Groups of four lanes in a lane vector.
const QUADS: usize = LANES / 4;

/// The lane mask of the first `fill` lanes.
#[inline(always)]
pub(crate) const fn lanes_mask(fill: u8) -> u8 {
    ((1u16 << fill) - 1) as u8
}

/// All ones in the lanes of `bits` (bit `l` for lane `l`), zero elsewhere:
/// a mask for [`select`], made in three lane operations.
#[inline(always)]
pub(crate) fn bits_mask(bits: u8) -> F {
    let lane = I::new(std::array::from_fn(|l| 1 << l));
    bytemuck::cast((I::splat(bits as i32) & lane).simd_eq(lane))
}

/// A lane vector from its quarters (lanes 0–3 first).
#[inline(always)]
fn join(q: [f32x4; QUADS]) -> F {
    bytemuck::cast(q)
}

/// A lane vector's quarters (lanes 0–3 first).
#[inline(always)]
fn split(x: F) -> [f32x4; QUADS] {
    bytemuck::cast(x)
}

/// Lane-wise `if mask { a } else { b }` (mask lanes all ones or all zeros).
#[inline(always)]
pub(crate) fn select(mask: F, a: F, b: F) -> F {
    mask.select(a, b)
}

/// Lane masks of the comparisons (all ones where true).
#[inline(always)]
pub(crate) fn gt(a: F, b: F) -> F {
    a.simd_gt(b)
}
#[inline(always)]
pub(crate) fn ge(a: F, b: F) -> F {
    a.simd_ge(b)
}
#[inline(always)]
pub(crate) fn lt(a: F, b: F) -> F {
    a.simd_lt(b)
}
#[inline(always)]
pub(crate) fn le(a: F, b: F) -> F {
    a.simd_le(b)
}

/// `f32::clamp` lane-wise, in its order of tests (`x < lo` first, then
/// `x > hi`), so that signed zeros and NaN come out as the scalar's.
#[inline(always)]
pub(crate) fn clamp(x: F, lo: F, hi: F) -> F {
    // SSE's and AVX's `maxps(a, b)` are `a > b ? a : b` and `minps(a, b)` is
    // `a < b ? a : b`: `maxps(lo, x)` is exactly `x < lo ? lo : x`, and
    // `minps(hi, y)` exactly `y > hi ? hi : y`. Elsewhere the min and max
    // instructions treat NaN and zeros otherwise, so the tests are spelled out.
    #[cfg(target_feature = "sse")]
    {
        hi.fast_min(lo.fast_max(x))
    }
    #[cfg(not(target_feature = "sse"))]
    {
        let x = select(lt(x, lo), lo, x);
        select(gt(x, hi), hi, x)
    }
}

/// `f32::max` lane-wise for operands that are not NaN: the larger one, and
/// `b` when they compare equal (`a > b ? a : b`, which is SSE's `maxps`).
#[inline(always)]
pub(crate) fn max(a: F, b: F) -> F {
    #[cfg(target_feature = "sse")]
    {
        a.fast_max(b)
    }
    #[cfg(not(target_feature = "sse"))]
    {
        select(gt(a, b), a, b)
    }
}

/// `if x > 0 { 1 / x } else { 0 }` lane-wise.
#[inline(always)]
pub(crate) fn inv_or_zero(x: F) -> F {
    select(gt(x, F::ZERO), F::ONE / x, F::ZERO)
}

/// 2D vectors, one per lane.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct V2 {
    pub x: F,
    pub y: F,
}

impl V2 {
    #[inline(always)]
    pub fn new(x: F, y: F) -> V2 {
        V2 { x, y }
    }

    /// `Vec2::dot`: `x·x' + y·y'`.
    #[inline(always)]
    pub fn dot(self, o: V2) -> F {
        self.x * o.x + self.y * o.y
    }

    /// The lanes where `mask` is set from `a`, the others from `b`.
    #[inline(always)]
    pub fn select(mask: F, a: V2, b: V2) -> V2 {
        V2::new(select(mask, a.x, b.x), select(mask, a.y, b.y))
    }

    /// One lane as a `Vec2`.
    #[inline(always)]
    pub fn lane(&self, l: usize) -> Vec2 {
        Vec2::new(self.x.as_array()[l], self.y.as_array()[l])
    }

    /// Sets one lane.
    #[inline(always)]
    pub fn set_lane(&mut self, l: usize, v: Vec2) {
        self.x.as_mut_array()[l] = v.x;
        self.y.as_mut_array()[l] = v.y;
    }
}

impl Add for V2 {
    type Output = V2;
    #[inline(always)]
    fn add(self, o: V2) -> V2 {
        V2::new(self.x + o.x, self.y + o.y)
    }
}

impl Sub for V2 {
    type Output = V2;
    #[inline(always)]
    fn sub(self, o: V2) -> V2 {
        V2::new(self.x - o.x, self.y - o.y)
    }
}

impl Neg for V2 {
    type Output = V2;
    #[inline(always)]
    fn neg(self) -> V2 {
        V2::new(-self.x, -self.y)
    }
}

/// `s * v`, as `f32 * Vec2`.
impl Mul<V2> for F {
    type Output = V2;
    #[inline(always)]
    fn mul(self, v: V2) -> V2 {
        V2::new(self * v.x, self * v.y)
    }
}

/// `math::cross`: `a.x·b.y - a.y·b.x`.
#[inline(always)]
pub(crate) fn cross(a: V2, b: V2) -> F {
    a.x * b.y - a.y * b.x
}

/// `math::cross_sv`: `(-s·v.y, s·v.x)`.
#[inline(always)]
pub(crate) fn cross_sv(s: F, v: V2) -> V2 {
    V2::new(-s * v.y, s * v.x)
}

/// Rotations (cosine, sine), one per lane, as `math::Rot`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RotW {
    pub cos: F,
    pub sin: F,
}

impl RotW {
    /// `Rot::apply`.
    #[inline(always)]
    pub fn apply(self, v: V2) -> V2 {
        V2::new(
            self.cos * v.x - self.sin * v.y,
            self.sin * v.x + self.cos * v.y,
        )
    }

    /// `Rot::integrate`: turn by `dangle` and renormalise.
    #[inline(always)]
    pub fn integrate(self, dangle: F) -> RotW {
        let c = self.cos - dangle * self.sin;
        let s = self.sin + dangle * self.cos;
        let mag = (c * c + s * s).sqrt();
        let inv = inv_or_zero(mag);
        RotW {
            cos: c * inv,
            sin: s * inv,
        }
    }

    /// The lanes where `mask` is set from `a`, the others from `b`.
    #[inline(always)]
    pub fn select(mask: F, a: RotW, b: RotW) -> RotW {
        RotW {
            cos: select(mask, a.cos, b.cos),
            sin: select(mask, a.sin, b.sin),
        }
    }
}

/// The solver bodies of the lanes: velocities and inverse masses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BodyW {
    pub v: V2,
    pub w: F,
    pub inv_mass: F,
    pub inv_inertia: F,
}

impl BodyW {
    /// Loads the bodies `idx` (one per lane).
    #[inline(always)]
    pub fn gather(bodies: &[SolverBody], idx: &[u32; LANES]) -> BodyW {
        let [vx, vy, w, inv_mass] = gather_rows(idx, |i| {
            let b = &bodies[i as usize];
            f32x4::new([b.v.x, b.v.y, b.w, b.inv_mass])
        });
        BodyW {
            v: V2::new(vx, vy),
            w,
            inv_mass,
            inv_inertia: F::new(idx.map(|i| bodies[i as usize].inv_inertia)),
        }
    }

    /// Loads the velocities of the bodies `idx` (one per lane), with the
    /// inverse masses and inertias the caller keeps (`inv_mass`,
    /// `inv_inertia`: the same values, fixed through the step).
    #[inline(always)]
    pub fn gather_velocities(
        bodies: &[SolverBody],
        idx: &[u32; LANES],
        inv_mass: F,
        inv_inertia: F,
    ) -> BodyW {
        // The row's last value (the inverse mass) is read with the
        // velocities and dropped: four contiguous floats, which the compiler
        // may load at once (it does for some of the gathers, not all).
        let [vx, vy, w, _] = gather_rows(idx, |i| {
            let b = &bodies[i as usize];
            f32x4::new([b.v.x, b.v.y, b.w, b.inv_mass])
        });
        BodyW {
            v: V2::new(vx, vy),
            w,
            inv_mass,
            inv_inertia,
        }
    }

    /// Stores the velocities back into the bodies `idx` of the lanes set in
    /// `writes` (bit `l` for lane `l`): the lanes in use whose bodies respond
    /// to impulses (as the scalar passes: a static or kinematic body shared
    /// by several lanes is never written).
    #[inline(always)]
    pub fn scatter(&self, bodies: &mut [SolverBody], idx: &[u32; LANES], writes: u8) {
        // The inverse masses are stored back unchanged with the velocities
        // (the lanes written hold their bodies' own): four contiguous
        // floats, which the compiler may store at once.
        store_rows(
            bodies,
            [self.v.x, self.v.y, self.w, self.inv_mass],
            idx,
            writes,
            |b, [x, y, w, inv_mass]| {
                b.v = Vec2::new(x, y);
                b.w = w;
                b.inv_mass = inv_mass;
            },
        );
    }
}

impl BodyW {
    /// The lanes where `mask` is set from `a`, the others from `b`
    /// (velocities; the inverse masses are `a`'s).
    #[inline(always)]
    pub fn select(mask: F, a: &BodyW, b: &BodyW) -> BodyW {
        BodyW {
            v: V2::select(mask, a.v, b.v),
            w: select(mask, a.w, b.w),
            ..*a
        }
    }
}

/// Four values of each lane's item, loaded as rows by `row` (one item
/// index each), transposed four lanes at a time into four lane vectors.
#[inline(always)]
fn gather_rows(idx: &[u32; LANES], row: impl Fn(u32) -> f32x4) -> [F; 4] {
    let mut cols = [[f32x4::ZERO; QUADS]; 4];
    for (q, i) in idx.chunks_exact(4).enumerate() {
        let t = f32x4::transpose([row(i[0]), row(i[1]), row(i[2]), row(i[3])]);
        for (col, t) in cols.iter_mut().zip(t) {
            col[q] = t;
        }
    }
    cols.map(join)
}

/// Stores lane `l` of the four lane vectors `cols` (transposed four lanes at
/// a time) into `items[idx[l]]` with `store`, for the lanes set in `writes`.
#[inline(always)]
fn store_rows<T>(
    items: &mut [T],
    cols: [F; 4],
    idx: &[u32; LANES],
    writes: u8,
    store: impl Fn(&mut T, [f32; 4]),
) {
    let cols = cols.map(split);
    for (q, i) in idx.chunks_exact(4).enumerate() {
        let rows = f32x4::transpose([cols[0][q], cols[1][q], cols[2][q], cols[3][q]]);
        let writes = writes >> (4 * q);
        if writes & 0b1111 == 0b1111 {
            for (row, &i) in rows.iter().zip(i) {
                store(&mut items[i as usize], row.to_array());
            }
            continue;
        }
        for (l, (row, &i)) in rows.iter().zip(i).enumerate() {
            if writes & (1 << l) != 0 {
                store(&mut items[i as usize], row.to_array());
            }
        }
    }
}

/// The pose changes of the lanes' bodies.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PoseW {
    pub dp: V2,
    pub dq: RotW,
}

impl PoseW {
    /// Loads the poses of the bodies `idx` (one per lane).
    #[inline(always)]
    pub fn gather(poses: &[SolverPose], idx: &[u32; LANES]) -> PoseW {
        let [x, y, cos, sin] = gather_rows(idx, |i| {
            let q = &poses[i as usize];
            f32x4::new([q.dp.x, q.dp.y, q.dq.cos, q.dq.sin])
        });
        PoseW {
            dp: V2::new(x, y),
            dq: RotW { cos, sin },
        }
    }

    /// Stores the poses back into the bodies `idx` of the lanes set in
    /// `writes` (see [`BodyW::scatter`]).
    #[inline(always)]
    pub fn scatter(&self, poses: &mut [SolverPose], idx: &[u32; LANES], writes: u8) {
        let cols = [self.dp.x, self.dp.y, self.dq.cos, self.dq.sin];
        store_rows(poses, cols, idx, writes, |q, [x, y, cos, sin]| {
            q.dp = Vec2::new(x, y);
            q.dq.cos = cos;
            q.dq.sin = sin;
        });
    }

    /// The lanes where `mask` is set from `a`, the others from `b`.
    #[inline(always)]
    pub fn select(mask: F, a: &PoseW, b: &PoseW) -> PoseW {
        PoseW {
            dp: V2::select(mask, a.dp, b.dp),
            dq: RotW::select(mask, a.dq, b.dq),
        }
    }

    /// Both poses moved by the pseudo-impulse `p` (to B, `−p` to A) at
    /// anchors `ra`, `rb`, with the inverse masses and inertias `a`, `b`:
    /// `Frame::push_linear` and the contact position pass's push in lanes.
    #[inline(always)]
    pub fn pushed(
        qa: &PoseW,
        qb: &PoseW,
        (ma, ia): (F, F),
        (mb, ib): (F, F),
        (ra, rb): (V2, V2),
        p: V2,
    ) -> (PoseW, PoseW) {
        let a = PoseW {
            dp: qa.dp - ma * p,
            dq: qa.dq.integrate(-ia * cross(ra, p)),
        };
        let b = PoseW {
            dp: qb.dp + mb * p,
            dq: qb.dq.integrate(ib * cross(rb, p)),
        };
        (a, b)
    }

    /// `SolverPose::integrate`: the pose after `h` seconds at the bodies'
    /// velocities.
    #[inline(always)]
    pub fn integrate(&self, b: &BodyW, h: F) -> PoseW {
        PoseW {
            dp: self.dp + h * b.v,
            dq: self.dq.integrate(h * b.w),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scalar tests that `clamp` and `max` stand for.
    fn clamp_by_tests(x: f32, lo: f32, hi: f32) -> f32 {
        let x = if x < lo { lo } else { x };
        if x > hi {
            hi
        } else {
            x
        }
    }

    #[test]
    fn bits_mask_sets_the_lanes_of_its_bits() {
        for bits in 0..=lanes_mask(LANES as u8) {
            let mask = bits_mask(bits);
            for l in 0..LANES {
                let want = if bits >> l & 1 == 1 { u32::MAX } else { 0 };
                assert_eq!(mask.as_array()[l].to_bits(), want, "{bits:#b} lane {l}");
            }
            assert_eq!(mask.to_bitmask() as u8, bits);
        }
    }

    #[test]
    fn clamp_and_max_keep_the_scalar_tests_bit_for_bit() {
        // Signed zeros, infinities and NaN, where min and max instructions
        // may differ from the comparisons.
        let values = [
            f32::NAN,
            f32::NEG_INFINITY,
            -1.5,
            -0.0,
            0.0,
            0.25,
            1.5,
            f32::INFINITY,
        ];
        for &x in &values {
            for &lo in &values {
                for &hi in &values {
                    let lanes = clamp(F::splat(x), F::splat(lo), F::splat(hi));
                    let scalar = clamp_by_tests(x, lo, hi);
                    assert_eq!(
                        lanes.as_array()[0].to_bits(),
                        scalar.to_bits(),
                        "clamp({x}, {lo}, {hi})"
                    );
                }
                let m = max(F::splat(x), F::splat(lo));
                let scalar = if x > lo { x } else { lo };
                assert_eq!(
                    m.as_array()[0].to_bits(),
                    scalar.to_bits(),
                    "max({x}, {lo})"
                );
            }
        }
    }
}
