//! Checks of a joint definition's numbers, before it reaches the solver:
//! everything finite, lengths and frequencies non-negative, bounds ordered,
//! axes non-zero. The checks that need the bodies (both exist, not the same
//! body, not both static) are the world's.

use super::def::{JointDef, JointKind, Limits, Motor, Spring};
use crate::dynamics::BodyId;
use crate::math::Vec2;
use thiserror::Error;

/// Why a joint could not be made.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum JointError {
    /// A number is NaN or infinite.
    #[error("{field} must be finite, got {value}")]
    NonFinite {
        /// Which field.
        field: &'static str,
        /// The value given.
        value: f32,
    },
    /// A number is out of its range.
    #[error("{field} must be {expected}, got {value}")]
    OutOfRange {
        /// Which field.
        field: &'static str,
        /// What was expected.
        expected: &'static str,
        /// The value given.
        value: f32,
    },
    /// A lower bound above its upper bound.
    #[error("{what}: lower bound {lower} is above upper bound {upper}")]
    MinAboveMax {
        /// Which bounds.
        what: &'static str,
        /// Lower bound.
        lower: f32,
        /// Upper bound.
        upper: f32,
    },
    /// A slider or wheel axis of zero length.
    #[error("the axis must not be zero")]
    ZeroAxis,
    /// A joint from a body to itself.
    #[error("a joint needs two different bodies; both are {0}")]
    SelfJoint(BodyId),
    /// A joint between two bodies that cannot move (static, or the world).
    #[error("a joint needs a body that can move; both ends are static")]
    BothStatic,
    /// A handle that names no live body.
    #[error("no body {0}")]
    NoSuchBody(BodyId),
}

fn finite(field: &'static str, value: f32) -> Result<f32, JointError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(JointError::NonFinite { field, value })
    }
}

fn non_negative(field: &'static str, value: f32) -> Result<f32, JointError> {
    if finite(field, value)? >= 0.0 {
        Ok(value)
    } else {
        Err(JointError::OutOfRange {
            field,
            expected: "≥ 0",
            value,
        })
    }
}

fn vec(field: &'static str, v: Vec2) -> Result<Vec2, JointError> {
    finite(field, v.x)?;
    finite(field, v.y)?;
    Ok(v)
}

fn spring(s: &Option<Spring>) -> Result<(), JointError> {
    if let Some(s) = s {
        non_negative("spring hertz", s.hertz)?;
        non_negative("spring damping ratio", s.damping_ratio)?;
    }
    Ok(())
}

fn motor(m: &Option<Motor>) -> Result<(), JointError> {
    if let Some(m) = m {
        finite("motor speed", m.speed)?;
        non_negative("motor max effort", m.max_effort)?;
    }
    Ok(())
}

fn limits(what: &'static str, l: &Option<Limits>) -> Result<(), JointError> {
    if let Some(l) = l {
        finite(what, l.lower)?;
        finite(what, l.upper)?;
        if l.lower > l.upper {
            return Err(JointError::MinAboveMax {
                what,
                lower: l.lower,
                upper: l.upper,
            });
        }
    }
    Ok(())
}

fn angle_limits(l: &Option<Limits>) -> Result<(), JointError> {
    limits("angle limits", l)?;
    if let Some(l) = l {
        let pi = std::f32::consts::PI;
        for v in [l.lower, l.upper] {
            if v <= -pi || v >= pi {
                return Err(JointError::OutOfRange {
                    field: "angle limits",
                    expected: "within (−π, π)",
                    value: v,
                });
            }
        }
    }
    Ok(())
}

fn axis(a: Vec2) -> Result<(), JointError> {
    vec("axis", a)?;
    if a.length_squared() > 1e-12 {
        Ok(())
    } else {
        Err(JointError::ZeroAxis)
    }
}

impl JointDef {
    /// Checks the definition's numbers (see the module docs).
    pub fn validate(&self) -> Result<(), JointError> {
        vec("anchor_a", self.local_anchor_a)?;
        vec("anchor_b", self.local_anchor_b)?;
        if let Some(f) = self.break_force {
            non_negative("break_force", f)?;
        }
        if let Some(t) = self.break_torque {
            non_negative("break_torque", t)?;
        }
        match &self.kind {
            JointKind::Revolute(r) => {
                finite("reference_angle", r.reference_angle)?;
                angle_limits(&r.limits)?;
                motor(&r.motor)?;
                spring(&r.spring)
            }
            JointKind::Prismatic(p) => {
                axis(p.axis)?;
                finite("reference_angle", p.reference_angle)?;
                limits("translation limits", &p.limits)?;
                motor(&p.motor)?;
                spring(&p.spring)
            }
            JointKind::Distance(d) => {
                non_negative("length", d.length)?;
                non_negative("min_length", d.min_length)?;
                if d.max_length != f32::MAX {
                    non_negative("max_length", d.max_length)?;
                }
                if d.min_length > d.max_length {
                    return Err(JointError::MinAboveMax {
                        what: "length",
                        lower: d.min_length,
                        upper: d.max_length,
                    });
                }
                spring(&d.spring)
            }
            JointKind::Weld(w) => {
                finite("reference_angle", w.reference_angle)?;
                spring(&w.linear)?;
                spring(&w.angular)
            }
            JointKind::Wheel(w) => {
                axis(w.axis)?;
                limits("suspension limits", &w.limits)?;
                motor(&w.motor)?;
                spring(&w.spring)
            }
            JointKind::Motor(m) => {
                vec("linear_offset", m.linear_offset)?;
                finite("angular_offset", m.angular_offset)?;
                non_negative("max_force", m.max_force)?;
                non_negative("max_torque", m.max_torque)?;
                let c = finite("correction", m.correction)?;
                if !(0.0..=1.0).contains(&c) {
                    return Err(JointError::OutOfRange {
                        field: "correction",
                        expected: "between 0 and 1",
                        value: c,
                    });
                }
                Ok(())
            }
            JointKind::Mouse(m) => {
                vec("target", m.target)?;
                spring(&Some(m.spring))?;
                non_negative("max_force", m.max_force).map(|_| ())
            }
        }
    }
}
