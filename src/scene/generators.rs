//! Body generators: pyramids, grids and random rain, and jointed machines
//! (chains, bridges, ragdolls, cars; see `machines`).
//!
//! Generators expand in order after the explicit bodies. They share one
//! `ChaCha8Rng` seeded with the scene's `seed` (`SeedableRng::seed_from_u64`);
//! only `Rain` draws from it. Random numbers are made from the raw 32-bit
//! output so that they do not depend on the `rand` crate's sampling code:
//!
//! * `unit(u) = (u >> 8) · 2⁻²⁴`, in [0, 1);
//! * `uniform(lo, hi) = lo + (hi − lo) · unit(u)`;
//! * a choice among `n` items is `u mod n`.
//!
//! Each `Rain` body takes exactly six draws, in this order: shape kind, x, y,
//! size `s`, angle in [−π, π), and an aspect draw `a`. The shape follows from
//! the kind: `Circle(r: s)`, `Rect(hx: s, hy: s·(0.5 + 0.5·unit(a)))`,
//! `Ellipse(rx: s, ry: s·(0.4 + 0.6·unit(a)))`,
//! `Capsule(half_height: s·(0.5 + 0.5·unit(a)), r: 0.5·s)`, and `Polygon`: the
//! regular polygon of `3 + (a mod 6)` vertices on the circle of radius `s`.

use super::benchmarks::Benchmark;
use super::error::FieldError;
use super::human::HUMAN_BODIES;
use super::joint_spec::JointSpec;
use super::machines::{
    car_hertz, car_speed, car_torque, default_link, default_plank, default_thickness, down, one,
    one_f, ragdoll_spacing, CAR_BODIES, RAGDOLL_BODIES,
};
use super::spec::{default_density, default_friction, BodySpec, ShapeKind, ShapeSpec};
use super::validate::{check, check_material, check_pos, check_size, shape_field_error};
use crate::math::Vec2;
use crate::world::MAX_POSITION;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

mod machine;

