//! Generators of jointed machines: chains, bridges, ragdolls and cars. Each
//! appends its bodies and the joints between them (by absolute body index).

use super::error::FieldError;
use super::joint_spec::{BodyRef, JointSpec, SpringSpec, TorqueMotorSpec};
use super::spec::{BodySpec, ShapeSpec};
use super::validate::{check, check_material, check_pos, check_size};
use crate::dynamics::{BodyKind, Filter};
use crate::math::Vec2;

/// Most links of a chain or planks of a bridge.
pub const MAX_LINKS: u32 = 10_000;

fn hinge(a: Option<usize>, b: usize, anchor: Vec2) -> JointSpec {
    JointSpec::Revolute {
        a: a.map(|i| BodyRef::Index(i as u32)),
        b: BodyRef::Index(b as u32),
        anchor,
        limits: None,
        motor: None,
        spring: None,
        reference_angle: None,
        collide_connected: false,
        break_force: None,
        break_torque: None,
    }
}

/// Boards from point to point, hinged where they meet, the first and last
/// points hinged to the world when asked.
#[allow(clippy::too_many_arguments)]
fn boards(
    points: &[Vec2],
    thickness: f32,
    density: f32,
    friction: f32,
    fix_start: bool,
    fix_end: bool,
    out: &mut Vec<BodySpec>,
    joints: &mut Vec<JointSpec>,
) {
    let first = out.len();
    for w in points.windows(2) {
        let d = w[1] - w[0];
        let mut b = BodySpec::new(
            ShapeSpec::Rect {
                hx: 0.5 * d.length(),
                hy: 0.5 * thickness,
            },
            0.5 * (w[0] + w[1]),
        );
        b.angle = libm::atan2f(d.y, d.x);
        b.density = density;
        b.friction = friction;
        out.push(b);
    }
    let n = points.len() - 1;
    if fix_start {
        joints.push(hinge(None, first, points[0]));
    }
    for (k, p) in points.iter().enumerate().take(n).skip(1) {
        joints.push(hinge(Some(first + k - 1), first + k, *p));
    }
    if fix_end {
        joints.push(hinge(None, first + n - 1, points[n]));
    }
}

/// Checks a chain's numbers.
pub(super) fn check_chain(
    start: Vec2,
    links: u32,
    link_length: f32,
    thickness: f32,
    direction: Vec2,
) -> Result<(), FieldError> {
    check_pos("start", start)?;
    count("links", links)?;
    check_size("link_length", link_length)?;
    check_size("thickness", thickness)?;
    check_pos("direction", direction)?;
    if direction.length() < 1e-6 {
        return Err(FieldError::new("direction", "must not be zero"));
    }
    let reach = start + direction.normalize() * link_length * links as f32;
    check_pos("links", reach)
}

/// A chain from `start` along `direction`.
#[allow(clippy::too_many_arguments)]
pub(super) fn chain(
    start: Vec2,
    links: u32,
    link_length: f32,
    thickness: f32,
    direction: Vec2,
    fixed_end: bool,
    density: f32,
    friction: f32,
    out: &mut Vec<BodySpec>,
    joints: &mut Vec<JointSpec>,
) {
    let dir = direction.normalize();
    let points: Vec<Vec2> = (0..=links)
        .map(|k| start + dir * (link_length * k as f32))
        .collect();
    boards(
        &points, thickness, density, friction, true, fixed_end, out, joints,
    );
}

/// Checks a bridge's numbers.
pub(super) fn check_bridge(
    start: Vec2,
    end: Vec2,
    planks: u32,
    sag: f32,
    thickness: f32,
) -> Result<(), FieldError> {
    check_pos("start", start)?;
    check_pos("end", end)?;
    count("planks", planks)?;
    if (end - start).length() < 1e-3 {
        return Err(FieldError::new("end", "must be apart from `start`"));
    }
    check("sag", sag, 0.0, 1.0e4, "between 0 and 10000 m")?;
    check_size("thickness", thickness)
}

/// A bridge hanging `sag` below the line from `start` to `end` (a parabola).
#[allow(clippy::too_many_arguments)]
pub(super) fn bridge(
    start: Vec2,
    end: Vec2,
    planks: u32,
    sag: f32,
    thickness: f32,
    density: f32,
    friction: f32,
    out: &mut Vec<BodySpec>,
    joints: &mut Vec<JointSpec>,
) {
    let points: Vec<Vec2> = (0..=planks)
        .map(|k| {
            let t = k as f32 / planks as f32;
            start + (end - start) * t - Vec2::new(0.0, 4.0 * sag * t * (1.0 - t))
        })
        .collect();
    boards(
        &points, thickness, density, friction, true, true, out, joints,
    );
}

