//! Checks of a body definition at the world's boundary: every number finite
//! and sane, every shape valid, at least one shape and not too many.

use crate::dynamics::{BodyDef, BodyId, Material};
use crate::shape::ShapeError;
use thiserror::Error;

/// Largest coordinate accepted for a body position (m).
pub const MAX_POSITION: f32 = 1.0e6;

/// Most shapes one body may have.
pub const MAX_SHAPES: usize = 4096;

/// Why a body could not be added or changed.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum BodyError {
    /// The shape is invalid.
    #[error("invalid shape: {0}")]
    Shape(#[from] ShapeError),
    /// A number is NaN, infinite or out of range.
    #[error("{field} must be {expected}, got {value}")]
    BadValue {
        /// Which field.
        field: &'static str,
        /// What was expected.
        expected: &'static str,
        /// The value given.
        value: f32,
    },
    /// A body needs at least one shape.
    #[error("a body needs at least one shape")]
    NoShapes,
    /// A dynamic body whose shapes all lack area (segments, chains) would
    /// have no mass.
    #[error("a dynamic body needs a shape with area (segments and chains have none): make it static or kinematic, or add such a shape")]
    NoArea,
    /// More shapes than [`MAX_SHAPES`].
    #[error("a body may have at most {MAX_SHAPES} shapes, got {0}")]
    TooManyShapes(usize),
    /// The handle does not name a live body.
    #[error("no body {0}")]
    NoSuchBody(BodyId),
}

pub(crate) fn check(
    field: &'static str,
    value: f32,
    lo: f32,
    hi: f32,
    expected: &'static str,
) -> Result<(), BodyError> {
    if value.is_finite() && value >= lo && value <= hi {
        Ok(())
    } else {
        Err(BodyError::BadValue {
            field,
            expected,
            value,
        })
    }
}

/// Validates a body definition at the boundary: every number finite and sane.
pub fn validate_body_def(def: &BodyDef) -> Result<(), BodyError> {
    if def.shapes.is_empty() {
        return Err(BodyError::NoShapes);
    }
    if def.shapes.len() > MAX_SHAPES {
        return Err(BodyError::TooManyShapes(def.shapes.len()));
    }
    for s in &def.shapes {
        s.shape.validate()?;
        check_pos("shape offset.x", s.offset.x)?;
        check_pos("shape offset.y", s.offset.y)?;
        check("shape angle", s.angle, -1.0e4, 1.0e4, "finite (rad)")?;
        check_material(&s.material)?;
    }
    if def.kind == crate::dynamics::BodyKind::Dynamic
        && !def.shapes.iter().any(|s| s.shape.has_area())
    {
        return Err(BodyError::NoArea);
    }
    let pos = "finite and within ±1e6 m";
    check(
        "position.x",
        def.position.x,
        -MAX_POSITION,
        MAX_POSITION,
        pos,
    )?;
    check(
        "position.y",
        def.position.y,
        -MAX_POSITION,
        MAX_POSITION,
        pos,
    )?;
    check("angle", def.angle, -1.0e4, 1.0e4, "finite (rad)")?;
    let speed = "finite and within ±1e4 m/s";
    check("velocity.x", def.linear_velocity.x, -1.0e4, 1.0e4, speed)?;
    check("velocity.y", def.linear_velocity.y, -1.0e4, 1.0e4, speed)?;
    check(
        "angular_velocity",
        def.angular_velocity,
        -1.0e4,
        1.0e4,
        "finite and within ±1e4 rad/s",
    )?;
    check(
        "linear_damping",
        def.linear_damping,
        0.0,
        1.0e3,
        "between 0 and 1000 (1/s)",
    )?;
    check(
        "angular_damping",
        def.angular_damping,
        0.0,
        1.0e3,
        "between 0 and 1000 (1/s)",
    )?;
    check(
        "gravity_scale",
        def.gravity_scale,
        -100.0,
        100.0,
        "finite, within ±100",
    )?;
    if let Some(v) = def.sleep_threshold {
        check("sleep_threshold", v, 0.0, 1.0e3, "between 0 and 1000 m/s")?;
    }
    Ok(())
}

fn check_pos(field: &'static str, v: f32) -> Result<(), BodyError> {
    check(
        field,
        v,
        -MAX_POSITION,
        MAX_POSITION,
        "finite and within ±1e6 m",
    )
}

fn check_material(m: &Material) -> Result<(), BodyError> {
    check(
        "density",
        m.density,
        f32::MIN_POSITIVE,
        1.0e6,
        "> 0 and at most 1e6 kg/m²",
    )?;
    check("friction", m.friction, 0.0, 100.0, "between 0 and 100")?;
    check("restitution", m.restitution, 0.0, 1.0, "between 0 and 1")?;
    Ok(())
}