/// Makes many bodies from a few numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Generator {
    /// Box2D's pyramid of boxes with half extent `half`, `base` boxes on the
    /// bottom row, bottom centre at `origin`. Row `i` (from 0 at the bottom)
    /// holds boxes `j = i..base` at
    /// `y = origin.y + (2i+1)·half`,
    /// `x = origin.x + (i+1)·half + 2·(j−i)·half − base·half`.
    /// With `repeat: (columns, rows)` the pyramid is copied on a grid whose
    /// steps are `spacing`, bottom row first, left to right.
    Pyramid {
        /// Boxes on the bottom row (≥ 1).
        base: u32,
        /// Half extent of each box (m).
        half: f32,
        /// Bottom centre of the (first) pyramid.
        #[serde(default = "zero")]
        origin: Vec2,
        /// Copies along x and y (default (1, 1)).
        #[serde(default = "one_one")]
        repeat: (u32, u32),
        /// Offset between copies (m).
        #[serde(default = "zero")]
        spacing: Vec2,
        /// Density of the boxes.
        #[serde(default = "default_density")]
        density: f32,
        /// Friction of the boxes.
        #[serde(default = "default_friction")]
        friction: f32,
    },
    /// `columns × rows` copies of one dynamic shape, the first centred at
    /// `origin`, the others offset by `spacing`; bottom row first, left to right.
    Grid {
        /// The shape of every body.
        shape: ShapeSpec,
        /// Bodies along x (≥ 1).
        columns: u32,
        /// Bodies along y (≥ 1).
        rows: u32,
        /// Centre of the bottom-left body.
        #[serde(default = "zero")]
        origin: Vec2,
        /// Offset between neighbours (m).
        spacing: Vec2,
        /// Density.
        #[serde(default = "default_density")]
        density: f32,
        /// Friction.
        #[serde(default = "default_friction")]
        friction: f32,
        /// Restitution.
        #[serde(default)]
        restitution: f32,
    },
    /// `count` dynamic bodies at uniformly random positions in the box
    /// `min..max`, random angles, shape kinds drawn from `shapes`, and sizes
    /// (radius or half extent) uniform in `size = (smallest, largest)`.
    /// Bodies may overlap at the start; the solver pushes them apart.
    Rain {
        /// Number of bodies (may be 0).
        count: u32,
        /// Lower-left corner of the spawn box.
        min: Vec2,
        /// Upper-right corner of the spawn box.
        max: Vec2,
        /// Shape kinds to draw from (at least one).
        shapes: Vec<ShapeKind>,
        /// Smallest and largest size (m).
        size: (f32, f32),
    },
    /// A chain of `links` boxes `link_length` long and `thickness` thick,
    /// hinged end to end from `start` along `direction` (default straight
    /// down); the first link is hinged to the world at `start` and, with
    /// `fixed_end`, the last one at its far end.
    Chain {
        /// The first hinge (world, m).
        start: Vec2,
        /// Links (1 to 10,000).
        links: u32,
        /// Length of a link (m). Default 0.25.
        #[serde(default = "default_link")]
        link_length: f32,
        /// Thickness of a link (m). Default 0.08.
        #[serde(default = "default_thickness")]
        thickness: f32,
        /// Direction of the chain from `start`. Default (0, −1).
        #[serde(default = "down")]
        direction: Vec2,
        /// Hinge the last link to the world too. Default false.
        #[serde(default)]
        fixed_end: bool,
        /// Density.
        #[serde(default = "default_density")]
        density: f32,
        /// Friction.
        #[serde(default = "default_friction")]
        friction: f32,
    },
    /// A bridge of `planks` boards hinged end to end between `start` and
    /// `end`, both ends hinged to the world, hanging `sag` below the straight
    /// line in the middle (a parabola).
    Bridge {
        /// Left end (world, m).
        start: Vec2,
        /// Right end (world, m).
        end: Vec2,
        /// Boards (1 to 10,000).
        planks: u32,
        /// Sag at the middle (m). Default 0.
        #[serde(default)]
        sag: f32,
        /// Board thickness (m). Default 0.125.
        #[serde(default = "default_plank")]
        thickness: f32,
        /// Density.
        #[serde(default = "default_density")]
        density: f32,
        /// Friction.
        #[serde(default = "default_friction")]
        friction: f32,
    },
    /// `count` ragdolls (1.8 m tall at `scale` 1), the first standing on
    /// `origin`, each next one moved by `spacing`: ten capsules and a head,
    /// hinged with limits and a little joint friction; a ragdoll's parts do
    /// not collide with each other.
    Ragdoll {
        /// Where the first ragdoll's feet are.
        origin: Vec2,
        /// Ragdolls. Default 1.
        #[serde(default = "one")]
        count: u32,
        /// Offset from one ragdoll to the next. Default (0, 2.2).
        #[serde(default = "ragdoll_spacing")]
        spacing: Vec2,
        /// Size factor. Default 1.
        #[serde(default = "one_f")]
        scale: f32,
        /// Density.
        #[serde(default = "default_density")]
        density: f32,
        /// Friction.
        #[serde(default = "default_friction")]
        friction: f32,
    },
    /// `count` copies of Box2D v3's ragdoll (`shared/human.c`; see
    /// `scene::human`), the first standing on `origin`, each next one moved
    /// by `spacing`; human `k` has group index `first_group + k`.
    Humans {
        /// Where the first human's feet are.
        origin: Vec2,
        /// Humans. Default 1.
        #[serde(default = "one")]
        count: u32,
        /// Offset from one human to the next. Default (0.5, 0).
        #[serde(default = "human_spacing")]
        spacing: Vec2,
        /// Size factor. Default 1.
        #[serde(default = "one_f")]
        scale: f32,
        /// Joint friction torque (N·m, times the bone's share). Default 0.05.
        #[serde(default = "human_friction")]
        friction_torque: f32,
        /// Joint spring frequency (Hz; 0: none). Default 5.
        #[serde(default = "human_hertz")]
        hertz: f32,
        /// Joint spring damping ratio. Default 0.5.
        #[serde(default = "human_damping")]
        damping_ratio: f32,
        /// Group index of the first human. Default 1.
        #[serde(default = "one_i")]
        first_group: i32,
    },
    /// A car whose wheels touch `origin`'s height: a chassis and two wheels on
    /// sprung wheel joints, the rear wheel driven by a motor.
    Car {
        /// Below the middle of the car, at the wheels' bottom.
        origin: Vec2,
        /// Size factor. Default 1.
        #[serde(default = "one_f")]
        scale: f32,
        /// Rear wheel motor speed (rad/s; negative drives toward +x). Default −10.
        #[serde(default = "car_speed")]
        speed: f32,
        /// Rear wheel motor torque cap (N·m). Default 20.
        #[serde(default = "car_torque")]
        max_torque: f32,
        /// Suspension frequency (Hz). Default 5.
        #[serde(default = "car_hertz")]
        hertz: f32,
        /// Density.
        #[serde(default = "default_density")]
        density: f32,
    },
    /// A copy of one of Box2D v3's benchmark scenes (see `benchmarks`).
    Box2D(Benchmark),
}

fn zero() -> Vec2 {
    Vec2::ZERO
}
fn human_spacing() -> Vec2 {
    Vec2::new(0.5, 0.0)
}
fn human_friction() -> f32 {
    0.05
}
fn human_hertz() -> f32 {
    5.0
}
fn human_damping() -> f32 {
    0.5
}
fn one_i() -> i32 {
    1
}
fn one_one() -> (u32, u32) {
    (1, 1)
}