fn count(field: &str, n: u32) -> Result<(), FieldError> {
    if n == 0 || n > MAX_LINKS {
        return Err(FieldError::new(
            field,
            format!("must be between 1 and {MAX_LINKS}, got {n}"),
        ));
    }
    Ok(())
}

/// Bodies one ragdoll makes.
pub const RAGDOLL_BODIES: u64 = 10;

/// Checks a ragdoll generator's numbers.
pub(super) fn check_ragdoll(
    origin: Vec2,
    count: u32,
    spacing: Vec2,
    scale: f32,
    density: f32,
    friction: f32,
) -> Result<(), FieldError> {
    check_pos("origin", origin)?;
    check_pos("spacing", spacing)?;
    check("scale", scale, 0.05, 100.0, "between 0.05 and 100")?;
    check_material(density, friction, 0.0)?;
    check_pos("count", origin + spacing * count as f32)
}

/// One bone: a capsule from `(x, y0)` to `(x, y1)` of radius `r` (or a
/// circle when `y0 == y1`), in metres at scale 1 with the feet at 0.
struct Bone(f32, f32, f32, f32);

/// Ragdolls standing at `origin`, the k-th moved by `k · spacing`; each
/// ragdoll's parts never collide with each other (a negative group of its
/// own), and its hinges have limits and a little friction (a motor at
/// speed 0 with a small torque).
#[allow(clippy::too_many_arguments)]
pub(super) fn ragdolls(
    origin: Vec2,
    count: u32,
    spacing: Vec2,
    scale: f32,
    density: f32,
    friction: f32,
    out: &mut Vec<BodySpec>,
    joints: &mut Vec<JointSpec>,
) {
    // Head, torso, then left and right: upper arm, forearm, thigh, shin.
    const BONES: [Bone; 10] = [
        Bone(0.0, 1.70, 1.70, 0.11),
        Bone(0.0, 1.02, 1.42, 0.14),
        Bone(-0.21, 1.20, 1.44, 0.05),
        Bone(-0.21, 0.90, 1.12, 0.045),
        Bone(0.21, 1.20, 1.44, 0.05),
        Bone(0.21, 0.90, 1.12, 0.045),
        Bone(-0.09, 0.54, 0.90, 0.075),
        Bone(-0.09, 0.08, 0.46, 0.06),
        Bone(0.09, 0.54, 0.90, 0.075),
        Bone(0.09, 0.08, 0.46, 0.06),
    ];
    // (parent, child, anchor, limits): neck, shoulders, elbows, hips, knees.
    type Hinge = (usize, usize, (f32, f32), (f32, f32));
    const HINGES: [Hinge; 9] = [
        (1, 0, (0.0, 1.57), (-0.5, 0.5)),
        (1, 2, (-0.21, 1.46), (-1.0, 3.0)),
        (2, 3, (-0.21, 1.16), (0.0, 2.2)),
        (1, 4, (0.21, 1.46), (-1.0, 3.0)),
        (4, 5, (0.21, 1.16), (0.0, 2.2)),
        (1, 6, (-0.09, 0.96), (-0.5, 2.0)),
        (6, 7, (-0.09, 0.50), (-2.2, 0.0)),
        (1, 8, (0.09, 0.96), (-0.5, 2.0)),
        (8, 9, (0.09, 0.50), (-2.2, 0.0)),
    ];
    for k in 0..count {
        let base = out.len();
        let feet = origin + spacing * k as f32;
        let group = -1 - (base.min(i32::MAX as usize - 2) as i32);
        for bone in &BONES {
            let Bone(x, y0, y1, r) = *bone;
            let pos = feet + scale * Vec2::new(x, 0.5 * (y0 + y1));
            let shape = if y0 == y1 {
                ShapeSpec::Circle { r: r * scale }
            } else {
                ShapeSpec::Capsule {
                    half_height: 0.5 * (y1 - y0) * scale,
                    r: r * scale,
                }
            };
            let mut b = BodySpec::new(shape, pos);
            b.density = density;
            b.friction = friction;
            b.filter = Filter {
                group,
                ..Filter::default()
            };
            out.push(b);
        }
        let mass_scale = scale * scale * density;
        for &(p, c, (x, y), (lo, hi)) in &HINGES {
            joints.push(JointSpec::Revolute {
                a: Some(BodyRef::Index((base + p) as u32)),
                b: BodyRef::Index((base + c) as u32),
                anchor: feet + scale * Vec2::new(x, y),
                limits: Some((lo, hi)),
                motor: Some(TorqueMotorSpec {
                    speed: 0.0,
                    max_torque: 0.02 * mass_scale * scale,
                }),
                spring: None,
                reference_angle: None,
                collide_connected: false,
                break_force: None,
                break_torque: None,
            });
        }
    }
}

