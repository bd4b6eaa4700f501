//! From a joint's scene entry to its definition: world-frame anchors and
//! axes into the bodies' frames, and every number checked (finite, in range,
//! limits ordered) with the field it came from.

use super::*;

/// The end of a joint once resolved: the body and its starting pose.
pub(crate) type End = (BodyId, Iso);

pub(super) fn finite(field: &str, v: f32) -> Result<f32, FieldError> {
    check(field, v, f32::MIN, f32::MAX, "finite")?;
    Ok(v)
}

pub(super) fn finite_vec(field: &str, v: Vec2) -> Result<Vec2, FieldError> {
    check_pos(field, v)?;
    Ok(v)
}

pub(super) fn non_negative(field: &str, v: f32) -> Result<f32, FieldError> {
    check(field, v, 0.0, f32::MAX, "≥ 0")?;
    Ok(v)
}

pub(super) fn spring(field: &str, s: &Option<SpringSpec>) -> Result<Option<Spring>, FieldError> {
    s.map(|s| {
        Ok(Spring {
            hertz: non_negative(&format!("{field}.hertz"), s.hertz)?,
            damping_ratio: non_negative(&format!("{field}.damping"), s.damping)?,
        })
    })
    .transpose()
}

pub(super) fn limits(field: &str, l: &Option<(f32, f32)>) -> Result<Option<Limits>, FieldError> {
    l.map(|(lower, upper)| {
        finite(field, lower)?;
        finite(field, upper)?;
        if lower > upper {
            return Err(FieldError::new(
                field,
                format!("lower bound {lower} is above upper bound {upper}"),
            ));
        }
        Ok(Limits { lower, upper })
    })
    .transpose()
}

pub(super) fn axis(field: &str, a: Vec2, frame: &Iso) -> Result<Vec2, FieldError> {
    finite_vec(field, a)?;
    let len = a.length();
    if len.is_nan() || len <= 1e-6 {
        return Err(FieldError::new(field, "the axis must not be zero"));
    }
    Ok(frame.rot.apply_inv(a / len))
}

pub(super) fn torque_motor(m: &Option<TorqueMotorSpec>) -> Result<Option<Motor>, FieldError> {
    m.map(|m| {
        Ok(Motor {
            speed: finite("motor.speed", m.speed)?,
            max_effort: non_negative("motor.max_torque", m.max_torque)?,
        })
    })
    .transpose()
}