fn unit(u: u32) -> f32 {
    (u >> 8) as f32 * (1.0 / 16_777_216.0)
}

fn uniform(rng: &mut ChaCha8Rng, lo: f32, hi: f32) -> f32 {
    lo + (hi - lo) * unit(rng.next_u32())
}

/// Checks that an axis-aligned box of positions (f64, so nothing overflows)
/// stays inside the world.
fn check_extent(field: &str, lo: [f64; 2], hi: [f64; 2]) -> Result<(), FieldError> {
    let m = MAX_POSITION as f64;
    if [lo[0], lo[1], hi[0], hi[1]]
        .iter()
        .all(|v| v.is_finite() && v.abs() <= m)
    {
        Ok(())
    } else {
        Err(FieldError::new(
            field,
            format!(
                "the generated bodies would reach ({:.0}, {:.0})..({:.0}, {:.0}), beyond ±1000000 m",
                lo[0], lo[1], hi[0], hi[1]
            ),
        ))
    }
}

fn at_least_one(field: &str, v: u32) -> Result<(), FieldError> {
    if v == 0 {
        Err(FieldError::new(field, "must be at least 1, got 0"))
    } else {
        Ok(())
    }
}

impl Generator {
    /// The variant name, as written in scene files.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Generator::Pyramid { .. } => "Pyramid",
            Generator::Grid { .. } => "Grid",
            Generator::Rain { .. } => "Rain",
            Generator::Chain { .. } => "Chain",
            Generator::Bridge { .. } => "Bridge",
            Generator::Ragdoll { .. } => "Ragdoll",
            Generator::Humans { .. } => "Humans",
            Generator::Car { .. } => "Car",
            Generator::Box2D(_) => "Box2D",
        }
    }

    /// Whether the generator makes joints.
    pub fn makes_joints(&self) -> bool {
        matches!(
            self,
            Generator::Chain { .. }
                | Generator::Bridge { .. }
                | Generator::Ragdoll { .. }
                | Generator::Humans { .. }
                | Generator::Car { .. }
                | Generator::Box2D(_)
        )
    }

    /// How many bodies the generator makes (saturating, so absurd counts stay
    /// comparable with the cap).
    pub fn body_count(&self) -> u64 {
        match *self {
            Generator::Pyramid { base, repeat, .. } => {
                let b = base as u64;
                (b * (b + 1) / 2)
                    .saturating_mul(repeat.0 as u64)
                    .saturating_mul(repeat.1 as u64)
            }
            Generator::Grid { columns, rows, .. } => (columns as u64).saturating_mul(rows as u64),
            Generator::Rain { count, .. } => count as u64,
            Generator::Chain { links, .. } => links as u64,
            Generator::Bridge { planks, .. } => planks as u64,
            Generator::Ragdoll { count, .. } => (count as u64).saturating_mul(RAGDOLL_BODIES),
            Generator::Humans { count, .. } => (count as u64).saturating_mul(HUMAN_BODIES),
            Generator::Car { .. } => CAR_BODIES,
            Generator::Box2D(b) => b.body_count(),
        }
    }

    /// Checks every field without generating anything.
    pub fn validate(&self) -> Result<(), FieldError> {
        match self {
            Generator::Pyramid {
                base,
                half,
                origin,
                repeat,
                spacing,
                density,
                friction,
            } => {
                at_least_one("base", *base)?;
                check_size("half", *half)?;
                check_pos("origin", *origin)?;
                at_least_one("repeat.0", repeat.0)?;
                at_least_one("repeat.1", repeat.1)?;
                check_pos("spacing", *spacing)?;
                check_material(*density, *friction, 0.0)?;
                let (h, b) = (*half as f64, *base as f64);
                let far = [
                    spacing.x as f64 * (repeat.0 as f64 - 1.0),
                    spacing.y as f64 * (repeat.1 as f64 - 1.0),
                ];
                let (x0, y0) = (origin.x as f64, origin.y as f64);
                check_extent(
                    "origin",
                    [x0 - b * h + far[0].min(0.0), y0 + far[1].min(0.0)],
                    [
                        x0 + b * h + far[0].max(0.0),
                        y0 + 2.0 * b * h + far[1].max(0.0),
                    ],
                )
            }
            Generator::Grid {
                shape,
                columns,
                rows,
                origin,
                spacing,
                density,
                friction,
                restitution,
            } => {
                shape.to_shapes().map_err(shape_field_error)?;
                at_least_one("columns", *columns)?;
                at_least_one("rows", *rows)?;
                check_pos("origin", *origin)?;
                check_pos("spacing", *spacing)?;
                check_material(*density, *friction, *restitution)?;
                let far = [
                    spacing.x as f64 * (*columns as f64 - 1.0),
                    spacing.y as f64 * (*rows as f64 - 1.0),
                ];
                let (x0, y0) = (origin.x as f64, origin.y as f64);
                check_extent(
                    "spacing",
                    [x0 + far[0].min(0.0), y0 + far[1].min(0.0)],
                    [x0 + far[0].max(0.0), y0 + far[1].max(0.0)],
                )
            }
            Generator::Rain {
                count: _,
                min,
                max,
                shapes,
                size,
            } => {
                check_pos("min", *min)?;
                check_pos("max", *max)?;
                if min.x > max.x || min.y > max.y {
                    return Err(FieldError::new(
                        "max",
                        format!(
                            "must not lie left of or below `min` = ({}, {}), got ({}, {})",
                            min.x, min.y, max.x, max.y
                        ),
                    ));
                }
                if shapes.is_empty() {
                    return Err(FieldError::new(
                        "shapes",
                        "must list at least one of Circle, Rect, Polygon, Ellipse, Capsule",
                    ));
                }
                check_size("size.0", size.0)?;
                check_size("size.1", size.1)?;
                check("size.1", size.1, size.0, f32::MAX, "at least `size.0`")
            }
            _ => self.validate_machine(),
        }
    }

    /// Appends the generated bodies to `out` and their joints to `joints`
    /// (referring to bodies by index in `out`), drawing from `rng`. Call on
    /// a validated generator.
    pub fn generate(
        &self,
        rng: &mut ChaCha8Rng,
        out: &mut Vec<BodySpec>,
        joints: &mut Vec<JointSpec>,
    ) {
        match self {
            Generator::Pyramid {
                base,
                half,
                origin,
                repeat,
                spacing,
                density,
                friction,
            } => {
                let (n, h) = (*base, *half);
                for r in 0..repeat.1 {
                    for c in 0..repeat.0 {
                        let o = Vec2::new(
                            origin.x + c as f32 * spacing.x,
                            origin.y + r as f32 * spacing.y,
                        );
                        for i in 0..n {
                            let y = o.y + (2 * i + 1) as f32 * h;
                            for j in i..n {
                                let x = o.x + (i + 1) as f32 * h + (2 * (j - i)) as f32 * h
                                    - n as f32 * h;
                                let mut b = BodySpec::new(
                                    ShapeSpec::Rect { hx: h, hy: h },
                                    Vec2::new(x, y),
                                );
                                b.density = *density;
                                b.friction = *friction;
                                out.push(b);
                            }
                        }
                    }
                }
            }
            Generator::Grid {
                shape,
                columns,
                rows,
                origin,
                spacing,
                density,
                friction,
                restitution,
            } => {
                for r in 0..*rows {
                    for c in 0..*columns {
                        let p = Vec2::new(
                            origin.x + c as f32 * spacing.x,
                            origin.y + r as f32 * spacing.y,
                        );
                        let mut b = BodySpec::new(shape.clone(), p);
                        b.density = *density;
                        b.friction = *friction;
                        b.restitution = *restitution;
                        out.push(b);
                    }
                }
            }
            Generator::Rain {
                count,
                min,
                max,
                shapes,
                size,
            } => {
                if shapes.is_empty() {
                    return;
                }
                for _ in 0..*count {
                    let kind = shapes[(rng.next_u32() as usize) % shapes.len()];
                    let x = uniform(rng, min.x, max.x);
                    let y = uniform(rng, min.y, max.y);
                    let s = uniform(rng, size.0, size.1);
                    let angle = uniform(rng, -std::f32::consts::PI, std::f32::consts::PI);
                    let a = rng.next_u32();
                    let shape = match kind {
                        ShapeKind::Circle => ShapeSpec::Circle { r: s },
                        ShapeKind::Rect => ShapeSpec::Rect {
                            hx: s,
                            hy: s * (0.5 + 0.5 * unit(a)),
                        },
                        ShapeKind::Ellipse => ShapeSpec::Ellipse {
                            rx: s,
                            ry: s * (0.4 + 0.6 * unit(a)),
                        },
                        ShapeKind::Capsule => ShapeSpec::Capsule {
                            half_height: s * (0.5 + 0.5 * unit(a)),
                            r: 0.5 * s,
                        },
                        ShapeKind::Polygon => {
                            let n = 3 + a % 6;
                            let step = 2.0 * std::f32::consts::PI / n as f32;
                            ShapeSpec::Polygon(
                                (0..n)
                                    .map(|k| {
                                        let t = k as f32 * step;
                                        Vec2::new(s * libm::cosf(t), s * libm::sinf(t))
                                    })
                                    .collect(),
                            )
                        }
                    };
                    let mut b = BodySpec::new(shape, Vec2::new(x, y));
                    b.angle = angle;
                    out.push(b);
                }
            }
            _ => self.generate_machine(out, joints),
        }
    }
}
