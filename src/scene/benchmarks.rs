//! Copies of Box2D v3's benchmark scenes (`shared/benchmarks.c`, commit
//! 617d32a): the same bodies, shapes, joints, filters, materials and sleep
//! settings, with starting positions accumulated in f32 as the C code does.
//!
//! Where the engines differ the copy says so: Box2D's joints are soft (60 Hz,
//! damping ratio 2) and ours are rigid; a body with no shapes (Box2D's
//! grounds that only anchor a joint) is the world frame here; the compounds
//! scene's far segment (80 m below the floor, never reached) is a thin box.
//! Box2D's capsules lie along x and ours along y, so the spinner's capsule
//! bodies start turned by π/2; Box2D's `enableSleep = false` is a sleep
//! threshold of 0 m/s here.

use super::joint_spec::{BodyRef, JointSpec, TorqueMotorSpec};
use super::spec::{BodySpec, MotionSpec, PartSpec, ShapeSpec};
use crate::dynamics::{BodyKind, Filter};
use crate::math::Vec2;
use serde::{Deserialize, Serialize};

/// Which Box2D benchmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Benchmark {
    /// 100 × 100 discs in a grid of hinges hanging from 7 static discs; no
    /// shape collides with another (category 2, mask ¬2).
    JointGrid,
    /// A 20 m box of four walls (density 50) turned by a motor at 25°/s,
    /// holding 2,025 small boxes.
    Tumbler,
    /// 3,000 bodies of two triangles each, poured into a 80 m wide bin.
    Compounds,
    /// A 20 m box (density 8) at 40 m/s into 9,600 sleeping boxes, no gravity.
    Smash,
    /// A kinematic drum of 40 polygons turning at 25°/s with 8,100 boxes.
    Washer,
    /// The rain benchmark's ground: five rows of 501 half-metre boxes, 45 m
    /// apart, in one static body. The ragdolls are spawned by the scene's
    /// script (`scenes/rain.ron`).
    Rain,
    /// 8,000 pentagons in a 160 m bin, pushed by a kinematic box that
    /// follows `x = 60 sin(0.2 t)`.
    Junkyard,
    /// A one-sided chain loop of 40 m radius holding 6,076 capsules, discs
    /// and boxes, stirred by a 40 m rounded paddle that a hinge motor turns
    /// at 5 rad/s with unlimited torque.
    Spinner,
}

impl Benchmark {
    /// Bodies the scene makes.
    pub fn body_count(self) -> u64 {
        match self {
            Benchmark::JointGrid => 10_000,
            Benchmark::Tumbler => 2_026,
            Benchmark::Compounds => 3_001,
            Benchmark::Smash => 9_601,
            Benchmark::Washer => 8_101,
            Benchmark::Rain => 1,
            Benchmark::Junkyard => 8_002,
            Benchmark::Spinner => 6_078,
        }
    }

    /// Appends the scene's bodies and joints.
    pub(super) fn generate(self, out: &mut Vec<BodySpec>, joints: &mut Vec<JointSpec>) {
        match self {
            Benchmark::JointGrid => joint_grid(out, joints),
            Benchmark::Tumbler => tumbler(out, joints),
            Benchmark::Compounds => compounds(out),
            Benchmark::Smash => smash(out),
            Benchmark::Washer => washer(out),
            Benchmark::Rain => rain_ground(out),
            Benchmark::Junkyard => junkyard(out),
            Benchmark::Spinner => spinner(out, joints),
        }
    }
}

fn body(shape: ShapeSpec, pos: Vec2, kind: BodyKind) -> BodySpec {
    BodySpec {
        kind,
        ..BodySpec::new(shape, pos)
    }
}

fn part(shape: ShapeSpec, offset: Vec2) -> PartSpec {
    PartSpec {
        shape,
        offset,
        angle: 0.0,
        density: None,
        friction: None,
        restitution: None,
        filter: None,
        sensor: false,
    }
}

fn hinge(a: Option<usize>, b: usize, anchor: Vec2, motor: Option<TorqueMotorSpec>) -> JointSpec {
    JointSpec::Revolute {
        a: a.map(|i| BodyRef::Index(i as u32)),
        b: BodyRef::Index(b as u32),
        anchor,
        limits: None,
        motor,
        spring: None,
        reference_angle: None,
        collide_connected: false,
        break_force: None,
        break_torque: None,
    }
}