impl JointSpec {
    /// The joint definition, from the ends' starting poses (`a` is `None` for
    /// the world). Every number is checked; errors name the field.
    pub(crate) fn to_def(&self, a: Option<End>, b: End) -> Result<JointDef, FieldError> {
        let (xa, body_a) = match a {
            Some((id, xf)) => (xf, Some(id)),
            None => (Iso::IDENTITY, None),
        };
        let (body_b, xb) = b;
        let angle = xa.rot.inv_mul(xb.rot).angle();
        let local = |field: &str, p: Vec2| -> Result<(Vec2, Vec2), FieldError> {
            finite_vec(field, p)?;
            Ok((xa.apply_inv(p), xb.apply_inv(p)))
        };
        let breaks = |force: &Option<f32>, torque: &Option<f32>| -> Result<_, FieldError> {
            Ok((
                force.map(|f| non_negative("break_force", f)).transpose()?,
                torque
                    .map(|t| non_negative("break_torque", t))
                    .transpose()?,
            ))
        };
        let (la, lb, kind, collide, (bf, bt)) = match self {
            JointSpec::Revolute {
                anchor,
                limits: l,
                motor,
                spring: s,
                collide_connected,
                break_force,
                break_torque,
                reference_angle,
                ..
            } => {
                let (la, lb) = local("anchor", *anchor)?;
                let l = limits("limits", l)?;
                let angle = match reference_angle {
                    Some(r) => {
                        check("reference_angle", *r, -1e4, 1e4, "within ±10000 rad")?;
                        *r
                    }
                    None => angle,
                };
                if let Some(l) = &l {
                    let pi = std::f32::consts::PI;
                    if l.lower <= -pi || l.upper >= pi {
                        return Err(FieldError::new(
                            "limits",
                            "angle limits must lie within (−π, π)",
                        ));
                    }
                }
                let kind = JointKind::Revolute(Revolute {
                    reference_angle: angle,
                    limits: l,
                    motor: torque_motor(motor)?,
                    spring: spring("spring", s)?,
                });
                (
                    la,
                    lb,
                    kind,
                    *collide_connected,
                    breaks(break_force, break_torque)?,
                )
            }
            JointSpec::Prismatic {
                anchor,
                axis: ax,
                limits: l,
                motor,
                spring: s,
                collide_connected,
                break_force,
                break_torque,
                ..
            } => {
                let (la, lb) = local("anchor", *anchor)?;
                let motor = motor
                    .map(|m| {
                        Ok::<_, FieldError>(Motor {
                            speed: finite("motor.speed", m.speed)?,
                            max_effort: non_negative("motor.max_force", m.max_force)?,
                        })
                    })
                    .transpose()?;
                let kind = JointKind::Prismatic(Prismatic {
                    axis: axis("axis", *ax, &xa)?,
                    reference_angle: angle,
                    limits: limits("limits", l)?,
                    motor,
                    spring: spring("spring", s)?,
                });
                (
                    la,
                    lb,
                    kind,
                    *collide_connected,
                    breaks(break_force, break_torque)?,
                )
            }
            JointSpec::Distance {
                anchor_a,
                anchor_b,
                length,
                min_length,
                max_length,
                spring: s,
                collide_connected,
                break_force,
                ..
            } => {
                let la = xa.apply_inv(finite_vec("anchor_a", *anchor_a)?);
                let lb = xb.apply_inv(finite_vec("anchor_b", *anchor_b)?);
                let rest = match length {
                    Some(l) => non_negative("length", *l)?,
                    None => anchor_a.distance(*anchor_b),
                };
                let s = spring("spring", s)?;
                let (lo, hi) = if s.is_some() {
                    (0.0, f32::MAX)
                } else {
                    (rest, rest)
                };
                let min_length = min_length.map_or(Ok(lo), |v| non_negative("min_length", v))?;
                let max_length = max_length.map_or(Ok(hi), |v| non_negative("max_length", v))?;
                if min_length > max_length {
                    return Err(FieldError::new(
                        "min_length",
                        format!("min_length {min_length} is above max_length {max_length}"),
                    ));
                }
                let kind = JointKind::Distance(Distance {
                    length: rest,
                    min_length,
                    max_length,
                    // Stops without a spring: a free length between them.
                    spring: s.or((min_length < max_length).then_some(Spring {
                        hertz: 0.0,
                        damping_ratio: 0.0,
                    })),
                });
                (
                    la,
                    lb,
                    kind,
                    *collide_connected,
                    breaks(break_force, &None)?,
                )
            }
            JointSpec::Rope {
                anchor_a,
                anchor_b,
                length,
                collide_connected,
                break_force,
                ..
            } => {
                let la = xa.apply_inv(finite_vec("anchor_a", *anchor_a)?);
                let lb = xb.apply_inv(finite_vec("anchor_b", *anchor_b)?);
                let len = match length {
                    Some(l) => non_negative("length", *l)?,
                    None => anchor_a.distance(*anchor_b),
                };
                let kind = JointKind::Distance(Distance::rope(len));
                (
                    la,
                    lb,
                    kind,
                    *collide_connected,
                    breaks(break_force, &None)?,
                )
            }
            JointSpec::Weld {
                anchor,
                linear_spring,
                angular_spring,
                collide_connected,
                break_force,
                break_torque,
                ..
            } => {
                let (la, lb) = local("anchor", *anchor)?;
                let kind = JointKind::Weld(Weld {
                    reference_angle: angle,
                    linear: spring("linear_spring", linear_spring)?,
                    angular: spring("angular_spring", angular_spring)?,
                });
                (
                    la,
                    lb,
                    kind,
                    *collide_connected,
                    breaks(break_force, break_torque)?,
                )
            }
            JointSpec::Wheel {
                anchor,
                axis: ax,
                spring: s,
                limits: l,
                motor,
                collide_connected,
                break_force,
                ..
            } => {
                let (la, lb) = local("anchor", *anchor)?;
                let kind = JointKind::Wheel(Wheel {
                    axis: axis("axis", *ax, &xa)?,
                    spring: spring("spring", s)?,
                    limits: limits("limits", l)?,
                    motor: torque_motor(motor)?,
                });
                (
                    la,
                    lb,
                    kind,
                    *collide_connected,
                    breaks(break_force, &None)?,
                )
            }
            JointSpec::Motor {
                linear_offset,
                angular_offset,
                max_force,
                max_torque,
                correction,
                collide_connected,
                ..
            } => {
                // Anchors at B's origin: the joint holds B where it starts
                // (plus the offsets).
                let la = xa.apply_inv(xb.translation);
                let off = finite_vec("linear_offset", *linear_offset)?;
                let kind = JointKind::Motor(MotorJoint {
                    linear_offset: off,
                    angular_offset: angle + finite("angular_offset", *angular_offset)?,
                    max_force: non_negative("max_force", *max_force)?,
                    max_torque: non_negative("max_torque", *max_torque)?,
                    correction: {
                        check("correction", *correction, 0.0, 1.0, "between 0 and 1")?;
                        *correction
                    },
                });
                (la, Vec2::ZERO, kind, *collide_connected, (None, None))
            }
        };
        let def = JointDef {
            body_a,
            body_b,
            local_anchor_a: la,
            local_anchor_b: lb,
            kind,
            collide_connected: collide,
            break_force: bf,
            break_torque: bt,
        };
        def.validate()
            .map_err(|e| FieldError::new("joint", e.to_string()))?;
        Ok(def)
    }
}
