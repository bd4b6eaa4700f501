//! Range checks shared by bodies, generators and settings. Limits mirror the
//! world's own (`crate::world::validate_body_def`) so that a validated scene
//! always builds.

use super::error::FieldError;
use super::spec::{BodySpec, MotionSpec, ShapeSpec};
use crate::dynamics::{BodyKind, ShapeDef};
use crate::math::Vec2;
use crate::shape::{Shape, ShapeError, MAX_COORDINATE};
use crate::world::MAX_POSITION;

/// Largest speed accepted in `vel` and `angvel` (m/s, rad/s).
pub const MAX_SPEED: f32 = 1.0e4;
/// Largest density accepted (kg/m²).
pub const MAX_DENSITY: f32 = 1.0e6;
/// Largest friction coefficient accepted.
pub const MAX_FRICTION: f32 = 100.0;

/// `value` must be finite and within `lo..=hi`; `expected` says so in words.
pub(crate) fn check(
    field: &str,
    value: f32,
    lo: f32,
    hi: f32,
    expected: &str,
) -> Result<(), FieldError> {
    if !value.is_finite() {
        Err(FieldError::new(
            field,
            format!("must be a finite number, got {value}"),
        ))
    } else if value < lo || value > hi {
        Err(FieldError::new(
            field,
            format!("must be {expected}, got {value}"),
        ))
    } else {
        Ok(())
    }
}

/// A position: both coordinates finite and within ±[`MAX_POSITION`].
pub(crate) fn check_pos(field: &str, p: Vec2) -> Result<(), FieldError> {
    let what = "within ±1000000 m";
    check(
        &format!("{field}.x"),
        p.x,
        -MAX_POSITION,
        MAX_POSITION,
        what,
    )?;
    check(
        &format!("{field}.y"),
        p.y,
        -MAX_POSITION,
        MAX_POSITION,
        what,
    )
}

/// A size or radius: finite, > 0 and at most [`MAX_COORDINATE`].
pub(crate) fn check_size(field: &str, value: f32) -> Result<(), FieldError> {
    if value.is_finite() && value > 0.0 && value <= MAX_COORDINATE {
        Ok(())
    } else if !value.is_finite() {
        Err(FieldError::new(
            field,
            format!("must be a finite number, got {value}"),
        ))
    } else {
        Err(FieldError::new(
            field,
            format!("must be > 0 and at most {MAX_COORDINATE} m, got {value}"),
        ))
    }
}

/// Density, friction and restitution.
pub(crate) fn check_material(
    density: f32,
    friction: f32,
    restitution: f32,
) -> Result<(), FieldError> {
    if !(density.is_finite() && density > 0.0 && density <= MAX_DENSITY) {
        return if density.is_finite() {
            Err(FieldError::new(
                "density",
                format!("must be > 0 and at most {MAX_DENSITY} kg/m², got {density}"),
            ))
        } else {
            Err(FieldError::new(
                "density",
                format!("must be a finite number, got {density}"),
            ))
        };
    }
    check("friction", friction, 0.0, MAX_FRICTION, "between 0 and 100")?;
    check("restitution", restitution, 0.0, 1.0, "between 0 and 1")
}

/// Turns a shape error into a field error: sizes name their own field
/// (`shape.r`), everything else names `shape`. A rounding radius may be 0.
pub(crate) fn shape_field_error(e: ShapeError) -> FieldError {
    match e {
        ShapeError::BadDimension {
            what: "radius",
            value,
        } if value.is_finite() => FieldError::new(
            "shape.radius",
            format!("must be ≥ 0 and at most {MAX_COORDINATE} m, got {value}"),
        ),
        ShapeError::BadDimension { what, value } => {
            match check_size(&format!("shape.{what}"), value) {
                Err(fe) => fe,
                Ok(()) => FieldError::new(format!("shape.{what}"), e.to_string()),
            }
        }
        other => FieldError::new("shape", other.to_string()),
    }
}

