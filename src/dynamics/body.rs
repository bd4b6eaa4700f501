//! Rigid bodies: kinds, definitions and state.

use super::filter::Filter;
use super::material::Material;
use crate::math::Aabb;
use crate::math::{Iso, Rot, Vec2};
use crate::shape::{MassProperties, Shape};
use serde::{Deserialize, Serialize};

/// How a body takes part in the simulation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum BodyKind {
    /// Never moves; infinite mass.
    Static,
    /// Moved by forces and contacts.
    #[default]
    Dynamic,
    /// Moves by its set velocity; pushes dynamic bodies but is not pushed.
    Kinematic,
}

/// Everything needed to create a body. Build with [`BodyDef::new`] and the
/// chaining setters.
///
/// ```
/// use minkowski::{BodyDef, BodyKind, Shape, Vec2};
/// let ground = BodyDef::new(Shape::rect(20.0, 0.5), Vec2::new(0.0, -0.5)).kind(BodyKind::Static);
/// let ball = BodyDef::new(Shape::circle(0.5), Vec2::new(0.0, 4.0)).restitution(0.8);
/// # let _ = (ground, ball);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BodyDef {
    /// The shapes (at least one), each placed in the body frame with its own
    /// material and filter.
    pub shapes: Vec<ShapeDef>,
    /// Static, dynamic or kinematic.
    pub kind: BodyKind,
    /// Position of the body origin (m).
    pub position: Vec2,
    /// Rotation (rad).
    pub angle: f32,
    /// Velocity of the body origin (m/s).
    pub linear_velocity: Vec2,
    /// Angular velocity (rad/s).
    pub angular_velocity: f32,
    /// Linear damping (1/s): velocity decays as `v / (1 + h·c)` per substep.
    pub linear_damping: f32,
    /// Angular damping (1/s).
    pub angular_damping: f32,
    /// Multiplier on world gravity.
    pub gravity_scale: f32,
    /// Whether a dynamic body starts awake (default); one that starts asleep
    /// sleeps alone until something touches it.
    #[serde(default = "yes")]
    pub awake: bool,
    /// The body may sleep while its fastest point moves slower than this
    /// (m/s); `None` takes [`crate::WorldSettings::sleep_velocity`].
    #[serde(default)]
    pub sleep_threshold: Option<f32>,
    /// A bullet: continuous collision also against other dynamic bodies (not
    /// only static and kinematic ones), so a small fast body cannot pass
    /// through a thin moving one. Costs a time-of-impact sweep per step while
    /// it moves fast. Default false.
    #[serde(default)]
    pub bullet: bool,
}

fn yes() -> bool {
    true
}

/// One shape of a body: where it sits in the body frame, what it is made of
/// and what it collides with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShapeDef {
    /// The shape, in its own frame.
    pub shape: Shape,
    /// Its frame's origin in the body frame (m).
    pub offset: Vec2,
    /// Its frame's rotation in the body frame (rad).
    pub angle: f32,
    /// Density, friction, restitution.
    pub material: Material,
    /// Which shapes it collides with.
    #[serde(default)]
    pub filter: Filter,
    /// A sensor detects the shapes that overlap it (reported as sensor
    /// events) but never collides; it still adds its mass to the body.
    #[serde(default)]
    pub sensor: bool,
}

impl ShapeDef {
    /// The shape at the body origin, default material and filter.
    pub fn new(shape: Shape) -> ShapeDef {
        ShapeDef {
            shape,
            offset: Vec2::ZERO,
            angle: 0.0,
            material: Material::default(),
            filter: Filter::default(),
            sensor: false,
        }
    }

    /// Places the shape in the body frame.
    pub fn at(mut self, offset: Vec2, angle: f32) -> ShapeDef {
        self.offset = offset;
        self.angle = angle;
        self
    }

    /// The shape's pose in the body frame.
    pub fn local(&self) -> Iso {
        Iso::new(self.offset, self.angle)
    }
}

impl BodyDef {
    /// A dynamic body of one shape, with default material, at `position`.
    pub fn new(shape: Shape, position: Vec2) -> BodyDef {
        BodyDef::compound(vec![ShapeDef::new(shape)], position)
    }

    /// A dynamic body of several shapes at `position`.
    pub fn compound(shapes: Vec<ShapeDef>, position: Vec2) -> BodyDef {
        BodyDef {
            shapes,
            kind: BodyKind::Dynamic,
            position,
            angle: 0.0,
            linear_velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            awake: true,
            sleep_threshold: None,
            bullet: false,
        }
    }

    /// Sets whether the body starts awake.
    pub fn awake(mut self, awake: bool) -> Self {
        self.awake = awake;
        self
    }

