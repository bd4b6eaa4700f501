//! Rigid bodies: kinds, definitions and state.

use super::filter::Filter;
use super::material::Material;
use crate::math::Aabb;
use crate::math::{Iso, Rot, Vec2};
use crate::shape::Shape;
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
    /// Collision shape, in the body frame.
    pub shape: Shape,
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
    /// Density, friction, restitution.
    pub material: Material,
    /// Linear damping (1/s): velocity decays as `v / (1 + h·c)` per substep.
    pub linear_damping: f32,
    /// Angular damping (1/s).
    pub angular_damping: f32,
    /// Multiplier on world gravity.
    pub gravity_scale: f32,
    /// Which bodies it collides with.
    #[serde(default)]
    pub filter: Filter,
}

impl BodyDef {
    /// A dynamic body with default material at `position`.
    pub fn new(shape: Shape, position: Vec2) -> BodyDef {
        BodyDef {
            shape,
            kind: BodyKind::Dynamic,
            position,
            angle: 0.0,
            linear_velocity: Vec2::ZERO,
            angular_velocity: 0.0,
            material: Material::default(),
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            filter: Filter::default(),
        }
    }

    /// Sets the collision filter.
    pub fn filter(mut self, filter: Filter) -> Self {
        self.filter = filter;
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
    /// Sets the whole material.
    pub fn material(mut self, m: Material) -> Self {
        self.material = m;
        self
    }
    /// Sets the density (kg/m²).
    pub fn density(mut self, d: f32) -> Self {
        self.material.density = d;
        self
    }
    /// Sets the friction coefficient.
    pub fn friction(mut self, f: f32) -> Self {
        self.material.friction = f;
        self
    }
    /// Sets the restitution.
    pub fn restitution(mut self, e: f32) -> Self {
        self.material.restitution = e;
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
}

/// A rigid body owned by a [`crate::World`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Body {
    pub(crate) shape: Shape,
    pub(crate) kind: BodyKind,
    pub(crate) material: Material,
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
    pub(crate) awake: bool,
    pub(crate) sleep_time: f32,
    /// Island the body fell asleep with (wakes together).
    pub(crate) sleep_island: u32,
    /// Frozen after a numerical failure: takes no further part in the step.
    pub(crate) frozen: bool,
    pub(crate) aabb: Aabb,
    #[serde(default)]
    pub(crate) filter: Filter,
    /// Farthest reach of the shape from the centre of mass (m).
    pub(crate) extent: f32,
}

impl Body {
    pub(crate) fn from_def(def: &BodyDef) -> Body {
        let mp = def.shape.mass_properties(def.material.density);
        let xf = Iso::new(def.position, def.angle);
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
        Body {
            aabb: def.shape.aabb(&xf),
            shape: def.shape.clone(),
            kind: def.kind,
            material: def.material,
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
            awake: def.kind != BodyKind::Static,
            sleep_time: 0.0,
            sleep_island: u32::MAX,
            frozen: false,
            filter: def.filter,
            extent: def.shape.bounding_radius() + mp.centroid.length(),
        }
    }

    /// The collision shape.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }
    /// The collision filter.
    pub fn filter(&self) -> &Filter {
        &self.filter
    }

    /// Static, dynamic or kinematic.
    pub fn kind(&self) -> BodyKind {
        self.kind
    }
    /// The material.
    pub fn material(&self) -> &Material {
        &self.material
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
    /// `true` after a numerical failure froze the body.
    pub fn is_frozen(&self) -> bool {
        self.frozen
    }
    /// Tight bounding box at the current pose.
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