impl ShapeSpec {
    /// Builds and validates the shape. Sizes must be finite, > 0 and at most
    /// [`MAX_COORDINATE`]; rounding radii finite, ≥ 0 and at most
    /// [`MAX_COORDINATE`]; polygons must be strictly convex with at most
    /// [`crate::shape::MAX_POLYGON_VERTICES`] vertices. A size error's `what`
    /// is the scene field name (`r`, `hx`, `hy`, `rx`, `ry`, `half_height`,
    /// `radius`).
    pub fn to_shape(&self) -> Result<Shape, ShapeError> {
        fn dim(what: &'static str, value: f32) -> Result<f32, ShapeError> {
            if value.is_finite() && value > 0.0 && value <= MAX_COORDINATE {
                Ok(value)
            } else {
                Err(ShapeError::BadDimension { what, value })
            }
        }
        match self {
            ShapeSpec::Circle { r } => Ok(Shape::circle(dim("r", *r)?)),
            ShapeSpec::Rect { hx, hy } => Ok(Shape::rect(dim("hx", *hx)?, dim("hy", *hy)?)),
            ShapeSpec::Polygon(points) => Shape::polygon(points),
            ShapeSpec::Ellipse { rx, ry } => Ok(Shape::ellipse(dim("rx", *rx)?, dim("ry", *ry)?)),
            ShapeSpec::Capsule { half_height, r } => Ok(Shape::capsule(
                dim("half_height", *half_height)?,
                dim("r", *r)?,
            )),
            ShapeSpec::Concave(points) => {
                let mut pieces = crate::shape::decompose(points)?;
                match pieces.len() {
                    1 => Ok(Shape::Polygon(pieces.remove(0))),
                    n => Err(ShapeError::Concave { pieces: n }),
                }
            }
            ShapeSpec::RoundedRect { hx, hy, radius } => {
                let shape = Shape::rounded_rect(dim("hx", *hx)?, dim("hy", *hy)?, *radius);
                shape.validate().map(|_| shape)
            }
            ShapeSpec::RoundedPolygon { points, radius } => Shape::rounded_polygon(points, *radius),
            ShapeSpec::Segment { a, b } => {
                let shape = Shape::segment(*a, *b);
                shape.validate().map(|_| shape)
            }
            ShapeSpec::Chain { points, closed } => {
                let mut edges = Shape::chain(points, *closed)?;
                match edges.len() {
                    1 => Ok(edges.remove(0)),
                    n => Err(ShapeError::ManyShapes { shapes: n }),
                }
            }
        }
    }

    /// The shapes: one, a concave outline's convex pieces, or a chain's
    /// segments.
    pub fn to_shapes(&self) -> Result<Vec<Shape>, ShapeError> {
        match self {
            ShapeSpec::Concave(points) => Ok(crate::shape::decompose(points)?
                .into_iter()
                .map(Shape::Polygon)
                .collect()),
            ShapeSpec::Chain { points, closed } => Shape::chain(points, *closed),
            other => Ok(vec![other.to_shape()?]),
        }
    }

    /// The variant name, as written in scene files.
    pub fn kind_name(&self) -> &'static str {
        match self {
            ShapeSpec::Circle { .. } => "Circle",
            ShapeSpec::Rect { .. } => "Rect",
            ShapeSpec::Polygon(_) => "Polygon",
            ShapeSpec::Ellipse { .. } => "Ellipse",
            ShapeSpec::Capsule { .. } => "Capsule",
            ShapeSpec::Concave(_) => "Concave",
            ShapeSpec::RoundedRect { .. } => "RoundedRect",
            ShapeSpec::RoundedPolygon { .. } => "RoundedPolygon",
            ShapeSpec::Segment { .. } => "Segment",
            ShapeSpec::Chain { .. } => "Chain",
        }
    }
}

impl BodySpec {
    /// Checks every field; the error names the field as written in the file.
    pub fn validate(&self) -> Result<(), FieldError> {
        self.to_def().map(|_| ())
    }