fn joint_grid(out: &mut Vec<BodySpec>, joints: &mut Vec<JointSpec>) {
    const N: usize = 100;
    let filter = Filter {
        category: 2,
        mask: !2u32,
        group: 0,
    };
    let base = out.len();
    for k in 0..N {
        for i in 0..N {
            let fixed = (N / 2 - 3..=N / 2 + 3).contains(&k) && i == 0;
            let kind = if fixed {
                BodyKind::Static
            } else {
                BodyKind::Dynamic
            };
            let pos = Vec2::new(k as f32, -(i as f32));
            let mut b = body(ShapeSpec::Circle { r: 0.4 }, pos, kind);
            b.filter = filter;
            let index = base + k * N + i;
            out.push(b);
            if i > 0 {
                joints.push(hinge(
                    Some(index - 1),
                    index,
                    pos + Vec2::new(0.0, 0.5),
                    None,
                ));
            }
            // Box2D also hinges the static discs to each other; those six
            // joints do nothing, and a joint between two static bodies is an
            // error here, so the copy leaves them out.
            let left_fixed = (N / 2 - 3..=N / 2 + 3).contains(&(k.wrapping_sub(1))) && i == 0;
            if k > 0 && !(fixed && left_fixed) {
                joints.push(hinge(
                    Some(index - N),
                    index,
                    pos + Vec2::new(-0.5, 0.0),
                    None,
                ));
            }
        }
    }
}

/// A body of several offset shapes: the body's origin sits on the first
/// shape (the primary shape of a body is at its origin), the others are placed
/// relative to it. The mass properties are those of the shapes wherever the
/// origin is.
fn offset_shapes(shapes: Vec<(ShapeSpec, Vec2)>, origin: Vec2, kind: BodyKind) -> BodySpec {
    let mut it = shapes.into_iter();
    let (first, at) = it.next().expect("at least one shape");
    let mut b = body(first, origin + at, kind);
    b.shapes = it.map(|(s, o)| part(s, o - at)).collect();
    b
}

fn tumbler(out: &mut Vec<BodySpec>, joints: &mut Vec<JointSpec>) {
    let rect = |hx, hy| ShapeSpec::Rect { hx, hy };
    let mut drum = offset_shapes(
        vec![
            (rect(0.5, 10.0), Vec2::new(10.0, 0.0)),
            (rect(0.5, 10.0), Vec2::new(-10.0, 0.0)),
            (rect(10.0, 0.5), Vec2::new(0.0, 10.0)),
            (rect(10.0, 0.5), Vec2::new(0.0, -10.0)),
        ],
        Vec2::new(0.0, 10.0),
        BodyKind::Dynamic,
    );
    drum.density = 50.0;
    let index = out.len();
    out.push(drum);
    joints.push(hinge(
        None,
        index,
        Vec2::new(0.0, 10.0),
        Some(TorqueMotorSpec {
            speed: (std::f32::consts::PI / 180.0) * 25.0,
            max_torque: 1.0e8,
        }),
    ));
    let grid = 45;
    let mut y = -0.2f32 * grid as f32 + 10.0;
    for _ in 0..grid {
        let mut x = -0.2f32 * grid as f32;
        for _ in 0..grid {
            out.push(BodySpec::new(
                ShapeSpec::Rect {
                    hx: 0.125,
                    hy: 0.125,
                },
                Vec2::new(x, y),
            ));
            x += 0.4;
        }
        y += 0.4;
    }
}

