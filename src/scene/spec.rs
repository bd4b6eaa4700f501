//! The scene's building blocks as written in a file: bodies and shapes.
//! Everything else in the scene module (validation, generators, the file
//! schema, loading) builds on these types.

use crate::dynamics::{BodyKind, Filter};
use crate::math::Vec2;
use serde::{Deserialize, Serialize};

/// One body of a scene. Every field except `shape` and `pos` is optional in the
/// file: kind `Dynamic`, angle 0, vel (0, 0), angvel 0, density 1, friction 0.6,
/// restitution 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Body", deny_unknown_fields)]
pub struct BodySpec {
    /// A name that joints may use to refer to the body (unique in a scene).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Collision shape.
    pub shape: ShapeSpec,
    /// Static, Dynamic (default) or Kinematic.
    #[serde(default, skip_serializing_if = "is_dynamic")]
    pub kind: BodyKind,
    /// Position of the body origin (m).
    pub pos: Vec2,
    /// Rotation (rad).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub angle: f32,
    /// Velocity of the body origin (m/s).
    #[serde(default = "zero_vec", skip_serializing_if = "is_zero_vec")]
    pub vel: Vec2,
    /// Angular velocity (rad/s, counter-clockwise).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub angvel: f32,
    /// Density (kg/m²).
    #[serde(
        default = "default_density",
        skip_serializing_if = "is_default_density"
    )]
    pub density: f32,
    /// Coulomb friction coefficient.
    #[serde(
        default = "default_friction",
        skip_serializing_if = "is_default_friction"
    )]
    pub friction: f32,
    /// Coefficient of restitution (0..=1).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub restitution: f32,
    /// Collision filter: `(category: 1, mask: 0xFFFFFFFF, group: 0)` by
    /// default (Box2D's semantics; see [`Filter`]).
    #[serde(default, skip_serializing_if = "is_default_filter")]
    pub filter: Filter,
    /// Whether the body starts awake. Default true.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub awake: bool,
    /// The body's own shape is a sensor: it reports overlaps and never
    /// collides. Default false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub sensor: bool,
    /// More shapes, making a compound body.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shapes: Vec<PartSpec>,
    /// Linear damping (1/s). Default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub linear_damping: f32,
    /// Angular damping (1/s). Default 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub angular_damping: f32,
    /// The body may sleep while its fastest point moves slower than this
    /// (m/s). Default: the world's (0.05).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sleep_threshold: Option<f32>,
    /// A bullet: continuous collision against dynamic bodies too (see
    /// [`crate::BodyDef::bullet`]). Default false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub bullet: bool,
    /// A kinematic body's motion profile (see [`MotionSpec`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub motion: Option<MotionSpec>,
}

fn yes() -> bool {
    true
}
fn is_true(b: &bool) -> bool {
    *b
}
fn is_false(b: &bool) -> bool {
    !*b
}

fn is_default_filter(f: &Filter) -> bool {
    *f == Filter::default()
}

fn zero_vec() -> Vec2 {
    Vec2::ZERO
}

// Defaults are left out when writing, compared bit for bit so that -0.0 and
// the like survive a round trip exactly.
fn is_dynamic(k: &BodyKind) -> bool {
    *k == BodyKind::Dynamic
}
fn is_zero(x: &f32) -> bool {
    x.to_bits() == 0
}
fn is_zero_vec(v: &Vec2) -> bool {
    is_zero(&v.x) && is_zero(&v.y)
}
fn is_default_density(x: &f32) -> bool {
    x.to_bits() == default_density().to_bits()
}
fn is_default_friction(x: &f32) -> bool {
    x.to_bits() == default_friction().to_bits()
}
pub(crate) fn default_density() -> f32 {
    1.0
}
pub(crate) fn default_friction() -> f32 {
    0.6
}

impl BodySpec {
    /// A dynamic body with the default material.
    pub fn new(shape: ShapeSpec, pos: Vec2) -> BodySpec {
        BodySpec {
            name: None,
            shape,
            kind: BodyKind::Dynamic,
            pos,
            angle: 0.0,
            vel: Vec2::ZERO,
            angvel: 0.0,
            density: default_density(),
            friction: default_friction(),
            restitution: 0.0,
            filter: Filter::default(),
            awake: true,
            sensor: false,
            shapes: Vec::new(),
            linear_damping: 0.0,
            angular_damping: 0.0,
            sleep_threshold: None,
            bullet: false,
            motion: None,
        }
    }
}