    /// Validates the spec and turns it into a world body definition.
    pub fn to_def(&self) -> Result<crate::BodyDef, FieldError> {
        let shapes = self.shape.to_shapes().map_err(shape_field_error)?;
        check_pos("pos", self.pos)?;
        check("angle", self.angle, -1.0e4, 1.0e4, "within ±10000 rad")?;
        let speed = "within ±10000 m/s";
        check("vel.x", self.vel.x, -MAX_SPEED, MAX_SPEED, speed)?;
        check("vel.y", self.vel.y, -MAX_SPEED, MAX_SPEED, speed)?;
        check(
            "angvel",
            self.angvel,
            -MAX_SPEED,
            MAX_SPEED,
            "within ±10000 rad/s",
        )?;
        check_material(self.density, self.friction, self.restitution)?;
        let material = crate::Material {
            density: self.density,
            friction: self.friction,
            restitution: self.restitution,
        };
        let mut defs: Vec<ShapeDef> = shapes
            .into_iter()
            .map(|s| ShapeDef {
                material,
                filter: self.filter,
                sensor: self.sensor,
                ..ShapeDef::new(s)
            })
            .collect();
        for (k, part) in self.shapes.iter().enumerate() {
            let field = |f: &str| format!("shapes[{k}].{f}");
            let pieces = part
                .shape
                .to_shapes()
                .map_err(|e| FieldError::new(field("shape"), e.to_string()))?;
            check_pos(&field("offset"), part.offset)?;
            check(
                &field("angle"),
                part.angle,
                -1.0e4,
                1.0e4,
                "within ±10000 rad",
            )?;
            let m = crate::Material {
                density: part.density.unwrap_or(self.density),
                friction: part.friction.unwrap_or(self.friction),
                restitution: part.restitution.unwrap_or(self.restitution),
            };
            check_material(m.density, m.friction, m.restitution)
                .map_err(|e| FieldError::new(field(&e.field), e.message))?;
            for s in pieces {
                defs.push(ShapeDef {
                    material: m,
                    filter: part.filter.unwrap_or(self.filter),
                    sensor: part.sensor,
                    ..ShapeDef::new(s).at(part.offset, part.angle)
                });
            }
        }
        if defs.len() > crate::world::MAX_SHAPES {
            return Err(FieldError::new(
                "shapes",
                format!(
                    "the body has {} shapes; at most {} are allowed",
                    defs.len(),
                    crate::world::MAX_SHAPES
                ),
            ));
        }
        if self.kind == BodyKind::Dynamic && !defs.iter().any(|d| d.shape.has_area()) {
            return Err(FieldError::new(
                "shape",
                "segments and chains have no area, so no mass: give the body `kind: Static` (or Kinematic), or a part with area",
            ));
        }
        let def = crate::BodyDef::compound(defs, self.pos)
            .kind(self.kind)
            .angle(self.angle)
            .velocity(self.vel)
            .angular_velocity(self.angvel)
            .damping(self.linear_damping, self.angular_damping)
            .awake(self.awake)
            .bullet(self.bullet);
        let def = match self.sleep_threshold {
            Some(v) => def.sleep_threshold(v),
            None => def,
        };
        if let Some(m) = &self.motion {
            if self.kind != BodyKind::Kinematic {
                return Err(FieldError::new(
                    "motion",
                    "only a kinematic body follows a motion (add `kind: Kinematic`)",
                ));
            }
            m.validate()?;
        }
        // Belt and braces: the world's own check must agree.
        crate::world::validate_body_def(&def)
            .map_err(|e| FieldError::new("body", e.to_string()))?;
        Ok(def)
    }
}

impl MotionSpec {
    /// Checks the numbers.
    pub(crate) fn validate(&self) -> Result<(), FieldError> {
        match self {
            MotionSpec::Sine {
                amplitude,
                angular_amplitude,
                omega,
                phase,
            } => {
                check_pos("motion.amplitude", *amplitude)?;
                check(
                    "motion.angular_amplitude",
                    *angular_amplitude,
                    -1e4,
                    1e4,
                    "within ±10000 rad",
                )?;
                check("motion.omega", *omega, -1e4, 1e4, "within ±10000 rad/s")?;
                check("motion.phase", *phase, -1e4, 1e4, "within ±10000 rad")
            }
            MotionSpec::Keyframes { keys, .. } => {
                if keys.is_empty() || keys.len() > 4096 {
                    return Err(FieldError::new(
                        "motion.keys",
                        format!("must have 1 to 4096 keys, got {}", keys.len()),
                    ));
                }
                let mut last = f32::NEG_INFINITY;
                for (k, (t, p, a)) in keys.iter().enumerate() {
                    let f = |s: &str| format!("motion.keys[{k}].{s}");
                    check(&f("time"), *t, 0.0, 1e7, "between 0 and 1e7 s")?;
                    if *t <= last {
                        return Err(FieldError::new(
                            f("time"),
                            format!("times must increase: {t} s follows {last} s"),
                        ));
                    }
                    last = *t;
                    check_pos(&f("offset"), *p)?;
                    check(&f("angle"), *a, -1e4, 1e4, "within ±10000 rad")?;
                }
                Ok(())
            }
        }
    }
}