    /// Sets every shape's collision filter.
    pub fn filter(mut self, filter: Filter) -> Self {
        for s in &mut self.shapes {
            s.filter = filter;
        }
        self
    }
    /// Sets the kind.
    pub fn kind(mut self, kind: BodyKind) -> Self {
        self.kind = kind;
        self
    }
    /// Sets the angle (rad).
    pub fn angle(mut self, angle: f32) -> Self {
        self.angle = angle;
        self
    }
    /// Sets the linear velocity (m/s).
    pub fn velocity(mut self, v: Vec2) -> Self {
        self.linear_velocity = v;
        self
    }
    /// Sets the angular velocity (rad/s).
    pub fn angular_velocity(mut self, w: f32) -> Self {
        self.angular_velocity = w;
        self
    }
    /// Sets every shape's material.
    pub fn material(mut self, m: Material) -> Self {
        for s in &mut self.shapes {
            s.material = m;
        }
        self
    }
    /// Sets every shape's density (kg/m²).
    pub fn density(mut self, d: f32) -> Self {
        for s in &mut self.shapes {
            s.material.density = d;
        }
        self
    }
    /// Sets every shape's friction coefficient.
    pub fn friction(mut self, f: f32) -> Self {
        for s in &mut self.shapes {
            s.material.friction = f;
        }
        self
    }
    /// Sets every shape's restitution.
    pub fn restitution(mut self, e: f32) -> Self {
        for s in &mut self.shapes {
            s.material.restitution = e;
        }
        self
    }
    /// Sets linear and angular damping (1/s).
    pub fn damping(mut self, linear: f32, angular: f32) -> Self {
        self.linear_damping = linear;
        self.angular_damping = angular;
        self
    }
    /// Sets the gravity scale.
    pub fn gravity_scale(mut self, s: f32) -> Self {
        self.gravity_scale = s;
        self
    }
    /// Sets the body's own sleep threshold (m/s).
    pub fn sleep_threshold(mut self, v: f32) -> Self {
        self.sleep_threshold = Some(v);
        self
    }
    /// Makes the body a bullet (see [`BodyDef::bullet`]).
    pub fn bullet(mut self, on: bool) -> Self {
        self.bullet = on;
        self
    }
}

/// A rigid body owned by a [`crate::World`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Body {
    /// The shapes, at least one.
    pub(crate) colliders: Vec<Collider>,
    pub(crate) kind: BodyKind,
    /// Pose of the body origin.
    pub(crate) xf: Iso,
    /// World centre of mass.
    pub(crate) center: Vec2,
    /// Centre of mass in the body frame.
    pub(crate) local_center: Vec2,
    /// Velocity of the centre of mass.
    pub(crate) v: Vec2,
    pub(crate) w: f32,
    pub(crate) mass: f32,
    pub(crate) inv_mass: f32,
    pub(crate) inertia: f32,
    pub(crate) inv_inertia: f32,
    pub(crate) linear_damping: f32,
    pub(crate) angular_damping: f32,
    pub(crate) gravity_scale: f32,
    /// Own sleep threshold (m/s), if not the world's.
    #[serde(default)]
    pub(crate) sleep_threshold: Option<f32>,
    /// Continuous collision against dynamic bodies too.
    #[serde(default)]
    pub(crate) bullet: bool,
    pub(crate) awake: bool,
    pub(crate) sleep_time: f32,
    /// The body's realized motion over the last steps (m/s, rad/s): each
    /// step's change of pose over `dt`, smoothed over about 0.1 s (see
    /// `World::update_sleep`).
    #[serde(default)]
    pub(crate) moved_v: Vec2,
    #[serde(default)]
    pub(crate) moved_w: f32,
    /// The smoothed motion when the body's present rest began: a body whose
    /// motion drifts away from it is still being accelerated.
    #[serde(default)]
    pub(crate) rest_v: Vec2,
    #[serde(default)]
    pub(crate) rest_w: f32,
    /// Island the body fell asleep with (wakes together).
    pub(crate) sleep_island: u32,
    /// Frozen after a numerical failure: takes no further part in the step.
    pub(crate) frozen: bool,
    /// Reported as buried in a static or kinematic body, and not yet out.
    #[serde(default)]
    pub(crate) buried: bool,
    /// Union of the shapes' tight boxes.
    pub(crate) aabb: Aabb,
    /// Farthest reach of the shape from the centre of mass (m).
    pub(crate) extent: f32,
    /// The least [`Shape::thinnest`] of the solid shapes (infinite for
    /// none), kept because continuous collision asks for it every step;
    /// NaN when read from a snapshot without it (then computed when asked).
    #[serde(default = "unknown")]
    pub(crate) thin: f32,
}

/// The default of a value that a snapshot may lack: NaN, computed when asked.
fn unknown() -> f32 {
    f32::NAN
}