/// A shape as written in a scene file. Sizes are half extents and radii (m).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Shape")]
pub enum ShapeSpec {
    /// A disc of radius `r`.
    Circle {
        /// Radius (m).
        r: f32,
    },
    /// A box with half extents `hx`, `hy`, centred on the body origin.
    Rect {
        /// Half width (m).
        hx: f32,
        /// Half height (m).
        hy: f32,
    },
    /// A strictly convex polygon, vertices in the body frame, either winding.
    Polygon(Vec<Vec2>),
    /// An ellipse with semi-axes `rx` (local x) and `ry` (local y).
    Ellipse {
        /// Semi-axis along x (m).
        rx: f32,
        /// Semi-axis along y (m).
        ry: f32,
    },
    /// A capsule: the segment (0, -half_height)..(0, half_height) rounded by `r`.
    Capsule {
        /// Half the length of the core segment (m).
        half_height: f32,
        /// Rounding radius (m).
        r: f32,
    },
    /// A simple polygon outline, convex or not (either winding, at most 256
    /// vertices): cut into convex pieces, each a shape of the body. An
    /// outline whose edges cross is refused, naming the two edges.
    Concave(Vec<Vec2>),
    /// The box `Rect(hx, hy)` grown by `radius`: straight sides, round
    /// corners, outer size `2(hx + radius)` by `2(hy + radius)` (Box2D's
    /// `b2MakeRoundedBox`). A radius of 0 is the plain box.
    RoundedRect {
        /// Half width of the core (m).
        hx: f32,
        /// Half height of the core (m).
        hy: f32,
        /// Rounding radius (m), ≥ 0.
        radius: f32,
    },
    /// The strictly convex polygon `points` grown by `radius` (Box2D's
    /// `b2MakePolygon(&hull, radius)`). A radius of 0 is the plain polygon.
    RoundedPolygon {
        /// Core vertices in the body frame, either winding.
        points: Vec<Vec2>,
        /// Rounding radius (m), ≥ 0.
        radius: f32,
    },
    /// A two-sided line segment from `a` to `b` (body frame, m): no area,
    /// so only on static or kinematic bodies, or beside shapes with area.
    Segment {
        /// First end (m).
        a: Vec2,
        /// Second end (m).
        b: Vec2,
    },
    /// A chain: the polyline through `points` (body frame, m), closed into a
    /// loop when `loop` is true, one one-sided segment per edge (see
    /// [`crate::Shape::chain`]). Bodies collide on the right of each edge:
    /// list terrain from right to left, a loop counter-clockwise to keep
    /// bodies outside it (clockwise, inside). At least 2 points (a loop 3),
    /// consecutive ones at least [`crate::shape::MIN_SEGMENT_LENGTH`] apart;
    /// an open chain's list is checked as it is read, so its errors carry
    /// the file's line and column.
    Chain {
        /// The points, in order (m).
        #[serde(deserialize_with = "chain_points")]
        points: Vec<Vec2>,
        /// Whether the last point joins the first. Default false.
        #[serde(rename = "loop", default, skip_serializing_if = "is_false")]
        closed: bool,
    },
}

/// Reads a chain's points and refuses, where the parser stands, what no
/// chain accepts: fewer than 2 points, a non-finite or too large
/// coordinate, repeated consecutive points.
fn chain_points<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Vec2>, D::Error> {
    let points = Vec::<Vec2>::deserialize(d)?;
    crate::shape::Shape::chain(&points, false)
        .map_err(|e| serde::de::Error::custom(format!("in the chain's points: {e}")))?;
    Ok(points)
}

/// One more shape of a compound body, placed in the body frame, with its own
/// material and filter (each defaulting to the body's).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Part", deny_unknown_fields)]
pub struct PartSpec {
    /// The shape.
    pub shape: ShapeSpec,
    /// Its origin in the body frame (m).
    #[serde(default = "zero_vec", skip_serializing_if = "is_zero_vec")]
    pub offset: Vec2,
    /// Its rotation in the body frame (rad).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub angle: f32,
    /// Density (kg/m²); default the body's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub density: Option<f32>,
    /// Friction; default the body's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub friction: Option<f32>,
    /// Restitution; default the body's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restitution: Option<f32>,
    /// Collision filter; default the body's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<Filter>,
    /// This part is a sensor. Default false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub sensor: bool,
}

/// A shape kind without its sizes, as listed by the `Rain` generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ShapeKind {
    /// [`ShapeSpec::Circle`].
    Circle,
    /// [`ShapeSpec::Rect`].
    Rect,
    /// [`ShapeSpec::Polygon`] (a regular polygon of 3 to 8 vertices).
    Polygon,
    /// [`ShapeSpec::Ellipse`].
    Ellipse,
    /// [`ShapeSpec::Capsule`].
    Capsule,
}

impl ShapeKind {
    /// Every kind, in declaration order.
    pub const ALL: [ShapeKind; 5] = [
        ShapeKind::Circle,
        ShapeKind::Rect,
        ShapeKind::Polygon,
        ShapeKind::Ellipse,
        ShapeKind::Capsule,
    ];
}

/// A kinematic body's motion profile, relative to the body's `pos` and
/// `angle` in the file. Each step the body gets the velocity that takes it to
/// the profile's pose at the end of the step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Motion")]
pub enum MotionSpec {
    /// `pos + amplitude · sin(omega · t + phase)`, and the angle likewise.
    Sine {
        /// Linear amplitude (m).
        #[serde(default)]
        amplitude: Vec2,
        /// Angular amplitude (rad).
        #[serde(default)]
        angular_amplitude: f32,
        /// Angular frequency (rad/s).
        omega: f32,
        /// Phase (rad).
        #[serde(default)]
        phase: f32,
    },
    /// Keys `(time s, offset m, angle rad)`, times strictly increasing,
    /// offsets from `pos`; straight lines between them, held after the last
    /// unless `repeat`.
    Keyframes {
        /// The keys.
        keys: Vec<(f32, Vec2, f32)>,
        /// Whether the sequence repeats (period: the last key's time).
        #[serde(default)]
        repeat: bool,
    },
}