fn compounds(out: &mut Vec<BodySpec>) {
    // The bin: one static body of 281 offset boxes, and the far segment.
    let mut shapes = Vec::new();
    let mut x = -40.0f32;
    for _ in 0..81 {
        shapes.push((ShapeSpec::Rect { hx: 0.55, hy: 0.5 }, Vec2::new(x, 0.0)));
        x += 1.0;
    }
    for wall_x in [-40.0f32, 40.0] {
        let mut y = 1.0f32;
        for _ in 0..100 {
            shapes.push((ShapeSpec::Rect { hx: 0.5, hy: 0.55 }, Vec2::new(wall_x, y)));
            y += 1.0;
        }
    }
    shapes.push((
        ShapeSpec::Rect {
            hx: 800.0,
            hy: 0.005,
        },
        Vec2::new(0.0, -80.0),
    ));
    out.push(offset_shapes(shapes, Vec2::ZERO, BodyKind::Static));
    let left = vec![
        Vec2::new(-1.0, 0.0),
        Vec2::new(0.5, 1.0),
        Vec2::new(0.0, 2.0),
    ];
    let right = vec![
        Vec2::new(1.0, 0.0),
        Vec2::new(0.0, 2.0),
        Vec2::new(-0.5, 1.0),
    ];
    let (columns, rows) = (20, 150);
    let (shift, extray) = (2.0f32, 0.25f32);
    let mut side = 0.25f32;
    let center_x = shift * columns as f32 / 2.0 - 1.0;
    let center_y = 1.15f32 / 2.0;
    let y_start = 5.0f32;
    for i in 0..columns {
        let x = i as f32 * shift - center_x;
        for j in 0..rows {
            let y = j as f32 * (shift + extray) + center_y + y_start;
            let mut b = BodySpec::new(ShapeSpec::Polygon(left.clone()), Vec2::new(x + side, y));
            side = -side;
            b.friction = 0.5;
            b.shapes = vec![part(ShapeSpec::Polygon(right.clone()), Vec2::ZERO)];
            out.push(b);
        }
    }
}

fn smash(out: &mut Vec<BodySpec>) {
    let mut projectile = BodySpec::new(ShapeSpec::Rect { hx: 4.0, hy: 4.0 }, Vec2::new(-20.0, 0.0));
    projectile.vel = Vec2::new(40.0, 0.0);
    projectile.density = 8.0;
    out.push(projectile);
    let d = 0.4f32;
    let (columns, rows) = (120, 80);
    for i in 0..columns {
        for j in 0..rows {
            let pos = Vec2::new(i as f32 * d + 30.0, (j as f32 - rows as f32 / 2.0) * d);
            let mut b = BodySpec::new(
                ShapeSpec::Rect {
                    hx: 0.5 * d,
                    hy: 0.5 * d,
                },
                pos,
            );
            b.awake = false;
            out.push(b);
        }
    }
}

fn washer(out: &mut Vec<BodySpec>) {
    let (r0, r1, r2) = (14.0f32, 16.0f32, 18.0f32);
    // cosf and sinf of 10° and 1°, as the C library gives them.
    let q = (0.984_807_7_f32, 0.173_648_2_f32);
    let qo = (0.999_847_7f32, 0.017_452_408f32);
    let rot = |q: (f32, f32), v: Vec2| Vec2::new(q.0 * v.x - q.1 * v.y, q.1 * v.x + q.0 * v.y);
    let inv_rot = |q: (f32, f32), v: Vec2| Vec2::new(q.0 * v.x + q.1 * v.y, -q.1 * v.x + q.0 * v.y);
    let mut polygons: Vec<Vec<Vec2>> = Vec::new();
    let mut u1 = Vec2::new(1.0, 0.0);
    for i in 0..36 {
        let u2 = if i == 35 {
            Vec2::new(1.0, 0.0)
        } else {
            rot(q, u1)
        };
        let (a1, a2) = (inv_rot(qo, u1), rot(qo, u2));
        polygons.push(vec![r1 * a1, r2 * a1, r2 * a2, r1 * a2]);
        if i % 9 == 0 {
            polygons.push(vec![r0 * u1, r1 * u1, r1 * u2, r0 * u2]);
        }
        u1 = u2;
    }
    let mut drum = body(
        ShapeSpec::Polygon(polygons[0].clone()),
        Vec2::new(0.0, 10.0),
        BodyKind::Kinematic,
    );
    drum.vel = Vec2::new(0.001, -0.002);
    drum.angvel = (std::f32::consts::PI / 180.0) * 25.0;
    drum.shapes = polygons[1..]
        .iter()
        .map(|p| part(ShapeSpec::Polygon(p.clone()), Vec2::ZERO))
        .collect();
    out.push(drum);
    let (a, grid) = (0.1f32, 90);
    let mut y = -1.1f32 * a * grid as f32 + 10.0;
    for _ in 0..grid {
        let mut x = -1.1f32 * a * grid as f32;
        for _ in 0..grid {
            out.push(BodySpec::new(
                ShapeSpec::Rect { hx: a, hy: a },
                Vec2::new(x, y),
            ));
            x += 2.1 * a;
        }
        y += 2.1 * a;
    }
}

