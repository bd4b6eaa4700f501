//! The pair kernels: exact routines for the shape pairs that have one. Which
//! kernel answers which pair is decided in one place, `narrowphase/dispatch.rs`.

pub(crate) mod chain;
pub(crate) mod circle;
pub(crate) mod ellipse;
pub(crate) mod polygon;
pub(crate) mod polygon_manifold;
pub(crate) mod rounded;

use crate::geometry::gjk::Closest;
use crate::math::Vec2;

/// Closest points of two rounded shapes from their cores' closest points (world
/// frame): `core` apart, `ca` on A's core, `cb` on B's core, `normal` A→B.
pub(crate) fn rounded_closest(
    core: f32,
    ra: f32,
    ca: Vec2,
    normal: Vec2,
    cb: Vec2,
    rb: f32,
) -> Option<Closest> {
    let distance = core - ra - rb;
    if !(core > 0.0 && distance > 0.0 && distance.is_finite()) {
        return None;
    }
    Some(Closest {
        distance,
        point_a: ca + ra * normal,
        point_b: cb - rb * normal,
        normal,
    })
}

#[cfg(test)]
mod tests;