/// One shape of a body, as the world keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Collider {
    pub(crate) shape: Shape,
    /// Pose in the body frame.
    pub(crate) local: Iso,
    /// `local` is the identity: the shape's pose is the body's, exactly.
    pub(crate) at_origin: bool,
    pub(crate) material: Material,
    pub(crate) filter: Filter,
    /// Detects overlaps instead of colliding.
    #[serde(default)]
    pub(crate) sensor: bool,
    /// For a sensor: the shapes overlapping it after the last step, as
    /// (body slot, shape index), sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) visitors: Vec<(u32, u32)>,
    /// Tight box at the current pose.
    pub(crate) aabb: Aabb,
    /// Broadphase proxy.
    pub(crate) proxy: u32,
}

impl Collider {
    /// The shape.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }
    /// Pose in the body frame.
    pub fn local(&self) -> Iso {
        self.local
    }
    /// The material.
    pub fn material(&self) -> &Material {
        &self.material
    }
    /// Whether the shape is a sensor.
    pub fn is_sensor(&self) -> bool {
        self.sensor
    }
    /// For a sensor, how many shapes overlap it (after the last step).
    pub fn visitor_count(&self) -> usize {
        self.visitors.len()
    }
    /// The collision filter.
    pub fn filter(&self) -> &Filter {
        &self.filter
    }
    /// How far the shape reaches from the body origin (m): its bounding
    /// radius, plus its offset.
    #[inline]
    pub fn reach(&self) -> f32 {
        if self.at_origin {
            self.shape.bounding_radius()
        } else {
            self.shape.bounding_radius() + self.local.translation.length()
        }
    }

    /// The shape's world pose for a body at `body`.
    #[inline]
    pub fn pose(&self, body: &Iso) -> Iso {
        if self.at_origin {
            *body
        } else {
            body.mul(&self.local)
        }
    }
}

impl Body {
    pub(crate) fn from_def(def: &BodyDef) -> Body {
        let xf = Iso::new(def.position, def.angle);
        let colliders: Vec<Collider> = def
            .shapes
            .iter()
            .map(|s| {
                let local = s.local();
                let at_origin = s.offset == Vec2::ZERO && s.angle == 0.0;
                let c = Collider {
                    shape: s.shape.clone(),
                    local: if at_origin { Iso::IDENTITY } else { local },
                    at_origin,
                    material: s.material,
                    filter: s.filter,
                    sensor: s.sensor,
                    visitors: Vec::new(),
                    aabb: Aabb::default(),
                    proxy: u32::MAX,
                };
                Collider {
                    aabb: c.shape.aabb(&c.pose(&xf)),
                    ..c
                }
            })
            .collect();
        // One shape at the origin keeps the single-shape arithmetic exactly.
        let mp = match colliders.as_slice() {
            [c] if c.at_origin => c.shape.mass_properties(c.material.density),
            _ => MassProperties::combine(
                &colliders
                    .iter()
                    .map(|c| (c.shape.mass_properties(c.material.density), c.local))
                    .collect::<Vec<_>>(),
            ),
        };
        let dynamic = def.kind == BodyKind::Dynamic;
        let (mass, inertia) = if dynamic {
            (mp.mass, mp.inertia)
        } else {
            (0.0, 0.0)
        };
        let inv = |x: f32| if x > 0.0 { 1.0 / x } else { 0.0 };
        let center = xf.apply(mp.centroid);
        // The definition gives the origin's velocity; store the centre's.
        let v = def.linear_velocity
            + crate::math::cross_sv(def.angular_velocity, center - xf.translation);
        let (v, w) = if def.kind == BodyKind::Static {
            (Vec2::ZERO, 0.0)
        } else {
            (v, def.angular_velocity)
        };
        let extent = match colliders.as_slice() {
            [c] if c.at_origin => c.shape.bounding_radius() + mp.centroid.length(),
            _ => colliders
                .iter()
                .map(|c| {
                    c.shape.bounding_radius() + (c.local.apply(Vec2::ZERO) - mp.centroid).length()
                })
                .fold(0.0, f32::max),
        };
        let aabb = union(&colliders);
        let thin = solid_thinnest(&colliders);
        Body {
            aabb,
            colliders,
            kind: def.kind,
            xf,
            center,
            local_center: mp.centroid,
            v,
            w,
            mass,
            inv_mass: inv(mass),
            inertia,
            inv_inertia: inv(inertia),
            linear_damping: def.linear_damping,
            angular_damping: def.angular_damping,
            gravity_scale: def.gravity_scale,
            sleep_threshold: def.sleep_threshold,
            bullet: def.bullet,
            awake: def.kind != BodyKind::Static && def.awake,
            sleep_time: 0.0,
            moved_v: Vec2::ZERO,
            moved_w: 0.0,
            rest_v: Vec2::ZERO,
            rest_w: 0.0,
            sleep_island: u32::MAX,
            frozen: false,
            buried: false,
            extent,
            thin,
        }
    }