fn rain_ground(out: &mut Vec<BodySpec>) {
    const GRID: f32 = 0.5;
    const COUNT: usize = 500;
    let mut boxes = Vec::with_capacity(5 * (COUNT + 1));
    let mut y = 0.0f32;
    for _ in 0..5 {
        let mut x = -0.5 * COUNT as f32 * GRID;
        for _ in 0..=COUNT {
            let r = ShapeSpec::Rect {
                hx: 0.5 * GRID,
                hy: 0.5 * GRID,
            };
            boxes.push((r, Vec2::new(x, y)));
            x += GRID;
        }
        y += 45.0;
    }
    out.push(offset_shapes(boxes, Vec2::ZERO, BodyKind::Static));
}

fn junkyard(out: &mut Vec<BodySpec>) {
    let rect = |hx, hy| ShapeSpec::Rect { hx, hy };
    let mut ground = Vec::with_capacity(261);
    let mut x = -80.0f32;
    for _ in 0..161 {
        ground.push((rect(0.55, 0.5), Vec2::new(x, 0.0)));
        x += 1.0;
    }
    for side in [-80.0f32, 80.0] {
        let mut y = 1.0f32;
        for _ in 0..50 {
            ground.push((rect(0.5, 0.55), Vec2::new(side, y)));
            y += 1.0;
        }
    }
    out.push(offset_shapes(ground, Vec2::ZERO, BodyKind::Static));

    // Five points of a Fibonacci spiral on a circle of radius 0.25, in hull
    // order (Box2D takes their convex hull).
    let radius = 0.25f32;
    let phi = std::f32::consts::PI * (5f32.sqrt() - 1.0);
    let mut points: Vec<(f32, Vec2)> = (0..5)
        .map(|i| {
            let t = phi * i as f32;
            let (s, c) = (libm::sinf(t), libm::cosf(t));
            (libm::atan2f(s, c), Vec2::new(radius * c, radius * s))
        })
        .collect();
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    let pentagon = ShapeSpec::Polygon(points.into_iter().map(|(_, p)| p).collect());
    let (columns, rows) = (200, 40);
    let mut side = -0.1f32;
    for i in 0..columns {
        let x = 1.5 * (2.0 * i as f32 - columns as f32) * radius;
        for j in 0..rows {
            let y = 4.0 * j as f32 * radius + 15.0;
            out.push(body(
                pentagon.clone(),
                Vec2::new(x + side, y),
                BodyKind::Dynamic,
            ));
            side = -side;
        }
    }

    // The pusher: a 4 × 8 m box standing on the origin; Box2D moves it with
    // b2Body_SetTargetTransform to x = 60 sin(0.2 t) at step t / dt, which it
    // reaches a step later, hence the phase of −0.2 dt.
    let mut pusher = body(rect(2.0, 4.0), Vec2::new(0.0, 4.0), BodyKind::Kinematic);
    pusher.motion = Some(MotionSpec::Sine {
        amplitude: Vec2::new(60.0, 0.0),
        angular_amplitude: 0.0,
        omega: 0.2,
        phase: -0.2 / 60.0,
    });
    out.push(pusher);
}

/// Box2D's `b2ComputeCosSin` for an angle in [−π, π]: the cosine and sine by
/// Bhaskara's rational approximation, then scaled to unit length. It is not
/// `cosf`/`sinf`: for −1° its sine is −0.017757 instead of −0.017452, and the
/// spinner's chain is built from it, so its points are only right with it.
fn box2d_cos_sin(x: f32) -> (f32, f32) {
    use std::f32::consts::PI;
    debug_assert!((-PI..=PI).contains(&x));
    let pi2 = PI * PI;
    // cos(y) ≈ (π² − 4y²) / (π² + y²) for |y| ≤ π/2; shift by π outside.
    let bhaskara_cos = |y: f32| (pi2 - 4.0 * y * y) / (pi2 + y * y);
    let c = if x < -0.5 * PI {
        -bhaskara_cos(x + PI)
    } else if x > 0.5 * PI {
        -bhaskara_cos(x - PI)
    } else {
        bhaskara_cos(x)
    };
    // sin(y) ≈ 16y(π − y) / (5π² − 4y(π − y)) for y in [0, π].
    let bhaskara_sin = |y: f32| 16.0 * y * (PI - y) / (5.0 * pi2 - 4.0 * y * (PI - y));
    let s = if x < 0.0 {
        -bhaskara_sin(x + PI)
    } else {
        bhaskara_sin(x)
    };
    let mag = (s * s + c * c).sqrt();
    let inv = if mag > 0.0 { 1.0 / mag } else { 0.0 };
    (c * inv, s * inv)
}

