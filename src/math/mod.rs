//! Small math layer over glam: rotations stored as (cos, sin), rigid transforms,
//! and the 2D cross products that rigid-body code needs everywhere.
//!
//! Trigonometry goes through `libm` so that results are bit-identical on every
//! platform and in every build profile (see the determinism section of the README).

mod aabb;

pub use aabb::{Aabb, AabbRayHit};

use serde::{Deserialize, Serialize};

pub use glam::Vec2;

/// 2D cross product of two vectors: `a.x * b.y - a.y * b.x` (a scalar, the z of the 3D cross).
#[inline]
pub fn cross(a: Vec2, b: Vec2) -> f32 {
    a.x * b.y - a.y * b.x
}

/// Cross product of a scalar (an angular quantity about z) with a vector: `s × v = (-s·v.y, s·v.x)`.
#[inline]
pub fn cross_sv(s: f32, v: Vec2) -> Vec2 {
    Vec2::new(-s * v.y, s * v.x)
}

/// `true` when every component is finite.
#[inline]
pub fn is_finite_vec(v: Vec2) -> bool {
    v.x.is_finite() && v.y.is_finite()
}

/// A rotation in the plane, stored as the cosine and sine of its angle (unit length).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[repr(C)]
pub struct Rot {
    /// Cosine of the angle.
    pub cos: f32,
    /// Sine of the angle.
    pub sin: f32,
}

impl Default for Rot {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Rot {
    /// The zero rotation.
    pub const IDENTITY: Rot = Rot { cos: 1.0, sin: 0.0 };

    /// Rotation by `angle` radians (counter-clockwise), computed with `libm`.
    #[inline]
    pub fn from_angle(angle: f32) -> Rot {
        let (sin, cos) = libm::sincosf(angle);
        Rot { cos, sin }
    }

    /// The angle in radians, in (-π, π].
    #[inline]
    pub fn angle(self) -> f32 {
        libm::atan2f(self.sin, self.cos)
    }

    /// Rotates `v`.
    #[inline]
    pub fn apply(self, v: Vec2) -> Vec2 {
        Vec2::new(
            self.cos * v.x - self.sin * v.y,
            self.sin * v.x + self.cos * v.y,
        )
    }

    /// Rotates `v` by the inverse rotation.
    #[inline]
    pub fn apply_inv(self, v: Vec2) -> Vec2 {
        Vec2::new(
            self.cos * v.x + self.sin * v.y,
            -self.sin * v.x + self.cos * v.y,
        )
    }

    /// `self⁻¹ ∘ other`: `other` expressed relative to `self`.
    #[inline]
    pub fn inv_mul(self, other: Rot) -> Rot {
        Rot {
            cos: self.cos * other.cos + self.sin * other.sin,
            sin: self.cos * other.sin - self.sin * other.cos,
        }
    }

    /// Advances the rotation by a small angle `dangle` (rad) and renormalises,
    /// as in Box2D v3: `q' = normalize(q + dangle · q⊥)`. Exact to first order and
    /// cheaper than `from_angle(angle + dangle)`; keeps the rotation unit length.
    #[inline]
    pub fn integrate(self, dangle: f32) -> Rot {
        let c = self.cos - dangle * self.sin;
        let s = self.sin + dangle * self.cos;
        let mag = (c * c + s * s).sqrt();
        let inv = if mag > 0.0 { 1.0 / mag } else { 0.0 };
        Rot {
            cos: c * inv,
            sin: s * inv,
        }
    }
}

/// Composition `a * b` (apply `b` first).
impl std::ops::Mul for Rot {
    type Output = Rot;
    #[inline]
    fn mul(self, other: Rot) -> Rot {
        Rot {
            cos: self.cos * other.cos - self.sin * other.sin,
            sin: self.sin * other.cos + self.cos * other.sin,
        }
    }
}

/// A rigid transform (isometry): `world = rot · local + translation`.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Iso {
    /// Translation in metres.
    pub translation: Vec2,
    /// Rotation.
    pub rot: Rot,
}

impl Iso {
    /// The identity transform.
    pub const IDENTITY: Iso = Iso {
        translation: Vec2::ZERO,
        rot: Rot::IDENTITY,
    };

    /// Transform with the given translation (m) and angle (rad, counter-clockwise).
    ///
    /// ```
    /// use minkowski::{Iso, Vec2};
    /// let x = Iso::new(Vec2::new(1.0, 0.0), std::f32::consts::FRAC_PI_2);
    /// let p = x.apply(Vec2::new(1.0, 0.0));
    /// assert!((p - Vec2::new(1.0, 1.0)).length() < 1e-6);
    /// ```
    #[inline]
    pub fn new(translation: Vec2, angle: f32) -> Iso {
        Iso {
            translation,
            rot: Rot::from_angle(angle),
        }
    }