    /// Half the thickness of the body's thinnest solid shape (m), the least
    /// [`Shape::thinnest`] of the shapes that are not sensors (infinite for
    /// none): continuous collision sweeps a body that moves more than a
    /// fraction of it in a step.
    pub fn thinnest(&self) -> f32 {
        if self.thin.is_nan() {
            solid_thinnest(&self.colliders)
        } else {
            self.thin
        }
    }

    /// Recomputes the shapes' tight boxes at the current pose.
    pub(crate) fn update_aabbs(&mut self) {
        for c in &mut self.colliders {
            c.aabb = c.shape.aabb(&c.pose(&self.xf));
        }
        self.aabb = union(&self.colliders);
    }

    /// The shapes.
    pub fn colliders(&self) -> &[Collider] {
        &self.colliders
    }

    /// The first shape (the only one of a single-shape body).
    pub fn shape(&self) -> &Shape {
        &self.colliders[0].shape
    }
    /// The first shape's collision filter.
    pub fn filter(&self) -> &Filter {
        &self.colliders[0].filter
    }

    /// Static, dynamic or kinematic.
    pub fn kind(&self) -> BodyKind {
        self.kind
    }
    /// The first shape's material.
    pub fn material(&self) -> &Material {
        &self.colliders[0].material
    }
    /// Pose of the body origin.
    pub fn transform(&self) -> Iso {
        self.xf
    }
    /// Position of the body origin (m).
    pub fn position(&self) -> Vec2 {
        self.xf.translation
    }
    /// Rotation.
    pub fn rotation(&self) -> Rot {
        self.xf.rot
    }
    /// Angle (rad), in (-π, π].
    pub fn angle(&self) -> f32 {
        self.xf.rot.angle()
    }
    /// World centre of mass (m).
    pub fn center_of_mass(&self) -> Vec2 {
        self.center
    }
    /// Velocity of the centre of mass (m/s).
    pub fn linear_velocity(&self) -> Vec2 {
        self.v
    }
    /// Velocity of any world point attached to the body (m/s).
    pub fn velocity_at(&self, p: Vec2) -> Vec2 {
        self.v + crate::math::cross_sv(self.w, p - self.center)
    }
    /// Angular velocity (rad/s).
    pub fn angular_velocity(&self) -> f32 {
        self.w
    }
    /// Mass (kg); 0 for static and kinematic bodies.
    pub fn mass(&self) -> f32 {
        self.mass
    }
    /// Rotational inertia about the centre of mass (kg·m²); 0 unless dynamic.
    pub fn inertia(&self) -> f32 {
        self.inertia
    }
    /// `true` unless the body is asleep (static bodies report `false`).
    pub fn is_awake(&self) -> bool {
        self.awake
    }
    /// Whether the body is a bullet (continuous collision against dynamic
    /// bodies too).
    pub fn is_bullet(&self) -> bool {
        self.bullet
    }

    /// `true` after a numerical failure froze the body.
    pub fn is_frozen(&self) -> bool {
        self.frozen
    }

    /// Whether the body is pushed deeper than the burial limit into a static
    /// or kinematic body (the world's `BURIED_DEPTH`); the world reports it
    /// once, with a `BodyBuried` event, when it happens.
    pub fn is_buried(&self) -> bool {
        self.buried
    }
    /// Tight bounding box of all the shapes at the current pose.
    pub fn aabb(&self) -> Aabb {
        self.aabb
    }
    /// Linear momentum (kg·m/s).
    pub fn linear_momentum(&self) -> Vec2 {
        self.mass * self.v
    }
    /// Angular momentum about the world origin (kg·m²/s).
    pub fn angular_momentum(&self) -> f32 {
        self.inertia * self.w + self.mass * crate::math::cross(self.center, self.v)
    }
    /// Kinetic energy (J).
    pub fn kinetic_energy(&self) -> f32 {
        0.5 * self.mass * self.v.length_squared() + 0.5 * self.inertia * self.w * self.w
    }

    /// Recomputes the origin pose from the centre of mass and rotation.
    #[inline]
    pub(crate) fn sync_transform(&mut self) {
        self.xf.translation = self.center - self.xf.rot.apply(self.local_center);
    }
}

/// The union of the colliders' boxes (the first box for one collider).
fn union(colliders: &[Collider]) -> Aabb {
    let mut it = colliders.iter().map(|c| c.aabb);
    let first = it.next().unwrap_or_default();
    it.fold(first, |a, b| a.union(&b))
}

/// The least [`Shape::thinnest`] of the shapes that are not sensors
/// (infinite for none).
fn solid_thinnest(colliders: &[Collider]) -> f32 {
    colliders
        .iter()
        .filter(|c| !c.sensor)
        .map(|c| c.shape.thinnest())
        .fold(f32::INFINITY, f32::min)
}
