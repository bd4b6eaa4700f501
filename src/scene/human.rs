//! A copy of Box2D v3's ragdoll, `CreateHuman` in `shared/human.c` (commit
//! 617d32a): eleven bones (capsules, and a rounded foot on each shin), ten
//! hinges with limits, joint friction (a motor at speed 0) and a spring, the
//! same filters, materials, damping and sleep threshold. Its rain benchmark
//! drops columns of these.
//!
//! One difference of form, not of physics: Box2D places a bone's body origin
//! at the bone's nominal point and its capsule off-centre (the head's capsule
//! runs from −0.038 to 0.039); here the body origin sits at the capsule's
//! centre and the foot is placed relative to it, so the shapes, mass
//! properties and hinge points in the world are the same.

use super::joint_spec::{BodyRef, JointSpec, SpringSpec, TorqueMotorSpec};
use super::spec::{BodySpec, PartSpec, ShapeSpec};
use super::validate::{check, check_pos};
use super::FieldError;
use crate::dynamics::Filter;
use crate::math::Vec2;
use std::f32::consts::PI;

/// Bodies one human makes.
pub const HUMAN_BODIES: u64 = 11;

/// One bone: its nominal height, its capsule (from `y0` to `y1` about that
/// point, radius `r`), its linear damping, and the hinge to its parent
/// (parent bone, pivot height, limits in units of π, friction scale, the
/// angle of the hinge's frame on the parent in units of π).
/// A bone's hinge to its parent: parent bone, pivot height, limits (units
/// of π), friction scale, frame angle on the parent (units of π).
type Hinge = (usize, f32, (f32, f32), f32, f32);

struct Bone {
    y: f32,
    capsule: (f32, f32, f32),
    damping: f32,
    foot: bool,
    hinge: Option<Hinge>,
}

const fn bone(
    y: f32,
    capsule: (f32, f32, f32),
    damping: f32,
    foot: bool,
    hinge: Option<Hinge>,
) -> Bone {
    Bone {
        y,
        capsule,
        damping,
        foot,
        hinge,
    }
}

// In Box2D's creation order: hip, torso, head, left leg (upper, lower),
// right leg, left arm (upper, lower), right arm.
const BONES: [Bone; 11] = [
    bone(0.95, (-0.02, 0.02, 0.095), 0.0, false, None),
    bone(
        1.2,
        (-0.135, 0.135, 0.09),
        0.0,
        false,
        Some((0, 1.0, (-0.25, 0.0), 0.5, 0.0)),
    ),
    bone(
        1.475,
        (-0.038, 0.039, 0.075),
        0.1,
        false,
        Some((1, 1.4, (-0.3, 0.1), 0.25, 0.0)),
    ),
    bone(
        0.775,
        (-0.125, 0.125, 0.06),
        0.0,
        false,
        Some((0, 0.9, (-0.05, 0.4), 1.0, 0.0)),
    ),
    bone(
        0.475,
        (-0.155, 0.125, 0.045),
        0.0,
        true,
        Some((3, 0.625, (-0.5, -0.02), 0.5, 0.0)),
    ),
    bone(
        0.775,
        (-0.125, 0.125, 0.06),
        0.0,
        false,
        Some((0, 0.9, (-0.05, 0.4), 1.0, 0.0)),
    ),
    bone(
        0.475,
        (-0.155, 0.125, 0.045),
        0.0,
        true,
        Some((5, 0.625, (-0.5, -0.02), 0.5, 0.0)),
    ),
    bone(
        1.225,
        (-0.125, 0.125, 0.035),
        0.0,
        false,
        Some((1, 1.35, (-0.1, 0.8), 0.5, 0.0)),
    ),
    bone(
        0.975,
        (-0.125, 0.125, 0.03),
        0.1,
        false,
        Some((7, 1.1, (-0.2, 0.3), 0.1, 0.25)),
    ),
    bone(
        1.225,
        (-0.125, 0.125, 0.035),
        0.0,
        false,
        Some((1, 1.35, (-0.1, 0.8), 0.5, 0.0)),
    ),
    bone(
        0.975,
        (-0.125, 0.125, 0.03),
        0.1,
        false,
        Some((9, 1.1, (-0.2, 0.3), 0.1, 0.25)),
    ),
];

/// The foot, in the shin's nominal frame, and its rounding radius.
const FOOT: [(f32, f32); 4] = [
    (-0.03, -0.185),
    (0.11, -0.185),
    (0.11, -0.16),
    (-0.03, -0.14),
];
const FOOT_RADIUS: f32 = 0.015;