/// Bodies one car makes.
pub const CAR_BODIES: u64 = 3;

/// Checks a car generator's numbers.
pub(super) fn check_car(
    origin: Vec2,
    scale: f32,
    speed: f32,
    max_torque: f32,
    hertz: f32,
    density: f32,
) -> Result<(), FieldError> {
    check_pos("origin", origin)?;
    check("scale", scale, 0.05, 100.0, "between 0.05 and 100")?;
    check("speed", speed, -1.0e3, 1.0e3, "within ±1000 rad/s")?;
    check(
        "max_torque",
        max_torque,
        0.0,
        1.0e9,
        "between 0 and 1e9 N·m",
    )?;
    check("hertz", hertz, 0.0, 1.0e3, "between 0 and 1000 Hz")?;
    check_material(density, 0.6, 0.0)
}

/// A car with its lowest point at `origin`: a chassis and two wheels on
/// sprung wheel joints (travel ±0.25 m at scale 1), the rear wheel driven at
/// `speed` (rad/s; negative drives toward +x) with at most `max_torque`.
#[allow(clippy::too_many_arguments)]
pub(super) fn car(
    origin: Vec2,
    scale: f32,
    speed: f32,
    max_torque: f32,
    hertz: f32,
    density: f32,
    out: &mut Vec<BodySpec>,
    joints: &mut Vec<JointSpec>,
) {
    let base = out.len();
    let at = |x: f32, y: f32| origin + scale * Vec2::new(x, y);
    let outline = [
        (-1.5, -0.5),
        (1.5, -0.5),
        (1.5, 0.0),
        (0.0, 0.9),
        (-1.15, 0.9),
        (-1.5, 0.2),
    ];
    let chassis = ShapeSpec::Polygon(
        outline
            .iter()
            .map(|&(x, y)| Vec2::new(0.85 * x * scale, 0.85 * y * scale))
            .collect(),
    );
    let mut body = BodySpec::new(chassis, at(0.0, 1.0));
    body.density = density;
    out.push(body);
    for (x, y) in [(-1.0, 0.4), (1.0, 0.4)] {
        let mut w = BodySpec::new(ShapeSpec::Circle { r: 0.4 * scale }, at(x, y));
        w.density = density;
        w.friction = 1.5;
        w.kind = BodyKind::Dynamic;
        out.push(w);
    }
    for (k, x) in [(1usize, -1.0f32), (2, 1.0)] {
        joints.push(JointSpec::Wheel {
            a: Some(BodyRef::Index(base as u32)),
            b: BodyRef::Index((base + k) as u32),
            anchor: at(x, 0.4),
            axis: Vec2::Y,
            spring: Some(SpringSpec {
                hertz,
                damping: 0.7,
            }),
            limits: Some((-0.25 * scale, 0.25 * scale)),
            motor: (k == 1).then_some(TorqueMotorSpec { speed, max_torque }),
            collide_connected: false,
            break_force: None,
        });
    }
}

pub(super) fn default_link() -> f32 {
    0.25
}
pub(super) fn default_thickness() -> f32 {
    0.08
}
pub(super) fn default_plank() -> f32 {
    0.125
}
pub(super) fn down() -> Vec2 {
    Vec2::new(0.0, -1.0)
}
pub(super) fn one() -> u32 {
    1
}
pub(super) fn one_f() -> f32 {
    1.0
}
pub(super) fn ragdoll_spacing() -> Vec2 {
    Vec2::new(0.0, 2.2)
}
pub(super) fn car_speed() -> f32 {
    -10.0
}
pub(super) fn car_torque() -> f32 {
    20.0
}
pub(super) fn car_hertz() -> f32 {
    5.0
}