/// The spinner's loop: (40, 0) turned again and again by Box2D's
/// approximate −1° (`b2MakeRot(−2π/360)`), shifted up 32 m. The approximate
/// turn is 1.0175°, so the 360 points go round 366.3°: the last six overlap
/// the first six, and the closing edge runs back counter-clockwise over
/// them, its solid side outwards, where no body is.
fn spinner_loop() -> Vec<Vec2> {
    const COUNT: usize = 360;
    let (c, s) = box2d_cos_sin(-2.0 * std::f32::consts::PI / COUNT as f32);
    let mut p = Vec2::new(40.0, 0.0);
    let mut points = Vec::with_capacity(COUNT);
    for _ in 0..COUNT {
        points.push(Vec2::new(p.x, p.y + 32.0));
        p = Vec2::new(c * p.x - s * p.y, s * p.x + c * p.y);
    }
    points
}

fn spinner(out: &mut Vec<BodySpec>, joints: &mut Vec<JointSpec>) {
    // The ground: the loop, clockwise, so that bodies stay inside it.
    let ground = out.len();
    let mut chain = body(
        ShapeSpec::Chain {
            points: spinner_loop(),
            closed: true,
        },
        Vec2::ZERO,
        BodyKind::Static,
    );
    chain.friction = 0.1;
    out.push(chain);

    let pivot = Vec2::new(0.0, 12.0);
    let mut paddle = BodySpec::new(
        ShapeSpec::RoundedRect {
            hx: 0.4,
            hy: 20.0,
            radius: 0.2,
        },
        pivot,
    );
    paddle.friction = 0.0;
    // Box2D's enableSleep = false: the body may rest only at exactly zero
    // speed, which the motor never lets it reach.
    paddle.sleep_threshold = Some(0.0);
    let index = out.len();
    out.push(paddle);
    joints.push(hinge(
        Some(ground),
        index,
        pivot,
        Some(TorqueMotorSpec {
            speed: 5.0,
            max_torque: f32::MAX,
        }),
    ));

    let shapes = [
        // Box2D's capsule (−0.25, 0)..(0.25, 0), r 0.25: ours lies along y,
        // so the body turns it by π/2.
        ShapeSpec::Capsule {
            half_height: 0.25,
            r: 0.25,
        },
        ShapeSpec::Circle { r: 0.35 },
        ShapeSpec::Rect { hx: 0.35, hy: 0.35 },
    ];
    let (mut x, mut y) = (-23.0f32, 2.0f32);
    for i in 0..2 * 3038 {
        let mut b = BodySpec::new(shapes[i % 3].clone(), Vec2::new(x, y));
        if i % 3 == 0 {
            b.angle = std::f32::consts::FRAC_PI_2;
        }
        b.friction = 0.1;
        b.restitution = 0.1;
        b.density = 0.25;
        out.push(b);
        x += 0.5;
        if x >= 23.0 {
            x = -23.0;
            y += 0.5;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Box2D's own numbers (its `b2MakeRot(−2π/360)` and a FNV-1a hash of the
    /// loop's coordinate bits, printed by a C program linked against Box2D
    /// v3 at 617d32a).
    #[test]
    fn the_spinner_loop_has_box2ds_bits() {
        let (c, s) = box2d_cos_sin(-2.0 * std::f32::consts::PI / 360.0);
        assert_eq!((c.to_bits(), s.to_bits()), (0x3f7f_f5ab, 0xbc91_77d5));
        let mut h: u64 = 1_469_598_103_934_665_603;
        for p in spinner_loop() {
            for v in [p.x, p.y] {
                h = (h ^ v.to_bits() as u64).wrapping_mul(1_099_511_628_211);
            }
        }
        assert_eq!(h, 0xd398_fbd0_e560_eed4);
    }
}