/// The parameters of one `Humans` generator.
pub(crate) struct Humans {
    pub origin: Vec2,
    pub count: u32,
    pub spacing: Vec2,
    pub scale: f32,
    pub friction_torque: f32,
    pub hertz: f32,
    pub damping_ratio: f32,
    pub first_group: i32,
}

impl Humans {
    /// Checks the numbers.
    pub(crate) fn validate(&self) -> Result<(), FieldError> {
        check_pos("origin", self.origin)?;
        check_pos("spacing", self.spacing)?;
        check("scale", self.scale, 0.05, 100.0, "between 0.05 and 100")?;
        check(
            "friction_torque",
            self.friction_torque,
            0.0,
            1e6,
            "between 0 and 1e6 N·m",
        )?;
        check(
            "hertz",
            self.hertz,
            0.0,
            1e3,
            "between 0 and 1000 Hz (0: no spring)",
        )?;
        check(
            "damping_ratio",
            self.damping_ratio,
            0.0,
            1e3,
            "between 0 and 1000",
        )?;
        if self.count == 0 || self.count > 10_000 {
            return Err(FieldError::new(
                "count",
                format!("must be between 1 and 10000, got {}", self.count),
            ));
        }
        if self.first_group < 0 || self.first_group > i32::MAX - 10_000 {
            return Err(FieldError::new(
                "first_group",
                format!(
                    "must be between 0 and {}, got {}",
                    i32::MAX - 10_000,
                    self.first_group
                ),
            ));
        }
        check_pos("count", self.origin + self.spacing * self.count as f32)
    }

    /// Appends the humans' bodies and hinges. Human `k` stands at
    /// `origin + k · spacing` with group index `first_group + k` (its shapes
    /// never collide with those of the same group).
    pub(crate) fn generate(&self, out: &mut Vec<BodySpec>, joints: &mut Vec<JointSpec>) {
        let s = self.scale;
        for k in 0..self.count {
            let base = out.len();
            // Box2D steps the position by adding `spacing` each time, in f32.
            let mut at = self.origin;
            for _ in 0..k {
                at += self.spacing;
            }
            let group = -(self.first_group + k as i32);
            let filter = Filter {
                category: 2,
                mask: 1 | 2,
                group,
            };
            // Feet do not collide with ragdolls.
            let foot_filter = Filter {
                category: 2,
                mask: 1,
                group,
            };
            for b in &BONES {
                let (y0, y1, r) = b.capsule;
                let centre = 0.5 * (y0 + y1);
                let mut spec = BodySpec::new(
                    ShapeSpec::Capsule {
                        half_height: 0.5 * (y1 - y0) * s,
                        r: r * s,
                    },
                    at + Vec2::new(0.0, (b.y + centre) * s),
                );
                spec.friction = 0.2;
                spec.filter = filter;
                spec.linear_damping = b.damping;
                spec.sleep_threshold = Some(0.1);
                if b.foot {
                    let points = FOOT
                        .iter()
                        .map(|&(x, y)| Vec2::new(x * s, (y - centre) * s))
                        .collect();
                    spec.shapes.push(PartSpec {
                        shape: ShapeSpec::RoundedPolygon {
                            points,
                            radius: FOOT_RADIUS * s,
                        },
                        offset: Vec2::ZERO,
                        angle: 0.0,
                        density: None,
                        friction: Some(0.05),
                        restitution: None,
                        filter: Some(foot_filter),
                        sensor: false,
                    });
                }
                out.push(spec);
            }
            for (i, b) in BONES.iter().enumerate() {
                let Some((parent, pivot, (lo, hi), friction_scale, frame)) = b.hinge else {
                    continue;
                };
                joints.push(JointSpec::Revolute {
                    a: Some(BodyRef::Index((base + parent) as u32)),
                    b: BodyRef::Index((base + i) as u32),
                    anchor: at + Vec2::new(0.0, pivot * s),
                    limits: Some((lo * PI, hi * PI)),
                    motor: Some(TorqueMotorSpec {
                        speed: 0.0,
                        max_torque: friction_scale * self.friction_torque * s,
                    }),
                    spring: (self.hertz > 0.0).then_some(SpringSpec {
                        hertz: self.hertz,
                        damping: self.damping_ratio,
                    }),
                    reference_angle: Some(frame * PI),
                    collide_connected: false,
                    break_force: None,
                    break_torque: None,
                });
            }
        }
    }
}