    /// Transform from a translation and a rotation.
    #[inline]
    pub fn from_parts(translation: Vec2, rot: Rot) -> Iso {
        Iso { translation, rot }
    }

    /// Maps a local point to world space.
    #[inline]
    pub fn apply(&self, p: Vec2) -> Vec2 {
        self.rot.apply(p) + self.translation
    }

    /// Maps a world point to local space.
    #[inline]
    pub fn apply_inv(&self, p: Vec2) -> Vec2 {
        self.rot.apply_inv(p - self.translation)
    }

    /// `self ∘ other`.
    #[inline]
    pub fn mul(&self, other: &Iso) -> Iso {
        Iso {
            translation: self.rot.apply(other.translation) + self.translation,
            rot: self.rot * other.rot,
        }
    }

    /// `self⁻¹ ∘ other`: the frame `other` expressed in the frame `self`.
    /// Narrowphase queries run in A's frame with `xa.inv_mul(xb)`.
    #[inline]
    pub fn inv_mul(&self, other: &Iso) -> Iso {
        Iso {
            translation: self.rot.apply_inv(other.translation - self.translation),
            rot: self.rot.inv_mul(other.rot),
        }
    }

    /// `true` when all four numbers are finite.
    pub fn is_finite(&self) -> bool {
        is_finite_vec(self.translation) && self.rot.cos.is_finite() && self.rot.sin.is_finite()
    }
}

/// Asks the CPU to bring the cache line holding `x` into every cache level,
/// without waiting for it: a hint for a load that comes soon and would
/// miss. Nothing computed reads it, so results cannot change; where the
/// target has no such instruction it does nothing.
#[inline(always)]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        target_feature = "sse"
    ))]
    safe_arch::prefetch_t0(x);
    #[cfg(not(all(
        any(target_arch = "x86", target_arch = "x86_64"),
        target_feature = "sse"
    )))]
    let _ = x;
}

/// `v.partition_point(before)` (`before` true on a prefix of `v`), searched
/// outward from `from`: exponentially growing steps, then a binary search
/// within the last one. Cheap where the answer is near `from`: sorted
/// probes met in order (the broadphase's windows, the contact list's merge).
#[inline]
pub(crate) fn gallop<T>(v: &[T], from: usize, before: impl Fn(&T) -> bool) -> usize {
    let n = v.len();
    let from = from.min(n);
    // The answer is in `lo..=hi`.
    let (mut lo, mut hi) = (0, n);
    let mut step = 1;
    if from < n && before(&v[from]) {
        lo = from + 1;
        while lo + step <= n {
            if !before(&v[lo + step - 1]) {
                hi = lo + step - 1;
                break;
            }
            lo += step;
            step *= 2;
        }
    } else {
        hi = from;
        while hi >= step {
            if before(&v[hi - step]) {
                lo = hi - step + 1;
                break;
            }
            hi -= step;
            step *= 2;
        }
    }
    lo + v[lo..hi].partition_point(before)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inv_mul_round_trips() {
        let a = Iso::new(Vec2::new(1.0, -2.0), 0.7);
        let b = Iso::new(Vec2::new(-3.0, 0.5), -1.9);
        let rel = a.inv_mul(&b);
        let back = a.mul(&rel);
        assert!((back.translation - b.translation).length() < 1e-6);
        assert!((back.rot.angle() - b.rot.angle()).abs() < 1e-6);
        let p = Vec2::new(0.3, 0.9);
        assert!((a.apply_inv(a.apply(p)) - p).length() < 1e-6);
    }

    #[test]
    fn integrate_matches_small_rotation() {
        let r = Rot::from_angle(0.4).integrate(1e-3);
        assert!((r.angle() - 0.401).abs() < 1e-6);
        assert!((r.cos * r.cos + r.sin * r.sin - 1.0).abs() < 1e-6);
    }

    /// The galloping search returns the plain binary search's index from
    /// every start, on sorted keys with repeats, empty and at the ends.
    #[test]
    fn gallop_matches_partition_point_from_any_start() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
        for _ in 0..500 {
            let n = rng.random_range(0..70usize);
            let mut keys: Vec<(u32, u32)> = (0..n)
                .map(|_| (rng.random_range(0..12u32), rng.random_range(0..5u32)))
                .collect();
            keys.sort_unstable();
            let key = (rng.random_range(0..14u32), rng.random_range(0..5u32));
            let want = keys.partition_point(|&k| k < key);
            for from in 0..=n + 2 {
                assert_eq!(
                    gallop(&keys, from, |&k| k < key),
                    want,
                    "{keys:?} {key:?} {from}"
                );
            }
        }
    }
}
